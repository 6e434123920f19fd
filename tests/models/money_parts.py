"""The parts the money tests price (tests/models/test_prices.py and test_money_lines.py): two cards
at a 1499 USD street price, one card without a price, a CPU at 2702 USD. The prices are street
prices of 2025-07 (stale, never expired), not launch prices: a launch price stops being a new price three years
after the launch (``domain.endofsale``, tested on its own), and these tests are about the sums."""
from __future__ import annotations

from rigbuilder.domain.build import GpuPlacement
from rigbuilder.domain.parts import CPU, GPU


def gpu(pid: str, price=None, cur=None) -> GPU:
    return GPU(pid, "NVIDIA", pid, "maker page", "2020-09", price=price, currency=cur, price_note="street price 2025-07",
               board_power_w=350)


def mixed_parts() -> list:
    """gpu-a (1499 USD), gpu-b (no price), cpu-c (2702 USD launch)."""
    return [gpu("gpu-a", 1499, "USD"), gpu("gpu-b"),
            CPU("cpu-c", "Intel", "Xeon C", "ark", "2016", price=2702, currency="USD", price_note="street price 2025-07")]


def mixed_gpus() -> list[GpuPlacement]:
    """Two gpu-a and one gpu-b, in slots 1, 3 and 5."""
    return [GpuPlacement("gpu-a", 1), GpuPlacement("gpu-a", 3), GpuPlacement("gpu-b", 5)]
