"""What a user waits for at the command line (issue 37): ``rigbuilder optimise`` as a whole, in a process of
its own, against the search time it prints. The command runs the search, then one more search for each other
objective's winner (and, with no build, one per change worth trying); loading, pricing and the explanation
come on top.

Run: .venv/bin/python benchmarks/bench_cli_optimise.py [--repeat 3] [-- ARGS...]
(default ARGS: --budget 3000 --currency EUR --prices used --gpus 1 --grow-to 2 --top 1). Prints each run's wall
seconds, the CPU seconds of the process (user + system) and the "Searched in" line, and the best of each.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["--budget", "3000", "--currency", "EUR", "--prices", "used", "--gpus", "1", "--grow-to", "2", "--top", "1"]


def once(args: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "rigbuilder", "optimise", *args], cwd=ROOT, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    searched = next((m.group(0) for m in re.finditer(r"Searched in [0-9.]+ s", out.stdout)), "?")
    return wall, cpu, searched


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("args", nargs="*", help="the command's arguments (after --)")
    a = ap.parse_args()
    args = a.args or DEFAULT
    print("rigbuilder optimise " + " ".join(args) + f" (PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')})")
    runs = []
    for _ in range(a.repeat):
        wall, cpu, searched = once(args)
        runs.append((wall, cpu))
        print(f"- {wall:.2f} s wall, {cpu:.2f} s CPU; the command printed: {searched} (load average "
              f"{os.getloadavg()[0]:.1f})")
    print(f"best: {min(r[0] for r in runs):.2f} s wall, {min(r[1] for r in runs):.2f} s CPU")


if __name__ == "__main__":
    main()
