"""Help > Rule Codes lists every code the engine can emit."""
from __future__ import annotations

from rigbuilder.rules.engine import RULE_CODES
from rigbuilder.ui.help import rule_codes_html
from tests.builds import frank_2070


def test_every_rule_code_is_explained():
    html = rule_codes_html()
    for code in RULE_CODES:
        assert f"<code>{code}</code>" in html


def test_findings_only_use_documented_codes(index):
    from rigbuilder.rules.engine import run_checks
    for n in (1, 2, 4):
        for f in run_checks(frank_2070(n), index):
            assert f.code in RULE_CODES, f.code


def test_help_menu_opens_the_rule_codes(make_window):
    from PySide6.QtWidgets import QTextBrowser
    win = make_window()
    win.tools.show_rule_codes()
    assert win.tools.rule_codes.isVisible()
    assert "thermal.open-air-gap" in win.tools.rule_codes.findChild(QTextBrowser).toPlainText()
    win.tools.rule_codes.close()
