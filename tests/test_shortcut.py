"""rigbuilder --install-shortcut / --remove-shortcut (issue 45): the Linux desktop entry and icons
written and removed for real; the Windows Shell Link and the macOS bundle read back against their
published formats ([MS-SHLLINK]; Apple's bundle layout, Info.plist and icns)."""
from __future__ import annotations

import os
import plistlib
import shutil
import struct
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from rigbuilder import __version__, cli, shortcut

PNG = b"\x89PNG\r\n\x1a\n" + b"fake"


def fake_png(size: int) -> bytes:
    return PNG + size.to_bytes(2, "little")


def places(tmp_path: Path, system: str) -> shortcut.Places:
    env = {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "xdg"),
           "APPDATA": str(tmp_path / "roaming"), "LOCALAPPDATA": str(tmp_path / "local")}
    return shortcut.Places.from_env(env, platform={"linux": "linux", "windows": "win32", "macos": "darwin"}[system])


def files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def desktop_keys(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


# --------------------------------------------------------------------------- Linux

def test_linux_desktop_entry_and_icons_are_written_and_removed(tmp_path):
    where = places(tmp_path, "linux")
    command = ["/opt/My Tools/venv/bin/python", "-m", "rigbuilder"]
    written = shortcut.install(where, command, render_png=fake_png, refresh=False)
    xdg = tmp_path / "xdg"
    entry = xdg / "applications" / "rigbuilder.desktop"
    assert entry in written and set(written) == set(files_under(xdg))
    keys = desktop_keys(entry.read_text(encoding="utf-8"))
    assert keys["Exec"] == '"/opt/My Tools/venv/bin/python" -m rigbuilder %f'
    assert keys["TryExec"] == "/opt/My Tools/venv/bin/python"
    assert keys["Icon"] == "rigbuilder" and keys["Type"] == "Application"
    assert keys["MimeType"] == "application/x-rigbuilder-build;"
    assert (xdg / "icons/hicolor/scalable/apps/rigbuilder.svg").read_bytes().lstrip().startswith(b"<")
    assert (xdg / "icons/hicolor/128x128/apps/rigbuilder.png").read_bytes() == fake_png(128)
    assert b"*.rig" in (xdg / "mime/packages/rigbuilder.xml").read_bytes()
    if shutil.which("desktop-file-validate"):
        r = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr

    removed = shortcut.remove(where, refresh=False)
    assert set(removed) == set(written)
    assert files_under(xdg) == []
    assert not (xdg / "icons").exists()  # the folders install made, emptied, are gone too


def test_linux_without_a_renderer_installs_the_scalable_icon_only(tmp_path):
    written = shortcut.install(places(tmp_path, "linux"), ["/usr/bin/python3", "-m", "rigbuilder"], refresh=False)
    assert not any(p.suffix == ".png" for p in written)
    assert any(p.name == "rigbuilder.svg" for p in written)


def test_install_twice_replaces_and_remove_twice_finds_nothing(tmp_path):
    where = places(tmp_path, "linux")
    shortcut.install(where, ["/a/python", "-m", "rigbuilder"], refresh=False)
    shortcut.install(where, ["/b/python", "-m", "rigbuilder"], refresh=False)
    entry = tmp_path / "xdg/applications/rigbuilder.desktop"
    assert desktop_keys(entry.read_text())["TryExec"] == "/b/python"
    assert shortcut.remove(where, refresh=False)
    assert shortcut.remove(where, refresh=False) == []


def test_remove_leaves_the_users_other_files(tmp_path):
    where = places(tmp_path, "linux")
    other = tmp_path / "xdg/applications/other.desktop"
    other.parent.mkdir(parents=True)
    other.write_text("[Desktop Entry]\n")
    shortcut.install(where, ["/a/python", "-m", "rigbuilder"], refresh=False)
    shortcut.remove(where, refresh=False)
    assert files_under(tmp_path / "xdg") == [other]


@pytest.mark.parametrize("arg, quoted", [
    ("/usr/bin/python3", "/usr/bin/python3"),
    ("/home/a b/python", '"/home/a b/python"'),
    ("/x/100%/py", "/x/100%%/py"),
    ('/x/$HOME"q/py', '"/x/\\\\$HOME\\\\"q/py"'),  # quote-level \$ and \", then the key file's \\
])
def test_desktop_exec_arguments_are_quoted_as_the_specification_says(arg, quoted):
    assert shortcut.desktop_exec_arg(arg) == quoted


def test_cli_install_and_remove_shortcut(tmp_path, monkeypatch, capsys):
    """The command line door, with Qt's SVG renderer making the PNGs."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(sys, "platform", "linux")
    assert cli.main(["--install-shortcut"]) == 0
    out = capsys.readouterr().out
    png = tmp_path / "xdg/icons/hicolor/48x48/apps/rigbuilder.png"
    assert f"written: {png}" in out
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (48, 48)  # the IHDR's width and height
    entry = desktop_keys((tmp_path / "xdg/applications/rigbuilder.desktop").read_text())
    assert entry["TryExec"] == sys.executable
    assert cli.main(["--remove-shortcut"]) == 0
    assert "removed:" in capsys.readouterr().out
    assert files_under(tmp_path / "xdg/icons") == []
    assert cli.main(["--remove-shortcut"]) == 0
    assert "no shortcut" in capsys.readouterr().out


def test_cli_says_what_went_wrong_when_the_folder_cannot_be_written(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "xdg"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    monkeypatch.setattr(sys, "platform", "linux")
    assert cli.main(["--install-shortcut"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rigbuilder: cannot write the shortcut:") and "Traceback" not in err


# --------------------------------------------------------------------------- Windows

def read_lnk(data: bytes) -> dict:
    """An independent reading of a Shell Link, field by field as [MS-SHLLINK] lays them out."""
    size, clsid, flags, attrs = struct.unpack_from("<I16sII", data, 0)
    _file_size, _icon_index, show = struct.unpack_from("<IiI", data, 0x34)
    out = {"header_size": size, "clsid": uuid.UUID(bytes_le=clsid), "flags": flags, "attributes": attrs,
           "show": show}
    pos = size
    assert not flags & 0x1, "no LinkTargetIDList expected"
    if flags & 0x2:  # LinkInfo
        li_size, li_header, li_flags, vol_off, base_off, net_off, suffix_off = struct.unpack_from("<7I", data, pos)
        out["link_info_flags"] = li_flags
        vol_size, drive_type = struct.unpack_from("<II", data, pos + vol_off)
        out["drive_type"] = drive_type
        if li_header >= 0x24:
            base_u_off, = struct.unpack_from("<I", data, pos + 28)
            raw = data[pos + base_u_off:pos + li_size]
            out["target"] = raw.decode("utf-16-le").split("\0", 1)[0]
        out["target_ansi"] = data[pos + base_off:].split(b"\0", 1)[0].decode("ascii")
        pos += li_size
    names = [("name", 0x4), ("relative_path", 0x8), ("working_dir", 0x10), ("arguments", 0x20), ("icon", 0x40)]
    for key, bit in names:
        if flags & bit:
            n, = struct.unpack_from("<H", data, pos)
            out[key] = data[pos + 2:pos + 2 + 2 * n].decode("utf-16-le")
            pos += 2 + 2 * n
    out["rest"] = data[pos:]
    return out


def test_windows_start_menu_link_follows_ms_shllink(tmp_path):
    where = places(tmp_path, "windows")
    command = ["C:\\Users\\Zoë\\pipx\\venvs\\rigbuilder\\Scripts\\pythonw.exe", "-m", "rigbuilder"]
    written = shortcut.install(where, command, render_png=fake_png)
    link = tmp_path / "roaming/Microsoft/Windows/Start Menu/Programs/rigbuilder.lnk"
    icon = tmp_path / "local/rigbuilder/rigbuilder.ico"
    assert set(written) == {link, icon}
    lnk = read_lnk(link.read_bytes())
    assert lnk["header_size"] == 0x4C
    assert lnk["clsid"] == uuid.UUID("00021401-0000-0000-C000-000000000046")
    assert lnk["flags"] & 0x80, "IsUnicode"
    assert lnk["show"] == 1  # SW_SHOWNORMAL
    assert lnk["link_info_flags"] == 1 and lnk["drive_type"] == 3
    assert lnk["target"] == command[0]
    assert lnk["target_ansi"] == command[0].replace("ë", "?")
    assert lnk["arguments"] == "-m rigbuilder"
    assert lnk["icon"] == str(icon)
    assert lnk["working_dir"] == str(tmp_path / "home")
    assert lnk["name"]
    assert lnk["rest"] == b"\0\0\0\0"  # the TerminalBlock, nothing after it

    ico = icon.read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", ico, 0)
    assert (reserved, kind, count) == (0, 1, 4)
    for i, size in enumerate((16, 32, 48, 256)):
        w, h, _, _, planes, bits, length, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i)
        assert (w, h) == (size % 256, size % 256) and (planes, bits) == (1, 32)
        assert ico[offset:offset + length] == fake_png(size)

    assert set(shortcut.remove(where)) == {link, icon}
    assert files_under(tmp_path / "roaming") == [] and not (tmp_path / "local/rigbuilder").exists()


def test_windows_link_without_a_renderer_uses_the_interpreters_icon(tmp_path):
    command = ["C:\\Python\\pythonw.exe", "-m", "rigbuilder"]
    [link] = shortcut.install(places(tmp_path, "windows"), command)
    assert read_lnk(link.read_bytes())["icon"] == command[0]


# --------------------------------------------------------------------------- macOS

def test_macos_bundle_stub_starts_the_installed_program(tmp_path):
    where = places(tmp_path, "macos")
    command = [sys.executable, "-m", "rigbuilder"]
    shortcut.install(where, command, render_png=fake_png)
    app = tmp_path / "home/Applications/rigbuilder.app/Contents"
    with (app / "Info.plist").open("rb") as fh:
        info = plistlib.load(fh)
    assert info["CFBundleIdentifier"] == "io.github.rigbuilder"
    assert info["CFBundlePackageType"] == "APPL"
    assert info["CFBundleShortVersionString"] == __version__
    assert (app / "PkgInfo").read_bytes() == b"APPL????"
    exe = app / "MacOS" / info["CFBundleExecutable"]
    assert os.access(exe, os.X_OK)
    # The executable is a POSIX shell script: it runs here as it would on a Mac.
    r = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    assert r.stdout.strip() == f"rigbuilder {__version__}", r.stderr
    icns = (app / "Resources" / info["CFBundleIconFile"]).read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    pos, seen = 8, {}
    while pos < len(icns):
        kind, length = icns[pos:pos + 4], struct.unpack(">I", icns[pos + 4:pos + 8])[0]
        seen[kind] = icns[pos + 8:pos + length]
        pos += length
    assert seen == {b"ic07": fake_png(128), b"ic08": fake_png(256), b"ic09": fake_png(512)}

    assert shortcut.remove(where) == [tmp_path / "home/Applications/rigbuilder.app"]
    assert files_under(tmp_path / "home") == []


def test_macos_remove_leaves_a_bundle_that_is_not_rigbuilders(tmp_path):
    app = tmp_path / "home/Applications/rigbuilder.app/Contents"
    app.mkdir(parents=True)
    (app / "Info.plist").write_bytes(plistlib.dumps({"CFBundleIdentifier": "com.example.other"}))
    assert shortcut.remove(places(tmp_path, "macos")) == []
    assert (app / "Info.plist").exists()
