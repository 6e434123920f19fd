#!/usr/bin/env bash
# Smoke-test the rigbuilder .deb: install it, run the installed program (desktop app offscreen,
# under Xvfb too when Xvfb is there, and the command line), then purge it and check that
# nothing is left behind. Needs root (or sudo) and a machine where rigbuilder is not installed.
#
# Usage: packaging/smoke-test-deb.sh [path/to/rigbuilder_VER_ARCH.deb]   (default: newest in dist/)
# Env:   SMOKE_XVFB=auto|0|1   also start the app on a real X server (Xvfb); auto = when Xvfb exists
#        SMOKE_EXIT_MS=2000    how long the app stays up after its window is shown
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEB="${1:-$(ls -t "$ROOT"/dist/rigbuilder_*.deb 2>/dev/null | head -1)}"
[[ -f "$DEB" ]] || { echo "smoke: no .deb given and none in dist/ (run packaging/build-deb.sh)" >&2; exit 2; }
DEB="$(readlink -f "$DEB")"
SUDO=""
if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "smoke: needs root or sudo" >&2; exit 2; }
    SUDO="sudo"
fi
if dpkg-query -W -f='${Status}' rigbuilder 2>/dev/null | grep -q "installed"; then
    echo "smoke: rigbuilder is already installed here; remove it first (dpkg -r rigbuilder)" >&2
    exit 2
fi

T0=$(date +%s)
FAILED=0
SKIPPED=()
step() { printf '\n== %s (%ss)\n' "$*" "$(( $(date +%s) - T0 ))"; }
fail() { echo "FAIL: $*" >&2; FAILED=1; }
ok()   { echo "ok: $*"; }

