"""One vocabulary of edits: every door (board, menus, dialogs, command line, arranger) changes a
build through these.

Each edit is a small immutable value. ``validate(build, index)`` raises :class:`EditError` naming
what is wrong and where (an unknown id, a part of the wrong kind, a position with no slot, an
index out of range, a limit of :mod:`rigbuilder.domain.limits` exceeded); ``applied_to(build, index)``
validates and returns a new build, leaving the given one untouched; ``text(build, index)`` is what
the undo menu says. :func:`place_gpu` is the one placement policy: where a GPU goes when no
position is given.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Optional, Union

from rigbuilder.domain import fields as F
from rigbuilder.domain import kinds, limits
from rigbuilder.domain.build import (MOUNT_RISER, MOUNT_SLOT, Build, GpuPlacement, PartCount, PricePaid,
                                     StorageItem)
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import N_, Money, T
from rigbuilder.domain.parts import GPU, Motherboard, Part

SINGLE_ROLES = kinds.SINGLE_ROLES
_LISTS = {k.name: k.role.attr for k in kinds.KINDS if k.role.shape in (kinds.LIST, kinds.COUNTED, kinds.PLACED)}
"""The roles a build holds a list of, and its attribute ("psu": "psus")."""
_ADDED = tuple(k.name for k in kinds.KINDS if k.role.shape in (kinds.LIST, kinds.COUNTED) and k.name != "psu")
"""The roles :class:`SetPart` adds one more to (memory, storage, network cards); PSUs are set (and ``second-psu``)."""
ROLES = SINGLE_ROLES + ("psu", "second-psu") + _ADDED
"""The roles :class:`SetPart` sets or adds to (``second-psu``: a PSU beside the first)."""
REMOVABLE = tuple(k.name for k in kinds.KINDS)


def role_name(role: str) -> str:
    """A part role ('cpu', 'second-psu') as the undo history names it."""
    return T("second PSU") if role == "second-psu" else kinds.word(role)


def condition_name(condition: str) -> str:
    return T("used") if condition == "used" else T("new") if condition == "new" else T.verbatim(condition)


class EditError(ValueError):
    """An edit the build cannot take; the message says what and where (a translatable text: a
    door shows ``render(e.message, lang)``)."""

    @property
    def message(self) -> str:
        return self.args[0] if self.args else ""


def _part(index: PartIndex, part_id: str, kind: str) -> Part:
    p = index.get(part_id)
    if p is None:
        raise EditError(T("{part}: no such part in the catalog", part=f"{part_id!s:.80}"))
    if p.KIND != kind:
        raise EditError(T("{name} ({part}) is a {kind}, not a {wanted}", name=p.name, part=part_id, kind=p.KIND,
                          wanted=kind))
    return p


def _gpu_index(build: Build, i: int) -> GpuPlacement:
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(build.gpus):
        n = len(build.gpus)
        gpu = i + 1 if isinstance(i, int) else i
        raise EditError(T("GPU {gpu}: the build has no GPUs", gpu=gpu) if n == 0
                        else T("GPU {gpu}: the build has GPUs 1 to {n}", gpu=gpu, n=n) if n > 1
                        else T("GPU {gpu}: the build has only GPU 1", gpu=gpu))
    return build.gpus[i]


def _board(build: Build, index: PartIndex) -> Optional[Motherboard]:
    b = index.get(build.motherboard)
    return b if isinstance(b, Motherboard) else None


def _check_position(build: Build, index: PartIndex, position: Optional[int], what: str) -> None:
    if position is None:
        return
    if isinstance(position, bool) or not isinstance(position, int):
        raise EditError(T("{what}: position must be a whole number (got {got})", what=what, got=f"{position!r:.20}"))
    board = _board(build, index)
    if board is not None:
        if board.slot_at(position) is None:
            have = ", ".join(str(s.position) for s in sorted(board.slots, key=lambda s: s.position))
            raise EditError(T("{what}: {board} has no slot at position {position} (slots at {have})", what=what,
                              board=board.name, position=position, have=have))
    elif not 1 <= position <= limits.MAX_POSITION:
        raise EditError(T("{what}: position {position} is not between 1 and {most}", what=what, position=position,
                          most=limits.MAX_POSITION))


def _keep_limits(build: Build) -> Build:
    bad = limits.problems(build)
    if bad:
        raise EditError(bad[0])
    return build


def covered_positions(build: Build, index: PartIndex, skip: Optional[int] = None) -> set[int]:
    """Expansion positions the build's board-mounted GPUs cover (the card at ``skip`` left out)."""
    out: set[int] = set()
    for i, g in enumerate(build.gpus):
        part = index.get(g.part_id)
        if i == skip or g.mount != MOUNT_SLOT or g.position is None or not isinstance(part, GPU):
            continue
        out.update(range(g.position, g.position + part.span))
    return out


