"""Boards confirmed by named sources (issue 26): the count, and slot positions that only a layout
source confirms."""
from __future__ import annotations

from rigbuilder.domain.parts import Motherboard, PcieSlot


def _boards(shipped):
    return [p for p in shipped[0] if isinstance(p, Motherboard)]


def test_at_least_sixty_boards_and_twenty_five_with_every_slot_confirmed(shipped):
    boards = _boards(shipped)
    assert len(boards) >= 60
    full = [b for b in boards if b.slots and all(s.confirmed_by for s in b.slots)
            and "lacks one of the board's" not in (b.notes or "") and "missing from it" not in (b.notes or "")]
    assert len(full) >= 25, [b.id for b in full]
    # each of them names its source per slot: a publication or a probe of the linuxhw collection
    for b in full:
        assert all(len(s.confirmed_by) > 40 for s in b.slots), b.id


def test_a_slot_table_confirms_a_slot_but_not_its_position():
    probe = PcieSlot("PCIEX16_1", 1, 16, False, 4, 16, "CPU",
                     confirmed_by="SMBIOS slot table in 29 probes, Linux Hardware Database DMI collection")
    review = PcieSlot("PCIEX16", 2, 16, False, 5, 16, "CPU",
                      confirmed_by="Hardwareluxx, board review (2024), slot table p.3: row 2 of 7")
    spec = PcieSlot("PCI_E1", 1, 16, False, 4, 16, "CPU",
                    confirmed_by="MSI manual (2019), PCIe table: width and source confirmed, position and physical "
                                 "size not in the table")
    placed = PcieSlot("PCIEX16_1", 1, 16, False, 4, 16, "CPU", confirmed_by=probe.confirmed_by,
                      position_source="ASUS manual (2020), layout drawing p.1-2")
    assert not probe.position_confirmed and review.position_confirmed and not spec.position_confirmed
    assert placed.position_confirmed
    assert not PcieSlot("X", 1, 16, False, 4, 16, "CPU").position_confirmed


def test_probe_boards_mark_what_the_probes_do_not_give(shipped):
    added = [b for b in _boards(shipped) if "real machines' firmware tables" in (b.notes or "")]
    assert len(added) >= 20
    for b in added:
        assert {"form_factor", "width_mm", "depth_mm", "m2", "lane_rules", "max_memory_gb"} <= set(b.unverified), b.id
        assert "slots" in b.unverified, b.id
        assert not any(s.position_confirmed for s in b.slots), b.id
        assert "linuxhw" in b.source
