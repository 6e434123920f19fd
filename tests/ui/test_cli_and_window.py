"""The command line and the window place the same GPUs in the same positions."""
from __future__ import annotations

from rigbuilder.domain.build import Build
from rigbuilder.files.buildfile import load
from tests.builds import RTX3090_BLOWER, RTX3090_FE, ZOTAC_2070
from tests.test_cli_edit import X399, run


def test_cli_and_window_place_the_same_gpus_in_the_same_positions(tmp_path, capsys, make_window):
    """The same cards added without a position, one by one, by `rigbuilder new`, by `rigbuilder
    edit` and by the window's catalog (activating a card in the catalog): the same placements."""
    cards = [RTX3090_BLOWER, ZOTAC_2070, RTX3090_FE, RTX3090_BLOWER, RTX3090_FE]
    f = tmp_path / "new.rig"
    board = ["--board", X399, "--case", "case-corsair-750d-airflow"]
    rc, _, err = run(capsys, "new", *board, *[a for c in cards for a in ("--gpu", c)], "-o", f)
    assert rc == 0, err
    by_new = [(g.part_id, g.position, g.mount) for g in load(f).gpus]
    e = tmp_path / "edit.rig"
    rc, _, err = run(capsys, "new", *board, "-o", e)
    for c in cards:
        assert run(capsys, "edit", e, "--add-gpu", c, "-o", e)[0] == 0
    by_edit = [(g.part_id, g.position, g.mount) for g in load(e).gpus]
    win = make_window(Build(motherboard=X399, case="case-corsair-750d-airflow"))
    for c in cards:
        win.catalog_panel.partActivated.emit(c)
    by_window = [(g.part_id, g.position, g.mount) for g in win.doc.build.gpus]
    assert by_new == by_edit == by_window
    assert [p for _, p, _ in by_new][:3] == [1, 3, 5] and by_new[-1][2] == "riser"
