#!/usr/bin/env bash
# Install each rigbuilder artifact built here silently into a temporary prefix, run it, uninstall
# it and check that nothing is left (the way napari and Spyder test their installers; issue 45).
#
# Usage: packaging/test-install.sh [--wheel FILE] [--deb FILE] [--briefcase-deb FILE]
#                                  [--upgrade] [--quick]
#   (no artifact named)  build the wheel from this checkout (python -m build) and test it
#   --wheel FILE         test this wheel: pipx install into a temporary PIPX_HOME, --version,
#                        the command line, the window offscreen and on Xvfb, --install-shortcut,
#                        --remove-shortcut, pipx uninstall
#   --deb FILE           the PyInstaller .deb: packaging/smoke-test-deb.sh (needs root)
#   --briefcase-deb FILE a .deb Briefcase made (`briefcase package linux system`): dpkg -i,
#                        --version, the command line, the window, dpkg --purge (needs root)
#   --upgrade            also: install the previous version's wheel, write prices, a part and a
#                        build into the user's data folder, upgrade to the new wheel, read them back
#   --quick              build the wheel without the sdist step (CI)
# Env: PKG_TOOLS=DIR   a venv with build and pipx (default: build/pkg-tools, made from PyPI once)
#      SMOKE_XVFB=auto|0|1, SMOKE_EXIT_MS=2000   as packaging/smoke-test-deb.sh
# Prints "INSTALL TEST PASSED" or each failure, and exits 1 on any failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WHEEL="" DEB="" BDEB="" UPGRADE=0 QUICK=0
while (( $# )); do
    case "$1" in
        --wheel) WHEEL="$(readlink -f "$2")"; shift 2 ;;
        --deb) DEB="$(readlink -f "$2")"; shift 2 ;;
        --briefcase-deb) BDEB="$(readlink -f "$2")"; shift 2 ;;
        --upgrade) UPGRADE=1; shift ;;
        --quick) QUICK=1; shift ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "test-install: unknown argument $1" >&2; exit 2 ;;
    esac
done
BUILD_WHEEL=0
[[ -z "$WHEEL" && ( -z "$DEB$BDEB" || $UPGRADE -eq 1 ) ]] && BUILD_WHEEL=1

T0=$(date +%s)
FAILED=0
SKIPPED=()
step() { printf '\n== %s (%ss)\n' "$*" "$(( $(date +%s) - T0 ))"; }
fail() { echo "FAIL: $*" >&2; FAILED=1; }
ok()   { echo "ok: $*"; }