def place_gpu(build: Build, index: PartIndex, part: GPU) -> tuple[Optional[int], str]:
    """Where a GPU goes when no position is given: the first full-length (x16, or open-ended)
    slot no card covers and where the card's body lands on no other card; else a riser. Without a
    board it waits unplaced (position None) for one."""
    board = _board(build, index)
    if board is None:
        return None, MOUNT_SLOT
    covered = covered_positions(build, index)
    for s in sorted(board.slots, key=lambda s: s.position):
        body = set(range(s.position, s.position + part.span))
        if (s.physical >= 16 or s.open_ended) and not body & covered:
            return s.position, MOUNT_SLOT
    return None, MOUNT_RISER


class Edit:
    """Base of every edit: immutable, validated against a build and a catalog, applied to a copy."""

    def text(self, build: Build, index: PartIndex) -> str:
        raise NotImplementedError

    def validate(self, build: Build, index: PartIndex) -> None:
        self.applied_to(build, index)

    def remarks(self, build: Build, index: PartIndex) -> list[str]:
        """What the edit does other than asked (a limit at or above board power is no limit), for
        the doors to say; none for most edits."""
        return []

    def _change(self, b: Build, index: PartIndex) -> None:
        raise NotImplementedError

    def applied_to(self, build: Build, index: PartIndex) -> Build:
        """A new build with this edit made; raises EditError if the build cannot take it."""
        b = build.clone()
        self._change(b, index)
        return _keep_limits(b)


def _where(position: Optional[int], riser: bool) -> str:
    return T("a riser") if riser else T("position {position}", position=position) if position is not None \
        else T("no position yet")


@dataclass(frozen=True)
class AddGpu(Edit):
    part_id: str
    position: Optional[int] = None  # None and not riser: the placement policy decides
    riser: bool = False

    def resolve(self, build: Build, index: PartIndex) -> tuple[Optional[int], str]:
        part = _part(index, self.part_id, "gpu")
        if self.riser:
            return self.position, MOUNT_RISER
        if self.position is None:
            return place_gpu(build, index, part)  # type: ignore[arg-type]
        return self.position, MOUNT_SLOT

    def text(self, build: Build, index: PartIndex) -> str:
        p = index.get(self.part_id)
        pos, mount = self.resolve(build, index) if p is not None and p.KIND == "gpu" else (self.position, "")
        return T("Add GPU {n} ({model}) to {where}", n=len(build.gpus) + 1, model=p.model if p else self.part_id,
                 where=_where(pos, mount == MOUNT_RISER))

    def _change(self, b: Build, index: PartIndex) -> None:
        if len(b.gpus) >= limits.MAX_ITEMS:
            raise EditError(T("GPU {n}: a build holds at most {most} GPUs", n=len(b.gpus) + 1, most=limits.MAX_ITEMS))
        pos, mount = self.resolve(b, index)
        if mount == MOUNT_SLOT:
            _check_position(b, index, pos, T("GPU {n}", n=len(b.gpus) + 1))
        elif pos is not None:
            _check_position(b, index, pos, T("GPU {n}'s riser cable", n=len(b.gpus) + 1))
        b.gpus.append(GpuPlacement(self.part_id, pos, mount))


@dataclass(frozen=True)
class MoveGpu(Edit):
    index: int
    position: Optional[int] = None
    riser: bool = False  # to a riser; its cable stays where it was plugged in

    def text(self, build: Build, index: PartIndex) -> str:
        return T("Move GPU {n} to {where}", n=self.index + 1, where=_where(self.position, self.riser))

    def _change(self, b: Build, index: PartIndex) -> None:
        g = _gpu_index(b, self.index)
        if self.riser:
            g.mount = MOUNT_RISER
            return
        if self.position is None:
            raise EditError(T("GPU {n}: moved to no position", n=self.index + 1))
        _check_position(b, index, self.position, T("GPU {n}", n=self.index + 1))
        g.position, g.mount, g.riser = self.position, MOUNT_SLOT, None  # in a slot: no riser


