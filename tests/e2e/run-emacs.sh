#!/usr/bin/env bash
# Runs the end-to-end test of editors/emacs in the real Emacs (batch mode, with Eglot and
# Flymake) against a ppn-ls binary: the one in $PPN_LS if set (scripts/test passes the one
# `cargo test` built), else a fresh `cargo build`. Needs Emacs 29+, or Emacs 28 with Eglot
# (Debian 12: `apt-get install emacs-nox elpa-eglot`, which .ci/run does); without them it
# fails, unless PPN_SKIP_EMACS=1 says to skip it.
set -euo pipefail
cd "$(dirname "$0")/../.."
missing() {
  if [ "${PPN_SKIP_EMACS:-}" = 1 ]; then
    echo "Emacs test SKIPPED (PPN_SKIP_EMACS=1): $*"
    exit 0
  fi
  echo "Emacs test: $*" >&2
  echo "Install Emacs with Eglot (Debian 12: apt-get install emacs-nox elpa-eglot), or set PPN_SKIP_EMACS=1 to skip this test." >&2
  exit 1
}
command -v emacs > /dev/null || missing "emacs is not installed"
emacs --batch --eval "(require 'eglot)" > /dev/null 2>&1 || missing "Emacs has no Eglot"
if [ -z "${PPN_LS:-}" ]; then
  cargo build -p ppn-ls
  PPN_LS="target/debug/ppn-ls"
fi
bin_dir="$(cd "$(dirname "$PPN_LS")" && pwd)"
echo "$(emacs --version | head -1) against $bin_dir/$(basename "$PPN_LS")"

# The package compiles without a warning.
compiled="$(mktemp -d)"
trap 'rm -rf "$compiled"' EXIT
cp editors/emacs/ppn-ls.el "$compiled/"
emacs --batch --eval "(require 'eglot)" --eval "(setq byte-compile-error-on-warn t)" \
  -f batch-byte-compile "$compiled/ppn-ls.el"

PATH="$bin_dir:$PATH" timeout 120 emacs --batch -l tests/e2e/emacs_test.el
