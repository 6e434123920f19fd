"""``rigbuilder new | check | arrange | limits``: write, judge and arrange build files."""
from __future__ import annotations

import argparse
import re
import sys

from typing import Optional

from rigbuilder.commands.common import (UsageError, add_command, apply_edits, load_build, open_catalog, print_json,
                                        refuse_overwrite, require_parts, save_build)
from rigbuilder.domain import fields as F
from rigbuilder.domain import limits
from rigbuilder.domain.build import MOUNT_RISER, REGIONS, Build
from rigbuilder.domain import kinds
from rigbuilder.domain.edits import ROLES as SET_ROLES
from rigbuilder.domain.i18n import N_, T, render, tr

COUNT_RE = re.compile(r"^(?P<id>[a-z0-9-]+?)(?:x(?P<n>\d{1,2}))?$")
GPU_RE = re.compile(r"^(?P<id>[a-z0-9-]+)(?:@(?P<pos>riser|\d{1,2}|riser:\d{1,2}))?$")


def register(sub) -> None:
    n = add_command(sub, "new", cmd_new, help=N_("write a build file"))
    n.add_argument("--name", default="", help=N_("the build's name (default: none; shown as 'Untitled build')"))
    for role in kinds.SINGLE_ROLES:  # --board, --cpu, --case, --cooler: one per single role (domain.kinds)
        n.add_argument(f"--{kinds.kind(role).role.flag}", help=N_("motherboard id") if role == "motherboard" else None)
    n.add_argument("--gpu", action="append", default=[], metavar="ID[@POSITION]",
                   help=N_("a GPU and its expansion position (@riser for a riser); repeat for more"))
    n.add_argument("--psu", action="append", default=[], help=N_("repeat for a second PSU"))
    n.add_argument("--memory", action="append", default=[], metavar="ID[xCOUNT]")
    n.add_argument("--storage", action="append", default=[], metavar="ID[xCOUNT]")
    n.add_argument("--nic", action="append", default=[])
    n.add_argument("--region", choices=sorted(F.REGION.choices))
    n.add_argument("--arrange", action="store_true", help=N_("then place the GPUs with the arranger"))
    n.add_argument("-o", "--output", required=True)
    n.add_argument("--force", action="store_true", help=N_("overwrite an existing file"))
    e = add_command(sub, "edit", cmd_edit,
                    help=N_("change a build file step by step (the options apply in the order given)"),
                    description=N_("Apply edits to a build, in the order given, and write the result. GPUs are "
                                   "numbered from 1. An edit the build cannot take stops everything: exit 2, "
                                   "nothing written."))
    e.add_argument("file")
    step = dict(action=_Step, dest="steps")
    e.add_argument("--add-gpu", metavar="ID[@POS|@riser]", help=N_("add a GPU (no position: the first free slot)"), **step)
    e.add_argument("--move-gpu", metavar="N@POS|N@riser", help=N_("move GPU N"), **step)
    e.add_argument("--remove", metavar="ROLE[:N]", help=N_("remove a part: gpu:N, riser:N (GPU N's riser part), psu, psu2, memory:N, "
                   "storage:N, nic:N, board, cpu, cooler, case"), **step)
    e.add_argument("--set", metavar="ROLE=ID", help=N_("choose a part: board, cpu, cooler, case, psu, psu2 (a "
                   "second PSU); memory, storage and nic add one"), **step)
    e.add_argument("--limit", metavar="N=W|all=W|N=none", help=N_("power limit in watts for GPU N or all GPUs (at or above a card's board power: "
                                                          "no limit)"), **step)
    e.add_argument("--riser", metavar="N=ID|N=none", help=N_("put GPU N on the riser part ID (a card in a slot moves "
                                                          "onto it); none: a riser of unknown kind"), **step)
    e.add_argument("--region", choices=sorted(F.REGION.choices), **step)
    e.add_argument("--name", **step)
    e.add_argument("--notes", **step)
    e.add_argument("--arrange", action="store_true", help=N_("then place the GPUs with the arranger"))
    e.add_argument("-o", "--output", required=True, help=N_("where to write the result (may be FILE itself)"))
    c = add_command(sub, "check", cmd_check, json=True,
                    help=N_("check a build: exit 0 without errors, 1 with errors, 2 for bad input"))
    c.add_argument("file")
    c.add_argument("--only", action="append", metavar="CODE", help=N_("only these rule codes or prefixes"))
    a = add_command(sub, "arrange", cmd_arrange, json=True,
                    help=N_("find the placement of the GPUs with the fewest findings"))
    a.add_argument("file")
    a.add_argument("-o", "--output", help=N_("write the arranged build here (default: only print)"))
    lim = add_command(sub, "limits", cmd_limits, json=True,
                      help=N_("the smallest uniform GPU power limit that fits the PSU and circuit"))
    lim.add_argument("file")


