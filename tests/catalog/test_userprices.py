"""The user's own prices: stored in the user database, surviving migrations and catalog upgrades,
CSV import (all or nothing) and export, used by the purchase."""
from __future__ import annotations

import sqlite3

import pytest

from rigbuilder.catalog.store import open_catalog
from rigbuilder.catalog.userdb import HEAD, current_revision, upgrade
from rigbuilder.catalog.userprices import (PriceImportError, import_csv, make_observation, parse_csv,
                                           read_user_prices, set_prices, to_csv)
from rigbuilder.config import Paths
from rigbuilder.domain.build import Build, GpuPlacement, Settings
from rigbuilder.models.cost import purchase

FE = "gpu-nvidia-rtx-3090-fe"


def test_a_user_price_survives_the_0001_to_0002_migration_and_a_catalog_upgrade(tmp_path, monkeypatch, shipped,
                                                                              cache_with_catalog):
    paths = Paths(Paths.from_env().data_dir, cache_with_catalog)
    db = paths.user_db
    db.parent.mkdir(parents=True)
    upgrade(f"sqlite:///{db}", "0001")  # a database made by the release before prices
    con = sqlite3.connect(db)
    con.execute("insert into part (id, kind, maker, model, source, source_date, verified, unverified, spec) "
                "values ('gpu-user-x', 'gpu', 'Me', 'X', 'me', '2026', 0, '[]', '{}')")
    con.commit()
    con.close()
    assert current_revision(db) == "0001"
    cat = open_catalog(paths)
    set_prices(cat.user_engine, [make_observation(FE, 650, "EUR", "used", "Kleinanzeigen quote", "2026-11-20")])
    assert current_revision(db) == HEAD
    assert sqlite3.connect(db).execute("select count(*) from part").fetchone()[0] == 1  # user part kept
    # a new shipped catalog (an app upgrade) and a restart: the price is still there and used
    monkeypatch.setattr("rigbuilder.catalog.shippeddb.catalog_fingerprint", lambda *a: "newversion")
    monkeypatch.setattr("rigbuilder.catalog.snapshot.snapshot_key", lambda *a: "newfiles")  # the files changed
    monkeypatch.setattr("rigbuilder.catalog.shippeddb.load_shipped",  # other files: the curated rows only
                        lambda *a: ([p for p in shipped[0] if not p.community], []))
    cat2 = open_catalog(paths)
    assert cat2.version == "newversion" and not any(p.community for p in cat2.index)
    obs = [o for o in cat2.index.prices.for_part(FE) if o.origin == "user"]
    assert [(o.amount, o.currency, o.condition, o.source) for o in obs] == [(650, "EUR", "used", "Kleinanzeigen quote")]
    b = Build(gpus=[GpuPlacement(FE, 1)], settings=Settings(currency="EUR"))
    assert purchase(b, cat2.index).total == 650  # the user's price beats the launch price


def test_setting_again_replaces_per_condition(tmp_path):
    cat = open_catalog(Paths.from_env())
    set_prices(cat.user_engine, [make_observation(FE, 700, "EUR", "used")])
    set_prices(cat.user_engine, [make_observation(FE, 680, "EUR", "used"), make_observation(FE, 1400, "USD")])
    got = sorted((o.amount, o.condition) for o in read_user_prices(cat.user_path))
    assert got == [(680, "used"), (1400, "new")]


def test_csv_round_trip_and_all_or_nothing(tmp_path, index):
    cat = open_catalog(Paths.from_env())
    good = tmp_path / "p.csv"
    good.write_text("part_id,amount,currency,condition,source,date\n"
                    f"{FE},\"1,200.50\",usd,new,Shop A,2026-11-01\n"
                    "cpu-intel-xeon-e5-2697-v4,120,EUR,used,eBay,2026-10-30\n")
    assert import_csv(cat.user_engine, good, index).stored == 2
    prices = read_user_prices(cat.user_path)
    assert {(o.part_id, o.amount, o.currency) for o in prices} == {(FE, 1200.5, "USD"),
                                                                  ("cpu-intel-xeon-e5-2697-v4", 120, "EUR")}
    again = parse_csv(to_csv(prices), index)
    assert sorted(again, key=lambda o: o.part_id) == sorted(prices, key=lambda o: o.part_id)
    bad = tmp_path / "b.csv"
    bad.write_text("part_id,amount,currency\n"
                   f"{FE},10,EUR\n"
                   "gpu-nope,10,EUR\n"
                   f"{FE},lots,EUR\n"
                   f"{FE},10,euro\n")
    with pytest.raises(PriceImportError) as e:
        import_csv(cat.user_engine, bad, index)
    assert len(e.value.problems) == 3
    assert "b.csv line 3: no part 'gpu-nope'" in e.value.problems[0]
    assert "line 4: amount: 'lots'" in e.value.problems[1] and "line 5: currency" in e.value.problems[2]
    assert len(read_user_prices(cat.user_path)) == 2  # nothing from the bad file
