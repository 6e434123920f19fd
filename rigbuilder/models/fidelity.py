"""Published cases the estimates are checked against (docs/models.md's fidelity table; the tests).

Each case names its source and the published figure; ``memory_rows``, ``weight_rows`` and
``scaling_rows`` compute the app's figure for it and the error. Nothing here is fitted to these
memory cases: the runtime allowance and the formulas come from their own sources (``vram``).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

from rigbuilder.models.bands import percentile_band
from rigbuilder.models.vram import LLAMA_FACTORY

DAI_MEM = "Xiongjie Dai, \u201cGPU-Benchmarks-on-LLM-Inference\u201d (llama.cpp), GitHub, 2023-2024"
DRANGER = "dranger003, llama.cpp pull request 6745 (Llama 3 70B GGUF sizes), GitHub, 2024"

GIB = 2 ** 30


@dataclass(frozen=True)
class MemoryCase:
    """A published run (or out-of-memory failure) of a model on ``n`` cards of ``vram_gib`` GiB."""

    model: str
    precision: str
    context: int
    n: int
    card: str
    vram_gib: float
    fits: bool  # the published outcome
    published: str  # what the source reports
    source: str = DAI_MEM


MEMORY_CASES: tuple[MemoryCase, ...] = tuple(MemoryCase(*c) for c in (
    ("Llama 2 7B", "fp16", 4096, 1, "RTX 4080", 16, True, "44.2 tokens/s"),
    ("Llama 2 7B", "fp16", 4096, 1, "RTX 4000 Ada", 20, True, "22.96 tokens/s"),
    ("Llama 2 70B", "q4_0", 4096, 1, "RTX 4090", 24, False, "out of memory"),
    ("Llama 2 70B", "q4_0", 4096, 1, "RTX A6000", 48, True, "15.18 tokens/s"),
    ("Llama 2 70B", "q4_0", 4096, 2, "RTX 3090", 24, True, "14.28 tokens/s"),
    ("Llama 2 70B", "q4_0", 4096, 2, "RTX 4000 Ada", 20, False, "out of memory"),
    ("Llama 2 70B", "q4_0", 4096, 4, "RTX 4000 Ada", 20, True, "15.48 tokens/s"),
    ("Llama 2 70B", "fp16", 4096, 1, "H100 PCIe", 80, False, "out of memory"),
    ("Llama 2 70B", "fp16", 4096, 2, "RTX A6000", 48, False, "out of memory"),
    ("Llama 2 70B", "fp16", 4096, 3, "RTX 4090", 24, False, "out of memory"),
    ("Llama 2 70B", "fp16", 4096, 6, "RTX 3090", 24, True, "7.54 tokens/s"),
    ("Llama 3 8B", "fp16", 4096, 1, "RTX 4080", 16, True, "39.44 tokens/s (tg 4096)"),
    ("Llama 3 8B", "fp16", 8192, 1, "RTX 4080", 16, False, "out of memory (tg 8192)"),
    ("Llama 3 8B", "q4_k_m", 8192, 1, "RTX 3070", 8, True, "61.64 tokens/s (tg 8192)"),
    ("Llama 3 70B", "q4_k_m", 8192, 2, "RTX 3090", 24, True, "14.34 tokens/s (tg 8192)"),
    ("Llama 3 70B", "q4_k_m", 8192, 8, "RTX 4090", 24, True, "17.57 tokens/s (tg 8192)"),
    ("Llama 3 70B", "fp16", 8192, 6, "RTX 3090", 24, True, "5.53 tokens/s (tg 8192)"),
    ("Llama 3 70B", "fp16", 8192, 8, "RTX 4090", 24, True, "6.31 tokens/s (tg 8192)"),
))
"""Dai's NVIDIA runs with llama.cpp, all layers on the cards (Llama 2 at its 4,096-token context,
December 2023; Llama 3 with llama-bench, the context as long as the tokens generated, May 2024)."""


@dataclass(frozen=True)
class WeightCase:
    model: str
    precision: str
    gib: float  # the published file size
    source: str = DRANGER


WEIGHT_CASES: tuple[WeightCase, ...] = tuple(WeightCase(*c) for c in (
    ("Llama 3 70B", "q2_k", 24.56), ("Llama 3 70B", "q3_k_m", 31.91), ("Llama 3 70B", "q4_k_m", 39.60),
    ("Llama 3 70B", "q5_k_m", 46.52), ("Llama 3 70B", "q6_k", 53.91), ("Llama 3 70B", "q8_0", 69.83),
    ("Llama 3 70B", "fp16", 131.43), ("Llama 2 70B", "q4_0", 36.37, DAI_MEM), ("Llama 2 13B", "q4_0", 7.24, DAI_MEM),
    ("Llama 2 7B", "q4_0", 3.82, DAI_MEM), ("Llama 3 8B", "q4_k_m", 4.58, DAI_MEM), ("Llama 3 8B", "fp16", 14.96,
                                                                                     DAI_MEM),
))
"""GGUF file sizes (GiB) against the app's weights at the format's bits per weight."""


@dataclass(frozen=True)
class MemoryRow:
    case: MemoryCase
    need_gb: float  # the app's need on the fullest card
    card_gb: float
    app_fits: bool

    @property
    def margin(self) -> float:
        """Need over the card's memory, minus one (negative: room to spare)."""
        return self.need_gb / self.card_gb - 1

    @property
    def agrees(self) -> bool:
        return self.app_fits == self.case.fits


