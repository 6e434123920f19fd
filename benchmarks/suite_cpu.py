"""The test suite's CPU time per test and per file, in every xdist worker (a pytest plugin).

    env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest -n 2 -p benchmarks.suite_cpu --durations=40
    .venv/bin/python benchmarks/suite_cpu.py [FOLDER] [N]     # the files by CPU, the N costliest tests

Each process (the controller and each worker) writes ``FOLDER/<worker>.json`` (``SUITE_CPU_DIR``,
default ``out/suite-cpu``): its collection's CPU and wall time, and each test's CPU and wall time
with its set-up and tear-down (``time.process_time``: the process's own CPU, not that of the
programs a test starts). Wall time on a shared machine includes waiting for a core; CPU time is the
figure to compare between runs.
"""
from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

_rows: list = []
_meta: dict = {}


def _folder() -> Path:
    return Path(os.environ.get("SUITE_CPU_DIR", "out/suite-cpu"))


def pytest_configure(config):
    _meta["wall0"] = time.perf_counter()


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session):
    cpu, wall = time.process_time(), time.perf_counter()
    yield
    _meta["collect_cpu"] = time.process_time() - cpu
    _meta["collect_wall"] = time.perf_counter() - wall


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cpu, wall = time.process_time(), time.perf_counter()
    yield
    _rows.append((item.nodeid, time.process_time() - cpu, time.perf_counter() - wall))


def pytest_unconfigure(config):
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    name = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    meta = dict(_meta, total_cpu=time.process_time(), total_wall=time.perf_counter() - _meta.get("wall0", 0.0))
    (folder / f"{name}.json").write_text(json.dumps({"meta": meta, "rows": _rows}))


def summary(folder: Path, n: int = 40) -> str:
    per_file, wall, count, rows, lines = Counter(), Counter(), Counter(), [], []
    for f in sorted(folder.glob("*.json")):
        data = json.loads(f.read_text())
        m = data["meta"]
        lines.append(f"{f.stem}: process CPU {m['total_cpu']:.1f} s, collection {m.get('collect_cpu', 0.0):.1f} s CPU, "
                     f"{m['total_wall']:.1f} s wall")
        for nodeid, cpu, w in data["rows"]:
            path = nodeid.split("::", 1)[0]
            per_file[path] += cpu
            wall[path] += w
            count[path] += 1
            rows.append((cpu, w, nodeid))
    lines.append(f"tests: {sum(per_file.values()):.1f} s CPU in {len(rows)} tests")
    lines.append("   CPU s   wall s  tests  file")
    lines += [f"{c:8.1f} {wall[p]:8.1f} {count[p]:6d}  {p}" for p, c in per_file.most_common()]
    lines.append("   CPU s   wall s  test")
    lines += [f"{c:8.1f} {w:8.1f}  {nodeid}" for c, w, nodeid in sorted(rows, reverse=True)[:n]]
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        print(summary(Path(sys.argv[1]) if len(sys.argv) > 1 else _folder(), int(sys.argv[2]) if len(sys.argv) > 2 else 40))
    except BrokenPipeError:  # (piped into head)
        pass
