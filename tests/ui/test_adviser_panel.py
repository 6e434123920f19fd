"""The Adviser panel: the scatter shows the models' figures, measured apart from estimated; filters;
hover text with sources; the VRAM bar; dragging a point places the card on the board."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from rigbuilder.domain.build import Settings
from rigbuilder.models import adviser as A
from rigbuilder.models import throughput as T
from rigbuilder.models import workloads as W
from rigbuilder.ui.boardview import PART_MIME
from tests.builds import frank_2070
from tests.ui.test_main_window import drag_drop, slot_point


@pytest.fixture
def panel(qtbot, index):
    from rigbuilder.ui.adviser_panel import AdviserPanel

    p = AdviserPanel(index, Settings(currency="USD"))
    qtbot.addWidget(p)
    p.resize(760, 860)
    p.show()
    qtbot.waitExposed(p)
    return p


def test_points_are_the_models_figures_and_measured_apart(panel, index):
    panel.set_workload("cnn-training")
    wl = W.workload("cnn-training")
    meas, est = panel.shown("measured"), panel.shown("estimated")
    assert meas and est and not meas & est
    for i in meas | est:
        g = panel.table.gpus[i]
        t = T.estimate(g, wl)
        assert t.measured == (i in meas)
    # y is the model's throughput, x the price (log10 on the axis)
    spots = [s for (k, _), it in panel.items.items() if k == "measured" for s in it.points()]
    assert len(spots) == len(meas)
    for spot in spots:
        i = int(spot.data())
        g = panel.table.gpus[i]
        assert spot.pos().y() == pytest.approx(T.estimate(g, wl).value)
        assert spot.pos().x() == pytest.approx(np.log10(panel._x[i]))
    # colour = cooler: every point sits in the item of its card's cooler
    for (k, cooler), it in panel.items.items():
        assert all(panel.table.coolers[int(d)] == cooler for d in it.data["data"])
    pi = panel.plot.getPlotItem()
    assert "images/s" in pi.getAxis("left").labelText and "USD" in pi.getAxis("bottom").labelText
    err = round(100 * T.training_band("resnet50"))
    assert f"within {err}% for 80% of published cases" in panel.caption.text()
    # every estimate shown carries its band: an error bar of +-err around the point
    opts = panel.band_item.opts
    assert len(opts["x"]) == len(est) and np.allclose(opts["height"], 2 * T.training_band("resnet50") * opts["y"])


def test_fine_tuning_shows_scaled_points_and_the_filter(panel):
    # 13B: the 48 GB cards a 70B QLoRA needs (RTX 6000 Ada, A6000) have only launch prices, no new prices now
    panel.set_workload("qlora", "13B")
    fits = panel.shown()
    assert fits and all(panel.fig.fits_n[i] for i in fits)
    assert panel.shown("scaled")  # BERT-large measured, turned into tokens
    assert "tokens/s" in panel.plot.getPlotItem().getAxis("left").labelText
    panel.set_filter_fits(False)
    more = panel.shown()
    assert len(more) > len(fits)
    panel.set_workload("qlora", "70B", 4)
    assert "4 cards" in panel.plot.getPlotItem().getAxis("bottom").labelText


def test_hover_text_cites_sources_and_the_bar_shows_the_breakdown(panel, index):
    panel.set_workload("cnn-training")
    i = panel.table.ids.index("gpu-nvidia-rtx-4090-fe")
    text = panel.describe(i)
    assert "measured (Lambda" in text and "price:" in text
    panel.choose(i)
    need = panel.fig.need_n["replicated"]
    assert panel.bar_items["activations"].opts["width"][0] == pytest.approx(need.activations)
    assert panel.card_line.value() == pytest.approx(24 * 2 ** 30 / 1e9)
    j = panel.table.ids.index("gpu-evga-rtx-3090-ftw3-ultra")
    assert "layout unverified: slot width" in panel.describe(j)


def test_hovering_a_point_shows_its_figures_and_sources(panel):
    panel.set_workload("cnn-training")
    i = panel.table.ids.index("gpu-nvidia-rtx-4090-fe")
    picked = panel.card_at_view(panel.view_pos_of(i))
    panel._hover(panel.plot.mapToScene(panel.view_pos_of(i)))
    tip = panel.plot.toolTip()
    assert panel.table.gpus[picked].name in tip and "Lambda" in tip and "price:" in tip
    panel._hover(panel.plot.mapToScene(QPoint(2, 2)))  # empty corner: no tip
    assert panel.plot.toolTip() == ""


def test_best_list_says_when_layout_is_unverified(panel):
    panel.set_workload("cnn-training")
    assert "Fastest that hold it" in panel.best.text()
    shown = [i for i in np.flatnonzero(panel._shown) if panel.table.caveats[i]]
    assert shown  # partner cards with unverified slot widths are on the plot


def test_pressing_a_point_and_moving_starts_a_drag_with_the_part_id(panel, qtbot):
    panel.set_workload("cnn-training")
    i = panel.table.ids.index("gpu-nvidia-rtx-4090-fe")
    pos = panel.view_pos_of(i)
    assert panel.card_at_view(pos) is not None
    picked = panel.card_at_view(pos)
    vp = panel.plot.viewport()
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    QTest.mouseMove(vp, pos + type(pos)(30, 30))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos + type(pos)(30, 30))
    drag = panel.plot.last_drag
    assert drag is not None
    assert bytes(drag.mimeData().data(PART_MIME)).decode() == panel.table.ids[picked]


def test_click_chooses_the_card(panel, qtbot):
    panel.set_workload("cnn-training")
    i = panel.table.ids.index("gpu-nvidia-rtx-4090-fe")
    pos = panel.view_pos_of(i)
    picked = panel.card_at_view(pos)
    with qtbot.waitSignal(panel.cardChosen) as sig:
        QTest.mouseClick(panel.plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    assert sig.args == [panel.table.ids[picked]] and panel.chosen == picked


def test_window_has_the_adviser_dock_and_a_point_dropped_places_the_card(make_window, qtbot):
    win = make_window(frank_2070(1))
    win.show()
    qtbot.waitExposed(win)
    view_menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&View")
    assert "Adviser" in [a.text() for a in view_menu.actions()]
    win.adviser_dock.show()
    win.adviser_dock.raise_()
    qtbot.waitUntil(lambda: win.adviser_loader.panel is not None)
    panel = win.adviser_loader.panel
    assert panel.settings.currency == win.doc.build.settings.currency
    panel.set_workload("cnn-training")
    assert "Your build" in panel.build_line.text()
    i = panel.table.ids.index("gpu-nvidia-rtx-3090-fe")
    mime = panel.plot.mime_for(i)
    drag_drop(win.board_view, mime, slot_point(win, 3))
    assert [g.part_id for g in win.doc.build.gpus][-1] == "gpu-nvidia-rtx-3090-fe"
    assert win.doc.build.gpus[-1].position == 3
    win.act_undo.trigger()
    assert len(win.doc.build.gpus) == 1


def test_update_matches_arrays_for_a_grown_catalog(qtbot, index):
    """Thousands of cards: the same figures through the same arrays (no per-point items)."""
    from dataclasses import replace

    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.ui.adviser_panel import AdviserPanel

    gpus = index.of_kind("gpu")
    many = [replace(g, id=f"{g.id}-x{k}") for k in range(4) for g in gpus]  # ~14,000 cards: past the 11,000 parts the catalog may grow to
    idx = PartIndex([p for p in index if p.KIND != "gpu"] + many, "t", index.prices)
    p = AdviserPanel(idx, Settings(currency="USD"))
    qtbot.addWidget(p)
    p.set_workload("lora", "13B", 2)
    f = A.figures(A.CardTable.of(many), W.workload("lora", 13e9), 2)
    assert sum(len(it.data) for it in p.items.values()) == int(p._shown.sum())
    assert len(p.items) == 18  # a fixed handful of items, not one per point
    assert np.allclose(p.fig.total, f.total)


def test_cards_without_a_price_still_answer(panel):
    """13B full fine-tuning on 4 cards: only unpriced datacenter cards hold it; the list names them."""
    panel.set_workload("llm-full-finetune", "13B", 4)
    fits = np.flatnonzero(panel.fig.fits_n)
    assert len(fits) and not panel.shown()
    assert "no price" in panel.best.text() and "None of the cards that hold it has a price" in panel.caption.text()
    assert panel.chosen in set(fits.tolist()) and panel.card_line.isVisible()


def test_printed_report_carries_the_advisers_workload(make_window, qtbot):
    win = make_window(frank_2070(2))
    win.show()
    qtbot.waitExposed(win)
    assert "Estimated throughput" not in win.reports.html()  # the adviser was never opened
    win.adviser_dock.show()
    win.adviser_dock.raise_()
    qtbot.waitUntil(lambda: win.adviser_loader.panel is not None)
    win.adviser_loader.panel.set_workload("cnn-training")
    html = win.reports.html()
    assert "Estimated throughput (CNN training" in html and "images/s" in html


def test_precision_is_one_input_and_every_label_says_it(panel):
    panel.set_workload("llm-inference", "70B", 2)
    panel.set_precision("q4_k_m")
    wl = panel.current_workload()
    assert wl.precision == "q4_k_m"
    assert "q4_k_m" in panel.plot.getPlotItem().getAxis("left").labelText
    assert "q4_k_m" in panel.caption.text() and "fp16" not in panel.caption.text()
    # two 24 GB cards hold Llama 2 70B at Q4_K_M
    i = panel.table.ids.index("gpu-nvidia-rtx-3090-fe")
    assert panel.fig.fits_n[i] and panel.fig.strategy_n[i] == "pipeline"
    assert "typically within" in panel.describe(i)
    with pytest.raises(ValueError):
        panel.set_precision("fp9")


def test_build_line_names_the_limiting_link(panel, index):
    from rigbuilder.domain.build import Build, GpuPlacement
    from tests.builds import RTX3090_FE

    b = Build(motherboard="mb-gigabyte-x570s-aorus-master", gpus=[GpuPlacement(RTX3090_FE, 2),
                                                                  GpuPlacement(RTX3090_FE, 7)])
    panel.set_workload("bert-training")
    panel.show_build(b, index)
    text = panel.build_line.text()
    assert "GPU 2: x4 Gen4 through the chipset, no P2P" in text and "scaling" in text


def test_a_quoted_source_cut_short_is_closed():
    """A price line's source is quoted in a translated window; cut to fit a line, its quotation
    still closes."""
    from rigbuilder.domain.pricenotes import quoted
    from rigbuilder.ui.adviser_panel import _short
    from rigbuilder.ui.i18n import render_ui, ui_language_set

    for lang, closing in (("de", "“"), ("fr", " »"), ("ja", "」")):
        with ui_language_set(lang):
            cut = _short(render_ui(quoted("Lambda benchmarks " * 20)), 60)
        assert cut.endswith("…" + closing) and len(cut) <= 62, cut
    assert _short("x" * 200, 60).endswith("x…")  # English: nothing quoted, nothing added


def test_the_optimiser_closes_a_quoted_source_it_cuts():
    from rigbuilder.domain.pricenotes import quoted
    from rigbuilder.ui.i18n import render_ui, ui_language_set
    from rigbuilder.ui.optimiser_dialog import _cut

    with ui_language_set("de"):
        cut = _cut(render_ui(quoted("Lambda benchmarks " * 20)), 60)
    assert cut.startswith("„") and cut.endswith("…“"), cut


def test_memory_needs_and_scaling_carry_their_bands(panel):
    """Issue 39: the adviser's memory needs print the memory band (models.estimates; 'error unknown' where none
    is measured) and a several-card training efficiency the scaling fit's band."""
    from rigbuilder.models import estimates as E

    panel.set_workload("lora", n_gpus=2)
    wl = panel.current_workload()
    need = E.of_memory(panel.fig.need_alone)
    assert f"Needs {need.text()} on one card." in panel.caption.text()
    i = panel.table.ids.index("gpu-nvidia-rtx-3090-fe")
    s = panel.fig.strategy_n[i]
    text = panel.describe(i)
    assert f"memory: {E.of_memory(panel.fig.need_n[s]).text()} of" in text
    band = E.of_scaling(float(panel.fig.efficiency[i])).band
    assert wl.training and "scaling on x16" in text and f"\u00b1{band:.0%} scaling" in text
