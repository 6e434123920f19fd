"""Community GPU rows: cooler types from the product line or the curated row of the same product,
the chip join by memory type, connector kinds, and cards kept where OpenDB lacks connector data."""
from __future__ import annotations

import pytest

from rigbuilder.catalog import opendb

TOMS = "Tom's Hardware, Nvidia's Turing Architecture Explored, 2018"
ANAND = "AnandTech, The NVIDIA GeForce GTX Titan X Review, 2015"
PCWORLD = "PCWorld, AMD's next-gen Radeon graphics cards will ditch blower-style coolers, 2020"
TECHSPOT = "TechSpot, MSI's new GeForce RTX 3090 Aero, 2021"
GEEKTOPIA = "geektopia.es, NVIDIA presenta las A40 y RTX A6000, 2020"

BLOWERS = [
    # (shipped community row, family, where its blower cooler is published)
    ("gpu-odb-pny-nvidia-rtx-6000-ada-generation-48gb-gddr6-0102008c", "pro", "curated NVIDIA RTX 6000 Ada row"),
    ("gpu-odb-pny-nvidia-rtx-a6000-48gb-gddr6-19e23608", "pro", GEEKTOPIA),
    ("gpu-odb-pny-rtx-a-series-rtx-a5000-24gb-gddr6-black-35e4d252", "pro", "curated NVIDIA RTX A5000 row"),
    ("gpu-odb-lenovo-rtx-a5000-black-24gb-gddr6-54365e52", "pro", "curated NVIDIA RTX A5000 row"),
    ("gpu-odb-pny-quadro-rtx-6000-vcqrtx6000-pb-24gb-gddr6-black-silver-55c249e2", "pro", "curated Quadro RTX 6000 row"),
    ("gpu-odb-pny-nvidia-quadro-rtx-8000-48gb-gddr6-017850bd", "pro", "curated Quadro RTX 8000 row"),
    ("gpu-odb-pny-vcqp6000-pb-quadro-p6000-24gb-gddr5x-black-green-3a41aa0b", "pro", "NVIDIA board datasheets"),
    ("gpu-odb-evga-founders-edition-geforce-gtx-1080-8gb-gddr5x-black-silver-20e4ef51", "pascal-fe", TOMS),
    ("gpu-odb-msi-founders-edition-geforce-gtx-1070-8gb-gddr5-black-silver-b7e800c2", "pascal-fe", TOMS),
    ("gpu-odb-pny-founders-edition-geforce-gtx-1080-ti-11gb-gddr5x-black-silver-47b268ec", "pascal-fe", TOMS),
    ("gpu-odb-nvidia-geforce-gtx-1060-founders-edition-6gb-gddr5-2c8b553f", "pascal-fe", TOMS),
    ("gpu-odb-asus-gtxtitan-6gd5-geforce-gtx-titan-6-gb-fa99adc5", "titan", ANAND),
    ("gpu-odb-evga-geforce-gtx-titan-x-12gb-gddr5-black-silver-1207652e", "titan", ANAND),
    ("gpu-odb-nvidia-titan-x-pascal-black-silver-12gb-gddr5x-942dfd57", "titan", "ocaholic.ch, NVIDIA Titan X review"),
    ("gpu-odb-nvidia-titan-xp-12gb-gddr5x-black-a7da1b49", "titan", "curated NVIDIA TITAN Xp row"),
    ("gpu-odb-nvidia-titan-v-titan-v-black-gold-12gb-hbm2-black-gold-142dd8f1", "titan", "curated NVIDIA TITAN V row"),
    ("gpu-odb-amd-radeon-pro-wx-9100-16gb-hbm2-blue-c91465a0", "radeon-pro", PCWORLD),
    ("gpu-odb-amd-radeon-pro-w6800-32gb-gddr6-blue-gray-063e2b5e", "radeon-pro", PCWORLD),
    ("gpu-odb-amd-radeon-pro-w7900-professional-graphics-48gb-gddr6-5cd402a8", "radeon-pro", "curated Radeon PRO W7900 row"),
    ("gpu-odb-amd-radeon-pro-vii-blue-silver-16gb-hbm2-blue-silver-5f6b1b07", "radeon-pro", PCWORLD),
    ("gpu-odb-msi-aero-geforce-gtx-1080-ti-11gb-gddr5x-black-green-6ce670c5", "msi-aero", TECHSPOT),
    ("gpu-odb-msi-aero-geforce-rtx-2070-8gb-gddr6-black-green-70734643", "msi-aero", TECHSPOT),
    ("gpu-odb-msi-geforce-gtx-1080-aero-8gb-gddr5x-black-silver-80604f7f", "msi-aero", TECHSPOT),
    ("gpu-odb-xfx-radeon-rx-vega-64-silver-red-8gb-hbm2-a2979735", "vega-reference", PCWORLD),
    ("gpu-odb-sapphire-black-red-radeon-rx-vega-64-8gb-hbm2-black-red-439867b7", "vega-reference", PCWORLD),
    ("gpu-odb-msi-radeon-rx-vega-56-black-red-8gb-hbm2-black-red-7b7d7559", "vega-reference", PCWORLD),
    ("gpu-odb-amd-radeon-rx-vega-64-e32c2175", "vega-reference", PCWORLD),
]


