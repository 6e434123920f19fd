"""Issue 28: the estimates against published figures (models.fidelity), and the docs' table of them."""
from __future__ import annotations

from pathlib import Path

import pytest

from rigbuilder.models import fidelity as F
from rigbuilder.models import vram as V
from rigbuilder.models import workloads as W

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "models.md").read_text(encoding="utf-8")


def test_inference_memory_verdicts_on_one_to_eight_cards():
    rows = F.memory_rows()
    assert len(rows) >= 15 and {r.case.n for r in rows} >= {1, 2, 3, 4, 6, 8}
    wrong = [r for r in rows if not r.agrees]
    assert len(wrong) <= 2 and all(abs(r.margin) < 0.03 for r in wrong)
    # the cases: 7B fp16 on a 16 GB card, 70B 4-bit on two 24 GB cards
    by = {(r.case.model, r.case.precision, r.case.n, r.case.card, r.case.context): r for r in rows}
    assert by[("Llama 2 7B", "fp16", 1, "RTX 4080", 4096)].app_fits
    assert by[("Llama 2 70B", "q4_0", 2, "RTX 3090", 4096)].app_fits
    assert not by[("Llama 2 70B", "q4_0", 1, "RTX 4090", 4096)].app_fits
    assert not by[("Llama 3 8B", "fp16", 1, "RTX 4080", 8192)].app_fits


def test_weights_at_the_real_bits_per_weight():
    rows = F.weight_rows()
    assert all(abs(e) < 0.08 for _, _, e in rows)
    assert sum(abs(e) for _, _, e in rows) / len(rows) < 0.03


def test_inference_memory_by_hand():
    """Llama 2 7B fp16, 4,096 tokens, llama.cpp, one card: weights without the input embedding,
    2 x 32 x 32 x 128 x 4096 x 2 bytes of KV cache, a 512 x 4096 x 32 x 4-byte score buffer, 0.6 GB."""
    wl = W.workload("llm-inference", 6.74e9, precision="fp16")
    n = V.need(wl)
    emb = 32000 * 4096 * 2
    assert n.weights * 1e9 == pytest.approx(6.74e9 * 2 - emb)
    assert n.kv_cache * 1e9 == pytest.approx(2 * 32 * 32 * 128 * 4096 * 2)
    assert n.overhead * 1e9 == pytest.approx(512 * 4096 * 32 * 4 + 0.6e9)
    assert n.host_gb * 1e9 == pytest.approx(emb)
    # split by layers over 3 cards: 11, 11 and 10 layers; the output head on the last card
    layer = (6.74e9 * 2 - 2 * emb) / 32
    per = V.inference_need(wl, 3, "pipeline")
    assert [round(p.weights * 1e9 / layer, 6) for p in per[:2]] == [11, 11]
    assert per[2].weights * 1e9 == pytest.approx(10 * layer + emb)
    assert per[2].overhead > per[0].overhead - 1e-12
    # vLLM, tensor parallel over 4 cards: everything / 4 within 90% of each card
    q = W.workload("llm-inference", 69e9, precision="awq-4bit-g128", engine="vllm")
    tp = V.need(q, 4, "tensor")
    assert tp.usable == 0.9 and tp.weights * 1e9 == pytest.approx(V.weight_bytes(q) / 4)
    assert tp.kv_cache * 1e9 == pytest.approx(2 * 80 * 8 * 128 * 4096 * 2 / 4)
    assert "tensor" not in V.strategies_for(q, 6)  # 64 heads do not divide by 6


def test_bits_per_weight_by_hand():
    q = W.workload("llm-inference", 6.74e9, precision="q4_0")
    assert V.weight_bytes(q) == pytest.approx(6.74e9 * 4.5 / 8)
    n = W.workload("llm-inference", 6.74e9, precision="nf4", engine="vllm")
    emb = 2 * 32000 * 4096
    assert V.weight_bytes(n) == pytest.approx((6.74e9 - emb) * 4.127 / 8 + emb * 2)
    g = W.precision("gptq-4bit-g128")
    assert g.bits == pytest.approx(4 + (16 + 4) / 128)
    assert W.precision("int4").key == "q4_0"


def test_offload_moves_layers_to_the_host_and_costs_speed(index):
    from rigbuilder.models import throughput as T

    base = W.workload("llm-inference", 69e9, precision="q4_k_m")
    off = W.workload("llm-inference", 69e9, precision="q4_k_m", offload_layers=40)
    a, b = V.need(base), V.need(off)
    assert b.weights < a.weights * 0.55 and b.host_gb > a.host_gb
    g = index.get("gpu-nvidia-rtx-3090-fe")
    assert T.estimate(g, off).value < T.estimate(g, base).value / 4


def test_docs_fidelity_table_holds_the_cases():
    mem = [r for r in F.memory_rows()]
    for r in mem:
        c = r.case
        assert f"{c.model} {c.precision}, {c.context:,} tokens, {c.n}x {c.card} {c.vram_gib:g} GB" in DOCS
    sc = F.scaling_rows()
    assert len(sc) >= 10 and {r.setup.split("x")[0] for r in sc} >= {"2", "4", "6", "8"}
    assert any(r.held_out for r in sc if r.source == "Lambda")
    for r in sc:
        assert f"{r.error:+.1%}" in DOCS


