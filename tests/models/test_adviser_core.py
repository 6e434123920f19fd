"""The adviser's models: workloads, VRAM need, throughput (issue 17's "Done when" figures)."""
from __future__ import annotations

import math

import pytest

from rigbuilder.models import throughput as T
from rigbuilder.models import vram as V
from rigbuilder.models import workloads as W


@pytest.fixture(scope="module")
def gpus(shipped):
    return {p.id: p for p in shipped[0] if p.KIND == "gpu"}


def card(gpus, chip):
    return next(g for g in gpus.values() if g.chip_model == chip)


def test_presets_and_unknown_ids():
    for wid in ("cnn-training", "vit-training", "bert-training", "llm-inference", "llm-full-finetune",
                "lora", "qlora", "diffusion-inference"):
        assert W.workload(wid).id == wid
    for size in ("7B", "8B", "13B", "34B", "70B"):
        m = W.MODEL_PRESETS[W.SIZE_PRESETS[size]]
        assert m.layers and m.heads and m.kv_heads and m.hidden and m.vocab and m.source
    with pytest.raises(ValueError, match="unknown workload 'gpt'"):
        W.workload("gpt")
    with pytest.raises(ValueError, match="model size"):
        W.workload("cnn-training", 7e9)
    with pytest.raises(ValueError):
        W.workload("qlora", -5)
    with pytest.raises(ValueError):
        W.parse_params("lots")
    assert W.parse_params("70e9") == 70e9 and W.parse_params("7e9") == 7e9 and W.parse_params("350M") == 350e6
    assert W.parse_params("7B") == 6.74e9 and W.parse_params("70b") == 69.0e9  # the presets' own counts
    assert W.model_for(W.parse_params("7B")).name == "Llama 2 7B"


def test_custom_size_scales_the_nearest_shape():
    m = W.workload("lora", 20e9).model
    assert m.derived_from == "Llama 2 13B" and m.params == 20e9 and m.layers == 62
    assert W.workload("lora", 65.2e9).model.name == "LLaMA 65B"


def test_mixed_precision_adamw_is_16_bytes_per_parameter_before_activations():
    wl = W.workload("llm-full-finetune", 7e9)
    n = V.need(wl)
    per_param = (n.weights + n.gradients + n.optimizer) * 1e9 / wl.model.params
    assert per_param == pytest.approx(16.0)
    eight = V.need(W.workload("llm-full-finetune", 7e9, optimizer="adamw-8bit"))
    assert (eight.weights + eight.gradients + eight.optimizer) * 1e9 / 7e9 == pytest.approx(10.0)


def test_qlora_fits_65b_on_one_48gb_card(gpus):
    a6000 = gpus["gpu-nvidia-rtx-a6000"]
    wl = W.workload("qlora", 65.2e9)
    assert V.fits(V.need(wl), a6000)
    # ... and plain 16-bit LoRA of the same model does not
    assert not V.fits(V.need(W.workload("lora", 65.2e9)), a6000)


def test_7b_fp16_inference_needs_more_than_12gb_and_fits_24gb(gpus):
    n = V.need(W.workload("llm-inference", 7e9))
    assert not V.fits(n, gpus["gpu-nvidia-rtx-3080-ti-fe"])  # 12 GB
    assert V.fits(n, gpus["gpu-nvidia-rtx-3090-fe"])  # 24 GB


def test_sharding_divides_the_states():
    wl = W.workload("llm-full-finetune", 13e9)
    one, four = V.need(wl), V.need(wl, 4, "zero3")
    assert four.optimizer == pytest.approx(one.optimizer / 4)
    assert four.weights == pytest.approx(one.weights / 4)
    assert four.activations == pytest.approx(one.activations)
    rep = V.need(wl, 4, "replicated")
    assert rep.total == pytest.approx(one.total)
    tp = V.need(wl, 4, "tensor")
    assert tp.activations < one.activations
    with pytest.raises(ValueError):
        V.need(wl, 4, "magic")


def test_70b_qlora_on_four_24gb_cards_needs_sharding(gpus):
    wl = W.workload("qlora", 70e9)
    g = gpus["gpu-nvidia-rtx-3090-fe"]
    assert not V.fits(V.need(wl, 4, "replicated"), g)
    assert V.best_strategy(wl, g, 4)[0] == "zero3"


