"""The judge: a candidate build (GPU, board, CPU, the other parts, the cards' positions) made into its
two stages, checked by the engine, and either ruled out (a placement problem, a parts problem: the
findings ``policy`` refuses) or made into the answer's ``Candidate`` with its prices and the figures
the catalog marks unverified."""
from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Sequence

from rigbuilder.domain.build import Build, PartCount, PricePaid, Settings, StorageItem
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding
from rigbuilder.domain.i18n import N_, T, interleave
from rigbuilder.domain.parts import CPU, GPU, Motherboard
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.geometry import PLACEMENT_CODES
from rigbuilder.rules.lanes import for_workload
import rigbuilder.rules.optimise.policy as policy
from rigbuilder.rules.optimise.placement import Placement, free_slots
from rigbuilder.rules.optimise.prices import Prices
from rigbuilder.rules.optimise.request import Candidate, Request, Scorer, build_name
from rigbuilder.rules.optimise.tally import Tally
from rigbuilder.rules.optimise.walk import Combo

UNVERIFIED_FIELDS = {
    "gpu": {"cooler": N_("cooler type"), "slot_width": N_("slot width"), "length_mm": N_("length")},
    "motherboard": {"slots": N_("slot layout"), "expansion_positions": N_("expansion positions"),
                    "lane_rules": N_("lane sharing")},
    "case": {"expansion_slots": N_("expansion positions"), "max_gpu_length_mm": N_("GPU length limit"),
             "max_cpu_cooler_height_mm": N_("cooler height limit"), "form_factors": N_("board sizes")},
    "cooler": {"height_mm": N_("height"), "sockets": N_("sockets")},
    "psu": {"pcie_8pin": N_("PCIe sockets"), "pcie_cables": N_("PCIe cables"), "length_mm": N_("length")},
}
"""The figures of a part an answer names as unverified when the catalog marks them so."""


