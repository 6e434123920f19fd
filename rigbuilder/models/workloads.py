"""Deep-learning workloads the adviser judges cards for, and the model shapes behind them.

A :class:`Workload` says what is run (training or inference, which model, what precision, the
sequence length and batch). The VRAM model (``rigbuilder.models.vram``) and the throughput model
(``rigbuilder.models.throughput``) read it; nothing here computes memory or speed.

Transformer shapes come from the papers and model cards that published them (``ModelShape.source``).
A custom size (``params=13e9``) takes the shape of the preset with the nearest parameter count and
scales its layer count to match, and says so (``ModelShape.derived_from``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Optional

from rigbuilder.domain.i18n import T

@dataclass(frozen=True)
class Precision:
    """What the weights are stored in: bits per weight and what the cards compute in.

    ``bits``: bits per weight of the quantised layers; for GGUF formats the whole file's average
    (embeddings and output head included, as llama.cpp measured it). ``embed_bits``: where a format
    keeps the input embedding and output head in 16 bits (bitsandbytes, GPTQ, AWQ, fp8), 16; None when
    ``bits`` already covers them. ``engines``: the inference engines that load the format."""

    key: str
    bits: float
    embed_bits: Optional[float]
    compute: str  # "fp32", "fp16" (16-bit tensor cores), "fp8", "int8"
    engines: tuple[str, ...]
    source: str
    training: bool = False  # usable as a training precision

    @property
    def bytes_per_weight(self) -> float:
        return self.bits / 8


LLAMA_CPP_QUANT = ("llama.cpp, \u201cquantize\u201d tool documentation (bits per weight measured on "
                   "Llama-3.1-8B), GitHub, 2025")
GGML_BLOCKS = "ggml, block formats in ggml-common.h (Q4_0: 32 weights in 18 bytes; Q8_0: 32 in 34), GitHub"
QLORA_CITE = "Dettmers et al., \u201cQLoRA: Efficient Finetuning of Quantized LLMs\u201d, 2023"
GPTQ_CITE = ("Frantar et al., \u201cGPTQ: Accurate Post-Training Quantization for Generative Pre-trained "
             "Transformers\u201d, 2023; Lin et al., \u201cAWQ: Activation-aware Weight Quantization\u201d, 2024 "
             "(4-bit weights, a 16-bit scale and a 4-bit zero point per group of 128)")
INT8_CITE = "Dettmers et al., \u201cLLM.int8(): 8-bit Matrix Multiplication for Transformers at Scale\u201d, 2022"
FP8_CITE = "Micikevicius et al., \u201cFP8 Formats for Deep Learning\u201d, 2022"
EXL2_CITE = ("turboderp, ExLlamaV2 documentation, \u201cEXL2 quantization\u201d (an average bitrate over the linear "
             "layers; the output head at 6 bits by default), 2023-2024")

_ALL = ("llama.cpp", "vllm")
PRECISION_TABLE: dict[str, Precision] = {p.key: p for p in (
    Precision("fp32", 32.0, None, "fp32", _ALL, "IEEE 754 single precision", True),
    Precision("fp16", 16.0, None, "fp16", _ALL, "IEEE 754 half precision", True),
    Precision("bf16", 16.0, None, "fp16", _ALL, "bfloat16 (16 bits)", True),
    Precision("fp8", 8.0, 16.0, "fp8", ("vllm",), FP8_CITE),
    Precision("int8", 8.0, 16.0, "int8", ("vllm",), INT8_CITE, True),
    Precision("q8_0", 8.5, None, "fp16", ("llama.cpp",), GGML_BLOCKS),
    Precision("q6_k", 6.56, None, "fp16", ("llama.cpp",), LLAMA_CPP_QUANT),
    Precision("q5_k_m", 5.70, None, "fp16", ("llama.cpp",), LLAMA_CPP_QUANT),
    Precision("q4_k_m", 4.89, None, "fp16", ("llama.cpp",), LLAMA_CPP_QUANT),
    Precision("q4_0", 4.5, None, "fp16", ("llama.cpp",), GGML_BLOCKS),
    Precision("q3_k_m", 4.00, None, "fp16", ("llama.cpp",), LLAMA_CPP_QUANT),
    Precision("q2_k", 3.16, None, "fp16", ("llama.cpp",), LLAMA_CPP_QUANT),
    Precision("gptq-4bit-g128", 4 + 20 / 128, 16.0, "fp16", ("vllm", "exllamav2"), GPTQ_CITE),
    Precision("awq-4bit-g128", 4 + 20 / 128, 16.0, "fp16", ("vllm",), GPTQ_CITE),
    Precision("nf4", 4.127, 16.0, "fp16", ("vllm",), QLORA_CITE + " (NF4 with double quantisation)", True),
    *(Precision(f"exl2-{b:.1f}", b, 6.0, "fp16", ("exllamav2",), EXL2_CITE) for b in (2.5, 3.0, 4.0, 5.0, 6.0, 8.0)),
)}
"""Bits per weight of each format, with where the figure comes from. Q4_0 and Q8_0 from their block
layout; the K-quant mixes as llama.cpp's quantize documentation measured them on Llama-3.1-8B; GPTQ and
AWQ at group size 128: 4 + (16 + 4) / 128 bits; NF4 with double quantisation 4.127 bits (QLoRA)."""
PRECISION_ALIASES = {"int4": "q4_0"}
"""``int4`` (the old name): llama.cpp's plain 4-bit format, Q4_0, at its real 4.5 bits per weight."""
PRECISIONS = tuple(PRECISION_TABLE) + tuple(PRECISION_ALIASES)
TRAINING_PRECISIONS = tuple(k for k, p in PRECISION_TABLE.items() if p.training)
BYTES_PER_PARAM = {k: p.bytes_per_weight for k, p in PRECISION_TABLE.items()}
BYTES_PER_PARAM.update({a: BYTES_PER_PARAM[k] for a, k in PRECISION_ALIASES.items()})
"""Bytes per stored weight of the quantised layers (see ``PRECISION_TABLE``)."""
ENGINES = ("llama.cpp", "vllm", "exllamav2")
"""Inference engines: llama.cpp and ExLlamaV2 split a model by layers (pipeline); vLLM by tensor parallelism."""
HOST_EMBEDDING_ENGINES = ("llama.cpp", "exllamav2")
"""Engines that keep the input embedding in host memory (a lookup per token, never read whole)."""


