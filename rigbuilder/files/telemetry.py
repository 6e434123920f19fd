"""Power logs a machine wrote about itself: nvidia-smi CSV logs and DCGM exporter scrapes.

Plain Python (no Qt, no database). ``read_log`` reads a file the user hands us (a regular file of
bounded size, never a device or pipe) and ``parse_log`` its bytes; either returns a ``PowerLog``
(per card, its samples in the order written) or raises ``TelemetryError`` whose message (a ``T``)
names the file and the line. Nothing is stored here: the caller decides.

Formats (docs/telemetry.md):

- nvidia-smi ``--query-gpu=... --format=csv[,noheader][,nounits]``: any subset and order of the
  fields below, with or without the header line and the units ("W", "MHz", "%"), "[N/A]" and
  "[Not Supported]" as missing values, other locales' decimal commas ("123,45 W" inside quotes
  or with ";" separators). Without a header, the columns of rigbuilder's own command are assumed
  (``LIVE_FIELDS``). Without an index column the rows are taken in turn as cards 0..n-1, as
  nvidia-smi writes one row per card per poll.
- DCGM exporter (Prometheus text format): lines ``DCGM_FI_DEV_POWER_USAGE{gpu="0",...} 65.3``
  with an optional timestamp in milliseconds; each scrape adds one sample per card.
"""
from __future__ import annotations

import csv
import datetime as _dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from rigbuilder.domain.i18n import T

MAX_LOG_BYTES = 64 * 1024 * 1024
"""The largest log read (about 600,000 rows: 16 h of 8 cards at one row a second)."""
MAX_CARDS = 64
MAX_CELL = 200

LIVE_FIELDS = ("timestamp", "index", "name", "power.draw", "power.limit", "temperature.gpu", "fan.speed",
               "utilization.gpu", "clocks.sm", "clocks_event_reasons.active")
"""The fields rigbuilder's own log holds (Tools > Measure This Machine), in this order; also what
a log without a header is assumed to hold when it has this many columns."""
LIVE_QUERY = ",".join(LIVE_FIELDS)

# nvidia-smi field -> our name. Each field has its old and new spellings (nvidia-smi --help-query-gpu).
FIELDS = {
    "timestamp": "time",
    "index": "index",
    "name": "name", "gpu_name": "name",
    "uuid": "uuid", "gpu_uuid": "uuid",
    "pci.bus_id": "bus", "gpu_bus_id": "bus",
    "power.draw": "power", "power.draw.average": "power", "power.draw.instant": "power_instant",
    "power.limit": "limit", "enforced.power.limit": "enforced_limit",
    "temperature.gpu": "temp",
    "fan.speed": "fan",
    "utilization.gpu": "util",
    "clocks.sm": "sm", "clocks.current.sm": "sm",
    "clocks_throttle_reasons.active": "reasons", "clocks_event_reasons.active": "reasons",
}
REASON_BITS = {
    0x1: "gpu_idle", 0x2: "applications_clocks_setting", 0x4: "sw_power_cap", 0x8: "hw_slowdown",
    0x10: "sync_boost", 0x20: "sw_thermal_slowdown", 0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown", 0x100: "display_clock_setting",
}
"""NVML's clocks event (throttle) reasons, bit by bit (nvmlClocksEventReasons)."""
REASON_NAMES = set(REASON_BITS.values())
SLOWDOWNS = {"hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown"}
"""Reasons that hold a card below what it would draw: its loaded figure does not calibrate."""
MISSING = {"", "[n/a]", "n/a", "[not supported]", "not supported", "[unknown error]", "[gpu is lost]",
           "[insufficient permissions]", "[requires pro]", "-"}

