"""The cost graph against renting (issue 29): the cumulative rent of the same GPUs for the same
hours of use, from the core renting model the comparison uses, with the break-even month marked
and labelled, the price's provider and age named, and a rent price of the build's own that is an
undoable edit."""
from __future__ import annotations

import pytest

from rigbuilder.models import renting
from rigbuilder.ui.graphs import PowerCostPanel
from tests.builds import RTX3090_FE, x99_4x3090

HOURS_A_MONTH = 8.0 * 30.0  # seed 001's build: 8 h under load a day, 30 days a month


def core_break_even(p: PowerCostPanel) -> renting.BreakEven:
    """The core model's answer for the panel's build, asked directly (as the comparison asks it)."""
    cr = p.cost
    be, why = renting.for_usage([g.gpu for g in p.context.gpus], cr.purchase.total, cr.running,
                                typed=renting.typed_price(p.context.build.settings),
                                shipped=renting.load_cloud_prices(), rates=p.context.index.prices.rates)
    assert be is not None, why
    return be


def test_rent_line_is_the_core_models_cumulative_rent(loop):
    p = loop.panel
    xs, ys = p.rent_curve.getData()
    assert p.rent_curve.isVisible() and len(xs) == 37  # months 0..36 over the 3-year horizon
    be = core_break_even(p)
    for month in (12, 36):
        assert ys[month] == pytest.approx(be.rent_cost(month * HOURS_A_MONTH))
    # by hand: RunPod's 0.39 USD per RTX 3090-hour, the cheapest shipped example; the build is in USD
    assert ys[12] == pytest.approx(4 * 0.39 * 12 * HOURS_A_MONTH)
    assert ys[0] == 0.0


def test_break_even_is_marked_where_the_core_model_says(loop):
    p = loop.panel
    be = core_break_even(p)
    months = be.hours / HOURS_A_MONTH
    assert 1 < months < 36
    mx, my = p.rent_mark.pos().x(), p.rent_mark.pos().y()
    assert p.rent_at.value() == pytest.approx(months)
    assert p.rent_mark.isVisible() and mx == pytest.approx(months)
    # the mark sits where the two lines cross: owning's curve (purchase + energy, idle included)
    # equals the rent there, both read off the plotted lines
    xs, own = p.cost_curve.getData()
    _, rent = p.rent_curve.getData()
    lo = int(months)
    own_at = own[lo] + (months - lo) * (own[lo + 1] - own[lo])
    rent_at = rent[lo] + (months - lo) * (rent[lo + 1] - rent[lo])
    assert own_at == pytest.approx(rent_at, rel=1e-9) and my == pytest.approx(own_at, rel=1e-9)
    # two parts of the build are unpriced: buying wins "after at least" that month
    assert p.rent_text.isVisible()
    assert p.rent_text.toPlainText() == f"buying beats renting after at least {months:,.0f} months"


def test_the_price_says_whose_it_is_and_that_it_is_stale(loop):
    p = loop.panel
    label = p.scenario_labels["rent"].text
    assert "rent" in p._scenarios_in_legend and "RunPod, 2026-03" in label and "stale" in label
    tip = p.rent_curve.toolTip()
    assert "RunPod, on-demand, 2026-03 (" in tip and "months old, stale): Deploybase" in tip
    assert "0.39 USD per GPU-hour" in tip
    box = p.rent_price.toolTip()
    assert box.startswith("<p>Cloud price per GPU-hour") and tip.removeprefix("<p>") in box
    text = p.figures.text()
    assert "Against renting, at least (unpriced parts not counted): owning beats renting after" in text
    assert "rent 0.39 USD per GPU-hour, RunPod, 2026-03 (" in text


def test_your_own_price_per_gpu_hour(loop):
    p = loop.panel
    p.rent_price.setValue(1.5)
    assert loop.build.settings.rent_per_gpu_hour == 1.5
    _, ys = p.rent_curve.getData()
    assert ys[12] == pytest.approx(4 * 1.5 * 12 * HOURS_A_MONTH)
    assert p.scenario_labels["rent"].text == "renting at your price"
    assert p.rent_price.suffix() == " USD"
    p.rent_price.setValue(0)  # back to the published example
    assert loop.build.settings.rent_per_gpu_hour is None
    assert p.rent_price.text() == "published example"
    assert p.rent_curve.getData()[1][12] == pytest.approx(4 * 0.39 * 12 * HOURS_A_MONTH)