# The pip cache of the person running this (so a clean install does not download Qt every time),
# found before HOME is moved into the temporary folder.
export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$(python3 -m pip cache dir 2>/dev/null || echo "$HOME/.cache/pip")}"
WORK="$(mktemp -d /tmp/rigbuilder-install.XXXXXX)"
XVFB_PID=""
cleanup() {
    [[ -n "$XVFB_PID" ]] && kill "$XVFB_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# --- tools: build and pipx, in their own venv (never the project's) ------------------------------
TOOLS="${PKG_TOOLS:-$ROOT/build/pkg-tools}"
if [[ -n "$WHEEL" || $BUILD_WHEEL -eq 1 || $UPGRADE -eq 1 ]]; then
    if ! "$TOOLS/bin/python" -c "import build, pipx, setuptools, wheel, babel" 2>/dev/null; then
        step "tools venv $TOOLS (build, pipx)"
        python3 -m venv "$TOOLS"
        "$TOOLS/bin/python" -m pip install -q --upgrade pip
        # setuptools, wheel and Babel: the [build-system] requirements, for the --no-isolation build of
        # the previous version in --upgrade
        "$TOOLS/bin/python" -m pip install -q build pipx "setuptools>=77" wheel "babel>=2.12"
    fi
fi

wheel_version() { basename "$1" | cut -d- -f2; }

if (( BUILD_WHEEL )); then
    step "python -m build$( (( QUICK )) && echo ' --wheel')"
    "$TOOLS/bin/python" -m build $( (( QUICK )) && echo --wheel) -o "$WORK/dist" "$ROOT" > "$WORK/build.log" 2>&1 \
        || { tail -30 "$WORK/build.log" >&2; echo "test-install: the build failed" >&2; exit 1; }
    WHEEL="$(ls "$WORK"/dist/rigbuilder-*.whl)"
    ok "built $(basename "$WHEEL") ($(du -h "$WHEEL" | cut -f1))"
fi

# --- an isolated user: home, XDG folders, pipx's folders, all under $WORK ------------------------
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_CACHE_HOME="$WORK/home/.cache"
export XDG_DATA_HOME="$WORK/home/.local/share" XDG_RUNTIME_DIR="$WORK/xdg-runtime"
export PIPX_HOME="$WORK/pipx" PIPX_BIN_DIR="$WORK/bin" PIPX_MAN_DIR="$WORK/man"
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV RIGBUILDER_DATA_DIR RIGBUILDER_CACHE_DIR
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
DATA="$XDG_DATA_HOME/rigbuilder"
cd "$WORK"   # nothing of the checkout may be used by what is installed
PIPX="$TOOLS/bin/pipx"

# --- what every installed rigbuilder must do -------------------------------------------------
cli_smoke() {  # $1 = the rigbuilder command, $2 = the version it must report
    local rb="$1" want="$2" v
    v="$("$rb" --version)" && [[ "$v" == "rigbuilder $want" ]] && ok "$v" || fail "--version says '$v', expected $want"
    "$rb" new --board mb-asrock-x99-ws-e --cpu cpu-intel-xeon-e5-2697-v4 \
        --gpu gpu-nvidia-rtx-3090-fe@1 --gpu gpu-nvidia-rtx-3090-fe@5 \
        --psu psu-evga-supernova-1600-t2 -o sample.rig >/dev/null && [[ -s sample.rig ]] \
        && ok "new -> sample.rig" || fail "rigbuilder new"
    local n
    n=$("$rb" catalog list --kind gpu | grep -c . || true)
    (( n > 10 )) && ok "catalog list --kind gpu: $n lines" || fail "catalog list --kind gpu printed $n lines"
    if "$rb" check sample.rig --lang de 2>&1 | grep -q "WARNUNG\|FEHLER\|HINWEIS"; then
        ok "check --lang de (the translations)"
    else
        fail "check --lang de printed no German finding"
    fi
    "$rb" report sample.rig --format md -o report.md && [[ -s report.md ]] && ok "report --format md" \
        || fail "report --format md"
}

run_app() {  # $1 = the rigbuilder command, $2 = label; the environment chooses the platform
    local rb="$1" label="$2" rc=0 t
    t=$(date +%s%N)
    RIGBUILDER_SMOKE_EXIT_MS="${SMOKE_EXIT_MS:-2000}" timeout 120 "$rb" sample.rig \
        > "app-$label.out" 2> "app-$label.err" || rc=$?
    local ms=$(( ($(date +%s%N) - t) / 1000000 ))
    if (( rc == 0 )) && ! grep -q "Traceback" "app-$label.err"; then
        ok "window ($label) shown with its graphs, exit 0 after ${ms} ms"
    else
        fail "window ($label): exit $rc after ${ms} ms"; tail -20 "app-$label.err" >&2
    fi
}

app_smoke() {  # $1 = the rigbuilder command
    QT_QPA_PLATFORM=offscreen run_app "$1" offscreen
    if [[ "${SMOKE_XVFB:-auto}" == 1 || ( "${SMOKE_XVFB:-auto}" == auto && -x "$(command -v Xvfb)" ) ]]; then
        Xvfb :96 -screen 0 1440x900x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
        XVFB_PID=$!
        sleep 1
        DISPLAY=:96 QT_QPA_PLATFORM=xcb run_app "$1" xcb
        kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; XVFB_PID=""
    else
        SKIPPED+=("window on Xvfb (no Xvfb)")
    fi
}

# --- the wheel through pipx ------------------------------------------------------------------
test_wheel() {
    local whl="$1" version rb venv_py
    version="$(wheel_version "$whl")"
    step "pipx install $(basename "$whl")"
    "$PIPX" install --quiet "$whl" > pipx.log 2>&1 || { cat pipx.log >&2; fail "pipx install"; return; }
    rb="$PIPX_BIN_DIR/rigbuilder"
    [[ -x "$rb" ]] && ok "installed: $rb -> $(readlink -f "$rb")" || { fail "no $rb"; return; }
    venv_py="$PIPX_HOME/venvs/rigbuilder/bin/python"
    # Everything the program reads comes from the environment pipx made, none from the checkout.
    if "$venv_py" - "$PIPX_HOME" <<'PY'
import sys
from pathlib import Path
import rigbuilder
from rigbuilder.catalog.loader import catalog_dir, resources_dir
from rigbuilder.domain.i18n import LOCALE_DIR, catalog
home = Path(sys.argv[1]).resolve()
inside = lambda p: home in Path(p).resolve().parents
assert inside(rigbuilder.__file__), rigbuilder.__file__
assert inside(resources_dir()) and (resources_dir() / "money" / "prices.json").is_file(), resources_dir()
assert inside(LOCALE_DIR) and list(LOCALE_DIR.glob("*/LC_MESSAGES/*.mo")), LOCALE_DIR
assert not list(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")), "the .po sources were shipped"
assert not (catalog_dir() / "catalog.sqlite").exists(), "a checkout's catalog.sqlite was shipped"
assert (resources_dir() / "desktop" / "rigbuilder.desktop").is_file()
assert catalog("ja"), "no Japanese catalog"
print(f"package, catalog, money files, {len(list(LOCALE_DIR.glob('*/LC_MESSAGES/*.mo')))} .mo files "
      "and desktop data are inside the pipx environment")
PY
    then ok "nothing read from the source tree"; else fail "the installed package is incomplete"; fi

    step "command line"
    cli_smoke "$rb" "$version"
    compgen -G "$XDG_CACHE_HOME/rigbuilder/catalog-*.sqlite" >/dev/null \
        && ok "the catalog's database was built in the user's cache" \
        || fail "no catalog database in $XDG_CACHE_HOME/rigbuilder"

    step "desktop app"
    app_smoke "$rb"

    step "--install-shortcut"
    "$rb" --install-shortcut > shortcut.txt || fail "--install-shortcut"
    local entry="$XDG_DATA_HOME/applications/rigbuilder.desktop"
    if [[ -s "$entry" ]]; then
        local tryexec
        tryexec="$(sed -n 's/^TryExec=//p' "$entry")"
        [[ "$tryexec" == "$venv_py" ]] && ok "desktop entry starts $tryexec" || fail "TryExec=$tryexec, expected $venv_py"
        grep -q "^Exec=$venv_py -m rigbuilder %f$" "$entry" || fail "Exec line: $(grep ^Exec= "$entry")"
        [[ "$("$tryexec" -m rigbuilder --version)" == "rigbuilder $version" ]] \
            && ok "the entry's command runs this installation" || fail "the entry's command does not run"
        if command -v desktop-file-validate >/dev/null; then
            desktop-file-validate "$entry" >/dev/null && ok "desktop-file-validate" || fail "desktop-file-validate $entry"
        else
            SKIPPED+=("desktop-file-validate (desktop-file-utils not installed)")
        fi
    else
        fail "no $entry"
    fi
    for s in scalable/apps/rigbuilder.svg 48x48/apps/rigbuilder.png 256x256/apps/rigbuilder.png; do
        [[ -s "$XDG_DATA_HOME/icons/hicolor/$s" ]] || fail "no hicolor icon $s"
    done
    [[ -s "$XDG_DATA_HOME/mime/packages/rigbuilder.xml" ]] || fail "no MIME type"
    ok "$(wc -l < shortcut.txt) files written under \$XDG_DATA_HOME"
    "$rb" --remove-shortcut > /dev/null || fail "--remove-shortcut"
    left=$(find "$XDG_DATA_HOME" \( -name '*rigbuilder*' -a ! -path "$DATA*" \) 2>/dev/null | head -5)
    [[ -z "$left" ]] && ok "--remove-shortcut left nothing" || fail "--remove-shortcut left: $left"

    step "pipx uninstall rigbuilder"
    "$PIPX" uninstall rigbuilder > /dev/null || fail "pipx uninstall"
    # (pipx keeps an empty lock file per name it has installed, venvs/.rigbuilder.lock: pipx's, not ours)
    left=$(find "$PIPX_HOME/venvs" "$PIPX_BIN_DIR" "$PIPX_MAN_DIR" -maxdepth 1 -name '*rigbuilder*' \
           ! -name '.rigbuilder.lock' 2>/dev/null | head -5)
    [[ -z "$left" ]] && ok "nothing of the program left" || fail "left after uninstall: $left"
    [[ -d "$DATA" ]] && ok "the user's data folder stays ($(ls "$DATA" | tr '\n' ' '))"
    rm -rf "$XDG_CACHE_HOME/rigbuilder" "$DATA"
}

# --- upgrade: the previous version's data read by the new one ---------------------------------
previous_wheel() {  # builds the previous version's wheel into $WORK/old-dist; prints its path
    local ref src
    ref="$(git -C "$ROOT" describe --tags --abbrev=0 2>/dev/null || git -C "$ROOT" merge-base HEAD main)"
    src="$WORK/old-src"
    mkdir -p "$src"
    git -C "$ROOT" archive "$ref" | tar -x -C "$src"
    # Before issue 45 the wheel held no catalog (it could not run): that version's code is packaged
    # with this build step, and versioned below the new one so that pip upgrades it.
    cp "$ROOT/setup.py" "$ROOT/MANIFEST.in" "$src/"
    mkdir -p "$src/packaging/linux" && cp "$ROOT"/packaging/linux/* "$src/packaging/linux/"
    sed -i 's/^__version__ = "\(.*\)"/__version__ = "\1.dev0"/' "$src/rigbuilder/__init__.py"
    "$TOOLS/bin/python" -m build --wheel --no-isolation -o "$WORK/old-dist" "$src" > "$WORK/old-build.log" 2>&1 \
        || { tail -20 "$WORK/old-build.log" >&2; return 1; }
    echo "$ref" > "$WORK/old-ref"
    ls "$WORK"/old-dist/rigbuilder-*.whl
}

test_upgrade() {
    local new="$1" old rb ref
    step "upgrade: building the previous version's wheel"
    old="$(previous_wheel)" || { fail "could not build the previous wheel"; return; }
    ref="$(cat "$WORK/old-ref")"
    ok "previous: $(basename "$old") from ${ref:0:12}"
    "$PIPX" install --quiet "$old" > pipx-old.log 2>&1 || { cat pipx-old.log >&2; fail "pipx install (old)"; return; }
    rb="$PIPX_BIN_DIR/rigbuilder"
    ok "$("$rb" --version) installed"
    mkdir -p "$DATA/builds"
    "$rb" catalog template gpu part.csv >/dev/null
    "$rb" catalog import part.csv > /dev/null || fail "catalog import (old)"
    "$rb" price set psu-evga-supernova-1600-t2 300 USD > /dev/null || fail "price set (old)"
    "$rb" price set gpu-my-amd-instinct-mi100 1234 EUR --used > /dev/null || fail "price set (old, own part)"
    "$rb" new --name "Kept across the upgrade" --board mb-asrock-x99-ws-e --cpu cpu-intel-xeon-e5-2697-v4 \
        --gpu gpu-my-amd-instinct-mi100@1 --psu psu-evga-supernova-1600-t2 \
        -o "$DATA/builds/mine.rig" > /dev/null || fail "new (old)"
    "$rb" price export before-prices.csv > /dev/null
    "$rb" catalog export all before-parts.json --format json > /dev/null
    "$rb" check "$DATA/builds/mine.rig" > before-check.txt 2>&1 || true
    ok "written by the previous version: $(ls "$DATA" | tr '\n' ' ')"

    step "upgrade: pipx install --force $(basename "$new")"
    "$PIPX" install --force --quiet "$new" > pipx-new.log 2>&1 || { cat pipx-new.log >&2; fail "pipx install (new)"; return; }
    local v
    v="$("$rb" --version)"
    [[ "$v" == "rigbuilder $(wheel_version "$new")" ]] && ok "upgraded to $v" || fail "after the upgrade: $v"
    "$rb" price export after-prices.csv > /dev/null || fail "price export (new)"
    "$rb" catalog export all after-parts.json --format json > /dev/null || fail "catalog export (new)"
    "$rb" check "$DATA/builds/mine.rig" > after-check.txt 2>&1 || true
    cmp -s before-prices.csv after-prices.csv && grep -q "300" after-prices.csv && grep -q "1234" after-prices.csv \
        && ok "prices read back: $(( $(wc -l < after-prices.csv) - 1 )) rows, unchanged" \
        || fail "prices differ after the upgrade: $(diff before-prices.csv after-prices.csv | head -5)"
    cmp -s before-parts.json after-parts.json && grep -q "gpu-my-amd-instinct-mi100" after-parts.json \
        && ok "your part read back, unchanged" || fail "user parts differ after the upgrade"
    if grep -q "Traceback\|cannot read\|unknown part" after-check.txt || ! grep -q "MI100" after-check.txt; then
        fail "the build does not open after the upgrade: $(head -3 after-check.txt)"
    else
        ok "the build opens: $(head -1 after-check.txt | cut -c1-70)"
    fi
    "$PIPX" uninstall rigbuilder > /dev/null || fail "pipx uninstall"
    rm -rf "$XDG_CACHE_HOME/rigbuilder" "$DATA"
}

# --- a .deb Briefcase made ---------------------------------------------------------------------
test_briefcase_deb() {
    local deb="$1" SUDO=""
    [[ $EUID -ne 0 ]] && SUDO="sudo"
    local pkg version
    pkg="$(dpkg-deb -f "$deb" Package)"; version="$(dpkg-deb -f "$deb" Version)"
    if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "installed"; then
        fail "$pkg is already installed here; remove it first"; return
    fi
    step "dpkg -i $(basename "$deb") (Briefcase)"
    $SUDO dpkg -i "$deb" > dpkg.log 2>&1 || $SUDO apt-get -f install -y --no-install-recommends >> dpkg.log 2>&1 \
        || { tail dpkg.log >&2; fail "dpkg -i"; return; }
    dpkg -L "$pkg" | sort > files.txt
    ok "installed $pkg $version ($(wc -l < files.txt) paths)"
    grep -q "^/usr/share/applications/.*\.desktop$" files.txt && ok "desktop entry $(grep '\.desktop$' files.txt)" \
        || fail "no desktop entry in the package"
    cli_smoke /usr/bin/rigbuilder "$version"
    app_smoke /usr/bin/rigbuilder
    step "dpkg --purge $pkg"
    $SUDO dpkg --purge "$pkg" > /dev/null
    local left=()
    while read -r p; do
        [[ -d "$p" && ! -L "$p" ]] && continue
        [[ -e "$p" || -L "$p" ]] && left+=("$p")
    done < files.txt
    (( ${#left[@]} )) && fail "left behind: ${left[*]:0:5}" || ok "nothing left behind"
    rm -rf "$XDG_CACHE_HOME/rigbuilder" "$DATA"
}

[[ -n "$WHEEL" ]] && test_wheel "$WHEEL"
(( UPGRADE )) && test_upgrade "$WHEEL"
if [[ -n "$DEB" ]]; then
    step "the PyInstaller .deb: packaging/smoke-test-deb.sh"
    "$ROOT/packaging/smoke-test-deb.sh" "$DEB" || fail "packaging/smoke-test-deb.sh $DEB"
fi
[[ -n "$BDEB" ]] && test_briefcase_deb "$BDEB"

step "summary"
for s in "${SKIPPED[@]+"${SKIPPED[@]}"}"; do echo "not checked: $s"; done
if (( FAILED )); then echo "INSTALL TEST FAILED"; exit 1; fi
echo "INSTALL TEST PASSED ($(( $(date +%s) - T0 )) s)"
