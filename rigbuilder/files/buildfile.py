"""The ``.rig`` build file: JSON with a format version (schema: docs/rig-format.schema.json).

Loading never executes anything from the file; every value is type-checked and every problem
names where it is. Saves are atomic (temporary file, then rename).
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Optional

from rigbuilder.domain import limits
from rigbuilder.domain.i18n import T
from rigbuilder.domain.safeio import UnreadableFile, bad_text, parse_json, read_limited
from rigbuilder.files.atomic import write_atomic
from rigbuilder.domain.build import (MOUNT_RISER, MOUNT_SLOT, REGIONS, UNTITLED, Build, GpuPlacement,
                                     PartCount, PricePaid, Settings, StorageItem)
from rigbuilder.domain.money import CONDITIONS, MoneyError, check_currency

FORMAT = "rigbuilder-build"
FORMAT_VERSION = 2
MAX_BYTES = 2 * 1024 * 1024
MAX_ITEMS = limits.MAX_ITEMS

def _v1_to_v2(d: dict) -> dict:
    """Format 2 adds ``prices_paid`` and the settings ``budget`` and ``condition``; a format-1 file
    has none of them: no prices paid, no budget, catalog prices for new parts."""
    d["prices_paid"] = {}
    d["format_version"] = 2
    return d


UPGRADES: dict[int, Callable[[dict], dict]] = {1: _v1_to_v2}
"""Upgrade steps: ``UPGRADES[n]`` turns a version-n document into version n+1."""


class BuildFileError(ValueError):
    """A build file that cannot be read; the message says what and where."""


def to_dict(build: Build) -> dict:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": build.name,
        "motherboard": build.motherboard,
        "cpu": build.cpu,
        "cooler": build.cooler,
        "case": build.case,
        "psus": list(build.psus),
        "memory": [asdict(m) for m in build.memory],
        "storage": [asdict(s) for s in build.storage],
        "nics": list(build.nics),
        "gpus": [asdict(g) for g in build.gpus],
        "settings": asdict(build.settings),
        "notes": build.notes,
        "prices_paid": {k: asdict(v) for k, v in build.prices_paid.items()},
    }


def dumps(build: Build) -> str:
    return json.dumps(to_dict(build), indent=2, ensure_ascii=False) + "\n"


def save(build: Build, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then rename over the target.

    What is written is first read back through the loader (the same code Open uses): a build the
    loader would refuse raises BuildFileError naming what, and nothing is written."""
    text = dumps(build)
    loads(text, T("cannot save this build"))
    write_atomic(path, text.encode("utf-8"))


class _Reader:
    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, path: str, msg: str) -> None:
        """``msg`` says what is wrong with the field at ``path`` (a ``T``, translated where shown)."""
        raise BuildFileError(T("{where}: '{path}' {problem}", where=self.where, path=path, problem=msg))

    def text(self, d: dict, key: str, path: str, optional: bool = True, max_len: int = 500,
             multiline: bool = False) -> Optional[str]:
        v = d.get(key)
        if v is None:
            if not optional:
                self.fail(path, T("is missing"))
            return None
        if not isinstance(v, str):
            self.fail(path, T("must be text, not {type}", type=type(v).__name__))
        why = bad_text(v, multiline)
        if why:
            self.fail(path, why)
        if len(v) > max_len:
            self.fail(path, T("is longer than {n} characters", n=max_len))
        return v

    def number(self, d: dict, key: str, path: str, default: Optional[float], lo: float, hi: float,
               whole: bool = False) -> Optional[float]:
        v = d.get(key)
        if v is None:  # missing or an explicit null: the default (None where there is none)
            return default
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.fail(path, T("must be a number, not {type}", type=type(v).__name__))
        if not (lo <= v <= hi):
            self.fail(path, T("must be between {lo:g} and {hi:g} (got {value})", lo=lo, hi=hi, value=repr(v)))
        if whole and int(v) != v:
            self.fail(path, T("must be a whole number (got {value})", value=repr(v)))
        return int(v) if whole else float(v)

    def items(self, d: dict, key: str, path: str) -> list:
        v = d.get(key, [])
        if v is None:
            return []
        if not isinstance(v, list):
            self.fail(path, T("must be a list, not {type}", type=type(v).__name__))
        if len(v) > MAX_ITEMS:
            self.fail(path, T("has more than {n} items", n=MAX_ITEMS))
        return v

    def obj(self, v: Any, path: str) -> dict:
        if not isinstance(v, dict):
            self.fail(path, T("must be an object, not {type}", type=type(v).__name__))
        return v


