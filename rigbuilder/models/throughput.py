"""Throughput of one card on a workload: measured where published, otherwise estimated, always with
its band.

Measured figures (each cited in ``BENCHMARKS`` and ``DECODE_POINTS``):

- Lambda, "Deep Learning GPU Benchmarks" (PyTorch, fp16 mixed precision, one card, 2025 snapshot):
  ResNet-50 training images/s and BERT-large SQuAD fine-tuning sequences/s.
- Xiongjie Dai, "GPU-Benchmarks-on-LLM-Inference" (llama.cpp): text generation tokens/s with one
  stream, Llama 2 7B (fp16, q4_0; December 2023) and Llama 3 8B and 70B (F16, Q4_K_M, on 1 to 8
  cards; May 2024).

A card whose chip is measured gets the measured figure, and so does every card with the same chip,
memory bandwidth and tensor throughput (a partner card, or the Quadro RTX 6000 beside the measured
RTX 8000). Every other card is estimated:

- training (ResNet-50, BERT-large): a roofline-style model fitted per benchmark on the measured
  chips, time per sample = a / T + b / B + c (T dense FP16 tensor TFLOPS with FP32 accumulation, B
  memory bandwidth GB/s, c a fixed cost per sample; a, b, c >= 0 by non-negative least squares on
  the relative error). T is the FP16-accumulate peak (``training_tflops``: a GeForce RTX card's catalog
  figure, with FP32 accumulation, doubled). A card without tensor cores (before Volta; the GTX 16 series) uses FP32 TFLOPS.
  A card whose catalog row lacks a tensor figure inherits its chip's (``TensorRatios``): the tensor
  to FP32 ratio of rows of the same chip model, else of its die, architecture and segment, times its
  own FP32 TFLOPS (so its clocks count).
- LLM token generation (``decode_rate``), by engine: one stream reads every weight on the cards once per
  token, so time per token = bytes read / (e x B) + k x layers + h x (cards - 1): e the fraction of the
  memory bandwidth reached, per memory class of the card (``memory_class``: GDDR with a small L2, GDDR with
  a large L2, HBM), k a fixed cost per layer (kernel launches), h a cost per hop between cards. llama.cpp
  is fitted on Dai's measurements from 7B to 70B and 1 to 8 cards; ExLlamaV2 and vLLM each scale llama.cpp's
  read time by a factor of their own and have their own cost per layer (ExLlamaV2 also a cost per quantised
  weight at the card's tensor throughput), fitted on part of their published figures (``ENGINE_POINTS``),
  the rest held out. The printed band of a token rate is the 80th percentile of the engine's held-out errors
  (``engine_band``).

Every estimate carries a band computed here from the data, never typed in: each measured point is
predicted by a fit without it (leave-one-out), a fit whose leave-one-out errors lean to one side is
corrected by their geometric mean (``Band.bias``). The printed band is the 80th percentile of the held-out
errors: for training, the leave-one-out errors and the cards no fit uses (``TRAINING_HELD_OUT``,
``training_band``); for token rates, the engine's held-out errors (``engine_band``).

Workloads without their own benchmark are derived, and said to be:

- ViT and LLM fine-tuning (full, LoRA, QLoRA): the card's BERT-large rate turned into training
  FLOP/s (6 x parameters x tokens per sequence, Kaplan et al., "Scaling Laws for Neural Language
  Models", 2020) and divided by the workload's FLOPs per sample: 6 x parameters per token for full
  training, 4 x for LoRA (no weight gradients of the frozen base), plus 2 x with activation
  recomputation. QLoRA's dequantisation cost is not modelled (it is slower in practice).
- Diffusion inference: no measured figures are in the data; the card's compute speed relative to an
  RTX 3090 from the BERT-large fit (unit "x RTX 3090"), error unknown.
"""
from __future__ import annotations

import math
import pickle
import statistics
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional, Sequence

from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import GPU
from rigbuilder.models.workloads import BERT_LARGE, WORKLOADS, Workload

LAMBDA = T("{author}, {title} (PyTorch, fp16 mixed precision, one card), {site}, {year}", author="Lambda",
           title="\u201cDeep Learning GPU Benchmarks\u201d", site="lambdalabs.com", year="2025")
DAI = T("{author}, {title} (llama.cpp, one stream), GitHub, {year}", author="Xiongjie Dai",
        title="\u201cGPU-Benchmarks-on-LLM-Inference\u201d", year="2023-2024")
KAPLAN = "Kaplan et al., \u201cScaling Laws for Neural Language Models\u201d, 2020"


@dataclass(frozen=True)
class Benchmark:
    key: str
    label: str
    unit: str
    source: str
    points: dict[str, float]  # chip_model -> measured value
    specs: dict[str, tuple[float, float]]  # chip_model -> (compute TFLOPS, bandwidth GB/s) used in the fit


# chip model -> (die, dense FP16 tensor TFLOPS with FP32 accumulation, bandwidth GB/s), as the shipped catalog has them
CHIP_SPECS = {
    "Quadro RTX 8000": ("TU102", 130.5, 672.0), "GeForce RTX 3090": ("GA102", 71.0, 936.2),
    "A100 PCIe 40 GB": ("GA100", 312.0, 1560.0), "A100 PCIe 80 GB": ("GA100", 312.0, 1940.0),
    "RTX 6000 Ada Generation": ("AD102", 364.2, 960.0), "RTX A6000": ("GA102", 154.8, 768.0),
    "GeForce RTX 4090": ("AD102", 165.2, 1010.0), "H100 PCIe 80 GB": ("GH100", 756.0, 2040.0),
    "GeForce RTX 4080": ("AD103", 97.5, 716.8), "RTX 4000 Ada Generation": ("AD104", 106.9, 360.0),
    "RTX 5000 Ada Generation": ("AD102", 261.1, 576.0), "GeForce RTX 3070": ("GA104", 40.6, 448.0),
    "GeForce RTX 3080": ("GA102", 59.5, 760.3), "GeForce RTX 3080 Ti": ("GA102", 68.2, 912.4),
    "GeForce RTX 4070 Ti": ("AD104", 80.2, 504.2), "GeForce RTX 3090 Ti": ("GA102", 80.0, 1010.0),
    "L4": ("AD104", 121.0, 300.1), "Tesla P40": ("GP102", 11.76, 347.1),
}
_SPECS = {c: (t, b) for c, (_d, t, b) in CHIP_SPECS.items()}


HALF_RATE_PREFIX = "GeForce RTX"
"""Chip models whose tensor cores accumulate FP32 at half their FP16-accumulate rate (every GeForce RTX card,
Turing to Blackwell: NVIDIA's Turing, Ampere GA102 and Ada Lovelace architecture whitepapers, 2018-2022,
"Peak FP16 Tensor TFLOPS with FP32 Accumulate" half the "with FP16 Accumulate" figure; TITAN and workstation
and data-centre cards run both at the full rate). The catalog's tensor figure is the FP32-accumulate one."""


def training_tflops(chip_model: str, tensor_tflops: float) -> float:
    """The tensor throughput the training fits use: the FP16-accumulate peak, i.e. the catalog's FP32-accumulate
    figure doubled for a GeForce RTX card (``HALF_RATE_PREFIX``). Lambda's one-card training speeds follow it,
    not the FP32-accumulate figure: with that one the RTX 4090 came out 21% slow and the RTX 6000 Ada (the
    same AD102 die at 300 W) 20% fast in the BERT-large leave-one-out (docs/models.md)."""
    return tensor_tflops * 2.0 if (chip_model or "").startswith(HALF_RATE_PREFIX) else tensor_tflops


def _bench(key, label, unit, source, pts: dict[str, float]) -> Benchmark:
    return Benchmark(key, label, unit, source, pts,
                     {c: (training_tflops(c, _SPECS[c][0]), _SPECS[c][1]) for c in pts})


BENCHMARKS: dict[str, Benchmark] = {b.key: b for b in (
    _bench("resnet50", T("ResNet-50 training"), "images/s", LAMBDA, {
        "Quadro RTX 8000": 651, "GeForce RTX 3090": 905, "A100 PCIe 40 GB": 1396, "A100 PCIe 80 GB": 1527,
        "RTX 6000 Ada Generation": 1146, "RTX A6000": 916, "GeForce RTX 4090": 1301, "H100 PCIe 80 GB": 1866}),
    _bench("bert-large", T("BERT-large SQuAD fine-tuning"), "sequences/s", LAMBDA, {
        "Quadro RTX 8000": 50, "GeForce RTX 3090": 52, "A100 PCIe 40 GB": 117, "A100 PCIe 80 GB": 140,
        "RTX 6000 Ada Generation": 79, "RTX A6000": 68, "GeForce RTX 4090": 93, "H100 PCIe 80 GB": 203}),
)}
"""Lambda's V100 16 GB row (300 W, a cloud SXM2 card) is left out: it matches no catalog card for certain."""


