"""A price feed: a dated list of prices from a file or an http(s) address, applied all or nothing.

The feed's format is the price file's (``rigbuilder.files.priceimport``: CSV with a header, or JSON:
a list of objects or an object with a ``prices`` list; columns part or part_id or name, amount,
currency, condition, date, source, kind): a shop's export or a lab's spreadsheet saved as CSV
works as it is. Its rows are read and checked by the price import's ``preview`` (one validator);
here only what a feed adds: fetching it from an address with a size cap, an overall time limit
and Cancel, a cap on JSON nesting, and the rule that one bad row refuses the whole feed
(``FeedResult.applicable``). Nothing is stored here: the doors store ``preview.good`` when the
feed is applicable and the user (or ``--yes``) says so.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from rigbuilder.domain.i18n import T, nT
from rigbuilder.files.priceimport import MAX_BYTES, PriceFileError, PricePreview, preview

TIMEOUT_S = 30.0
"""The longest a feed may take to arrive, all of it (a server that drips a byte a second is cut off)."""
MAX_DEPTH = 32
"""The deepest JSON nesting a feed may have (a price list needs 3)."""
CHUNK = 64 * 1024


class FeedCancelled(Exception):
    """The user pressed Cancel while the feed was being fetched."""


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


def _name(source: str) -> str:
    return source if is_url(source) else Path(source).name


def fetch(source: str, *, max_bytes: int = MAX_BYTES, timeout_s: float = TIMEOUT_S,
          cancelled: Optional[Callable[[], bool]] = None,
          progress: Optional[Callable[[int], None]] = None) -> bytes:
    """The feed's bytes, from a file (a regular file, bounded) or an http(s) address (at most
    ``max_bytes``, within ``timeout_s`` in all, checking ``cancelled`` between chunks and telling
    ``progress`` the bytes read). PriceFileError says what went wrong and where; FeedCancelled
    when cancelled."""
    where = _name(source)
    if not is_url(source):
        if "://" in source[:12]:
            raise PriceFileError(T("{where}: only http:// and https:// addresses, or a file", where=source[:80]))
        from rigbuilder.domain.safeio import UnreadableFile, read_limited

        try:
            return read_limited(Path(source), max_bytes)
        except UnreadableFile as e:
            raise PriceFileError(T("{where}: {error}", where=where, error=str(e))) from None
    import socket
    import urllib.error
    import urllib.request

    start = time.monotonic()
    req = urllib.request.Request(source, headers={"User-Agent": "rigbuilder price update", "Accept-Encoding": "identity"})
    try:
        with urllib.request.urlopen(req, timeout=min(timeout_s, 30.0)) as resp:  # noqa: S310 (http(s) checked above)
            length = resp.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > max_bytes:
                raise PriceFileError(T("{where}: larger than {mb} MB", where=where, mb=max_bytes // (1024 * 1024)))
            got = bytearray()
            while True:
                if cancelled is not None and cancelled():
                    raise FeedCancelled()
                if time.monotonic() - start > timeout_s:
                    raise PriceFileError(T("{where}: took longer than {s:g} seconds; nothing applied", where=where,
                                           s=timeout_s))
                chunk = resp.read1(CHUNK)
                if not chunk:
                    break
                got += chunk
                if len(got) > max_bytes:
                    raise PriceFileError(T("{where}: larger than {mb} MB", where=where,
                                           mb=max_bytes // (1024 * 1024)))
                if progress is not None:
                    progress(len(got))
            return bytes(got)
    except urllib.error.HTTPError as e:
        raise PriceFileError(T("{where}: the server answered {code} {reason}", where=where, code=e.code,
                               reason=str(e.reason)[:80])) from None
    except (socket.timeout, TimeoutError):
        raise PriceFileError(T("{where}: took longer than {s:g} seconds; nothing applied", where=where,
                               s=timeout_s)) from None
    except urllib.error.URLError as e:
        raise PriceFileError(T("{where}: cannot be fetched ({error})", where=where, error=str(e.reason)[:120])) from None
    except (OSError, ValueError) as e:  # a connection reset, a malformed address
        raise PriceFileError(T("{where}: cannot be fetched ({error})", where=where, error=str(e)[:120])) from None


def nesting(data: bytes) -> int:
    """The deepest nesting of brackets outside strings (a JSON feed's depth, without parsing it)."""
    depth = most = 0
    in_str = esc = False
    for b in data:
        if in_str:
            if esc:
                esc = False
            elif b == 0x5C:  # backslash
                esc = True
            elif b == 0x22:
                in_str = False
        elif b == 0x22:
            in_str = True
        elif b in (0x5B, 0x7B):
            depth += 1
            if depth > most:
                most = depth
                if most > MAX_DEPTH:
                    return most
        elif b in (0x5D, 0x7D):
            depth -= 1
    return most


@dataclass
class FeedResult:
    source: str
    preview: PricePreview
    share_in_lab: bool = False  # the user asked to share the applied prices in the lab database too

    @property
    def applicable(self) -> bool:
        """All or nothing: every row good, and at least one."""
        return bool(self.preview.rows) and not self.preview.bad

    def verdict(self) -> str:
        pv = self.preview
        if not pv.rows:
            return T("{where}: no prices in the feed; nothing applied", where=_name(self.source))
        if pv.bad:
            return nT("{where}: {n} bad row of {total}: nothing applied (a feed is applied whole or not at all)",
                      "{where}: {n} bad rows of {total}: nothing applied (a feed is applied whole or not at all)",
                      len(pv.bad), where=_name(self.source), total=len(pv.rows))
        return nT("{where}: {n} row, good", "{where}: all {n} rows good", len(pv.rows), where=_name(self.source))


def read_feed(data: bytes, source: str, index, rates, *, today: Optional[str] = None) -> FeedResult:
    """The feed checked row by row by the price import's ``preview``; PriceFileError when it cannot
    be read at all (nested too deep, not CSV or JSON, ...)."""
    where = _name(source)
    if data.lstrip()[:1] in (b"[", b"{") and nesting(data) > MAX_DEPTH:
        raise PriceFileError(T("{where}: nested deeper than {n} levels; nothing applied", where=where, n=MAX_DEPTH))
    try:
        pv = preview(data, where, index, rates, today=today)
    except RecursionError:
        raise PriceFileError(T("{where}: nested too deeply; nothing applied", where=where)) from None
    return FeedResult(source, pv)
