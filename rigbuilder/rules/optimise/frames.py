"""Risers and open frames as a search variable (issue 29): builds whose cards stand off the board on
riser cables, in an open frame with a position for each card.

For each riser option (the priced risers no other priced riser beats on price, PCIe generation,
lanes and length: a Pareto front; of those, a riser that one no dearer with the same generation and
lanes beats by reaching every frame it reaches is not searched: ``same_link_front``) a search like
``search._Search`` runs with every card on that riser (but the cards to which an earlier riser, no
dearer, with the same lanes and frames gives the same link: ``covered_gens``): the riser is bought with each card (its price counts once per card, today's cards now, the
rest when growing); the cards' cables plug into any ``n`` slots that take the riser's plug (riser
cards cover no slot and need no air gap); the cases are the open frames with at least ``n``
positions (``vertical_gpu_slots``) whose stated minimum riser length (``riser_min_length_mm``) the
riser meets, or, where a frame states none, the length the user measured (``--riser-length``); a frame
with neither is not searched (``risers.reaches``).
The throughput follows the riser's generation and lanes through the scaling model (``models.lanes``:
the link runs at the lowest generation and fewest lanes of slot, riser and card).

Every card of a build goes on the same riser model (the cards are one model; the slowest link paces
data-parallel training, so a faster riser under only some cards buys nothing there); builds that mix
cards in slots and on risers are not searched. An ordinary case's vertical mount is not searched: the catalog's
``vertical_gpu_slots`` of a case count its vertical bracket slots, which hold one card. The answer
is the best over the build with the cards in slots (``search``) and every riser option, ranked as always (``request.rank_key``); each later
search starts from the best builds found before it, so its price bounds prune against them.
``tests/rules/test_exact_optimise.py`` checks the answer against brute force over small catalogs
with risers and frames.
"""
from __future__ import annotations

import dataclasses
import itertools
import weakref
from typing import Callable, Optional

from rigbuilder.domain.build import MOUNT_RISER, GpuPlacement
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import N_, Money, T, nT
from rigbuilder.domain.parts import GPU, Case, Motherboard, Part, Riser
import rigbuilder.rules.optimise.search as S
import rigbuilder.rules.optimise.choices as choices
from rigbuilder.rules.optimise.bounds import pareto
from rigbuilder.rules.optimise.mount import InSlots
from rigbuilder.rules.optimise.explain import noise_cost_lines
from rigbuilder.rules.optimise.prices import catalog_state, prices_for, same_catalog
from rigbuilder.rules.risers import plug_fits, reaches
from rigbuilder.rules.optimise.request import Candidate, Request, Result, Scorer, build_name, figure_num, limit_w


def holds(case: Case, riser: Riser, n: int, measured_mm: Optional[float] = None) -> bool:
    """Whether ``case`` holds ``n`` cards on ``riser``: an open frame with a position for each, and the
    riser known to reach them (``risers.reaches``: at least the length the frame's source states, else
    at least the user's measure ``measured_mm``; a frame with neither is not searched).
    An ordinary case is not searched: its ``vertical_gpu_slots`` in the catalog count vertical bracket
    slots ("9 horizontal + 3 vertical slots"), which hold one vertically mounted card, not one each."""
    return case.open_frame and case.vertical_gpu_slots >= n and reaches(case, riser, measured_mm)


def riser_options(risers: list[Riser], price: Callable[[Riser], Optional[float]]) -> list[tuple[Riser, float]]:
    """The priced risers no other priced riser beats: no dearer, and at least its generation, lanes and
    length (a longer riser reaches every frame a shorter one does). Cheapest first."""
    priced = [(r, p) for r in risers if (p := price(r)) is not None]
    front = pareto(priced, lambda rp: (rp[1], -rp[0].pcie_gen, -rp[0].lanes, -rp[0].length_mm))
    return sorted(front, key=lambda rp: (rp[1], rp[0].id))