@dataclass(frozen=True)
class FinetuneTool:
    """How a fine-tuning tool holds a step's activations on the card (``rigbuilder.models.vram``).

    ``layer_bytes``: whether the layer being recomputed holds its full set of activations (Hugging Face
    Transformers' modules) or the tool's fused kernels recompute it without them (Unsloth);
    ``logit_bytes``: bytes per token and vocabulary entry the loss holds (Transformers: the fp32 logits, the
    log-softmax kept for the backward pass and the two gradients, 4 x 4; Unsloth's chunked cross-entropy: the
    16-bit logits alone). ``fp32_embeddings_4bit``: PEFT's ``prepare_model_for_kbit_training`` casts every
    module a 4-bit base does not quantise (the embedding, the output head, the norms) to fp32."""

    key: str
    label: str
    layer_activations: bool
    logit_bytes: float
    source: str
    fp32_embeddings_4bit: bool = False  # a 4-bit base keeps its embedding and head in fp32, not 16 bits


FINETUNE_TOOLS: dict[str, FinetuneTool] = {t.key: t for t in (
    FinetuneTool("peft", "Hugging Face PEFT", True, 16.0,
                 "Hugging Face Transformers and PEFT with FlashAttention-2 and gradient checkpointing (the loss "
                 "works on fp32 logits; PEFT's prepare_model_for_kbit_training casts a 4-bit base's other modules "
                 "to fp32)", True),
    FinetuneTool("unsloth", "Unsloth", False, 2.0,
                 "Unsloth (fused kernels recompute each layer; chunked cross-entropy on the 16-bit logits)"),
)}
"""The fine-tuning tools the memory model knows (``--tool``; LoRA and QLoRA default to Unsloth, the tool
people fine-tune on one small card with; full fine-tuning to PEFT). Neither is fitted: docs/models.md compares
both with the measured table of LLaMA-Factory's wiki (hiyouga, \u201cPerformance comparison\u201d, 2024)."""


