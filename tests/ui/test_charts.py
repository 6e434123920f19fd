"""The QPainter charts of the power and cost panel (issue 31) and the panel made a piece a turn:
ticks, the mapping to pixels, broken curves, legends that fit, tooltips, and a panel whose loading
never holds the event loop for one long turn."""
from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from rigbuilder.ui import charts
from rigbuilder.ui.charts import Chart, Curve, Line, Markers, TextBox, nice_step, pen, tick_text, tick_values
from tests.builds import RTX3090_FE, frank_2070, x99_4x3090


@pytest.fixture
def doc(qapp, index):
    from rigbuilder.ui.document import BuildDocument

    d = BuildDocument(index, x99_4x3090())
    yield d
    d.undo_stack.clear()


def _chart(qtbot, x_top: float, y_top: float) -> Chart:
    """A 400 x 300 chart showing 0..x_top by 0..y_top."""
    c = Chart()
    qtbot.addWidget(c)
    c.resize(400, 300)
    c.setXRange(0, x_top)
    c.setYRange(0, y_top)
    return c


def test_ticks_are_round_and_cover_the_range():
    assert nice_step(2000, 8) == 250 or nice_step(2000, 8) == 500
    assert nice_step(52, 5) == 20 and nice_step(0.7, 7) == 0.1
    assert tick_values(60, 112, 10) == [60, 70, 80, 90, 100, 110]
    assert tick_values(-0.72, 36.72, 5) == [0, 5, 10, 15, 20, 25, 30, 35]
    assert [tick_text(v, 0.25) for v in (0.0, 0.25, -0.0)] == ["0", "0.25", "0"]
    assert tick_text(15000.0, 5000) == "15000"


def test_mapping_to_pixels_and_back(qtbot):
    c = _chart(qtbot, 10, 100)
    m = c.mapper()
    r = c.plot_rect()
    assert m.pt(0, 0) == r.bottomLeft() and m.pt(10, 100) == r.topRight()
    x, y = m.to_data(m.pt(2.5, 40))
    assert x == pytest.approx(2.5) and y == pytest.approx(40)
    c.setXRange(0, 10, padding=0.1)  # as pyqtgraph's: a tenth of the span each side
    assert c.x_range == (-1.0, 11.0)


def test_a_nan_breaks_a_curve_and_the_mouse_finds_it(qtbot):
    c = _chart(qtbot, 10, 10)
    curve = c.add(Curve(pen("#000000", 2)))
    curve.setData([0, 4, 4, 6, 10], [5, 5, math.nan, 5, 5])
    m = c.mapper()
    path = curve._path(m)
    assert path.elementCount() == 4 and path.toSubpathPolygons().__len__() == 2  # two pieces, no line over the gap
    assert curve.hit(m.pt(2, 5), m) and curve.hit(m.pt(8, 5), m)
    assert not curve.hit(m.pt(5, 5), m)  # the gap
    assert not curve.hit(m.pt(2, 8), m)


def test_legend_rows_fit_the_width(qtbot):
    c = Chart(legend_columns=3)
    qtbot.addWidget(c)
    for name in ("GPUs", "CPU", "Board", "Memory"):
        c.legend.add(charts.Swatch("#4e79a7"), name)
    assert c.legend.column_count(380) == 3
    c.legend.add(charts.Swatch("#4e79a7"), "a name as long as a German one can be, and longer still")
    assert c.legend.column_count(380) == 1  # one a row: the long name fits, no column is cut
    wide = c.legend.height(380)
    c.legend.set_shown(c.legend.entries[-1].sample, False)  # hidden entries take no room
    assert c.legend.column_count(380) == 3 and c.legend.height(380) < wide


def test_tooltips_of_items_and_legend_entries(qtbot):
    c = _chart(qtbot, 36, 1000)
    mark = c.add(Markers("o", 10, "#0f8b9c", pen("#000000")))
    mark.setPos(12, 500)
    mark.setToolTip("the month buying beats renting")
    entry = c.legend.add(mark, "renting")
    entry.setToolTip("what the rent rests on")
    c.show()
    qtbot.waitExposed(c)
    c.grab()  # painted (the legend's entries learn where they are when painted)
    m = c.mapper()
    assert c.tip_at(m.pt(12, 500)) == "the month buying beats renting"
    assert c.tip_at(m.pt(30, 100)) == ""
    assert c.tip_at(entry.rect.center()) == "what the rent rests on"
    mark.hide()
    assert c.tip_at(m.pt(12, 500)) == ""


