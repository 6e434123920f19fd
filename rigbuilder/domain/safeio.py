"""Reading files and JSON a user hands us, safely: one place for the guards every door needs.

- ``read_limited``: only regular files (a device such as /dev/zero or a FIFO is refused, never
  read or waited on), and at most ``max_bytes`` are ever read, whatever ``st_size`` says.
- ``parse_json``: JSON whose integers are too long for Python (over 4,300 digits) or whose
  nesting is too deep becomes a ``ValueError`` with a plain message, not a traceback.
- ``bad_text``: a lone surrogate (``"\\ud800"`` in JSON) cannot be written as UTF-8; text that
  holds one is refused where it is read, before it reaches any output.
- ``neutralise_cell``: a CSV cell a spreadsheet would run as a formula is written with a
  leading ``'`` (the reports, the parts and prices exports share it; plain Python, so writing a
  CSV report imports no database library).
"""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Optional

from rigbuilder.domain.i18n import T


class UnreadableFile(ValueError):
    """The file cannot be read as asked; the message says why (no path: the caller adds it)."""


def read_limited(path: Path, max_bytes: int) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError as e:
        raise UnreadableFile(T("cannot read ({error})", error=str(e.strerror))) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile(T("is not a regular file (a device, pipe or folder cannot be opened)"))
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise UnreadableFile(T("cannot read ({error})", error=str(e.strerror))) from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise UnreadableFile(T("is larger than {n} bytes", n=max_bytes))
    return data


def parse_json(text: str) -> Any:
    """``json.loads``; the errors it can raise all become ``ValueError`` with a plain message
    (``json.JSONDecodeError``, a subclass, keeps its line and column)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise ValueError(T("nested too deeply")) from None
    except ValueError:  # Python refuses integers of over 4,300 digits
        raise ValueError(T("holds a number too long to read (over 4,300 digits)")) from None


_LINE_BREAKS = "\n\r\u2028\u2029\x85"
_SPECIAL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
"""Every character the loop below may object to (control characters but the tab, line breaks)."""


def bad_text(s: str, multiline: bool = True) -> Optional[str]:
    """Why ``s`` cannot be kept as text, or None when it can: a lone surrogate, a control character
    (an escape sequence would reach the terminal, a NUL the reports), or, in one-line text such
    as a name, a line break (it would forge lines in the text parts list). Tabs are allowed."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"holds a character that is not valid text (U+{ord(s[e.start]):04X} at character {e.start + 1})"
    if _SPECIAL.search(s) is None:  # the common case, in one scan (validating the catalog walks 380,000 texts)
        return None
    for i, ch in enumerate(s):
        if ch in _LINE_BREAKS:
            if multiline:
                continue
            return f"holds a line break (character {i + 1}); it must be one line"
        if ch != "\t" and (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0):
            return f"holds a control character (U+{ord(ch):04X} at character {i + 1})"
    return None


# --------------------------------------------------------------------------- the user's data folder

class UnsafeTarget(ValueError):
    """A file in the data folder that must not be written (or read) where it stands; the message
    (a ``T``) says why (no path: the caller adds it)."""


def data_file_target(path: Path, folder: Path) -> Path:
    """Where writing the data-folder file ``path`` may go: ``path`` itself when it is absent or a
    regular file; for a symbolic link, its target only when that is the user's own regular file
    inside ``folder`` (never a file elsewhere, a device, a pipe or a folder). UnsafeTarget else."""
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as e:
        raise UnsafeTarget(T("cannot be looked at ({error})", error=e.strerror or str(e))) from None
    real = path
    if stat.S_ISLNK(lst.st_mode):
        real = Path(os.path.realpath(path))
        try:
            Path(real).relative_to(os.path.realpath(folder))
        except ValueError:
            raise UnsafeTarget(T("is a link to {target}, outside the data folder; it is never written through",
                                 target=str(real))) from None
        try:
            st = os.stat(real)
        except OSError:
            raise UnsafeTarget(T("is a link that leads to no file (or loops)")) from None
    else:
        st = lst
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeTarget(T("is not a regular file (a device, pipe or folder is never opened)"))
    return real


# --------------------------------------------------------------------------- temporaries of killed saves

TEMP_SUFFIX = ".tmp"
STALE_TEMP_S = 60
"""A temporary of ours older than this is left over from a save that died (a save takes well under it)."""
_OUR_TEMP = re.compile(r"(?P<pid>\d+)\.[a-z0-9_]{8}")
"""What follows ``.NAME.`` in a temporary this program names (``temp_prefix``): its process id and
mkstemp's eight random characters."""


def temp_prefix(name: str) -> str:
    """The start of the name of every temporary this program writes beside the file ``name``:
    '.NAME.PID.' (mkstemp adds eight random characters and TEMP_SUFFIX), so a later start can tell
    a temporary whose save was killed (its process is gone) from one being written now."""
    return f".{name}.{os.getpid()}."


def _process_gone(pid: int) -> bool:
    if os.name != "posix":  # no safe probe (os.kill ends a process on Windows): age alone decides
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: alive
        return False
    return False


