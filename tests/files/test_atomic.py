"""Saving keeps what the user had: permissions, symbolic and hard links; no temporaries left."""
from __future__ import annotations

import os
import stat
import time

from rigbuilder.files.atomic import write_atomic


def test_an_existing_files_mode_is_kept_and_a_new_file_gets_the_umask(tmp_path):
    p = tmp_path / "b.rig"
    p.write_bytes(b"old")
    os.chmod(p, 0o644)
    write_atomic(p, b"new")
    assert p.read_bytes() == b"new" and stat.S_IMODE(p.stat().st_mode) == 0o644  # was 0600
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "fresh.rig", b"x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "fresh.rig").stat().st_mode) == 0o644


def test_a_symbolic_link_is_written_through(tmp_path):
    target = tmp_path / "real.rig"
    target.write_bytes(b"old")
    link = tmp_path / "link.rig"
    link.symlink_to(target)
    write_atomic(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"  # the link used to become a file


def test_hard_links_keep_sharing_the_content(tmp_path):
    a = tmp_path / "a.rig"
    a.write_bytes(b"old content")
    b = tmp_path / "b.rig"
    os.link(a, b)
    write_atomic(a, b"new")
    assert b.read_bytes() == b"new" and os.stat(a).st_ino == os.stat(b).st_ino
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.rig", "b.rig"]


def test_a_killed_saves_temporary_is_removed_by_the_next_save(tmp_path):
    p = tmp_path / "b.rig"
    stale = tmp_path / ".b.rig.abc123.tmp"
    stale.write_bytes(b"half")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    write_atomic(p, b"x")
    assert not stale.exists() and p.read_bytes() == b"x"


def test_temporaries_of_killed_saves_go_at_once_and_nothing_else_is_touched(tmp_path):
    """Issue 44: 40 saves killed in a row left 15 temporaries (they were kept for a minute each)."""
    import subprocess
    import sys

    from rigbuilder.domain.safeio import clean_folder_temps, temp_prefix

    p = tmp_path / "b.rig"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)  # a process that has ended
    killed = [tmp_path / f".b.rig.{pid}.abcd_{i:03d}.tmp" for i in range(40)]
    for k in killed:
        k.write_bytes(b"half")
    running = tmp_path / f"{temp_prefix('b.rig')}zzzzzzzz.tmp"  # a save of this process, now
    running.write_bytes(b"in progress")
    mine = [tmp_path / ".b.rig.notes.tmp", tmp_path / "b.rig.tmp", tmp_path / ".c.rig.12.abcdefgh.txt"]
    for m in mine:
        m.write_bytes(b"the user's")
    (tmp_path / f".b.rig.{pid}.linkxxxx.tmp").symlink_to(mine[0])
    write_atomic(p, b"x")
    left = sorted(q.name for q in tmp_path.iterdir())
    assert not any(k.exists() for k in killed) and running.exists() and all(m.exists() for m in mine)
    assert f".b.rig.{pid}.linkxxxx.tmp" in left and p.read_bytes() == b"x"
    # at start-up: the data folder's files (settings, exchange rates) the same way
    rates = [tmp_path / f".exchange-rates.json.{pid}.abcdefgh.tmp", tmp_path / ".settings.ini-x1y2z3.tmp"]
    for r in rates:
        r.write_bytes(b"half")
    old = time.time() - 3600
    os.utime(rates[1], (old, old))
    assert clean_folder_temps(tmp_path) == 2 and not any(r.exists() for r in rates)
    assert running.exists() and all(m.exists() for m in mine)
