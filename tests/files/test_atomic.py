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
