"""A price file a lab collected (CSV or JSON), read into a preview before anything is stored.

Each row names a part (its catalog id, or its name as a shop or a list gives it, matched with the
list import's matcher, ``rigbuilder.catalog.match``), an amount, a currency, a condition (new or
used), the day it was seen and where. ``preview`` reads every row and says, per row, what it
matched and to what, or why it is bad (a currency the exchange rates do not know, a negative
amount, a part no catalog row matches clearly, a date in the future); nothing is written here.
The caller stores ``preview.good`` only after showing the preview (``price import`` without
``--dry-run``; the window's import dialog after the user says so).

Columns (CSV header or JSON object keys): ``part`` (or ``part_id`` or ``name``), ``amount``,
``currency``, and optionally ``condition`` (default new), ``date`` (ISO day or month; default
today), ``source``, ``kind`` (a catalog kind or a PCPartPicker category, to narrow the match) and
``market`` (where the price was seen, ``rigbuilder.domain.market.MARKETS``: US a US price before
sales tax, DE a German price with 19% VAT, ...; empty: a price you paid, tax included).
"""
from __future__ import annotations

import csv
import datetime as _dt
import io
import json
from dataclasses import dataclass, field
from typing import Any, Optional

from rigbuilder.catalog.match import MATCHED, Matcher, kind_of, match_any
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T, interleave, nT
from rigbuilder.domain.market import check_market, market_label
from rigbuilder.domain.safeio import parse_json
from rigbuilder.domain.money import MAX_SOURCE, ExchangeRates, MoneyError, PriceObservation, user_price_problems

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 10_000
MAX_TEXT = MAX_SOURCE
PART_COLUMNS = ("part", "part_id", "name")


class PriceFileError(ValueError):
    """A price file that cannot be read at all (not CSV or JSON, no part or amount column)."""


@dataclass(frozen=True)
class PriceRow:
    line: int  # CSV line or JSON entry number (1-based)
    part: str  # the part as the row gives it
    observation: Optional[PriceObservation] = None  # set when the row is good
    part_name: str = ""  # the catalog part it matched
    how: str = ""  # "id" or "name" (matched by the matcher)
    problems: tuple[str, ...] = ()  # why the row is bad, each naming the column

    @property
    def good(self) -> bool:
        return self.observation is not None


@dataclass
class PricePreview:
    where: str
    rows: list[PriceRow] = field(default_factory=list)

    @property
    def good(self) -> list[PriceObservation]:
        return [r.observation for r in self.rows if r.observation is not None]

    @property
    def bad(self) -> list[PriceRow]:
        return [r for r in self.rows if not r.good]

    def lines(self) -> list[str]:
        """The preview in words: one line per row, then the totals."""
        out = []
        for r in self.rows:
            if r.good:
                o = r.observation
                assert o is not None
                line = T("{where} line {line}: {part} -> {id} ({name}), {amount:,.2f} {currency}, {condition}, "
                         "{date}{by}", where=self.where, line=r.line, part=r.part, id=o.part_id, name=r.part_name,
                         amount=o.amount, currency=o.currency, condition=T(o.condition), date=o.date,
                         by=T(", matched by name") if r.how == "name" else "")
                out.append(T.join(line, T(", a {market} price", market=market_label(o.market))) if o.market else line)
            else:
                out.append(T("{where} line {line}: {part}: not imported: {problems}", where=self.where, line=r.line,
                             part=r.part or "-", problems=T.join(*interleave(r.problems, "; "))))
        out.append(T.join(nT("{n} row to import", "{n} rows to import", len(self.good)), ", ",
                          nT("{n} bad row left out", "{n} bad rows left out", len(self.bad))))
        return out