@dataclass(frozen=True)
class DecodePoint:
    """One published llama.cpp text-generation figure (tokens/s, one stream)."""

    chip: str
    model: str  # a MODEL_PRESETS name
    precision: str
    n_cards: int
    tokens_s: float
    when: str  # the snapshot


DECODE_POINTS: tuple[DecodePoint, ...] = tuple(DecodePoint(*p) for p in (
    # Llama 2 7B, December 2023 snapshot (one card)
    ("GeForce RTX 4080", "Llama 2 7B", "fp16", 1, 44.2, "2023-12"),
    ("RTX 4000 Ada Generation", "Llama 2 7B", "fp16", 1, 22.96, "2023-12"),
    ("GeForce RTX 3090", "Llama 2 7B", "fp16", 1, 51.85, "2023-12"),
    ("GeForce RTX 4090", "Llama 2 7B", "fp16", 1, 60.78, "2023-12"),
    ("RTX 5000 Ada Generation", "Llama 2 7B", "fp16", 1, 36.31, "2023-12"),
    ("RTX A6000", "Llama 2 7B", "fp16", 1, 44.01, "2023-12"),
    ("RTX 6000 Ada Generation", "Llama 2 7B", "fp16", 1, 50.56, "2023-12"),
    ("H100 PCIe 80 GB", "Llama 2 7B", "fp16", 1, 83.32, "2023-12"),
    ("GeForce RTX 4080", "Llama 2 7B", "q4_0", 1, 118.01, "2023-12"),
    ("RTX 4000 Ada Generation", "Llama 2 7B", "q4_0", 1, 64.53, "2023-12"),
    ("GeForce RTX 3090", "Llama 2 7B", "q4_0", 1, 120.6, "2023-12"),
    ("GeForce RTX 4090", "Llama 2 7B", "q4_0", 1, 149.37, "2023-12"),
    ("RTX 5000 Ada Generation", "Llama 2 7B", "q4_0", 1, 99.19, "2023-12"),
    ("RTX A6000", "Llama 2 7B", "q4_0", 1, 111.57, "2023-12"),
    ("RTX 6000 Ada Generation", "Llama 2 7B", "q4_0", 1, 127.45, "2023-12"),
    ("H100 PCIe 80 GB", "Llama 2 7B", "q4_0", 1, 133.77, "2023-12"),
    ("RTX A6000", "Llama 2 70B", "q4_0", 1, 15.18, "2023-12"),
    ("RTX 6000 Ada Generation", "Llama 2 70B", "q4_0", 1, 17.02, "2023-12"),
    ("H100 PCIe 80 GB", "Llama 2 70B", "q4_0", 1, 25.88, "2023-12"),
    # Llama 3, May 2024 snapshot, tg 512 (1 to 8 cards, split by layers)
    ("GeForce RTX 3070", "Llama 3 8B", "q4_k_m", 1, 72.79, "2024-05"),
    ("GeForce RTX 3080", "Llama 3 8B", "q4_k_m", 1, 109.57, "2024-05"),
    ("GeForce RTX 3080 Ti", "Llama 3 8B", "q4_k_m", 1, 110.60, "2024-05"),
    ("GeForce RTX 4070 Ti", "Llama 3 8B", "q4_k_m", 1, 83.50, "2024-05"),
    ("GeForce RTX 4080", "Llama 3 8B", "q4_k_m", 1, 108.15, "2024-05"),
    ("GeForce RTX 4080", "Llama 3 8B", "fp16", 1, 40.58, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "q4_k_m", 1, 115.42, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "fp16", 1, 47.40, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "q4_k_m", 1, 130.58, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "fp16", 1, 54.84, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "q4_k_m", 2, 111.67, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "fp16", 2, 47.72, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 70B", "q4_k_m", 2, 16.57, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "q4_k_m", 2, 124.65, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "fp16", 2, 53.64, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 70B", "q4_k_m", 2, 19.22, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "q4_k_m", 4, 108.66, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "fp16", 4, 47.07, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 70B", "q4_k_m", 4, 17.07, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "q4_k_m", 4, 120.32, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "fp16", 4, 53.10, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 70B", "q4_k_m", 4, 19.80, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "q4_k_m", 6, 104.17, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 8B", "fp16", 6, 46.23, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 70B", "q4_k_m", 6, 17.09, "2024-05"),
    ("GeForce RTX 3090", "Llama 3 70B", "fp16", 6, 5.85, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "q4_k_m", 8, 118.09, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 8B", "fp16", 8, 52.51, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 70B", "q4_k_m", 8, 18.94, "2024-05"),
    ("GeForce RTX 4090", "Llama 3 70B", "fp16", 8, 6.47, "2024-05"),
))
"""Dai's NVIDIA rows. Left out: his "A100 80GB" (PCIe or SXM not stated), the Apple machines (not in
the catalog), and the December 2023 several-card rows of Llama 2 (an older llama.cpp whose multi-card
runs were slower than one card: 2x RTX 3090 53 against one 121 tokens/s on 7B q4_0; the May 2024 rows
of the same machines no longer show it)."""

BERT_SEQ = 384
BERT_FLOPS_PER_SEQ = 6 * BERT_LARGE.params * BERT_SEQ
REF_CHIP = "GeForce RTX 3090"
OVERHEAD_SCALE = 1e-3
"""The constant term's unit (seconds per sample x 1000), so the three columns have similar sizes."""


# -- tensor figures for rows that lack one ---------------------------------------------------------
TENSOR_ARCHITECTURES = ("Volta", "Turing", "Ampere", "Ada Lovelace", "Hopper", "Blackwell", "Blackwell 2.0")
"""NVIDIA architectures with tensor cores."""
NO_TENSOR_DIES = ("TU116", "TU117")
"""Turing dies without tensor cores (GTX 16 series, T400-T1000)."""


def has_tensor_cores(gpu: GPU) -> bool:
    if gpu.tensor_tflops:
        return True
    return (gpu.vendor == "NVIDIA" and gpu.architecture in TENSOR_ARCHITECTURES
            and gpu.chip not in NO_TENSOR_DIES)


class TensorRatios:
    """Tensor to FP32 throughput ratios measured on the catalog's own rows that state both, by chip
    model, then die, architecture and segment, then architecture and segment, then architecture."""

    def __init__(self, gpus: Iterable[GPU]) -> None:
        groups: dict[tuple, list[float]] = {}
        for g in gpus:
            if g.tensor_tflops and g.fp32_tflops:
                r = g.tensor_tflops / g.fp32_tflops
                for key in self._keys(g):
                    groups.setdefault(key, []).append(r)
        self.ratios = {k: statistics.median(v) for k, v in groups.items()}

    @staticmethod
    def _keys(g: GPU) -> tuple[tuple, ...]:
        return (("chip", g.chip_model), ("die", g.architecture, g.segment, g.chip), ("seg", g.architecture, g.segment),
                ("arch", g.architecture))

    def tensor(self, gpu: GPU) -> Optional[float]:
        """The card's tensor TFLOPS: its own, else inherited (None: it has no tensor cores)."""
        if gpu.tensor_tflops:
            return gpu.tensor_tflops
        if not has_tensor_cores(gpu) or not gpu.fp32_tflops:
            return None
        for key in self._keys(gpu):
            if key in self.ratios:
                return gpu.fp32_tflops * self.ratios[key]
        return None


    @classmethod
    def of(cls, ratios: dict[tuple, float]) -> "TensorRatios":
        """Ratios worked out before (``shipped_ratios`` keeps them in the cache folder)."""
        r = cls(())
        r.ratios = dict(ratios)
        return r


RATIOS_FORMAT = 1
"""The format of the tensor ratios kept in the cache folder (raise it when ``TensorRatios`` changes)."""


@lru_cache(maxsize=1)
def shipped_ratios() -> TensorRatios:
    """The ratios of the shipped catalog (used when a caller has no catalog at hand): its GPU files
    only (validating every kind's rows took a second of a search's first run), kept in the cache
    folder under a key of those files' names, sizes and times and the GPU fields (as the parts'
    snapshot is), so that a process's first estimate does not validate the GPU rows again (half a
    second of the optimiser's first search)."""
    from rigbuilder.catalog.loader import catalog_files, kind_for_file, load_catalog_file

    files = [path for path in catalog_files() if kind_for_file(path) == "gpu"]
    cache = _ratios_cache(files)
    if cache is not None:
        try:
            got = pickle.loads(cache.read_bytes())  # our own cache file (_keep_ratios)
        except Exception:  # noqa: BLE001 - missing, damaged or foreign: worked out again below
            got = None
        if isinstance(got, dict) and all(isinstance(k, tuple) and isinstance(v, float) for k, v in got.items()):
            return TensorRatios.of(got)
    gpus: dict[str, GPU] = {}
    for path in files:
        for p in load_catalog_file(path)[0]:
            if isinstance(p, GPU):
                gpus.setdefault(p.id, p)  # the first file's row, as load_shipped keeps it
    ratios = TensorRatios(gpus.values())
    if cache is not None:
        from rigbuilder.catalog.cachefile import write_pickle

        write_pickle(cache, dict(ratios.ratios))  # whole or not at all; a read-only cache folder is left alone
    return ratios