def memory_rows() -> list[MemoryRow]:
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    out = []
    for c in MEMORY_CASES:
        wl = workload("llm-inference", model=c.model, precision=c.precision, context=c.context)
        strategy = "replicated" if c.n == 1 else "pipeline"
        need = V.need(wl, c.n, strategy)
        card = c.vram_gib * GIB / 1e9
        out.append(MemoryRow(c, need.total, card, need.total <= card * need.usable))
    return out


def weight_rows() -> list[tuple[WeightCase, float, float]]:
    """(case, the app's weights in GiB, error)."""
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    out = []
    for c in WEIGHT_CASES:
        wl = workload("llm-inference", model=c.model, precision=c.precision)
        gib = V.weight_bytes(wl) / GIB
        out.append((c, gib, gib / c.gib - 1))
    return out


@dataclass(frozen=True)
class FinetuneCase:
    """A published fine-tuning run: its peak memory on one card, or that it ran out of memory."""

    tool: str  # a key of ``workloads.FINETUNE_TOOLS``
    workload: str  # "lora" (16-bit base) or "qlora" (NF4 base)
    context: int
    batch: int
    gb: Optional[float]  # the published memory (None: out of memory on ``card_gib``)
    card_gib: float = 40.0
    model: str = "Llama 2 7B"
    rank: int = 8
    source: str = LLAMA_FACTORY


FINETUNE_CASES: tuple[FinetuneCase, ...] = (
    FinetuneCase("peft", "lora", 1024, 4, 17.0), FinetuneCase("unsloth", "lora", 1024, 4, 16.0),
    FinetuneCase("unsloth", "qlora", 1024, 4, 7.0),
) + tuple(FinetuneCase("peft", "qlora", c, 1, g) for c, g in (
    (1024, 6.0), (2048, 7.0), (4096, 9.0), (8192, 12.0), (16384, 19.0), (32768, 32.0), (65536, None), (100000, None))
) + tuple(FinetuneCase("unsloth", "qlora", c, 1, g) for c, g in (
    (1024, 5.0), (2048, 6.0), (4096, 7.0), (8192, 8.0), (16384, 10.0), (32768, 16.0), (65536, 25.0), (100000, 37.0)))
"""LLaMA-Factory's measured fine-tuning memory (\u201cHF+FA2\u201d: Transformers and PEFT with FlashAttention-2;
\u201cUnsloth+FA2\u201d), rounded to whole GB by the source. None of them was used to build the model."""


@dataclass(frozen=True)
class FinetuneRow:
    case: FinetuneCase
    need_gb: float

    @property
    def error(self) -> Optional[float]:
        return None if self.case.gb is None else self.need_gb / self.case.gb - 1

    @property
    def agrees(self) -> bool:
        """An out-of-memory case: the app's need exceeds the card."""
        return self.case.gb is not None or self.need_gb > self.case.card_gib * GIB / 1e9


def finetune_rows() -> list[FinetuneRow]:
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    return [FinetuneRow(c, V.need(workload(c.workload, model=c.model, context=c.context, batch=c.batch,
                                           lora_rank=c.rank, tool=c.tool)).total) for c in FINETUNE_CASES]


@functools.lru_cache(maxsize=1)
def finetune_band() -> float:
    """The fine-tuning memory band: 80% of the published cases lie within it (none is fitted)."""
    return percentile_band([r.error for r in finetune_rows() if r.error is not None])


LLAMA_FACTORY_HW = ("hiyouga, LLaMA-Factory README, \u201cHardware Requirement\u201d (estimated memory, QLoRA 4-bit: 7B 6 GB, "
                    "13B, later 14B, 12 GB), GitHub, 2024-2025")