def test_kv_cache_formula():
    wl = W.workload("llm-inference", 8.03e9, context=8192, batch=2)
    m = wl.model
    assert V.need(wl).kv_cache * 1e9 == pytest.approx(2 * 32 * 8 * 128 * 8192 * 2 * 2)


def test_measured_ratios_are_reproduced_exactly(gpus):
    for key, b in T.BENCHMARKS.items():
        wl = {"resnet50": W.workload("cnn-training"), "bert-large": W.workload("bert-training"),
              "llama2-7b-f16": W.workload("llm-inference"),
              "llama2-7b-q4": W.workload("llm-inference", precision="int4")}[key]
        chips = [c for c in b.points if any(g.chip_model == c for g in gpus.values())]
        assert len(chips) >= 6
        ref = T.estimate(card(gpus, chips[0]), wl)
        assert ref.measured and ref.source == b.source and ref.typical_error is None
        for c in chips[1:]:
            t = T.estimate(card(gpus, c), wl)
            assert t.measured
            assert t.value / ref.value == b.points[c] / b.points[chips[0]]


def test_lambda_ratio_4090_over_3090(gpus):
    wl = W.workload("cnn-training")
    r = T.estimate(gpus["gpu-nvidia-rtx-4090-fe"], wl).value / T.estimate(gpus["gpu-nvidia-rtx-3090-fe"], wl).value
    assert r == 1301 / 905


def test_estimates_within_the_documented_error():
    """Each measured chip predicted without it: the mean error is the documented typical error, at
    least half the predictions lie within it, and none beyond the documented maximum."""
    for key in T.BENCHMARKS:
        loo = T.benchmark_loo(key)
        assert 0 < loo.mean_abs < 0.2
        errs = [abs(p / v - 1) for _, v, p in loo.per_chip]
        assert sum(errs) / len(errs) == pytest.approx(loo.mean_abs)
        assert sum(e <= loo.mean_abs for e in errs) >= len(errs) / 2
        assert max(errs) == loo.max_abs < 0.6
    errs = T.loo_errors()
    assert set(errs) >= {"cnn-training", "bert-training", "llm-inference", "qlora"}


def test_estimated_cards_say_so(gpus):
    t = T.estimate(gpus["gpu-nvidia-rtx-5090-fe"], W.workload("cnn-training"))
    assert not t.measured and t.typical_error and "typical error" in t.describe()
    assert t.value > T.estimate(gpus["gpu-nvidia-rtx-3090-fe"], W.workload("cnn-training")).value
    d = T.estimate(gpus["gpu-nvidia-rtx-4090-fe"], W.workload("diffusion-inference"))
    assert not d.measured and d.unit == "x RTX 3090"
    pascal = T.estimate(gpus["gpu-nvidia-gtx-1080-ti-fe"], W.workload("bert-training"))
    assert 0 < pascal.value < 52


def test_scaled_workloads(gpus):
    g = gpus["gpu-nvidia-rtx-3090-fe"]
    big = T.estimate(g, W.workload("llm-inference", 13e9))
    small = T.estimate(g, W.workload("llm-inference"))
    assert big.basis == "scaled" and big.value == pytest.approx(small.value * 6.74 / 13.0)
    lora, full = T.estimate(g, W.workload("lora")), T.estimate(g, W.workload("llm-full-finetune"))
    assert lora.value / full.value == pytest.approx(8 / 6)


def test_vectorised_estimates_match(gpus):
    pytest.importorskip("numpy")
    cards = list(gpus.values())
    for wid in W.WORKLOADS:
        wl = W.workload(wid)
        vals, meas = T.estimate_many([(g.chip_model, *T.card_specs(g)) for g in cards], wl)
        for g, v, m in zip(cards, vals, meas):
            t = T.estimate(g, wl)
            assert v == pytest.approx(t.value, rel=1e-12) and bool(m) == t.measured


def test_docs_state_the_leave_one_out_errors():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "models.md").read_text(encoding="utf-8")
    for key in T.BENCHMARKS:
        loo = T.benchmark_loo(key)
        assert f"{loo.mean_abs:.1%}" in text and f"{loo.max_abs:.1%}" in text
