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
- inference (``inference_need``), per card, from the mechanism: the weights at the format's real
  bits per weight (``workloads.PRECISION_TABLE``; llama.cpp keeps the input embedding in host memory),
  the KV cache 2 x layers x KV heads x head size x context x batch x 2 bytes (16-bit cache), the
  engine's compute buffer and a fixed runtime allowance per card (``RUNTIME``: CUDA context, cuBLAS
  workspace), added on every card, never a share of the model. Split by layers (llama.cpp, pipeline:
  each card its layers and their KV cache, the output head on the last) or by tensors (vLLM: every
  matrix and the KV heads divided by the cards). Layers offloaded to host memory leave the cards.
- training, every card: the CUDA context, CUDA_CONTEXT_GB (published range 0.3-2 GB; the midpoint is used).

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
from rigbuilder.models.workloads import BYTES_PER_PARAM, FINETUNE_TOOLS, HOST_EMBEDDING_ENGINES, STRATEGIES, Workload

GB = 1e9
GIB_IN_GB = 2 ** 30 / 1e9
CUDA_CONTEXT_GB = 1.0
KV_BYTES = 2.0
LLAMA_CPP_UBATCH = 512
"""llama.cpp's default micro-batch (n_ubatch, llama.cpp common arguments): the compute buffer holds
one attention score matrix of n_ubatch x context x heads in fp32, or the output logits n_ubatch x vocab."""


@dataclass(frozen=True)
class Runtime:
    """What an inference engine takes on every card beyond weights, KV cache and compute buffers."""

    engine: str
    allowance_gb: float  # CUDA context, cuBLAS workspace, the engine's own buffers, per card
    usable: float  # share of the card's memory the engine allocates at most
    source: str


RUNTIME = {
    "llama.cpp": Runtime("llama.cpp", 0.6, 1.0,
                         "GGUF memory calculators allow 0.5-0.6 GB per card for the CUDA context and "
                         "buffers (gpustack, gguf-parser-go); whichllm allows about 300 MB per GPU "
                         "(Andyyyy64/whichllm, 2025); the upper figure is used"),
    "vllm": Runtime("vllm", 2 ** 30 / 1e9, 0.9,
                    "vLLM documentation: gpu_memory_utilization defaults to 0.9 of each card, and the weights, the "
                    "profiled activation peak and the KV cache share it; vLLM's start-up log: \u201cCUDA graphs can "
                    "take additional 1~3 GiB memory per GPU\u201d (the lower end is used)"),
    "exllamav2": Runtime("exllamav2", 1.0, 1.0,
                         "turboderp, ExLlama documentation: PyTorch's own overhead (CUDA kernels, internal buffers) "
                         "comes on top of the model's memory; the CUDA context midpoint (0.3-2 GB) is used"),
}
"""Per-engine runtime allowance on every card, with its source."""
INFERENCE_ACTIVATIONS_SHARE = 0.20
"""Diffusion inference only: activations as a share of the weights (Hugging Face Accelerate's
estimator notes "up to 20%" over the weights; an estimate)."""
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
    T("{cite} (bits per weight of the GGUF formats)", cite="llama.cpp, \u201cquantize\u201d documentation"),
    T("{cite} (runtime allowance per card)", cite="gpustack, gguf-parser-go; vLLM documentation"),
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
    usable: float = 1.0  # share of a card's memory the engine may use (vLLM: 0.9)
    host_gb: float = 0.0  # held in host memory instead (llama.cpp: input embedding, offloaded layers)

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache + self.overhead

    def parts(self) -> dict[str, float]:
        """The stacked breakdown, in order."""
        return {c: getattr(self, c) for c in COMPONENTS}

    def to_dict(self) -> dict:
        d = {c: round(v, 3) for c, v in self.parts().items()}
        band = memory_band(self.workload)
        d.update(total=round(self.total, 3), band=None if band is None else round(band, 4), n_gpus=self.n_gpus,
                 strategy=self.strategy,
                 trainable_params=self.trainable_params, notes=list(self.notes), usable_share=self.usable,
                 host_gb=round(self.host_gb, 3))
        return d


