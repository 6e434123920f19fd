"""A build: the parts someone plans and where each GPU sits. Plain, mutable data."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from rigbuilder.domain import kinds
from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.money import PriceObservation

UNTITLED = N_("Untitled build")
"""What a build never named is called where it is shown (``shown_name``). A never-named build
stores no name (``Build.name == ""``): no English text in its file; files written before that
stored this English default, which the loader reads back as no name."""


def shown_name(name: str, lang: str) -> str:
    """A build's name as a door shows it in ``lang``: a never-named build reads 'Untitled build'
    in that language; a generated name (a ``T``) is translated."""
    from rigbuilder.domain.i18n import gettext, render
    from rigbuilder.domain.safeio import display_text

    if not str(name).strip():
        return gettext(UNTITLED, lang)
    return display_text(render(name, lang))  # bidirectional controls as visible marks, one line

MOUNT_SLOT = "slot"
MOUNT_RISER = "riser"

ESSENTIAL_ROLES: dict[str, str] = {k: kinds.kind(k).word for k in kinds.REQUIRED}
"""The parts every build needs (``domain.kinds``: cooler and NICs are optional, a CPU may come with one,
a board has one); by role, with the word a text names it by."""


def without_text(roles) -> T:
    """'memory, storage' as a translatable list of the missing parts' names (empty for none)."""
    return kinds.words(roles)


CIRCUIT_MARGIN = 0.8
"""The share of a circuit's rating planned for a continuous load where no code sets one (a
setting of each build, ``Settings.circuit_margin``; new builds take the preference)."""
CIRCUIT_MARGIN_RANGE = (0.5, 1.0)
ROOM_NOISE_DB = 40.0
"""The level (dB(A) at 1 m) above which a build is called loud for the room it stands in (a setting
of each build, ``Settings.room_noise_db``; new builds take the preference). 40 dB(A): the top of
the 30-40 dB(A) ASHRAE gives for open-plan offices and the bottom of the 40-45 dB(A) BS 8233 gives
for private offices (docs/models.md, "Noise")."""
ROOM_NOISE_RANGE = (20.0, 80.0)
NO_CODE_SOURCE = N_("no code sets a continuous rating for this socket: the build's margin of {margin:.0%} "
                    "of the rating is used (a setting)")


@dataclass(frozen=True)
class Region:
    code: str
    label: str
    voltage: float
    amps: float
    efficiency_table: str  # "115V" or "230V" (80 PLUS tables)
    source: str  # where the rating (volts x amps) comes from, and the efficiency table chosen
    currency: str = "EUR"  # the currency new builds in this region start with
    code_share: Optional[float] = None  # the share of the rating a code allows for continuous loads
    code_source: str = ""  # the code that sets ``code_share``
    market: str = "EU"  # where its builds are bought: the tax added and the electricity price (``domain.market``)

    @property
    def rated_w(self) -> float:
        """What the socket and its fuse or breaker are rated for (volts x amps)."""
        return self.voltage * self.amps

    def continuous_w(self, margin: float = CIRCUIT_MARGIN) -> float:
        """What the circuit carries under a continuous load (hours of training): the code's share
        of the rating where one sets it, else ``margin`` of it."""
        return round(self.rated_w * (self.code_share if self.code_share is not None else margin), 1)

    def continuous_source(self, margin: float = CIRCUIT_MARGIN) -> str:
        """Where the continuous figure comes from (a ``T``: translated where shown)."""
        if self.code_share is not None:
            return T(self.code_source)
        return T(NO_CODE_SOURCE, margin=margin)


