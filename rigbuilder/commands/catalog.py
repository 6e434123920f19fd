"""``rigbuilder catalog ...``: list, show, validate, import and export parts."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rigbuilder.commands.common import UsageError, add_command, open_catalog, print_json
from rigbuilder.domain.i18n import N_, T, nT, render, tr
from rigbuilder.domain.kinds import PART_KINDS
from rigbuilder.domain.parts import (Motherboard, board_slot_flags, slot_position_words,
                                     slot_table_words)


def register(sub) -> None:
    p = sub.add_parser("catalog", help=N_("list, show, import and export catalog parts"))
    csub = p.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)
    kinds = ", ".join(sorted(PART_KINDS))
    ls = add_command(csub, "list", cmd_list, help=N_("list parts"), json=True)
    # the kinds filled in by argparse from the action's ``kinds`` (its help is %-formatted with them)
    ls.add_argument("kind_arg", nargs="?", metavar="KIND", help=N_("only this kind: %(kinds)s")).kinds = kinds
    ls.add_argument("--kind", help=N_("only this kind (the same as KIND)"))
    ls.add_argument("--search", help=N_("text that maker or model contains"))
    sh = add_command(csub, "show", cmd_show, help=N_("show one part with its source"), json=True)
    sh.add_argument("id")
    va = add_command(csub, "validate", cmd_validate,
                     help=N_("validate catalog JSON files (default: the shipped catalog)"))
    va.add_argument("files", nargs="*")
    im = add_command(csub, "import", cmd_import,
                     help=N_("import user parts from a CSV or JSON file (all rows or none)"))
    im.add_argument("file")
    im.add_argument("--dry-run", action="store_true", help=N_("validate and report what would change; write nothing"))
    ex = add_command(csub, "export", cmd_export, help=N_("export user parts as CSV or JSON"))
    ex.add_argument("kind", metavar="KIND", help=N_("the kind to export (%(kinds)s) or 'all'")).kinds = kinds
    ex.add_argument("output", metavar="FILE", help=N_("where to write (.csv or .json)"))
    ex.add_argument("--format", choices=("csv", "json"), help=N_("default: from the file extension"))
    tp = add_command(csub, "template", cmd_template, help=N_("a CSV to start your own parts from: the columns of "
                                                             "KIND and one example row (a shipped part under a new id)"))
    tp.add_argument("kind", metavar="KIND", help=N_("the kind (%(kinds)s)")).kinds = kinds
    tp.add_argument("output", metavar="FILE", nargs="?", default="-", help=N_("where to write (default: standard output)"))

    add_command(csub, "remove", cmd_remove, help=N_("remove a user part")).add_argument("id")
    db = add_command(csub, "build-db", cmd_build_db, help=N_("write the shipped catalog as SQLite (for packaging)"))
    db.add_argument("-o", "--output", required=True)


def cmd_list(args: argparse.Namespace) -> int:
    from rigbuilder.files.report import trust_label

    if args.kind_arg and args.kind and args.kind_arg != args.kind:
        raise UsageError(T("two kinds given: {first} and {second}", first=repr(args.kind_arg), second=repr(args.kind)))
    kind = _kind(args.kind_arg or args.kind)
    lang = getattr(args, "lang", "en")
    cat = open_catalog()
    parts = cat.parts(kind)
    if args.search:
        from rigbuilder.catalog.search import PartQuery, search

        parts = search(parts, PartQuery(text=args.search))
    parts.sort(key=lambda p: (p.KIND, p.maker.lower(), p.model.lower()))
    if args.json:
        print_json([_json_row(p) for p in parts])
        return 0
    for p in parts:
        mark = "" if p.verified else f"  [{trust_label(p.origin, p.unverified, p.community, lang)}]"
        print(f"{p.id:52} {p.name}{mark}")
    print(tr("{n} parts (catalog {version})", lang, n=len(parts), version=cat.version), file=sys.stderr)
    return 0


def _json_row(p, index=None) -> dict:
    """A part as ``catalog list/show --json`` gives it: the file format plus the read-only keys
    (``schema.READ_ONLY_FIELDS``, which an import ignores): origin ("curated", "community",
    "user"), verified, trust (English words, as all JSON output), a board's two slot flags and,
    with ``index``, the price the rest of the program uses (``price_used``)."""
    from rigbuilder.catalog.schema import part_to_dict
    from rigbuilder.files.report import trust_label

    d = {"kind": p.KIND, "origin": p.provenance, "verified": p.verified,
         "trust": trust_label(p.origin, p.unverified, p.community, "en")}
    if isinstance(p, Motherboard):
        d["slots_confirmed"] = p.slots_confirmed
        d["positions_confirmed"] = p.positions_confirmed
    if index is not None:
        o = _price_used(p, index)
        d["price_used"] = None if o is None else {
            "amount": o.amount, "currency": o.currency, "condition": o.condition, "origin": o.origin,
            "source": o.source, "date": o.observed or None}
    d.update(part_to_dict(p))
    return d


def _price_used(p, index):
    """The price a build would use for the part (new): the same choice as every other door."""
    from rigbuilder.models.prices import choose, observations

    return choose(observations(p.id, index))


def _kind(kind, allow_all: bool = False):
    """A kind name from the command line, checked; None for all kinds."""
    if kind is None or (allow_all and kind == "all"):
        return None
    k = kind.lower()
    if k.endswith("s") and k[:-1] in PART_KINDS:  # "gpus", "psus"
        k = k[:-1]
    if k not in PART_KINDS:
        kinds = ", ".join(sorted(PART_KINDS))
        raise UsageError(T("unknown kind {kind}; kinds: {kinds} or all", kind=repr(kind), kinds=kinds) if allow_all
                         else T("unknown kind {kind}; kinds: {kinds}", kind=repr(kind), kinds=kinds))
    return k


def cmd_show(args: argparse.Namespace) -> int:
    cat = open_catalog()
    p = cat.index.get(args.id)
    if p is None:
        raise UsageError(T("no part with id {id}; 'rigbuilder catalog list --search TEXT' finds ids", id=repr(args.id)))
    d = _json_row(p, cat.index)
    if args.json:
        print_json(d)
        return 0
    lang = getattr(args, "lang", "en")
    used = d.pop("price_used")
    if lang != "en":  # the JSON's English words, in the reader's language
        from rigbuilder.files.report import trust_label

        d["trust"] = trust_label(p.origin, p.unverified, p.community, lang)
    for k, v in d.items():
        if k in ("price", "currency", "price_note"):
            continue  # the price the program uses is shown below, with where it comes from
        if k == "slots" and isinstance(p, Motherboard):
            print(f"{k:22} " + render(board_slot_flags(p), lang))
            for s in p.slots:
                print(f"{'':22} {s.position}: {s.id} x{s.physical}/x{s.lanes} Gen{s.gen} {s.source}")
                print(f"{'':26} " + render(slot_table_words(s), lang))
                print(f"{'':26} " + render(slot_position_words(s), lang))
            continue
        print(f"{_key(k, lang):22} {_value(k, v, lang)}")
    if used is None:
        print(f"{_key('price', lang):22} " + tr("none known", lang))
    else:
        print(f"{_key('price', lang):22} " + render(T("{amount} {currency} ({condition}, {origin}, {date}; {source})",
                                          amount=f"{used['amount']:,.2f}", currency=used["currency"],
                                          condition=used["condition"], origin=used["origin"],
                                          date=used["date"] or "-", source=used["source"] or "-"), lang))
    return 0


def _key(field: str, lang: str) -> str:
    """A field's name as ``catalog show`` prints it: its id in English (what --set and the files use),
    its label in another language."""
    from rigbuilder.domain.parts import FIELD_LABELS

    label = FIELD_LABELS.get(field) or _ROW_KEYS.get(field)
    return field if lang == "en" or label is None else tr(label, lang)


_ORIGINS = {"curated": N_("curated"), "community": N_("community data"), "user": N_("your own")}
"""A part's provenance (``Part.provenance``) in words."""
_ROW_KEYS = {"kind": N_("kind"), "origin": N_("origin"), "verified": N_("verified"), "trust": N_("trust"),
             "source": N_("source"), "source_date": N_("source date"), "unverified": N_("unverified"),
             "notes": N_("notes"), "maker": N_("maker"), "model": N_("model")}
