"""The limits a build must keep, in one place: the .rig loader, save and every edit use these.

Each field's type, range and length come from its declaration in :mod:`rigbuilder.domain.fields`;
this module walks a build through them. A build that breaks one cannot be saved (save reads its
own output back through the loader, which refuses what :func:`check` finds) and an edit that would
break one is refused with a message naming what and where.
"""
from __future__ import annotations

from typing import Any, Optional

from rigbuilder.domain import fields as F
from rigbuilder.domain import kinds
from rigbuilder.domain.build import MOUNT_SLOT, Build
from rigbuilder.domain.i18n import T
from rigbuilder.domain.safeio import bad_text

MAX_ITEMS = F.MAX_ITEMS
MAX_COUNT = F.COUNT.hi
MAX_PSUS = F.MAX_PSUS
MAX_NAME = F.NAME.max_len
MAX_NOTES = F.NOTES.max_len
MAX_ID = F.PART_ID.max_len
MAX_POSITION = F.MAX_POSITION


def setting_problem(key: str, value: object) -> Optional[str]:
    """What is wrong with one setting's (normalised) value, or None."""
    f = F.SETTINGS.get(key)
    if f is None:
        return T("settings: no setting named {key}", key=f"{key!r:.30}")
    why = f.problem(value)
    return None if why is None else T.join(f"settings.{key}: ", why)


def check(build: Build) -> list[tuple[str, T]]:
    """Every limit the build breaks, as (where, what) pairs: ``("gpus[0].position", "must be
    between 1 and 20 (got 40)")``. Empty when it keeps them all."""
    out: list[tuple[str, T]] = []

    def field(where: str, f: F.Field, value: Any, *at: object) -> None:
        """``where`` is a format of ``at``, made only for a problem (a build is checked on every edit)."""
        why = f.problem(value)
        if why is not None:
            out.append((where.format(*at) if at else where, why))

    def many(where: str, items: list, most: int = F.MAX_ITEMS) -> None:
        if len(items) > most:
            out.append((where, T("at most {most} entries ({count})", most=most, count=len(items))))

    field("name", F.NAME, build.name)
    field("notes", F.NOTES, build.notes)
    for key, value, multiline in (("name", build.name, False), ("notes", build.notes, True)):
        why = bad_text(value, multiline) if isinstance(value, str) else None
        if why:
            out.append((key, why))
    for k in kinds.KINDS:  # how many each list role holds (domain.kinds)
        r = k.role
        if r.shape in (kinds.LIST, kinds.COUNTED, kinds.PLACED):
            many(r.attr, getattr(build, r.attr), r.most)
        if r.shape == kinds.COUNTED:
            for i, e in enumerate(getattr(build, r.attr)):
                field("{}[{}].count", F.COUNT, e.count, r.attr, i)
    for i, s in enumerate(build.storage):
        field("storage[{}].m2", F.M2, s.m2, i)
    for i, g in enumerate(build.gpus):
        field("gpus[{}].mount", F.MOUNT, g.mount, i)
        field("gpus[{}].position", F.POSITION, g.position, i)
        field("gpus[{}].power_limit_w", F.POWER_LIMIT, g.power_limit_w, i)
        field("gpus[{}].riser", F.RISER, g.riser, i)
        if g.riser is not None and g.mount == MOUNT_SLOT:
            out.append((f"gpus[{i}].riser", T("a card in a slot stands on no riser (mount it on the riser, or clear it)")))
    for pid in build.part_ids():
        if isinstance(pid, str) and len(pid) > F.PART_ID.max_len:  # type: ignore[operator]
            out.append((f"part id {pid[:40]!r}…", T("is longer than {n} characters", n=F.PART_ID.max_len)))
    s = build.settings
    for key, f in F.SETTINGS.items():
        field("settings.{}", f, getattr(s, key), key)
    usage = F.usage_problem(s.load_hours_per_day, s.idle_hours_per_day)
    if usage is not None:
        out.append(("settings", usage))
    many("prices_paid", list(build.prices_paid))
    for pid, pp in build.prices_paid.items():
        w = f"prices_paid.{pid:.60}"
        if len(pid) > F.PART_ID.max_len:  # type: ignore[operator]
            out.append((w, T("is a part id longer than {n} characters", n=F.PART_ID.max_len)))
        for f, value in ((F.PAID_AMOUNT, pp.amount), (F.PAID_CURRENCY, pp.currency),
                         (F.PAID_CONDITION, pp.condition), (F.PAID_NOTE, pp.note), (F.PAID_DATE, pp.date)):
            field("{}.{}", f, value, w, f.name)
    return out


def problems(build: Build) -> list[str]:
    """Every limit the build breaks, each naming where; empty when it keeps them all."""
    return [T.join(where, ": ", why) for where, why in check(build)]
