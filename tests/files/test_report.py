"""The parts-list data and its Qt-free exporters (Markdown, CSV, text, HTML)."""
from __future__ import annotations

import csv
import dataclasses
import io

import pytest

from rigbuilder.domain.build import Build, GpuPlacement, PartCount, PricePaid, Settings
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.files.report import (EXPORTERS, md_escape, report_data, to_csv, to_html, to_markdown,
                                     to_text)

EVIL = '<script>alert(1)</script> =HYPERLINK("x")'


@pytest.fixture(scope="module")
def index(launch_price_index) -> PartIndex:
    """Hand-worked totals below: fixed exchange rates (tests/conftest.py)."""
    return launch_price_index


def four_3090(gpu: str = "gpu-nvidia-rtx-3090-fe") -> Build:
    return Build(name="4x RTX 3090 on X99", motherboard="mb-asrock-x99-ws-e",
                 cpu="cpu-intel-xeon-e5-2697-v4", psus=["psu-evga-supernova-1600-t2"],
                 case="case-phanteks-enthoo-719",
                 memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)],
                 gpus=[GpuPlacement(gpu, p) for p in (1, 3, 5, 7)], settings=Settings(currency="USD"))


@pytest.fixture(scope="module")
def evil_index(index) -> PartIndex:
    idx = PartIndex(list(index), version=index.version)
    evil = dataclasses.replace(index.get("gpu-nvidia-rtx-3090-fe"), id="gpu-user-evil", model=EVIL,
                               origin="user", notes="-2+3 | *bold* [x](y)\nsecond line")
    idx.add(evil)
    return idx


@pytest.fixture(scope="module")
def data(index):
    return report_data(four_3090(), index, today="2025-01-02")


def test_data_collects_parts_prices_findings_power(data, index):
    ids = [r["id"] for r in data["parts"]]
    assert ids[0] == "mb-asrock-x99-ws-e" and "gpu-nvidia-rtx-3090-fe" in ids
    gpu = next(r for r in data["parts"] if r["kind"] == "gpu")
    assert gpu["quantity"] == 4
    # the used price (the 2020 launch price is no new price now), + 21.9% VAT (the EU average: an EU build)
    assert gpu["price"] == pytest.approx(4 * 704 * 1.219)
    assert "24 GB GDDR6X" in gpu["figures"] and "350 W" in gpu["figures"]
    assert len(gpu["where"]) == 4 and "GPU 4 at position 7" in gpu["where"]
    mem = next(r for r in data["parts"] if r["kind"] == "memory")
    assert mem["quantity"] == 2
    priced = [r for r in data["parts"] if r["price"] is not None]
    assert data["totals"] == [{"currency": "USD", "amount": round(sum(r["price"] for r in priced), 2)}]
    assert set(data["unpriced"]) == {r["name"] for r in data["parts"] if r["price"] is None}
    assert data["findings"]["counts"]["error"] >= 1
    assert all(f["severity"] != "info" for f in data["findings"]["items"])
    assert data["power"]["wall"]["peak"] > data["power"]["dc"]["peak"] > data["power"]["dc"]["idle"]
    assert data["cost"]["per_month"] > 0 and data["cost"]["per_year"] > 11 * data["cost"]["per_month"]
    assert data["date"] == "2025-01-02" and data["catalog_version"] == "test"
    board = data["parts"][0]
    assert board["unverified"] and "unverified" in to_text(data).decode()


def mixed_build() -> Build:
    """USD prices (4 x 704 used GPUs, 699.99 PSU; the CPU's 2016 launch price is no new price), the board
    bought for 250 EUR (price paid), memory, case, CPU and a NIC without a price, in a German EUR build
    (19% VAT on the US prices) with a 2,000 EUR budget."""
    b = four_3090()
    b.settings = Settings(currency="EUR", budget=2000.0, region="DE-16A")
    b.nics = ["nic-does-not-exist"]
    b.prices_paid["mb-asrock-x99-ws-e"] = PricePaid(250.0, "EUR", "used", "eBay listing", "2026-11-01")
    return b


