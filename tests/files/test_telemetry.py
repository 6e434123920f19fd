"""Power logs read (issue 42): a real nvidia-smi log of a two-GPU machine, the formats nvidia-smi
and DCGM write, and hostile or odd files, each refused with a message naming the file and line."""
from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path

import pytest

from rigbuilder.files import telemetry as tm
from rigbuilder.files.telemetry import TelemetryError, parse_log, read_log

DATA = Path(__file__).parent / "data" / "telemetry"
REAL = DATA / "titanx-2gpu-smi.csv"


def test_a_real_two_gpu_log_without_index_is_read_as_two_cards_in_turn():
    log = read_log(REAL, cards=2)
    assert log.kind == "nvidia-smi" and log.fields == ("time", "power", "util")
    assert [c.index for c in log.cards] == [0, 1]
    assert [len(c.samples) for c in log.cards] == [294, 294]  # 588 rows, alternating
    first = log.cards[0].samples[0]
    assert (first.line, first.power_w, first.util_pct) == (2, 17.55, 0.0)
    assert log.cards[1].samples[0].power_w == 16.19  # line 3: the second card of the first poll
    assert log.started == _dt.datetime(2025, 12, 5, 1, 42, 25, 204000)
    assert "no card index" in log.notes[0]


def test_without_the_number_of_cards_a_log_without_index_is_one_card():
    log = read_log(REAL)
    assert len(log.cards) == 1 and len(log.cards[0].samples) == 588


def rows(n_cards=2, seconds=3, **kw):
    """A log as rigbuilder writes it (the same as nvidia-smi --format=csv): constructed, not measured."""
    t0 = _dt.datetime(2026, 11, 20, 14, 0, 0)
    out = [tm.write_csv_header()]
    for k in range(seconds * 10):
        for i in range(n_cards):
            args = dict(power_w=100.0 + i, limit_w=280.0, temp_c=60.0, fan_pct=50.0, util_pct=99.0, sm_mhz=1695.0,
                        reasons=4)
            args.update({a: (v(k, i) if callable(v) else v) for a, v in kw.items()})
            out.append(tm.csv_row(t0 + _dt.timedelta(milliseconds=100 * k), i, "NVIDIA GeForce RTX 3090", **args))
    return "\n".join(out) + "\n"


def test_rigbuilders_own_log_round_trips_through_the_parser():
    log = parse_log(rows().encode(), "own.csv")
    assert [c.name for c in log.cards] == ["NVIDIA GeForce RTX 3090"] * 2
    s = log.cards[1].samples[0]
    assert (s.power_w, s.limit_w, s.temp_c, s.fan_pct, s.util_pct, s.sm_mhz) == (101.0, 280.0, 60.0, 50.0, 99.0, 1695.0)
    assert s.reasons == frozenset({"sw_power_cap"})
    assert s.line == 3


def test_no_header_and_no_units_as_noheader_nounits_writes():
    text = "\n".join(line.replace(" W", "").replace(" %", "").replace(" MHz", "")
                     for line in rows().splitlines()[1:])
    log = parse_log(text.encode(), "noheader.csv")
    assert log.cards[0].samples[0].power_w == 100.0 and log.cards[0].samples[0].limit_w == 280.0


def test_any_subset_and_order_of_columns_with_na_and_not_supported():
    text = ("name, power.limit [W], index, fan.speed [%], power.draw [W], timestamp\n"
            "NVIDIA A40, 300.00 W, 0, [Not Supported], 31.20 W, 2026/11/20 10:00:00.000\n"
            "NVIDIA A40, 300.00 W, 1, [Not Supported], [N/A], 2026/11/20 10:00:00.001\n")
    log = parse_log(text.encode(), "subset.csv")
    a, b = (c.samples[0] for c in log.cards)
    assert (a.power_w, a.limit_w, a.fan_pct) == (31.2, 300.0, None)
    assert b.power_w is None


def test_decimal_commas_of_another_locale():
    semi = ("timestamp;index;name;power.draw [W];power.limit [W]\n"
            "2026/11/20 10:00:00.000;0;NVIDIA GeForce RTX 4090;123,45 W;450,00 W\n")
    quoted = ('timestamp, index, name, power.draw [W]\n'
              '2026/11/20 10:00:00.000, 0, NVIDIA GeForce RTX 4090, "1.123,5 W"\n')
    assert parse_log(semi.encode(), "semi.csv").cards[0].samples[0].power_w == 123.45
    assert parse_log(quoted.encode(), "q.csv").cards[0].samples[0].power_w == 1123.5


def test_a_bare_decimal_comma_splitting_the_row_is_named_with_its_line():
    text = ("timestamp, index, power.draw [W]\n"
            "2026/11/20 10:00:00.000, 0, 100.5 W\n"
            "2026/11/20 10:00:00.100, 0, 123,45 W\n")
    with pytest.raises(TelemetryError, match=r"bad\.csv line 3: 4 columns where the header has 3; a decimal comma"):
        parse_log(text.encode(), "bad.csv")


def test_throttle_reasons_as_a_mask_and_as_one_column_each():
    text = ("timestamp, index, power.draw [W], clocks_throttle_reasons.active, clocks_event_reasons.hw_thermal_slowdown\n"
            "2026/11/20 10:00:00.000, 0, 350.00 W, 0x0000000000000004, Active\n"
            "2026/11/20 10:00:00.100, 0, 350.00 W, 0x0000000000000041, Not Active\n")
    s1, s2 = parse_log(text.encode(), "r.csv").cards[0].samples
    assert s1.reasons == {"sw_power_cap", "hw_thermal_slowdown"}
    assert s2.reasons == {"gpu_idle", "hw_thermal_slowdown"}