class OnRiser(InSlots):
    """The mount with every card on ``riser`` (bought at ``riser_price`` per card) in an open frame
    (see the module's docstring): composed into ``search._Search``, which it gives the cases that
    hold the cards, the card's price with its riser, the slots the riser's plug takes, the cards'
    placements on it, the tie-break and what the answer adds."""
    CARDS_IN_SLOTS = False

    def __init__(self, riser: Riser, riser_price: float, covered_gen: int = 0) -> None:
        self.riser, self.riser_price = riser, riser_price
        self.covered_gen = covered_gen  # cards of this PCIe generation or lower: an earlier riser's (``covered_gens``)
        self.key = ("riser", riser.id)
        self.link = ("riser", riser.pcie_gen, riser.lanes)  # the link runs at the riser's generation and lanes

    def cases(self, pool: list, req: Request, count) -> list:
        n = req.n_grown
        kept = [k for k in pool if isinstance(k, Case) and holds(k, self.riser, n, req.riser_length_mm)]
        if len(kept) < len(pool):
            count("case: not an open frame with a position for every card, or too short a riser", len(pool) - len(kept))
        return kept

    def covers(self, g: GPU) -> bool:
        """Whether an earlier riser option gives ``g``'s cards the same builds for no more (``covered_gens``)."""
        return g.pcie_gen <= self.covered_gen

    def extra(self, p: Optional[Part], units: int) -> float:
        """A card's riser (bought for every card, owned or not)."""
        return self.riser_price * units if isinstance(p, GPU) else 0.0

    def board_placements(self, b: Motherboard, geom: tuple, g: GPU, req: Request, cache: dict) -> list:
        key = (b.id, "riser", self.riser.lanes)
        pl = cache.get(key)
        if pl is None:
            fit = sorted(s.position for s in b.slots if plug_fits(self.riser, s))
            pl = cache[key] = [(pos, 0) for pos in itertools.combinations(fit, req.n_grown)]
        return pl

    def placement(self, g: GPU, position: int, req: Request) -> GpuPlacement:
        return GpuPlacement(g.id, position, MOUNT_RISER, limit_w(g, req.power_limit), self.riser.id)

    def soft(self, b, c, g, pos) -> tuple:
        _gaps, lanes = super().soft(b, c, g, pos)
        return (0, lanes)  # cards on risers stand apart: no air gap between them

    def dress(self, cand: Candidate, b: Motherboard, req: Request, where) -> None:
        r, n0, n1 = self.riser, req.n_now, req.n_grown
        cand.prices.append((r.id, n1, self.riser_price, where(r.id)))
        if r.origin == "user":
            cand.unverified.append(T("{name}: your own figures", name=r.name))
        name = T("{name}, on risers", name=build_name(n0, n1, cand.gpu.model, b.model))
        cand.today.name = T("{name} (today)", name=name)
        cand.grown.name = T("{name} (grown)", name=name) if n1 != n0 else name

    def board_lines(self, best: Candidate, index: PartIndex, req: Request) -> list[str]:
        case = index.get(best.grown.case)
        r, cur = self.riser, req.currency
        return [T("Risers: the cards stand off the board on {n} x {riser} (PCIe {gen}.0 x{lanes}, {length:g} mm, "
                  "{price} each) in the {case}, which holds {mounts}; their cables use any {n} slots that take the "
                  "riser's plug, and cover none.", n=req.n_grown, riser=r.name, gen=r.pcie_gen, lanes=r.lanes,
                  length=r.length_mm, price=Money(self.riser_price, cur), case=case.name if case else "?",
                  mounts=case.vertical_gpu_slots if isinstance(case, Case) else 0)]


def _merge(req: Request, results: list[Result]) -> Result:
    """One answer from the search with the cards in slots and those on each riser option: the best
    builds of all (one per GPU and board), the explanation of the search that found the best."""
    seen: set = set()
    best: list[Candidate] = []
    for c in sorted((c for r in results for c in r.candidates), key=lambda c: (c.key, c.total)):
        k = (c.grown.motherboard, c.grown.cpu, c.gpu.id)  # as ``explain.merge_steps`` counts them
        if k in seen:
            continue
        seen.add(k)
        best.append(c)
        if len(best) >= max(1, req.top):
            break
    first = results[0]
    winner = next((r for r in results if best and r.best is best[0]), first)
    bounds: dict[str, int] = {}
    for r in results:
        for k, v in r.bounds.items():
            bounds[k] = bounds.get(k, 0) + v
    infeasible = None
    if not best:
        riser = next((r.infeasible for r in results[1:] if r.infeasible), None)
        infeasible = T("{slots}; on risers: {risers}", slots=first.infeasible, risers=riser) if riser \
            else first.infeasible
    res = Result(req, best, list(winner.explanation), bounds, first.excluded, first.left_out, infeasible,
                 sum(r.seconds for r in results), sum(r.judged for r in results), first.scorer)
    for r in reversed(results):
        res.priced.update(r.priced)
    res.priced.update(winner.priced)
    res.price_notes = list(winner.price_notes)
    return res


