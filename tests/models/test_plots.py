"""What the power and cost panel shows, described without Qt (issue 23): the description agrees with
the models it comes from, flags the efficiency curve's extrapolated pieces as the power model
does, and starts each power-limit slider at the floor declared in ``domain.fields``."""
from __future__ import annotations

import math

import pytest

from rigbuilder.domain import fields as F
from rigbuilder.domain.build import Build
from rigbuilder.domain.i18n import T, render
from rigbuilder.models import cost as cost_model
from rigbuilder.models import plots
from rigbuilder.models import power as power_model
from rigbuilder.models import renting
from rigbuilder.rules.context import Context
from tests.builds import RTX3090_FE, frank_2070, x99_4x3090


@pytest.fixture
def four(index):
    """Seed 001's 4 x RTX 3090 (350 W), GPU 4 limited to 280 W."""
    b = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    b.gpus[3].power_limit_w = 280.0
    ctx = Context(b, index)
    return ctx, plots.describe(ctx, 3)


def test_bars_lines_and_wall_are_the_power_models(four):
    ctx, d = four
    rep = ctx.power
    assert d.report is rep
    assert [b.kind for b in d.power.bars] == list(plots.KINDS)
    base = [0.0, 0.0, 0.0]
    for b in d.power.bars:
        assert b.heights == tuple(rep.share(b.kind, s) for s in power_model.STATES)
        assert b.bottoms == pytest.approx(tuple(base))  # each kind on the kinds below it
        base = [x + h for x, h in zip(base, b.heights)]
    assert base == pytest.approx([rep.dc[s] for s in power_model.STATES])
    assert d.power.heights("gpu") == (60.0, 1330.0, 1330.0)  # 4 x 15 W idle (estimate); 3 x 350 + 280 W
    assert d.power.wall == tuple(rep.wall[s] for s in power_model.STATES)
    circuit = ctx.build.settings.circuit_w()
    assert [(x.key, x.watts, x.shown) for x in d.power.lines] == [
        ("rating", 1600.0, True), ("rating80", 1280.0, True), ("circuit", circuit, True)]
    assert [str(x.label) for x in d.power.lines] == ["PSU 1600 W", "80%: 1280 W", f"circuit {circuit:.0f} W"]
    assert d.power.y_top >= max(max(d.power.wall), 1600.0, circuit)
    head = d.readout(1).head
    assert str(head) == f"training: {rep.dc['training']:.0f} W DC, {rep.wall['training']:.0f} W at the wall"
    assert "GPU: 1330 W" in d.readout(1).shares


def test_cost_lines_are_the_cost_and_renting_models(four, index):
    ctx, d = four
    cr = cost_model.cost_report(ctx.power, ctx.build, index, ctx.build.settings, 3.0)
    xs, ys = cost_model.cumulative(cr.purchase.total, cr.running.cost_per_month, 36)
    assert d.cost.own.xs == tuple(xs) and d.cost.own.ys == pytest.approx(ys)
    assert [s.key for s in d.cost.scenarios] == [sc.key for sc in cr.scenarios]
    for s, sc in zip(d.cost.scenarios, cr.scenarios):
        assert s.ys == pytest.approx(cost_model.cumulative(cr.purchase.total, sc.running.cost_per_month, 36)[1])
    shipped, error = renting.shipped_cloud_prices()
    assert error == "" and shipped
    be, why = renting.for_usage([g.gpu for g in ctx.gpus], cr.purchase.total, cr.running,
                                typed=None, shipped=shipped, rates=index.prices.rates)
    assert be is not None, why
    s = ctx.build.settings
    assert d.cost.rent.ys == pytest.approx(be.rent_by_month(36, s.load_hours_per_day, s.days_per_month)[1])
    month = be.months_at(s.load_hours_per_day, s.days_per_month)
    assert 1 < month < 36
    assert d.cost.break_even == pytest.approx((month, be.own_cost(month * s.load_hours_per_day * s.days_per_month)))
    assert str(d.cost.verdict) == f"buying beats renting after at least {month:,.0f} months"  # unpriced parts
    assert "RunPod" in d.cost.rent.label and any("GPU-hour" in n for n in d.cost.rent_notes)
    assert d.cost.y_top >= max(d.cost.own.ys[-1], *(x.ys[-1] for x in d.cost.scenarios))
    assert d.costs.tco == pytest.approx(cr.tco)