def _ratios_cache(files: list) -> Optional[Path]:
    """Where the shipped ratios are kept (None: the files cannot be read for their key)."""
    import dataclasses

    from rigbuilder.catalog.cachefile import short_key
    from rigbuilder.config import Paths

    text = [f"tensor ratios {RATIOS_FORMAT}\n", ",".join(f.name for f in dataclasses.fields(GPU)), "\n"]
    try:
        for path in files:
            st = path.stat()
            text.append(f"{path.name}\0{st.st_size}\0{st.st_mtime_ns}\n")
    except OSError:
        return None
    return Paths.from_env().cache_dir / f"tensor-ratios-{short_key(''.join(text))}.pickle"


@lru_cache(maxsize=4)
def ratios_of(index) -> TensorRatios:
    """The ratios of a catalog index (cached per index)."""
    return TensorRatios(g for g in index.of_kind("gpu") if isinstance(g, GPU))


def card_specs(gpu: GPU, ratios: Optional[TensorRatios] = None) -> tuple[float, float]:
    """(compute TFLOPS, bandwidth GB/s) the fit uses: dense FP16 tensor TFLOPS (inherited from the
    chip where the row lacks it), or FP32 for a card without tensor cores."""
    t = gpu.tensor_tflops
    if not t and has_tensor_cores(gpu):
        t = (ratios or shipped_ratios()).tensor(gpu)
    t = t or gpu.fp32_tflops
    return max(t or 0.01, 0.01), max(gpu.bandwidth_gbs or 1.0, 1.0)


def measured_chip(gpu: GPU, points: Iterable[str], ratios: Optional[TensorRatios] = None) -> Optional[str]:
    """The measured chip whose figure this card takes: its own chip model, or a chip with the same
    die, memory bandwidth and tensor throughput (within 1%)."""
    pts = list(points)
    if gpu.chip_model in pts:
        return gpu.chip_model
    t, bw = card_specs(gpu, ratios)
    for c in pts:
        die, tc, bc = CHIP_SPECS[c]
        if gpu.chip == die and abs(bw / bc - 1) < 0.01 and abs(t / tc - 1) < 0.01:
            return c
    return None


# -- the roofline fit -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Fit:
    """Time per sample = a / T + b / B + c (a roofline with a fixed cost per sample), a, b, c >= 0."""

    a: float
    b: float
    c: float

    def predict(self, compute: float, bandwidth: float) -> float:
        return 1.0 / (self.a / compute + self.b / bandwidth + self.c * OVERHEAD_SCALE)


def _solve(rows: list[list[float]], y: list[float]) -> Optional[list[float]]:
    """Least squares by the normal equations (a few unknowns; Gaussian elimination)."""
    k = len(rows[0])
    m = [[sum(r[i] * r[j] for r in rows) for j in range(k)] + [sum(r[i] * v for r, v in zip(rows, y))]
         for i in range(k)]
    for i in range(k):
        piv = max(range(i, k), key=lambda r: abs(m[r][i]))
        if abs(m[piv][i]) < 1e-300:
            return None
        m[i], m[piv] = m[piv], m[i]
        for r in range(k):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * z for x, z in zip(m[r], m[i])]
    return [m[i][k] / m[i][i] for i in range(k)]


def nnls(feats: list[list[float]]) -> list[float]:
    """Non-negative least squares of sum(c_i x_i) = 1 over the rows (every subset of the columns is
    tried; the best with no negative coefficient wins)."""
    k = len(feats[0])
    best: Optional[tuple[float, list[float]]] = None
    for mask in range(1, 2 ** k):
        idx = [i for i in range(k) if mask >> i & 1]
        sol = _solve([[r[i] for i in idx] for r in feats], [1.0] * len(feats))
        if sol is None or any(c < 0 for c in sol):
            continue
        coef = [0.0] * k
        for i, c in zip(idx, sol):
            coef[i] = c
        res = sum((sum(c * x for c, x in zip(coef, r)) - 1.0) ** 2 for r in feats)
        if best is None or res < best[0]:
            best = (res, coef)
    assert best is not None
    return best[1]


def _fit(points: Iterable[tuple[float, float, float]]) -> Fit:
    """The roofline over (T, B, measured value), relative residuals."""
    feats = [[v / t, v / b, v * OVERHEAD_SCALE] for t, b, v in points]
    return Fit(*nnls(feats))


@lru_cache(maxsize=None)
def fit_for(key: str, leave_out: Optional[str] = None) -> Fit:
    b = BENCHMARKS[key]
    return _fit((b.specs[c][0], b.specs[c][1], v) for c, v in b.points.items() if c != leave_out)


# -- bands --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Band:
    """An estimator's leave-one-out record: each point predicted by a fit without it."""

    key: str
    n: int
    bias: float  # geometric mean of predicted / measured over the leave-one-out predictions
    raw_mean_abs: float  # mean |predicted / measured - 1| before the bias correction
    mean_abs: float  # the same after it: the band shown with every estimate
    max_abs: float
    per_point: tuple[tuple[str, float, float], ...]  # (what, measured, corrected prediction)

    @property
    def mean_signed(self) -> float:
        return sum(p / v - 1 for _, v, p in self.per_point) / self.n


def _band(key: str, rows: list[tuple[str, float, float]]) -> Band:
    """``rows``: (label, measured, leave-one-out prediction)."""
    logs = [math.log(p / v) for _, v, p in rows]
    bias = math.exp(sum(logs) / len(logs))
    raw = [abs(p / v - 1) for _, v, p in rows]
    corr = [(w, v, p / bias) for w, v, p in rows]
    errs = [abs(p / v - 1) for _, v, p in corr]
    return Band(key, len(rows), bias, sum(raw) / len(raw), sum(errs) / len(errs), max(errs), tuple(corr))


@lru_cache(maxsize=None)
def benchmark_loo(key: str) -> Band:
    b = BENCHMARKS[key]
    rows = []
    for c, v in b.points.items():
        t, bw = b.specs[c]
        rows.append((c, float(v), fit_for(key, c).predict(t, bw)))
    return _band(key, rows)


# -- training cards held out of every fit -------------------------------------------------------------
@dataclass(frozen=True)
class HeldOutCard:
    """A published one-card training speed of a card no fit uses, with the card's datasheet figures."""

    card: str
    key: str  # a BENCHMARKS key
    tensor_tflops: float  # dense FP16 tensor TFLOPS (FP32 accumulate, as the catalog holds it)
    bandwidth_gbs: float
    value: float
    source: str
    specs_source: str


LAMBDA_REPO = ("Lambda, \u201cdeeplearning-benchmark\u201d: pytorch-train-throughput-fp16.csv (the table behind "
               "\u201cDeep Learning GPU Benchmarks\u201d), GitHub")
