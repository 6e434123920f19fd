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
table's name adds the catalog version, the snapshot key (the catalog files' sizes and times and
the part classes' fields), the shipped database's path, size and time, and the part classes'
code (a part's name is worked out there). A
missing, damaged or foreign file is ignored and written again.
"""
from __future__ import annotations

import marshal
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from rigbuilder.catalog.cachefile import short_key, write_whole
from rigbuilder.catalog.match import MatchTable
from rigbuilder.config import Paths

if TYPE_CHECKING:
    from rigbuilder.catalog.store import Catalog

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


def table_path(paths: Paths, catalog: "Catalog") -> Path:
    """The match table's file for ``catalog``: named by its version, the snapshot key, the shipped
    database it read (path, size and time: a database built again, say after a damaged one gave
    only part of its rows, makes a new table) and the code that makes keys, facts and names."""
    import rigbuilder.catalog.match as match
    import rigbuilder.domain.parts as parts
    import rigbuilder.domain.safeio as safeio
    from rigbuilder.catalog.snapshot import snapshot_key

    db = ""
    if catalog.shipped_path is not None:
        try:
            st = catalog.shipped_path.stat()
            db = f"{catalog.shipped_path}\0{st.st_size}\0{st.st_mtime_ns}"
        except OSError:
            pass
    what = short_key(f"{TABLE_FORMAT}\0{catalog.index.version}\0{snapshot_key()}\0{db}\0"
                     f"{_source_tag(match, parts, safeio)}")
    return paths.cache_dir / f"match-table-{what}.marshal"


def load_table(paths: Paths, catalog: "Catalog") -> Optional[MatchTable]:
    """The match table kept for this catalog, or None (none yet, or unusable)."""
    try:
        data = marshal.loads(table_path(paths, catalog).read_bytes())  # our own cache file (save_table)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, tuple) and len(v) == 3 and isinstance(v[0], list)
            and isinstance(v[1], bytes) and isinstance(v[2], bytes) and len(v[1]) == 4 * (len(v[0]) + 1)
            for k, v in data.items()):
        return None
    return MatchTable(data)


def save_table(paths: Paths, catalog: "Catalog", table: MatchTable) -> None:
    """Write the table atomically, and remove the tables of other catalogs (one is kept: a
    catalog's version changes when the program or its files do)."""
    path = table_path(paths, catalog)
    if write_whole(path, marshal.dumps(table.packed), ".match-table-"):
        for old in path.parent.glob("match-table-*.marshal"):
            if old != path:
                try:
                    old.unlink()
                except OSError:
                    pass


def table_for(paths: Paths, catalog: "Catalog") -> MatchTable:
    """The match table of the catalog's shipped parts: the kept one, or made now (which loads the
    pending community rows once) and kept, with the name keys, for the next run."""
    table = load_table(paths, catalog)
    if table is not None:
        return table
    keys = load_keys(paths)
    known = len(keys)
    table = MatchTable.of_parts((p for p in catalog.index if p.origin != "user"), keys)
    save_table(paths, catalog, table)
    if len(keys) > known:  # names keyed this run (a new catalog): kept for the next
        save_keys(paths, keys)
    return table
