"""Measured power logs in the user database (issue 42): migration 0003 from a database with the
user's prices, one transaction per log, the calibration read back into the catalog, the switch."""
from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from rigbuilder.catalog.measurements import StoredCard, read_calibrations, read_logs, remove_log, store_log
from rigbuilder.catalog.store import open_catalog
from rigbuilder.catalog.userdb import HEAD, UserDatabaseError, current_revision, upgrade
from rigbuilder.catalog.userprices import make_observation, set_prices
from rigbuilder.config import Paths

FE = "gpu-nvidia-rtx-3090-fe"


def card(num=1, load=266.0, planned=280.0, calibrates=True, part=FE):
    return StoredCard(num, part, num - 1, "NVIDIA GeForce RTX 3090", 600, 22.0, load, 300.0, 280.0, 15.0, planned,
                      280.0, ("sw_power_cap",), 0.0, 1.5, 60.0, 71.0, calibrates)


@pytest.fixture
def cat(cache_with_catalog):
    paths = Paths(Paths.from_env().data_dir, cache_with_catalog)
    return open_catalog(paths)


def store(cat, key="/builds/a.rig", cards=(card(1), card(2, 252.0)), started="2026-11-20T14:00:00"):
    return store_log(cat.user_engine, build_key=key, build_name="A", source="log.csv", kind="nvidia-smi",
                     started=started, ended="", notes=["a note"], cards=list(cards))


def test_a_database_with_prices_migrates_to_the_head_and_keeps_them(tmp_path, cache_with_catalog):
    paths = Paths(Paths.from_env().data_dir, cache_with_catalog)
    db = paths.user_db
    db.parent.mkdir(parents=True)
    upgrade(f"sqlite:///{db}", "0002")  # a database of the release before measurements
    cat = open_catalog(paths)
    set_prices(cat.user_engine, [make_observation(FE, 650, "EUR", "used", "a quote", "2026-11-20")])
    assert current_revision(db) == HEAD == "0004"
    assert read_logs(db) == [] and read_calibrations(db) == {}
    store(cat)
    assert sqlite3.connect(db).execute("select count(*) from user_price").fetchone()[0] == 1


def test_logs_are_stored_whole_and_read_back(cat):
    log_id = store(cat)
    store(cat, key="/builds/b.rig", cards=[card(1, 330.0, 350.0)], started="2026-11-24T09:00:00")
    logs = read_logs(cat.user_path, "/builds/a.rig")
    assert [lg.id for lg in logs] == [log_id]
    lg = logs[0]
    assert (lg.source, lg.kind, lg.date, lg.notes) == ("log.csv", "nvidia-smi", "2026-11-20", ("a note",))
    assert lg.cards[0] == card(1) and lg.cards[1].load_w == 252.0
    assert len(read_logs(cat.user_path)) == 2
    cal = read_calibrations(cat.user_path)[FE]
    assert (cal.logs, cal.latest) == (2, "2026-11-24")
    assert cal.factor == pytest.approx(((266 / 280 + 252 / 280) / 2 + 330 / 350) / 2, abs=0.001)
    assert remove_log(cat.user_engine, log_id) == 1
    assert read_calibrations(cat.user_path)[FE].logs == 1


def test_the_catalog_applies_the_calibration_and_the_switch_clears_it(cat):
    store(cat)
    cat.apply_calibration()
    assert cat.index.calibration[FE].factor == pytest.approx(0.925)
    cat.apply_calibration(False)
    assert cat.index.calibration == {} and not cat.calibrate
    cat.reload_user()  # a reload keeps the switch
    assert cat.index.calibration == {}
    cat.apply_calibration(True)
    assert FE in cat.index.calibration


def test_a_failed_write_stores_no_card(cat):
    with pytest.raises(UserDatabaseError, match="nothing was changed"):
        store(cat, cards=[card(1), replace(card(2), part_id=None)])  # the second breaks NOT NULL
    assert read_logs(cat.user_path) == []


def test_an_unreadable_database_has_no_measurements(tmp_path):
    db = tmp_path / "user-parts.sqlite"
    db.write_bytes(b"not a database at all" * 10)
    assert read_logs(db) == [] and read_calibrations(db) == {}
    assert read_logs(None) == []