_A100_SHEET = "NVIDIA, \u201cA100 Tensor Core GPU datasheet\u201d, 2021"
TRAINING_HELD_OUT: tuple[HeldOutCard, ...] = tuple(HeldOutCard(*r) for r in (
    ("A10 (Lambda Cloud)", "bert-large", 125.0, 600.0, 42, LAMBDA_REPO + ", 2023-2024",
     "NVIDIA, \u201cA10 Tensor Core GPU datasheet\u201d, 2021"),
    ("A100 SXM4 80 GB", "bert-large", 312.0, 2039.0, 152, LAMBDA_REPO + ", 2022-2024", _A100_SHEET),
    ("A100 SXM4 40 GB", "bert-large", 312.0, 1555.0, 133, LAMBDA_REPO + ", November 2022", _A100_SHEET),
    ("H100 SXM5 80 GB", "bert-large", 989.4, 3352.0, 301, LAMBDA_REPO + ", 2023-2024",
     "NVIDIA, \u201cH100 Tensor Core GPU datasheet\u201d, 2023"),
    ("V100 SXM2 16 GB (Lambda Cloud, 300 W)", "bert-large", 125.0, 900.0, 57, LAMBDA_REPO + ", 2022-2024",
     "NVIDIA, \u201cTesla V100 GPU datasheet\u201d, 2018"),
    ("A10 (Lambda Cloud)", "resnet50", 125.0, 600.0, 638, LAMBDA_REPO + ", 2023-2024",
     "NVIDIA, \u201cA10 Tensor Core GPU datasheet\u201d, 2021"),
    ("A100 SXM4 80 GB", "resnet50", 312.0, 2039.0, 1582, LAMBDA_REPO + ", 2022-2024", _A100_SHEET),
    ("H100 SXM5 80 GB", "resnet50", 989.4, 3352.0, 2616, LAMBDA_REPO + ", 2023-2024",
     "NVIDIA, \u201cH100 Tensor Core GPU datasheet\u201d, 2023"),
    ("V100 SXM2 16 GB (Lambda Cloud, 300 W)", "resnet50", 125.0, 900.0, 833, LAMBDA_REPO + ", 2022-2024",
     "NVIDIA, \u201cTesla V100 GPU datasheet\u201d, 2018"),
))
"""Lambda's one-card runs of cards outside the fit, from the same table and software as ``BENCHMARKS`` (its
2023-2024 versions; the A100 SXM4 40 GB row only in its November 2022 version, beside 115 for the A100 PCIe
40 GB the fit takes at 117). None are catalog cards (the A10 is: its Lambda Cloud instance is held out all the
same). Lambda's 2021-2022 table (RTX 2080 Ti, TITAN RTX, RTX A5000, A40, ...) ran older software: the five cards
both versions measured moved by +8% to +29% between them, so it is not used."""


def training_held_out(key: str) -> list[tuple[str, float, float, float]]:
    """(card, published, estimate, relative error) of the ``TRAINING_HELD_OUT`` cards on benchmark ``key``, each
    estimated by the full fit (none of them is in it) with the fit's bias correction."""
    fit, bias = fit_for(key), benchmark_loo(key).bias
    out = []
    for h in TRAINING_HELD_OUT:
        if h.key == key:
            v = fit.predict(h.tensor_tflops, h.bandwidth_gbs) / bias  # data-centre cards: full-rate accumulate
            out.append((h.card, float(h.value), v, v / h.value - 1))
    return out


@lru_cache(maxsize=None)
def training_band(key: str) -> float:
    """The printed band of a training estimate on benchmark ``key``: the 80th percentile of the errors of every
    published case held out of the fit that predicts it (each fitted card predicted by a fit without it, after
    the bias correction, and the ``TRAINING_HELD_OUT`` cards), as the token rates' band is."""
    from rigbuilder.models.bands import percentile_band

    errs = [p / v - 1 for _, v, p in benchmark_loo(key).per_point] + [e for *_, e in training_held_out(key)]
    return percentile_band(errs)


# -- fine-tuning (LoRA, QLoRA) against published runs ----------------------------------------------
QWEN_FT = ("Qwen Team (Alibaba Cloud), Qwen README, \u201cProfiling of Memory and Speed\u201d (one A100-SXM4-80G, CUDA 11.8, "
           "PyTorch 2.0, FlashAttention-2, batch 1, gradient accumulation 8, seconds per iteration), GitHub, 2023")
FT_MIN_CONTEXT = 2048
"""The shortest sequence the fine-tuning band is measured at (the presets' 2,048 tokens): below it the published
rates fall with the sequence (a step's fixed cost dominates: Qwen's 1.8B LoRA runs 4.7 times slower per token at
256 tokens than at 2,048), which the estimate, a rate per token, does not model."""


@dataclass(frozen=True)
class FinetuneSpeedCase:
    """A published one-card LoRA or QLoRA run: seconds per optimiser step of ``accumulation`` sequences."""

    workload: str  # "lora" (16-bit base) or "qlora" (4-bit base)
    params: float  # the model's size as the source names it
    context: int
    seconds_per_step: float
    accumulation: int = 8
    tensor_tflops: float = 312.0  # the card's datasheet figures (A100 SXM4 80 GB)
    bandwidth_gbs: float = 2039.0
    card: str = "A100 SXM4 80 GB"
    source: str = QWEN_FT

    @property
    def tokens_per_s(self) -> float:
        return self.accumulation * self.context / self.seconds_per_step


_QWEN_S_PER_IT = {  # (workload, size) -> seconds per iteration at 256, 512, 1,024, 2,048, 4,096 and 8,192 tokens
    ("lora", 1.8e9): (1.0, 1.0, 1.1, 1.7, 3.3, 6.8), ("qlora", 1.8e9): (1.4, 1.4, 1.4, 2.0, 3.4, 6.5),
    ("lora", 7e9): (1.2, 1.5, 2.8, 5.2, 10.1, 21.3), ("qlora", 7e9): (3.0, 3.0, 3.5, 7.0, 11.6, 22.3),
    ("lora", 14e9): (1.6, 2.4, 4.4, 8.4, 17.0, 36.0), ("qlora", 14e9): (5.3, 6.3, 8.2, 11.8, 20.1, 38.3),
    ("qlora", 72e9): (27.4, 31.5, 41.4, 59.5, 97.7, 179.8)}
FINETUNE_SPEED_CASES: tuple[FinetuneSpeedCase, ...] = tuple(
    FinetuneSpeedCase(wid, size, ctx, s) for (wid, size), row in _QWEN_S_PER_IT.items()
    for ctx, s in zip((256, 512, 1024, 2048, 4096, 8192), row))
"""Qwen's one-card LoRA (bf16 base, no trainable embedding) and Q-LoRA (its Int4 GPTQ chat models) runs of Qwen
1.8B, 7B, 14B and 72B with PEFT, rank 64 on every linear layer, gradient checkpointing (the source's fine-tuning
scripts). None is used to build or fit any model; the BERT-large fit holds no A100 SXM4 either."""


def finetune_speed_rows(min_context: int = 0) -> list[tuple[FinetuneSpeedCase, float, float]]:
    """(case, the app's tokens/s, relative error) for the published fine-tuning runs of at least ``min_context``
    tokens: the card's BERT-large rate from the full fit (bias-corrected), turned into tokens by ``transfer``,
    as ``estimate`` does for a card without a measurement."""
    from rigbuilder.models.workloads import workload

    fit, bias = fit_for("bert-large"), benchmark_loo("bert-large").bias
    out = []
    for c in FINETUNE_SPEED_CASES:
        if c.context < min_context:
            continue
        wl = workload(c.workload, params=c.params, context=c.context, batch=1, tool="peft", lora_rank=64)
        v = fit.predict(c.tensor_tflops, c.bandwidth_gbs) / bias * transfer(wl)[0]
        out.append((c, v, v / c.tokens_per_s - 1))
    return out


@lru_cache(maxsize=1)
def finetune_speed_band() -> float:
    """The printed band of a LoRA/QLoRA fine-tuning rate: the 80th percentile of the errors on the published runs
    of ``FINETUNE_SPEED_CASES`` at ``FT_MIN_CONTEXT`` tokens and more, never narrower than the BERT-large band the
    rate is built on (the runs are on one card; the cards' own spread is that band's)."""
    from rigbuilder.models.bands import percentile_band

    return max(percentile_band([e for *_, e in finetune_speed_rows(FT_MIN_CONTEXT)]), training_band("bert-large"))


def finetune_band_for(wl: Workload) -> Optional[float]:
    """The band of a LoRA/QLoRA rate of ``wl``: ``finetune_speed_band`` at ``FT_MIN_CONTEXT`` tokens and more,
    None (unknown) for shorter sequences, where the held-out runs show the model far off (it has no fixed cost per
    step: up to +559% at 256 tokens)."""
    return finetune_speed_band() if wl.context >= FT_MIN_CONTEXT else None


def is_adapter_finetune(wl: Workload) -> bool:
    """LoRA or QLoRA fine-tuning of an LLM (the rates ``finetune_speed_band`` covers)."""
    return wl.kind == "llm-finetune" and wl.trainable == "lora"


# -- token generation from memory bandwidth --------------------------------------------------------
MEMORY_CLASSES = ("gddr", "large-l2", "hbm")
"""How well a card's memory is used by one stream: GDDR cards with a few MB of L2 (Pascal to Ampere),
GDDR cards with a large L2 (Ada Lovelace and Blackwell: 48-96 MB, NVIDIA's Ada Lovelace architecture
whitepaper, 2022), and HBM data-centre cards (whose bandwidth one stream at batch 1 reaches least).
Each has its own fitted efficiency."""
LARGE_L2_ARCHITECTURES = ("Ada Lovelace", "Blackwell", "Blackwell 2.0")


