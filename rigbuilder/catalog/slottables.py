"""Firmware slot tables (SMBIOS type 9, as ``dmidecode`` prints them in public hardware probes) and
the test that tells a board's own table from a placeholder.

A placeholder table is one the firmware vendor left from a reference design: its designations are
board part labels (``U1``, ``J47``, ``U3600``) rather than slot names, or every slot sits at one bus
address, or it is the same table as one already known to be a template. Such a table confirms
nothing (docs/board-sources.md, "One reading of a firmware slot table").
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

PART_LABEL = re.compile(r"^(?:U|J|JP|CN|Q)\d{1,5}$", re.IGNORECASE)
"""A reference designator printed on a circuit board (U for chips, J for connectors), not a slot name."""


@dataclass(frozen=True)
class TableEntry:
    designation: str
    type: str
    bus: str


@dataclass(frozen=True)
class SlotTable:
    """One probe's slot table as read, with where it was read."""

    board: str
    probe: str
    source: str
    entries: tuple[TableEntry, ...]
    template_of: str = ""
    """Set where this table is a known reference template: what it is a template of."""

    def signature(self) -> frozenset:
        return frozenset((e.designation, e.type, e.bus) for e in self.entries)


def placeholder_reasons(table: SlotTable, templates: tuple[SlotTable, ...] = ()) -> list[str]:
    """Why ``table`` is a placeholder, in words ([] for a table that may be the board's own)."""
    out = []
    labels = [e.designation for e in table.entries if PART_LABEL.match(e.designation.strip())]
    if labels:
        out.append("board part labels instead of slot names: " + ", ".join(labels))
    buses = {e.bus for e in table.entries if "PCI Express" in e.type}
    if len([e for e in table.entries if "PCI Express" in e.type]) >= 2 and len(buses) == 1:
        out.append(f"one bus address for every slot ({next(iter(buses))})")
    for t in templates:
        if t is not table and t.template_of and t.signature() == table.signature():
            out.append(f"the same table as the {t.template_of} template (probe {t.probe})")
    return out


def load_tables(path: Path) -> tuple[SlotTable, ...]:
    """The recorded tables of a JSON file: a list of {board, probe, source, entries: [[designation,
    type, bus], ...], template_of?}."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    return tuple(SlotTable(r["board"], r["probe"], r["source"],
                           tuple(TableEntry(*e) for e in r["entries"]), r.get("template_of", ""))
                 for r in rows)
