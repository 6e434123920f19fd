"""The parts-list data and its Qt-free exporters (Markdown, CSV, text, HTML)."""
from __future__ import annotations

import csv
import dataclasses
import io

import pytest

from rigbuilder.domain.build import Build, GpuPlacement, PartCount
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.files.report import (EXPORTERS, md_escape, report_data, to_csv, to_html, to_markdown,
                                     to_text)

EVIL = '<script>alert(1)</script> =HYPERLINK("x")'


def four_3090(gpu: str = "gpu-nvidia-rtx-3090-fe") -> Build:
    return Build(name="4x RTX 3090 on X99", motherboard="mb-asrock-x99-ws-e",
                 cpu="cpu-intel-xeon-e5-2697-v4", psus=["psu-evga-supernova-1600-t2"],
                 case="case-phanteks-enthoo-719",
                 memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)],
                 gpus=[GpuPlacement(gpu, p) for p in (1, 3, 5, 7)])


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
    assert gpu["price"] == pytest.approx(4 * index.get("gpu-nvidia-rtx-3090-fe").price)
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


def test_mixed_currencies_and_missing_part(index):
    idx = PartIndex(list(index), version="t")
    idx.add(dataclasses.replace(index.get("psu-evga-supernova-1600-t2"), price=300.0, currency="EUR"))
    b = four_3090()
    b.nics = ["nic-does-not-exist"]
    d = report_data(b, idx)
    assert {t["currency"] for t in d["totals"]} == {"USD", "EUR"}
    assert "nic-does-not-exist" in d["unpriced"]
    txt = to_text(d).decode()
    assert "Mixed currencies" in txt and "300.00 EUR" in txt and "not in catalog" in txt


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
    assert "user part" in out


def test_markdown_escapes_hostile_user_part(evil_index):
    d = report_data(four_3090("gpu-user-evil"), evil_index)
    out = to_markdown(d).decode()
    assert "<script>" not in out and "\\<script\\>" in out
    row = next(line for line in out.splitlines() if "alert" in line and line.startswith("| GPU"))
    assert row.count("|") - row.count("\\|") == 7  # 6 columns, no extra cells from the name
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