def memory_class(gpu: GPU) -> str:
    """The card's ``MEMORY_CLASSES`` entry, from its memory type and architecture."""
    if (gpu.memory_type or "").upper().startswith("HBM"):
        return "hbm"
    if gpu.architecture in LARGE_L2_ARCHITECTURES:
        return "large-l2"
    return "gddr"


def chip_class(chip: str) -> str:
    """The memory class of a chip of ``CHIP_SPECS`` (by its die); 'gddr' for an unknown chip."""
    die = CHIP_SPECS.get(chip, ("",))[0]
    if die.startswith(("GA100", "GH100", "GV100", "GP100")):
        return "hbm"
    if die.startswith(("AD", "GB")):
        return "large-l2"
    return "gddr"


@dataclass(frozen=True)
class DecodeFit:
    """Seconds per token = inv[class] x bytes / B + k x layers + h x (cards - 1), for one engine."""

    inv: tuple[float, float, float]  # 1 / e per MEMORY_CLASSES entry: the share of the bandwidth reached, inverted
    k: float  # seconds per layer per token
    h: float  # seconds per hop between cards per token
    engine: str = "llama.cpp"
    q: float = 0.0  # seconds per quantised weight unpacked, per tensor FLOP/s (an engine's kernels)

    def inv_e(self, cls: str = "gddr") -> float:
        return self.inv[MEMORY_CLASSES.index(cls)]

    def efficiency(self, cls: str = "gddr") -> float:
        v = self.inv_e(cls)
        return 1.0 / v if v else float("inf")

    def seconds(self, bytes_per_token: float, bandwidth_gbs: float, layers: int, n_cards: int = 1,
                cls: str = "gddr", dequant: float = 0.0) -> float:
        """``dequant``: quantised weights unpacked per token / the card's tensor FLOP/s."""
        return (self.inv_e(cls) * bytes_per_token / (bandwidth_gbs * 1e9) + self.k * layers
                + self.h * max(0, n_cards - 1) + self.q * dequant)


def bytes_per_token(wl: Workload) -> float:
    """Bytes the cards read to generate one token: every weight on the cards (the input embedding is looked
    up, not read; a mixture of experts reads its active experts) and, at half the context on average, the
    KV cache."""
    from rigbuilder.models import vram as V

    m = wl.model
    w = V.weight_bytes(wl)
    if m.active_params:
        w *= m.active_params / m.params
    emb = m.input_embedding_params * (wl.fmt.embed_bits or wl.fmt.bits) / 8
    w -= emb
    kv = m.kv_bytes_per_token(V.KV_BYTES) * wl.context * wl.batch / 2
    return max(w, 1.0) + kv


DECODE_CONTEXT = 512
"""Dai's figures are llama-bench's tg 512: 512 tokens generated from an empty context."""


def _point_wl(model: str, precision: str, context: int, engine: str = "llama.cpp") -> Workload:
    from rigbuilder.models.workloads import workload

    return workload("llm-inference", model=model, precision=precision, context=context, engine=engine)


def _decode_rows(points: Sequence[DecodePoint]) -> list[list[float]]:
    rows = []
    for p in points:
        wl = _point_wl(p.model, p.precision, DECODE_CONTEXT)
        bw, cls = _SPECS[p.chip][1], chip_class(p.chip)
        read = bytes_per_token(wl) / (bw * 1e9)
        x = [read if c == cls else 0.0 for c in MEMORY_CLASSES] + [float(wl.model.layers), float(p.n_cards - 1)]
        rows.append([v * p.tokens_s for v in x])  # relative residual: (predicted time) / (measured time)
    return rows


@lru_cache(maxsize=None)
def decode_fit(leave_out: Optional[int] = None, engine: str = "llama.cpp") -> DecodeFit:
    """llama.cpp: fitted on Dai's runs (without point ``leave_out``); another engine: its own bandwidth factor
    and cost per layer fitted on its ``ENGINE_POINTS`` marked for the fit, on top of llama.cpp's efficiency
    per memory class (``engine_fit``)."""
    if engine != "llama.cpp":
        return engine_fit(engine)
    pts = [p for i, p in enumerate(DECODE_POINTS) if i != leave_out]
    c = nnls(_decode_rows(pts))
    return DecodeFit((c[0], c[1], c[2]), c[3], c[4])


def _decode_predict(fit: DecodeFit, p: DecodePoint) -> float:
    wl = _point_wl(p.model, p.precision, DECODE_CONTEXT)
    return 1.0 / fit.seconds(bytes_per_token(wl), _SPECS[p.chip][1], wl.model.layers, p.n_cards, chip_class(p.chip))


@lru_cache(maxsize=None)
def decode_loo() -> Band:
    """llama.cpp on Dai's runs, each predicted by a fit without it (the mean error and the bias)."""
    rows = []
    for i, p in enumerate(DECODE_POINTS):
        label = f"{p.n_cards}x {p.chip}, {p.model} {p.precision}"
        rows.append((label, p.tokens_s, _decode_predict(decode_fit(i), p)))
    return _band("llama.cpp-decode", rows)


@dataclass(frozen=True)
class EnginePoint:
    """A published one-stream token rate of an engine: used to fit the engine, or held out of every fit."""

    engine: str
    chip: str
    model: str  # a MODEL_PRESETS name
    precision: str
    n_cards: int
    tokens_s: float
    context: int  # tokens in the cache while generating (prompt + half the generated tokens)
    source: str
    held_out: bool
    note: str = ""


EXLLAMAV2_SRC = "turboderp, ExLlamaV2 README, \u201cPerformance\u201d (one stream), GitHub, 2024"
PREM_SRC = "Prem AI, \u201cbenchmarks\u201d: A100 80GB inference bench (Llama 2 7B, 512 tokens), GitHub, 2024"
RITURAJ_SRC = ("Rituraj, \u201cinference-bench\u201d: vLLM 0.8.5 at one concurrent request (Qwen2.5-7B-Instruct, "
               "about 256 prompt and 128 generated tokens), GitHub, 2025")
MLC_SRC = ("MLC AI, \u201cLLM Performance Benchmarking\u201d (llm-perf-bench; int4, 256 tokens decoded), GitHub, 2023")
MLC_VLLM_SRC = ("Shing, vLLM with a 4-bit AWQ Llama 2 7B on an RTX 3090, in MLC AI's llm-perf-bench pull request 35, "
                "GitHub, 2023")
QWEN25_SRC = ("Qwen Team, \u201cQwen2.5 Speed Benchmark\u201d (vLLM 0.6.3, one A100 80GB, batch 1, 2,048 tokens generated), "
              "Qwen documentation, 2024")
QWEN2_SRC = ("Qwen Team, \u201cQwen2 Speed Benchmark\u201d (vLLM 0.4.2, one A100 80GB, batch 1, 2,048 tokens generated), "
             "Qwen documentation, 2024")
GAESSLER_SRC = ("Johannes G\u00e4\u00dfler, llama.cpp pull request 4766, \u201cggml-backend integration\u201d "
                "(llama-bench tg128), GitHub, 2024")

