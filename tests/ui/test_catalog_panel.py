"""The catalog browser: search as you type, GPU filters and column sorting show what the core
search decides, and sorting keeps the selected part selected."""
from __future__ import annotations

from PySide6.QtCore import Qt

from rigbuilder.catalog.search import PartQuery, search
from rigbuilder.ui.catalog_panel import CatalogPanel


def shown(panel):
    return [panel.part_at(panel.model.index(r, 0)) for r in range(panel.model.rowCount())]


def test_search_and_filters_match_the_core(qtbot, index):
    panel = CatalogPanel(index)
    qtbot.addWidget(panel)
    panel.kind.setCurrentIndex(panel.kind.findData("gpu"))
    assert len(shown(panel)) == len(index.of_kind("gpu"))
    panel.search.setText("3090 turbo")
    want = {p.id for p in search(index.of_kind("gpu"), PartQuery(text="3090 turbo"))}
    assert {p.id for p in shown(panel)} == want and "gpu-asus-rtx-3090-turbo" in want
    assert panel.count.text().startswith(f"{len(want)} of ")
    panel.search.setText("")
    panel.min_vram.setValue(24)
    panel.cooler.setCurrentIndex(panel.cooler.findData("blower"))
    got = shown(panel)
    assert got and all(p.vram_gb >= 24 and p.cooler == "blower" for p in got)


def test_sorting_by_a_column_keeps_the_selection(qtbot, index):
    panel = CatalogPanel(index)
    qtbot.addWidget(panel)
    panel.kind.setCurrentIndex(panel.kind.findData("gpu"))
    assert panel.select_part("gpu-nvidia-rtx-3090-fe")
    col = [c for c, (_, attr) in enumerate(panel.model.columns) if attr == "board_power_w"][0]
    panel.table.sortByColumn(col, Qt.SortOrder.DescendingOrder)
    watts = [p.board_power_w for p in shown(panel)]
    assert watts == sorted(watts, reverse=True)
    assert panel.part_at(panel.table.currentIndex()).id == "gpu-nvidia-rtx-3090-fe"
    panel.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    names = [p.name.lower() for p in shown(panel)]
    assert names == sorted(names)
    # sorting and searching together
    panel.search.setText("4090")
    assert all("4090" in p.name for p in shown(panel))
    names = [p.name.lower() for p in shown(panel)]
    assert names == sorted(names)


def test_details_of_a_user_part_say_your_own_figures(index):
    import dataclasses

    from rigbuilder.ui.catalog_panel import part_details_html as details_html
    mine = dataclasses.replace(index.get("gpu-nvidia-rtx-3090-fe"), id="gpu-my-3090", origin="user", unverified=())
    html = details_html(mine)
    assert "Your own figures" in html and "Unverified" not in html


def test_details_pane_follows_the_list(qtbot, index):
    """Issue 13 item 9: a part no longer in the list (kind or search changed) is not shown."""
    from rigbuilder.ui.catalog_panel import CatalogPanel
    panel = CatalogPanel(index)
    qtbot.addWidget(panel)
    panel.kind.setCurrentIndex(panel.kind.findData("gpu"))
    assert panel.select_part("gpu-nvidia-rtx-3090-fe")
    assert "3090" in panel.details.toPlainText()
    panel.search.setText("no such part anywhere")
    assert panel.model.rowCount() == 0
    assert panel.details.toPlainText() == ""
    panel.search.setText("3090 Founders")
    assert panel.select_part("gpu-nvidia-rtx-3090-fe") and "3090" in panel.details.toPlainText()
    panel.search.setText("")
    panel.kind.setCurrentIndex(panel.kind.findData("psu"))
    assert "3090" not in panel.details.toPlainText()