STRATEGY_LABELS = {"replicated": N_("replicated"), "zero3": N_("ZeRO-3"), "tensor": N_("tensor parallel"),
                   "pipeline": N_("pipeline parallel")}
"""The words a strategy is named by (translated where shown: ``strategy_text``)."""


def strategy_text(strategy: str) -> str:
    return T(STRATEGY_LABELS[strategy]) if strategy in STRATEGY_LABELS else T.verbatim(strategy)


def card_gb(gpu: GPU) -> float:
    """The card's memory in GB (10^9 bytes): its marketed GB are GiB."""
    return gpu.vram_gb * GIB_IN_GB


LLAMA_FACTORY = ("hiyouga, LLaMA-Factory wiki, \u201cPerformance comparison\u201d (Llama 2 7B, LoRA rank 8 on every "
                 "linear layer, one A100 40GB), 2024")
FINETUNE_BAND = 0.10396782000000004
"""The fine-tuning memory band: 80% of ``FINETUNE_BAND_RUNS`` published runs of ``LLAMA_FACTORY``, none used
to build the model, lie within it (``fidelity.finetune_band`` computes it; a test checks it is kept)."""
FINETUNE_BAND_RUNS = 17


VLLM_MEMORY_BAND = 0.030232683245002608
"""The vLLM serving-memory band: the app's weights and activation peak against vLLM's own start-up log of
Llama 3 8B at 8,192 tokens (vLLM issue 12330, 2025; ``fidelity.vllm_non_kv_error``, a test checks it is kept).
One published breakdown: the band is thin, and releases with chunked prefill peak lower (the estimate errs
high for them); the three published vLLM starts of ``fidelity.SERVING_CASES`` all get the right verdict."""
VLLM_SOURCE = "vLLM issue 12330 (2025); vLLM issue 1234 (2023)"
WEIGHTS_BAND = 0.05748341361163889
"""llama.cpp and ExLlamaV2 inference memory: 80% of twelve published GGUF file sizes (dranger003, llama.cpp pull
request 6745, 2024; Xiongjie Dai, 2023-2024) lie within this share of the app's weights
(``fidelity.inference_weights_band``; a test checks it is kept). The runtime allowance is on top."""
WEIGHTS_SOURCE = "dranger003, llama.cpp pull request 6745 (2024); Xiongjie Dai (2023-2024)"


def memory_band(wl: Workload) -> Optional[float]:
    """The band of ``need``'s total for ``wl``: ``FINETUNE_BAND`` for LLM fine-tuning, ``VLLM_MEMORY_BAND`` for
    vLLM serving, ``WEIGHTS_BAND`` for llama.cpp and ExLlamaV2 inference; None where no band is measured
    (CNN, BERT and ViT training, diffusion: nothing published to check)."""
    if wl.kind == "llm-finetune":
        return FINETUNE_BAND
    if wl.kind == "llm-inference" and wl.model.layers:
        return VLLM_MEMORY_BAND if wl.engine == "vllm" else WEIGHTS_BAND
    return None


def memory_band_text(wl: Workload) -> Optional[T]:
    """'within ±10% in 80% of 17 published runs (...)', or None (``memory_band``)."""
    band = memory_band(wl)
    if band is None:
        return None
    if wl.kind == "llm-inference" and wl.engine == "vllm":
        return T("within \u00b1{band:.0%} of vLLM's own accounting of weights and activation peak in the one published "
                 "breakdown; 3 of 3 published vLLM starts get the right verdict ({source})", band=band,
                 source=VLLM_SOURCE)
    if wl.kind == "llm-inference":
        return T("weights within \u00b1{band:.0%} of 80% of 12 published GGUF file sizes ({source}); the runtime "
                 "allowance per card is added", band=band, source=WEIGHTS_SOURCE)
    return T("within \u00b1{band:.0%} in 80% of {n} published runs not used to build the model ({source})",
             band=band, n=FINETUNE_BAND_RUNS, source=LLAMA_FACTORY)


