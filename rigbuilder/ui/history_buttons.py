"""The toolbar's Undo and Redo buttons over an undo stack.

Short, fixed labels: the menu's undo action renames itself ("Undo Move GPU 2 ..."), which would
resize the toolbar on every edit. The tooltip says what will be undone; it is made when asked for
(an action's tooltip set on every edit made the toolbar lay out and repaint its buttons each time).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QIcon, QUndoStack
from PySide6.QtWidgets import QToolBar, QToolTip

from rigbuilder.ui.i18n import _


class HistoryButtons(QObject):
    """``undo`` and ``redo``: the two actions, owned by ``parent``; ``add_to(toolbar)`` puts them there."""

    def __init__(self, stack: QUndoStack, parent: QObject, undo_icon: QIcon, redo_icon: QIcon) -> None:
        super().__init__(parent)
        self.stack = stack
        self.undo = QAction(undo_icon, _("Undo"), parent)
        self.redo = QAction(redo_icon, _("Redo"), parent)
        self.undo.triggered.connect(stack.undo)
        self.redo.triggered.connect(stack.redo)
        stack.canUndoChanged.connect(self.undo.setEnabled)
        stack.canRedoChanged.connect(self.redo.setEnabled)
        self.undo.setEnabled(stack.canUndo())
        self.redo.setEnabled(stack.canRedo())
        self.buttons: dict = {}  # the toolbar's button -> its action

    def add_to(self, toolbar: QToolBar) -> None:
        for act in (self.undo, self.redo):
            toolbar.addAction(act)
            button = toolbar.widgetForAction(act)
            self.buttons[button] = act
            button.installEventFilter(self)

    def tooltip(self, action: QAction) -> str:
        """What the Undo or Redo button says it will do."""
        stack = self.stack
        if action is self.undo:
            return _("Undo {what} (Ctrl+Z)", what=stack.undoText()) if stack.canUndo() else _("Undo")
        return _("Redo {what} (Ctrl+Shift+Z)", what=stack.redoText()) if stack.canRedo() else _("Redo")

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if event.type() == QEvent.Type.ToolTip and obj in self.buttons:
            QToolTip.showText(event.globalPos(), self.tooltip(self.buttons[obj]), obj)
            return True
        return super().eventFilter(obj, event)