@dataclass(frozen=True)
class SetRiser(Edit):
    """The riser a card stands on (``part_id`` None: a riser of unknown kind). A card in a slot
    moves onto the riser, its cable plugged into the slot the card was in."""

    index: int
    part_id: Optional[str]

    def text(self, build: Build, index: PartIndex) -> str:
        if self.index == -1:
            return T("a riser goes under a card: drop it on a GPU, or move a GPU to a riser first")
        if self.part_id is None:
            return T("GPU {n}: riser of unknown kind", n=self.index + 1)
        p = index.get(self.part_id)
        return T("GPU {n} on riser: {name}", n=self.index + 1, name=p.name if p else self.part_id)

    def _change(self, b: Build, index: PartIndex) -> None:
        if self.index == -1 and b.gpus:
            raise EditError(T("a riser goes under a card: drop it on a GPU, or move a GPU to a riser first"))
        g = _gpu_index(b, self.index)
        if self.part_id is not None:
            _part(index, self.part_id, "riser")
        g.riser, g.mount = self.part_id, MOUNT_RISER


def riser_target(build: Build, position: Optional[int] = None) -> int:
    """Which card a riser part dropped on the board goes to: the card in ``position``, else the
    first card on a riser of unknown kind, else the first card on a riser; -1 when none (the edit
    then says the build has no such GPU)."""
    if position is not None:
        for i, g in enumerate(build.gpus):
            if g.position == position:
                return i
    on_riser = [i for i, g in enumerate(build.gpus) if g.mount == MOUNT_RISER]
    unknown = [i for i in on_riser if build.gpus[i].riser is None]
    return (unknown or on_riser or [-1])[0]


@dataclass(frozen=True)
class RemoveItem(Edit):
    role: str  # one of REMOVABLE
    index: int = 0  # which entry of a list role

    def text(self, build: Build, index: PartIndex) -> str:
        if self.role == "gpu":
            return T("Remove GPU {n}", n=self.index + 1)
        if self.role == "riser":
            return T("Remove the riser part of GPU {n}", n=self.index + 1)
        return T("Remove {role}", role=role_name(self.role))

    def _change(self, b: Build, index: PartIndex) -> None:
        if self.role not in REMOVABLE:
            raise EditError(T("remove: no part role {role} (one of {roles})", role=f"{self.role!r:.20}",
                              roles=", ".join(REMOVABLE)))
        if self.role in SINGLE_ROLES:
            if getattr(b, self.role) is None:
                raise EditError(T("remove {role}: the build has none", role=self.role))
            setattr(b, self.role, None)
            return
        if self.role == "riser":  # ``index``: the GPU; the card stays on a riser of unknown kind
            g = _gpu_index(b, self.index)
            if g.riser is None:
                raise EditError(T("remove riser: GPU {n} names no riser part", n=self.index + 1))
            g.riser = None
            return
        items = getattr(b, _LISTS[self.role])
        if self.role == "gpu":
            _gpu_index(b, self.index)
        elif not (isinstance(self.index, int) and 0 <= self.index < len(items)):
            raise EditError(T("remove {role} {n}: the build has {count}", role=self.role, n=self.index + 1,
                              count=len(items)))
        items.pop(self.index)


