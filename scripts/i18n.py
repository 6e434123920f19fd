#!/usr/bin/env python3
"""Translation catalogs (issue 19): ``extract`` the texts marked ``T(...)``, ``tr(...)`` and ``N_(...)``
from the Qt-free code into ``rigbuilder/locale/rigbuilder.pot`` and merge them into each language's
``.po`` (new texts arrive untranslated, vanished ones are dropped); ``check`` lists what is missing.

    .venv/bin/python scripts/i18n.py extract
    .venv/bin/python scripts/i18n.py check

The ``.po`` files are the committed sources; rigbuilder reads them directly (Babel), so there is no
compiled ``.mo`` to build or commit.
"""
from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "rigbuilder"
LOCALE = PKG / "locale"
LANGS = ("de", "fr", "ja", "zh_CN")
KEYWORDS = {"T": None, "tr": None, "N_": None}
SCANNED = ("domain", "rules", "models", "commands", "files", "ui")


def template() -> Catalog:
    cat = Catalog(project="rigbuilder", msgid_bugs_address="", fuzzy=False)
    for sub in SCANNED:
        base = PKG / sub
        for fname, lineno, msg, comments, _ctx in extract_from_dir(
                base, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
            if isinstance(msg, str) and msg:
                cat.add(msg, locations=[(f"rigbuilder/{sub}/{fname}", lineno)], auto_comments=comments)
    return cat


def extract() -> None:
    pot = template()
    LOCALE.mkdir(parents=True, exist_ok=True)
    with (LOCALE / "rigbuilder.pot").open("wb") as fh:
        write_po(fh, pot, width=100, omit_header=False, sort_output=False)
    for lang in LANGS:
        path = LOCALE / lang / "LC_MESSAGES" / "rigbuilder.po"
        old = Catalog(locale=lang)
        if path.exists():
            with path.open("rb") as fh:
                old = read_po(fh, locale=lang)
        new = Catalog(locale=lang, project="rigbuilder", fuzzy=False)
        for m in pot:
            if not m.id:
                continue
            prev = old.get(m.id)
            new.add(m.id, string=prev.string if prev else "", locations=m.locations)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            write_po(fh, new, width=100, omit_header=False, sort_output=False, include_previous=False)
        print(f"{lang}: {sum(1 for m in new if m.id and m.string)}/{sum(1 for m in new if m.id)} translated")


def check() -> int:
    pot = template()
    bad = 0
    for lang in LANGS:
        with (LOCALE / lang / "LC_MESSAGES" / "rigbuilder.po").open("rb") as fh:
            cat = read_po(fh, locale=lang)
        for m in pot:
            if m.id and not (cat.get(m.id) and cat.get(m.id).string):
                print(f"{lang}: untranslated: {m.id!r}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    if cmd == "extract":
        extract()
    else:
        sys.exit(check())
