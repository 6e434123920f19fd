"""``rigbuilder measured import LOG --build BUILD`` and ``rigbuilder measured show BUILD``: a power
log the machine wrote about itself, compared with the plan, kept in the user's data, and the
calibration it gives (docs/telemetry.md)."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from rigbuilder.commands.common import (UsageError, add_json_flag, load_build, open_catalog, print_json,
                                        require_parts)
from rigbuilder.domain.i18n import N_, Day, T, ntr, render, tr


def register(sub) -> None:
    p = sub.add_parser("measured", help=N_("compare the machine's own power log with the plan, and calibrate"))
    msub = p.add_subparsers(dest="measured_command", metavar="ACTION")
    imp = msub.add_parser("import", help=N_("read an nvidia-smi CSV log (or a DCGM exporter scrape) of the built "
                                            "machine, compare it with the build's plan and keep it"))
    imp.add_argument("log", metavar="LOG")
    imp.add_argument("--build", required=True, metavar="BUILD", help=N_("the .rig build file the machine was built from"))
    imp.add_argument("--map", metavar="MAP", help=N_("which log card is which GPU of the build, e.g. 1=0,2=1 "
                                                     "(build GPU = log card index)"))
    imp.add_argument("--cards", type=int, metavar="N", help=N_("how many cards a log without an index column "
                                                               "holds (default: the build's GPUs)"))
    add_json_flag(imp)
    imp.set_defaults(func=cmd_import)
    show = msub.add_parser("show", help=N_("measured against planned watts per card and for the machine"))
    show.add_argument("build", metavar="BUILD")
    add_json_flag(show)
    show.set_defaults(func=cmd_show)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def parse_map(text: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d{1,3})\s*[=:]\s*(\d{1,3})\s*", part)
        if not m:
            raise UsageError(T("--map {value}: expected pairs such as 1=0,2=1 (build GPU = log card index)",
                               value=text[:60]))
        out[int(m.group(1))] = int(m.group(2))
    return out


def import_log(cat, build, build_path: str, log_path: str, mapping=None, cards=None):
    """``rigbuilder.files.measured.import_log``; a log that cannot be read or matched is a UsageError."""
    from rigbuilder.files.measured import MatchError, import_log as _import
    from rigbuilder.files.telemetry import TelemetryError

    try:
        return _import(cat, build, Path(build_path), Path(log_path), mapping, cards)
    except (TelemetryError, MatchError) as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None


def _names(cat) -> dict[str, str]:
    return {g.id: g.name for g in cat.index.of_kind("gpu")}


def cmd_import(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.measurements import read_logs
    from rigbuilder.files.measured import log_json, table_lines

    lang = getattr(args, "lang", "en")
    cat = open_catalog()
    build = load_build(args.build)
    require_parts(build, cat.index, args.build)
    mapping = parse_map(args.map) if args.map else None
    log_id, cmp = import_log(cat, build, args.build, args.log, mapping, args.cards)
    stored = next(lg for lg in read_logs(cat.user_path) if lg.id == log_id)
    d = log_json(stored, _names(cat))
    cat.apply_calibration()
    d["calibration"] = _calibration_json(cat, {c["part_id"] for c in d["cards"]})
    if args.json:
        print_json(d)
        return 0
    print(ntr("{log}: {n} card compared with {build}, kept in your data",
              "{log}: {n} cards compared with {build}, kept in your data", len(stored.cards), lang, log=stored.source,
              build=args.build))
    for n in cmp.notes[:len(cmp.log.notes)]:
        print("  " + render(n, lang))
    for line in table_lines(d, lang):
        print(line)
    for pid, c in d["calibration"].items():
        print(tr("Calibration of {name}: {note}", lang, name=_names(cat).get(pid, pid), note=render(c["note_t"], lang)))
        c.pop("note_t")
    return 0


def _calibration_json(cat, part_ids) -> dict:
    out = {}
    for pid in sorted(part_ids):
        c = cat.index.calibration.get(pid)
        if c is not None:
            out[pid] = {"factor": c.factor, "logs": c.logs, "latest": c.latest, "note": str(c.note()), "note_t": c.note()}
    return out


def cmd_show(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.measurements import build_key, read_logs
    from rigbuilder.files.measured import log_json, table_lines

    lang = getattr(args, "lang", "en")
    cat = open_catalog()
    build = load_build(args.build)
    logs = read_logs(cat.user_path, build_key(Path(args.build)))
    names = _names(cat)
    data = [log_json(lg, names) for lg in logs]
    cal = _calibration_json(cat, {c.part_id for lg in logs for c in lg.cards} | {g.part_id for g in build.gpus})
    if args.json:
        for c in cal.values():
            c.pop("note_t")
        print_json({"build": build.name, "calibration_on": cat.calibrate, "logs": data, "calibration": cal})
        return 0
    if not data:
        print(tr("No power log imported for {build} yet: rigbuilder measured import LOG --build {build}", lang,
                 build=args.build))
        return 0
    for d in data:
        print(tr("{source} ({kind}, {date}):", lang, source=d["source"], kind=d["kind"], date=Day(d["date"])))
        for line in table_lines(d, lang):
            print("  " + line)
        print()
    if not cat.calibrate:
        print(tr("Calibration is off (--no-calibration): plans use the model's figures.", lang))
    for pid, c in cal.items():
        print(tr("Calibration of {name}: {note}", lang, name=names.get(pid, pid), note=render(c["note_t"], lang)))
    sys.stdout.flush()
    return 0