WORK="$(mktemp -d /tmp/rigbuilder-smoke.XXXXXX)"
export RIGBUILDER_DATA_DIR="$WORK/data" RIGBUILDER_CACHE_DIR="$WORK/cache"
export XDG_CONFIG_HOME="$WORK/xdg-config" XDG_CACHE_HOME="$WORK/xdg-cache" XDG_DATA_HOME="$WORK/xdg-data"
export XDG_RUNTIME_DIR="$WORK/xdg-runtime"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV
INSTALLED=0
XVFB_PID=""
cleanup() {
    [[ -n "$XVFB_PID" ]] && kill "$XVFB_PID" 2>/dev/null || true
    if [[ $INSTALLED -eq 1 ]]; then $SUDO dpkg --purge rigbuilder >/dev/null 2>&1 || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"   # nothing from the checkout may be used by the installed program

# --- install ---------------------------------------------------------------------------------
step "dpkg -i $(basename "$DEB")"
if ! $SUDO dpkg -i "$DEB"; then
    echo "smoke: dpkg -i left dependencies open; apt-get -f install"
    $SUDO apt-get -f install -y --no-install-recommends
fi
INSTALLED=1
[[ "$(dpkg-query -W -f='${Status}' rigbuilder)" == "install ok installed" ]] || { fail "package not installed"; exit 1; }
dpkg -L rigbuilder | sort > "$WORK/files.txt"
ok "installed ($(dpkg-query -W -f='${Installed-Size}' rigbuilder) KiB, $(wc -l < "$WORK/files.txt") paths)"
[[ "$(command -v rigbuilder)" == /usr/bin/rigbuilder ]] || fail "rigbuilder on PATH is $(command -v rigbuilder)"
for f in /usr/share/applications/rigbuilder.desktop /usr/share/mime/packages/rigbuilder.xml \
         /usr/share/metainfo/io.github.rigbuilder.metainfo.xml \
         /usr/share/icons/hicolor/{48x48,128x128,256x256}/apps/rigbuilder.png \
         /usr/share/icons/hicolor/scalable/apps/rigbuilder.svg; do
    [[ -s "$f" ]] || fail "missing $f"
done
if command -v update-mime-database >/dev/null; then
    [[ -f /usr/share/mime/application/x-rigbuilder-build.xml ]] && ok "MIME type registered" \
        || fail "postinst did not register application/x-rigbuilder-build"
else
    SKIPPED+=("MIME database update (no shared-mime-info here)")
fi

# --- command line ----------------------------------------------------------------------------
step "command line"
DEB_VERSION="$(dpkg-deb -f "$DEB" Version)"
V="$(rigbuilder --version)"
[[ "$V" == "rigbuilder $DEB_VERSION" ]] && ok "$V" || fail "--version says '$V', package is $DEB_VERSION"

rigbuilder new --board mb-asrock-x99-ws-e --cpu cpu-intel-xeon-e5-2697-v4 \
    --gpu gpu-nvidia-rtx-3090-fe@1 --gpu gpu-nvidia-rtx-3090-fe@5 \
    --psu psu-evga-supernova-1600-t2 -o sample.rig && [[ -s sample.rig ]] && ok "new -> sample.rig" \
    || fail "rigbuilder new"

if rigbuilder catalog list --kind gpu > gpus.txt; then
    n=$(wc -l < gpus.txt)
    grep -q "gpu-nvidia-rtx-3090-fe" gpus.txt && (( n > 10 )) && ok "catalog list --kind gpu: $n lines" \
        || fail "catalog list --kind gpu printed $n lines without the RTX 3090 FE"
else
    fail "rigbuilder catalog list --kind gpu"
fi
# the prebuilt catalog in /opt must be used as is, not rebuilt into the user's cache
if compgen -G "$RIGBUILDER_CACHE_DIR/catalog-*.sqlite" >/dev/null; then
    fail "the shipped catalog.sqlite was not used (a copy was built in the cache)"
else
    ok "prebuilt catalog database used"
fi

# Findings in another language, numbers formatted by the frozen Babel (its trimmed locale data).
rigbuilder check sample.rig --lang de > check-de.txt 2>&1 || true
if grep -q "HINWEIS\|FEHLER\|WARNUNG" check-de.txt && ! grep -q "Traceback" check-de.txt; then
    ok "check --lang de: $(head -c 60 check-de.txt | tr '\n' ' ')"
else
    fail "rigbuilder check --lang de: $(tail -3 check-de.txt)"
fi
if rigbuilder report sample.rig --format md -o report.md && [[ -s report.md ]]; then
    ok "report --format md: $(wc -c < report.md) bytes"
else
    fail "rigbuilder report sample.rig --format md"
fi
if rigbuilder report sample.rig -o report.pdf && [[ -s report.pdf ]]; then
    ok "report PDF (offscreen Qt printing in the bundle): $(wc -c < report.pdf) bytes"
else
    fail "rigbuilder report sample.rig -o report.pdf"
fi

# --- desktop app -----------------------------------------------------------------------------
run_app() {  # $1 = label; environment chooses the platform
    local label="$1" rc=0 t=$(date +%s%N)
    RIGBUILDER_SMOKE_EXIT_MS="${SMOKE_EXIT_MS:-2000}" timeout 90 rigbuilder sample.rig \
        > "app-$label.out" 2> "app-$label.err" || rc=$?
    local ms=$(( ($(date +%s%N) - t) / 1000000 ))
    # RIGBUILDER_SMOKE_EXIT_MS makes the app exit 3 if its graphs did not load.
    if (( rc == 0 )) && ! grep -q "Traceback" "app-$label.err"; then
        ok "app ($label) showed its window with its graphs and exited 0 after ${ms} ms"
    else
        fail "app ($label) exit $rc after ${ms} ms"; tail -20 "app-$label.err" >&2
    fi
}
step "desktop app, offscreen"
if true; then
    QT_QPA_PLATFORM=offscreen run_app offscreen
    # The window in Japanese from the system locale: the compiled catalogs, Qt's own translations
    # and the locale's number format as the bundle ships them.
    LANG=ja_JP.UTF-8 QT_QPA_PLATFORM=offscreen run_app offscreen-ja
    if [[ "${SMOKE_XVFB:-auto}" == 1 || ( "${SMOKE_XVFB:-auto}" == auto && -x "$(command -v Xvfb)" ) ]]; then
        step "desktop app, Xvfb (xcb)"
        Xvfb :97 -screen 0 1440x900x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
        XVFB_PID=$!
        sleep 1
        DISPLAY=:97 QT_QPA_PLATFORM=xcb run_app xcb
        kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; XVFB_PID=""
    else
        SKIPPED+=("desktop app on xcb (no Xvfb)")
    fi
fi

# --- remove and check nothing is left behind -------------------------------------------------
step "dpkg --purge rigbuilder"
$SUDO dpkg --purge rigbuilder
INSTALLED=0
dpkg-query -W -f='${Status}' rigbuilder 2>/dev/null | grep -q "installed" && fail "still installed"
left=()
while read -r p; do
    [[ -e "$p" || -L "$p" ]] || continue
    [[ -d "$p" && ! -L "$p" && "$p" != /opt/rigbuilder* ]] && continue  # shared directories stay
    left+=("$p")
done < "$WORK/files.txt"
for p in /opt/rigbuilder /usr/bin/rigbuilder /usr/share/applications/rigbuilder.desktop \
         /usr/share/mime/packages/rigbuilder.xml /usr/share/mime/application/x-rigbuilder-build.xml \
         /usr/share/metainfo/io.github.rigbuilder.metainfo.xml /usr/share/doc/rigbuilder; do
    [[ -e "$p" || -L "$p" ]] && left+=("$p")
done
left+=($(find /usr/share/icons/hicolor -name 'rigbuilder*' -o -name 'application-x-rigbuilder*' 2>/dev/null))
if (( ${#left[@]} )); then
    fail "left behind after purge: $(printf '%s ' "${left[@]}" | sort -u)"
else
    ok "nothing left behind"
fi

step "summary"
for s in "${SKIPPED[@]}"; do echo "not checked: $s"; done
if (( FAILED )); then echo "SMOKE TEST FAILED"; exit 1; fi
echo "SMOKE TEST PASSED"
