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


def test_part_index_loads_pending_parts_on_first_need(index):
    from rigbuilder.domain.catalog import PartIndex

    a, b = index.get("gpu-nvidia-rtx-3090-fe"), index.get("gpu-nvidia-rtx-4090-fe")
    calls = []
    idx = PartIndex([a], pending=lambda: calls.append(1) or [b])
    assert idx and idx.pending and idx.get(a.id) is a and idx.loaded_of_kind("gpu") == [a] and not calls
    assert idx.get(b.id) is b and calls == [1] and not idx.pending
    assert [p.id for p in idx.of_kind("gpu")] == [a.id, b.id] and len(idx) == 2 and calls == [1]
    idx2 = PartIndex([a], pending=lambda: [b])
    assert len(idx2) == 2 and b.id in PartIndex([a], pending=lambda: [b])
