"""Throughput of one card on a workload: measured where published, otherwise estimated.

Measured figures (each cited in ``BENCHMARKS``):

- Lambda, "Deep Learning GPU Benchmarks" (PyTorch, fp16 mixed precision, one card, 2025 snapshot):
  ResNet-50 training images/s and BERT-large SQuAD fine-tuning sequences/s.
- Xiongjie Dai, "GPU-Benchmarks-on-LLM-Inference" (llama.cpp, Llama 2 7B, December 2023): text
  generation tokens/s with one stream, fp16 and 4-bit (q4_0) weights.

A card whose chip is in a benchmark gets the measured figure (partner cards of that chip share it).
Every other card is estimated from its tensor TFLOPS T (fp32 TFLOPS where it has no tensor cores)
and memory bandwidth B with a roofline-style model fitted per benchmark on the measured chips:
time per sample = a / T + b / B + c (compute time, memory time and a fixed cost per sample such as
kernel launches; a, b, c >= 0, non-negative least squares on the relative error). Its leave-one-out
error (each measured chip predicted from a fit without it) is the "typical error" shown with every
estimate (``loo_errors``).

Workloads without their own benchmark are derived, and said to be:

- ViT and LLM fine-tuning (full, LoRA, QLoRA): the card's BERT-large rate turned into training
  FLOP/s (6 x parameters x tokens per sequence, Kaplan et al., "Scaling Laws for Neural Language
  Models", 2020) and divided by the workload's FLOPs per sample: 6 x parameters per token for full
  training, 4 x for LoRA (no weight gradients of the frozen base), plus 2 x with activation
  recomputation. QLoRA's dequantisation cost is not modelled (it is slower in practice).
- LLM inference at another size or precision: the measured 7B rate x (7B weight bytes / this
  model's weight bytes) (decoding one stream reads every weight once per token).
- Diffusion inference: no measured figures are in the data; the card's compute speed relative to an
  RTX 3090 from the BERT-large fit (unit "x RTX 3090"), error unknown.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional, Sequence

from rigbuilder.domain.i18n import T
from rigbuilder.domain.parts import GPU
from rigbuilder.models.workloads import BERT_LARGE, BYTES_PER_PARAM, MODEL_PRESETS, WORKLOADS, Workload

LAMBDA = T("{author}, {title} (PyTorch, fp16 mixed precision, one card), {site}, {year}", author="Lambda",
           title="\u201cDeep Learning GPU Benchmarks\u201d", site="lambdalabs.com", year="2025")
DAI = T("{author}, {title} (llama.cpp, Llama 2 7B, one stream), GitHub, {date}", author="Xiongjie Dai",
        title="\u201cGPU-Benchmarks-on-LLM-Inference\u201d", date=T("December {year}", year="2023"))
KAPLAN = "Kaplan et al., \u201cScaling Laws for Neural Language Models\u201d, 2020"


@dataclass(frozen=True)
class Benchmark:
    key: str
    label: str
    unit: str
    source: str
    points: dict[str, float]  # chip_model -> measured value
    specs: dict[str, tuple[float, float]]  # chip_model -> (compute TFLOPS, bandwidth GB/s) used in the fit


# compute = dense FP16 tensor TFLOPS, bandwidth GB/s, as in the shipped catalog for that chip
_SPECS = {
    "Quadro RTX 8000": (130.5, 672.0), "GeForce RTX 3090": (71.0, 936.2), "A100 PCIe 40 GB": (312.0, 1560.0),
    "A100 PCIe 80 GB": (312.0, 1940.0), "RTX 6000 Ada Generation": (364.2, 960.0), "RTX A6000": (154.8, 768.0),
    "GeForce RTX 4090": (165.2, 1010.0), "H100 PCIe 80 GB": (756.0, 2040.0), "GeForce RTX 4080": (97.5, 716.8),
    "RTX 4000 Ada Generation": (106.9, 360.0), "RTX 5000 Ada Generation": (261.1, 576.0),
}


def _bench(key, label, unit, source, pts: dict[str, float]) -> Benchmark:
    return Benchmark(key, label, unit, source, pts, {c: _SPECS[c] for c in pts})


BENCHMARKS: dict[str, Benchmark] = {b.key: b for b in (
    _bench("resnet50", T("ResNet-50 training"), "images/s", LAMBDA, {
        "Quadro RTX 8000": 651, "GeForce RTX 3090": 905, "A100 PCIe 40 GB": 1396, "A100 PCIe 80 GB": 1527,
        "RTX 6000 Ada Generation": 1146, "RTX A6000": 916, "GeForce RTX 4090": 1301, "H100 PCIe 80 GB": 1866}),
    _bench("bert-large", T("BERT-large SQuAD fine-tuning"), "sequences/s", LAMBDA, {
        "Quadro RTX 8000": 50, "GeForce RTX 3090": 52, "A100 PCIe 40 GB": 117, "A100 PCIe 80 GB": 140,
        "RTX 6000 Ada Generation": 79, "RTX A6000": 68, "GeForce RTX 4090": 93, "H100 PCIe 80 GB": 203}),
    _bench("llama2-7b-f16", T("Llama 2 7B fp16 text generation"), "tokens/s", DAI, {
        "GeForce RTX 4080": 44.2, "RTX 4000 Ada Generation": 22.96, "GeForce RTX 3090": 51.85,
        "GeForce RTX 4090": 60.78, "RTX 5000 Ada Generation": 36.31, "RTX A6000": 44.01,
        "RTX 6000 Ada Generation": 50.56, "H100 PCIe 80 GB": 83.32}),
    _bench("llama2-7b-q4", T("Llama 2 7B 4-bit (q4_0) text generation"), "tokens/s", DAI, {
        "GeForce RTX 4080": 118.01, "RTX 4000 Ada Generation": 64.53, "GeForce RTX 3090": 120.6,
        "GeForce RTX 4090": 149.37, "RTX 5000 Ada Generation": 99.19, "RTX A6000": 111.57,
        "RTX 6000 Ada Generation": 127.45, "H100 PCIe 80 GB": 133.77}),
)}
"""Lambda's V100 16 GB row (300 W, a cloud SXM2 card) and Dai's "A100 80GB" row (PCIe or SXM not
stated) are left out: neither matches a catalog card for certain."""

BERT_SEQ = 384
BERT_FLOPS_PER_SEQ = 6 * BERT_LARGE.params * BERT_SEQ
REF_7B = MODEL_PRESETS["Llama 2 7B"]
REF_CHIP = "GeForce RTX 3090"


OVERHEAD_SCALE = 1e-3
"""The constant term's unit (seconds per sample x 1000), so the three columns have similar sizes."""


