"""The menu entry an installed wheel adds for itself (``rigbuilder --install-shortcut``, issue 45).

Plain Python, no Qt: each system's shortcut is written from its published format, as bytes a test
can read back. Icons are rasterised by a function the caller passes in (the command line gives
one that uses Qt's SVG renderer); without it Linux gets the scalable SVG only and Windows and macOS
fall back to the Python interpreter's icon.

- **Linux** (tested here): a desktop entry (freedesktop.org Desktop Entry Specification 1.5) in
  ``$XDG_DATA_HOME/applications``, the icon in the ``hicolor`` theme under ``$XDG_DATA_HOME/icons``
  (Icon Theme Specification), the ``.rig`` MIME type in ``$XDG_DATA_HOME/mime/packages``
  (Shared MIME-info Database); the desktop and MIME caches are refreshed when their tools exist.
- **Windows** (content tested here, not run on Windows): ``rigbuilder.lnk`` in the user's Start
  Menu (``%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs``), a Shell Link per Microsoft's
  [MS-SHLLINK] specification, starting ``pythonw.exe -m rigbuilder`` (no console window); its icon a
  PNG-in-ICO file in ``%LOCALAPPDATA%\\rigbuilder``.
- **macOS** (content tested here, not run on a Mac): ``~/Applications/rigbuilder.app``, a bundle
  (Apple's Bundle Programming Guide: ``Contents/Info.plist``, ``Contents/MacOS/<executable>``,
  ``Contents/Resources/<icon>.icns``) whose executable is a shell script starting the installed
  interpreter; Launchpad and Spotlight list it.

``--remove-shortcut`` deletes exactly those files (a macOS bundle only when its Info.plist names
rigbuilder's bundle identifier) and refreshes the caches again.
"""
from __future__ import annotations

import os
import plistlib
import shlex
import shutil
import struct
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

from rigbuilder import __version__

APP_ID = "io.github.rigbuilder"
NAME = "rigbuilder"
ICON_SIZES = (48, 128, 256)
MAC_ICON_TYPES = {128: b"ic07", 256: b"ic08", 512: b"ic09"}
"""Apple's icns OSTypes whose data is a PNG image of that many pixels square."""

RenderPng = Callable[[int], bytes]
"""size in pixels -> the app icon as PNG bytes."""


@dataclass(frozen=True)
class Written:
    path: Path
    data: bytes
    mode: int = 0o644


def system_name(platform: Optional[str] = None) -> str:
    p = platform or sys.platform
    if p.startswith("win"):
        return "windows"
    if p == "darwin":
        return "macos"
    return "linux"


def launch_command() -> list[str]:
    """How the shortcut starts this installation: its own interpreter (inside the pipx or uv
    environment) running the package, so it works whether or not that environment's ``bin``
    folder is on the desktop's PATH."""
    exe = Path(sys.executable)
    if system_name() == "windows":
        gui = exe.with_name("pythonw.exe")
        if gui.exists():
            exe = gui
    return [str(exe), "-m", NAME]


def _desktop_data(name: str) -> bytes:
    """A file of the desktop entry data: inside the installed package (the wheel's build step puts
    packaging/linux there), or the checkout's packaging/linux."""
    from rigbuilder.catalog.loader import resources_dir

    res = resources_dir()
    for folder in (res / "desktop", res.parent / "packaging" / "linux"):
        if (folder / name).is_file():
            return (folder / name).read_bytes()
    raise FileNotFoundError(f"{res / 'desktop' / name}: the desktop entry data is not installed")


def _icon_svg() -> bytes:
    from rigbuilder.catalog.loader import resources_dir

    return (resources_dir() / "icons" / "rigbuilder.svg").read_bytes()


# --------------------------------------------------------------------------- Linux

def desktop_exec_arg(arg: str) -> str:
    """One argument of a desktop entry's Exec key: quoted when it holds a reserved character, with
    the specification's escapes inside the quotes, then the key file's own escape of ``\\``."""
    reserved = set(" \t\n\"'\\><~|&;$*?#()`")
    out = arg.replace("%", "%%")
    if any(c in reserved for c in out):
        for c in ("\\", '"', "`", "$"):
            out = out.replace(c, "\\" + c)
        out = f'"{out}"'
    return out.replace("\\", "\\\\")