def run_with_risers(req: Request, index: PartIndex, scorer: Scorer, shared: Optional[dict], progress=None,
                    cancelled=None) -> Result:
    """One request (one power-limit step): the cards in slots, then on each riser option. The searches
    share ``shared`` (and with it the work of the other power-limit steps): the prices, the pools but the
    cases, the pairs, the PSU options and floors, the throughput per card and link (``placement``) and
    the ceilings; each mount keeps its cases, card prices and placements under its own key."""
    shared = {} if shared is None else shared
    slots = S._Search(req, index, scorer, progress, cancelled, shared).run()
    if not req.risers:
        return slots
    prices = shared["prices"]
    risers = [r for r in index.of_kind("riser") if isinstance(r, Riser)
              and (not req.riser_length_mm or r.length_mm >= req.riser_length_mm)]
    cases = [k for k in index.of_kind("case") if isinstance(k, Case) and k.open_frame]

    def unit(r: Riser) -> Optional[float]:
        u = prices.unit(r.id)
        return u[0] if u else None

    options = [(r, p) for r, p in riser_options(risers, unit)
               if any(holds(k, r, req.n_grown, req.riser_length_mm) for k in cases)]
    options, dominated = same_link_front(options, cases, req)
    covered = covered_gens(options, cases, req)
    if not options and slots.best is None and slots.infeasible:
        slots.infeasible = T("{slots}; on risers: no priced riser and no open frame with {n} positions for it",
                             slots=slots.infeasible, n=req.n_grown)
    results = [slots]
    for k, (r, p) in enumerate(options):
        seed = tuple(_merge(req, results).candidates)
        part = None if progress is None else (lambda x, text, k=k: progress(x, text))
        results.append(S._Search(req, index, scorer, part, cancelled, shared, OnRiser(r, p, covered[k]), seed).run())
    if len(results) == 1:
        return slots
    res = _merge(req, results)
    if dominated:
        res.bounds[DOMINATED_OPTION] = res.bounds.get(DOMINATED_OPTION, 0) + dominated
    return res


DOMINATED_OPTION = "riser option: a riser no dearer with the same link reaches the same frames (not searched)"


def same_link_front(options: list[tuple[Riser, float]], cases: list[Case], req: Request) -> tuple[list, int]:
    """The riser options (cheapest first) without those an earlier one beats for every build: one no dearer
    with the same PCIe generation and lanes (so the same plug, the same slots, the same links, the same
    checks' verdicts on the link and the same throughput) that reaches at least the frames this one
    reaches. Each build on the dropped riser has a twin on the earlier one that differs only in the
    risers' price, no higher, so it ranks no better (ties go to the earlier option, as the merge of
    the searches in this order gives them). ``riser_options``' front keeps a longer riser whatever
    frames the catalog has; here the frames decide. How many were dropped is the second item."""
    kept: list[tuple[Riser, float, frozenset]] = []
    dropped = 0
    for r, p in options:
        frames = frozenset(k.id for k in cases if holds(k, r, req.n_grown, req.riser_length_mm))
        if any(q <= p and (a.pcie_gen, a.lanes) == (r.pcie_gen, r.lanes) and frames <= fa for a, q, fa in kept):
            dropped += 1
            continue
        kept.append((r, p, frames))
    return [(r, p) for r, p, _ in kept], dropped


