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

PRECISIONS = ("fp32", "fp16", "bf16", "int8", "int4", "nf4")
BYTES_PER_PARAM = {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "int8": 1.0, "int4": 0.5,
                   "nf4": (4 + 0.127) / 8}
"""Bytes per stored weight. NF4 with double quantisation: 4 bits plus 0.127 bits of quantisation
constants (Dettmers et al., "QLoRA: Efficient Finetuning of Quantized LLMs", 2023)."""

KINDS = ("image-training", "transformer-training", "llm-inference", "llm-finetune", "diffusion-inference")
STRATEGIES = ("replicated", "zero3", "tensor", "pipeline")


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

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads if self.heads else 0

    @property
    def embedding_params(self) -> float:
        """Input embedding and output head (untied), kept in 16 bits by 4-bit quantisation."""
        return 2.0 * self.vocab * self.hidden

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

MODEL_PRESETS: dict[str, ModelShape] = {m.name: m for m in (
    ModelShape("Llama 2 7B", 6.74e9, 32, 4096, 32, 32, 32000, 11008, _LLAMA2),
    ModelShape("Llama 3 8B", 8.03e9, 32, 4096, 32, 8, 128256, 14336, _LLAMA3),
    ModelShape("Llama 2 13B", 13.0e9, 40, 5120, 40, 40, 32000, 13824, _LLAMA2),
    ModelShape("Code Llama 34B", 33.7e9, 48, 8192, 64, 8, 32000, 22016, _CODELLAMA),
    ModelShape("LLaMA 65B", 65.2e9, 80, 8192, 64, 64, 32000, 22016, _LLAMA1),
    ModelShape("Llama 2 70B", 69.0e9, 80, 8192, 64, 8, 32000, 28672, _LLAMA2),
)}
SIZE_PRESETS = {"7B": "Llama 2 7B", "8B": "Llama 3 8B", "13B": "Llama 2 13B", "34B": "Code Llama 34B",
                "65B": "LLaMA 65B", "70B": "Llama 2 70B"}
"""Short names the CLI and the panel offer."""

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
    for m in MODEL_PRESETS.values():
        if abs(m.params - params) / m.params < 0.03:
            return m
    near = min(MODEL_PRESETS.values(), key=lambda m: abs(math.log(m.params / params)))
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
    precision: str = "bf16"  # weights as stored on the card
    context: int = 0  # sequence length (tokens); 0 for CNNs
    batch: int = 1  # micro-batch per card
    optimizer: str = ""  # "adamw", "adamw-8bit" or "" (inference, frozen base)
    trainable: str = "all"  # "all", "lora" or "none"
    lora_rank: int = 16
    checkpointing: bool = False  # full activation recomputation
    unit: str = "samples/s"

    @property
    def training(self) -> bool:
        return self.kind != "llm-inference" and self.kind != "diffusion-inference"

    def with_(self, **changes) -> "Workload":
        return replace(self, **changes)


WORKLOADS: dict[str, Workload] = {w.id: w for w in (
    Workload("cnn-training", T("CNN training (ResNet-50, fp16 mixed precision)"), "image-training", RESNET50,
             "fp16", 0, 64, "sgd", unit="images/s"),
    Workload("vit-training", T("ViT training (ViT-B/16, bf16 mixed precision)"), "image-training", VIT_B16,
             "bf16", 197, 64, "adamw", unit="images/s"),
    Workload("bert-training", T("BERT-large fine-tuning (SQuAD, fp16 mixed precision)"), "transformer-training",
             BERT_LARGE, "fp16", 384, 24, "adamw", unit="sequences/s"),
    Workload("llm-inference", T("LLM inference (fp16, one stream)"), "llm-inference", MODEL_PRESETS["Llama 2 7B"],
             "fp16", 4096, 1, "", "none", unit="tokens/s"),
    Workload("llm-full-finetune", T("LLM full fine-tuning (bf16 mixed precision, AdamW)"), "llm-finetune",
             MODEL_PRESETS["Llama 2 7B"], "bf16", 2048, 1, "adamw", "all", checkpointing=True, unit="tokens/s"),
    Workload("lora", T("LoRA fine-tuning (bf16 base, rank 16 on every linear layer)"), "llm-finetune",
             MODEL_PRESETS["Llama 2 7B"], "bf16", 2048, 1, "adamw", "lora", 16, True, unit="tokens/s"),
    Workload("qlora", T("QLoRA fine-tuning (NF4 base, rank 16 on every linear layer)"), "llm-finetune",
             MODEL_PRESETS["Llama 2 7B"], "nf4", 2048, 1, "adamw", "lora", 16, True, unit="tokens/s"),
    Workload("diffusion-inference", T("Diffusion inference (SDXL, fp16, 1024x1024)"), "diffusion-inference", SDXL,
             "fp16", 0, 1, "", "none", unit="x RTX 3090"),
)}
LLM_WORKLOADS = ("llm-inference", "llm-full-finetune", "lora", "qlora")


def workload(id: str, params: Optional[float] = None, *, precision: Optional[str] = None,
             context: Optional[int] = None, batch: Optional[int] = None, optimizer: Optional[str] = None,
             lora_rank: Optional[int] = None, checkpointing: Optional[bool] = None) -> Workload:
    """A preset workload, optionally for another model size or setting. ValueError names what is wrong."""
    if id not in WORKLOADS:
        raise ValueError(T("unknown workload {id}; known: {known}", id=repr(id), known=", ".join(WORKLOADS)))
    w = WORKLOADS[id]
    ch: dict = {}
    if params is not None:
        if id not in LLM_WORKLOADS:
            raise ValueError(T("the model size can only be chosen for {known}, not {id}", known=", ".join(LLM_WORKLOADS),
                               id=repr(id)))
        ch["model"] = model_for(float(params))
    if precision is not None:
        if precision not in PRECISIONS:
            raise ValueError(T("unknown precision {v}; known: {known}", v=repr(precision), known=", ".join(PRECISIONS)))
        ch["precision"] = precision
    for name, v, lo, hi in (("context", context, 1, 1_048_576), ("batch", batch, 1, 65536),
                            ("lora_rank", lora_rank, 1, 4096)):
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
    return replace(w, **ch) if ch else w