def desktop_entry(template: bytes, command: Sequence[str]) -> bytes:
    """The packaged desktop entry with Exec and TryExec pointing at this installation."""
    lines = []
    for line in template.decode("utf-8").splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + " ".join(desktop_exec_arg(a) for a in command) + " %f"
        elif line.startswith("TryExec="):
            line = "TryExec=" + command[0].replace("\\", "\\\\")
        lines.append(line)
    return ("\n".join(lines) + "\n").encode("utf-8")


def linux_files(data_home: Path, command: Sequence[str], render_png: Optional[RenderPng]) -> list[Written]:
    svg = _icon_svg()
    icons = data_home / "icons" / "hicolor"
    out = [
        Written(data_home / "applications" / f"{NAME}.desktop",
                desktop_entry(_desktop_data(f"{NAME}.desktop"), command)),
        Written(data_home / "mime" / "packages" / f"{NAME}.xml", _desktop_data(f"{NAME}-mime.xml")),
        Written(icons / "scalable" / "apps" / f"{NAME}.svg", svg),
        Written(icons / "scalable" / "mimetypes" / "application-x-rigbuilder-build.svg", svg),
    ]
    if render_png:
        out += [Written(icons / f"{s}x{s}" / "apps" / f"{NAME}.png", render_png(s)) for s in ICON_SIZES]
    return out


def linux_paths(data_home: Path) -> list[Path]:
    icons = data_home / "icons" / "hicolor"
    return ([data_home / "applications" / f"{NAME}.desktop", data_home / "mime" / "packages" / f"{NAME}.xml",
             icons / "scalable" / "apps" / f"{NAME}.svg",
             icons / "scalable" / "mimetypes" / "application-x-rigbuilder-build.svg"]
            + [icons / f"{s}x{s}" / "apps" / f"{NAME}.png" for s in ICON_SIZES])


