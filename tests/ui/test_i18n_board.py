"""The board area in the window's language (issue 19): the board drawing, the catalog, the
findings and parts panels and the power and cost graphs say nothing that skipped the catalogs."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsTextItem

from rigbuilder.domain.i18n import PSEUDO, catalog
from rigbuilder.ui.i18n import ui_language_set
from tests.builds import frank_2070, x99_4x3090
from tests.ui.i18n_walk import bare, raw_texts


def _window(make_window, build):
    win = make_window(build)
    assert win.graphs_loader.load() is not None
    win.resize(1440, 900)
    return win


def scene_texts(scene) -> list[str]:
    """Every text the board drawing shows: its text items and every item's tooltip."""
    out = []
    for it in scene.items():
        if isinstance(it, QGraphicsSimpleTextItem):
            out.append(it.text())
        elif isinstance(it, QGraphicsTextItem):
            out.append(it.toPlainText())
        out.append(it.toolTip())
    return [t for t in out if t]


def graph_texts(panel) -> list[str]:
    """The plots' axis titles, plot titles, legends, tick names, readouts and figures."""
    out = [panel.figures.text()]
    for plot in (panel.power_plot, panel.eff_plot, panel.cost_plot):
        out += [plot.getAxis(name).labelText for name in ("left", "bottom")]
        out.append(plot.titleLabel.text)
    for leg in (panel.power_legend, panel.eff_legend, panel.cost_legend):
        out += [label.text for _sample, label in leg.items]
    out += [name for _x, name in panel.power_plot.getAxis("bottom")._tickLevels[0]]
    out += [panel.hover_text(i) for i in range(3)]
    out += [t.toPlainText() for t in panel.op_labels.values()]
    for row in panel.limit_rows:
        out += [row.label.text(), row.slider.toolTip()]
    return out


def test_board_area_texts_all_go_through_the_catalogs(make_window, qtbot):
    with ui_language_set(PSEUDO):
        b = frank_2070(2)
        b.settings.budget = 100.0  # the budget line too
        win = _window(make_window, b)
        cat = win.catalog_panel
        # the details pane's texts are the part's data (name, source, figures) and the prices
        # pane of the window's pricing module; the labels of ours are checked below
        assert raw_texts(cat, skip=lambda w: w is cat.details) == []
        # The window sets the findings' language from the preference (English here, as the
        # system's); the app sets the window's language from the same preference, so the two agree.
        win.findings_panel.set_language(PSEUDO)
        assert raw_texts(win.findings_panel) == []
        assert win.findings_panel.findings  # two cards: there is something to say
        parts = win.parts_panel
        assert raw_texts(parts) == []
        assert not bare(parts.total.text())
        assert raw_texts(win.graphs) == []
        assert [t for t in graph_texts(win.graphs) if bare(t)] == []
        texts = scene_texts(win.board_view.board_scene)
        assert any("GPU" in t for t in texts)
        assert [t for t in texts if bare(t)] == []
        menu = win.board_view.card_menu(0)
        assert [a.text() for a in menu.actions() if bare(a.text()) or bare(a.toolTip())] == []
        # what a drag over a slot says, and the catalog's tooltips, price cells and details labels
        gpu = win.doc.build.gpus[0].part_id
        text, _sev = win.board_view.hover_text(gpu, 3, False)
        assert "\u27e6" in text and not bare(text.split("\n")[0])
        m = cat.model
        assert [m.data(m.index(0, c), Qt.ItemDataRole.ToolTipRole) for c in range(m.columnCount())
                if bare(m.data(m.index(0, c), Qt.ItemDataRole.ToolTipRole))] == []
        from rigbuilder.ui.catalog_panel import part_details_html

        board = win.doc.index.get(b.motherboard)
        html = part_details_html(board)
        labels = html.split("<table>")[1].split("</table>")[0]
        assert [cell for cell in labels.split("<tr>")[1:] if bare(cell.split("</td>")[0])] == []
        for kind in ("motherboard", "psu", "case", "cpu"):
            cat.kind.setCurrentIndex(cat.kind.findData(kind))
            assert raw_texts(cat, skip=lambda w: w is cat.details) == []


