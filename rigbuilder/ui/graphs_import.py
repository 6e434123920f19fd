"""The power and cost graphs' imports in pieces, so the window answers meanwhile (issue 31).

``import pyqtgraph`` on the GUI thread held it for 0.3-0.55 s on a two-core machine. Its parts:

- modules without Qt in them (numpy, and what pyqtgraph and the graphs module import from the
  standard library: subprocess, xml.etree, decimal, multiprocessing, pydoc, ...): imported on a
  worker thread (:func:`import_pure_python`);
- PySide6 makes the Python type of each Qt class the first time it is asked for, and pyqtgraph
  asks for every name of QtCore, QtGui and QtWidgets at once (it copies their namespaces): the
  types are made a few at a time on the event loop beforehand (:func:`make_qt_types`), each turn
  at most ``BUDGET_S`` (one type takes longer now and then: QCommonStyle's enums, 10-30 ms);
- pyqtgraph's own modules make Qt subclasses and signals: on the GUI thread, in one turn (Qt
  classes made on a second thread while the GUI thread runs Qt crashed now and then).
"""
from __future__ import annotations

import importlib
import time
from typing import Callable

PURE_PYTHON = (
    "numpy", "numpy.typing", "subprocess", "xml.etree.ElementTree", "decimal", "cProfile", "pydoc",
    "pkgutil", "sysconfig", "multiprocessing", "importlib.resources", "socket", "mmap", "array", "colorama",
    "rigbuilder.models.perf", "rigbuilder.models.renting", "rigbuilder.models.cost", "rigbuilder.models.power",
)
"""What the graphs import that has no Qt in it (found by importing them after the window)."""

QT_MODULES = ("PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets")
"""The modules pyqtgraph copies every name of; it also imports the next ones."""
MORE_QT_MODULES = ("PySide6.QtSvg", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtTest")

BUDGET_S = 0.004
"""How long one event-loop turn makes Qt types."""


def import_pure_python() -> None:
    """On a worker thread: the graphs' imports that have no Qt in them. A module that cannot be
    imported is left for the GUI thread's import, which says why."""
    for name in PURE_PYTHON:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - reported when the graphs are made
            pass


class QtTypes:
    """Every Python type pyqtgraph's import asks PySide6 for, made a few per :meth:`step`."""

    def __init__(self) -> None:
        self._modules = list(MORE_QT_MODULES)
        self._names: list[tuple[object, str]] = []
        for name in QT_MODULES:
            mod = importlib.import_module(name)
            self._names += [(mod, n) for n in dir(mod)]
        self._names.reverse()  # taken from the end

    def step(self, budget_s: float = BUDGET_S) -> bool:
        """Make types for about ``budget_s``; True when all are made."""
        end = time.perf_counter() + budget_s
        while self._modules and time.perf_counter() < end:
            try:
                importlib.import_module(self._modules.pop())
            except ImportError:
                pass  # pyqtgraph does without it
        while self._names and time.perf_counter() < end:
            mod, name = self._names.pop()
            try:
                getattr(mod, name)
            except Exception:  # noqa: BLE001 - a name PySide6 cannot make: pyqtgraph's import says so
                pass
        return not self._modules and not self._names


def make_qt_types(context, then: Callable[[], None]) -> None:
    """Make the Qt types in turns of the event loop (``context``: the QObject whose life bounds
    them), then call ``then``."""
    from PySide6.QtCore import QTimer

    types = QtTypes()

    def turn() -> None:
        if types.step():
            then()
        else:
            QTimer.singleShot(0, context, turn)

    QTimer.singleShot(0, context, turn)
