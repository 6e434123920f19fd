"""Read the shipped catalog's JSON files (resources/catalog) into domain parts."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from rigbuilder.catalog.schema import Problem, validate_part
from rigbuilder.domain.kinds import FILE_KINDS, PART_KINDS
from rigbuilder.domain.parts import Part

MAX_FILE_BYTES = 20 * 1024 * 1024


def resources_dir() -> Path:
    """The resources folder: beside the package in a checkout, inside it when installed."""
    here = Path(__file__).resolve().parent.parent
    for cand in (here / "resources", here.parent / "resources"):
        if (cand / "catalog").is_dir():
            return cand
    return here.parent / "resources"


def catalog_dir() -> Path:
    return resources_dir() / "catalog"


def kind_for_file(path: Path) -> Optional[str]:
    stem = path.stem.split("-", 1)[0]
    return FILE_KINDS.get(stem)


def load_catalog_file(path: Path, origin: str = "shipped") -> tuple[list[Part], list[Problem]]:
    """Validate one catalog JSON file; returns the valid parts and every problem."""
    kind = kind_for_file(path)
    if kind is None:
        return [], [Problem(str(path), "", "file name does not name a part kind "
                            f"({', '.join(sorted(FILE_KINDS))})")]
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return [], [Problem(str(path), "", "file larger than 20 MB")]
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        return [], [Problem(str(path), "", f"cannot read: {e}")]
    except json.JSONDecodeError as e:
        return [], [Problem(f"{path}:{e.lineno}:{e.colno}", "", f"not valid JSON: {e.msg}")]
    if not isinstance(data, list):
        return [], [Problem(str(path), "", "expected a JSON array of rows")]
    cls = PART_KINDS[kind]
    parts: list[Part] = []
    problems: list[Problem] = []
    for i, raw in enumerate(data):
        rid = raw.get("id") if isinstance(raw, dict) else None
        where = f"{path.name} row {i + 1}" + (f" ({rid})" if isinstance(rid, str) else "")
        part, probs = validate_part(cls, raw, where, origin)
        problems.extend(probs)
        if part is not None:
            parts.append(part)
    return parts, problems


COMMUNITY_SUFFIX = "-opendb"
"""Files of rows imported from a community database (scripts/import_opendb.py writes them)."""


def catalog_files(directory: Optional[Path] = None) -> list[Path]:
    """The catalog's files: the curated ones first (their parts come first in every list), then
    the imported community rows."""
    d = directory or catalog_dir()
    return sorted((p for p in d.glob("*.json") if kind_for_file(p)),
                  key=lambda p: (p.stem.endswith(COMMUNITY_SUFFIX), p.name))


def catalog_fingerprint(directory: Optional[Path] = None) -> str:
    """A hash of the shipped catalog files: the catalog version."""
    import hashlib

    h = hashlib.sha256()
    for p in catalog_files(directory):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def load_shipped(directory: Optional[Path] = None) -> tuple[list[Part], list[Problem]]:
    """All shipped parts; ids must be unique across files."""
    parts: list[Part] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in catalog_files(directory):
        ps, probs = load_catalog_file(path)
        problems.extend(probs)
        for p in ps:
            if p.id in seen:
                problems.append(Problem(path.name, "id", f"{p.id!r} also in {seen[p.id]}"))
                continue
            seen[p.id] = path.name
            parts.append(p)
    return parts, problems
