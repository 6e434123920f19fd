"""The PSU options of a search: which PSUs (and, with a second PSU allowed, which pairs) carry a
GPU's cards by connectors and wattage, their price floors, and with a noise limit the PSUs and CPU
coolers quiet enough with the cards (floors that cannot remove the optimum: the engine judges each
build). Given the search's pools (the PSU fronts, prices, what is owned, the cards' draw)."""
from __future__ import annotations

import bisect
import math
from typing import Optional

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.parts import GPU, PSU, Cooler
from rigbuilder.models import noise as noise_model
from rigbuilder.models import power as power_model
import rigbuilder.rules.optimise.policy as policy
import rigbuilder.rules.optimise.choices as choices
from rigbuilder.rules.optimise.bounds import connectors_ok, plug_key, socket_key
from rigbuilder.rules.optimise.request import Request, limit_w
from rigbuilder.rules.power import HEADROOM, TRANSIENT_ARCHS


class PsuOptions:
    def __init__(self, req: Request, pools, shared: dict, scores: Optional[dict] = None) -> None:
        self.req, self.pools, self._shared = req, pools, shared
        self._scores: dict = {} if scores is None else scores  # figures at the request's power limit

    def spikes(self, g: GPU, n_gpus: int) -> Optional[float]:
        """What ``n_gpus`` cards of ``g`` add in short spikes to the peak load on PSUs that are not all
        ATX 3.x, where the policy refuses ``psu.transients`` on a stage with that many cards (the check
        warns when the peak load plus the spikes exceeds the PSUs' rating: the power model's figures,
        as the check reads them); None where no build of these cards can get that warning refused."""
        if g.architecture not in TRANSIENT_ARCHS or not n_gpus or \
                not policy.refused(Finding("psu.transients", Severity.WARNING, ""), self.req, n_gpus):
            return None
        draw = power_model.gpu_power(g, limit_w(g, self.req.power_limit))["training"]
        return n_gpus * draw * (power_model.transient_factor(g)[0] - 1)

    # What the moved bodies read: the pools' fronts, prices, owned parts and counts.
    @property
    def psu_pool(self) -> list[PSU]:
        return self.pools.psu_pool

    @property
    def psu2_pool(self) -> list[PSU]:
        return self.pools.psu2_pool

    @property
    def owned(self) -> dict[str, int]:
        return self.pools.owned

    def price(self, p, owned_units: int = 0, units: int = 1) -> float:
        return self.pools.price(p, owned_units, units)

    def gpu_dc(self, g: GPU) -> tuple[float, float, float]:
        return self.pools.gpu_dc(g)

    def count(self, bound: str, n: int = 1) -> None:
        self.pools.count(bound, n)

    def floors(self, g: GPU) -> tuple:
        """The cheapest PSU option that could carry the cards alone, all told and bought now (the
        second PSU is bought when growing): price floors, (None, None) when there is none."""
        need_dc = self.req.n_grown * self.gpu_dc(g)[2]
        key = ("psufloor", plug_key(g), need_dc)
        v = self._scores.get(key)
        if v is None:
            # the options that carry the cards' plugs by wattage, with the least prices from each
            # wattage up (once per kind of plugs, whatever the load: every step's loads share it)
            skey = ("psu floors", plug_key(g))
            srt = self._shared.get(skey)
            if srt is None:
                rows = sorted(((w, self._psu_cost((p1, p2)), self.price(p1, self.owned.get("psu", 0)))
                               for p1, p2, w in self._every_psu(g)), key=lambda r: r[0])
                least, least_now, lo, lo_now = [], [], math.inf, math.inf
                for _, cost, now in reversed(rows):
                    lo, lo_now = min(lo, cost), min(lo_now, now)
                    least.append(lo)
                    least_now.append(lo_now)
                srt = self._shared[skey] = ([r[0] for r in rows], least[::-1], least_now[::-1])
            ws, least, least_now = srt
            i = bisect.bisect_left(ws, need_dc * (HEADROOM if self.req.psu_headroom else 1.0) - 1e-9)
            v = self._scores[key] = (least[i], least_now[i]) if i < len(ws) else (None, None)
        return v

    def _psu_cost(self, o: tuple[PSU, Optional[PSU]]) -> float:
        return self.price(o[0], self.owned.get("psu", 0)) + (self.price(o[1]) if o[1] is not None else 0.0)

    def options(self, g: GPU, need_dc: float) -> list[tuple[PSU, Optional[PSU]]]:
        """PSU options for the grown build: (PSU bought now, second PSU added when growing or None),
        with enough PCIe cables and at least ``need_dc`` (plus 10% with the headroom preference)."""
        key = ("psus", plug_key(g), need_dc)  # the card counts only through its plugs; the same at every step
        out: Optional[list[tuple[PSU, Optional[PSU]]]] = self._shared.get(key)
        if out is not None:
            return out
        need = need_dc * (HEADROOM if self.req.psu_headroom else 1.0) - 1e-9
        out = self._shared[key] = [(p1, p2) for p1, p2, w in self._every_psu(g) if w >= need]
        return self._quiet_enough(g, out) if self.req.max_noise is not None else out

    # The noise limit (``req.max_noise``): the engine's noise.loud judges each build (``_verdict``);
    # these floors only leave out what cannot be at or below the limit whatever else is chosen (the
    # cards and the case fans every build has, then with the PSUs), so they cannot remove the optimum.
    def noise_floor(self, g: GPU, *more: Optional[float]) -> float:
        key = ("noise floor", g.id, limit_w(g, self.req.power_limit))
        base = self._shared.get(key)
        if base is None:
            data = noise_model.load_data()
            card = noise_model.gpu_training_db(g, limit_w(g, self.req.power_limit), data)
            fans = noise_model.case_fan_figures(data)["training"].db
            base = self._shared[key] = noise_model.db_sum([card] * self.req.n_grown + [fans]) or 0.0
        return noise_model.db_sum([base, *more]) or 0.0 if more else base

    def _quiet_enough(self, g: GPU, options: list[tuple[PSU, Optional[PSU]]]) -> list[tuple[PSU, Optional[PSU]]]:
        key = ("quiet psus", id(options), g.id, limit_w(g, self.req.power_limit))
        got = self._shared.get(key)
        if got is not None and got[0] is options:
            return got[1]
        levels = self._shared.setdefault("psu noise", {})

        def db(p: Optional[PSU]) -> Optional[float]:
            if p is None:
                return None
            if p.id not in levels:
                levels[p.id] = noise_model.psu_figures(noise_model.load_data(), p, {})["training"].db
            return levels[p.id]

        out = [o for o in options if self.noise_floor(g, db(o[0]), db(o[1])) <= self.req.max_noise + 1e-9]
        if len(out) < len(options):
            self.count("PSU: louder than the noise limit with the cards", len(options) - len(out))
        self._shared[key] = (options, out)
        return out

    def _cooler_db(self, k: Optional[Cooler]) -> Optional[float]:
        levels = self._shared.setdefault("cooler noise", {})
        if k is None:
            return None
        if k.id not in levels:
            levels[k.id] = noise_model.cooler_figures(noise_model.load_data(), k)["training"].db
        return levels[k.id]

    def quiet_parts(self, g: GPU, coolers: list, psu_opts: list) -> tuple[list, list]:
        """The coolers quiet enough with the cards, the case fans and the quietest PSU option, and the
        PSU options quiet enough with the quietest cooler (each a floor of every build of the triple)."""
        levels = self._shared.get("psu noise", {})
        psu_db = [noise_model.db_sum([levels.get(p1.id), levels.get(p2.id) if p2 else None]) for p1, p2 in psu_opts]
        quiet_psu = min((d for d in psu_db if d is not None), default=None)
        quiet_cooler = min((d for k in coolers if (d := self._cooler_db(k)) is not None), default=None)
        if any(k is None for k in coolers):
            quiet_cooler = None  # a build without a cooler (none has a price) adds nothing
        lim = self.req.max_noise + 1e-9
        keep_c = [k for k in coolers if self.noise_floor(g, self._cooler_db(k), quiet_psu) <= lim]
        keep_p = [o for o, d in zip(psu_opts, psu_db) if self.noise_floor(g, d, quiet_cooler) <= lim]
        if len(keep_c) < len(coolers):
            self.count("cooler: louder than the noise limit with the cards", len(coolers) - len(keep_c))
        return keep_c, keep_p

    def _every_psu(self, g: GPU) -> list[tuple[PSU, Optional[PSU], float]]:
        """The PSU options whose connectors carry the cards, whatever the load, with their wattage
        (once per kind of plugs: the same at every power limit); with the ``native-sockets`` choice, a
        native 12V-2x6 socket for each of the cards' at both stages (``choices.sockets_ok``)."""
        req, n0, n1 = self.req, self.req.n_now, self.req.n_grown
        ckey = ("psus with the connectors", plug_key(g))
        every = self._shared.get(ckey)
        if every is None:
            ok: dict = {}  # per kind of sockets (most PSUs share a few)

            def carries(p: PSU) -> bool:
                v = ok.get(socket_key(p))
                if v is None:
                    v = ok[socket_key(p)] = connectors_ok([g] * n1, [p])
                return v

            every = [(p, None, p.wattage) for p in self.psu_pool if carries(p)
                     and choices.sockets_ok(req, g, n0, n1, p)]
            if req.second_psu and n1 > n0:
                for p1 in self.psu_pool:
                    if not connectors_ok([g] * n0, [p1]):
                        continue
                    for p2 in self.psu2_pool:
                        if p2.id != p1.id and connectors_ok([g] * n1, [p1, p2]) \
                                and choices.sockets_ok(req, g, n0, n1, p1, p2):
                            every.append((p1, p2, p1.wattage + p2.wattage))
            self._shared[ckey] = every
        return every
