"""Japanese and Chinese in the printed board drawing (issue 43): each label is one run of text, so
the PDF's renderer lays it out as a whole line, not katakana, hiragana, kanji and Latin pieces placed
apart ("ケース  に 入 る カード  は 440  mm  まで")."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from rigbuilder.render.board import render_board_svg
from tests.builds import x99_4x3090

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: bytes) -> list[str]:
    return [el.text or "" for el in ET.fromstring(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("lang,case_label,face", [("ja", "ケースに入るカードは", "Noto Sans CJK JP"),
                                                  ("zh_CN", None, "Noto Sans CJK SC")])
def test_every_label_is_one_run_with_the_languages_face(qapp, index, lang, case_label, face):
    svg = render_board_svg(x99_4x3090(None), index, 1200, lang)
    texts = _texts(svg)
    assert texts
    if case_label:
        assert any(case_label in t and "mm" in t for t in texts), texts
    # no run is a lone script piece of a longer label: a run of kana or kanji alone is followed by
    # no other run on the same baseline that starts where it ends
    lone = [t for t in texts if re.fullmatch(r"[\u3040-\u30ff\u4e00-\u9fff]{1,3}", t.strip())]
    assert not lone, lone
    assert face in svg.decode()


def test_english_labels_stay_one_run_too(qapp, index):
    texts = _texts(render_board_svg(x99_4x3090(None), index, 1200, "en"))
    assert any(t.startswith("case takes cards up to") or "cards up to" in t for t in texts), texts