UNSLOTH_REQ = "Unsloth, \u201cUnsloth Requirements\u201d (QLoRA minimums, no context or batch stated), 2025"
UNSLOTH_NOTEBOOKS = ("Unsloth's fine-tuning notebooks (\u201cPeak reserved memory\u201d: torch.cuda.max_memory_reserved() "
                     "/ 1024\u00b3, printed as GB), 2024-2025; PyTorch documentation, torch.cuda.memory_reserved (\u201cGPU "
                     "memory managed by the caching allocator\u201d)")
BASIS_CARD = "card"
"""Compared as published: the app's whole need per card (CUDA context included) in GB against the figure in GB."""
BASIS_TORCH_GIB = "torch-gib"
"""Compared as Unsloth measures memory (``UNSLOTH_NOTEBOOKS``): PyTorch's reserved memory in GiB, which holds
tensors only, so the app's need without the CUDA context (``vram.CUDA_CONTEXT_GB``, outside PyTorch's allocator)
against the figure read as GiB."""
QLORA_SIZE_CASES: tuple[tuple[str, float, str, str], ...] = (
    ("Llama 2 7B", 6.0, LLAMA_FACTORY_HW, BASIS_CARD), ("Llama 2 13B", 12.0, LLAMA_FACTORY_HW, BASIS_CARD),
    ("Qwen2.5 14B", 12.0, LLAMA_FACTORY_HW, BASIS_CARD),
    ("Llama 2 7B", 5.0, UNSLOTH_REQ, BASIS_TORCH_GIB), ("Llama 3 8B", 6.0, UNSLOTH_REQ, BASIS_TORCH_GIB))
"""(model, published figure, source, basis): QLoRA of 7-14B models as published by size, neither source stating
context or batch; the app is asked at its own QLoRA preset (Unsloth, 2,048 tokens, batch 1, rank 16). LLaMA-Factory's
table is an estimate with no stated accounting (compared as a card's need); Unsloth's figures are compared on the
basis Unsloth's own notebooks report memory (``BASIS_TORCH_GIB``; the requirements page does not state its basis,
so this is the reading, not a statement of the page)."""


def qlora_size_rows() -> list[tuple[str, float, float, float, str, str]]:
    """(model, published, app, error, source, basis) for ``QLORA_SIZE_CASES``; published and app in GB for
    ``BASIS_CARD``, in GiB of PyTorch-reserved memory (the app's need less the CUDA context) for ``BASIS_TORCH_GIB``."""
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    out = []
    for model, gb, src, basis in QLORA_SIZE_CASES:
        need = V.need(workload("qlora", model=model))
        app = need.total if basis == BASIS_CARD else (need.total - need.overhead) * 1e9 / GIB
        out.append((model, gb, app, app / gb - 1, src, basis))
    return out


def qlora_size_plain_error(model: str, gb: float) -> float:
    """The error of the app's whole need in GB against ``gb`` read as GB: the comparison before the basis was
    considered (docs/models.md prints both)."""
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    return V.need(workload("qlora", model=model)).total / gb - 1


UNSLOTH_BENCH = ("Unsloth, \u201cUnsloth Benchmarks\u201d (Llama 3.1 8B Instruct, 4-bit QLoRA, rank 32 on every linear "
                 "layer, batch 1), 2025")
MAX_CONTEXT_CASES: tuple[tuple[float, Optional[int], int], ...] = (
    (8, None, 2972), (12, 932, 21848), (16, 2551, 40724), (24, 5789, 78475), (40, 12264, 153977),
    (48, 15502, 191728), (80, 28454, 342733))
"""(card GB, the longest context Hugging Face + FlashAttention-2 trained (None: out of memory), Unsloth's)
on one card (``UNSLOTH_BENCH``)."""


def max_context(tool: str, card_gib: float, model: str = "Llama 3 8B", rank: int = 32) -> int:
    """The longest context (tokens) whose QLoRA need fits one card of ``card_gib`` (0: none)."""
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    card = card_gib * GIB / 1e9

    def fits(ctx: int) -> bool:
        return V.need(workload("qlora", model=model, lora_rank=rank, context=ctx, tool=tool)).total <= card

    if not fits(1):
        return 0
    lo, hi = 1, 1_048_576
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    return lo


@dataclass(frozen=True)
class ScalingRow:
    setup: str
    workload: str
    published: float
    app: float
    held_out: bool
    source: str

    @property
    def error(self) -> float:
        return self.app / self.published - 1


