"""What a finished search says: the reason no build met the request, the explanation of the best
build (what it costs, why no cheaper board, the power), the parts left out for want of a price, the
prices' age, and one answer from the searches of several power-limit steps."""
from __future__ import annotations

import math
import time
from typing import Optional

from rigbuilder.domain.i18n import Money, T, interleave, nT
from rigbuilder.domain.money import STALE_MONTHS, any_stale, price_ages
from rigbuilder.domain.parts import CPU, GPU, Motherboard, Part
from rigbuilder.rules.optimise.request import Candidate, Request, Result, figure_num

USED_NAMED = 8
"""How many parts without a used price an answer names (the rest are counted)."""
_KIND_WORDS = {"gpu": T("GPU"), "motherboard": T("board"), "cpu": T("CPU"), "cooler": T("CPU cooler"),
               "memory": T("memory kit"), "storage": T("drive"), "psu": T("PSU"), "case": T("case")}
_KIND_PLURALS = {"gpu": T("GPUs"), "motherboard": T("boards"), "cpu": T("CPUs"), "cooler": T("CPU coolers"),
                 "memory": T("memory kits"), "storage": T("drives"), "psu": T("PSUs"), "case": T("cases")}


class Explanation:
    """What a finished search says about its answer, given what it needs: the request, the catalog,
    the search's settings and prices, its pools (what was priced, the boards' floors, what is owned),
    its tally (what each bound removed, how far it got, why the engine said no) and its placement
    (where cards can sit, through the mount). ``finish`` makes the ``Result`` of the best builds."""

    def __init__(self, req: Request, index, scorer, settings, prices, pools, tally, place) -> None:
        self.req, self.index, self.scorer, self.settings, self.prices = req, index, scorer, settings, prices
        self.pools, self.tally, self.place = pools, tally, place
        self.today = req.today

    def no_gpu_reason(self) -> str:
        req = self.req
        bits = []
        if req.min_vram_gb:
            bits.append(T("at least {gb:g} GB per card", gb=req.min_vram_gb))
        if req.min_total_vram_gb:
            bits.append(T("at least {gb:g} GB over {n} cards", gb=req.min_total_vram_gb, n=req.n_grown))
        vram = T("{a} and {b}", a=bits[0], b=bits[1]) if len(bits) == 2 else bits[0] if bits else ""
        priced = len(self.pools.pools["gpu"])
        if not priced:
            return T("GPU: no card in the catalog has a {cond} price in {currency}", cond=self.pools.cond_words(),
                     currency=req.currency)
        if self.tally.bounds.get("GPU: louder than the noise limit") and not self.tally.bounds.get("GPU: too little VRAM"):
            return T("noise: {n} of every priced card with the case fans are louder than {limit:.0f} dB(A) at 1 m "
                     "while training", n=req.n_grown, limit=req.max_noise)
        if self.tally.bounds.get("GPU: too little VRAM"):
            if vram:
                return T("GPU: none of the {n} priced cards has the VRAM asked for ({vram})", n=priced, vram=vram)
            return nT("GPU: none of the {priced} priced cards has the VRAM asked for ({workload} needs more than "
                      "one card holds)", "GPU: none of the {priced} priced cards has the VRAM asked for ({workload} "
                      "needs more than {n} cards hold)", req.n_grown, priced=priced, workload=req.workload)
        return T("GPU: no priced card has a throughput estimate for {workload}", workload=req.workload)

    def reason(self) -> str:
        req = self.req
        if self.pools.total_pairs == 0:
            return T("board and CPU: no board and CPU with the same socket both have a price")
        if self.tally.stage_reached == "board":
            if req.quiet:
                return T("slot spacing: no board with a price has {n} slots far enough apart for any eligible card "
                         "with a full slot of air in front of open-air fans (quiet)", n=req.n_grown)
            return T("slot spacing: no board with a price has {n} slots far enough apart for any eligible card",
                     n=req.n_grown)
        if req.budget is not None and self.tally.min_floor_now is not None and self.tally.min_floor_now > req.budget:
            # what the floors reached says nothing of the cheapest build (it follows the budget asked):
            # the no-build answer's "More budget" line gives the proven floor (``answers.budget_floor``)
            return T("budget: no build that could hold {n} cards costs {budget} or less now", n=req.n_grown,
                     budget=Money(req.budget, req.currency))
        stages = {k[6:]: v for k, v in self.tally.reject_codes.items() if k.startswith("stage:")}
        engine = {k: v for k, v in self.tally.reject_codes.items() if not k.startswith("stage:")}
        if engine:
            code, (n, msg) = max(engine.items(), key=lambda kv: kv[1][0])
            return T("{code}: every build that passed the bounds has errors; most often ({n}x): {msg}", code=code,
                     n=n, msg=msg)
        # The furthest a candidate got names what stopped it (a build that found a case and a PSU
        # but not the circuit was stopped by the circuit).
        for stage, words in (("circuit", T("wall circuit")), ("psu", T("psu")), ("memory", T("memory")),
                             ("cooler", T("cooler")), ("case", T("case"))):
            if stage in stages:
                return T("{stage}: {why}", stage=words, why=stages[stage][1])
        return T("no complete build within the request")

    def finish(self, best: list[Candidate], t0: float, infeasible: Optional[str]) -> Result:
        """The answer: the best builds (best first), or the reason none met the request."""
        res = Result(self.req, best, [], self.tally.bounds, self.tally.excluded, self.tally.left_out, infeasible,
                     time.perf_counter() - t0, self.tally.judged, getattr(self.scorer, "label", ""))
        res.priced = {}
        for c in reversed(best):  # the best candidate's prices win where candidates share a part
            res.priced.update(self.prices.given(c.grown, self.pools.owned))
        res.explanation = self._explain(res)
        res.price_notes = self._price_age(res.best)
        return res

    def _explain(self, res: Result) -> list[str]:
        req, cur = self.req, self.req.currency
        out: list[str] = []
        best = res.best
        if best is not None:
            g = best.gpu
            b = self.index.get(best.grown.motherboard)
            figs = dict(rate=figure_num(best.throughput), unit=best.unit, total=Money(best.total, cur),
                        now=Money(best.cost_now, cur), grow=Money(best.cost_growth, cur),
                        energy=Money(best.energy, cur), years=req.years, ratio=figure_num(best.ratio), currency=cur)
            goal = req.goal
            if goal == "within-budget":
                out.append(T("Most throughput within the budget: {rate} {unit} for {total} ({now} now, {grow} to grow, "
                             "{energy} energy over {years:g} years): {ratio} per 1,000 {currency}.", **figs))
            elif goal == "cheapest":
                out.append(T("Cheapest build that reaches {target} {unit}: {total} ({now} now, {grow} to grow, "
                             "{energy} energy over {years:g} years) for {rate} {unit}: {ratio} per 1,000 {currency}.",
                             target=figure_num(req.target), **figs) if req.target else
                           T("Cheapest build that holds the workload: {total} ({now} now, {grow} to grow, "
                             "{energy} energy over {years:g} years) for {rate} {unit}: {ratio} per 1,000 {currency}.",
                             **figs))
            else:
                out.append(T("Best throughput per total cost: {rate} {unit} for {total} ({now} now, {grow} to grow, "
                             "{energy} energy over {years:g} years): {ratio} per 1,000 {currency}.", **figs))
            if len(res.candidates) > 1:
                nxt = res.candidates[1]
                if _same(nxt.throughput, best.throughput) and _same(nxt.total, best.total):
                    out.append(T("Next best: {name}, the same throughput and total cost (a tie: either will do).",
                                 name=nxt.label))
                elif goal == "within-budget" and _same(nxt.throughput, best.throughput):
                    out.append(T("Next best: {name}, the same throughput for {more} more in total.", name=nxt.label,
                                 more=Money(nxt.total - best.total, cur)))
                elif goal == "within-budget":
                    out.append(T("Next best: {name}, {pct:.1f}% less throughput.", name=nxt.label,
                                 pct=100 * (1 - nxt.throughput / best.throughput) if best.throughput else 0.0))
                elif goal == "cheapest":
                    out.append(T("Next best: {name}, {more} more in total.", name=nxt.label,
                                 more=Money(nxt.total - best.total, cur)))
                else:
                    out.append(T("Next best: {name}, {pct:.1f}% less throughput per {currency}.",
                                 name=nxt.label, pct=100 * (1 - nxt.ratio / best.ratio),
                                 currency=cur))
            if req.budget is not None:
                out.append(_budget_line(req, best))
            if req.quiet:
                out.append(T("Quiet: no build without blower cards meets the request; these use blowers.")
                           if best.blowers else T("Quiet: no blower cards, a full slot of air in front of every "
                                                  "open-air card's fans."))
            lines = self.place.mount.board_lines(best, self.index, req)
            out.extend(lines if lines is not None else self._board_bound(best, g, b))
            psu_w = sum(self.index.get(p).wattage for p in best.grown.psus)
            out.append(T("Power: {peak:.0f} W peak load on {psu:.0f} W of PSU ({head:.0f}% headroom); about "
                         "{wall:.0f} W at the wall of the {circuit:.0f} W circuit.", peak=best.peak_dc_w, psu=psu_w,
                         head=100 * best.headroom, wall=best.peak_wall_w,
                         circuit=self.settings.circuit_w()))
            if req.free_slots:
                out.extend(nic_lines(best, self.index))
            out.extend(warning_lines(best))
        for kind in res.left_out:
            n = self.tally.excluded.get(kind, 0)
            out.append(T("No {kind} in the catalog has a used price: the builds have none ({n} left out); enter "
                         "your used price for one (rigbuilder price set --used, or price import) and search again.",
                         kind=_KIND_WORDS[kind], n=n) if req.condition == "used" else
                       T("No {kind} in the catalog has a price: the builds have none ({n} left out); add one "
                         "yourself, or enter your price for one (rigbuilder price set) and search again.",
                         kind=_KIND_WORDS[kind], n=n))
        ex = {k: v for k, v in self.tally.excluded.items() if k not in res.left_out}
        if ex and req.condition != "used":  # with used prices the parts without one are named below
            counted = [T("{n} {kind}", n=v, kind=(_KIND_WORDS if v == 1 else _KIND_PLURALS)[k]) for k, v in ex.items()]
            out.append(T("Left out for want of a price: {list}.", list=T.join(*interleave(counted, ", "))))
        out.extend(self._used_missing(best))
        return self._price_age(best) + out

    def _used_missing(self, best: Optional[Candidate] = None) -> list[str]:
        """With used prices asked for, the parts of the answer that have none and are priced new, per kind
        and by name (a few named, the rest counted): said, never priced new behind the user's back."""
        if self.req.condition != "used" or not self.prices.no_used or best is None:
            return []
        mine = set(best.grown.part_ids())
        by: dict[str, list[str]] = {}
        for pid in self.prices.no_used:
            if pid not in mine:
                continue
            p = self.index.get(pid)
            if p is not None:
                by.setdefault(p.KIND, []).append(p.name)
        out = []
        for kind, names in by.items():
            shown = sorted(names)[:USED_NAMED]
            more = len(names) - len(shown)
            listed = T.join(*interleave([T.verbatim(n) for n in shown], ", "))
            out.append(T("No used price for the {kind} of this build, so priced new: {names}{more}.", n=len(names),
                         kind=(_KIND_WORDS if len(names) == 1 else _KIND_PLURALS).get(kind, kind), names=listed,
                         more=T(" and {n} more", n=more) if more else ""))
        return out

    def _price_age(self, best: Optional[Candidate]) -> list[str]:
        """How old the prices behind the answer are, and how they were converted; a stale answer
        says so first."""
        if best is None:
            return []
        chosen = list(self.prices.given(best.grown, self.pools.owned).values())
        if not chosen:
            return []
        obs = [pp.observation for pp in chosen]
        out = []
        if any_stale(obs, self.today):
            stale = [pp for pp in chosen if pp.stale(self.today)]
            out.append(T("Stale prices: {n} of the {total} part prices behind this answer were seen more than "
                         "{months} months ago; check today's prices before you buy.", n=len(stale), total=len(chosen),
                         months=STALE_MONTHS))
        out.append(T("Price age: {ages}.", ages=T.join(*interleave(price_ages(obs, self.today), ", "))))
        convs = sorted({pp.conversion for pp in chosen if pp.conversion})
        if convs:
            out.append(T("Currency: {conversions}.", conversions=T.join(*interleave(convs, ", "))))
        return out

    def _board_bound(self, best: Candidate, g: GPU, b: Optional[Part]) -> list[str]:
        """Why no cheaper board: the issue's "no board under 400 EUR has four x8 slots 2 positions apart"."""
        if not isinstance(b, Motherboard):
            return []
        n1, cur = self.req.n_grown, self.req.currency
        bp = self.pools.board_floor.get(b.id, 0.0)
        cheaper = [x for x in self.pools.pools["motherboard"] if isinstance(x, Motherboard) and x.id != b.id
                   and self.pools.board_floor.get(x.id, math.inf) < bp]
        if not cheaper:
            return [T("Board: the {board} (with its CPU {price}) is the cheapest board and CPU that qualify.",
                      board=b.name, price=Money(bp, cur))]
        spaced = [x for x in cheaper if not self.place.board_placements(x, (g.span, g.slot_width, g.cooler, g.pcie_lanes), g)]
        if len(spaced) == len(cheaper) and n1 > 1:
            return [T("Board: no board and CPU under {price} have {n} slots that take the {width:g}-slot {gpu} {span} "
                      "positions apart ({checked} cheaper boards checked).", price=Money(bp, cur), n=n1,
                      width=g.slot_width, gpu=g.model, span=g.span, checked=len(cheaper))]
        if not spaced:
            return [nT("Board: the {board} (with its CPU {price}); the one cheaper board and CPU that hold the cards "
                       "gave a build that ranks lower or failed the checks and a builder's choices (such as the PCIe "
                       "generation the card and CPU share).",
                       "Board: the {board} (with its CPU {price}); each of the {checked} cheaper boards and CPUs that "
                       "hold the cards gave a build that ranks lower or failed the checks and a builder's choices "
                       "(such as the PCIe generation the card and CPU share).", len(cheaper), board=b.name,
                       price=Money(bp, cur), checked=len(cheaper))]
        return [T("Board: the {board} (with its CPU {price}); {bad} of {checked} cheaper boards cannot hold {n} of "
                  "these {width:g}-slot cards, the others gave a build that ranks lower or failed the checks and a "
                  "builder's choices.", board=b.name, price=Money(bp, cur), bad=len(spaced), checked=len(cheaper),
                  n=n1, width=g.slot_width)]