def _count(spec: str, flag: str, index) -> tuple[str, int]:
    m = COUNT_RE.match(spec) if spec not in index else COUNT_RE.match(spec + "x1")
    if not m:
        raise UsageError(T("{flag} {spec}: expected ID or IDxCOUNT", flag=flag, spec=spec))
    n = int(m["n"] or 1)
    if not 1 <= n <= limits.MAX_COUNT:
        raise UsageError(T("{flag} {spec}: a count is between 1 and {most}", flag=flag, spec=spec, most=limits.MAX_COUNT))
    return m["id"], n


def _gpu_target(spec: str, flag: str) -> tuple[str, Optional[int], bool]:
    """``ID``, ``ID@POSITION``, ``ID@riser`` or ``ID@riser:POSITION`` (where the riser cable plugs in)."""
    m = GPU_RE.match(spec)
    if not m:
        raise UsageError(T("{flag} {spec}: expected ID, ID@POSITION, ID@riser or ID@riser:POSITION", flag=flag, spec=spec))
    pos = m["pos"]
    if pos and pos.startswith("riser"):
        return m["id"], int(pos.split(":")[1]) if ":" in pos else None, True
    return m["id"], int(pos) if pos else None, False


def new_steps(args: argparse.Namespace, index) -> list:
    """``rigbuilder new``'s options as (flag, edit) steps: the board first, so GPU positions are
    checked against its slots; GPUs without a position go where the window would put them."""
    from rigbuilder.domain.edits import AddGpu, ChangeSettings, Rename, SetPart

    steps: list = [(f"--name {args.name}", Rename(args.name, ""))]
    for role in kinds.SINGLE_ROLES:  # --board, --cpu, --case, --cooler (domain.kinds)
        flag = kinds.kind(role).role.flag
        v = getattr(args, flag)
        if v:
            steps.append((f"--{flag} {v}", SetPart(role, v)))
    if len(args.psu) > limits.MAX_PSUS:
        raise UsageError(T("--psu: at most two PSUs"))
    for i, v in enumerate(args.psu):
        steps.append((f"--psu {v}", SetPart("psu" if i == 0 else "second-psu", v)))
    for v in args.nic:
        steps.append((f"--nic {v}", SetPart("nic", v)))
    for flag, role, specs in (("--memory", "memory", args.memory), ("--storage", "storage", args.storage)):
        for spec in specs:
            pid, n = _count(spec, flag, index)
            steps += [(f"{flag} {spec}", SetPart(role, pid))] * n
    for spec in args.gpu:
        pid, pos, riser = _gpu_target(spec, "--gpu")
        steps.append((f"--gpu {spec}", AddGpu(pid, pos, riser)))
    # The region's wall circuit and its currency (the electricity price converted): --region, else
    # the locale's country (a Japanese desktop: Japan 100 V and JPY), as the window's new builds.
    from rigbuilder.domain.build import DEFAULT_REGION, Settings, region_for_locale
    from rigbuilder.models.prices import settings_for_region

    region = args.region or region_for_locale(None, getattr(args, "lang", None))
    s = settings_for_region(Settings(), region, index.prices.rates)  # and its market's price of a kWh
    if args.region or region != DEFAULT_REGION or s.price_per_kwh != Settings().price_per_kwh:
        steps.append((f"--region {region}", ChangeSettings.of(region=s.region, currency=s.currency,
                                                              price_per_kwh=s.price_per_kwh)))
    return steps


def cmd_new(args: argparse.Namespace) -> int:
    refuse_overwrite(args.output, args.force)
    cat = open_catalog()
    b = apply_edits(Build(name=args.name), cat.index, new_steps(args, cat.index))
    if args.arrange:
        b = _arranged(b, cat.index, "--arrange")
    save_build(b, args.output)
    print(tr("wrote {path}", getattr(args, "lang", "en"), path=args.output))
    return 0


def _arranged(b: Build, index, flag: str) -> Build:
    from rigbuilder.domain.edits import ApplyArrangement
    from rigbuilder.rules.arrange import arrange

    if b.motherboard is None:
        raise UsageError(T("{flag}: arranging the GPUs needs a motherboard (--board)", flag=flag))
    try:
        res = arrange(b, index)
    except ValueError as e:
        raise UsageError(T("{flag}: {error}", flag=flag, error=e.args[0] if e.args else str(e))) from None
    return apply_edits(b, index, [(flag, ApplyArrangement.of(res.build))])


