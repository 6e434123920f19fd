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
                                     check_amount, check_currency)


class MoneyFileError(ValueError):
    """A shipped or user money file that cannot be read; the message says what and where."""


def money_dir() -> Path:
    return resources_dir() / "money"


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise MoneyFileError(T("{path}: cannot read ({error})", path=str(path), error=str(e.strerror))) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MoneyFileError(T("{path}: not valid JSON ({error})", path=str(path), error=str(e))) from None


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
    return ExchangeRates(base, rates, date, source, edited=bool(d.get("edited", False)) or bool(users),
                         user_dates=dict(users))


def rates_to_dict(r: ExchangeRates) -> dict:
    return {"base": r.base, "date": r.date, "source": r.source, "edited": r.edited, "per_unit": dict(r.per_unit),
            "user_rates": dict(r.user_dates)}


def save_rates(rates: ExchangeRates, path: Path) -> None:
    """Write rates (the user's edited set) as JSON, atomically; ``load_rates(path)`` reads them back."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(rates_to_dict(rates), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def load_rates(path: Optional[Path] = None) -> ExchangeRates:
    path = path or money_dir() / "exchange-rates.json"
    return rates_from_dict(_read(path), str(path.name))


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
    if origin not in ORIGINS:
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


def load_observations(path: Optional[Path] = None) -> list[PriceObservation]:
    path = path or money_dir() / "prices.json"
    d = _read(path)
    if not isinstance(d, dict) or not isinstance(d.get("observations"), list):
        raise MoneyFileError(T("{path}: expected an object with an 'observations' list", path=path.name))
    out: list[PriceObservation] = []
    for i, o in enumerate(d["observations"]):
        out.extend(observation_from_dict(o, f"{path.name} entry {i + 1}"))
    return out
