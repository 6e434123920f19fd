"""Findings panel and the build's parts list."""
from __future__ import annotations

from html import escape
from typing import Optional

from PySide6.QtCore import QRect, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QBrush
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHeaderView, QLabel, QLineEdit, QStyledItemDelegate,
                               QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from rigbuilder.domain.findings import Finding, Severity, plural
from rigbuilder.domain.i18n import Money, T, format_number, render, tr
from rigbuilder.domain.money import CONDITIONS
from rigbuilder.rules.engine import RULE_CODES, counts
from rigbuilder.ui import theme
from rigbuilder.ui.i18n import N_, _, render_ui, ui_language
from rigbuilder.ui.widgets import QuietLabel

_SEV_FIELD = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info"}


def sev_color(sev: Severity) -> QColor:
    """A severity's colour in the active theme (readable on the theme's background)."""
    return theme.qcolor(_SEV_FIELD[sev])
SEV_ICON = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "ℹ"}


SHOWN_CHARS = 160  # of a message or fix in its cell (the whole text is in the tooltip)


def _shown(text: str) -> str:
    """``text`` as its one-line cell shows it: Qt lays out a cell's whole text to elide it, and a
    repaint of a few long findings cost a millisecond."""
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def _tooltip(f: Finding, names: dict[int, str], lang: str = "en") -> str:
    """The whole finding with the full names of the cards it is about, as rich text: Qt wraps
    that at a sensible width (a plain-text tooltip ran past the window's edge)."""
    cards = "".join("<br>" + escape(tr("GPU {num}: {name}", lang, num=n, name=names[n])) for n in f.gpus if n in names)
    head_cards, head_fix, head_limits = tr("Cards", lang), tr("Fix:", lang), tr("Not covered:", lang)
    return (f"<qt><p>{escape(render(f.message, lang))}</p>"
            + (f"<p><b>{escape(head_cards)}</b>{cards}</p>" if cards else "")
            + f"<p><b>{escape(head_fix)}</b> {escape(render(f.fix, lang))}</p>"
            f"<p><b>{escape(head_limits)}</b> {escape(render(f.limits, lang))}</p></qt>")


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
        self._lang: Optional[str] = None  # set_language's choice; None: the window's language
        self.tree.setHeaderLabels(["", tr("Rule", self.lang), tr("Finding", self.lang), tr("Fix", self.lang)])
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

    @property
    def lang(self) -> str:
        """The language the findings are shown in: the window's (``ui_language``) unless
        ``set_language`` chose another."""
        return self._lang if self._lang is not None else ui_language()

    def set_language(self, lang: str) -> None:
        """Show the findings (message, fix, what is not covered) and the headers in ``lang``."""
        if lang == self.lang:
            self._lang = lang
            return
        self._lang = lang
        self.tree.setHeaderLabels(["", tr("Rule", lang), tr("Finding", lang), tr("Fix", lang)])
        findings, names = self.findings, self.gpu_names
        self.findings = []
        with QSignalBlocker(self.tree):
            self.tree.clear()
        self.show_findings(findings, names)
        self._show_summary()

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
            if old_keys:
                from difflib import SequenceMatcher

                ops = SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes()
            else:  # the first findings (the window's start): all new, difflib not needed yet
                ops = [("insert", 0, 0, 0, len(new_keys))]
            for tag, i1, i2, j1, j2 in reversed(ops):
                if tag in ("delete", "replace"):
                    for _n in range(i2 - i1):
                        tree.takeTopLevelItem(i1)
                if tag in ("insert", "replace"):
                    tree.insertTopLevelItems(i1, [QTreeWidgetItem() for _n in range(j2 - j1)])
            reselect = None  # the row of the finding that was selected, if it is still there
            for i, f in enumerate(findings):
                it = tree.topLevelItem(i)
                fix = render(f.fix, self.lang)
                texts = (SEV_ICON[f.severity], f.code, _shown(render(f.message, self.lang)), _shown(fix))
                for col, text in enumerate(texts):
                    if it.text(col) != text:
                        it.setText(col, text)
                color = sev_color(f.severity)
                if it.foreground(0).color() != color:
                    it.setForeground(0, QBrush(color))
                    it.setForeground(1, QBrush(color))
                tip = _tooltip(f, names, self.lang)
                if it.toolTip(2) != tip:
                    it.setToolTip(2, tip)
                    it.setToolTip(3, fix)
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
        lang = self.lang
        if not self.findings:
            self.summary.setText(tr("No findings: nothing in this build conflicts.", lang))
        elif lang != "en":
            c = theme.colors()  # the catalog's text names the light theme's colours: the active theme's instead
            self.summary.setText(tr("<b style='color:#d93025'>Errors: {errors}</b> · <b style='color:#b26a00'>"
                                    "Warnings: {warnings}</b> · Notes: {notes} — select one to see it on the board",
                                    lang, errors=n["error"], warnings=n["warning"], notes=n["info"])
                                 .replace("#d93025", c.error).replace("#b26a00", c.warning))
        else:
            c = theme.colors()
            self.summary.setText(f"<b style='color:{c.error}'>{plural(n['error'], 'error')}</b> · "
                                 f"<b style='color:{c.warning}'>{plural(n['warning'], 'warning')}</b> · "
                                 f"{plural(n['info'], 'note')} — select one to see it on the board")

    def restyle(self) -> None:
        """Colours again after a theme change."""
        for i, f in enumerate(self.findings):
            it = self.tree.topLevelItem(i)
            if it is not None:
                it.setForeground(0, QBrush(sev_color(f.severity)))
                it.setForeground(1, QBrush(sev_color(f.severity)))
        self.summary.label.setText("")
        self._show_summary()

    def _current_changed(self, cur, _prev) -> None:
        if cur is None:
            self.findingSelected.emit(None)
            return
        self.findingSelected.emit(self.findings[self.tree.indexOfTopLevelItem(cur)])