DCGM_FIELDS = {
    "DCGM_FI_DEV_POWER_USAGE": "power", "DCGM_FI_DEV_POWER_USAGE_INSTANT": "power_instant",
    "DCGM_FI_DEV_GPU_TEMP": "temp", "DCGM_FI_DEV_GPU_UTIL": "util", "DCGM_FI_DEV_SM_CLOCK": "sm",
    "DCGM_FI_DEV_POWER_MGMT_LIMIT": "limit", "DCGM_FI_DEV_ENFORCED_POWER_LIMIT": "enforced_limit",
    "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS": "reasons", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS": "reasons",
    "DCGM_FI_DEV_FAN_SPEED": "fan",
}
"""DCGM field names (dcgm-exporter's default counters) -> our names."""
_PROM = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(\{[^}]*\})?\s+(\S+)(?:\s+(-?\d+))?\s*$")
_LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


class TelemetryError(ValueError):
    """A log that cannot be read; the message (a ``T``) names the file and the line."""


@dataclass(frozen=True)
class Sample:
    line: int  # where in the file (1-based)
    time: Optional[float]  # seconds (POSIX, the log's local clock); None when the log has no times
    power_w: Optional[float]
    limit_w: Optional[float] = None
    temp_c: Optional[float] = None
    fan_pct: Optional[float] = None
    util_pct: Optional[float] = None
    sm_mhz: Optional[float] = None
    reasons: frozenset = frozenset()  # REASON_BITS names active at this sample


@dataclass(frozen=True)
class CardLog:
    index: int
    name: str  # as the log names the card ("" when it does not)
    first_line: int
    samples: tuple[Sample, ...]
    uuid: str = ""


@dataclass(frozen=True)
class PowerLog:
    source: str  # the file's name, as messages name it
    kind: str  # "nvidia-smi" or "dcgm"
    cards: tuple[CardLog, ...]
    fields: tuple[str, ...]  # our names of the columns the log has
    notes: tuple[T, ...] = field(default=())

    @property
    def started(self) -> Optional[_dt.datetime]:
        ts = [s.time for c in self.cards for s in c.samples[:1] if s.time is not None]
        return _dt.datetime.fromtimestamp(min(ts)) if ts else None

    @property
    def ended(self) -> Optional[_dt.datetime]:
        ts = [s.time for c in self.cards for s in c.samples[-1:] if s.time is not None]
        return _dt.datetime.fromtimestamp(max(ts)) if ts else None

    @property
    def named(self) -> bool:
        return any(c.name for c in self.cards)


# --------------------------------------------------------------------------- values

