"""What a no-build answer adds below the answer (issue 37): the single changes that give a build,
each tried by one more search and costed, and the proven floor of the purchase now.

The answer itself stays the request's own (no build), so it is still the exact answer to what was
asked. Below it, for each change that the reason for no build makes worth trying, one more search
with only that change; a line only where the change really gives a build, with the build and its
price:

- a power limit, where the wall circuit or the PSU binds at full power (``power_limit_lines``);
- a 20 A circuit of the same country and voltage, where the wall circuit binds;
- a second PSU for the cards added later, where the PSU binds and the build grows;
- risers and open frames, where the board's slots bind (slot spacing, covered or missing slots);
- used prices (where known, else new), where the request asked for new prices and the budget binds;
- more budget, where the budget binds: the proven floor of the purchase now (``budget_floor``).

``budget_floor`` searches without the budget for the cheapest build, with the energy left out of
the total cost (``years`` = 0): without growth, that total is the purchase now, and the search is
exact (``tests/rules/test_exact_optimise.py`` holds the "cheapest" objective against brute force),
so no build costs less now than the build it finds. With growth the total includes the cards
bought later, so the build found is the cheapest in purchase now and growth together, and the
floor proven is only the budget asked (the search found nothing within it).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Optional

from rigbuilder.domain.build import REGIONS
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import Money, T
import rigbuilder.rules.optimise.search as S
from rigbuilder.rules.optimise.frames import optimise, shared_run
from rigbuilder.rules.optimise.request import Candidate, Request, Result, Scorer, figure_num

Progress = Optional[Callable[[float, str], None]]

POWER_REASONS = ("wall circuit:", "psu:", "power.circuit", "psu.capacity", "psu.transients")
"""How a no-build reason starts when the circuit or the PSU binds (``power_binds``)."""
CIRCUIT_REASONS = ("wall circuit:", "power.circuit")
"""... when the wall circuit binds."""
PSU_REASONS = ("psu:", "psu.capacity", "psu.transients", "psu.connectors")
"""... when the PSU binds (its watts, headroom, spikes or sockets)."""
SLOT_REASONS = ("slot spacing:", "slot.", "case.expansion-slots", "thermal.open-air-gap")
"""... when the board's slots bind: too few slots far enough apart, cards covering slots or touching."""
BUDGET_REASONS = ("budget:",)
"""... when the budget binds."""


RISER_PART = "; on risers: "
"""How the reason of a search with risers joins the reason in slots and that on risers (``frames._merge``)."""


def _reason(res: Result) -> str:
    return str(res.infeasible or "")


def _binds(res: Result, starts: tuple[str, ...]) -> bool:
    """Whether the reason for no build (in slots, or on risers) starts with one of ``starts``."""
    return any(part.startswith(starts) for part in _reason(res).split(RISER_PART))


def power_binds(res: Result) -> bool:
    """Whether a search found no build because the wall circuit or the PSUs cannot carry the cards."""
    return bool(res.infeasible) and _binds(res, POWER_REASONS)


def budget_binds(req: Request, res: Result) -> bool:
    """Whether a search with a budget found no build because of the budget."""
    return req.budget is not None and _reason(res).startswith(BUDGET_REASONS)


def bigger_circuit(region: str) -> Optional[str]:
    """The 20 A circuit of the same country and voltage as ``region`` (US 120 V / 15 A -> 20 A), if one
    is known and bigger."""
    cur = REGIONS.get(region)
    if cur is None:
        return None
    return next((r.code for r in REGIONS.values() if r.market == cur.market and r.voltage == cur.voltage
                 and r.amps == 20 and r.amps > cur.amps), None)


@dataclass(frozen=True)
class Floor:
    """The least budget that buys a build, as far as it is proven.

    ``amount``: a proven lower bound of the purchase now of every build the request allows (no build
    costs less now); ``build``: a build found without the budget (the cheapest in purchase now where
    ``exact``, else the cheapest in purchase now and growth together), or None where none exists;
    ``exact``: whether ``build`` costs exactly ``amount`` now (no growth: the floor is reached)."""
    amount: float
    build: Optional[Candidate]
    exact: bool