@dataclass(frozen=True)
class SetPart(Edit):
    """Choose the board, CPU, cooler, case or PSU (``second-psu`` adds one beside the first);
    memory and storage add a kit or drive, or count one more of it; a NIC is added."""

    role: str
    part_id: str

    def text(self, build: Build, index: PartIndex) -> str:
        p = index.get(self.part_id)
        name = p.name if p else self.part_id
        if self.role in _ADDED:
            return T("Add {role}: {name}", role=role_name(self.role), name=name)
        return T("Set {role}: {name}", role=role_name(self.role), name=name)

    def _change(self, b: Build, index: PartIndex) -> None:
        if self.role not in ROLES:
            raise EditError(T("set: no part role {role} (one of {roles})", role=f"{self.role!r:.20}",
                              roles=", ".join(ROLES)))
        kind = "psu" if self.role == "second-psu" else self.role
        _part(index, self.part_id, kind)
        pid = self.part_id
        if self.role in SINGLE_ROLES:
            setattr(b, self.role, pid)
        elif self.role == "psu":
            b.psus = [pid]
        elif self.role == "second-psu":
            b.psus = b.psus[:1] + [pid] if b.psus and b.psus[0] != pid else [pid]
        elif kinds.kind(self.role).role.shape == kinds.COUNTED:
            entries = getattr(b, _LISTS[self.role])
            for e in entries:
                if e.part_id == pid:
                    if e.count >= limits.MAX_COUNT:
                        raise EditError(T("{role} {part}: at most {most} of one part", role=self.role, part=pid,
                                          most=limits.MAX_COUNT))
                    e.count += 1
                    return
            entries.append(PartCount(pid) if self.role == "memory" else StorageItem(pid))  # type: ignore[arg-type]
        else:
            getattr(b, _LISTS[self.role]).append(pid)


def _check_watts(watts: Optional[float], what: str) -> None:
    f = F.POWER_LIMIT
    if f.problem(watts) is not None:
        raise EditError(T("{what}: a power limit is between {lo:g} and {hi:g} W (got {got})", what=what, lo=f.lo,
                          hi=f.hi, got=f"{watts!r:.20}"))


def _board_power(build: Build, index: PartIndex, i: int) -> Optional[float]:
    part = index.get(build.gpus[i].part_id) if 0 <= i < len(build.gpus) else None
    return part.board_power_w if isinstance(part, GPU) else None


def _no_limit_note(n: int, watts: float, board_w: float) -> T:
    return T("GPU {n}: {watts:g} W is at or above its board power ({board:g} W): no limit", n=n, watts=watts,
             board=board_w)


class _PowerLimitEdit(Edit):
    watts: Optional[float]

    def _cards(self, build: Build) -> list[int]:
        raise NotImplementedError

    def remarks(self, build: Build, index: PartIndex) -> list[str]:
        """What the edit did other than asked: a limit at or above a card's board power is no
        limit (``fields.limit_for``); the command line says so."""
        if self.watts is None or F.POWER_LIMIT.problem(self.watts) is not None:
            return []
        out: list[str] = []
        for i in self._cards(build):
            board = _board_power(build, index, i)
            if board and F.limit_for(self.watts, board) is None:
                out.append(_no_limit_note(i + 1, self.watts, board))
        return out


@dataclass(frozen=True)
class SetPowerLimit(_PowerLimitEdit):
    """A power limit for one GPU; at or above the card's board power it is no limit."""

    index: int
    watts: Optional[float]  # None: no limit

    def _cards(self, build: Build) -> list[int]:
        return [self.index]

    def text(self, build: Build, index: PartIndex) -> str:
        if self.watts is None:
            return T("Power limit GPU {n}: none", n=self.index + 1)
        board = _board_power(build, index, self.index) if isinstance(self.index, int) else None
        if board and F.limit_for(self.watts, board) is None:
            return T("Power limit GPU {n}: none ({watts:g} W is at or above its board power)", n=self.index + 1,
                     watts=self.watts)
        return T("Power limit GPU {n}: {watts:g} W", n=self.index + 1, watts=self.watts)

    def _change(self, b: Build, index: PartIndex) -> None:
        g = _gpu_index(b, self.index)
        _check_watts(self.watts, T("GPU {n}", n=self.index + 1))
        g.power_limit_w = F.limit_for(self.watts, _board_power(b, index, self.index))


@dataclass(frozen=True)
class SetAllPowerLimits(_PowerLimitEdit):
    """One power limit for every GPU; a card whose board power is at or under it runs unlimited."""

    watts: Optional[float]

    def _cards(self, build: Build) -> list[int]:
        return list(range(len(build.gpus)))

    def text(self, build: Build, index: PartIndex) -> str:
        return T("Power limit all GPUs {watts:g} W", watts=self.watts) if self.watts is not None \
            else T("Remove all power limits")

    def _change(self, b: Build, index: PartIndex) -> None:
        if not b.gpus:
            raise EditError(T("power limit: the build has no GPUs"))
        _check_watts(self.watts, T("all GPUs"))
        for i, g in enumerate(b.gpus):
            g.power_limit_w = F.limit_for(self.watts, _board_power(b, index, i))