class Judge:
    def __init__(self, req: Request, index: PartIndex, scorer: Scorer, settings: Settings, prices: Prices, pools,
                 place: Placement, tally: Tally) -> None:
        self.req, self.index, self.scorer, self.settings, self.prices = req, index, scorer, settings, prices
        self.pools, self.place, self.tally = pools, place, tally

    @property
    def owned(self) -> dict[str, int]:
        return self.pools.owned

    def count(self, bound: str, n: int = 1) -> None:
        self.tally.count(bound, n)

    def _builds(self, g: GPU, b: Motherboard, c: CPU, cb: Combo, pos: Sequence[int]) -> Build:
        req = self.req
        s = replace(self.settings, budget=req.budget)
        if req.max_noise is not None:  # noise.loud then says when a build is over the limit (``_verdict``)
            s = replace(s, room_noise_db=req.max_noise)
        build = Build(name="", motherboard=b.id, cpu=c.id, cooler=cb.cooler.id if cb.cooler else None,
                      case=cb.case.id, psus=[cb.psu1.id],
                      memory=[PartCount(cb.memory.id)] if cb.memory else [],
                      storage=[StorageItem(cb.storage.id)] if cb.storage else [],
                      gpus=[self.place.placement(g, p) for p in pos], settings=s)
        for kind, pid in req.own:
            if kind != "gpu":
                build.prices_paid[pid] = PricePaid(0.0, req.currency, note="owned")
        return build

    def _verdict(self, fs: list[Finding], n_gpus: int) -> tuple[bool, bool, list[Finding]]:
        """(a placement problem, a parts problem, the findings that rule the build out: ``policy``)."""
        bad = [f for f in fs if policy.refused(f, self.req, n_gpus)]
        place = any(f.code.startswith(PLACEMENT_CODES) for f in bad)
        parts = any(not f.code.startswith(PLACEMENT_CODES) for f in bad)
        return place, parts, bad

    def judge(self, g: GPU, b: Motherboard, c: CPU, cb: Combo, pos: tuple[int, ...]):
        req = self.req
        if req.free_slots and free_slots(b, g, pos) < req.free_slots:
            self.count("placement: no slot left for other cards")
            return True, False, None  # another placement may leave one
        grown = self._builds(g, b, c, cb, pos)
        grown.settings.budget = req.grown_budget  # today's budget plus the growth budget, or none
        if cb.psu2 is not None:
            grown.psus.append(cb.psu2.id)
        fs1 = run_checks(grown, self.index)
        self.tally.judged += 1
        place, parts, bad = self._verdict(fs1, req.n_grown)
        if bad:
            self.tally.note_rejects(bad)
            self.count("engine: rejected (grown build)")
            return place, parts, None
        # Today: the first cards on a subset of the grown positions (the best subset the engine accepts).
        last_bad: list[Finding] = []
        for sub in itertools.combinations(pos, req.n_now):
            today = self._builds(g, b, c, cb, sub)
            fs0 = run_checks(today, self.index)
            self.tally.judged += 1
            p0, q0, bad0 = self._verdict(fs0, req.n_now)
            if not bad0:
                return False, False, self.candidate(g, b, c, cb, today, grown, fs0, fs1)
            last_bad = bad0
            if q0:
                break  # a parts problem today does not depend on where the cards sit
        self.tally.note_rejects(last_bad)
        self.count("engine: rejected (today's build)")
        p0, q0, _ = self._verdict(last_bad, req.n_now)
        return p0 and not q0, q0, None

    def candidate(self, g, b, c, cb, today: Build, grown: Build, fs0, fs1) -> Candidate:
        """The answer's candidate for a build both stages of which passed, with what the mount adds."""
        cand = self._candidate(g, b, c, cb, today, grown, fs0, fs1)
        self.place.mount.dress(cand, b, self.req, self.prices.where)
        return cand

    def _candidate(self, g, b, c, cb: Combo, today: Build, grown: Build, fs0, fs1) -> Candidate:
        req = self.req
        wl = getattr(self.scorer, "workload", None)  # an inference build's narrow links: what they cost it
        fs0, fs1 = for_workload(today, fs0, self.index, wl), for_workload(grown, fs1, self.index, wl)
        n0, n1 = req.n_now, req.n_grown
        own = self.owned
        pair = self.pools.pair_price(b, c)
        bundle = pair if pair and pair[1] else None
        prices = []
        for p, units, owned_units in ((b, 1, own.get("motherboard", 0)), (c, 1, own.get("cpu", 0)),
                                      (cb.cooler, 1, own.get("cooler", 0)), (cb.memory, 1, own.get("memory", 0)),
                                      (cb.storage, 1, own.get("storage", 0)), (cb.case, 1, own.get("case", 0)),
                                      (cb.psu1, 1, own.get("psu", 0)), (cb.psu2, 1, 0), (g, n1, own.get("gpu", 0))):
            if p is None:
                continue
            u = self.prices.unit(p.id)
            paid = max(0, units - owned_units)
            if p in (b, c) and bundle:
                u = (bundle[0], T("bundle price with the {cpu}: {where}", cpu=c.name, where=bundle[1])) if p is b else \
                    (0.0, T("in the bundle price of the {board}", board=b.name))
            where = self.prices.where(p.id) if u and not (p in (b, c) and bundle) else u[1] if u else ""
            if owned_units:
                where = (T("{n} owned; {where}", n=min(units, owned_units), where=where) if paid else
                         T("{n} owned", n=min(units, owned_units)))
            prices.append((p.id, units, u[0] if (u and paid) else 0.0, where))
        unverified = []
        for p in (g, b, cb.case, cb.cooler, cb.psu1, cb.psu2):
            if p is None:
                continue
            fields_ = UNVERIFIED_FIELDS.get(p.KIND, {})
            bits = [T(fields_[f]) for f in p.unverified if f in fields_]
            if p.origin == "user":
                unverified.append(T("{name}: your own figures", name=p.name))
            elif bits:
                unverified.append(T("{name}: {fields} unverified", name=p.name, fields=T.join(*interleave(bits, ", "))))
        if req.condition == "both":  # the planner prices one condition: the one closer to this search's prices
            from rigbuilder.models.cost import purchase

            def gap(cond: str) -> tuple:
                trial = replace(grown, settings=replace(grown.settings, condition=cond))
                buy = purchase(trial, self.index, req.currency)
                return (len(buy.missing), abs(buy.total - (cb.cost_now + cb.cost_growth)))

            cond = min(("new", "used"), key=gap)
            today.settings = replace(today.settings, condition=cond)
            grown.settings = replace(grown.settings, condition=cond)
        total = cb.cost_now + cb.cost_growth + cb.energy
        name = build_name(n0, n1, g.model, b.model)
        today.name = T("{name} (today)", name=name)
        grown.name = T("{name} (grown)", name=name) if n1 != n0 else name
        return Candidate(today, grown, g, 0.0, self.scorer.unit, cb.cost_now, cb.cost_growth, cb.energy, req.years,
                         total, 0.0, cb.headroom, g.vram_gb, cb.peak_dc, cb.peak_wall, cb.per_month, fs0, fs1,
                         prices, unverified, req.quiet and g.cooler == "blower")
