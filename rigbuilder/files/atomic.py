"""Atomic file writes: a temporary file in the same folder, flushed to disk, then renamed over
the target, so a crash or a full disk never leaves a half-written file where a good one was.

As editors do (Qt's QSaveFile is the reference): a symbolic link is written through (its target
is replaced, the link stays a link), the file keeps its permissions (a new file gets the usual
0666 less the umask, not the temporary file's 0600), and a file with several hard links is
rewritten in place so every link sees the new content. A temporary left by a killed save is
removed by the next save of that file and, for recent builds, when the app starts
(``clean_stale``)."""
from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, Union

from rigbuilder.domain.safeio import clean_temps, temp_prefix


@contextmanager
def atomic_path(path: Union[str, Path], suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path beside ``path`` for the block to write (for writers that want a file
    name, such as Qt's PDF printer); renamed over ``path`` when the block ends, removed if it
    raises."""
    path = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    clean_stale(path, suffix)
    try:
        st: Optional[os.stat_result] = os.stat(path)
    except OSError:
        st = None
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=suffix, dir=str(path.parent) or ".")
    os.close(fd)
    try:
        yield Path(tmp)
        if st is not None and stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
            with open(tmp, "rb") as src, open(path, "r+b") as dst:  # keep the hard links
                data = src.read()
                dst.seek(0)
                dst.write(data)
                dst.truncate()
                dst.flush()
                os.fsync(dst.fileno())
            os.unlink(tmp)
            return
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def clean_stale(path: Union[str, Path], suffix: str = ".tmp") -> None:
    """Remove temporaries of ``path`` that a killed save left behind (``safeio.clean_temps``: of a
    process that is gone, or over a minute old; a save running now in another window is left alone)."""
    clean_temps(Path(path), suffix)


def write_atomic(path: Union[str, Path], data: bytes) -> Path:
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return Path(path)
