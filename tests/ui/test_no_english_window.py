"""No English in a translated window (issue 43): the main window with every panel loaded, and each
of its dialogs (the optimiser, Compare Builds, the preferences, a price, a power limit, Update Prices,
Import Parts List, the rule codes, About) and Qt's own (the file chooser, a message box's buttons),
made in German, French, Japanese and Chinese, hold none of a list of English words once the data
they quote (part and board names, sources, citations, commands, rule codes) is taken out.

The word test is ``tests/test_no_english.py``'s (``english_in``), with the words these windows and
Qt's dialogs would show were they left in English."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox, QTextBrowser, QWidget

from rigbuilder.ui.i18n import ui_language_set
from rigbuilder.ui.qt_language import install_qt_translations
from tests.builds import x99_4x3090
from tests.test_no_english import Quoted, _data, english
from tests.ui.i18n_walk import _texts

LANGS = ("de", "fr", "ja", "zh_CN")


def _column_names_and_groups() -> list[str]:
    """Literal words the windows quote: the rule codes' group names (headings of the rule-codes page),
    the columns a price feed must have (a file's column ids), the licences' required attributions."""
    from rigbuilder.rules.engine import RULE_CODES
    from rigbuilder.ui.about import EPOCH_ATTRIBUTION, OPENDB_ATTRIBUTION

    return [EPOCH_ATTRIBUTION, OPENDB_ATTRIBUTION, "part_id"] + sorted({c.split(".")[0] for c in RULE_CODES})


def texts_of(root: QWidget) -> list[tuple[str, str]]:
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        for where, text in _texts(w):
            if text:
                out.append((f"{type(w).__name__}({w.objectName()}).{where}", text))
        if isinstance(w, QTextBrowser):
            out.append((f"{type(w).__name__}.page", w.toPlainText()))
    for a in root.findChildren(QAction):
        for where, text in (("text", a.text()), ("toolTip", a.toolTip()), ("statusTip", a.statusTip())):
            if text:
                out.append((f"QAction.{where}", text))
    return out


@pytest.fixture(scope="module")
def window_data(index) -> Quoted:
    """What the window of ``x99_4x3090(None)`` and its dialogs quote: the build's data, every part's
    name and source, the literal column names and rule groups (made once for the four languages)."""
    build = x99_4x3090(None)
    return Quoted(sorted(set(_data(index, [build]) + [x for p in index for x in (p.name, p.source) if x and len(x) > 2]
                             + [x for x in _column_names_and_groups() if "_" in x or " " in x]), key=len, reverse=True))


@pytest.fixture
def in_language(qapp):
    old = QLocale()
    made = []

    def enter(lang):
        cm = ui_language_set(lang)
        cm.__enter__()
        made.append(cm)
        install_qt_translations(lang)
        QLocale.setDefault(QLocale(lang))

    yield enter
    install_qt_translations("en")
    QLocale.setDefault(old)
    for cm in reversed(made):
        cm.__exit__(None, None, None)


def _dialogs(win, qtbot, index, lang) -> list[QWidget]:
    """Every dialog of the window, made as the window makes it, not shown modally."""
    from rigbuilder.config import DictStore, Preferences
    from rigbuilder.rules.optimise import scoring as optimise_scoring
    from rigbuilder.ui.about import about_box
    from rigbuilder.ui.help import show_rule_codes
    from rigbuilder.ui.list_import_dialog import ListImportDialog
    from rigbuilder.ui.power_limit_dialog import PowerLimitDialog
    from rigbuilder.ui.preferences import PreferencesDialog
    from rigbuilder.ui.price_update import UpdatePricesDialog
    from rigbuilder.ui.pricing import PriceDialog, PriceEntry
    from tests.rules.optimise_helpers import StandIn

    optimise_scoring.shipped_scorer = lambda workload, params=None: StandIn()
    win.tools.optimise_build()
    win.tools.compare_builds()
    win.tools.show_rule_codes()
    rates = index.prices.rates
    made = [win.tools.optimiser, win.tools.comparer, win.tools.rule_codes,
            about_box(win),
            PreferencesDialog(win, Preferences.open(DictStore()), rates, rates, today="2026-11-29"),
            PriceDialog(win, "ASUS Turbo RTX 3090", "build", PriceEntry(650, "EUR", "used", "listing"), ["EUR", "USD"],
                        can_remove=True),
            PowerLimitDialog(win, "GPU 1", "GPU 1", 280.0, 350.0),
            UpdatePricesDialog(win, index),
            ListImportDialog(index, win)]
    fd = QFileDialog(win, "x")
    fd.setOption(QFileDialog.Option.DontUseNativeDialog)
    box = QMessageBox(QMessageBox.Icon.Question, "x", "x",
                      QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                      | QMessageBox.StandardButton.Cancel | QMessageBox.StandardButton.Yes
                      | QMessageBox.StandardButton.No | QMessageBox.StandardButton.Close, win)
    made += [fd, box]
    for d in made:
        if d.parent() is None:
            qtbot.addWidget(d)
    return made


@pytest.mark.parametrize("lang", LANGS)
def test_the_window_and_every_dialog_hold_no_english(make_window, qtbot, index, window_data, in_language, lang,
                                                     monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", optimise_scoring.shipped_scorer)
    in_language(lang)
    build = x99_4x3090(None)
    win = make_window(build)
    assert win.graphs_loader.load() is not None
    assert win.adviser_loader.load() is not None
    win.show()
    data = window_data
    found = []
    for top in [win, *_dialogs(win, qtbot, index, lang)]:
        for where, text in texts_of(top):
            words = english(text, data, lang)
            if words:
                found.append((type(top).__name__, where, words, text[:120]))
    for d in (win.tools.optimiser, win.tools.comparer, win.tools.rule_codes):
        d.close()
    assert not found, "\n".join(map(str, found[:40]))


def test_the_walk_finds_english_where_it_is_left(make_window, qtbot, index):
    """The test can fail: the English window holds the words it looks for."""
    win = make_window(x99_4x3090(None))
    data = Quoted(_data(index, [win.doc.build]))
    found = [w for _where, text in texts_of(win) for w in english(text, data, "de")]
    assert found