def fits(need: VramNeed, gpu: GPU) -> bool:
    """Whether one card of ``gpu`` holds the per-card need (within the share the engine uses)."""
    return gpu.vram_gb > 0 and need.total <= card_gb(gpu) * need.usable + 1e-9


def lora_params(wl: Workload) -> float:
    """Trainable LoRA parameters: rank r on q, k, v, o, gate, up and down of every layer."""
    m = wl.model
    h, kv = m.hidden, m.kv_heads * m.head_dim
    inter = m.intermediate or 4 * h
    per_layer = (h + h) + (h + kv) + (h + kv) + (h + h) + 2 * (h + inter) + (inter + h)
    return float(wl.lora_rank * per_layer * m.layers)


def _finetune_activations(wl: Workload, t: int = 1) -> float:
    """Bytes of activations for one micro-batch of LLM fine-tuning, as the tool holds them (``FINETUNE_TOOLS``).

    Attention by FlashAttention-2 (Dao, \u201cFlashAttention-2\u201d, 2023; both tools use it): the s x s scores
    are never stored. With gradient checkpointing the card keeps each layer's input (2·s·b·h bytes per layer)
    and, while one layer is recomputed, that layer's activations: attention 10·s·b·h, norms 4·s·b·h and the
    gated MLP 2·s·b·h + 8·s·b·I (Korthikanti et al. 2022's accounting without the score matrix, dropout, and
    with SwiGLU's gate, up, activation and product of width I). Without checkpointing every layer keeps its
    set. The loss holds ``logit_bytes`` per token and vocabulary entry."""
    m = wl.model
    tool = FINETUNE_TOOLS[wl.tool]
    s, b, h, L = wl.context, wl.batch, m.hidden, m.layers
    inter = m.intermediate or 4 * h
    layer = s * b * (16 * h + 8 * inter) / t
    if wl.checkpointing:
        per = 2 * s * b * h * L + (layer if tool.layer_activations else 0.0)
    else:
        per = layer * L
    logits = tool.logit_bytes * s * b * m.vocab / t if m.vocab else 0.0
    return per + logits


def _activations(wl: Workload, t: int = 1) -> float:
    """Bytes of activations for one micro-batch on one card (t: tensor-parallel degree)."""
    m = wl.model
    b = wl.batch
    if wl.kind == "image-training" and not m.layers:
        return CNN_ACTIVATION_BYTES_PER_IMAGE * b
    s, h, a, L = wl.context, m.hidden, m.heads, m.layers
    if not (s and h and a and L):
        return 0.0
    if wl.kind == "llm-finetune":
        return _finetune_activations(wl, t)
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
    """Per-card memory need of ``wl`` on ``n_gpus`` cards under ``strategy`` (the fullest card)."""
    if strategy not in STRATEGIES:
        raise ValueError(T("unknown strategy {v}; known: {known}", v=repr(strategy), known=", ".join(STRATEGIES)))
    if not isinstance(n_gpus, int) or isinstance(n_gpus, bool) or not 1 <= n_gpus <= 64:
        raise ValueError(T("number of GPUs must be a whole number from 1 to 64, not {v}", v=repr(n_gpus)))
    if wl.kind == "llm-inference" and wl.model.layers:
        return max(inference_need(wl, n_gpus, strategy), key=lambda n: n.total)
    m = wl.model
    P = m.params
    bpp = BYTES_PER_PARAM[wl.precision]
    notes: list[str] = []
    # weights of the base model
    if (wl.fmt.embed_bits and m.vocab and wl.fmt.bits < 16 and wl.kind == "llm-finetune"
            and FINETUNE_TOOLS[wl.tool].fp32_embeddings_4bit):
        base = (P - m.embedding_params) * bpp + m.embedding_params * 4.0
        notes.append(T("embedding and output head cast to fp32 (PEFT's preparation of a 4-bit base)"))
    elif wl.fmt.embed_bits and m.vocab and wl.fmt.bits < 16:
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
    if wl.kind == "diffusion-inference":
        overhead += INFERENCE_ACTIVATIONS_SHARE * weights
        notes.append(T("diffusion inference: activations counted as 20% of the weights (an estimate)"))
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


