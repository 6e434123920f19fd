"""The optimiser finds the same optimum as brute force over small catalogs (issue 18).

The disagreements once seen only in full runs (no placement found on an ASUS ProArt B550-Creator
where brute force had one) had, as far as we found, one cause: the optimiser judged the air in front of an
open-air card without the thermal check's rule that an unconfirmed community cooler type gives at
most a warning. Both now ask ``rules.geometry.fan_gap_severity``.

Each example draws a few real parts of every kind with random prices (some left unpriced) and a
random request; brute force (tests/rules/optimise_helpers.py) enumerates every combination of
parts, every placement and every subset for today's cards and judges them with the check engine.
"""
from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.money import PriceBook
from rigbuilder.rules.optimise import OptimiseError, Request, optimise
from tests.rules.optimise_helpers import StandIn, brute_force, same_key

# No shrinking: a failing example is reported as drawn (shrinking one took over five minutes).
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
SIZES = {"gpu": 3, "motherboard": 2, "cpu": 3, "cooler": 2, "memory": 2, "storage": 2, "case": 2, "psu": 3}
POOLS = {  # parts that can make complete builds together, so that many examples have an optimum
    "motherboard": ["mb-asrock-x99-ws-e", "mb-gigabyte-x399-aorus-pro", "mb-gigabyte-trx40-aorus-xtreme",
                    "mb-asus-proart-b550-creator", "mb-asus-pro-ws-x570-ace", "mb-asus-x99-e-ws"],
    "case": ["case-fractal-meshify-2-xl", "case-fractal-define-7-xl", "case-phanteks-enthoo-719",
             "case-corsair-750d-airflow", "case-nzxt-h9-flow", "case-fractal-north", "case-corsair-5000d-airflow"],
    "cooler": ["cool-noctua-nh-u14s-tr4-sp3", "cool-noctua-nh-d15", "cool-arctic-freezer-33-tr",
               "cool-be-quiet-dark-rock-pro-4", "cool-arctic-liquid-freezer-ii-360"],
}


_POOLS: dict[tuple[int, int], tuple] = {}
PLATFORM_OFF = (("training-vram", False), ("platform-link", False), ("platform-age", False))
"""Issue 37's card and platform choices, off where a test is about another variable (power-limit steps, the noise
limit): on the drawn small catalogs they leave too few builds (``test_same_optimum_as_brute_force`` keeps them on)."""
SOCKETS_OFF = (("native-sockets", False),)
"""Off for the power-limit steps: three PSUs drawn rarely give the drawn 12V-2x6 cards a native socket each, which
left too few builds to compare steps (``test_same_optimum_as_brute_force`` and
``test_native_sockets_agree_with_brute_force`` keep it on)."""
LOOSE = dict(allow_warnings=True, choices=(("memory-channels", False), ("system-drive", False), *PLATFORM_OFF))
"""The budget floors', the card count's and the risers' tests: warnings allowed and two of the builder's choices off, so
that the small catalogs have builds at all (the policy and the choices meet brute force in
``test_same_optimum_as_brute_force``)."""


def _pools(index: PartIndex, scorer) -> dict[str, list]:
    """Each kind's parts sorted by id, the pooled kinds' and the GPUs' filtered as below: the same
    lists for every example of a test, so worked out once per catalog and scorer (the drawn boards'
    filters follow in ``small_catalog``)."""
    got = _POOLS.get((id(index), id(scorer)))
    if got is None or got[0] is not index or got[1] is not scorer:
        pools = {}
        for kind in SIZES:
            pool = sorted(index.of_kind(kind), key=lambda p: p.id)
            if kind in POOLS:
                pool = [p for p in pool if p.id in POOLS[kind]]
            if kind == "gpu":
                pool = [g for g in pool if g.tensor_tflops and g.cooler != "passive"
                        and (scorer is None or (scorer.card(g) and scorer.fits(g, 3)))]
            # drives and kits a builder would take (issue 37's choices) and a few he would not, so that
            # most examples have builds and the choices' filters are exercised
            if kind == "storage":
                good = [p for p in pool if p.capacity_gb >= 1000 and p.pcie_lanes > 0]
                pool = good[:40] + [p for p in pool if p not in good][:4]
            if kind == "memory":
                pool = [m for m in pool if m.modules >= 2] + [m for m in pool if m.modules < 2][:2]
            pools[kind] = pool
        got = _POOLS[(id(index), id(scorer))] = (index, scorer, pools)  # (kept alive: ids stay theirs)
    return got[2]