def _refresh_linux_caches(data_home: Path) -> None:
    """The desktop and MIME databases of the user's data folder, when their tools are installed."""
    for tool, arg in (("update-desktop-database", data_home / "applications"),
                      ("update-mime-database", data_home / "mime")):
        if shutil.which(tool) and arg.is_dir():
            subprocess.run([tool, str(arg)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    icons = data_home / "icons" / "hicolor"
    if shutil.which("gtk-update-icon-cache") and (icons / "index.theme").is_file():
        subprocess.run(["gtk-update-icon-cache", "-q", "-t", str(icons)], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# --------------------------------------------------------------------------- Windows

def ico(pngs: Mapping[int, bytes]) -> bytes:
    """An ICO file whose images are PNG data (Windows Vista and later read them): ICONDIR, one
    ICONDIRENTRY per size (a width or height of 256 is written as 0), then the images."""
    sizes = sorted(pngs)
    head = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, body = b"", b""
    for s in sizes:
        data = pngs[s]
        entries += struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(data), offset + len(body))
        body += data
    return head + entries + body


LNK_CLSID = uuid.UUID("00021401-0000-0000-C000-000000000046")
# LinkFlags ([MS-SHLLINK] 2.1.1)
HAS_LINK_INFO, HAS_NAME, HAS_WORKING_DIR, HAS_ARGUMENTS, HAS_ICON_LOCATION, IS_UNICODE = (
    0x2, 0x4, 0x10, 0x20, 0x40, 0x80)
SW_SHOWNORMAL = 1
DRIVE_FIXED = 3


def _lnk_string(text: str) -> bytes:
    """StringData ([MS-SHLLINK] 2.4): a count of UTF-16 code units, then the text, no terminator."""
    data = text.encode("utf-16-le")
    return struct.pack("<H", len(data) // 2) + data


def _link_info(target: str) -> bytes:
    """LinkInfo ([MS-SHLLINK] 2.3) with VolumeIDAndLocalBasePath: a fixed volume without a label,
    the target as LocalBasePath (ANSI, '?' for what the code page cannot hold) and as
    LocalBasePathUnicode (header size 0x24), and an empty CommonPathSuffix."""
    header_size = 0x24
    volume_id = struct.pack("<IIII", 0x11, DRIVE_FIXED, 0, 0x10) + b"\0"
    base_ansi = target.encode("mbcs" if sys.platform.startswith("win") else "ascii", "replace") + b"\0"
    suffix_ansi = b"\0"
    base_unicode = target.encode("utf-16-le") + b"\0\0"
    suffix_unicode = b"\0\0"
    vol_off = header_size
    base_off = vol_off + len(volume_id)
    suffix_off = base_off + len(base_ansi)
    base_u_off = suffix_off + len(suffix_ansi)
    suffix_u_off = base_u_off + len(base_unicode)
    size = suffix_u_off + len(suffix_unicode)
    head = struct.pack("<IIIIIIIII", size, header_size, 0x1, vol_off, base_off, 0, suffix_off,
                       base_u_off, suffix_u_off)
    return head + volume_id + base_ansi + suffix_ansi + base_unicode + suffix_unicode


def shell_link(target: str, arguments: str, working_dir: str, icon: str, description: str) -> bytes:
    """A Shell Link (.lnk) file per [MS-SHLLINK]: ShellLinkHeader, LinkInfo, StringData (NAME,
    WORKING_DIR, COMMAND_LINE_ARGUMENTS, ICON_LOCATION, in the specification's order) and the
    TerminalBlock. No LinkTargetIDList: the shell resolves the target from LinkInfo."""
    flags = HAS_LINK_INFO | HAS_NAME | HAS_WORKING_DIR | HAS_ARGUMENTS | HAS_ICON_LOCATION | IS_UNICODE
    header = struct.pack("<I16sII", 0x4C, LNK_CLSID.bytes_le, flags, 0x80)  # FILE_ATTRIBUTE_NORMAL
    header += b"\0" * 24  # CreationTime, AccessTime, WriteTime: unset
    header += struct.pack("<IiIH", 0, 0, SW_SHOWNORMAL, 0) + b"\0" * 10  # size, icon index, show, hotkey, reserved
    assert len(header) == 0x4C
    strings = b"".join(_lnk_string(s) for s in (description, working_dir, arguments, icon))
    return header + _link_info(target) + strings + b"\0\0\0\0"


def windows_link_path(appdata: Path) -> Path:
    return appdata / "Microsoft" / "Windows" / "Start Menu" / "Programs" / f"{NAME}.lnk"


def windows_icon_path(local_appdata: Path) -> Path:
    return local_appdata / NAME / f"{NAME}.ico"


def windows_files(appdata: Path, local_appdata: Path, home: Path, command: Sequence[str],
                  render_png: Optional[RenderPng]) -> list[Written]:
    out = []
    icon = command[0]
    if render_png:
        icon_path = windows_icon_path(local_appdata)
        out.append(Written(icon_path, ico({s: render_png(s) for s in (16, 32, 48, 256)})))
        icon = str(icon_path)
    args = subprocess.list2cmdline(list(command[1:]))
    out.append(Written(windows_link_path(appdata),
                       shell_link(command[0], args, str(home), icon,
                                  "Plan multi-GPU deep-learning workstations")))
    return out


# --------------------------------------------------------------------------- macOS

def icns(pngs: Mapping[int, bytes]) -> bytes:
    """An Apple icon image: 'icns' and the file's length, then per image its OSType, the entry's
    length (with its 8-byte head) and the PNG data."""
    body = b"".join(MAC_ICON_TYPES[s] + struct.pack(">I", 8 + len(d)) + d for s, d in sorted(pngs.items()))
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def mac_bundle_path(home: Path) -> Path:
    return home / "Applications" / f"{NAME}.app"


def mac_files(home: Path, command: Sequence[str], render_png: Optional[RenderPng]) -> list[Written]:
    app = mac_bundle_path(home) / "Contents"
    info = {
        "CFBundleDevelopmentRegion": "en",
        "CFBundleExecutable": NAME,
        "CFBundleIdentifier": APP_ID,
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundleName": NAME,
        "CFBundleDisplayName": NAME,
        "CFBundlePackageType": "APPL",
        "CFBundleShortVersionString": __version__,
        "CFBundleVersion": __version__,
        "LSMinimumSystemVersion": "11.0",
        "NSHighResolutionCapable": True,
    }
    out = []
    if render_png:
        info["CFBundleIconFile"] = f"{NAME}.icns"
        out.append(Written(app / "Resources" / f"{NAME}.icns", icns({s: render_png(s) for s in MAC_ICON_TYPES})))
    script = "#!/bin/sh\n# Written by rigbuilder --install-shortcut: starts the installed rigbuilder.\n" \
             f"exec {' '.join(shlex.quote(a) for a in command)} \"$@\"\n"
    out += [Written(app / "Info.plist", plistlib.dumps(info)),
            Written(app / "PkgInfo", b"APPL????"),
            Written(app / "MacOS" / NAME, script.encode("utf-8"), 0o755)]
    return out


# --------------------------------------------------------------------------- the doors

@dataclass(frozen=True)
class Places:
    """Where a system keeps a user's shortcuts, from the environment (tests give their own)."""
    system: str
    home: Path
    data_home: Path  # Linux: XDG_DATA_HOME
    appdata: Path  # Windows: APPDATA (roaming)
    local_appdata: Path  # Windows: LOCALAPPDATA

    @classmethod
    def from_env(cls, env: Optional[Mapping[str, str]] = None, platform: Optional[str] = None) -> "Places":
        e = os.environ if env is None else env
        home = Path(e.get("HOME") or e.get("USERPROFILE") or Path.home())
        return cls(system=system_name(platform), home=home,
                   data_home=Path(e.get("XDG_DATA_HOME") or home / ".local" / "share"),
                   appdata=Path(e.get("APPDATA") or home / "AppData" / "Roaming"),
                   local_appdata=Path(e.get("LOCALAPPDATA") or home / "AppData" / "Local"))


def shortcut_files(places: Places, command: Sequence[str], render_png: Optional[RenderPng] = None) -> list[Written]:
    """What ``install`` writes on ``places.system``."""
    if places.system == "windows":
        return windows_files(places.appdata, places.local_appdata, places.home, command, render_png)
    if places.system == "macos":
        return mac_files(places.home, command, render_png)
    return linux_files(places.data_home, command, render_png)


def install(places: Places, command: Optional[Sequence[str]] = None,
            render_png: Optional[RenderPng] = None, refresh: bool = True) -> list[Path]:
    """Write the shortcut (replacing an earlier one); returns the files written."""
    remove(places, refresh=False)
    files = shortcut_files(places, command or launch_command(), render_png)
    for f in files:
        f.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = f.path.with_name(f.path.name + ".tmp")
        tmp.write_bytes(f.data)
        os.chmod(tmp, f.mode)
        os.replace(tmp, f.path)
    if refresh and places.system == "linux":
        _refresh_linux_caches(places.data_home)
    return [f.path for f in files]


def _ours(bundle: Path) -> bool:
    try:
        with (bundle / "Contents" / "Info.plist").open("rb") as fh:
            return plistlib.load(fh).get("CFBundleIdentifier") == APP_ID
    except (OSError, plistlib.InvalidFileException, ValueError, AttributeError):
        return False


def _prune_empty(folder: Path, top: Path) -> None:
    """Empty folders from ``folder`` up to (not including) ``top``, as install made them."""
    while folder != top and top in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def remove(places: Places, refresh: bool = True) -> list[Path]:
    """Delete what ``install`` writes; returns the files and folders removed. A macOS bundle is
    removed only when its Info.plist names rigbuilder's identifier."""
    removed: list[Path] = []
    if places.system == "macos":
        bundle = mac_bundle_path(places.home)
        if bundle.is_dir() and not bundle.is_symlink() and _ours(bundle):
            shutil.rmtree(bundle)
            removed.append(bundle)
        return removed
    if places.system == "windows":
        paths = [windows_link_path(places.appdata), windows_icon_path(places.local_appdata)]
    else:
        paths = linux_paths(places.data_home)
    for p in paths:
        if p.is_file() or p.is_symlink():
            p.unlink()
            removed.append(p)
    if refresh and places.system == "linux" and removed:
        _refresh_linux_caches(places.data_home)  # before pruning: update-mime-database needs mime/packages
    top = places.local_appdata if places.system == "windows" else places.data_home
    for p in removed:
        _prune_empty(p.parent, top)
    return removed
