"""Fuzz the doors files come in by: mutate real build files and part imports, then check that each
input ends in a result or one clean error, and that what loads also survives every output and a
save (or export) and re-open (or re-import) unchanged.

    python -m tests.fuzz.fuzz_files --builds 10000 --imports 10000 [--seed 1]

Prints inputs tried, crashes (any exception other than the file's own error), hangs (over
``--timeout`` seconds for one input) and failed round trips, with the first few examples.
A short run is part of the test suite (tests/fuzz/test_fuzz_short.py).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import random
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from rigbuilder.catalog.loader import load_shipped
from rigbuilder.catalog.prices import load_observations, load_rates
from rigbuilder.catalog.schema import part_to_dict
from rigbuilder.catalog.userparts import ImportError_, export_csv, export_json, parse_parts
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import PriceBook
from rigbuilder.files import buildfile, report
from rigbuilder.files.buildfile import BuildFileError
from rigbuilder.models import cost as cost_model
from rigbuilder.rules.arrange import arrange
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks
from tests.fuzz.doors import mutate_obj

NASTY = [None, True, 0, -1, 1e308, float("inf"), 10 ** 5000, "", " ", "\ud800", "\x1b[2J", "a\nTotal 0",
         "\x00", "=cmd()", "x" * 30000, [], {}, [[[[[]]]]], {"a": None}, "gpu-nvidia-rtx-3090-fe", 7, 21, 57,
         "riser", "slot", 0.5, "\r", "\u202e", "日本語", "😀"]


class Hang(Exception):
    pass


@dataclass
class Tally:
    tried: int = 0
    ok: int = 0
    refused: int = 0
    crashes: list = field(default_factory=list)
    hangs: list = field(default_factory=list)
    round_trips: list = field(default_factory=list)

    def line(self, what: str) -> str:
        return (f"{what}: {self.tried} inputs, {self.ok} loaded, {self.refused} refused with a message, "
                f"{len(self.crashes)} crashes, {len(self.hangs)} hangs, {len(self.round_trips)} failed round trips")


def _mutate_obj(rng: random.Random, obj, depth: int = 0):
    """One structural change somewhere in a JSON value (``tests.fuzz.doors.mutate_obj``) with this
    campaign's nasty values and keys."""
    return mutate_obj(rng, obj, depth, NASTY, ("extra", "gpus", "settings"))


def _mutate_text(rng: random.Random, text: str) -> str:
    """Byte-level damage: cut, duplicate, flip or splice."""
    b = bytearray(text.encode("utf-8"))
    for _ in range(rng.randint(1, 4)):
        if not b:
            break
        i = rng.randrange(len(b))
        r = rng.random()
        if r < 0.3:
            b[i] = rng.randrange(256)
        elif r < 0.5:
            del b[i:i + rng.randint(1, 40)]
        elif r < 0.7:
            b[i:i] = rng.choice([b"\r", b"\x00", b'"', b",", b"\n=", b"\xff", b"[" * 50, b"9" * 5000])
        else:
            b = b[:i]
    return b.decode("utf-8", errors="surrogateescape")


def _dump(value) -> str:
    try:
        return json.dumps(value, ensure_ascii=True, allow_nan=True)
    except (ValueError, RecursionError):
        return "[]"


def _run(fn, timeout: float):
    def alarm(*_):
        raise Hang()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _build_inputs(rng: random.Random, seeds: list[str]):
    base = rng.choice(seeds)
    if rng.random() < 0.75:
        return _dump(_mutate_obj(rng, json.loads(base)))
    return _mutate_text(rng, base)