@dataclass(frozen=True)
class Fit:
    """Time per sample = a / T + b / B + c (a roofline with a fixed cost per sample), a, b, c >= 0."""

    a: float
    b: float
    c: float

    def predict(self, compute: float, bandwidth: float) -> float:
        return 1.0 / (self.a / compute + self.b / bandwidth + self.c * OVERHEAD_SCALE)


def _solve(rows: list[list[float]], y: list[float]) -> Optional[list[float]]:
    """Least squares by the normal equations (at most 3 unknowns; Gaussian elimination)."""
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


def _fit(points: Iterable[tuple[float, float, float]]) -> Fit:
    """Non-negative least squares of the relative error (every subset of the three terms is tried;
    the best with no negative coefficient wins) over (T, B, measured value)."""
    pts = list(points)
    feats = [[v / t, v / b, v * OVERHEAD_SCALE] for t, b, v in pts]  # row / (1/v): relative residuals
    best: Optional[tuple[float, list[float]]] = None
    for mask in range(1, 8):
        idx = [i for i in range(3) if mask >> i & 1]
        sol = _solve([[r[i] for i in idx] for r in feats], [1.0] * len(pts))
        if sol is None or any(c < 0 for c in sol):
            continue
        coef = [0.0, 0.0, 0.0]
        for i, c in zip(idx, sol):
            coef[i] = c
        res = sum((sum(c * x for c, x in zip(coef, r)) - 1.0) ** 2 for r in feats)
        if best is None or res < best[0]:
            best = (res, coef)
    assert best is not None
    return Fit(*best[1])