_UNITS = frozenset(("W", "MHz", "%", "C", "mW", "RPM"))
_UNIT = re.compile(r"\s*(?:W|MHz|%|C|°C|RPM|mW)\s*$", re.IGNORECASE)
_TIME = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})[ T](\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?")
_MASKS: dict[str, frozenset] = {}  # a throttle mask's text -> its reasons (a log repeats a few masks)
_MINUTES: dict[str, float] = {}
"""POSIX seconds of each minute a log names ('2026/11/20 14:03'): a log of 100,000 rows names a
few hundred, and making a datetime per row was most of the time a large log took."""


def _number(text: str, what: str, where: str, line: int, decimal_comma: bool) -> Optional[float]:
    figure = text
    head, _sp, unit = text.rpartition(" ")
    if unit in _UNITS and head:  # the common case: "123.45 W" (or "123.45" with nounits, below)
        figure = head
    try:
        v = float(figure)
    except ValueError:
        s = text.strip()
        if s.lower() in MISSING:
            return None
        s = _UNIT.sub("", s)
        if decimal_comma and "," in s:  # "1.234,5" or "123,45": another locale's decimal comma
            s = s.replace(".", "").replace(",", ".") if "." in s else s.replace(",", ".")
        try:
            v = float(s)
        except ValueError:
            raise TelemetryError(T("{path} line {line}: {what} {value!r} is not a number", path=where, line=line,
                                   what=what, value=text.strip()[:40])) from None
    if v != v or abs(v) > 1e7:  # NaN, infinities, nonsense
        raise TelemetryError(T("{path} line {line}: {what} {value!r} is not a plausible reading", path=where,
                               line=line, what=what, value=text.strip()[:40]))
    return v


def _time(text: str, where: str, line: int) -> Optional[float]:
    s = text.strip()
    m = _TIME.fullmatch(s)
    if m:
        y, mo, d, h, mi, sec, frac = m.groups()
        key = s[:m.start(5) - 1]
        base = _MINUTES.get(key)
        if base is None:
            try:
                base = _dt.datetime(int(y), int(mo), int(d), int(h), int(mi)).timestamp()
            except (ValueError, OverflowError, OSError):
                base = None
            else:
                if len(_MINUTES) > 100_000:
                    _MINUTES.clear()
                _MINUTES[key] = base
        if base is not None and int(sec) < 60:
            return base + int(sec) + (int(frac) / 10 ** len(frac) if frac else 0.0)
    if s.lower() in MISSING:
        return None
    try:
        return _dt.datetime.fromisoformat(s).timestamp()
    except (ValueError, OverflowError, OSError):
        pass
    raise TelemetryError(T("{path} line {line}: {value!r} is not a time nvidia-smi writes (2026/11/20 14:03:07.123)",
                           path=where, line=line, value=s[:40]))


def _reasons(text: str, where: str, line: int) -> frozenset:
    got = _MASKS.get(text)
    if got is not None:
        return got
    s = text.strip()
    if s.lower() in MISSING:
        return frozenset()
    try:
        bits = int(s, 16) if s.lower().startswith("0x") else int(s)
    except ValueError:
        raise TelemetryError(T("{path} line {line}: throttle reasons {value!r} are not a bit mask such as 0x0000000000000004",
                               path=where, line=line, value=s[:40])) from None
    got = frozenset(name for bit, name in REASON_BITS.items() if bits & bit)
    if len(_MASKS) < 4096:
        _MASKS[text] = got
    return got


# --------------------------------------------------------------------------- nvidia-smi CSV

def _header_key(cell: str) -> Optional[str]:
    """Our name for a header cell such as 'power.draw [W]' (None: a column we do not read)."""
    key = re.sub(r"\s*\[.*\]\s*$", "", cell.strip().lower())
    if key in FIELDS:
        return FIELDS[key]
    m = re.fullmatch(r"clocks_(?:throttle|event)_reasons\.([a-z_]+)", key)
    if m and m.group(1) in REASON_NAMES:
        return "reason:" + m.group(1)
    return None


def _split(line: str, sep: str) -> list[str]:
    if '"' not in line:  # nvidia-smi quotes nothing: the plain split is the csv module's answer, faster
        return [c.lstrip(" ") for c in line.split(sep)]
    return next(csv.reader([line], delimiter=sep, skipinitialspace=True))


def parse_nvidia_smi(text: str, where: str, cards: Optional[int] = None) -> PowerLog:
    lines = text.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        raise TelemetryError(T("{path}: the log is empty", path=where))
    head = lines[first]
    sep = ";" if head.count(";") > head.count(",") else ","
    cells = _split(head, sep)
    keys = [_header_key(c) for c in cells]
    has_header = any(k is not None for k in keys)
    notes: list[T] = []
    if has_header:
        start = first + 1
    else:
        if not any(ch.isdigit() for ch in head):  # a header, but of columns nvidia-smi does not write
            raise TelemetryError(T("{path} line {line}: no column nvidia-smi writes (found: {cells})", path=where,
                                   line=first + 1, cells=", ".join(c.strip()[:30] for c in cells[:8])))
        if len(cells) != len(LIVE_FIELDS):
            raise TelemetryError(T("{path} line {line}: no header line, and {n} columns where a log without a "
                                   "header must have the {m} of '--query-gpu={query}'", path=where, line=first + 1,
                                   n=len(cells), m=len(LIVE_FIELDS), query=LIVE_QUERY))
        keys = [FIELDS[f] for f in LIVE_FIELDS]
        start = first
    if "power" not in keys:
        if "power_instant" in keys:
            keys = ["power" if k == "power_instant" else k for k in keys]
        else:
            raise TelemetryError(T("{path} line {line}: no power.draw column; record the log with "
                                   "--query-gpu={query}", path=where, line=first + 1, query=LIVE_QUERY))
    if "limit" not in keys and "enforced_limit" in keys:
        keys = ["limit" if k == "enforced_limit" else k for k in keys]
    col = {k: i for i, k in reversed(list(enumerate(keys))) if k}
    reason_cols = {k.split(":", 1)[1]: i for k, i in col.items() if k.startswith("reason:")}
    width = len(keys)
    rows: dict[int, list[Sample]] = {}
    names: dict[int, str] = {}
    uuids: dict[int, str] = {}
    first_line: dict[int, int] = {}
    by_ident: dict[str, int] = {}
    turn = 0
    n_cards = cards or 1
    for ln_no in range(start, len(lines)):
        raw = lines[ln_no]
        line = ln_no + 1
        if not raw.strip():
            continue
        if has_header and raw.strip() == head.strip():
            continue  # the header again (a log appended to by a second run)
        if len(raw) > MAX_CELL * max(width, 1) * 2:
            raise TelemetryError(T("{path} line {line}: the line is too long for a log row", path=where, line=line))
        try:
            parts = _split(raw, sep)
        except csv.Error as e:
            raise TelemetryError(T("{path} line {line}: malformed CSV ({error})", path=where, line=line,
                                   error=str(e)[:80])) from None
        decimal_comma = False
        if len(parts) != width:
            if sep == "," and len(parts) > width and re.search(r"\d,\d", raw):
                raise TelemetryError(T("{path} line {line}: {n} columns where the header has {m}; a decimal comma? "
                                       "Record with LC_ALL=C, or separate the columns with ';'", path=where, line=line,
                                       n=len(parts), m=width))
            raise TelemetryError(T("{path} line {line}: {n} columns where the header has {m}", path=where, line=line,
                                   n=len(parts), m=width))
        if sep == ";" or "," in raw and '"' in raw:  # a comma inside a quoted cell: a decimal comma
            decimal_comma = True
        if len(raw) > MAX_CELL and any(len(p) > MAX_CELL for p in parts):
            raise TelemetryError(T("{path} line {line}: a cell longer than {n} characters", path=where, line=line,
                                   n=MAX_CELL))

        def num(key: str, what: str) -> Optional[float]:
            i = col.get(key)
            return None if i is None else _number(parts[i], what, where, line, decimal_comma)

        if "index" in col:
            idx_v = num("index", "index")
            if idx_v is None or idx_v != int(idx_v) or not 0 <= idx_v < MAX_CARDS:
                raise TelemetryError(T("{path} line {line}: card index {value!r} is not 0 to {n}", path=where,
                                       line=line, value=parts[col["index"]].strip()[:20], n=MAX_CARDS - 1))
            idx = int(idx_v)
        elif "bus" in col or "uuid" in col:  # no index: each bus id (or UUID) is one card, numbered as met
            ident = parts[col["bus"] if "bus" in col else col["uuid"]].strip()
            idx = by_ident.setdefault(ident, len(by_ident))
        else:
            idx = turn
            turn += 1
            if n_cards:
                turn %= n_cards
        if idx >= MAX_CARDS:
            raise TelemetryError(T("{path} line {line}: more than {n} cards", path=where, line=line, n=MAX_CARDS))
        power = num("power", "power.draw")
        reasons = _reasons(parts[col["reasons"]], where, line) if "reasons" in col else frozenset()
        if reason_cols:
            reasons = reasons | {r for r, i in reason_cols.items() if parts[i].strip().lower() == "active"}
        s = Sample(line, _time(parts[col["time"]], where, line) if "time" in col else None, power,
                   num("limit", "power.limit"), num("temp", "temperature.gpu"), num("fan", "fan.speed"),
                   num("util", "utilization.gpu"), num("sm", "clocks.sm"), frozenset(reasons))
        rows.setdefault(idx, []).append(s)
        first_line.setdefault(idx, line)
        if "name" in col:
            name = parts[col["name"]].strip()
            prev = names.get(idx)
            if prev is not None and prev != name:
                raise TelemetryError(T("{path} line {line}: card {index} is named {name!r} here and {prev!r} on line "
                                       "{first}: two machines' logs in one file?", path=where, line=line, index=idx,
                                       name=name[:60], prev=prev[:60], first=first_line[idx]))
            names[idx] = name
        if "uuid" in col:
            uuids[idx] = parts[col["uuid"]].strip()
    if not rows:
        raise TelemetryError(T("{path}: the log holds a header but no readings", path=where))
    if "index" not in col and "bus" not in col and "uuid" not in col:
        n = n_cards or 1
        if len(rows) > 1 or n > 1:
            notes.append(T("The log names no card index: its rows were taken in turn as {n} cards, as nvidia-smi "
                           "writes one row per card per poll", n=len(rows)))
    out = []
    for idx in sorted(rows):
        out.append(CardLog(idx, names.get(idx, ""), first_line[idx], tuple(rows[idx]), uuids.get(idx, "")))
    if all(s.power_w is None for c in out for s in c.samples):
        raise TelemetryError(T("{path}: no card reported its power draw (every reading is [N/A] or [Not Supported])",
                               path=where))
    fields = tuple(k for k in dict.fromkeys(keys) if k)
    return PowerLog(where, "nvidia-smi", tuple(out), fields, tuple(notes))


# --------------------------------------------------------------------------- DCGM exporter

def parse_dcgm(text: str, where: str) -> PowerLog:
    """A dcgm-exporter scrape (or several, one after the other): one sample per card per scrape."""
    series: dict[int, list[dict]] = {}
    names: dict[int, str] = {}
    uuids: dict[int, str] = {}
    first_line: dict[int, int] = {}
    seen_fields: set[str] = set()
    for ln_no, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        m = _PROM.match(s)
        if not m:
            raise TelemetryError(T("{path} line {line}: not a line of the Prometheus text format", path=where, line=ln_no))
        metric, labels, value, stamp = m.groups()
        key = DCGM_FIELDS.get(metric)
        if key is None:
            continue
        lab = dict(_LABEL.findall(labels or ""))
        try:
            idx = int(lab.get("gpu", ""))
        except ValueError:
            raise TelemetryError(T("{path} line {line}: {metric} without a gpu=\"N\" label", path=where, line=ln_no,
                                   metric=metric)) from None
        if not 0 <= idx < MAX_CARDS:
            raise TelemetryError(T("{path} line {line}: card index {value!r} is not 0 to {n}", path=where, line=ln_no,
                                   value=str(idx), n=MAX_CARDS - 1))
        if key == "reasons":
            v: object = _reasons(value, where, ln_no)
        elif re.fullmatch(r"9\d{18}", value):
            v = None  # DCGM's "blank" sentinels (9223372036854775794 ...): no reading
        else:
            v = _number(value, metric, where, ln_no, False)
        rows = series.setdefault(idx, [])
        t = int(stamp) / 1000 if stamp else None
        if not rows or key in rows[-1] or (t is not None and rows[-1].get("time") not in (None, t)):
            rows.append({"line": ln_no, "time": t})  # a new scrape
        rows[-1][key] = v
        seen_fields.add(key)
        first_line.setdefault(idx, ln_no)
        if lab.get("modelName"):
            names[idx] = lab["modelName"][:MAX_CELL]
        if lab.get("UUID"):
            uuids[idx] = lab["UUID"][:MAX_CELL]
    if not series or "power" not in seen_fields | {"power" if "power_instant" in seen_fields else ""}:
        raise TelemetryError(T("{path}: no DCGM_FI_DEV_POWER_USAGE readings", path=where))
    cards = []
    for idx in sorted(series):
        samples = tuple(Sample(r["line"], r.get("time"), r.get("power", r.get("power_instant")),
                               r.get("limit", r.get("enforced_limit")), r.get("temp"), r.get("fan"), r.get("util"),
                               r.get("sm"), r.get("reasons", frozenset())) for r in series[idx])
        cards.append(CardLog(idx, names.get(idx, ""), first_line[idx], samples, uuids.get(idx, "")))
    return PowerLog(where, "dcgm", tuple(cards), tuple(sorted(seen_fields)))


# --------------------------------------------------------------------------- the door

def decode(data: bytes, where: str) -> str:
    if b"\x00" in data[:65536]:
        raise TelemetryError(T("{path}: a binary file, not a text log", path=where))
    for enc in ("utf-8-sig", "utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig",):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        line = body[:e.start].count(b"\n") + 1
        raise TelemetryError(T("{path} line {line}: not UTF-8 text (byte {byte})", path=where, line=line,
                               byte=e.start)) from None


def parse_log(data: bytes, where: str, cards: Optional[int] = None) -> PowerLog:
    """The log in ``data`` (its kind told by its content); ``cards``: how many cards a log without
    an index column holds (default: as many as the rows cycle through, which a log cannot tell: 1)."""
    if len(data) > MAX_LOG_BYTES:
        raise TelemetryError(T("{path}: larger than {n} MB; cut the log to the stretch you want compared",
                               path=where, n=MAX_LOG_BYTES // (1024 * 1024)))
    text = decode(data, where)
    head = text.lstrip()[:4096]
    if head.startswith("# HELP") or head.startswith("# TYPE") or head.startswith("DCGM_FI_"):
        return parse_dcgm(text, where)
    return parse_nvidia_smi(text, where, cards)


def read_log(path: Path, cards: Optional[int] = None) -> PowerLog:
    from rigbuilder.domain.safeio import UnreadableFile, read_limited

    where = Path(path).name
    try:
        data = read_limited(Path(path), MAX_LOG_BYTES)
    except UnreadableFile as e:
        raise TelemetryError(T("{path}: {error}", path=str(path), error=e.args[0] if e.args else str(e))) from None
    return parse_log(data, where, cards)


def write_csv_header() -> str:
    """The header line of rigbuilder's own log (nvidia-smi's spelling, with units)."""
    units = {"power.draw": " [W]", "power.limit": " [W]", "fan.speed": " [%]", "utilization.gpu": " [%]",
             "clocks.sm": " [MHz]"}
    return ", ".join(f + units.get(f, "") for f in LIVE_FIELDS)


def csv_row(time: _dt.datetime, index: int, name: str, power_w: Optional[float], limit_w: Optional[float],
            temp_c: Optional[float], fan_pct: Optional[float], util_pct: Optional[float], sm_mhz: Optional[float],
            reasons: Optional[int]) -> str:
    """One row as nvidia-smi writes it with --format=csv (so the one parser reads both)."""
    na = "[N/A]"
    f = lambda v, unit, d=2: na if v is None else f"{v:.{d}f}{unit}"  # noqa: E731
    return ", ".join([
        time.strftime("%Y/%m/%d %H:%M:%S.") + f"{time.microsecond // 1000:03d}", str(index),
        re.sub(r"[,\r\n\"]", " ", name)[:MAX_CELL],  # nvidia-smi quotes nothing: a comma would split the row
        f(power_w, " W"), f(limit_w, " W"), f(temp_c, "", 0), f(fan_pct, " %", 0), f(util_pct, " %", 0),
        f(sm_mhz, " MHz", 0), na if reasons is None else f"0x{reasons:016x}"])