# Hand-worked: USD parts 4 x 704 + 699.99 = 3515.99 USD x (7.1726 / 7.5322) x 1.19 = 3984.28 EUR;
# + 250 EUR paid for the board = 4234.28 EUR, at least (memory, case, CPU and NIC have no price).
MIXED_TOTAL = "4,234.28 EUR"
MIXED_UNPRICED = ("Corsair Vengeance LPX", "Phanteks Enthoo", "nic-does-not-exist", "Xeon E5-2697 v4")


def test_mixed_currencies_and_missing_part(index):
    d = report_data(mixed_build(), index)
    assert d["totals"] == [{"currency": "EUR", "amount": 4234.28}]
    assert d["purchase"]["label"] == f"at least {MIXED_TOTAL} (4 parts without a price) without storage"
    assert len(d["unpriced"]) == 4 and all(any(n in u for u in d["unpriced"]) for n in MIXED_UNPRICED)
    assert len(d["purchase"]["conversions"]) == 1
    assert d["purchase"]["conversions"][0].startswith("US price + 19% VAT, converted at 0.9523 EUR per USD, rates of "
                                                      "2025-02-25 (")
    assert d["purchase"]["over_budget"] == pytest.approx(2234.28)
    board = d["parts"][0]
    assert board["price"] == 250 and "eBay listing" in board["price_trace"] and "2026-11-01" in board["price_trace"]
    gpu = next(r for r in d["parts"] if r["kind"] == "gpu")
    assert "used" in gpu["price_trace"] and "19% VAT" in gpu["price_trace"] and "0.9523 EUR per USD" in gpu["price_trace"]


def test_every_door_gives_the_same_mixed_total_and_names_the_unpriced(index):
    d = report_data(mixed_build(), index)
    for fmt, fn in EXPORTERS.items():
        out = fn(d).decode("utf-8").replace("\\", "")
        assert MIXED_TOTAL in out or "4234.28" in out, fmt
        for n in MIXED_UNPRICED:
            assert n in out, (fmt, n)
        assert "0.9523 EUR per USD" in out and "2025-02-25" in out, fmt
        assert "eBay listing" in out, fmt  # the board's price is traceable
    md = to_markdown(d).decode()
    assert "Type|Item|Price" in md and "**Total (purchase)** | | **at least 4,234.28 EUR" in md
    assert "GPUs|4" in md and "VRAM|96 GB" in md and "Peak at the wall|" in md and "Energy per month|" in md
    assert "cost.over-budget" in md and "Findings:" in md


def test_every_format_has_the_same_content(data):
    for fmt, fn in EXPORTERS.items():
        out = fn(data).decode("utf-8")
        for r in data["parts"]:
            assert r["id"] in out or r["name"] in out.replace("\\", ""), (fmt, r["name"])
        for t in data["totals"]:
            assert f"{t['amount']:,.2f}" in out or f"{t['amount']:.2f}" in out, fmt
        if fmt != "csv":  # the CSV is the parts table; findings live in the other formats
            for f in data["findings"]["items"]:
                assert f["code"] in out, (fmt, f["code"])
            assert f"{data['cost']['per_month']:,.2f}" in out


def test_html_escapes_hostile_user_part(evil_index):
    b = four_3090("gpu-user-evil")
    out = to_html(report_data(b, evil_index)).decode()
    assert "<script>" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "your own figures" in out


def test_markdown_escapes_hostile_user_part(evil_index):
    d = report_data(four_3090("gpu-user-evil"), evil_index)
    out = to_markdown(d).decode()
    assert "<script>" not in out and "\\<script\\>" in out
    row = next(line for line in out.splitlines() if "alert" in line and line.startswith("**GPU"))
    assert row.count("|") - row.count("\\|") == 2  # 3 columns, no extra cells from the name
    assert md_escape("a|b*c_d`e[f]g<h>i#j\nk") == "a\\|b\\*c\\_d\\`e\\[f\\]g\\<h\\>i\\#j k"