def nic_lines(best: Candidate, index) -> list[str]:
    """Where the network card goes (the request kept a slot free for it): the slot the cards leave that
    gives it its link from the CPU, or, said so, the best that is left (``placement.nic_slots``)."""
    from rigbuilder.domain.parts import Storage
    from rigbuilder.models.lanes import m2_assignment
    from rigbuilder.rules.optimise.placement import NIC_LANES, nic_slots

    g = best.grown
    b, c = index.get(g.motherboard), index.get(g.cpu)
    if not isinstance(b, Motherboard) or not g.gpus:
        return []
    drives = [(d, s.count, s.m2) for s in g.storage if isinstance(d := index.get(s.part_id), Storage)]
    slots = nic_slots(b, getattr(c, "pcie_lanes", None), best.gpu, tuple(x.position for x in g.gpus),
                      tuple(m2_assignment(b, drives)))
    if not slots:
        return [T("Network card: no slot the cards leave free has lanes; a board with a free slot wired to the CPU "
                  "takes one.")]
    x = slots[0]
    source = {"CPU": T("from the CPU"), "switch": T("from the PCIe switch")}.get(x.slot.source, T("through the chipset"))
    gen = min(x.slot.gen, c.pcie_gen) if x.slot.source == "CPU" and isinstance(c, CPU) else x.slot.gen
    link = T("x{width} Gen{gen} {source}", width=x.width, gen=gen, source=source)
    if x.gives_link:
        line = T("Network card: slot {slot} is left free for it ({link}, the x{lanes} a 25 or 40 GbE card takes).",
                 slot=x.slot.id, link=link, lanes=NIC_LANES)
        if x.starves:
            line = T.join(line, " ", T("It takes lanes from a GPU (the board's lane table): cluster.nic_starves_gpu."))
        return [line]
    if x.chipset:
        return [T("Network card: only a chipset slot is left free ({slot}, {link}): the card's traffic shares the "
                  "chipset's link to the CPU (cluster.nic_chipset); a board with a free slot wired to the CPU avoids "
                  "that.", slot=x.slot.id, link=link)]
    return [T("Network card: the best slot left free is {slot} ({link}), less than the x{lanes} a 25 or 40 GbE card "
              "takes.", slot=x.slot.id, link=link, lanes=NIC_LANES)]


