"""Where rigbuilder keeps its files. Passed in, never global.

``RIGBUILDER_DATA_DIR`` and ``RIGBUILDER_CACHE_DIR`` override the platform's directories (for
portable use and for tests).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

APP_NAME = "rigbuilder"


@dataclass(frozen=True)
class Paths:
    data_dir: Path  # user parts database, settings
    cache_dir: Path  # the shipped catalog's SQLite copy

    @property
    def user_db(self) -> Path:
        return self.data_dir / "user-parts.sqlite"

    @classmethod
    def from_env(cls, env: Optional[Mapping[str, str]] = None) -> "Paths":
        env = os.environ if env is None else env
        data = env.get("RIGBUILDER_DATA_DIR")
        cache = env.get("RIGBUILDER_CACHE_DIR")
        if not data or not cache:
            import platformdirs
            data = data or platformdirs.user_data_dir(APP_NAME, appauthor=False)
            cache = cache or (str(Path(data) / "cache") if env.get("RIGBUILDER_DATA_DIR")
                              else platformdirs.user_cache_dir(APP_NAME, appauthor=False))
        return cls(Path(data), Path(cache))


# --------------------------------------------------------------------------- the user's preferences
#
# Typed, versioned settings (after Picard's options.py and config_upgrade.py): every option is
# declared once below with its type, default and check; the store records SETTINGS_VERSION, and
# settings written by an older rigbuilder are brought up to date by the steps in UPGRADES when a
# window opens them. The store is passed in: the app gives a QSettings file under the user's data
# directory, tests a dictionary (DictStore). Add an option here (and a step when an old stored
# value must change) and the preferences dialog offers it.

from dataclasses import field as _field  # noqa: E402
from typing import Any, Callable, Protocol  # noqa: E402
from rigbuilder.domain.i18n import N_  # noqa: E402 (marks the option labels for the catalogs)

SETTINGS_VERSION = 1
VERSION_KEY = "settings/version"


class Store(Protocol):
    """What the settings need of a store (QSettings has exactly these)."""

    def value(self, key: str, defaultValue: Any = None) -> Any: ...  # noqa: N803 (Qt's name)

    def setValue(self, key: str, value: Any) -> None: ...  # noqa: N802

    def remove(self, key: str) -> None: ...

    def contains(self, key: str) -> bool: ...


class DictStore(dict):
    """A store in memory (tests, and the command line, which keeps no preferences)."""

    def value(self, key: str, defaultValue: Any = None) -> Any:  # noqa: N803
        return self.get(key, defaultValue)

    def setValue(self, key: str, value: Any) -> None:  # noqa: N802
        self[key] = value

    def remove(self, key: str) -> None:
        self.pop(key, None)

    def contains(self, key: str) -> bool:
        return key in self


def _region(v: Any) -> str:
    from rigbuilder.domain.build import REGIONS

    if v not in REGIONS:
        raise ValueError(f"{str(v)[:20]!r} is not one of: {', '.join(REGIONS)}")
    return str(v)


def _locale_region(prefs: "Preferences") -> str:
    """The default region of new builds: the system locale's country, else the window language's."""
    from rigbuilder.domain.build import region_for_locale

    return region_for_locale(None, prefs.language())


def _margin(v: Any) -> float:
    from rigbuilder.domain.build import CIRCUIT_MARGIN_RANGE

    f = float(v)
    lo, hi = CIRCUIT_MARGIN_RANGE
    if not lo <= f <= hi:
        raise ValueError(f"{f:g} is not between {lo:g} and {hi:g}")
    return f


def _currency_or_region(v: Any) -> str:
    """'' (the region's currency) or a three-letter code."""
    from rigbuilder.domain.money import check_currency

    s = "" if v is None else str(v).strip()
    return check_currency(s, "money/default_currency") if s else ""  # MoneyError is a ValueError


def _int_between(lo: int, hi: int) -> Callable[[Any], int]:
    """A parser for a whole number from ``lo`` to ``hi``."""

    def parse(v: Any) -> int:
        try:
            n = int(str(v).strip())
        except (TypeError, ValueError):
            raise ValueError(f"{str(v)[:20]!r} is not a whole number") from None
        if not lo <= n <= hi:
            raise ValueError(f"{n} is not from {lo} to {hi}")
        return n

    return parse


def _between(lo: float, hi: float) -> Callable[[Any], float]:
    """A number from ``lo`` to ``hi``."""

    def parse(v: Any) -> float:
        f = float(v)
        if not lo <= f <= hi:
            raise ValueError(f"{f:g} is not between {lo:g} and {hi:g}")
        return f

    return parse


UNDO_LIMIT = 3000
"""Undo steps kept by default (each takes a few KB: 3,000 stay under about 20 MB)."""


def _choice(*allowed: str, aliases: Optional[dict] = None) -> Callable[[Any], str]:
    """A parser for one of ``allowed`` (case and spaces ignored; ``aliases`` map other spellings)."""

    def parse(v: Any) -> str:
        s = ("" if v is None else str(v)).strip().lower()
        s = (aliases or {}).get(s, s)
        if s not in allowed:
            raise ValueError(f"{str(v)[:20]!r} is not one of: {', '.join(allowed)}")
        return s

    return parse


def _language(v: Any) -> str:
    """'system' (follow the system locale) or a language rigbuilder has a catalog for."""
    from rigbuilder.domain.i18n import LANGUAGES

    s = "system" if v in (None, "") else str(v)
    if s != "system" and s not in LANGUAGES:
        raise ValueError(f"{s[:12]!r} is not one of: system, {', '.join(LANGUAGES)}")
    return s


def _lab_url(v: Any) -> str:
    """'' (no lab database) or a database URL without a password (rigbuilder.catalog.labdb)."""
    s = "" if v is None else str(v).strip()
    if not s:
        return ""
    from rigbuilder.catalog.labdb import LabDbError, stored_url

    try:
        return stored_url(s)
    except LabDbError as e:
        raise ValueError(str(e)) from None


def _bool(v: Any) -> bool:
    """A yes/no setting (QSettings may read one back as the text 'true' or 'false')."""
    if isinstance(v, bool):
        return v
    s = str(v).strip().lower()
    if s in ("true", "1", "yes", "on"):
        return True
    if s in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"{s[:12]!r} is not true or false")


