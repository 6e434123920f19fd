"""People in the lab database, on a real PostgreSQL server (tests/pgserver.py) set up exactly as
docs/lab-database.md says: an administrator (alice, who takes the rigbuilder_admin role at login),
members (bob, dave: rigbuilder_writer), a reader (carol), and a login without any lab role (erin).
One database and one set of roles for the whole module."""
from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest

from rigbuilder.catalog import labdb
from rigbuilder.catalog.labdb import CannotConnect, LabDb, NoAccess, NotYours, NoWriteRights, WrongSchema

DOC = Path(__file__).resolve().parents[2] / "docs" / "lab-database.md"


@pytest.fixture(scope="module")
def lab(pg_server):
    """The documented setup, run as written, plus a second member and a login without a lab role."""
    sql = re.search(r"```sql\n(.*?)```", DOC.read_text(), re.S).group(1).replace("'...'", "'pw'")
    before, _, after = sql.partition("\\c rigbuilder")
    for part, db in ((before, "postgres"), (after, "rigbuilder")):
        for stmt in re.sub(r"--[^\n]*", "", part).split(";"):
            if stmt.strip():
                pg_server.sql(stmt, db=db)
    pg_server.sql("CREATE ROLE dave LOGIN PASSWORD 'pw' IN ROLE rigbuilder_writer")
    pg_server.sql("CREATE ROLE erin LOGIN PASSWORD 'pw'")
    LabDb.open(pg_server.url("rigbuilder", user="alice")).close()  # the administrator's first connection
    return pg_server


def _open(server, user: str, db: str = "rigbuilder") -> LabDb:
    return LabDb.open(server.url(db, user=user))


def _raw(server, user: str, statement: str, db: str = "rigbuilder"):
    with psycopg.connect(host=server.socket_dir, port=server.port, user=user, dbname=db, autocommit=True) as c:
        return c.execute(statement).rowcount


def test_each_change_records_the_person_not_the_role_taken(lab):
    """alice logs in and takes rigbuilder_admin (ALTER ROLE alice SET role): her changes were
    recorded as rigbuilder_admin's, and conflicts named that role instead of her."""
    alice, bob = _open(lab, "alice"), _open(lab, "bob")
    try:
        assert alice.user == "alice"
        v = alice.set_price("gpu-people", "used", 100.0, "EUR", version=None)
        assert alice.price("gpu-people", "used").updated_by == "alice"
        bob.set_price("gpu-people", "used", 90.0, "EUR", version=v)
        with pytest.raises(labdb.Conflict, match="changed by bob at"):
            alice.set_price("gpu-people", "used", 80.0, "EUR", version=v)
        alice.add_stock([("gpu-people", "rack", 1)])
        assert alice.stock("gpu-people", "rack").updated_by == "alice"
        # the server writes the name: a client cannot claim to be someone else
        _raw(lab, "bob", "UPDATE lab_price SET updated_by = 'alice', amount = 91 WHERE part_id = 'gpu-people'")
        assert bob.price("gpu-people", "used").updated_by == "bob"
    finally:
        alice.close(), bob.close()


def test_a_member_changes_only_its_own_builds_and_the_administrator_any(lab):
    bob, dave, alice = _open(lab, "bob"), _open(lab, "dave"), _open(lab, "alice")
    try:
        v = bob.save_build("bob's node", {"format": "rigbuilder-build", "gpus": []}, version=None)
        with pytest.raises(NotYours, match="the build \"bob's node\" belongs to bob: only bob or the lab's "
                                           "administrator may change it; save yours under another name"):
            dave.save_build("bob's node", {"format": "rigbuilder-build", "gpus": [1]}, version=v)
        assert _raw(lab, "dave", "DELETE FROM lab_build") == 0  # row-level security: none of dave's
        assert _raw(lab, "dave", "UPDATE lab_build SET document = '{}'") == 0
        assert dave.save_build("dave's node", {"format": "rigbuilder-build"}, version=None) == 1
        v2 = alice.save_build("bob's node", {"format": "rigbuilder-build", "gpus": [2]}, version=v)
        row = next(e for e in bob.builds() if e.key == ("bob's node",))
        assert (row.version, row.updated_by, row.values["gpus"]) == (v2, "alice", [2])
        assert bob.save_build("bob's node", {"format": "rigbuilder-build"}, version=v2) == v2 + 1
        # a part another member added is theirs too; prices and stock are everyone's
        bob.save_part({"id": "nic-bobs", "kind": "nic"}, version=None)
        with pytest.raises(NotYours, match="belongs to bob"):
            dave.save_part({"id": "nic-bobs", "kind": "nic", "note": "mine"}, version=1)
        dave.add_stock([("nic-bobs", "shelf", 2)])
        bob.add_stock([("nic-bobs", "shelf", -1)])
        assert alice.stock("nic-bobs", "shelf").values["count"] == 1
    finally:
        bob.close(), dave.close(), alice.close()


