"""The lab's shared database on SQLite and on a real PostgreSQL server (tests/pgserver.py)."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import threading

import pytest
from sqlalchemy import inspect

from rigbuilder.catalog import labdb
from rigbuilder.catalog.labdb import Conflict, LabDb, LabDbError, NoWriteRights

LAB_TABLES = {"lab_part", "lab_price", "lab_build", "lab_cluster", "lab_inventory", "lab_calibration"}


@pytest.fixture(params=["sqlite", "postgresql"])
def lab_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lab.sqlite'}"
    return request.getfixturevalue("pg_url")


def _tables(engine) -> set[str]:
    return set(inspect(engine).get_table_names()) & LAB_TABLES


def test_every_migration_up_and_down(lab_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from rigbuilder.catalog.engine import make_engine
    from rigbuilder.catalog.labtables import LAB_METADATA

    engine = make_engine(labdb.parse_url(lab_url)[0].url.render_as_string(hide_password=False))
    try:
        labdb.upgrade(engine, "lab0001")
        assert _tables(engine) == {"lab_part", "lab_price", "lab_build"}
        labdb.upgrade(engine, "lab0002")
        assert _tables(engine) == LAB_TABLES - {"lab_calibration"}
        labdb.upgrade(engine, "lab0003")
        assert "created_by" in {c["name"] for c in inspect(engine).get_columns("lab_build")}
        labdb.upgrade(engine, "lab0004")
        assert "lab_calibration" in _tables(engine)
        assert "market" in {c["name"] for c in inspect(engine).get_columns("lab_price")}
        with engine.connect() as conn:
            assert labdb.current_revision(conn) == labdb.HEAD
            # the migrations build exactly the tables the code declares (columns, types, indexes)
            diff = compare_metadata(MigrationContext.configure(conn), LAB_METADATA)
            assert [d for d in diff if not (isinstance(d, tuple) and d[0] == "remove_table")] == []
        labdb.downgrade(engine, "lab0003")
        assert "lab_calibration" not in _tables(engine)
        assert "market" not in {c["name"] for c in inspect(engine).get_columns("lab_price")}
        labdb.downgrade(engine, "lab0002")
        assert "created_by" not in {c["name"] for c in inspect(engine).get_columns("lab_build")}
        labdb.downgrade(engine, "lab0001")
        assert _tables(engine) == {"lab_part", "lab_price", "lab_build"}
        labdb.downgrade(engine, "base")
        assert _tables(engine) == set()
        labdb.upgrade(engine)
        assert _tables(engine) == LAB_TABLES
    finally:
        engine.dispose()


def test_a_stale_write_is_refused_and_says_who(lab_url):
    a, b = LabDb.open(lab_url), LabDb.open(lab_url)
    try:
        v = a.set_price("gpu-x", "used", 180.0, "EUR", version=None, source="eBay")
        seen_by_b = b.price("gpu-x", "used")
        a.set_price("gpu-x", "used", 170.0, "EUR", version=v)
        with pytest.raises(Conflict) as err:
            b.set_price("gpu-x", "used", 200.0, "EUR", version=seen_by_b.version)
        assert "after you read version 1" in str(err.value) and "not saved" in str(err.value)
        assert err.value.current["amount"] == 170.0
        assert b.price("gpu-x", "used").values["amount"] == 170.0
        with pytest.raises(Conflict, match="already exists"):
            b.set_price("gpu-x", "used", 1.0, "EUR", version=None)
        with pytest.raises(LabDbError, match="negative"):
            a.set_price("gpu-x", "used", -1.0, "EUR", version=2)
    finally:
        a.close(), b.close()


def test_builds_clusters_parts_and_stock_round_trip(lab_url):
    db = LabDb.open(lab_url)
    try:
        db.save_build("node", {"format": "rigbuilder-build", "gpus": []}, version=None)
        db.save_cluster("pair", {"format": "rigbuilder-cluster", "machines": []}, version=None)
        db.save_part({"id": "nic-used-cx3", "kind": "nic", "speed_gbps": 40}, version=None)
        db.add_stock([("gpu-x", "rack A", 3), ("nic-used-cx3", "shelf", 2)])
        db.add_stock([("gpu-x", "rack A", 1), ("gpu-x", "desk", 2)])
        assert [e.key for e in db.builds()] == [("node",)] and db.clusters()[0].values["format"] == "rigbuilder-cluster"
        assert db.parts()[0].values["speed_gbps"] == 40
        assert db.owned_counts() == {"gpu-x": 6, "nic-used-cx3": 2}
        with pytest.raises(LabDbError, match="below zero"):
            db.add_stock([("nic-used-cx3", "shelf", -1), ("gpu-x", "desk", -5)])
        assert db.owned_counts() == {"gpu-x": 6, "nic-used-cx3": 2}  # nothing of the refused change
        e = db.stock("gpu-x", "desk")
        db.remove_stock("gpu-x", "desk", version=e.version)
        assert db.owned_counts()["gpu-x"] == 4
    finally:
        db.close()


def test_two_clients_at_once_on_the_server_50_rounds(pg_url):
    """Two people write the same price and the same stock row at the same moment, 50 times: one
    wins, the other is told (Conflict) and applies its change again; nothing is lost."""
    a, b = LabDb.open(pg_url), LabDb.open(pg_url)
    try:
        a.set_price("gpu-titan-6gb", "used", 100.0, "EUR", version=None)
        a.set_stock("gpu-titan-6gb", "lab", 0, version=None)
        told = {"price": 0, "stock": 0}
        for rnd in range(50):
            gate = threading.Barrier(2)
            results: dict[str, list] = {"price": [], "stock": []}

            def client(db, delta, who):
                p, s = db.price("gpu-titan-6gb", "used"), db.stock("gpu-titan-6gb", "lab")
                gate.wait()
                for what, call in (("price", lambda: db.set_price("gpu-titan-6gb", "used",
                                                                  p.values["amount"] + delta, "EUR", version=p.version)),
                                   ("stock", lambda: db.set_stock("gpu-titan-6gb", "lab", s.values["count"] + delta,
                                                                  version=s.version))):
                    try:
                        call()
                        results[what].append((who, "won"))
                    except Conflict as exc:
                        results[what].append((who, str(exc)))

            ts = [threading.Thread(target=client, args=(a, 1, "a")), threading.Thread(target=client, args=(b, 2, "b"))]
            [t.start() for t in ts]
            [t.join(30) for t in ts]
            for what in ("price", "stock"):
                outcomes = [r for _, r in results[what]]
                assert outcomes.count("won") == 1, (rnd, what, outcomes)
                loser_msg = next(r for r in outcomes if r != "won")
                assert "your change was not saved" in loser_msg
                told[what] += 1
                # the one told reloads and applies its change again: both changes count
                loser = next(w for w, r in results[what] if r != "won")
                db, delta = (a, 1) if loser == "a" else (b, 2)
                if what == "price":
                    p = db.price("gpu-titan-6gb", "used")
                    db.set_price("gpu-titan-6gb", "used", p.values["amount"] + delta, "EUR", version=p.version)
                else:
                    s = db.stock("gpu-titan-6gb", "lab")
                    db.set_stock("gpu-titan-6gb", "lab", s.values["count"] + delta, version=s.version)
        assert told == {"price": 50, "stock": 50}
        assert a.price("gpu-titan-6gb", "used").values["amount"] == 100.0 + 50 * 3
        assert a.stock("gpu-titan-6gb", "lab").values["count"] == 50 * 3
        assert a.price("gpu-titan-6gb", "used").version == 1 + 100
    finally:
        a.close(), b.close()


def test_simultaneous_increments_all_count(pg_url):
    a, b = LabDb.open(pg_url), LabDb.open(pg_url)
    try:
        gate = threading.Barrier(2)

        def add(db):
            gate.wait()
            for _ in range(20):
                db.add_stock([("nic-x", "shelf", 1)])

        a.add_stock([("nic-x", "shelf", 0)])
        ts = [threading.Thread(target=add, args=(d,)) for d in (a, b)]
        [t.start() for t in ts]
        [t.join(30) for t in ts]
        assert a.owned_counts() == {"nic-x": 40}
    finally:
        a.close(), b.close()


KILLED_CLIENT = textwrap.dedent("""
    import sys, time
    from rigbuilder.catalog.labdb import LabDb
    from rigbuilder.catalog.labtables import LabInventory
    db = LabDb.open(sys.argv[1])
    with db.transaction() as s:
        for i in range(50):
            s.add(LabInventory(part_id=f"gpu-{i}", location="rack", count=1))
        s.flush()
        print("written, not committed", flush=True)
        time.sleep(60)