def precision(key: str) -> Precision:
    """The format ``key`` names (aliases resolved); ValueError naming the known ones."""
    k = PRECISION_ALIASES.get(key, key)
    if k not in PRECISION_TABLE:
        raise ValueError(T("unknown precision {v}; known: {known}", v=repr(key), known=", ".join(PRECISIONS)))
    return PRECISION_TABLE[k]


STRATEGIES = ("replicated", "zero3", "tensor", "pipeline")


@dataclass(frozen=True)
class WorkloadKind:
    """What a workload kind must provide, declared once: the models and the doors read these instead of
    branching on the kind's name. A new kind is one entry in :data:`WORKLOAD_KINDS` (and its presets in
    :data:`WORKLOADS`); its memory and throughput figures still need their model and its validation."""

    name: str
    training: bool  # trains: optimizer state and gradients on the cards, a training precision
    curve: str  # the power-limit curve its throughput follows (``models.perf``): "training" or "decode"
    split: tuple[str, ...]  # how several cards hold one copy of the model, beyond "replicated" (``vram.strategies_for``)
    precisions: str  # the weight formats it may be asked in: "all" (PRECISION_TABLE), "training" or "" (its preset's)
    engines: bool = False  # runs on an inference engine (``ENGINES``: llama.cpp or vLLM), which sets formats and splits
    tool: bool = False  # takes a fine-tuning tool (``FINETUNE_TOOLS``), which sets how activations are held


WORKLOAD_KINDS: dict[str, WorkloadKind] = {k.name: k for k in (
    WorkloadKind("image-training", True, "training", ("zero3", "tensor"), "training"),
    WorkloadKind("transformer-training", True, "training", ("zero3", "tensor"), "training"),
    WorkloadKind("llm-inference", False, "decode", ("pipeline",), "all", engines=True),
    WorkloadKind("llm-finetune", True, "training", ("zero3", "tensor"), "training", tool=True),
    WorkloadKind("diffusion-inference", False, "training", ("pipeline", "tensor"), ""),
)}
KINDS = tuple(WORKLOAD_KINDS)


@dataclass(frozen=True)
class ModelShape:
    """A transformer's size and shape (or, for a CNN or diffusion model, its size only)."""

    name: str
    params: float  # parameters
    layers: int = 0
    hidden: int = 0
    heads: int = 0
    kv_heads: int = 0
    vocab: int = 0
    intermediate: int = 0  # MLP width (for LoRA's adapted matrices)
    source: str = ""
    derived_from: str = ""  # a custom size: the preset whose shape was scaled
    head_size: int = 0  # the configuration's head_dim where it is not hidden / heads (Gemma 2)
    active_params: float = 0.0  # mixture of experts: parameters used per token (0: all)
    tied: bool = False  # input embedding and output head share one matrix

    @property
    def head_dim(self) -> int:
        if self.head_size:
            return self.head_size
        return self.hidden // self.heads if self.heads else 0

    @property
    def embedding_params(self) -> float:
        """Input embedding and output head (one matrix when tied), kept in 16 bits by bitsandbytes,
        GPTQ and AWQ."""
        return (1.0 if self.tied else 2.0) * self.vocab * self.hidden

    @property
    def input_embedding_params(self) -> float:
        """The input embedding alone (llama.cpp keeps it in host memory: a lookup, not a matrix product)."""
        return 0.0 if self.tied else float(self.vocab * self.hidden)

    @property
    def params_per_token(self) -> float:
        """Parameters read for each generated token (a mixture of experts reads its active ones)."""
        return self.active_params or self.params

    def kv_bytes_per_token(self, bytes_per_value: float = 2.0) -> float:
        """K and V for one token of one sequence over all layers."""
        return 2.0 * self.layers * self.kv_heads * self.head_dim * bytes_per_value

    @property
    def label(self) -> str:
        if self.derived_from:
            return T("{name} (the shape of {base}, {layers} layers)", name=self.name, base=self.derived_from,
                     layers=self.layers)
        return T("{name} ({params} parameters)", name=self.name, params=format_params(self.params))


