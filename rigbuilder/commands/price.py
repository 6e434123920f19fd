"""``rigbuilder price ...``: your own prices (set, list, import, export, remove)."""
from __future__ import annotations

import argparse
from pathlib import Path

from rigbuilder.commands.common import UsageError, add_command, open_catalog, print_json
from rigbuilder.domain.i18n import Day, Money, N_, T, format_value, ntr, render, tr


CONDITIONS = {"new": N_("new"), "used": N_("used")}


def register(sub) -> None:
    p = sub.add_parser("price", help=N_("your own prices for parts, and every price known for a part"))
    psub = p.add_subparsers(dest="price_command", metavar="ACTION", required=True)
    st = add_command(psub, "set", cmd_set,
                     help=N_("set your price for a part (replaces your earlier price in that condition)"))
    st.add_argument("id", help=N_("catalog part id"))
    st.add_argument("amount", help=N_("the amount, e.g. 649.99"))
    st.add_argument("currency", help=N_("three-letter code: USD, EUR, GBP, JPY, CNY, ..."))
    st.add_argument("--used", action="store_true", help=N_("a price for a used part (default: new)"))
    st.add_argument("--source", default="", help=N_("where the price is from (shop, listing, quote)"))
    st.add_argument("--date", default="", help=N_("when you saw it (default: today)"))
    ls = add_command(psub, "list", cmd_list, help=N_("list your prices, or every price known for one part"), json=True)
    ls.add_argument("id", nargs="?", help=N_("one part: every price known for it and which one is used"))
    ls.add_argument("--currency", help=N_("also show each price converted to this currency"))
    im = add_command(psub, "import", cmd_import, json=True,
                     help=N_("import prices you collected from a CSV or JSON file (part name or id, "
                             "amount, currency, condition, date, source): shows what matched first"),
                     description=N_("Read a price file (CSV with a header, or JSON: a list of objects) with the "
                             "columns part (a catalog id or a part's name, matched as a list line is), "
                             "amount, currency and optionally condition (new or used), date (ISO day or "
                             "month), source and kind. Prints every row: what it matched and to what, or "
                             "why it is bad; then stores the good rows as your prices. Exit 0: every row "
                             "imported; 1: some rows were left out; 2: the file cannot be read."))
    im.add_argument("file")
    im.add_argument("--dry-run", action="store_true", help=N_("only show what would be imported; store nothing"))
    up = add_command(psub, "update", cmd_update, json=True,
                     help=N_("apply a dated price feed from a file or an http(s) address, all or nothing"),
                     description=N_("Read a price feed (the price file's format: CSV with a header, or JSON; the "
                                    "columns part or part_id or name, amount, currency, condition, date, source, "
                                    "kind) from a file or an http:// or https:// address, at most 5 MB and 30 "
                                    "seconds. Prints every row: what it matched and to what, or why it is bad. "
                                    "Applies the feed as your prices only when every row is good: one bad row "
                                    "and nothing is applied. An optional market column says where each price was "
                                    "seen (US: before sales tax; DE, FR, UK, EU, JP, CN: with that market's VAT or "
                                    "consumption tax), so that a build elsewhere converts its tax. --lab shares the "
                                    "applied prices in the lab database too. Exit 0: applied (or, with --dry-run, applicable); "
                                    "1: refused, bad rows named; 2: the feed cannot be read."))
    up.add_argument("source", metavar="SOURCE", help=N_("a file, or an http:// or https:// address"))
    up.add_argument("--dry-run", action="store_true", help=N_("only show the matches; apply nothing"))
    up.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                    help=N_("the longest the feed may take to arrive (default 30)"))
    up.add_argument("--lab", action="store_true",
                    help=N_("also share the applied prices in the lab database (--db URL or $RIGBUILDER_LAB_DB), "
                            "all or none"))
    from rigbuilder.commands.lab import add_db_options

    add_db_options(up)
    ex = add_command(psub, "export", cmd_export, help=N_("export your prices as CSV"))
    ex.add_argument("output", metavar="FILE")
    rm = add_command(psub, "remove", cmd_remove, help=N_("remove your prices for a part (new and used)"))
    rm.add_argument("id")
    rm.add_argument("--used", action="store_true", help=N_("only the used price"))
    rm.add_argument("--new", action="store_true", help=N_("only the new price"))


