"""A build names the riser of each card on one (issue 29): the field, its edits, its file, its bill."""
from __future__ import annotations

import json

import pytest

from rigbuilder.domain.build import MOUNT_RISER, MOUNT_SLOT
from rigbuilder.domain.edits import (ApplyArrangement, EditError, MoveGpu, RemoveItem, ReplaceBuild, SetRiser,
                                     edit_for_part)
from rigbuilder.domain import limits
from rigbuilder.domain.i18n import render
from rigbuilder.files.buildfile import dumps, loads
from rigbuilder.models.cost import purchase, quantities
from tests.builds import x99_4x3090
from tests.risers import riser_index


@pytest.fixture(scope="module")
def rindex(index):
    return riser_index(index)


def test_a_card_in_a_slot_moves_onto_the_riser_it_is_given_and_undo_text_names_it(rindex):
    b = x99_4x3090()
    edit = SetRiser(3, "riser-test-g4-300")
    after = edit.applied_to(b, rindex)
    g = after.gpus[3]
    assert (g.mount, g.position, g.riser) == (MOUNT_RISER, 7, "riser-test-g4-300")
    assert b.gpus[3].riser is None and b.gpus[3].mount == MOUNT_SLOT  # the given build untouched
    assert render(edit.text(b, rindex), "en") == "GPU 4 on riser: Test Gen4 x16 riser 300 mm"
    assert render(edit.text(b, rindex), "de") != render(edit.text(b, rindex), "en")
    cleared = SetRiser(3, None).applied_to(after, rindex).gpus[3]
    assert (cleared.mount, cleared.riser) == (MOUNT_RISER, None)


def test_a_riser_edit_refuses_what_is_not_a_riser(rindex):
    b = x99_4x3090()
    with pytest.raises(EditError, match="not a riser"):
        SetRiser(0, "gpu-nvidia-rtx-3090-fe").applied_to(b, rindex)
    with pytest.raises(EditError, match="no such part"):
        SetRiser(0, "riser-nowhere").applied_to(b, rindex)
    with pytest.raises(EditError, match="GPUs 1 to 4"):
        SetRiser(7, "riser-test-g4-300").applied_to(b, rindex)
    b.gpus[0].riser = "x" * 121
    assert limits.check(b)[0][0] == "gpus[0].riser"


def test_a_card_back_in_a_slot_has_no_riser_and_the_riser_can_be_removed(rindex):
    b = SetRiser(3, "riser-test-g4-300").applied_to(x99_4x3090(), rindex)
    assert RemoveItem("riser", 3).applied_to(b, rindex).gpus[3].riser is None
    with pytest.raises(EditError, match="names no riser"):
        RemoveItem("riser", 0).applied_to(b, rindex)
    assert MoveGpu(3, 7).applied_to(b, rindex).gpus[3].riser is None
    arranged = ApplyArrangement(((1, MOUNT_SLOT), (3, MOUNT_SLOT), (5, MOUNT_SLOT), (7, MOUNT_RISER))).applied_to(b, rindex)
    assert arranged.gpus[3].riser == "riser-test-g4-300"
    assert ApplyArrangement(((1, "slot"), (3, "slot"), (5, "slot"), (7, "slot"))).applied_to(
        b, rindex).gpus[3].riser is None


def test_a_riser_part_dropped_on_the_board_goes_under_a_card(rindex):
    b = MoveGpu(1, riser=True).applied_to(x99_4x3090(), rindex)
    part = rindex.get("riser-test-g4-200")
    assert edit_for_part(part, None, True, b) == SetRiser(1, part.id)  # the card on a riser of unknown kind
    assert edit_for_part(part, 5, False, b) == SetRiser(2, part.id)  # dropped on the card in position 5
    with pytest.raises(EditError, match="drop it on a GPU"):
        edit_for_part(part, None, True, x99_4x3090()).applied_to(x99_4x3090(), rindex)


def test_the_riser_is_saved_and_old_files_without_it_open(rindex):
    b = SetRiser(3, "riser-test-g4-300").applied_to(x99_4x3090(), rindex)
    again = loads(dumps(b))
    assert again.gpus[3].riser == "riser-test-g4-300" and again.gpus[0].riser is None
    d = json.loads(dumps(b))
    for g in d["gpus"]:
        g.pop("riser")
    assert [g.riser for g in loads(json.dumps(d)).gpus] == [None] * 4
    d["gpus"][0]["riser"] = 5
    with pytest.raises(ValueError, match=r"gpus\[0\]\.riser"):
        loads(json.dumps(d))
    d["gpus"][0]["riser"] = "riser-test-g4-300"  # on a card in a slot: refused, naming where
    with pytest.raises(ValueError, match=r"gpus\[0\]\.riser.*stands on no riser"):
        loads(json.dumps(d))


def test_replace_build_checks_the_riser_kind(rindex):
    b = SetRiser(3, "riser-test-g4-300").applied_to(x99_4x3090(), rindex)
    assert ReplaceBuild(b).applied_to(x99_4x3090(), rindex).gpus[3].riser == "riser-test-g4-300"
    b.gpus[3].riser = "gpu-nvidia-rtx-3090-fe"
    with pytest.raises(EditError, match="not a riser"):
        ReplaceBuild(b).applied_to(x99_4x3090(), rindex)


def test_the_bill_counts_each_riser(rindex):
    b = x99_4x3090()
    for i in (2, 3):
        b = SetRiser(i, "riser-test-g4-300").applied_to(b, rindex)
    assert dict(quantities(b))["riser-test-g4-300"] == 2
    before, after = purchase(x99_4x3090(), rindex), purchase(b, rindex)
    line = next(p for p in after.parts if p.part_id == "riser-test-g4-300")
    assert line.quantity == 2 and line.price > 0 and line.priced is not None
    assert after.total == pytest.approx(before.total + 2 * line.price)
    b.settings.currency = "EUR"
    eur = next(p for p in purchase(b, rindex).parts if p.part_id == "riser-test-g4-300")
    # the riser's euro price is a euro-area price with VAT: a US build takes it without the VAT (21.9%, the EU
    # average), an EU build as it is
    assert eur.price == pytest.approx(45.0 / 1.219)
    b.settings.region = "EU-16A"
    eu = next(p for p in purchase(b, rindex).parts if p.part_id == "riser-test-g4-300")
    assert eu.price == pytest.approx(45.0)
    b = SetRiser(0, "riser-test-g4-300-np").applied_to(b, rindex)
    assert "riser-test-g4-300-np" in purchase(b, rindex).unpriced
