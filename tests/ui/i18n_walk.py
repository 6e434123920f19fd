"""Finds window texts that never went through the catalogs (issue 19).

Under the pseudo-language ``qps`` every catalogued text reads ``⟦text⟧``; what is left of a
widget's texts once the wrapped parts are taken out must hold no words. Use it in a block
``with ui_language_set(PSEUDO):`` around making the widgets:

    assert not raw_texts(widget), raw_texts(widget)
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QComboBox, QDockWidget, QGroupBox, QLabel,
                               QLineEdit, QMenu, QTabBar, QTextEdit, QWidget)

from tests.pseudo import bare  # noqa: F401 (the ui tests import it from here)


def _texts(w: QWidget) -> Iterable[tuple[str, str]]:
    yield "toolTip", w.toolTip()
    yield "statusTip", w.statusTip()
    yield "whatsThis", w.whatsThis()
    if w.isWindow() or isinstance(w, QDockWidget):
        yield "windowTitle", w.windowTitle()
    if isinstance(w, QLabel):
        yield "text", w.text()
    if isinstance(w, QAbstractButton):
        yield "text", w.text()
    if isinstance(w, QGroupBox):
        yield "title", w.title()
    if isinstance(w, QMenu):
        yield "title", w.title()
    if isinstance(w, QLineEdit):
        yield "placeholderText", w.placeholderText()
    if isinstance(w, QTextEdit) and w.isReadOnly():
        yield "html", w.toPlainText()
    if isinstance(w, QTabBar):
        for i in range(w.count()):
            yield f"tab {i}", w.tabText(i)
            yield f"tab {i} toolTip", w.tabToolTip(i)
    if isinstance(w, QComboBox):
        for i in range(w.count()):
            yield f"item {i}", w.itemText(i)
            yield f"item {i} toolTip", str(w.itemData(i, Qt.ItemDataRole.ToolTipRole) or "")
    if isinstance(w, QAbstractItemView) and w.model() is not None:
        m = w.model()
        try:
            columns = m.columnCount()
        except TypeError:  # a list model (QListWidget's) takes a parent index: one column
            columns = 1
        for c in range(columns):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                yield f"header {c}", str(m.headerData(c, Qt.Orientation.Horizontal, role) or "")


def raw_texts(root: QWidget, skip: Optional[Callable[[QWidget], bool]] = None) -> list[str]:
    """'where: text' for every text under ``root`` (widgets and actions) with words outside the
    catalogs. ``skip(widget)`` leaves out a widget whose texts are data (a part's name)."""
    found: list[str] = []
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if skip is not None and skip(w):
            continue
        for where, text in _texts(w):
            if bare(text):
                found.append(f"{type(w).__name__}({w.objectName() or ''}).{where}: {text!r}")
    for a in root.findChildren(QAction):
        for where, text in (("text", a.text()), ("toolTip", a.toolTip()), ("statusTip", a.statusTip())):
            if bare(text):
                found.append(f"QAction.{where}: {text!r}")
    return found