def budget_floor(req: Request, index: PartIndex, scorer: Scorer, res: Optional[Result] = None,
                 progress: Progress = None, cancelled=None) -> Floor:
    """The proven floor of the purchase now (see the module's docstring): independent of the budget
    asked where the build does not grow; with growth, the budget asked where ``res`` (the request's
    own answer) found no build within it, else zero."""
    target = req.target_throughput if req.goal == "cheapest" else None  # a target the answer must reach
    free = optimise(dataclasses.replace(req, budget=None, grow_budget=None, objective="cheapest",
                                        target_throughput=target, years=0.0, top=1), index, scorer,
                    progress=progress, cancelled=cancelled).best
    grows = req.n_grown != req.n_now
    # With --quiet, builds without blower cards rank first: the build found is the cheapest now only
    # where it has blowers (then no build is without them) or the request is not quiet.
    if not grows and free is not None and (not req.quiet or free.blowers):
        return Floor(free.cost_now, free, True)
    proven = req.budget if (req.budget is not None and res is not None and res.best is None
                            and budget_binds(req, res)) else 0.0
    return Floor(proven, free, False)


# -- the changes ----------------------------------------------------------------------------------
def _gives(req: Request, index: PartIndex, scorer: Scorer, progress: Progress, cancelled) -> Optional[Candidate]:
    """The best build of ``req`` (one more search), or None."""
    return optimise(dataclasses.replace(req, top=1), index, scorer, progress=progress, cancelled=cancelled).best


def _costed(c: Candidate, req: Request) -> dict:
    return dict(name=c.label, rate=figure_num(c.throughput), unit=c.unit, total=Money(c.total, req.currency),
                now=Money(c.cost_now, req.currency))


def _changes(req: Request, res: Result) -> list[tuple[str, Request]]:
    """The single changes worth trying for the reason ``res`` gives, each as (what, the changed request),
    in the order they are printed. The power limit and more budget have their own lines."""
    out: list[tuple[str, Request]] = []
    if _binds(res, CIRCUIT_REASONS) and (big := bigger_circuit(req.region)) is not None:
        out.append(("circuit", dataclasses.replace(req, region=big)))
    if _binds(res, PSU_REASONS) and req.n_grown > req.n_now and not req.second_psu:
        out.append(("second-psu", dataclasses.replace(req, second_psu=True)))
    if _binds(res, SLOT_REASONS) and not req.risers:
        out.append(("risers", dataclasses.replace(req, risers=True)))
    if req.condition == "new" and (budget_binds(req, res) or _binds(res, ("GPU: no card in the catalog has",))):
        out.append(("used", dataclasses.replace(req, condition="used")))
    return out


def _change_line(what: str, req: Request, c: Candidate) -> str:
    figs = _costed(c, req)
    if what == "circuit":
        return T("A 20 A circuit gives a build: on {region}, {name}, {rate} {unit} for {total} in total ({now} now); "
                 "search with --region {code} (an electrician fits a 20 A circuit and socket).",
                 region=T(REGIONS[req.region].label), code=req.region, **figs)
    if what == "second-psu":
        return T("A second PSU for the cards added later gives a build: {name}, {rate} {unit} for {total} in total "
                 "({now} now); search with --second-psu (the window: Second PSU when growing).", **figs)
    if what == "risers":
        return T("Risers give a build: the cards stand off the board in an open frame, {name}, {rate} {unit} for "
                 "{total} in total ({now} now); search with --risers (the window: Risers and open frames).", **figs)
    return T("Used prices give a build: {name}, {rate} {unit} for {total} in total ({now} now; used where a used "
             "price exists, else new); search with --prices used.", **figs)


def change_lines(req: Request, res: Result, index: PartIndex, scorer: Scorer, progress: Progress = None,
                 cancelled=None) -> list[str]:
    """One line per single change (``_changes``) that gives a build, tried by one more search each."""
    tried = _changes(req, res)
    out = []
    for k, (what, sub) in enumerate(tried):
        part = None if progress is None else (lambda x, text, k=k: progress((k + x) / len(tried), text))
        c = _gives(sub, index, scorer, part, cancelled)
        if c is not None:
            out.append(_change_line(what, sub, c))
    return out


