"""``rigbuilder cluster new | check | plan``: several machines joined by a network (a .rigcluster file)."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from rigbuilder.commands.common import UsageError, add_json_flag, open_catalog, print_json, refuse_overwrite
from rigbuilder.domain.i18n import N_, T, nT, render


MAX_PORTS = 8
"""The most ports of one card a plan uses (the .rigcluster loader's limit)."""


def register(sub) -> None:
    p = sub.add_parser("cluster", help=N_("plan several machines joined by a network: new, check, plan"))
    cs = p.add_subparsers(dest="cluster_command", metavar="ACTION")
    n = cs.add_parser("new", help=N_("write a new cluster plan file"))
    n.add_argument("file", help=N_("the .rigcluster file to write"))
    n.add_argument("--name", default="", help=N_("the plan's name"))
    n.add_argument("--machine", action="append", default=[], metavar="RIG[:N]",
                   help=N_("a .rig build and how many copies of it (repeatable)"))
    n.add_argument("--nic", action="append", default=[], metavar="PART@SLOT[xPORTS]",
                   help=N_("a network card in a board slot of every machine, e.g. nic-intel-x540-t2@PCIE5 (repeatable)"))
    n.add_argument("--network", choices=("ethernet", "roce", "infiniband"), default="ethernet",
                   help=N_("the link: plain Ethernet, Ethernet with RoCE, or InfiniBand"))
    n.add_argument("--topology", choices=("switch", "direct"), default="switch", help=N_("a switch or direct cables"))
    n.add_argument("--speed", type=float, metavar="GBITS", help=N_("link speed per port in Gbit/s (default: the cards')"))
    n.add_argument("--workload", default="bert-training", help=N_("the workload to scale (default bert-training)"))
    n.add_argument("--circuits", type=int, default=1, help=N_("wall circuits feeding the machines (default 1)"))
    n.add_argument("--compare-with", default="", metavar="RIG",
                   help=N_("a .rig of one bigger machine to compare the cluster with"))
    n.add_argument("--force", action="store_true", help=N_("overwrite an existing file"))
    n.set_defaults(func=cmd_new)
    for name, helptext, func in (("check", N_("findings across the machines; exit 1 on errors"), cmd_check),
                                 ("plan", N_("scaling over 1..N machines, power, purchase and cost"), cmd_plan)):
        c = cs.add_parser(name, help=helptext)
        c.add_argument("file", help=N_("a .rigcluster file"))
        add_json_flag(c)
        if name == "plan":
            c.add_argument("--workload", help=N_("the workload to scale (default: the plan's)"))
            c.add_argument("--years", type=float, default=3.0, help=N_("years for the cost of ownership (default 3)"))
            from rigbuilder.commands.lab import add_db_options

            add_db_options(c)  # parts the lab owns (its inventory) cost nothing
        c.set_defaults(func=func)
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def _parse_nic(text: str):
    """PART@SLOT or PART@SLOTxPORTS (ports 1 to 8, as a .rigcluster file allows)."""
    import re

    from rigbuilder.domain.cluster import NicPlacement

    part, sep, rest = text.partition("@")
    if not part or not sep or not rest:
        raise UsageError(T("--nic {text!r}: write PART@SLOT, e.g. nic-intel-x540-t2@PCIE5", text=text))
    m = re.fullmatch(r"(.+?)x(\d+)", rest)
    slot, ports = (m.group(1), int(m.group(2))) if m else (rest, 1)
    if not 1 <= ports <= MAX_PORTS:
        raise UsageError(T("--nic {text!r}: the ports after x must be a whole number from 1 to {most}", text=text,
                           most=MAX_PORTS))
    return NicPlacement(part, slot, ports)


def cmd_new(args: argparse.Namespace) -> int:
    from rigbuilder.domain.cluster import ClusterPlan, Machine, Network
    from rigbuilder.files import clusterfile

    out = Path(args.file)
    refuse_overwrite(args.file, args.force)
    if not args.machine:
        raise UsageError(T("name at least one machine: --machine node.rig:2"))
    nics = tuple(_parse_nic(x) for x in args.nic)
    machines = []
    for text in args.machine:
        path, _, count = text.rpartition(":") if text.rpartition(":")[2].isdigit() else (text, "", "")
        machines.append(Machine(Path(path).stem or path, path, int(count) if count else 1, nics))
    plan = ClusterPlan(args.name or out.stem, tuple(machines),
                       Network(args.topology, args.network, args.speed), circuits=args.circuits, workload=args.workload,
                       compare_with=args.compare_with)
    refuse_covered_slots(plan, out)
    try:
        clusterfile.save(plan, out)
    except clusterfile.BuildFileError as e:
        raise UsageError(e.args[0]) from None
    except OSError as e:  # no such folder, a full disk, no permission: nothing was written
        raise UsageError(T("cannot write {path}: {error}", path=str(out), error=e.strerror or str(e))) from None
    print(render(T("wrote {path} ({n} machines)", path=str(out), n=plan.machine_count), args.lang))
    return 0


def refuse_covered_slots(plan, out: Path) -> None:
    """A network card in a slot a GPU sits in or covers is refused before anything is written (the
    checks' own test, ``cluster.nic_covered``). Builds that cannot be read yet are left to ``check``."""
    from rigbuilder.domain.findings import Severity
    from rigbuilder.files import buildfile, clusterfile
    from rigbuilder.rules.cluster import ClusterContext, check_nics

    builds = []
    for m in plan.machines:
        if not any(n.slot for n in m.nics):
            continue
        try:
            builds.append((m, buildfile.load(clusterfile.build_path(out, m.build))))
        except buildfile.BuildFileError:
            continue
    if not builds:
        return
    cat = open_catalog()
    for m, b in builds:
        cc = ClusterContext(plan, [(m.name, b, m.nics, m.name)], cat.index)
        bad = [f for f in check_nics(cc) if f.code == "cluster.nic_covered" and f.severity is Severity.ERROR]
        if bad:
            raise UsageError(T.join(bad[0].message, "; ", bad[0].fix))


def open_cluster(path: str, workload: str | None = None, prices=()):
    """(plan, ClusterContext, catalog) with clear errors; ``prices``: more price observations (the lab's)."""
    from dataclasses import replace

    from rigbuilder.files import clusterfile
    from rigbuilder.models.workloads import WORKLOADS
    from rigbuilder.rules.cluster import ClusterContext

    try:
        plan = clusterfile.load(Path(path))
        if workload:
            if workload not in WORKLOADS:
                raise UsageError(T("unknown workload {id}; known: {known}", id=repr(workload), known=", ".join(WORKLOADS)))
            plan = replace(plan, workload=workload)
        machines = clusterfile.load_machines(plan, Path(path))
    except clusterfile.BuildFileError as e:
        raise UsageError(e.args[0]) from None
    cat = open_catalog()
    if prices:
        cat.index.prices = cat.index.prices.with_observations(prices)
    from rigbuilder.commands.common import require_parts

    for lm in machines:
        require_parts(lm.build, cat.index, lm.machine.build)
    cc = ClusterContext(plan, [(lm.label, lm.build, lm.machine.nics, lm.machine.name) for lm in machines], cat.index)
    return plan, cc, cat


def cmd_check(args: argparse.Namespace) -> int:
    from rigbuilder.domain.findings import Severity
    from rigbuilder.domain.i18n import render_finding
    from rigbuilder.rules.cluster import check_cluster, machine_findings

    plan, cc, _ = open_cluster(args.file)
    found = check_cluster(cc)
    each = machine_findings(cc)
    errors = any(f.severity == Severity.ERROR for f in found) or any(
        f.severity == Severity.ERROR for _, fs in each for f in fs)
    if args.json:
        print_json({"cluster": plan.name, "machines": len(cc.machines), "findings": [f.to_dict() for f in found],
                    "machine_findings": {label: [f.to_dict() for f in fs] for label, fs in each}})
        return 1 if errors else 0
    print(render(T("Cluster {name}: {n} machines", name=plan.name, n=len(cc.machines)), args.lang))
    for f in found:
        r = render_finding(f, args.lang)
        print(f"  {f.severity.value.upper():7} {f.code}: {r['message']}")
        if r['fix']:
            print(f"          -> {r['fix']}")
    for label, fs in each:
        bad = [f for f in fs if f.severity != Severity.INFO]
        if bad:
            print(render(T("{machine} on its own:", machine=label), args.lang))
            for f in bad:
                print(f"  {f.severity.value.upper():7} {f.code}: {render_finding(f, args.lang)['message']}")
    if not found:
        print(render(T("no findings across the machines"), args.lang))
    return 1 if errors else 0


def compare_figures(cc, path: str, years: float, currency: str) -> dict | None:
    """One bigger machine (the plan's ``compare_with``) on the same workload."""
    from rigbuilder.files import buildfile
    from rigbuilder.files.clusterfile import build_path
    from rigbuilder.rules.cluster import one_machine_figures

    if not cc.plan.compare_with:
        return None
    try:
        b = buildfile.load(build_path(Path(path), cc.plan.compare_with))
    except buildfile.BuildFileError as e:
        raise UsageError(e.args[0]) from None
    from rigbuilder.commands.common import require_parts

    require_parts(b, cc.index, cc.plan.compare_with)
    return one_machine_figures(cc, b, years, currency)


def cmd_plan(args: argparse.Namespace) -> int:
    from rigbuilder.domain.i18n import format_number

    if not 0 < args.years <= 50:
        raise UsageError(T("--years must be between 0 and 50, not {v:g}", v=args.years))
    from rigbuilder.rules.cluster import cluster_figures

    owned, lab_prices = None, ()
    if args.db or os.environ.get("RIGBUILDER_LAB_DB"):
        from rigbuilder.commands.lab import _guard, open_lab

        db = open_lab(args)
        try:
            owned = _guard(db.owned_counts)
            lab_prices = _guard(db.price_observations)
        finally:
            db.close()
    plan, cc, _ = open_cluster(args.file, args.workload, lab_prices)
    d = cluster_figures(cc, args.years, owned)
    d["compare_with"] = compare_figures(cc, args.file, args.years, d["purchase"]["currency"])
    if args.json:
        print_json(d)
        return 0
    lang = args.lang
    sc = cc.scaling
    print(render(T("Cluster {name}: {n} machines, {workload}", name=plan.name, n=len(cc.machines),
                   workload=cc.workload.label), lang))
    print(render(sc.headline(), lang))
    for p in sc.points:
        if not p.linked:
            print("  " + render(T("{machines}: no working network link between the machines (no card, an unknown "
                                  "card, or a card in a slot the board lacks): they cannot train together",
                                  machines=nT("{n} machine", "{n} machines", p.machines)), lang))
            continue
        print("  " + render(T("{machines}: {value} {unit} ({x:.2f}x one; all-reduce between machines {net:.0f} ms, "
                              "{exposed:.0f} ms not hidden, step {step:.0f} ms)",
                              machines=nT("{n} machine", "{n} machines", p.machines),
                              value=format_number(p.throughput, 1, lang), unit=sc.unit, x=p.speedup,
                              net=p.t_net_s * 1e3, exposed=p.t_exposed_s * 1e3, step=p.t_step_s * 1e3), lang))
    for r in sc.reasons:
        print("  - " + render(r, lang))
    pw, buy, en, tco = d["power"], d["purchase"], d["energy"], d["tco"]
    print(render(T("Power: {peak:.0f} W at the wall at peak for all machines; {circuits}",
                   peak=pw["wall_peak_w"], circuits=nT("{n} circuit of {cw:.0f} W", "{n} circuits of {cw:.0f} W",
                                                       pw["circuits"], cw=pw["circuit_w"])), lang))
    total = T("{amount:.2f} {currency}", amount=buy["total"], currency=buy["currency"])
    if buy["unpriced"]:
        total = T("at least {total} (no price: {names})", total=total, names=", ".join(buy["unpriced"][:6]))
    print(render(T("Purchase: {total}", total=total), lang))
    if buy["owned_used"]:
        print("  " + render(T("from the lab's stock, at no cost: {parts}", parts=", ".join(
            f"{n}x {pid}" for pid, n in buy["owned_used"].items())), lang))
    print(render(T("Energy: {kwh:.0f} kWh a year, {cost:.2f} {currency}; cost of ownership over {years:g} years: "
                   "{tco:.2f} {currency}", kwh=en["kwh_per_year"], cost=en["cost_per_year"],
                   currency=buy["currency"], years=tco["years"], tco=tco["total"]), lang))
    cmp_ = d["compare_with"]
    if cmp_:
        last = sc.points[-1].throughput if sc.points else 0.0
        print(render(T("One bigger machine ({build}): {value} {unit} against the cluster's {cluster}; purchase {buy:.2f} "
                       "{currency}, cost of ownership {tco:.2f} {currency}", build=cmp_["build"],
                       value=format_number(cmp_["throughput"], 1, lang), unit=cmp_["unit"],
                       cluster=format_number(last, 1, lang), buy=cmp_["purchase"], currency=cmp_["currency"],
                       tco=cmp_["tco"]), lang))
    return 0