def covered_gens(options: list[tuple[Riser, float]], cases: list[Case], req: Request) -> list[int]:
    """Per riser option (cheapest first): the highest card generation up to which an earlier option, no
    dearer, with the same lanes, reaching every frame this one reaches, gives every card the same link
    (both risers at or above the card's generation: the link runs at the card's, slot's or CPU's, and
    neither riser is under the slot's side, so ``riser.generation`` says nothing of either). A card of
    that generation or lower has a build on the earlier riser for each of its builds on this one, no
    dearer, the same in every other respect: its search on this option is left out (0: none)."""
    out: list[int] = []
    seen: list[tuple[Riser, float, frozenset]] = []
    for r, p in options:
        frames = frozenset(k.id for k in cases if holds(k, r, req.n_grown, req.riser_length_mm))
        out.append(max((min(a.pcie_gen, r.pcie_gen) for a, q, fa in seen
                        if q <= p and a.lanes == r.lanes and frames <= fa), default=0))
        seen.append((r, p, frames))
    return out


def optimise(req: Request, index: PartIndex, scorer: Scorer, *,
             progress: Optional[Callable[[float, str], None]] = None,
             cancelled: Optional[Callable[[], bool]] = None) -> Result:
    """``search.optimise`` with risers and open frames as a search variable (``req.risers``), the number of
    cards as one (``req.gpu_counts``); where the builder's least VRAM for training leaves no build, the best
    with smaller cards, said so (``_smaller_cards``)."""
    return _answer(req, index, scorer, progress, cancelled, _session(index, scorer))


_SESSIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_SESSION_KEYS = 8
"""How many kinds of request one session keeps the work of (the oldest goes)."""


def _session(index: PartIndex, scorer: Scorer) -> dict:
    """What the searches made with one scorer share (``_answer``'s ``base``): the command line and the
    window make a scorer per search the user asks for, and the searches that follow from it (the other
    objectives' winners, the changes a no-build answer tries, more budget, the noise limit's cost) reuse
    its work, kept per request with what the work does not read left out (``_share_key``), while the catalog
    stands as it was (``prices.catalog_state``). A scorer that cannot be weakly referenced shares nothing."""
    state = catalog_state(index)
    try:
        kept = _SESSIONS.get(scorer)
        if kept is None or kept[0] is not index or not same_catalog(kept[1], state):
            kept = _SESSIONS[scorer] = (index, state, {})
    except TypeError:
        return {}
    return kept[2]


def _share_key(req: Request) -> Request:
    """The request with what the work its searches share does not read left out (so that requests differing
    only in those share it): the objective, the number of answers, the target, the budgets (read per build,
    never by the pools, floors or placements), the power limit (the work that reads it is kept per limit),
    risers (the riser mounts keep theirs per riser) and ``training-vram`` (only the GPUs read it, kept per
    set of choices: ``pools.Pools._score``)."""
    return dataclasses.replace(req, objective=None, top=1, target_throughput=None, budget=None, grow_budget=None,
                               power_limit=None, power_limits=(), risers=False,
                               choices=tuple(c for c in req.choices if c[0] != "training-vram"))


def _answer(req: Request, index: PartIndex, scorer: Scorer, progress, cancelled, base: dict) -> Result:
    """``optimise`` with ``base``: the work its searches share, per request (``_share_key``; ``_session``)."""
    res = _optimise(req, index, scorer, progress, cancelled, base)
    if res.best is None and choices.smaller_cards_may_help(req):
        return _smaller_cards(req, res, index, scorer, progress, cancelled, base)
    return res


def shared_run(index: PartIndex, scorer: Scorer, cancelled=None) -> Callable:
    """``search.optimise``'s ``run`` for one request (one power-limit step) with risers, sharing the work of
    the session's searches (``_session``)."""
    return _runner(index, scorer, cancelled, _session(index, scorer))


def _runner(index: PartIndex, scorer: Scorer, cancelled, base: dict) -> Callable:
    def run(sub: Request, shared: Optional[dict], part) -> Result:
        shared = {} if shared is None else shared
        if "prices" not in shared:
            shared["prices"] = prices_for(sub, index)
        # What the searches of requests that differ only in what ``_share_key`` leaves out share (the strict
        # search and the one with smaller cards: ``_smaller_cards``; those of one session: ``_session``);
        # "steps" is each call's own.
        key = _share_key(sub)
        kept = base.pop(key, None)
        kept = base[key] = {} if kept is None else kept  # the newest last: the oldest kind of request goes first
        while len(base) > _SESSION_KEYS:
            base.pop(next(iter(base)))
        for k, v in kept.items():
            shared.setdefault(k, v)
        try:
            return run_with_risers(sub, index, scorer, shared, part, cancelled)
        finally:
            kept.update((k, v) for k, v in shared.items() if k not in ("steps", "prices"))
    return run


