"""Issue 24: the user's own database survives downgrades, damage, full disks, read-only files
and links (each finding of the issue is a test here; the window's are in tests/ui)."""
from __future__ import annotations

import hashlib
import os
import resource
import sqlite3
from contextlib import contextmanager
from pathlib import Path

import pytest

from rigbuilder.config import Paths
from tests.cli_lang import run

PSU = "psu-evga-supernova-1600-t2"


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture
def paths() -> Paths:
    p = Paths.from_env()
    p.data_dir.mkdir(parents=True, exist_ok=True)
    return p


@pytest.fixture
def with_price(paths, capsys) -> Paths:
    """A data folder whose database holds one price of the user's."""
    rc, _, err = run(capsys, "price", "set", PSU, "300", "USD")
    assert rc == 0, err
    return paths


@contextmanager
def file_size_limit(n: int):
    """A full disk without root: writes that grow any file past ``n`` bytes fail (EFBIG; Python
    ignores SIGXFSZ), as SQLite's writes do on a full disk."""
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (n, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)


# --------------------------------------------------------------------------- downgrade

def stamp(db: Path, revision: str) -> None:
    con = sqlite3.connect(db)
    con.execute("update alembic_version set version_num=?", (revision,))
    con.commit()
    con.close()


def test_a_database_from_a_newer_rigbuilder_is_read_only_never_a_traceback(with_price, capsys):
    db = with_price.user_db
    stamp(db, "0099")
    before = digest(db)
    rc, out, err = run(capsys, "price", "list")
    assert rc == 0 and PSU in out  # still read
    assert "written by a newer rigbuilder" in err and "nothing will be changed" in err
    rc, _, err = run(capsys, "price", "set", PSU, "200", "USD")
    assert rc == 2 and "newer rigbuilder" in err and "Traceback" not in err
    assert err.count("newer rigbuilder") == 1  # said once, not again by the refusal
    rc, _, err = run(capsys, "catalog", "remove", "gpu-nothing")
    assert rc == 2 and "newer rigbuilder" in err
    assert digest(db) == before


# --------------------------------------------------------------------------- damage

def _truncated(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])


DAMAGE = {
    "truncated": _truncated,
    "random bytes": lambda db: db.write_bytes(os.urandom(9000)),
    "text": lambda db: db.write_text("these are my prices, honest\n" * 200),
    "header only": lambda db: db.write_bytes(db.read_bytes()[:100]),
    "a folder": lambda db: (db.unlink(), db.mkdir(), (db / "x").write_text("x")),
    "a link loop": lambda db: (db.unlink(), os.symlink(db.name, db)),
    "a dangling link": lambda db: (db.unlink(), os.symlink("nowhere.sqlite", db)),
    "a pipe": lambda db: (db.unlink(), os.mkfifo(db)),
    "garbage after the header": lambda db: db.write_bytes(db.read_bytes()[:100] + os.urandom(36000)),
}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_database_is_moved_aside_said_and_replaced(with_price, capsys, how):
    db = with_price.user_db
    DAMAGE[how](db)
    rc, out, err = run(capsys, "price", "list")
    assert rc == 0 and "Traceback" not in err
    backups = list(with_price.data_dir.glob("user-parts.sqlite.damaged-*"))
    assert len(backups) == 1 and str(backups[0]) in err and "new one started" in err and "Kept:" in err
    assert os.path.lexists(backups[0])
    rc, out, err = run(capsys, "price", "set", PSU, "250", "USD")  # the fresh database takes writes
    assert rc == 0 and "Traceback" not in err and "moved to" not in err  # said once only
    assert len(list(with_price.data_dir.glob("user-parts.sqlite.damaged-*"))) == 1


