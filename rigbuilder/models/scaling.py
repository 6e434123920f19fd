"""Multi-GPU scaling from the build: per chip and link, from the mechanism, fitted to published runs.

Data parallel training (``data_parallel_efficiency``): one step on one card takes t = batch / the
card's rate; with n cards every step also all-reduces the gradients. A ring all-reduce moves
2(n-1)/n x the gradient bytes over the slowest link of the ring (NVIDIA, nccl-tests
"PERFORMANCE.md": time = S / busbw x 2(n-1)/n), and the framework hides part of it behind the
backward pass (PyTorch DDP's gradient buckets; Li et al., "PyTorch Distributed: Experiences on
Accelerating Data Parallel Training", VLDB 2020):

    efficiency = t / (t + max(0, comm - overlap x backward)),  backward = 2/3 t.

The bus bandwidth comes from the build's real links (``CardLink``: each slot's generation and
width, through the CPU, the chipset or a PCIe switch, a riser at its own rated generation and lanes, or, of unknown kind,
counted a generation lower): the
link's GB/s x the share a collective reaches, ``U_P2P`` when the cards talk peer to peer (workstation
and data-centre NVIDIA cards on CPU or switch lanes), ``U_HOST`` when the data goes through host memory
(GeForce cards have no PCIe peer-to-peer; RTX 4090 and 5090 none at all), a chipset-attached card at
6.5 / 13.17 of that (noonghunna, "club-3090" PCIe peer-to-peer notes, 2025), and an NVLink bridge at
its own speed where the caller gives one. ``U_P2P``, ``U_HOST`` and ``overlap`` are fitted to Lambda's
several-card runs (``FIT_CASES``: six chips, ResNet-50 and BERT-large, 2 to 8 cards; ``HELD_OUT`` kept
out of the fit) and their error is stated (``fit_report``).

ZeRO-3 moves 1.5x the bytes of an all-reduce (Rajbhandari et al., "ZeRO: Memory Optimizations Toward
Training Trillion Parameter Models", 2020); tensor-parallel training all-reduces activations in every
layer (Megatron: two in the forward and two in the backward pass; Shoeybi et al., "Megatron-LM",
2019) without overlap.

Inference: independent copies scale perfectly; a model split by layers (llama.cpp) runs one token
through the cards in turn, so one stream is about as fast as one card that held it all, less a
fitted cost per hop (``throughput.decode_fit``); the activations passed between cards are a few KB per
token, so the link's bandwidth does not limit it.

``allreduce_seconds`` and ``data_parallel_efficiency`` take plain numbers (per-link bandwidths,
card count, gradient bytes, compute time) so a cluster model can stack node-level links on them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, TypeVar

from rigbuilder.domain.build import MOUNT_RISER, Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import CPU, GPU, Motherboard, Riser, Storage
from rigbuilder.models import lanes, perf
from rigbuilder.models import throughput as TP
from rigbuilder.models import vram as V
from rigbuilder.models.bands import percentile_band
from rigbuilder.models.lanes import GEN_GBPS_PER_LANE
from rigbuilder.models.workloads import Workload

LAMBDA_SCALING = T("{author}, {title} (PyTorch, several cards, weak scaling), {site}, {year}", author="Lambda",
                   title="\u201cDeep Learning GPU Benchmarks\u201d", site="lambdalabs.com", year="2025")
CLUB_3090 = T("{author}, {title} PCIe peer-to-peer notes, {year}", author="noonghunna", title="\u201cclub-3090\u201d",
              year="2025")
NCCL_TESTS = "NVIDIA, nccl-tests \u201cPERFORMANCE.md\u201d (ring all-reduce: S / busbw x 2(n-1)/n)"
CHIPSET_SHARE = 6.5 / 13.17
"""A chipset-attached card's peer bandwidth against a CPU-attached pair at PCIe 4.0 x8 (club-3090)."""
BACKWARD_SHARE = 2.0 / 3.0
"""The backward pass is about two thirds of a training step (twice the forward's FLOPs; Kaplan et al. 2020)."""
ZERO3_FACTOR = 1.5
GOOD_LINK_GBPS = 16 * GEN_GBPS_PER_LANE[4]
UNKNOWN_RISER_GEN_DROP = 1
"""A riser of unknown kind is counted this many PCIe generations below the slot and card (an
assumption: many unshielded ribbons do not hold the newest generation)."""
_V = TypeVar("_V")
MEMO_SIZE = 200_000
"""The most figures a caller's memo keeps (then it starts again)."""


def allreduce_seconds(grad_bytes: float, n: int, bus_gbs: float) -> float:
    """A ring all-reduce of ``grad_bytes`` over ``n`` cards at ``bus_gbs`` GB/s bus bandwidth."""
    if n <= 1 or grad_bytes <= 0:
        return 0.0
    if bus_gbs <= 0:
        return math.inf
    return 2.0 * (n - 1) / n * grad_bytes / (bus_gbs * 1e9)


