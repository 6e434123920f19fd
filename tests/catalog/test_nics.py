"""Network cards (issue 40): at least 40, each with its PCIe generation and lanes, its fabric and
how it does RDMA, and a named source."""
from __future__ import annotations

from rigbuilder.domain.parts import NIC


def _nics(shipped):
    return [p for p in shipped[0] if isinstance(p, NIC)]


def test_at_least_forty_nics_across_the_families(shipped):
    nics = _nics(shipped)
    assert len(nics) >= 40
    families = {n.family for n in nics}
    for want in ("ConnectX-3", "ConnectX-4", "ConnectX-5", "ConnectX-6", "ConnectX-7", "Intel E810", "Chelsio T6"):
        assert any(want in (f or "") for f in families), want
    assert any("X710" in (f or "") for f in families) and any("Broadcom" in (f or "") for f in families)
    assert {"Ethernet", "VPI"} <= {n.protocol for n in nics}  # plain Ethernet, and InfiniBand-or-Ethernet cards


def test_every_nic_names_its_link_fabric_and_source(shipped):
    for n in _nics(shipped):
        assert n.pcie_gen in (2, 3, 4, 5) and n.pcie_lanes in (1, 4, 8, 16), n.id
        assert n.speed_gbps > 0 and n.ports >= 1 and n.port_type, n.id
        assert bool(n.rdma) == bool(n.rdma_protocols), n.id  # RDMA says how: RoCE, iWARP or InfiniBand
        assert len(n.source) > 40, n.id
    assert {"iWARP", "RoCE v2", "InfiniBand"} <= {p for n in _nics(shipped) for p in n.rdma_protocols}
