"""A part as a database row and back: the shipped database, the user database and the user parts
import all read and write rows through these (a module of its own, below ``partsdb`` and
``userparts``, which import neither each other nor the catalog facade, ``store``)."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Optional

from rigbuilder.catalog.schema import Problem, build_trusted, part_to_dict, validate_part
from rigbuilder.domain.kinds import PART_KINDS
from rigbuilder.domain.parts import Part

if TYPE_CHECKING:
    from rigbuilder.catalog.tables import PartRow

COMMON = ("id", "maker", "model", "price", "currency", "price_note", "source", "source_date",
          "unverified", "notes")


def part_to_row(part: Part) -> "PartRow":
    from rigbuilder.catalog.tables import PartRow

    d = part_to_dict(part)
    common = {k: d.pop(k) for k in COMMON}
    return PartRow(kind=part.KIND, verified=part.verified, spec=d, **common)


def row_to_part(row: "PartRow", origin: str) -> tuple[Optional[Part], list[Problem]]:
    return raw_to_part(row.kind, row.id, dict(row.spec), {k: getattr(row, k) for k in COMMON}, origin)


def raw_to_part(kind: str, pid: str, spec: dict, common: dict, origin: str,
                 trusted: bool = False) -> tuple[Optional[Part], list[Problem]]:
    raw = dict(spec)
    raw.update(common)
    cls = PART_KINDS.get(kind)
    if cls is None:
        return None, [Problem(f"{origin} database row {pid}", "kind", f"unknown kind {kind!r}")]
    if trusted:
        try:
            return dataclasses.replace(build_trusted(cls, raw), origin=origin), []
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            pass  # not what build_shipped_db wrote: judge it row by row
    return validate_part(cls, raw, f"{origin} database row {pid}", origin)