def host_seconds(grad_bytes: float, n: int, host_gbs: float) -> float:
    """The time the host needs to pass a ring all-reduce staged through its memory: every card sends and
    receives 2(n-1)/n x the bytes, so 4(n-1) x the bytes cross the root complex and host memory, which
    all cards share (``host_gbs``: what the host moves in aggregate; 0: no staging, peer to peer)."""
    if n <= 1 or grad_bytes <= 0 or host_gbs <= 0:
        return 0.0
    return 4.0 * (n - 1) * grad_bytes / (host_gbs * 1e9)


def data_parallel_efficiency(compute_s: float, grad_bytes: float, n: int, bus_gbs: float, overlap: float,
                             comm_factor: float = 1.0, sync_share: float = 0.0, host_gbs: float = 0.0) -> float:
    """N-card throughput / (N x one card) for a step of ``compute_s`` seconds on one card whose
    gradients (``grad_bytes``) are all-reduced at ``bus_gbs`` (the slowest link's bus bandwidth), with
    ``overlap`` of the backward pass hiding communication. ``comm_factor`` scales the bytes (ZeRO-3: 1.5);
    ``sync_share``: the step's share lost to synchronising the cards whatever the links (stragglers, the
    last bucket's wait). ``host_gbs``: the host's aggregate bandwidth when the cards' traffic is staged
    through host memory (no peer to peer): its time grows with the card count (``host_seconds``), so
    efficiency falls as cards are added; 0 when the cards talk peer to peer."""
    if n <= 1:
        return 1.0
    comm = allreduce_seconds(grad_bytes * comm_factor, n, bus_gbs)
    if math.isinf(comm):
        return 0.0
    comm = max(comm, host_seconds(grad_bytes * comm_factor, n, host_gbs))
    exposed = max(0.0, comm - overlap * BACKWARD_SHARE * compute_s)
    return compute_s / (compute_s * (1.0 + sync_share) + exposed)


@dataclass(frozen=True)
class CardLink:
    """One card's connection as the build has it."""

    num: int  # GPU number as the user sees it
    width: int  # electrical lanes (0: none)
    gen: int
    source: str = "CPU"  # "CPU", "chipset" or "switch"
    riser: bool = False
    slot: str = ""  # the slot's id, for the reason text
    p2p: bool = False  # the card talks peer to peer (its chip allows it)
    nvlink_gbs: float = 0.0  # an NVLink bridge to its neighbour, GB/s per direction (0: none)
    riser_known: bool = False  # the riser part is named: ``gen`` and ``width`` already run through it

    @property
    def assumed_drop(self) -> bool:
        """A riser of unknown kind: counted a generation lower than slot and card (an assumption)."""
        return self.riser and not self.riser_known and self.gen > UNKNOWN_RISER_GEN_DROP

    @property
    def link_gen(self) -> int:
        """The generation the link is counted at (the assumed drop of an unknown riser included)."""
        return self.gen - UNKNOWN_RISER_GEN_DROP if self.assumed_drop else self.gen

    @property
    def gbps(self) -> float:
        gen = self.link_gen
        return self.width * GEN_GBPS_PER_LANE.get(gen, 0.985)

    def bus(self, u_p2p: float, u_host: float) -> float:
        """The bus bandwidth a collective reaches through this card's link, GB/s."""
        if self.nvlink_gbs > 0:
            return self.nvlink_gbs * u_p2p
        if self.width <= 0:
            return 0.0
        if self.source == "chipset":
            return self.gbps * u_host * CHIPSET_SHARE
        return self.gbps * (u_p2p if self.p2p else u_host)

    def describe(self) -> str:
        """'x8 Gen4 through the chipset, no P2P' (what limits it)."""
        via = {"chipset": T("through the chipset"), "switch": T("through a PCIe switch")}.get(self.source,
                                                                                            T("on CPU lanes"))
        if self.nvlink_gbs > 0:
            return T("NVLink bridge, {gbs:g} GB/s", gbs=self.nvlink_gbs)
        if self.width <= 0:
            return T("no link")
        gen = self.link_gen
        if self.riser and self.riser_known:
            text = T("x{width} Gen{gen} {via} on a riser (its rated generation and lanes)", width=self.width, gen=gen,
                     via=via)
        elif self.riser:
            text = T("x{width} Gen{gen} {via} on a riser (counted a generation lower, an assumption)",
                     width=self.width, gen=gen, via=via)
        else:
            text = T("x{width} Gen{gen} {via}", width=self.width, gen=gen, via=via)
        return T("{link}, P2P", link=text) if self.p2p and self.source != "chipset" else T("{link}, no P2P", link=text)


def p2p_capable(gpu: GPU) -> bool:
    """Whether the card's chip does PCIe peer-to-peer: NVIDIA workstation and data-centre cards do;
    GeForce cards do not (NVIDIA's driver disables it; the RTX 4090 and 5090 have no P2P at all); other
    vendors are not modelled (treated as through host memory)."""
    return gpu.vendor == "NVIDIA" and gpu.segment in ("workstation", "datacenter")


