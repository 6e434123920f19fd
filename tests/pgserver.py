"""A private PostgreSQL server for the tests: initdb and pg_ctl in a temporary folder, a unix socket
there and 127.0.0.1 on a free port (password logins over TCP), stopped and removed afterwards.

``scripts/setup.sh --test`` installs the server (Debian's ``postgresql`` package). Where no server
can be found or started, :func:`start` raises ``Unavailable`` with the reason, and the tests that
need it are skipped with that reason printed. As root the server runs as the ``postgres`` user
(PostgreSQL refuses to run as root), in a folder that user owns.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

ADMIN = "rigadmin"


class Unavailable(RuntimeError):
    pass


def bindir() -> Path:
    for cand in ([os.environ.get("RIGBUILDER_PG_BINDIR", "")]
                 + sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
                 + [os.path.dirname(shutil.which("initdb") or "")]):
        if cand and os.path.exists(os.path.join(cand, "initdb")) and os.path.exists(os.path.join(cand, "pg_ctl")):
            return Path(cand)
    raise Unavailable("PostgreSQL is not installed (no initdb/pg_ctl; scripts/setup.sh --test installs it)")


@dataclass
class PgServer:
    root: Path
    port: int
    run_as: list[str]
    bin: Path

    @property
    def socket_dir(self) -> str:
        return str(self.root)

    def url(self, db: str = "postgres", user: str = ADMIN, password: str | None = None, tcp: bool = False) -> str:
        cred = user + (f":{password}" if password else "")
        if tcp:
            return f"postgresql://{cred}@127.0.0.1:{self.port}/{db}"
        return f"postgresql://{cred}@/{db}?host={self.socket_dir}&port={self.port}"

    def sql(self, statement: str, db: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(host=self.socket_dir, port=self.port, user=ADMIN, dbname=db, autocommit=True) as c:
            c.execute(statement)

    def new_database(self) -> str:
        name = "t_" + uuid.uuid4().hex[:12]
        self.sql(f'CREATE DATABASE "{name}"')
        return name

    def stop(self) -> None:
        subprocess.run(self.run_as + [str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate",
                                      "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start() -> PgServer:
    b = bindir()
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise Unavailable(f"the psycopg driver is not installed ({exc})")
    run_as: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="rigpg-", dir="/tmp"))
    if os.geteuid() == 0:
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(root, ignore_errors=True)
            raise Unavailable("running as root and there is no 'postgres' user to run the server as")
        os.chown(root, pw.pw_uid, pw.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    r = subprocess.run(run_as + [str(b / "initdb"), "-D", str(data), "-U", ADMIN, "--auth-local=trust",
                                 "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C"],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(f"initdb failed: {r.stderr.strip()[-300:]}")
    for _ in range(3):
        port = _free_port()
        r = subprocess.run(run_as + [str(b / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60",
                                     "-o", f"-k {root} -h 127.0.0.1 -p {port} -F -c fsync=off "
                                           f"-c synchronous_commit=off -c full_page_writes=off",
                                     "start"], capture_output=True, text=True, timeout=90)
        if r.returncode == 0:
            return PgServer(root, port, run_as, b)
    log = (root / "log").read_text(errors="replace")[-300:] if (root / "log").exists() else r.stderr[-300:]
    shutil.rmtree(root, ignore_errors=True)
    raise Unavailable(f"pg_ctl could not start the server: {log}")