def scaling_rows() -> list[ScalingRow]:
    """Lambda's and server-gear's several-card training runs (efficiency) and Dai's several-card llama.cpp runs (tokens/s,
    the token-generation fit without the point)."""
    from rigbuilder.models import scaling as S
    from rigbuilder.models import throughput as TP

    rows = []
    for c, e, held in S.fit_report():
        link = ("NVLink" if c.nvlink_gbs else f"PCIe {c.gen}.0 x16, " + ("P2P" if c.p2p else "no P2P"))
        name = "ResNet-50" if c.workload == "resnet50" else "BERT-large"
        if c.source == "server-gear":
            rows.append(ScalingRow(f"{c.n}x {c.chip} ({link})", f"{name}, batch {c.batch} (TensorFlow)",
                                   c.efficiency, e, held, "server-gear"))
        else:
            rows.append(ScalingRow(f"{c.n}x {c.chip} ({link})", name, c.efficiency, e, held, "Lambda"))
    for p, (_, v, pred) in zip(TP.DECODE_POINTS, TP.decode_loo().per_point):
        if p.n_cards > 1:
            rows.append(ScalingRow(f"{p.n_cards}x {p.chip} (llama.cpp, split by layers)",
                                   f"{p.model} {p.precision}, tokens/s", v, pred, True, "Dai"))
    return rows


def summary() -> dict[str, Optional[float]]:
    mem = memory_rows()
    w = weight_rows()
    sc = scaling_rows()
    return {"memory_cases": len(mem), "memory_agree": sum(r.agrees for r in mem),
            "weights_mean_abs": sum(abs(e) for _, _, e in w) / len(w),
            "scaling_cases": len(sc), "scaling_mean_abs": sum(abs(r.error) for r in sc) / len(sc)}


# -- vLLM serving memory -----------------------------------------------------------------------------
VLLM_1234 = ("vLLM issue 1234, \u201cRunning out of memory loading 7B AWQ quantized models with 12GB vram\u201d "
             "(mapa17), GitHub, 2023")
VLLM_12330 = "vLLM issue 12330, start-up log of Meta-Llama-3-8B on one A100 40GB, GitHub, 2025"


@dataclass(frozen=True)
class ServingCase:
    """A published vLLM start: the model served at ``context`` tokens on a card of ``vram_gib`` GiB."""

    model: str
    precision: str
    context: int
    card: str
    vram_gib: float
    fits: bool
    published: str
    source: str


SERVING_CASES: tuple[ServingCase, ...] = tuple(ServingCase(*c) for c in (
    ("Llama 2 7B", "awq-4bit-g128", 8192, "RTX 3060 12 GB", 12, False,
     "out of memory (LeoLM hessianai-7B AWQ, 8,192-token context)", VLLM_1234),
    ("Llama 2 7B", "awq-4bit-g128", 2048, "RTX 3060 12 GB", 12, True,
     "runs, 11.2 GB in use (Tulu 7B AWQ, 2,048-token context)", VLLM_1234),
    ("Llama 3 8B", "bf16", 8192, "A100 40GB", 39.5, True, "runs: 11.12 GiB left for the KV cache", VLLM_12330),
))
"""vLLM starts published with their outcome (none used to build the model). LeoLM and Tulu have Llama 2 7B's
and LLaMA 7B's shape (the same layers, widths and vocabulary); the A100's 39.5 GiB is what vLLM reported."""
VLLM_12330_NON_KV_GIB = (14.96, 0.10, 9.37)
"""vLLM's own accounting in that log: weights, memory outside PyTorch and the activation peak (GiB)."""


@dataclass(frozen=True)
class ServingRow:
    case: ServingCase
    need_gb: float
    budget_gb: float  # 90% of the card

    @property
    def app_fits(self) -> bool:
        return self.need_gb <= self.budget_gb + 1e-9

    @property
    def agrees(self) -> bool:
        return self.app_fits == self.case.fits


def serving_rows() -> list[ServingRow]:
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    out = []
    for c in SERVING_CASES:
        wl = workload("llm-inference", model=c.model, precision=c.precision, context=c.context, engine="vllm")
        need = V.need(wl)
        out.append(ServingRow(c, need.total, c.vram_gib * GIB / 1e9 * need.usable))
    return out


def vllm_non_kv_error() -> float:
    """The app's weights and activation peak against vLLM's own log (``VLLM_12330_NON_KV_GIB``), as a share."""
    from rigbuilder.models import vram as V
    from rigbuilder.models.workloads import workload

    wl = workload("llm-inference", model="Llama 3 8B", precision="bf16", context=8192, engine="vllm")
    app = (V.weight_bytes(wl) + V.vllm_activation_peak(wl)) / GIB
    return app / sum(VLLM_12330_NON_KV_GIB) - 1


def inference_weights_band() -> float:
    """80% of the published GGUF file sizes lie within this share of the app's weights."""
    return percentile_band([e for _c, _g, e in weight_rows()])
