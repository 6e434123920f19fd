#!/usr/bin/env bash
# Set up rigbuilder on a fresh Debian or Ubuntu machine with Python 3.11 or newer:
# the system libraries Qt needs (../shared/platform-notes.md), a virtual environment in .venv,
# and the package with its test extra. Safe to run again.
#   scripts/setup.sh          install the app
#   scripts/setup.sh --test   install the app and what the tests need
set -euo pipefail
cd "$(dirname "$0")/.."

QT_LIBS="libgl1 libegl1 libfontconfig1 fontconfig-config fonts-dejavu-core libxkbcommon0 libglib2.0-0
libdbus-1-3 libcups2 libx11-xcb1 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1
libxcb-image0 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xfixes0 libxcb-xkb1 libxcb-sync1
libxcb-shm0 libxcb-render0 libxcb-util1 libxcb-glx0
fonts-noto-cjk"  # Japanese and Chinese text in the window and the PDF report (issue 19)
TEST_TOOLS="poppler-utils xvfb desktop-file-utils"  # desktop-file-validate: the installed shortcut (issue 45)
# The lab database's tests start a private PostgreSQL server in a temporary folder (issue 30):
# the server from Debian's packages; the tests never use or leave a running system cluster.
LAB_DB_TEST_TOOLS="postgresql"

extra=""
pkgs="$QT_LIBS"
if [ "${1:-}" = "--test" ]; then
  extra="[test]"
  pkgs="$pkgs $TEST_TOOLS $LAB_DB_TEST_TOOLS"
fi

missing=$(dpkg-query -W -f='${Package} ${Status}\n' $pkgs 2>/dev/null | awk '$NF!="installed"{print $1}' || true)
for p in $pkgs; do dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"; done
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ -n "${missing// /}" ]; then
  echo "Installing system packages: $missing"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  # Another package manager (an automatic update) may hold the lock: wait for it, saying so.
  scripts/wait-apt-lock.sh
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".$extra"
# What a package carries too: the shipped catalog's database prebuilt (a first start reads it
# instead of building it; rebuilt in the cache only if the catalog files change or it is damaged)
# and compiled byte code (without it every start takes about a third longer).
.venv/bin/python -m rigbuilder catalog build-db -o resources/catalog/catalog.sqlite >/dev/null
env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m compileall -q rigbuilder >/dev/null || true
echo "rigbuilder is installed in .venv"