NVLINK_GBS = {"GeForce RTX 3090": 56.25, "RTX A6000": 56.25, "RTX A5000": 56.25, "RTX A4500": 56.25,
              "GeForce RTX 2080 Ti": 50.0, "TITAN RTX": 50.0, "Quadro RTX 8000": 50.0, "Quadro RTX 6000": 50.0,
              "A100 PCIe 40 GB": 300.0, "A100 PCIe 80 GB": 300.0, "H100 PCIe 80 GB": 300.0}
"""NVLink bridge bandwidth per direction (GB/s) of chips that take one (NVIDIA product briefs: RTX 3090 and
RTX A6000 112.5 GB/s both directions, Turing 100 GB/s, A100/H100 PCIe bridges 600 GB/s). A build file has
no bridge part, so builds are judged without one; ``nvlink_gbs`` on a ``CardLink`` adds it."""


def bus_bandwidth(links: Sequence[CardLink], u_p2p: float, u_host: float) -> tuple[float, Optional[CardLink]]:
    """(the ring's bus bandwidth, the link that limits it): the slowest card's."""
    if not links:
        return 0.0, None
    worst = min(links, key=lambda ln: ln.bus(u_p2p, u_host))
    return worst.bus(u_p2p, u_host), worst


# -- the fit ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScalingCase:
    """A published several-card run: ``n`` cards of ``chip`` on ``links`` (PCIe gen, P2P or not)."""

    chip: str
    workload: str  # "resnet50" or "bert-large"
    n: int
    efficiency: float  # N-card throughput / (N x one card), from the source's own figures
    gen: int
    p2p: bool
    one_card: float  # samples/s on one card
    batch: int  # per card
    source: str = "lambda"
    nvlink_gbs: float = 0.0


GRAD_BYTES = {"resnet50": 25.6e6 * 4, "bert-large": 335e6 * 4}
"""fp32 gradients of the fp32 master weights (PyTorch automatic mixed precision): ResNet-50 25.6M and
BERT-large 335M parameters x 4 bytes."""


def _cases() -> tuple[ScalingCase, ...]:
    # (chip, gen, p2p, batch R50, batch BERT, one card R50, BERT, {n: (R50 N-card, BERT N-card)})
    lam = (
        ("GeForce RTX 3090", 4, False, 448, 28, 905, 52, {2: (1751, 89)}),
        ("GeForce RTX 4090", 4, False, 448, 28, 1301, 93, {2: (2468, 139)}),
        ("RTX A6000", 4, True, 928, 64, 916, 68, {2: (1775, 118)}),
        ("RTX 6000 Ada Generation", 4, True, 928, 64, 1146, 79, {2: (2301, 153), 4: (4548, 332), 8: (9211, 642)}),
        ("A100 PCIe 80 GB", 4, True, 1280, 112, 1527, 140, {2: (2979, 247)}),
        ("H100 PCIe 80 GB", 5, True, 1280, 112, 1866, 203, {2: (3707, 395), 4: (7378, 759), 8: (14713, 1522)}),
    )
    out = []
    for chip, gen, p2p, b_r, b_b, one_r, one_b, runs in lam:
        for n, (r, bb) in runs.items():
            out.append(ScalingCase(chip, "resnet50", n, r / (n * one_r), gen, p2p, one_r, b_r))
            out.append(ScalingCase(chip, "bert-large", n, bb / (n * one_b), gen, p2p, one_b, b_b))
    return tuple(out)


FIT_CASES_ALL = _cases()
HELD_OUT = (("GeForce RTX 4090", "resnet50", 2), ("H100 PCIe 80 GB", "bert-large", 8),
            ("RTX 6000 Ada Generation", "resnet50", 8), ("A100 PCIe 80 GB", "bert-large", 2))
"""Cases kept out of the fit, to check it on runs it never saw."""
FIT_CASES = tuple(c for c in FIT_CASES_ALL if (c.chip, c.workload, c.n) not in HELD_OUT)
NVLINK_CASES = tuple(
    ScalingCase("A100 SXM4 80 GB", w, n, v / (n * one), 4, True, one, b, nvlink_gbs=300.0)
    for w, one, b, runs in (("resnet50", 1582, 1280, {2: 3038, 4: 6070, 8: 11439}),
                            ("bert-large", 152, 112, {2: 246, 4: 488, 8: 746}))
    for n, v in runs.items())
"""Lambda's A100 SXM4 runs (NVLink, 300 GB/s per direction): shown against the model, not fitted; their
losses (0.61 for 8 cards on BERT-large) are far larger than their links explain."""

SERVER_GEAR = ("HPCDIY (server-gear.com), \u201cGeForce RTX 3090 x8 exhaustive tf_cnn_benchmarks\u201d, 2021, and "
               "\u201cRTX 4090 x4 exhaustive tf_cnn_benchmarks\u201d, 2023 (TensorFlow, ResNet-50, fp16)")