@st.composite
def small_catalog(draw, index: PartIndex, scorer=None, unpriced_kinds=("cooler", "memory", "storage")):
    """``unpriced_kinds``: kinds whose every drawn part may lack a price (of the others, the first
    drawn always has one)."""
    parts = []
    pools = _pools(index, scorer)
    for kind, n in SIZES.items():
        pool = pools[kind]
        sockets = {p.socket for p in parts if p.KIND == "motherboard"}
        if kind == "cpu":  # CPUs that fit the drawn boards, or the search rarely has a pair
            pool = [c for c in pool if c.socket in sockets] or pool
        if kind == "cooler":  # likewise coolers (a Threadripper cooler with only AM4 boards answers nothing)
            pool = [k for k in pool if not k.sockets or sockets & set(k.sockets)] or pool
        if kind == "memory":  # and memory of the boards' type
            types = {p.memory_type for p in parts if p.KIND == "motherboard"}
            pool = [m for m in pool if m.type in types] or pool
        chosen = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=n, unique_by=lambda p: p.id))
        for i, p in enumerate(chosen):
            unpriced = draw(st.integers(0, 5)) == 0 and (i > 0 or kind in unpriced_kinds)
            price = None if unpriced else draw(st.integers(20, 3000))
            parts.append(dataclasses.replace(p, price=None if price is None else float(price), currency="EUR",
                                             price_note="test"))
    return PartIndex(parts, prices=PriceBook())


@st.composite
def requests(draw):
    n0 = draw(st.integers(1, 2))
    n1 = draw(st.integers(n0, 3))
    return Request(budget=draw(st.one_of(st.none(), st.integers(1500, 12000).map(float))), currency="EUR",
                   gpus_now=n0, grow_to=n1, region=draw(st.sampled_from(["EU-16A", "US-15A"])),
                   quiet=draw(st.booleans()), second_psu=draw(st.booleans()), psu_headroom=draw(st.booleans()),
                   ram_per_vram=draw(st.sampled_from([0.0, 1.0])), min_storage_gb=0.0, years=draw(st.sampled_from([0.0, 3.0])),
                   top=draw(st.integers(1, 3)), power_limit=draw(st.sampled_from([None, None, 0.8, 0.65])),
                   objective=draw(st.sampled_from([None, None, "per-cost", "within-budget", "cheapest"])),
                   target_throughput=draw(st.sampled_from([None, 50.0, 200.0])),
                   allow_warnings=draw(st.sampled_from([False, False, True])))



@st.composite
def with_fixed_part(draw, cat: PartIndex, req: Request) -> Request:
    """The request, sometimes with a part (not a GPU) the user owns or insists on."""
    parts = sorted((p for p in cat if p.KIND != "gpu"), key=lambda p: p.id)
    how = draw(st.sampled_from(["none", "none", "own", "insist"]))
    if how == "none" or not parts:
        return req
    p = draw(st.sampled_from(parts))
    return dataclasses.replace(req, **{how: ((p.KIND, p.id),)})


def scorers():
    """The tests' stand-in (throughput depends on the links) and, where this version has it, the
    shipped throughput model for a training and an inference workload."""
    out = [pytest.param(StandIn, id="stand-in")]
    from rigbuilder.rules.optimise.scoring import AdviserScorer, ThroughputUnavailable

    for wid in ("cnn-training", "llm-inference"):
        try:
            AdviserScorer(wid)
        except ThroughputUnavailable:
            out.append(pytest.param(None, id=f"adviser-{wid}", marks=pytest.mark.skip("no throughput model")))
        else:
            out.append(pytest.param(lambda wid=wid: AdviserScorer(wid), id=f"adviser-{wid}"))
    return out


