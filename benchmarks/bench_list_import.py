"""Importing a PCPartPicker list against the catalog (issue 16: the catalog may grow to about
11,000 parts), at the shipped size and at 11,000 parts (the shipped parts plus copies of some of
them with new ids and names; timing only). For each size:
- keys: the matcher's one-off work per catalog (a match key per part name, built on first use),
  and the same with the keys kept from an earlier run (``rigbuilder.catalog.matchcache``);
- match: every line of each test list matched (rapidfuzz process.extract per line and kind);
- import: parse, match and build a whole list (the 4-GPU Threadripper list).

Run: .venv/bin/python benchmarks/bench_list_import.py [--parts 11000 ...]
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
    from rigbuilder.catalog.match import Matcher
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
    per_line = []
    for text in texts:
        for ln in parse(text).lines:
            t = time.perf_counter()
            m.match(ln.category, ln.name)
            per_line.append(1000 * (time.perf_counter() - t))
    med, p95 = median_p95(per_line)
    print(f"  match one line: median {med:.1f} ms, p95 {p95:.1f} ms, max {max(per_line):.1f} ms")
    whole = []
    big = (DATA / "us-threadripper-4x3090.txt").read_bytes()
    for _ in range(5):
        t = time.perf_counter()
        p = plan(parse(big), m)
        new_build(p, choices(p, index), index)
        whole.append(1000 * (time.perf_counter() - t))
    med, p95 = median_p95(whole)
    print(f"  whole import (14 lines, 4 GPUs): median {med:.0f} ms, p95 {p95:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", type=int, nargs="*", default=[11000], help="catalog sizes beside the shipped one")
    args = ap.parse_args()
    from rigbuilder.catalog.loader import load_shipped

    shipped, _ = load_shipped()
    lists = [p for p in sorted(DATA.glob("*.txt")) + sorted(DATA.glob("*.md")) if p.name != "README.md"]
    texts = [p.read_bytes() for p in lists]
    bench(shipped, texts)
    for size in args.parts:
        bench(grown(shipped, size), texts)


if __name__ == "__main__":
    main()