def _optimise(req: Request, index: PartIndex, scorer: Scorer, progress, cancelled, base: dict) -> Result:
    run = _runner(index, scorer, cancelled, base)
    if req.gpu_counts:
        return _counts(req, index, scorer, progress, cancelled, base)
    return S.optimise(req, index, scorer, progress=progress, cancelled=cancelled, run=run)


def _smaller_cards(req: Request, strict: Result, index: PartIndex, scorer: Scorer, progress, cancelled,
                   base: dict) -> Result:
    """Where the least VRAM a builder wants for training (``choices`` "training-vram", on by default) leaves no
    build, the best build with smaller cards, said to be that: one more search with the choice off."""
    small = _answer(dataclasses.replace(req, choices=(*req.choices, ("training-vram", False))), index, scorer,
                    progress, cancelled, base)
    if small.best is None:
        return strict
    small.explanation.insert(len(small.price_notes), T(
        "No card of {gb:g} GB or more gives a build ({why}); the answer has smaller cards. For training a builder "
        "wants {gb:g} GB or more per card (--choice training-vram=on searches only those).",
        gb=choices.TRAINING_VRAM_GB, why=strict.infeasible or ""))
    return small


def _counts(req: Request, index: PartIndex, scorer: Scorer, progress, cancelled, base: dict) -> Result:
    """The number of cards as a search variable: each count searched exactly on its own (bought now),
    the best builds of all merged by the objective's key; the explanation says what each count gave
    and, where more cheaper cards beat fewer dearer ones, by how much."""
    counts = sorted(set(req.gpu_counts))
    results = []
    for k, n in enumerate(counts):
        part = None if progress is None else (lambda x, text, k=k: progress((k + x) / len(counts), text))
        results.append((n, _optimise(dataclasses.replace(req, gpus_now=n, grow_to=None, gpu_counts=()), index, scorer,
                                     part, cancelled, base)))
    cands = sorted((c for _, r in results for c in r.candidates), key=lambda c: (c.key, c.total))
    best = cands[:max(1, req.top)]
    winner = next((r for _, r in results if best and r.best is best[0]), results[0][1])
    bounds: dict[str, int] = {}
    for _, r in results:
        for key, v in r.bounds.items():
            bounds[key] = bounds.get(key, 0) + v
    infeasible = None if best else T.join(*[x for i, (n, r) in enumerate(results) for x in (
        ("; " if i else ""), nT("{n} card: {why}", "{n} cards: {why}", n, why=r.infeasible or ""))])
    res = Result(req, best, list(winner.explanation), bounds, winner.excluded, winner.left_out, infeasible,
                 sum(r.seconds for _, r in results), sum(r.judged for _, r in results), winner.scorer)
    for _, r in results:
        res.priced.update(r.priced)
    res.priced.update(winner.priced)
    res.price_notes = list(winner.price_notes)
    if best:
        lines = [nT("{n} card: {name}, {rate} {unit} for {total} in total ({now} now).",
                    "{n} cards: {name}, {rate} {unit} for {total} in total ({now} now).", n, name=r.best.label,
                    rate=figure_num(r.best.throughput), unit=r.best.unit, total=Money(r.best.total, req.currency),
                    now=Money(r.best.cost_now, req.currency))
                 if r.best is not None else nT("{n} card: no build ({why}).", "{n} cards: no build ({why}).", n,
                                               why=r.infeasible or T("no complete build within the request"))
                 for n, r in results]
        at = len(res.price_notes) + 1
        # one line per count (as per power-limit step), under a line that says what they are
        res.explanation[at:at] = [T("The number of cards was searched:")] + lines
        at += 1 + len(lines)
        res.explanation[at:at] = more_cards_line(req, results, best[0])
    return res


