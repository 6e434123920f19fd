"""Tools > Measure This Machine, without Qt: NVML read every 100 ms and written as the same CSV
that ``nvidia-smi --query-gpu=<LIVE_FIELDS> --format=csv -lms 100`` writes, so the one parser
(rigbuilder.files.telemetry) reads both. NVML comes from the optional ``nvidia-ml-py`` package
(module ``pynvml``); it is never required. The window drives ``sample`` from a timer (progress and
Cancel); tests give a fake module.
"""
from __future__ import annotations

import datetime as _dt
import importlib
from pathlib import Path
from typing import Any, Optional

from rigbuilder.domain.i18n import T
from rigbuilder.files.telemetry import csv_row, write_csv_header

SECONDS = 60
INTERVAL_MS = 100


class NoNvml(RuntimeError):
    """NVML cannot be read here; the message (a ``T``) says why and what to do."""


def load_nvml(module: Optional[Any] = None) -> Any:
    """The NVML binding (``module``, else ``pynvml`` if installed), initialised; NoNvml without the
    package, the driver or a GPU."""
    if module is None:
        try:
            module = importlib.import_module("pynvml")
        except ImportError:
            raise NoNvml(T("NVIDIA's management library is not installed for Python: install nvidia-ml-py "
                           "(pip install nvidia-ml-py), or record a log with nvidia-smi and import it")) from None
    try:
        module.nvmlInit()
        n = module.nvmlDeviceGetCount()
    except Exception as e:  # noqa: BLE001 - the binding raises its own NVMLError kinds
        raise NoNvml(T("No NVIDIA driver answered ({error}): this machine has no NVIDIA GPU, or its driver is not "
                       "loaded", error=str(e)[:120])) from None
    if n < 1:
        _shutdown(module)
        raise NoNvml(T("The NVIDIA driver reports no GPU on this machine"))
    return module


def _shutdown(nvml: Any) -> None:
    try:
        nvml.nvmlShutdown()
    except Exception:  # noqa: BLE001
        pass


def _get(fn, *args) -> Optional[float]:
    try:
        v = fn(*args)
    except Exception:  # noqa: BLE001 - a reading this card does not support: [N/A], as nvidia-smi writes
        return None
    return None if v is None else float(v)


class LiveRecorder:
    """Writes one CSV row per card at each ``sample()`` into ``path`` (a new file)."""

    def __init__(self, nvml: Any, path: Path, now=_dt.datetime.now) -> None:
        self.nvml, self.path, self.now = nvml, Path(path), now
        n = nvml.nvmlDeviceGetCount()
        self.handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(n)]
        self.names = []
        for h in self.handles:
            name = nvml.nvmlDeviceGetName(h)
            self.names.append(name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name))
        self.file = open(self.path, "x", encoding="utf-8", newline="\n")  # never over an existing file
        self.file.write(write_csv_header() + "\n")
        self.samples = 0

    def sample(self) -> None:
        n = self.nvml
        t = self.now()
        for i, h in enumerate(self.handles):
            mw = _get(n.nvmlDeviceGetPowerUsage, h)
            lim = _get(n.nvmlDeviceGetEnforcedPowerLimit, h)
            temp = _get(n.nvmlDeviceGetTemperature, h, getattr(n, "NVML_TEMPERATURE_GPU", 0))
            fan = _get(n.nvmlDeviceGetFanSpeed, h)
            try:
                util: Optional[float] = float(n.nvmlDeviceGetUtilizationRates(h).gpu)
            except Exception:  # noqa: BLE001
                util = None
            sm = _get(n.nvmlDeviceGetClockInfo, h, getattr(n, "NVML_CLOCK_SM", 1))
            fn = getattr(n, "nvmlDeviceGetCurrentClocksEventReasons", None) or getattr(
                n, "nvmlDeviceGetCurrentClocksThrottleReasons", None)
            reasons = _get(fn, h) if fn else None
            self.file.write(csv_row(t, i, self.names[i], None if mw is None else mw / 1000,
                                    None if lim is None else lim / 1000, temp, fan, util, sm,
                                    None if reasons is None else int(reasons)) + "\n")
        self.samples += 1

    def close(self, keep: bool = True) -> None:
        """Close the file (``keep=False``: a cancelled recording leaves no file) and NVML."""
        if not self.file.closed:
            self.file.close()
        if not keep:
            self.path.unlink(missing_ok=True)
        _shutdown(self.nvml)