def _host_cases() -> tuple[ScalingCase, ...]:
    # one card, then {n: N-card images/s}, per batch: tf_cnn_benchmarks ResNet-50 fp16, PCIe 4.0 x16, no P2P
    runs = (
        ("GeForce RTX 3090", {64: (1026.83, {2: 1828.21, 4: 2798.55, 8: 4039.44}),
                              128: (1126.66, {2: 2103.69, 4: 3596.61, 8: 6005.06}),
                              256: (1181.90, {2: 2283.06, 4: 4266.43, 8: 7362.66}),
                              512: (1205.02, {2: 2371.21, 4: 4635.48, 8: 8756.00})}),
        ("GeForce RTX 4090", {64: (1688.03, {2: 2794.01, 4: 4233.10}),
                              128: (1748.98, {2: 3145.92, 4: 5548.25}),
                              256: (1776.41, {2: 3357.26, 4: 6142.79}),
                              512: (1760.89, {2: 3408.95, 4: 6582.35})}),
    )
    return tuple(ScalingCase(chip, "resnet50", n, v / (n * one), 4, False, one, b, source="server-gear")
                 for chip, batches in runs for b, (one, ns) in batches.items() for n, v in ns.items())


HOST_CASES_ALL = _host_cases()
"""Eight-card runs through host memory (GeForce cards, no P2P): the RTX 3090 on one EPYC 7352, the RTX 4090 on
two EPYC 7252 (``SERVER_GEAR``)."""
HOST_FIT_CASES = tuple(c for c in HOST_CASES_ALL if c.chip == "GeForce RTX 3090" and c.batch in (128, 512))
"""The host term is fitted to the RTX 3090 runs at batch 128 and 512; batch 64 and 256, and every RTX 4090
run (another machine), are kept out of the fit."""


def case_efficiency(c: ScalingCase, f: "LinkFit") -> float:
    links = [CardLink(i + 1, 16, c.gen, "CPU", p2p=c.p2p, nvlink_gbs=c.nvlink_gbs) for i in range(c.n)]
    bus, _ = bus_bandwidth(links, f.u_p2p, f.u_host)
    return data_parallel_efficiency(c.batch / c.one_card, GRAD_BYTES[c.workload], c.n, bus, f.overlap,
                                    sync_share=f.sync, host_gbs=host_for(links, f.host_gbs))


def host_for(links: Sequence[CardLink], host_gbs: float) -> float:
    """The host's aggregate bandwidth when any card of the ring goes through host memory (no P2P, no
    NVLink bridge); 0 (no host term) when every card talks peer to peer."""
    staged = any(not ln.p2p and ln.nvlink_gbs <= 0 for ln in links)
    return host_gbs if staged else 0.0


@dataclass(frozen=True)
class LinkFit:
    u_p2p: float
    u_host: float
    overlap: float
    sync: float
    mean_abs: float  # on the fitted cases
    held_out_mean_abs: float
    max_abs: float  # over fitted and held-out cases
    host_gbs: float = 0.0  # the host's aggregate bandwidth for traffic staged through host memory
    band: float = 0.0  # the printed band: 80% of the held-out cases lie within it (``percentile_band``)


def _fast_errors(cases, u_p2p: float, u_host: float, overlap: float, sync: float, host: float = 0.0) -> list[float]:
    out = []
    for c in cases:
        raw = 16 * GEN_GBPS_PER_LANE[c.gen]
        bus = c.nvlink_gbs * u_p2p if c.nvlink_gbs else raw * (u_p2p if c.p2p else u_host)
        staged = not c.p2p and not c.nvlink_gbs
        e = data_parallel_efficiency(c.batch / c.one_card, GRAD_BYTES[c.workload], c.n, bus, overlap,
                                     sync_share=sync, host_gbs=host if staged else 0.0)
        out.append(e / c.efficiency - 1)
    return out


LINK_FIT = LinkFit(u_p2p=0.8011651218784908, u_host=0.3219702939647999, overlap=0.17500000000000002, sync=0.0275,
                   mean_abs=0.026800270883301867, held_out_mean_abs=0.039189841773607945,
                   max_abs=0.12169574003051653, host_gbs=39.20918973107752, band=0.055363873857231516)
"""What :func:`fit_links` gives for the shipped cases, kept so that a process does not fit again
(0.26 s of an optimiser's or adviser's first answer); ``tests/models/test_scaling_fit.py`` fits
again and fails when the cases or the model change and this is not written anew."""


def link_fit() -> LinkFit:
    """The fitted link figures (:data:`LINK_FIT`, which :func:`fit_links` reproduces)."""
    return LINK_FIT


