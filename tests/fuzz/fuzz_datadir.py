"""Fuzz and fault the user's data folder: damage its files (the user database, settings.ini,
exchange-rates.json, SQLite's journal) in random ways, then run a door on it (a CLI command, the
settings the window opens) now and then on a "full disk" (a small file-size limit), and check:

- every door ends in a result or a message: no traceback, no hang;
- no file outside the data folder changes (links in the folder point at sentinel files outside);
- the folder is usable again afterwards: ``price list`` succeeds on it.

    python -m tests.fuzz.fuzz_datadir --runs 2000 [--seed 1] [--timeout 10]

Prints runs, tracebacks, hangs, files changed outside the data folder and unusable folders, with
the first few examples; exit 1 when any is not 0. A short run is part of the test suite
(tests/fuzz/test_fuzz_datadir_short.py).
"""
from __future__ import annotations

import argparse
import contextlib
import faulthandler
import gc
import hashlib
import io
import os
import random
import resource
import shutil
import sqlite3
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from tests.fuzz.fuzz_files import Hang, _run  # (a call cut off after its time: one way for every campaign)

PSU = "psu-evga-supernova-1600-t2"
FILES = ("user-parts.sqlite", "settings.ini", "exchange-rates.json", "user-parts.sqlite-journal")


@dataclass
class Tally:
    runs: int = 0
    tracebacks: list = field(default_factory=list)
    hangs: list = field(default_factory=list)
    outside: list = field(default_factory=list)  # files changed outside the data folder
    unusable: list = field(default_factory=list)  # 'price list' failed afterwards
    notices: int = 0  # runs where the user was told something about the folder

    @property
    def bad(self) -> int:
        return len(self.tracebacks) + len(self.hangs) + len(self.outside) + len(self.unusable)

    def line(self) -> str:
        return (f"data folder: {self.runs} runs, {len(self.tracebacks)} tracebacks, {len(self.hangs)} hangs, "
                f"{len(self.outside)} files changed outside the data folder, {len(self.unusable)} folders left "
                f"unusable ({self.notices} runs told the user something)")


def _cli(*args: str) -> tuple[int, str]:
    """rigbuilder's command line in this process: (exit code, stderr)."""
    from rigbuilder.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(list(args))
    return rc, err.getvalue()


def _settings_door(data: Path) -> tuple[int, str]:
    """What the window does with settings.ini: open it, read the options, change one, save."""
    from rigbuilder.app import make_settings
    from rigbuilder.config import Paths, Preferences

    notices: list = []
    s = make_settings(Paths(data, data / "cache"), notices)
    prefs = Preferences.open(s)
    notices += prefs.unusable()
    prefs.language()
    prefs.set("appearance/units", "in")
    s.setValue("window/geometry", b"\x00\x01geometry")
    s.sync()
    return 0, "\n".join(str(n) for n in notices)


def _hash_tree(root: Path) -> dict[str, str]:
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for name in files:
            p = Path(dirpath) / name
            if p.is_symlink() or not p.is_file():
                continue
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


# --------------------------------------------------------------------------- damage

def _random_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(n))


