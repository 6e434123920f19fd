"""Import and export the user's own parts as CSV and JSON.

Every row is validated; a file with any bad row imports nothing and reports each bad row with
its line and field. Importing the same file twice changes nothing the second time.
"""
from __future__ import annotations

import csv
import dataclasses
import io
import json
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from rigbuilder.catalog.schema import READ_ONLY_FIELDS, Problem, field_specs, part_to_dict, validate_part
from rigbuilder.catalog.rows import part_to_row, row_to_part
from rigbuilder.catalog.tables import PartRow
from rigbuilder.catalog.userdb import guarded_write
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.kinds import PART_KINDS
from rigbuilder.domain.parts import Part
from rigbuilder.domain.safeio import CSV_FORMULA_START, UnreadableFile, neutralise_cell, parse_json, read_limited

MAX_IMPORT_BYTES = 5 * 1024 * 1024
MAX_ROWS = 10000


@dataclass
class ImportResult:
    added: int
    updated: int
    unchanged: int
    ignored: tuple[str, ...] = ()
    """Read-only keys of the file (``catalog show --json`` output) that were ignored."""


class ImportError_(ValueError):
    """The file was not imported; ``problems`` say what and where."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems[:50]))


def _read_text(path: Path) -> str:
    try:
        raw = read_limited(path, MAX_IMPORT_BYTES)
    except UnreadableFile as e:
        raise ImportError_([Problem(str(path), "", f"{e}; an import is a regular file of at most "
                                                   f"{MAX_IMPORT_BYTES} bytes")]) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ImportError_([Problem(f"{path.name} byte {e.start}", "", "not UTF-8 text")]) from None


def _blank_cells(kind: Any) -> dict[str, Any]:
    """What an empty cell means for ``kind``'s fields: "" or an empty list for required text and
    lists, null for an optional field whose default is not null (the export writes all of these as
    empty cells, and the import must read them back as they were)."""
    cls = PART_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return {}
    out: dict[str, Any] = {}
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    for name, tp, required in field_specs(cls):
        if defaults.get(name) not in (None, dataclasses.MISSING) and type(None) in typing.get_args(tp):
            out[name] = None  # an empty cell is "unknown" (null), not the field's default
        elif required and tp is str:
            out[name] = ""
        elif required and typing.get_origin(tp) in (tuple, list):
            out[name] = []
    return out


def _csv_rows(text: str, name: str) -> list[tuple[str, dict]]:
    """(where, raw row) for each CSV record; nested cells are JSON, lists are ';'-separated."""
    out = []
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if not reader.fieldnames or "kind" not in reader.fieldnames:
        raise ImportError_([Problem(f"{name} line 1", "kind", "the header must have a 'kind' column")])
    try:
        for rec in reader:
            line = reader.line_num
            if len(out) >= MAX_ROWS:
                raise ImportError_([Problem(name, "", f"more than {MAX_ROWS} rows")])
            if None in rec:
                raise ImportError_([Problem(f"{name} line {line}", "", "more cells than header columns")])
            raw: dict[str, Any] = {}
            blank_as = _blank_cells(rec.get("kind"))
            for k, v in rec.items():
                if k is None or v is None:
                    continue
                if v == "":  # a column of another kind, or this kind's empty text or list
                    if k in blank_as:
                        raw[k] = blank_as[k]
                    continue
                v = v.strip()
                if v[:1] == "'" and v[1:2] in CSV_FORMULA_START:
                    v = v[1:]  # undo our own export's neutralisation
                if v[:1] in ("[", "{") and k not in ("notes", "source"):
                    try:
                        v = parse_json(v)
                    except json.JSONDecodeError:
                        pass  # reported by the validator as a type problem
                    except ValueError as e:
                        raise ImportError_([Problem(f"{name} line {line}", k, str(e))]) from None
                raw[k] = v
            out.append((f"{name} line {line}", raw))
    except csv.Error as e:
        raise ImportError_([Problem(f"{name} line {reader.line_num}", "", f"malformed CSV: {e}")]) from None
    return out


def _json_rows(text: str, name: str) -> list[tuple[str, dict]]:
    try:
        data = parse_json(text)
    except json.JSONDecodeError as e:
        raise ImportError_([Problem(f"{name} line {e.lineno} column {e.colno}", "", f"not valid JSON: {e.msg}")]) from None
    except ValueError as e:
        raise ImportError_([Problem(name, "", str(e))]) from None
    if isinstance(data, dict) and isinstance(data.get("parts"), list):
        data = data["parts"]
    elif isinstance(data, dict) and "kind" in data and "id" in data:
        data = [data]  # one part, as ``catalog show --json`` prints it
    if not isinstance(data, list):
        raise ImportError_([Problem(name, "", "expected a JSON array of parts (or {\"parts\": [...]})")])
    if len(data) > MAX_ROWS:
        raise ImportError_([Problem(name, "", f"more than {MAX_ROWS} rows")])
    return [(f"{name} item {i + 1}", r) for i, r in enumerate(data)]


def parse_parts(path: Path, shipped_ids: Iterable[str] = (), ignored: Optional[set] = None) -> list[Part]:
    """Validate every row of a CSV or JSON file; raise ImportError_ listing all problems. The
    read-only keys ``catalog show --json`` adds are dropped and collected in ``ignored``."""
    text = _read_text(path)
    rows = _csv_rows(text, path.name) if path.suffix.lower() == ".csv" else _json_rows(text, path.name)
    shipped = set(shipped_ids)
    problems: list[Problem] = []
    parts: list[Part] = []
    seen: dict[str, str] = {}
    for where, raw in rows:
        if not isinstance(raw, dict):
            problems.append(Problem(where, "", "expected an object"))
            continue
        raw = dict(raw)
        kind = raw.pop("kind", None)
        if not isinstance(kind, str) or kind not in PART_KINDS:
            problems.append(Problem(where, "kind", f"{kind!r:.40} is not one of: {', '.join(PART_KINDS)}"))
            continue
        for key in READ_ONLY_FIELDS:
            if key in raw:
                raw.pop(key)
                if ignored is not None:
                    ignored.add(key)
        raw.setdefault("unverified", [])
        part, probs = validate_part(PART_KINDS[kind], raw, where, origin="user")
        problems.extend(probs)
        if part is None:
            continue
        if part.id in shipped:
            problems.append(Problem(where, "id", f"{part.id!r} is a shipped part's id; choose another id"))
        elif part.id in seen:
            problems.append(Problem(where, "id", f"{part.id!r} appears twice (also {seen[part.id]})"))
        else:
            seen[part.id] = where
            parts.append(part)
    if problems:
        raise ImportError_(problems)
    return parts


@guarded_write
def import_parts(engine: Engine, path: Path, index: PartIndex, *, dry_run: bool = False) -> ImportResult:
    """Validate ``path`` and add or update its parts in the user database, all or nothing.
    ``dry_run`` validates and counts what would change, and writes nothing."""
    shipped = [p.id for p in index if p.origin == "shipped"]
    ignored: set = set()
    parts = parse_parts(path, shipped, ignored)
    added = updated = unchanged = 0
    with Session(engine) as s:
        for p in parts:
            new = part_to_row(p)
            old = s.get(PartRow, p.id)
            if old is None:
                s.add(new)
                added += 1
            elif old.model_dump() == new.model_dump():
                unchanged += 1
            else:
                s.merge(new)
                updated += 1
        if dry_run:
            s.rollback()
        else:
            s.commit()
    return ImportResult(added, updated, unchanged, tuple(k for k in READ_ONLY_FIELDS if k in ignored))


def user_parts(engine: Engine) -> list[Part]:
    with Session(engine) as s:
        rows = list(s.exec(select(PartRow).order_by(PartRow.kind, PartRow.id)))
    return [p for p in (row_to_part(r, "user")[0] for r in rows) if p is not None]


@guarded_write
def delete_part(engine: Engine, part_id: str) -> bool:
    with Session(engine) as s:
        row = s.get(PartRow, part_id)
        if row is None:
            return False
        s.delete(row)
        s.commit()
        return True


def export_json(parts: Iterable[Part]) -> bytes:
    rows = [{"kind": p.KIND, **part_to_dict(p)} for p in parts]
    return (json.dumps(rows, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def export_csv(parts: Iterable[Part]) -> bytes:
    """One table for all kinds: ``kind`` plus the union of fields; lists joined with ';',
    nested values as JSON. Text cells that could run as formulas are neutralised."""
    parts = list(parts)
    cols = ["kind"]
    for cls in dict.fromkeys(type(p) for p in parts):
        for name, _, _ in field_specs(cls):
            if name not in cols:
                cols.append(name)
    buf = io.StringIO()
    # "\r\n" (RFC 4180): the writer quotes a cell holding any character of the line terminator, so
    # a lone carriage return is quoted too (with "\n" alone it split the record in a spreadsheet).
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\r\n")
    w.writeheader()
    for p in parts:
        d = part_to_dict(p)
        row: dict[str, Any] = {"kind": p.KIND}
        for k, v in d.items():
            if isinstance(v, list) and all(isinstance(x, str) for x in v) and not any(";" in x for x in v):
                v = ";".join(v)
            elif isinstance(v, (list, dict)):
                v = json.dumps(v, ensure_ascii=False)
            row[k] = neutralise_cell(v)
        w.writerow(row)
    return buf.getvalue().encode("utf-8")
