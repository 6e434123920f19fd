"""rigbuilder price: set, list, import, export, remove; errors exit 2 with a message."""
from __future__ import annotations

import json

from rigbuilder.cli import main

FE = "gpu-nvidia-rtx-3090-fe"


def run(capsys, *args):
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def test_set_list_export_import_remove(tmp_path, capsys):
    rc, out, _ = run(capsys, "price", "set", FE, "650", "eur", "--used", "--source", "Kleinanzeigen quote",
                     "--date", "2026-11-20")
    assert rc == 0 and "650.00 EUR" in out
    rc, out, _ = run(capsys, "price", "list", "--json")
    got = json.loads(out)
    assert len(got) == 1 and {k: v for k, v in got[0].items() if k not in ("age_months", "stale")} == {
        "part_id": FE, "amount": 650.0, "currency": "EUR", "condition": "used", "origin": "user",
        "origin_label": "entered by me", "source": "Kleinanzeigen quote", "date": "2026-11-20", "note": "",
        "with_parts": [], "upper_bound": False, "observed": "2026-11-20"}
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
    assert rc == 2 and "missing column(s) currency" in err and "nothing imported" in err
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
        assert rc == 0 and "all 2 row(s) good" in out and "dry run" in out
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
