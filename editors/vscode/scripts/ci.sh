#!/usr/bin/env bash
# Checks the VS Code extension from a clean state: install from the lockfile, grammar
# tests, type-check and unit tests, then the .vsix package and what it holds. Stops at the
# first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "npm ci"
npm ci --no-audit --no-fund

step "the grammars are up to date with scripts/build-grammar.mjs and scripts/build-xiangqi-grammars.mjs"
node scripts/build-grammar.mjs --check
node scripts/build-xiangqi-grammars.mjs --check

step "TextMate grammar tests"
# A malformed assertion line can send the test tool into a very long regex search.
timeout 600 npx --no-install vscode-tmgrammar-test \
  --grammar ./syntaxes/ppn.tmLanguage.json \
  --grammar ./test/grammars/yaml-stub.tmLanguage.json \
  'test/grammar/*.test.ppn'
timeout 600 npx --no-install vscode-tmgrammar-test \
  --grammar ./syntaxes/annofen.tmLanguage.json \
  --grammar ./syntaxes/xiangqi-fen.tmLanguage.json \
  --grammar ./syntaxes/wxf.tmLanguage.json \
  --grammar ./syntaxes/xay.tmLanguage.json \
  --grammar ./syntaxes/otn.tmLanguage.json \
  'test/grammar/*.test.annofen' 'test/grammar/*.test.fen' 'test/grammar/*.test.wxf' 'test/grammar/*.test.xay' \
  'test/grammar/*.test.otg'

step "tsc (and the game viewer copied in)"
rm -rf out media
node scripts/copy-viewer.mjs
npx --no-install tsc -p .

step "unit tests"
node --test out/test/unit/

step "editor configuration tests (Neovim, Helix, VS Code manifest)"
python3 -m unittest discover -s ../../tests/editors -p 'test_*.py' -v

step "the package holds what a user needs and nothing else (vsce ls, then the .vsix)"
node --test test/scripts/
node scripts/check-package.mjs

step "vsce package"
rm -f ppn.vsix
node scripts/package.mjs --out ppn.vsix
node scripts/check-package.mjs --vsix ppn.vsix
echo "ppn.vsix: $(du -h ppn.vsix | cut -f1)"
