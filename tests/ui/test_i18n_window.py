"""The window's own texts in the catalogs (issue 19): menus, actions, docks, status bar, toolbar,
the preferences, price and about dialogs and the rule-codes window.

Under the pseudo-language every catalogued text reads ⟦text⟧; ``raw_texts`` lists what is left
outside the brackets. The child panels other parts of the window own (catalog, findings, parts
list, graphs, adviser, board) are left out here: their own tests check them.
"""
from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractButton, QDialogButtonBox, QMenu, QTextBrowser, QWidget

from rigbuilder.domain.i18n import PSEUDO
from rigbuilder.ui.i18n import ui_language_set
from tests.builds import x99_4x3090
from tests.ui.i18n_walk import bare, raw_texts


def _other_panels() -> tuple[type, ...]:
    from rigbuilder.ui.adviser_panel import AdviserPanel
    from rigbuilder.ui.boardview import BoardView
    from rigbuilder.ui.catalog_panel import CatalogPanel
    from rigbuilder.ui.graphs import PowerCostPanel
    from rigbuilder.ui.panels import BuildPartsPanel, FindingsPanel

    return (CatalogPanel, FindingsPanel, BuildPartsPanel, PowerCostPanel, AdviserPanel, BoardView)


def _inside(w, kinds: tuple[type, ...]) -> bool:
    while w is not None:
        if isinstance(w, kinds):
            return True
        w = w.parent()
    return False


def _qt_standard_button(w: QWidget) -> bool:
    """OK / Cancel / Close of a button box: Qt's own texts, translated by Qt's catalogs
    (``rigbuilder.app.install_qt_translations``), not ours."""
    box = w.parent()
    return (isinstance(w, QAbstractButton) and isinstance(box, QDialogButtonBox)
            and box.standardButton(w) != QDialogButtonBox.StandardButton.NoButton)


def _window_chrome_raw(win) -> list[str]:
    """raw_texts of the main window without the other helpers' panels (their widgets and actions)."""
    kinds = _other_panels()
    found = raw_texts(win, skip=lambda w: _inside(w, kinds) or _qt_standard_button(w))
    from PySide6.QtGui import QAction

    theirs = set()
    for a in win.findChildren(QAction):
        if _inside(a.parent(), kinds):
            for where, text in (("text", a.text()), ("toolTip", a.toolTip()), ("statusTip", a.statusTip())):
                theirs.add(f"QAction.{where}: {text!r}")
    return [f for f in found if f not in theirs]


@pytest.fixture
def pseudo_window(make_window):
    with ui_language_set(PSEUDO):
        win = make_window(x99_4x3090())
        assert win.graphs_loader.load() is not None
        assert win.adviser_loader.load() is not None
        win.show()
        yield win


def test_main_window_chrome_is_all_in_the_catalogs(pseudo_window):
    win = pseudo_window
    menus = [m for m in win.menuBar().findChildren(QMenu)]
    assert len(menus) >= 6  # File, Open Recent, Export, Edit, Tools, View, Help
    assert all(m.title().startswith("\u27e6") for m in menus if m.title())
    assert win.windowTitle().startswith("\u27e6")
    assert win.act_undo.text().startswith("\u27e6")  # QUndoStack's prefix, translated
    assert _window_chrome_raw(win) == []


def test_status_bar_and_undo_texts_in_the_catalogs(pseudo_window):
    win = pseudo_window
    assert bare(win.status.text()) == "", win.status.text()
    assert not win.doc.undo_stack.canUndo()
    assert win.history.tooltip(win.history.undo) == "\u27e6Undo\u27e7"
    win.edits.ask_power_limit(None)  # nothing selected: says so in the status bar
    assert win.statusBar().currentMessage() and bare(win.statusBar().currentMessage()) == ""
    win.edits.arrange_gpus()  # a status-bar message or a dialog, both through the catalogs
    assert bare(win.statusBar().currentMessage()) == ""
    assert all(bare(t) == "" for pair in win.dialogs.infos + win.dialogs.errors for t in pair)