@pytest.mark.parametrize("make_scorer", scorers())
def test_same_optimum_as_brute_force(index, make_scorer):
    scorer = make_scorer()
    found = {"feasible": 0, "infeasible": 0}

    # Derandomized: the same 40 examples every run, so the suite cannot fail by the draw of a seed
    # (random seeds gave few feasible examples now and then, under the guard below). Wider random
    # runs: raise max_examples and drop derandomize by hand (8 seeds x 15 examples with the
    # stand-in, run by hand, agreed with brute force).
    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(small_catalog(index, scorer))
        req = data.draw(with_fixed_part(cat, data.draw(requests())))
        # the smallest drive size (issue 29's default, 500 GB) or any drive, drawn last: the draws above are as before
        req = dataclasses.replace(req, min_storage_gb=data.draw(st.sampled_from([0.0, 500.0])))
        try:
            res = optimise(req, cat, scorer)
        except OptimiseError as e:  # an insisted part without a price: refused, as brute force must agree
            assert req.insist and cat.get(req.insist[0][1]).price is None, e
            return
        want = brute_force(req, cat, scorer)
        if want is None:
            assert res.best is None, f"brute force finds nothing, the search found {res.best.grown}"
            assert res.infeasible
            found["infeasible"] += 1
            return
        assert res.best is not None, f"the search found nothing ({res.infeasible}); brute force {want}"
        assert same_key(res.best.key, want), (res.best.key, want, res.best.grown)
        found["feasible"] += 1

    check()
    assert found["feasible"] >= 3, found  # the examples must exercise real optima, not only empty answers


@pytest.mark.parametrize("make_scorer", scorers()[:1])
def test_power_limit_steps_give_the_best_step(index, make_scorer):
    """With the power limit as a search variable (issue 29), the answer is the best of the steps:
    brute force at each step, the best key of all of them."""
    scorer = make_scorer()
    found = {"feasible": 0}

    @settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(small_catalog(index, scorer))
        req = dataclasses.replace(data.draw(requests()), power_limit=None, insist=(), own=(),
                                  power_limits=(1.0, 0.8, 0.65), choices=(*PLATFORM_OFF, *SOCKETS_OFF))
        res = optimise(req, cat, scorer)
        keys = [k for f in req.power_limits
                if (k := brute_force(dataclasses.replace(req, power_limits=(), power_limit=None if f >= 1 else f),
                                     cat, scorer)) is not None]
        if not keys:
            assert res.best is None and res.infeasible
            return
        assert res.best is not None
        assert same_key(res.best.key, min(keys)), (res.best.key, min(keys))
        found["feasible"] += 1

    check()
    assert found["feasible"] >= 2, found


def test_card_count_as_a_variable_agrees_with_brute_force(index):
    """--gpus 1-2 (issue 37): each count searched, the best of all by the objective's key; brute force
    at each count, the best key of all of them."""
    scorer = StandIn()
    found = {"feasible": 0}

    @settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(small_catalog(index, scorer))
        req = dataclasses.replace(data.draw(requests()), gpus_now=1, grow_to=None, insist=(), own=(),
                                  gpu_counts=(1, 2), **LOOSE)
        res = optimise(req, cat, scorer)
        keys = [k for n in (1, 2) if (k := brute_force(dataclasses.replace(req, gpus_now=n, gpu_counts=()), cat,
                                                        scorer)) is not None]
        if not keys:
            assert res.best is None and res.infeasible
            return
        assert res.best is not None
        assert same_key(res.best.key, min(keys)), (res.best.key, min(keys))
        found["feasible"] += 1

    check()
    assert found["feasible"] >= 2, found


def test_tight_budgets_agree_with_brute_force(index):
    """The budget floors (per GPU, per board and CPU before their parts, per triple; a second PSU
    bought only when growing) remove only builds over budget: near the cheapest build's price
    the answer is brute force's, or none when brute force has none (issue 29)."""
    scorer = StandIn()
    found = {"feasible": 0, "infeasible": 0, "checked": 0}

    @settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(small_catalog(index, scorer, unpriced_kinds=()))  # the budget floors, not a missing kind
        req = dataclasses.replace(data.draw(requests()), gpus_now=1, grow_to=data.draw(st.integers(2, 3)),
                                  second_psu=True, insist=(), own=(), budget=None, **LOOSE)
        free = optimise(req, cat, scorer).best  # the budget is set at, or just under, its purchase now
        if free is None:
            return
        req = dataclasses.replace(req, budget=free.cost_now - data.draw(st.sampled_from([0.0, 0.5, 0.5, 300.0])))
        found["checked"] += 1
        res = optimise(req, cat, scorer)
        want = brute_force(req, cat, scorer)
        if want is None:
            assert res.best is None and res.infeasible
            found["infeasible"] += 1
            return
        assert res.best is not None, f"the search found nothing ({res.infeasible}); brute force {want}"
        assert same_key(res.best.key, want), (res.best.key, want)
        found["feasible"] += 1

    check()
    assert found["checked"] >= 3, found  # budgets at or just under the free answer's purchase now