def test_what_can_be_read_from_a_damaged_database_is_kept(with_price, capsys, tmp_path):
    """A page of another table damaged: the parts and prices that still read are copied over."""
    db = with_price.user_db
    con = sqlite3.connect(db)
    con.execute("create table scratch (x)")
    con.executemany("insert into scratch values (?)", [("y" * 500,)] * 50)
    con.commit()
    root = con.execute("select rootpage from sqlite_master where name='scratch'").fetchone()[0]
    page = con.execute("pragma page_size").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    data[(root - 1) * page:(root - 1) * page + 64] = b"\xff" * 64  # the scratch table's root page
    db.write_bytes(bytes(data))
    rc, out, err = run(capsys, "price", "list")
    assert rc == 0 and "Kept: 0 parts and 1 price" in err and PSU in out


def test_a_damaged_database_that_cannot_be_moved_is_left_as_it_is(paths, capsys, monkeypatch):
    db = paths.user_db
    db.write_bytes(b"not a database" * 100)

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("rigbuilder.catalog.userdb.os.rename", refuse)
    rc, out, err = run(capsys, "price", "set", PSU, "250", "USD")
    assert rc == 2 and "could not be moved aside" in err and "nothing will be changed" in err
    assert db.read_bytes() == b"not a database" * 100


def test_an_empty_file_is_an_empty_database(paths, capsys):
    paths.user_db.write_bytes(b"")
    rc, _, err = run(capsys, "price", "set", PSU, "250", "USD")
    assert rc == 0 and not err and not list(paths.data_dir.glob("*.damaged-*"))


# --------------------------------------------------------------------------- links

