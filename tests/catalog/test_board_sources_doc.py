"""docs/board-sources.md lists every board with its sources per slot and per position, written from
the rows (issue 40): the document must say what the catalog says."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from rigbuilder.catalog.boardsources import END, START, board_markdown
from rigbuilder.domain.parts import Motherboard, PcieSlot

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("board_sources", ROOT / "scripts" / "board_sources.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_document_lists_every_board_as_the_rows_say(shipped):
    assert _script().main(["--check"]) == 0, "run: python scripts/board_sources.py"
    text = (ROOT / "docs" / "board-sources.md").read_text(encoding="utf-8")
    section = text[text.index(START):text.index(END)]
    for b in (p for p in shipped[0] if isinstance(p, Motherboard)):
        assert f"(`{b.id}`)" in section, b.id


def test_a_board_names_the_source_of_each_flag_per_slot():
    slot = PcieSlot("PCIE1", 1, 16, False, 3, 8, "CPU",
                    confirmed_by="SMBIOS slot table of a probe, Linux Hardware Database DMI collection: PCIE1 'x8'",
                    size_source="A review (2019): four x16 slots")
    b = Motherboard(id="mb-x", maker="M", model="X", source="s", source_date="2026", slots=(slot,),
                    unverified=("slot_positions",))
    md = board_markdown(b)
    assert "Slot table: **confirmed**" in md and "Positions: **unconfirmed**" in md
    assert "| PCIE1 | 1 | x16 / x8 Gen3 CPU | [1] PCIE1 'x8' | [2] four x16 slots | **unconfirmed** |" in md
    assert "1. SMBIOS slot table of a probe" in md and "2. A review (2019)" in md
