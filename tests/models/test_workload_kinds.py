"""Workload kinds declared once (models/workloads.py): every preset's kind is in the table and the
models read what the kind declares, not its name."""
from __future__ import annotations

from rigbuilder.models import perf
from rigbuilder.models.vram import strategies_for
from rigbuilder.models.workloads import (ENGINES, KINDS, STRATEGIES, WORKLOAD_KINDS, WORKLOADS, PRECISION_TABLE,
                                         TRAINING_PRECISIONS, workload)


def test_every_preset_is_of_a_declared_kind_that_says_what_it_provides():
    assert set(KINDS) == set(WORKLOAD_KINDS) == {w.kind for w in WORKLOADS.values()}
    for k in WORKLOAD_KINDS.values():
        assert k.curve in ("training", "decode") and set(k.split) <= set(STRATEGIES) - {"replicated"}
        assert k.precisions in ("all", "training", "")
        assert not (k.training and k.engines)  # an inference engine serves inference
    for w in WORKLOADS.values():
        assert w.training == w.kind_of.training
        assert perf.kind_of(w.kind) == w.kind_of.curve
        assert strategies_for(w, 1) == ["replicated"]
        if not (w.kind_of.engines and w.engine == "vllm"):
            assert strategies_for(w, 4) == ["replicated", *w.kind_of.split]
        if w.kind_of.precisions == "training":
            assert w.precision in TRAINING_PRECISIONS or w.id == "qlora"
        elif w.kind_of.precisions == "all":
            assert w.precision in PRECISION_TABLE


def test_the_kind_decides_which_options_a_workload_takes():
    assert workload("lora", tool="peft").tool == "peft"
    try:
        workload("cnn-training", tool="peft")
    except ValueError as e:
        assert "fine-tuning tool" in str(e)
    else:
        raise AssertionError("a CNN took a fine-tuning tool")
    assert workload("llm-inference", engine=ENGINES[1]).engine == ENGINES[1]
