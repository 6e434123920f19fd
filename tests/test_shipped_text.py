"""What ships speaks of publications, never of how rigbuilder was made.

Shipped text = the string literals of the package (docstrings and comments are for developers and
are left out), every file under resources/, and what the command line prints and exports.
It must not name repository paths (shared/..., docs/....md), the working notes the catalog was
curated from ("seed 001", "domain.md") or curators' working notes ("not re-checked",
"searchable sources", "as recalled").
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rigbuilder.cli import main
from rigbuilder.domain.publications import PUBLICATIONS
from rigbuilder.files.buildfile import save
from tests.builds import RTX3090_BLOWER, RTX3090_FE, x99_4x3090

ROOT = Path(__file__).resolve().parent.parent
LEAK = re.compile(
    r"shared/(seeds|data)|seeds?[ _/]?0\d\d|\bseeds\b|domain\.md|(?<![\w/.-])docs/[\w.-]+"
    r"|not re-checked|re-checked|searchable sources|\bas recalled\b|\brecalled\b|as remembered"
    r"|curator|stored (search )?corpora|the brief\b", re.IGNORECASE)


# Every alternative of LEAK holds one of these words; a text without any of them (in any case) has
# no match, and the 15 MB under resources/ are searched by the pattern only where there is one
# (lower() and `in` take milliseconds; the pattern, seconds). The four letters IGNORECASE also
# matches to i, k and s (İ, ı, K, ſ) send a text to the pattern as it is.
_WORDS = ("shared/", "seed", "domain.md", "docs/", "re-checked", "searchable sources", "recalled",
          "as remembered", "curator", "corpora", "the brief")
_FOLDED = ("\u0130", "\u0131", "\u212a", "\u017f")


def leaks(text: str) -> list[str]:
    if not any(c in text for c in _FOLDED):
        low = text.lower()
        if not any(w in low for w in _WORDS):
            return []
    return [text[max(0, m.start() - 40):m.end() + 40] for m in LEAK.finditer(text)]


def _docstring_ids(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        if isinstance(node, (ast.Module, ast.ClassDef)):  # attribute docstrings: a string after an assignment
            for a, b in zip(node.body, node.body[1:]):
                if isinstance(a, (ast.Assign, ast.AnnAssign)) and isinstance(b, ast.Expr) \
                        and isinstance(b.value, ast.Constant):
                    ids.add(id(b.value))
    return ids


def test_the_pattern_catches_what_it_must():
    for bad in ("(seed 001)", "(seeds 001, 003)", "(domain.md, Power)", "see docs/rules.md",
                "shared/seeds/001_bfa8f119546e71f3.txt", "shared/data/pc-part-dataset/case.csv",
                "as recalled - not re-checked", "could not be reached through the searchable sources"):
        assert leaks(bad), bad
    for good in ("https://network.nvidia.com/related-docs/prod_adapter_cards/x.pdf",
                 "NVIDIA product brief PB-08744", "(Makropoulos 2023)", "2013 recall affected early serials"):
        assert not leaks(good), good


def test_package_strings_do_not_leak():
    found = []
    for path in sorted((ROOT / "rigbuilder").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstring_ids(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {x}" for x in leaks(node.value)]
    assert not found, "\n".join(found)


def test_resources_do_not_leak():
    found = []
    for path in sorted((ROOT / "resources").rglob("*")):
        if path.is_file() and path.suffix in (".json", ".txt", ".md", ".csv", ".html", ".svg", ".qss"):
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {x}" for x in leaks(text)]
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} in all)"


def test_catalog_rows_hold_no_unfilled_placeholder():
    """A writer's template left in a row ("{ODB}" for a citation) reads as gibberish to a user."""
    import json

    found = []
    for path in sorted((ROOT / "resources" / "catalog").glob("*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")):
            for key in ("source", "notes", "price_note", "model"):
                if re.search(r"\{[A-Za-z_]+\}", row.get(key) or ""):
                    found.append(f"{path.name}: {row['id']}: {key}")
    assert not found, found


@pytest.mark.parametrize("fmt", ["txt", "md", "csv", "html"])
@pytest.mark.parametrize("gpu", [RTX3090_BLOWER, RTX3090_FE])
def test_reports_of_the_x99_build_do_not_leak(tmp_path, fmt, gpu, capsys):
    b = x99_4x3090(limit_w=None, gpu=gpu)
    b.name = "x99"
    rig = tmp_path / "x99.rig"
    save(b, rig)
    out = tmp_path / f"list.{fmt}"
    assert main(["report", str(rig), "-o", str(out)]) == 0
    assert not leaks(out.read_text(encoding="utf-8"))
    for args in (["check", str(rig)], ["power", str(rig)], ["cost", str(rig)]):
        capsys.readouterr()
        main(args)
        printed = capsys.readouterr()
        assert not leaks(printed.out + printed.err), args


def test_publications_are_full_citations():
    for p in PUBLICATIONS:
        assert p.author and p.title and p.year
        assert p.short in ("Frank 2019",) or p.link.startswith("https://")