@st.composite
def with_risers(draw, cat: PartIndex) -> PartIndex:
    """The small catalog with one or two risers and an open frame (test fixtures with drawn figures):
    the riser builds of issue 29 compete with the builds in slots."""
    from tests.risers import frame, riser

    extra = [riser(id=f"riser-drawn-{i}", price=float(draw(st.integers(5, 120))), pcie_gen=draw(st.sampled_from([3, 4])),
                   lanes=draw(st.sampled_from([16, 16, 1])), length_mm=draw(st.sampled_from([200, 300, 600])))
             for i in range(draw(st.integers(1, 2)))]
    if draw(st.integers(0, 3)):
        extra.append(frame(price=float(draw(st.integers(20, 200))), vertical_gpu_slots=draw(st.integers(2, 8)),
                           riser_min_length_mm=draw(st.sampled_from([None, 200.0, 300.0, 450.0])),
                           max_gpu_length_mm=draw(st.sampled_from([None, None, 300.0]))))
    return PartIndex(list(cat) + extra, prices=PriceBook())


def test_risers_and_open_frames_agree_with_brute_force(index):
    """Issue 29: with risers and frames as a search variable, the answer is brute force's (every part,
    every placement in slots, and every riser model with its cables in any slots)."""
    scorer = StandIn()
    found = {"feasible": 0, "risers": 0}

    @settings(max_examples=14, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(with_risers(data.draw(small_catalog(index, scorer))))
        req = dataclasses.replace(data.draw(requests()), insist=(), own=(), min_storage_gb=0.0, risers=True,
                                  budget=data.draw(st.sampled_from([None, None, 6000.0])), **LOOSE)
        res = optimise(req, cat, scorer)
        want = brute_force(req, cat, scorer)
        if want is None:
            assert res.best is None and res.infeasible
            return
        assert res.best is not None, f"the search found nothing ({res.infeasible}); brute force {want}"
        assert same_key(res.best.key, want), (res.best.key, want, res.best.grown)
        found["feasible"] += 1
        found["risers"] += any(g.riser for g in res.best.grown.gpus)
        off = optimise(dataclasses.replace(req, risers=False), cat, scorer)
        assert not any(g.mount == "riser" for c in off.candidates for g in c.grown.gpus)

    check()
    assert found["feasible"] >= 2 and found["risers"] >= 1, found


def _answer(res) -> tuple:
    """What a merged answer says: its builds (name, rank key, total, power limit), why none, and
    its explanation (each step's line among it)."""
    from rigbuilder.domain.i18n import render

    return ([(render(c.label, "en"), c.key, round(c.total, 6), c.grown.gpus[0].power_limit_w) for c in res.candidates],
            res.infeasible and render(res.infeasible, "en"), [render(x, "en") for x in res.explanation])


def _apart(req: Request, cat: PartIndex, scorer):
    """The power-limit steps searched one by one, each on its own (a copy of the scorer each: the searches made
    with one scorer share their work, issue 37), and merged (as before they shared work)."""
    import copy

    from rigbuilder.rules.optimise.explain import merge_steps

    return merge_steps(req, [(f, optimise(dataclasses.replace(req, power_limits=(), power_limit=None if f >= 1 else f),
                                          cat, copy.copy(scorer))) for f in req.power_limits], 0.0)


def test_power_limit_steps_answer_as_if_searched_apart(index):
    """The steps share their parts lists and bound each other (a build the steps searched before beat
    in the merged answer, and worse than its own step's next best, is not searched; issue 29): the
    builds, each step's line and the winner's explanation are those of the steps searched apart."""
    scorer = StandIn()
    found = {"compared": 0}

    @settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(small_catalog(index, scorer))
        req = dataclasses.replace(data.draw(requests()), power_limit=None, insist=(), own=(),
                                  power_limits=data.draw(st.sampled_from([(1.0, 0.8, 0.65), (0.9, 1.0, 0.7)])),
                                  top=data.draw(st.integers(1, 4)), choices=PLATFORM_OFF)
        assert _answer(optimise(req, cat, scorer)) == _answer(_apart(req, cat, scorer))
        found["compared"] += 1

    check()
    assert found["compared"] >= 10


def test_power_limit_steps_bound_each_other_on_the_shipped_catalog(index):
    """On the shipped catalog the steps searched after the first are cut by the first one's builds,
    and the answer is still that of the steps searched apart."""
    from rigbuilder.rules.optimise import LIMIT_STEPS
    from rigbuilder.rules.optimise.scoring import AdviserScorer, ThroughputUnavailable

    try:
        scorer = AdviserScorer("cnn-training")
    except ThroughputUnavailable:
        pytest.skip("no throughput model")
    # 1,500 EUR: at 1,000 EUR the top three, now three different builds (a card's makers' variants share a row),
    # are far enough apart that the first step's builds cut nothing of the others (the answer still agrees)
    req = Request(budget=1500.0, currency="EUR", gpus_now=1, power_limits=LIMIT_STEPS, top=3, objective="per-cost",
                  choices=PLATFORM_OFF)
    res = optimise(req, index, scorer)
    assert res.bounds.get("power-limit steps: the builds of the steps searched before beat it", 0) > 0
    assert res.best is not None and _answer(res) == _answer(_apart(req, index, scorer))


@pytest.mark.parametrize("make_scorer", scorers()[:1])
def test_max_noise_agrees_with_brute_force(index, make_scorer):
    """--max-noise (issue 41) is a constraint every answer meets: the answer is brute force's best
    among the builds at or below the level (the noise model's own figure), or none when it has none.
    The levels are drawn around the builds' own levels so that the limit binds in many examples."""
    from rigbuilder.rules.context import Context

    scorer = make_scorer()
    found = {"feasible": 0, "infeasible": 0, "bound": 0}

    @settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        cat = data.draw(small_catalog(index, scorer))
        req = dataclasses.replace(data.draw(requests()), insist=(), own=(), choices=PLATFORM_OFF)
        free = optimise(req, cat, scorer)
        if free.best is None:
            return
        loud = Context(free.best.grown, cat).noise.level("training")
        # the level: the free answer's rounded up to the tenth (it stays in), less a step taken in turn
        # (not drawn: some Hypothesis versions drew 0 every time, and a level rounded down then left every
        # answer out), so that the limit keeps the free answer in some examples and binds in others
        step = (0.0, 0.5, 2.0, 4.0, 8.0)[sum(found.values()) % 5]
        req = dataclasses.replace(req, max_noise=math.ceil(loud * 10) / 10 - step)
        res = optimise(req, cat, scorer)
        want = brute_force(req, cat, scorer)
        if want is None:
            assert res.best is None, f"brute force finds nothing, the search found {res.best.grown}"
            found["infeasible"] += 1
            return
        assert res.best is not None, f"the search found nothing ({res.infeasible}); brute force {want}"
        assert same_key(res.best.key, want), (res.best.key, want, res.best.grown)
        for c in res.candidates:  # every answer meets the limit
            assert Context(c.grown, cat).noise.level("training") <= req.max_noise + 1e-9
        found["feasible"] += 1
        found["bound"] += res.best.key != free.best.key

    check()
    # the limit is exercised: it changed an answer, or brute force and the search agreed nothing meets it
    assert found["feasible"] >= 3 and found["bound"] + found["infeasible"] >= 1, found


def test_native_sockets_agree_with_brute_force(index):
    """The ``native-sockets`` choice (issue 37): cards with a 12VHPWR/12V-2x6 socket and PSUs with none, one or
    two native sockets; the search and brute force agree, and the choice changes the answer in some examples
    (it is applied, not only agreed on)."""
    from rigbuilder.rules.optimise import choices

    pools = _pools(index, None)
    cards = [g for g in pools["gpu"] if choices.hpwr_plugs(g) == 1 and g.board_power_w and g.board_power_w >= 300]
    psus = sorted((p for p in index.of_kind("psu") if p.wattage >= 1000 and (p.pcie_cables or p.pcie_8pin) >= 8),
                  key=lambda p: p.id)
    by_sockets = {k: [p for p in psus if p.hpwr_sockets == k][:6] for k in (0, 1, 2)}
    assert cards and all(by_sockets.values()), (len(cards), {k: len(v) for k, v in by_sockets.items()})
    found = {"feasible": 0, "bound": 0}

    @settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              phases=NO_SHRINK)
    @given(data=st.data())
    def check(data):
        base = data.draw(small_catalog(index))
        gpus = data.draw(st.lists(st.sampled_from(cards), min_size=1, max_size=2, unique_by=lambda p: p.id))
        ps = [data.draw(st.sampled_from(by_sockets[k])) for k in (0, 1, 2)]
        price = lambda: float(data.draw(st.integers(100, 3000)))  # noqa: E731
        extra = [dataclasses.replace(p, price=price(), currency="EUR", price_note="test") for p in (*gpus, *ps)]
        cat = PartIndex([p for p in base if p.KIND not in ("gpu", "psu")] + extra, prices=PriceBook())
        req = dataclasses.replace(data.draw(requests()), insist=(), own=(), power_limit=None, **LOOSE)
        scorer = StandIn()
        res = optimise(req, cat, scorer)
        want = brute_force(req, cat, scorer)
        if want is None:
            assert res.best is None, res.best.grown
            return
        assert res.best is not None, res.infeasible
        assert same_key(res.best.key, want), (res.best.key, want, res.best.grown)
        found["feasible"] += 1
        off = dataclasses.replace(req, choices=(*req.choices, ("native-sockets", False)))
        loose = brute_force(off, cat, scorer)
        found["bound"] += loose is not None and not same_key(loose, want)

    check()
    # that the choice changes answers is shown on a fixed catalog below: which draws change it depends on what
    # Hypothesis draws in a whole run (it reads constants from the modules loaded)
    assert found["feasible"] >= 3, found


