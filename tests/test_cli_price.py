"""rigbuilder price: set, list, import, export, remove; errors exit 2 with a message."""
from __future__ import annotations

import json

from tests.cli_lang import run

FE = "gpu-nvidia-rtx-3090-fe"


def test_set_list_export_import_remove(tmp_path, capsys):
    rc, out, _ = run(capsys, "price", "set", FE, "650", "eur", "--used", "--source", "Kleinanzeigen quote",
                     "--date", "2026-11-20")
    assert rc == 0 and "650.00 EUR" in out
    rc, out, _ = run(capsys, "price", "list", "--json")
    got = json.loads(out)
    assert len(got) == 1 and {k: v for k, v in got[0].items() if k not in ("age_months", "stale")} == {
        "part_id": FE, "amount": 650.0, "currency": "EUR", "condition": "used", "origin": "user",
        "origin_label": "entered by me", "source": "Kleinanzeigen quote", "date": "2026-11-20", "note": "",
        "with_parts": [], "upper_bound": False, "observed": "2026-11-20", "market": None}
    assert isinstance(got[0]["stale"], bool) and isinstance(got[0]["age_months"], int)
    rc, out, _ = run(capsys, "price", "list", FE, "--currency", "USD", "--json")
    d = json.loads(out)
    assert d["used_for_new_builds"]["origin"] == "user"
    user = next(p for p in d["prices"] if p["origin"] == "user")
    from rigbuilder.catalog.prices import load_rates

    # 650 EUR at the ECB's USD rate of the day the package carries
    assert user["converted"]["amount"] == round(650 * load_rates().rate("EUR", "USD"), 2)
    assert "USD per EUR, ECB rates of" in user["converted"]["conversion"]
    f = tmp_path / "mine.csv"
    assert run(capsys, "price", "export", str(f))[0] == 0
    assert run(capsys, "price", "remove", FE)[0] == 0
    assert json.loads(run(capsys, "price", "list", "--json")[1]) == []
    rc, out, _ = run(capsys, "price", "import", str(f))
    assert rc == 0 and "1 price stored" in out
    assert json.loads(run(capsys, "price", "list", "--json")[1])[0]["amount"] == 650.0


def test_bad_input_exits_2_and_says_what(tmp_path, capsys):
    rc, _, err = run(capsys, "price", "set", "gpu-nope", "1", "EUR")
    assert rc == 2 and "no part 'gpu-nope'" in err
    rc, _, err = run(capsys, "price", "set", FE, "-5", "EUR")
    assert rc == 2 and "amount" in err
    rc, _, err = run(capsys, "price", "set", FE, "5", "EURO")
    assert rc == 2 and "currency" in err
    bad = tmp_path / "b.csv"
    bad.write_text("part_id,amount\nx,1\n")
    rc, _, err = run(capsys, "price", "import", str(bad))
    assert rc == 2 and "missing column currency" in err and "nothing imported" in err
    rc, _, err = run(capsys, "price", "remove", FE)
    assert rc == 2 and "no price" in err


