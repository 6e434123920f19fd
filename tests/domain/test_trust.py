"""A user's own part is the user's figures, not "verified" (issue 13 item 17)."""
from __future__ import annotations

import dataclasses

from rigbuilder.domain.parts import trust_text


def test_words_for_each_origin(index):
    shipped = index.get("gpu-nvidia-rtx-3090-fe")
    assert shipped.verified == (not shipped.unverified)
    mine = dataclasses.replace(shipped, id="gpu-my-3090", origin="user", unverified=())
    assert not mine.verified
    assert mine.trust == "your own figures"
    assert "verified" not in mine.trust
    assert trust_text("user", ("length_mm",)) == "your own figures; unverified: length"  # the word, not the field
    assert trust_text("shipped", ()) == "verified"
    assert trust_text("shipped", ("price",)) == "unverified: price"
