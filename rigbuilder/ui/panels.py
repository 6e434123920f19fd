"""Findings panel and the build's parts list."""
from __future__ import annotations

from difflib import SequenceMatcher
from html import escape
from typing import Optional

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QBrush
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from rigbuilder.domain.findings import Finding, Severity, plural
from rigbuilder.rules.engine import RULE_CODES, counts
from rigbuilder.domain.parts import KIND_LABELS
from rigbuilder.ui.widgets import QuietLabel

SEV_COLOR = {Severity.ERROR: QColor("#d93025"), Severity.WARNING: QColor("#b26a00"), Severity.INFO: QColor("#5f6368")}
SEV_ICON = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "ℹ"}


SHOWN_CHARS = 160  # of a message or fix in its cell (the whole text is in the tooltip)


def _shown(text: str) -> str:
    """``text`` as its one-line cell shows it: Qt lays out a cell's whole text to elide it, and a
    repaint of a few long findings cost a millisecond."""
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def _tooltip(f: Finding, names: dict[int, str]) -> str:
    """The whole finding with the full names of the cards it is about, as rich text: Qt wraps
    that at a sensible width (a plain-text tooltip ran past the window's edge)."""
    cards = "".join(f"<br>GPU {n}: {escape(names[n])}" for n in f.gpus if n in names)
    return (f"<qt><p>{escape(f.message)}</p>" + (f"<p><b>Cards</b>{cards}</p>" if cards else "")
            + f"<p><b>Fix:</b> {escape(f.fix)}</p><p><b>Not covered:</b> {escape(f.limits)}</p></qt>")


def _key(f: Finding) -> tuple:
    """What identifies a finding across edits (its message's figures may change)."""
    return (f.code, f.gpus, f.positions, f.parts)


class FindingsPanel(QWidget):
    findingSelected = Signal(object)  # Finding or None

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        # Its text changes with every edit: a label that does not lay out the dock again.
        self.summary = QuietLabel(rich=True)
        self.tree = QTreeWidget()
        self.tree.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.tree.setHeaderLabels(["", "Rule", "Finding", "Fix"])
        self.tree.setRootIsDecorated(False)
        # One line a finding (the whole text is in its tooltip): word-wrapped rows of varying
        # height cost milliseconds of layout on every edit.
        self.tree.setWordWrap(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        h = self.tree.header()
        # Fixed widths for the icon and the rule code (the widest code there is): a column sized
        # to its contents measures every row's text again on every edit.
        fm = self.tree.fontMetrics()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        h.resizeSection(0, fm.horizontalAdvance("✖") + 14)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        h.resizeSection(1, max(fm.horizontalAdvance(c) for c in RULE_CODES) + 16)
        h.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        h.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)
        h.resizeSection(3, 360)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.summary)
        lay.addWidget(self.tree)
        self.findings: list[Finding] = []
        self.tree.currentItemChanged.connect(self._current_changed)
        self._show_summary()

    gpu_names: dict[int, str] = {}

    def show_findings(self, findings: list[Finding], gpu_names: Optional[dict[int, str]] = None) -> None:
        """Show ``findings``. Rows are matched to the findings shown before: a finding that came
        or went inserts or removes its row and leaves the others as they are (an unchanged list
        repaints nothing), and the selected finding stays selected while it is still there."""
        findings = list(findings)
        names = dict(gpu_names or {})
        if findings == self.findings and names == self.gpu_names:
            return
        self.gpu_names = names
        tree = self.tree
        cur = tree.currentItem()
        prev_selected = self.findings[tree.indexOfTopLevelItem(cur)] if cur is not None else None
        selected = _key(prev_selected) if prev_selected is not None else None
        old_keys = [_key(f) for f in self.findings]
        new_keys = [_key(f) for f in findings]
        self.findings = findings
        with QSignalBlocker(tree):
            # From the end, so the row numbers of what is still to do stay right.
            for tag, i1, i2, j1, j2 in reversed(SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes()):
                if tag in ("delete", "replace"):
                    for _ in range(i2 - i1):
                        tree.takeTopLevelItem(i1)
                if tag in ("insert", "replace"):
                    tree.insertTopLevelItems(i1, [QTreeWidgetItem() for _ in range(j2 - j1)])
            reselect = None  # the row of the finding that was selected, if it is still there
            for i, f in enumerate(findings):
                it = tree.topLevelItem(i)
                texts = (SEV_ICON[f.severity], f.code, _shown(f.message), _shown(f.fix))
                for col, text in enumerate(texts):
                    if it.text(col) != text:
                        it.setText(col, text)
                color = SEV_COLOR[f.severity]
                if it.foreground(0).color() != color:
                    it.setForeground(0, QBrush(color))
                    it.setForeground(1, QBrush(color))
                tip = _tooltip(f, names)
                if it.toolTip(2) != tip:
                    it.setToolTip(2, tip)
                    it.setToolTip(3, f.fix)
                if selected is not None and reselect is None and new_keys[i] == selected:
                    reselect = i
            tree.setCurrentItem(tree.topLevelItem(reselect) if reselect is not None else None)
        if selected is not None and reselect is None:
            self.findingSelected.emit(None)
        elif reselect is not None and findings[reselect] != prev_selected:
            self.findingSelected.emit(findings[reselect])
        self._show_summary()

    def _show_summary(self) -> None:
        n = counts(self.findings)
        if not self.findings:
            self.summary.setText("No findings: nothing in this build conflicts.")
        else:
            self.summary.setText(f"<b style='color:#d93025'>{plural(n['error'], 'error')}</b> · "
                                 f"<b style='color:#b26a00'>{plural(n['warning'], 'warning')}</b> · "
                                 f"{plural(n['info'], 'note')} — select one to see it on the board")

    def _current_changed(self, cur, _prev) -> None:
        if cur is None:
            self.findingSelected.emit(None)
            return
        self.findingSelected.emit(self.findings[self.tree.indexOfTopLevelItem(cur)])