@lru_cache(maxsize=None)
def fit_for(key: str, leave_out: Optional[str] = None) -> Fit:
    b = BENCHMARKS[key]
    return _fit((b.specs[c][0], b.specs[c][1], v) for c, v in b.points.items() if c != leave_out)


@dataclass(frozen=True)
class LooError:
    benchmark: str
    n: int
    mean_abs: float  # mean |predicted / measured - 1|
    max_abs: float
    per_chip: tuple[tuple[str, float, float], ...]  # (chip, measured, predicted)


@lru_cache(maxsize=None)
def benchmark_loo(key: str) -> LooError:
    b = BENCHMARKS[key]
    rows = []
    for c, v in b.points.items():
        t, bw = b.specs[c]
        rows.append((c, float(v), fit_for(key, c).predict(t, bw)))
    errs = [abs(p / v - 1) for _, v, p in rows]
    return LooError(key, len(rows), sum(errs) / len(errs), max(errs), tuple(rows))


def basis(wl: Workload) -> Optional[str]:
    """The benchmark a workload's figures come from (None: derived from BERT-large compute)."""
    if wl.kind == "image-training" and wl.model.name == "ResNet-50":
        return "resnet50"
    if wl.kind == "llm-inference":
        return "llama2-7b-q4" if wl.precision in ("int4", "nf4") else "llama2-7b-f16"
    return "bert-large"


def loo_errors() -> dict[str, float]:
    """Leave-one-out mean error of the estimate, per preset workload id (docs, app text, benchmark
    script). Derived workloads carry their basis benchmark's error (their transfer is not validated;
    diffusion inference has none)."""
    out = {}
    for wid, wl in WORKLOADS.items():
        if wl.kind == "diffusion-inference":
            continue
        out[wid] = benchmark_loo(basis(wl)).mean_abs
    return out


@dataclass(frozen=True)
class Throughput:
    value: float
    unit: str
    measured: bool
    source: Optional[str]  # the citation of a measured figure (or of the one it was scaled from)
    typical_error: Optional[float]  # leave-one-out mean error of an estimate; None when measured or unknown
    basis: str = "estimated"  # "measured", "scaled" (a measured figure turned into this workload), "estimated"
    note: str = ""

    def describe(self) -> str:
        """'measured (Lambda ...)', 'estimated, typical error 15%', ... (the app's words)."""
        if self.measured:
            return T("measured ({source})", source=self.source)
        if self.basis == "scaled":
            return T("scaled from a measurement: {note}", note=self.note)
        if self.typical_error is None:
            return T("estimated, error unknown: {note}", note=self.note) if self.note else T("estimated, error unknown")
        err = round(self.typical_error * 100)
        if self.note:
            return T("estimated, typical error {err:d}%: {note}", err=err, note=self.note)
        return T("estimated, typical error {err:d}%", err=err)

    def to_dict(self) -> dict:
        return {"value": round(self.value, 4), "unit": self.unit, "measured": self.measured, "basis": self.basis,
                "source": self.source, "typical_error": None if self.typical_error is None else round(self.typical_error, 4),
                "note": self.note}


def card_specs(gpu: GPU) -> tuple[float, float]:
    """(compute TFLOPS, bandwidth GB/s) the fit uses: dense FP16 tensor TFLOPS, or FP32 without tensor cores."""
    t = gpu.tensor_tflops if gpu.tensor_tflops else gpu.fp32_tflops
    return max(t or 0.01, 0.01), max(gpu.bandwidth_gbs or 1.0, 1.0)


def _base(gpu: GPU, key: str) -> tuple[float, bool]:
    b = BENCHMARKS[key]
    if gpu.chip_model in b.points:
        return float(b.points[gpu.chip_model]), True
    t, bw = card_specs(gpu)
    return fit_for(key).predict(t, bw), False


