"""The list matcher's work kept between runs, in the cache folder beside the catalog snapshots:

- the name keys: a part name -> its match key. Keying 9,000 names takes a second on a slow
  machine; reading them back (``marshal``), a few milliseconds. Kept across catalog versions
  (a key depends only on the name), so a new catalog keys only its new names.
- the match table (``MatchTable``) of one catalog version: every shipped part's key and what the
  checks read of it, by kind. With it a command matches a list without loading the thousands of
  community rows or asking any part for its name (``load_table``; ``save_table`` after a run
  that had to make it).

Both files are named by checksums of the matcher's code (its source when there is one, else the
program's version), so a change to how keys are made never reads keys made the old way; the
table's name adds the catalog version and the snapshot key (the catalog files' sizes and times
and the part classes' fields) and the part classes' code (a part's name is worked out there). A
missing, damaged or foreign file is ignored and written again.
"""
from __future__ import annotations

import marshal
from pathlib import Path
from typing import Optional

from rigbuilder.catalog.cachefile import short_key, write_whole
from rigbuilder.catalog.match import MatchTable
from rigbuilder.config import Paths
from rigbuilder.domain.catalog import PartIndex

FORMAT = 2
TABLE_FORMAT = 3


def _source_tag(*modules) -> str:
    data = [f"{FORMAT}\0".encode()]
    for m in modules:
        try:
            data.append(Path(m.__file__).read_bytes())
        except (OSError, TypeError):  # a frozen install without sources: its version says it
            from rigbuilder import __version__

            data.append(__version__.encode())
    import zlib  # (hashlib would load OpenSSL for this one key)

    joined = b"".join(data)
    return f"{zlib.crc32(joined):08x}{zlib.adler32(joined):08x}"


def _logic_tag() -> str:
    import rigbuilder.catalog.match as match

    return _source_tag(match)


def keys_path(paths: Paths) -> Path:
    return paths.cache_dir / f"match-keys-{_logic_tag()}.marshal"


def load_keys(paths: Paths) -> dict[str, str]:
    """The name -> key pairs kept so far (empty when there are none or the file is unusable)."""
    try:
        data = marshal.loads(keys_path(paths).read_bytes())  # our own cache file (save_keys)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        return {}
    return data


def save_keys(paths: Paths, keys: dict[str, str]) -> None:
    """Write the pairs atomically; a read-only cache is left alone (the next run keys again)."""
    write_whole(keys_path(paths), marshal.dumps(keys), ".match-keys-")


def table_path(paths: Paths, index: PartIndex) -> Path:
    """The match table's file for the catalog ``index`` was opened from (its version)."""
    import rigbuilder.catalog.match as match
    import rigbuilder.domain.parts as parts
    import rigbuilder.domain.safeio as safeio
    from rigbuilder.catalog.snapshot import snapshot_key

    what = short_key(f"{TABLE_FORMAT}\0{index.version}\0{snapshot_key()}\0{_source_tag(match, parts, safeio)}")
    return paths.cache_dir / f"match-table-{what}.marshal"


def load_table(paths: Paths, index: PartIndex) -> Optional[MatchTable]:
    """The match table kept for this catalog version, or None (none yet, or unusable)."""
    try:
        data = marshal.loads(table_path(paths, index).read_bytes())  # our own cache file (save_table)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, tuple) and len(v) == 3 and isinstance(v[0], list)
            and isinstance(v[1], bytes) and isinstance(v[2], bytes) and len(v[1]) == 4 * (len(v[0]) + 1)
            for k, v in data.items()):
        return None
    return MatchTable(data)


def save_table(paths: Paths, index: PartIndex, table: MatchTable) -> None:
    """Write the table atomically, and remove the tables of other catalog versions (one is kept:
    a catalog's version changes when the program or its files do)."""
    path = table_path(paths, index)
    if write_whole(path, marshal.dumps(table.packed), ".match-table-"):
        for old in path.parent.glob("match-table-*.marshal"):
            if old != path:
                try:
                    old.unlink()
                except OSError:
                    pass


def table_for(paths: Paths, index: PartIndex) -> MatchTable:
    """The match table of ``index``'s shipped parts: the kept one, or made now (which loads the
    index's pending community rows once) and kept, with the name keys, for the next run."""
    table = load_table(paths, index)
    if table is not None:
        return table
    keys = load_keys(paths)
    known = len(keys)
    table = MatchTable.of_parts((p for p in index if p.origin != "user"), keys)
    save_table(paths, index, table)
    if len(keys) > known:  # names keyed this run (a new catalog): kept for the next
        save_keys(paths, keys)
    return table
