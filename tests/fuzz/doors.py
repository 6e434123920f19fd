"""The doors hostile input comes in by, each run the way a person runs it (the command line, in this
process), and the inputs that fuzz them: build files, parts lists, price files, exchange-rate files,
cluster files, the lab's arguments (a SQLite lab database: no server) and ``price set``'s.

A door ends in one of two outcomes: "ok" (an answer; any JSON it printed is standard JSON, without
NaN or Infinity) or "refused" (exit 2 with a message on stderr). Anything else raises ``Crash``
with the traceback: an exception out of the command, a traceback printed, JSON that is not JSON.

Used by the property tests (tests/fuzz/test_doors_properties.py: a few hundred examples drawn by
hypothesis, the same every run) and by the long campaign (benchmarks/fuzz.py --minutes N).
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

FE = "gpu-nvidia-rtx-3090-fe"
QUADRO = "gpu-nvidia-quadro-rtx-5000"
CONNECTX3 = "nic-mellanox-connectx-3-mcx314a-bcct"

NASTY = [None, True, 0, -1, 1e308, -1e308, 1e-320, 10 ** 400, "1e309", "inf", "-inf", "NaN", "nan", "", " ",
         "\x1b[2J", "a\nTotal 0", "\x00", "=cmd()", "x" * 3000, [], {}, [[[[[]]]]], {"a": None}, FE, 7, 67, 100.5,
         "2024-02-30", "2999-12-31", "0000-00-00", "2026-13", "1899-12-31", "XYZ", "usd", "EURO", "€", "\u202e",
         "日本語", "😀", "PCIE5x999", "PCIE5x0", "-0", "0x10", "1_000", "١٢٣"]
"""Values that broke a door once, or could: out of range, not finite, not a date, not text."""


class Crash(Exception):
    """A door that ended in neither an answer nor a message; the argument says how."""


@dataclass
class Outcome:
    rc: int
    out: str
    err: str


def _strict_json(text: str) -> None:
    def refuse(constant):
        raise Crash(f"{constant} in JSON output")

    try:
        json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as e:
        raise Crash(f"not JSON ({e}): {text[:200]!r}") from None


def cli(*args: str, json_out: bool = False) -> str:
    """Run the command line in this process: "ok" or "refused"; Crash otherwise."""
    from rigbuilder.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main([str(a) for a in args])
    except SystemExit as e:  # argparse's own refusal (exit 2 and its usage line)
        rc = e.code if isinstance(e.code, int) else 2
    except (Exception, RecursionError) as e:  # noqa: BLE001: exactly what the door must never let out
        raise Crash(f"{type(e).__name__} from {' '.join(map(str, args))[:200]}:\n{traceback.format_exc()[-3000:]}") \
            from None
    o, e = out.getvalue(), err.getvalue()
    if "Traceback (most recent call last)" in o + e:
        raise Crash(f"a traceback printed by {args[:3]}: {(o + e)[-2000:]}")
    if rc == 2:
        if not e.strip():
            raise Crash(f"exit 2 without a message: {args[:3]}")
        return "refused"
    if rc not in (0, 1):
        raise Crash(f"exit {rc} from {args[:3]}: {e[-500:]}")
    if json_out:
        _strict_json(o)
    return "ok"


# --------------------------------------------------------------------------- mutation (shared with the long run)

def mutate_obj(rng: random.Random, obj, depth: int = 0, nasty=None,
               keys=("extra", "gpus", "settings", "nics", "prices")):
    """One structural change somewhere in a JSON value: replace, delete, or insert a nasty value
    (one of ``nasty``, :data:`NASTY` by default; an inserted key is one of ``keys`` or a near-miss of one)."""
    nasty = NASTY if nasty is None else nasty
    if isinstance(obj, dict) and obj and depth < 6 and rng.random() < 0.7:
        k = rng.choice(list(obj))
        r = rng.random()
        if r < 0.15:
            del obj[k]
        elif r < 0.25:
            obj[rng.choice([keys[0], k + "x", *keys[1:]])] = rng.choice(nasty)
        elif r < 0.6:
            obj[k] = mutate_obj(rng, obj[k], depth + 1, nasty, keys)
        else:
            obj[k] = rng.choice(nasty)
        return obj
    if isinstance(obj, list) and obj and depth < 6 and rng.random() < 0.7:
        i = rng.randrange(len(obj))
        r = rng.random()
        if r < 0.2:
            obj.append(obj[i] if rng.random() < 0.5 else rng.choice(nasty))
        elif r < 0.3:
            del obj[i]
        else:
            obj[i] = mutate_obj(rng, obj[i], depth + 1, nasty, keys)
        return obj
    return rng.choice(nasty)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """Byte-level damage: flip, cut, splice in something nasty, truncate."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not b:
            break
        i = rng.randrange(len(b))
        r = rng.random()
        if r < 0.3:
            b[i] = rng.randrange(256)
        elif r < 0.5:
            del b[i:i + rng.randint(1, 40)]
        elif r < 0.75:
            b[i:i] = rng.choice([b"\r", b"\x00", b'"', b",", b"\n=", b"\xff", b"[" * 3000, b"9" * 5000, b"1e309",
                                 b"NaN", b"-Infinity", b"2024-02-30", b"\xe2\x80\xae", b"{" * 200])
        else:
            b = b[:i]
    return bytes(b)


