"""User parts: their own database (Alembic), import all-or-nothing, idempotent, hostile input."""
from __future__ import annotations

import dataclasses
import json
import sqlite3

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from rigbuilder.catalog.schema import part_to_dict
from rigbuilder.catalog.store import open_catalog
from rigbuilder.catalog.tables import PartRow
from rigbuilder.catalog.userdb import HEAD, current_revision, open_user_db, upgrade
from rigbuilder.catalog.userparts import ImportError_, export_csv, export_json, import_parts, user_parts
from rigbuilder.config import Paths


def user_gpu(index, **over):
    base = index.get("gpu-nvidia-rtx-3090-fe")
    return dataclasses.replace(base, **{"id": "gpu-user-my-3090", "maker": "Me", "model": "Shucked 3090",
                                        "origin": "user", **over})


def write_json(path, parts):
    path.write_text(json.dumps([{"kind": p.KIND, **part_to_dict(p)} for p in parts]))
    return path


def test_migrations_reach_head_and_match_models(tmp_path):
    db = tmp_path / "u.sqlite"
    engine = open_user_db(db)
    assert current_revision(db) == HEAD
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), PartRow.metadata)
    assert [d for d in diff if "catalog_meta" not in str(d)] == []


def test_downgrade_and_upgrade_again(tmp_path):
    db = tmp_path / "u.sqlite"
    open_user_db(db)
    upgrade(f"sqlite:///{db}", "head")
    from alembic import command
    from rigbuilder.catalog.userdb import alembic_config
    command.downgrade(alembic_config(f"sqlite:///{db}"), "base")
    tables = {r[0] for r in sqlite3.connect(db).execute("select name from sqlite_master where type='table'")}
    assert "part" not in tables
    open_user_db(db)
    assert current_revision(db) == HEAD


def test_import_json_then_again_changes_nothing(tmp_path, index):
    cat = open_catalog(Paths.from_env())
    f = write_json(tmp_path / "mine.json", [user_gpu(index)])
    r1 = import_parts(cat.user_engine, f, cat.index)
    r2 = import_parts(cat.user_engine, f, cat.index)
    assert (r1.added, r2.added, r2.updated, r2.unchanged) == (1, 0, 0, 1)
    cat.reload_user()
    assert cat.index.get("gpu-user-my-3090").origin == "user"


def test_user_parts_survive_a_new_shipped_catalog(tmp_path, index, monkeypatch, shipped, cache_with_catalog):
    paths = Paths(Paths.from_env().data_dir, cache_with_catalog)
    cat = open_catalog(paths)
    import_parts(cat.user_engine, write_json(tmp_path / "m.json", [user_gpu(index)]), cat.index)
    # an "upgrade": the shipped catalog is rebuilt under a new version, from other files (here the
    # curated rows only: writing a smaller database is quicker, and shows which one was read)
    monkeypatch.setattr("rigbuilder.catalog.shippeddb.catalog_fingerprint", lambda *a: "newversion")
    monkeypatch.setattr("rigbuilder.catalog.snapshot.snapshot_key", lambda *a: "newfiles")  # the files changed
    monkeypatch.setattr("rigbuilder.catalog.shippeddb.load_shipped",
                        lambda *a: ([p for p in shipped[0] if not p.community], []))
    cat2 = open_catalog(paths)
    assert cat2.version == "newversion" and "gpu-user-my-3090" in cat2.index
    assert not any(p.community for p in cat2.index) and cat2.index.get("gpu-nvidia-rtx-3090-fe") is not None


def test_one_bad_row_imports_nothing_and_names_line_and_field(tmp_path, index):
    cat = open_catalog(Paths.from_env())
    good = user_gpu(index)
    rows = [{"kind": "gpu", **part_to_dict(good)},
            {"kind": "gpu", **part_to_dict(user_gpu(index, id="gpu-user-second")), "vram_gb": "lots"}]
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(rows))
    with pytest.raises(ImportError_) as e:
        import_parts(cat.user_engine, f, cat.index)
    assert any(p.where == "bad.json item 2 (gpu-user-second)" or "item 2" in p.where for p in e.value.problems)
    assert any(p.field == "vram_gb" for p in e.value.problems)
    assert user_parts(cat.user_engine) == []


