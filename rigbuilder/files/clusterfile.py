"""The ``.rigcluster`` file: a cluster plan as JSON with a format version (docs/cluster-format.md).

Like the ``.rig`` file: nothing in it is executed, every value is type-checked, each problem names
where it is, saves are atomic. Machines name their build files by a path relative to the cluster
file; :func:`load_machines` reads them (each through the ``.rig`` loader).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from rigbuilder.domain.build import REGIONS, Build
from rigbuilder.domain.cluster import LINK_KINDS, TOPOLOGIES, ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.domain.i18n import N_, T
from rigbuilder.files import buildfile
from rigbuilder.files.atomic import write_atomic
from rigbuilder.files.buildfile import BuildFileError, _Reader, parse_document, read_document

FORMAT = "rigbuilder-cluster"
FORMAT_VERSION = 1
SUFFIX = ".rigcluster"
MAX_BYTES = 1024 * 1024
MAX_MACHINES = 256
MAX_PRICE = 1e9

UPGRADES: dict[int, Callable[[dict], dict]] = {}
"""Upgrade steps: ``UPGRADES[n]`` turns a version-n document into version n+1 (none yet)."""


class ClusterFileError(BuildFileError):
    """A cluster file that cannot be read; the message says what and where."""


def to_dict(plan: ClusterPlan) -> dict:
    net = plan.network
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": plan.name,
        "machines": [{"name": m.name, "build": m.build, "count": m.count,
                      "nics": [{"part_id": n.part_id, "slot": n.slot, "ports": n.ports} for n in m.nics]}
                     for m in plan.machines],
        "network": {"topology": net.topology, "kind": net.kind, "speed_gbps": net.speed_gbps,
                    "gpudirect": net.gpudirect, "switch_price": net.switch_price, "cables_price": net.cables_price},
        "circuits": plan.circuits,
        "region": plan.region,
        "workload": plan.workload,
        "compare_with": plan.compare_with,
        "notes": plan.notes,
    }


def dumps(plan: ClusterPlan) -> str:
    return json.dumps(to_dict(plan), indent=2, ensure_ascii=False) + "\n"


def save(plan: ClusterPlan, path: Path) -> None:
    text = dumps(plan)
    loads(text, T("cannot save this cluster plan"))
    write_atomic(path, text.encode("utf-8"))


def from_dict(data: Any, where: str = "cluster") -> ClusterPlan:
    from rigbuilder.models.workloads import WORKLOADS

    r = _Reader(where, ClusterFileError)
    d = r.versioned(data, FORMAT, FORMAT_VERSION, UPGRADES,
                    N_("{where}: not a rigbuilder cluster file (missing \"format\": \"{format}\")"))
    machines = []
    raw = r.items(d, "machines", "machines")
    if not raw:
        r.fail("machines", T("must name at least one machine"))
    if len(raw) > MAX_MACHINES:
        r.fail("machines", T("has more than {n} items", n=MAX_MACHINES))
    names: set[str] = set()
    for i, m in enumerate(raw):
        p = f"machines[{i}]"
        m = r.obj(m, p)
        name = r.text(m, "name", f"{p}.name", optional=False, max_len=120) or ""
        if not name.strip():
            r.fail(f"{p}.name", T("is empty"))
        if name in names:
            r.fail(f"{p}.name", T("names a machine twice ({name!r})", name=name))
        names.add(name)
        build = r.text(m, "build", f"{p}.build", optional=False, max_len=1000) or ""
        count = int(r.number(m, "count", f"{p}.count", 1, 1, MAX_MACHINES, whole=True))
        nics = []
        for j, n in enumerate(r.items(m, "nics", f"{p}.nics")):
            q = f"{p}.nics[{j}]"
            n = r.obj(n, q)
            nics.append(NicPlacement(r.text(n, "part_id", f"{q}.part_id", optional=False, max_len=120) or "",
                                     r.text(n, "slot", f"{q}.slot", max_len=60) or "",
                                     int(r.number(n, "ports", f"{q}.ports", 1, 1, 8, whole=True))))
        machines.append(Machine(name, build, count, tuple(nics)))
    if sum(m.count for m in machines) > MAX_MACHINES:
        r.fail("machines", T("has more than {n} items", n=MAX_MACHINES))
    net = r.obj(d.get("network") or {}, "network")
    topology = r.text(net, "topology", "network.topology") or "switch"
    if topology not in TOPOLOGIES:
        r.fail("network.topology", T("must be one of: {allowed}", allowed=", ".join(TOPOLOGIES)))
    kind = r.text(net, "kind", "network.kind") or "ethernet"
    if kind not in LINK_KINDS:
        r.fail("network.kind", T("must be one of: {allowed}", allowed=", ".join(LINK_KINDS)))
    gd = net.get("gpudirect", True)
    if not isinstance(gd, bool):
        r.fail("network.gpudirect", T("must be true or false"))
    network = Network(topology, kind, r.number(net, "speed_gbps", "network.speed_gbps", None, 0.1, 3200),
                      gd, r.number(net, "switch_price", "network.switch_price", None, 0, MAX_PRICE),
                      r.number(net, "cables_price", "network.cables_price", None, 0, MAX_PRICE))
    region = r.text(d, "region", "region", max_len=20)
    if region is not None and region not in REGIONS:
        r.fail("region", T("must be one of: {allowed}", allowed=", ".join(REGIONS)))
    workload = r.text(d, "workload", "workload", max_len=60) or "bert-training"
    if workload not in WORKLOADS:
        r.fail("workload", T("must be one of: {allowed}", allowed=", ".join(WORKLOADS)))
    return ClusterPlan(
        name=r.text(d, "name", "name", max_len=200) or "",
        machines=tuple(machines), network=network,
        circuits=int(r.number(d, "circuits", "circuits", 1, 1, 1000, whole=True)),
        region=region, workload=workload,
        compare_with=r.text(d, "compare_with", "compare_with", max_len=1000) or "",
        notes=r.text(d, "notes", "notes", max_len=20000, multiline=True) or "")


def loads(text: str, where: str = "cluster") -> ClusterPlan:
    return from_dict(parse_document(text, where, ClusterFileError), where)


def load(path: Path) -> ClusterPlan:
    return loads(read_document(path, MAX_BYTES, ClusterFileError), str(path))


@dataclass(frozen=True)
class LoadedMachine:
    machine: Machine
    copy: int  # 1..count
    build: Build

    @property
    def label(self) -> str:
        return self.machine.name if self.machine.count == 1 else f"{self.machine.name} #{self.copy}"


def build_path(plan_path: Optional[Path], build: str) -> Path:
    p = Path(build).expanduser()
    return p if p.is_absolute() or plan_path is None else plan_path.parent / p


def load_machines(plan: ClusterPlan, plan_path: Optional[Path],
                  builds: Optional[dict[str, Build]] = None) -> list[LoadedMachine]:
    """Every machine with its build, one entry per copy. ``builds`` (path text -> build) supplies
    builds already in memory (the window's, a lab database's); others are read from disk."""
    out, cache = [], dict(builds or {})
    for m in plan.machines:
        if m.build not in cache:
            cache[m.build] = buildfile.load(build_path(plan_path, m.build))
        out += [LoadedMachine(m, k + 1, cache[m.build]) for k in range(m.count)]
    return out