def no_build_lines(req: Request, res: Result, index: PartIndex, scorer: Scorer, progress: Progress = None,
                   cancelled=None) -> list[str]:
    """For a request no build meets, the single changes that give one, each tried by one more search and
    named with its build and price (the module's docstring lists them); nothing where a build was found.
    The command line and the window add these lines below the answer, which stays the request's own."""
    if res.best is not None:
        return []
    steps: list[Callable[[Progress], list[str]]] = []
    if power_binds(res) and req.power_limit is None and not req.power_limits and not req.gpu_counts:
        run = shared_run(index, scorer, cancelled)  # with the work of the searches before it
        steps.append(lambda part: power_limit_lines(req, index, scorer, part, cancelled, run))
    steps.append(lambda part: change_lines(req, res, index, scorer, part, cancelled))
    if budget_binds(req, res):
        steps.append(lambda part: more_budget_lines(req, index, scorer, part, cancelled, res))
    out: list[str] = []
    for k, step in enumerate(steps):
        part = None if progress is None else (lambda x, text, k=k: progress((k + x) / len(steps), text))
        out.extend(step(part))
    return out


def more_budget_lines(req: Request, index: PartIndex, scorer: Scorer, progress: Progress = None, cancelled=None,
                      res: Optional[Result] = None) -> list[str]:
    """The single change that gives a build when the budget binds: more budget, with the proven floor
    (``budget_floor``: one more search without the budget)."""
    fl = budget_floor(req, index, scorer, res, progress, cancelled)
    free, cur = fl.build, req.currency
    if free is None:
        return [T("More budget alone gives no build: without a budget no build meets the request either.")]
    figs = dict(name=free.label, rate=figure_num(free.throughput), unit=free.unit)
    if fl.exact:
        return [T("More budget: no build costs less than {floor} now (proven: the cheapest build in purchase now, "
                  "found without the budget by the exact search); {floor} now buys {name} ({rate} {unit}), {more} more "
                  "than the budget asked.", floor=Money(fl.amount, cur), more=Money(fl.amount - (req.budget or 0.0), cur),
                  **figs)]
    if req.n_grown == req.n_now:  # quiet: the build found is the cheapest without blower cards
        return [T("More budget: {now} now buys {name} ({rate} {unit}; the cheapest build without blower cards, found "
                  "without the budget), {more} more than the budget asked. A build with blower cards may cost less "
                  "now: only that none costs {budget} or less now is proven.", now=Money(free.cost_now, cur),
                  more=Money(free.cost_now - (req.budget or 0.0), cur), budget=Money(fl.amount, cur), **figs)]
    return [T("More budget: {now} now buys {name} ({rate} {unit}; the cheapest build in purchase now and growth "
              "together, found without the budget), {more} more than the budget asked. A build that costs less now "
              "and more to grow may exist: only that none costs {budget} or less now is proven.",
              now=Money(free.cost_now, cur), more=Money(free.cost_now - (req.budget or 0.0), cur),
              budget=Money(fl.amount, cur), **figs)]


def power_limit_lines(req: Request, index: PartIndex, scorer: Scorer, progress, cancelled, run) -> list[str]:
    """What a power limit gives when the circuit or the PSU binds at full power: one more search with the
    limit as a search variable (``--power-limit auto``), its best build named with the step and its cost."""
    auto = S.optimise(dataclasses.replace(req, power_limits=S.LIMIT_STEPS, top=1), index, scorer, progress=progress,
                      cancelled=cancelled, run=run).best
    if auto is None:  # only a change that gives a build is named
        return []
    lw = auto.grown.gpus[0].power_limit_w if auto.grown.gpus else None
    pct = lw / auto.gpu.board_power_w if lw and auto.gpu.board_power_w else 1.0
    return [T("A power limit gives a build: at {pct:.0%} of board power, {name}, {rate} {unit} for {total} in total "
              "({now} now); search with --power-limit auto (the window: Choose the power limit).", pct=pct,
              name=auto.label, rate=figure_num(auto.throughput), unit=auto.unit,
              total=Money(auto.total, req.currency), now=Money(auto.cost_now, req.currency))]
