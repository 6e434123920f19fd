"""Help > Rule Codes: what each finding code means, from the check engine's own table.

``rule_codes_html()`` builds the page (testable without a dialog); ``show_rule_codes(parent)``
shows it in a non-modal window the user can keep open beside the findings.
"""
from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from rigbuilder.domain.i18n import N_, gettext
from rigbuilder.domain.publications import PUBLICATIONS
from rigbuilder.rules.engine import RULE_CODES


INTRO = N_("<p>Every finding carries one of these codes. <code>rigbuilder check FILE --only CODE</code> "
           "filters by a code or its prefix (e.g. <code>thermal</code>); each finding's tooltip says "
           "what its check does not cover.</p>")
PUBLICATIONS_HEAD = N_("Publications cited in findings")
RULE_CODES_TITLE = N_("Rule codes - rigbuilder")


def rule_codes_html(lang: str = "en") -> str:
    """The rule codes and what each reports, in ``lang`` (issue 19)."""
    rows = []
    group = None
    for code, text in RULE_CODES.items():
        g = code.split(".")[0]
        if g != group:
            group = g
            rows.append(f"<tr><td colspan='2'><h3>{escape(g)}</h3></td></tr>")
        rows.append(f"<tr><td style='padding-right:12px'><code>{escape(code)}</code></td><td>{escape(gettext(text, lang))}</td></tr>")
    return (gettext(INTRO, lang) + f"<table>{''.join(rows)}</table>"
            f"<h3>{escape(gettext(PUBLICATIONS_HEAD, lang))}</h3>"
            f"<ul>{''.join(f'<li><b>{escape(p.short)}</b>: {escape(p.full())}</li>' for p in PUBLICATIONS)}</ul>")


def show_rule_codes(parent: QWidget, lang: str = "en") -> QDialog:
    dlg = QDialog(parent)
    dlg.setWindowTitle(gettext(RULE_CODES_TITLE, lang))
    text = QTextBrowser()
    text.setHtml(rule_codes_html(lang))
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dlg.close)
    lay = QVBoxLayout(dlg)
    lay.addWidget(text)
    lay.addWidget(buttons)
    dlg.resize(640, 560)
    dlg.show()
    return dlg
