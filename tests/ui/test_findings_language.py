"""The findings panel in the language chosen in Preferences (issue 19)."""
from __future__ import annotations

from rigbuilder.config import DictStore, Preferences
from rigbuilder.rules.engine import run_checks
from rigbuilder.ui.panels import FindingsPanel
from tests.builds import x99_4x3090


def test_findings_panel_renders_in_the_chosen_language(qtbot, index):
    findings = run_checks(x99_4x3090(None), index)
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    panel.show_findings(findings)
    en = [panel.tree.topLevelItem(i).text(2) for i in range(panel.tree.topLevelItemCount())]
    assert en[0].startswith(findings[0].message[:40])
    panel.set_language("de")
    de = [panel.tree.topLevelItem(i).text(2) for i in range(panel.tree.topLevelItemCount())]
    assert len(de) == len(en) and all(a != b for a, b in zip(de, en))
    assert panel.tree.headerItem().text(3) == "Abhilfe" and "Fehler:" in panel.summary.text()
    assert "Nicht geprüft:" in panel.tree.topLevelItem(0).toolTip(2)
    panel.set_language("ja")
    assert "Netzteil" not in panel.tree.topLevelItem(0).text(3)
    panel.set_language("en")
    assert [panel.tree.topLevelItem(i).text(2) for i in range(panel.tree.topLevelItemCount())] == en


def test_language_preference_is_typed_and_defaults_to_the_system():
    prefs = Preferences.open(DictStore())
    assert prefs.get("ui/language") == "system"
    assert prefs.language({"LANG": "fr_FR.UTF-8"}) == "fr"
    prefs.set("ui/language", "zh_CN")
    assert prefs.language({"LANG": "fr_FR.UTF-8"}) == "zh_CN"
    import pytest

    with pytest.raises(ValueError, match="Language"):
        prefs.set("ui/language", "xx")
    prefs.store["ui/language"] = "garbage"  # a hand-edited settings file: the default, no error
    assert prefs.get("ui/language") == "system"


def test_preferences_dialog_has_a_language_tab(qtbot):
    from rigbuilder.catalog.prices import load_rates
    from rigbuilder.ui.preferences import PreferencesDialog

    prefs = Preferences.open(DictStore())
    rates = load_rates()
    dlg = PreferencesDialog(None, prefs, rates, rates, today="2026-01-01")
    qtbot.addWidget(dlg)
    tab = dlg.language
    assert dlg.tabs.tabText(dlg.tabs.indexOf(tab)) == "Language"
    assert tab.language.currentData() == "system"
    tab.language.setCurrentIndex(tab.language.findData("ja"))
    assert dlg.result_value().values["ui/language"] == "ja"


def test_rule_codes_help_in_the_language():
    from rigbuilder.ui.help import rule_codes_html

    de = rule_codes_html("de")
    assert "Netzteil" in de and "In Befunden zitierte Veröffentlichungen" in de and "thermal.open-air-gap" in de
    assert rule_codes_html("en") == rule_codes_html()
    assert "电源" in rule_codes_html("zh_CN") and "電源ユニット" in rule_codes_html("ja")