def fit_links() -> LinkFit:
    """U_P2P, U_HOST (each at most 1: a collective cannot beat the link) and the overlap minimising the
    squared relative error over ``FIT_CASES`` (a grid, then a finer grid around the best); then the host's
    aggregate bandwidth minimising it over ``FIT_CASES`` and ``HOST_FIT_CASES`` together."""
    def loss(p):
        return sum(e * e for e in _fast_errors(FIT_CASES, *p))

    best = None
    grid_u = [0.05 * 1.2 ** i for i in range(17) if 0.05 * 1.2 ** i <= 1.0] + [1.0]
    for sy in [i / 100 for i in range(0, 7)]:
        for ov in [i / 10 for i in range(11)]:
            for up in grid_u:
                for uh in grid_u:
                    if uh > up * 1.0001:
                        continue  # staging through host memory is never faster than peer to peer
                    v = loss((up, uh, ov, sy))
                    if best is None or v < best[0]:
                        best = (v, (up, uh, ov, sy))
    assert best is not None
    up0, uh0, ov0, sy0 = best[1]
    for sy in [max(0.0, sy0 + d / 400) for d in range(-3, 4)]:
        for ov in [max(0.0, min(1.0, ov0 + d / 40)) for d in range(-3, 4)]:
            for up in [min(1.0, up0 * 1.04 ** d) for d in range(-4, 5)]:
                for uh in [min(1.0, uh0 * 1.04 ** d) for d in range(-4, 5)]:
                    if uh > up * 1.0001:
                        continue
                    v = loss((up, uh, ov, sy))
                    if v < best[0]:
                        best = (v, (up, uh, ov, sy))
    up, uh, ov, sy = best[1]
    both = FIT_CASES + HOST_FIT_CASES
    host = min((5.0 * 1.02 ** i for i in range(200)),
               key=lambda h: sum(e * e for e in _fast_errors(both, up, uh, ov, sy, h)))
    fitted = [abs(e) for e in _fast_errors(both, up, uh, ov, sy, host)]
    held_cases = [c for c in FIT_CASES_ALL + HOST_CASES_ALL if c not in both]
    held = [abs(e) for e in _fast_errors(held_cases, up, uh, ov, sy, host)]
    return LinkFit(up, uh, ov, sy, sum(fitted) / len(fitted), sum(held) / len(held) if held else 0.0,
                   max(fitted + held), host, percentile_band(held))


def fit_report() -> list[tuple[ScalingCase, float, bool]]:
    """(case, the model's efficiency, held out) for every Lambda and server-gear case, the NVLink ones last
    (not fitted)."""
    f = link_fit()
    fitted = FIT_CASES + HOST_FIT_CASES
    rows = [(c, case_efficiency(c, f), c not in fitted) for c in FIT_CASES_ALL + HOST_CASES_ALL]
    rows += [(c, case_efficiency(c, f), True) for c in NVLINK_CASES]
    return rows


# -- a workload on a build ----------------------------------------------------------------------
def workload_class(wl: Workload) -> str:
    if not wl.training:
        return "inference"
    if wl.kind == "image-training" and not wl.model.layers:
        return "cnn"
    return "transformer"


def step_figures(wl: Workload, rate: float) -> tuple[float, float]:
    """(seconds per step on one card, gradient bytes all-reduced per step) for a training workload at
    ``rate`` (its unit per second on one card)."""
    per_step = wl.batch * (wl.context if wl.unit == "tokens/s" else 1)
    compute = per_step / max(rate, 1e-9)
    if wl.trainable == "lora":
        from rigbuilder.models.vram import lora_params

        grads = lora_params(wl) * 2.0
    else:
        grads = wl.model.params * (4.0 if wl.precision in ("fp16", "fp32") else 2.0)
    return compute, grads


def memoised(memo: Optional[dict], key: tuple, anchor: tuple, make: Callable[[], _V]) -> _V:
    """``make()`` once per ``key`` in ``memo``, a dict the caller keeps (None: no memo). ``anchor``: the
    objects the key names by ``id``, kept with the value, so that an id reused by another object
    never finds the old value."""
    if memo is None:
        return make()
    got = memo.get(key)
    if got is not None and len(got[0]) == len(anchor) and all(a is b for a, b in zip(got[0], anchor)):
        return got[1]
    v = make()
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = (anchor, v)
    return v


def explain(workload: Workload, n_gpus: int, links: Sequence[CardLink] = (), *, rate: Optional[float] = None,
            strategy: str = "replicated", gpu: Optional[GPU] = None,
            memo: Optional[dict] = None) -> tuple[float, list[str]]:
    """(efficiency, reasons) of ``n_gpus`` cards on ``links``: the first reason names the limiting link
    ("x8 Gen4 through the chipset, no P2P: 0.41"). Without links, every card is taken on x16 lanes of
    its own generation from the CPU (``good_links``). ``rate``: one card's throughput (the step time).
    ``memo``: a dict the caller keeps for many calls with the same workload (an optimiser's search
    asks for the same cards, links and rate at every power limit and for every case and PSU)."""
    cls = workload_class(workload)
    if n_gpus <= 1:
        return 1.0, []
    if cls == "inference":
        if strategy in ("replicated", None):
            return 1.0, [T("independent copies, one per card: no communication")]
        return 1.0 / n_gpus, [T("the model is split over {n} cards: one stream runs at about one card's speed "
                                "less a cost per hop; the few KB passed per token do not depend on the links",
                                n=n_gpus)]
    if not links:
        links = good_links(n_gpus, gpu)
    if rate is None:
        rate = TP.estimate(gpu, workload).value if gpu is not None else float(TP.BENCHMARKS["bert-large"].points[
            TP.REF_CHIP])
    e, reasons = memoised(memo, ("explain", id(workload), n_gpus, tuple(links), rate, strategy), (workload,),
                          lambda: _explain_links(workload, n_gpus, links, rate, strategy))
    return e, list(reasons)