def fuzz_builds(n: int, index: PartIndex, seed: int, timeout: float, tmp: Path) -> Tally:
    from tests.builds import frank_2070, x99_4x3090
    seeds = [buildfile.dumps(b) for b in (frank_2070(1), frank_2070(4), x99_4x3090(), x99_4x3090(None))]
    rng = random.Random(seed)
    t = Tally()
    path = tmp / "fuzz.rig"
    for k in range(n):
        text = _build_inputs(rng, seeds)
        t.tried += 1
        try:
            path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        except OSError:
            continue

        def one():
            try:
                b = buildfile.load(path)
            except BuildFileError:
                return "refused"
            run_checks(b, index)
            ctx = Context(b, index)
            cost_model.running_cost(ctx.power, b.settings)
            d = report.report_data(b, index, today="2026-11-24")
            for f in (report.to_markdown, report.to_csv, report.to_text, report.to_html):
                f(d).decode("utf-8")
            if len(b.gpus) <= 4:
                try:
                    arrange(b, index)
                except ValueError:  # its one refusal: no board (or an id that is not a board)
                    pass
            out = tmp / "again.rig"
            buildfile.save(b, out)
            if buildfile.load(out) != b:
                return "round trip"
            return "ok"

        try:
            res = _run(one, timeout)
        except Hang:
            t.hangs.append(text[:200])
            continue
        except Exception:  # noqa: BLE001 - that is what we are looking for
            t.crashes.append((text[:300], traceback.format_exc(limit=3)))
            continue
        if res == "refused":
            t.refused += 1
        elif res == "round trip":
            t.round_trips.append(text[:300])
        else:
            t.ok += 1
    return t


def fuzz_imports(n: int, index: PartIndex, seed: int, timeout: float, tmp: Path) -> Tally:
    rng = random.Random(seed)
    shipped = [p for p in index if p.origin == "shipped"]
    shipped_ids = [p.id for p in shipped]
    t = Tally()
    for k in range(n):
        sample = [p for p in rng.sample(shipped, 3)]
        rows = [{"kind": p.KIND, **part_to_dict(p), "id": p.id + "-mine"} for p in sample]
        as_csv = rng.random() < 0.5
        if as_csv:
            base = export_csv([dataclasses.replace(p, id=p.id + "-mine") for p in sample]).decode("utf-8")
            text = _mutate_text(rng, base)
        else:
            text = _dump(_mutate_obj(rng, rows)) if rng.random() < 0.75 else _mutate_text(rng, _dump(rows))
        path = tmp / ("fuzz.csv" if as_csv else "fuzz.json")
        path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        t.tried += 1

        def one():
            try:
                parts = parse_parts(path, shipped_ids)
            except ImportError_:
                return "refused"
            for exporter, name in ((export_csv, "again.csv"), (export_json, "again.json")):
                again = tmp / name
                again.write_bytes(exporter(parts))
                back = parse_parts(again, shipped_ids)
                if back != parts:
                    diffs = [(k, getattr(a, k), getattr(b, k)) for a, b in zip(parts, back)
                             for k in vars(a) if getattr(a, k) != getattr(b, k)]
                    return "round trip " + name + " " + repr(diffs[:2])[:300]
            return "ok"

        try:
            res = _run(one, timeout)
        except Hang:
            t.hangs.append(text[:200])
            continue
        except Exception:  # noqa: BLE001
            t.crashes.append((text[:300], traceback.format_exc(limit=3)))
            continue
        if res == "refused":
            t.refused += 1
        elif res.startswith("round trip"):
            t.round_trips.append(res)
        else:
            t.ok += 1
    return t


def shipped_index() -> PartIndex:
    parts, _ = load_shipped()
    return PartIndex(parts, version="fuzz", prices=PriceBook.of(load_observations(), load_rates()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builds", type=int, default=1000)
    ap.add_argument("--imports", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10.0)
    a = ap.parse_args(argv)
    index = shipped_index()
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for what, fn, n in (("build files", fuzz_builds, a.builds), ("imports", fuzz_imports, a.imports)):
            t0 = time.perf_counter()
            t = fn(n, index, a.seed, a.timeout, Path(d))
            print(t.line(what) + f" ({time.perf_counter() - t0:.0f} s)")
            for text, tb in t.crashes[:3]:
                print("  crash on", repr(text[:120]), "\n", tb)
            for text in t.hangs[:3] + t.round_trips[:3]:
                print("  ", repr(text[:160]))
            bad += len(t.crashes) + len(t.hangs) + len(t.round_trips)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
