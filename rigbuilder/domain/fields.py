"""Every field of a build and of its settings, declared once (the way Picard's ``options.py``
declares its options): name, type, unit, range, default, how a value is normalised, its title
(a translatable text) and its help.

Whoever needs a limit, a default or a title reads it here: ``rigbuilder.domain.limits`` (what a
build must keep, used by every edit and by the ``.rig`` loader), the edits (their normalisation
and undo texts), the optimiser's request, the cost model's usage check, the command line's flags
and the window's labels, ranges and sliders.

Three rules live here and nowhere else:

* a GPU power limit is at least :data:`POWER_LIMIT_FLOOR` of the card's board power, and a limit
  at or above the board power is no limit (:func:`limit_for`);
* load hours plus idle hours are at most :data:`HOURS_A_DAY` (:func:`usage_problem`);
* a currency code is three letters, stored in capitals (``"eur"`` -> ``"EUR"``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Optional

from rigbuilder.domain import kinds
from rigbuilder.domain.build import CIRCUIT_MARGIN_RANGE, MOUNT_RISER, MOUNT_SLOT, REGIONS, ROOM_NOISE_RANGE, Settings
from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.money import CONDITIONS, MAX_AMOUNT, currency_code, currency_problem


def is_number(v: object) -> bool:
    """A real number (not a bool, not NaN)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


@dataclass(frozen=True)
class Field:
    """One field of a build or of its settings.

    ``title`` and ``help`` are marked with ``N_``: a door shows ``T(field.title)`` (core) or
    ``_(field.title)`` (window). ``problem`` says what is wrong with a value (without where: the
    caller names the place, a ``.rig`` path or a setting)."""

    name: str  # the attribute of the build (or its settings) and the key in a .rig file
    kind: type  # float, int or str
    title: str
    help: str = ""
    unit: str = ""  # "W", "h", "" (a currency unit is the build's currency)
    lo: Optional[float] = None
    hi: Optional[float] = None
    default: Any = None
    optional: bool = False  # None is a value of its own (no budget, no power limit)
    choices: tuple = ()
    normalise: Optional[Callable[[Any], Any]] = None  # applied before the checks, to what is stored
    check: Optional[Callable[[Any], Optional[T]]] = None  # a further rule of a text field
    max_len: Optional[int] = None  # text fields: the longest value

    def normalised(self, value: Any) -> Any:
        """``value`` as it is stored (a currency in capitals, a number as a float)."""
        if value is None:
            return None
        if self.normalise is not None:
            return self.normalise(value)
        if self.kind is float and is_number(value):
            return float(value)
        return value

    def problem(self, value: Any) -> Optional[T]:
        """What is wrong with ``value`` (a stored, normalised value), or None."""
        if value is None:
            return None if self.optional else T("is missing")
        if self.choices:
            if value in self.choices:
                return None
            return T("{value} is not one of: {known}", value=f"{str(value)!r:.20}", known=", ".join(self.choices))
        if self.kind is str:
            if not isinstance(value, str):
                return T("must be text, not {type}", type=type(value).__name__)
            if self.max_len is not None and len(value) > self.max_len:
                return T("is longer than {n} characters", n=self.max_len)
            return self.check(value) if self.check is not None else None
        if not is_number(value):
            return T("must be a number, not {type}", type=type(value).__name__)
        if self.lo is not None and self.hi is not None and not self.lo <= value <= self.hi:
            if self.unit == "W":
                return T("must be between {lo:g} and {hi:g} W (got {value})", lo=self.lo, hi=self.hi, value=repr(value))
            return T("must be between {lo:g} and {hi:g} (got {value})", lo=self.lo, hi=self.hi, value=repr(value))
        if self.kind is int and int(value) != value:
            return T("must be a whole number (got {value})", value=repr(value))
        return None


# --------------------------------------------------------------------------- GPU power limits

POWER_LIMIT_FLOOR = 0.5
"""The lowest power limit a card takes, as a fraction of its board power: most NVIDIA cards do not
accept limits far below about half their board power (an estimate). The window's dialogs and
sliders start here, the limit advice searches from here, the optimiser's limit is at least this."""