def test_findings_panel_follows_the_window_language(qtbot, index):
    from rigbuilder.rules.engine import run_checks
    from rigbuilder.ui.panels import FindingsPanel

    findings = run_checks(frank_2070(2), index)
    with ui_language_set(PSEUDO):
        panel = FindingsPanel()
        qtbot.addWidget(panel)
        panel.show_findings(findings, {1: "card"})
        assert raw_texts(panel) == []
        tips = [panel.tree.topLevelItem(i).toolTip(2) for i in range(panel.tree.topLevelItemCount())]
        assert tips and [t for t in tips if bare(t)] == []
    with ui_language_set("de"):
        panel = FindingsPanel()
        qtbot.addWidget(panel)
        assert panel.tree.headerItem().text(3) == "Abhilfe"
        panel.set_language("en")  # an explicit choice wins over the window's
        assert panel.tree.headerItem().text(3) == "Fix"


def test_empty_board_says_where_to_drop_in_the_language(make_window):
    from rigbuilder.domain.build import Build

    with ui_language_set(PSEUDO):
        win = _window(make_window, Build(name="empty"))
        texts = scene_texts(win.board_view.board_scene)
        assert texts and [t for t in texts if bare(t)] == []
        assert not bare(win.graphs.figures.text())


@pytest.mark.parametrize("lang, words", [
    ("de", {"header": "Länge", "count": "von", "axis": "Leistung", "legend": "An der Wand", "figures": "Anschaffung",
            "board": "Steckplatz"}),
    ("ja", {"header": "長さ", "count": "件中", "axis": "電力", "legend": "コンセント", "figures": "購入",
            "board": "スロット"}),
])
def test_board_area_in_german_and_japanese(make_window, lang, words):
    with ui_language_set(lang):
        win = _window(make_window, x99_4x3090())
        cat = win.catalog_panel
        cat.kind.setCurrentIndex(cat.kind.findData("gpu"))
        headers = [cat.model.headerData(c, Qt.Orientation.Horizontal) for c in range(cat.model.columnCount())]
        assert any(words["header"] in h for h in headers), headers
        assert "Name" not in headers or lang == "de"  # German says Name too
        assert words["count"] in cat.count.text()
        g = win.graphs
        assert words["axis"] in g.power_plot.getAxis("left").labelText
        assert any(words["legend"] in label.text for _s, label in g.power_legend.items)
        assert words["figures"] in g.figures.text()
        assert "Purchase" not in g.figures.text() and "Months" not in g.cost_plot.getAxis("bottom").labelText
        tips = " ".join(scene_texts(win.board_view.board_scene))
        assert words["board"] in tips
        assert "slots" not in " ".join(it.text() for it in win.board_view.board_scene.items()
                                       if isinstance(it, QGraphicsSimpleTextItem))


def test_money_and_numbers_follow_the_locale(make_window):
    with ui_language_set("de"):
        win = _window(make_window, x99_4x3090())
        text = win.graphs.figures.text()
    assert "\xa0$" in text and "91,2" in text  # 5.824,31 $: the currency after the amount, decimal comma
    assert "\xa0%" in text and "1.600 W" in text  # 86 %: a (no-break) space before the percent sign; 1.600: grouping


def test_data_labels_marked_for_the_catalogs():
    """The English names the board area shows from the core's tables are in its catalogs."""
    from rigbuilder.domain.build import REGIONS
    from rigbuilder.domain.kinds import KIND_LABELS
    from rigbuilder.domain.parts import COOLER_TYPES
    from rigbuilder.render.board import COOLER_NAMES
    from rigbuilder.ui.catalog_panel import FIELD_LABELS

    KIND_NAMES = tuple(KIND_LABELS.values())  # marked N_() in domain.kinds
    assert set(COOLER_TYPES) <= set(COOLER_NAMES)
    import rigbuilder.domain.parts as parts
    from rigbuilder.catalog.schema import field_specs

    shown = {n for c in vars(parts).values() if isinstance(c, type) and issubclass(c, parts.Part) and c is not parts.Part
             for n, _t, _r in field_specs(c)}
    assert shown - set(FIELD_LABELS) <= {"id", "maker", "model", "source", "source_date", "unverified", "notes",
                                         "slots", "m2", "lane_rules"}
    for lang in ("de", "fr", "ja", "zh_CN"):
        cat = catalog(lang)
        assert all(cat.get(t) for t in (*KIND_NAMES, *(r.label for r in REGIONS.values()), *FIELD_LABELS.values())), lang