_LLAMA2 = ("Touvron et al., \u201cLlama 2: Open Foundation and Fine-Tuned Chat Models\u201d, 2023 "
           "(arXiv 2307.09288), and Meta's published model configuration")
_LLAMA3 = ("Grattafiori et al. (Llama Team, Meta), \u201cThe Llama 3 Herd of Models\u201d, 2024 "
           "(arXiv 2407.21783), Table 3")
_LLAMA1 = ("Touvron et al., \u201cLLaMA: Open and Efficient Foundation Language Models\u201d, 2023 "
           "(arXiv 2302.13971), Table 2")
_CODELLAMA = ("Rozi\u00e8re et al., \u201cCode Llama: Open Foundation Models for Code\u201d, 2023 "
              "(arXiv 2308.12950), and Meta's published model configuration")

_HF = "{org}, {repo} config.json, Hugging Face"
_LLAMA31 = "Meta, meta-llama/Llama-3.1-8B and Llama-3.1-70B config.json, Hugging Face, 2024"
_MISTRAL = "Jiang et al., \u201cMistral 7B\u201d, 2023 (arXiv 2310.06825), and mistralai/Mistral-7B-v0.1 config.json"
_MIXTRAL = ("Jiang et al., \u201cMixtral of Experts\u201d, 2024 (arXiv 2401.04088): 46.7B parameters, 12.9B active "
            "per token; mistralai/Mixtral-8x7B-v0.1 config.json")
_QWEN25 = "Qwen Team, \u201cQwen2.5 Technical Report\u201d, 2024 (arXiv 2412.15115), and Qwen/Qwen2.5 config.json files"
_GEMMA2 = ("Gemma Team, \u201cGemma 2: Improving Open Language Models at a Practical Size\u201d, 2024 "
           "(arXiv 2408.00118), and google/gemma-2 config.json files")

MODEL_PRESETS: dict[str, ModelShape] = {m.name: m for m in (
    ModelShape("Llama 2 7B", 6.74e9, 32, 4096, 32, 32, 32000, 11008, _LLAMA2),
    ModelShape("Llama 3 8B", 8.03e9, 32, 4096, 32, 8, 128256, 14336, _LLAMA3),
    ModelShape("Llama 2 13B", 13.0e9, 40, 5120, 40, 40, 32000, 13824, _LLAMA2),
    ModelShape("Code Llama 34B", 33.7e9, 48, 8192, 64, 8, 32000, 22016, _CODELLAMA),
    ModelShape("LLaMA 65B", 65.2e9, 80, 8192, 64, 64, 32000, 22016, _LLAMA1),
    ModelShape("Llama 2 70B", 69.0e9, 80, 8192, 64, 8, 32000, 28672, _LLAMA2),
    ModelShape("Llama 3.1 8B", 8.03e9, 32, 4096, 32, 8, 128256, 14336, _LLAMA31),
    ModelShape("Llama 3 70B", 70.6e9, 80, 8192, 64, 8, 128256, 28672, _LLAMA3),
    ModelShape("Llama 3.1 70B", 70.6e9, 80, 8192, 64, 8, 128256, 28672, _LLAMA31),
    ModelShape("Mistral 7B", 7.24e9, 32, 4096, 32, 8, 32000, 14336, _MISTRAL),
    ModelShape("Mixtral 8x7B", 46.7e9, 32, 4096, 32, 8, 32000, 14336, _MIXTRAL, active_params=12.9e9),
    ModelShape("Qwen2.5 7B", 7.62e9, 28, 3584, 28, 4, 152064, 18944, _QWEN25),
    ModelShape("Qwen2.5 14B", 14.7e9, 48, 5120, 40, 8, 152064, 13824, _QWEN25),
    ModelShape("Qwen2.5 32B", 32.8e9, 64, 5120, 40, 8, 152064, 27648, _QWEN25),
    ModelShape("Qwen2.5 72B", 72.7e9, 80, 8192, 64, 8, 152064, 29568, _QWEN25),
    ModelShape("Gemma 2 9B", 9.24e9, 42, 3584, 16, 8, 256000, 14336, _GEMMA2, head_size=256, tied=True),
    ModelShape("Gemma 2 27B", 27.2e9, 46, 4608, 32, 16, 256000, 36864, _GEMMA2, head_size=128, tied=True),
)}
SIZE_PRESETS = {"7B": "Llama 2 7B", "8B": "Llama 3 8B", "13B": "Llama 2 13B", "34B": "Code Llama 34B",
                "65B": "LLaMA 65B", "70B": "Llama 2 70B"}
