"""A never-named build stores no name; every door names it in its own language (issue 25)."""
from __future__ import annotations

import json

from rigbuilder.domain.build import UNTITLED, Build, shown_name
from rigbuilder.domain.edits import Rename
from rigbuilder.domain.i18n import T
from rigbuilder.files.buildfile import dumps, loads


def test_a_never_named_build_stores_no_english_name():
    b = Build()
    assert b.name == ""
    assert json.loads(dumps(b))["name"] == ""
    assert loads(dumps(b)).name == ""


def test_the_english_default_older_files_stored_reads_back_as_unnamed():
    d = json.loads(dumps(Build()))
    d["name"] = UNTITLED
    assert loads(json.dumps(d)).name == ""
    d["name"] = "Lab box"
    assert loads(json.dumps(d)).name == "Lab box"


def test_the_name_is_given_when_shown_in_the_door_language():
    assert shown_name("", "en") == "Untitled build"
    assert shown_name("", "de") == "Unbenannter Build"
    assert shown_name(" ", "ja") == "無題の構成"
    assert shown_name("Lab box", "ja") == "Lab box"
    generated = T("{name} (grown)", name=T("{n} x {gpu} on {board}", n=4, gpu="RTX 3090", board="X99 WS-E"))
    assert shown_name(generated, "de") == "4 x RTX 3090 auf X99 WS-E (ausgebaut)"


def test_an_empty_rename_leaves_the_build_unnamed(index):
    b = Rename("Lab box", "").applied_to(Build(), index)
    assert Rename("  ", "").applied_to(b, index).name == ""