def power_limit_floor_w(board_power_w: float) -> int:
    """The lowest limit in whole watts a card of ``board_power_w`` takes."""
    return int(math.ceil(POWER_LIMIT_FLOOR * board_power_w))


def limit_for(watts: Optional[float], board_power_w: Optional[float]) -> Optional[float]:
    """The limit stored for a card asked to run at ``watts``: a limit at or above its board power
    is no limit (None)."""
    if watts is None or (board_power_w and watts >= board_power_w):
        return None
    return float(watts)


def limit_at_fraction(board_power_w: Optional[float], fraction: Optional[float]) -> Optional[float]:
    """The limit in watts of ``fraction`` of a card's board power (whole watts); 1 or more: none."""
    if fraction is None or not board_power_w:
        return None
    return limit_for(float(round(board_power_w * fraction)), board_power_w)


def fraction_limit(fraction: Optional[float]) -> Optional[float]:
    """A power limit asked as a fraction of every card's board power: 1 (100 %) or more is no limit
    (None), as a limit in watts at or above the board power is (:func:`limit_for`)."""
    return None if fraction is None or fraction >= 1.0 else fraction


POWER_LIMIT = Field("power_limit_w", float, N_("power limit"),
                    N_("The GPU's power limit (nvidia-smi -pl); none runs it at its board power"),
                    unit="W", lo=1.0, hi=2000.0, optional=True)
POWER_LIMIT_FRACTION = Field("power_limit", float, N_("power limit"),
                             N_("Every GPU limited to this fraction of its board power"),
                             lo=POWER_LIMIT_FLOOR, hi=1.0, optional=True)
"""The optimiser's request: one limit for every card, as a fraction of its board power."""

# --------------------------------------------------------------------------- the parts of a build

MAX_ITEMS = kinds.MAX_ITEMS
"""Entries in each list of a build (GPUs, memory kits, drives, NICs, prices paid): ``domain.kinds``."""
MAX_PSUS = kinds.kind("psu").role.most
MAX_POSITION = 20
"""The highest expansion position a build may name (no board has more)."""

NAME = Field("name", str, N_("name"), max_len=200)
NOTES = Field("notes", str, N_("notes"), max_len=20_000)
PART_ID = Field("part_id", str, N_("part id"), max_len=120)
COUNT = Field("count", int, N_("count"), N_("How many of one memory kit or drive"), lo=1, hi=64, default=1)
POSITION = Field("position", int, N_("position"), N_("The board's expansion position (for a riser: where its "
                                                    "cable plugs in)"), lo=1, hi=MAX_POSITION, optional=True)
MOUNT = Field("mount", str, N_("mount"), default=MOUNT_SLOT, choices=(MOUNT_SLOT, MOUNT_RISER))
M2 = Field("m2", str, N_("M.2 socket"), max_len=40, optional=True)
RISER = Field("riser", str, N_("riser"), N_("The riser part a card on a riser stands on (none: a riser of "
                                              "unknown kind)"), max_len=120, optional=True)

# --------------------------------------------------------------------------- the settings of a build

HOURS_A_DAY = 24.0
DAYS_A_MONTH = 31.0
_DEFAULT = Settings()  # the defaults of a new build's settings (domain.build.Settings declares them)

REGION = Field("region", str, N_("region"), N_("Wall circuit (continuous limit) and the 80 PLUS voltage table"),
               default=_DEFAULT.region, choices=tuple(REGIONS))
PRICE_PER_KWH = Field("price_per_kwh", float, N_("price per kWh"),
                      N_("Electricity price per kWh, in the build's currency"), lo=0.0, hi=100.0,
                      default=_DEFAULT.price_per_kwh)
CURRENCY = Field("currency", str, N_("currency"), N_("The build's currency"), default=_DEFAULT.currency,
                 normalise=currency_code, check=currency_problem, max_len=8)
LOAD_HOURS = Field("load_hours_per_day", float, N_("hours under load per day"),
                   N_("Hours a day the GPUs train (at the training draw)"), unit="h", lo=0.0, hi=HOURS_A_DAY,
                   default=_DEFAULT.load_hours_per_day)