"""Short names the CLI and the panel offer (the other presets by name: ``--model "Qwen2.5 72B"``)."""
_SIZED = frozenset(SIZE_PRESETS.values())
"""Presets a bare parameter count may land on (``model_for``): the original six, so '8e9' stays Llama 3 8B."""


def model_named(name: str) -> ModelShape:
    """A preset by its name, case and spaces ignored ('qwen2.5-72b', 'Qwen2.5 72B'); ValueError naming them."""
    key = name.strip().lower().replace("-", " ").replace("_", " ")
    for m in MODEL_PRESETS.values():
        if m.name.lower() == key:
            return m
    raise ValueError(T("unknown model {v}; known: {known}", v=repr(name), known=", ".join(MODEL_PRESETS)))


BERT_LARGE = ModelShape("BERT-large", 335e6, 24, 1024, 16, 16, 30522, 4096,
                        "Devlin et al., \u201cBERT: Pre-training of Deep Bidirectional Transformers for "
                        "Language Understanding\u201d, 2019")
VIT_B16 = ModelShape("ViT-B/16", 86e6, 12, 768, 12, 12, 0, 3072,
                     "Dosovitskiy et al., \u201cAn Image is Worth 16x16 Words\u201d, 2021, Table 1")
RESNET50 = ModelShape("ResNet-50", 25.6e6, source="He et al., \u201cDeep Residual Learning for Image "
                      "Recognition\u201d, 2016")
SDXL = ModelShape("Stable Diffusion XL", 3.5e9,
                  source="Podell et al., \u201cSDXL: Improving Latent Diffusion Models for High-Resolution "
                         "Image Synthesis\u201d, 2023 (2.6B UNet, 817M text encoders, VAE)")


def format_params(p: float) -> str:
    if p >= 1e9:
        return f"{p / 1e9:.3g}B"
    return f"{p / 1e6:.3g}M"


def parse_params(text: str) -> float:
    """'70e9', '70B', '7b', '350M', '6.7e9' -> parameters. A preset's short name ('7B', '70B')
    gives that preset's exact count (Llama 2 7B: 6.74e9). ValueError with the text on failure."""
    t = str(text).strip().replace("_", "").replace(",", "")
    if t.upper() in SIZE_PRESETS:
        return MODEL_PRESETS[SIZE_PRESETS[t.upper()]].params
    mult = 1.0
    if t[-1:].lower() == "b":
        mult, t = 1e9, t[:-1]
    elif t[-1:].lower() == "m":
        mult, t = 1e6, t[:-1]
    try:
        v = float(t) * mult
    except ValueError:
        raise ValueError(T("not a parameter count: {text} (try 70e9 or 70B)", text=repr(text))) from None
    if not math.isfinite(v) or v < 1e6 or v > 1e13:
        raise ValueError(T("parameter count {text} is outside 1M to 10T", text=repr(text)))
    return v


def model_for(params: float) -> ModelShape:
    """The preset within 3% of this size (70e9 is Llama 2 70B's 69.0e9), else the nearest preset's shape with its layer count
    scaled to ``params`` (said in ``derived_from``)."""
    if not math.isfinite(params) or params <= 0:
        raise ValueError(T("parameter count must be positive, not {v}", v=repr(params)))
    sized = [m for m in MODEL_PRESETS.values() if m.name in _SIZED]
    for m in sized:
        if abs(m.params - params) / m.params < 0.03:
            return m
    near = min(sized, key=lambda m: abs(math.log(m.params / params)))
    layers = max(1, round(near.layers * params / near.params))
    return replace(near, name=f"custom {format_params(params)}", params=params, layers=layers,
                   source=near.source, derived_from=near.name)