@dataclass(frozen=True)
class ChangeSettings(Edit):
    changes: tuple[tuple[str, Union[str, float, None]], ...]  # (setting name, value) pairs; budget may be None

    @classmethod
    def of(cls, **changes: Union[str, float, None]) -> "ChangeSettings":
        return cls(tuple(sorted(changes.items())))

    def text(self, build: Build, index: PartIndex) -> str:
        names: list[str] = []
        for i, (k, _) in enumerate(self.changes):
            names += [", ", F.setting_title(k)] if i else [F.setting_title(k)]
        return T("Change {settings}", settings=T.join(*names))

    def _change(self, b: Build, index: PartIndex) -> None:
        for key, value in self.changes:
            f = F.SETTINGS.get(key)
            value = f.normalised(value) if f is not None else value  # "eur" -> "EUR"
            bad = limits.setting_problem(key, value)
            if bad:
                raise EditError(bad)
            setattr(b.settings, key, value)


@dataclass(frozen=True)
class Rename(Edit):
    name: str
    notes: str

    def text(self, build: Build, index: PartIndex) -> str:
        return T("Rename build") if self.notes == build.notes else T("Build name and notes")

    def _change(self, b: Build, index: PartIndex) -> None:
        name = self.name.strip()  # "" leaves the build unnamed (shown as 'Untitled build' in each language)
        if len(name) > limits.MAX_NAME:
            raise EditError(T("name: at most {most} characters ({length})", most=limits.MAX_NAME, length=len(name)))
        if len(self.notes) > limits.MAX_NOTES:
            raise EditError(T("notes: at most {most:,} characters ({length:,})", most=limits.MAX_NOTES,
                              length=len(self.notes)))
        b.name, b.notes = name, self.notes


@dataclass(frozen=True)
class ApplyArrangement(Edit):
    """The arranger's result: the same GPUs, each with its new position and mount."""

    placements: tuple[tuple[Optional[int], str], ...]  # (position, mount) for GPU 1, 2, ...

    @classmethod
    def of(cls, arranged: Build) -> "ApplyArrangement":
        return cls(tuple((g.position, g.mount) for g in arranged.gpus))

    def text(self, build: Build, index: PartIndex) -> str:
        return T("Arrange GPUs")

    def _change(self, b: Build, index: PartIndex) -> None:
        if len(self.placements) != len(b.gpus):
            raise EditError(T("arrange: {placements} placements for {gpus} GPUs", placements=len(self.placements),
                              gpus=len(b.gpus)))
        for i, (g, (pos, mount)) in enumerate(zip(b.gpus, self.placements)):
            if mount not in (MOUNT_SLOT, MOUNT_RISER):
                raise EditError(T("GPU {n}: no mount {mount}", n=i + 1, mount=f"{mount!r:.20}"))
            _check_position(b, index, pos, T("GPU {n}'s riser cable", n=i + 1) if mount == MOUNT_RISER
                            else T("GPU {n}", n=i + 1))
            g.position, g.mount = pos, mount
            if mount == MOUNT_SLOT:
                g.riser = None  # in a slot: no riser


@dataclass(frozen=True)
class SetPricePaid(Edit):
    """The price actually paid for one unit of a part in this build (every unit of that part in
    it), saved in the .rig file; ``amount`` None removes it (the catalog's or your own price then
    applies again). A price for a part the build does not hold is refused."""

    part_id: str
    amount: Optional[float]
    currency: str = ""
    condition: str = "new"
    note: str = ""
    date: str = ""

    def text(self, build: Build, index: PartIndex) -> str:
        p = index.get(self.part_id)
        name = p.name if p else self.part_id
        if self.amount is None:
            return T("Remove price paid for {name}", name=name)
        return T("Price paid for {name}: {price} ({condition})", name=name, price=Money(self.amount, self.currency, plain=False),
                 condition=condition_name(self.condition))

    def _change(self, b: Build, index: PartIndex) -> None:
        from rigbuilder.domain.money import MoneyError, check_amount, check_condition, check_currency

        if self.part_id not in b.part_ids():
            raise EditError(T("price paid: {part} is not in this build", part=f"{self.part_id!s:.80}"))
        if self.amount is None:
            if self.part_id not in b.prices_paid:
                raise EditError(T("price paid: none is set for {part}", part=f"{self.part_id!s:.80}"))
            del b.prices_paid[self.part_id]
            return
        try:
            amount = check_amount(self.amount, T("price paid"))
            cur = check_currency(self.currency, T("price paid: currency"))
            cond = check_condition(self.condition, T("price paid: condition"))
        except MoneyError as e:
            raise EditError(e.args[0] if e.args else str(e)) from None
        if len(self.note) > F.PAID_NOTE.max_len:  # type: ignore[operator]
            raise EditError(T("price paid: a note is at most {most} characters", most=F.PAID_NOTE.max_len))
        b.prices_paid[self.part_id] = PricePaid(amount, cur, cond, self.note.strip(), self.date.strip())