IDLE_HOURS = Field("idle_hours_per_day", float, N_("idle hours per day"),
                   N_("Hours a day the machine is on but idle"), unit="h", lo=0.0, hi=HOURS_A_DAY,
                   default=_DEFAULT.idle_hours_per_day)
DAYS_PER_MONTH = Field("days_per_month", float, N_("days per month"), N_("Days a month the machine runs"),
                       lo=1.0, hi=DAYS_A_MONTH, default=_DEFAULT.days_per_month)
BUDGET = Field("budget", float, N_("budget"), N_("A limit on the purchase (parts), in the build's currency"),
               lo=0.0, hi=MAX_AMOUNT, optional=True, default=_DEFAULT.budget)
CONDITION = Field("condition", str, N_("condition"), N_("Which catalog prices to prefer: new or used"),
                  default=_DEFAULT.condition, choices=CONDITIONS)
CIRCUIT_MARGIN = Field("circuit_margin", float, N_("circuit margin"),
                       N_("Share of the circuit's rating planned for continuous load"), lo=CIRCUIT_MARGIN_RANGE[0],
                       hi=CIRCUIT_MARGIN_RANGE[1], default=_DEFAULT.circuit_margin)
RENT_PER_GPU_HOUR = Field("rent_per_gpu_hour", float, N_("rent per GPU-hour"),
                          N_("A cloud price per GPU-hour to compare owning with, in the build's currency; none: "
                             "the cheapest published example for the build's GPUs"),
                          lo=0.0, hi=1000.0, optional=True, default=_DEFAULT.rent_per_gpu_hour)
ROOM_NOISE = Field("room_noise_db", float, N_("room noise level"),
                   N_("Above this level (dB(A) at 1 m) the build is called loud for the room it stands in"),
                   unit="dB(A)", lo=ROOM_NOISE_RANGE[0], hi=ROOM_NOISE_RANGE[1], default=_DEFAULT.room_noise_db)

SETTINGS: dict[str, Field] = {f.name: f for f in (REGION, PRICE_PER_KWH, CURRENCY, LOAD_HOURS, IDLE_HOURS,
                                                  DAYS_PER_MONTH, BUDGET, CONDITION, CIRCUIT_MARGIN,
                                                  RENT_PER_GPU_HOUR, ROOM_NOISE)}
"""Every setting of a build, in the order the window and the reports show them."""

# --------------------------------------------------------------------------- what a build paid

PAID_AMOUNT = Field("amount", float, N_("price paid"), lo=0.0, hi=MAX_AMOUNT)
PAID_CURRENCY = Field("currency", str, N_("currency"), normalise=currency_code, check=currency_problem, max_len=8)
PAID_CONDITION = Field("condition", str, N_("condition"), default="new", choices=CONDITIONS)
PAID_NOTE = Field("note", str, N_("note"), max_len=500)
PAID_DATE = Field("date", str, N_("date"), max_len=40)


def usage_problem(load_hours: Any, idle_hours: Any) -> Optional[T]:
    """Load and idle hours cannot add up to more than a day."""
    if is_number(load_hours) and is_number(idle_hours) and load_hours + idle_hours > HOURS_A_DAY + 1e-9:
        return T("load and idle hours add up to more than 24 a day")
    return None


def load_words(load_hours: float) -> T:
    """Hours under load in the one wording every door uses: '8 h a day under load'."""
    return T("{load:g} h a day under load", load=load_hours)


def usage_words(load_hours: float, idle_hours: float, days: Optional[float] = None) -> T:
    """How long a machine runs, in the one wording every door uses (report, comparison, the command
    line): '8 h a day under load, 4 h idle' and, given ``days``, ', 30 days a month'."""
    t = T("{load}, {idle:g} h idle", load=load_words(load_hours), idle=idle_hours)
    return t if days is None else T("{usage}, {days:g} days a month", usage=t, days=days)


def setting_title(key: str) -> T:
    """A setting's name as a translatable text ('hours under load per day')."""
    f = SETTINGS.get(key)
    return T(f.title) if f is not None else T.verbatim(key)
