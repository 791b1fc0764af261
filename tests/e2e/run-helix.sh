#!/usr/bin/env bash
# Drives the real Helix (`hx`) in a private tmux server with the project's Helix set-up
# (editors/helix, as its README says) against a ppn-ls binary: the one in $PPN_LS if set
# (scripts/test passes the one `cargo test` built), else a fresh `cargo build`.
#
# Helix is not packaged for Debian 12: the test uses the build in $PPN_HELIX_DIR, by default
# ../shared/tools/helix beside the clone (hx, its runtime/ and the YAML grammar's sources).
# Without it, or without tmux or a C compiler, it says why it is skipped (scripts/lib/skip.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
helix_dir="${PPN_HELIX_DIR:-../shared/tools/helix}"
source scripts/lib/skip.sh
skip() {
  skip_test helix "$*"
}
[ -x "$helix_dir/hx" ] || skip "no Helix build at $helix_dir (set PPN_HELIX_DIR to a folder holding hx and its runtime/)"
[ -d "$helix_dir/runtime" ] || skip "$helix_dir has no runtime/"
command -v tmux > /dev/null || skip "tmux is not installed"
command -v cc > /dev/null || skip "no C compiler (cc) to build the grammars"
command -v python3 > /dev/null || skip "python3 is not installed"
if [ -z "${PPN_LS:-}" ]; then
  cargo build -p ppn-ls
  PPN_LS="target/debug/ppn-ls"
fi
helix_dir="$(cd "$helix_dir" && pwd)"
ppn_ls="$(cd "$(dirname "$PPN_LS")" && pwd)/$(basename "$PPN_LS")"
echo "$("$helix_dir/hx" --version) and $(tmux -V) against $ppn_ls"
timeout 300 python3 tests/e2e/helix_test.py "$helix_dir" "$ppn_ls"
