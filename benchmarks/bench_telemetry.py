"""How long reading a large power log takes (issue 42): a constructed nvidia-smi log of 4 cards at
100 ms (rigbuilder's own writer; not a measurement), parsed and summarised per card.

    .venv/bin/python benchmarks/bench_telemetry.py [ROWS]
"""
from __future__ import annotations

import datetime as _dt
import sys
import time

from rigbuilder.files import telemetry as tm
from rigbuilder.files.measured import summarise


def make(rows: int) -> bytes:
    t0 = _dt.datetime(2026, 11, 20)
    out = [tm.write_csv_header()]
    for k in range(rows // 4):
        busy = k % 600 > 300
        for i in range(4):
            out.append(tm.csv_row(t0 + _dt.timedelta(milliseconds=100 * k), i, "NVIDIA GeForce RTX 3090",
                                  300.0 if busy else 20.0, 280.0, 60.0, 50.0, 99.0 if busy else 0.0, 1700.0, 4))
    return ("\n".join(out) + "\n").encode()


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    data = make(rows)
    t = time.perf_counter()
    log = tm.parse_log(data, "bench.csv")
    parsed = time.perf_counter() - t
    t = time.perf_counter()
    for c in log.cards:
        summarise(c)
    summed = time.perf_counter() - t
    print(f"{rows} rows, {len(data) / 1e6:.1f} MB: parse {parsed:.2f} s ({1e6 * parsed / rows:.1f} us a row), "
          f"summarise {summed:.2f} s")


if __name__ == "__main__":
    main()
