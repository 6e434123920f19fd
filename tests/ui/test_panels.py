"""The findings panel keeps its rows in step with the findings as they come and go."""
from __future__ import annotations

import random

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.ui.panels import SHOWN_CHARS, FindingsPanel


def f(code: str, gpu: int, message: str = "", severity: Severity = Severity.WARNING) -> Finding:
    return Finding(code, severity, message or f"{code} on GPU {gpu}", fix=f"fix {code}", gpus=(gpu,))


def rows(panel: FindingsPanel) -> list[tuple[str, str, str]]:
    t = panel.tree
    return [(t.topLevelItem(i).text(1), t.topLevelItem(i).text(2), t.topLevelItem(i).text(3))
            for i in range(t.topLevelItemCount())]


def expected(findings: list[Finding]) -> list[tuple[str, str, str]]:
    return [(x.code, x.message, x.fix) for x in findings]


def test_rows_follow_insertions_removals_and_changes(qtbot):
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    a, b, c, d = f("psu.capacity", 1), f("slot.overlap", 2), f("thermal.open-air-gap", 3), f("lanes.x4", 4)
    for step in ([a, c], [a, b, c], [a, b, c, d], [b, d], [f("psu.capacity", 1, "new figure"), b, d], [], [d, a]):
        panel.show_findings(step)
        assert rows(panel) == expected(step)
        assert panel.findings == step


def test_random_edits_keep_rows_and_selection(qtbot):
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    rng = random.Random(4)
    pool = [f(code, g, severity=sev) for code, sev in (("a.x", Severity.ERROR), ("b.y", Severity.WARNING),
                                                       ("c.z", Severity.INFO)) for g in (1, 2, 3, 4)]
    current: list[Finding] = []
    for _ in range(200):
        current = sorted(rng.sample(pool, rng.randint(0, 8)), key=Finding.sort_key)
        selected = panel.tree.currentItem()
        before = panel.findings[panel.tree.indexOfTopLevelItem(selected)] if selected is not None else None
        panel.show_findings(current)
        assert rows(panel) == expected(current)
        now = panel.tree.currentItem()
        if before is not None and before in current:
            assert now is not None and panel.findings[panel.tree.indexOfTopLevelItem(now)] == before
        if current and rng.random() < 0.5:
            panel.tree.setCurrentItem(panel.tree.topLevelItem(rng.randrange(len(current))))


def test_long_texts_are_cut_in_the_cell_and_whole_in_the_tooltip(qtbot):
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    long = "x" * (SHOWN_CHARS * 2)
    panel.show_findings([f("psu.capacity", 1, long)])
    item = panel.tree.topLevelItem(0)
    assert len(item.text(2)) == SHOWN_CHARS and item.text(2).endswith("…")
    assert long in item.toolTip(2)