def _same(a: float, b: float) -> bool:
    """Two throughputs or totals an answer gives as equal (their difference below a millionth, or a cent)."""
    return abs(a - b) <= max(0.005, 1e-6 * max(abs(a), abs(b)))


def warning_lines(best: Candidate) -> list[str]:
    """Every warning the answer still carries (the policy refused none of them, or warnings are
    allowed), each once, with its stage and its fix."""
    from rigbuilder.domain.findings import Severity

    out, seen = [], set()
    stages = ((T("today"), best.findings_today), (T("grown"), best.findings_grown)) \
        if len(best.today.gpus) != len(best.grown.gpus) or best.today.psus != best.grown.psus else \
        ((T("the build"), best.findings_grown),)
    for stage, fs in stages:
        for f in fs:
            if f.severity is not Severity.WARNING or (f.code, str(f.message)) in seen:
                continue
            seen.add((f.code, str(f.message)))
            out.append(T("Warning ({stage}, {code}): {message} Fix: {fix}", stage=stage, code=f.code, message=f.message,
                         fix=f.fix or T("none given")) )
    return out


def _budget_line(req: Request, best: Candidate) -> str:
    """What the budget bought, and why what is left is not spent."""
    cur = req.currency
    left = req.budget - best.cost_now
    spent = T("Budget: {now} of {budget} spent now.", now=Money(best.cost_now, cur), budget=Money(req.budget, cur))
    if left < 0.01 * req.budget:
        return spent
    if req.goal == "within-budget":
        why = T("The {left} left buys no more throughput: no build with more fits the budget.", left=Money(left, cur))
    elif req.goal == "cheapest":
        why = T("The {left} left is not needed: this is the cheapest build that meets the request.",
                left=Money(left, cur))
    else:
        why = T("The {left} left is not spent: ranked by throughput per cost (--objective within-budget spends it "
                "on throughput).", left=Money(left, cur))
    return T.join(spent, " ", why)