def test_price_update_from_a_local_server_all_or_nothing(tmp_path, capsys):
    """Issue 38: rigbuilder price update SOURCE; a hostile or partly bad feed applies nothing."""
    from tests.files.feedserver import GOOD_CSV, feed_server

    with feed_server() as url:
        for bad in ("/bad-date.csv", "/future.csv", "/currency.csv"):
            rc, out, _ = run(capsys, "price", "update", url + bad)
            assert rc == 1 and "nothing applied" in out and "not imported" in out, bad
            assert json.loads(run(capsys, "price", "list", "--json")[1]) == []  # nothing stored
        for hostile, says in (("/deep.json", "nested deeper"), ("/missing.csv", "404")):
            rc, _, err = run(capsys, "price", "update", url + hostile)
            assert rc == 2 and says in err and "Traceback" not in err
        rc, _, err = run(capsys, "price", "update", url + "/slow.csv", "--timeout", "1")
        assert rc == 2 and "took longer than 1 seconds" in err
        rc, out, _ = run(capsys, "price", "update", url + "/good.csv", "--dry-run")
        assert rc == 0 and "all 2 rows good" in out and "dry run" in out
        assert json.loads(run(capsys, "price", "list", "--json")[1]) == []
        rc, out, _ = run(capsys, "price", "update", url + "/good.csv", "--json")
        d = json.loads(out)
        assert rc == 0 and d["applicable"] and d["stored"] == 2
    got = {(p["part_id"], p["condition"]): p for p in json.loads(run(capsys, "price", "list", "--json")[1])}
    assert got[(FE, "used")]["amount"] == 690 and got[(FE, "used")]["date"] == "2026-11-02"
    # and from a file
    f = tmp_path / "feed.csv"
    f.write_bytes(GOOD_CSV.replace(b"690", b"680"))
    assert run(capsys, "price", "update", str(f))[0] == 0
    got = {(p["part_id"], p["condition"]): p for p in json.loads(run(capsys, "price", "list", "--json")[1])}
    assert got[(FE, "used")]["amount"] == 680
    assert run(capsys, "price", "update", str(f), "--timeout", "0")[0] == 2


def test_a_feeds_market_column_is_kept_and_its_tax_converted(tmp_path, capsys):
    """A feed row's market: a US price before sales tax gets a German buyer's 19% VAT; a German price
    (VAT included) gets none in Germany and loses its VAT for a US buyer; an unknown market refuses the
    whole feed; the market survives the database and the export."""
    from rigbuilder.commands.common import open_catalog
    from rigbuilder.models.prices import price_part

    f = tmp_path / "feed.csv"
    f.write_text("part,amount,currency,condition,date,source,market\n"
                 f"{FE},700,USD,used,2026-11-02,eBay US,us\n"
                 f"{FE},1190,EUR,new,2026-11-03,a German shop,DE\n")
    bad = tmp_path / "bad.csv"
    bad.write_text(f"part,amount,currency,market\n{FE},700,USD,US\n{FE},700,USD,Mars\n")
    rc, out, _ = run(capsys, "price", "update", str(bad))
    assert rc == 1 and "market: 'Mars' must be one of: US, EU, DE, FR, UK, JP, CN" in out and "nothing applied" in out
    rc, out, _ = run(capsys, "price", "update", str(f), "--dry-run")
    assert rc == 0 and "a US price" in out and "a Germany price" in out
    assert run(capsys, "price", "update", str(f))[0] == 0
    got = {(p["part_id"], p["condition"]): p for p in json.loads(run(capsys, "price", "list", "--json")[1])}
    assert got[(FE, "used")]["market"] == "US" and got[(FE, "new")]["market"] == "DE"
    index = open_catalog().index
    used_de = price_part(FE, "USD", index, condition="used", strict=True, region="DE-16A")
    assert used_de.observation.origin == "user" and abs(used_de.amount - 700 * 1.19) < 1e-9 and "19% VAT" in used_de.conversion
    new_de = price_part(FE, "EUR", index, condition="new", strict=True, region="DE-16A")
    assert new_de.amount == 1190 and "with 19% VAT" in new_de.conversion
    new_us = price_part(FE, "EUR", index, condition="new", strict=True, region="US-15A")
    assert abs(new_us.amount - 1000) < 1e-9  # the German VAT taken off for a US buyer
    out_csv = tmp_path / "mine.csv"
    assert run(capsys, "price", "export", str(out_csv))[0] == 0
    assert out_csv.read_text().splitlines()[0].endswith(",market")
    assert run(capsys, "price", "remove", FE)[0] == 0
    assert run(capsys, "price", "import", str(out_csv))[0] == 0
    got = {(p["part_id"], p["condition"]): p for p in json.loads(run(capsys, "price", "list", "--json")[1])}
    assert got[(FE, "used")]["market"] == "US" and got[(FE, "new")]["market"] == "DE"
