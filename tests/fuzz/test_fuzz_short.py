"""A short run of the file fuzzer in every test run (the long run: python -m tests.fuzz.fuzz_files)."""
from __future__ import annotations

from tests.fuzz.fuzz_files import fuzz_builds, fuzz_imports


def test_mutated_build_files_load_or_are_refused_and_round_trip(index, tmp_path):
    t = fuzz_builds(150, index, seed=3, timeout=10, tmp=tmp_path)
    assert (t.crashes, t.hangs, t.round_trips) == ([], [], [])
    assert t.ok and t.refused  # both paths were exercised


def test_mutated_imports_load_or_are_refused_and_round_trip(index, tmp_path):
    t = fuzz_imports(150, index, seed=3, timeout=10, tmp=tmp_path)
    assert (t.crashes, t.hangs, t.round_trips) == ([], [], [])
    assert t.ok and t.refused
