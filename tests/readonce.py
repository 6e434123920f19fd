"""The catalog's cache snapshots unpickled once per test process (the session fixture
``_snapshots_unpickled_once`` in tests/conftest.py puts these in place).

Every command the tests run in-process (``rigbuilder.cli.main``) opens the catalog as a start
does: it unpickles the shipped price book (~40 ms), the curated parts (~40 ms) and, when a command
needs them, the community rows (~120 ms), from the one session cache folder. A process of the app
or the command line reads them once; the tests call a command hundreds of times per process.

What is remembered is keyed by the file's bytes (a BLAKE2 digest, ~3 ms for the largest), so a
snapshot that is damaged, cut short, another version's or rewritten is read by rigbuilder's own
code as before; only bytes that were read whole and left as they were are remembered, and each
caller gets new containers (the parts and prices are frozen dataclasses). Tests of the reading
itself (tests/catalog/test_shipped.py, test_price_snapshot.py) therefore still read: their
snapshots are new files in their own cache folders, and a repeated read of the same bytes is
exactly what is spared.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Optional

import pytest

_memo: dict[tuple, object] = {}


def _digest(path: Path) -> Optional[bytes]:
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=20).digest()
    except OSError:
        return None


def _read_snapshot(original: Callable) -> Callable:
    def read(path: Path):
        before = _digest(path)
        got = _memo.get(("parts", before)) if before is not None else None
        if got is None:
            got = original(path)
            if got is None or before is None or _digest(path) != before:
                return got
            _memo[("parts", before)] = got
        version, db, parts = got
        return version, db, list(parts)

    return read


def _pieces_from_snapshot(original: Callable, db_reads: list[int]) -> Callable:
    def pieces(path: Path, version: str, db: Path):
        before = _digest(path)
        key = ("community", before, version, str(db))
        got = _memo.get(key) if before is not None else None
        if got is not None:
            yield from got
            return
        reads, out = db_reads[0], []
        for p in original(path, version, db):
            out.append(p)
            yield p
        # remembered only when read whole from the snapshot (no row finished from the database)
        if before is not None and db_reads[0] == reads and _digest(path) == before:
            _memo[key] = out

    return pieces


def _counted(original: Callable, db_reads: list[int]) -> Callable:
    def from_db(*args, **kwargs):
        db_reads[0] += 1
        return original(*args, **kwargs)

    return from_db


def _shipped_price_book(original: Callable) -> Callable:
    def book(paths):
        import pickle

        from rigbuilder.catalog.pricebook import _prices_key
        from rigbuilder.domain.money import PriceBook

        try:
            snap = paths.cache_dir / f"prices-{_prices_key()}.pickle"
        except OSError:
            return original(paths)
        before = _digest(snap)
        got = _memo.get(("prices", before)) if before is not None else None
        if got is None:
            got = original(paths)
            if before is None or _digest(snap) != before:
                return got
            try:  # remembered only when the snapshot is a price book (then the original read it)
                if not isinstance(pickle.loads(snap.read_bytes()), PriceBook):
                    return got
            except Exception:  # noqa: BLE001
                return got
            _memo[("prices", before)] = got
        return PriceBook(dict(got.observations), got.rates)

    return book


def install(mp: pytest.MonkeyPatch) -> None:
    """Put the remembering readers in place of rigbuilder's (for the monkeypatch's lifetime)."""
    from rigbuilder.catalog import pricebook, snapshot

    db_reads = [0]
    mp.setattr(snapshot, "_read_snapshot", _read_snapshot(snapshot._read_snapshot))
    mp.setattr(snapshot, "_pieces_from_db", _counted(snapshot._pieces_from_db, db_reads))
    mp.setattr(snapshot, "_pieces_from_snapshot", _pieces_from_snapshot(snapshot._pieces_from_snapshot, db_reads))
    mp.setattr(pricebook, "shipped_price_book", _shipped_price_book(pricebook.shipped_price_book))
