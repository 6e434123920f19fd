"""Where rigbuilder keeps its files. Passed in, never global.

``RIGBUILDER_DATA_DIR`` and ``RIGBUILDER_CACHE_DIR`` override the platform's directories (for
portable use and for tests).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

APP_NAME = "rigbuilder"


@dataclass(frozen=True)
class Paths:
    data_dir: Path  # user parts database, settings
    cache_dir: Path  # the shipped catalog's SQLite copy

    @property
    def user_db(self) -> Path:
        return self.data_dir / "user-parts.sqlite"

    @classmethod
    def from_env(cls, env: Optional[Mapping[str, str]] = None) -> "Paths":
        env = os.environ if env is None else env
        data = env.get("RIGBUILDER_DATA_DIR")
        cache = env.get("RIGBUILDER_CACHE_DIR")
        if not data or not cache:
            import platformdirs
            data = data or platformdirs.user_data_dir(APP_NAME, appauthor=False)
            cache = cache or (str(Path(data) / "cache") if env.get("RIGBUILDER_DATA_DIR")
                              else platformdirs.user_cache_dir(APP_NAME, appauthor=False))
        return cls(Path(data), Path(cache))