def damage(rng: random.Random, data: Path, outside: Path) -> str:
    """One random change to one file of the data folder; returns what was done."""
    name = rng.choice(FILES)
    p = data / name
    original = p.read_bytes() if p.is_file() and not p.is_symlink() else b""
    if os.path.lexists(p):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()
    how = rng.choice(["random bytes", "text", "empty", "truncated", "bit flips", "page garbage", "folder", "fifo",
                      "link outside", "link loop", "dangling link", "link to /dev/zero", "link inside",
                      "deep json", "huge number", "json types", "newer revision", "huge file", "ini garbage"])
    if how == "random bytes":
        p.write_bytes(_random_bytes(rng, rng.choice([1, 100, 4096, 20000])))
    elif how == "text":
        p.write_text(rng.choice(["hello", "[money]\ndefault_region=MARS", "{\"base\": 1}", "\u202e\ud7ff" * 50]),
                     encoding="utf-8")
    elif how == "empty":
        p.write_bytes(b"")
    elif how == "truncated":
        p.write_bytes(original[: rng.randrange(len(original) + 1)] if original else b"SQLite format 3\x00")
    elif how == "bit flips":
        b = bytearray(original or _random_bytes(rng, 4096))
        for _ in range(rng.randint(1, 20)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        p.write_bytes(bytes(b))
    elif how == "page garbage":
        b = bytearray(original or _random_bytes(rng, 8192))
        start = rng.randrange(len(b))
        b[start:start + 512] = _random_bytes(rng, min(512, len(b) - start))
        p.write_bytes(bytes(b))
    elif how == "folder":
        p.mkdir()
        (p / "inside").write_text("x")
    elif how == "fifo":
        os.mkfifo(p)
    elif how == "link outside":
        target = outside / rng.choice(["sentinel.sqlite", "sentinel.ini", "sentinel.json"])
        os.symlink(target, p)
    elif how == "link loop":
        os.symlink(p.name, p)
    elif how == "dangling link":
        os.symlink("no-such-file", p)
    elif how == "link to /dev/zero":
        os.symlink("/dev/zero", p)
    elif how == "link inside":
        real = data / f"real-{name}"
        real.write_bytes(original)
        os.symlink(real.name, p)
    elif how == "deep json":
        depth = rng.choice([50, 5000, 100000])
        p.write_text("[" * depth + "]" * depth)
    elif how == "huge number":
        p.write_text('{"base": "USD", "per_unit": {"EUR": ' + "9" * 5000 + "}}")
    elif how == "json types":
        p.write_text(rng.choice(['{"base": "USD", "per_unit": {"EUR": -1}, "date": "x", "source": "y"}',
                                 '{"base": null}', "[]", '{"base": "USD", "per_unit": {"EUR": "1"}}',
                                 '{"base": "USD", "per_unit": {"EUR": 1e999}, "date": "d", "source": "s"}']))
    elif how == "newer revision":
        p.write_bytes(original)
        odd_side = any(os.path.lexists(f"{p}{x}") and (os.path.islink(f"{p}{x}") or not os.path.isfile(f"{p}{x}"))
                       for x in ("-journal", "-wal"))
        if original.startswith(b"SQLite format 3") and not odd_side:  # (this fuzzer's own SQLite would wait)
            try:
                con = sqlite3.connect(p)
                con.execute("update alembic_version set version_num='0999'")
                con.commit()
                con.close()
            except sqlite3.Error:
                pass
    elif how == "huge file":
        with open(p, "wb") as f:
            f.truncate(3 * 1024 * 1024)  # sparse: big, costs no disk
    elif how == "ini garbage":
        p.write_bytes(rng.choice([b"[unterminated\n\x00\xff", b"\\\\\\=\n[a/b]\nc=\"", b"[x]\n" + b"k=v\n" * 1000]))
    return f"{name}: {how}"


# --------------------------------------------------------------------------- doors

def _doors(tmp: Path) -> list[tuple[str, tuple]]:
    prices = tmp / "prices.csv"
    prices.write_text(f"part_id,amount,currency,condition,source\n{PSU},123,USD,new,shop\n")
    gpu = tmp / "gpu.csv"
    if not gpu.exists():
        _cli("catalog", "template", "gpu", str(gpu))
    return [("price list", ("price", "list")),
            ("price set", ("price", "set", PSU, "99.5", "EUR")),
            ("price import", ("price", "import", str(prices))),
            ("price remove", ("price", "remove", PSU)),
            ("catalog import", ("catalog", "import", str(gpu))),
            ("catalog export", ("catalog", "export", "all", str(tmp / "out.json"))),
            ("catalog list", ("catalog", "list", "--kind", "psu")),
            ("settings", ())]


def _template(root: Path) -> Path:
    """A data folder as a user has it: a price, a part of their own, settings and edited rates."""
    from rigbuilder.catalog.prices import load_rates, save_rates

    t = root / "template"
    t.mkdir()
    os.environ["RIGBUILDER_DATA_DIR"] = str(t)
    rc, err = _cli("price", "set", PSU, "300", "USD")
    assert rc == 0, err
    (t / "settings.ini").write_text("[settings]\nversion=1\n\n[appearance]\nunits=mm\n")
    save_rates(load_rates(), t / "exchange-rates.json")
    return t


def fuzz_datadir(n: int, seed: int, timeout: float, tmp: Path, full_disk: float = 0.15,
                 watchdog: bool = True) -> Tally:
    rng = random.Random(seed)
    t = Tally()
    os.environ.setdefault("RIGBUILDER_CACHE_DIR", str(tmp / "cache"))
    old_data = os.environ.get("RIGBUILDER_DATA_DIR")
    outside = tmp / "outside"
    outside.mkdir(exist_ok=True)
    for name in ("sentinel.sqlite", "sentinel.ini", "sentinel.json"):
        (outside / name).write_bytes(b"someone else's file\n")
    template = _template(tmp)
    shutil.copy(template / "user-parts.sqlite", outside / "sentinel.sqlite")  # a database SQLite would open
    doors = _doors(tmp)
    try:
        for i in range(n):
            data = tmp / f"data-{i}"
            shutil.copytree(template, data, symlinks=True)
            os.environ["RIGBUILDER_DATA_DIR"] = str(data)
            if watchdog:  # a door stuck inside C code (SQLite waiting on a pipe) ignores the alarm:
                faulthandler.dump_traceback_later(timeout * 3, exit=True)  # then stop, with the stacks
            what = [damage(rng, data, outside) for _ in range(rng.choice([1, 1, 2, 3]))]
            label, args = rng.choice(doors)
            if os.environ.get("FUZZ_VERBOSE"):
                print(i, what, label, file=sys.__stderr__, flush=True)
            limit = rng.random() < full_disk
            before = _hash_tree(outside)
            t.runs += 1
            where = f"{'; '.join(what)} -> {label}{' (full disk)' if limit else ''}"

            def one():
                old = resource.getrlimit(resource.RLIMIT_FSIZE)
                if limit:
                    resource.setrlimit(resource.RLIMIT_FSIZE, (rng.choice([0, 1000, 20000]), old[1]))
                try:
                    return _settings_door(data) if label == "settings" else _cli(*args)
                finally:
                    resource.setrlimit(resource.RLIMIT_FSIZE, old)

            try:
                rc, err = _run(one, timeout)
                if "Traceback" in err:
                    t.tracebacks.append((where, err[-800:]))
                elif err:
                    t.notices += 1
            except Hang:
                t.hangs.append(where)
            except BaseException:  # noqa: BLE001 - any escape is a traceback the user would see
                t.tracebacks.append((where, traceback.format_exc(limit=6)))
            if _hash_tree(outside) != before:
                t.outside.append(where)
                for name in ("sentinel.ini", "sentinel.json"):
                    (outside / name).write_bytes(b"someone else's file\n")
                shutil.copy(template / "user-parts.sqlite", outside / "sentinel.sqlite")
            try:
                rc, err = _run(lambda: _cli("price", "list"), timeout)
                if rc != 0 or "Traceback" in err:
                    t.unusable.append((where, err[-400:]))
            except Hang:
                t.hangs.append(where + " (then price list)")
            except BaseException:  # noqa: BLE001
                t.unusable.append((where, traceback.format_exc(limit=6)))
            if watchdog:
                faulthandler.cancel_dump_traceback_later()
            shutil.rmtree(data, ignore_errors=True)
            if i % 50 == 49:
                gc.collect()  # engines of finished runs closed (file handles)
    finally:
        if old_data is None:
            os.environ.pop("RIGBUILDER_DATA_DIR", None)
        else:
            os.environ["RIGBUILDER_DATA_DIR"] = old_data
    return t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10.0)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        t = fuzz_datadir(a.runs, a.seed, a.timeout, Path(d))
        print(t.line() + f" ({time.perf_counter() - t0:.0f} s)")
        for where, tb in (t.tracebacks + t.unusable)[:5]:
            print("  ", where, "\n", tb)
        for where in (t.hangs + t.outside)[:5]:
            print("  ", where)
    return 1 if t.bad else 0


if __name__ == "__main__":
    sys.exit(main())
