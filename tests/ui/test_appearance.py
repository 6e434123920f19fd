"""Issue 19, at home on every desktop: the theme (light, dark, the desktop's), lengths in mm or
inches, and sharp pictures on high-DPI screens."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QGraphicsSimpleTextItem

from rigbuilder.config import DictStore, Preferences
from rigbuilder.domain.findings import Severity
from rigbuilder.ui import theme, units
from rigbuilder.ui.appearance import apply_appearance
from rigbuilder.ui.theme import DARK, LIGHT, contrast_ratio
from tests.builds import x99_4x3090


@pytest.fixture(autouse=True)
def back_to_light(qapp):
    yield
    theme.apply(QApplication.instance(), "light")
    units.set_units("mm")


def set_prefs(win, **values) -> None:
    for k, v in values.items():
        win.prefs.set(f"appearance/{k}", v)
    apply_appearance(win)
    QApplication.processEvents()  # the new palette reaches the widgets


@pytest.mark.parametrize("pal", [LIGHT, DARK], ids=["light", "dark"])
def test_every_palette_has_readable_contrast(pal):
    # WCAG 2: 4.5 for text, 3 for large text and marks.
    for fg, bg, need in [
        (pal.text, pal.background, 4.5), (pal.muted, pal.background, 4.5),
        (pal.error, pal.background, 4.5), (pal.warning, pal.background, 4.5), (pal.info, pal.background, 4.5),
        (pal.text, pal.scene, 4.5), (pal.error, pal.scene, 4.5), (pal.warning, pal.scene, 4.5),
        (pal.riser_text, pal.riser_fill, 4.5), (pal.label_text, pal.label_fill, 4.5),
        (pal.error, pal.label_fill, 4.5), (pal.warning, pal.label_fill, 4.5),
        (pal.grid_text, pal.background, 4.5), (pal.label_text, pal.hover_fill, 4.5),
        (pal.axis, pal.background, 3.0), (pal.marker, pal.background, 3.0), (pal.accent, pal.scene, 3.0),
    ]:
        assert contrast_ratio(fg, bg) >= need, (pal.name, fg, bg, contrast_ratio(fg, bg))


def test_contrast_ratio_is_the_wcag_formula():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_dark_theme_recolours_the_window_the_board_and_the_findings(make_window, qapp):
    win = make_window(x99_4x3090())
    assert theme.colors() is LIGHT
    scene = win.board_view.board_scene
    assert scene.backgroundBrush().color() == QColor(LIGHT.scene)
    set_prefs(win, theme="dark")
    assert theme.colors() is DARK
    # Offscreen has no dark theme of its own: Fusion with a dark palette.
    app_pal = qapp.palette()
    assert app_pal.color(QPalette.ColorRole.Window).lightness() < 80
    assert contrast_ratio(app_pal.color(QPalette.ColorRole.WindowText), app_pal.color(QPalette.ColorRole.Window)) >= 7
    assert scene.backgroundBrush().color() == QColor(DARK.scene)
    # The slot labels sit left of the board, on the scene's background: readable there.
    slot_labels = [it for it in scene.items() if isinstance(it, QGraphicsSimpleTextItem)
                   and it.text().startswith(("PCIE", "PCIe", "SLOT", "Slot"))]
    assert slot_labels
    for it in slot_labels:
        assert contrast_ratio(it.brush().color(), DARK.scene) >= 4.5, it.text()
    # Findings: the severity colours are the dark palette's, readable on the tree's background.
    tree = win.findings_panel.tree
    assert tree.topLevelItemCount() > 0
    base = tree.palette().color(QPalette.ColorRole.Base)
    for i in range(tree.topLevelItemCount()):
        c = tree.topLevelItem(i).foreground(0).color()
        assert c.name() in (DARK.error, DARK.warning, DARK.info)
        assert contrast_ratio(c, base) >= 4.5
    assert DARK.error in win.findings_panel.summary.text() or DARK.warning in win.findings_panel.summary.text()
    # Back to light: the light colours again.
    set_prefs(win, theme="light")
    assert scene.backgroundBrush().color() == QColor(LIGHT.scene)
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() > 150
    c = tree.topLevelItem(0).foreground(0).color()
    assert c.name() in (LIGHT.error, LIGHT.warning, LIGHT.info)


def test_printing_stays_light_under_the_dark_theme(make_window, index):
    from rigbuilder.render.board import paper_board

    win = make_window(x99_4x3090())
    set_prefs(win, theme="dark", units="in")
    s = paper_board(win.doc.build, index)
    assert s.backgroundBrush().color() == QColor(LIGHT.scene)
    texts = " ".join(it.text() for it in s.items() if it.kind == "text")
    assert " mm" in texts and " in " not in texts.replace(" in the", "")


def test_plots_follow_the_theme(qtbot, index):
    from rigbuilder.ui.graphs import PowerCostPanel

    panel = PowerCostPanel()
    qtbot.addWidget(panel)
    panel.show_build(x99_4x3090(), index)
    assert all(c.backgroundBrush().color() == QColor(LIGHT.background) for c in panel.charts)
    theme.apply(QApplication.instance(), "dark")
    assert all(c.backgroundBrush().color() == QColor(DARK.background) for c in panel.charts)
    # the axes' numbers and labels, the titles and the legends in the theme's text colour
    for plot in (panel.power_plot, panel.eff_plot, panel.cost_plot):
        for name in ("left", "bottom"):
            assert plot.getAxis(name).textPen().color() == QColor(DARK.grid_text)
        assert DARK.grid_text in plot.titleLabel.text or plot.titleLabel.opts.get("color") == DARK.grid_text
    assert contrast_ratio(panel.power_plot.getAxis("left").textPen().color(), DARK.background) >= 4.5
    for leg in (panel.power_legend, panel.eff_legend, panel.cost_legend):
        for _sample, label in leg.items:
            assert label.opts.get("color") in (DARK.grid_text, QColor(DARK.grid_text)), label.text
    assert panel.cost_curve.opts["pen"].color() == QColor(DARK.marker)


def test_adviser_plots_follow_the_theme(qtbot, index):
    pytest.importorskip("pyqtgraph")
    from rigbuilder.ui.adviser_panel import AdviserPanel

    panel = AdviserPanel(index)
    qtbot.addWidget(panel)
    theme.apply(QApplication.instance(), "dark")
    assert panel.plot.backgroundBrush().color() == QColor(DARK.background)
    assert panel.bar_plot.backgroundBrush().color() == QColor(DARK.background)
    assert DARK.muted in panel.legend.text()


def test_units_preference_changes_the_lengths_shown(make_window, qtbot):
    from PySide6.QtCore import Qt

    win = make_window(x99_4x3090())
    cat = win.catalog_panel
    cat.kind.setCurrentIndex(cat.kind.findData("gpu"))
    model = cat.model
    col = next(i for i, (_t, a) in enumerate(model.columns) if a == "length_mm")
    part = model.parts[0]
    assert model.headerData(col, Qt.Orientation.Horizontal) == "Length mm"
    assert model.data(model.index(0, col)) == f"{part.length_mm:g}"
    board_texts = lambda: " ".join(it.text() for it in win.board_view.board_scene.items()  # noqa: E731
                                   if isinstance(it, QGraphicsSimpleTextItem))
    assert " mm" in board_texts()
    set_prefs(win, units="in")
    assert model.headerData(col, Qt.Orientation.Horizontal) == "Length in"
    assert model.data(model.index(0, col)) == f"{part.length_mm / 25.4:.2f}"
    shown = board_texts()
    assert " in" in shown and " mm" not in shown
    gpu = win.doc.build.gpus[0]
    assert f"{win.doc.index.get(gpu.part_id).length_mm / 25.4:.2f} in" in shown
    from rigbuilder.ui.catalog_panel import part_details_html

    html = part_details_html(part)
    assert f"{part.length_mm / 25.4:.2f} in" in html and "length mm" not in html
    set_prefs(win, units="mm")
    assert model.headerData(col, Qt.Orientation.Horizontal) == "Length mm"
    assert " mm" in board_texts()


def test_length_formatting():
    assert units.length(268) == "268 mm"
    assert units.length(268, "in") == "10.55 in"
    units.set_units("in")
    assert units.length(25.4) == "1.00 in" and units.suffix() == "in"
    units.set_units("furlong")
    assert units.units() == "mm"


def test_appearance_options_parse_and_fall_back():
    p = Preferences.open(DictStore())
    assert p.get("appearance/theme") == "system" and p.get("appearance/units") == "mm"
    p.set("appearance/theme", "Dark")
    p.set("appearance/units", "inches")
    assert p.get("appearance/theme") == "dark" and p.get("appearance/units") == "in"
    with pytest.raises(ValueError, match="Colours"):
        p.set("appearance/theme", "purple")
    p.store.setValue("appearance/units", "cubits")  # edited by hand: the default, not an error
    assert p.get("appearance/units") == "mm"


def test_settings_of_an_older_version_open_with_appearance_defaults():
    from rigbuilder.config import SETTINGS_VERSION, VERSION_KEY

    old = DictStore({"recent_files": "/tmp/a.rig", "money/default_region": "UK"})  # before versions
    p = Preferences.open(old)
    assert p.upgraded and old[VERSION_KEY] == SETTINGS_VERSION
    assert old["recent_files"] == ["/tmp/a.rig"]
    assert p.get("appearance/theme") == "system" and p.get("appearance/units") == "mm"


def test_preferences_dialog_has_an_appearance_tab(qtbot, index):
    from rigbuilder.catalog.prices import load_rates
    from rigbuilder.ui.preferences import PreferencesDialog

    p = Preferences.open(DictStore())
    p.set("appearance/units", "in")
    dlg = PreferencesDialog(None, p, index.prices.rates, load_rates(), today="2026-11-24")
    qtbot.addWidget(dlg)
    tabs = [dlg.tabs.tabText(i) for i in range(dlg.tabs.count())]
    assert "Appearance" in tabs
    assert dlg.appearance.units.currentData() == "in"
    dlg.appearance.theme.setCurrentIndex(dlg.appearance.theme.findData("dark"))
    got = dlg.result_value()
    assert got.values["appearance/theme"] == "dark" and got.values["appearance/units"] == "in"
    assert "money/default_region" in got.values


def test_system_choice_follows_the_style_hints(qapp):
    # Offscreen reports no dark scheme: "system" is light here, and a forced choice wins.
    assert theme.wanted("system") is (DARK if theme.system_is_dark() else LIGHT)
    assert theme.wanted("dark") is DARK and theme.wanted("light") is LIGHT


def test_pixmap_sizes_follow_the_device_pixel_ratio():
    from rigbuilder.ui.boardview import hidpi_pixmap

    pm = hidpi_pixmap(120, 30, 2.0)
    assert (pm.width(), pm.height()) == (240, 60)
    assert pm.devicePixelRatio() == 2.0
    assert pm.deviceIndependentSize().toSize().width() == 120


HIDPI_SCRIPT = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QFont, QPainter
    from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView
    from rigbuilder.ui.widgets import cache_as_pixmap
    app = QApplication([])
    def grab(cached):
        sc = QGraphicsScene(0, 0, 200, 50)
        t = sc.addSimpleText("GPU 1 268 mm", QFont("DejaVu Sans", 11))
        t.setPos(QPointF(5, 5))
        if cached:
            cache_as_pixmap(t)
        v = QGraphicsView(sc)
        v.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        v.resize(260, 100)
        v.show()
        app.processEvents()
        return v.viewport().grab().toImage()
    a, b = grab(False), grab(True)
    print(a.devicePixelRatio(), a == b)
""")