class BuildPartsPanel(QWidget):
    """What the build holds, one line per part; Delete removes the selected one."""

    removeRequested = Signal(str, int)  # role ("motherboard", "gpu", "memory", ...), index within the role

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Part", "Qty", "Price"])
        self.tree.setRootIsDecorated(False)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setWordWrap(True)
        self.tree.setToolTip("The parts in this build. Select one and press Delete (or right-click) to remove it.")
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.total = QLabel()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.tree)
        lay.addWidget(self.total)

    def show_build(self, build, index) -> None:
        self.tree.clear()
        totals: dict[str, float] = {}
        unknown = 0

        def add(role: str, i: int, pid: str, qty: int, extra: str = "") -> None:
            nonlocal unknown
            p = index.get(pid)
            name = p.name if p else f"{pid} (not in catalog)"
            label = f"{KIND_LABELS.get(p.KIND if p else role, role)}: {name}{extra}" + ("" if p is None or p.verified else "  ⚠")
            price = ""
            if p is not None and p.price is not None:
                totals[p.currency] = totals.get(p.currency, 0) + p.price * qty
                price = f"{p.price * qty:,.0f} {p.currency}"
            else:
                unknown += 1
            it = QTreeWidgetItem([label, str(qty), price])
            it.setToolTip(0, label)
            it.setData(0, Qt.ItemDataRole.UserRole, (role, i))
            if p is None:
                it.setForeground(0, QBrush(SEV_COLOR[Severity.ERROR]))
            self.tree.addTopLevelItem(it)

        for role in ("motherboard", "cpu", "cooler", "case"):
            pid = getattr(build, role)
            if pid:
                add(role, 0, pid, 1)
        for i, pid in enumerate(build.psus):
            add("psu", i, pid, 1)
        for i, m in enumerate(build.memory):
            add("memory", i, m.part_id, m.count)
        for i, s in enumerate(build.storage):
            add("storage", i, s.part_id, s.count)
        for i, pid in enumerate(build.nics):
            add("nic", i, pid, 1)
        for i, g in enumerate(build.gpus):
            where = "riser" if g.mount == "riser" else f"position {g.position}"
            lim = f", limit {g.power_limit_w:g} W" if g.power_limit_w else ""
            add("gpu", i, g.part_id, 1, f"  [GPU {i + 1}, {where}{lim}]")
        text = " + ".join(f"{v:,.0f} {k}" for k, v in sorted(totals.items())) or "—"
        self.total.setText(f"Total: <b>{text}</b>" + (f" ({unknown} part(s) without a price)" if unknown else ""))

    def selected(self):
        it = self.tree.currentItem()
        return it.data(0, Qt.ItemDataRole.UserRole) if it else None

    def remove_selected(self) -> None:
        """Ask for the selected part's removal (the window turns it into an undoable edit)."""
        sel = self.selected()
        if sel:
            self.removeRequested.emit(*sel)

    def _context_menu(self, pos) -> None:
        it = self.tree.itemAt(pos)
        if it is None:
            return
        self.tree.setCurrentItem(it)
        from PySide6.QtWidgets import QMenu

        menu = QMenu(self)
        menu.addAction("Remove from the build", self.remove_selected)
        menu.exec(self.tree.viewport().mapToGlobal(pos))