@dataclass(frozen=True)
class Workload:
    """What runs on the cards. Figures per step: ``context`` tokens (or image tokens) x ``batch``."""

    id: str
    label: str
    kind: str  # one of KINDS
    model: ModelShape
    precision: str = "bf16"  # weights as stored on the card (a key of PRECISION_TABLE or an alias)
    context: int = 0  # sequence length (tokens); 0 for CNNs
    batch: int = 1  # micro-batch per card (inference: concurrent sequences)
    optimizer: str = ""  # "adamw", "adamw-8bit" or "" (inference, frozen base)
    trainable: str = "all"  # "all", "lora" or "none"
    lora_rank: int = 16
    checkpointing: bool = False  # full activation recomputation
    unit: str = "samples/s"
    engine: str = "llama.cpp"  # inference: "llama.cpp", "exllamav2" (split by layers) or "vllm" (tensor parallel)
    offload_layers: int = 0  # inference: layers kept in host memory (llama.cpp's -ngl below the layer count)
    tool: str = "peft"  # LLM fine-tuning: the tool (``FINETUNE_TOOLS``), which sets how activations are held

    @property
    def kind_of(self) -> WorkloadKind:
        """What its kind provides (``WORKLOAD_KINDS``)."""
        return WORKLOAD_KINDS[self.kind]

    @property
    def training(self) -> bool:
        return self.kind_of.training

    @property
    def fmt(self) -> Precision:
        """The weights' format."""
        return precision(self.precision)

    def with_(self, **changes) -> "Workload":
        return replace(self, **changes)


def _label(wid: str, prec: str, rank: int = 16, engine: str = "llama.cpp", tool: str = "peft") -> T:
    """The workload's name with what was asked (its precision), so a header never says fp16 for int4."""
    if wid == "cnn-training":
        return T("CNN training (ResNet-50, {precision} mixed precision)", precision=prec)
    if wid == "vit-training":
        return T("ViT training (ViT-B/16, {precision} mixed precision)", precision=prec)
    if wid == "bert-training":
        return T("BERT-large fine-tuning (SQuAD, {precision} mixed precision)", precision=prec)
    if wid == "llm-inference":
        return T("LLM inference ({precision} weights, one stream, {engine})", precision=prec, engine=engine)
    if wid == "llm-full-finetune":
        return T("LLM full fine-tuning ({precision} mixed precision, AdamW)", precision=prec)
    if wid == "lora":
        return T("LoRA fine-tuning ({precision} base, rank {rank} on every linear layer, {tool})", precision=prec,
                 rank=rank, tool=FINETUNE_TOOLS[tool].label)
    if wid == "qlora":
        return T("QLoRA fine-tuning ({precision} base, rank {rank} on every linear layer, {tool})", precision=prec,
                 rank=rank, tool=FINETUNE_TOOLS[tool].label)
    return T("Diffusion inference (SDXL, {precision}, 1024x1024)", precision=prec)


WORKLOADS: dict[str, Workload] = {w.id: w for w in (
    Workload("cnn-training", _label("cnn-training", "fp16"), "image-training", RESNET50,
             "fp16", 0, 64, "sgd", unit="images/s"),
    Workload("vit-training", _label("vit-training", "bf16"), "image-training", VIT_B16,
             "bf16", 197, 64, "adamw", unit="images/s"),
    Workload("bert-training", _label("bert-training", "fp16"), "transformer-training",
             BERT_LARGE, "fp16", 384, 24, "adamw", unit="sequences/s"),
    Workload("llm-inference", _label("llm-inference", "fp16"), "llm-inference", MODEL_PRESETS["Llama 2 7B"],
             "fp16", 4096, 1, "", "none", unit="tokens/s"),
    Workload("llm-full-finetune", _label("llm-full-finetune", "bf16"), "llm-finetune",
             MODEL_PRESETS["Llama 2 7B"], "bf16", 2048, 1, "adamw", "all", checkpointing=True, unit="tokens/s"),
    Workload("lora", _label("lora", "bf16", tool="unsloth"), "llm-finetune",
             MODEL_PRESETS["Llama 2 7B"], "bf16", 2048, 1, "adamw", "lora", 16, True, unit="tokens/s", tool="unsloth"),
    Workload("qlora", _label("qlora", "nf4", tool="unsloth"), "llm-finetune",
             MODEL_PRESETS["Llama 2 7B"], "nf4", 2048, 1, "adamw", "lora", 16, True, unit="tokens/s", tool="unsloth"),
    Workload("diffusion-inference", _label("diffusion-inference", "fp16"), "diffusion-inference", SDXL,
             "fp16", 0, 1, "", "none", unit="x RTX 3090"),
)}
LLM_WORKLOADS = ("llm-inference", "llm-full-finetune", "lora", "qlora")


