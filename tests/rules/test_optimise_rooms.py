"""The optimiser's search in rooms (issue 36): no class of the rules over 500 lines, the search
itself small, the risers a mount composed into it (not a subclass), the explanation an object given
what it needs; and what the riser searches share (issue 37): the platform's draw as the power model
counts it (two CPUs on a dual-socket board), so the search's wall and PSU floors are the checks'."""
from __future__ import annotations

import ast
from pathlib import Path

import rigbuilder.rules as rules
from rigbuilder.domain.build import Settings
from rigbuilder.domain.parts import CPU, Motherboard
from rigbuilder.models import power as power_model
from rigbuilder.rules.optimise import explain, frames, search
from rigbuilder.rules.optimise.mount import InSlots
from rigbuilder.rules.optimise.power import Power


def _classes():
    for path in Path(rules.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                yield f"{path.name}:{node.name}", node.end_lineno - node.lineno + 1


def test_no_class_of_the_rules_is_over_500_lines_and_the_search_under_300():
    sizes = dict(_classes())
    assert sizes["search.py:_Search"] < 300, sizes["search.py:_Search"]
    assert not {k: v for k, v in sizes.items() if v > 500}


def test_risers_are_a_mount_composed_into_the_search_and_the_explanation_no_mixin():
    assert issubclass(frames.OnRiser, InSlots)
    assert not any(issubclass(v, search._Search) and v is not search._Search
                   for v in vars(frames).values() if isinstance(v, type))
    assert search._Search.__bases__ == (object,)
    assert not hasattr(explain, "Explaining")


def test_the_platform_draw_counts_every_cpu_of_a_dual_socket_board(shipped):
    parts, _ = shipped
    boards = [p for p in parts if isinstance(p, Motherboard) and p.cpu_sockets == 2]
    assert boards
    b = boards[0]
    c = next(p for p in parts if isinstance(p, CPU) and p.socket == b.socket)
    pw = Power(Settings(), 3.0)
    model = power_model.components(gpus=[], cpu=c, board=b, memory=[], storage=[], cooler=None, nics=[],
                                   case_fans=False)
    want = sum(comp.watts["peak"] for comp in model)
    assert pw.platform(b, c)[2] == want
    assert pw.platform(b, c)[2] > pw.part(c)[2] + pw.part(b)[2]  # one CPU more than the parts one by one


def test_prices_and_the_sessions_work_are_kept_while_the_catalog_stands(shipped):
    """The process keeps the prices of a catalog per (currency, condition, region, day) (issue 37:
    ``prices.prices_for``), and prices again once the catalog changed: another price book, an edited part;
    the work the searches made with one scorer share (``frames._session``) is dropped likewise."""
    import dataclasses

    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.domain.money import PriceBook
    from rigbuilder.domain.parts import GPU
    from rigbuilder.rules.optimise import Request
    from rigbuilder.rules.optimise.prices import prices_for

    parts, _ = shipped
    g = next(p for p in parts if isinstance(p, GPU) and p.price)
    cat = PartIndex([dataclasses.replace(g, price=1000.0, currency="EUR", price_note="test")], prices=PriceBook())
    req = Request(currency="EUR", region="DE-16A", today="2026-11-29")
    first = prices_for(req, cat)
    from tests.rules.optimise_helpers import StandIn

    scorer = StandIn()
    base = frames._session(cat, scorer)
    assert frames._session(cat, scorer) is base and frames._session(cat, StandIn()) is not base
    assert frames._session(cat, object()) == {}  # a scorer that cannot be weakly referenced shares nothing
    assert first.unit(g.id)[0] > 0
    assert prices_for(req, cat) is first
    assert prices_for(dataclasses.replace(req, budget=5000.0, objective="per-cost"), cat) is first  # not read
    assert prices_for(dataclasses.replace(req, currency="USD"), cat) is not first
    cat.add(dataclasses.replace(g, price=2000.0, currency="EUR", price_note="test"))  # an edited part: a new object
    again = prices_for(req, cat)
    assert again is not first and again.unit(g.id)[0] == 2 * first.unit(g.id)[0]
    base2 = frames._session(cat, scorer)
    assert base2 is not base
    cat.prices = PriceBook()  # a new price book (an import, new exchange rates)
    assert prices_for(req, cat) is not again and frames._session(cat, scorer) is not base2


def test_searches_that_follow_one_another_answer_as_searched_alone(index):
    """The searches made with one scorer share their work (issue 37: ``frames._session``): another objective's,
    another budget's, the power-limit steps', risers' and the first search's again after a price changed
    give the answers they give searched alone (with a copy of the scorer: nothing shared)."""
    import copy
    import dataclasses

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from rigbuilder.rules.optimise import OptimiseError, optimise
    from tests.rules.optimise_helpers import StandIn
    from tests.rules.test_exact_optimise import LOOSE, NO_SHRINK, _answer, requests, small_catalog

    scorer = StandIn()
    found = {"compared": 0, "answers": 0}

    def same(sub, cat) -> None:
        try:
            alone = _answer(optimise(sub, cat, copy.copy(scorer)))
        except OptimiseError:  # a request that cannot be searched (within-budget without a budget)
            return
        got = _answer(optimise(sub, cat, scorer))
        assert got == alone, sub
        found["compared"] += 1
        found["answers"] += bool(got[0])

    @settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(small_catalog(index, scorer))
        req = dataclasses.replace(data.draw(requests()), insist=(), own=(), **LOOSE)
        first = optimise(req, cat, scorer)  # its work is kept for the scorer
        for sub in (*(dataclasses.replace(req, objective=o) for o in ("per-cost", "within-budget", "cheapest")),
                    dataclasses.replace(req, budget=None), dataclasses.replace(req, budget=(req.budget or 3000.0) * 1.5),
                    dataclasses.replace(req, power_limit=None, power_limits=(1.0, 0.8)),
                    dataclasses.replace(req, risers=True), dataclasses.replace(req, top=1)):
            same(sub, cat)
        if first.best is not None:  # the other cards far cheaper: the catalog changed, nothing kept is used
            for g in [p for p in cat if p.KIND == "gpu" and p.id != first.best.gpu.id and p.price]:
                cat.add(dataclasses.replace(g, price=g.price / 4))
            same(req, cat)
            same(dataclasses.replace(req, objective="per-cost"), cat)

    check()
    assert found["compared"] >= 40 and found["answers"] >= 10, found
