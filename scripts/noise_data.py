"""Derive resources/noise/psus.json and resources/noise/fans.json from the raw public data.

    .venv/bin/python scripts/noise_data.py DATA_DIR

DATA_DIR holds the BuildCores OpenDB snapshot (buildcores-opendb/psu.jsonl) and the PCPartPicker
scrape (pc-part-dataset/case-fan.csv, cpu-cooler.csv). PSUs: the Cybenetics noise class OpenDB
records, joined to the catalog's OpenDB rows by their id and to curated rows by maker and model.
Fans and coolers: each maker's rated dB(A) (a "min,max" pair where given), summarised.
"""
from __future__ import annotations

import csv
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPENDB = "BuildCores OpenDB (ODC-By 1.0), snapshot 2026-08-17"
PCPP = "PCPartPicker scrape 2025-07 via docyx/pc-part-dataset (MIT)"


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.lower()).strip()


def psus(data: Path) -> list[dict]:
    cat_odb = json.loads((ROOT / "resources/catalog/psus-opendb.json").read_text())
    by_suffix = {r["id"].rsplit("-", 1)[-1]: r["id"] for r in cat_odb}
    curated = json.loads((ROOT / "resources/catalog/psus.json").read_text())
    out = []
    for line in (data / "buildcores-opendb/psu.jsonl").open():
        d = json.loads(line)
        cls = d.get("cybernetics_noise_rating")
        fanless = bool(d.get("fanless"))
        if not cls and not fanless:
            continue
        name = d["metadata"]["name"]
        ids = []
        pid = by_suffix.get(d["opendb_id"][:8])
        if pid:
            ids.append(pid)
        n = _norm(name)
        for r in curated:  # a curated row whose maker and model words all appear in the OpenDB name
            words = _norm(r["model"].split("(")[0]).split()
            if _norm(r["maker"]) in n and words and all(w in n.split() for w in words):
                ids.append(r["id"])
        out.append({"name": name, "parts": ids, "cybenetics_noise": cls.replace("Cybenetics ", "") if cls else None,
                    "fanless": fanless, "source": OPENDB})
    return out


def _pair(v: str) -> tuple[float, float] | None:
    try:
        xs = [float(x) for x in v.split(",") if x.strip()]
    except ValueError:
        return None
    if not xs:
        return None
    return (min(xs), max(xs))


def fans(data: Path) -> dict:
    out = {}
    for kind, fname, size_col in (("case_fan", "case-fan.csv", "size"), ("cpu_cooler", "cpu-cooler.csv", None)):
        lows, highs, rows = [], [], 0
        for r in csv.DictReader((data / "pc-part-dataset" / fname).open()):
            p = _pair(r.get("noise_level") or "")
            if not p or p[1] <= 0 or p[1] > 70:
                continue
            if size_col and r.get(size_col) not in ("120", "140"):
                continue
            rows += 1
            highs.append(p[1])
            if p[0] > 0 and p[0] < p[1]:
                lows.append(p[0])
        q = statistics.quantiles(highs, n=4)
        ql = statistics.quantiles(lows, n=4)
        out[kind] = {"rows": rows, "max_median": statistics.median(highs), "max_q1": q[0], "max_q3": q[2],
                     "min_rows": len(lows), "min_median": statistics.median(lows), "min_q1": ql[0], "min_q3": ql[2],
                     "source": PCPP}
    coolers = json.loads((ROOT / "resources/catalog/coolers.json").read_text())
    matched = []
    rows = list(csv.DictReader((data / "pc-part-dataset/cpu-cooler.csv").open()))
    for c in coolers:
        want = _norm(f"{c['maker']} {c['model']}")
        for r in rows:
            if _norm(r["name"]) == want and _pair(r.get("noise_level") or ""):
                lo, hi = _pair(r["noise_level"])
                matched.append({"parts": [c["id"]], "name": r["name"], "min_db": lo, "max_db": hi, "source": PCPP})
                break
    out["coolers"] = matched
    return out


def main(argv: list[str]) -> int:
    data = Path(argv[1]) if len(argv) > 1 else Path("/work/shared/data")
    (ROOT / "resources/noise/psus.json").write_text(json.dumps(psus(data), indent=1, ensure_ascii=False) + "\n")
    (ROOT / "resources/noise/fans.json").write_text(json.dumps(fans(data), indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
