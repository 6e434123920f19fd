"""The candidate pools of a search: the parts of every kind it may choose from (priced, fit for the
request and the mount), the GPUs with their estimates, the (board, CPU) pairs with their prices, the
PSU fronts, and per (GPU, board, CPU) the Pareto-filtered lists of the other kinds with their price
floors. What depends neither on the power limit nor on the mount is kept in the shared lists
(``shared``), so the searches of the power-limit steps and of the riser options work it out once."""
from __future__ import annotations

import bisect
import math
from typing import Callable, Optional

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import CPU, GPU, PSU, Case, MemoryKit, Motherboard, Part
from rigbuilder.rules.fit import (RADIATORS, board_fits_case, build_radiators, card_fits_case, cooler_fits_socket,
                                  cpu_fits_board, memory_fits, memory_key, memory_type_fits_cpu, norm_form_factor,
                                  norm_socket, card_radiator, cooler_radiator, on_loop, radiator_case_key, radiator_key, radiator_severity)
from rigbuilder.rules.thermal import PASSIVE, passive_key, passive_severity
import rigbuilder.rules.optimise.choices as choices
import rigbuilder.rules.optimise.policy as policy
from rigbuilder.rules.optimise.bounds import none_inf, none_zero, pareto, pareto_sorted, psu_front
from rigbuilder.rules.optimise.power import Power
from rigbuilder.rules.optimise.prices import Prices
from rigbuilder.rules.optimise.psus import PsuOptions
from rigbuilder.rules.optimise.request import KINDS, OPTIONAL_KINDS, Cancelled, OptimiseError, Request, Scorer, limit_w
from rigbuilder.rules.optimise.tally import Tally

_MISSING = object()
CASE_CHOICE_BOUND = "case: GPU length limit or expansion positions unconfirmed (choices: case-fit-confirmed)"


def _radiator_figures(cooler) -> tuple:
    """A cooler's radiator as Pareto figures (smaller is better): none beats any; a smaller radiator beats a
    larger one (every mount that takes the larger takes it); one of unstated size is neither better nor
    worse than one of a stated size (``radiator_severity``: a warning where the stated one may fit or fail)."""
    rad = cooler_radiator(cooler)
    if not rad:
        return (0, 0.0)
    return (1, 0.0) if rad[0] is None else (0, rad[0])


def _mount_figures(case: Case, places: int) -> tuple:
    """A case's radiator mounts as Pareto figures (smaller is better): known or not, then each mount,
    largest first, negated and padded to ``places``. One case holds every set of radiators another holds
    exactly when its mounts, both sorted, are each at least the other's (``radiators_fit``); a case whose
    mounts are unknown is neither better nor worse than one whose mounts are known."""
    key = radiator_case_key(case)
    if key is None:
        return (1, *(-math.inf,) * places)
    return (0, *(-m for m in key), *(0,) * (places - len(key)))


