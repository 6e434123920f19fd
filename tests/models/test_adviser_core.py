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


def test_7b_fp16_inference_needs_more_than_12gb_and_fits_16gb(gpus):
    n = V.need(W.workload("llm-inference", 7e9))
    assert not V.fits(n, gpus["gpu-nvidia-rtx-3080-ti-fe"])  # 12 GB
    assert V.fits(n, gpus["gpu-nvidia-rtx-3090-fe"])  # 24 GB
    assert V.fits(V.need(W.workload("llm-inference", 6.74e9)), card(gpus, "GeForce RTX 4080"))  # 16 GB


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
    assert V.need(wl).kv_cache * 1e9 == pytest.approx(2 * 32 * 8 * 128 * 8192 * 2 * 2)


def test_measured_ratios_are_reproduced_exactly(gpus):
    for key, b in T.BENCHMARKS.items():
        wl = {"resnet50": W.workload("cnn-training"), "bert-large": W.workload("bert-training")}[key]
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


def test_bands_come_from_the_leave_one_out_of_the_data():
    """The band is each point predicted by a fit without it, corrected for the fits' mean lean, then
    averaged: recomputed here from the fits themselves, not read from a typed-in figure."""
    import math

    for key, b in T.BENCHMARKS.items():
        rows = [(c, v, T.fit_for(key, c).predict(*b.specs[c])) for c, v in b.points.items()]
        bias = math.exp(sum(math.log(p / v) for _, v, p in rows) / len(rows))
        band = sum(abs(p / bias / v - 1) for _, v, p in rows) / len(rows)
        loo = T.benchmark_loo(key)
        assert loo.bias == pytest.approx(bias) and loo.mean_abs == pytest.approx(band)
        assert 0 < loo.mean_abs < 0.2 and loo.max_abs < 0.6
        # corrected: the leave-one-out predictions no longer lean to one side on average
        assert abs(sum(math.log(p / v) for _, v, p in loo.per_point)) < 1e-9
    d = T.decode_loo()
    assert d.n == len(T.DECODE_POINTS) >= 40 and 0 < d.mean_abs < 0.12
    errs = T.loo_errors()
    assert errs["llm-inference"] == T.engine_band("llama.cpp").band and errs["cnn-training"] == T.training_band("resnet50")


def test_token_generation_validated_up_to_70b():
    """The bandwidth-per-token model predicts every 70B point (fitted without it) within 35%, and the
    several-card 70B runs within 10%."""
    for p, (_, v, pred) in zip(T.DECODE_POINTS, T.decode_loo().per_point):
        if "70B" in p.model:
            assert abs(pred / v - 1) < 0.35, p
            if p.n_cards > 1:
                assert abs(pred / v - 1) < 0.10, p


def test_decode_formula_by_hand():
    """Seconds per token = inv_e[class] x bytes / B + k x layers + h x (cards - 1), divided by the bias."""
    f, band = T.decode_fit(), T.decode_loo()
    wl = W.workload("llm-inference", model="Llama 3 70B", precision="q4_k_m", context=512)
    m = wl.model
    bytes_tok = (m.params - 2 * m.vocab * m.hidden) * 4.89 / 8 + m.vocab * m.hidden * 4.89 / 8 \
        + 2 * 80 * 8 * 128 * 2 * 512 / 2
    assert T.bytes_per_token(wl) == pytest.approx(bytes_tok)
    secs = f.inv_e("gddr") * bytes_tok / 1008e9 + f.k * 80 + f.h * 1
    assert T.decode_rate(wl, 1008.0, 2) == pytest.approx(1 / secs / band.bias)
    secs = f.inv_e("hbm") * bytes_tok / 1008e9 + f.k * 80 + f.h * 1
    assert T.decode_rate(wl, 1008.0, 2, cls="hbm") == pytest.approx(1 / secs / band.bias)
    assert all(0.5 < f.efficiency(c) <= 1.2 for c in T.MEMORY_CLASSES)


def test_estimated_cards_say_so(gpus):
    t = T.estimate(gpus["gpu-nvidia-rtx-5090-fe"], W.workload("cnn-training"))
    assert not t.measured and t.typical_error and "held out of the fit" in t.describe()
    assert t.typical_error == T.training_band("resnet50") and t.held_out_band
    lo, hi = t.band
    assert lo < t.value < hi and hi / t.value - 1 == pytest.approx(t.typical_error)
    assert t.value > T.estimate(gpus["gpu-nvidia-rtx-3090-fe"], W.workload("cnn-training")).value
    d = T.estimate(gpus["gpu-nvidia-rtx-4090-fe"], W.workload("diffusion-inference"))
    assert not d.measured and d.unit == "x RTX 3090"
    pascal = T.estimate(gpus["gpu-nvidia-gtx-1080-ti-fe"], W.workload("bert-training"))
    assert 0 < pascal.value < 52


