"""Importing a PCPartPicker list as a build: parse, match each line to the catalog, let the user
settle the weak and unmatched lines, then build through the edit vocabulary.

The window and ``rigbuilder import-list`` share all of it: :func:`plan` matches, :func:`choices`
applies the user's picks (a line matched weakly or not at all is never taken unless picked),
:func:`import_edit` turns the choices into one :class:`ImportParts` edit (one undoable step:
parts set or added with :class:`~rigbuilder.domain.edits.SetPart`, GPUs added with
:class:`~rigbuilder.domain.edits.AddGpu` where the placement policy puts them, each line's price
recorded as that part's price paid), and :func:`new_build` makes a new build of it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from math import fsum
from typing import Mapping, Optional

from rigbuilder.domain import kinds
from rigbuilder.domain.i18n import T, nT
from rigbuilder.catalog.match import KIND_OF_CATEGORY, MATCHED, SKIPPED, Match, Matcher
from rigbuilder.domain import limits
from rigbuilder.domain.build import REGIONS, Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.edits import AddGpu, Edit, SetPart, SetPricePaid
from rigbuilder.files.pcpp import ListLine, PartList

_STAGE = {kinds.ONE: 0, kinds.LIST: 1, kinds.COUNTED: 1, kinds.PLACED: 2}
ROLE_ORDER = tuple(k.name for k in sorted(kinds.KINDS, key=lambda k: _STAGE.get(k.role.shape, 3)) if k.categories)
"""The kinds a list names, in the order the import sets them: the board and other single parts first (GPU
positions are checked against the board's slots), the GPUs last (``domain.kinds``)."""
"""The board first, so each GPU is placed against its slots; the GPUs last."""

REGION_OF_CURRENCY = {"USD": "US-15A", "CAD": "US-15A", "GBP": "UK-13A", "EUR": "EU-16A", "JPY": "JP-15A",
                      "CNY": "CN-10A"}
"""The wall circuit a new build from a list in this currency starts with (the user can change it)."""


class PickError(ValueError):
    """A pick that cannot be used (unknown line or part, a part of another kind); says which."""


@dataclass(frozen=True)
class PlannedLine:
    line: ListLine
    match: Match


@dataclass(frozen=True)
class Plan:
    parts_list: PartList
    lines: tuple[PlannedLine, ...]

    def by_number(self, number: int) -> Optional[PlannedLine]:
        return next((p for p in self.lines if p.line.number == number), None)

    def needs_choice(self) -> list[PlannedLine]:
        """Lines matched weakly or not at all: the user picks a part or skips each."""
        return [p for p in self.lines if p.match.status not in (MATCHED, SKIPPED)]


def unsettled(p: "Plan", chosen: Mapping[int, Optional[str]], picked: set[int]) -> list[PlannedLine]:
    """Lines matched weakly or not at all that the user has neither picked a part for nor skipped."""
    return [pl for pl in p.needs_choice() if pl.line.number not in picked and chosen.get(pl.line.number) is None]


def plan(parts_list: PartList, matcher: Matcher) -> Plan:
    return Plan(parts_list, tuple(PlannedLine(ln, matcher.match(ln.category, ln.name)) for ln in parts_list.lines))


def choices(p: Plan, index: PartIndex, picks: Optional[Mapping[int, Optional[str]]] = None) -> dict[int, Optional[str]]:
    """The part chosen for each line number: a matched line's match unless picked otherwise; a
    weak or unmatched line only what the user picked (None: skipped). A pick names a line of the
    list and a catalog part of the line's kind (any kind for a Custom line)."""
    picks = dict(picks or {})
    out: dict[int, Optional[str]] = {pl.line.number: pl.match.part_id for pl in p.lines}
    for number, pid in picks.items():
        pl = p.by_number(number)
        if pl is None:
            have = ", ".join(str(x.line.number) for x in p.lines)
            raise PickError(T("line {num}: the list has no part on that line (part lines: {lines})", num=number, lines=have))
        if pid is None:
            out[number] = None
            continue
        part = index.get(pid)
        if part is None:
            raise PickError(T("line {num}: {id}: no such part in the catalog", num=number, id=f"{pid!s:.80}"))
        if pl.match.status == SKIPPED:
            raise PickError(T("line {num}: a {category} line; rigbuilder does not check those", num=number,
                                category=pl.line.category))
        want = KIND_OF_CATEGORY.get(pl.line.category)
        if want and part.KIND != want:
            raise PickError(T("line {num}: {name} is a {kind}; the line is a {category}", num=number, name=part.name,
                                kind=part.KIND, category=pl.line.category))
        out[number] = pid
    return out


@dataclass(frozen=True)
class ImportParts(Edit):
    """Parts from a list, added as one undoable step: ``steps`` are the edits (board and single
    parts set, memory, storage and NICs added, GPUs placed by the placement policy), ``prices``
    (part id, amount, currency, note, date) the prices paid recorded for them."""

    steps: tuple[Edit, ...]
    prices: tuple[tuple[str, float, str, str, str], ...] = ()
    label: str = T("Import parts list")

    def text(self, build: Build, index: PartIndex) -> str:
        return self.label

    def _change(self, b: Build, index: PartIndex) -> None:
        for e in self.steps:
            e._change(b, index)
        for pid, amount, currency, note, date in self.prices:
            SetPricePaid(pid, amount, currency, "new", note[:500], date[:40])._change(b, index)


def import_edit(p: Plan, chosen: Mapping[int, Optional[str]], index: PartIndex,
                base: Optional[Build] = None) -> tuple[ImportParts, list[str]]:
    """One edit that adds the chosen parts to ``base`` (an empty build by default), and what was
    left out and why (a third PSU, a second board). Lines without a chosen part are left out
    without a note: :func:`unsettled` lists those."""
    base = base or Build()
    by_kind: dict[str, list[tuple[ListLine, str]]] = {k: [] for k in ROLE_ORDER}
    notes: list[str] = []
    for pl in p.lines:
        pid = chosen.get(pl.line.number)
        if pid is None:
            continue
        part = index.get(pid)
        if part is None or part.KIND not in by_kind:
            notes.append(T("line {num}: {id} is not a part a build holds; skipped", num=pl.line.number,
                           id=f"{pid!s:.80}"))
            continue
        by_kind[part.KIND].append((pl.line, pid))
    steps: list[Edit] = []
    taken: list[tuple[ListLine, str]] = []
    for kind in ROLE_ORDER:
        entries = by_kind[kind]
        if kinds.kind(kind).role.shape == kinds.ONE:
            for ln, pid in entries[1:]:
                notes.append(T("line {num}: a build holds one {kind}; line {first}'s is used", num=ln.number, kind=kind,
                               first=entries[0][0].number))
            entries = entries[:1]
            steps += [SetPart(kind, pid) for _, pid in entries]
        elif kind == "psu":
            for ln, pid in entries[limits.MAX_PSUS:]:
                notes.append(T("line {num}: a build holds at most {most} PSUs; skipped", num=ln.number, most=limits.MAX_PSUS))
            entries = entries[:limits.MAX_PSUS]
            if len(entries) == 2 and entries[0][1] == entries[1][1]:
                notes.append(T("line {num}: a second PSU of the same model as line {first}'s; a build holds two PSUs "
                               "only of different models", num=entries[1][0].number, first=entries[0][0].number))
                entries = entries[:1]
            steps += [SetPart("psu" if i == 0 else "second-psu", pid) for i, (_, pid) in enumerate(entries)]
        elif kind == "gpu":
            room = limits.MAX_ITEMS - len(base.gpus)
            for ln, _ in entries[max(room, 0):]:
                notes.append(T("line {num}: a build holds at most {most} GPUs; skipped", num=ln.number, most=limits.MAX_ITEMS))
            entries = entries[:max(room, 0)]
            steps += [AddGpu(pid) for _, pid in entries]
        else:
            steps += [SetPart(kind, pid) for _, pid in entries]
        taken += entries
    prices = _prices(p.parts_list, taken)
    unknown = sorted({cur for _, _, cur, _, _ in prices if not index.prices.rates.knows(cur)})
    if unknown:
        codes = ", ".join(unknown)
        notes.append(T("prices in {currencies} are recorded as paid, but the exchange rates of {date} have none for "
                       "{currencies}: cost figures count those parts as without a price until a rate is set",
                       currencies=codes, date=index.prices.rates.date) if index.prices.rates.date else
                     T("prices in {currencies} are recorded as paid, but the exchange rates (no date) have none for "
                       "{currencies}: cost figures count those parts as without a price until a rate is set",
                       currencies=codes))
    n = len(taken)
    label = nT("Import parts list ({n} part)", "Import parts list ({n} parts)", n)
    return ImportParts(tuple(steps), prices, label), notes


def _prices(pl: PartList, taken: list[tuple[ListLine, str]]) -> tuple[tuple[str, float, str, str, str], ...]:
    """Each part's price paid: its line's price (the mean when several lines of one part differ)."""
    by_part: dict[str, list[ListLine]] = {}
    for ln, pid in taken:
        if ln.amount is not None and ln.currency:
            by_part.setdefault(pid, []).append(ln)
    date = pl.generated[:10] if re.match(r"\d{4}-\d{2}-\d{2}", pl.generated) else ""
    out = []
    for pid, lines in by_part.items():
        cur = lines[0].currency
        same = [ln for ln in lines if ln.currency == cur]
        amount = round(fsum(ln.amount for ln in same) / len(same), 2)  # type: ignore[misc]  # (statistics.fmean: 3 ms to import)
        where = "; ".join(dict.fromkeys(
            ("purchased for" if ln.purchased else ln.merchant or "no merchant")
            + (", out of stock" if ln.out_of_stock else "") for ln in same))
        nums = ", ".join(str(ln.number) for ln in same)
        note = (f"PCPartPicker list {pl.url}" if pl.url else "PCPartPicker list") + \
               f", line{'s' if len(same) > 1 else ''} {nums}: {where}" + (" (mean)" if len({ln.amount for ln in same}) > 1 else "")
        out.append((pid, amount, cur or "", note, date))  # type: ignore[arg-type]
    return tuple(out)


def new_build(p: Plan, chosen: Mapping[int, Optional[str]], index: PartIndex, name: str = "") -> tuple[Build, list[str]]:
    """A new build of the chosen parts; its region and currency follow the list's currency where
    rigbuilder knows one for it."""
    from rigbuilder.models.prices import change_currency, settings_for_region

    b = Build(name=(name or _name(p.parts_list))[:limits.MAX_NAME])
    region = REGION_OF_CURRENCY.get(p.parts_list.currency)
    if region in REGIONS:
        b.settings = settings_for_region(b.settings, region, index.prices.rates)
    if p.parts_list.currency in index.prices.rates.currencies() and b.settings.currency != p.parts_list.currency:
        b.settings = change_currency(b.settings, p.parts_list.currency, index.prices.rates)
    b.notes = (f"Imported from {p.parts_list.url}" if p.parts_list.url else "Imported from a PCPartPicker list")
    edit, notes = import_edit(p, chosen, index, b)
    return edit.applied_to(b, index), notes


def _name(pl: PartList) -> str:
    m = re.search(r"/list/([A-Za-z0-9]+)", pl.url)
    return f"PCPartPicker list {m.group(1)}" if m else "Imported parts list"
