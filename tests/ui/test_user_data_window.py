"""Issue 24 in the window: the data folder's settings, database and rates never stop it, are never
written through a link onto another file, and what happened is said once in a dialog."""
from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QSettings

from rigbuilder.catalog.store import Catalog
from rigbuilder.config import Paths
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.ui.pricing import PriceEntry
from tests.catalog.test_user_data_survives import file_size_limit, prices_in, stamp
from tests.ui.conftest import FakeDialogs, window_maker

PSU = "psu-evga-supernova-1600-t2"


@pytest.fixture
def app_window(qtbot):
    """The app's own window on the test's data folder (create_main_window, as the app starts it)."""
    from rigbuilder.app import create_main_window

    yield from window_maker(qtbot, lambda: create_main_window(Paths.from_env(), None, dialogs_factory=FakeDialogs))


def _data() -> Paths:
    p = Paths.from_env()
    p.data_dir.mkdir(parents=True, exist_ok=True)
    return p


def test_a_settings_link_out_of_the_data_folder_is_never_written_through(app_window, tmp_path, capsys):
    other = tmp_path / "someone-elses.conf"
    other.write_text("keep me\n")
    paths = _data()
    os.symlink(other, paths.data_dir / "settings.ini")
    win = app_window()
    win.settings.setValue("window/test", 1)
    win.close()
    win.settings.sync()
    assert other.read_text() == "keep me\n" and (paths.data_dir / "settings.ini").is_symlink()
    assert "outside the data folder" in capsys.readouterr().err
    win.show_notices()
    assert win.dialogs.errors and "outside the data folder" in win.dialogs.errors[-1][1]
    win.show_notices()  # once
    assert len(win.dialogs.errors) == 1


def test_a_settings_link_onto_the_users_own_file_is_followed(app_window):
    paths = _data()
    real = paths.data_dir / "my-settings.ini"
    real.write_text("")
    os.symlink(real.name, paths.data_dir / "settings.ini")
    win = app_window()
    win.settings.setValue("window/test", 1)
    win.settings.sync()
    assert "window" in real.read_text() and (paths.data_dir / "settings.ini").is_symlink()
    assert not win.startup_notices


def test_a_settings_pipe_does_not_stop_the_window(app_window):
    paths = _data()
    os.mkfifo(paths.data_dir / "settings.ini")
    win = app_window()  # would block on the pipe before
    assert any("not a regular file" in n for n in win.startup_notices)
    win.close()
    assert (paths.data_dir / "settings.ini").is_fifo()


def test_unusable_settings_are_named_once(app_window):
    paths = _data()
    (paths.data_dir / "settings.ini").write_text("[money]\ndefault_region=MARS\n")
    win = app_window()
    assert any("money/default_region" in n for n in win.startup_notices)


def test_a_damaged_database_is_said_in_the_window(app_window, capsys):
    paths = _data()
    paths.user_db.write_bytes(os.urandom(5000))
    win = app_window()
    assert "moved to" in capsys.readouterr().err
    win.show_notices()
    assert win.dialogs.errors and "new one started" in win.dialogs.errors[-1][1]
    assert len(list(paths.data_dir.glob("user-parts.sqlite.damaged-*"))) == 1


def test_a_deeply_nested_rates_file_does_not_stop_the_window(app_window):
    paths = _data()
    (paths.data_dir / "exchange-rates.json").write_text("[" * 100_000 + "]" * 100_000)
    win = app_window()
    assert any("nested too deeply" in n and "shipped exchange rates are used" in n for n in win.startup_notices)


@pytest.fixture
def price_window(qtbot, index, tmp_path):
    from rigbuilder.ui.main_window import MainWindow

    def make():
        idx = PartIndex(list(index), version="test", prices=index.prices)
        cat = Catalog(idx, "test", [], user_path=tmp_path / "user-parts.sqlite")
        cat.reload_user()
        win = MainWindow(idx, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                         dialogs_factory=FakeDialogs, catalog=cat, rates_path=tmp_path / "exchange-rates.json")
        qtbot.addWidget(win)
        return win

    return make


def test_set_your_price_on_a_full_disk_says_so(price_window, tmp_path):
    win = price_window()
    win.dialogs.price_answer = PriceEntry(180.0, "USD", "new", "shop")
    assert win.money.set_user_price(PSU)
    before = prices_in(tmp_path / "user-parts.sqlite")
    win.dialogs.price_answer = PriceEntry(99.0, "USD", "new", "shop")
    with file_size_limit(1000):
        assert not win.money.set_user_price(PSU)
    title, text = win.dialogs.errors[-1]
    assert "disk" in text and "nothing was changed" in text
    assert prices_in(tmp_path / "user-parts.sqlite") == before


