"""Issue 37 (answers2): the answer's lines as a builder reads them: no line that contradicts itself or
names no build. A tie is said as a tie (not "0.0% less"); the board line never says "0 of N cheaper boards
cannot hold"; each card count searched names its build with its total and purchase now, or why it has
none; the text output's heading says the counts searched, not "1 GPU now"."""
from __future__ import annotations

from rigbuilder.domain.i18n import render
from rigbuilder.rules.optimise import Request, optimise
from rigbuilder.rules.optimise.scoring import shipped_scorer

TODAY = "2026-11-26"


def _said(res) -> list[str]:
    return [render(x, "en") for x in res.explanation]


def test_japan_1500_eur_two_gpus_reads_without_contradiction(index):
    res = optimise(Request(budget=1500.0, currency="EUR", gpus_now=2, workload="qlora", model_params_b=8,
                           region="JP-15A", today=TODAY), index, shipped_scorer("qlora", 8))
    assert res.best is not None, res.infeasible
    said = _said(res)
    board = next(x for x in said if x.startswith("Board: "))
    assert not board.startswith("Board: 0 of ") and " 0 of " not in board, board
    assert index.get(res.best.grown.motherboard).name in board, board  # the line names the board it explains
    nxt = next(x for x in said if x.startswith("Next best: "))
    assert "0.0% less" not in nxt, nxt
    b, n = res.best, res.candidates[1]
    if abs(n.throughput - b.throughput) < 1e-6 * b.throughput:
        assert "the same throughput" in nxt, nxt


def test_the_card_counts_name_each_build_or_why_none(index, capsys, monkeypatch):
    from rigbuilder.cli import main

    monkeypatch.delenv("RIGBUILDER_LAB_DB", raising=False)
    req = Request(budget=10000.0, currency="USD", condition="both", gpu_counts=(1, 2, 3, 4), workload="llm-inference",
                  model_params_b=70, precision="int4", today=TODAY)
    res = optimise(req, index, shipped_scorer("llm-inference", 70, "int4"))
    said = _said(res)
    at = said.index("The number of cards was searched:")
    parts = said[at + 1:at + 5]  # one line per count
    assert [p.split(":")[0] for p in parts] == ["1 card", "2 cards", "3 cards", "4 cards"], parts
    for part in parts:
        if ": no build" in part:
            assert ": no build (" in part and not part.endswith("()"), part  # why the count has none
        else:
            assert " in total (" in part and " USD now)" in part, part  # the total and the purchase now
    assert main(["optimise", "--budget", "10000", "--currency", "USD", "--prices", "both", "--gpus", "1-4",
                 "--workload", "llm-inference", "--model-size", "70", "--precision", "int4", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 to 4 GPUs searched, a budget of 10,000 USD now" in out, out[:2000]
    assert "1 GPU now" not in out