def more_cards_line(req: Request, results: list, top: Candidate) -> list[str]:
    """Where the best build has more cards than another count's best, and those cards are cheaper each:
    "2 x RTX 3090 (1,070.00 USD each) beat 1 x RTX 4090 (1,899.00 USD): 1.31x the throughput for 12% less"."""
    n = len(top.grown.gpus)
    out = []
    for m, r in results:
        o = r.best
        if o is None or m >= n or o.gpu.id == top.gpu.id:
            continue
        each, other_each = _unit(top), _unit(o)
        if each is None or other_each is None or each >= other_each:
            continue
        pct = top.total / o.total - 1 if o.total else 0.0
        figs = dict(n=n, gpu=top.gpu.model, each=Money(each, req.currency), m=m, other=o.gpu.model,
                    other_each=Money(other_each, req.currency), pct=abs(pct),
                    x=top.throughput / o.throughput if o.throughput else 0.0)
        out.append(T("{n} x {gpu} ({each} each) beat {m} x {other} ({other_each} each): {x:.2f}x the throughput for "
                     "{pct:.0%} less total cost.", **figs) if pct < 0 else
                   T("{n} x {gpu} ({each} each) beat {m} x {other} ({other_each} each): {x:.2f}x the throughput for "
                     "{pct:.0%} more total cost.", **figs))
    return out


def _unit(c: Candidate) -> Optional[float]:
    return next((each for pid, _units, each, _where in c.prices if pid == c.gpu.id), None)


def budget_step(req: Request, res: Result, index: PartIndex, scorer: Scorer, step: float,
                progress: Optional[Callable[[float, str], None]] = None,
                cancelled: Optional[Callable[[], bool]] = None) -> list[str]:
    """``search.budget_step`` searching with risers too."""
    return S.budget_step(req, res, index, scorer, step, progress, cancelled, optimiser=optimise)


def noise_cost(req: Request, res: Result, index: PartIndex, scorer: Scorer,
               progress: Optional[Callable[[float, str], None]] = None,
               cancelled: Optional[Callable[[], bool]] = None) -> list[str]:
    """What ``req.max_noise`` cost: the answer against the best build without the limit (one more
    search); nothing without a limit."""
    if req.max_noise is None:
        return []
    free = optimise(dataclasses.replace(req, max_noise=None, top=1), index, scorer, progress=progress,
                    cancelled=cancelled)
    return noise_cost_lines(req, res.best, free.best, index)



OBJECTIVE_WORDS = {"within-budget": N_("Most throughput within the budget"),
                   "per-cost": N_("Most throughput per total cost"),
                   "cheapest": N_("Cheapest build that reaches the target")}
_HOLDS = N_("Cheapest build that holds the workload")
"""What each objective is called in an answer and in the window's "Best:" choice."""


def objective_lines(req: Request, res: Result, index: PartIndex, scorer: Scorer,
                    progress: Optional[Callable[[float, str], None]] = None,
                    cancelled: Optional[Callable[[], bool]] = None) -> list[str]:
    """The other objectives' winners (one more search each, best build only), one line each where the
    winner differs from ``res``'s: "Most throughput per total cost: 2 x RTX 3090 on ..., 17.4 tokens/s
    for 2,135 USD (8.15 per 1,000 USD)". Nothing when every objective picks the same build."""
    from rigbuilder.rules.optimise.request import OBJECTIVES, figure_num

    if res.best is None:
        return []
    out = []
    others = [o for o in OBJECTIVES if o != req.goal and not (o == "within-budget" and req.budget is None)]
    for k, goal in enumerate(others):
        part = None if progress is None else (lambda x, text, k=k: progress((k + x) / len(others), text))
        other = optimise(dataclasses.replace(req, objective=goal, top=1), index, scorer, progress=part,
                         cancelled=cancelled).best
        if other is None or (other.label == res.best.label and abs(other.total - res.best.total) < 0.005):
            continue
        cur = req.currency
        words = _HOLDS if goal == "cheapest" and not req.target_throughput else OBJECTIVE_WORDS[goal]
        out.append(T("{objective}: {name}, {rate} {unit} for {total} in total ({now} now; {ratio} per 1,000 "
                     "{currency}).", objective=T(words),
                     name=other.label,
                     rate=figure_num(other.throughput), unit=other.unit, total=Money(other.total, cur),
                     now=Money(other.cost_now, cur), ratio=figure_num(other.ratio), currency=cur))
    if out:
        out.insert(0, T("The other objectives' winners differ (--objective):"))
    return out
