"""File > Import Parts List: paste or open a PCPartPicker list, see each line's match, choose for
the weak and unmatched lines, and make a build of it (new, or added to the open one as one
undoable step). The parsing, matching and building are :mod:`rigbuilder.files.pcpp`,
:mod:`rigbuilder.catalog.match` and :mod:`rigbuilder.files.listimport`; this only shows them."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QButtonGroup, QComboBox, QDialog, QDialogButtonBox,
                               QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton,
                               QRadioButton, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from rigbuilder.catalog.match import MATCHED, NONE, SKIPPED, WEAK, Matcher
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import Money, format_value
from rigbuilder.files.listimport import Plan, plan
from rigbuilder.files.pcpp import MAX_BYTES, ListFormatError, parse
from rigbuilder.ui.i18n import N_, _, n_, render_ui, ui_language

SKIP = ""  # the combo entry that leaves a line out
COLUMNS = (N_("Line"), N_("Category"), N_("In the list"), N_("Price"), N_("Match"), N_("Catalog part"))
STATUS_TEXT = {MATCHED: N_("matched"), WEAK: N_("choose"), NONE: N_("no match"), SKIPPED: N_("not checked")}
STATUS_COLOUR = {MATCHED: "#2e7d32", WEAK: "#b26a00", NONE: "#c62828", SKIPPED: "#757575"}


def open_list_file(parent: QWidget, start: str) -> Optional[str]:
    path, _filter = QFileDialog.getOpenFileName(parent, _("Open a PCPartPicker list"), start,
                                                _("Parts lists ({patterns})", patterns="*.txt *.md *.markdown")
                                                + ";;" + _("All files ({patterns})", patterns="*"))
    return path or None


class ListImportDialog(QDialog):
    """The list, its lines and their matches. ``open_file`` picks a file (tests replace it)."""

    NEW, ADD = "new", "add"

    def __init__(self, index: PartIndex, parent: Optional[QWidget] = None, *,
                 open_file: Optional[Callable[[], Optional[str]]] = None, can_add: bool = True,
                 matcher: Optional[Matcher] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Import Parts List"))
        self.index = index
        self.matcher = matcher if matcher is not None and matcher.index is index else Matcher(index)
        self.plan: Optional[Plan] = None
        self._open_file = open_file or (lambda: open_list_file(self, str(Path.home())))
        self._combos: dict[int, QComboBox] = {}

        self.text = QPlainTextEdit()
        self.text.setPlaceholderText(_("Paste a PCPartPicker list here: on the list's page, Markdown (Reddit) or "
                                       "Text under the list's export button, copied; or open a saved file."))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFont("DejaVu Sans Mono", 9))
        self._timer = QTimer(self, singleShot=True, interval=350)
        self._timer.timeout.connect(self.rematch)
        self.text.textChanged.connect(self._timer.start)
        open_btn = QPushButton(_("Open File…"))
        open_btn.setToolTip(_("Read a list saved as a file (.txt or .md)"))
        open_btn.clicked.connect(self.open_file)

        self.status = QLabel(_("Paste or open a list."))
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([_(c) for c in COLUMNS])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        h = self.table.horizontalHeader()
        for c, mode in enumerate((QHeaderView.ResizeMode.ResizeToContents,) * 2 + (QHeaderView.ResizeMode.Stretch,)
                                 + (QHeaderView.ResizeMode.ResizeToContents,) * 2 + (QHeaderView.ResizeMode.Stretch,)):
            h.setSectionResizeMode(c, mode)

        self.new_radio = QRadioButton(_("Create a new build"))
        self.add_radio = QRadioButton(_("Add to the open build (one step you can undo)"))
        self.add_radio.setToolTip(_("The board, CPU, cooler, case and PSU replace the open build's; memory, "
                                    "storage, network cards and GPUs are added"))
        self.add_radio.setEnabled(can_add)
        self.new_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.new_radio)
        group.addButton(self.add_radio)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(_("Import"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(_("Cancel"))
        self.ok.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        top = QWidget()
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("PCPartPicker list (text or Markdown export):")))
        row.addStretch(1)
        row.addWidget(open_btn)
        tl.addLayout(row)
        tl.addWidget(self.text)
        bottom = QWidget()
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.status)
        bl.addWidget(self.table)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([170, 430])
        lay = QVBoxLayout(self)
        lay.addWidget(split, 1)
        modes = QHBoxLayout()
        modes.addWidget(self.new_radio)
        modes.addWidget(self.add_radio)
        modes.addStretch(1)
        modes.addWidget(self.buttons)
        lay.addLayout(modes)
        self.resize(1180, 660)

    # -- input ------------------------------------------------------------------------------
    def open_file(self) -> None:
        path = self._open_file()
        if not path:
            return
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        except OSError as e:
            self._show_error(_("Cannot read {path}: {error}", path=path, error=str(e.strerror or e)))
            return
        try:
            from rigbuilder.files.pcpp import decode

            self.text.setPlainText(decode(data, Path(path).name))
        except ListFormatError as e:
            self._show_error(_error_text(e))
            return
        self.rematch()

    def set_text(self, text: str) -> None:
        self.text.setPlainText(text)
        self.rematch()

    # -- matching ---------------------------------------------------------------------------
    def rematch(self) -> None:
        self._timer.stop()
        text = self.text.toPlainText()
        if not text.strip():
            self.plan = None
            self._fill()
            self.status.setText(_("Paste or open a list."))
            return
        try:
            parts_list = parse(text, "the list")
        except ListFormatError as e:
            self._show_error(_error_text(e))
            return
        kept = self._user_choices()
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.plan = plan(parts_list, self.matcher)
        finally:
            QApplication.restoreOverrideCursor()
        self._fill()
        for pl in self.plan.lines:  # choices made before the text was edited stay with their line
            combo = self._combos.get(pl.line.number)
            key = (pl.line.number, pl.line.category, pl.line.name)
            if combo is not None and key in kept and combo.findData(kept[key]) >= 0:
                combo.setCurrentIndex(combo.findData(kept[key]))
        self._update_status()

    def _user_choices(self) -> dict[tuple[int, str, str], str]:
        """What the user set in the combos, where it differs from what matching chose."""
        out: dict[tuple[int, str, str], str] = {}
        if self.plan is None:
            return out
        for pl in self.plan.lines:
            combo = self._combos.get(pl.line.number)
            if combo is not None and (combo.currentData() or None) != pl.match.part_id:
                out[(pl.line.number, pl.line.category, pl.line.name)] = combo.currentData() or SKIP
        return out

    def _show_error(self, message: str) -> None:
        self.plan = None
        self._fill()
        self.status.setText(f"<span style='color:#c62828'>{_html(message)}</span>")
        self.ok.setEnabled(False)

    def _fill(self) -> None:
        self._combos.clear()
        self.table.setRowCount(0)
        if self.plan is None:
            return
        self.table.setRowCount(len(self.plan.lines))
        for r, pl in enumerate(self.plan.lines):
            ln, m = pl.line, pl.match
            price = (format_value(Money(ln.amount, ln.currency), "", ui_language())
                     if ln.amount is not None and ln.currency else "—")
            if ln.purchased and ln.amount is not None:
                price = _("{price} (paid)", price=price)
            tip_price = _("{price} at {merchant}", price=price, merchant=ln.merchant) if ln.merchant else price
            if ln.out_of_stock:
                tip_price = _("{price} (out of stock)", price=tip_price)
            cells = (str(ln.number), ln.category, ln.name, price,
                     _("matched {score:.0f}", score=m.candidates[0].score) if m.status == MATCHED
                     else _(STATUS_TEXT[m.status]))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 0:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c == 2:
                    item.setToolTip(ln.name + ("\n" + _("PCPartPicker product {id}", id=ln.product_id)
                                               if ln.product_id else ""))
                if c == 3:
                    item.setToolTip(tip_price)
                if c == 4:
                    item.setForeground(QBrush(QColor(STATUS_COLOUR[m.status])))
                    item.setToolTip(render_ui(m.reason) if m.reason else
                                    _("{name}: score {score:.0f} of 100", name=m.candidates[0].name,
                                      score=m.candidates[0].score))
                self.table.setItem(r, c, item)
            if m.status == SKIPPED:
                item = QTableWidgetItem(_("not imported: {why}", why=render_ui(m.reason).split(": ", 1)[-1]))
                item.setForeground(QBrush(QColor(STATUS_COLOUR[SKIPPED])))
                self.table.setItem(r, 5, item)
                continue
            combo = QComboBox()
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(30)
            combo.addItem(_("— skip this line —") if m.status == MATCHED else _("— choose a part, or skip —"), SKIP)
            for cand in m.candidates:
                label = f"{cand.name}  ({cand.score:.0f})"
                combo.addItem(label, cand.part_id)
                combo.setItemData(combo.count() - 1, render_ui(cand.note) if cand.note else
                                  _("{part}, score {score:.0f}", part=cand.part_id, score=cand.score),
                                  Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(1 if m.status == MATCHED else 0)
            hint = (_("The catalog part for this line") if m.status == MATCHED else
                    _("{why}. Nothing is imported for this line unless you choose a part.", why=render_ui(m.reason)))

            def tip(_i=0, combo=combo, hint=hint) -> None:  # the whole name, which the column may cut
                combo.setToolTip(f"{combo.currentText()}\n{hint}" if combo.currentData() else hint)

            tip()
            combo.currentIndexChanged.connect(tip)
            combo.currentIndexChanged.connect(self._update_status)
            self._combos[ln.number] = combo
            self.table.setCellWidget(r, 5, combo)

    def chosen(self) -> dict[int, Optional[str]]:
        """The part chosen for each line (None: left out)."""
        out: dict[int, Optional[str]] = {}
        if self.plan is None:
            return out
        for pl in self.plan.lines:
            combo = self._combos.get(pl.line.number)
            out[pl.line.number] = (combo.currentData() or None) if combo is not None else None
        return out

    def mode(self) -> str:
        return self.ADD if self.add_radio.isChecked() else self.NEW

    def _update_status(self) -> None:
        if self.plan is None:
            return
        pl = self.plan.parts_list
        chosen = self.chosen()
        for r, x in enumerate(self.plan.lines):  # the Match column says where the user decided
            m, item = x.match, self.table.item(r, 4)
            if m.status in (WEAK, NONE) and item is not None:
                item.setText(_("your choice") if chosen.get(x.line.number) else _(STATUS_TEXT[m.status]))
            elif m.status == MATCHED and item is not None:
                pick = chosen.get(x.line.number)
                item.setText(_("matched {score:.0f}", score=m.candidates[0].score) if pick == m.part_id else
                             _("your choice") if pick else _("skipped"))
        taken = sum(1 for v in chosen.values() if v)
        counts = {s: sum(1 for x in self.plan.lines if x.match.status == s) for s in STATUS_TEXT}
        open_ = [x.line.number for x in self.plan.needs_choice() if not chosen.get(x.line.number)]
        bits = [_("{n} matched", n=counts[MATCHED])]
        if counts[WEAK] or counts[NONE]:
            bits.append(_("{n} to choose for", n=counts[WEAK] + counts[NONE]))
        if counts[SKIPPED]:
            bits.append(_("{n} not checked by rigbuilder", n=counts[SKIPPED]))
        host = pl.url.split("/")[2] if pl.url.count("/") >= 2 else _("no address")
        fmt = pl.format.capitalize()
        text = _html(_("{format} export ({host}), {n} part lines, prices in {currency}: {counts}.", format=fmt,
                       host=host, n=len(pl.lines), currency=pl.currency, counts=_list_sep().join(bits)))
        text += " <b>" + _html(n_("{n} part will be imported.", "{n} parts will be imported.", taken)) + "</b>"
        if open_:
            lines = ", ".join(map(str, open_))
            text += (" <span style='color:#b26a00'>"
                     + _html(_("Lines {lines} left out unless you choose a part.", lines=lines) if len(open_) > 1
                             else _("Line {lines} left out unless you choose a part.", lines=lines)) + "</span>")
        for w in pl.warnings[:3]:
            text += f"<br><span style='color:#757575'>{_html(render_ui(w))}</span>"
        self.status.setText(text)
        self.ok.setEnabled(taken > 0)


def _list_sep() -> str:
    """Between the items of a list: the ideographic comma in Japanese and Chinese."""
    return "\u3001" if ui_language() in ("ja", "zh_CN") else ", "


def _error_text(e: Exception) -> str:
    """An exception's message in the window's language (a ``T`` from the core is translated)."""
    return render_ui(e.args[0]) if e.args and isinstance(e.args[0], str) else str(e)


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def apply_import(doc, dialogs, p: Plan, chosen: dict[int, Optional[str]], mode: str, *,
                 maybe_save: Callable[[], bool], status: Callable[[str, int], None]) -> bool:
    """Make the build in ``doc``: ``mode`` NEW replaces it (after ``maybe_save`` said the open one
    may go), ADD applies one undoable edit. Says through ``status`` what was done and in a
    message (``dialogs``) what was left out."""
    from rigbuilder.domain.edits import EditError
    from rigbuilder.files.listimport import import_edit, new_build

    try:
        if mode == ListImportDialog.ADD:
            edit, notes = import_edit(p, chosen, doc.index, doc.build)
            doc.push(edit)
        else:
            if not maybe_save():
                return False
            build, notes = new_build(p, chosen, doc.index)
            doc.replace(build, None)
    except EditError as e:
        dialogs.error(_("Import Parts List"), _("Nothing imported: {why}", why=_error_text(e)))
        return False
    taken = sum(1 for v in chosen.values() if v)
    left = [x.line.number for x in p.lines if x.match.status != SKIPPED and not chosen.get(x.line.number)]
    lines = ", ".join(map(str, left))
    if not left:
        msg = n_("Imported {n} part from the list", "Imported {n} parts from the list", taken)
    elif len(left) == 1:
        msg = n_("Imported {n} part from the list; line {lines} left out",
                 "Imported {n} parts from the list; line {lines} left out", taken, lines=lines)
    else:
        msg = n_("Imported {n} part from the list; lines {lines} left out",
                 "Imported {n} parts from the list; lines {lines} left out", taken, lines=lines)
    status(msg, 10000)
    if notes:
        dialogs.info(_("Import Parts List"), _("Imported, except:") + "\n\n" + "\n".join(render_ui(x) for x in notes))
    return True
