"""Tools > Update Prices… (issue 38): the feed fetched off the GUI thread from a local http server,
previewed, Apply only when every row is good; Cancel stops a slow feed."""
from __future__ import annotations

import pytest

from rigbuilder.ui.price_update import UpdatePricesDialog
from tests.files.feedserver import feed_server


@pytest.fixture(scope="module")
def server():
    with feed_server() as url:
        yield url


def test_a_good_feed_can_be_applied(qtbot, index, server):
    dlg = UpdatePricesDialog(None, index)
    qtbot.addWidget(dlg)
    dlg.start(server + "/good.csv")
    qtbot.waitUntil(lambda: not dlg.running, timeout=20000)
    assert dlg.feed is not None and dlg.feed.applicable and dlg.apply_button.isEnabled()
    assert "all 2 rows good" in dlg.status.text() and "gpu-nvidia-rtx-3090-fe" in dlg.view.toPlainText()


def test_a_feed_with_a_bad_row_cannot_be_applied(qtbot, index, server):
    dlg = UpdatePricesDialog(None, index)
    qtbot.addWidget(dlg)
    dlg.start(server + "/currency.csv")
    qtbot.waitUntil(lambda: not dlg.running, timeout=20000)
    assert not dlg.apply_button.isEnabled() and "nothing applied" in dlg.status.text()
    assert "XYZ" in dlg.view.toPlainText()


def test_cancel_stops_a_slow_feed(qtbot, index, server):
    dlg = UpdatePricesDialog(None, index)
    qtbot.addWidget(dlg)
    dlg.start(server + "/slow.csv")
    assert dlg.running and dlg.cancel_button.isEnabled() and not dlg.progress.isHidden()
    dlg.cancel()
    qtbot.waitUntil(lambda: not dlg.running, timeout=20000)
    assert "Cancelled" in dlg.status.text() and dlg.feed is None and not dlg.apply_button.isEnabled()


def test_a_hostile_feed_is_named_not_a_traceback(qtbot, index, server):
    dlg = UpdatePricesDialog(None, index)
    qtbot.addWidget(dlg)
    dlg.start(server + "/deep.json")
    qtbot.waitUntil(lambda: not dlg.running, timeout=20000)
    assert "nested deeper than 32 levels" in dlg.status.text() and not dlg.apply_button.isEnabled()


def test_the_tools_menu_applies_the_feed_to_your_prices(qtbot, index, server, tmp_path):
    from PySide6.QtCore import QSettings

    from rigbuilder.catalog.store import Catalog
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.files.pricefeed import fetch, read_feed
    from rigbuilder.ui.main_window import MainWindow
    from tests.ui.conftest import FakeDialogs

    idx = PartIndex(list(index), version="test", prices=index.prices)
    cat = Catalog(idx, "test", [], user_path=tmp_path / "user-parts.sqlite")
    cat.reload_user()
    win = MainWindow(idx, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), dialogs_factory=FakeDialogs,
                     catalog=cat, rates_path=tmp_path / "rates.json")
    qtbot.addWidget(win)
    assert win.act_update_prices.text() == "Update &Prices…"
    win.dialogs.price_update_answer = read_feed(fetch(server + "/good.csv"), server + "/good.csv", idx, idx.prices.rates)
    win.act_update_prices.trigger()
    mine = [o for o in win.doc.index.prices.for_part("gpu-nvidia-rtx-3090-fe") if o.origin == "user"]
    assert [(o.amount, o.condition) for o in mine] == [(690, "used")]
    win.close()


def test_the_tools_menu_shares_the_feed_in_the_lab_when_asked(qtbot, index, server, tmp_path):
    """With a lab database in the preferences the dialog offers to share the prices there too; asked
    to, the window writes them into the lab (with their market) before storing them as yours."""
    from PySide6.QtCore import QSettings

    from rigbuilder.catalog.labdb import LabDb
    from rigbuilder.catalog.store import Catalog
    from rigbuilder.domain.catalog import PartIndex
    from rigbuilder.files.pricefeed import fetch, read_feed
    from rigbuilder.ui.main_window import MainWindow
    from tests.ui.conftest import FakeDialogs

    dlg = UpdatePricesDialog(None, index, lab_url="sqlite:///lab.sqlite")
    qtbot.addWidget(dlg)
    assert not dlg.share_box.isHidden() and not dlg.share_box.isChecked()
    plain = UpdatePricesDialog(None, index)
    qtbot.addWidget(plain)
    assert plain.share_box.isHidden()

    lab = f"sqlite:///{tmp_path / 'lab.sqlite'}"
    idx = PartIndex(list(index), version="test", prices=index.prices)
    cat = Catalog(idx, "test", [], user_path=tmp_path / "user-parts.sqlite")
    cat.reload_user()
    win = MainWindow(idx, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), dialogs_factory=FakeDialogs,
                     catalog=cat, rates_path=tmp_path / "rates.json")
    qtbot.addWidget(win)
    win.prefs.set("lab/database_url", lab)
    feed = read_feed(fetch(server + "/good.csv"), server + "/good.csv", idx, idx.prices.rates)
    feed.share_in_lab = True
    win.dialogs.price_update_answer = feed
    win.act_update_prices.trigger()
    assert win.dialogs.asked_price_update_lab == lab
    db = LabDb.open(lab)
    try:
        assert db.price("gpu-nvidia-rtx-3090-fe", "used").values["amount"] == 690
    finally:
        db.close()
    mine = [o for o in win.doc.index.prices.for_part("gpu-nvidia-rtx-3090-fe") if o.origin == "user"]
    assert [(o.amount, o.condition) for o in mine] == [(690, "used")]
    win.close()