@pytest.mark.parametrize("user", ["bob", "carol", "erin"])
def test_only_the_administrator_may_write_the_version_table(lab, user):
    for stmt in ("UPDATE rigbuilder_lab_version SET version_num = 'lab9999'", "DELETE FROM rigbuilder_lab_version",
                 "INSERT INTO rigbuilder_lab_version VALUES ('x')", "DROP TABLE lab_build",
                 "ALTER TABLE lab_build DISABLE ROW LEVEL SECURITY"):
        with pytest.raises((psycopg.errors.InsufficientPrivilege, psycopg.errors.InvalidSchemaName)):
            _raw(lab, user, stmt)
    alice = _open(lab, "alice")
    alice.close()  # and the administrator still finds the database as it was


def test_the_grants_hold_where_the_old_setup_granted_members_everything(lab):
    """The setup documented before lab0003 gave rigbuilder_writer INSERT, UPDATE and DELETE on every
    table the administrator made (ALTER DEFAULT PRIVILEGES), the version table included: a member
    could stamp it, and could change or delete anyone's build."""
    lab.sql("CREATE DATABASE olddocs OWNER rigbuilder_admin")
    for stmt in ("REVOKE CREATE ON SCHEMA public FROM PUBLIC", "GRANT USAGE, CREATE ON SCHEMA public TO rigbuilder_admin",
                 "GRANT USAGE ON SCHEMA public TO rigbuilder_writer, rigbuilder_reader",
                 "ALTER DEFAULT PRIVILEGES FOR ROLE rigbuilder_admin IN SCHEMA public "
                 "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO rigbuilder_writer",
                 "ALTER DEFAULT PRIVILEGES FOR ROLE rigbuilder_admin IN SCHEMA public "
                 "GRANT USAGE, SELECT ON SEQUENCES TO rigbuilder_writer",
                 "ALTER DEFAULT PRIVILEGES FOR ROLE rigbuilder_admin IN SCHEMA public "
                 "GRANT SELECT ON TABLES TO rigbuilder_reader"):
        lab.sql(stmt, db="olddocs")
    alice = _open(lab, "alice", "olddocs")
    alice.save_build("alice's node", {"format": "rigbuilder-build"}, version=None)
    alice.close()
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        _raw(lab, "bob", "UPDATE rigbuilder_lab_version SET version_num = 'lab9999'", db="olddocs")
    assert _raw(lab, "bob", "DELETE FROM lab_build", db="olddocs") == 0
    # what a member may do, it may: prices and stock, by plain SQL too
    assert _raw(lab, "bob", "INSERT INTO lab_price (part_id, condition, amount, currency, source, date, version, "
                            "updated_by, updated_at) VALUES ('gpu-x', 'new', 1, 'EUR', '', '', 1, 'x', '')",
                db="olddocs") == 1
    _open(lab, "carol", "olddocs").close()


def test_a_reader_reads_and_is_told_it_may_not_change(lab):
    carol = _open(lab, "carol")
    try:
        carol.prices(), carol.builds()
        with pytest.raises(NoWriteRights, match=r"^you may read the lab database .* but not change it: ask the "
                                                 r"lab's administrator for the rigbuilder_writer role$"):
            carol.add_stock([("gpu-x", "rack", 1)])
    finally:
        carol.close()


def test_a_login_without_a_lab_role_is_told_so(lab):
    with pytest.raises(NoAccess, match=r"^erin has no role in the lab database .*: ask the lab's administrator to "
                                       r"grant rigbuilder_reader \(to read\) or rigbuilder_writer \(to change\) to erin$"):
        _open(lab, "erin")


