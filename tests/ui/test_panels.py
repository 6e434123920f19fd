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


def test_findings_name_cards_short_and_the_tooltip_has_the_long_name(qtbot, index):
    """Issue 13 item 7: the row leads with what is wrong and names the card short (GPU 1); the
    full card name is in the tooltip, which is rich text (Qt wraps it inside the window)."""
    from rigbuilder.rules.context import Context
    from rigbuilder.rules.engine import run_checks
    from rigbuilder.ui.panels import FindingsPanel
    from tests.builds import RTX3090_FE, x99_4x3090
    b = x99_4x3090(None, RTX3090_FE)
    findings = run_checks(b, index)
    gap = [f for f in findings if f.gpus and f.message.startswith("GPU ")][0]
    assert "Founders Edition" not in gap.message
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    names = {g.num: f"{g.gpu.name} ({g.gpu.cooler})" for g in Context(b, index).gpus}
    panel.show_findings(findings, names)
    row = findings.index(gap)
    tip = panel.tree.topLevelItem(row).toolTip(2)
    assert tip.startswith("<qt>") and "NVIDIA GeForce RTX 3090 Founders Edition" in tip
    assert "(NVIDIA" not in panel.tree.topLevelItem(row).text(2)