def _step_text(f: float) -> str:
    return T("full power") if f >= 1.0 else T("{pct:.0%} of board power", pct=f)


def _merge_key(c: Candidate) -> tuple:
    return (c.grown.motherboard, c.grown.cpu, c.gpu.id)


def steps_bar(done: list[list[Candidate]], top: int) -> Optional[tuple]:
    """Among the searches of several power-limit steps, run one after another (``done``: the best
    builds of each step searched so far), the rank key past which a build of the step being searched
    cannot be among the ``top`` builds ``merge_steps`` answers: the ``top``-th of the builds found so
    far, one per board, CPU and cards (as the merge counts them; these steps are over, so no later
    find removes one of them). None: fewer than ``top`` such builds."""
    cands = sorted((c for lst in done for c in lst), key=lambda c: c.key)
    seen: set = set()
    for c in cands:
        if _merge_key(c) not in seen:
            seen.add(_merge_key(c))
            if len(seen) >= max(1, top):
                return c.key
    return None


def merge_steps(req: Request, results: list[tuple[float, "Result"]], seconds: float) -> Result:
    """One answer from the searches of each power-limit step: the best candidates of all steps, and
    what each step gave."""
    cands: list[Candidate] = []
    for _, r in results:
        cands.extend(r.candidates)
    cands.sort(key=lambda c: c.key)
    seen: set = set()
    best: list[Candidate] = []
    for c in cands:  # the same parts at two limits: keep the better one
        k = _merge_key(c)
        if k in seen:
            continue
        seen.add(k)
        best.append(c)
        if len(best) >= req.top:
            break
    winner = next((r for _, r in results if r.best is not None and best and r.best is best[0]), None)
    first = results[0][1]
    bounds: dict[str, int] = {}
    for _, r in results:
        for k, v in r.bounds.items():
            bounds[k] = bounds.get(k, 0) + v
    infeasible = None if best else first.infeasible
    res = Result(req, best, [], bounds, first.excluded, first.left_out, infeasible, seconds,
                 sum(r.judged for _, r in results), first.scorer)
    for _, r in reversed(results):  # the prices the answers were given (their dates), the winner's last
        res.priced.update(r.priced)
    if winner is not None:
        res.priced.update(winner.priced)
    res.price_notes = list((winner or first).price_notes)
    out = list((winner or first).explanation)
    res.steps = [(f, r.best, r.infeasible) for f, r in results]
    if best:
        f = next((f for f, r in results if r.best is best[0]), 1.0)
        why = T("Power limit: {step} wins.", step=_step_text(f))
        full = results[0][1] if results[0][0] >= 1.0 else None
        if f < 1.0 and full is not None and full.best is None and full.infeasible:
            why = T("Power limit: {step} wins; at full power no build meets the request ({reason}).",
                    step=_step_text(f), reason=full.infeasible)
        at = len(res.price_notes) + 1 if len(out) > len(res.price_notes) else len(out)  # after the prices' age
        out[at:at] = [T.join(why, " ", T("Each step's best build:"))] + [step_line(req, f, c, why_not)
                                                                        for f, c, why_not in res.steps]
    res.explanation = out
    return res