def _explain_links(workload: Workload, n_gpus: int, links: Sequence[CardLink], rate: float,
                   strategy: str) -> tuple[float, list[str]]:
    f = link_fit()
    compute, grads = step_figures(workload, rate)
    bus, worst = bus_bandwidth(links, f.u_p2p, f.u_host)
    if strategy == "tensor":
        m = workload.model
        grads = 4 * m.layers * workload.context * workload.batch * m.hidden * 2.0  # activations, 16 bits
        comm = allreduce_seconds(grads, n_gpus, bus)
        e = compute / (compute * (1 + f.sync) + comm) if not math.isinf(comm) else 0.0
    else:
        e = data_parallel_efficiency(compute, grads, n_gpus, bus, f.overlap,
                                     ZERO3_FACTOR if strategy == "zero3" else 1.0, f.sync,
                                     host_for(links, f.host_gbs))
    if worst is None:
        return e, []
    who = T("GPU {num}", num=worst.num) if len({ln.bus(f.u_p2p, f.u_host) for ln in links}) > 1 else T("every card")
    reasons = [T("{who}: {link}: {eff:.2f} ({bus:.1f} GB/s bus bandwidth; {source})", who=who,
                 link=worst.describe(), eff=e, bus=bus, source=NCCL_TESTS)]
    for ln in links:
        if ln is not worst and ln.source == "chipset":
            reasons.append(T("GPU {num} on a chipset x{width} slot: a chipset-attached card drags every collective "
                             "({source})", num=ln.num, width=ln.width, source=CLUB_3090))
    if worst.source == "chipset":
        reasons.append(T("GPU {num} on a chipset x{width} slot{slot}: a chipset-attached card drags every "
                         "collective ({source})", num=worst.num, width=worst.width,
                         slot=f" ({worst.slot})" if worst.slot else "", source=CLUB_3090))
    return e, reasons


def efficiency(workload: Workload, n_gpus: int, links: Sequence[CardLink] = (), *, rate: Optional[float] = None,
               strategy: str = "replicated", gpu: Optional[GPU] = None) -> float:
    """Scaling efficiency of ``n_gpus`` cards on ``links`` (see ``explain``)."""
    return explain(workload, n_gpus, links, rate=rate, strategy=strategy, gpu=gpu)[0]


def good_links(n: int, gpu: Optional[GPU]) -> list[CardLink]:
    """Every card on 16 CPU lanes of its own PCIe generation: the best a desktop board gives."""
    gen = gpu.pcie_gen if gpu is not None else 4
    p2p = p2p_capable(gpu) if gpu is not None else False
    return [CardLink(i + 1, 16, gen, "CPU", p2p=p2p) for i in range(n)]


@dataclass(frozen=True)
class CardFigure:
    num: int
    part_id: str
    name: str
    rate: float  # one card, after its power limit
    power_fraction: float  # of board power (1.0: no limit)
    throughput: TP.Throughput
    link: Optional[CardLink]


@dataclass(frozen=True)
class BuildThroughput:
    workload: Workload
    value: float  # the build's estimated throughput, in ``unit``
    unit: str
    n_gpus: int
    efficiency: float
    reasons: tuple[str, ...]
    strategy: Optional[str]  # how the model is held: "replicated", "zero3", "tensor", "pipeline"; None: does not fit
    need: Optional[V.VramNeed]
    fits: bool
    cards: tuple[CardFigure, ...] = ()
    measured: bool = False  # every card's rate is measured
    basis: str = "estimated"  # "measured" (every card), "scaled" (every card measured or scaled from one), "estimated"
    typical_error: Optional[float] = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {
            "workload": self.workload.id, "model": self.workload.model.name, "params": self.workload.model.params,
            "value": round(self.value, 3), "unit": self.unit, "n_gpus": self.n_gpus,
            "efficiency": round(self.efficiency, 4), "reasons": list(self.reasons), "strategy": self.strategy,
            "fits": self.fits, "vram_per_gpu_gb": None if self.need is None else self.need.to_dict(),
            "measured": self.measured, "basis": self.basis,
            "typical_error": None if self.typical_error is None else round(self.typical_error, 4),
            "notes": list(self.notes),
            "cards": [{"gpu": c.num, "part_id": c.part_id, "name": c.name, "rate": round(c.rate, 3),
                       "power_fraction": round(c.power_fraction, 4), "throughput": c.throughput.to_dict(),
                       "link": None if c.link is None else {"width": c.link.width, "gen": c.link.gen,
                                                             "source": c.link.source, "riser": c.link.riser,
                                                             "riser_known": c.link.riser_known}}
                      for c in self.cards],
        }


