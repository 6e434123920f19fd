"""``rigbuilder import-list``: a PCPartPicker part list (text or Markdown export) as a build."""
from __future__ import annotations

import argparse
import re
import sys
from typing import Optional

from rigbuilder.commands.common import UsageError, add_json_flag, open_catalog, print_json, save_build
from rigbuilder.domain.i18n import Money, N_, T, format_value, render, tr

PICK_RE = re.compile(r"^(?P<line>\d{1,6})=(?P<id>[A-Za-z0-9._-]{1,120})$")


def register(sub) -> None:
    p = sub.add_parser(
        "import-list", help=N_("a PCPartPicker part list (text or Markdown export) as a build"),
        description=N_("Read a PCPartPicker part list (its text export or its Markdown/Reddit export; - reads "
                    "stdin), match each line to the catalog and write a build. Lines matched weakly or not at "
                    "all are listed with candidates and left out unless chosen with --pick. Exit 0: every line "
                    "settled; 1: the build was made but some lines were left out for want of a choice; 2: bad "
                    "input."))
    p.add_argument("file", help=N_("the list file, or - for stdin"))
    p.add_argument("-o", "--output", help=N_("write the build here (without it, only show the matches)"))
    p.add_argument("--pick", action="append", default=[], metavar="LINE=PART_ID",
                   help=N_("the part for a list line (its line number as shown), or LINE=skip; repeat for more"))
    p.add_argument("--name", help=N_("the build's name (default: from the list's address)"))
    add_json_flag(p)
    p.set_defaults(func=cmd_import_list)


# Texts used inside f-strings (which the extractor does not read): marked here.
_IN_F_STRINGS = (N_('(no address)'))


def _read(path: str) -> bytes:
    from rigbuilder.files.pcpp import MAX_BYTES

    try:
        if path == "-":
            return sys.stdin.buffer.read(MAX_BYTES + 1)
        with open(path, "rb") as f:
            return f.read(MAX_BYTES + 1)
    except OSError as e:
        raise UsageError(T("cannot read {path}: {error}", path=path, error=e.strerror or str(e))) from None


def _picks(specs: list[str]) -> dict[int, Optional[str]]:
    out: dict[int, Optional[str]] = {}
    for spec in specs:
        m = PICK_RE.match(spec.strip())
        if not m:
            raise UsageError(T("--pick {value}: expected LINE=PART_ID or LINE=skip (LINE as listed)", value=spec[:60]))
        out[int(m["line"])] = None if m["id"].lower() == "skip" else m["id"]
    return out


def cmd_import_list(args: argparse.Namespace) -> int:
    from rigbuilder.catalog.match import Matcher
    from rigbuilder.files.listimport import PickError, choices, new_build, plan, unsettled
    from rigbuilder.files.pcpp import ListFormatError, parse

    where = "stdin" if args.file == "-" else args.file
    try:
        parts_list = parse(_read(args.file), where)
    except ListFormatError as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    cat = open_catalog()
    from rigbuilder.catalog.matchcache import table_for
    from rigbuilder.config import Paths

    # The shipped parts as matching reads them, kept from an earlier run: the community rows stay
    # unloaded unless a part chosen for the build is one of them.
    p = plan(parts_list, Matcher(cat.index, {}, table_for(Paths.from_env(), cat)))
    try:
        chosen = choices(p, cat.index, _picks(args.pick))
    except PickError as e:
        raise UsageError(T("--pick {error}", error=e.args[0] if e.args else str(e))) from None
    picked = set(_picks(args.pick))
    build, notes = new_build(p, chosen, cat.index, args.name or "")
    if args.output:
        save_build(build, args.output)
    open_lines = unsettled(p, chosen, picked)
    if args.json:
        print_json(_json(p, chosen, picked, notes, args.output) | {
            "unsettled": [x.line.number for x in open_lines]})
    else:
        lang = getattr(args, "lang", "en")
        _print(p, chosen, picked, notes, args.output, build, lang)
        if open_lines:
            nums = ", ".join(str(x.line.number) for x in open_lines)
            print(tr("left out for want of a choice: lines {lines} (--pick LINE=PART_ID or LINE=skip)", lang,
                     lines=nums) if len(open_lines) > 1 else
                  tr("left out for want of a choice: line {lines} (--pick LINE=PART_ID or LINE=skip)", lang,
                     lines=nums))
    return 1 if open_lines else 0


def _json(p, chosen, picked, notes, output) -> dict:
    pl = p.parts_list
    lines = []
    for x in p.lines:
        ln, m = x.line, x.match
        lines.append({
            "line": ln.number, "category": ln.category, "name": ln.name, "amount": ln.amount,
            "currency": ln.currency, "merchant": ln.merchant, "purchased": ln.purchased,
            "out_of_stock": ln.out_of_stock, "product_id": ln.product_id,
            "status": m.status, "kind": m.kind, "reason": m.reason,
            "part_id": chosen.get(ln.number), "picked": ln.number in picked,
            "candidates": [{"part_id": c.part_id, "name": c.name, "kind": c.kind, "score": c.score, "note": c.note}
                           for c in m.candidates],
        })
    return {"list": {"url": pl.url, "format": pl.format, "currency": pl.currency, "total": pl.total,
                     "generated": pl.generated, "warnings": list(pl.warnings)},
            "lines": lines, "notes": notes, "output": output}


def _print(p, chosen, picked, notes, output, build, lang: str = "en") -> None:
    from rigbuilder.catalog.match import MATCHED, SKIPPED

    pl = p.parts_list
    print(tr("PCPartPicker list {url}: {format} export, {n} part lines, prices in {currency}", lang,
             url=pl.url or render(T("(no address)"), lang), format=pl.format, n=len(pl.lines), currency=pl.currency))
    for w in pl.warnings:
        print(tr("  note: {note}", lang, note=w))
    for x in p.lines:
        ln, m = x.line, x.match
        price = (format_value(Money(ln.amount, ln.currency), "", lang) if ln.amount is not None and ln.currency
                 else tr("no price", lang))
        head = tr("line {num:>3}  {category}: {name}  ({price})", lang, num=ln.number, category=ln.category,
                  name=ln.name, price=price)
        if m.status == SKIPPED:
            print(head + "\n           " + tr("skipped: {reason}", lang, reason=m.reason))
            continue
        pid = chosen.get(ln.number)
        if ln.number in picked:
            print(head + "\n           " + (tr("-> {id} (your pick)", lang, id=pid) if pid else
                                           tr("-> skipped (your pick)", lang)))
        elif m.status == MATCHED:
            print(head + "\n           " + tr("-> {id}  score {score:.0f}", lang, id=pid, score=m.candidates[0].score))
        else:
            print(head + "\n           " + tr("?? {status}: {reason}; not imported unless picked", lang,
                                             status=m.status, reason=m.reason))
            for c in m.candidates:
                note = f"  ({render(c.note, lang)})" if c.note else ""
                print(f"              --pick {ln.number}={c.part_id}   "
                      + tr("score {score:.0f}", lang, score=c.score) + f"  {c.name}{note}")
    for n in notes:
        print(tr("note: {note}", lang, note=n))
    if output:
        print(tr("wrote {path}: {n} parts ({gpus} GPUs)", lang, path=output, n=len(build.part_ids()),
                 gpus=len(build.gpus)))
