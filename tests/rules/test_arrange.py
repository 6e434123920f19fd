from __future__ import annotations

from rigbuilder.domain.build import GpuPlacement
from rigbuilder.domain.findings import Severity
from rigbuilder.rules.arrange import arrange
from rigbuilder.rules.geometry import CARD_PLACEMENT_CODES
from rigbuilder.rules.engine import run_checks
from tests.builds import RTX3090_BLOWER, RTX3090_FE, ZOTAC_2070, frank_2070, x99_4x3090


def test_arrange_two_open_air_cards_leaves_a_gap(index):
    b = frank_2070(2, positions=(1, 3))
    before = run_checks(b, index)
    res = arrange(b, index)
    assert res.fits
    gaps = [f for f in res.findings if f.code == "thermal.open-air-gap"]
    assert not gaps and any(f.code == "thermal.open-air-gap" for f in before)
    assert sorted(res.positions()) in ([1, 5], [1, 7], [3, 7], [1, 4], [3, 5], [3, 6])


def test_arrange_reports_when_nothing_fits(index):
    res = arrange(x99_4x3090(None, RTX3090_FE), index)
    assert not res.fits
    assert any("blower" in a for a in res.advice) and any("Riser" in a for a in res.advice)


def test_arrange_is_no_worse_than_input(index):
    b = frank_2070(3, positions=(1, 3, 5))
    res = arrange(b, index)
    e_before = sum(f.severity is Severity.ERROR for f in run_checks(b, index))
    e_after = sum(f.severity is Severity.ERROR for f in res.findings)
    assert e_after <= e_before
    assert b.gpus[0].position == 1  # input untouched
    assert all(isinstance(g, GpuPlacement) and g.part_id == ZOTAC_2070 for g in res.build.gpus)


def test_cards_that_cannot_fit_go_to_risers_never_overlap(index):
    b = x99_4x3090(None, RTX3090_FE)
    b.gpus += [GpuPlacement("gpu-asus-rtx-3090-turbo", 7)]  # a 2-slot blower among 3-slot cards
    res = arrange(b, index)
    assert not res.fits and not any(f.code == "slot.overlap" for f in res.findings)
    on_board = [g for g in res.build.gpus if g.mount == "slot"]
    risers = [g for g in res.build.gpus if g.mount == "riser"]
    assert len(on_board) + len(risers) == 5 and risers
    # the narrowest card stays on the board; risers take the widest
    assert "gpu-asus-rtx-3090-turbo" in {g.part_id for g in on_board}
    spans = sorted((g.position, -(-index.get(g.part_id).slot_width // 1)) for g in on_board)
    assert all(p2 >= p1 + w1 for (p1, w1), (p2, _) in zip(spans, spans[1:]))
    assert any("moved to risers" in a for a in res.advice)


def test_arrange_moves_only_gpu_cards(index):
    """A GPU entry naming a part of another kind stays put (the checks report it); no crash."""
    b = x99_4x3090()
    b.gpus[0] = GpuPlacement(b.psus[0], b.gpus[0].position)
    res = arrange(b, index)
    assert res.build.gpus[0] == b.gpus[0]
    assert any(f.code == "catalog.missing" for f in res.findings)


def test_arrange_generates_distinct_orderings_only(monkeypatch):
    """Identical cards are not permuted and then filtered (11 identical cards took 49 s)."""
    import itertools
    from rigbuilder.rules import arrange as mod
    calls = []
    real = itertools.permutations
    monkeypatch.setattr(mod.itertools, "permutations", lambda *a: calls.append(a) or real(*a))
    ids = ["a"] * 9 + ["b"]
    perms = list(mod._multiset_perms(list(range(10)), ids))
    assert len(perms) == 10 and len(set(perms)) == 10
    assert not calls
    assert list(mod._multiset_perms([0, 1, 2], ["a", "a", "b"])) == [(0, 1, 2), (0, 2, 1), (2, 0, 1)]


def test_arrange_advice_names_the_case_when_the_case_is_the_limit(index):
    """Issue 13 item 3: four 2-slot blowers fit the 7-slot X99 board only in positions 1, 3, 5, 7;
    the last reaches position 8, past a 7-position case without vertical mounts. The advice
    names that case as the limit, not the board; one more expansion position and all fit."""
    b = x99_4x3090(None, RTX3090_BLOWER)
    b.case = "case-lian-li-o11-dynamic-evo"  # 7 expansion positions, no vertical mounts
    res = arrange(b, index)
    assert not res.fits
    placement = {f.code for f in res.findings if f.severity is Severity.ERROR and f.code.startswith(CARD_PLACEMENT_CODES)}
    assert placement == {"case.expansion-slots"}  # the only placement error: the case
    case_name = index.get(b.case).name
    limit = [a for a in res.advice if "is the limit" in a]
    assert limit and limit[0].startswith("The case is the limit") and case_name in limit[0]
    assert not any("board is the limit" in a or "7-slot workstation board" in a for a in res.advice)
    b.case = "case-lian-li-o11-dynamic-xl"  # the same without the case limit: 8 positions
    res = arrange(b, index)
    assert res.fits and not any("is the limit" in a for a in res.advice)
