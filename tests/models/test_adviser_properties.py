"""Properties of the adviser's memory and scaling models over random workloads."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rigbuilder.models import scaling as S
from rigbuilder.models import vram as V
from rigbuilder.models import workloads as W

LLM = st.sampled_from(W.LLM_WORKLOADS)
PARAMS = st.floats(min_value=1e8, max_value=5e11)


@settings(max_examples=80, deadline=None)
@given(wid=LLM, params=PARAMS, n=st.integers(1, 16), ctx=st.integers(1, 32768), batch=st.integers(1, 64))
def test_need_is_a_non_negative_breakdown_and_sharding_never_adds(wid, params, n, ctx, batch):
    wl = W.workload(wid, params, context=ctx, batch=batch)
    one = V.need(wl)
    assert all(v >= 0 for v in one.parts().values())
    assert abs(sum(one.parts().values()) - one.total) < 1e-9
    for strat in ("zero3", "tensor", "pipeline"):
        many = V.need(wl, n, strat)
        assert many.weights <= one.weights + 1e-9 and many.optimizer <= one.optimizer + 1e-9
        assert many.activations <= one.activations + 1e-9
    assert V.need(wl, n, "replicated").total == one.total


@settings(max_examples=60, deadline=None)
@given(wid=LLM, a=PARAMS, b=PARAMS)
def test_bigger_models_need_more(wid, a, b):
    small, big = sorted((a, b))
    assert V.need(W.workload(wid, small)).total <= V.need(W.workload(wid, big)).total + 1e-9


@settings(max_examples=80, deadline=None)
@given(wid=st.sampled_from(list(W.WORKLOADS)), n=st.integers(2, 16),
       widths=st.lists(st.sampled_from([0, 1, 2, 4, 8, 16]), min_size=1, max_size=8),
       gen=st.integers(1, 5), chipset=st.booleans(), riser=st.booleans())
def test_worse_links_never_scale_better(wid, n, widths, gen, chipset, riser):
    wl = W.workload(wid)
    good = [S.CardLink(i + 1, 16, 5) for i in range(len(widths))]  # the best link drawn: x16 Gen5 on the CPU
    links = [S.CardLink(i + 1, w, gen, "chipset" if chipset else "CPU", riser) for i, w in enumerate(widths)]
    e_good, e = S.efficiency(wl, n, good), S.efficiency(wl, n, links)
    assert 0 <= e <= e_good <= 1
