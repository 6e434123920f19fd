"""The code ``@dataclass`` writes, compiled once and kept between starts.

Each ``@dataclass`` writes the source of its methods (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, a frozen class's ``__setattr__``) as text and compiles it when its module is
imported; byte code files do not keep that. The app's start-up imports about 70 such classes,
some with 40 fields: compiling their methods took 90-100 ms of every start on a loaded two-core
machine (12% of it). While a :class:`DataclassCodeCache` is installed, the ``dataclasses``
module compiles through it: a text compiled before is taken from the cache file (one
``marshal`` read), a new one is compiled and added. Nothing else changes: the same text gives
the same code, the file is keyed by the interpreter's version, and a missing, damaged or
foreign file is simply written again. Where ``dataclasses`` no longer calls ``exec`` (another
Python), installing changes nothing.
"""
from __future__ import annotations

import builtins
import marshal
import sys
from contextlib import contextmanager
from pathlib import Path
from types import CodeType
from typing import Iterator, Optional

_TAG = f"{sys.implementation.cache_tag}-{sys.version_info.releaselevel}{sys.version_info.serial}"
MAX_FILE = 8 * 1024 * 1024
"""The most the cache file may hold (the app's start-up writes about 0.3 MB)."""


def cache_file(cache_dir: Path) -> Path:
    return cache_dir / f"dataclass-code-{_TAG}.marshal"


class DataclassCodeCache:
    def __init__(self, path: Optional[Path]) -> None:
        self.path = path
        self.codes: dict[str, CodeType] = {}
        self.added = 0
        self.hits = 0
        self._module = None
        self._previous = None
        if path is not None:
            try:
                if path.stat().st_size <= MAX_FILE:
                    codes = marshal.loads(path.read_bytes())  # our own cache file, written by save()
                    if isinstance(codes, dict) and all(isinstance(k, str) and isinstance(v, CodeType)
                                                       for k, v in codes.items()):
                        self.codes = codes
            except (OSError, ValueError, EOFError, TypeError):
                pass  # none yet, or damaged: written again

    def exec(self, source, globals=None, locals=None):  # noqa: A002, A003 (the builtin's names)
        if not isinstance(source, str):
            return builtins.exec(source, globals, locals)
        code = self.codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec")
            self.codes[source] = code
            self.added += 1
        else:
            self.hits += 1
        return builtins.exec(code, globals, locals)

    def install(self) -> None:
        """``dataclasses`` compiles through this cache until :meth:`uninstall` (a cache installed
        already, such as the command line's around the app's, takes over again then)."""
        import dataclasses

        self._previous = vars(dataclasses).get("exec")
        dataclasses.exec = self.exec  # a module global shadows the builtin for its functions
        self._module = dataclasses

    def uninstall(self) -> None:
        if self._module is not None and vars(self._module).get("exec") == self.exec:
            if self._previous is None:
                del self._module.exec
            else:
                self._module.exec = self._previous
        self._module = None

    def save(self) -> None:
        """Write the cache when new code was compiled (atomically; a read-only cache folder is
        left alone)."""
        if not self.added or self.path is None:
            return
        from rigbuilder.catalog.cachefile import write_whole

        try:
            data = marshal.dumps(self.codes)
        except ValueError:
            return
        if write_whole(self.path, data, ".dataclass-code-"):
            self.added = 0


@contextmanager
def dataclass_code_cached(cache_dir: Path) -> Iterator[DataclassCodeCache]:
    """The app's start and each command run with the cache in ``cache_dir`` installed; what they
    compiled new is written when they end."""
    cache = DataclassCodeCache(cache_file(cache_dir))
    cache.install()
    try:
        yield cache
    finally:
        cache.uninstall()
        cache.save()
