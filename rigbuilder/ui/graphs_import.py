"""What the power and cost graphs import that has no Qt in it, imported on a worker thread while
the window answers (issue 31).

The graphs module itself and its chart widgets make PySide6 classes and signals when imported:
those are imported on the GUI thread (Qt classes made on a second thread while the GUI thread runs
Qt crashed now and then). The models below are plain Python and take most of the import's time.
"""
from __future__ import annotations

import importlib

PURE_PYTHON = (
    "rigbuilder.models.perf", "rigbuilder.models.renting", "rigbuilder.models.cost", "rigbuilder.models.power",
    "rigbuilder.models.plots", "rigbuilder.rules.context",
)
"""What the graphs import that has no Qt in it."""


def import_pure_python() -> None:
    """On a worker thread: the graphs' imports that have no Qt in them. A module that cannot be
    imported is left for the GUI thread's import, which says why."""
    for name in PURE_PYTHON:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - reported when the graphs are made
            pass
