"""``rigbuilder new | check | arrange | limits``: write, judge and arrange build files."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from rigbuilder.cli import UsageError
from rigbuilder.commands.common import load_build, open_catalog, print_json
from rigbuilder.domain.build import MOUNT_RISER, REGIONS, Build, GpuPlacement, PartCount, StorageItem

COUNT_RE = re.compile(r"^(?P<id>[a-z0-9-]+?)(?:x(?P<n>\d{1,2}))?$")
GPU_RE = re.compile(r"^(?P<id>[a-z0-9-]+)(?:@(?P<pos>riser|\d{1,2}|riser:\d{1,2}))?$")


def register(sub) -> None:
    n = sub.add_parser("new", help="write a build file")
    n.add_argument("--name", default="Untitled build")
    n.add_argument("--board", help="motherboard id")
    n.add_argument("--gpu", action="append", default=[], metavar="ID[@POSITION]",
                   help="a GPU and its expansion position (@riser for a riser); repeat for more")
    n.add_argument("--cpu")
    n.add_argument("--cooler")
    n.add_argument("--case")
    n.add_argument("--psu", action="append", default=[], help="repeat for a second PSU")
    n.add_argument("--memory", action="append", default=[], metavar="ID[xCOUNT]")
    n.add_argument("--storage", action="append", default=[], metavar="ID[xCOUNT]")
    n.add_argument("--nic", action="append", default=[])
    n.add_argument("--region", choices=sorted(REGIONS))
    n.add_argument("--arrange", action="store_true", help="place GPUs without a position with the arranger")
    n.add_argument("-o", "--output", required=True)
    n.set_defaults(func=cmd_new)
    c = sub.add_parser("check", help="check a build: exit 0 without errors, 1 with errors, 2 for bad input")
    c.add_argument("file")
    c.add_argument("--json", action="store_true", help="JSON output (docs/cli-json.md)")
    c.add_argument("--only", action="append", metavar="CODE", help="only these rule codes or prefixes")
    c.set_defaults(func=cmd_check)
    a = sub.add_parser("arrange", help="find the placement of the GPUs with the fewest findings")
    a.add_argument("file")
    a.add_argument("-o", "--output", help="write the arranged build here (default: only print)")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=cmd_arrange)
    lim = sub.add_parser("limits", help="the smallest uniform GPU power limit that fits the PSU and circuit")
    lim.add_argument("file")
    lim.add_argument("--json", action="store_true")
    lim.set_defaults(func=cmd_limits)


def _require(cat, pid, kind: str, flag: str) -> str:
    p = cat.index.get(pid)
    if p is None:
        raise UsageError(f"{flag} {pid}: no such part; 'rigbuilder catalog list --kind {kind}' lists ids")
    if p.KIND != kind:
        raise UsageError(f"{flag} {pid}: that is a {p.KIND}, not a {kind}")
    return pid


def cmd_new(args: argparse.Namespace) -> int:
    from rigbuilder.files.buildfile import save

    cat = open_catalog()
    b = Build(name=args.name)
    if args.board:
        b.motherboard = _require(cat, args.board, "motherboard", "--board")
    for attr, kind, flag in (("cpu", "cpu", "--cpu"), ("cooler", "cooler", "--cooler"), ("case", "case", "--case")):
        v = getattr(args, attr)
        if v:
            setattr(b, attr, _require(cat, v, kind, flag))
    if len(args.psu) > 2:
        raise UsageError("--psu: at most two PSUs")
    b.psus = [_require(cat, x, "psu", "--psu") for x in args.psu]
    b.nics = [_require(cat, x, "nic", "--nic") for x in args.nic]
    for spec in args.memory:
        m = COUNT_RE.match(spec) if spec not in cat.index else COUNT_RE.match(spec + "x1")
        if not m:
            raise UsageError(f"--memory {spec}: expected ID or IDxCOUNT")
        b.memory.append(PartCount(_require(cat, m["id"], "memory", "--memory"), int(m["n"] or 1)))
    for spec in args.storage:
        m = COUNT_RE.match(spec) if spec not in cat.index else COUNT_RE.match(spec + "x1")
        if not m:
            raise UsageError(f"--storage {spec}: expected ID or IDxCOUNT")
        b.storage.append(StorageItem(_require(cat, m["id"], "storage", "--storage"), int(m["n"] or 1)))
    for spec in args.gpu:
        m = GPU_RE.match(spec)
        if not m:
            raise UsageError(f"--gpu {spec}: expected ID, ID@POSITION or ID@riser")
        pid = _require(cat, m["id"], "gpu", "--gpu")
        pos = m["pos"]
        if pos and pos.startswith("riser"):
            b.gpus.append(GpuPlacement(pid, int(pos.split(":")[1]) if ":" in pos else None, MOUNT_RISER))
        else:
            b.gpus.append(GpuPlacement(pid, int(pos) if pos else None))
    if args.region:
        b.settings.region = args.region
    if args.arrange or any(g.position is None and g.mount != MOUNT_RISER for g in b.gpus):
        if b.motherboard is None:
            raise UsageError("GPUs without a position need --board to be arranged")
        from rigbuilder.rules.arrange import arrange

        fixed = [g for g in b.gpus if g.position is not None]
        b = arrange(b, cat.index).build if args.arrange or not fixed else b
        b = _fill_positions(b, cat)
    try:
        save(b, Path(args.output))
    except OSError as e:
        raise UsageError(f"cannot write {args.output}: {e.strerror}") from None
    print(f"wrote {args.output}")
    return 0


def _fill_positions(b: Build, cat) -> Build:
    """Give unplaced GPUs the first free slots (when some positions were given by hand)."""
    board = cat.index.get(b.motherboard)
    taken = {g.position for g in b.gpus if g.position is not None}
    for g in b.gpus:
        if g.position is None and g.mount != MOUNT_RISER:
            free = next((s.position for s in sorted(board.slots, key=lambda s: s.position) if s.position not in taken), None)
            if free is None:
                raise UsageError(f"no free slot left on {board.name} for {g.part_id}; use @riser")
            g.position = free
            taken.add(free)
    return b


def findings_json(build, findings, cat) -> dict:
    from rigbuilder.rules.engine import counts

    return {
        "build": build.name,
        "catalog_version": cat.version,
        "counts": counts(findings),
        "findings": [f.to_dict() for f in findings],
    }


def print_findings(findings) -> None:
    if not findings:
        print("No findings.")
    for f in findings:
        where = []
        if f.gpus:
            where.append("GPU " + ",".join(map(str, f.gpus)))
        if f.positions:
            where.append("pos " + ",".join(str(p) for p in f.positions if p is not None))
        print(f"{f.severity.value.upper():7} {f.code:22} {f.message}" + (f" [{'; '.join(where)}]" if where else ""))
        if f.fix:
            print(f"{'':30} fix: {f.fix}")


def cmd_check(args: argparse.Namespace) -> int:
    from rigbuilder.rules.engine import has_errors, run_checks

    cat = open_catalog()
    b = load_build(args.file)
    findings = run_checks(b, cat.index, codes=args.only)
    if args.json:
        print_json(findings_json(b, findings, cat))
    else:
        print_findings(findings)
    return 1 if has_errors(findings) else 0


def cmd_arrange(args: argparse.Namespace) -> int:
    from rigbuilder.files.buildfile import save
    from rigbuilder.rules.arrange import arrange

    cat = open_catalog()
    b = load_build(args.file)
    try:
        res = arrange(b, cat.index)
    except ValueError as e:
        raise UsageError(f"{args.file}: {e}") from None
    if args.json:
        d = findings_json(res.build, res.findings, cat)
        d.update({"positions": res.positions(), "mounts": [g.mount for g in res.build.gpus],
                  "fits": res.fits, "advice": res.advice})
        print_json(d)
    else:
        for i, g in enumerate(res.build.gpus):
            if g.mount == MOUNT_RISER:
                where = f"riser, cable in position {g.position}" if g.position else "riser, not plugged in"
            else:
                where = f"position {g.position}"
            print(f"GPU {i + 1}: {g.part_id} -> {where}")
        for line in res.advice:
            print(line)
        print_findings(res.findings)
    if args.output:
        try:
            save(res.build, Path(args.output))
        except OSError as e:
            raise UsageError(f"cannot write {args.output}: {e.strerror}") from None
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def cmd_limits(args: argparse.Namespace) -> int:
    from rigbuilder.rules.context import Context
    from rigbuilder.rules.power import advise_power_limit

    cat = open_catalog()
    b = load_build(args.file)
    adv = advise_power_limit(Context(b, cat.index))
    if adv is None:
        raise UsageError(f"{args.file}: the build has no GPUs")
    d = {"fraction": adv.fraction, "feasible": adv.feasible, "throughput": round(adv.throughput, 4),
         "throughput_extrapolated": adv.extrapolated, "peak_dc_w": round(adv.peak_dc_w, 1),
         "peak_wall_w": round(adv.peak_wall_w, 1),
         "limits": [{"gpu": n, "watts": w} for n, w in adv.limits_w], "commands": adv.commands()}
    if args.json:
        print_json(d)
        return 0
    if adv.fraction >= 1 and adv.feasible:
        print("No power limit needed: the build fits its PSU and circuit at full power.")
        return 0
    if not adv.feasible:
        print("Even at half power the build does not fit its PSU and circuit.")
    print(f"Limit every GPU to {adv.fraction:.0%} of its board power: about {1 - adv.throughput:.1%} less "
          f"throughput (estimate{', extrapolated' if adv.extrapolated else ''}); peak {adv.peak_dc_w:.0f} W DC, "
          f"{adv.peak_wall_w:.0f} W at the wall.")
    for line in adv.commands():
        print(line)
    return 0