def test_the_efficiency_curve_is_in_pieces_flagged_as_the_model_flags_them(four):
    ctx, d = four
    e = d.efficiency
    level, table = ctx.psus[0].efficiency, ctx.build.settings.region_info().efficiency_table
    assert e.level == level and e.table == table
    pts = power_model.EFFICIENCY_POINTS[table][level]
    assert e.certified == tuple((100 * x, 100 * y) for x, y in pts)
    # below the first published point and above the last: extrapolated; between: certified
    assert [p.extrapolated for p in e.pieces] == [True, False, True]
    for p in e.pieces:
        assert p.ys == pytest.approx([100 * power_model.efficiency(level, table, x / 100)[0] for x in p.xs])
        inner = p.xs[1:-1] if p.extrapolated else p.xs
        assert all(power_model.efficiency(level, table, x / 100)[1] == p.extrapolated for x in inner)
    low, solid, high = e.pieces
    # each dashed piece shares its end point with the solid one: the curve reads as one line
    assert low.xs[-1] == solid.xs[0] and high.xs[0] == solid.xs[-1]
    assert low.xs[0] == 0 and high.xs[-1] == e.x_range[1]
    assert 100 * pts[0][0] <= solid.xs[0] < 100 * pts[0][0] + 1 and 100 * pts[-1][0] - 1 < solid.xs[-1] <= 100
    rep = ctx.power
    assert [(p.state, p.x, p.y) for p in e.points] == [
        (s, 100 * rep.load_fraction(s), 100 * rep.efficiency[s]) for s in power_model.STATES]
    assert e.x_range[1] >= 100 * 1.08 * rep.load_fraction("peak")


def test_sliders_start_at_the_declared_floor(four):
    _ctx, d = four
    rows = d.controls.limits
    assert [(r.index, r.num, r.lo, r.hi, r.value) for r in rows] == [
        (i, i + 1, F.power_limit_floor_w(350), 350, 280 if i == 3 else 350) for i in range(4)]
    assert rows[0].lo == math.ceil(F.POWER_LIMIT_FLOOR * 350) == 175
    assert str(rows[0].label) == "GPU 1: 350 W (no limit)"
    assert str(rows[3].label) == "GPU 4: 280 W (80%, ~96% speed)"
    # what the slider stores at its right end is no limit, as the field table says
    assert F.limit_for(rows[0].hi, rows[0].board_w) is None and F.limit_for(rows[3].value, 350) == 280


def test_the_controls_show_the_settings(four):
    ctx, d = four
    s, c = ctx.build.settings, d.controls
    assert (c.region, c.price_per_kwh, c.currency, c.budget, c.rent_per_gpu_hour) == (
        s.region, s.price_per_kwh, s.currency, s.budget, s.rent_per_gpu_hour)
    assert c.load_hours_max == F.HOURS_A_DAY - s.idle_hours_per_day  # load plus idle fill at most a day
    assert c.currency in c.currencies


def test_every_label_is_a_translatable_text_rendered_in_the_language(four):
    _ctx, d = four
    texts = [d.power.title, d.efficiency.title, d.cost.title, d.cost.verdict, d.cost.y_label,
             *(x.label for x in d.power.lines), *(b.label for b in d.power.bars), *(p.label for p in d.efficiency.points),
             *d.figures, *(r.label for r in d.controls.limits)]
    assert all(isinstance(t, T) for t in texts)
    de = render(d.cost.verdict, "de")
    assert "Monat" in de and de != str(d.cost.verdict)
    assert render(d.power.title, "de") != str(d.power.title)
    assert render(d.controls.limits[3].label, "de") != str(d.controls.limits[3].label)


def test_axes_stay_for_small_changes_and_shrink_below_half(index):
    b = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    first = plots.describe(Context(b, index))
    b.gpus[0].power_limit_w = 300.0  # a little less power: the axis stays
    second = plots.describe(Context(b, index), before=first)
    assert second.power.y_top == first.power.y_top and second.power.bars != first.power.bars
    # a quarter of the cards, no PSU, on a circuit far above the scale: less than half, the axis comes down
    b.gpus, b.psus, b.settings.region = b.gpus[:1], [], "EU-16A"
    third = plots.describe(Context(b, index), before=second)
    assert third.power.y_top < 0.5 * second.power.y_top
    assert not third.power.line("circuit").shown and "above the scale" in third.power.title
    assert plots.sticky_top(None, 1700) == 2000 and plots.sticky_top(2000, 1100) == 2000
    assert plots.sticky_top(2000, 900) == 1000


