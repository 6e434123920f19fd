"""scripts/wait-apt-lock.sh (run by scripts/setup.sh before apt-get): waits while another package
manager holds a package lock, saying so, and gives up with a message after its limit."""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "wait-apt-lock.sh"


def _run(locks, limit: str, env_extra=None):
    env = dict(os.environ, APT_LOCK_FILES=" ".join(str(p) for p in locks), APT_LOCK_STEP="0.2",
               PYTHON=sys.executable, **(env_extra or {}))
    return subprocess.run(["bash", str(SCRIPT), limit], capture_output=True, text=True, env=env, timeout=30)




def test_free_locks_pass_at_once_without_a_word(tmp_path):
    lock = tmp_path / "lock"
    lock.write_text("")
    r = _run([lock, tmp_path / "absent"], "5")
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""


def _held_in_child(lock: Path, seconds: float) -> subprocess.Popen:
    """Another process holds the fcntl lock (a lock held by this process would not block its children's test)."""
    code = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
            "fcntl.lockf(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(float(sys.argv[2]))")
    p = subprocess.Popen([sys.executable, "-c", code, str(lock), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "held"
    return p


def test_a_held_lock_is_waited_for_with_a_message(tmp_path):
    lock = tmp_path / "lock-frontend"
    holder = _held_in_child(lock, 1.0)
    try:
        t0 = time.monotonic()
        r = _run([lock], "20")
        waited = time.monotonic() - t0
    finally:
        holder.wait(5)
    assert r.returncode == 0, r.stderr
    assert f"Another package manager holds {lock}" in r.stdout and "waiting up to 20s" in r.stdout
    assert waited >= 0.5  # it waited for the holder instead of failing at once


def test_it_gives_up_after_its_limit_saying_why(tmp_path):
    lock = tmp_path / "lock"
    holder = _held_in_child(lock, 5.0)
    try:
        r = _run([lock], "1")
    finally:
        holder.kill()
        holder.wait(5)
    assert r.returncode == 1
    assert "still holds" in r.stderr and "giving up" in r.stderr and "run this again" in r.stderr


def test_setup_waits_for_the_lock_before_apt_get():
    text = (SCRIPT.parent / "setup.sh").read_text()
    assert text.index("scripts/wait-apt-lock.sh") < text.index("apt-get -o DPkg::Lock::Timeout")