# Labels and sources are marked once here and translated where shown (``T(region.label)``).
REGIONS: dict[str, Region] = {r.code: r for r in (
    Region("US-15A", N_("US 120 V / 15 A"), 120, 15, "115V", N_("15 A x 120 V (NEMA 5-15 receptacle)"), "USD",
           0.8, N_("NEC 210.19/210.20: a continuous load at most 80% of the branch circuit rating"), "US"),
    Region("US-20A", N_("US 120 V / 20 A"), 120, 20, "115V", N_("20 A x 120 V (NEMA 5-20 receptacle)"), "USD",
           0.8, N_("NEC 210.19/210.20: a continuous load at most 80% of the branch circuit rating"), "US"),
    Region("EU-16A", N_("EU 230 V / 16 A (Schuko)"), 230, 16, "230V",
           N_("16 A x 230 V (CEE 7/3 Schuko socket rating)"), "EUR", market="EU"),
    Region("DE-16A", N_("Germany 230 V / 16 A (Schuko)"), 230, 16, "230V",
           N_("16 A x 230 V (CEE 7/3 Schuko socket rating)"), "EUR", market="DE"),
    Region("FR-16A", N_("France 230 V / 16 A"), 230, 16, "230V",
           N_("16 A x 230 V (CEE 7/5 socket rating)"), "EUR", market="FR"),
    Region("UK-13A", N_("UK 230 V / 13 A plug"), 230, 13, "230V", N_("13 A x 230 V (BS 1363 fused plug)"), "GBP",
           market="UK"),
    Region("JP-15A", N_("Japan 100 V / 15 A"), 100, 15, "115V",
           N_("15 A x 100 V (JIS C 8303 socket); the 115 V efficiency table is used"), "JPY", market="JP"),
    Region("CN-10A", N_("China 220 V / 10 A"), 220, 10, "230V",
           N_("10 A x 220 V (GB 2099.1 / GB 1002 household socket; 16 A sockets exist for large appliances); "
              "the 230 V efficiency table is used"), "CNY", market="CN"),
)}
DEFAULT_REGION = "EU-16A"

_TERRITORY_REGIONS = {"DE": "DE-16A", "FR": "FR-16A", "US": "US-15A", "CA": "US-15A", "MX": "US-15A", "JP": "JP-15A", "CN": "CN-10A",
                      "GB": "UK-13A", "IE": "UK-13A"}
_LANGUAGE_REGIONS = {"ja": "JP-15A", "zh": "CN-10A"}  # a locale without a territory: its language's country


def region_for_locale(env=None, language: Optional[str] = None) -> str:
    """The region a new build starts in, from the locale's territory (LC_ALL, LC_MONETARY, LANG:
    'ja_JP.UTF-8' -> Japan 100 V, 'en_GB' -> UK, 'de_DE' -> EU); where the locale names none (C.UTF-8),
    from ``language`` (the window's language: 'ja' -> Japan); else DEFAULT_REGION."""
    import os

    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MONETARY", "LANG"):
        tag = (env.get(var) or "").split(".")[0].split("@")[0].replace("-", "_")
        if not tag or tag in ("C", "POSIX"):
            continue
        lang, _sep, territory = tag.partition("_")
        if territory:
            return _TERRITORY_REGIONS.get(territory.upper(), DEFAULT_REGION)
        if lang.lower() in _LANGUAGE_REGIONS:
            return _LANGUAGE_REGIONS[lang.lower()]
        break
    return _LANGUAGE_REGIONS.get((language or "").split("_")[0], DEFAULT_REGION)


@dataclass
class Settings:
    region: str = DEFAULT_REGION
    price_per_kwh: float = 0.30
    currency: str = "EUR"
    load_hours_per_day: float = 8.0
    idle_hours_per_day: float = 4.0
    days_per_month: float = 30.0
    budget: Optional[float] = None  # a limit on the purchase, in ``currency``
    condition: str = "new"  # which catalog prices to prefer: "new" or "used"
    circuit_margin: float = CIRCUIT_MARGIN  # share of the circuit's rating planned for continuous load
    rent_per_gpu_hour: Optional[float] = None  # a cloud price per GPU-hour to compare with, in ``currency``
    room_noise_db: float = ROOM_NOISE_DB  # above this (dB(A) at 1 m) the build is called loud for its room

    def region_info(self) -> Region:
        return REGIONS.get(self.region, REGIONS[DEFAULT_REGION])

    def circuit_w(self) -> float:
        """What the build's wall circuit carries under continuous load (``Region.continuous_w``)."""
        return self.region_info().continuous_w(self.circuit_margin)