def test_set_your_price_on_a_newer_database_says_so(price_window, tmp_path):
    win = price_window()
    win.dialogs.price_answer = PriceEntry(180.0, "USD", "new", "shop")
    assert win.money.set_user_price(PSU)
    stamp(tmp_path / "user-parts.sqlite", "0099")
    again = price_window()
    assert any("newer rigbuilder" in n for n in again.catalog.notices)
    again.dialogs.price_answer = PriceEntry(99.0, "USD", "new", "shop")
    assert not again.money.set_user_price(PSU)
    assert "nothing will be changed" in again.dialogs.errors[-1][1]
    assert prices_in(tmp_path / "user-parts.sqlite") == [(PSU, 180.0)]


def test_the_undo_history_keeps_at_most_the_setting(qtbot, index, tmp_path):
    """Memory grew about 5.7 KB a step with no end; now the oldest steps go beyond the limit."""
    from rigbuilder.config import UNDO_LIMIT, Preferences
    from rigbuilder.domain.edits import Rename
    from rigbuilder.ui.main_window import MainWindow

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert Preferences.open(settings).get("edit/undo_limit") == UNDO_LIMIT and 1000 <= UNDO_LIMIT <= 10_000
    Preferences.open(settings).set("edit/undo_limit", 12)
    win = MainWindow(index, settings, dialogs_factory=FakeDialogs)
    qtbot.addWidget(win)
    for i in range(30):
        win.doc.push(Rename(f"build {i}", ""))
    assert win.doc.undo_stack.count() == 12 and win.doc.build.name == "build 29"
    win.doc.undo_stack.setClean()
    with pytest.raises(ValueError):
        Preferences.open(settings).set("edit/undo_limit", 0)


def test_a_long_name_is_elided_with_the_whole_in_a_tooltip(qtbot):
    from rigbuilder.ui.widgets import LONG_WORD, QuietLabel

    label = QuietLabel(wrap=True)
    qtbot.addWidget(label)
    name = "Very" + "Long" * 500
    label.setText(f"Purchase: unpriced: Me {name}, Corsair")
    shown = label.label.text()
    assert len(shown) < 100 and "\u2026" in shown and shown.endswith(", Corsair")
    assert name in label.label.toolTip() and name in label.text()  # copied whole
    label.setText("short")
    assert label.label.toolTip() == "" and label.label.text() == "short"
    assert max(len(w) for w in shown.split()) <= LONG_WORD + 1


def test_titles_show_a_right_to_left_override_as_a_mark(qtbot, index):
    import dataclasses

    from rigbuilder.ui.main_window import MainWindow
    from tests.files.test_report import four_3090

    win = MainWindow(index, QSettings(), dialogs_factory=FakeDialogs)
    qtbot.addWidget(win)
    win.doc.replace(dataclasses.replace(four_3090(), name="My \u202elive rig"), None)
    assert "\u202e" not in win.windowTitle() and "\u2039RLO\u203a" in win.windowTitle()
    win.doc.undo_stack.setClean()


def test_the_pdf_writes_what_no_face_can_draw_as_its_code(qtbot, monkeypatch):
    from PySide6.QtGui import QFontDatabase

    from rigbuilder.render import pdf as printing

    monkeypatch.setattr(printing, "_drawable", {0x1F680: False, 0xE000: False})
    assert printing.printable("Rocket \U0001F680 and \ue000") == "Rocket [U+1F680] and [U+E000]"
    assert printing.printable("e\u0301 plain") == "e\u0301 plain"
    if any(QFontDatabase.hasFamily(f) for f in ("Noto Sans CJK SC", "Noto Sans CJK JP")):
        assert printing.printable("显卡") == "显卡"  # a face with Han characters draws them


def test_a_pdf_of_a_hostile_name_shows_marks_and_codes(qtbot, index, tmp_path):
    import dataclasses
    import shutil
    import subprocess

    from rigbuilder.files.report import report_data, to_html
    from rigbuilder.ui.printing import render_pdf
    from tests.files.test_report import four_3090

    idx = PartIndex(list(index), version=index.version)
    idx.add(dataclasses.replace(index.get("gpu-nvidia-rtx-3090-fe"), id="gpu-user-e", maker="Me",
                                model="Rocket \ue000 \u202eevil", origin="user"))
    pdf = render_pdf(to_html(report_data(four_3090("gpu-user-e"), idx)).decode(), tmp_path / "r.pdf")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "\u202e" not in text and "\u2039RLO\u203aevil" in text
