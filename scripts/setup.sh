#!/usr/bin/env bash
# Installs what the build, the tests and the demo need; does nothing when all is there.
set -euo pipefail
DEBS="libncursesw5-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libcurl4-openssl-dev libidn2-dev libsqlite3-dev libwslay-dev liblcms2-dev libssl-dev ncurses-term tmux python3 python3-pytest curl man-db groff-base dpkg-dev zsh fish faketime"
missing=""
for p in $DEBS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
if ! python3 -c 'import aiohttp' 2>/dev/null; then
  echo "setup: installing Python package aiohttp"
  python3 -m pip install -q aiohttp 2>/dev/null || python3 -m pip install -q --break-system-packages aiohttp
fi
# Debian's python3-pytest serves /usr/bin/python3; the python3 first on PATH may be another
# (pyenv, a venv), which gets pytest as it got aiohttp.
if ! python3 -c 'import pytest' 2>/dev/null; then
  echo "setup: installing Python package pytest"
  python3 -m pip install -q pytest 2>/dev/null || python3 -m pip install -q --break-system-packages pytest
fi
if ! locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
  echo "setup: warning: no C.UTF-8 locale; the dashboard needs a UTF-8 locale" >&2
fi
exit 0