def test_csv_neutralises_formula_cells(evil_index):
    d = report_data(four_3090("gpu-user-evil"), evil_index)
    d["parts"][0]["name"] = "=cmd|' /C calc'!A0"
    rows = list(csv.DictReader(io.StringIO(to_csv(d).decode())))
    assert rows[0]["item"].startswith("'=")
    gpu = next(r for r in rows if r["id"] == "gpu-user-evil")
    assert gpu["notes"].startswith("'-2+3")
    for r in rows:
        for v in r.values():
            assert not (v or " ")[0] in "=+-@\t\r", r
    totals = [r for r in rows if r["type"] == "Total"]
    assert len(totals) == 1 and float(totals[0]["price"]) == d["totals"][0]["amount"]
    assert rows[-1]["type"] == "Price unknown"


def test_board_image_embedded_as_data_uri(index, tmp_path):
    png = tmp_path / "b.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    d = report_data(four_3090(), index, board_image_path=png)
    assert d["board_image"].startswith("data:image/png;base64,")
    assert 'src="data:image/png;base64,' in to_html(d).decode()
    assert "Board layout" not in to_html(report_data(four_3090(), index)).decode()


def test_report_data_takes_the_context_and_findings_the_caller_holds(index, monkeypatch):
    """The window's document holds the checks' context and findings: the report uses them and does
    not judge the build again; without them it judges it itself, to the same data."""
    import rigbuilder.files.report as report_mod
    from rigbuilder.rules.context import Context
    from rigbuilder.rules.engine import run_checks

    b = four_3090()
    ctx = Context(b, index)
    findings = run_checks(b, index, context=ctx)
    own = report_data(b, index, today="2026-11-29")

    def judged_again(*a, **k):
        raise AssertionError("the report judged the build again")

    monkeypatch.setattr(report_mod, "run_checks", judged_again)
    monkeypatch.setattr(report_mod, "Context", judged_again)
    given = report_data(b, index, today="2026-11-29", context=ctx, findings=findings)
    assert given == own


def test_the_throughput_line_prints_each_band(index):
    """Issue 39: the report's estimated throughput reads 'value unit ±band' with the scaling efficiency's band,
    an unmet memory need with the memory band; in German with the locale's digits."""
    from rigbuilder.files.report import adviser_summary
    from rigbuilder.models import estimates as E
    from rigbuilder.models.scaling import build_throughput
    from rigbuilder.models.workloads import workload
    from tests.rules.test_compare import one_4090, two_3090

    wl = workload("cnn-training")
    two = two_3090()
    bt = build_throughput(two, index, wl)
    fig, scaling = E.of_build(bt), E.of_scaling(bt.efficiency)
    d = adviser_summary(two, index, wl)
    assert d["text"].startswith(f"{fig.value:,.0f} images/s \u00b1{fig.band:.0%}, " if fig.value >= 1000 else
                                f"{fig.value:.3g} images/s \u00b1{fig.band:.0%}, ")
    assert f"scaling {bt.efficiency:.0%} \u00b1{scaling.band:.0%}" in d["text"]
    assert d["band"] == round(fig.band, 4) and d["band_how"] == fig.how
    de = adviser_summary(two, index, wl, "de")["text"]
    from rigbuilder.domain.i18n import format_number, render

    assert de.startswith(render(fig.text(), "de")) and f"\u00b1{round(100 * fig.band)}\u00a0%" in de
    assert format_number(fig.value, 0, "de") in de or f"{fig.value:.3g}".replace(".", ",") in de
    big = workload("llm-inference", 70e9, precision="fp16")  # 140 GB: one 24 GB card does not hold it
    need = E.of_memory(build_throughput(one_4090(), index, big).need)
    assert f"({need.text()} per card needed)" in adviser_summary(one_4090(), index, big)["text"]
