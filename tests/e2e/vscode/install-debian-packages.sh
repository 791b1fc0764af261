#!/usr/bin/env bash
# Installs the Debian packages the VS Code end-to-end test needs, if any is missing:
# Chromium (the browser it drives), ripgrep (VS Code's search, put where its npm package
# would download it), a compiler, Python 3, pkg-config and the Kerberos headers (to build
# code-server's native modules), and DejaVu fonts (the monospace font the hover's board is
# checked in). Uses sudo when not run as root.
set -euo pipefail
packages=(build-essential python3 pkg-config libkrb5-dev ripgrep chromium fonts-dejavu-core)
if dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null | grep -vq 'install ok installed' ||
  [ "$(dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null | wc -l)" -ne "${#packages[@]}" ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  started=$SECONDS
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  echo "installed ${packages[*]} in $((SECONDS - started)) s"
else
  echo "${packages[*]}: already installed"
fi