def test_renting_cheaper_than_the_energy_or_over_the_horizon(loop):
    p = loop.panel
    p.rent_price.setValue(0.05)  # 4 x 0.05 USD an hour: less than the 4 cards' energy
    assert not p.rent_mark.isVisible() and p.rent_text.isVisible()
    assert p.rent_text.toPlainText() == "renting stays cheaper: its price per hour is below the build's energy"
    p.rent_price.setValue(0.16)  # (the cards' used prices: their launch prices are no new prices now)
    be = core_break_even(p)
    months = be.hours / HOURS_A_MONTH
    assert months > 36  # beyond the 3-year horizon
    assert not p.rent_mark.isVisible()
    assert p.rent_text.toPlainText() == (
        f"renting stays cheaper over the horizon (buying beats it after {months:,.0f} months)")


def test_no_gpu_no_rent_line(qtbot, index):
    from tests.builds import frank_2070

    p = PowerCostPanel()
    qtbot.addWidget(p)
    b = frank_2070()
    p.show_build(b, index)
    assert "RTX 2070" in p.context.gpus[0].gpu.chip_model
    # no published rental price for an RTX 2070: the figures say so and ask for one
    assert not p.rent_curve.isVisible() and "rent" not in p._scenarios_in_legend and not p.rent_text.isVisible()
    assert "Against renting: no published rental price for GeForce RTX 2070: type one" in p.figures.text()
    b.settings.rent_per_gpu_hour = 0.2
    p.show_build(b, index)
    assert p.rent_curve.isVisible() and p.rent_text.isVisible()


def test_rent_price_is_one_undoable_edit_and_follows_the_currency(make_window, index):
    win = make_window(x99_4x3090(limit_w=None, gpu=RTX3090_FE))
    win.graphs_loader.load()
    g = win.graphs
    g.rent_price.setValue(2.0)
    assert win.doc.build.settings.rent_per_gpu_hour == 2.0
    assert win.doc.undo_stack.undoText() == "Change rent per GPU-hour"
    win.edits.edit_settings({"currency": "EUR"})
    r = index.prices.rates.rate("USD", "EUR")
    assert win.doc.build.settings.rent_per_gpu_hour == pytest.approx(2.0 * r, abs=1e-4)
    assert g.rent_price.suffix() == " EUR"
    win.act_undo.trigger()
    win.act_undo.trigger()
    assert win.doc.build.settings.rent_per_gpu_hour is None and g.rent_price.text() == "published example"


def test_verdict_and_legend_in_german(qtbot, index):
    from rigbuilder.ui.i18n import ui_language_set

    with ui_language_set("de"):
        p = PowerCostPanel()
        qtbot.addWidget(p)
        p.resize(1100, 900)
        p.show()
        p.show_build(x99_4x3090(limit_w=None, gpu=RTX3090_FE), index)
        verdict = p.rent_text.toPlainText()
        legend = p.scenario_labels["rent"].text
    assert "Monat" in verdict and "buying" not in verdict
    assert "Miete" in legend and "veraltet" in legend


def test_dark_theme_redraws_the_rent_line_readably(loop, qapp):
    from rigbuilder.ui import theme

    p = loop.panel
    try:
        theme.apply(qapp, "dark")
        color = p.rent_curve.opts["pen"].color().name()
        assert color == "#4dd0e1" and theme.contrast_ratio(color, theme.DARK.background) >= 3
        assert p.rent_text.fill.color().name() == theme.DARK.hover_fill
    finally:
        theme.apply(qapp, "light")
    assert p.rent_curve.opts["pen"].color().name() == "#0f8b9c"
    assert theme.contrast_ratio("#0f8b9c", theme.LIGHT.background) >= 3


def test_nothing_priced_no_break_even_claimed(qtbot, index):
    """With no part priced the purchase reads 0: no "buying beats renting after 0 hours"."""
    import dataclasses

    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.domain.money import PriceBook

    bare = PartIndex([dataclasses.replace(p, price=None) for p in index], version="bare",
                     prices=PriceBook.of([], index.prices.rates))
    p = PowerCostPanel()
    qtbot.addWidget(p)
    b = x99_4x3090(limit_w=None, gpu=RTX3090_FE)
    p.show_build(b, bare)
    assert p.cost.purchase.total == 0 and p.rent_curve.isVisible()  # renting is still drawn
    assert p.rent_text.toPlainText() == "buying against renting: unknown until the parts have prices"
    assert not p.rent_mark.isVisible()
    assert "Against renting: buying against renting: unknown until the parts have prices" in p.figures.text()