def test_a_header_repeated_by_an_appended_run_is_skipped_and_bus_ids_number_the_cards():
    text = ("timestamp, pci.bus_id, power.draw [W]\n"
            "2026/11/20 10:00:00.000, 00000000:01:00.0, 20.00 W\n"
            "2026/11/20 10:00:00.000, 00000000:41:00.0, 21.00 W\n"
            "timestamp, pci.bus_id, power.draw [W]\n"
            "2026/11/20 10:00:01.000, 00000000:41:00.0, 22.00 W\n")
    log = parse_log(text.encode(), "bus.csv")
    assert [[s.power_w for s in c.samples] for c in log.cards] == [[20.0], [21.0, 22.0]]


DCGM = """# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).
# TYPE DCGM_FI_DEV_POWER_USAGE gauge
DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-604ac76c",device="nvidia0",modelName="NVIDIA A100-PCIE-40GB",Hostname="n1"} 61.5
DCGM_FI_DEV_POWER_USAGE{gpu="1",UUID="GPU-7a1c0e11",device="nvidia1",modelName="NVIDIA A100-PCIE-40GB",Hostname="n1"} 248.25
DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-604ac76c",device="nvidia0",modelName="NVIDIA A100-PCIE-40GB",Hostname="n1"} 9223372036854775794
DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-7a1c0e11",device="nvidia1",modelName="NVIDIA A100-PCIE-40GB",Hostname="n1"} 100
DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-604ac76c",device="nvidia0",modelName="NVIDIA A100-PCIE-40GB",Hostname="n1"} 62.0
"""


def test_a_dcgm_exporter_scrape_gives_one_sample_per_card_per_scrape():
    log = parse_log(DCGM.encode(), "scrape.prom")
    assert log.kind == "dcgm"
    assert [c.name for c in log.cards] == ["NVIDIA A100-PCIE-40GB"] * 2
    assert [s.power_w for s in log.cards[0].samples] == [61.5, 62.0]
    assert log.cards[0].samples[0].temp_c is None  # DCGM's blank sentinel
    assert log.cards[1].samples[0].util_pct == 100.0


@pytest.mark.parametrize("data, where", [
    (b"", "the log is empty"),
    (b"\x00\x01\x02binary\xff", "a binary file"),
    (b"timestamp, index, temperature.gpu\n2026/11/20 10:00:00.000, 0, 40\n", "line 1: no power.draw column"),
    (b"foo, bar\n1, 2\n", "line 1: no column nvidia-smi writes"),
    (b"timestamp, index, power.draw [W]\n2026/11/20 10:00:00.000, 0, lots W\n", "line 2: power.draw 'lots W' is not a number"),
    (b"timestamp, index, power.draw [W]\n2026/11/20 10:00:00.000, 0, 1e300 W\n", "line 2: power.draw '1e300 W' is not a plausible"),
    (b"timestamp, index, power.draw [W]\nyesterday, 0, 10 W\n", "line 2: 'yesterday' is not a time"),
    (b"timestamp, index, power.draw [W]\n2026/11/20 10:00:00.000, 99, 10 W\n", "line 2: card index '99' is not 0 to 63"),
    (b"index, name, power.draw [W]\n0, NVIDIA A40, 10 W\n0, NVIDIA GeForce RTX 4090, 11 W\n",
     "line 3: card 0 is named 'NVIDIA GeForce RTX 4090' here and 'NVIDIA A40' on line 2"),
    (b"timestamp, index, power.draw [W]\n", "a header but no readings"),
    (b"index, power.draw [W]\n0, [N/A]\n0, [Not Supported]\n", "no card reported its power draw"),
    (b"\xef\xbb\xbftimestamp, index, power.draw [W]\n2026/11/20 10:00:00.000, 0, 10 W\n\xff\xfe\n", "line 3: not UTF-8"),
    (b"1, 2, 3\n", "line 1: no header line, and 3 columns"),
    (b'DCGM_FI_DEV_POWER_USAGE{UUID="x"} 10\n', "line 1: DCGM_FI_DEV_POWER_USAGE without a gpu"),
])
def test_hostile_logs_are_refused_naming_file_and_line(data, where):
    with pytest.raises(TelemetryError) as e:
        parse_log(data, "log.csv")
    assert "log.csv" in str(e.value) and where in str(e.value)
    assert e.value.args[0].template  # a translatable message (T)


def test_a_huge_file_is_refused_before_it_is_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(tm, "MAX_LOG_BYTES", 1000)
    big = tmp_path / "huge.csv"
    big.write_bytes(REAL.read_bytes())
    with pytest.raises(TelemetryError, match="huge.csv: is larger than 1000 bytes"):
        read_log(big)
    with pytest.raises(TelemetryError, match="larger than 0 MB"):
        parse_log(b"x" * 1001, "huge.csv")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_pipe_or_folder_is_never_read(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(TelemetryError, match="not a regular file"):
        read_log(fifo)
    with pytest.raises(TelemetryError, match="not a regular file"):
        read_log(tmp_path)