@dataclass
class PricePaid:
    """What the user actually paid for one unit of a part in this build."""

    amount: float
    currency: str
    condition: str = "new"
    note: str = ""
    date: str = ""

    def observation(self, part_id: str) -> PriceObservation:
        return PriceObservation(part_id, self.amount, self.currency, self.condition, "paid",
                                self.note or "price paid, entered in this build", self.date)


@dataclass
class GpuPlacement:
    """One GPU card: which catalog part, which expansion position, how it is mounted."""

    part_id: str
    position: Optional[int] = None  # board expansion position (for a riser: where its cable plugs in)
    mount: str = MOUNT_SLOT  # "slot" or "riser" (riser cable / vertical mount: off the board)
    power_limit_w: Optional[float] = None
    riser: Optional[str] = None  # the riser part a riser-mounted card is on; None: a riser of unknown kind


@dataclass
class PartCount:
    part_id: str
    count: int = 1


@dataclass
class StorageItem:
    part_id: str
    count: int = 1
    m2: Optional[str] = None  # M.2 socket id on the board, for NVMe drives; None = first free


@dataclass
class Build:
    name: str = ""  # "" = never named (shown as UNTITLED in the door's language)
    motherboard: Optional[str] = None
    cpu: Optional[str] = None
    cooler: Optional[str] = None
    case: Optional[str] = None
    psus: list[str] = field(default_factory=list)
    memory: list[PartCount] = field(default_factory=list)
    storage: list[StorageItem] = field(default_factory=list)
    nics: list[str] = field(default_factory=list)
    gpus: list[GpuPlacement] = field(default_factory=list)
    settings: Settings = field(default_factory=Settings)
    notes: str = ""
    prices_paid: dict[str, PricePaid] = field(default_factory=dict)  # by part id, per unit

    def clone(self) -> "Build":
        """A deep copy, about twenty times faster than ``copy.deepcopy`` (every edit in the app
        takes snapshots for undo). tests/domain/test_build.py checks it copies every field."""
        return Build(
            name=self.name, motherboard=self.motherboard, cpu=self.cpu, cooler=self.cooler, case=self.case,
            psus=list(self.psus), memory=[PartCount(m.part_id, m.count) for m in self.memory],
            storage=[StorageItem(s.part_id, s.count, s.m2) for s in self.storage], nics=list(self.nics),
            gpus=[GpuPlacement(g.part_id, g.position, g.mount, g.power_limit_w, g.riser) for g in self.gpus],
            settings=Settings(self.settings.region, self.settings.price_per_kwh, self.settings.currency,
                              self.settings.load_hours_per_day, self.settings.idle_hours_per_day,
                              self.settings.days_per_month, self.settings.budget, self.settings.condition,
                              self.settings.circuit_margin, self.settings.rent_per_gpu_hour,
                              self.settings.room_noise_db),
            notes=self.notes,
            prices_paid={k: PricePaid(v.amount, v.currency, v.condition, v.note, v.date)
                         for k, v in self.prices_paid.items()})

    def missing_roles(self) -> tuple[str, ...]:
        """The essential roles (``ESSENTIAL_ROLES``) this build has no part for, in their order."""
        return tuple(r for r in kinds.REQUIRED if not kinds.ids_in(self, r))

    def part_ids(self) -> list[str]:
        """Every catalog id the build names, in a stable order (``domain.kinds.part_ids``)."""
        return kinds.part_ids(self)

    def gpu_at(self, position: int) -> Optional[int]:
        """Index of the board-mounted GPU in ``position``, if any."""
        for i, g in enumerate(self.gpus):
            if g.mount == MOUNT_SLOT and g.position == position:
                return i
        return None
