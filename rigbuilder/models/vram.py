"""How much GPU memory a workload needs per card, as a stacked breakdown, and whether a card holds it.

Formulas (docs/models.md, Adviser):

- weights = parameters x bytes per parameter (fp32 4, fp16/bf16 2, int8 1, int4 0.5, NF4 with double
  quantisation 4.127 bits; Dettmers et al. 2023). 4-bit bases keep the embedding and output head in 16 bits.
- mixed-precision AdamW: 16 bytes per trainable parameter before activations: 16-bit weights 2 +
  16-bit gradients 2 + fp32 master weights 4 + Adam m 4 + v 4 (Hugging Face, "The Ultra-Scale
  Playbook", 2025); 8-bit Adam keeps m and v in 2 bytes instead of 8 (Dettmers et al., "8-bit
  Optimizers via Block-wise Quantization", 2022). Pure fp32 training: 4 + 4 + 8.
- LoRA / QLoRA: the frozen base (16-bit, or NF4) + 16 bytes per trainable LoRA parameter; LoRA
  adapts every linear layer (q, k, v, o, gate, up, down) with rank r: r x (d_in + d_out) each.
- activations per transformer layer (Korthikanti et al., "Reducing Activation Recomputation in
  Large Transformer Models", 2022): s*b*h*(34 + 5*a*s/h) bytes with 16-bit activations; with full
  recomputation 2*s*b*h per layer plus one layer's full set while it is recomputed; the fp32 logits
  for the loss add 4*s*b*vocab (an estimate). Tensor parallelism over t cards:
  s*b*h*(10 + 24/t + 5*a*s/(h*t)) per layer (same paper). CNNs: bytes per image (below).
- inference: weights x 1.2 (Hugging Face Accelerate's model-memory estimator: "up to 20%" more,
  after EleutherAI) + KV cache 2 x layers x KV heads x head dim x context x batch x 2 bytes.
- every card: the CUDA context, CUDA_CONTEXT_GB (published range 0.3-2 GB; the midpoint is used).

Across N cards: ``replicated`` (data parallel: every card holds everything), ``zero3`` (ZeRO stage
3 / FSDP: weights, gradients and optimizer states divided by N, plus two layers gathered at a time),
``tensor`` (matrices split: weights, gradients, optimizer and KV cache divided by N, activations as
above) and ``pipeline`` (layers split: weights, gradients, optimizer and KV cache divided by N; with a
1F1B schedule the first stage holds activations for N micro-batches of its L/N layers, i.e. one
micro-batch of all L layers).

Sizes are in GB (10^9 bytes). A card sold as "24 GB" has 24 GiB; ``fits`` converts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from rigbuilder.domain.i18n import N_, T
from rigbuilder.domain.parts import GPU
from rigbuilder.models.workloads import BYTES_PER_PARAM, STRATEGIES, Workload

GB = 1e9
GIB_IN_GB = 2 ** 30 / 1e9
CUDA_CONTEXT_GB = 1.0
INFERENCE_OVERHEAD = 0.20
KV_BYTES = 2.0
CNN_ACTIVATION_BYTES_PER_IMAGE = 54e6
"""ResNet-50 at 224x224, fp16 mixed precision: an upper bound derived from Lambda's measurements,
which ran batch 448 on a 24 GB RTX 3090: (24 GiB - the CUDA context - the model's 16 bytes per
parameter) / 448 (an estimate, not a measurement of the activations themselves)."""
LOGITS_BYTES = 4.0

COMPONENTS = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")

SOURCES = (
    T("{cite} (NF4, double quantisation)",
      cite="Dettmers et al., \u201cQLoRA: Efficient Finetuning of Quantized LLMs\u201d, 2023"),
    T("{cite} (16 bytes per parameter, mixed-precision AdamW)",
      cite="Hugging Face, \u201cThe Ultra-Scale Playbook\u201d, 2025"),
    T("{cite} (8-bit Adam)", cite="Dettmers et al., \u201c8-bit Optimizers via Block-wise Quantization\u201d, 2022"),
    T("{cite} (activations)",
      cite="Korthikanti et al., \u201cReducing Activation Recomputation in Large Transformer Models\u201d, 2022"),
    T("{cite}, model memory estimator (inference: up to 20% over the weights)", cite="Hugging Face Accelerate"),
)
"""The publications the formulas come from (shown with the breakdown)."""


@dataclass(frozen=True)
class VramNeed:
    """Memory per card in GB, by component."""

    workload: Workload
    n_gpus: int
    strategy: str
    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    overhead: float
    trainable_params: float = 0.0
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache + self.overhead

    def parts(self) -> dict[str, float]:
        """The stacked breakdown, in order."""
        return {c: getattr(self, c) for c in COMPONENTS}

    def to_dict(self) -> dict:
        d = {c: round(v, 3) for c, v in self.parts().items()}
        d.update(total=round(self.total, 3), n_gpus=self.n_gpus, strategy=self.strategy,
                 trainable_params=self.trainable_params, notes=list(self.notes))
        return d


STRATEGY_LABELS = {"replicated": N_("replicated"), "zero3": N_("ZeRO-3"), "tensor": N_("tensor parallel"),
                   "pipeline": N_("pipeline parallel")}
"""The words a strategy is named by (translated where shown: ``strategy_text``)."""


def strategy_text(strategy: str) -> str:
    return T(STRATEGY_LABELS[strategy]) if strategy in STRATEGY_LABELS else T.verbatim(strategy)


def card_gb(gpu: GPU) -> float:
    """The card's memory in GB (10^9 bytes): its marketed GB are GiB."""
    return gpu.vram_gb * GIB_IN_GB