ENGINE_POINTS: tuple[EnginePoint, ...] = tuple(EnginePoint(*p) for p in (
    # ExLlamaV2: fitted on the RTX 3090 Ti rows; every RTX 4090 row held out (the card the engine's own
    # figures put 2-16% ahead at the same memory bandwidth)
    ("exllamav2", "GeForce RTX 3090 Ti", "Llama 2 7B", "gptq-4bit-g128", 1, 177, 128, EXLLAMAV2_SRC, False,
     "LLaMA 7B GPTQ (Llama 2 7B's shape)"),
    ("exllamav2", "GeForce RTX 3090 Ti", "Llama 2 13B", "gptq-4bit-g128", 1, 109, 128, EXLLAMAV2_SRC, False,
     "LLaMA 13B GPTQ (Llama 2 13B's shape)"),
    ("exllamav2", "GeForce RTX 3090 Ti", "Code Llama 34B", "exl2-4.0", 1, 44, 128, EXLLAMAV2_SRC, False),
    ("exllamav2", "GeForce RTX 3090 Ti", "Llama 2 7B", "exl2-3.0", 1, 211, 128, EXLLAMAV2_SRC, False),
    ("exllamav2", "GeForce RTX 3090 Ti", "Llama 2 7B", "exl2-4.0", 1, 179, 128, EXLLAMAV2_SRC, False),
    ("exllamav2", "GeForce RTX 3090 Ti", "Llama 2 7B", "exl2-5.0", 1, 159, 128, EXLLAMAV2_SRC, False),
    ("exllamav2", "GeForce RTX 3090 Ti", "Llama 2 70B", "exl2-2.5", 1, 33, 128, EXLLAMAV2_SRC, False),
    ("exllamav2", "GeForce RTX 4090", "Llama 2 7B", "gptq-4bit-g128", 1, 198, 128, EXLLAMAV2_SRC, True,
     "LLaMA 7B GPTQ (Llama 2 7B's shape)"),
    ("exllamav2", "GeForce RTX 4090", "Llama 2 13B", "gptq-4bit-g128", 1, 111, 128, EXLLAMAV2_SRC, True,
     "LLaMA 13B GPTQ (Llama 2 13B's shape)"),
    ("exllamav2", "GeForce RTX 4090", "Code Llama 34B", "exl2-4.0", 1, 50, 128, EXLLAMAV2_SRC, True),
    ("exllamav2", "GeForce RTX 4090", "Llama 2 7B", "exl2-3.0", 1, 245, 128, EXLLAMAV2_SRC, True),
    ("exllamav2", "GeForce RTX 4090", "Llama 2 7B", "exl2-4.0", 1, 207, 128, EXLLAMAV2_SRC, True),
    ("exllamav2", "GeForce RTX 4090", "Llama 2 7B", "exl2-5.0", 1, 170, 128, EXLLAMAV2_SRC, True),
    ("exllamav2", "GeForce RTX 4090", "Llama 2 70B", "exl2-2.5", 1, 37, 128, EXLLAMAV2_SRC, True),
    # vLLM: fitted on Prem AI's A100 and Rituraj's L4 fp16 runs and four of Qwen's (below); Rituraj's A100 runs
    # held out. None says PCIe or SXM: taken as the PCIe card (1,940 GB/s; the SXM card has 2,039)
    ("vllm", "A100 PCIe 80 GB", "Llama 2 7B", "fp16", 1, 90.54, 512, PREM_SRC, False),
    ("vllm", "L4", "Qwen2.5 7B", "bf16", 1, 17.1, 320, RITURAJ_SRC, False),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "bf16", 1, 72.1, 320, RITURAJ_SRC, True),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "awq-4bit-g128", 1, 104.2, 320, RITURAJ_SRC, True,
     "AWQ with the Marlin kernel"),
    ("vllm", "GeForce RTX 3090", "Llama 2 7B", "awq-4bit-g128", 1, 175.33, 140, MLC_VLLM_SRC, True),
    # Qwen's speed tables (one A100 80GB, batch 1, 2,048 tokens generated: the cache holds the prompt and 1,024
    # tokens on average): fitted on Qwen2.5 7B at a 1-token prompt (one row per format); the rest held out
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "bf16", 1, 84.28, 1025, QWEN25_SRC, False, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "int8", 1, 122.01, 1025, QWEN25_SRC, False, "GPTQ-Int8, counted as int8; prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "gptq-4bit-g128", 1, 154.05, 1025, QWEN25_SRC, False, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "awq-4bit-g128", 1, 148.1, 1025, QWEN25_SRC, False, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "bf16", 1, 80.7, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "int8", 1, 112.38, 7168, QWEN25_SRC, True, "GPTQ-Int8, counted as int8; prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "gptq-4bit-g128", 1, 141.98, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "awq-4bit-g128", 1, 137.64, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "bf16", 1, 46.3, 1025, QWEN25_SRC, True, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "int8", 1, 70.4, 1025, QWEN25_SRC, True, "GPTQ-Int8, counted as int8; prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "gptq-4bit-g128", 1, 98.02, 1025, QWEN25_SRC, True, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "awq-4bit-g128", 1, 92.66, 1025, QWEN25_SRC, True, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "bf16", 1, 43.83, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "int8", 1, 64.33, 7168, QWEN25_SRC, True, "GPTQ-Int8, counted as int8; prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "gptq-4bit-g128", 1, 86.1, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 14B", "awq-4bit-g128", 1, 83.11, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "bf16", 1, 22.13, 1025, QWEN25_SRC, True, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "int8", 1, 37.57, 1025, QWEN25_SRC, True, "GPTQ-Int8, counted as int8; prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "gptq-4bit-g128", 1, 55.83, 1025, QWEN25_SRC, True, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "awq-4bit-g128", 1, 51.92, 1025, QWEN25_SRC, True, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "bf16", 1, 21.05, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "int8", 1, 34.67, 7168, QWEN25_SRC, True, "GPTQ-Int8, counted as int8; prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "gptq-4bit-g128", 1, 49.96, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 32B", "awq-4bit-g128", 1, 46.68, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 72B", "gptq-4bit-g128", 1, 16.47, 1025, QWEN25_SRC, True, "prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 72B", "gptq-4bit-g128", 1, 13.88, 7168, QWEN25_SRC, True, "prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "bf16", 1, 80.45, 1025, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "int8", 1, 114.32, 1025, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); GPTQ-Int8, counted as int8; prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "gptq-4bit-g128", 1, 143.4, 1025, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "awq-4bit-g128", 1, 96.65, 1025, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "bf16", 1, 76.41, 7168, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "int8", 1, 107.02, 7168, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); GPTQ-Int8, counted as int8; prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "gptq-4bit-g128", 1, 131.55, 7168, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 7B", "awq-4bit-g128", 1, 91.38, 7168, QWEN2_SRC, True, "Qwen2 7B (Qwen2.5's shape); prompt 6,144 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 72B", "gptq-4bit-g128", 1, 29.6, 1025, QWEN2_SRC, True, "Qwen2 72B (Qwen2.5's shape); prompt 1 tokens"),
    ("vllm", "A100 PCIe 80 GB", "Qwen2.5 72B", "gptq-4bit-g128", 1, 25.16, 7168, QWEN2_SRC, True, "Qwen2 72B (Qwen2.5's shape); prompt 6,144 tokens"),
    # llama.cpp beyond Dai's runs: held out of the fit
    ("llama.cpp", "Tesla P40", "Llama 2 7B", "q4_0", 1, 56.79, 64, GAESSLER_SRC, True, "LLaMA 7B Q4_0"),
    ("llama.cpp", "GeForce RTX 3090 Ti", "Llama 2 7B", "q4_k_m", 1, 123.75, 140, MLC_SRC, True),
    ("llama.cpp", "GeForce RTX 3090 Ti", "Llama 2 13B", "q4_k_m", 1, 76.18, 140, MLC_SRC, True),
    ("llama.cpp", "GeForce RTX 4090", "Llama 2 7B", "q4_k_m", 1, 50.13, 140, MLC_SRC, True),
    ("llama.cpp", "GeForce RTX 4090", "Llama 2 13B", "q4_k_m", 1, 36.81, 140, MLC_SRC, True),
))
"""Published one-stream rates beyond Dai's. Left out: Rituraj's L4 AWQ run (``--enforce-eager``: no CUDA
graphs) and A100 AWQ run without the Marlin kernel (63 tokens/s); Prem AI's vLLM \u201cfloat32\u201d column (the
same rate as float16) and its llama.cpp columns (the GGUF formats are not named); Qwen's several-card rows (tensor
parallel, which the model does not validate) and its rows of models without a preset (0.5B to 3B, Qwen2 57B-A14B)."""


def dequant_ops(wl: Workload) -> float:
    """Weights an engine unpacks per token: every quantised weight read (0 for 16-bit weights)."""
    if wl.fmt.bits >= 16:
        return 0.0
    m = wl.model
    return (m.active_params or m.params) - m.embedding_params


DEQUANT_ENGINES = ("exllamav2",)
"""Engines whose one-stream rate also pays for unpacking the quantised weights at the card's compute speed
(ExLlamaV2: its own figures put the RTX 4090 ahead of the RTX 3090 Ti at the same memory bandwidth)."""


def _engine_x(p: EnginePoint, base: DecodeFit) -> list[float]:
    wl = _point_wl(p.model, p.precision, p.context, p.engine)
    t, bw = _SPECS[p.chip]
    read = base.inv_e(chip_class(p.chip)) * bytes_per_token(wl) / (bw * 1e9)
    return [read, float(wl.model.layers), dequant_ops(wl) / (t * 1e12)]


@lru_cache(maxsize=None)
def engine_fit(engine: str) -> DecodeFit:
    """Seconds per token = g x (llama.cpp's time to read the bytes on this class of card) + k x layers
    + q x quantised weights / tensor FLOP/s: g, k and q fitted on the engine's points not held out (none:
    llama.cpp's own fit, said by ``engine_band``)."""
    base = decode_fit()
    pts = [p for p in ENGINE_POINTS if p.engine == engine and not p.held_out]
    if engine == "llama.cpp" or not pts:
        return base if engine == "llama.cpp" else DecodeFit(base.inv, base.k, base.h, engine)
    cols = 3 if engine in DEQUANT_ENGINES else 2
    c = nnls([[v * p.tokens_s for v in _engine_x(p, base)[:cols]] for p in pts]) + [0.0]
    return DecodeFit(tuple(c[0] * v for v in base.inv), c[1], base.h, engine, c[2])