"""The keys of ``catalog show`` that are not catalog fields of one kind."""


def _value(field: str, v, lang: str) -> str:
    """A value in words in another language (a GPU's segment, its cooler, yes/no); English as stored."""
    from rigbuilder.commands.build import COOLER_LABELS as COOLER_NAMES  # (render.board's needs Qt)
    from rigbuilder.domain.parts import SEGMENT_WORDS

    if lang == "en":
        return str(v)
    if isinstance(v, bool):
        return tr("yes", lang) if v else tr("no", lang)
    words = {"segment": SEGMENT_WORDS, "cooler": COOLER_NAMES, "origin": _ORIGINS}.get(field, {})
    return tr(words[v], lang) if isinstance(v, str) and v in words else str(v)


def cmd_validate(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.loader import catalog_files
    from rigbuilder.catalog.validate import main as validate

    files = args.files or [str(p) for p in catalog_files()]
    return 1 if validate(files) else 0


def cmd_import(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userparts import ImportError_, import_parts

    lang = getattr(args, "lang", "en")
    cat = open_catalog()
    try:
        res = import_parts(_user_engine(cat), Path(args.file), cat.index, dry_run=args.dry_run)
    except ImportError_ as e:
        for prob in e.problems:
            print(render(prob, lang), file=sys.stderr)
        raise UsageError(nT("{path}: nothing imported ({n} problem above)", "{path}: nothing imported ({n} problems above)",
                            len(e.problems), path=args.file)) from None
    if args.dry_run:
        print(tr("{path}: valid; would add {added}, update {updated}, leave {unchanged} unchanged (dry run: "
                 "nothing written)", lang, path=args.file, added=res.added, updated=res.updated,
                 unchanged=res.unchanged))
    else:
        print(tr("{path}: {added} added, {updated} updated, {unchanged} unchanged", lang, path=args.file,
                 added=res.added, updated=res.updated, unchanged=res.unchanged))
    if res.ignored:
        print(tr("ignored read-only fields (worked out by rigbuilder, not stored): {fields}", lang,
                 fields=", ".join(res.ignored)), file=sys.stderr)
    return 0


def cmd_template(args: argparse.Namespace) -> int:
    import dataclasses

    from rigbuilder.catalog.userparts import export_csv
    from rigbuilder.files.atomic import write_atomic

    kind = _kind(args.kind)
    cat = open_catalog()
    shipped = sorted((p for p in cat.parts(kind) if p.origin == "shipped"), key=lambda p: (bool(p.unverified), p.id))
    if not shipped:
        raise UsageError(T("no shipped {kind} part to copy as an example", kind=kind))
    ex = shipped[0]
    mine = dataclasses.replace(ex, id=ex.PREFIX + "my-" + ex.id[len(ex.PREFIX):], origin="user",
                               notes=f"Example copied from the shipped part {ex.id}: change every cell to your part's "
                                     "own figures, then: rigbuilder catalog import FILE")
    data = export_csv([mine])
    if args.output == "-":
        sys.stdout.write(data.decode("utf-8"))
        return 0
    try:
        write_atomic(args.output, data)
    except OSError as e:
        raise UsageError(T("cannot write {path}: {error}", path=args.output, error=e.strerror or str(e))) from None
    print(tr("{kind} template written to {path}: edit the example row, then 'rigbuilder catalog import {path}'",
             getattr(args, "lang", "en"), kind=kind, path=args.output), file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userparts import export_csv, export_json, user_parts

    kind = _kind(args.kind, allow_all=True)
    fmt = args.format or ("csv" if args.output.lower().endswith(".csv") else "json")
    cat = open_catalog()
    parts = [p for p in user_parts(_user_engine(cat)) if kind is None or p.KIND == kind]
    data = export_csv(parts) if fmt == "csv" else export_json(parts)
    try:
        Path(args.output).write_bytes(data)
    except OSError as e:
        raise UsageError(T("cannot write {path}: {error}", path=args.output, error=e.strerror or str(e))) from None
    lang = getattr(args, "lang", "en")
    print(tr("{n} user parts written to {path}", lang, n=len(parts), path=args.output) if kind is None else
          tr("{n} user {kind} parts written to {path}", lang, n=len(parts), kind=kind, path=args.output))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.userparts import delete_part

    cat = open_catalog()
    if not delete_part(_user_engine(cat), args.id):
        raise UsageError(T("no user part with id {id} (shipped parts cannot be removed)", id=repr(args.id)))
    print(tr("removed {id}", getattr(args, "lang", "en"), id=args.id))
    return 0


def cmd_build_db(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.shippeddb import build_shipped_db

    try:
        version = build_shipped_db(Path(args.output))
    except ValueError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    print(tr("catalog {version} written to {path}", getattr(args, "lang", "en"), version=version, path=args.output))
    return 0


def _user_engine(cat):
    """The user's parts database, or exit 2 naming the file and why it cannot be opened."""
    from rigbuilder.catalog.userdb import UserDatabaseError

    try:
        return cat.user_engine
    except UserDatabaseError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