def test_csv_round_trip_and_hostile_cells(tmp_path, index):
    cat = open_catalog(Paths.from_env())
    evil = user_gpu(index, model='=HYPERLINK("http://x","click")', notes="@SUM(A1)")
    data = export_csv([evil])
    text = data.decode()
    assert "'=HYPERLINK" in text and "'@SUM" in text
    f = tmp_path / "p.csv"
    f.write_bytes(data)
    import_parts(cat.user_engine, f, cat.index)
    back = user_parts(cat.user_engine)[0]
    assert back.model == evil.model and back.power_connectors == evil.power_connectors


@pytest.mark.parametrize("content, needle", [
    ("kind,id\ngpu,gpu-x,extra\n", "more cells"),
    ("id,maker\nx,y\n", "'kind' column"),
    ('kind,id\n"gpu,gpu-x\n', "line"),
    ("kind,id\nwidget,w-1\n", "kind"),
])
def test_hostile_csv(tmp_path, index, content, needle):
    f = tmp_path / "h.csv"
    f.write_text(content)
    cat = open_catalog(Paths.from_env())
    with pytest.raises(ImportError_) as e:
        import_parts(cat.user_engine, f, cat.index)
    assert needle in str(e.value)


def test_shipped_id_cannot_be_overwritten(tmp_path, index):
    cat = open_catalog(Paths.from_env())
    f = write_json(tmp_path / "s.json", [user_gpu(index, id="gpu-nvidia-rtx-3090-fe")])
    with pytest.raises(ImportError_, match="shipped part"):
        import_parts(cat.user_engine, f, cat.index)


def test_binary_and_huge_files(tmp_path, index):
    cat = open_catalog(Paths.from_env())
    f = tmp_path / "b.json"
    f.write_bytes(b"\xff\xfe\xfa")
    with pytest.raises(ImportError_, match="UTF-8"):
        import_parts(cat.user_engine, f, cat.index)
    f.write_bytes(b"[" + b" " * (6 * 1024 * 1024) + b"]")
    with pytest.raises(ImportError_, match="at most"):
        import_parts(cat.user_engine, f, cat.index)


def test_export_json_reimports(tmp_path, index):
    cat = open_catalog(Paths.from_env())
    f = tmp_path / "e.json"
    f.write_bytes(export_json([user_gpu(index)]))
    assert import_parts(cat.user_engine, f, cat.index).added == 1


def test_an_unreadable_user_database_is_said_once_however_often_it_is_reloaded():
    """Issue 14: reload_user added the 'cannot read' problem again on every reload. Issue 24: the
    damaged file is moved aside once (a dated backup) and said once."""
    paths = Paths.from_env()
    paths.user_db.parent.mkdir(parents=True, exist_ok=True)
    paths.user_db.write_bytes(b"this is not an sqlite database" * 40)
    cat = open_catalog(paths)
    assert len(cat.notices) == 1 and "is not a SQLite database" in cat.notices[0]
    first = ([str(p) for p in cat.problems], list(cat.notices))
    cat.reload_user()
    cat.reload_user()
    assert ([str(p) for p in cat.problems], list(cat.notices)) == first
    assert len(list(paths.data_dir.glob("user-parts.sqlite.damaged-*"))) == 1


