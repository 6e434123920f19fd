#!/usr/bin/env python3
"""Translation catalogs (issue 19): ``extract`` the texts marked ``T(...)``, ``tr(...)``, ``N_(...)``
and ``_(...)`` from the code into ``rigbuilder/locale/rigbuilder.pot`` and merge them into each
language's ``.po`` files, one per area of the program (new texts arrive untranslated, vanished
ones are dropped, a text that moved keeps its translation); ``check`` lists what is missing.

    .venv/bin/python scripts/i18n.py extract
    .venv/bin/python scripts/i18n.py check
    .venv/bin/python scripts/i18n.py compile OUTDIR    (the package build: OUTDIR/<lang>/LC_MESSAGES/<area>.mo)

The ``.po`` files are the committed sources; rigbuilder reads them directly (Babel) when run from
the sources. The package build compiles them to ``.mo`` (smaller, no comments, read faster) and
ships only those.
"""
from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from rigbuilder.domain.i18n import PLURAL_FORMS, TRANSLATED  # noqa: E402  (the one list of languages)

PKG = ROOT / "rigbuilder"
LOCALE = PKG / "locale"
LANGS = TRANSLATED
KEYWORDS = {"T": None, "tr": None, "N_": None, "_": None, "nT": (1, 2), "n_": (1, 2), "ntr": (1, 2)}  # nT, n_, ntr: singular, plural
AREAS: dict[str, tuple[str, ...]] = {
    # area (the .po file's name) -> the source files or folders whose texts it holds; the first match wins
    "window": ("ui/main_window.py", "ui/document.py", "ui/money_actions.py", "ui/report_actions.py", "ui/preferences.py",
               "ui/dialogs.py", "ui/file_session.py", "ui/build_edits.py", "ui/panel_loader.py", "ui/part_imports.py",
               "ui/tool_windows.py", "ui/history_buttons.py",
               "ui/pricing.py", "ui/about.py", "ui/help.py", "ui/appearance.py", "ui/printing.py",
               "ui/units.py", "ui/theme.py", "ui/power_limit_dialog.py", "app.py", "config.py"),
    "board": ("render/board.py", "ui/boardview.py", "ui/board_access.py", "ui/catalog_panel.py", "ui/panels.py", "ui/widgets.py", "ui/graphs.py"),
    "tools": ("ui/adviser_panel.py", "ui/optimiser_dialog.py", "ui/list_import_dialog.py",
              "models/adviser.py", "models/workloads.py", "models/value.py", "models/scaling.py",
              "models/throughput.py", "models/vram.py", "rules/optimise/"),
    "cli": ("cli.py", "commands/"),
    "report": ("files/",),
    "rigbuilder": ("",),  # the checks, the models and the rest of the core
}
SKIPPED = ("locale/",)


def area_of(rel: str) -> str:
    """``rel``: a path under rigbuilder/ ('ui/boardview.py')."""
    for area, prefixes in AREAS.items():
        if any(rel == p or (p.endswith("/") and rel.startswith(p)) or p == "" for p in prefixes):
            return area
    return "rigbuilder"


def messages():
    """(area, msgid, location, comments) of every marked text, in file order."""
    for fname, lineno, msg, comments, _ctx in extract_from_dir(
            PKG, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        ok = (isinstance(msg, str) and msg) or (isinstance(msg, tuple) and len(msg) == 2 and all(msg))
        if ok and not fname.startswith(SKIPPED):
            yield area_of(fname), msg, (f"rigbuilder/{fname}", lineno), comments


def template(area: str | None = None) -> Catalog:
    """The catalog of every marked text (of one area when ``area`` is given)."""
    cat = Catalog(project="rigbuilder", msgid_bugs_address="", fuzzy=False)
    for a, msg, loc, comments in messages():
        if area is None or a == area:
            cat.add(msg, locations=[loc], auto_comments=comments)
    return cat


def _old_translations(lang: str) -> dict:
    """msgid -> msgstr; for a counted text (singular, plural) -> its forms (each one filled)."""
    out: dict = {}
    for path in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as fh:
            for m in read_po(fh, locale=lang):
                if m.id and isinstance(m.id, str) and m.string:
                    out.setdefault(m.id, m.string)
                elif isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string):
                    out.setdefault(m.id, tuple(m.string))
    return out


def _with_plural_rule(cat: Catalog, lang: str) -> Catalog:
    """The catalog's Plural-Forms header from ``rigbuilder.domain.i18n.PLURAL_FORMS`` (the rule the
    program applies), not Babel's CLDR guess (three French forms)."""
    cat._num_plurals, cat._plural_expr = PLURAL_FORMS[lang]  # type: ignore[attr-defined]
    return cat


def extract() -> None:
    pot = template()
    LOCALE.mkdir(parents=True, exist_ok=True)
    with (LOCALE / "rigbuilder.pot").open("wb") as fh:
        write_po(fh, pot, width=100, omit_header=False, sort_output=False)
    areas = {a: template(a) for a in AREAS}
    for lang in LANGS:
        old = _old_translations(lang)
        folder = LOCALE / lang / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("*.po"):
            if stale.stem not in AREAS:
                stale.unlink()
        done = total = 0
        for area, tpl in areas.items():
            new = _with_plural_rule(Catalog(locale=lang, project="rigbuilder", fuzzy=False), lang)
            for m in tpl:
                if m.id:
                    empty = ("",) * PLURAL_FORMS[lang][0] if isinstance(m.id, tuple) else ""
                    new.add(m.id, string=old.get(m.id, empty), locations=m.locations, auto_comments=m.auto_comments)
                    total += 1
                    done += bool(old.get(m.id))
            path = folder / f"{area}.po"
            if not len(new) and not path.exists():
                continue
            with path.open("wb") as fh:
                write_po(fh, new, width=100, omit_header=False, sort_output=False, include_previous=False)
        print(f"{lang}: {done}/{total} translated")


def check() -> int:
    bad = 0
    for lang in LANGS:
        have = _old_translations(lang)
        for area, msg, loc, _c in messages():
            if not have.get(msg):
                print(f"{lang}: untranslated ({area}, {loc[0]}:{loc[1]}): {msg!r}")
                bad += 1
    return 1 if bad else 0


def compile_to(outdir: Path) -> int:
    """Every ``.po`` compiled to ``outdir/<lang>/LC_MESSAGES/<area>.mo`` (fuzzy and empty
    translations left out, as the reader leaves them out of ``.po`` files); returns the count."""
    from babel.messages.mofile import write_mo

    n = 0
    for lang in LANGS:
        for po in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as fh:
                cat = read_po(fh, locale=lang)
            dest = outdir / lang / "LC_MESSAGES" / f"{po.stem}.mo"
            dest.parent.mkdir(parents=True, exist_ok=True)
            with dest.open("wb") as fh:
                write_mo(fh, cat, use_fuzzy=False)
            n += 1
    return n


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    if cmd == "extract":
        extract()
    elif cmd == "compile":
        print(f"compiled {compile_to(Path(sys.argv[2]))} catalogs into {sys.argv[2]}")
    else:
        sys.exit(check())
