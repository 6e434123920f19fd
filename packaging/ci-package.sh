#!/usr/bin/env bash
# CI step: freeze and build the .deb, then install, run and purge it (packaging/README.md).
# Needs root (or sudo), dpkg-deb and apt-get; Xvfb is used when present.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T0=$(date +%s)
"$ROOT/packaging/build-deb.sh"
T1=$(date +%s)
VERSION="$(cd "$ROOT" && sed -n 's/^__version__ = "\(.*\)"/\1/p' rigbuilder/__init__.py)"
"$ROOT/packaging/smoke-test-deb.sh" "$ROOT/dist/rigbuilder_${VERSION}_$(dpkg --print-architecture).deb"
T2=$(date +%s)
echo "ci-package: build $((T1 - T0)) s, smoke test $((T2 - T1)) s, total $((T2 - T0)) s"
