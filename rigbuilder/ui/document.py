"""The open build as the Qt layer sees it: the model, its undo stack, its file.

Every user edit is an edit object (rigbuilder.domain.edits) given to :meth:`BuildDocument.push`,
which pushes one undoable command that only applies it. Views listen to ``edited`` (what changed)
and ``changed`` and never edit the build themselves.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.edits import EVERYTHING, Changed, Edit, what_changed
from rigbuilder.domain.findings import Finding
from rigbuilder.rules.context import Context
from rigbuilder.rules.engine import run_checks
from rigbuilder.ui.i18n import render_ui


class _EditCommand(QUndoCommand):
    """One undoable step: redo sets what the edit made of the build before it, undo sets that
    build back (builds are small; a snapshot costs microseconds and cannot drift)."""

    def __init__(self, doc: "BuildDocument", edit: Edit, before: Build, after: Build) -> None:
        # The edit's own text (Undo / Redo name it), in the window's language where the edit
        # writes a translatable text (rigbuilder.domain.i18n.T); a plain one shows as it is.
        super().__init__(render_ui(edit.text(before, doc.index)))
        self._doc, self.edit, self._before, self._after = doc, edit, before, after

    def redo(self) -> None:
        self._doc._set(self._after.clone())

    def undo(self) -> None:
        self._doc._set(self._before.clone())


class BuildDocument(QObject):
    changed = Signal()  # the build changed (edit, undo, redo, load)
    edited = Signal(object)  # what changed (a Changed), emitted just before ``changed``
    pathChanged = Signal()

    def __init__(self, index: PartIndex, build: Optional[Build] = None, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.index = index
        self.build = build or Build()
        self.path: Optional[Path] = None
        self.undo_stack = QUndoStack(self)
        self.findings: list[Finding] = []
        self.context: Context = Context(self.build, index)
        self.last_change: Changed = EVERYTHING
        self._recheck()

    # -- the one way to change the build -------------------------------------------------
    def push(self, edit: Edit) -> bool:
        """Make ``edit`` one undoable step; False when it changes nothing. Raises EditError
        (naming what and where) when the build cannot take it, and then changes nothing."""
        after = edit.applied_to(self.build, self.index)
        if after == self.build:
            return False
        self.undo_stack.push(_EditCommand(self, edit, self.build.clone(), after))
        return True

    def set_undo_limit(self, steps: int) -> None:
        """Keep at most ``steps`` undo steps (the oldest go first): memory stays bounded however
        long a session edits. Qt takes a new limit only on an empty history, so a change made
        while there is one applies from the next New or Open."""
        self._undo_limit = steps
        if self.undo_stack.count() == 0:
            self.undo_stack.setUndoLimit(steps)

    def replace(self, build: Build, path: Optional[Path]) -> None:
        """Start over with ``build`` (New / Open): clears undo history."""
        self.undo_stack.clear()
        if getattr(self, "_undo_limit", None) is not None:
            self.undo_stack.setUndoLimit(self._undo_limit)
        self.path = path
        self._set(build, EVERYTHING)
        self.undo_stack.setClean()
        self.pathChanged.emit()

    def set_path(self, path: Path) -> None:
        self.path = path
        self.undo_stack.setClean()
        self.pathChanged.emit()

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def preview(self, edit: Edit) -> list[Finding]:
        """The findings ``edit`` would cause: those the build would have after it and has not now
        (for hover previews); changes nothing. Raises EditError when the build cannot take it."""
        now = {(f.code, f.message) for f in self.findings}
        return [f for f in run_checks(edit.applied_to(self.build, self.index), self.index) if (f.code, f.message) not in now]

    def recheck(self) -> None:
        """Judge the same build again (the catalog changed: user parts imported)."""
        self._recheck()
        self.last_change = EVERYTHING
        self.edited.emit(EVERYTHING)
        self.changed.emit()

    def _set(self, build: Build, change: Optional[Changed] = None) -> None:
        change = change or what_changed(self.build, build)
        self.build = build
        if change.parts or change.settings:
            self._recheck()
        else:  # only the name or notes: the checks would find the same
            self.context.build = build
        self.last_change = change
        self.edited.emit(change)
        self.changed.emit()

    def _recheck(self) -> None:
        self.context = Context(self.build, self.index)
        self.findings = run_checks(self.build, self.index, context=self.context)
