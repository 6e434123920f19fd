"""A cluster plan: several machines (each a build, or N copies of one) joined by a network.

Plain data, no Qt. The file format is :mod:`rigbuilder.files.clusterfile` (docs/cluster-format.md);
the checks are :mod:`rigbuilder.rules.cluster` and the scaling :mod:`rigbuilder.models.cluster_scaling`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

TOPOLOGIES = ("switch", "direct")
"""A switch joins every machine; direct cables join machines port to port (two machines, or a ring
where each machine has two ports)."""
LINK_KINDS = ("ethernet", "roce", "infiniband")
"""Plain Ethernet (TCP, no RDMA), Ethernet with RDMA over Converged Ethernet, InfiniBand."""
RDMA_KINDS = ("roce", "infiniband")


@dataclass(frozen=True)
class NicPlacement:
    """A network card of the catalog in one of the machine's board slots."""

    part_id: str
    slot: str = ""  # the board's slot id ("" : not placed yet)
    ports: int = 1  # ports cabled


@dataclass(frozen=True)
class Machine:
    """One kind of machine in the cluster: a build file and how many copies of it."""

    name: str
    build: str  # a .rig path, relative to the cluster file
    count: int = 1
    nics: tuple[NicPlacement, ...] = ()


@dataclass(frozen=True)
class Network:
    topology: str = "switch"
    kind: str = "ethernet"
    speed_gbps: Optional[float] = None  # the link speed per port; None: the cards' port speed
    gpudirect: bool = True  # use GPUDirect RDMA where NIC, GPU and link allow it
    switch_price: Optional[float] = None  # in the cluster's currency; None: not priced
    cables_price: Optional[float] = None


@dataclass(frozen=True)
class ClusterPlan:
    name: str
    machines: tuple[Machine, ...]
    network: Network = field(default_factory=Network)
    circuits: int = 1  # the room's wall circuits (of the region's kind) that feed the machines
    region: Optional[str] = None  # None: the first machine's build setting
    workload: str = "bert-training"
    compare_with: str = ""  # a .rig of one bigger machine to compare with ("" : none)
    notes: str = ""

    @property
    def machine_count(self) -> int:
        return sum(m.count for m in self.machines)

    def expanded(self) -> list[tuple[Machine, int]]:
        """Every machine one by one: (its kind, copy number from 1)."""
        return [(m, k + 1) for m in self.machines for k in range(m.count)]