def fits(need: VramNeed, gpu: GPU) -> bool:
    """Whether one card of ``gpu`` holds the per-card need."""
    return gpu.vram_gb > 0 and need.total <= card_gb(gpu) + 1e-9


def lora_params(wl: Workload) -> float:
    """Trainable LoRA parameters: rank r on q, k, v, o, gate, up and down of every layer."""
    m = wl.model
    h, kv = m.hidden, m.kv_heads * m.head_dim
    inter = m.intermediate or 4 * h
    per_layer = (h + h) + (h + kv) + (h + kv) + (h + h) + 2 * (h + inter) + (inter + h)
    return float(wl.lora_rank * per_layer * m.layers)


def _activations(wl: Workload, t: int = 1) -> float:
    """Bytes of activations for one micro-batch on one card (t: tensor-parallel degree)."""
    m = wl.model
    b = wl.batch
    if wl.kind == "image-training" and not m.layers:
        return CNN_ACTIVATION_BYTES_PER_IMAGE * b
    s, h, a, L = wl.context, m.hidden, m.heads, m.layers
    if not (s and h and a and L):
        return 0.0
    if t > 1:
        full_layer = s * b * h * (10 + 24 / t + 5 * a * s / (h * t))
    else:
        full_layer = s * b * h * (34 + 5 * a * s / h)
    if wl.checkpointing:
        per = 2 * s * b * h * L + full_layer
    else:
        per = full_layer * L
    logits = LOGITS_BYTES * s * b * m.vocab / t if m.vocab and wl.kind == "llm-finetune" else 0.0
    return per + logits


def need(wl: Workload, n_gpus: int = 1, strategy: str = "replicated") -> VramNeed:
    """Per-card memory need of ``wl`` on ``n_gpus`` cards under ``strategy``."""
    if strategy not in STRATEGIES:
        raise ValueError(T("unknown strategy {v}; known: {known}", v=repr(strategy), known=", ".join(STRATEGIES)))
    if not isinstance(n_gpus, int) or isinstance(n_gpus, bool) or not 1 <= n_gpus <= 64:
        raise ValueError(T("number of GPUs must be a whole number from 1 to 64, not {v}", v=repr(n_gpus)))
    m = wl.model
    P = m.params
    bpp = BYTES_PER_PARAM[wl.precision]
    notes: list[str] = []
    # weights of the base model
    if wl.precision in ("int4", "nf4") and m.vocab:
        base = (P - m.embedding_params) * bpp + m.embedding_params * 2.0
        notes.append(T("embedding and output head kept in 16 bits"))
    else:
        base = P * bpp
    weights = base
    grads = opt = 0.0
    trainable = 0.0
    if wl.training:
        if wl.trainable == "lora":
            trainable = lora_params(wl)
            lw, lg = 2.0, 2.0
        else:
            trainable = P
            lw, lg = 0.0, (4.0 if wl.precision == "fp32" else 2.0)
        if wl.precision == "fp32":
            master = 0.0
        else:
            master = 4.0
        if wl.optimizer == "adamw-8bit":
            states = 2.0
        elif wl.optimizer == "sgd":
            states = 4.0  # momentum
        else:
            states = 8.0
        weights += trainable * lw
        grads = trainable * lg
        opt = trainable * (master + states)
    kv = 0.0
    overhead = CUDA_CONTEXT_GB * GB
    if wl.kind in ("llm-inference", "diffusion-inference"):
        overhead += INFERENCE_OVERHEAD * weights
        if wl.kind == "llm-inference" and m.layers:
            kv = 2 * m.layers * m.kv_heads * m.head_dim * wl.context * wl.batch * KV_BYTES
    n = n_gpus
    t = 1
    if n > 1 and strategy != "replicated":
        weights_full = weights
        weights /= n
        grads /= n
        opt /= n
        if strategy == "zero3":
            if m.layers:
                extra = 2 * weights_full / m.layers
                overhead += extra
                notes.append(T("ZeRO-3 gathers about two layers' weights at a time"))
        else:
            kv /= n
            if strategy == "tensor":
                t = n
    acts = _activations(wl, t) if wl.training else 0.0
    return VramNeed(wl, n, strategy, weights / GB, grads / GB, opt / GB, acts / GB, kv / GB, overhead / GB,
                    trainable, tuple(notes))


def best_strategy(wl: Workload, gpu: GPU, n_gpus: int) -> tuple[Optional[str], VramNeed]:
    """The simplest strategy under which ``n_gpus`` cards of ``gpu`` hold ``wl``: replicated first,
    then ZeRO-3 (training) or pipeline (inference), then tensor. If none fits: (None, the smallest
    need per card among them), so a message can say how far off the cards are."""
    order = ["replicated"]
    if n_gpus > 1:
        order += ["zero3", "tensor"] if wl.training else ["pipeline", "tensor"]
    tried = []
    for s in order:
        nd = need(wl, n_gpus, s)
        if fits(nd, gpu):
            return s, nd
        tried.append(nd)
    return None, min(tried, key=lambda n: n.total)


def min_cards(wl: Workload, gpu: GPU, limit: int = 16) -> Optional[int]:
    """The fewest cards of ``gpu`` that hold ``wl`` (None: not even ``limit``)."""
    for n in range(1, limit + 1):
        if best_strategy(wl, gpu, n)[0] is not None:
            return n
    return None
