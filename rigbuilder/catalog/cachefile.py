"""What the catalog keeps in the cache folder is written and named one way: a pickle written whole
or not at all, named by a short key of what it was made from, equal texts stored once."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable, Optional


def short_key(text: str) -> str:
    """A cache file's key: 64 bits of ``text`` (file names, sizes and times, field names), from
    zlib's two checksums (hashlib loads OpenSSL, 5-13 ms of every start, for a key nobody forges)."""
    import zlib

    data = text.encode()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def share_values(objects: Iterable[object], pool: Optional[dict] = None) -> None:
    """One object for equal texts and text tuples across frozen dataclass objects (imported rows
    repeat their source, notes and unverified lists): a pickle stores each once and loads in half
    the time."""
    pool = {} if pool is None else pool
    for o in objects:
        d = o.__dict__  # frozen dataclasses: equal values swapped for one shared object
        for k, v in d.items():
            if isinstance(v, str) or (isinstance(v, tuple) and all(isinstance(x, str) for x in v)):
                d[k] = pool.setdefault(v, v)


def write_whole(path: Path, data: bytes, prefix: str) -> bool:
    """``data`` written into ``path`` whole or not at all (a temporary named ``prefix``... beside it,
    renamed over it); a read-only or full cache folder is left alone (the next start works the
    file out again) and the temporary removed. True when it was written."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=prefix, dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        tmp = None
        return True
    except OSError:
        return False
    finally:
        if tmp is not None and os.path.exists(tmp):
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write_pickle(path: Path, value: object) -> None:
    """``value`` pickled into ``path``, whole or not at all (``write_whole``)."""
    import pickle

    write_whole(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), ".snapshot-")
