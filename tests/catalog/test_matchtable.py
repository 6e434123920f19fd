"""The match table (issue 31): a catalog's parts as the list matcher reads them, kept between runs,
so ``import-list`` matches without loading the community rows. What matches must not change."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rigbuilder.catalog.match import KIND_LABELS, Matcher, MatchTable, PartFacts, model_numbers
from rigbuilder.domain.catalog import PartIndex

DATA = Path(__file__).parent.parent / "files" / "data" / "pcpp"


def _answers(matcher: Matcher, lines) -> list:
    out = []
    for category, name in lines:
        m = matcher.match(category, name)
        out.append((category, name, m.status, m.kind, str(m.reason),
                    [(c.part_id, c.name, c.kind, c.score, str(c.note)) for c in m.candidates]))
    return out


@pytest.fixture(scope="module")
def sample(index):
    """The curated parts and every 15th community row: every kind, thousands of parts, quick to key."""
    community = sorted((p for p in index if p.community), key=lambda p: p.id)
    return [p for p in index if not p.community] + community[::15]


@pytest.fixture(scope="module")
def sample_table(sample):
    keys: dict[str, str] = {}
    return MatchTable.of_parts(sample, keys), keys


def test_a_table_matcher_answers_every_test_list_as_the_index_matcher(sample, sample_table):
    from rigbuilder.files.pcpp import parse

    lines = [(ln.category, ln.name) for f in sorted(DATA.glob("*.*")) if f.suffix in (".md", ".txt") and f.stem != "README"
             for ln in parse(f.read_bytes(), f.name).lines]
    lines += [("Custom", "Noctua NH-D15 chromax.black"), ("Video Card", "RTX 3090"), ("Memory", "")]
    assert len(lines) > 60
    table, keys = sample_table
    assert _answers(Matcher(PartIndex(sample), {}, table), lines) == _answers(Matcher(PartIndex(sample), keys), lines)


def test_a_table_unpacks_what_the_checks_read(sample, sample_table):
    table = sample_table[0]
    for kind in KIND_LABELS:
        keys, facts = table.choices(kind)
        parts = sorted((p for p in sample if p.KIND == kind), key=lambda p: p.id)
        assert len(keys) == len(facts) == len(parts)
        for i in (0, len(parts) // 2, -1):
            f, p = facts[i], parts[i]
            assert (f.id, f.name, f.maker, f.community, f.KIND) == (p.id, p.name, p.maker, p.community, kind)
            assert set(f.model_numbers) == model_numbers(p)
        assert facts[-1] == PartFacts.of(parts[-1]) and facts[:1] == [PartFacts.of(parts[0])]
    assert table.choices("no-such-kind") == ([], ())


def test_own_parts_beside_the_table(index):
    """The user's parts come from the index beside the table; one with a shipped part's id is left
    out, as the index leaves it out once the community rows are in."""
    gpus = sorted((p for p in index if p.KIND == "gpu" and not p.community), key=lambda p: p.id)[:40]
    shipped = gpus[:30]
    mine = dataclasses.replace(gpus[0], id="gpu-zz-mine", model="Rocket RTX 3090 Mine Edition", origin="user")
    clash = dataclasses.replace(gpus[1], model="Rocket Clash 3090", origin="user")  # the id of a shipped part
    table = MatchTable.of_parts(shipped, {})
    with_table = Matcher(PartIndex([*shipped[2:], mine, clash]), {}, table)
    loaded = Matcher(PartIndex([*shipped, mine]), {})  # what the index holds with every shipped part in
    lines = [("Video Card", mine.name), ("Video Card", clash.name), ("Custom", mine.name), ("Video Card", gpus[5].name)]
    assert _answers(with_table, lines) == _answers(loaded, lines)
    assert with_table.match(*lines[0]).part_id == "gpu-zz-mine"
    assert with_table._choices("gpu")[1][-1] is mine  # noqa: SLF001 - sorted by id among the table's parts


def test_a_repeated_line_is_matched_once(sample):
    m = Matcher(PartIndex(sample), {})
    first = m.match("Video Card", "Asus GeForce RTX 3090 24 GB TURBO Video Card")
    assert m.match("Video Card", "Asus GeForce RTX 3090 24 GB TURBO Video Card") is first


def test_the_command_keeps_its_table_and_leaves_the_community_rows_unloaded(tmp_path, index):
    from rigbuilder.catalog.matchcache import load_table, save_table, table_for, table_path
    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.config import Paths

    cat = open_catalog(Paths.from_env(), with_user=False)  # the session's cache: the community rows pending
    asus = [p for p in index if p.KIND == "gpu" and p.id.startswith("gpu-asus-")]
    small = dataclasses.replace(cat, index=PartIndex(asus, version=cat.index.version))  # (quick to make a table of)
    other = Paths(tmp_path / "data", tmp_path / "cache")
    table = table_for(other, small)  # none kept yet: made and kept
    assert table_path(other, small) == table_path(other, cat)  # named by the catalog, not by what it holds
    assert load_table(other, cat).packed == table.packed and table_for(other, cat).packed == table.packed
    m = Matcher(cat.index, {}, table_for(other, cat))
    assert m.match("Video Card", "Asus GeForce RTX 3090 24 GB TURBO Video Card").part_id == "gpu-asus-rtx-3090-turbo"
    assert m.match("Case", "Fractal Design Meshify 2 XL ATX Full Tower Case").best is None  # (none in this table)
    assert cat.index.pending  # matched from the table: the community rows were never read

    path = table_path(other, cat)
    for junk in (b"", b"\x00garbage", __import__("marshal").dumps({"gpu": ([], b"", b"")}), b"\xe3" * 40):
        path.write_bytes(junk)
        assert load_table(other, cat) is None  # damaged or foreign: made again, never trusted
    stale = path.with_name("match-table-0123456789abcdef.marshal")
    stale.write_bytes(b"old")
    save_table(other, cat, table)
    assert load_table(other, cat).packed == table.packed and not stale.exists()

    db = tmp_path / "shipped.sqlite"  # a database built again (after a damaged one): another table
    db.write_bytes(b"one")
    first = table_path(other, dataclasses.replace(cat, shipped_path=db))
    db.write_bytes(b"built again")
    assert table_path(other, dataclasses.replace(cat, shipped_path=db)) != first
