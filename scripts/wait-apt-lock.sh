#!/usr/bin/env bash
# Wait until no other package manager (apt, dpkg, unattended-upgrades, a software centre) holds
# the package locks; say so while waiting, and give up with a clear message after a while.
#   scripts/wait-apt-lock.sh [SECONDS]     default: $APT_LOCK_WAIT or 600
# Exit 0 when the locks are free, 1 when another program still holds one after SECONDS.
# dpkg and apt take fcntl (POSIX) locks: a lock is held when lockf() on it would block.
# APT_LOCK_FILES (space-separated) replaces the lock files checked (tests use their own).
set -euo pipefail

limit=${1:-${APT_LOCK_WAIT:-600}}
step=${APT_LOCK_STEP:-5}  # seconds between looks (whole seconds for the limit)
locks=${APT_LOCK_FILES:-"/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock"}
PY=${PYTHON:-python3}
SUDO=""
[ "$(id -u)" -ne 0 ] && [ -z "${APT_LOCK_FILES:-}" ] && SUDO="sudo"

held() {  # prints the first lock another process holds
  # shellcheck disable=SC2086
  $SUDO "$PY" -c '
import fcntl, os, sys
for path in sys.argv[1:]:
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        continue  # no such lock file (or not ours to open): nobody waits on it
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print(path)
        break
    finally:
        os.close(fd)  # closing releases the lock taken for the test
' $locks
}

start=$SECONDS
said=""
while holder=$(held) && [ -n "$holder" ]; do
  if [ $((SECONDS - start)) -ge "$limit" ]; then
    echo "Another package manager still holds $holder after ${limit}s; giving up." >&2
    echo "Let it finish (an update may be running: see 'ps aux | grep -E \"apt|dpkg\"'), then run this again." >&2
    exit 1
  fi
  if [ -z "$said" ]; then
    echo "Another package manager holds $holder (an update running?): waiting up to ${limit}s for it to finish..."
    said=1
  fi
  sleep "$step"
done