def test_preferences_dialog_in_the_catalogs(qtbot, index):
    from rigbuilder.config import DictStore, Preferences
    from rigbuilder.ui.preferences import PreferencesDialog

    with ui_language_set(PSEUDO):
        rates = index.prices.rates
        dlg = PreferencesDialog(None, Preferences.open(DictStore()), rates, rates, today="2026-11-24")
        qtbot.addWidget(dlg)
        for i in range(dlg.tabs.count()):
            dlg.tabs.setCurrentIndex(i)
        # each language is named in itself (data): that list is checked apart
        assert raw_texts(dlg, skip=lambda w: w.objectName() == "languages" or _qt_standard_button(w)) == []
        from rigbuilder.domain.i18n import LANGUAGES

        combo = dlg.language.language
        assert bare(combo.itemText(0)) == ""
        assert [combo.itemText(i) for i in range(1, combo.count())] == list(LANGUAGES.values())
        # The rates table's cells too (raw_texts reads only a table's headers).
        t = dlg.money.table
        cells = [t.item(r, c).text() for r in range(t.rowCount()) for c in (0, 3)]
        assert cells and [c for c in cells if bare(c)] == []
        assert "next starts" in dlg.language.note.text()


def test_price_dialog_in_the_catalogs(qtbot):
    from rigbuilder.ui.pricing import PriceDialog, PriceEntry

    with ui_language_set(PSEUDO):
        for scope in ("catalog", "build"):
            dlg = PriceDialog(None, "ASUS Turbo RTX 3090", scope, PriceEntry(650, "EUR", "used", "listing"),
                              ["EUR", "USD"], can_remove=True)
            qtbot.addWidget(dlg)
            # the part's name is data: its own label, left out
            assert raw_texts(dlg, skip=lambda w: w.objectName() == "partName" or _qt_standard_button(w)) == []
            assert dlg.part_label.text() == "ASUS Turbo RTX 3090"
            dlg._ok()
            assert dlg.choice == PriceEntry(650, "EUR", "used", "listing")  # the condition's key, not its label


def test_about_box_in_the_catalogs(qtbot):
    from rigbuilder.ui.about import about_box

    with ui_language_set(PSEUDO):
        box = about_box(None)
        qtbot.addWidget(box)
        assert raw_texts(box, skip=_qt_standard_button) == []


def test_rule_codes_window_in_the_catalogs(qtbot):
    from rigbuilder.domain.publications import PUBLICATIONS
    from rigbuilder.rules.engine import RULE_CODES
    from rigbuilder.ui.help import show_rule_codes

    with ui_language_set(PSEUDO):
        dlg = show_rule_codes(None, PSEUDO)
        qtbot.addWidget(dlg)
        browser = dlg.findChild(QTextBrowser)
        assert raw_texts(dlg, skip=lambda w: w is browser or _qt_standard_button(w)) == []
        # The page: rule codes, their groups and the publications' citations are data; every
        # other word comes from the catalogs.
        text = browser.toPlainText()
        for code in sorted(RULE_CODES, key=len, reverse=True):
            text = text.replace(code, " ")
        for group in {c.split(".")[0] for c in RULE_CODES}:
            text = re.sub(rf"(?m)^{re.escape(group)}$", " ", text)
        for p in PUBLICATIONS:
            text = text.replace(p.full(), " ").replace(p.short, " ")
        assert bare(text) == ""


def test_menus_in_german_and_japanese(make_window):
    for lang, file_menu, edit_menu, undo in (("de", "&Datei", "&Bearbeiten", "&Rückgängig"),
                                               ("ja", "ファイル(&F)", "編集(&E)", "元に戻す(&U)")):
        with ui_language_set(lang):
            win = make_window(x99_4x3090())
            titles = [a.text() for a in win.menuBar().actions()]
            assert titles[:2] == [file_menu, edit_menu], titles
            assert win.act_undo.text() == undo
            assert win.money.act_prefs.text() in ("&Einstellungen …", "設定(&P)…")
            # The findings panel follows the window's language, not the preference alone.
            assert win.findings_panel.lang == lang
            assert ("Katalog" if lang == "de" else "カタログ") in win.status.text()
            new = make_window()  # a build never named: 'Untitled build' in the window's language
            assert new.windowTitle().startswith("Unbenannter Build" if lang == "de" else "無題の構成")
            assert new.doc.build.name == ""  # a never-named build stores no name (no English in its file)