def test_finetuning_memory_lies_in_its_band_on_published_runs_not_used_to_build_it():
    rows = F.finetune_rows()
    errs = [r.error for r in rows if r.error is not None]
    band = F.finetune_band()
    assert len(errs) == 17 and all(r.agrees for r in rows)
    assert sum(abs(e) <= band for e in errs) >= 0.8 * len(errs) and 0 < band < 0.15
    assert min(errs) < 0 < max(errs)  # both signs
    # QLoRA of a 7B model within +25% of the published figure (the bar), for both tools
    for r in rows:
        if r.case.workload == "qlora" and r.error is not None:
            assert r.error <= 0.25, r


def test_8b_qlora_fits_an_8_gb_card_with_unsloth_and_not_with_peft():
    gib8 = 8 * F.GIB / 1e9
    unsloth = V.need(W.workload("qlora", model="Llama 3 8B"))
    peft = V.need(W.workload("qlora", model="Llama 3 8B", tool="peft"))
    assert W.workload("qlora").tool == "unsloth" and W.workload("llm-full-finetune").tool == "peft"
    assert unsloth.total <= gib8 < peft.total
    # the published longest contexts of Hugging Face + FlashAttention-2 (Unsloth's benchmark page)
    assert F.max_context("peft", 8) == 0
    for gib, hf, _ in F.MAX_CONTEXT_CASES:
        if hf is not None:
            assert abs(F.max_context("peft", gib) / hf - 1) < 0.25, gib


def test_the_tool_is_checked_and_the_band_reaches_the_json():
    with pytest.raises(ValueError, match="unknown fine-tuning tool"):
        W.workload("qlora", tool="axolotl")
    with pytest.raises(ValueError, match="fine-tuning tool applies"):
        W.workload("llm-inference", tool="peft")
    d = V.need(W.workload("lora")).to_dict()
    assert d["band"] == pytest.approx(F.finetune_band(), abs=1e-4)
    assert V.need(W.workload("llm-inference")).to_dict()["band"] == pytest.approx(V.WEIGHTS_BAND, abs=1e-4)
    assert V.need(W.workload("cnn-training")).to_dict()["band"] is None


def test_the_kept_finetuning_band_is_what_the_cases_give():
    assert V.FINETUNE_BAND == pytest.approx(F.finetune_band(), rel=1e-9)
    assert V.FINETUNE_BAND_RUNS == sum(c.gb is not None for c in F.FINETUNE_CASES)


def test_qlora_7_to_14b_within_25_percent_of_the_published_sizes():
    """Issue 39: QLoRA of 7-14B models against the figures published by size (LLaMA-Factory's hardware table,
    Unsloth's requirements page): within +25%. Unsloth's figures are compared as Unsloth's notebooks report memory
    (PyTorch's reserved memory in GiB, no CUDA context); Unsloth's ones are not under by more than the printed
    band. LLaMA-Factory's 13B estimate stays under by more than the band (docs/models.md)."""
    rows = F.qlora_size_rows()
    assert {r[0] for r in rows} >= {"Llama 2 7B", "Llama 2 13B", "Qwen2.5 14B", "Llama 3 8B"}
    for model, gb, app, err, src, basis in rows:
        print(f"{model}: published {gb} ({basis}), app {app:.2f} ({err:+.1%})")
        assert err <= 0.25, (model, src)
        if src == F.UNSLOTH_REQ:
            assert basis == F.BASIS_TORCH_GIB and err >= -V.FINETUNE_BAND, model
        else:
            assert basis == F.BASIS_CARD
    under = [(m, e) for m, _, _, e, _, _ in rows if e < -V.FINETUNE_BAND]
    assert under == [("Llama 2 13B", pytest.approx(-0.153, abs=0.005))]


def test_unsloth_sizes_are_compared_without_the_cuda_context_and_in_gib():
    by = {(r[0], r[4]): r for r in F.qlora_size_rows()}
    need = V.need(W.workload("qlora", model="Llama 3 8B"))
    _, gb, app, err, _, _ = by[("Llama 3 8B", F.UNSLOTH_REQ)]
    assert app == pytest.approx((need.total - V.CUDA_CONTEXT_GB) / V.GIB_IN_GB, rel=1e-9)
    assert err == pytest.approx(app / gb - 1)
    # read as GB of the whole card the same figure is out of reach: the basis is what was wrong, not the model
    assert F.qlora_size_plain_error("Llama 3 8B", 6.0) == pytest.approx(need.total / 6.0 - 1) and \
        F.qlora_size_plain_error("Llama 3 8B", 6.0) > 0.25
    # the 16-bit embedding and output head of Llama 3's 128k vocabulary: 2.1 GB of the 8B's need
    assert 2 * 128256 * 4096 * 2 / 1e9 == pytest.approx(2.1, abs=0.01)