def read_rows(data: bytes, where: str) -> list[tuple[int, dict]]:
    """(line, row) for each row of a CSV or JSON price file; PriceFileError when it is neither."""
    if len(data) > MAX_BYTES:
        raise PriceFileError(T("{where}: larger than {mb} MB", where=where, mb=MAX_BYTES // (1024 * 1024)))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise PriceFileError(T("{where}: not UTF-8 text (byte {at})", where=where, at=e.start)) from None
    for n, line in enumerate(text.splitlines(), 1):  # as the catalog import: no terminal controls
        bad = next((ch for ch in line if (ord(ch) < 32 and ch != "\t") or ord(ch) == 127), None)
        if bad is not None:
            raise PriceFileError(T("{where} line {line}: a control character (U+{code:04X}); nothing imported",
                                   where=where, line=n, code=ord(bad)))
    if text.lstrip()[:1] in ("[", "{"):
        try:
            d = parse_json(text)  # a file nested too deeply or a number of 5,000 digits: a message, not a crash
        except json.JSONDecodeError as e:
            raise PriceFileError(T("{where}: not valid JSON (line {line}: {error})", where=where, line=e.lineno,
                                   error=e.msg)) from None
        except ValueError as e:
            raise PriceFileError(T("{where}: not valid JSON ({error})", where=where, error=e.args[0])) from None
        items = d.get("prices") if isinstance(d, dict) else d
        if not isinstance(items, list):
            raise PriceFileError(T("{where}: expected a list of prices (or an object with a 'prices' list)",
                                   where=where))
        rows = [(i + 1, x if isinstance(x, dict) else {"_bad": x}) for i, x in enumerate(items)]
    else:
        reader = csv.DictReader(io.StringIO(text, newline=""))  # a lone \r ends a line, as in the catalog import
        try:
            heads = [h.strip().lower() for h in (reader.fieldnames or [])]
        except csv.Error as e:  # the header itself malformed (found by benchmarks/fuzz.py)
            raise PriceFileError(T("{where} line {line}: {error}; nothing imported", where=where,
                                   line=max(1, reader.line_num), error=str(e))) from None
        missing = ([] if any(c in heads for c in PART_COLUMNS) else ["part"]) + [c for c in ("amount", "currency")
                                                                               if c not in heads]
        if missing:
            raise PriceFileError(nT("{where} line 1: missing column {missing}; nothing imported (expected part or "
                                    "part_id or name, amount, currency and optionally condition, date, source, kind)",
                                    "{where} line 1: missing columns {missing}; nothing imported (expected part or "
                                    "part_id or name, amount, currency and optionally condition, date, source, kind)",
                                    len(missing), where=where, missing=", ".join(missing)))
        rows = []
        try:
            for row in reader:
                rows.append((reader.line_num, {(k or "").strip().lower(): v for k, v in row.items()}))
        except csv.Error as e:  # a cell over the csv module's field limit, a NUL byte
            raise PriceFileError(T("{where} line {line}: {error}; nothing imported", where=where,
                                   line=reader.line_num, error=str(e))) from None
    if len(rows) > MAX_ROWS:
        raise PriceFileError(T("{where}: more than {n} rows", where=where, n=MAX_ROWS))
    return rows


def _text(v: Any) -> str:
    return "" if v is None else str(v).strip()


def preview(data: bytes, where: str, index: PartIndex, rates: ExchangeRates, *, matcher: Optional[Matcher] = None,
            today: Optional[str] = None) -> PricePreview:
    """Every row of a price file checked and matched; nothing stored. PriceFileError when the file
    cannot be read at all."""
    day = _dt.date.fromisoformat(today) if today else _dt.date.today()
    matcher = matcher or Matcher(index)
    out = PricePreview(where)
    for line, row in read_rows(data, where):
        if "_bad" in row:
            out.rows.append(PriceRow(line, "", problems=(T("not an object with part, amount and currency"),)))
            continue
        part = next((_text(row.get(c)) for c in PART_COLUMNS if _text(row.get(c))), "")[:MAX_TEXT]
        problems: list[str] = []
        pid, name, how = None, "", ""
        if not part:
            problems.append(T("no part named"))
        elif part in index:
            p = index.get(part)
            pid, name, how = part, p.name if p else part, "id"
        else:
            kind_text = _text(row.get("kind"))
            kind = kind_of(kind_text) if kind_text else None
            if kind_text and kind is None:
                problems.append(T("kind {kind} is not a part kind", kind=kind_text[:40]))
            m = match_any(matcher, part, kind)
            if m.status == MATCHED and m.part_id:
                pid, name, how = m.part_id, m.best.name if m.best else "", "name"
            else:
                closest = m.best if m.status != "none" else None
                problems.append(T("unknown part: no catalog part matches clearly ({why}); closest: {closest}",
                                  why=m.reason or T("nothing close"), closest=closest.part_id if closest else "-")
                                if closest else T("unknown part: no catalog part comes close"))
        # The one validator of a user's price (domain.money), so a bad amount, currency, condition, source
        # or date reads the same here as in price set, the price store and the window's dialogs; the market
        # column has its own one check (domain.market).
        checked, bad = user_price_problems(row.get("amount"), _text(row.get("currency")), _text(row.get("condition")),
                                           _text(row.get("source")), row.get("date"), rates=rates,
                                           today=day.isoformat())
        problems += bad
        try:
            market = check_market(_text(row.get("market")), T("market"))
        except MoneyError as e:
            problems.append(e.args[0] if e.args else str(e))
            market = None
        if problems or pid is None or checked is None or market is None:
            out.rows.append(PriceRow(line, part, problems=tuple(problems)))
            continue
        amount, currency, cond, source, date = checked
        obs = PriceObservation(pid, amount, currency, cond, "user", source or T("imported from {file}", file=where), date,
                               market=market)
        out.rows.append(PriceRow(line, part, obs, name, how))
    return out