def build_links(build: Build, index: PartIndex) -> list[tuple[int, GPU, Optional[CardLink], Optional[float]]]:
    """(GPU number, card, its link or None, its power limit) for every GPU the build names that the
    catalog knows. Widths as the checks compute them (``rigbuilder.models.lanes``: the board's lane
    table for the slots and M.2 sockets in use, and the CPU's generation)."""
    board = index.get(build.motherboard)
    board = board if isinstance(board, Motherboard) else None
    cpu = index.get(build.cpu)
    cpu = cpu if isinstance(cpu, CPU) else None
    gpus = [(i + 1, pl, index.get(pl.part_id)) for i, pl in enumerate(build.gpus)]
    gpus = [(num, pl, g) for num, pl, g in gpus if isinstance(g, GPU)]
    widths: dict[str, int] = {}
    if board is not None:
        storage = [(d, s.count, s.m2) for s in build.storage if isinstance(d := index.get(s.part_id), Storage)]
        used = set(lanes.m2_assignment(board, storage))
        for _, pl, _ in gpus:
            if pl.position is not None and (slot := board.slot_at(pl.position)) is not None:
                used.add(slot.id)
        widths = lanes.slot_widths(board, used, cpu.pcie_lanes if cpu else None)
    out = []
    for num, pl, g in gpus:
        link = None
        if board is not None and pl.position is not None and (slot := board.slot_at(pl.position)) is not None:
            on_riser = pl.mount == MOUNT_RISER
            riser = index.get(pl.riser) if on_riser and pl.riser else None
            riser = riser if isinstance(riser, Riser) else None
            ln = lanes.link_for(slot, widths.get(slot.id, slot.lanes), g.pcie_gen, g.pcie_lanes,
                                cpu.pcie_gen if cpu else None, riser)
            link = CardLink(num, ln.width, ln.gen, slot.source, on_riser, slot.id, p2p_capable(g),
                            riser_known=riser is not None)
        out.append((num, g, link, pl.power_limit_w))
    return out


_EXTRAPOLATED = T("a power limit below 70% of board power: its throughput is an extrapolation")
_NO_LINK = T("some cards have no known link (no board, or a riser not plugged in): their links are not judged")
_NO_BRIDGE = T("these cards take an NVLink bridge; a build file has no bridge, so the links are judged without one")
"""A build's notes, made once (an optimiser's search asks for thousands of builds)."""


def build_throughput(build: Build, catalog: PartIndex, workload: Workload,
                     memo: Optional[dict] = None) -> BuildThroughput:
    """The build's throughput on ``workload``: per card (power limits through ``perf``) x count x scaling
    over the build's own links; split inference from the token-generation model on that many cards.
    ``memo``: a dict the caller keeps for many builds on one catalog (each card's estimate, the VRAM
    strategy and the scaling are worked out once per card, count and links; what the build's parts
    and places give, once whatever the power limits)."""
    return _assemble(_memo_shape(build, catalog, workload, memo), build, workload, memo)


def build_value(build: Build, catalog: PartIndex, workload: Workload, memo: Optional[dict] = None) -> float:
    """``build_throughput(...).value`` without the rest of its account (the figure an optimiser
    ranks by: the same arithmetic, none of the texts)."""
    return _assemble(_memo_shape(build, catalog, workload, memo), build, workload, memo,  # type: ignore[return-value]
                     value_only=True)


def _memo_shape(build: Build, catalog: PartIndex, workload: Workload, memo: Optional[dict]) -> Optional[tuple]:
    """The build's ``_shape``, once per parts and places in ``memo`` (None: worked out anew)."""
    if memo is None:
        return _shape(build, catalog, workload, None)
    return memoised(memo, _shape_key(build, catalog, workload), _shape_anchor(build, catalog, workload),
                    lambda: _shape(build, catalog, workload, memo))


def _shape_key(build: Build, catalog: PartIndex, workload: Workload) -> tuple:
    return ("shape", id(catalog), id(workload), build.motherboard, build.cpu,
            tuple((x.part_id, x.count, x.m2) for x in build.storage),
            tuple((pl.part_id, pl.position, pl.mount, pl.riser) for pl in build.gpus))  # the riser: its link


def _shape_anchor(build: Build, catalog: PartIndex, workload: Workload) -> tuple:
    return (catalog, workload, catalog.get(build.motherboard), catalog.get(build.cpu),
            *(catalog.get(x.part_id) for x in build.storage), *(catalog.get(pl.part_id) for pl in build.gpus),
            *(catalog.get(pl.riser) for pl in build.gpus if pl.riser))