def engine_predict(p: EnginePoint) -> float:
    fit = engine_fit(p.engine)
    wl = _point_wl(p.model, p.precision, p.context, p.engine)
    t, bw = _SPECS[p.chip]
    secs = fit.seconds(bytes_per_token(wl), bw, wl.model.layers, p.n_cards, chip_class(p.chip),
                       dequant_ops(wl) / (t * 1e12))
    bias = decode_loo().bias if p.engine == "llama.cpp" else 1.0
    return 1.0 / secs / bias


@dataclass(frozen=True)
class EngineBand:
    """The printed band of an engine's token rates: the 80th percentile of the held-out errors."""

    engine: str
    band: float  # 80% of the held-out cases lie within it
    n: int  # held-out cases
    inside: int  # held-out cases inside the band
    mean_abs: float
    per_point: tuple[tuple[str, float, float, str], ...]  # (what, measured, predicted, source)


@lru_cache(maxsize=None)
def engine_band(engine: str) -> EngineBand:
    """llama.cpp: Dai's runs each predicted without it (leave-one-out, bias corrected) and every llama.cpp
    point of ``ENGINE_POINTS`` (never fitted); another engine: its held-out points."""
    from rigbuilder.models.bands import percentile_band

    rows: list[tuple[str, float, float, str]] = []
    if engine == "llama.cpp":
        rows += [(w, v, p, DAI) for w, v, p in decode_loo().per_point]
    for p in ENGINE_POINTS:
        if p.engine == engine and p.held_out:
            rows.append((f"{p.n_cards}x {p.chip}, {p.model} {p.precision}", p.tokens_s, engine_predict(p), p.source))
    errs = [pr / v - 1 for _w, v, pr, _s in rows]
    band = percentile_band(errs)
    return EngineBand(engine, band, len(rows), sum(abs(e) <= band + 1e-12 for e in errs),
                      sum(abs(e) for e in errs) / len(errs) if errs else 0.0, tuple(rows))


def decode_rate(wl: Workload, bandwidth_gbs: float, n_cards: int = 1, host_bandwidth_gbs: float = 0.0,
                tensor_parallel: bool = False, cls: str = "gddr", compute_tflops: float = 0.0) -> float:
    """Tokens/s of one stream of ``wl.engine`` on ``n_cards`` cards of ``bandwidth_gbs`` and memory class
    ``cls`` (layers split between them). llama.cpp is corrected for its fit's bias. Layers offloaded to host
    memory are read at ``host_bandwidth_gbs`` (``HOST_BANDWIDTH_GBS`` when not given) at the GDDR class's
    efficiency. ``tensor_parallel`` (vLLM): every card reads its 1/n of each layer at once; the all-reduces
    between the cards are not modelled."""
    fit = engine_fit(wl.engine)
    bias = decode_loo().bias if wl.engine == "llama.cpp" else 1.0
    deq = fit.q * dequant_ops(wl) / (compute_tflops * 1e12) if fit.q and compute_tflops > 0 else 0.0
    if tensor_parallel and n_cards > 1:
        secs = (fit.inv_e(cls) * bytes_per_token(wl) / n_cards / (bandwidth_gbs * 1e9) + fit.k * wl.model.layers
                + deq / n_cards)
        return 1.0 / secs / bias
    total = bytes_per_token(wl)
    secs = 0.0
    if wl.offload_layers:
        share = wl.offload_layers / wl.model.layers
        host_bw = host_bandwidth_gbs or HOST_BANDWIDTH_GBS
        secs += fit.inv_e("gddr") * total * share / (host_bw * 1e9)
        total *= 1 - share
    secs += fit.seconds(total, bandwidth_gbs, wl.model.layers, n_cards, cls) + deq
    return 1.0 / secs / bias


HOST_BANDWIDTH_GBS = 64.0
"""Host memory read for offloaded layers: dual-channel DDR5-4000, 2 x 8 bytes x 4,000 MT/s = 64 GB/s
(the JEDEC transfer rate times the channel width; an assumption about the build's memory)."""


# -- the card's figure --------------------------------------------------------------------------
def basis(wl: Workload) -> str:
    """The measurements a workload's figures come from."""
    if wl.kind == "image-training" and wl.model.name == "ResNet-50":
        return "resnet50"
    if wl.kind == "llm-inference":
        return f"{wl.engine}-decode"
    return "bert-large"


def band_for(wl: Workload) -> Optional[Band]:
    """The leave-one-out band of the workload's estimates (None: diffusion inference, no measurements)."""
    if wl.kind == "diffusion-inference":
        return None
    if wl.kind == "llm-inference":
        return decode_loo()
    return benchmark_loo(basis(wl))


def printed_band(wl: Workload) -> Optional[float]:
    """The band printed with an estimate of ``wl`` (as a share): LLM token rates: the 80th percentile of the
    engine's held-out errors (``engine_band``); LoRA/QLoRA fine-tuning: ``finetune_speed_band``; other training:
    the 80th percentile of its held-out errors (``training_band``); None for diffusion (no measurements)."""
    if wl.kind == "llm-inference":
        return engine_band(wl.engine).band
    if is_adapter_finetune(wl):
        return finetune_band_for(wl)
    return None if wl.kind == "diffusion-inference" else training_band(basis(wl))


def loo_errors() -> dict[str, float]:
    """The printed band (``printed_band``: an 80th percentile of held-out errors) per preset workload id.
    Derived workloads carry their basis's band (their transfer is not validated; diffusion has none)."""
    out = {}
    for wid, wl in WORKLOADS.items():
        b = printed_band(wl)
        if b is not None:
            out[wid] = b
    return out


@dataclass(frozen=True)
class Throughput:
    value: float
    unit: str
    measured: bool
    source: Optional[str]  # the citation of a measured figure (or of the one it was scaled from)
    typical_error: Optional[float]  # the leave-one-out band of an estimate; None when measured or unknown
    basis: str = "estimated"  # "measured", "scaled" (a measured figure turned into this workload), "estimated"
    note: str = ""
    software: str = "modelled"  # "modelled" (CUDA), or "not modelled" (ROCm, oneAPI: no cited factor)
    held_out_band: bool = False  # typical_error is the 80th percentile of held-out errors, not a mean

    @property
    def band(self) -> Optional[tuple[float, float]]:
        """(low, high) of the figure at its typical error."""
        if self.typical_error is None:
            return None
        return self.value * (1 - self.typical_error), self.value * (1 + self.typical_error)

    def describe(self) -> str:
        """'measured (Lambda ...)', 'estimated, typically within 15%', ... (the app's words)."""
        if self.measured:
            return T("measured ({source})", source=self.source)
        if self.basis == "scaled":
            if self.typical_error is not None:
                return T("scaled from a measurement, typically within {err:d}%: {note}",
                         err=round(self.typical_error * 100), note=self.note)
            return T("scaled from a measurement: {note}", note=self.note)
        if self.typical_error is None:
            return T("estimated, error unknown: {note}", note=self.note) if self.note else T("estimated, error unknown")
        err = round(self.typical_error * 100)
        if self.held_out_band:
            return T("estimated, within {err:d}% for 80% of published cases held out of the fit: {note}", err=err,
                     note=self.note)
        if self.note:
            return T("estimated, typically within {err:d}%: {note}", err=err, note=self.note)
        return T("estimated, typically within {err:d}%", err=err)

    def to_dict(self) -> dict:
        band = self.band
        return {"value": round(self.value, 4), "unit": self.unit, "measured": self.measured, "basis": self.basis,
                "source": self.source, "typical_error": None if self.typical_error is None else round(self.typical_error, 4),
                "band": None if band is None else [round(band[0], 4), round(band[1], 4)],
                "band_kind": ("80th percentile of held-out errors" if self.held_out_band else
                              None if self.typical_error is None else "mean leave-one-out error"),
                "software": self.software, "note": self.note}


def flops_per_token(wl: Workload) -> float:
    """Training FLOPs per token (Kaplan et al. 2020's 6N; 4N for LoRA; +2N with recomputation)."""
    f = 4.0 if wl.trainable == "lora" else 6.0
    if wl.checkpointing:
        f += 2.0
    return f * wl.model.params


def transfer(wl: Workload) -> tuple[float, str]:
    """Factor from the basis benchmark's unit to this workload's, and how (\"\" = identical)."""
    key = basis(wl)
    if key == "resnet50":
        return 1.0, ""
    if wl.id == "bert-training" and wl.model is BERT_LARGE:
        return 1.0, ""
    if wl.kind == "diffusion-inference":
        return 1.0, T("relative compute speed")
    if wl.kind == "image-training":
        f = BERT_FLOPS_PER_SEQ / (6 * wl.model.params * wl.context)
        return f, T("BERT-large rate x {f:.3g} (training FLOPs per sample, {source})", f=f, source=KAPLAN)
    f = BERT_FLOPS_PER_SEQ / flops_per_token(wl)
    return f, T("BERT-large rate x {f:.3g} (training FLOPs per token, {source})", f=f, source=KAPLAN)


