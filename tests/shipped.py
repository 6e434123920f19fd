"""The shipped catalog read and validated once per test process (the session fixture ``shipped``
and the modules that draw examples from the catalog at import share it): reading and validating
its ~13,700 rows takes seconds, and each xdist worker would otherwise do it once per caller.
``tests/catalog/test_shipped.py`` reads it afresh where the reading itself is what is tested."""
from __future__ import annotations

from functools import lru_cache

from rigbuilder.catalog.loader import load_shipped
from rigbuilder.catalog.schema import Problem
from rigbuilder.domain.parts import Part


@lru_cache(maxsize=1)
def _loaded() -> tuple[tuple[Part, ...], tuple[Problem, ...]]:
    parts, problems = load_shipped()
    return tuple(parts), tuple(problems)


def shipped_parts() -> tuple[list[Part], list[Problem]]:
    """``load_shipped()``: new lists each call (the parts are frozen and shared)."""
    parts, problems = _loaded()
    return list(parts), list(problems)