class _PriceCells(QStyledItemDelegate):
    """In-place editors for the Parts tab's price paid ("Each") and condition cells. They change
    nothing themselves: the panel says what was typed and the window makes it an undoable edit."""

    def __init__(self, panel: "BuildPartsPanel") -> None:
        super().__init__(panel.tree)
        self.panel = panel

    def createEditor(self, parent, option, index):  # noqa: N802 (Qt name)
        if self._row(index) is None:
            return None
        if index.column() == COL_EACH:
            ed = QLineEdit(parent)
            ed.setPlaceholderText(_("e.g. 650 or 650 USD (empty: no price paid)"))
            return ed
        if index.column() == COL_CONDITION:
            ed = QComboBox(parent)
            for c in CONDITIONS:
                ed.addItem(_(CONDITION_LABELS.get(c, c)), c)
            return ed
        return None

    def sizeHint(self, option, index):  # noqa: N802 (Qt name)
        """The Part column wraps its name over as many lines as its width needs (the view alone
        elided long names to 'Motherboar…')."""
        size = super().sizeHint(option, index)
        if index.column() != COL_PART:
            return size
        tree = self.panel.tree
        depth = 1 if index.parent().isValid() else 0
        width = tree.columnWidth(COL_PART) - tree.indentation() * (depth + 1) - 8
        if width <= 40:
            return size
        text = str(index.data() or "")
        rect = option.fontMetrics.boundingRect(QRect(0, 0, width, 100000), Qt.TextFlag.TextWordWrap, text)
        size.setHeight(max(size.height(), rect.height() + 4))
        return size

    def _row(self, index) -> Optional[dict]:
        n = index.siblingAtColumn(0).data(ROW_ROLE)
        return self.panel.rows[n] if isinstance(n, int) and 0 <= n < len(self.panel.rows) else None

    def setEditorData(self, editor, index) -> None:  # noqa: N802
        row = self._row(index)
        if isinstance(editor, QLineEdit):
            editor.setText(row["edit_text"] if row else "")
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(0, editor.findData((row or {}).get("condition") or "new")))

    def setModelData(self, editor, model, index) -> None:  # noqa: N802
        row = self._row(index)
        if not row:
            return
        if isinstance(editor, QLineEdit):
            if editor.text().strip() != row["edit_text"]:
                self.panel.pricePaidEdited.emit(row["id"], editor.text().strip())
        elif isinstance(editor, QComboBox):
            if editor.currentData() != (row.get("condition") or ""):
                self.panel.conditionEdited.emit(row["id"], editor.currentData())


