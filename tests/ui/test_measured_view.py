"""The Measured tab, Tools > Import Power Log… and Tools > Measure This Machine (issue 42): the
window's own catalog and data folder, a real two-GPU log, and a fake NVML module for the live path
(no GPU is needed, or used, by the suite)."""
from __future__ import annotations

import types
from pathlib import Path

import pytest

from rigbuilder.config import Paths
from rigbuilder.domain.build import Build, GpuPlacement
from rigbuilder.files.telemetry import read_log
from tests.ui.conftest import FakeDialogs

REAL = Path(__file__).parents[1] / "files" / "data" / "telemetry" / "titanx-2gpu-smi.csv"
TITAN = "gpu-nvidia-titan-xp"


@pytest.fixture
def win(qtbot, tmp_path):
    from rigbuilder.app import create_main_window

    w = create_main_window(Paths.from_env(), None, dialogs_factory=FakeDialogs)
    qtbot.addWidget(w)
    w.doc.replace(Build(name="Two TITAN Xp", gpus=[GpuPlacement(TITAN, 1), GpuPlacement(TITAN, 3)]), None)
    yield w
    w.doc.undo_stack.setClean()
    w.close()


def saved(win, tmp_path):
    from rigbuilder.files.buildfile import save

    p = tmp_path / "titan.rig"
    save(win.doc.build, p)
    win.doc.set_path(p)
    return p


def test_an_unsaved_build_asks_to_be_saved_first(win):
    assert not win.measured.import_power_log(str(REAL))
    assert "Save the build first" in win.dialogs.errors[-1][1]
    assert win.measured_view.data is None and "No power log imported" in win.measured_view.head.text()


def test_importing_the_real_log_shows_planned_and_measured_and_calibrates(win, tmp_path):
    saved(win, tmp_path)
    assert win.measured.import_power_log(str(REAL))
    v = win.measured_view
    d = v.data
    assert [c["gpu"] for c in d["cards"]] == [1, 2]
    planned, measured = v.bars["load"]
    assert list(planned.opts["height"]) == [250.0, 250.0, 500.0]
    assert list(measured.opts["height"]) == [c["load_w"] for c in d["cards"]] + [d["machine"]["load_w"]]
    assert [t.toPlainText() for t in v.texts["load"]][0].startswith("-3")  # about -31 %
    assert "calibrated from your log of 2025-12-05" in v.notes.text()
    html = win.reports.html()  # File > Print prints it too
    assert "Measured against the plan (titanx-2gpu-smi.csv, 2025-12-05)" in html
    gpu = next(c for c in win.doc.context.power.components if c.kind == "gpu")
    assert gpu.calibration is not None and gpu.watts["training"] < 250
    # the Preferences switch: off plans with the model's figures, and the tab says so
    win.prefs.set("power/calibration", False)
    win.measured.apply_preference()
    win.measured.refresh()
    gpu = next(c for c in win.doc.context.power.components if c.kind == "gpu")
    assert gpu.calibration is None and gpu.watts["training"] == 250.0
    assert "Calibration is off" in v.notes.text()


def test_a_log_of_another_machine_is_refused_and_nothing_changes(win, tmp_path):
    saved(win, tmp_path)
    other = tmp_path / "other.csv"
    other.write_text("index, name, power.draw [W]\n0, NVIDIA A40, 30 W\n1, NVIDIA A40, 31 W\n")
    assert not win.measured.import_power_log(str(other))
    assert "the build has no such GPU" in win.dialogs.errors[-1][1]
    assert win.measured_view.data is None


def test_an_ambiguous_log_asks_which_card_is_which(win, tmp_path):
    from rigbuilder.domain.edits import SetPowerLimit

    win.doc.push(SetPowerLimit(1, 200.0))
    saved(win, tmp_path)
    asked = []
    win.measured.ask_map = lambda gpus, cards, why: asked.append((gpus, cards, why)) or {1: 1, 2: 0}
    text = ("index, name, power.draw [W], utilization.gpu [%]\n"
            + "".join(f"{i}, NVIDIA TITAN Xp, 20 W, 0 %\n" for _k in range(6) for i in (0, 1)))
    log = tmp_path / "amb.csv"
    log.write_text(text)
    assert win.measured.import_power_log(str(log))
    gpus, cards, why = asked[0]
    assert [n for n, _name in gpus] == [1, 2] and [i for i, _name in cards] == [0, 1] and "different power limits" in why
    assert [(c["gpu"], c["log_index"]) for c in win.measured_view.data["cards"]] == [(1, 1), (2, 0)]