class _Step(argparse.Action):
    """Keeps every edit option in one list, in the order given on the command line."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        steps = getattr(namespace, "steps", None) or []
        steps.append((option_string, values))
        namespace.steps = steps


ROLE_FLAGS = {**{flag: role for flag, role in kinds.FLAGS.items() if role in SET_ROLES}, "motherboard": "motherboard",
              "psu2": "second-psu"}
"""``--set ROLE=ID``'s words (``domain.kinds``: each role's flag; ``psu2`` the second PSU)."""


def edit_steps(raw: list, build: Build, index) -> list:
    """``rigbuilder edit``'s options, in order, as (flag, edit) steps. GPU numbers count from 1,
    as everywhere the user sees them."""
    from rigbuilder.domain.edits import (AddGpu, ChangeSettings, MoveGpu, RemoveItem, Rename, SetAllPowerLimits,
                                         SetPart, SetPowerLimit, SetRiser)

    def gpu_num(text: str, flag: str) -> int:
        if not text.isdigit() or int(text) < 1:
            raise UsageError(T("{flag}: {value} is not a GPU number (1, 2, ...)", flag=flag, value=f"{text!r:.20}"))
        return int(text) - 1

    steps = []
    name, notes = build.name, build.notes
    for flag, v in raw:
        where = f"{flag} {v}"
        if flag == "--add-gpu":
            pid, pos, riser = _gpu_target(v, flag)
            steps.append((where, AddGpu(pid, pos, riser)))
        elif flag == "--move-gpu":
            n, sep, target = v.partition("@")
            if not sep or not (target == "riser" or target.isdigit()):
                raise UsageError(T("{where}: expected N@POSITION or N@riser", where=where))
            i = gpu_num(n, where)
            steps.append((where, MoveGpu(i, riser=True) if target == "riser" else MoveGpu(i, int(target))))
        elif flag == "--remove":
            role, sep, n = v.partition(":")
            if role == "psu2":  # the second PSU
                role, sep, n = "psu", ":", "2"
            role = kinds.FLAGS.get(role, role)  # --remove board
            steps.append((where, RemoveItem(role, gpu_num(n, where) if sep else 0)))
        elif flag in ("--set", "--add"):
            role, sep, pid = v.partition("=")
            if not sep or role not in ROLE_FLAGS:
                raise UsageError(T("{where}: expected ROLE=ID, ROLE one of {roles}", where=where, roles=", ".join(ROLE_FLAGS)))
            steps.append((where, SetPart(ROLE_FLAGS[role], pid)))
        elif flag == "--riser":
            n, sep, rid = v.partition("=")
            if not sep or not rid:
                raise UsageError(T("{where}: expected N=ID or N=none", where=where))
            steps.append((where, SetRiser(gpu_num(n, where), None if rid == "none" else rid)))
        elif flag == "--limit":
            n, sep, w = v.partition("=")
            if not sep:
                raise UsageError(T("{where}: expected N=WATTS, all=WATTS or N=none", where=where))
            try:
                watts = None if w == "none" else float(w)
            except ValueError:
                raise UsageError(T("{where}: {value} is not a number of watts (or none)", where=where, value=f"{w!r:.20}")) from None
            steps.append((where, SetAllPowerLimits(watts) if n == "all" else SetPowerLimit(gpu_num(n, where), watts)))
        elif flag == "--region":
            steps.append((where, ChangeSettings.of(region=v)))
        elif flag in ("--name", "--notes"):
            name, notes = (v, notes) if flag == "--name" else (name, v)
            steps.append((where, Rename(name, notes)))
    return steps


def cmd_edit(args: argparse.Namespace) -> int:
    cat = open_catalog()
    b = load_build(args.file)
    lang = getattr(args, "lang", "en")
    b = apply_edits(b, cat.index, edit_steps(getattr(args, "steps", None) or [], b, cat.index),
                    say=lambda note: print(render(note, lang)))
    if args.arrange:
        b = _arranged(b, cat.index, "--arrange")
    save_build(b, args.output)
    print(tr("wrote {path}", lang, path=args.output))
    return 0


def findings_json(build, findings, cat) -> dict:
    from rigbuilder.rules.engine import counts

    return {
        "build": build.name,
        "catalog_version": cat.version,
        "counts": counts(findings),
        "findings": [f.to_dict() for f in findings],
    }


SEVERITY_LABELS = {"error": T("ERROR"), "warning": T("WARNING"), "info": T("INFO")}
COOLER_LABELS = {"open-air": T("open-air"), "blower": T("blower"), "passive": T("passive")}


def print_findings(findings, lang: str = "en") -> None:
    if not findings:
        print(tr("No findings.", lang))
    for f in findings:
        where = []
        if f.gpus:
            where.append("GPU " + ",".join(map(str, f.gpus)))
        if f.positions:
            where.append(tr("pos {positions}", lang, positions=",".join(str(p) for p in f.positions if p is not None)))
        sev = render(SEVERITY_LABELS.get(f.severity.value, f.severity.value.upper()), lang)
        print(f"{sev:7} {f.code:22} {render(f.message, lang)}" + (f" [{'; '.join(where)}]" if where else ""))
        if f.fix:
            print(f"{'':30} " + tr("fix: {fix}", lang, fix=f.fix))


def cmd_check(args: argparse.Namespace) -> int:
    from rigbuilder.rules.engine import has_errors, run_checks

    cat = open_catalog()
    b = load_build(args.file)
    findings = run_checks(b, cat.index, codes=args.only)
    if args.json:
        print_json(findings_json(b, findings, cat))
    else:
        named = sorted({n for f in findings for n in f.gpus})
        if named:  # findings name cards short (GPU 1); their full names once, here
            from rigbuilder.rules.context import Context

            cards = {g.num: g for g in Context(b, cat.index).gpus}
            for n in named:
                if n in cards:
                    g = cards[n]
                    where = T("riser") if not g.on_board else T("position {position}", position=g.position)
                    print(tr("GPU {num}: {name} ({cooler}, {where})", getattr(args, "lang", "en"), num=n, name=g.gpu.name,
                             cooler=COOLER_LABELS.get(g.gpu.cooler, g.gpu.cooler), where=where))
            print()
        print_findings(findings, getattr(args, "lang", "en"))
    return 1 if has_errors(findings) else 0


def cmd_arrange(args: argparse.Namespace) -> int:
    from rigbuilder.rules.arrange import arrange
    from rigbuilder.rules.engine import has_errors

    cat = open_catalog()
    b = load_build(args.file)
    try:
        res = arrange(b, cat.index)
    except ValueError as e:
        raise UsageError(T("{path}: {error}", path=args.file, error=e.args[0] if e.args else str(e))) from None
    if args.json:
        d = findings_json(res.build, res.findings, cat)
        d.update({"positions": res.positions(), "mounts": [g.mount for g in res.build.gpus],
                  "fits": res.fits, "advice": res.advice})
        print_json(d)
    else:
        lang = getattr(args, "lang", "en")
        for i, g in enumerate(res.build.gpus):
            if g.mount == MOUNT_RISER:
                where = (T("riser, cable in position {position}", position=g.position) if g.position else
                         T("riser, not plugged in"))
            elif g.position is None:
                where = T("not placed")
            else:
                where = T("position {position}", position=g.position)
            print(tr("GPU {num}: {part} -> {where}", lang, num=i + 1, part=g.part_id, where=where))
        for line in res.advice:
            print(render(line, lang))
        print_findings(res.findings, lang)
    if args.output:
        save_build(res.build, args.output)
        print(tr("wrote {path}", getattr(args, "lang", "en"), path=args.output), file=sys.stderr)
    # As check: 1 when the arranged build still has errors (cards not placed as asked), so a script
    # never takes a failed arrangement for a good one; the best arrangement is still printed/written.
    return 1 if has_errors(res.findings) else 0


def limits_json(plan) -> dict:
    """``rigbuilder limits --json`` (docs/cli-json.md)."""
    from rigbuilder.domain import gpu_commands

    def verdict(v) -> dict | None:
        return None if v is None else {
            "peak_dc_w": round(v.dc_w, 1), "peak_wall_w": round(v.wall_w, 1), "psu_w": v.psu_w,
            "circuit_w": v.circuit_w, "rated_w": v.rated_w, "psu_ok": v.psu_ok, "circuit_ok": v.circuit_ok,
            "fits": v.fits}

    adv = plan.advice
    apply = list(plan.to_apply)
    return {"fraction": adv.fraction, "feasible": adv.feasible, "throughput": round(adv.throughput, 4),
            "throughput_extrapolated": adv.extrapolated, "peak_dc_w": round(adv.peak_dc_w, 1),
            "peak_wall_w": round(adv.peak_wall_w, 1),
            "limits": [{"gpu": n, "watts": w} for n, w in adv.limits_w],
            "full_power": verdict(plan.full), "current": verdict(plan.current),
            "current_limits": [{"gpu": n, "watts": w} for n, w in plan.current_limits],
            "needed": plan.needed, "apply": [{"gpu": n, "watts": w} for n, w in apply],
            "commands": gpu_commands.set_limits(apply), "systemd_unit": gpu_commands.systemd_unit(apply),
            "cron": gpu_commands.cron_line(apply)}


def cmd_limits(args: argparse.Namespace) -> int:
    from rigbuilder.rules.power import plan_limits

    cat = open_catalog()
    b = load_build(args.file)
    require_parts(b, cat.index, args.file)
    plan = plan_limits(b, cat.index)
    if plan is None:
        raise UsageError(T("{path}: the build has no GPUs", path=args.file))
    if args.json:
        print_json(limits_json(plan))
        return 0
    lang = getattr(args, "lang", "en")
    from rigbuilder.rules.power import limit_lines

    for line in limit_lines(plan, b.settings.region_info().label):
        print(render(line, lang))
    return 0