def weight_bytes(wl: Workload) -> float:
    """Bytes of all the model's weights in its format (16-bit embedding and head where the format keeps them)."""
    m, fmt = wl.model, wl.fmt
    if fmt.embed_bits and m.vocab and fmt.bits < 16:
        return (m.params - m.embedding_params) * fmt.bits / 8 + m.embedding_params * fmt.embed_bits / 8
    return m.params * fmt.bits / 8


def inference_need(wl: Workload, n_gpus: int = 1, strategy: str = "replicated") -> list[VramNeed]:
    """Every card's need for LLM inference (llama.cpp or vLLM), from the mechanism (module docstring).

    ``replicated``: each card a whole copy; ``pipeline``: layers split as evenly as they go (the first
    cards take the extra ones, the last holds the output head and the logits); ``tensor``: every matrix
    and the KV heads divided by the cards (a card keeps at least one KV head)."""
    m, fmt = wl.model, wl.fmt
    rt = RUNTIME[wl.engine]
    L = m.layers
    n = n_gpus if strategy != "replicated" else 1
    total_w = weight_bytes(wl)
    emb_mat = m.vocab * m.hidden * (fmt.embed_bits or fmt.bits) / 8  # one vocab x hidden matrix
    head_w = emb_mat  # the output head (tied models: the embedding itself), on the last card
    in_emb = 0.0 if m.tied else emb_mat  # the input embedding, when it is a matrix of its own
    layer_w = max(0.0, total_w - head_w - in_emb) / L
    kv_layer = m.kv_bytes_per_token(KV_BYTES) / L * wl.context * wl.batch
    ctx_tokens = wl.context * wl.batch
    notes: list[str] = []
    host = 0.0
    if wl.engine in HOST_EMBEDDING_ENGINES and in_emb:
        host += in_emb
        notes.append(T("{engine} keeps the input embedding in host memory", engine=wl.engine))
    gpu_layers = L - wl.offload_layers
    if wl.offload_layers:
        host += wl.offload_layers * (layer_w + kv_layer)
        notes.append(T("{k} of {n} layers offloaded to host memory", k=wl.offload_layers, n=L))
    emb_on_card = 0.0 if wl.engine in HOST_EMBEDDING_ENGINES else in_emb
    if wl.engine == "vllm":
        # the profiling pass's activation peak, every card; no llama.cpp compute buffer
        act, logits, scores = vllm_activation_peak(wl, n if strategy == "tensor" else 1), 0.0, 0.0
        notes.append(T("vLLM: weights, the profiled activation peak over {t} tokens, CUDA graphs and the KV cache "
                       "for {c} tokens within 90% of each card", t=vllm_batched_tokens(wl), c=ctx_tokens))
    elif wl.engine == "exllamav2":
        act, logits, scores = 0.0, 0.0, 0.0  # FlashAttention: no score matrix; logits of one token
    else:
        act = 0.0
        logits = LLAMA_CPP_UBATCH * m.vocab * 4.0
        scores = LLAMA_CPP_UBATCH * ctx_tokens * m.heads * 4.0
    out: list[VramNeed] = []
    if strategy == "tensor":
        kv_share = max(1.0 / n, 1.0 / m.kv_heads) if m.kv_heads else 1.0 / n
        w = (gpu_layers * layer_w + head_w + emb_on_card) / n
        kv = gpu_layers * kv_layer * kv_share
        comp = max(scores / n, logits / n)
        for _ in range(n):
            out.append(VramNeed(wl, n_gpus, strategy, w / GB, 0.0, 0.0, act / GB, kv / GB,
                                (comp + rt.allowance_gb * GB) / GB, 0.0, tuple(notes), rt.usable, host / GB))
        return out
    counts = [gpu_layers // n + (1 if i < gpu_layers % n else 0) for i in range(n)]
    for i, c in enumerate(counts):
        last = i == n - 1
        first = i == 0
        w = c * layer_w + (head_w if last else 0.0) + (emb_on_card if first else 0.0)
        kv = c * kv_layer
        comp = max(scores, logits) if last else scores
        out.append(VramNeed(wl, n_gpus, strategy, w / GB, 0.0, 0.0, act / GB, kv / GB,
                            (comp + rt.allowance_gb * GB) / GB, 0.0, tuple(notes), rt.usable, host / GB))
    return out


VLLM_MIN_BATCHED_TOKENS = 2048
"""vLLM's default max_num_batched_tokens without chunked prefill: max(max_model_len, 2048) (vLLM engine
arguments documentation); the profiling pass runs that many tokens at once."""


def vllm_batched_tokens(wl: Workload) -> int:
    return max(wl.context, VLLM_MIN_BATCHED_TOKENS)


def vllm_activation_peak(wl: Workload, t: int = 1) -> float:
    """Bytes of vLLM's profiled activation peak on one of ``t`` tensor-parallel cards: a forward pass over
    ``vllm_batched_tokens`` tokens holding the fp32 logits and their softmax (2 x 4 bytes per vocabulary
    entry), the gated MLP's three intermediates and four hidden-size tensors in 16 bits, per token. Checked
    against vLLM's own log of Llama 3 8B at 8,192 tokens on an A100 40GB (vLLM issue 12330, 2025: \u201cPyTorch
    activation peak memory takes 9.37GiB\u201d; this formula gives 8.73 GiB, -7%). Releases with chunked
    prefill profile fewer tokens and peak lower (about 1.2-1.5 GiB for 7-8B models in published logs), so the
    figure errs on the safe side for them."""
    m = wl.model
    inter = m.intermediate or 4 * m.hidden
    per_token = 2 * 4.0 * m.vocab + (3 * 2.0 * inter + 4 * 2.0 * m.hidden) / t
    return vllm_batched_tokens(wl) * per_token


def strategies_for(wl: Workload, n_gpus: int) -> list[str]:
    """The ways ``n_gpus`` cards may hold ``wl``, simplest first: replicated, then ZeRO-3 and tensor
    (training); pipeline (llama.cpp: by layers); tensor then pipeline (vLLM: tensor parallelism needs
    the attention heads to divide by the cards)."""
    order = ["replicated"]
    if n_gpus <= 1:
        return order
    if wl.kind_of.engines and wl.engine == "vllm":
        if wl.model.heads and wl.model.heads % n_gpus == 0:
            order.append("tensor")
        return order + ["pipeline"]
    return order + list(wl.kind_of.split)  # as the kind declares (models.workloads.WORKLOAD_KINDS)


def best_strategy(wl: Workload, gpu: GPU, n_gpus: int, memo: Optional[dict] = None) -> tuple[Optional[str], VramNeed]:
    """The simplest strategy under which ``n_gpus`` cards of ``gpu`` hold ``wl``: replicated first,
    then ZeRO-3 (training) or pipeline (inference), then tensor. If none fits: (None, the smallest
    need per card among them), so a message can say how far off the cards are. ``memo``: a dict the
    caller keeps for many cards (the need per card does not depend on the card: once per workload,
    count and strategy)."""
    order = strategies_for(wl, n_gpus)
    tried = []
    for s in order:
        if memo is None:
            nd = need(wl, n_gpus, s)
        else:
            got = memo.get(("need", id(wl), n_gpus, s))
            if got is None or got[0] is not wl:
                got = memo[("need", id(wl), n_gpus, s)] = (wl, need(wl, n_gpus, s))
            nd = got[1]
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