def test_large_model_inference_is_an_estimate_with_a_band(gpus):
    g = gpus["gpu-nvidia-rtx-3090-fe"]
    big = T.estimate(g, W.workload("llm-inference", 13e9))
    small = T.estimate(g, W.workload("llm-inference"))
    assert small.measured and small.value == 51.85
    assert big.basis == "estimated" and big.typical_error == T.engine_band("llama.cpp").band and big.held_out_band
    assert big.value < small.value * 6.74 / 13.0 * 1.1
    lora, full = T.estimate(g, W.workload("lora")), T.estimate(g, W.workload("llm-full-finetune"))
    assert lora.value / full.value == pytest.approx(8 / 6)


def test_vectorised_estimates_match(gpus):
    pytest.importorskip("numpy")
    cards = list(gpus.values())
    ratios = T.TensorRatios(cards)
    for wid in W.WORKLOADS:
        wl = W.workload(wid)
        key = T.basis(wl)
        pts = {p.chip for p in T.DECODE_POINTS} if key == "llama.cpp-decode" else T.BENCHMARKS[key].points
        src = [T.measured_chip(g, pts, ratios) for g in cards]
        vals, meas = T.estimate_many([(g.chip_model, *T.card_specs(g, ratios), T.memory_class(g)) for g in cards],
                                     wl, src)
        for g, v, m in zip(cards, vals, meas):
            t = T.estimate(g, wl, ratios)
            assert v == pytest.approx(t.value, rel=1e-12) and bool(m) == t.measured


def test_no_nvidia_card_since_volta_runs_on_fp32_alone(gpus):
    ratios = T.TensorRatios(gpus.values())
    n = 0
    for g in gpus.values():
        if g.vendor == "NVIDIA" and g.architecture in T.TENSOR_ARCHITECTURES and g.chip not in T.NO_TENSOR_DIES:
            t, _ = T.card_specs(g, ratios)
            assert g.fp32_tflops and t >= 1.9 * g.fp32_tflops, g.id
            n += 1
    assert n > 1000
    # a row without a tensor figure takes its chip's: the RTX 6000 Ada rows are equal
    rows = [g for g in gpus.values() if g.chip_model == "RTX 6000 Ada Generation"]
    assert {T.card_specs(g, ratios)[0] for g in rows} == {364.2}


def test_same_chip_memory_and_clocks_give_the_same_figure(gpus):
    """Walk the catalog: cards with equal die, memory type, bandwidth, FP32 and (inherited) tensor
    throughput get equal figures on every workload, measured or not."""
    import collections

    ratios = T.TensorRatios(gpus.values())
    groups = collections.defaultdict(list)
    for g in gpus.values():
        groups[(g.vendor, g.chip, g.memory_type, g.bandwidth_gbs, g.fp32_tflops,
                round(T.card_specs(g, ratios)[0], 6))].append(g)
    multi = [v for v in groups.values() if len(v) > 1]
    assert len(multi) > 50
    for wid in ("cnn-training", "bert-training", "llm-inference", "lora"):
        wl = W.workload(wid)
        for v in multi:
            vals = [T.estimate(g, wl, ratios).value for g in v]
            assert max(vals) == pytest.approx(min(vals), rel=1e-9), [g.id for g in v]
    q6000, q8000 = gpus["gpu-nvidia-quadro-rtx-6000"], gpus["gpu-nvidia-quadro-rtx-8000"]
    wl = W.workload("cnn-training")
    assert T.estimate(q6000, wl, ratios).value == T.estimate(q8000, wl, ratios).value == 651


def test_docs_state_the_leave_one_out_errors():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "models.md").read_text(encoding="utf-8")
    for key in T.BENCHMARKS:
        loo = T.benchmark_loo(key)
        assert f"{loo.mean_abs:.1%}" in text and f"{loo.max_abs:.1%}" in text
    d = T.decode_loo()
    assert f"{d.mean_abs:.1%}" in text and f"{d.max_abs:.1%}" in text


def test_vllm_tensor_parallel_reads_a_share_per_card_and_says_its_error_is_unknown(gpus):
    g = gpus["gpu-nvidia-rtx-3090-fe"]
    wl = W.workload("llm-inference", 69e9, precision="awq-4bit-g128", engine="vllm")
    pipe = T.estimate(g, wl, n_cards=4)
    tp = T.estimate(g, wl, n_cards=4, tensor_parallel=True)
    f = T.engine_fit("vllm")
    secs = f.inv_e("gddr") * T.bytes_per_token(wl) / 4 / (936.2e9) + f.k * 80
    assert tp.value == pytest.approx(1 / secs) and tp.value > 2.5 * pipe.value
    assert tp.typical_error is None and "not modelled" in tp.note
    assert pipe.typical_error == T.engine_band("vllm").band