def test_preferences_dialog_in_german(qtbot, index):
    from rigbuilder.config import DictStore, Preferences
    from rigbuilder.ui.preferences import PreferencesDialog

    with ui_language_set("de"):
        rates = index.prices.rates
        dlg = PreferencesDialog(None, Preferences.open(DictStore()), rates, rates, today="2026-11-24")
        qtbot.addWidget(dlg)
        tabs = [dlg.tabs.tabText(i) for i in range(dlg.tabs.count())]
        assert tabs == ["Geld", "Darstellung", "Sprache", "Labordatenbank"]
        assert "nächsten Start" in dlg.language.note.text()
        assert dlg.money.currency.itemText(0) == "Die Währung der Region"
    with ui_language_set("ja"):
        dlg = PreferencesDialog(None, Preferences.open(DictStore()), rates, rates, today="2026-11-24")
        qtbot.addWidget(dlg)
        assert [dlg.tabs.tabText(i) for i in range(dlg.tabs.count())] == ["お金", "外観", "言語", "ラボのデータベース"]
        usd = dlg.money.currency.itemText(dlg.money.currency.findData("USD"))
        assert usd.startswith("USD") and "ドル" in usd  # the currency's name from CLDR, in Japanese


def test_undo_command_text_in_the_window_language(make_window):
    """QUndoStack prefixes the command's text with the action's translated prefix."""
    from rigbuilder.domain.edits import SetAllPowerLimits

    with ui_language_set("de"):
        win = make_window(x99_4x3090())
        assert win.edits.do(SetAllPowerLimits(250.0))
        assert win.act_undo.text().startswith("&Rückgängig ")
        assert "Power limit" not in win.act_undo.text()  # the edit's own text in German too
        assert win.history.tooltip(win.history.undo).startswith("Rückgängig: ")


def test_a_language_change_says_it_takes_effect_at_the_next_start(make_window):
    from rigbuilder.ui.preferences import PreferencesResult

    win = make_window()
    win.dialogs.preferences_answer = PreferencesResult({"ui/language": "de"})
    win.money.act_prefs.trigger()
    assert win.prefs.get("ui/language") == "de"
    assert win.dialogs.infos == [("Language", "The new language takes effect when rigbuilder next starts.")]
    # The same language again, or another option: no message.
    win.dialogs.preferences_answer = PreferencesResult({"ui/language": "de", "appearance/units": "mm"})
    win.money.act_prefs.trigger()
    assert len(win.dialogs.infos) == 1


def test_window_passes_its_own_language_to_findings_and_reports(make_window, monkeypatch):
    """Menus and findings never disagree: the preference changes only at the next start."""
    import rigbuilder.ui.printing as printing

    seen = {}

    def fake_report_html(build, index, workload, lang, **checked):
        seen["lang"] = lang
        seen["checked"] = checked  # the document's context and findings: the report does not judge again
        return "<p>report</p>"

    monkeypatch.setattr(printing, "report_html", fake_report_html)
    with ui_language_set("ja"):
        win = make_window(x99_4x3090())
        win.prefs.set("ui/language", "fr")  # chosen in the preferences during this run
        win.reports.html()
        assert seen["lang"] == "ja"
        assert seen["checked"]["context"] is win.doc.context and seen["checked"]["findings"] is win.doc.findings


def test_every_region_label_is_marked():
    from rigbuilder.domain.build import REGIONS
    from rigbuilder.domain.i18n import catalog

    for lang in ("de", "fr", "ja", "zh_CN"):
        assert all(catalog(lang).get(r.label) for r in REGIONS.values()), lang


def test_qt_standard_buttons_follow_the_language(qtbot):
    from rigbuilder.app import install_qt_translations

    try:
        assert install_qt_translations("de")
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        qtbot.addWidget(box)
        assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "Abbrechen"
    finally:
        install_qt_translations("en")


def test_the_app_window_reads_and_writes_numbers_in_its_language(qtbot, tmp_path, monkeypatch):
    """Spin boxes (price per kWh, rates, budget) follow the window's language: 0,9523 in German."""
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QDoubleSpinBox

    from rigbuilder.app import create_main_window, make_settings
    from rigbuilder.config import Paths, Preferences
    from rigbuilder.ui.i18n import set_ui_language, ui_language

    monkeypatch.setenv("RIGBUILDER_DATA_DIR", str(tmp_path))
    paths = Paths.from_env()
    Preferences.open(make_settings(paths)).set("ui/language", "de")
    old_locale, old_lang = QLocale(), ui_language()
    try:
        win = create_main_window(paths, None)
        qtbot.addWidget(win)
        box = QDoubleSpinBox()
        box.setDecimals(4)
        box.setValue(0.9523)
        assert box.text() == "0,9523"
        win.doc.undo_stack.setClean()
    finally:
        from rigbuilder.app import install_qt_translations

        install_qt_translations("en")  # takes Qt's German buttons out again
        QLocale.setDefault(old_locale)
        set_ui_language(old_lang)