@pytest.fixture(scope="module")
def by_id(shipped):
    return {p.id: p for p in shipped[0]}


@pytest.fixture(scope="module")
def community(shipped):
    return [p for p in shipped[0] if p.KIND == "gpu" and p.community]


def test_the_fixture_covers_the_six_families():
    assert {f for _, f, _ in BLOWERS} == {"pro", "pascal-fe", "titan", "radeon-pro", "msi-aero", "vega-reference"}
    assert all(src for _, _, src in BLOWERS)


@pytest.mark.parametrize("pid, family, source", BLOWERS, ids=[b[0][8:40] for b in BLOWERS])
def test_blower_designs_come_in_as_blowers(by_id, pid, family, source):
    p = by_id[pid]
    assert p.community and p.cooler == "blower"
    if "card facts as in the curated" in p.source:  # the same product as a curated row: that row's facts and sources
        assert p.cooler_derived is None and "cooler" not in p.unverified
    else:  # derived from the product line: marked as derived, with its source, and still unverified
        assert p.cooler_derived and "(" in p.cooler_derived and "cooler" in p.unverified


def test_open_air_lines_stay_open_air(community):
    aero_itx = [p for p in community if "AERO ITX" in p.model]
    gigabyte_aero = [p for p in community if p.maker == "Gigabyte" and "AERO" in p.model]
    strix_vega = [p for p in community if "STRIX" in p.model.upper() and "VEGA" in p.model.upper()]
    assert aero_itx and gigabyte_aero and strix_vega
    assert all(p.cooler == "open-air" for p in aero_itx + gigabyte_aero + strix_vega)


def test_same_product_across_makers_takes_the_curated_facts(by_id):
    pny = by_id["gpu-odb-pny-nvidia-rtx-6000-ada-generation-48gb-gddr6-0102008c"]
    nv = by_id["gpu-nvidia-rtx-6000-ada"]
    for f in opendb.CARD_FACTS:
        assert getattr(pny, f) == getattr(nv, f), f
    assert pny.unverified == nv.unverified and "curated NVIDIA RTX 6000 Ada Generation row" in pny.source


def test_gtx_1650_gddr6_gets_the_gddr6_chip(community):
    g6 = [p for p in community if p.chip_model.startswith("GeForce GTX 1650")
          and "GDDR6" in p.model and "SUPER" not in p.model.upper()]
    assert len(g6) >= 20
    assert all(p.bandwidth_gbs == 192.0 and p.chip_model == "GeForce GTX 1650 GDDR6" for p in g6)
    assert all("GeForce GTX 1650 GDDR6 (GDDR6, 4 GB)" in p.notes for p in g6)
    ddr4 = [p for p in community if p.chip_model == "GeForce GT 1030 DDR4"]
    assert ddr4 and all(p.bandwidth_gbs == 16.8 for p in ddr4)


