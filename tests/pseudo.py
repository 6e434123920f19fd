"""What the pseudo-language leaves outside the catalogs (issue 19), without Qt.

Under ``rigbuilder.domain.i18n.PSEUDO`` every catalogued text reads ``⟦text⟧``; ``bare(text)``
returns the words left once the wrapped parts (innermost first) and HTML tags are taken out: ''
when everything came from the catalogs. Used by the command-line tests and, for widgets, by
tests/ui/i18n_walk.py."""
from __future__ import annotations

import html
import re

_WRAPPED = re.compile("\u27e6[^\u27e6\u27e7]*\u27e7")
_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"[A-Za-z]*[a-z]{3,}[A-Za-z]*")  # a word with three lower-case letters: prose, not 'W', 'mm', 'EUR'


def bare(text: str) -> str:
    """The words of ``text`` outside the pseudo-language's brackets ('' when none)."""
    if not text:
        return ""
    rest = text
    while True:  # innermost first: a figure rendered inside a text is wrapped inside it
        shorter = _WRAPPED.sub(" ", rest)
        if shorter == rest:
            break
        rest = shorter
    rest = html.unescape(_TAG.sub(" ", rest))
    return " ".join(_WORD.findall(rest))
