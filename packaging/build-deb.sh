#!/usr/bin/env bash
# Build the rigbuilder Debian package: PyInstaller one-folder bundle under /opt/rigbuilder,
# a /usr/bin/rigbuilder symlink, desktop entry, MIME type, icons and AppStream metadata.
#
# Usage: packaging/build-deb.sh            (from anywhere; writes dist/rigbuilder_<ver>_<arch>.deb)
# Env:   RIGBUILDER_BUILD_VENV=DIR  Python venv to build with (default: .venv if it exists,
#                                   else build/deb-venv, created and filled from PyPI)
#        PYTHON=python3             interpreter used to create a new venv
#        DEB_COMPRESSION=zstd       dpkg-deb -Z (zstd: about 1 s; xz: smaller, about 60 s)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
T0=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$*" "$(( $(date +%s) - T0 ))"; }

# --- 1. a build venv with the package and PyInstaller ------------------------------------
if [[ -n "${RIGBUILDER_BUILD_VENV:-}" ]]; then
    VENV="$RIGBUILDER_BUILD_VENV"
elif [[ -x "$ROOT/.venv/bin/python" ]]; then
    VENV="$ROOT/.venv"
else
    VENV="$ROOT/build/deb-venv"
fi
if [[ ! -x "$VENV/bin/python" ]]; then
    step "creating build venv $VENV"
    "${PYTHON:-python3}" -m venv "$VENV"
fi
PY="$VENV/bin/python"
if ! "$PY" - <<'PYCHECK' 2>/dev/null
import pathlib, sys
import rigbuilder, PyInstaller, PySide6  # noqa: F401
# the venv must build this checkout (the script runs in its root), not another copy of rigbuilder
sys.exit(0 if pathlib.Path(rigbuilder.__file__).resolve().is_relative_to(pathlib.Path.cwd()) else 1)
PYCHECK
then
    step "installing rigbuilder[package] into $VENV"
    "$PY" -m pip install --quiet --upgrade pip
    "$PY" -m pip install --quiet -e "$ROOT[package]"
fi

VERSION="$("$PY" -c 'import rigbuilder; print(rigbuilder.__version__)')"
ARCH="$(dpkg --print-architecture)"
PKG=rigbuilder
DEB="$ROOT/dist/${PKG}_${VERSION}_${ARCH}.deb"
BUILD="$ROOT/build/deb"
STAGE="$BUILD/root"
echo "rigbuilder $VERSION ($ARCH) with $("$PY" -c 'import PyInstaller; print("PyInstaller", PyInstaller.__version__)')"
if ! grep -q "release version=\"$VERSION\"" packaging/linux/io.github.rigbuilder.metainfo.xml; then
    echo "warning: packaging/linux/io.github.rigbuilder.metainfo.xml has no <release version=\"$VERSION\">" >&2
fi

rm -rf "$BUILD"
mkdir -p "$BUILD" "$ROOT/dist"

# --- 2. freeze -------------------------------------------------------------------------------
step "pyinstaller packaging/rigbuilder.spec"
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$BUILD/pyinstaller-dist" --workpath "$BUILD/pyinstaller-work" \
    packaging/rigbuilder.spec
BUNDLE="$BUILD/pyinstaller-dist/rigbuilder"
RES="$BUNDLE/_internal/rigbuilder/resources"
[[ -d "$RES/catalog" ]] || { echo "error: bundle has no rigbuilder/resources/catalog" >&2; exit 1; }
# The interpreter's own shared objects may carry debug information (a pyenv build does: about
# 25 MB in libpython and lib-dynload); the wheels' libraries are left as they come.
if command -v strip >/dev/null; then
    find "$BUNDLE/_internal" -maxdepth 1 -name 'libpython3*.so*' -type f -exec strip --strip-debug {} +
    find "$BUNDLE/_internal" -path '*/python3.*/lib-dynload/*.so' -type f -exec strip --strip-debug {} +
fi

# --- 3. the prebuilt catalog SQLite (saves the first start building it in the user's cache) ---
step "prebuilding the catalog database"
rm -f "$RES/catalog/catalog.sqlite"
"$PY" -m rigbuilder catalog build-db -o "$RES/catalog/catalog.sqlite"

# --- 4. lay out the file system --------------------------------------------------------------
step "staging $STAGE"
install -d "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
    "$STAGE/usr/share/mime/packages" "$STAGE/usr/share/metainfo" \
    "$STAGE/usr/share/doc/$PKG" "$STAGE/DEBIAN"
cp -a "$BUNDLE" "$STAGE/opt/rigbuilder"
ln -s /opt/rigbuilder/rigbuilder "$STAGE/usr/bin/rigbuilder"
install -m 644 packaging/linux/rigbuilder.desktop "$STAGE/usr/share/applications/rigbuilder.desktop"
install -m 644 packaging/linux/rigbuilder-mime.xml "$STAGE/usr/share/mime/packages/rigbuilder.xml"
install -m 644 packaging/linux/io.github.rigbuilder.metainfo.xml "$STAGE/usr/share/metainfo/io.github.rigbuilder.metainfo.xml"
install -m 644 LICENSE "$STAGE/usr/share/doc/$PKG/copyright"
[[ -f docs/data-sources.md ]] && install -m 644 docs/data-sources.md "$STAGE/usr/share/doc/$PKG/data-sources.md"