def dump(value) -> bytes:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError, TypeError):
        return b"[]"


def damaged(rng: random.Random, seed: bytes, structured: bool = True) -> bytes:
    """A seed file, changed in its structure (JSON) or its bytes."""
    if structured and rng.random() < 0.75:
        try:
            return dump(mutate_obj(rng, json.loads(seed)))
        except ValueError:
            pass
    return mutate_bytes(rng, seed)


# --------------------------------------------------------------------------- the seeds

@dataclass
class Seeds:
    """Good files of each kind (in ``folder``), the starting points of every mutation."""

    folder: Path
    builds: list = field(default_factory=list)
    lists: list = field(default_factory=list)
    prices: list = field(default_factory=list)
    rates: list = field(default_factory=list)
    clusters: list = field(default_factory=list)


def make_seeds(folder: Path) -> Seeds:
    from rigbuilder.catalog.prices import ecb_rates, rates_to_dict
    from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
    from rigbuilder.files import buildfile, clusterfile
    from tests.builds import frank_2070, seed003_node, x99_4x3090

    folder.mkdir(parents=True, exist_ok=True)
    node = seed003_node(QUADRO, 4)
    buildfile.save(node, folder / "node.rig")
    s = Seeds(folder)
    s.builds = [buildfile.dumps(b).encode("utf-8") for b in (frank_2070(4), x99_4x3090(), node)]
    data = Path(__file__).resolve().parents[1] / "files" / "data"
    s.lists = [p.read_bytes() for p in sorted((data / "pcpp").glob("*")) if p.suffix in (".txt", ".md")
               and p.name != "README.md"][:6]
    s.prices = [p.read_bytes() for p in sorted((data / "prices").glob("*")) if p.suffix in (".csv", ".json")]
    s.prices.append(dump([{"part": FE, "amount": 700, "currency": "USD", "condition": "used", "date": "2026-10",
                           "source": "eBay"}, {"part": "RTX 3090 Founders Edition", "amount": "1,200.50",
                                               "currency": "eur", "date": "2026-11-02"}]))
    ecb = ecb_rates()
    s.rates = [dump(rates_to_dict(ecb)), dump(rates_to_dict(ecb.with_rate("USD", 0.9, today="2026-11-01")))]
    plans = [ClusterPlan("two", (Machine("node", "node.rig", 2, (NicPlacement(CONNECTX3, "PCIE5"),)),),
                         Network("switch", "roce", switch_price=300.0, cables_price=40.0), circuits=2),
             ClusterPlan("bare", (Machine("node", "node.rig", 3, ()),), Network("direct", "ethernet"))]
    s.clusters = [clusterfile.dumps(p).encode("utf-8") for p in plans]
    return s


# --------------------------------------------------------------------------- the doors

def build_file(data: bytes, tmp: Path) -> str:
    p = tmp / "fuzz.rig"
    p.write_bytes(data)
    outcomes = {cli("check", p, "--json", json_out=True), cli("cost", p, "--json", json_out=True)}
    return "ok" if "ok" in outcomes else "refused"


def list_import(data: bytes, tmp: Path) -> str:
    p = tmp / "fuzz-list.txt"
    p.write_bytes(data)
    return cli("import-list", p, "--json", json_out=True)


def price_file(data: bytes, tmp: Path) -> str:
    p = tmp / ("fuzz-prices.json" if data.lstrip()[:1] in (b"[", b"{") else "fuzz-prices.csv")
    p.write_bytes(data)
    return cli("price", "import", p, "--dry-run", "--json", json_out=True)


