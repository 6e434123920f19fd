#!/usr/bin/env bash
# CI step: freeze and build the .deb, then install, run and purge it; then the same for the wheel
# through pipx (packaging/README.md).
# Needs root (or sudo), dpkg-deb and apt-get; Xvfb is used when present.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T0=$(date +%s)
"$ROOT/packaging/build-deb.sh"
T1=$(date +%s)
VERSION="$(cd "$ROOT" && sed -n 's/^__version__ = "\(.*\)"/\1/p' rigbuilder/__init__.py)"
"$ROOT/packaging/smoke-test-deb.sh" "$ROOT/dist/rigbuilder_${VERSION}_$(dpkg --print-architecture).deb"
T2=$(date +%s)
# The wheel (issue 45): built, installed with pipx into a temporary home, run, uninstalled.
"$ROOT/packaging/test-install.sh" --quick
T3=$(date +%s)
echo "ci-package: build $((T1 - T0)) s, smoke test $((T2 - T1)) s, wheel install test $((T3 - T2)) s, total $((T3 - T0)) s"
