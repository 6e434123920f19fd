"""Issue 24: a property test per surface of the user's data folder (small max_examples: the long
runs are tests/fuzz/fuzz_datadir.py)."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigbuilder.catalog.prices import MoneyFileError, load_rates
from rigbuilder.catalog.userdb import DbState, inspect
from rigbuilder.catalog.userprices import PriceImportError, parse_csv
from rigbuilder.config import OPTIONS, DictStore, Preferences

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
JSONISH = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=8),
                       lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                       max_leaves=20)


@FAST
@given(st.one_of(st.binary(max_size=300), JSONISH.map(lambda v: __import__("json").dumps(v).encode()),
                 st.fixed_dictionaries({"base": JSONISH, "per_unit": JSONISH, "date": JSONISH, "source": JSONISH,
                                        "user_rates": JSONISH}).map(lambda v: __import__("json").dumps(v).encode())))
def test_a_rates_file_loads_or_is_named(tmp_path_factory, data):
    f = tmp_path_factory.mktemp("rates") / "exchange-rates.json"
    f.write_bytes(data)
    try:
        rates = load_rates(f)
    except MoneyFileError as e:
        assert str(f) in str(e)
    else:
        assert rates.rate(rates.base, rates.base) == 1.0


@FAST
@given(st.dictionaries(st.sampled_from(sorted(OPTIONS)), JSONISH | st.text(max_size=30), max_size=len(OPTIONS)))
def test_any_stored_settings_read_as_values_or_defaults_and_are_named(stored):
    prefs = Preferences.open(DictStore(stored))
    named = " ".join(prefs.unusable())
    for key, opt in OPTIONS.items():
        value = prefs.get(key)
        assert value == opt.parse(value)  # always a usable value
        if key in stored and value == opt.default and stored[key] != opt.default:
            try:
                opt.parse(stored[key])
            except (TypeError, ValueError):
                assert key in named  # the unusable value was named
    prefs.language()
    prefs.new_build_currency()


@FAST
@given(st.lists(st.lists(st.text(max_size=30), min_size=1, max_size=7), max_size=6),
       st.sampled_from(["part_id,amount,currency", "part_id,amount,currency,condition,source,date", "x,y"]))
def test_a_price_file_imports_or_names_lines(rows, header):
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    for r in rows:
        w.writerow(r)
    try:
        got = parse_csv((header + "\n" + buf.getvalue()).encode("utf-8", "surrogatepass"), None, "p.csv")
    except PriceImportError as e:
        assert e.problems and all("p.csv" in p for p in e.problems)
    else:
        assert len(got) <= len(rows)


@FAST
@given(st.binary(max_size=2000), st.integers(0, 4000), st.sampled_from(["file", "prefix"]))
def test_any_bytes_where_the_database_is_are_classified_never_raised(tmp_path_factory, data, cut, how):
    folder = tmp_path_factory.mktemp("db")
    db = folder / "user-parts.sqlite"
    if how == "prefix":  # a real database's first bytes, then anything
        con = sqlite3.connect(db)
        con.execute("create table alembic_version (version_num varchar(32))")
        con.execute("insert into alembic_version values ('0002')")
        con.commit()
        con.close()
        db.write_bytes(db.read_bytes()[:cut] + data)
    else:
        db.write_bytes(data)
    state = inspect(db, folder)
    assert isinstance(state, DbState) and state.kind in ("absent", "current", "older", "newer", "damaged")
    assert state.kind != "damaged" or state.reason


def test_special_files_are_classified_without_opening_them(tmp_path):
    db = tmp_path / "user-parts.sqlite"
    os.mkfifo(db)
    assert inspect(db, tmp_path).kind == "damaged"
    db.unlink()
    os.symlink("/dev/zero", db)
    assert inspect(db, tmp_path).kind == "outside"
    db.unlink()
    os.mkfifo(Path(f"{db}-journal"))
    assert inspect(db, tmp_path).kind == "damaged"  # SQLite would open the journal and wait