def test_chip_join_reads_the_memory_type():
    g5 = opendb.Chip("GeForce GTX 1650", "NVIDIA", "TU117", "Turing", 4, "GDDR5", 128.1, 2.98, 75, 3, 16, 2019)
    g6 = opendb.Chip("GeForce GTX 1650 GDDR6", "NVIDIA", "TU117", "Turing", 4, "GDDR6", 192.0, 2.85, 75, 3, 16, 2020)
    table = opendb.ChipTable([g5, g6])
    assert table.join("GeForce GTX 1650", 4, "GDDR6") is g6
    assert table.join("GeForce GTX 1650", 4, "GDDR5") is g5
    assert table.join("GeForce GTX 1650", 4) is g5
    assert opendb.same_memory("HBM2e", "HBM2") and not opendb.same_memory("GDDR6X", "GDDR6")


def test_workstation_cards_and_4090s_are_kept(community):
    a6000 = [p for p in community if p.chip_model == "RTX A6000"]
    a5000 = [p for p in community if p.chip_model == "RTX A5000"]
    assert a6000 and a5000
    assert all(p.power_connectors == ("8-pin EPS",) for p in a6000)
    r4090 = [p for p in community if p.chip_model == "GeForce RTX 4090"]
    assert len(r4090) >= 40
    stand_in = [p for p in r4090 if "OpenDB records no power connector" in (p.notes or "")]
    assert len(stand_in) >= 12  # OpenDB lists no connector: kept, the reference board's shown
    assert all(p.power_connectors == ("12VHPWR",) and "power_connectors" in p.unverified for p in stand_in)


def test_connector_kinds():
    eps = opendb.Chip("RTX A6000", "NVIDIA", "GA102", "Ampere", 48, "GDDR6", 768, 38.7, 300, 4, 16, 2020,
                      connector_text="8-pin EPS")
    conns, note = opendb.read_connectors({"pcie_8_pin": 1}, eps)
    assert conns == ["8-pin EPS"] and "EPS" in note
    assert opendb.reference_connectors("1x 6-pin + 1x 8-pin", 2018) == ["6-pin", "8-pin"]
    assert opendb.reference_connectors("1x 16-pin", 2022) == ["12VHPWR"]
    assert opendb.reference_connectors("1x 16-pin", 2025) == ["12V-2x6"]
    assert opendb.connectors({"pcie_12V_2x6": 1, "pcie_12VHPWR": 0}) == ["12V-2x6"]


SPOT_CHECK_BLOWERS = [  # issue 40: the blind spot-check's 8 blower designs shipped as open-air
    ("gpu-odb-xfx-radeon-rx-vega-56-rx-vegmlbfx6-8gb-hbm2-black-red-128060fb", "vega-part-number"),
    ("gpu-odb-xfx-radeon-rx-vega-64-rx-vegmtbfx6-black-red-8gb-hbm2-black-red-a9163122", "vega-part-number"),
    ("gpu-odb-msi-air-boost-oc-radeon-rx-vega-56-8gb-hbm2-black-red-8afee60c", "vega-air-boost"),
    ("gpu-odb-hp-c2j94at-quadro-k4000-3-gb-5c6ed801", "kepler-quadro"),
    ("gpu-odb-pny-vcqk4000-pb-quadro-k4000-3-gb-1c22a70b", "kepler-quadro"),
    ("gpu-odb-pny-vcqk4200-pb-quadro-k4200-4-gb-6fc4bf39", "kepler-quadro"),
    ("gpu-odb-pny-vcqk5200-pb-quadro-k5200-8-gb-80dc6180", "kepler-quadro"),
    ("gpu-odb-pny-vcqk6000-pb-quadro-k6000-12-gb-666e85c8", "kepler-quadro"),
]


@pytest.mark.parametrize("pid, family", SPOT_CHECK_BLOWERS, ids=[b[1] + b[0][8:30] for b in SPOT_CHECK_BLOWERS])
def test_the_spot_checks_blowers_come_in_as_blowers(by_id, pid, family):
    p = by_id[pid]
    assert p.community and p.cooler == "blower" and "cooler" in p.unverified
    assert p.cooler_derived and "(" in p.cooler_derived