def test_a_text_box_wraps_and_stays_where_it_is_anchored(qtbot):
    c = _chart(qtbot, 10, 10)
    t = c.add(TextBox("#000000", anchor=(1.0, 1.0)))
    t.setText("buying beats renting after at least 33 months")
    t.setPos(5, 5)
    r = t.rect()
    assert r.bottomRight() == c.mapper().pt(5, 5)  # the anchor: its bottom right at the point
    one_line = r.height()
    t.setTextWidth(80)
    assert t.rect().height() > one_line and t.rect().width() <= 80 + 2 * charts.PAD + 1


def test_lines_across_the_plot(qtbot):
    c = Chart()
    qtbot.addWidget(c)
    c.resize(400, 300)
    c.setYRange(0, 2000)
    line = c.add(Line(1600, pen("#d62728", 2)))
    m = c.mapper()
    assert line.hit(QPointF(m.rect.center().x(), m.y(1600)), m)
    line.setValue(1280)
    assert line.value() == 1280 and not line.hit(QPointF(m.rect.center().x(), m.y(1600)), m)


def test_the_panel_is_made_a_piece_at_a_time(qtbot, index):
    """The loader's panel: made in many short steps, each leaving the event loop free."""
    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel(in_steps=True)
    qtbot.addWidget(p)
    assert not hasattr(p, "plots")  # nothing of the charts yet
    steps = sum(1 for _step in p.steps())
    assert steps >= 5 and p.plots is not None and p.cost_plot is not None
    p.show_build(x99_4x3090(280), index)
    assert list(p.bar_heights["gpu"]) == [60, 1120, 1120]


def test_an_edit_between_two_steps_is_drawn_whole(qtbot, index):
    """A document change that comes while the panel is drawn a piece a turn: drawn at once, all
    of it, and the drawing under way stops (it would draw an older build)."""
    from rigbuilder.domain.edits import SetPowerLimit
    from rigbuilder.ui.document import BuildDocument
    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel()
    qtbot.addWidget(p)
    doc = BuildDocument(index, x99_4x3090(limit_w=None, gpu=RTX3090_FE), p)
    steps = p.following(doc)
    next(steps)  # described, nothing drawn yet
    next(steps)  # the controls drawn, not the charts
    doc.push(SetPowerLimit(index=0, watts=250.0))
    assert list(p.bar_heights["gpu"]) == [60, 1300, 1300]
    assert p.stack.heights[:3] == (60, 1300, 1300)  # the charts show the edit
    assert list(steps) == []  # the older drawing stopped
    assert p.stack.heights[:3] == (60, 1300, 1300) and p.limit_rows[0].slider.value() == 250
    doc.undo_stack.clear()


def test_the_loader_paints_the_panel_in_turns(doc, qtbot):
    """Started as the window starts it: the panel made over many turns of the event loop, then
    put in its place and painted; ``load()`` meanwhile finishes it at once."""
    from PySide6.QtCore import QObject

    from rigbuilder.ui.panel_loader import GraphsLoader, scroll_area

    owner = QObject()
    place = scroll_area()
    qtbot.addWidget(place)
    place.resize(420, 800)
    place.show()
    loader = GraphsLoader(doc, place, owner, connect=lambda panel: None)
    turns = []
    real = loader._turn
    loader._turn = lambda: (turns.append(1), real())
    loader.start()
    qtbot.waitUntil(lambda: loader.painted, timeout=20000)
    assert loader.panel is not None and place.widget() is loader.panel
    assert len(turns) >= 10  # a piece a turn
    assert loader.load() is loader.panel

    doc.replace(frank_2070(2), None)  # and it follows the document
    assert len(loader.panel.description.controls.limits) == 2


def test_load_finishes_what_the_turns_began(doc, qtbot):
    from PySide6.QtCore import QObject

    from rigbuilder.ui.panel_loader import GraphsLoader, scroll_area

    place = scroll_area()
    qtbot.addWidget(place)
    loader = GraphsLoader(doc, place, QObject(), connect=lambda panel: None)
    loader._steps = loader._make()
    for _ in range(4):
        next(loader._steps)  # a few pieces, as the first turns make them
    panel = loader.load()
    assert panel is not None and place.widget() is panel
    assert panel.figures.updatesEnabled() and panel.plots.updatesEnabled()  # nothing left half shown
    QApplication.processEvents()


def test_a_chart_exports_as_a_png(qtbot, index, tmp_path, monkeypatch):
    """Right-click > Export… writes the chart as a PNG where the user says (pyqtgraph's menu had it)."""
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QFileDialog

    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel()
    qtbot.addWidget(p)
    p.resize(420, 1300)
    p.show_build(x99_4x3090(280), index)
    out = tmp_path / "power"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "PNG (*.png)"))
    (export,) = [a for a in p.cost_plot.actions() if a.text() == "Export…"]
    export.trigger()
    img = QImage(str(out) + ".png")
    assert not img.isNull() and img.width() == p.cost_plot.width()