def _shape(build: Build, catalog: PartIndex, workload: Workload, memo: Optional[dict]) -> Optional[tuple]:
    """What a build's throughput reads of its parts and places, whatever its power limits: the cards
    with their links, the strategy, each card's estimate and name (None: no GPU)."""
    cards = build_links(build, catalog)
    n = len(cards)
    if n == 0:
        return None
    ratios = TP.ratios_of(catalog)
    smallest = min((gpu for _, gpu, _, _ in cards), key=lambda g: g.vram_gb)
    strategy, nd = memoised(memo, ("strategy", id(workload), id(smallest), n), (workload, smallest),
                            lambda: V.best_strategy(workload, smallest, n, memo))
    split_inference = workload.kind == "llm-inference" and strategy in ("pipeline", "tensor")
    cache = memo if memo is not None else {}  # identical cards: one estimate
    n_est, tensor = (n if split_inference else 1), split_inference and strategy == "tensor"
    per = []
    for num, gpu, link, _limit in cards:
        t, name = memoised(cache, ("card", id(gpu), id(workload), id(ratios), n_est, tensor), (gpu, workload, ratios),
                           lambda: (TP.estimate(gpu, workload, ratios, n_cards=n_est, tensor_parallel=tensor),
                                    gpu.name))
        per.append((num, gpu, link, t, name))
    one: dict = {}
    if split_inference:  # each card's figure for one card (the efficiency of a split stream)
        for num, gpu, _link, _t, _name in per:
            one[num] = memoised(cache, ("estimate", id(gpu), id(workload), id(ratios), 1, False),
                                (gpu, workload, ratios), lambda: TP.estimate(gpu, workload, ratios))
    return (per, n, smallest, strategy, nd, split_inference, one)


def _assemble(shape: Optional[tuple], build: Build, workload: Workload, memo: Optional[dict],
              value_only: bool = False):
    """The build's throughput from its ``_shape`` and its cards' power limits (``value_only``: the
    figure alone)."""
    if shape is None:
        if value_only:
            return 0.0
        return BuildThroughput(workload, 0.0, workload.unit, 0, 0.0, (T("the build has no GPU"),), None, None, False)
    per, n, smallest, strategy, nd, split_inference, one_card = shape
    curve = perf.kind_of(workload.kind)
    fracs, rates = [], []
    for num, gpu, _link, t, _name in per:
        limit = build.gpus[num - 1].power_limit_w
        frac = 1.0
        if limit and gpu.board_power_w:
            frac = min(1.0, limit / gpu.board_power_w)
        fracs.append(frac)
        rates.append(t.value * perf.throughput(frac, curve))
    k = min(range(len(per)), key=lambda i: rates[i])  # the slowest card (the first of equals)
    s_num, gpu0, _s_link, s_t, _s_name = per[k]
    links = [p[2] for p in per if p[2] is not None]
    if split_inference:
        # one stream through the cards in turn: the slowest card's figure for n cards is the build's
        _e, reasons = explain(workload, n, links, strategy=strategy, gpu=gpu0, memo=memo)
        total = rates[k]
        one = one_card[s_num].value * perf.throughput(fracs[k], curve)
        eff = total / (n * one) if one > 0 else 0.0
    else:
        eff, reasons = explain(workload, n, links, rate=s_t.value, strategy=strategy or "replicated",
                               gpu=gpu0, memo=memo)
        if workload.kind == "llm-inference":
            total = rates[k]  # one stream runs on one copy; the other copies serve other streams
            eff = 1.0 / n
            if not value_only:
                reasons = [T("{n} copies, one per card: {n} streams at about {rate:.3g} {unit} each; one stream is "
                             "no faster", n=n, rate=rates[k], unit=workload.unit)]
        elif workload_class(workload) == "inference":
            total = sum(rates) * eff
        else:
            total = rates[k] * n * eff
    if value_only:
        return total if strategy is not None else 0.0
    figs = [CardFigure(num, gpu.id, name, rate, frac, t, link)
            for (num, gpu, link, t, name), rate, frac in zip(per, rates, fracs)]
    notes: list[str] = []
    if len({p[1].id for p in per}) > 1:
        notes.append(T("mixed cards: data-parallel training runs at the slowest card's pace; memory is judged "
                       "on the smallest card ({name}, {vram:g} GB)", name=smallest.name, vram=smallest.vram_gb))
    if any(perf.is_extrapolated(f.power_fraction, curve) for f in figs):
        notes.append(_EXTRAPOLATED)
    if workload_class(workload) != "inference" and len(links) < n and n > 1:
        notes.append(_NO_LINK)
    if n > 1 and any(NVLINK_GBS.get(p[1].chip_model) for p in per):
        notes.append(_NO_BRIDGE)
    scaled_by_model = n > 1 and workload_class(workload) != "inference"
    measured = all(f.throughput.measured for f in figs) and not scaled_by_model
    basis = ("measured" if measured else "scaled" if all(f.throughput.basis in ("measured", "scaled") for f in figs)
             else "estimated")
    errs = [f.throughput.typical_error or 0.0 for f in figs
            if f.throughput.typical_error is not None or f.throughput.measured]
    err: Optional[float] = max(errs) if len(errs) == len(figs) else None
    if err is not None and scaled_by_model:
        # the card's band and the scaling fit's printed (held-out) band, combined as independent errors
        err = math.hypot(err, link_fit().band)
    return BuildThroughput(workload, total if strategy is not None else 0.0, workload.unit, n, eff, tuple(reasons),
                           strategy, nd, strategy is not None, tuple(figs), measured, basis,
                           err if err else None, tuple(notes))
