"""The open build as the Qt layer sees it: the model, its undo stack, its file.

Every user edit goes through :meth:`BuildDocument.edit`, which pushes one undoable command that
swaps whole build snapshots (builds are small; a snapshot costs microseconds and can't drift).
Views listen to ``changed`` and never edit the build themselves.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.findings import Finding
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks


class _SnapshotCommand(QUndoCommand):
    def __init__(self, doc: "BuildDocument", text: str, before: Build, after: Build) -> None:
        super().__init__(text)
        self._doc, self._before, self._after = doc, before, after

    def redo(self) -> None:
        self._doc._set(self._after.clone())

    def undo(self) -> None:
        self._doc._set(self._before.clone())


class BuildDocument(QObject):
    changed = Signal()  # the build changed (edit, undo, redo, load)
    pathChanged = Signal()

    def __init__(self, index: PartIndex, build: Optional[Build] = None, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.index = index
        self.build = build or Build()
        self.path: Optional[Path] = None
        self.undo_stack = QUndoStack(self)
        self.findings: list[Finding] = []
        self.context: Context = Context(self.build, index)
        self._recheck()

    # -- the one way to change the build -------------------------------------------------
    def edit(self, text: str, mutate: Callable[[Build], None]) -> None:
        """Apply ``mutate`` to a copy of the build as one undoable step named ``text``."""
        before = self.build.clone()
        after = self.build.clone()
        mutate(after)
        if after == before:
            return
        self.undo_stack.push(_SnapshotCommand(self, text, before, after))

    def replace(self, build: Build, path: Optional[Path]) -> None:
        """Start over with ``build`` (New / Open): clears undo history."""
        self.undo_stack.clear()
        self.path = path
        self._set(build)
        self.undo_stack.setClean()
        self.pathChanged.emit()

    def set_path(self, path: Path) -> None:
        self.path = path
        self.undo_stack.setClean()
        self.pathChanged.emit()

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def preview(self, mutate: Callable[[Build], None]) -> list[Finding]:
        """Findings the build would have after ``mutate`` (for hover previews); changes nothing."""
        b = self.build.clone()
        mutate(b)
        return run_checks(b, self.index)

    def recheck(self) -> None:
        """Judge the same build again (the catalog changed: user parts imported)."""
        self._recheck()
        self.changed.emit()

    def _set(self, build: Build) -> None:
        self.build = build
        self._recheck()
        self.changed.emit()

    def _recheck(self) -> None:
        self.context = Context(self.build, self.index)
        self.findings = run_checks(self.build, self.index, context=self.context)