def _path_text(v: Any) -> str:
    s = "" if v is None else str(v).strip()
    if len(s) > 1000 or "\n" in s:
        raise ValueError("not a file path")
    return s


@dataclass(frozen=True)
class Option:
    key: str  # where the store keeps it ("group/name")
    default: Any
    parse: Callable[[Any], Any]  # stored value -> typed value; ValueError when it cannot be used
    label: str  # what the preferences dialog calls it (marked N_: the dialog shows it through _())
    help: str = ""


def _options() -> dict[str, Option]:
    from rigbuilder.domain.build import CIRCUIT_MARGIN, ROOM_NOISE_DB, ROOM_NOISE_RANGE

    return {o.key: o for o in (
        Option("money/default_region", _locale_region, _region, N_("Region of new builds"),
               N_("The wall circuit and, unless a currency is chosen below, the currency of every new build; "
                  "until chosen, the system locale's country (Japan for a Japanese desktop)")),
        Option("power/circuit_margin", CIRCUIT_MARGIN, _margin, N_("Continuous load, share of the circuit"),
               N_("Where no electrical code sets a continuous rating for the wall socket (everywhere but the "
                  "US), new builds plan at most this share of the socket's rating for hours of training")),
        Option("noise/room_level", ROOM_NOISE_DB, _between(*ROOM_NOISE_RANGE), N_("Room noise level, dB(A)"),
               N_("New builds call a machine loud above this level at 1 m (finding noise.loud). 40 dB(A): the "
                  "top of what ASHRAE gives for open-plan offices (30-40 dB(A)) and the bottom of what BS 8233 gives for "
                  "private offices (40-45 dB(A))")),
        Option("money/default_currency", "", _currency_or_region, N_("Currency of new builds"),
               N_("Empty: the region's currency (US: USD, EU: EUR, UK: GBP, Japan: JPY, China: CNY)")),
        Option("money/used_estimates", True, _bool, N_("Estimate used prices"),
               N_("Where no used price is observed, offer one estimated from the used-market series by age, memory "
                  "and segment (marked estimated, with its error on chips held out of the fit)")),
        Option("appearance/theme", "system", _choice("system", "light", "dark", aliases={"auto": "system"}),
               N_("Colours"), N_("System: follow the desktop's light or dark colour scheme")),
        Option("appearance/units", "mm", _choice("mm", "in", aliases={"inch": "in", "inches": "in", "millimetres": "mm"}),
               N_("Lengths in"), N_("How the window shows lengths (cards, cases, boards); files and the command line keep mm")),
        Option("edit/undo_limit", UNDO_LIMIT, _int_between(10, 100_000), N_("Undo steps kept"),
               N_("The oldest steps are forgotten beyond this, so that memory stays bounded in a long session")),
        Option("lab/database_url", "", _lab_url, N_("Lab database"),
               N_("Empty: no lab database. postgresql://me@server/lab for the lab's server, or a SQLite file path; "
                  "never with a password (a password file or the system keyring keeps it)")),
        Option("lab/password_file", "", _path_text, N_("Password file"),
               N_("A PostgreSQL password file (the format of ~/.pgpass); empty: ~/.pgpass or the system keyring")),
        Option("power/calibration", True, _bool, N_("Calibrate plans with my measured power logs"),
               N_("Each GPU model's training draw scaled by what your imported power logs measured against the "
                  "plan (Tools > Import Power Log); off: the model's own figures")),
        Option("ui/language", "system", _language, N_("Language"),
               N_("The language of the window, its findings and reports; 'system' follows the system locale (LANG)")),
    )}