def clean_temps(path: Path, suffix: str = TEMP_SUFFIX, *, now: Optional[float] = None) -> int:
    """Remove the temporaries that killed saves of ``path`` left beside it; returns how many.

    Only names of our own patterns are touched: '.NAME.' + process id + '.' + eight characters +
    ``suffix`` of a process that is no longer running, or any '.NAME.*' or '.NAME-*' + ``suffix``
    (the patterns of older versions) over a minute old; only regular files (never a link, a folder
    or a device), never ``path`` itself. A save running now in another window keeps its temporary."""
    import glob
    import time

    path = Path(path)
    t = time.time() if now is None else now
    removed = 0
    for sep in (".", "-"):
        start = f".{path.name}{sep}"
        for tmp in glob.glob(os.path.join(glob.escape(str(path.parent)), glob.escape(start) + "*" + glob.escape(suffix))):
            middle = os.path.basename(tmp)[len(start):-len(suffix)]
            try:
                st = os.lstat(tmp)
                if not stat.S_ISREG(st.st_mode):
                    continue
                m = _OUR_TEMP.fullmatch(middle) if sep == "." else None
                if (m is not None and _process_gone(int(m.group("pid")))) or t - st.st_mtime > STALE_TEMP_S:
                    os.unlink(tmp)
                    removed += 1
            except OSError:
                pass
    return removed


def clean_folder_temps(folder: Path) -> int:
    """``clean_temps`` for every file of ``folder`` that a temporary of ours names (at start-up)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    targets = set()
    for n in names:
        if not (n.startswith(".") and n.endswith(TEMP_SUFFIX)):
            continue
        body = n[1:-len(TEMP_SUFFIX)]
        bits = body.rsplit(".", 2)
        if len(bits) == 3 and _OUR_TEMP.fullmatch(f"{bits[1]}.{bits[2]}"):
            targets.add(bits[0])
        elif "-" in body:
            targets.add(body.rsplit("-", 1)[0])  # the data folder's older pattern
    return sum(clean_temps(Path(folder) / t) for t in sorted(targets) if t)


def write_data_file(path: Path, data: bytes, folder: Path) -> Path:
    """Write ``data`` atomically to the data-folder file ``path`` (a temporary file beside the
    real file, flushed, then renamed over it), never through a link onto a file outside ``folder``.
    UnsafeTarget when the place is refused; OSError when the disk refuses (nothing is changed)."""
    import tempfile

    real = data_file_target(path, folder)
    real.parent.mkdir(parents=True, exist_ok=True)
    clean_temps(real)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(real.name), suffix=TEMP_SUFFIX, dir=real.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(real).st_mode))
        except FileNotFoundError:
            os.chmod(tmp, 0o644)
        os.replace(tmp, real)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return real


def read_data_file(path: Path, folder: Path, max_bytes: int) -> Optional[bytes]:
    """A data-folder file read as build files are (bounded, never a device or pipe, a link only
    onto the user's own file in ``folder``); None when it is absent. UnreadableFile says why not."""
    if not os.path.lexists(path):
        return None
    try:
        real = data_file_target(path, folder)
    except UnsafeTarget as e:
        raise UnreadableFile(str(e)) from None
    return read_limited(real, max_bytes)


# --------------------------------------------------------------------------- text shown to a person

BIDI_CONTROLS = {0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO",
                 0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI"}
"""Bidirectional embedding, override and isolate characters: text that holds them can be drawn in
another order than it is stored ("evil" shown as "live"). Shown as visible marks, never obeyed."""
MAX_COMBINING = 3
"""The most combining marks kept on one character (a stack of hundreds draws over the rows around)."""
_SHOWN_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def display_text(s: str, one_line: bool = True) -> str:
    """``s`` as it may be shown on the board, in a title or a report: each bidirectional control
    as a visible mark (‹RLO›), runs of combining marks cut to MAX_COMBINING, and for one-line
    text every kind of line break (a carriage return too) as a space. Stored text is unchanged;
    only what is shown is made safe."""
    if s.isascii():
        # (printable ASCII, most text, holds no break: one C call instead of seven searches)
        if one_line and not s.isprintable() and any(c in s for c in "\r\n\x0b\x0c\x1c\x1d\x1e"):
            return "".join(" " if c in _SHOWN_BREAKS else c for c in s)
        return s
    import unicodedata

    out: list[str] = []
    run = 0
    for ch in s:
        o = ord(ch)
        if o in BIDI_CONTROLS:
            out.append(f"\u2039{BIDI_CONTROLS[o]}\u203a")
            run = 0
        elif one_line and ch in _SHOWN_BREAKS:
            out.append(" ")
            run = 0
        elif unicodedata.combining(ch):
            run += 1
            if run <= MAX_COMBINING:
                out.append(ch)
        else:
            run = 0
            out.append(ch)
    return "".join(out)


CSV_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet runs as a formula when a cell starts with it."""


def neutralise_cell(v: Any) -> Any:
    """Keep spreadsheets from running a cell as a formula (= + - @ at the start)."""
    if isinstance(v, str) and v.startswith(CSV_FORMULA_START):
        return "'" + v
    return v
