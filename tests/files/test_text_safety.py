"""Issue 24: text from the user's data is shown safely in every door: bidirectional controls as
visible marks, combining-mark stacks cut, carriage returns never forging lines in a report."""
from __future__ import annotations

import dataclasses
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.safeio import BIDI_CONTROLS, MAX_COMBINING, display_text
from rigbuilder.files.report import report_data, to_csv, to_html, to_markdown, to_text
from tests.files.test_report import four_3090

RLO = "\u202e"


def test_a_right_to_left_override_is_a_visible_mark():
    assert display_text(f"{RLO}live") == "\u2039RLO\u203alive"
    assert display_text("a\u2066b\u2069c") == "a\u2039LRI\u203ab\u2039PDI\u203ac"
    assert display_text("plain name") == "plain name"
    assert display_text("שלום עולם") == "שלום עולם"  # right-to-left text itself is left alone


def test_line_breaks_and_combining_stacks():
    assert display_text("a\rb\nc\u2028d") == "a b c d"
    assert display_text("a\rb\nc", one_line=False) == "a\rb\nc"
    assert display_text("e" + "\u0301" * 200) == "e" + "\u0301" * MAX_COMBINING


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_shown_text_holds_no_control_that_reorders_or_breaks_lines(s):
    out = display_text(s)
    assert not any(ord(c) in BIDI_CONTROLS for c in out)
    assert not any(c in out for c in "\r\n\u2028\u2029\x85")
    run = 0
    for c in out:
        run = run + 1 if unicodedata.combining(c) else 0
        assert run <= MAX_COMBINING
    assert display_text(out) == out  # showing twice changes nothing more


def _evil_build(index):
    idx = PartIndex(list(index), version=index.version)
    idx.add(dataclasses.replace(index.get("gpu-nvidia-rtx-3090-fe"), id="gpu-user-evil", maker="Me",
                                model=f"Card {RLO}live\rFAKE LINE", origin="user", notes="one\rtwo"))
    b = four_3090("gpu-user-evil")
    return dataclasses.replace(b, name=f"My {RLO}rig", notes="first\rsecond"), idx


def test_reports_show_marks_never_the_controls(index):
    build, idx = _evil_build(index)
    d = report_data(build, idx, today="2025-01-02")
    for export in (to_text, to_markdown, to_html, to_csv):
        text = export(d).decode("utf-8")
        assert RLO not in text and "\u2039RLO\u203a" in text, export.__name__
    text = to_text(d).decode("utf-8")
    assert "\r" not in text and not any(line.startswith("FAKE LINE") for line in text.splitlines())
    assert text.splitlines()[0] == "My \u2039RLO\u203arig"