def cmd_set(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userprices import make_observation, set_prices
    from rigbuilder.domain.money import MoneyError

    cat = open_catalog()
    try:
        o = make_observation(args.id, args.amount, args.currency, "used" if args.used else "new", args.source,
                             args.date, index=cat.index)
    except MoneyError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    set_prices(cat.user_engine, [o])
    lang = getattr(args, "lang", "en")
    text = (T("{id}: your used price is {price} ({source}, {date})", id=args.id, price=Money(o.amount, o.currency),
              source=o.source, date=Day(o.date)) if o.condition == "used" else
            T("{id}: your new price is {price} ({source}, {date})", id=args.id, price=Money(o.amount, o.currency),
              source=o.source, date=Day(o.date)))
    print(render(text, lang))
    return 0


def _obs_json(o, conv=None) -> dict:
    from rigbuilder.domain.money import months_between

    d = {"part_id": o.part_id, "amount": o.amount, "currency": o.currency, "condition": o.condition,
         "origin": o.origin, "origin_label": o.origin_label, "source": o.source, "date": o.date, "note": o.note,
         "with_parts": list(o.with_parts), "upper_bound": o.upper_bound, "observed": o.observed or None,
         "age_months": months_between(o.observed) if o.observed else None, "stale": o.stale(),
         "market": o.market or None}
    if conv is not None:
        d["converted"] = {"amount": None if conv.amount is None else round(conv.amount, 2), "currency": conv.currency,
                          "conversion": conv.conversion or None, "problem": conv.problem or None}
    return d


def cmd_list(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userprices import read_user_prices
    from rigbuilder.domain.money import MoneyError, check_currency
    from rigbuilder.models.prices import choose, convert, observations

    cat = open_catalog()
    cur = None
    if args.currency:
        try:
            cur = check_currency(args.currency, "--currency")
        except MoneyError as e:
            raise UsageError(e.args[0] if e.args else str(e)) from None
    lang = getattr(args, "lang", "en")
    M = lambda amount, currency: format_value(Money(amount, currency), "", lang)  # noqa: E731
    rates = cat.index.prices.rates
    if args.id is None:
        obs = read_user_prices(cat.user_path)
        if args.json:
            print_json([_obs_json(o, convert(o, cur, rates) if cur else None) for o in obs])
            return 0
        if not obs:
            print(tr("No prices of your own yet: 'rigbuilder price set ID AMOUNT CURRENCY' adds one.", lang))
        for o in obs:
            extra = ""
            if cur:
                c = convert(o, cur, rates)
                extra = f"  = {M(c.amount, cur)}" if c.amount is not None else f"  ({render(c.problem, lang)})"
            cond = tr(CONDITIONS.get(o.condition, o.condition), lang)
            print(f"{o.part_id:<44} {cond:<5} {M(o.amount, o.currency):>16}{extra}  {o.source} ({o.date}, "
                  f"{render(o.age(), lang)})")
        return 0
    part = cat.index.get(args.id)
    if part is None:
        raise UsageError(T("{id}: no such part; 'rigbuilder catalog list' lists ids", id=args.id))
    obs = observations(args.id, cat.index)
    used = choose(obs)
    if args.json:
        print_json({"id": args.id, "name": part.name, "used_for_new_builds": None if used is None else _obs_json(used),
                    "rates": {"date": rates.date, "source": rates.source, "age_days": rates.age_days()},
                    "prices": [_obs_json(o, convert(o, cur, rates) if cur else None) for o in obs]})
        return 0
    print(f"{part.name} ({args.id})")
    if not obs:
        print(tr("  no price known", lang))
    for o in obs:
        mark = "*" if o is used else " "
        what = (tr("{price} at most", lang, price=Money(o.amount, o.currency)) if o.upper_bound else
                M(o.amount, o.currency))
        if o.with_parts:
            what = tr("{price} together with {parts}", lang, price=what, parts=", ".join(o.with_parts))
        line = f" {mark} {what}: {render(o.describe(), lang)}" + (f" [{render(o.note_text, lang)}]" if o.note else "")
        if cur:
            c = convert(o, cur, rates)
            line += (f" = {M(c.amount, cur)} ({render(c.conversion, lang)})" if c.conversion and c.amount is not None
                     else (f" ({render(c.problem, lang)})" if c.problem else ""))
        print(line)
    if used is not None:
        print(tr("  * the price used for a new part (a build's price paid, or a used price when the build "
                 "prefers used parts, comes first)", lang))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userprices import set_prices
    from rigbuilder.files.priceimport import PriceFileError, preview

    lang = getattr(args, "lang", "en")
    from rigbuilder.domain.safeio import UnreadableFile, read_limited
    from rigbuilder.files.priceimport import MAX_BYTES

    try:  # read as every import is: a regular file (never a pipe or device), bounded
        data = read_limited(Path(args.file), MAX_BYTES)
    except UnreadableFile as e:
        raise UsageError(T("{path}: {error}", path=args.file, error=str(e))) from None
    cat = open_catalog()
    try:
        pv = preview(data, Path(args.file).name, cat.index, cat.index.prices.rates)
    except PriceFileError as e:
        raise UsageError(str(e)) from None
    stored = 0 if args.dry_run or not pv.good else set_prices(cat.user_engine, pv.good)
    if args.json:
        print_json({"file": args.file, "dry_run": bool(args.dry_run), "stored": stored,
                    "rows": _rows_json(pv)})
    else:
        for line in pv.lines():
            print(render(line, lang))
        if args.dry_run:
            print(tr("dry run: nothing stored", lang))
        else:
            print(ntr("{path}: {n} price stored", "{path}: {n} prices stored", stored, lang, path=args.file))
    return 1 if pv.bad else 0


def _rows_json(pv) -> list[dict]:
    """A previewed price file's or feed's rows as ``--json`` gives them (``price import``, ``price update``)."""
    return [{"line": r.line, "part": r.part, "matched": r.good,
             "part_id": r.observation.part_id if r.observation else None,
             "part_name": r.part_name or None, "matched_by": r.how or None,
             "price": _obs_json(r.observation) if r.observation else None,
             "problems": [str(p) for p in r.problems]} for r in pv.rows]


def cmd_update(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userprices import set_prices
    from rigbuilder.files.pricefeed import TIMEOUT_S, fetch, read_feed
    from rigbuilder.files.priceimport import PriceFileError

    lang = getattr(args, "lang", "en")
    timeout = TIMEOUT_S if args.timeout is None else args.timeout
    if not 0 < timeout <= 600:
        raise UsageError(T("--timeout {value}: must be more than 0 and at most 600 seconds", value=args.timeout))
    cat = open_catalog()
    try:
        data = fetch(args.source, timeout_s=timeout)
        feed = read_feed(data, args.source, cat.index, cat.index.prices.rates)
    except PriceFileError as e:
        raise UsageError(str(e)) from None
    pv = feed.preview
    stored = shared = 0
    lab = None
    if args.lab and feed.applicable and not args.dry_run:
        from rigbuilder.commands.lab import open_lab

        lab = open_lab(args)  # before anything is stored: an unreachable lab stores nothing
    try:
        if feed.applicable and not args.dry_run:
            if lab is not None:
                from rigbuilder.catalog.labdb import LabDbError

                try:
                    shared = lab.set_prices(pv.good)  # one transaction in the lab: all rows or none
                except LabDbError as e:
                    raise UsageError(T("{db}: {error}; nothing applied", db=lab.url.display, error=e.args[0])) from None
            stored = set_prices(cat.user_engine, pv.good)  # one transaction: all rows or none
    finally:
        if lab is not None:
            lab.close()
    if args.json:
        print_json({"source": args.source, "dry_run": bool(args.dry_run), "applicable": feed.applicable,
                    "stored": stored, "shared_in_lab": shared if args.lab else None,
                    "rows": _rows_json(pv)})
    else:
        for line in pv.lines()[:-1]:
            print(render(line, lang))
        print(render(feed.verdict(), lang))
        if feed.applicable:
            print(tr("dry run: nothing stored", lang) if args.dry_run else
                  ntr("{path}: {n} price stored", "{path}: {n} prices stored", stored, lang, path=args.source))
            if shared:
                print(ntr("{n} price shared in the lab database", "{n} prices shared in the lab database", shared, lang,
                          n=shared))
    return 0 if feed.applicable else 1


def cmd_export(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userprices import read_user_prices, to_csv
    from rigbuilder.files.atomic import write_atomic

    cat = open_catalog()
    obs = read_user_prices(cat.user_path)
    try:
        write_atomic(Path(args.output), to_csv(obs))
    except OSError as e:
        raise UsageError(T("cannot write {path}: {error}", path=args.output, error=e.strerror or str(e))) from None
    print(ntr("wrote {n} price to {path}", "wrote {n} prices to {path}", len(obs), getattr(args, "lang", "en"),
              path=args.output))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userprices import remove_price

    if args.used and args.new:
        raise UsageError(T("--used and --new: give one or neither (neither removes both)"))
    cat = open_catalog()
    n = remove_price(cat.user_engine, args.id, "used" if args.used else "new" if args.new else None)
    if not n:
        raise UsageError(T("{id}: you have no price for it", id=args.id))
    print(ntr("{id}: {n} price removed", "{id}: {n} prices removed", n, getattr(args, "lang", "en"), id=args.id))
    return 0
