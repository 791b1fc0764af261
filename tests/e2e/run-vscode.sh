#!/usr/bin/env bash
# Runs the VS Code extension in a real VS Code: code-server 4.100.3 (VS Code 1.100.3 for the
# browser, from npm) with the platform .vsix, which carries its own ppn-ls, installed in a
# fresh profile, and headless Chromium driven by playwright-core (tests/e2e/vscode/).
#
# Needs Node.js 20 (code-server 4.100.3 is the last release that runs on it), Chromium,
# ripgrep, a C/C++ toolchain, Python 3, pkg-config and the Kerberos headers (code-server's
# native modules are built from source): on Debian, `apt-get install build-essential
# python3 pkg-config libkrb5-dev ripgrep chromium fonts-dejavu-core`. The first run installs
# code-server and playwright-core into target/vscode-e2e/ (npm's downloads cached in
# target/npm-cache/); later runs reuse them. The ppn-ls bundled is $PPN_LS if set
# (scripts/test passes the one `cargo test` built), else a fresh `cargo build`.
#
# Without those system packages, or with another Node.js, the test says it is skipped and
# why (scripts/lib/skip.sh: a failure where skips are forbidden, as in CI).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
prefix="$root/target/vscode-e2e"
started=$SECONDS

missing=()
for tool in node npm chromium rg cc c++ make python3 pkg-config krb5-config; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
source "$root/scripts/lib/skip.sh"
skip() {
  skip_test vscode "$*"
}
if [ "${#missing[@]}" -gt 0 ]; then
  skip "${missing[*]} not found (on Debian: apt-get install build-essential python3 pkg-config libkrb5-dev ripgrep chromium fonts-dejavu-core)"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  skip "code-server 4.100.3 needs Node.js 20, and this is $(node --version)"
fi

# code-server and playwright-core, installed again only when the lockfile or Node changes.
stamp="$prefix/installed-$(cat tests/e2e/vscode/package-lock.json | sha256sum | cut -c1-16)-$(node --version)"
if [ ! -f "$stamp" ]; then
  echo "installing code-server 4.100.3 and playwright-core into target/vscode-e2e/"
  install_started=$SECONDS
  rm -rf "$prefix/node_modules" "$prefix"/installed-*
  mkdir -p "$prefix/tmp"
  cp tests/e2e/vscode/package.json tests/e2e/vscode/package-lock.json "$prefix/"
  node_prefix=$(node -p 'require("path").resolve(process.execPath, "..", "..")')
  if [ ! -f "$node_prefix/include/node/common.gypi" ]; then
    skip "no headers of Node.js $(node --version) in $node_prefix/include/node (code-server's native modules are built against them)"
  fi
  # @vscode/ripgrep's install script downloads rg from GitHub unless its cache (under the
  # temporary directory) has the archive: give it Debian's rg.
  ripgrep_cache="$prefix/tmp/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$ripgrep_cache" "$prefix/tmp/rg"
  cp "$(command -v rg)" "$prefix/tmp/rg/rg"
  tar -C "$prefix/tmp/rg" -czf "$ripgrep_cache/ripgrep-v13.0.0-10-$(uname -m)-unknown-linux-musl.tar.gz" rg
  # code-server's install script runs `npm install` for VS Code's own packages, whose
  # native modules build against the headers of the Node.js that runs this (in /usr for a
  # system package, beside the binary for one from nodejs.org, as actions/setup-node
  # installs it): node-gyp would download them otherwise. npm 11 runs dependencies'
  # install scripts only when allowed, and those nested installs have no list of their
  # own: allow them all for this pinned, locked install.
  (cd "$prefix" && TMPDIR="$prefix/tmp" \
    npm_config_cache="$root/target/npm-cache" \
    npm_config_nodedir="$node_prefix" npm_config_unsafe_perm=true npm_config_yes=true \
    npm_config_dangerously_allow_all_scripts=true \
    npm ci --no-audit --no-fund --loglevel=error >"$prefix/install.log" 2>&1) || {
    tail -40 "$prefix/install.log" >&2
    echo "run-vscode.sh: installing code-server failed; the whole log is $prefix/install.log" >&2
    exit 1
  }
  touch "$stamp"
  echo "installed in $((SECONDS - install_started)) s"
fi

if [ -z "${PPN_LS:-}" ]; then
  cargo build -p ppn-ls
  PPN_LS="target/debug/ppn-ls"
fi
if [ ! -d editors/vscode/node_modules/@vscode/vsce ]; then
  (cd editors/vscode && npm ci --no-audit --no-fund)
fi
vsix="$prefix/ppn-e2e.vsix"
# The README's picture at its address in the repository on GitHub, as a release's package
# has it (the test checks the address; with no network here, it cannot fetch it).
export PPN_REPOSITORY_URL="${PPN_REPOSITORY_URL:-https://github.com/ppn-ls/ppn-ls}"
export PPN_REPOSITORY_REF="${PPN_REPOSITORY_REF:-HEAD}"
node editors/vscode/scripts/package-with-server.mjs --server "$PPN_LS" --out "$vsix" >"$prefix/package.log" 2>&1 || {
  cat "$prefix/package.log" >&2
  exit 1
}
# What the platform .vsix holds: what a user needs (its ppn-ls too), nothing else.
node editors/vscode/scripts/check-package.mjs --vsix "$vsix"
echo "packaged $(basename "$vsix") with $PPN_LS ($((SECONDS - started)) s)"

# The test imports playwright-core from the install beside it.
cp tests/e2e/vscode/vscode_test.mjs "$prefix/vscode_test.mjs"
rm -rf "$prefix/artifacts"
CODE_SERVER="$prefix/node_modules/.bin/code-server" VSIX="$vsix" ARTIFACTS="$prefix/artifacts" EXAMPLES="$root/examples" \
  README_PICTURE="$PPN_REPOSITORY_URL/raw/$PPN_REPOSITORY_REF/editors/vscode/images/board-panel.png" \
  timeout 900 node "$prefix/vscode_test.mjs"
echo "VS Code end-to-end test: $((SECONDS - started)) s in all"
