"""The optimiser's search in rooms (issue 36): no class of the rules over 500 lines, the search
itself small, the risers a mount composed into it (not a subclass), the explanation an object given
what it needs; and what the riser searches share (issue 37): the platform's draw as the power model
counts it (two CPUs on a dual-socket board), so the search's wall and PSU floors are the checks'."""
from __future__ import annotations

import ast
from pathlib import Path

import rigbuilder.rules as rules
from rigbuilder.domain.build import Settings
from rigbuilder.domain.parts import CPU, Motherboard
from rigbuilder.models import power as power_model
from rigbuilder.rules.optimise import explain, frames, search
from rigbuilder.rules.optimise.mount import InSlots
from rigbuilder.rules.optimise.power import Power


def _classes():
    for path in Path(rules.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                yield f"{path.name}:{node.name}", node.end_lineno - node.lineno + 1


def test_no_class_of_the_rules_is_over_500_lines_and_the_search_under_300():
    sizes = dict(_classes())
    assert sizes["search.py:_Search"] < 300, sizes["search.py:_Search"]
    assert not {k: v for k, v in sizes.items() if v > 500}


def test_risers_are_a_mount_composed_into_the_search_and_the_explanation_no_mixin():
    assert issubclass(frames.OnRiser, InSlots)
    assert not any(issubclass(v, search._Search) and v is not search._Search
                   for v in vars(frames).values() if isinstance(v, type))
    assert search._Search.__bases__ == (object,)
    assert not hasattr(explain, "Explaining")


def test_the_platform_draw_counts_every_cpu_of_a_dual_socket_board(shipped):
    parts, _ = shipped
    boards = [p for p in parts if isinstance(p, Motherboard) and p.cpu_sockets == 2]
    assert boards
    b = boards[0]
    c = next(p for p in parts if isinstance(p, CPU) and p.socket == b.socket)
    pw = Power(Settings(), 3.0)
    model = power_model.components(gpus=[], cpu=c, board=b, memory=[], storage=[], cooler=None, nics=[],
                                   case_fans=False)
    want = sum(comp.watts["peak"] for comp in model)
    assert pw.platform(b, c)[2] == want
    assert pw.platform(b, c)[2] > pw.part(c)[2] + pw.part(b)[2]  # one CPU more than the parts one by one