class FakeNvml(types.SimpleNamespace):
    """Two cards, as pynvml answers (milliwatts, bytes names); no GPU is touched."""

    NVML_TEMPERATURE_GPU = 0
    NVML_CLOCK_SM = 1

    def __init__(self, count=2, fail=False):
        super().__init__(calls=0, count=count, fail=fail, shut=False)

    def nvmlInit(self):  # noqa: N802
        if self.fail:
            raise RuntimeError("NVML Shared Library Not Found")

    def nvmlShutdown(self):  # noqa: N802
        self.shut = True

    def nvmlDeviceGetCount(self):  # noqa: N802
        return self.count

    def nvmlDeviceGetHandleByIndex(self, i):  # noqa: N802
        return i

    def nvmlDeviceGetName(self, h):  # noqa: N802
        return b"NVIDIA TITAN Xp"

    def nvmlDeviceGetPowerUsage(self, h):  # noqa: N802
        self.calls += 1
        return 180000 + 1000 * h

    def nvmlDeviceGetEnforcedPowerLimit(self, h):  # noqa: N802
        return 250000

    def nvmlDeviceGetTemperature(self, h, kind):  # noqa: N802
        return 70

    def nvmlDeviceGetFanSpeed(self, h):  # noqa: N802
        raise RuntimeError("Not Supported")

    def nvmlDeviceGetUtilizationRates(self, h):  # noqa: N802
        return types.SimpleNamespace(gpu=99, memory=40)

    def nvmlDeviceGetClockInfo(self, h, kind):  # noqa: N802
        return 1582

    def nvmlDeviceGetCurrentClocksEventReasons(self, h):  # noqa: N802
        return 0x4


def test_measure_this_machine_writes_the_nvidia_smi_format_and_imports_it(win, tmp_path, qtbot):
    saved(win, tmp_path)
    nvml = win.measured.nvml = FakeNvml()
    prog = win.measured.measure_this_machine(seconds=1)
    qtbot.waitUntil(lambda: win.measured_view.data is not None, timeout=10000)
    assert prog.value() in (-1, 10) and nvml.shut
    (log,) = (Paths.from_env().data_dir / "power-logs").glob("power-*.csv")
    parsed = read_log(log)  # the one parser reads what the live path wrote
    assert [c.name for c in parsed.cards] == ["NVIDIA TITAN Xp"] * 2
    s = parsed.cards[1].samples[0]
    assert (s.power_w, s.limit_w, s.fan_pct, s.util_pct, s.reasons) == (181.0, 250.0, None, 99.0, {"sw_power_cap"})
    assert len(parsed.cards[0].samples) == 10


def test_cancel_keeps_no_file(win, tmp_path, qtbot):
    saved(win, tmp_path)
    win.measured.nvml = FakeNvml()
    prog = win.measured.measure_this_machine(seconds=60)
    qtbot.waitUntil(lambda: win.measured.recorder.samples >= 2, timeout=5000)
    prog.cancel()
    qtbot.waitUntil(lambda: win.measured.recorder.file.closed, timeout=5000)
    assert list((Paths.from_env().data_dir / "power-logs").glob("*.csv")) == []


@pytest.mark.parametrize("nvml, said", [(FakeNvml(fail=True), "No NVIDIA driver answered"),
                                        (FakeNvml(count=0), "reports no GPU")])
def test_without_a_gpu_it_says_so(win, nvml, said):
    win.measured.nvml = nvml
    assert win.measured.measure_this_machine() is None
    assert said in win.dialogs.infos[-1][1]


def test_without_the_library_it_says_how_to_get_it(win, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_pynvml(name, *a, **kw):
        if name == "pynvml":
            raise ImportError("no pynvml")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_pynvml)
    monkeypatch.delitem(__import__("sys").modules, "pynvml", raising=False)
    assert win.measured.measure_this_machine() is None
    assert "nvidia-ml-py" in win.dialogs.infos[-1][1]


def test_the_tools_menu_has_both_actions(win):
    texts = [a.text() for m in win.menuBar().actions() if m.menu() for a in m.menu().actions()]
    assert "&Import Power Log…" in texts and "&Measure This Machine" in texts


def test_a_large_log_is_read_off_the_windows_thread(win, tmp_path, monkeypatch):
    import threading

    from rigbuilder.files import measured
    from rigbuilder.ui import measured_view

    saved(win, tmp_path)
    monkeypatch.setattr(measured_view, "BACKGROUND_BYTES", 0)
    threads = []
    real = measured.read_and_compare
    monkeypatch.setattr(measured, "read_and_compare",
                        lambda *a, **k: threads.append(threading.current_thread().name) or real(*a, **k))
    assert win.measured.import_power_log(str(REAL))
    assert threads and threads[0].startswith("power-log") and win.measured_view.data is not None
    bad = tmp_path / "bad.csv"
    bad.write_text("timestamp, index\n2026/11/20 10:00:00.000, 0\n")
    assert not win.measured.import_power_log(str(bad))  # an error on the worker is said as on the thread
    assert "no power.draw column" in win.dialogs.errors[-1][1]