def test_cached_text_is_as_sharp_as_drawn_text_at_scale_2():
    """A cached item's pixmap holds device pixels (Qt's DeviceCoordinateCache follows the
    painter's pixel ratio): at 2x it is the same picture as the text drawn each time."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2")
    out = subprocess.run([sys.executable, "-c", HIDPI_SCRIPT], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    ratio, same = out.stdout.split()
    assert float(ratio) == 2.0
    assert same == "True"


def test_card_drag_image_is_made_at_the_screen_ratio(make_window, monkeypatch):
    win = make_window(x99_4x3090())
    view = win.board_view
    part = win.doc.index.get(win.doc.build.gpus[0].part_id)
    monkeypatch.setattr(type(view), "devicePixelRatioF", lambda self: 2.0)
    pm, _hot = view.card_pixmap(part)
    assert pm.devicePixelRatio() == 2.0
    logical = pm.deviceIndependentSize()
    assert pm.width() == round(logical.width() * 2)
    tag, _ = view.card_pixmap(win.doc.index.get(win.doc.build.motherboard))
    assert tag.devicePixelRatio() == 2.0


def test_severity_colours_come_from_the_theme():
    from rigbuilder.ui.panels import sev_color

    assert sev_color(Severity.ERROR).name() == LIGHT.error
    theme.apply(QApplication.instance(), "dark")
    assert sev_color(Severity.ERROR).name() == DARK.error


@pytest.mark.parametrize("screen", [(1366, 768 - 32), (1920, 1080 - 40), (2560, 1400)])
def test_first_window_is_on_screen_and_centred(make_window, monkeypatch, screen):
    from PySide6.QtCore import QRect

    from rigbuilder.ui.main_window import FRAME_ALLOWANCE, MainWindow

    avail = QRect(0, 0, *screen)
    monkeypatch.setattr(MainWindow, "_available_geometry", lambda self: avail)
    win = make_window()
    outer = QRect(win.pos(), win.size() + FRAME_ALLOWANCE)
    assert avail.contains(outer), (outer, avail)
    left, right = outer.left() - avail.left(), avail.right() - outer.right()
    assert abs(left - right) <= 1


def test_system_choice_follows_the_desktop_when_it_switches(qapp, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    monkeypatch.setattr(theme, "system_is_dark", lambda: True)
    assert theme.apply(qapp, "system") is DARK
    monkeypatch.setattr(theme, "system_is_dark", lambda: False)
    QGuiApplication.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)  # the desktop went light
    assert theme.colors() is LIGHT
    theme.apply(qapp, "dark")  # a forced choice ignores the desktop
    monkeypatch.setattr(theme, "system_is_dark", lambda: False)
    QGuiApplication.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert theme.colors() is DARK
