"""What the lab database shares beyond builds and stock (issues 38 and 42): the prices a price update
applied (``price update --lab``, with their market, all or none) and the card models' power
calibration (``lab calibration --push/--pull``), on SQLite and on a real PostgreSQL server."""
from __future__ import annotations

import json

import pytest

from rigbuilder.catalog.labdb import LabDb
from tests.cli_lang import run

FE = "gpu-nvidia-rtx-3090-fe"
TURBO = "gpu-gigabyte-rtx-3090-turbo"


@pytest.fixture(params=["sqlite", "postgresql"])
def lab_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lab.sqlite'}"
    return request.getfixturevalue("pg_url")


def test_price_update_shares_the_applied_prices_in_the_lab(lab_url, tmp_path, capsys):
    feed = tmp_path / "feed.csv"
    feed.write_text("part,amount,currency,condition,date,source,market\n"
                    f"{FE},690,USD,used,2026-11-02,eBay sold listings,US\n"
                    f"{TURBO},1100,EUR,new,2026-11-10,a German shop,DE\n")
    bad = tmp_path / "bad.csv"
    bad.write_text(feed.read_text() + f"{FE},650,USD,used,2024-02-30,impossible day,US\n")
    rc, out, _ = run(capsys, "price", "update", str(bad), "--lab", "--db", lab_url)
    assert rc == 1 and "nothing applied" in out
    rc, _, err = run(capsys, "price", "update", str(feed), "--lab")  # no database named: nothing stored
    assert rc == 2 and "RIGBUILDER_LAB_DB" in err
    assert json.loads(run(capsys, "price", "list", "--json")[1]) == []
    rc, out, _ = run(capsys, "price", "update", str(feed), "--lab", "--db", lab_url, "--json")
    d = json.loads(out)
    assert rc == 0 and d["stored"] == 2 and d["shared_in_lab"] == 2
    db = LabDb.open(lab_url)
    try:
        used, new = db.price(FE, "used"), db.price(TURBO, "new")
        assert (used.values["amount"], used.values["currency"], used.values["market"]) == (690.0, "USD", "US")
        assert (new.values["amount"], new.values["market"], new.values["date"]) == (1100.0, "DE", "2026-11-10")
        assert used.values["source"] == "eBay sold listings"
        # a second update replaces the lab's prices (a new version), whoever set them before
        db.set_price(FE, "used", 1.0, "EUR", version=used.version)
    finally:
        db.close()
    feed.write_text(feed.read_text().replace(",690,", ",680,"))
    assert run(capsys, "price", "update", str(feed), "--lab", "--db", lab_url)[0] == 0
    db = LabDb.open(lab_url)
    try:
        e = db.price(FE, "used")
        assert e.values["amount"] == 680.0 and e.version == 3
        assert {o.part_id: o.market for o in db.price_observations()} == {FE: "US", TURBO: "DE"}
    finally:
        db.close()


def test_calibration_is_pushed_to_the_lab_and_pulled_by_another_member(lab_url, capsys, monkeypatch, tmp_path):
    """alice's logs calibrate the RTX 3090 FE: --push shares it; bob (another data folder) pulls it and
    his plans of that card say whose it is; his own logs would come first; the switch turns it off."""
    from rigbuilder.catalog.measurements import StoredCard, store_log
    from rigbuilder.commands.common import open_catalog

    rc, _, err = run(capsys, "lab", "calibration", "--push", "--db", lab_url)
    assert rc == 2 and "no calibration to share" in err
    cat = open_catalog()
    store_log(cat.user_engine, build_key="/b/a.rig", build_name="A", source="log.csv", kind="nvidia-smi",
              started="2026-11-20T14:00:00", ended="", notes=[],
              cards=[StoredCard(1, FE, 0, "NVIDIA GeForce RTX 3090", 600, 22.0, 260.0, 300.0, 280.0, 15.0, 280.0,
                                280.0, (), 0.0, 1.5, 60.0, 71.0, True)])
    rc, out, _ = run(capsys, "lab", "calibration", "--push", "--db", lab_url, "--json")
    d = json.loads(out)
    assert rc == 0 and d["pushed"] == 1
    (row,) = d["calibrations"]
    assert row["part_id"] == FE and row["factor"] == pytest.approx(260 / 280, abs=0.001) and row["logs"] == 1
    # another member's data folder: no logs of its own
    monkeypatch.setenv("RIGBUILDER_DATA_DIR", str(tmp_path / "bob-data"))
    assert open_catalog().index.calibration == {}
    rc, out, _ = run(capsys, "lab", "calibration", "--pull", "--db", lab_url)
    assert rc == 0 and "1 calibration copied from the lab database" in out
    cal = open_catalog().index.calibration[FE]
    assert cal.factor == pytest.approx(260 / 280, abs=0.001) and cal.shared_by
    from rigbuilder.domain.i18n import render

    assert "shared in the lab" in render(cal.note(), "en")
    off = open_catalog()
    off.apply_calibration(False)
    assert off.index.calibration == {}
