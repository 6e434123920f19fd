"""Issue 25 as the seed readers walked it: a Japanese desktop's defaults, a region's currency, the
power-limit dialog with its suggestion and commands, seed 000's optimiser answer in the planner,
the graph's texts."""
from __future__ import annotations

import pytest

from rigbuilder.ui.i18n import ui_language_set
from tests.builds import x99_4x3090
from tests.rules.optimise_helpers import StandIn


def test_a_japanese_desktop_starts_on_japan_100_v_and_jpy(make_window, monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    win = make_window()
    s = win.doc.build.settings
    assert (s.region, s.currency, s.circuit_margin) == ("JP-15A", "JPY", 0.8)
    win.prefs.set("power/circuit_margin", 0.7)
    win.files.new_build()
    assert win.doc.build.settings.circuit_w() == pytest.approx(1050)


def test_a_german_desktop_starts_on_germany_and_a_british_one_on_uk(make_window, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    s = make_window().doc.build.settings  # Germany: its 16 A circuit, 19% VAT and BDEW's price of a kWh
    assert (s.region, s.currency, s.price_per_kwh) == ("DE-16A", "EUR", 0.397)
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    s = make_window().doc.build.settings
    assert (s.region, s.currency) == ("UK-13A", "GBP")


def test_choosing_a_region_offers_its_currency(make_window):
    win = make_window(x99_4x3090(region="EU-16A"))
    win.doc.build.settings.currency = "EUR"
    win.dialogs.currency_answer = False
    win.edits.edit_settings({"region": "JP-15A"})
    assert win.dialogs.offered_currency[1:] == ("JPY", "EUR")
    assert (win.doc.build.settings.region, win.doc.build.settings.currency) == ("JP-15A", "EUR")
    win.dialogs.currency_answer = True
    win.edits.edit_settings({"region": "US-15A"})
    assert (win.doc.build.settings.region, win.doc.build.settings.currency) == ("US-15A", "USD")


def test_the_power_limit_dialog_suggests_a_limit_and_shows_the_commands(qtbot, index):
    from rigbuilder.ui.power_limit_dialog import PowerLimitDialog, help_for

    b = x99_4x3090(None, region="JP-15A")
    help = help_for(b, index, None)
    assert help.suggested is not None and help.suggested < 280
    dlg = PowerLimitDialog(None, "t", "p", None, 350, help)
    qtbot.addWidget(dlg)
    assert dlg.value() == help.suggested  # no limit yet: it starts on the suggestion
    text = dlg.commands.toPlainText()
    assert "sudo nvidia-smi -pm 1" in text and f"sudo nvidia-smi -i 3 -pl {help.suggested}" in text
    assert "[Unit]" in text and "@reboot /usr/bin/nvidia-smi" in text and "systemctl enable" in text
    dlg.watts.setValue(250)
    assert "sudo nvidia-smi -i 0 -pl 250" in dlg.commands.toPlainText()
    dlg.use.click()
    assert dlg.value() == help.suggested
    assert "1500 W" in dlg.why.text() or "1,500" in dlg.why.text() or "1500" in dlg.why.text()


def test_the_dialog_in_japanese_has_no_english_but_the_commands(qtbot, index):
    from rigbuilder.ui.power_limit_dialog import PowerLimitDialog, help_for

    with ui_language_set("ja"):
        dlg = PowerLimitDialog(None, "t", "p", 280, 350, help_for(x99_4x3090(280, region="JP-15A"), index, 0))
        qtbot.addWidget(dlg)
        why = dlg.why.text()
        assert "推奨" in why and "日本 100 V / 15 A" in why and "Japan" not in why and "circuit" not in why
        notes = [line for line in dlg.commands.toPlainText().splitlines() if "crontab" in line]
        assert notes and "再起動" in notes[0]


def test_the_window_gives_the_dialogs_the_suggestion(make_window):
    win = make_window(x99_4x3090(None, region="JP-15A"))
    win.dialogs.power_limit = None
    win.edits.ask_all_power_limits()
    assert win.dialogs.limit_help.suggested is not None
    win.edits.ask_power_limit(2)
    assert win.dialogs.limit_help.suggested is not None and win.dialogs.limit_help.commands(200)


def test_seed_000_optimiser_answer_in_the_planner_says_what_it_lacks(qtbot, make_window, monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())
    win = make_window()
    win.tools.optimise_build()
    dlg = win.tools.optimiser
    dlg.budget.setValue(2000)
    dlg.prices.setCurrentText("both")
    dlg.gpus_now.setValue(1)
    dlg.grow_to.setValue(4)
    dlg.start()
    qtbot.waitUntil(lambda: not dlg.running, timeout=120000)  # a search on a shared machine (a loaded one took > 30 s)
    best = dlg.result.best
    lacks = best.today.missing_roles()
    if lacks:  # no memory kit has a price in the shipped catalog: said first in the details
        assert "Incomplete: without" in dlg.details.toPlainText().splitlines()[1]
    assert dlg.open_selected("grown")
    b = win.doc.build
    assert b.settings.budget is None  # the grown stage has its own money: no growth budget asked, so no cap
    assert b.name == str(best.grown.name)  # in the window's language (English here), stored as text
    codes = [f.code for f in win.doc.findings]
    assert ("build.incomplete" in codes) == bool(lacks)
    win.parts_panel.show_build(b, win.doc.index)
    total = win.parts_panel.total.text()
    if lacks:
        assert "without" in total and all(w in total for w in ("memory",) if "memory" in lacks)
        assert "without memory" in win.graphs_loader.load().figures.text()


def test_a_german_optimiser_answer_opens_with_a_german_name(qtbot, make_window, monkeypatch):
    from rigbuilder.rules.optimise import scoring as optimise_scoring

    monkeypatch.setattr(optimise_scoring, "shipped_scorer", lambda workload, params=None: StandIn())
    with ui_language_set("de"):
        win = make_window()
        win.tools.optimise_build()
        dlg = win.tools.optimiser
        dlg.budget.setValue(2000)
        dlg.prices.setCurrentIndex(dlg.prices.findData("both"))
        dlg.gpus_now.setValue(1)
        dlg.grow_to.setValue(4)
        dlg.start()
        qtbot.waitUntil(lambda: not dlg.running, timeout=120000)  # a search on a shared machine
        assert dlg.open_selected("grown")
        name = win.doc.build.name
        assert " auf " in name and "(ausgebaut)" in name and " on " not in name and "grown" not in name
        assert dlg.table.item(0, 0).text().count(" auf ") == 1


def test_graph_texts_fit_and_say_what_they_mean(make_window):
    win = make_window(x99_4x3090(None, region="EU-16A"))
    g = win.graphs_loader.load()
    assert g.eff_plot.getAxis("left").labelText == "%"  # a word on its side was cut ("ffizienz")
    with ui_language_set("de"):
        from rigbuilder.ui.i18n import _

        title = _("Power: bars DC, ◆ at the wall (circuit limit {watts:.0f} W: above the scale)", watts=2944)
        assert "Stromkreis" in title and "über der Skala" in title and "zu hoch" not in title
