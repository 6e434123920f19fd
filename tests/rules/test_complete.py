"""build.incomplete: what a build lacks is a warning that names it, and every money total says
what it leaves out (issue 25)."""
from __future__ import annotations

from pathlib import Path

from rigbuilder.domain.build import GpuPlacement
from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import render
from rigbuilder.models.cost import money_lines, purchase
from rigbuilder.rules.engine import RULE_CODES, has_errors, run_checks
from tests.builds import frank_2070, x99_4x3090

PCPP = Path(__file__).resolve().parent.parent / "files" / "data" / "pcpp"


def _incomplete(fs):
    return [f for f in fs if f.code == "build.incomplete"]


def test_a_complete_build_has_no_such_finding(index):
    assert not _incomplete(run_checks(frank_2070(), index))
    assert not _incomplete(run_checks(x99_4x3090(), index))
    assert "build.incomplete" in RULE_CODES


def test_each_missing_part_is_named_in_a_warning(index):
    for attr, empty, word in (("motherboard", None, "board"), ("cpu", None, "CPU"), ("memory", [], "memory"),
                              ("storage", [], "storage"), ("psus", [], "PSU"), ("case", None, "case")):
        b = frank_2070()
        setattr(b, attr, empty)
        got = _incomplete(run_checks(b, index))
        assert len(got) == 1 and got[0].severity is Severity.WARNING, attr
        assert f"it has no {word}" in got[0].message, got[0].message  # (no board: the cards are loose too)


def test_several_missing_parts_and_a_loose_card_in_one_finding(index):
    b = frank_2070(2)
    b.memory, b.storage = [], []
    b.gpus.append(GpuPlacement(b.gpus[0].part_id, None))  # in no slot, on no riser
    f = _incomplete(run_checks(b, index))[0]
    assert "no memory, storage" in f.message and "GPU 3 sits neither in a slot nor on a riser" in f.message
    assert f.gpus == (3,) and dict(f.figures) == {"missing_parts": 2.0, "unplaced_gpus": 1.0}
    ja = render(f.message, "ja")
    assert "メモリ" in ja and "ストレージ" in ja and "memory" not in ja


def test_a_riser_card_is_placed_and_a_position_without_a_board_is_not(index):
    b = frank_2070()
    b.gpus[0] = GpuPlacement(b.gpus[0].part_id, None, "riser")
    assert not _incomplete(run_checks(b, index))
    b = frank_2070()
    b.motherboard = None
    f = _incomplete(run_checks(b, index))[0]
    assert "no board" in f.message and f.gpus == (1,)


def test_every_total_says_what_it_leaves_out(index):
    b = frank_2070()
    b.memory = []
    buy = purchase(b, index)
    assert buy.without == ("memory",)
    assert str(buy.total_label()).endswith(" without memory")
    lines = [str(x) for x in money_lines(buy, None, 3)]  # a stale-price warning may come first
    assert any(x.startswith("Purchase") and "without memory" in x for x in lines), lines
    assert " ohne " in render(buy.total_label(), "de") and "without" not in render(buy.total_label(), "de")
    full = purchase(frank_2070(), index)
    assert full.without == () and " without memory" not in str(full.total_label())


def test_the_report_and_the_cli_say_it(index, tmp_path, capsys):
    from rigbuilder.cli import main
    from rigbuilder.files.buildfile import save
    from rigbuilder.files.report import report_data, to_markdown

    b = frank_2070()
    b.memory = []
    d = report_data(b, index)
    assert d["purchase"]["label"].endswith("without memory")
    md = to_markdown(d).decode()
    assert "without memory" in md and "build.incomplete" in md
    f = tmp_path / "b.rig"
    save(b, f)
    assert main(["cost", str(f)]) == 0
    out = capsys.readouterr().out
    assert "Purchase (parts): " in out and "without memory" in out.split("Purchase (parts): ")[1].splitlines()[0]


def test_check_on_an_incomplete_pcpartpicker_import_is_not_clean(tmp_path, capsys):
    from rigbuilder.cli import main

    out_rig = tmp_path / "b.rig"
    main(["import-list", str(PCPP / "uk-wrx80-a6000.txt"), "-o", str(out_rig)])  # lines left for a choice
    capsys.readouterr()
    rc = main(["check", str(out_rig)])
    out = capsys.readouterr().out
    assert "WARNING build.incomplete" in out and "No findings" not in out
    assert rc == 0  # a warning, not an error: exit 1 stays for errors
