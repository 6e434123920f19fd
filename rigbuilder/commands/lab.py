"""``rigbuilder lab``: a lab's shared database (docs/lab-database.md) from the command line.

Every action takes ``--db URL`` (or the ``RIGBUILDER_LAB_DB`` environment variable): a
``postgresql://user@host/database`` URL or a SQLite file path. The password comes from the URL,
the system keyring, ``--password-file`` or libpq's ``~/.pgpass``; it is never stored."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from rigbuilder.commands.common import UsageError, add_command, print_json
from rigbuilder.domain.i18n import N_, T, ntr, render

ENV = "RIGBUILDER_LAB_DB"
MAX_STOCK_ADD = 1_000_000
"""The most parts one ``lab stock --add`` adds or takes out."""


def add_db_options(p) -> None:
    p.add_argument("--db", metavar="URL", help=N_("the lab database: postgresql://user@host/database or a SQLite file "
                                                  "(default: $RIGBUILDER_LAB_DB)"))
    p.add_argument("--password-file", metavar="FILE", help=N_("a PostgreSQL password file (default: ~/.pgpass)"))


def register(sub) -> None:
    p = sub.add_parser("lab", help=N_("the lab's shared database: status, stock, prices, builds and cluster plans"))
    ls = p.add_subparsers(dest="lab_command", metavar="ACTION")

    def action(name: str, help: str, func, json: bool = True):
        """A lab action: it reads the database options (every action opens the database)."""
        a = add_command(ls, name, func, help=help, json=json)
        add_db_options(a)
        return a

    action("status", N_("connect and say what the database holds"), cmd_status)
    sk = action("stock", N_("list the parts the lab owns, or add to the stock"), cmd_stock)
    sk.add_argument("--add", nargs=2, metavar=("PART", "N"), help=N_("add N of PART (negative: take out)"))
    sk.add_argument("--place", default="", help=N_("where the parts are (with --add)"))
    pr = action("price", N_("list the lab's prices, or set one"), cmd_price)
    pr.add_argument("--set", nargs=3, metavar=("PART", "AMOUNT", "CURRENCY"), help=N_("set the lab's price of PART"))
    pr.add_argument("--condition", default="new", help=N_("new or used (with --set)"))
    pr.add_argument("--version", type=int, help=N_("the version you read (with --set): refused if it changed since"))
    ca = action("calibration", N_("the card models' power calibration shared in the lab: list, share yours, or "
                                  "pull the lab's"), cmd_calibration)
    ca.add_argument("--push", action="store_true",
                    help=N_("share the calibration your own power logs give (replaces the lab's factor of each card "
                            "model you have logs of)"))
    ca.add_argument("--pull", action="store_true",
                    help=N_("copy the lab's factors into your data: applied to card models your own logs do not "
                            "cover (the calibration switch turns both off)"))
    pu = action("push", N_("share a .rig build or a .rigcluster plan in the lab database"), cmd_push, json=False)
    pu.add_argument("file")
    pu.add_argument("--version", type=int, help=N_("the version you replace (omit for a new entry)"))
    pl = action("pull", N_("write a shared build or cluster plan to a file"), cmd_pull, json=False)
    pl.add_argument("name")
    pl.add_argument("-o", "--output", required=True, help=N_("the file to write"))
    pl.add_argument("--force", action="store_true", help=N_("overwrite an existing file"))
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def open_lab(args: argparse.Namespace):
    from rigbuilder.catalog.labdb import LabDb, LabDbError

    url = getattr(args, "db", None) or os.environ.get(ENV, "")
    if not url:
        raise UsageError(T("name the lab database with --db URL or the RIGBUILDER_LAB_DB environment variable"))
    pf = getattr(args, "password_file", None)
    try:
        return LabDb.open(url, passfile=Path(pf).expanduser() if pf else None)
    except LabDbError as e:
        raise UsageError(e.args[0]) from None


def _shown(s: str) -> str:
    """An argument as it may be printed: itself, or escaped when it holds a byte that is not UTF-8 or a
    control character (the terminal must not receive either)."""
    from rigbuilder.domain.safeio import bad_text

    return ascii(s) if bad_text(s, multiline=False) else s


def _guard(fn):
    from rigbuilder.catalog.labdb import LabDbError

    try:
        return fn()
    except LabDbError as e:
        raise UsageError(e.args[0]) from None


def cmd_status(args: argparse.Namespace) -> int:
    db = open_lab(args)
    try:
        d = _guard(lambda: {"database": db.url.display, "user": db.user, "builds": len(db.builds()),
                            "clusters": len(db.clusters()), "parts": len(db.parts()), "prices": len(db.prices()),
                            "inventory_rows": len(db.inventory()), "owned": db.owned_counts()})
    finally:
        db.close()
    if args.json:
        print_json(d)
    else:
        print(render(T("{db} as {user}: {builds} builds, {clusters} cluster plans, {parts} parts, {prices} prices, "
                       "{stock} inventory rows", db=d["database"], user=d["user"], builds=d["builds"],
                       clusters=d["clusters"], parts=d["parts"], prices=d["prices"], stock=d["inventory_rows"]),
                     args.lang))
    return 0


def cmd_stock(args: argparse.Namespace) -> int:
    db = open_lab(args)
    try:
        if args.add:
            part, n = args.add
            try:
                count = int(n)
            except ValueError:
                raise UsageError(T("--add {part} {n}: N must be a whole number", part=_shown(part), n=_shown(n))) from None
            if abs(count) > MAX_STOCK_ADD:  # 10**400 overflowed the database's integer (a traceback)
                raise UsageError(T("--add {part} {n}: N must be between -{most} and {most}", part=_shown(part), n=_shown(n[:20]),
                                   most=MAX_STOCK_ADD))
            _guard(lambda: db.add_stock([(part, args.place, count)]))
        rows = _guard(db.inventory)
    finally:
        db.close()
    if args.json:
        print_json([{"part_id": e.key[0], "place": e.key[1], "count": e.values["count"], "version": e.version,
                     "updated_by": e.updated_by, "updated_at": e.updated_at} for e in rows])
        return 0
    for e in rows:
        print(f"{e.values['count']:>5}  {e.key[0]}  {e.key[1] or '-'}  (v{e.version}, {e.updated_by} {e.updated_at})")
    return 0


def _checked_price(amount: str, currency: str) -> tuple[float, str]:
    """The amount and currency of ``--set`` through the checks every door makes (domain.money):
    never inf, NaN or an overflow, a currency the exchange rates know."""
    from rigbuilder.catalog.prices import load_rates
    from rigbuilder.domain.money import MoneyError, check_amount, check_currency

    try:
        return check_amount(amount, "--set"), check_currency(currency, "--set", load_rates())
    except MoneyError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None


def cmd_price(args: argparse.Namespace) -> int:
    db = open_lab(args)
    try:
        if args.set:
            part, amount, currency = args.set
            value, currency = _checked_price(amount, currency)
            version = args.version
            if version is None:
                cur = _guard(lambda: db.price(part, args.condition))
                version = cur.version if cur else None
            _guard(lambda: db.set_price(part, args.condition, value, currency, version=version))
        rows = _guard(db.prices)
    finally:
        db.close()
    if args.json:
        print_json([{"part_id": e.key[0], "condition": e.key[1], **e.values, "version": e.version,
                     "updated_by": e.updated_by, "updated_at": e.updated_at} for e in rows])
        return 0
    for e in rows:
        print(f"{e.key[0]}  {e.key[1]}  {e.values['amount']:.2f} {e.values['currency']}  (v{e.version}, "
              f"{e.updated_by} {e.updated_at})")
    return 0


def cmd_calibration(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.measurements import read_calibrations, store_shared_calibrations
    from rigbuilder.commands.common import open_catalog
    from rigbuilder.domain.calibration import MAX_FACTOR, MIN_FACTOR, Calibration

    cat = open_catalog() if (args.push or args.pull) else None
    pushed = pulled = 0
    db = open_lab(args)
    try:
        if args.push:
            own = read_calibrations(cat.user_path)
            if not own:
                raise UsageError(T("no calibration to share: import a power log first (rigbuilder measured import)"))
            for pid, c in sorted(own.items()):
                cur = _guard(lambda: db.calibration(pid))
                _guard(lambda: db.set_calibration(pid, c.factor, c.logs, c.latest[:40],
                                                  version=cur.version if cur else None))
                pushed += 1
        rows = _guard(db.calibrations)
    finally:
        db.close()
    if args.pull:
        from rigbuilder.catalog.userdb import UserDatabaseError

        shared = {e.key[0]: Calibration(float(e.values["factor"]), int(e.values["logs"]), str(e.values["latest"]),
                                        e.updated_by or "?")
                  for e in rows if MIN_FACTOR <= float(e.values["factor"]) <= MAX_FACTOR and int(e.values["logs"]) >= 1}
        try:
            pulled = store_shared_calibrations(cat.user_engine, shared)
        except UserDatabaseError as e:
            raise UsageError(str(e)) from None
    if args.json:
        print_json({"pushed": pushed, "pulled": pulled,
                    "calibrations": [{"part_id": e.key[0], **e.values, "version": e.version,
                                      "updated_by": e.updated_by, "updated_at": e.updated_at} for e in rows]})
        return 0
    for e in rows:
        logs = ntr("{n} log", "{n} logs", e.values["logs"], args.lang)
        print(f"{e.key[0]}  x{e.values['factor']:.3f}  {logs}, {e.values['latest'][:10] or '-'}  "
              f"(v{e.version}, {e.updated_by} {e.updated_at})")
    if pushed:
        print(ntr("{n} calibration shared in the lab database", "{n} calibrations shared in the lab database",
                  pushed, args.lang))
    if args.pull:
        print(ntr("{n} calibration copied from the lab database into your data",
                  "{n} calibrations copied from the lab database into your data", pulled, args.lang))
    return 0


def _read_document(path: Path):
    """('build' or 'cluster', name, document) of a .rig or .rigcluster file, checked by its loader."""
    from rigbuilder.files import buildfile, clusterfile

    try:
        if path.suffix == clusterfile.SUFFIX:
            plan = clusterfile.load(path)
            return "cluster", plan.name or path.stem, clusterfile.to_dict(plan)
        b = buildfile.load(path)
        return "build", b.name or path.stem, buildfile.to_dict(b)
    except buildfile.BuildFileError as e:
        raise UsageError(e.args[0]) from None


def cmd_push(args: argparse.Namespace) -> int:
    kind, name, doc = _read_document(Path(args.file))
    db = open_lab(args)
    try:
        save = db.save_cluster if kind == "cluster" else db.save_build
        v = _guard(lambda: save(name, doc, version=args.version))
    finally:
        db.close()
    print(render(T("shared {name!r} in the lab database (version {v})", name=name, v=v), args.lang))
    return 0


def cmd_pull(args: argparse.Namespace) -> int:
    from rigbuilder.commands.common import refuse_overwrite
    from rigbuilder.files import buildfile, clusterfile

    refuse_overwrite(args.output, args.force)
    db = open_lab(args)
    try:
        found = [e for e in _guard(db.builds) + _guard(db.clusters) if e.key[0] == args.name]
    finally:
        db.close()
    if not found:
        raise UsageError(T("the lab database has no build or cluster plan named {name!r}", name=args.name))
    doc = found[0].values
    out = Path(args.output)
    try:
        if doc.get("format") == clusterfile.FORMAT:
            clusterfile.save(clusterfile.from_dict(doc, args.name), out)
        else:
            buildfile.save(buildfile.from_dict(doc, args.name), out)
    except buildfile.BuildFileError as e:
        raise UsageError(e.args[0]) from None
    except OSError as e:  # no such folder, a full disk: nothing was written
        raise UsageError(T("cannot write {path}: {error}", path=str(out), error=e.strerror or str(e))) from None
    print(render(T("wrote {path} (version {v})", path=str(out), v=found[0].version), args.lang))
    return 0