# icons: the SVG, and PNG renders made here with Qt's SVG renderer (no committed binaries)
ICONS="$STAGE/usr/share/icons/hicolor"
install -D -m 644 resources/icons/rigbuilder.svg "$ICONS/scalable/apps/rigbuilder.svg"
install -D -m 644 resources/icons/rigbuilder.svg "$ICONS/scalable/mimetypes/application-x-rigbuilder-build.svg"
# the PNGs as `rigbuilder --install-shortcut` makes them (rigbuilder.render.icon, the same sizes)
QT_QPA_PLATFORM=offscreen PYTHONPATH="$ROOT" "$PY" - "$ROOT/resources/icons/rigbuilder.svg" "$ICONS" <<'PYRENDER'
import sys
from pathlib import Path
from PySide6.QtGui import QGuiApplication
from rigbuilder.render.icon import svg_to_png
from rigbuilder.shortcut import ICON_SIZES

app = QGuiApplication(sys.argv[:1])
svg, icons = Path(sys.argv[1]), Path(sys.argv[2])
for size in ICON_SIZES:
    out = icons / f"{size}x{size}" / "apps" / "rigbuilder.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        out.write_bytes(svg_to_png(svg.read_bytes(), size))
    except (OSError, ValueError) as e:
        sys.exit(f"cannot render {svg} at {size} px into {out}: {e}")
    print("icon", out.relative_to(icons))
PYRENDER

# validate the metadata where the tools exist
command -v desktop-file-validate >/dev/null && desktop-file-validate "$STAGE/usr/share/applications/rigbuilder.desktop"
command -v appstreamcli >/dev/null && appstreamcli validate --no-net --pedantic "$STAGE/usr/share/metainfo/io.github.rigbuilder.metainfo.xml" || true

# --- 5. DEBIAN control files -----------------------------------------------------------------
# PyInstaller bundles Qt, ICU and Python, but not libGL/libEGL/libxcb1, nor the xcb plugin's
# libraries (shared/platform-notes.md): the package depends on those.
DEPENDS="libc6, libgl1, libegl1, libxcb1, libx11-6, libx11-xcb1, libfontconfig1, fontconfig-config,
 fonts-dejavu-core, libfreetype6, libxkbcommon0, libxkbcommon-x11-0, libdbus-1-3, libglib2.0-0, libcups2,
 libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-image0, libxcb-randr0, libxcb-render-util0,
 libxcb-shape0, libxcb-xfixes0, libxcb-xkb1, libxcb-sync1, libxcb-shm0, libxcb-render0, libxcb-util1,
 libxcb-glx0, libwayland-client0, libwayland-cursor0, libwayland-egl1, fonts-noto-cjk"
INSTALLED_KB="$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)"
cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: $PKG
Version: $VERSION
Architecture: $ARCH
Maintainer: The rigbuilder developers <rigbuilder@users.noreply.github.com>
Installed-Size: $INSTALLED_KB
Depends: $(echo "$DEPENDS" | tr -s ' \n' ' ' | sed 's/ *$//')
Recommends: shared-mime-info, desktop-file-utils
Suggests: xdg-utils
Section: science
Priority: optional
Description: plan multi-GPU deep-learning workstations
 rigbuilder places GPUs in the slots of a motherboard and checks the build:
 covered slots and cooling, PCIe lane sharing, case fit, power supply load
 with transient spikes, and running cost. A desktop app (Qt) and a command
 line for checks and reports. Self-contained build (PyInstaller) in
 /opt/rigbuilder.
CONTROL

cat > "$STAGE/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = "configure" ]; then
    command -v update-mime-database >/dev/null 2>&1 && update-mime-database /usr/share/mime || true
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q /usr/share/applications || true
    command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
fi
exit 0
SCRIPT
cat > "$STAGE/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
# byte-code caches Python may have written next to the bundled Alembic scripts
if [ -d /opt/rigbuilder ]; then
    find /opt/rigbuilder -depth -type d -name __pycache__ -exec rm -rf {} + 2>/dev/null || true
fi
exit 0
SCRIPT
cat > "$STAGE/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
case "$1" in
    remove|purge|abort-install|abort-upgrade)
        command -v update-mime-database >/dev/null 2>&1 && update-mime-database /usr/share/mime || true
        command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q /usr/share/applications || true
        command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
        ;;
esac
exit 0
SCRIPT
chmod 755 "$STAGE/DEBIAN/postinst" "$STAGE/DEBIAN/prerm" "$STAGE/DEBIAN/postrm"

# --- 6. build the .deb -----------------------------------------------------------------------
step "dpkg-deb --build"
find "$STAGE" -type d -exec chmod 755 {} +
rm -f "$DEB"
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-zstd}" --build "$STAGE" "$DEB"

step "done"
echo "package:        $DEB"
echo "package size:   $(du -h "$DEB" | cut -f1) ($(stat -c %s "$DEB") bytes)"
echo "installed size: $(( INSTALLED_KB / 1024 )) MiB ($INSTALLED_KB KiB)"
# The budget: 250 MiB until the catalog took 4,000 priced memory kits and drives (13 MB of JSON
# and prebuilt database) and the lab database's PostgreSQL driver (psycopg with its libpq, 10.6 MB):
# 269 MiB measured then. 285 MiB leaves room for a few months of catalog growth, no more.
if (( INSTALLED_KB > 285 * 1024 )); then
    echo "error: installed size is over 285 MiB" >&2
    exit 1
fi
