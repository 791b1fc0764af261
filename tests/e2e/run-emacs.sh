#!/usr/bin/env bash
# Runs the end-to-end test of editors/emacs in the real Emacs (batch mode, with Eglot and
# Flymake) against a ppn-ls binary: the one in $PPN_LS if set (scripts/test passes the one
# `cargo test` built), else a fresh `cargo build`. Needs Emacs 29+, or Emacs 28 with Eglot
# (Debian 12: `apt-get install emacs-nox elpa-eglot`, which scripts/install-test-requirements
# does); without them it fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
missing() {
  echo "Emacs test: $* (Debian 12: apt-get install emacs-nox elpa-eglot)" >&2
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
