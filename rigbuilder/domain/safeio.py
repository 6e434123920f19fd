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


def bad_text(s: str, multiline: bool = True) -> Optional[str]:
    """Why ``s`` cannot be kept as text, or None when it can: a lone surrogate, a control character
    (an escape sequence would reach the terminal, a NUL the reports), or, in one-line text such
    as a name, a line break (it would forge lines in the text parts list). Tabs are allowed."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"holds a character that is not valid text (U+{ord(s[e.start]):04X} at character {e.start + 1})"
    for i, ch in enumerate(s):
        if ch in _LINE_BREAKS:
            if multiline:
                continue
            return f"holds a line break (character {i + 1}); it must be one line"
        if ch != "\t" and (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0):
            return f"holds a control character (U+{ord(ch):04X} at character {i + 1})"
    return None


CSV_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet runs as a formula when a cell starts with it."""


def neutralise_cell(v: Any) -> Any:
    """Keep spreadsheets from running a cell as a formula (= + - @ at the start)."""
    if isinstance(v, str) and v.startswith(CSV_FORMULA_START):
        return "'" + v
    return v
