"""docs/board-sources.md's board-by-board section, written from the catalog rows themselves: for
each board its two flags and, per slot, where its row, its physical size and its position come from
(scripts/board_sources.py writes it; a test checks the document says the same as the rows)."""
from __future__ import annotations

from typing import Iterable

from rigbuilder.domain.parts import Motherboard, PcieSlot

START = "<!-- board-table:start (written by scripts/board_sources.py; do not edit by hand) -->"
END = "<!-- board-table:end -->"


def _split(text: str) -> tuple[str, str]:
    """A source text as (document, the slot's own detail): 'Hardwareluxx, ... p.3: row 2 of 7'."""
    doc, sep, detail = text.partition(": ")
    return (doc, detail) if sep else (text, "")


def _cell(text: str, docs: list[str], detail_len: int = 70) -> str:
    doc, detail = _split(text)
    if doc not in docs:
        docs.append(doc)
    detail = detail.replace("|", "/")
    if len(detail) > detail_len:
        detail = detail[: detail_len - 1].rstrip() + "…"
    return f"[{docs.index(doc) + 1}]" + (f" {detail}" if detail else "")


def _size_cell(s: PcieSlot, docs: list[str]) -> str:
    if s.size_source:
        return _cell(s.size_source, docs, 40)
    if not s.size_confirmed:
        return "**unconfirmed**"
    if s.from_probe:
        return "designation"
    return "as the row"


def _position_cell(s: PcieSlot, docs: list[str]) -> str:
    if s.position_source:
        return _cell(s.position_source, docs, 40)
    return "as the row" if s.position_confirmed else "**unconfirmed**"


def board_markdown(b: Motherboard) -> str:
    docs: list[str] = []
    n = len(b.slots)
    table = sum(s.table_confirmed for s in b.slots)
    placed = sum(s.position_confirmed for s in b.slots)
    lines = [f"#### {b.name} (`{b.id}`)", "",
             f"Slot table: **{'confirmed' if b.slots_confirmed else 'unconfirmed'}** ({table} of {n} slot rows"
             + ("; which slots the board has is unconfirmed" if "slots" in b.unverified and table == n else "")
             + f"). Positions: **{'confirmed' if b.positions_confirmed else 'unconfirmed'}** ({placed} of {n}).", "",
             "| Slot | Pos. | Size / width | Slot row from | Size from | Position from |",
             "|---|---|---|---|---|---|"]
    for s in sorted(b.slots, key=lambda s: s.position):
        row = _cell(s.confirmed_by, docs) if s.confirmed_by else "**unconfirmed**"
        lines.append(f"| {s.id} | {s.position} | x{s.physical} / x{s.lanes} Gen{s.gen} {s.source} | {row} | "
                     f"{_size_cell(s, docs)} | {_position_cell(s, docs)} |")
    if docs:
        lines.append("")
        lines += [f"{i}. {d}" for i, d in enumerate(docs, 1)]
    return "\n".join(lines)


def section(boards: Iterable[Motherboard]) -> str:
    """The whole generated section, between its markers."""
    boards = sorted(boards, key=lambda b: (not b.slots_confirmed, not b.positions_confirmed, b.name.lower()))
    full = [b for b in boards if b.slots_confirmed]
    head = (f"{len(boards)} boards; {len(full)} with every slot's row confirmed and the list of slots complete; "
            f"{sum(b.positions_confirmed for b in boards)} with every position confirmed. \"as the row\": the "
            "document that confirmed the slot's row also gives its size or places it; \"designation\": the "
            "slot's name gives its size (`PCIEX16_2`, `CPU SLOT4 PCI-E 3.0 X8 (IN X16)`).")
    return "\n\n".join([START, head, *(board_markdown(b) for b in boards), END])


def replace_section(text: str, new: str) -> str:
    """``text`` with its generated section replaced by ``new`` (appended where there is none)."""
    if START in text and END in text:
        before = text[: text.index(START)]
        after = text[text.index(END) + len(END):]
        return before + new + after
    return text.rstrip("\n") + "\n\n" + new + "\n"