def _decode_measured(gpu_chip: Optional[str], wl: Workload, n_cards: int) -> Optional[DecodePoint]:
    if gpu_chip is None or wl.context > 4096 or wl.batch != 1 or wl.offload_layers:
        return None
    for p in DECODE_POINTS:
        if (p.chip == gpu_chip and p.n_cards == n_cards and p.model == wl.model.name
                and wl.fmt.key == workload_precision(p.precision) and wl.engine == "llama.cpp"):
            return p
    return None


def workload_precision(key: str) -> str:
    from rigbuilder.models.workloads import precision

    return precision(key).key


SOFTWARE_NOTE = T("fitted on NVIDIA cards with CUDA; the ROCm/oneAPI software speed is not modelled")


def estimate(gpu: GPU, wl: Workload, ratios: Optional[TensorRatios] = None, n_cards: int = 1,
             tensor_parallel: bool = False) -> Throughput:
    """The card's throughput on ``wl`` (one card; ``n_cards`` only for LLM token generation split by
    layers, or by tensors with ``tensor_parallel``; whether the workload fits is ``vram``'s question)."""
    if wl.kind == "llm-inference":
        return _estimate_decode(gpu, wl, ratios, n_cards, tensor_parallel)
    key = basis(wl)
    bench = BENCHMARKS[key]
    chip = measured_chip(gpu, bench.points, ratios)
    software = "modelled" if gpu.vendor == "NVIDIA" else "not modelled"
    t, bw = card_specs(gpu, ratios)
    t = training_tflops(gpu.chip_model, t) if has_tensor_cores(gpu) else t
    if wl.kind == "diffusion-inference":
        v = float(bench.points[chip]) if chip else fit_for(key).predict(t, bw) / benchmark_loo(key).bias
        note = T("compute speed relative to an RTX 3090 from the BERT-large training figures; "
                 "no diffusion measurements")
        return Throughput(v / float(bench.points[REF_CHIP]), wl.unit, False, bench.source if chip else None, None,
                          "estimated", note, software)
    f, how = transfer(wl)
    band = benchmark_loo(key)
    if chip is not None:
        v = float(bench.points[chip])
        if not how:
            return Throughput(v, wl.unit, True, bench.source, None, "measured", bench.label, software)
        ft = finetune_band_for(wl) if is_adapter_finetune(wl) else None  # held out: Qwen's fine-tuning runs
        return Throughput(v * f, wl.unit, False, bench.source, ft, "scaled",
                          T("{bench} measured; {how}", bench=bench.label, how=how), software, held_out_band=ft is not None)
    v = fit_for(key).predict(t, bw) / band.bias
    note = T("fitted on {bench} measurements ({source})", bench=bench.label, source=bench.source)
    if how:
        note = T("{note}; {how}", note=note, how=how)
    if software != "modelled":
        note = T("{note}; {more}", note=note, more=SOFTWARE_NOTE)
    band = finetune_band_for(wl) if is_adapter_finetune(wl) else training_band(key)
    return Throughput(v * f, wl.unit, False, None, band, "estimated", note, software, held_out_band=True)


def _estimate_decode(gpu: GPU, wl: Workload, ratios: Optional[TensorRatios], n_cards: int,
                     tensor_parallel: bool = False) -> Throughput:
    software = "modelled" if gpu.vendor == "NVIDIA" else "not modelled"
    chip = measured_chip(gpu, {p.chip for p in DECODE_POINTS}, ratios)
    tp = tensor_parallel and n_cards > 1
    p = None if tp else _decode_measured(chip, wl, n_cards)
    if p is not None:
        return Throughput(p.tokens_s, wl.unit, True, DAI, None, "measured",
                          T("{n}x {chip}, {model} {precision}, llama.cpp ({when})", n=p.n_cards, chip=p.chip,
                            model=p.model, precision=p.precision, when=p.when), software)
    band = engine_band(wl.engine)
    fit = engine_fit(wl.engine)
    t, bw = card_specs(gpu, ratios)
    cls = memory_class(gpu)
    v = decode_rate(wl, bw, n_cards, tensor_parallel=tp, cls=cls, compute_tflops=t)
    if tp:
        note = T("tensor parallel over {n} cards: each reads its 1/{n} of the {gb:.3g} GB per token at once; the "
                 "all-reduces between the cards are not modelled and no measurement checks it", n=n_cards,
                 gb=bytes_per_token(wl) / 1e9)
        return Throughput(v, wl.unit, False, None, None, "estimated", note, software)
    note = T("{engine}: {gb:.3g} GB read per token at {e:.0%} of {bw:g} GB/s ({cls} memory), fitted on {engine} "
             "measurements; band: {inside} of {n} published cases held out of the fit lie within it",
             engine=wl.engine, gb=bytes_per_token(wl) / 1e9, e=fit.efficiency(cls), bw=bw, cls=cls,
             inside=band.inside, n=band.n)
    if wl.offload_layers:
        note = T("{note}; {k} layers read from host memory at {host:g} GB/s (an assumption)", note=note,
                 k=wl.offload_layers, host=HOST_BANDWIDTH_GBS)
    if software != "modelled":
        note = T("{note}; {more}", note=note, more=SOFTWARE_NOTE)
    return Throughput(v, wl.unit, False, None, band.band, "estimated", note, software, held_out_band=True)


def estimate_many(specs: Sequence[tuple], wl: Workload, measured_of: Sequence[Optional[str]] = (),
                  n_cards: int = 1, tensor_parallel: bool = False):
    """Vectorised estimate for many cards: ``specs`` = (chip_model, compute, bandwidth[, memory class]) per card
    (without the class: ``chip_class`` of the chip model) and
    ``measured_of`` the measured chip each card takes its figure from (``measured_chip``; default: its
    own chip model if measured). Returns (values, measured) as numpy arrays; the same figures as
    ``estimate`` (a test checks)."""
    import numpy as np

    chips = [s[0] for s in specs]
    t = np.maximum(np.array([s[1] for s in specs], dtype=float), 0.01)
    bw = np.maximum(np.array([s[2] for s in specs], dtype=float), 1.0)
    if wl.kind == "llm-inference":
        fit = engine_fit(wl.engine)
        bias = decode_loo().bias if wl.engine == "llama.cpp" else 1.0
        inv = np.array([fit.inv_e(s[3] if len(s) > 3 else chip_class(s[0])) for s in specs], dtype=float)
        total, layers = bytes_per_token(wl), wl.model.layers
        deq = fit.q * dequant_ops(wl) / (t * 1e12) if fit.q else 0.0
        if tensor_parallel and n_cards > 1:
            vals = 1.0 / (inv * total / n_cards / (bw * 1e9) + fit.k * layers + deq / n_cards) / bias
            return vals, np.zeros(len(chips), dtype=bool)
        extra = 0.0
        if wl.offload_layers:
            share = wl.offload_layers / layers
            extra = fit.inv_e("gddr") * total * share / (HOST_BANDWIDTH_GBS * 1e9)
            total *= 1 - share
        vals = 1.0 / (inv * total / (bw * 1e9) + fit.k * layers + fit.h * max(0, n_cards - 1) + deq + extra) / bias
        meas = np.zeros(len(chips), dtype=bool)
        decode_chips = {p.chip for p in DECODE_POINTS}
        for i, c in enumerate(measured_of or chips):
            p = _decode_measured(c if c in decode_chips else None, wl, n_cards)
            if p is not None:
                vals[i] = p.tokens_s
                meas[i] = True
        return vals, meas
    key = basis(wl)
    b = BENCHMARKS[key]
    fit = fit_for(key)
    t = t * np.array([2.0 if training_tflops(c, 1.0) == 2.0 else 1.0 for c in chips])
    vals = 1.0 / (fit.a / t + fit.b / bw + fit.c * OVERHEAD_SCALE) / benchmark_loo(key).bias
    src = list(measured_of) if measured_of else [c if c in b.points else None for c in chips]
    meas = np.array([c is not None and c in b.points for c in src], dtype=bool)
    if meas.any():
        vals[meas] = [float(b.points[c]) for c, m in zip(src, meas) if m]
    if wl.kind == "diffusion-inference":
        return vals / float(b.points[REF_CHIP]), np.zeros(len(chips), dtype=bool)
    f, how = transfer(wl)
    return vals * f, meas & (not how)