def _weight_bytes(wl: Workload) -> float:
    return wl.model.params * BYTES_PER_PARAM[wl.precision]


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
    if key.startswith("llama2-7b"):
        ref_prec = "int4" if key.endswith("q4") else "fp16"
        ref_bytes = REF_7B.params * BYTES_PER_PARAM[ref_prec]
        if abs(wl.model.params - REF_7B.params) < 1e6 and BYTES_PER_PARAM[wl.precision] == BYTES_PER_PARAM[ref_prec]:
            return 1.0, ""
        f = ref_bytes / _weight_bytes(wl)
        return f, T("Llama 2 7B {prec} rate x {f:.3g} (the ratio of weight bytes read per token)", prec=ref_prec, f=f)
    # bert-large basis
    if wl.id == "bert-training" and wl.model is BERT_LARGE:
        return 1.0, ""
    if wl.kind == "diffusion-inference":
        return 1.0, T("relative compute speed")
    if wl.kind == "image-training":
        f = BERT_FLOPS_PER_SEQ / (6 * wl.model.params * wl.context)
        return f, T("BERT-large rate x {f:.3g} (training FLOPs per sample, {source})", f=f, source=KAPLAN)
    f = BERT_FLOPS_PER_SEQ / flops_per_token(wl)
    return f, T("BERT-large rate x {f:.3g} (training FLOPs per token, {source})", f=f, source=KAPLAN)


def estimate(gpu: GPU, wl: Workload) -> Throughput:
    """The card's throughput on ``wl`` (one card; whether the workload fits is ``vram``'s question)."""
    key = basis(wl)
    bench = BENCHMARKS[key]
    v, measured = _base(gpu, key)
    if wl.kind == "diffusion-inference":
        ref, _ = _base_ref(key)
        note = T("compute speed relative to an RTX 3090 from the BERT-large training figures; "
                 "no diffusion measurements")
        return Throughput(v / ref, wl.unit, False, bench.source if measured else None, None, "estimated", note)
    f, how = transfer(wl)
    err = benchmark_loo(key).mean_abs
    if measured and not how:
        return Throughput(v, wl.unit, True, bench.source, None, "measured", bench.label)
    if measured:
        return Throughput(v * f, wl.unit, False, bench.source, None, "scaled",
                              T("{bench} measured; {how}", bench=bench.label, how=how))
    note = T("fitted on {bench} measurements ({source})", bench=bench.label, source=bench.source)
    if how:
        note = T("{note}; {how}", note=note, how=how)
    if gpu.vendor != "NVIDIA":
        note = T("{note}; the fit uses NVIDIA cards only (ROCm/oneAPI software speed not modelled)", note=note)
    return Throughput(v * f, wl.unit, False, None, err, "estimated", note)


def _base_ref(key: str) -> tuple[float, bool]:
    return float(BENCHMARKS[key].points[REF_CHIP]), True


def estimate_many(specs: Sequence[tuple[str, float, float]], wl: Workload):
    """Vectorised estimate for many cards: ``specs`` = (chip_model, compute, bandwidth) per card.
    Returns (values, measured) as numpy arrays; the same figures as ``estimate`` (a test checks)."""
    import numpy as np

    key = basis(wl)
    b = BENCHMARKS[key]
    fit = fit_for(key)
    chips = [s[0] for s in specs]
    t = np.maximum(np.array([s[1] for s in specs], dtype=float), 0.01)
    bw = np.maximum(np.array([s[2] for s in specs], dtype=float), 1.0)
    vals = 1.0 / (fit.a / t + fit.b / bw + fit.c * OVERHEAD_SCALE)
    meas = np.array([c in b.points for c in chips], dtype=bool)
    if meas.any():
        vals[meas] = [float(b.points[c]) for c, m in zip(chips, meas) if m]
    if wl.kind == "diffusion-inference":
        return vals / float(b.points[REF_CHIP]), np.zeros(len(chips), dtype=bool)
    f, how = transfer(wl)
    return vals * f, meas & (not how)
