"""A report names the region and every setting in its language (issue 23): the Japanese report
said "US 120 V / 15 A" in English."""
from __future__ import annotations

from rigbuilder.domain.i18n import gettext
from rigbuilder.files.report import report_data, to_markdown
from tests.builds import x99_4x3090


def test_the_japanese_reports_region_is_japanese(index):
    b = x99_4x3090()  # US-15A
    text = to_markdown(report_data(b, index, lang="ja")).decode("utf-8")
    label = gettext("US 120 V / 15 A", "ja")
    assert label != "US 120 V / 15 A" and label in text and "US 120 V / 15 A" not in text
    en = to_markdown(report_data(b, index, lang="en")).decode("utf-8")
    assert "Region US 120 V / 15 A" in en