""")


def test_a_killed_client_leaves_no_half_written_rows(pg_url):
    """On the lab's server (SQLite's own transactions are the same contract, left to SQLite's tests)."""
    lab_url = pg_url
    LabDb.open(lab_url).close()
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    proc = subprocess.Popen([sys.executable, "-c", KILLED_CLIENT, lab_url], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout.readline().strip() == "written, not committed"
    finally:
        proc.kill()
        proc.wait(10)
    db = LabDb.open(lab_url)
    try:
        assert db.inventory() == []
        db.add_stock([("gpu-0", "rack", 1)])  # and the database is usable (no lock left behind)
        assert db.owned_counts() == {"gpu-0": 1}
    finally:
        db.close()


def test_a_member_without_write_rights_is_told(pg_server):
    name = pg_server.new_database()
    LabDb.open(pg_server.url(name)).close()  # the administrator creates the tables
    pg_server.sql("CREATE ROLE reader LOGIN", db=name)
    pg_server.sql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader", db=name)
    db = LabDb.open(pg_server.url(name, user="reader"))
    try:
        assert db.prices() == []
        with pytest.raises(NoWriteRights, match="may read the lab database .* but not change it"):
            db.set_price("gpu-x", "new", 1.0, "USD", version=None)
    finally:
        db.close()
    fresh = pg_server.new_database()
    pg_server.sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC", db=fresh)
    with pytest.raises(labdb.WrongSchema, match="no rigbuilder tables yet: the lab's administrator"):
        LabDb.open(pg_server.url(fresh, user="reader"))


def test_the_password_is_never_in_the_stored_url_and_the_password_file_works(pg_server, tmp_path, monkeypatch):
    name = pg_server.new_database()
    pg_server.sql("CREATE ROLE member LOGIN PASSWORD 'pa:ss w0rd'", db=name)
    pg_server.sql(f'GRANT ALL ON DATABASE "{name}" TO member', db=name)
    pg_server.sql("GRANT ALL ON SCHEMA public TO member", db=name)
    with pytest.raises(LabDbError, match="password does not belong"):
        labdb.stored_url(pg_server.url(name, user="member", password="secret", tcp=True))
    stored = labdb.stored_url(pg_server.url(name, user="member", tcp=True))
    assert "secret" not in stored
    monkeypatch.setattr(labdb, "keyring_available", lambda: False)
    passfile = tmp_path / "lab.pgpass"
    where = labdb.store_password(labdb.parse_url(stored)[0], "pa:ss w0rd", passfile)
    assert where == str(passfile) and stat.S_IMODE(passfile.stat().st_mode) == 0o600
    with pytest.raises(labdb.CannotConnect, match="asks member for a password and none was found"):
        LabDb.open(stored, passfile=tmp_path / "none.pgpass")
    db = LabDb.open(stored, passfile=passfile)
    try:
        assert db.user == "member"
        db.set_price("gpu-x", "new", 1.0, "USD", version=None)
    finally:
        db.close()


def test_urls_are_checked():
    assert labdb.parse_url("/tmp/x/lab.sqlite")[0].backend == "sqlite"
    url, pw = labdb.parse_url("postgres://me:pw@server:5433/lab")
    assert (url.backend, pw, url.display) == ("postgresql", "pw", "postgresql+psycopg://me@server:5433/lab")
    for bad, msg in (("", "no lab database"), ("mysql://me@x/lab", "not supported"),
                     ("postgresql://me@server", "names no database")):
        with pytest.raises(LabDbError, match=msg):
            labdb.parse_url(bad)


FIRST_START = textwrap.dedent("""
    import sys
    import alembic.command, psycopg, sqlalchemy, sqlmodel  # noqa: F401 (loaded before the start signal)
    from rigbuilder.catalog.labdb import LabDb
    print("ready", flush=True)
    sys.stdin.readline()  # both go at the same moment
    LabDb.open(sys.argv[1]).close()
    print("opened", flush=True)
""")


def test_two_members_opening_a_new_database_at_once(pg_url):
    """Two first starts (two processes) both try to create the tables: the one that loses the race
    finds them made by the other and goes on."""
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    procs = [subprocess.Popen([sys.executable, "-c", FIRST_START, pg_url], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    try:
        assert [p.stdout.readline().strip() for p in procs] == ["ready", "ready"]
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = [p.communicate(timeout=90) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert [o.strip() for o, _ in outs] == ["opened", "opened"], [e[-500:] for _, e in outs]
    db = LabDb.open(pg_url)
    try:
        db.add_stock([("gpu-x", "", 1)])
        assert db.owned_counts() == {"gpu-x": 1}
    finally:
        db.close()


def test_twelve_people_adding_to_a_new_stock_row_all_count(pg_url):
    """12 members add to a stock row nobody has made yet, at the same moment: 1 counted and 11
    were refused (each tried to insert the row); the upsert counts all 12, every round."""
    dbs = [LabDb.open(pg_url) for _ in range(12)]
    try:
        for rnd in range(5):
            gate = threading.Barrier(12)
            errors: list[str] = []

            def add(db, n):
                gate.wait()
                try:
                    db.add_stock([(f"nic-new-{rnd}", "shelf", n)])
                except LabDbError as exc:
                    errors.append(str(exc))

            ts = [threading.Thread(target=add, args=(d, i + 1)) for i, d in enumerate(dbs)]
            [t.start() for t in ts]
            [t.join(30) for t in ts]
            assert errors == []
            row = dbs[0].stock(f"nic-new-{rnd}", "shelf")
            assert (row.values["count"], row.version) == (sum(range(1, 13)), 12)
    finally:
        [d.close() for d in dbs]


def test_taking_out_what_is_not_there_is_refused(lab_url):
    db = LabDb.open(lab_url)
    try:
        with pytest.raises(LabDbError, match="has no gpu-y at rack to take out"):
            db.add_stock([("gpu-y", "rack", -1)])
        assert db.inventory() == []
    finally:
        db.close()


def test_a_database_of_a_newer_rigbuilder_is_refused_in_words(lab_url):
    """alembic's CommandError ("Can't locate revision") came out as a traceback."""
    from tests.labs import newer_lab

    newer_lab(lab_url)
    with pytest.raises(labdb.WrongSchema, match=r"was set up by a newer rigbuilder \(its tables are of version "
                                                r"lab9999, this rigbuilder knows up to lab0004\): update rigbuilder"):
        LabDb.open(lab_url)


@pytest.mark.parametrize("text", ["postgresql://bob:pw@127.0.0.1:notaport/rb", "postgresql://bob:pw@[::1/rb",
                                  "postgresql://bob:s3cr@t@127.0.0.1/rb", "postgresql://bob:pw@host:99999999999/rb",
                                  "postgresql://bob:p\udcffw@host/rb", "/tmp/lab\udcfe.sqlite"])
def test_a_malformed_address_is_told_and_the_password_never_shown(text):
    with pytest.raises(LabDbError) as err:
        labdb.parse_url(text)
    said = str(err.value)
    assert "pw" not in said.replace("postgresql", "") and "s3cr" not in said and "@t" not in said
    said.encode("utf-8")  # printable


def test_text_that_is_not_utf8_is_refused_before_the_database(lab_url):
    db = LabDb.open(lab_url)
    try:
        for call in (lambda: db.add_stock([("gpu-\udcff", "", 1)]), lambda: db.add_stock([("gpu-x", "\udcfe", 1)]),
                     lambda: db.set_price("gpu-\udcff", "new", 5.0, "USD", version=None),
                     lambda: db.prices("gpu-\udcff"), lambda: db.save_build("n\udcff", {}, version=None),
                     lambda: db.set_stock("gpu-x", "rack\n2", 1, version=None)):
            with pytest.raises(LabDbError, match="is not valid text"):
                call()
        assert db.inventory() == [] and db.prices() == []
    finally:
        db.close()


def test_keep_password_never_follows_a_link(tmp_path, monkeypatch):
    """With lab.pgpass linked to another file, the password was appended to that file and its mode
    changed."""
    monkeypatch.setattr(labdb, "keyring_available", lambda: False)
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    os.chmod(other, 0o644)
    link = tmp_path / "lab.pgpass"
    link.symlink_to(other)
    url = labdb.parse_url("postgresql://bob@server/lab")[0]
    with pytest.raises(LabDbError, match="is a symbolic link or not a plain file"):
        labdb.store_password(url, "s3cret", link)
    assert other.read_text() == "my notes\n" and stat.S_IMODE(other.stat().st_mode) == 0o644
    assert link.is_symlink()
    # a plain file: replaced whole (the old line of that address too), mode 0600, no temporary left
    plain = tmp_path / "own.pgpass"
    plain.write_text("other:5432:db:me:keep\nserver:5432:lab:bob:old\n")
    os.chmod(plain, 0o644)
    labdb.store_password(url, "new:pw", plain)
    assert plain.read_text() == "other:5432:db:me:keep\nserver:5432:lab:bob:new\\:pw\n"
    assert stat.S_IMODE(plain.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab.pgpass", "notes.txt", "own.pgpass"]


def test_an_old_lab_database_keeps_its_prices_through_lab0004(lab_url):
    """A lab database of the previous rigbuilder (lab0003) with a price in it: opening it migrates
    it; the price is kept, with no market (the lab's own price paid, tax included)."""
    from rigbuilder.catalog.engine import make_engine

    engine = make_engine(labdb.parse_url(lab_url)[0].url.render_as_string(hide_password=False))
    try:
        labdb.upgrade(engine, "lab0003")
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO lab_price (part_id, condition, amount, currency, source, date, version, "
                                 "updated_by, updated_at) VALUES ('gpu-old', 'used', 650.0, 'EUR', 'eBay', '2026-10', "
                                 "1, 'alice', '2026-10-02T10:00:00')")
    finally:
        engine.dispose()
    db = LabDb.open(lab_url)
    try:
        e = db.price("gpu-old", "used")
        assert e.values["amount"] == 650.0 and e.values["market"] == ""
        (o,) = db.price_observations()
        assert o.market == "" and o.origin == "paid"
    finally:
        db.close()


def test_prices_keep_their_market_and_a_batch_is_all_or_nothing(lab_url):
    from rigbuilder.domain.money import PriceObservation

    db = LabDb.open(lab_url)
    try:
        v = db.set_price("gpu-a", "new", 1000.0, "EUR", version=None, market="DE")
        assert v == 1 and db.price("gpu-a").values["market"] == "DE"
        with pytest.raises(LabDbError, match="market"):
            db.set_price("gpu-b", "new", 10.0, "EUR", version=None, market="XX")
        good = PriceObservation("gpu-a", 900.0, "USD", "new", "user", "feed", "2026-11-01", market="US")
        bad = PriceObservation("gpu-c", -1.0, "USD", "new", "user", "feed", "2026-11-01", market="US")
        with pytest.raises(LabDbError):
            db.set_prices([good, bad])
        assert db.price("gpu-a").values["amount"] == 1000.0 and db.price("gpu-c") is None  # nothing written
        assert db.set_prices([good, PriceObservation("gpu-c", 5.0, "USD", "used", "user", "feed", "2026-11-01")]) == 2
        a = db.price("gpu-a")
        assert (a.values["amount"], a.values["currency"], a.values["market"], a.version) == (900.0, "USD", "US", 2)
        obs = {o.part_id: o for o in db.price_observations()}
        assert obs["gpu-a"].market == "US" and obs["gpu-c"].market == ""
    finally:
        db.close()


def test_calibration_factors_are_shared_with_compare_and_set(lab_url):
    db, other = LabDb.open(lab_url), LabDb.open(lab_url)
    try:
        assert db.calibrations() == []
        v = db.set_calibration("gpu-nvidia-rtx-3090-fe", 0.93, 2, "2026-11-20", version=None)
        e = other.calibration("gpu-nvidia-rtx-3090-fe")
        assert (e.values, e.version) == ({"factor": 0.93, "logs": 2, "latest": "2026-11-20"}, v)
        other.set_calibration("gpu-nvidia-rtx-3090-fe", 0.95, 3, "2026-11-25", version=v)
        with pytest.raises(Conflict):
            db.set_calibration("gpu-nvidia-rtx-3090-fe", 0.9, 3, "2026-11-26", version=v)
        for bad in (0.0, 5.0, float("nan")):
            with pytest.raises(LabDbError, match="between"):
                db.set_calibration("gpu-x", bad, 1, "2026-11-26", version=None)
        with pytest.raises(LabDbError, match="at least one log"):
            db.set_calibration("gpu-x", 1.0, 0, "2026-11-26", version=None)
        assert [x.key[0] for x in db.calibrations()] == ["gpu-nvidia-rtx-3090-fe"]
    finally:
        db.close(), other.close()
