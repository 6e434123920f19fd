"""The GPUDirect RDMA reason in the reader's language (issue 43): `cluster check` and the cluster window
quoted the reasons joined as plain English ("...is a consumer card: NVIDIA documents GPUDirect RDMA...")
inside a translated finding."""
from __future__ import annotations

import pytest

from rigbuilder.domain.i18n import render
from rigbuilder.rules.cluster import check_cluster
from tests.builds import CONNECTX3_40G
from tests.rules.test_cluster import cluster


@pytest.mark.parametrize("lang, word", [("zh_CN", "消费级"), ("de", "Endkundenkarte"), ("ja", "コンシューマ"),
                                        ("fr", "grand public")])
def test_the_rdma_reasons_are_translated_inside_the_finding(index, lang, word):
    cc = cluster(index, 4, CONNECTX3_40G, "roce")
    f = next(f for f in check_cluster(cc) if f.code == "cluster.rdma_path")
    text = render(f.message, lang)
    assert word in text and "consumer card" not in text and "NVIDIA documents" not in text
    assert "consumer card" in render(f.message, "en")