def step_line(req: Request, f: float, c: Optional[Candidate], why: Optional[str]) -> T:
    """One power-limit step's line: its best build (cards on the board, throughput, total cost and what
    is bought now, the ratio), or why the step has none."""
    if c is None:
        return T("At {step}: no build ({why}).", step=_step_text(f), why=why or T("no complete build within the request"))
    cur = req.currency
    return T("At {step}: {name}, {rate} {unit} for {total} in total ({now} now): {ratio} per 1,000 {currency}.",
             step=_step_text(f), name=c.label, rate=figure_num(c.throughput), unit=c.unit, total=Money(c.total, cur),
             now=Money(c.cost_now, cur), ratio=figure_num(c.ratio), currency=cur)


def noise_cost_lines(req: Request, limited: Optional[Candidate], free: Optional[Candidate], index) -> list[str]:
    """What the noise limit cost, from the best build with it and the best without (models/noise.py
    levels at 1 m while training)."""
    from rigbuilder.rules.context import Context

    def level(c: Candidate) -> float:
        return Context(c.grown, index).noise.level("training") or 0.0

    if free is None:
        return []
    if limited is None:
        return [T("No build is at or below {limit:.0f} dB(A) at 1 m while training; the best build without the limit "
                  "is {db:.1f} dB(A).", limit=req.max_noise, db=level(free))]
    lo, hi = level(limited), level(free)
    if limited.key == free.key or limited.ratio >= free.ratio:
        return [T("The noise limit of {limit:.0f} dB(A) cost nothing: the best build is {db:.1f} dB(A) at 1 m while "
                  "training.", limit=req.max_noise, db=lo)]
    change = limited.throughput / free.throughput - 1 if free.throughput else 0.0
    speed = (T("{pct:.0%} less throughput", pct=-change) if change < 0 else
             T("{pct:.0%} more throughput at a higher cost", pct=change))
    return [T("The best build at or below {limit:.0f} dB(A): {db:.1f} dB(A) at 1 m while training, {less:.1f} dB less "
              "than the best without the limit ({free:.1f} dB(A)) for {ratio:.0%} less throughput per cost ({speed}).",
              limit=req.max_noise, db=lo, less=hi - lo, free=hi, ratio=1 - limited.ratio / free.ratio, speed=speed)]