def workload(id: str, params: Optional[float] = None, *, precision: Optional[str] = None,
             context: Optional[int] = None, batch: Optional[int] = None, optimizer: Optional[str] = None,
             lora_rank: Optional[int] = None, checkpointing: Optional[bool] = None, model: Optional[str] = None,
             engine: Optional[str] = None, offload_layers: Optional[int] = None,
             tool: Optional[str] = None) -> Workload:
    """A preset workload, optionally for another model (a size or a preset's name) or setting. ValueError
    names what is wrong (an unknown precision, a format the engine cannot load, a training precision
    that does not train)."""
    if id not in WORKLOADS:
        raise ValueError(T("unknown workload {id}; known: {known}", id=repr(id), known=", ".join(WORKLOADS)))
    w = WORKLOADS[id]
    ch: dict = {}
    if params is not None or model is not None:
        if id not in LLM_WORKLOADS:
            raise ValueError(T("the model size can only be chosen for {known}, not {id}", known=", ".join(LLM_WORKLOADS),
                               id=repr(id)))
        ch["model"] = model_named(model) if model is not None else model_for(float(params))
    if precision is not None:
        fmt = globals()["precision"](precision)
        if w.training and id != "qlora" and not fmt.training:
            raise ValueError(T("{v} is an inference format; training runs in {known}", v=repr(precision),
                               known=", ".join(TRAINING_PRECISIONS)))
        ch["precision"] = precision
    if engine is not None:
        if engine not in ENGINES:
            raise ValueError(T("unknown engine {v}; known: {known}", v=repr(engine), known=", ".join(ENGINES)))
        ch["engine"] = engine
    for name, v, lo, hi in (("context", context, 1, 1_048_576), ("batch", batch, 1, 65536),
                            ("lora_rank", lora_rank, 1, 4096), ("offload_layers", offload_layers, 0, 1000)):
        if v is not None:
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise ValueError(T("{name} must be a whole number from {lo} to {hi}, not {v}", name=name.replace("_", " "),
                                   lo=lo, hi=hi, v=repr(v)))
            ch[name] = v
    if optimizer is not None:
        if optimizer not in ("adamw", "adamw-8bit", "sgd", ""):
            raise ValueError(T("unknown optimizer {v}; known: {known}", v=repr(optimizer), known="adamw, adamw-8bit, sgd"))
        ch["optimizer"] = optimizer
    if checkpointing is not None:
        ch["checkpointing"] = bool(checkpointing)
    if tool is not None:
        if tool not in FINETUNE_TOOLS:
            raise ValueError(T("unknown fine-tuning tool {v}; known: {known}", v=repr(tool),
                               known=", ".join(FINETUNE_TOOLS)))
        if not w.kind_of.tool:
            raise ValueError(T("a fine-tuning tool applies to {known}, not {id}", id=repr(id),
                               known="llm-full-finetune, lora, qlora"))
        ch["tool"] = tool
    if not ch:
        return w
    out = replace(w, **ch)
    if out.kind_of.engines:
        fmt = out.fmt
        if out.engine not in fmt.engines:
            if engine is not None:
                raise ValueError(T("{engine} does not load {v} weights; it loads {known}", engine=out.engine,
                                   v=out.precision, known=", ".join(k for k, p in PRECISION_TABLE.items()
                                                                    if out.engine in p.engines)))
            out = replace(out, engine=fmt.engines[0])
        if out.offload_layers and out.engine != "llama.cpp":
            raise ValueError(T("only llama.cpp keeps layers in host memory (offload); not {engine}", engine=out.engine))
        if out.offload_layers >= out.model.layers:
            raise ValueError(T("offload layers must be fewer than the model's {n} layers", n=out.model.layers))
    return replace(out, label=_label(out.id, out.precision, out.lora_rank, out.engine, out.tool))
