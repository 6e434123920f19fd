"""Data-centre cards people buy used for LLM rigs (issue 40): present, passive, with their EPS
(CPU) power inputs and NVIDIA's documents cited."""
from __future__ import annotations

import pytest

CARDS = {  # id: (VRAM GB, power input)
    "gpu-nvidia-tesla-p40": (24, ("8-pin EPS",)),
    "gpu-nvidia-tesla-p100-pcie-16gb": (16, ("8-pin EPS",)),
    "gpu-nvidia-tesla-p100-pcie-12gb": (12, ("8-pin EPS",)),
    "gpu-nvidia-tesla-m40-24gb": (24, ("8-pin EPS",)),
    "gpu-nvidia-tesla-m40": (12, ("8-pin EPS",)),
    "gpu-nvidia-a10": (24, ("8-pin",)),
    "gpu-nvidia-a10g": (24, ("8-pin EPS",)),
    "gpu-nvidia-a30": (24, ("8-pin EPS",)),
    "gpu-nvidia-v100-pcie-16gb": (16, ("8-pin EPS",)),
    "gpu-nvidia-a40": (48, ("8-pin EPS",)),
    "gpu-nvidia-t4": (16, ()),
    "gpu-nvidia-l4": (24, ()),
    "gpu-nvidia-tesla-p4": (8, ()),
}


@pytest.fixture(scope="module")
def by_id(shipped):
    return {p.id: p for p in shipped[0]}


@pytest.mark.parametrize("pid", sorted(CARDS))
def test_the_card_is_there_passive_with_its_inputs(by_id, pid):
    p = by_id.get(pid)
    vram, inputs = CARDS[pid]
    assert p is not None, pid
    assert p.segment == "datacenter" and p.cooler == "passive" and p.vram_gb == vram
    assert p.power_connectors == inputs
    assert "TechPowerUp" in p.source or "NVIDIA" in p.source


def test_nvidia_documents_are_cited_for_the_new_cards(by_id):
    for pid in ("gpu-nvidia-tesla-p40", "gpu-nvidia-tesla-p100-pcie-16gb", "gpu-nvidia-tesla-m40", "gpu-nvidia-a10",
                "gpu-nvidia-a30"):
        assert "NVIDIA, '" in by_id[pid].source, pid
    # a figure no NVIDIA document gives stays unverified
    assert {"board_power_w", "tensor_tflops"} <= set(by_id["gpu-nvidia-a10g"].unverified)
    # Epoch AI's P40 bandwidth is a GDDR5X figure; the card has GDDR5 at 347 GB/s
    assert by_id["gpu-nvidia-tesla-p40"].bandwidth_gbs == pytest.approx(347.1)
