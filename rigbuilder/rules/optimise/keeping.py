"""Scoring and keeping: a build's rank key for the request's objective, the best key a bound allows,
whether a bound can still change the answer (this search's top builds, and among the searches of
several power-limit steps the builds of the steps searched before: ``explain.steps_bar``), and the
top builds kept, one per (GPU, board) family."""
from __future__ import annotations

import math
from typing import Callable, Optional

from rigbuilder.domain.parts import GPU
from rigbuilder.rules.optimise.request import Candidate, Request, objective_key


class Keeper:
    def __init__(self, req: Request, count: Callable[[str, int], None], bar: Optional[tuple] = None) -> None:
        self.req, self.count, self._bar = req, count, bar
        self.best: list[Candidate] = []  # top ``req.top``, best first, one per (GPU, board, CPU)

    def key(self, t: float, total: float, headroom: float, blowers: bool) -> tuple:
        """A build's rank key for the request's objective (``request.objective_key``)."""
        return objective_key(self.req.goal, t, total, headroom, blowers, self.req.target)

    def bound(self, t: float, least: float, g: GPU) -> tuple:
        """The best rank key a build of ``g`` with at most ``t`` throughput and at least ``least`` total
        cost could have."""
        return self.key(t, max(1e-9, least), math.inf, self.req.quiet and g.cooler == "blower")

    def may_improve(self, t: float, least: float, g: GPU) -> bool:
        return not self.beaten(self.bound(t, least, g))

    def beaten(self, key: tuple) -> bool:
        """Whether no build with a rank key of at least ``key`` can change the answer: this search's
        top builds are full and the last is at least as good; or, among the searches of several
        power-limit steps, the merged answer's builds from the steps searched before and this
        step's best and next best all beat it (``explain.steps_bar``)."""
        if self.req.goal == "cheapest" and key[0] is True:  # the throughput cannot reach the target
            return True
        if len(self.best) >= max(1, self.req.top) and key >= self.best[-1].key:
            return True
        # Past the other steps' bar and this step's next best, a build changes neither the merged
        # answer nor this step's best and next best (the step's line and, if it wins, its explanation).
        k = min(2, max(1, self.req.top))
        if self._bar is not None and len(self.best) >= k and key > self._bar and key > self.best[k - 1].key:
            self.count("power-limit steps: the builds of the steps searched before beat it")
            return True
        return False

    def keep(self, cand: Candidate, how: str) -> None:
        """Keep the best ``top`` builds, one per (GPU, board) family (another CPU or case for the same
        cards and board is not a different answer), and each a different build: a build that differs from a
        kept one only in the maker's variant of the card (``Candidate.same_but_card``: one averaged used price
        often covers every maker's) is listed in that one's row (``variants``), not as a row of its own, so
        that the top ``top`` are ``top`` different builds. A variant is in its family as its row's card is."""
        cand.ratio = 1000 * cand.throughput / cand.total if cand.total > 0 else math.inf
        cand.goal, cand.target = self.req.goal, self.req.target
        if cand.goal == "cheapest" and cand.key[0] is True:
            return  # short of the target throughput
        board = cand.grown.motherboard
        for x in list(self.best):
            if x.grown.motherboard != board:
                continue
            if x.gpu.id == cand.gpu.id:
                if (x.key, x.total) <= (cand.key, cand.total):
                    return
                self.best.remove(x)
                if x.variants:  # the other makers' cards of its row stay, as a row of their own
                    head, *rest = x.variants
                    head.variants = rest
                    self.best.append(head)
                x.variants = []
            else:
                v = next((v for v in x.variants if v.gpu.id == cand.gpu.id), None)
                if v is not None:
                    if (v.key, v.total) <= (cand.key, cand.total):
                        return
                    x.variants.remove(v)
        twin = next((x for x in self.best if x.same_but_card(cand)), None)
        if twin is not None:
            twin.variants.append(cand)
            return
        self.best.append(cand)
        self.best.sort(key=lambda x: (x.key, x.total))
        del self.best[max(1, self.req.top):]
