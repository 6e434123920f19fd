"""Every text the code marks for translation reaches the catalogs (issue 19).

Babel's extractor (scripts/i18n.py) does not look inside f-strings on Python 3.11: a ``_("...")``,
``T("...")``, ``tr("...")`` or ``N_("...")`` written inside one is never catalogued unless the same
text is marked elsewhere, and would stay English in every language without a test noticing."""
from __future__ import annotations

import ast
from pathlib import Path

from rigbuilder.domain.i18n import catalog

ROOT = Path(__file__).resolve().parents[2] / "rigbuilder"
MARKERS = ("_", "N_", "T", "tr")


def _marked_inside_f_strings():
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                for call in ast.walk(node):
                    if (isinstance(call, ast.Call) and getattr(call.func, "id", None) in MARKERS and call.args
                            and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                        yield f"{path.relative_to(ROOT.parent)}:{call.lineno}", call.args[0].value


def test_texts_marked_inside_f_strings_are_catalogued_anyway():
    found = list(_marked_inside_f_strings())
    for lang in ("de", "fr", "ja", "zh_CN"):
        cat = catalog(lang)
        missing = [(where, text) for where, text in found if not cat.get(text)]
        assert not missing, f"{lang}: marked inside an f-string, so never extracted: {missing[:5]}"
