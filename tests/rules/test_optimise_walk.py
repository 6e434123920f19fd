"""The optimiser's lazy walk over a triple's combinations (issue 29's speed): every combination once,
cheapest first, the budget's cut only where nothing after it fits; and the search still answers
Cancel from inside a triple."""
from __future__ import annotations

import itertools
import random
import sys
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Optional

import pytest

from rigbuilder.rules.optimise import Cancelled, Request, optimise
from rigbuilder.rules.optimise.search import _Walk
from tests.rules.optimise_helpers import StandIn


@dataclass(frozen=True)
class _Part:
    id: str
    price: float
    efficiency: str = "80 PLUS Gold"
    wattage: int = 0


class _Power:
    """No energy: the walk's keys are the prices alone."""

    def part(self, p):
        return (0.0, 0.0, 0.0)

    def energy_floor(self, dc):
        return 0.0

    def energy_rates(self, psus, lo, hi):
        return (0.0, 0.0)


@dataclass
class _Search:
    budget: Optional[float]
    counts: dict = field(default_factory=dict)
    owned: dict = field(default_factory=dict)
    _shared: dict = field(default_factory=dict)
    power: _Power = field(default_factory=_Power)

    def __post_init__(self):
        self.req = SimpleNamespace(budget=self.budget)

    def price(self, p, owned_units=0, units=1):
        return 0.0 if p is None else p.price

    def count(self, bound, n=1):
        self.counts[bound] = self.counts.get(bound, 0) + n


def _lists(rnd: random.Random):
    def kind(name, n):
        return [_Part(f"{name}{i}", float(rnd.randint(10, 60))) for i in range(n)]

    psus = [(_Part(f"psu{i}", float(rnd.randint(40, 90)), wattage=850), None) for i in range(3)]
    return kind("case", 3), kind("cooler", 2), kind("mem", 3), [None], psus


@pytest.mark.parametrize("seed", range(6))
def test_walk_gives_every_combination_once_cheapest_first(seed):
    rnd = random.Random(seed)
    cases, coolers, mems, stores, psus = _lists(rnd)
    walk = _Walk(_Search(None), cases, coolers, mems, stores, psus, now=0.0, total=0.0, fixed_dc=(0.0, 0.0, 0.0))
    sums, orders = [], []
    while walk.left:
        floor = walk.floor()
        order, (case, cooler, mem, sto, (psu_now, p1, p2)), rest = walk.next()
        total = rest + psu_now
        assert total >= floor  # nothing walked later is cheaper than the floor said
        assert rest == case.price + cooler.price + mem.price
        sums.append(total)
        orders.append(order)
    assert sums == sorted(sums)
    want = set(itertools.product(range(3), range(2), range(3), range(1), range(3)))
    assert sorted(orders) == sorted(want)


@pytest.mark.parametrize("seed", range(6))
def test_walk_skips_only_what_is_over_the_budget(seed):
    rnd = random.Random(seed)
    cases, coolers, mems, stores, psus = _lists(rnd)
    budget = 150.0
    search = _Search(budget)
    walk = _Walk(search, cases, coolers, mems, stores, psus, now=0.0, total=0.0, fixed_dc=(0.0, 0.0, 0.0))
    got = set()
    walked = 0
    while walk.left:
        out = walk.next()
        walked += 1
        if out is not None:
            order, (case, cooler, mem, sto, (psu_now, p1, p2)), rest = out
            got.add((case.id, cooler.id, mem.id, p1.id))
    within = {(a.id, b.id, c.id, p.id) for a, b, c, (p, _) in itertools.product(cases, coolers, mems, psus)
              if a.price + b.price + c.price + p.price <= budget}
    assert within <= got  # every combination within the budget comes
    assert search.counts.get("combination: over budget now", 0) + len(got) == 3 * 2 * 3 * 3
    assert walked <= 3 * 2 * 3 * 3


def test_cancel_is_asked_inside_a_triple(index):
    """Cancel answers while the combinations of one (GPU, board, CPU) are walked and judged."""
    seen = []

    def cancelled():
        code = sys._getframe(1).f_code
        inside = code.co_name == "search" and code.co_filename.endswith("triple.py")  # ``triple.Triple.search``
        seen.append(inside)
        return inside

    with pytest.raises(Cancelled):
        optimise(Request(budget=2000.0, currency="EUR", condition="both", gpus_now=1, grow_to=4,
                         choices=(("training-vram", False),)), index, StandIn(),
                 cancelled=cancelled)
    assert seen[-1] is True