def from_dict(data: Any, where: str = "build") -> Build:
    r = _Reader(where)
    d = r.obj(data, "(top level)")
    if d.get("format") != FORMAT:
        raise BuildFileError(T("{where}: not a rigbuilder build file (missing \"format\": \"{format}\")", where=where, format=FORMAT))
    ver = d.get("format_version")
    if isinstance(ver, bool) or not isinstance(ver, int):
        r.fail("format_version", T("must be a whole number"))
    if ver > FORMAT_VERSION:
        raise BuildFileError(T("{where}: made by a newer rigbuilder (format {version}); this version reads up to "
                               "format {supported}. Update rigbuilder to open it.", where=where, version=ver,
                               supported=FORMAT_VERSION))
    if ver < 1:
        r.fail("format_version", T("must be 1 or more (got {value})", value=ver))
    while ver < FORMAT_VERSION:
        d = UPGRADES[ver](dict(d))
        ver += 1
    b = Build()
    name = r.text(d, "name", "name", max_len=limits.MAX_NAME)
    # No name, or the English default older versions stored: a never-named build ("" , shown translated).
    b.name = "" if name is None or name == UNTITLED else name
    for key in ("motherboard", "cpu", "cooler", "case"):
        setattr(b, key, r.text(d, key, key, max_len=limits.MAX_ID))
    b.psus = [r.text({"v": v}, "v", f"psus[{i}]", optional=False, max_len=limits.MAX_ID) for i, v in enumerate(r.items(d, "psus", "psus"))]  # type: ignore[misc]
    if len(b.psus) > limits.MAX_PSUS:
        r.fail("psus", T("may name at most two PSUs"))
    b.nics = [r.text({"v": v}, "v", f"nics[{i}]", optional=False, max_len=limits.MAX_ID) for i, v in enumerate(r.items(d, "nics", "nics"))]  # type: ignore[misc]
    for i, m in enumerate(r.items(d, "memory", "memory")):
        m = r.obj(m, f"memory[{i}]")
        b.memory.append(PartCount(r.text(m, "part_id", f"memory[{i}].part_id", optional=False, max_len=limits.MAX_ID),  # type: ignore[arg-type]
                                  r.number(m, "count", f"memory[{i}].count", 1, 1, limits.MAX_COUNT, whole=True)))  # type: ignore[arg-type]
    for i, s in enumerate(r.items(d, "storage", "storage")):
        s = r.obj(s, f"storage[{i}]")
        b.storage.append(StorageItem(r.text(s, "part_id", f"storage[{i}].part_id", optional=False, max_len=limits.MAX_ID),  # type: ignore[arg-type]
                                     r.number(s, "count", f"storage[{i}].count", 1, 1, limits.MAX_COUNT, whole=True),  # type: ignore[arg-type]
                                     r.text(s, "m2", f"storage[{i}].m2", max_len=limits.MAX_M2)))
    for i, g in enumerate(r.items(d, "gpus", "gpus")):
        g = r.obj(g, f"gpus[{i}]")
        mount = r.text(g, "mount", f"gpus[{i}].mount", max_len=10) or MOUNT_SLOT
        if mount not in (MOUNT_SLOT, MOUNT_RISER):
            r.fail(f"gpus[{i}].mount", T("must be \"{slot}\" or \"{riser}\" (got {value})", slot=MOUNT_SLOT, riser=MOUNT_RISER, value=f"{mount!r:.20}"))
        b.gpus.append(GpuPlacement(
            r.text(g, "part_id", f"gpus[{i}].part_id", optional=False, max_len=limits.MAX_ID),  # type: ignore[arg-type]
            r.number(g, "position", f"gpus[{i}].position", None, 1, limits.MAX_POSITION, whole=True),  # type: ignore[arg-type]
            mount,
            r.number(g, "power_limit_w", f"gpus[{i}].power_limit_w", None, *limits.POWER_LIMIT_W)))
    s = r.obj(d.get("settings", {}), "settings")
    region = r.text(s, "region", "settings.region", max_len=20) or Settings.region
    if region not in REGIONS:
        r.fail("settings.region", T("{value} is not one of: {known}", value=f"{region!r:.20}", known=", ".join(REGIONS)))
    b.settings = Settings(
        region=region,
        price_per_kwh=r.number(s, "price_per_kwh", "settings.price_per_kwh", Settings.price_per_kwh, *limits.SETTINGS_RANGES["price_per_kwh"]),  # type: ignore[arg-type]
        currency=r.text(s, "currency", "settings.currency", max_len=limits.MAX_CURRENCY) or Settings.currency,
        load_hours_per_day=r.number(s, "load_hours_per_day", "settings.load_hours_per_day", Settings.load_hours_per_day, *limits.SETTINGS_RANGES["load_hours_per_day"]),  # type: ignore[arg-type]
        idle_hours_per_day=r.number(s, "idle_hours_per_day", "settings.idle_hours_per_day", Settings.idle_hours_per_day, *limits.SETTINGS_RANGES["idle_hours_per_day"]),  # type: ignore[arg-type]
        days_per_month=r.number(s, "days_per_month", "settings.days_per_month", Settings.days_per_month, *limits.SETTINGS_RANGES["days_per_month"]),  # type: ignore[arg-type]
        budget=r.number(s, "budget", "settings.budget", None, *limits.SETTINGS_RANGES["budget"]),
        condition=r.text(s, "condition", "settings.condition", max_len=limits.MAX_CURRENCY) or Settings.condition,
        circuit_margin=r.number(s, "circuit_margin", "settings.circuit_margin", Settings.circuit_margin, *limits.SETTINGS_RANGES["circuit_margin"]),  # type: ignore[arg-type]
    )
    if b.settings.condition not in CONDITIONS:
        r.fail("settings.condition", T("must be one of: {known}", known=", ".join(CONDITIONS)))
    try:
        b.settings.currency = check_currency(b.settings.currency)
    except MoneyError:
        r.fail("settings.currency", T("{value} is not a three-letter currency code", value=f"{b.settings.currency!r:.12}"))
    paid = d.get("prices_paid", {})
    paid = {} if paid is None else paid
    if not isinstance(paid, dict):
        r.fail("prices_paid", T("must be an object of part id: price, not {type}", type=type(paid).__name__))
    if len(paid) > MAX_ITEMS:
        r.fail("prices_paid", T("has more than {n} items", n=MAX_ITEMS))
    for pid, v in paid.items():
        where = f"prices_paid.{pid:.60}"
        if len(pid) > limits.MAX_ID:
            r.fail(where, T("is a part id longer than {n} characters", n=limits.MAX_ID))
        v = r.obj(v, where)
        cur = r.text(v, "currency", f"{where}.currency", optional=False, max_len=limits.MAX_CURRENCY)
        try:
            cur = check_currency(cur)
        except MoneyError:
            r.fail(f"{where}.currency", T("{value} is not a three-letter currency code", value=f"{cur!r:.12}"))
        cond = r.text(v, "condition", f"{where}.condition", max_len=limits.MAX_CURRENCY) or "new"
        if cond not in CONDITIONS:
            r.fail(f"{where}.condition", T("must be one of: {known}", known=", ".join(CONDITIONS)))
        b.prices_paid[pid] = PricePaid(
            r.number(v, "amount", f"{where}.amount", None, *limits.SETTINGS_RANGES["budget"]) if "amount" in v else r.fail(f"{where}.amount", T("is missing")),  # type: ignore[arg-type,func-returns-value]
            cur, cond, r.text(v, "note", f"{where}.note", max_len=500) or "",  # type: ignore[arg-type]
            r.text(v, "date", f"{where}.date", max_len=40) or "")
    if b.settings.load_hours_per_day + b.settings.idle_hours_per_day > limits.HOURS_A_DAY:
        r.fail("settings", T("load and idle hours add up to more than 24 a day"))
    b.notes = r.text(d, "notes", "notes", max_len=limits.MAX_NOTES, multiline=True) or ""
    return b


def loads(text: str, where: str = "build") -> Build:
    try:
        data = parse_json(text)
    except json.JSONDecodeError as e:
        raise BuildFileError(T("{where}: not valid JSON at line {line}, column {column}: {error}", where=where,
                               line=e.lineno, column=e.colno, error=e.msg)) from None
    except ValueError as e:
        raise BuildFileError(T("{where}: {error}", where=where, error=e.args[0] if e.args else str(e))) from None
    return from_dict(data, where)


def load(path: Path) -> Build:
    path = Path(path)
    try:
        raw = read_limited(path, MAX_BYTES)
    except UnreadableFile as e:
        raise BuildFileError(T("{path}: {error}; a build file is a regular file of at most {n} bytes", path=str(path),
                               error=e.args[0] if e.args else str(e), n=MAX_BYTES)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BuildFileError(T("{path}: not UTF-8 text (byte {byte})", path=str(path), byte=e.start)) from None
    return loads(text, str(path))
