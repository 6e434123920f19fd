"""The board scene redrawn piece by piece shows what a scene drawn afresh shows."""
from __future__ import annotations

from PySide6.QtWidgets import QGraphicsSimpleTextItem

from rigbuilder.domain.build import MOUNT_RISER, GpuPlacement
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks
from rigbuilder.ui.boardview import BoardScene
from tests.builds import RTX3090_FE, ZOTAC_2070, frank_2070, x99_4x3090


def picture(scene: BoardScene) -> list[tuple]:
    """Every item as what it draws: its kind, where it is, its text or colours."""
    out = []
    for it in scene.items():
        r = it.sceneBoundingRect()
        what = it.text() if isinstance(it, QGraphicsSimpleTextItem) else ""
        pen = it.pen().color().name() if hasattr(it, "pen") else ""
        brush = it.brush().color().name() if hasattr(it, "brush") else ""
        out.append((type(it).__name__, round(r.x(), 2), round(r.y(), 2), round(r.width(), 2),
                    round(r.height(), 2), what, pen, brush, it.zValue(), it.toolTip()))
    return sorted(out)


def draw(scene: BoardScene, build, index) -> None:
    ctx = Context(build, index)
    scene.show_build(build, ctx, run_checks(build, index, context=ctx))


def test_edits_redraw_only_what_changed_and_match_a_fresh_drawing(qapp, index):
    scene = BoardScene()
    start = frank_2070(2, positions=(1, 5))  # 40 mm between the cards: no gap finding
    b = start.clone()
    steps = []

    def squeeze(x):  # a card between them: GPU 1 keeps its place and turns red
        x.gpus.append(GpuPlacement(ZOTAC_2070, 3))

    def add_riser(x):
        x.gpus.append(GpuPlacement(RTX3090_FE, None, MOUNT_RISER))

    def move_first(x):
        x.gpus[0].position = 3

    def drop_last(x):
        x.gpus.pop()

    def new_board(x):
        x.motherboard = x99_4x3090().motherboard

    def no_board(x):
        x.motherboard = None

    def thin_cards(x):
        for g in x.gpus:
            g.part_id = ZOTAC_2070

    for edit in (squeeze, add_riser, move_first, drop_last, new_board, thin_cards, no_board):
        edit(b)
        steps.append(b.clone())
    draw(scene, start, index)
    for build in steps:
        before = {id(it) for it in scene.items()}
        draw(scene, build, index)
        fresh = BoardScene()
        draw(fresh, build, index)
        assert picture(scene) == picture(fresh)
        assert scene.sceneRect() == fresh.sceneRect()
        assert sorted(scene.card_items) == sorted(fresh.card_items) == list(range(len(build.gpus)))
        assert sorted(scene.slot_items) == sorted(fresh.slot_items)
        if build.motherboard is not None:
            assert before & {id(it) for it in scene.items()}, "nothing was kept"


def test_the_same_build_keeps_every_item(qapp, index):
    scene = BoardScene()
    draw(scene, x99_4x3090(), index)
    items = set(scene.items())
    draw(scene, x99_4x3090(), index)
    assert set(scene.items()) == items


def test_highlight_survives_a_redraw(qapp, index):
    scene = BoardScene()
    draw(scene, frank_2070(2, positions=(1, 5)), index)
    scene.highlight((2,), ())
    b = frank_2070(2, positions=(1, 5))
    b.gpus[1].position = 7
    draw(scene, b, index)
    assert len(scene._highlight) == 1  # noqa: SLF001
    frame = scene._highlight[0].rect()  # noqa: SLF001
    assert frame.top() == scene.card_items[1].rect().top()  # on the card where it now is
