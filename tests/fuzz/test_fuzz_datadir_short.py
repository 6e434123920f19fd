"""A short run of the data-folder fuzzer in every test run (the long run: python -m tests.fuzz.fuzz_datadir)."""
from __future__ import annotations

from tests.fuzz.fuzz_datadir import fuzz_datadir


def test_a_damaged_data_folder_never_ends_in_a_traceback_a_hang_or_a_write_outside(tmp_path):
    t = fuzz_datadir(12, seed=5, timeout=20, tmp=tmp_path, full_disk=0.25, watchdog=True)
    assert (t.tracebacks, t.hangs, t.outside, t.unusable) == ([], [], [], []), t.line()
    assert t.runs == 12 and t.notices  # the damage was noticed and said