OPTIONS: dict[str, Option] = _options()


def _upgrade_to_1(store: Store) -> None:
    """Settings from before versions: the recent files were kept as a bare string when there
    was one (an INI file reads a one-item list back as a string); keep them as a list."""
    v = store.value("recent_files")
    if isinstance(v, str):
        store.setValue("recent_files", [v] if v else [])


UPGRADES: dict[int, Callable[[Store], None]] = {1: _upgrade_to_1}
"""Version N's step: brings settings of version N-1 to N."""


def stored_version(store: Store) -> int:
    try:
        return int(store.value(VERSION_KEY, 0) or 0)
    except (TypeError, ValueError):
        return 0


def upgrade(store: Store) -> list[int]:
    """Run the steps from the stored version up to SETTINGS_VERSION; returns those run. Settings
    of a newer rigbuilder are left as they are (their unknown values read as defaults)."""
    done = []
    v = stored_version(store)
    while v < SETTINGS_VERSION:
        v += 1
        step = UPGRADES.get(v)
        if step is not None:
            step(store)
            done.append(v)
        store.setValue(VERSION_KEY, v)
    return done


@dataclass
class Preferences:
    """Typed access to the user's settings in ``store`` (upgraded when opened)."""

    store: Any
    upgraded: list[int] = _field(default_factory=list)

    @classmethod
    def open(cls, store: Any) -> "Preferences":
        return cls(store, upgrade(store))

    def get(self, key: str) -> Any:
        """The option's value; its default when unset or when the stored value cannot be used."""
        opt = OPTIONS[key]
        if not self.store.contains(key):
            return self.default(key)
        try:
            return opt.parse(self.store.value(key))
        except (TypeError, ValueError):
            return self.default(key)

    def unusable(self) -> list:
        """A text (``T``) for each stored value that cannot be used (a hand-edited file): the
        default is used for it, and the window says so once when it opens."""
        from rigbuilder.domain.i18n import T

        out = []
        for key, opt in OPTIONS.items():
            if not self.store.contains(key):
                continue
            try:
                opt.parse(self.store.value(key))
            except (TypeError, ValueError) as e:
                out.append(T("The setting {key} holds a value that cannot be used ({error}); the default is used",
                             key=key, error=str(e)[:80]))
        return out

    def set(self, key: str, value: Any) -> None:
        """Store a value; ValueError (naming the option) when it cannot be used."""
        opt = OPTIONS[key]
        try:
            v = opt.parse(value)
        except ValueError as e:
            raise ValueError(f"{opt.label}: {e}") from None
        if v == self.default(key):
            self.store.remove(key)
        else:
            self.store.setValue(key, v)

    def default(self, key: str) -> Any:
        """The option's value while none is stored (some follow the system: the region its locale)."""
        d = OPTIONS[key].default
        return d(self) if callable(d) else d

    def language(self, env=None) -> str:
        """The language to show: the chosen one, else the system locale's (English when unknown)."""
        from rigbuilder.domain.i18n import choose_language

        return choose_language(None, self.get("ui/language"), env)

    def new_build_currency(self) -> str:
        """The currency of a new build: the chosen one, else the default region's."""
        from rigbuilder.domain.build import REGIONS

        return self.get("money/default_currency") or REGIONS[self.get("money/default_region")].currency