def test_native_sockets_change_the_answer_as_brute_force_does(index):
    """``native-sockets`` applied, not only agreed on (the property test above counts such examples among its
    draws, which Hypothesis may choose otherwise in a whole run): one 12V-2x6 card, a cheap PSU with no native
    socket and a dearer one with one. With the choice the search pays for the socket; without it, it takes the
    cheap PSU and its adapter; brute force agrees both ways."""
    ids = ["mb-asrock-x99-ws-e", "cpu-intel-xeon-e5-2697-v4", "cool-noctua-nh-u14s", "case-phanteks-enthoo-719",
           "mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", "sto-samsung-970-evo-500gb", "gpu-nvidia-rtx-4090-fe"]
    plain, native = "psu-evga-supernova-1600-t2", "psu-seasonic-prime-tx-1600-atx30"
    assert index.get(plain).hpwr_sockets == 0 and index.get(native).hpwr_sockets == 1
    parts = [dataclasses.replace(index.get(i), price=300.0, currency="EUR", price_note="test") for i in ids]
    parts += [dataclasses.replace(index.get(plain), price=100.0, currency="EUR", price_note="test"),
              dataclasses.replace(index.get(native), price=250.0, currency="EUR", price_note="test")]
    cat = PartIndex(parts, prices=PriceBook())
    req = Request(currency="EUR", gpus_now=1, min_storage_gb=0.0, ram_per_vram=0.0, **LOOSE)
    scorer = StandIn()
    on = optimise(req, cat, scorer)
    off_req = dataclasses.replace(req, choices=(*req.choices, ("native-sockets", False)))
    off = optimise(off_req, cat, scorer)
    assert on.best is not None and off.best is not None, (on.infeasible, off.infeasible)
    assert on.best.grown.psus == [native] and off.best.grown.psus == [plain]
    assert same_key(on.best.key, brute_force(req, cat, scorer))
    assert same_key(off.best.key, brute_force(off_req, cat, scorer))
