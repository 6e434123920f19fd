"""A price file a lab collected: previewed row by row, bad rows named, nothing stored on a dry run,
the good rows stored only after the preview (issue 27)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rigbuilder.files.priceimport import PriceFileError, preview

DATA = Path(__file__).parent / "data" / "prices"
TODAY = "2026-11-26"


@pytest.fixture(scope="module")
def lab_csv(index):
    return preview((DATA / "lab-used-prices.csv").read_bytes(), "lab.csv", index, index.prices.rates, today=TODAY)


def test_good_rows_matched_by_id_and_by_name(lab_csv):
    good = {r.line: r for r in lab_csv.rows if r.good}
    assert sorted(good) == [2, 3, 4]
    assert good[2].observation.part_id == "gpu-asus-rtx-3090-turbo" and good[2].how == "id"
    assert good[3].observation.part_id == "case-corsair-750d-airflow" and good[3].how == "name"
    assert good[4].observation.part_id == "cpu-amd-threadripper-1900x" and good[4].how == "name"
    o = good[2].observation
    assert (o.amount, o.currency, o.condition, o.origin, o.date) == (780, "EUR", "used", "user", "2026-11-02")
    assert good[3].observation.date == "2026-10"


def test_each_bad_row_is_named_with_its_reason(lab_csv):
    bad = {r.line: " ".join(r.problems) for r in lab_csv.bad}
    assert sorted(bad) == [5, 6, 7, 8]
    assert "currency: XYZ is not a currency the exchange rates know" in bad[5]
    assert "amount: -120 must be between 0 and 1,000,000,000" in bad[6]
    assert "unknown part" in bad[7]
    assert "date: 2031-01-01 is in the future" in bad[8]
    text = "\n".join(lab_csv.lines())
    assert "lab.csv line 6: gpu-zotac-rtx-2070-amp: not imported: amount: -120 must be between 0 and 1,000,000,000" in text
    assert text.endswith("3 rows to import, 4 bad rows left out")


def test_json_file_reads_as_the_csv_does(index):
    pv = preview((DATA / "lab-used-prices.json").read_bytes(), "lab.json", index, index.prices.rates, today=TODAY)
    assert [r.good for r in pv.rows] == [True, True, False]
    assert pv.rows[1].observation.part_id == "mb-gigabyte-x399-aorus-pro"  # named with its socket: sTR4


@pytest.mark.parametrize("data,why", [
    (b"part,amount\nx,1\n", r"missing column currency"),
    (b"{not json", "not valid JSON"),
    (b'{"prices": 3}', "expected a list of prices"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_unreadable_files_say_why(index, data, why):
    with pytest.raises(PriceFileError, match=why):
        preview(data, "f", index, index.prices.rates, today=TODAY)


def _run(capsys, *args):
    from rigbuilder.cli import main

    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_dry_run_changes_nothing_then_the_good_rows_are_stored(capsys):
    f = str(DATA / "lab-used-prices.csv")
    rc, out, _ = _run(capsys, "price", "import", f, "--dry-run")
    assert rc == 1 and "dry run: nothing stored" in out and "amount: -120 must be between 0 and" in out
    assert "-> case-corsair-750d-airflow" in out
    assert json.loads(_run(capsys, "price", "list", "--json")[1]) == []  # nothing written
    rc, out, _ = _run(capsys, "price", "import", f, "--json")
    d = json.loads(out)
    assert rc == 1 and d["stored"] == 3 and not d["dry_run"]
    assert [r["matched"] for r in d["rows"]] == [True, True, True, False, False, False, False]
    mine = json.loads(_run(capsys, "price", "list", "--json")[1])
    assert sorted(o["part_id"] for o in mine) == ["case-corsair-750d-airflow", "cpu-amd-threadripper-1900x",
                                                  "gpu-asus-rtx-3090-turbo"]
    assert all(o["condition"] == "used" and o["observed"] and isinstance(o["stale"], bool) for o in mine)


@pytest.mark.parametrize("data", [b"partunt,currency,condition,date,so\rurce,kind\ngpu-x,1,USD\n",
                                  b'part,amount,"currency\n', b"part,amount,currency\r\rgpu-nvidia-rtx-3090-fe,1,USD\r"])
def test_a_malformed_header_is_a_message_not_a_traceback(index, data):
    """Found by benchmarks/fuzz.py: a header the csv module cannot read raised csv.Error."""
    try:
        pv = preview(data, "f.csv", index, index.prices.rates, today=TODAY)
    except PriceFileError as e:
        assert "f.csv" in str(e)
    else:
        assert all(r.good or r.problems for r in pv.rows)


def test_a_price_file_and_the_price_store_refuse_a_price_in_the_same_words(index):
    """One validator of a user's price (domain.money.user_price_problems): a price file's row and
    ``price set`` (catalog.userprices.make_observation) name the same problem the same way."""
    from rigbuilder.catalog.userprices import make_observation
    from rigbuilder.domain.money import MoneyError

    rows = [("-5", "EUR", "new", "2026-11-01"), ("5", "XYZ", "new", "2026-11-01"), ("5", "EUR", "broken", "2026-11-01"),
            ("5", "EUR", "new", "2031-01-01")]
    for amount, cur, cond, date in rows:
        data = f"part_id,amount,currency,condition,date\ngpu-asus-rtx-3090-turbo,{amount},{cur},{cond},{date}\n".encode()
        (row,) = preview(data, "p.csv", index, index.prices.rates, today=TODAY).rows
        with pytest.raises(MoneyError) as e:
            make_observation("gpu-asus-rtx-3090-turbo", amount, cur, cond, "", date, index=index, today=TODAY)
        assert row.problems == (e.value.args[0],)