@dataclass(frozen=True)
class Changed:
    """What an edit (or undo) changed, so views redraw only what they show of it."""

    gpus: frozenset[int]  # indices whose entry changed, appeared or went
    roles: frozenset[str]  # "motherboard", "psus", "memory", ..., "prices_paid": what changed
    settings: bool
    meta: bool  # name or notes

    @property
    def gpu_count(self) -> bool:
        return "gpus" in self.roles

    @property
    def parts(self) -> bool:
        """Anything the checks judge (parts or their placement), not only settings or the name."""
        return bool(self.gpus or self.roles)


EVERYTHING = Changed(frozenset(range(limits.MAX_ITEMS)), frozenset(kinds.BUILD_ATTRS + ("prices_paid",)), True, True)


def what_changed(before: Build, after: Build) -> Changed:
    roles = {k for k in kinds.BUILD_ATTRS + ("prices_paid",) if k != "gpus" and getattr(before, k) != getattr(after, k)}
    gpus = {i for i in range(max(len(before.gpus), len(after.gpus)))
            if i >= len(before.gpus) or i >= len(after.gpus) or before.gpus[i] != after.gpus[i]}
    if len(before.gpus) != len(after.gpus):
        roles.add("gpus")
    return Changed(frozenset(gpus), frozenset(roles), before.settings != after.settings,
                   (before.name, before.notes) != (after.name, after.notes))


def edit_for_part(part: Part, position: Optional[int] = None, riser_area: bool = False,
                  build: Optional[Build] = None) -> Edit:
    """The edit a catalog part dropped on the board drawing makes (``riser_area``: dropped on the
    area beside the board rather than on a slot): a GPU goes to ``position``, onto a riser, or
    where :func:`place_gpu` says; other parts take their role. A PSU dropped on the area beside
    the board while the build has one becomes a second PSU."""
    if part.KIND == "gpu":
        return AddGpu(part.id, position, riser_area)
    if part.KIND == "riser":
        return SetRiser(riser_target(build or Build(), position), part.id)
    if part.KIND == "psu" and riser_area and build is not None and len(build.psus) == 1 \
            and part.id not in build.psus:
        return SetPart("second-psu", part.id)
    return SetPart(part.KIND, part.id)


@dataclass(frozen=True)
class ReplaceBuild(Edit):
    """Every part, placement and setting of the build replaced by those of ``build`` in one step
    (a generated build opened in the planner, e.g. the optimiser's result); undo brings the old
    build back whole. Every part must be in the catalog with the right kind and every card on a
    slot the new board has."""

    build: Build
    label: str = N_("Open generated build")  # the undo text: a T, or an N_() template

    def text(self, build: Build, index: PartIndex) -> str:
        return self.label if isinstance(self.label, T) else T(self.label)

    def _change(self, b: Build, index: PartIndex) -> None:
        new = self.build.clone()
        if len(new.psus) > limits.MAX_PSUS:
            raise EditError(T("a build has at most {most} PSUs", most=limits.MAX_PSUS))
        for k in kinds.BILL:  # every part in the catalog, of its role's kind
            for pid in kinds.ids_in(new, k.name):
                _part(index, pid, k.name)
        for i, g in enumerate(new.gpus):
            if g.mount not in (MOUNT_SLOT, MOUNT_RISER):
                raise EditError(T("GPU {n}: no mount {mount}", n=i + 1, mount=f"{g.mount!r:.20}"))
            _check_position(new, index, g.position, T("GPU {n}'s riser cable", n=i + 1) if g.mount == MOUNT_RISER
                            else T("GPU {n}", n=i + 1))
        for f in fields(Build):
            setattr(b, f.name, getattr(new, f.name))
