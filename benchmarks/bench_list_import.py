"""Importing a PCPartPicker list against the catalog (issue 16: the catalog may grow to about
11,000 parts), at the shipped size and at 11,000 parts (the shipped parts plus copies of some of
them with new ids and names; timing only). For each size:
- keys: the matcher's one-off work per catalog (a match key per part name, built on first use),
  and the same with the keys kept from an earlier run (``rigbuilder.catalog.matchcache``); the
  match table ``import-list`` keeps per catalog: made, its size, read back;
- match: every line of each test list matched (rapidfuzz process.extract per line and kind), by
  a matcher of the catalog and by one of the table;
- import: parse, match and build a whole list (the 4-GPU Threadripper list).

``--paired OTHER_CHECKOUT``: instead, ``rigbuilder import-list`` of the 20-line list of
``bench_start.py`` against ``rigbuilder check``, launch to exit, in this checkout and in another
(an earlier commit, say), paired: each round runs the other's import-list, this one's check, this
one's import-list, the other's check; wall and CPU time; min-median-max of the ratios. Both
checkouts get compiled byte code first (``compileall``, as an install has it) and a warm cache
folder of their own.

Run: .venv/bin/python benchmarks/bench_list_import.py [--parts 11000 ...] [--paired DIR [--rounds 10]]
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import median_p95  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "files" / "data" / "pcpp"
KINDS = ("cpu", "cooler", "motherboard", "memory", "storage", "gpu", "case", "psu", "nic")


def grown(shipped: list, size: int) -> list:
    """The shipped parts and copies of them (new ids and names) up to ``size`` parts."""
    out = list(shipped)
    i = 0
    while len(out) < size:
        p = shipped[i % len(shipped)]
        out.append(dataclasses.replace(p, id=f"{p.id}-c{i}", model=f"{p.model} C{i}"))
        i += 1
    return out


def bench(parts: list, texts: list) -> None:
    import marshal

    from rigbuilder.catalog.match import Matcher, MatchTable
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.files.listimport import choices, new_build, plan
    from rigbuilder.files.pcpp import parse

    index = PartIndex(parts)
    print(f"\ncatalog: {len(index):,} parts; {len(texts)} lists, {sum(len(parse(t).lines) for t in texts)} part lines")
    m = Matcher(index, {})  # keys of its own: the process-wide ones would hide the first run's work
    t = time.perf_counter()
    for kind in KINDS:
        m._choices(kind)
    print(f"  keys (once per catalog): {1000 * (time.perf_counter() - t):.0f} ms", end="")
    kept = Matcher(index, dict(m.name_keys))
    t = time.perf_counter()
    for kind in KINDS:
        kept._choices(kind)
    print(f"; with the keys kept from an earlier run: {1000 * (time.perf_counter() - t):.0f} ms")
    t = time.perf_counter()
    table = MatchTable.of_parts(parts, dict(m.name_keys))
    made = 1000 * (time.perf_counter() - t)
    blob = marshal.dumps(table.packed)
    t = time.perf_counter()
    table = MatchTable(marshal.loads(blob))
    print(f"  match table (once per catalog, the keys kept): {made:.0f} ms; {len(blob) / 1e6:.1f} MB, "
          f"read back in {1000 * (time.perf_counter() - t):.1f} ms")
    for label, matcher in (("", m), (" against the table", Matcher(index, {}, table))):
        per_line = []
        for text in texts:
            for ln in parse(text).lines:
                matcher._matches.clear()  # each line matched anew (a matcher answers a repeated line once)
                t = time.perf_counter()
                matcher.match(ln.category, ln.name)
                per_line.append(1000 * (time.perf_counter() - t))
        med, p95 = median_p95(per_line)
        print(f"  match one line{label}: median {med:.1f} ms, p95 {p95:.1f} ms, max {max(per_line):.1f} ms")
    whole = []
    big = (DATA / "us-threadripper-4x3090.txt").read_bytes()
    for _ in range(5):
        fresh = Matcher(index, dict(m.name_keys))  # its keys ready, no line matched yet
        for kind in KINDS:
            fresh._choices(kind)
        t = time.perf_counter()
        p = plan(parse(big), fresh)
        new_build(p, choices(p, index), index)
        whole.append(1000 * (time.perf_counter() - t))
    med, p95 = median_p95(whole)
    print(f"  whole import (14 lines, 4 GPUs): median {med:.0f} ms, p95 {p95:.0f} ms")


def paired(other: Path, rounds: int) -> None:
    import os
    import resource
    import statistics
    import subprocess
    import tempfile

    from benchmarks.bench_start import twenty_line_list
    from rigbuilder.files.buildfile import save
    from tests.builds import x99_4x3090

    here = Path(__file__).resolve().parent.parent
    trees = {"other": other.resolve(), "this": here}
    tmp = Path(tempfile.mkdtemp(prefix="bench-list-import-"))
    rig = tmp / "b.rig"
    save(x99_4x3090(280), rig)
    commands = {"import-list": ["import-list", str(twenty_line_list(tmp))], "check": ["check", str(rig)]}
    wall: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], list[float]] = {}

    def env(tree: str) -> dict:
        e = dict(os.environ, PYTHONPATH=str(trees[tree]), RIGBUILDER_DATA_DIR=str(tmp / f"data-{tree}"),
                 RIGBUILDER_CACHE_DIR=str(tmp / f"cache-{tree}"))
        e.pop("PYTHONDONTWRITEBYTECODE", None)
        return e

    def run(tree: str, what: str) -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "rigbuilder", *commands[what]], cwd=trees[tree], env=env(tree),
                           capture_output=True)
        wall.setdefault((tree, what), []).append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.setdefault((tree, what), []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if r.returncode not in (0, 1):  # 1: lines left for a choice, or a build with error findings
            raise SystemExit(f"{tree} {what} failed ({r.returncode}): {r.stderr[-2000:]!r}")

    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", "rigbuilder"], cwd=trees[tree], env=env(tree),
                       check=True)
        for what in ("import-list", "import-list", "check"):  # the caches made, the files read once
            run(tree, what)
    wall.clear()
    cpu.clear()
    print(f"{rounds} paired rounds; load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for _ in range(rounds):
        for tree, what in (("other", "import-list"), ("this", "check"), ("this", "import-list"), ("other", "check")):
            run(tree, what)

    def spread(xs: list[float]) -> str:
        return "-".join(f"{v:.2f}" for v in (min(xs), statistics.median(xs), max(xs)))

    def ratios(times: dict, a: tuple[str, str], b: tuple[str, str]) -> list[float]:
        return [x / y for x, y in zip(times[a], times[b])]

    for name, times in (("wall", wall), ("CPU", cpu)):
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{name}: import-list / check: {trees['other'].name} "
              f"{spread(ratios(times, ('other', 'import-list'), ('other', 'check')))}x, this "
              f"{spread(ratios(times, ('this', 'import-list'), ('this', 'check')))}x; this / other import-list "
              f"{spread(ratios(times, ('this', 'import-list'), ('other', 'import-list')))}x; median import-list "
              f"{med[('other', 'import-list')]:.3f} s / {med[('this', 'import-list')]:.3f} s, check "
              f"{med[('other', 'check')]:.3f} s / {med[('this', 'check')]:.3f} s (other / this)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", type=int, nargs="*", default=[11000], help="catalog sizes beside the shipped one")
    ap.add_argument("--paired", type=Path, metavar="DIR", help="another checkout: import-list / check paired with it")
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()
    if args.paired:
        paired(args.paired, args.rounds)
        return
    from rigbuilder.catalog.loader import load_shipped

    shipped, _ = load_shipped()
    lists = [p for p in sorted(DATA.glob("*.txt")) + sorted(DATA.glob("*.md")) if p.name != "README.md"]
    texts = [p.read_bytes() for p in lists]
    bench(shipped, texts)
    for size in args.parts:
        bench(grown(shipped, size), texts)


if __name__ == "__main__":
    main()
