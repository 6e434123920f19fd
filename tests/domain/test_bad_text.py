"""``bad_text``'s one-scan fast path (a regular expression) objects to exactly what its character
loop objects to: the loop, written out here, is the reference."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rigbuilder.domain.safeio import bad_text


def reference(s: str, multiline: bool) -> bool:
    for ch in s:
        if ch in "\n\r\u2028\u2029\x85":
            if multiline:
                continue
            return True
        if ch != "\t" and (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0):
            return True
    return False


TEXTS = st.text(alphabet=st.one_of(st.characters(max_codepoint=0xA1, exclude_categories=("Cs",)),
                                   st.sampled_from("\u2028\u2029\x85\t\u00e9\u65e5")), max_size=12)


@settings(max_examples=400)
@given(TEXTS, st.booleans())
def test_the_fast_path_agrees_with_the_character_loop(s, multiline):
    assert (bad_text(s, multiline) is not None) == reference(s, multiline)


def test_what_it_says():
    assert bad_text("RTX 3090\tFE") is None and bad_text("a\nb") is None
    assert bad_text("a\nb", multiline=False) == "holds a line break (character 2); it must be one line"
    assert bad_text("a\x1b[31m") == "holds a control character (U+001B at character 2)"
    assert bad_text("x\x9f") == "holds a control character (U+009F at character 2)"
    assert bad_text("a\ud800").startswith("holds a character that is not valid text (U+D800")
