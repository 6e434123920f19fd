"""The compiled code of the methods @dataclass writes, kept between starts (rigbuilder.codecache)."""
from __future__ import annotations

import dataclasses
import marshal

from rigbuilder.codecache import DataclassCodeCache, cache_file


def _make():
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 2
        tags: tuple = ()

    return Point


def test_a_second_start_takes_the_methods_from_the_file_and_they_behave_the_same(tmp_path):
    path = cache_file(tmp_path)
    first = DataclassCodeCache(path)
    first.install()
    try:
        a = _make()
    finally:
        first.uninstall()
    assert first.added >= 4  # __init__, __repr__, __eq__, __hash__, __setattr__, ...
    first.save()
    assert path.exists()

    second = DataclassCodeCache(path)
    second.install()
    try:
        b = _make()
    finally:
        second.uninstall()
    assert second.hits >= 4 and second.added == 0  # nothing compiled again
    plain = _make()  # no cache installed
    for cls in (a, b, plain):
        p = cls(1)
        assert (p.x, p.y, p.tags) == (1, 2, ())
        assert repr(p).endswith("Point(x=1, y=2, tags=())")
        assert p == cls(1) and p != cls(1, 3) and hash(p) == hash(cls(1))
        try:
            p.x = 5
        except dataclasses.FrozenInstanceError:
            pass
        else:
            raise AssertionError("a frozen class took an assignment")


def test_uninstall_gives_dataclasses_the_builtin_back(tmp_path):
    cache = DataclassCodeCache(cache_file(tmp_path))
    cache.install()
    assert vars(dataclasses)["exec"] == cache.exec
    cache.uninstall()
    assert "exec" not in vars(dataclasses)


def test_a_damaged_or_foreign_file_is_written_again(tmp_path):
    path = cache_file(tmp_path)
    for junk in (b"not marshal at all", marshal.dumps({"x": 1}), marshal.dumps([1, 2])):
        path.write_bytes(junk)
        cache = DataclassCodeCache(path)
        assert cache.codes == {}
        cache.install()
        try:
            cls = _make()
        finally:
            cache.uninstall()
        cache.save()
        assert cls(3).y == 2
        assert DataclassCodeCache(path).codes  # readable now


def test_a_cache_folder_that_cannot_be_made_changes_nothing(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    cache = DataclassCodeCache(cache_file(blocker / "cache"))
    cache.install()
    try:
        assert _make()(1).x == 1
    finally:
        cache.uninstall()
    cache.save()  # cannot write: no error, nothing left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_cache_installed_inside_another_hands_back_to_it(tmp_path):
    outer, inner = DataclassCodeCache(cache_file(tmp_path / "a")), DataclassCodeCache(cache_file(tmp_path / "b"))
    outer.install()
    try:
        inner.install()
        try:
            _make()
        finally:
            inner.uninstall()
        assert inner.added and vars(dataclasses)["exec"] == outer.exec
    finally:
        outer.uninstall()
    assert "exec" not in vars(dataclasses)