def rates_file(data: bytes, tmp: Path) -> str:
    """A user's exchange-rates file: read as the program reads it; a bad one is one clear error."""
    from rigbuilder.catalog.prices import MoneyFileError, load_rates, merge_rates
    from rigbuilder.catalog.prices import ecb_rates
    from rigbuilder.domain.money import MoneyError

    p = tmp / "fuzz-rates.json"
    p.write_bytes(data)
    try:
        rates = merge_rates(ecb_rates(), load_rates(p))
    except (MoneyFileError, MoneyError):
        return "refused"
    except (Exception, RecursionError) as e:  # noqa: BLE001
        raise Crash(f"{type(e).__name__} reading a rates file:\n{traceback.format_exc()[-3000:]}") from None
    for c in rates.currencies():  # every rate it took converts to a finite, positive figure
        r = rates.rate(c, rates.base)
        if not (r > 0 and r < float("inf")):
            raise Crash(f"a rate of {r!r} for {c} was taken")
    return "ok"


def cluster_file(data: bytes, tmp: Path) -> str:
    p = tmp / "fuzz.rigcluster"
    p.write_bytes(data)
    outcomes = {cli("cluster", "check", p, "--json", json_out=True), cli("cluster", "plan", p, "--json",
                                                                          json_out=True)}
    return "ok" if "ok" in outcomes else "refused"


def price_set(args: tuple[str, str, str, str], tmp: Path) -> str:
    part, amount, currency, date = args
    return cli("price", "set", part, amount, currency, "--date", date)


def lab_args(args: tuple[str, str, str, str], tmp: Path) -> str:
    """``lab price --set`` and ``lab stock --add`` on a SQLite lab database (no server needed)."""
    part, amount, currency, place = args
    db = tmp / "fuzz-lab.sqlite"
    a = cli("lab", "price", "--db", db, "--set", part, amount, currency, "--json", json_out=True)
    b = cli("lab", "stock", "--db", db, "--add", part, amount, "--place", place, "--json", json_out=True)
    return "ok" if "ok" in (a, b) else "refused"


def text_arg(rng: random.Random, good: list[str]) -> str:
    """An argument: a good one, a nasty value as text, or a good one damaged."""
    r = rng.random()
    if r < 0.4:
        return rng.choice(good)
    if r < 0.8:
        v = rng.choice(NASTY)
        return v if isinstance(v, str) else json.dumps(v) if not isinstance(v, int) or abs(v) < 10 ** 30 else str(v)
    s = rng.choice(good)
    out = mutate_bytes(rng, s.encode("utf-8")).decode("utf-8", "replace")
    return out.replace("\x00", "")  # the operating system passes no NUL in an argument


AMOUNTS = ["700", "0", "1,200.50", "45.5", "999999999"]
CURRENCIES = ["USD", "eur", " JPY ", "GBP"]
DATES = ["2026-11-02", "2026-10", "", "2024-02-29"]
PARTS = [FE, QUADRO, CONNECTX3, "gpu-nope"]
PLACES = ["rack 1", "", "shelf B"]


def arguments(rng: random.Random, kind: str) -> tuple[str, str, str, str]:
    last = DATES if kind == "price_set" else PLACES
    return (text_arg(rng, PARTS), text_arg(rng, AMOUNTS), text_arg(rng, CURRENCIES), text_arg(rng, last))


@dataclass(frozen=True)
class Campaign:
    name: str
    door: Callable
    draw: Callable  # (rng, seeds) -> the input
    examples: int = 8  # examples in the suite's property test (the long run draws as many as time allows)


CAMPAIGNS = (
    Campaign("build files", build_file, lambda rng, s: damaged(rng, rng.choice(s.builds))),
    Campaign("list imports", list_import, lambda rng, s: damaged(rng, rng.choice(s.lists), structured=False), 4),
    Campaign("price files", price_file, lambda rng, s: damaged(rng, rng.choice(s.prices))),
    Campaign("exchange rates", rates_file, lambda rng, s: damaged(rng, rng.choice(s.rates)), 60),
    Campaign("cluster files", cluster_file, lambda rng, s: damaged(rng, rng.choice(s.clusters))),
    Campaign("price set", price_set, lambda rng, s: arguments(rng, "price_set")),
    Campaign("lab arguments", lab_args, lambda rng, s: arguments(rng, "lab")),
)
