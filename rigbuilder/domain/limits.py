"""The limits a build must keep, in one place: the .rig loader, save and every edit use these.

A build that breaks one cannot be saved (save reads its own output back through the loader) and
an edit that would break one is refused with a message naming what and where.
"""
from __future__ import annotations

from typing import Optional

from rigbuilder.domain.build import CIRCUIT_MARGIN_RANGE, MOUNT_RISER, MOUNT_SLOT, REGIONS, Build
from rigbuilder.domain.i18n import T
from rigbuilder.domain.money import CONDITIONS
from rigbuilder.domain.safeio import bad_text

MAX_ITEMS = 64
"""Entries in each list of a build (GPUs, memory kits, drives, NICs)."""
MAX_COUNT = 64
"""How many of one memory kit or drive an entry may count."""
MAX_PSUS = 2
MAX_NAME = 200
MAX_NOTES = 20_000
MAX_ID = 120
MAX_M2 = 40
MAX_CURRENCY = 8
MAX_POSITION = 20
"""The highest expansion position a build may name (no board has more)."""
POWER_LIMIT_W = (1.0, 2000.0)
SETTINGS_RANGES: dict[str, tuple[float, float]] = {
    "price_per_kwh": (0.0, 100.0),
    "load_hours_per_day": (0.0, 24.0),
    "idle_hours_per_day": (0.0, 24.0),
    "days_per_month": (1.0, 31.0),
    "budget": (0.0, 1e9),  # also the range of a price paid; the budget may be None (no budget)
    "circuit_margin": CIRCUIT_MARGIN_RANGE,  # share of the circuit's rating for continuous load
}
HOURS_A_DAY = 24.0


def _num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v  # not NaN


def setting_problem(key: str, value: object) -> Optional[str]:
    """What is wrong with one setting's value, or None."""
    if key == "region":
        return None if value in REGIONS else T("{where}: {value} is not one of: {choices}", where="settings.region",
                                               value=repr(str(value)[:20]), choices=", ".join(REGIONS))
    if key == "currency":
        if not isinstance(value, str) or len(value) != 3 or not value.isalpha():
            return T("{where}: {value} is not a three-letter currency code such as EUR", where="settings.currency",
                     value=repr(str(value)[:12]))
        return None
    if key == "condition":
        return None if value in CONDITIONS else T("{where}: must be one of: {choices}", where="settings.condition",
                                                  choices=", ".join(CONDITIONS))
    if key == "budget" and value is None:
        return None
    if key not in SETTINGS_RANGES:
        return T("settings: no setting named {key}", key=repr(key))
    lo, hi = SETTINGS_RANGES[key]
    if not _num(value) or not lo <= value <= hi:  # type: ignore[operator]
        return T("{where}: must be between {lo:g} and {hi:g} (got {got})", where=f"settings.{key}", lo=lo, hi=hi,
                 got=repr(value))
    return None


def problems(build: Build) -> list[str]:
    """Every limit the build breaks, each naming where; empty when it keeps them all."""
    out: list[str] = []
    if len(build.name) > MAX_NAME:
        out.append(T("{where}: longer than {most} characters", where="name", most=MAX_NAME))
    if len(build.notes) > MAX_NOTES:
        out.append(T("{where}: longer than {most:,} characters ({length:,})", where="notes", most=MAX_NOTES,
                     length=len(build.notes)))
    for key, value, multiline in (("name", build.name, False), ("notes", build.notes, True)):
        why = bad_text(value, multiline)
        if why:
            out.append(T.join(key, ": ", why))
    if len(build.psus) > MAX_PSUS:
        out.append(T("{where}: at most {most} PSUs", where="psus", most=MAX_PSUS))
    for key, items in (("gpus", build.gpus), ("memory", build.memory), ("storage", build.storage),
                       ("nics", build.nics)):
        if len(items) > MAX_ITEMS:
            out.append(T("{where}: at most {most} entries ({count})", where=key, most=MAX_ITEMS, count=len(items)))
    for key, entries in (("memory", build.memory), ("storage", build.storage)):
        for i, e in enumerate(entries):
            if not 1 <= e.count <= MAX_COUNT:
                out.append(T("{where}: must be between {lo:g} and {hi:g} (got {got})", where=f"{key}[{i}].count", lo=1,
                             hi=MAX_COUNT, got=repr(e.count)))
    for i, g in enumerate(build.gpus):
        if g.mount not in (MOUNT_SLOT, MOUNT_RISER):
            out.append(T("{where}: must be one of: {choices}", where=f"gpus[{i}].mount",
                         choices=f"{MOUNT_SLOT!r}, {MOUNT_RISER!r}"))
        if g.position is not None and not 1 <= g.position <= MAX_POSITION:
            out.append(T("{where}: must be between {lo:g} and {hi:g} (got {got})", where=f"gpus[{i}].position", lo=1,
                         hi=MAX_POSITION, got=repr(g.position)))
        if g.power_limit_w is not None and not POWER_LIMIT_W[0] <= g.power_limit_w <= POWER_LIMIT_W[1]:
            out.append(T("{where}: must be between {lo:g} and {hi:g} W (got {got})", where=f"gpus[{i}].power_limit_w",
                         lo=POWER_LIMIT_W[0], hi=POWER_LIMIT_W[1], got=repr(g.power_limit_w)))
    for pid in build.part_ids():
        if len(pid) > MAX_ID:
            out.append(T("{where}: longer than {most} characters", where=f"part id {pid[:40]!r}…", most=MAX_ID))
    s = build.settings
    for key in ("region", "currency", "condition", *SETTINGS_RANGES):
        p = setting_problem(key, getattr(s, key))
        if p:
            out.append(p)
    if _num(s.load_hours_per_day) and _num(s.idle_hours_per_day) \
            and s.load_hours_per_day + s.idle_hours_per_day > HOURS_A_DAY:
        out.append(T("settings: load and idle hours add up to more than 24 a day"))
    if len(build.prices_paid) > MAX_ITEMS:
        out.append(T("{where}: at most {most} entries ({count})", where="prices_paid", most=MAX_ITEMS,
                     count=len(build.prices_paid)))
    lo, hi = SETTINGS_RANGES["budget"]
    for pid, pp in build.prices_paid.items():
        w = f"prices_paid.{pid[:60]}"
        if len(pid) > MAX_ID:
            out.append(T("{where}: a part id longer than {most} characters", where=w, most=MAX_ID))
        if not _num(pp.amount) or not lo <= pp.amount <= hi:
            out.append(T("{where}: must be between {lo:g} and {hi:,.0f} (got {got})", where=f"{w}.amount", lo=lo, hi=hi,
                         got=repr(pp.amount)))
        if not isinstance(pp.currency, str) or len(pp.currency) != 3 or not pp.currency.isalpha():
            out.append(T("{where}: {value} is not a three-letter currency code such as EUR", where=f"{w}.currency",
                         value=repr(str(pp.currency)[:12])))
        if pp.condition not in CONDITIONS:
            out.append(T("{where}: must be one of: {choices}", where=f"{w}.condition", choices=", ".join(CONDITIONS)))
    return out
