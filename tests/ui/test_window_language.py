"""The window speaks the language asked for (issue 43): ``rigbuilder --lang de app`` over the
preference; Qt's own dialogs (the file chooser's "Look in:", "Files of type:") in each language,
where Qt's shipped catalogs lack the texts with a keyboard mnemonic; the optimiser's default budget
in the build's currency."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractButton, QFileDialog, QLabel

from rigbuilder.ui.qt_language import install_qt_translations, with_mnemonic
from tests.builds import x99_4x3090

LANGS = ("de", "fr", "ja", "zh_CN")


@pytest.fixture
def qt_language(qapp):
    yield install_qt_translations
    install_qt_translations("en")


def _file_dialog_texts(qtbot) -> list[str]:
    d = QFileDialog(None, "x")
    d.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(d)
    return ([w.text() for w in d.findChildren(QLabel) if w.text()]
            + [b.text() or b.toolTip() for b in d.findChildren(QAbstractButton) if b.text() or b.toolTip()])


@pytest.mark.parametrize("lang", LANGS)
def test_qt_file_dialog_speaks_the_language(qtbot, qt_language, lang):
    assert qt_language(lang)
    texts = _file_dialog_texts(qtbot)
    joined = " ".join(texts)
    for english in ("Look in", "Files of", "File name", "Cancel", "Open", "Back"):
        assert english not in joined, (lang, texts)
    look_in = texts[0]
    assert "&" in look_in  # the keyboard mnemonic kept: Alt+letter still reaches the field


def test_without_the_fallback_qts_catalogs_leave_look_in_in_english(qtbot, qapp):
    """The gap the fallback fills is real: Qt's Japanese catalog alone leaves "&Look in:" English."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    t = QTranslator()
    assert t.load(QLocale("ja"), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    qapp.installTranslator(t)
    try:
        assert "&Look in:" in _file_dialog_texts(qtbot)
    finally:
        qapp.removeTranslator(t)


def test_english_takes_qts_translations_out_again(qtbot, qt_language):
    qt_language("ja")
    qt_language("en")
    assert "&Look in:" in _file_dialog_texts(qtbot)


def test_mnemonics_are_put_back_the_languages_way():
    assert with_mnemonic("アドレス:", "L", "ja") == "アドレス(&L):"
    assert with_mnemonic("查找范围：", "l", "zh_CN") == "查找范围(&L)："
    assert with_mnemonic("Voir dans :", "L", "fr") == "&Voir dans :"
    assert with_mnemonic("Fichiers de type :", "t", "fr") == "Fichiers de &type :"
    assert with_mnemonic("Datei&name:", "n", "de") == "Datei&name:"


def test_lang_option_opens_the_window_in_that_language(monkeypatch):
    """``rigbuilder --lang de app`` and ``rigbuilder --lang de`` hand ``de`` to the window."""
    import rigbuilder.app
    from rigbuilder import cli

    seen = []
    monkeypatch.setattr(rigbuilder.app, "run_app", lambda path=None, lang=None: seen.append((path, lang)) or 0)
    assert cli.main(["--lang", "de", "app"]) == 0
    assert cli.main(["app", "--lang=ja", "x.rig"]) == 0
    assert cli.main(["--lang", "fr"]) == 0
    assert cli.main(["app"]) == 0
    assert seen == [(None, "de"), ("x.rig", "ja"), (None, "fr"), (None, None)]


def test_the_asked_language_wins_over_the_preference(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QLocale

    from rigbuilder.app import create_main_window, make_settings
    from rigbuilder.config import Paths, Preferences
    from rigbuilder.ui.i18n import set_ui_language, ui_language

    monkeypatch.setenv("RIGBUILDER_DATA_DIR", str(tmp_path))
    paths = Paths.from_env()
    Preferences.open(make_settings(paths)).set("ui/language", "ja")
    old_locale, old_lang = QLocale(), ui_language()
    try:
        win = create_main_window(paths, None, lang="de")
        qtbot.addWidget(win)
        assert ui_language() == "de"
        assert win.menuBar().actions()[0].text() == "&Datei"
        win.doc.undo_stack.setClean()
        win.close()
        win2 = create_main_window(paths, None)  # no --lang: the preference
        qtbot.addWidget(win2)
        assert ui_language() == "ja"
        win2.doc.undo_stack.setClean()
        win2.close()
    finally:
        install_qt_translations("en")
        QLocale.setDefault(old_locale)
        set_ui_language(old_lang)


def test_the_optimisers_default_budget_is_in_the_builds_currency(make_window, monkeypatch):
    from rigbuilder.domain.market import default_budget
    from rigbuilder.rules.optimise import scoring as optimise_scoring
    from tests.rules.optimise_helpers import StandIn

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())
    build = x99_4x3090(None, region="JP-15A")
    build.settings.currency = "JPY"
    win = make_window(build)
    win.tools.optimise_build()
    dlg = win.tools.optimiser
    rates = win.doc.index.prices.rates
    assert dlg.currency.currentText() == "JPY"
    assert dlg.budget.value() == default_budget("JPY", rates) > 100_000
    assert 1500 < rates.convert(dlg.budget.value(), "JPY", "USD") < 2500
    dlg.close()
