"""The words a user reads about a part's figures (issue 16: community data)."""
from __future__ import annotations

import dataclasses

from rigbuilder.domain.parts import GPU, trust_text


def test_community_rows_say_so(index):
    odb = next(p for p in index.of_kind("gpu") if p.id.startswith("gpu-odb-"))
    assert odb.community and odb.trust.startswith("community data; unverified: ")
    curated = index.get("gpu-nvidia-rtx-3090-fe")
    assert not curated.community and not curated.trust.startswith("community")
    assert trust_text("shipped", (), community=True) == "community data"
    assert trust_text("shipped", ("cooler",)) == "unverified: cooler"
    mine = dataclasses.replace(odb, origin="user")
    assert mine.trust.startswith("your own figures")
    assert isinstance(odb, GPU)