class Pools:
    """The parts a search chooses from (see the module's docstring). ``prepare`` reads the parts the
    request names, ``setup`` makes the pools; ``parts`` gives one (GPU, board, CPU)'s lists."""

    def __init__(self, req: Request, index: PartIndex, scorer: Scorer, prices: Prices, power: Power, mount,
                 tally: Tally, shared: dict, progress: Optional[Callable[[float, str], None]] = None,
                 cancelled: Optional[Callable[[], bool]] = None, common: Optional[dict] = None,
                 scores: Optional[dict] = None) -> None:
        self.req, self.index, self.scorer, self.prices, self.power, self.mount = req, index, scorer, prices, power, mount
        # ``shared``: the lists that depend on the mount (cases, the cards' prices with it); ``common``:
        # those that do not, shared by the searches of every mount; ``scores``: figures that depend on
        # the power limit but not on the mount (the PSU floors).
        self.tally, self._shared = tally, shared
        self._common = shared if common is None else common
        self.progress, self.cancelled = progress, cancelled
        self.fixed: dict[str, Part] = {}
        self.owned: dict[str, int] = {}
        self._gpu_dc: dict[str, tuple[float, float, float]] = {}
        self.psu = PsuOptions(req, self, self._common, scores)

    # What the moved bodies read: the tally's counts and notes.
    @property
    def CARDS_IN_SLOTS(self) -> bool:  # noqa: N802 (the mount's flag, read by ``_pool``)
        return self.mount.CARDS_IN_SLOTS

    @property
    def bounds(self) -> dict[str, int]:
        return self.tally.bounds

    @property
    def excluded(self) -> dict[str, int]:
        return self.tally.excluded

    @excluded.setter
    def excluded(self, v: dict[str, int]) -> None:
        self.tally.excluded = v

    @property
    def left_out(self) -> list[str]:
        return self.tally.left_out

    @left_out.setter
    def left_out(self, v: list[str]) -> None:
        self.tally.left_out = v

    def count(self, bound: str, n: int = 1) -> None:
        self.tally.count(bound, n)

    def _fail(self, stage: str, text: str) -> None:
        self.tally.fail(stage, text)

    def prepare(self) -> None:
        """The parts the request insists on and those the user owns (an OptimiseError names a bad one)."""
        self.fixed, self.owned = self._fixed()

    def cond_words(self) -> str:
        return self._cond_words()

    def gpu_dc(self, g: GPU) -> tuple[float, float, float]:
        """One card's DC draw at the request's power limit (once per card: the search asks often)."""
        v = self._gpu_dc.get(g.id)
        if v is None:
            v = self._gpu_dc[g.id] = self.power.part(g, limit_w(g, self.req.power_limit))
        return v

    def _price(self, p: Optional[Part], owned_units: int = 0, units: int = 1) -> float:
        if p is None:
            return 0.0
        u = self.prices.unit(p.id)
        paid = max(0, units - owned_units)
        if paid == 0:
            return 0.0
        assert u is not None
        return u[0] * paid

    def price(self, p: Optional[Part], owned_units: int = 0, units: int = 1) -> float:
        """What ``units`` of ``p`` cost (less those owned), with what the mount adds (a riser per card)."""
        return self._price(p, owned_units, units) + self.mount.extra(p, units)

    def _mounted_pool(self, kind: str, fixed: dict[str, Part], owned: dict[str, int]) -> list[Part]:
        pool = self._pool(kind, fixed, owned)
        return self.mount.cases(pool, self.req, self.count) if kind == "case" else pool

    def _fixed(self) -> tuple[dict[str, Part], dict[str, int]]:
        fixed: dict[str, Part] = {}
        owned: dict[str, int] = {}
        for kind, pid in self.req.insist + self.req.own:
            p = self.index.get(pid)
            if p is None:
                raise OptimiseError(T("{pid}: no such part in the catalog", pid=f"{pid!s:.80}"))
            if p.KIND != kind:
                raise OptimiseError(T("{name} ({pid}) is a {kind}, not a {wanted}", name=p.name, pid=pid, kind=p.KIND,
                                      wanted=kind))
            if kind in fixed and fixed[kind].id != pid:
                if kind == "gpu":
                    raise OptimiseError(T("two different GPUs named ({a}, {b}): the search uses one GPU model for "
                                          "every card", a=fixed[kind].id, b=pid))
                raise OptimiseError(T("two different parts of kind {kind} named ({a}, {b}): the search uses one",
                                      kind=kind, a=fixed[kind].id, b=pid))
            fixed[kind] = p
        for kind, pid in self.req.own:
            owned[kind] = owned.get(kind, 0) + 1
        if owned.get("gpu", 0) > self.req.n_grown:
            raise OptimiseError(T("{n} owned GPUs, more than the {grown} the build grows to", n=owned["gpu"],
                                  grown=self.req.n_grown))
        for kind, n in owned.items():
            if kind != "gpu" and n > 1:
                raise OptimiseError(T("{kind} owned {n} times: a build has one {kind}", kind=kind, n=n))
        for kind, p in fixed.items():
            if owned.get(kind, 0) < (1 if kind != "gpu" else self.req.n_grown) and self.prices.unit(p.id) is None \
                    and kind not in ("motherboard", "cpu"):
                raise OptimiseError(T("{name} ({pid}) has no {cond} price in {currency}, so a build with it cannot "
                                      "be costed: enter your price for it (rigbuilder price set) or name it as owned",
                                      name=p.name, pid=p.id, cond=self._cond_words(), currency=self.req.currency))
        return fixed, owned

    def _cond_words(self) -> str:
        return {"new": T("new"), "used": T("used"), "both": T("new or used")}[self.req.condition]

    def _pool(self, kind: str, fixed: dict[str, Part], owned: dict[str, int]) -> list[Part]:
        if kind in fixed:
            return [fixed[kind]]
        parts = self.index.of_kind(kind)
        if kind in ("motherboard", "cpu"):  # priced per pair: a bundle price may price both
            return parts
        priced = [p for p in parts if self.prices.unit(p.id) is not None]
        if len(priced) < len(parts):
            self.excluded[kind] = len(parts) - len(priced)
        if not priced and parts and kind in OPTIONAL_KINDS:
            self.left_out.append(kind)
        if kind == "storage":  # a drive too small for a data set, or an HDD as the system drive, is no choice
            priced = [p for p in priced if choices.storage_ok(self.req, p, m2=False)]
        if kind == "case" and self.CARDS_IN_SLOTS:
            kept = [p for p in priced if not (isinstance(p, Case) and p.open_frame)]
            if len(kept) < len(priced):
                self.count("case: an open frame (its cards stand on risers, searched with risers only)",
                           len(priced) - len(kept))
            priced = kept
            kept = [p for p in priced if choices.case_ok(self.req, p)]
            if len(kept) < len(priced):
                self.count(CASE_CHOICE_BOUND, len(priced) - len(kept))
            priced = kept
        return priced

    def _restore(self, got: tuple) -> None:
        keep, counts = got
        for name, v in keep.items():  # the lists are only read; what a result reports is its own copy
            setattr(self, name, type(v)(v) if name in ("excluded", "left_out") else v)
        for bound, n in counts:
            self.count(bound, n)

    def setup(self, fixed: dict[str, Part], owned: dict[str, int]) -> tuple[list, list]:
        """The pools, the GPUs with their estimates and prices, the (board, CPU) pairs and the PSU fronts:
        none depends on the power limit, so the searches of the limit steps work them out once, and
        only the cases and the cards' prices depend on the mount, so the searches of the mounts share
        the rest (each search counts what they removed as a search of its own would)."""
        got = self._shared.get(("setup", self.req.choices))  # the GPUs read the choices (``_score``)
        if got is not None:
            self._restore(got)
            return self.gpus, self.pairs
        before = dict(self.bounds)
        self._setup_common(fixed, owned)
        pools = dict(self.pools)
        pools["case"] = self._mounted_pool("case", fixed, owned)
        self.pools = pools
        # the order the kinds are named in (the boards' and CPUs' counts come last: ``_setup_common``)
        self.excluded = dict(sorted(self.excluded.items(), key=lambda kv: (kv[0] in ("motherboard", "cpu"),
                                                                           KINDS.index(kv[0]))))
        n1 = self.req.n_grown
        self.gpus = [(s, g, self.price(g, owned.get("gpu", 0) if "gpu" in fixed else 0, n1)) for s, g in self.scored]
        names = ("pools", "excluded", "left_out", "gpus", "pairs", "total_pairs", "board_floor", "psu_pool",
                 "psu2_pool")
        counts = [(k, v - before.get(k, 0)) for k, v in self.bounds.items() if v != before.get(k, 0)]
        self._shared[("setup", self.req.choices)] = ({k: getattr(self, k) for k in names}, counts)
        return self.gpus, self.pairs

    def _setup_common(self, fixed: dict[str, Part], owned: dict[str, int]) -> None:
        """What ``setup`` makes that depends on no mount: the pools but the cases, the GPUs with their
        estimates (``scored``: ``_score``, kept per set of the builder's choices), the pairs and the PSU
        fronts. The searches that share them differ at most in ``training-vram`` (the search with smaller
        cards after the one with the least VRAM for training: ``frames._smaller_cards``), which only the
        GPUs read (``choices.card_ok``)."""
        got = self._common.get("setup")
        if got is not None:
            keep, counts = got
            self._restore((keep, []))
            self._score()
            self._restore(({}, counts))
            return
        req = self.req
        pools = {k: self._mounted_pool(k, fixed, owned) for k in KINDS if k != "case"}
        self.pools = pools
        self._score()
        before = dict(self.bounds)
        # Board and CPU pairs (sockets, memory type), priced together where a bundle price exists.
        pairs: list[tuple[Motherboard, CPU, float, str]] = []
        for b in pools["motherboard"]:
            for c in pools["cpu"]:
                assert isinstance(b, Motherboard) and isinstance(c, CPU)
                if not cpu_fits_board(c, b) or ("memory" not in self.left_out
                                                 and not memory_type_fits_cpu(b.memory_type, c)):
                    continue  # (a kit fits both only if the CPU takes the board's memory type)
                priced = self.pair_price(b, c)
                if priced is not None:
                    pairs.append((b, c, *priced))
        self.total_pairs = len(pairs)
        self.board_floor: dict[str, float] = {}
        for b, _, cost, _ in pairs:
            self.board_floor[b.id] = min(cost, self.board_floor.get(b.id, math.inf))
        for kind, have in (("motherboard", {b.id for b, *_ in pairs}), ("cpu", {c.id for _, c, *_ in pairs})):
            n = sum(1 for p in pools[kind] if p.id not in have and self.prices.unit(p.id) is None)
            if n and kind not in fixed:
                self.excluded[kind] = n  # no price of its own and none in a bundle with a partner
            pools[kind] = [p for p in pools[kind] if p.id in have]
        # PSUs: one Pareto front per wattage (the same for every GPU and board).
        psus = [p for p in pools["psu"] if isinstance(p, PSU) and (p.atx3 or not req.atx3)]
        if req.atx3 and len(psus) < len(pools["psu"]):
            self.count("PSU: not ATX 3.x", len(pools["psu"]) - len(psus))
        front = psu_front(psus, lambda p: self.price(p, owned.get("psu", 0)), self.power.table)
        self.count("PSU: dominated (Pareto within a wattage: price, efficiency, cables, length)", len(psus) - len(front))
        self.psu_pool = front
        self.psu2_pool: list[PSU] = []
        if req.second_psu:
            every = [p for p in self.index.of_kind("psu") if isinstance(p, PSU) and (p.atx3 or not req.atx3)
                     and self.prices.unit(p.id) is not None]
            front2 = psu_front(every, self.price, self.power.table)
            # A second PSU is another model than the first: a first PSU that dominates every other
            # needs a partner from the next front (each PSU the first front dominates is matched or
            # beaten by one of the two fronts other than the first PSU itself).
            taken = {p.id for p in front2}
            self.psu2_pool = front2 + psu_front([p for p in every if p.id not in taken], self.price, self.power.table)
        self.pairs = pairs
        names = ("pools", "excluded", "left_out", "pairs", "total_pairs", "board_floor", "psu_pool",
                 "psu2_pool")
        self._common["setup"] = ({k: getattr(self, k) for k in names},
                                 [(k, v - before.get(k, 0)) for k, v in self.bounds.items() if v != before.get(k, 0)])

    def _score(self) -> None:
        """The GPUs with the workload's estimate and the VRAM the request asks for (``scored``), once per
        set of the builder's choices (each search counts what they removed as a search of its own would)."""
        key = ("scored", self.req.choices)
        got = self._common.get(key)
        if got is not None:
            self._restore(got)
            return
        before = dict(self.bounds)
        req, n1 = self.req, self.req.n_grown
        scored: list[tuple[float, GPU]] = []
        for k, g in enumerate(self.pools["gpu"]):
            assert isinstance(g, GPU)
            if self.cancelled and self.cancelled():
                raise Cancelled()
            if self.progress and k % 50 == 0:
                self.progress(0.0, g.name)  # scoring the cards: cancel and progress answer here too
            s = self.scorer.card(g)
            if s is None or s <= 0:
                self.count("GPU: no throughput estimate for the workload")
                continue
            if g.vram_gb < req.min_vram_gb or g.vram_gb * n1 < req.min_total_vram_gb \
                    or not choices.fits(req, self.scorer, g, n1):
                self.count("GPU: too little VRAM")
                continue
            if req.max_noise is not None and self.psu.noise_floor(g) > req.max_noise:
                self.count("GPU: louder than the noise limit")  # the cards and the case fans alone
                continue
            scored.append((s, g))
        self.scored = scored
        self._common[key] = ({"scored": scored},
                             [(k, v - before.get(k, 0)) for k, v in self.bounds.items() if v != before.get(k, 0)])

    def pair_price(self, b: Motherboard, c: CPU) -> Optional[tuple[float, str]]:
        """The board and CPU together: a bundle price for the two when there is one (as the
        purchase takes it), else each part's own; None when one of them cannot be costed."""
        ob, oc = self.owned.get("motherboard", 0), self.owned.get("cpu", 0)
        if not ob and not oc:
            bun = self.prices.bundle(b.id, c.id)
            if bun is not None:
                return bun[0], bun[1]
        if (not ob and self.prices.unit(b.id) is None) or (not oc and self.prices.unit(c.id) is None):
            return None
        return self.price(b, ob) + self.price(c, oc), ""

    def _by_price(self, kind: str) -> list:
        """The pool of one kind as (price, part), cheapest first (once per search)."""
        key = ("byprice", kind)
        store = self._shared if kind == "case" else self._common  # only the cases depend on the mount
        v = store.get(key)
        if v is None:
            own = self.owned.get(kind, 0)
            v = store[key] = sorted(((self.price(p, own), p) for p in self.pools[kind]),
                                           key=lambda t: (t[0], t[1].id))
        return v

    def gpu_floor(self, g: GPU) -> tuple[float, float]:
        """(cost, cost now) that every build with ``g`` pays besides the cards, the board and the CPU,
        at least: the cheapest case that takes the card, cooler, memory kit with the RAM asked for,
        drive and PSU option that carries the cards alone. A kind with no such part adds nothing
        here (the per-triple search names it)."""
        req = self.req
        fit = bisect.bisect_left(self._case_limits(), g.length_mm) if g.length_mm else -1
        passive = passive_key(g)
        rads = radiator_key(g)
        key = ("gpufloor", g.id, req.power_limit)  # kept with the mount's lists (the case floor is the mount's)
        fl = self._shared.get(key)
        if fl is not None:
            return fl

        def cheapest(key2, kind, ok=lambda p: True) -> float:
            store = self._shared if key2[0] == "casefloor" else self._common  # only the cases depend on the mount
            v = store.get(key2)
            if v is None:
                v = store[key2] = next((price for price, p in self._by_price(kind) if ok(p)), 0.0)
            return v

        memo = self.__dict__.setdefault("_radiators_memo", {})
        rest = cheapest(("casefloor", fit, passive, rads), "case", lambda k: card_fits_case(g, k) and not policy.refuses(
            PASSIVE, passive_severity(g, k), req, req.n_grown) and radiators_ok_kept(memo, req, g, rads, k))
        if "cooler" not in self.left_out:
            rest += cheapest(("coolerfloor",), "cooler")
        if "memory" not in self.left_out:
            need = choices.ram_needed(req, g.vram_gb * req.n_grown)
            rest += cheapest(("memfloor", need), "memory", lambda m: m.total_gb >= need)
        if "storage" not in self.left_out:
            rest += cheapest(("storefloor",), "storage")
        psu, psu_now = self.psu.floors(g)
        fl = self._shared[key] = (rest + (psu or 0.0), rest + (psu_now or 0.0))
        return fl

    def _cached(self, key, make):
        """A parts list that depends on neither the cards' power nor the PSUs (shared by the steps)."""
        store = self._shared if key[0] == "cases" else self._common  # only the cases depend on the mount
        v = store.get(key, _MISSING)
        if v is _MISSING:
            v = make()
            store[key] = v
        return v

    def parts(self, g: GPU, b: Motherboard, c: CPU, pl, vram_total: float):
        """The candidate parts of every other kind for one (GPU, board, CPU): compatible, Pareto-
        filtered, with the cheapest of each (price floors). None when a kind has none. The lists and
        their floors are kept per (GPU, board, CPU) with the mount's lists (``_lists``: the searches of the
        power-limit steps, the search with smaller cards and a session's searches come to the same triples);
        a triple without them goes the whole way each time, counted."""
        key = ("triple lists", g.id, b.id, c.id, min(need for _, need in pl))
        got = self._shared.get(key)
        if got is None:
            got = self._lists(g, b, c, pl, vram_total)
            if got is None:
                return None
            self._shared[key] = got
        floor_psu, floor_psu_now = self.psu.floors(g)
        if floor_psu is None:
            self.count("triple: PSU wattage floor (no PSU carries the cards)")
            self._fail("psu", T("no PSU with a price carries {n} x {gpu} with 10% headroom", n=self.req.n_grown,
                                gpu=g.name) if self.req.psu_headroom else
                       T("no PSU with a price carries {n} x {gpu}", n=self.req.n_grown, gpu=g.name))
            return None
        return (*got, floor_psu, floor_psu_now)

    def _lists(self, g: GPU, b: Motherboard, c: CPU, pl, vram_total: float):
        """``parts`` without the PSU floors: the lists of cases, coolers, memory kits and drives and their
        least price together, or None (counted, with the reason) when a kind has none."""
        req = self.req
        min_cs = min(need for _, need in pl)
        ff = norm_form_factor(b.form_factor)  # what ``board_fits_case`` reads of the board
        passive = passive_key(g)
        # Cases that take the card depend on its length only through which case limits it exceeds:
        # one key per run of lengths between two case limits, not one per GPU length.
        fit = bisect.bisect_left(self._case_limits(), g.length_mm) if g.length_mm else -1
        cases = self._cached(("cases", ff, fit, passive, radiator_key(g), min_cs), lambda: self._cases(b, g, min_cs))
        if not cases:
            self.count("triple: no case takes the board and the cards")
            if (card_radiator(g) or on_loop(g)) and self._cases(b, g, min_cs, radiators=False):
                self._fail("case", T("no case with a price has radiator mounts known to hold {n} x {gpu} "
                                     "(case.radiators; --allow-warnings accepts a case whose mounts are not known)",
                                     n=req.n_grown, gpu=g.name))
            elif self.bounds.get(CASE_CHOICE_BOUND):
                self._fail("case", T("no case with a price and its GPU length limit and expansion positions confirmed "
                                     "takes the {board} and {n} x {gpu} (choice case-fit-confirmed)", board=b.name,
                                     n=req.n_grown, gpu=g.name))
            else:
                self._fail("case", T("no case with a price takes the {board} and {n} x {gpu}", board=b.name,
                                     n=req.n_grown, gpu=g.name))
            return None
        coolers: list = [None]
        if "cooler" not in self.left_out:
            coolers = self._cached(("coolers", norm_socket(c.socket)), lambda: self._coolers(c))
            if not coolers:
                self.count("triple: no cooler for the CPU socket")
                self._fail("cooler", T("no CPU cooler with a price fits socket {socket}", socket=c.socket))
                return None
        mems: list = [None]
        if "memory" not in self.left_out:
            need = choices.ram_needed(req, vram_total)
            modules = choices.modules_needed(req, b, c) if "memory" not in self.fixed else 1  # yours: as it is
            mems = self._cached(("mems", memory_key(b, c), need, modules), lambda: self._mems(b, c, need, modules))
            if not mems:
                self.count("triple: no memory kit for the board and the VRAM")
                self._fail("memory", T("no {mem} kit with a price fits the {board} with {gb:g} GB or more in {n} or "
                                       "more modules", mem=b.memory_type, board=b.name, gb=need, n=modules))
                return None
        stores: list = [None]
        if "storage" not in self.left_out:
            m2 = bool(b.m2)
            stores = self._cached(("stores", m2), lambda: self._stores(m2))
            if not stores:
                self.count("triple: no drive of the size asked for")
                self._fail("storage", T("no drive of {gb:g} GB or more has a price", gb=choices.drive_gb(req))
                           if not choices.on(req, "system-drive") else
                           T("no SSD of {gb:g} GB or more ({nvme}) has a price", gb=choices.drive_gb(req),
                             nvme=T("NVMe: the board has an M.2 socket") if m2 else T("SATA or NVMe")))
                return None
        floor_rest = (self._least("case", cases) + self._least("cooler", coolers) + self._least("memory", mems)
                      + self._least("storage", stores))
        return cases, coolers, mems, stores, floor_rest

    def _least(self, kind: str, items: list) -> float:
        """The cheapest price in one of the shared parts lists (once per list; [None]: a kind left out)."""
        if items == [None]:
            return 0.0
        got = self._shared.get(("least", id(items)))
        if got is None or got[0] is not items:
            own = self.owned.get(kind, 0)
            got = self._shared[("least", id(items))] = (items, min(self.price(k, own) for k in items))
        return got[1]

    def _case_limits(self) -> list[float]:
        """The distinct GPU length limits of the cases in the pool, sorted."""
        lim = getattr(self, "_case_limits_", None)
        if lim is None:
            lim = self._case_limits_ = sorted({k.max_gpu_length_mm for k in self.pools["case"] if k.max_gpu_length_mm})
        return lim

    def _front(self, kind: str, fits: Callable, figures: Callable, bound: str) -> list:
        """The parts of ``kind`` that ``fits``, less those another beats on price and on every one of
        their ``figures`` (Pareto; how many counted under ``bound``)."""
        own = self.owned.get(kind, 0)
        parts = [p for p in self.pools[kind] if fits(p)]
        front = pareto(parts, lambda p: (self.price(p, own), *figures(p)))
        self.count(bound, len(parts) - len(front))
        return front

    def _cases(self, b: Motherboard, g: GPU, min_cs: int, radiators: bool = True) -> list:
        # the cases that take the board size, once per size (most of a large catalog's cases take few)
        # keyed by the front's figures and sorted once per size: each front below filters and scans it
        ff = norm_form_factor(b.form_factor)  # what ``board_fits_case`` reads of the board
        takes = self._shared.get(("cases taking", ff))
        if takes is None:
            own = self.owned.get("case", 0)
            mounts = self._mount_places()
            takes = self._shared[("cases taking", ff)] = sorted(
                (((self.price(k, own), -k.expansion_slots, -none_inf(k.max_cpu_cooler_height_mm),
                   -none_inf(k.max_psu_length_mm), *_mount_figures(k, mounts)), k)
                 for k in self.pools["case"] if board_fits_case(b, k)),
                key=lambda kx: kx[0])

        def fits(k: Case) -> bool:  # a passive card: as thermal.passive judges it, and the warnings policy
            return (card_fits_case(g, k) and k.expansion_slots >= min_cs
                    and not policy.refuses(PASSIVE, passive_severity(g, k), self.req, self.req.n_grown)
                    and (not radiators or radiators_ok(self.req, g, None, k)))

        keyed = [kx for kx in takes if fits(kx[1])]
        if not radiators:  # only whether any case would take the cards but for their radiators (nothing counted)
            return [k for _, k in keyed]
        front = pareto_sorted(keyed)
        self.count("case: dominated (Pareto: price, slots, cooler height, PSU length, radiator mounts)",
                   len(keyed) - len(front))
        return front

    def _mount_places(self) -> int:
        """The most radiator mounts a case of the pool lists (the length of every case's mount figures)."""
        got = self._shared.get("mount places")
        if got is None:
            got = self._shared["mount places"] = max((len(k.radiator_mounts or ()) for k in self.pools["case"]),
                                                     default=0)
        return got

    def _coolers(self, c: CPU) -> list:
        return self._front("cooler", lambda k: cooler_fits_socket(k, c.socket),
                           lambda k: (none_zero(k.height_mm), *self.power.part(k), *_radiator_figures(k)),
                           "cooler: dominated (Pareto: price, height, power, radiator)")

    def _mems(self, b: Motherboard, c: CPU, need_gb: float, modules: int = 1) -> list:
        def fits(m: MemoryKit) -> bool:
            return m.total_gb >= need_gb and m.modules >= modules and memory_fits(m, b, c)  # the cheap tests first

        # registered and unbuffered kits never stand in for each other (compat.memory-registered)
        return self._front("memory", fits, lambda m: (*self.power.part(m), m.registered, not m.registered),
                           "memory: dominated (Pareto: price, power)")

    def _stores(self, m2: bool = False) -> list:
        mine = "storage" in self.fixed  # a drive you own or insist on is taken as it is
        return self._front("storage", lambda s: mine or choices.storage_ok(self.req, s, m2), lambda s: (*self.power.part(s), s.pcie_lanes > 0),
                           "storage: dominated (Pareto: price, power, M.2 lanes)")


def radiators_ok(req: Request, g: GPU, cooler, case: Case) -> bool:
    """case.radiators for the grown build's cards of ``g`` (and ``cooler``, if given) in ``case``: as
    ``radiator_severity`` judges it, through the warnings policy. The grown stage is the one to judge:
    its radiators include today's, so a case that holds them holds today's, and a warning today is
    one on the grown build too."""
    if not radiator_key(g)[0] and not cooler_radiator(cooler):
        return True  # no radiator and no loop: nothing for the mounts to hold (the common case, asked in bulk)
    n1 = req.n_grown
    rads, loop = build_radiators((g,) * n1, cooler), on_loop(g)
    return not (rads or loop) or not policy.refuses(RADIATORS, radiator_severity(rads, case, loop), req, n1)


def radiators_ok_kept(memo: dict, req: Request, g: GPU, rads: tuple, case: Case) -> bool:
    """``radiators_ok`` without a cooler, kept in ``memo`` (one request's) by what the verdict reads: the card's
    ``radiator_key`` (``rads``) and the case's ``radiator_case_key``; most cases' mounts are unknown alike."""
    key = (rads, radiator_case_key(case))
    v = memo.get(key)
    if v is None:
        v = memo[key] = radiators_ok(req, g, None, case)
    return v
