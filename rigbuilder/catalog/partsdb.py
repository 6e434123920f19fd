"""Part rows in a catalog database file: written through SQLAlchemy (the shipped database's build,
the user's own parts), read through the standard library's sqlite3 (start-up cost matters:
SQLModel and SQLAlchemy take about 0.35 s to import) and validated row by row."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

from rigbuilder.catalog.rows import COMMON, part_to_row, raw_to_part
from rigbuilder.catalog.schema import Problem, part_to_dict
from rigbuilder.catalog.userdb import safe_to_open, tolerant_text
from rigbuilder.domain.parts import COMMUNITY_SOURCE, Part
from rigbuilder.domain.safeio import parse_json

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def write_parts(engine: "Engine", parts: Iterable[Part], *, fresh: bool = False) -> None:
    """Write parts (replacing rows with the same id); ``fresh``: the table is new and the ids
    unique, so the rows are inserted in one batch (11,000 parts in well under a second)."""
    if fresh:  # one executemany of plain rows: ORM objects made the first start's build 4x slower
        from rigbuilder.catalog.tables import PartRow

        rows = []
        for p in parts:
            d = part_to_dict(p)
            common = {k: d.pop(k) for k in COMMON}
            rows.append({"kind": p.KIND, "verified": p.verified, "spec": d, **common})
        if rows:
            with engine.begin() as con:
                con.execute(PartRow.__table__.insert(), rows)
        return
    from sqlmodel import Session

    with Session(engine) as s:
        for p in parts:
            s.merge(part_to_row(p))
        s.commit()


_IS_COMMUNITY = f"substr(source, 1, {len(COMMUNITY_SOURCE)}) = '{COMMUNITY_SOURCE}'"
COMMUNITY_WHERE = {None: "", True: f" where {_IS_COMMUNITY}", False: f" where not {_IS_COMMUNITY}"}
"""Rows of the community database (``Part.community``), the curated ones, or all."""
LIST_ORDER = " order by kind, lower(maker), lower(model), id"
"""The catalog list's order within a kind (the curated rows are read first): rows read in pieces
join the list at its end."""
COLUMNS = ", ".join(("kind", "spec") + COMMON)
"""The columns ``decode_rows`` reads, in its order."""


def read_parts(path: Path, origin: str, *, trusted: bool = False,
               community: Optional[bool] = None) -> tuple[list[Part], list[Problem]]:
    """Every part in the SQLite file at ``path`` (read with sqlite3, validated row by row);
    ``community``: only the community rows (True) or only the others (False).
    ``trusted``: a shipped catalog that ``build_shipped_db`` wrote from validated files (its
    version checked by the caller); rows are built without re-checking every value."""
    parts: list[Part] = []
    problems: list[Problem] = []
    if not safe_to_open(path):  # absent; a device or pipe (or one as its journal) is never opened
        return parts, problems
    try:
        rows = _select(path, community)
    except (sqlite3.Error, ValueError) as e:  # ValueError: a message quoting non-UTF-8 bytes
        return parts, [Problem(str(path), "", f"cannot read the {origin} parts database: {e}")]
    decode_rows(rows, origin, trusted, parts, problems)
    return parts, problems


def _select(path: Path, community: Optional[bool]) -> list[tuple]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.text_factory = tolerant_text  # bytes of a damaged page that are not UTF-8: U+FFFD, not an error
    try:
        return con.execute(f"select {COLUMNS} from part{COMMUNITY_WHERE[community]}{LIST_ORDER}").fetchall()
    finally:
        con.close()


def decode_rows(rows: Iterable[tuple], origin: str, trusted: bool, parts: list[Part], problems: list[Problem]) -> None:
    """Rows of ``COLUMNS`` as parts (appended to ``parts``); a bad row is a problem, never a crash."""
    for row in rows:
        kind, spec_text, *common_vals = row
        common = dict(zip(COMMON, common_vals))
        try:  # bounded: nesting too deep or a number too long is a bad row, not a crash
            spec = parse_json(spec_text)
            common["unverified"] = parse_json(common["unverified"]) if common["unverified"] else []
        except (TypeError, ValueError):
            problems.append(Problem(f"{origin} database row {common['id']}", "spec", "is not valid JSON"))
            continue
        p, probs = raw_to_part(kind, common["id"], spec, common, origin, trusted)
        problems.extend(probs)
        if p is not None:
            parts.append(p)