def test_a_description_equals_one_of_the_same_build(index):
    """The window draws again only what differs: equal builds give equal descriptions, and a price
    per kWh changes the cost plot and the figures, not the power plot."""
    b = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    d1 = plots.describe(Context(b, index))
    assert plots.describe(Context(b.clone(), index)) == d1
    b.settings.price_per_kwh *= 2
    d2 = plots.describe(Context(b, index), before=d1)
    assert d2.power == d1.power and d2.efficiency == d1.efficiency
    assert d2.cost != d1.cost and d2.figures != d1.figures


def test_no_psu_and_an_empty_build(index):
    b = frank_2070()
    b.psus = []
    d = plots.describe(Context(b, index))
    assert d.efficiency.level is None and d.efficiency.pieces == () and d.efficiency.points == ()
    assert not d.power.line("rating").shown and str(d.power.line("rating").label) == "PSU: none chosen"
    assert str(d.efficiency.title) == "PSU efficiency: no PSU chosen"
    e = plots.describe(Context(Build(), index))
    assert e.empty and e.figures == (plots.EMPTY_FIGURES,) and e.controls.limits == ()


def test_no_rental_price_says_why(index):
    d = plots.describe(Context(frank_2070(), index))
    assert d.cost.rent is None and d.cost.break_even is None and not d.cost.verdict
    assert "no published rental price for GeForce RTX 2070" in d.rent_missing
    assert any(str(x).startswith("Against renting: no published rental price") for x in d.figures)


@pytest.mark.parametrize("lang", ["de", "fr", "ja", "zh_CN"])
def test_the_plots_texts_hold_no_english_in_a_translated_door(four, lang):
    from tests.test_no_english import WORD

    _ctx, d = four
    r = d.readout(2)
    texts = [d.power.title, d.efficiency.title, d.cost.title, d.cost.verdict, d.cost.y_label, d.cost.own.label,
             *(x.label for x in d.power.lines), *(b.label for b in d.power.bars), *d.power.state_labels,
             *(p.label for p in d.efficiency.points), *(s.label for s in d.cost.scenarios),
             *(x.label for x in d.controls.limits), r.head, *r.shares, *r.tail]
    for t in texts:
        shown = render(t, lang)
        assert not WORD.search(shown), (lang, str(t), shown)


def test_the_power_shares_are_the_kinds_that_draw_power_in_bill_order(four):
    """The chart's shares come from ``domain.kinds`` (issue 36): the kinds that draw power, in the
    bill's order, named by their labels; a power supply and a riser draw none of their own."""
    from rigbuilder.domain import kinds

    assert plots.KINDS == tuple(k.name for k in sorted(kinds.KINDS, key=lambda k: k.bill) if k.draws)
    assert "psu" not in plots.KINDS and "riser" not in plots.KINDS
    assert plots.KIND_LABELS == {k: kinds.kind(k).label for k in plots.KINDS}
    ctx, _d = four
    assert {c.kind for c in ctx.power.components} <= set(plots.KINDS)  # every watt the model counts is drawn


def test_a_new_kind_that_draws_power_is_a_share_of_the_chart_without_another_edit(four):
    """Adding a kind to the table (a pump, between the cooler and the memory in the bill) gives the
    power chart a bar and a readout line for it, labelled as the table labels it."""
    import dataclasses

    from rigbuilder.domain import kinds

    ctx, _d = four
    pump = dataclasses.replace(kinds.kind("cooler"), name="pump", label="Pump", bill=2, draws=True)
    table = kinds.drawing(kinds.KINDS + (pump,))
    assert [k.name for k in table].index("pump") == [k.name for k in table].index("cooler") + 1
    comps = list(ctx.power.components) + [power_model.Component("D5 pump", "pump", {"idle": 20, "training": 23,
                                                                                   "peak": 23}, False, "datasheet")]
    rep = power_model.report(comps, list(ctx.psus), "230V")
    bars = plots._power(rep, 3680, None, table)
    got = next(b for b in bars.bars if b.kind == "pump")
    assert got.heights == (20, 23, 23) and render(got.label, "en") == "Pump"
    assert bars.bars[-1].bottoms[1] + bars.bars[-1].heights[1] == pytest.approx(rep.dc["training"])
    assert "Pump: 23 W" in [str(t) for t in plots.readout(rep, "training", table).shares]