def test_the_user_database_and_the_store_import_no_circle():
    """Issue 14: catalog/store.py and catalog/userdb.py imported each other; both now take the
    engine factory from catalog/engine.py and userdb imports nothing from store."""
    import ast
    from pathlib import Path

    import rigbuilder.catalog.userdb as userdb

    tree = ast.parse(Path(userdb.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "rigbuilder.catalog.store" not in imported and "rigbuilder.catalog.engine" in imported


def _problems(cat, path):
    with pytest.raises(ImportError_) as e:
        import_parts(cat.user_engine, path, cat.index)
    return " ".join(str(p) for p in e.value.problems)


@pytest.mark.parametrize("field", ["id", "maker", "model", "notes", "source"])
def test_import_refuses_lone_surrogates_naming_the_field(tmp_path, index, field):
    cat = open_catalog(Paths.from_env())
    row = {"kind": "gpu", **part_to_dict(user_gpu(index))}
    row[field] = row[field] + "\ud800"
    f = tmp_path / "s.json"
    f.write_text(json.dumps([row]))  # ASCII escapes: "\ud800" in the file
    assert f"'{field}'" in _problems(cat, f) and "not valid text" in _problems(cat, f)
    assert user_parts(cat.user_engine) == []


def test_import_refuses_huge_numbers_devices_and_fifos(tmp_path):
    import os
    cat = open_catalog(Paths.from_env())
    big = tmp_path / "big.json"
    big.write_text('[{"kind": "gpu", "id": "gpu-x", "vram_gb": ' + "1" * 5000 + "}]")
    assert "over 4,300 digits" in _problems(cat, big)
    cell = tmp_path / "big.csv"
    cell.write_text("kind,id,maker,model,power_connectors\ngpu,gpu-x,Me,X,[" + "1" * 5000 + "]\n")
    assert "line 2" in _problems(cat, cell) and "power_connectors" in _problems(cat, cell)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    assert "nested too deeply" in _problems(cat, deep)
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    assert "not a regular file" in _problems(cat, fifo)  # before: blocked forever
    assert "not a regular file" in _problems(cat, tmp_path)


@pytest.mark.parametrize("field,value", [("maker", " "), ("model", ""), ("currency", " ")])
def test_import_refuses_blank_required_fields(tmp_path, index, field, value):
    """Blank maker, model or currency were accepted, and their own CSV export then refused."""
    cat = open_catalog(Paths.from_env())
    row = {"kind": "gpu", **part_to_dict(user_gpu(index, price=999.0, currency="USD"))}
    row[field] = value
    f = tmp_path / "b.json"
    f.write_text(json.dumps([row]))
    msg = _problems(cat, f)
    assert f"'{field}'" in msg and ("blank" in msg or "price and currency go together" in msg)


def test_csv_export_quotes_a_lone_carriage_return_and_imports_again(tmp_path, index):
    """A lone CR was left unquoted: a spreadsheet split the record there ("=..." started a line)."""
    import csv
    import io
    cat = open_catalog(Paths.from_env())
    part = user_gpu(index, notes="first\r=HYPERLINK(1)")
    data = export_csv([part])
    rows = list(csv.reader(io.StringIO(data.decode("utf-8").replace("\r\n", "\n"), newline="")))
    assert len(rows) == 2  # header and one record, even read with "\n" as the only line end
    f = tmp_path / "mine.csv"
    f.write_bytes(data)
    import_parts(cat.user_engine, f, cat.index)
    cat.reload_user()
    assert cat.index.get(part.id).notes == part.notes


def test_csv_export_of_empty_lists_and_texts_imports_again(tmp_path, index):
    """Found by the fuzzer: a board with no lane rules (an empty list) was exported as an empty
    cell, which the import read as a missing field, so the user's own export was refused."""
    import dataclasses
    from rigbuilder.catalog.userparts import parse_parts
    boards = [p for p in index if p.KIND == "motherboard" and not p.lane_rules]
    assert boards
    mine = [dataclasses.replace(boards[0], id=boards[0].id + "-mine", origin="user"),
            user_gpu(index)]  # two kinds in one table: each row leaves the other's columns empty
    f = tmp_path / "mine.csv"
    f.write_bytes(export_csv(mine))
    assert parse_parts(f) == mine


def test_csv_export_of_an_unknown_field_with_a_default_imports_as_unknown(tmp_path, index):
    """Found by the fuzzer: null in a field whose default is not null came back as the default."""
    import dataclasses
    import typing
    from rigbuilder.catalog.userparts import parse_parts
    hints: dict = {}  # per part type (get_type_hints for each of 11,000 parts took 12 s)
    for p in index:
        h = hints.setdefault(type(p), typing.get_type_hints(type(p)))
        hits = [f.name for f in dataclasses.fields(p) if f.default not in (None, dataclasses.MISSING)
                and type(None) in typing.get_args(h[f.name])]
        if hits:
            break
    mine = dataclasses.replace(p, id=p.id + "-mine", origin="user", **{hits[0]: None})
    f = tmp_path / "m.csv"
    f.write_bytes(export_csv([mine]))
    assert parse_parts(f) == [mine]