def test_a_link_out_of_the_data_folder_is_never_written_through(paths, capsys, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = elsewhere / "someone-elses.sqlite"
    Paths(elsewhere, paths.cache_dir)  # a database of the same shape, outside the data folder
    con = sqlite3.connect(other)
    con.execute("create table t (x)")
    con.commit()
    con.close()
    before = digest(other)
    os.symlink(other, paths.user_db)
    rc, _, err = run(capsys, "price", "set", PSU, "250", "USD")
    assert rc == 2 and "outside the data folder" in err and "nothing will be changed" in err
    assert digest(other) == before and paths.user_db.is_symlink()


def test_a_link_onto_the_users_own_file_in_the_data_folder_is_followed(with_price, capsys):
    db = with_price.user_db
    real = db.with_name("mine.sqlite")
    os.replace(db, real)
    os.symlink(real.name, db)
    rc, _, err = run(capsys, "price", "set", PSU, "123", "USD")
    assert rc == 0 and not err and db.is_symlink()
    rc, out, _ = run(capsys, "price", "list")
    assert "123.00 USD" in out


# --------------------------------------------------------------------------- write failures

def prices_in(db: Path) -> list:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("select part_id, amount from user_price order by part_id").fetchall()
    finally:
        con.close()


def test_a_full_disk_is_a_message_in_price_set(with_price, capsys):
    db = with_price.user_db
    before = prices_in(db)
    with file_size_limit(1000):
        rc, _, err = run(capsys, "price", "set", PSU, "111", "USD")
    assert rc == 2 and "nothing was changed" in err and "Traceback" not in err
    assert prices_in(db) == before


def test_a_full_disk_is_a_message_in_price_import(with_price, capsys, tmp_path):
    db = with_price.user_db
    before = prices_in(db)
    f = tmp_path / "p.csv"
    f.write_text("part_id,amount,currency\n" + f"{PSU},100,USD\n")
    with file_size_limit(1000):
        rc, _, err = run(capsys, "price", "import", str(f))
    assert rc == 2 and "nothing was changed" in err and "Traceback" not in err
    assert prices_in(db) == before


def test_a_full_disk_is_a_message_in_catalog_import(with_price, capsys, tmp_path):
    f = tmp_path / "gpu.csv"
    rc, _, _ = run(capsys, "catalog", "template", "gpu", str(f))
    assert rc == 0
    with file_size_limit(1000):
        rc, _, err = run(capsys, "catalog", "import", str(f))
    assert rc == 2 and "nothing was changed" in err and "Traceback" not in err
    rc, out, _ = run(capsys, "catalog", "export", "all", str(tmp_path / "mine.json"))
    assert rc == 0 and (tmp_path / "mine.json").read_text().strip() == "[]"


def test_a_full_disk_when_the_database_is_first_made_leaves_nothing(paths, capsys):
    with file_size_limit(1000):
        rc, _, err = run(capsys, "price", "set", PSU, "111", "USD")
    assert rc == 2 and "nothing was changed" in err
    assert not os.path.lexists(paths.user_db)


def _engine(db: Path, query: str = "", **connect):
    from sqlalchemy import create_engine

    return create_engine(f"sqlite:///file:{db}?{query}&uri=true" if query else f"sqlite:///{db}",
                         connect_args=connect)


def test_sqlite_full_read_only_and_locked_become_plain_messages(with_price):
    from sqlalchemy import event

    from rigbuilder.catalog.userdb import UserDatabaseError
    from rigbuilder.catalog.userprices import make_observation, set_prices

    db = with_price.user_db
    obs = [make_observation(PSU, 5, "USD")]
    ro = _engine(db, "mode=ro")  # a read-only file (as root, chmod cannot make one)
    with pytest.raises(UserDatabaseError, match="cannot be written"):
        set_prices(ro, obs)
    full = _engine(db)

    @event.listens_for(full, "connect")
    def _cap(con, _):  # the database may not grow by a page: SQLite's own "disk is full"
        n = con.execute("pragma page_count").fetchone()[0]
        con.execute(f"pragma max_page_count={n}")

    with pytest.raises(UserDatabaseError, match="disk is full"):
        set_prices(full, [make_observation(f"p{i}", i, "USD", source=f"{i:03d}" * 150) for i in range(1, 60)])
    holder = sqlite3.connect(db)
    holder.execute("begin exclusive")
    try:
        with pytest.raises(UserDatabaseError, match="another program is writing it"):
            set_prices(_engine(db, timeout=0.05), obs)
    finally:
        holder.rollback()
        holder.close()
    assert prices_in(db) == [(PSU, 300.0)]


# --------------------------------------------------------------------------- the price import's limits

def test_a_price_cell_over_the_csv_field_limit_is_refused_cleanly(paths, capsys, tmp_path):
    f = tmp_path / "big.csv"
    f.write_text("part_id,amount,currency,condition,source\n" + f"{PSU},1,USD,new,{'x' * 140000}\n")
    rc, _, err = run(capsys, "price", "import", str(f))
    assert rc == 2 and "big.csv line" in err and "field larger than field limit" in err
    assert "Traceback" not in err


def test_a_price_import_is_read_as_every_import_is(paths, capsys, tmp_path):
    fifo = tmp_path / "p.csv"
    os.mkfifo(fifo)
    rc, _, err = run(capsys, "price", "import", str(fifo))  # never waits on a pipe
    assert rc == 2 and "not a regular file" in err
    f = tmp_path / "ctl.csv"
    f.write_text("part_id,amount,currency,source\n" + f"{PSU},1,USD,shop\x1b[2J\n")
    rc, _, err = run(capsys, "price", "import", str(f))
    assert rc == 2 and "control character" in err


# --------------------------------------------------------------------------- the user's rates file

RATES_DAMAGE = {
    "nested 100,000 deep": lambda f: f.write_text("[" * 100_000 + "]" * 100_000),
    "an endless file": lambda f: os.symlink("/dev/zero", f),
    "a pipe": lambda f: os.mkfifo(f),
    "not JSON": lambda f: f.write_text("rates: lots"),
    "a huge number": lambda f: f.write_text('{"base": "USD", "per_unit": {"EUR": ' + "9" * 5000 + "}}"),
    "wrong shape": lambda f: f.write_text('{"base": "USD"}'),
    "too big": lambda f: f.write_bytes(b" " * (2 * 1024 * 1024) + b"{}"),
}


@pytest.mark.parametrize("how", list(RATES_DAMAGE))
def test_a_bad_rates_file_is_named_once_and_the_shipped_rates_used(paths, capsys, how):
    f = paths.data_dir / "exchange-rates.json"
    RATES_DAMAGE[how](f)
    rc, out, err = run(capsys, "price", "list", PSU, "--currency", "EUR")
    assert rc == 0 and "Traceback" not in err
    assert err.count("shipped exchange rates are used") == 1 and str(f) in err
    assert "EUR" in out


def test_cost_and_advise_survive_a_deeply_nested_rates_file(paths, capsys, tmp_path):
    (paths.data_dir / "exchange-rates.json").write_text("[" * 100_000 + "]" * 100_000)
    rc, _, err = run(capsys, "catalog", "list", "--kind", "psu")
    assert rc == 0 and "nested too deeply" in err


def test_rates_are_never_saved_through_a_link_out_of_the_data_folder(tmp_path):
    from rigbuilder.catalog.prices import MoneyFileError, load_rates, save_rates

    other = tmp_path / "other.json"
    other.write_text("{}")
    folder = tmp_path / "data"
    folder.mkdir()
    os.symlink(other, folder / "exchange-rates.json")
    with pytest.raises(MoneyFileError, match="outside the data folder"):
        save_rates(load_rates(), folder / "exchange-rates.json", folder)
    assert other.read_text() == "{}"
    mine = folder / "mine.json"
    mine.write_text("{}")
    os.replace(folder / "exchange-rates.json", tmp_path / "old-link")
    os.symlink(mine.name, folder / "exchange-rates.json")
    save_rates(load_rates(), folder / "exchange-rates.json", folder)  # the user's own file: replaced
    assert load_rates(folder / "exchange-rates.json") == load_rates() and (folder / "exchange-rates.json").is_symlink()


def test_bytes_that_are_not_utf8_in_a_database_are_kept_or_moved_aside(with_price, capsys):
    """Found by the data-folder fuzzer: a flipped bit made SQLite's text (and its messages)
    undecodable, and 'price set' ended in "rigbuilder: utf-8"."""
    db = with_price.user_db
    rc, _, _ = run(capsys, "price", "set", PSU, "300", "USD", "--source", "ABCDEFGH")
    b = bytearray(db.read_bytes())
    b[b.index(b"ABCDEFGH") + 2] = 0xFF  # in a price's source: the price is kept, the byte shown as U+FFFD
    db.write_bytes(bytes(b))
    rc, out, err = run(capsys, "price", "list")
    assert rc == 0 and "AB\ufffdDEFGH" in out and not err
    b = bytearray(db.read_bytes())
    page = int.from_bytes(b[16:18], "big")
    b[b.index(b"user_price", 100, page) + 1] = 0xA0  # a table's name in the schema
    db.write_bytes(bytes(b))
    rc, out, err = run(capsys, "price", "set", PSU, "99", "USD")
    assert rc == 0 and "moved to" in err and "Traceback" not in err


def test_a_damaged_database_with_a_pipe_for_a_journal_on_a_full_disk_never_hangs(paths, tmp_path):
    """Found by the data-folder fuzzer: the damaged file could not be moved aside (no room for the
    fresh one), was put back, and reading it opened the journal, a pipe: SQLite waited forever."""
    import subprocess
    import sys

    from rigbuilder.catalog.store import open_catalog

    open_catalog(paths, with_user=False)  # the shipped catalog's cache is built before the disk is "full"
    paths.user_db.write_bytes(os.urandom(8192))
    os.mkfifo(f"{paths.user_db}-journal")
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY)); "
            "from rigbuilder.cli import main; sys.exit(main(['price', 'list']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert r.returncode == 0 and "Traceback" not in r.stderr and "nothing will be changed" in r.stderr
    assert paths.user_db.stat().st_size == 8192 and Path(f"{paths.user_db}-journal").is_fifo()
