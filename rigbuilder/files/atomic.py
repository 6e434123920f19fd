"""Atomic file writes: a temporary file in the same folder, flushed to disk, then renamed over
the target, so a crash or a full disk never leaves a half-written file where a good one was."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Union


@contextmanager
def atomic_path(path: Union[str, Path], suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path beside ``path`` for the block to write (for writers that want a file
    name, such as Qt's PDF printer); renamed over ``path`` when the block ends, removed if it
    raises."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=str(path.parent) or ".")
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_atomic(path: Union[str, Path], data: bytes) -> Path:
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return Path(path)
