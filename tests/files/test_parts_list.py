"""One parts list for every door (issue 13 item 10): the printed and exported list and the window's
Parts tab both come from ``parts_list``."""
from __future__ import annotations

import re

from rigbuilder.domain.build import PricePaid, Settings
from rigbuilder.files.report import parts_list, report_data, to_html, to_text
from tests.builds import RTX3090_BLOWER, x99_4x3090


def test_identical_cards_are_one_line_with_each_unit_named(index):
    b = x99_4x3090()
    rows = parts_list(b, index)
    gpu = [r for r in rows if r["kind"] == "gpu"]
    assert len(gpu) == 1 and gpu[0]["quantity"] == 4
    assert gpu[0]["entries"] == [("gpu", 0), ("gpu", 1), ("gpu", 2), ("gpu", 3)]
    assert gpu[0]["where"][2] == "GPU 3 at position 5, limit 280 W"
    mem = next(r for r in rows if r["kind"] == "memory")
    assert mem["quantity"] == 2 and mem["entries"] == [("memory", 0)]
    # the same lines, prices and unpriced parts as the report
    d = report_data(b, index)
    assert [(r["id"], r["quantity"], r["unit_price"]) for r in rows] == \
        [(r["id"], r["quantity"], r["unit_price"]) for r in d["parts"]]
    assert sum(r["price"] is None for r in rows) == len(d["unpriced"])


def test_price_paid_and_condition_are_on_the_line(index):
    b = x99_4x3090()
    b.settings = Settings(currency="EUR")
    b.prices_paid[RTX3090_BLOWER] = PricePaid(650.0, "EUR", "used", "listing")
    gpu = next(r for r in parts_list(b, index) if r["kind"] == "gpu")
    assert gpu["paid"] and gpu["condition"] == "used" and gpu["unit_price"] == 650 and gpu["price"] == 2600
    psu = next(r for r in parts_list(b, index) if r["kind"] == "psu")  # its street price (new)
    assert not psu["paid"] and psu["condition"] == "new"
    cpu = next(r for r in parts_list(b, index) if r["kind"] == "cpu")  # its 2016 launch price is no new price now
    assert not cpu["paid"] and cpu["condition"] is None and cpu["price"] is None


def test_printed_total_names_what_it_leaves_out(index):
    b = x99_4x3090()
    b.settings = Settings(currency="EUR")
    d = report_data(b, index)
    assert d["unpriced"]
    html = to_html(d).decode()
    row = re.search(r'<tr class="total">.*?</tr>', html, re.S).group(0)
    assert "at least " in row and f"{len(d['unpriced'])} parts without a price" in row
    assert f"Price unknown ({len(d['unpriced'])}, not in the total)" in to_text(d).decode()