def test_the_rules_behind_the_spot_checks_blowers():
    """At the importer's rule, one case per family: a part number is no product line, "Air Boost"
    is MSI's reference-board blower, Kepler Quadros are NVIDIA's blower boards; partner lines with
    their own coolers stay out."""
    def rule(name, maker, chip, length=270):
        r = opendb.derive_cooler(name, chip, maker, length, "1 Fan")
        return r.key if r else None
    assert rule("XFX Radeon RX VEGA 56 RX-VEGMLBFX6 8GB HBM2 Black / Red", "XFX", "Radeon RX Vega 56") \
        == "amd-reference-blower"
    assert rule("MSI AIR BOOST OC Radeon RX VEGA 56 8GB HBM2", "MSI", "Radeon RX Vega 56") == "amd-reference-blower"
    assert rule("PNY VCQK5200-PB Quadro K5200 8 GB", "PNY", "Quadro K5200") == "nvidia-pro-blower"
    assert rule("ASUS ROG STRIX RX VEGA 64 O8G", "ASUS", "Radeon RX Vega 64", 298) is None
    assert rule("Sapphire NITRO+ Radeon RX Vega 56 8GB", "Sapphire", "Radeon RX Vega 56", 310) is None
    assert rule("PNY Quadro K620 2 GB", "PNY", "Quadro K620", 160) is None


GDDR5_CARDS = [  # issue 40: GT 710/730 GDDR5 cards that had the DDR3 row's bandwidth
    ("gpu-odb-asus-geforce-gt-730-2-gb-gddr5-2c6c5c03", "gt730"),
    ("gpu-odb-evga-02g-p3-3733-kr-geforce-gt-730-2-gb-d8170a95", "gt730"),
    ("gpu-odb-gigabyte-gv-n730d5-2gl-geforce-gt-730-2-gb-fa2175d1", "gt730"),
    ("gpu-odb-msi-n730k-2gd5lp-oc-geforce-gt-730-2-gb-bfa790bf", "gt730"),
    ("gpu-odb-asus-gt710-4h-sl-2gd5-geforce-gt-710-2-gb-pcie-x1-958c5c14", "gt710"),
    ("gpu-odb-asus-gt710-sl-2gd5-geforce-gt-710-2-gb-ea83bfee", "gt710"),
]


@pytest.mark.parametrize("pid, family", GDDR5_CARDS, ids=[b[1] + b[0][8:30] for b in GDDR5_CARDS])
def test_gddr5_cards_get_gddr5_figures(by_id, pid, family):
    p = by_id[pid]
    assert p.memory_type == "GDDR5" and 38 <= p.bandwidth_gbs <= 42, (p.memory_type, p.bandwidth_gbs)
    assert "memory_type" in p.unverified
    # the GT 730 has a GDDR5 row of its own name; the GT 710's figure is the same die's, unconfirmed
    assert ("bandwidth_gbs" in p.unverified) == (family == "gt710")


def test_memory_row_by_name_then_by_die_and_bus():
    ddr3 = opendb.Chip("GeForce GT 710", "NVIDIA", "GK208B", "Kepler", 2, "DDR3", 14.4, 0.37, 19, 2, 8, 2014,
                       bus_bits=64)
    gt730_ddr3 = opendb.Chip("GeForce GT 730", "NVIDIA", "GF108", "Fermi", 2, "DDR3", 25.6, 0.27, 49, 2, 16, 2014,
                             bus_bits=128)
    gt730_gddr5 = opendb.Chip("GeForce GT 730", "NVIDIA", "GK208B", "Kepler", 1, "GDDR5", 40.1, 0.69, 38, 2, 8, 2014,
                              bus_bits=64)
    t = opendb.ChipTable([ddr3, gt730_ddr3, gt730_gddr5])
    assert t.memory_row(gt730_ddr3, "GDDR5") == (gt730_gddr5, True)
    assert t.memory_row(ddr3, "GDDR5") == (gt730_gddr5, False)
    assert t.memory_row(ddr3, "HBM2") is None
