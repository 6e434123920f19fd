"""The user's own prices, in the user database (table ``user_price``, Alembic revision 0002).

One price per part and condition: setting it again replaces it. Read with sqlite3 at start-up
(like the user parts); written through SQLModel. CSV import is all rows or none, each problem
naming its line and column; export writes the same columns back.
"""
from __future__ import annotations

import csv
import io
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

from rigbuilder.catalog.userdb import guarded_write, safe_to_open, tolerant_text
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.market import check_market
from rigbuilder.domain.money import (CONDITIONS, MAX_SOURCE, USER_SOURCE, ExchangeRates, MoneyError,  # noqa: F401
                                     PriceObservation, user_price_problems)

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

CSV_COLUMNS = ("part_id", "amount", "currency", "condition", "source", "date", "market")
MAX_CSV_BYTES = 5 * 1024 * 1024
MAX_ROWS = 10000
"""The most rows a price file may hold (the catalog import's limit)."""


class PriceImportError(ValueError):
    """A price file that cannot be imported; ``problems`` lists each line and column."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems[:10]) + (f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""))
        self.problems = problems


def make_observation(part_id: str, amount: object, currency: object, condition: object = "new", source: str = "",
                     date: str = "", *, index: Optional[PartIndex] = None, where: str = "",
                     rates: Optional[ExchangeRates] = None, today: Optional[str] = None) -> PriceObservation:
    """A checked user price; MoneyError names what is wrong (and ``where``). The amount, currency
    and date go through the shared checks (``check_amount``, ``check_currency``, ``check_date``)
    that every door uses; ``rates`` (the index's when an index is given) must know the currency."""
    w = f"{where}: " if where else ""
    if index is not None and part_id not in index:
        raise MoneyError(f"{w}no part {part_id!r:.60} in the catalog")
    if not part_id or len(part_id) > 120:
        raise MoneyError(f"{w}a part id is 1 to 120 characters")
    if rates is None and index is not None:
        rates = index.prices.rates
    checked, problems = user_price_problems(amount, currency, condition, source, date, rates=rates, today=today,
                                            where=where)
    if checked is None:
        raise MoneyError(problems[0])
    a, cur, cond, source, day = checked
    return PriceObservation(part_id, a, cur, cond, "user", source or USER_SOURCE, day)


def read_user_prices(path: Optional[Path]) -> list[PriceObservation]:
    """The user's prices (an absent database or table has none)."""
    if path is None or not safe_to_open(path):  # absent; a device or pipe (or one as its journal) is never opened
        return []
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.text_factory = tolerant_text  # a damaged byte in a source reads as U+FFFD, the price is kept
        try:
            try:
                rows = con.execute("select part_id, amount, currency, condition, source, date, market from user_price "
                                   "order by part_id, condition").fetchall()
            except sqlite3.OperationalError:  # a database of before 0004 (not migrated yet: read-only): no market
                rows = [(*r, "") for r in con.execute("select part_id, amount, currency, condition, source, date "
                                                      "from user_price order by part_id, condition").fetchall()]
        finally:
            con.close()
    except (sqlite3.Error, ValueError):
        return []
    from rigbuilder.domain.market import MARKETS

    return [PriceObservation(pid, float(a), cur, cond, "user", src or USER_SOURCE, date or "",
                             market=mk if mk in MARKETS else "")
            for pid, a, cur, cond, src, date, mk in rows]


@guarded_write
def set_prices(engine: "Engine", prices: Iterable[PriceObservation]) -> int:
    """Store prices (each replaces the user's price of that part and condition); returns how many."""
    from sqlmodel import Session, delete

    from rigbuilder.catalog.tables import UserPriceRow

    n = 0
    with Session(engine) as s:
        for o in prices:
            s.exec(delete(UserPriceRow).where(UserPriceRow.part_id == o.part_id,  # type: ignore[arg-type]
                                              UserPriceRow.condition == o.condition))  # type: ignore[arg-type]
            s.add(UserPriceRow(part_id=o.part_id, amount=o.amount, currency=o.currency, condition=o.condition,
                               source=o.source, date=o.date, market=getattr(o, "market", "") or ""))
            n += 1
        s.commit()
    return n


@guarded_write
def remove_price(engine: "Engine", part_id: str, condition: Optional[str] = None) -> int:
    from sqlmodel import Session, delete

    from rigbuilder.catalog.tables import UserPriceRow

    with Session(engine) as s:
        q = delete(UserPriceRow).where(UserPriceRow.part_id == part_id)  # type: ignore[arg-type]
        if condition:
            q = q.where(UserPriceRow.condition == condition)  # type: ignore[arg-type]
        n = s.exec(q).rowcount  # type: ignore[attr-defined]
        s.commit()
    return n or 0


def parse_csv(data: bytes, index: Optional[PartIndex], where: str = "file") -> list[PriceObservation]:
    """Every row of a price CSV, or PriceImportError naming each bad line and column."""
    if len(data) > MAX_CSV_BYTES:
        raise PriceImportError([f"{where}: larger than {MAX_CSV_BYTES // (1024 * 1024)} MB"])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise PriceImportError([f"{where}: not UTF-8 text (byte {e.start})"]) from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    out: list[PriceObservation] = []
    problems: list[str] = []
    try:  # csv.Error: a cell over the csv module's field limit (131,072 characters), a stray NUL
        missing = [c for c in ("part_id", "amount", "currency") if c not in (reader.fieldnames or [])]
        if missing:
            raise PriceImportError([f"{where} line 1: missing columns: {', '.join(missing)}; expected "
                                    f"{', '.join(CSV_COLUMNS)}"])
        for row in reader:
            line = reader.line_num
            if len(out) + len(problems) >= MAX_ROWS:
                raise PriceImportError([f"{where}: more than {MAX_ROWS} rows"])
            try:
                o = make_observation((row.get("part_id") or "").strip(), row.get("amount") or "",
                                     (row.get("currency") or "").strip(),
                                     (row.get("condition") or "new").strip(), row.get("source") or "",
                                     row.get("date") or "", index=index, where=f"{where} line {line}")
                market = check_market(row.get("market"), f"{where} line {line}: market")
                out.append(replace(o, market=market) if market else o)
            except MoneyError as e:
                problems.append(str(e))
    except csv.Error as e:
        raise PriceImportError([f"{where} line {reader.line_num}: malformed CSV: {e}"]) from None
    if problems:
        raise PriceImportError(problems)
    return out


def to_csv(prices: Iterable[PriceObservation]) -> bytes:
    from rigbuilder.domain.safeio import neutralise_cell

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for o in prices:
        w.writerow([neutralise_cell(v) for v in (o.part_id, f"{o.amount:g}", o.currency, o.condition, o.source, o.date,
                                                 o.market)])
    return buf.getvalue().encode("utf-8")


@dataclass(frozen=True)
class ImportResult:
    stored: int


def import_csv(engine: "Engine", path: Path, index: Optional[PartIndex]) -> ImportResult:
    from rigbuilder.domain.safeio import UnreadableFile, read_limited

    try:  # a regular file of bounded size (never a device or pipe), as every import is read
        data = read_limited(Path(path), MAX_CSV_BYTES)
    except UnreadableFile as e:
        raise PriceImportError([f"{path}: {e}; a price file is a regular file of at most "
                                f"{MAX_CSV_BYTES // (1024 * 1024)} MB"]) from None
    return ImportResult(set_prices(engine, parse_csv(data, index, Path(path).name)))


__all__ = ["CONDITIONS", "CSV_COLUMNS", "PriceImportError", "make_observation", "read_user_prices", "set_prices",
           "remove_price", "parse_csv", "to_csv", "import_csv"]
