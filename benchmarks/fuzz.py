"""The long fuzz campaign: every door hostile input comes in by (build files, parts lists, price
files, exchange-rate files, cluster files, the arguments of ``price set`` and of ``lab price`` /
``lab stock`` on a SQLite lab database), fed damaged inputs for as long as asked, round robin.

    python benchmarks/fuzz.py --minutes 20 [--seed 1] [--timeout 30] [--only "price files"] [--json]

Each input ends in "ok" (an answer; any JSON it printed is standard JSON, without NaN or Infinity),
"refused" (exit 2 with a message), a crash (an exception out of the command, a traceback printed,
output that is not JSON) or a hang (over --timeout seconds of CPU, or ten times that on the
clock). Prints one line per door with its counts, then the first crash of each door; every crash's
input is saved under --keep (default a temporary folder) to replay with its door. Exit 1 when any
crash or hang was found.

The doors and the mutations are the suite's (tests/fuzz/doors.py); the suite runs a few examples of
each as property tests (tests/fuzz/test_doors_properties.py). The same --seed draws the same inputs.
Runs in its own data and cache folders (temporary), never the user's.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class Hang(BaseException):
    """Raised by the timer inside a door: a BaseException, so no ``except Exception`` in the code
    under test (or the door's own crash net) can take it for the door's own failure."""


def _alarm(*_):
    raise Hang()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="how long to run (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="CPU seconds one input may take (default 30; ten times as long on the clock, for a door "
                         "that waits): a hang, whatever else the machine is doing")
    ap.add_argument("--only", action="append", default=[], help="run only this door (repeatable)")
    ap.add_argument("--keep", help="save each crash's input in this folder")
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="rigbuilder-fuzz-"))
    os.environ["RIGBUILDER_DATA_DIR"] = str(work / "data")
    os.environ["RIGBUILDER_CACHE_DIR"] = str(work / "cache")
    os.environ.pop("RIGBUILDER_LAB_DB", None)
    import pytest

    from tests import readonce
    from tests.fuzz import doors

    mp = pytest.MonkeyPatch()
    readonce.install(mp)  # the catalog's snapshots unpickled once per process, as the suite does
    keep = Path(args.keep) if args.keep else work / "crashes"
    keep.mkdir(parents=True, exist_ok=True)
    seeds = doors.make_seeds(work / "seeds")
    campaigns = [c for c in doors.CAMPAIGNS if not args.only or c.name in args.only]
    if not campaigns:
        ap.error(f"--only: the doors are {', '.join(c.name for c in doors.CAMPAIGNS)}")
    counts = {c.name: {"tried": 0, "ok": 0, "refused": 0, "crashes": 0, "hangs": 0, "seconds": 0.0}
              for c in campaigns}
    first: dict[str, str] = {}
    for c in campaigns:  # once each on a good input, untimed: every import and cache is made before the clock runs
        c.door(c.draw(random.Random(0), seeds) if c.name in ("price set", "lab arguments") else
               _seed_of(c.name, seeds), seeds.folder)
    rng = random.Random(args.seed)
    end = time.monotonic() + args.minutes * 60
    old = signal.signal(signal.SIGALRM, _alarm), signal.signal(signal.SIGPROF, _alarm)
    i = 0
    try:
        while time.monotonic() < end:
            c = campaigns[i % len(campaigns)]
            i += 1
            x = c.draw(rng, seeds)
            n = counts[c.name]
            n["tried"] += 1
            t0 = time.monotonic()
            signal.setitimer(signal.ITIMER_PROF, args.timeout)  # CPU time: a busy machine is no hang
            signal.setitimer(signal.ITIMER_REAL, args.timeout * 10)
            try:
                n[c.door(x, seeds.folder)] += 1
            except doors.Crash as e:
                n["crashes"] += 1
                first.setdefault(c.name, str(e))
                _save(keep, c.name, n["tried"], x)
            except Hang:
                n["hangs"] += 1
                first.setdefault(c.name, f"a hang: over {args.timeout:g} s of CPU or {args.timeout * 10:g} s in all")
                _save(keep, c.name, n["tried"], x)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.setitimer(signal.ITIMER_PROF, 0)
                n["seconds"] += time.monotonic() - t0
    finally:
        signal.signal(signal.SIGALRM, old[0])
        signal.signal(signal.SIGPROF, old[1])
        mp.undo()
    total = {k: sum(n[k] for n in counts.values()) for k in ("tried", "ok", "refused", "crashes", "hangs")}
    if args.json:
        print(json.dumps({"minutes": args.minutes, "seed": args.seed, "doors": counts, "total": total}, indent=2))
    else:
        print(f"{'door':<16}{'tried':>8}{'ok':>8}{'refused':>9}{'crashes':>9}{'hangs':>7}{'s/input':>9}")
        for name, n in counts.items():
            per = n["seconds"] / n["tried"] if n["tried"] else 0.0
            print(f"{name:<16}{n['tried']:>8}{n['ok']:>8}{n['refused']:>9}{n['crashes']:>9}{n['hangs']:>7}"
                  f"{per:>9.2f}")
        print(f"{'total':<16}{total['tried']:>8}{total['ok']:>8}{total['refused']:>9}{total['crashes']:>9}"
              f"{total['hangs']:>7}   ({args.minutes:g} min, seed {args.seed})")
        for name, why in first.items():
            print(f"\nfirst crash of {name} (inputs kept in {keep}):\n{why[:3000]}")
    return 1 if total["crashes"] or total["hangs"] else 0


def _seed_of(name: str, seeds):
    return {"build files": seeds.builds, "list imports": seeds.lists, "price files": seeds.prices,
            "exchange rates": seeds.rates, "cluster files": seeds.clusters}[name][0]


def _save(folder: Path, door: str, n: int, x) -> None:
    name = f"{door.replace(' ', '-')}-{n}"
    if isinstance(x, bytes):
        (folder / f"{name}.bin").write_bytes(x)
    else:
        (folder / f"{name}.json").write_text(json.dumps(list(x), ensure_ascii=True))


if __name__ == "__main__":
    sys.exit(main())