COL_PART, COL_QTY, COL_EACH, COL_CONDITION, COL_TOTAL = range(5)
CONDITION_LABELS = {"new": N_("new"), "used": N_("used")}
"""A price's condition as the Parts tab shows it (the build stores the English word)."""
ROW_ROLE = Qt.ItemDataRole.UserRole + 1  # the line's number in BuildPartsPanel.rows (rigbuilder.files.report.parts_list)


class BuildPartsPanel(QWidget):
    """What the build holds, one line per part as the printed list has it (four identical GPUs are
    one line with quantity 4, each card a line under it): ``rigbuilder.files.report.parts_list``
    makes both. The Each and Condition cells are editable (double-click or F2): they set the price
    paid for that item in this build. Delete removes the selected part (one unit of a line)."""

    removeRequested = Signal(str, int)  # role ("motherboard", "gpu", "memory", ...), index within the role
    pricePaidEdited = Signal(str, str)  # part id, what was typed in its Each cell ("" = no price paid)
    conditionEdited = Signal(str, str)  # part id, "new" or "used"
    pricePaidRequested = Signal(str)  # part id: the price-paid dialog (context menu)
    userPriceRequested = Signal(str)  # part id: your price for the part everywhere (context menu)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([_("Part"), _("Qty"), _("Each"), _("Cond."), _("Price")])
        self.tree.setUniformRowHeights(False)
        self.tree.header().sectionResized.connect(lambda *_args: self.tree.doItemsLayout())
        self.tree.headerItem().setToolTip(COL_EACH, _("Price of one unit in the build's currency; double-click to "
                                                      "enter the price you paid (this build only)"))
        self.tree.headerItem().setToolTip(COL_CONDITION, _("New or used: the condition of the price used"))
        self.tree.headerItem().setToolTip(COL_TOTAL, _("Quantity x each: what the line adds to the purchase"))
        self.tree.setRootIsDecorated(True)
        h = self.tree.header()
        h.setStretchLastSection(False)
        h.setSectionResizeMode(COL_PART, QHeaderView.ResizeMode.Stretch)
        for c in (COL_QTY, COL_EACH, COL_CONDITION, COL_TOTAL):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setWordWrap(True)
        self.tree.setToolTip(_("The parts in this build. Double-click a price or condition to enter what you paid; "
                               "select a part and press Delete (or right-click) to remove it."))
        self.tree.setItemDelegate(_PriceCells(self))
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.total = QLabel()
        self.total.setWordWrap(True)
        self.total.setTextFormat(Qt.TextFormat.PlainText)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.tree)
        lay.addWidget(self.total)
        self.rows: list[dict] = []

    def show_build(self, build, index) -> None:
        from rigbuilder.files.report import parts_list
        from rigbuilder.models.cost import purchase

        buy = purchase(build, index)
        cur = buy.currency
        lang = ui_language()
        self.rows = rows = parts_list(build, index, buy)
        self.tree.clear()
        head = self.tree.headerItem()
        for c, text in ((COL_EACH, _("Each {currency}", currency=cur)), (COL_TOTAL, _("Price {currency}", currency=cur))):
            if head.text(c) != text:
                head.setText(c, text)
        for n, r in enumerate(rows):
            known = r["in_catalog"]
            name = r["name"] if known else _("{part_id} (not in catalog)", part_id=r["id"])
            kind = r["kind_label"]
            label = _("{kind}: {name}", kind=_(kind), name=name) + ("" if not known or r["verified"] else "  ⚠")
            each = _amount(r["unit_price"], cur) if r["unit_price"] is not None else "—"
            if r.get("bundle", "").startswith("in the bundle"):
                each = _("bundle")
            total = _amount(r["price"], cur) if r["price"] is not None else _("unknown")
            cond = _(CONDITION_LABELS.get(r["condition"], r["condition"])) if r["condition"] else ""
            it = QTreeWidgetItem([label, str(r["quantity"]), each, cond, total])
            trace = render(r["price_trace"], lang) or _("No price known: double-click Each to enter what you paid.")
            if r.get("bundle"):
                trace = _("Priced {bundle}. {trace}", bundle=render(r["bundle"], lang), trace=trace)
            tip = (_("{label}\n{quantity} x {each} = {total}\n{trace}", label=label, quantity=r["quantity"],
                     each=Money(r["unit_price"], cur), total=Money(r["price"], cur), trace=trace)
                   if r["price"] is not None else f"{label}\n{trace}")
            if r["paid"]:
                f = it.font(COL_EACH)
                f.setBold(True)
                it.setFont(COL_EACH, f)
                it.setFont(COL_CONDITION, f)
                tip += "\n" + _("(Bold: the price you paid, in this build)")
            for c in range(5):
                it.setToolTip(c, tip)
            for c in (COL_QTY, COL_EACH, COL_TOTAL):
                it.setTextAlignment(c, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            r["edit_text"] = _paid_text(build, r["id"])
            it.setData(0, ROW_ROLE, n)
            it.setData(0, Qt.ItemDataRole.UserRole, tuple(r["entries"][-1]))  # Delete: one unit, the last
            if known:
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsEditable)
            else:
                it.setForeground(0, QBrush(sev_color(Severity.ERROR)))
            if r["price"] is None and known:
                it.setForeground(COL_TOTAL, QBrush(sev_color(Severity.WARNING)))
            if r.get("stale"):  # the price was seen more than six months ago: marked, and said in the tip
                it.setText(COL_EACH, each + " ⚠")
                it.setForeground(COL_EACH, QBrush(sev_color(Severity.WARNING)))
                for c in range(5):
                    it.setToolTip(c, tip + "\n" + _("⚠ Stale: this price was seen on {date}, more than six months ago.",
                                                     date=r.get("observed") or "?"))
            if len(r["entries"]) > 1 and r["where"]:
                for (role, i), where in zip(r["entries"], r["where"]):
                    where = render(where, lang)
                    child = QTreeWidgetItem([where, "1", "", "", ""])
                    child.setToolTip(0, _("{name}: {where}", name=name, where=where))
                    child.setData(0, Qt.ItemDataRole.UserRole, (role, i))
                    it.addChild(child)
            self.tree.addTopLevelItem(it)
        self.tree.expandAll()
        if not rows:
            self.total.setText(_("Total (purchase): nothing in the build yet"))
            return
        total = Money(buy.total, cur)
        miss = buy.missing_names()
        if not miss:
            text = _("Total (purchase): {total}", total=render(buy.with_without(T("{total}", total=total)), lang))
        else:
            text = _("Total (purchase): at least {total} ({unpriced})", total=total, unpriced=unpriced_words(miss))
            if buy.without:
                text = render(buy.with_without(T.verbatim(text)), lang)
        self.total.setText(text)

    def selected(self):
        it = self.tree.currentItem()
        return it.data(0, Qt.ItemDataRole.UserRole) if it else None

    def selected_part(self) -> Optional[str]:
        """The part id of the selected line (or of the line a selected card belongs to)."""
        it = self.tree.currentItem()
        while it is not None and it.parent() is not None:
            it = it.parent()
        n = it.data(0, ROW_ROLE) if it is not None else None
        return self.rows[n]["id"] if isinstance(n, int) and 0 <= n < len(self.rows) else None

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

        pid = self.selected_part()
        menu = QMenu(self)
        if pid is not None:
            menu.addAction(_("Price Paid in This Build…"), lambda: self.pricePaidRequested.emit(pid))
            menu.addAction(_("Your Price for This Part Everywhere…"), lambda: self.userPriceRequested.emit(pid))
            menu.addSeparator()
        menu.addAction(_("Remove from the build"), self.remove_selected)
        menu.exec(self.tree.viewport().mapToGlobal(pos))


def _amount(x: float, currency: str) -> str:
    """An amount in a cell whose header names the currency: '1,234.50' (JPY: '1,235'), grouped as
    the window's language groups numbers."""
    return format_number(x, 0 if currency == "JPY" else 2, ui_language())


def unpriced_words(names: list[str], shown: int = 4) -> str:
    """'2 parts unpriced: ASUS RTX 3090 Turbo, ASRock X99 WS-E' in the window's language."""
    from rigbuilder.models.cost import unpriced_names

    return render_ui(unpriced_names(names, shown))


def _paid_text(build, part_id: str) -> str:
    """The price paid as its Each cell's editor starts with ("" when none)."""
    pp = build.prices_paid.get(part_id)
    return f"{pp.amount:g} {pp.currency}" if pp is not None else ""
