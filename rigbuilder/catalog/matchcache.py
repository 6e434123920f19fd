"""The list matcher's keys kept between runs: a part name -> its match key, in the cache folder
beside the catalog snapshots. Keying 9,000 names takes a second on a slow machine; reading them
back (``marshal``), a few milliseconds.

The file is named by checksums of the matcher's code (its source when there is one, else the
program's version), so a change to how keys are made never reads keys made the old way. A
missing, damaged or foreign file is ignored and written again.
"""
from __future__ import annotations

import marshal
from pathlib import Path

from rigbuilder.catalog.cachefile import write_whole
from rigbuilder.config import Paths

FORMAT = 2


def _logic_tag() -> str:
    import rigbuilder.catalog.match as match

    try:
        data = Path(match.__file__).read_bytes()
    except (OSError, TypeError):  # a frozen install without sources: its version says it
        from rigbuilder import __version__

        data = __version__.encode()
    import zlib  # (hashlib would load OpenSSL for this one key)

    data = f"{FORMAT}\0".encode() + data
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


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
