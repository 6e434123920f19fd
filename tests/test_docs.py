"""The docs stay true to the code: every rule code is documented."""
from __future__ import annotations

import ast
from pathlib import Path

from rigbuilder.rules.engine import RULE_CODES

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_rule_code_is_in_docs_rules_md():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    missing = [c for c in RULE_CODES if f"`{c}`" not in text]
    assert not missing, f"docs/rules.md does not describe: {missing}"


def asserted_strings(source: str) -> set[str]:
    """Strings a test asserts on: inside an ``assert``, or given to the ``found(findings, code)``
    helper whose result the test asserts on. A code only mentioned (a docstring, a build's
    name, a list never checked) does not count."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assert):
            scope = node.test
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "found":
            scope = node
        else:
            continue
        out |= {c.value for c in ast.walk(scope) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return out


def test_every_rule_code_has_a_test():
    """Issue 3: every rule has tests on real catalog parts; a new code without one fails here."""
    asserted = set()
    for p in Path(__file__).parent.rglob("test_*.py"):
        if p.name != "test_docs.py":
            asserted |= asserted_strings(p.read_text(encoding="utf-8"))
    untested = [c for c in RULE_CODES if c not in asserted]
    assert not untested, f"no test asserts on these rule codes: {untested}"


def test_a_code_only_mentioned_is_not_counted_as_tested():
    mentioned = '''
def test_x():
    """slot.blocked is covered elsewhere"""
    codes = ["thermal.open-air-gap"]
    run("lanes.generation")
    assert True
'''
    assert asserted_strings(mentioned) == set()
    assert asserted_strings('def t():\n    assert "slot.blocked" in codes\n') == {"slot.blocked"}