def test_a_database_without_the_grants_and_an_older_one(lab):
    """A second database whose tables an older rigbuilder made (lab0002, no grants): a reader is
    told a grant is missing, a member that the tables are older and the administrator upgrades
    them; after alice's next connection both work."""
    from rigbuilder.catalog.engine import make_engine

    lab.sql("CREATE DATABASE second OWNER rigbuilder_admin")
    lab.sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC", db="second")
    lab.sql("GRANT USAGE, CREATE ON SCHEMA public TO rigbuilder_admin", db="second")
    engine = make_engine(labdb.parse_url(lab.url("second", user="alice"))[0].url.render_as_string(hide_password=False))
    labdb.upgrade(engine, "lab0002")
    engine.dispose()
    with pytest.raises(NoAccess, match=r"^the lab database .*second.* lacks a grant for carol's role .*: ask the "
                                       r"lab's administrator to connect to it once with this rigbuilder"):
        _open(lab, "carol", "second")
    lab.sql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO rigbuilder_writer", db="second")
    with pytest.raises(WrongSchema, match=r"has tables of an older version \(lab0002\) than this rigbuilder needs "
                                          r"\(lab0004\): the lab's administrator"):
        _open(lab, "bob", "second")
    _open(lab, "alice", "second").close()
    for user in ("bob", "carol"):
        _open(lab, user, "second").close()


def test_a_wrong_password_and_a_server_down_are_told_apart(lab):
    good = lab.url("rigbuilder", user="bob", password="pw", tcp=True)
    LabDb.open(good).close()
    with pytest.raises(CannotConnect, match=r"^the lab database server 127.0.0.1:\d+ refused the password of bob: "
                                            r"check it and keep it again"):
        LabDb.open(lab.url("rigbuilder", user="bob", password="wrong", tcp=True))
    with pytest.raises(CannotConnect, match=r"has no database nothere: check the database name"):
        LabDb.open(lab.url("nothere", user="bob", password="pw", tcp=True))
    with pytest.raises(CannotConnect, match=r"^cannot reach the lab database server 127.0.0.1:1: check that it is "
                                            r"running"):
        LabDb.open("postgresql://bob:pw@127.0.0.1:1/rigbuilder")


def test_a_password_with_an_at_sign_is_never_printed(lab):
    """'bob:pw@PW3@host' took PW3@host for the host and printed "bob@PW3" in the error."""
    with pytest.raises(labdb.LabDbError) as err:
        LabDb.open(f"postgresql://bob:pw@PW3@127.0.0.1:{lab.port}/rigbuilder")
    assert "PW3" not in str(err.value) and "pw" not in str(err.value).replace("postgresql", "")
    assert "%40" in str(err.value)


def test_the_command_line_says_whose_build_it_is(lab, tmp_path, capsys):
    from rigbuilder.cli import main
    from rigbuilder.files import buildfile
    from tests.builds import seed003_node

    buildfile.save(seed003_node("gpu-nvidia-quadro-rtx-5000"), tmp_path / "node.rig")
    assert main(["lab", "push", str(tmp_path / "node.rig"), "--db", lab.url("rigbuilder", user="bob")]) == 0
    capsys.readouterr()
    assert main(["lab", "push", str(tmp_path / "node.rig"), "--version", "1",
                 "--db", lab.url("rigbuilder", user="dave")]) == 2
    err = capsys.readouterr().err
    assert "belongs to bob: only bob or the lab's administrator may change it" in err and "Traceback" not in err
    assert main(["lab", "status", "--json", "--db", lab.url("rigbuilder", user="alice")]) == 0
    assert '"user": "alice"' in capsys.readouterr().out


def test_members_share_calibration_and_the_server_says_who(lab):
    """lab0004's calibration table is granted as the prices: a member writes it, the server stamps
    the member's name, a reader reads it and is told it may not change it."""
    bob, carol = _open(lab, "bob"), _open(lab, "carol")
    try:
        v = bob.set_calibration("gpu-people-cal", 0.9, 1, "2026-11-20", version=None)
        e = carol.calibration("gpu-people-cal")
        assert e.values["factor"] == 0.9 and e.updated_by == "bob" and e.version == v
        _raw(lab, "bob", "UPDATE lab_calibration SET updated_by = 'alice', factor = 0.91 WHERE part_id = 'gpu-people-cal'")
        assert carol.calibration("gpu-people-cal").updated_by == "bob"
        with pytest.raises(NoWriteRights):
            carol.set_calibration("gpu-people-cal", 1.0, 1, "2026-11-21", version=e.version + 1)
        bob.set_price("gpu-people-cal", "new", 999.0, "USD", version=None, market="US")
        assert carol.price("gpu-people-cal").values["market"] == "US"
    finally:
        bob.close(), carol.close()
