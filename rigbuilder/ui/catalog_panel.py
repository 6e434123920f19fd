"""The catalog browser: kind, search as you type, GPU filters, sortable columns, details pane.

Parts are dragged out of the table; the drag carries only the part id.
"""
from __future__ import annotations

import html
import time
from typing import Callable, Optional

# the Name column's delegate
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem
from PySide6.QtCore import QAbstractTableModel, QMimeData, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QDrag, QPixmap
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFormLayout, QHBoxLayout, QHeaderView,
                               QLabel, QLineEdit, QPushButton, QSplitter, QTableView, QTextBrowser,
                               QVBoxLayout, QWidget)

from rigbuilder.catalog.schema import field_specs
from rigbuilder.catalog.search import PartQuery, SearchIndex, search_text
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.i18n import Day
from rigbuilder.domain.kinds import KIND_LABELS, KINDS, PART_KINDS
from rigbuilder.domain.parts import (FIELD_LABELS, SEGMENT_WORDS, COMMUNITY_SOURCE, COOLER_TYPES, Part,
                                     board_slot_flags, slot_position_words, slot_table_words, trust_text)
from rigbuilder.domain.pricenotes import note_text, quoted
from rigbuilder.render.board import COOLER_NAMES, SOURCE_NAMES
from rigbuilder.ui.boardview import PART_MIME
from rigbuilder.ui import theme, units
from rigbuilder.ui.i18n import N_, _, render_ui
from rigbuilder.ui.widgets import choice_box, follow_ui_locale, spin_box

# Column titles are catalog texts (shown through _()), declared with each kind (rigbuilder.domain.kinds); a
# length's title holds {unit}, the unit chosen in Preferences.
COLUMNS: dict[str, list[tuple[str, str]]] = {k.name: list(k.columns) for k in KINDS}
DEFAULT_COLUMNS = [(N_("Name"), "name"), (N_("Price"), "price")]


def _value(p: Part, attr: str):
    if attr == "slots":
        return len(getattr(p, "slots", ()))
    return getattr(p, attr, None)


def _sort_key(p: Part, attr: str) -> tuple:
    """Missing values first, text without regard to case, ties by name."""
    v = p.name if attr == "name" else _value(p, attr)
    if isinstance(v, str):
        v = v.lower()
    return (v is not None, v if v is not None else 0, p.name.lower())


PENDING_STEP = 5
"""Community parts loaded between two looks at the clock (building one from the database on a
first start takes about 0.2 ms; from its snapshot, far less)."""


class PartsModel(QAbstractTableModel):
    """The parts of one kind that match the search (``rigbuilder.catalog.search`` decides), in
    the chosen order. Filtering and sorting happen here on Python lists: a proxy that asks Python
    about every row cost about 30 ms a keystroke over 10,000 parts."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.all_parts: list[Part] = []
        self.parts: list[Part] = []  # the rows shown
        self._kind, self._sorted = "", None  # the kind shown; the column sort that ordered it
        self._staged: list[Part] = []  # parts to add (stage_parts)
        self._staged_texts: list[str] = []
        self.columns = DEFAULT_COLUMNS
        self.query = PartQuery()
        self._search = SearchIndex([])
        self.part_index: Optional[PartIndex] = None
        """Where prices come from: the price a build would use (yours first), as every other door."""

    def price_of(self, p: Part):
        """The price observation builds use for ``p`` (new), or the row's own price without an index."""
        if self.part_index is None:
            from rigbuilder.models.prices import catalog_observation

            return catalog_observation(p)
        from rigbuilder.models.prices import choose, observations

        return choose(observations(p.id, self.part_index))

    def set_parts(self, parts: list[Part], kind: str) -> None:
        self.beginResetModel()
        # Curated rows (checked against makers and reviews) before the community rows, in any order.
        self.all_parts = sorted(parts, key=lambda p: (p.community, p.maker.lower(), p.model.lower()))
        self._kind, self._sorted = kind, None
        self._staged, self._staged_texts = [], []
        self.columns = COLUMNS.get(kind, DEFAULT_COLUMNS)
        self._search = SearchIndex(self.all_parts)
        self.parts = self._matching()
        self.endResetModel()

    def stage_parts(self, parts: list[Part]) -> None:
        """Parts to add later (``add_staged``), their search texts worked out now: the community
        rows come a piece per event-loop turn and join the list at once (each insert repaints
        the table)."""
        self._staged.extend(parts)
        self._staged_texts.extend(search_text(p) for p in parts)

    @property
    def staged(self) -> bool:
        return bool(self._staged)

    def add_staged(self) -> None:
        parts, texts = self._staged, self._staged_texts
        self._staged, self._staged_texts = [], []
        self.add_parts(parts, texts)

    def add_parts(self, parts: list[Part], texts: Optional[list[str]] = None) -> None:
        """More parts of the kind shown, after those held (the community rows, which come in the
        list's order): only the new rows that match are inserted, no reset. After a column sort
        or a cheapest-first search the list is made again instead."""
        if not parts:
            return
        if self._sorted or self.query.parsed.sort:
            sort = self._sorted
            self.set_parts(self.all_parts + parts, self._kind)
            if sort:
                self.sort(*sort)
            return
        start = len(self.all_parts)
        self.all_parts.extend(parts)
        self._search.extend(parts, texts)
        new = [self._search.parts[i] for i in self._search.filter(self.query, start)]
        if new:
            self.beginInsertRows(QModelIndex(), len(self.parts), len(self.parts) + len(new) - 1)
            self.parts.extend(new)
            self.endInsertRows()

    def set_query(self, query: PartQuery) -> None:
        self.beginResetModel()
        self.query = query
        self.parts = self._matching()
        self.endResetModel()

    def _matching(self) -> list[Part]:
        return self._search.find(self.query)  # the index holds all_parts in their order

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        """Sorted here, with a Python key (the table calls this when a header is clicked); a
        QSortFilterProxyModel's pairwise Python lessThan made 10,000 rows take half a second."""
        if not 0 <= column < len(self.columns):
            return
        attr = self.columns[column][1]
        self._sorted = (column, order)
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_ids = [self.parts[i.row()].id for i in old]
        key = lambda p: _sort_key(p, attr)  # noqa: E731
        reverse = order == Qt.SortOrder.DescendingOrder
        for rows in (self.all_parts, self.parts):
            rows.sort(key=key, reverse=reverse)
            rows.sort(key=lambda p: p.community)  # stable: the curated rows stay first, in the order asked
        self._search = SearchIndex(self.all_parts)
        row_of = {p.id: r for r, p in enumerate(self.parts)}
        self.changePersistentIndexList(old, [self.index(row_of[pid], i.column()) for pid, i in zip(old_ids, old)])
        self.layoutChanged.emit()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.parts)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            title, _attr = self.columns[section]
            return _(title, unit=units.suffix()) if "{unit}" in title else _(title)  # lengths in the chosen unit
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        p = self.parts[index.row()]
        attr = self.columns[index.column()][1]
        v = _value(p, attr)
        if role == Qt.ItemDataRole.DisplayRole:
            if attr == "name":
                return p.name + ("" if p.verified else "  ⚠") + ("  " + _("(mine)") if p.origin == "user" else "")
            if attr == "price":
                o = self.price_of(p)
                if o is None:
                    return ""
                stale = " ⚠" if o.stale() else ""  # seen more than six months ago
                if o.origin == "user":
                    return _("{amount:,.0f} {currency} (yours)", amount=o.amount, currency=o.currency) + stale
                return _("{amount:,.0f} {currency}", amount=o.amount, currency=o.currency) + stale
            if attr.endswith("_mm") and isinstance(v, (int, float)):
                return units.length(v).rsplit(" ", 1)[0]  # the column's title says the unit
            if attr == "cooler" and isinstance(v, str):
                return _(COOLER_NAMES.get(v, v))
            if isinstance(v, float):
                return f"{v:g}"
            return "" if v is None else str(v)
        if role == Qt.ItemDataRole.UserRole:  # sort key
            return v if v is not None else (-1 if attr != "name" else "")
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = _("{name}\nDrag onto the board to add it.", name=p.name)
            if attr == "price" and (o := self.price_of(p)) is not None:
                tip += "\n" + _("Price used in builds: {amount:,.2f} {currency}, {condition}, {source} ({date}, {age})",
                                amount=o.amount, currency=o.currency, condition=_(o.condition), source=o.source,
                                date=o.date, age=render_ui(o.age()))
            if not p.verified:
                tip += "\n" + trust_words(p)
            return tip
        if role == Qt.ItemDataRole.UserRole + 1:
            return p.id
        return None

    def flags(self, index):
        return super().flags(index) | Qt.ItemFlag.ItemIsDragEnabled

    def mimeTypes(self):  # noqa: N802
        return [PART_MIME]

    def mimeData(self, indexes):  # noqa: N802
        rows = sorted({i.row() for i in indexes})
        mime = QMimeData()
        if rows:
            mime.setData(PART_MIME, self.parts[rows[0]].id.encode("utf-8"))
            mime.setText(self.parts[rows[0]].id)
        return mime



def name_lines(text: str, fm: QFontMetrics, width: int, max_lines: int) -> list[str]:
    """``text`` as it fits ``max_lines`` lines of ``width`` pixels: wrapped at words, and what
    still does not fit elided in the middle of the last line, so the end of a name (the model
    number, the revision, the ⚠ mark) stays visible. Four EVGA SuperNOVA PSUs cut at the end all
    read "EVGA Super..."; wrapped and elided in the middle they read apart."""
    if fm.horizontalAdvance(text) <= width or max_lines < 1:
        return [text]
    words = text.split(" ")
    lines: list[str] = []
    while len(lines) < max_lines - 1 and words:
        k = 0
        while k < len(words) and fm.horizontalAdvance(" ".join(words[:k + 1]).rstrip()) <= width:
            k += 1
        if k == 0:  # one word wider than the line: the rest is elided below
            break
        lines.append(" ".join(words[:k]).rstrip())
        words = words[k:]
        while words and not words[0]:
            words.pop(0)
    rest = " ".join(words).strip()
    if rest:
        lines.append(fm.elidedText(rest, Qt.TextElideMode.ElideMiddle, width))
    return lines


class NameDelegate(QStyledItemDelegate):
    """Paints a part's name over the lines its row holds (``name_lines``), so names that share a
    long beginning stay tellable apart at the catalog's default width."""

    def visible_text(self, option: QStyleOptionViewItem) -> str:
        """The text painted for ``option`` (made by ``initStyleOption``), lines joined by newlines."""
        widget = option.widget
        style = widget.style() if widget is not None else None
        if style is None:
            return option.text
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        fm = option.fontMetrics
        lines = max(1, rect.height() // fm.lineSpacing())
        # one pixel spare: the painter lays the text out with fractional widths
        return "\n".join(name_lines(option.text, fm, rect.width() - 2 * margin - 1, lines))

    def initStyleOption(self, option, index) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        # Qt breaks lines at U+2028 (the style takes a "\n" for a character of its own)
        option.text = self.visible_text(option).replace("\n", "\u2028")
        option.features &= ~QStyleOptionViewItem.ViewItemFeature.WrapText


NAME_SHARE = 0.65  # of the table's width that the Name column takes at least


class PartTable(QTableView):
    """The parts table; a drag shows the part itself (``drag_pixmap``, set by the window: the card
    to the board drawing's scale), not a snapshot of the whole row covering the target slot.

    The Name column takes what the other columns leave, and never less than ``NAME_SHARE`` of the
    width (the other columns then scroll): a Stretch column got 26 px for the cases."""

    drag_pixmap: Optional[Callable[[Part], Optional[tuple[QPixmap, QPoint]]]] = None
    last_drag: Optional[QDrag] = None  # the drag started last (tests look at its image)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.name_delegate = NameDelegate(self)
        self.setItemDelegateForColumn(0, self.name_delegate)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)

    def fit_name_column(self) -> None:
        model = self.model()
        if model is None or model.columnCount() == 0:
            return
        others = sum(self.columnWidth(c) for c in range(1, model.columnCount()))
        avail = self.viewport().width()
        self.setColumnWidth(0, max(avail - others, int(avail * NAME_SHARE)))

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.fit_name_column()

    def startDrag(self, supported) -> None:  # noqa: N802
        index = self.currentIndex()
        if not index.isValid():
            return
        model = self.model()
        drag = QDrag(self)
        drag.setMimeData(model.mimeData([index]))
        made = self.drag_pixmap(model.parts[index.row()]) if self.drag_pixmap is not None else None
        if made is not None:
            pm, hot = made
            drag.setPixmap(pm)
            drag.setHotSpot(hot)
        self.last_drag = drag
        drag.exec(Qt.DropAction.CopyAction, Qt.DropAction.CopyAction)

class CatalogPanel(QWidget):
    partActivated = Signal(str)  # double-click: add to the build
    priceRequested = Signal(str)  # part id: set your own price for it (context menu, details button)

    def __init__(self, index: PartIndex, parent=None) -> None:
        super().__init__(parent)
        self.index = index
        self.kind = QComboBox()
        for k in PART_KINDS:
            self.kind.addItem(_(KIND_LABELS[k]), k)
        self.kind.setToolTip(_("Which kind of part to list"))
        self.search = QLineEdit()
        self.search.setPlaceholderText(_("Search (e.g. 3090 24GB)"))
        self.search.setToolTip(_("Words of the name, maker or model; every word must match"))
        self.search.setClearButtonEnabled(True)
        self.min_vram = spin_box(0, 192, suffix=" GB", lowest=_("any"),
                                 tip=_("Only GPUs with at least this much memory"))
        self.cooler = choice_box([(_("any cooler"), "")] + [(_(COOLER_NAMES.get(c, c)), c) for c in COOLER_TYPES],
                                 tip=_("Only GPUs with this kind of cooler"))
        self.max_width = spin_box(0, 5, decimals=2, step=0.5, suffix=_(" slots"), lowest=_("any"),
                                  tip=_("Only GPUs at most this many slots thick"))
        self.max_length = spin_box(0, 400, step=10, suffix=" mm", lowest=_("any"), tip=_("Only GPUs at most this long"))
        self.max_price = spin_box(0, 50000, step=100, prefix="≤ ", lowest=_("any"),
                                  tip=_("Only parts priced at most this much (parts without a price are left out)"))
        self.gpu_filters = QWidget()
        form = QFormLayout(self.gpu_filters)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(_("VRAM at least"), self.min_vram)
        form.addRow(_("Cooler"), self.cooler)
        row = QHBoxLayout()
        row.addWidget(self.max_width)
        row.addWidget(self.max_length)
        form.addRow(_("At most"), row)
        form.addRow(_("Price"), self.max_price)
        self.model = PartsModel(self)
        self.model.part_index = index
        self.table = PartTable()
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.verticalHeader().hide()
        # Columns fit their contents by the first 40 rows only: measuring 10,000 rows on every
        # keystroke took half a second, 123 rows 30 ms of start-up (benchmarks/bench_catalog.py).
        self.table.horizontalHeader().setResizeContentsPrecision(40)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        # two lines of a name a row (NameDelegate wraps them)
        self.table.verticalHeader().setDefaultSectionSize(
            max(self.table.verticalHeader().defaultSectionSize(), 2 * self.table.fontMetrics().lineSpacing() + 2))
        self.table.setAlternatingRowColors(True)
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(True)
        self.count = QLabel()
        self.price_button = QPushButton(_("Set Your Price…"))
        self.price_button.setToolTip(_("Your price for the selected part, used everywhere (every build, report "
                                       "and the command line); kept in your own database"))
        self.price_button.clicked.connect(self._request_price)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.act_price = QAction(_("Set Your Price for This Part…"), self.table)
        self.act_price.setToolTip(self.price_button.toolTip())
        self.act_price.triggered.connect(self._request_price)
        self.table.addAction(self.act_price)
        details_box = QWidget()
        details_lay = QVBoxLayout(details_box)
        details_lay.setContentsMargins(0, 0, 0, 0)
        details_lay.addWidget(self.details, 1)
        details_lay.addWidget(self.price_button, 0, Qt.AlignmentFlag.AlignRight)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(details_box)
        split.setSizes([420, 220])
        lay = QVBoxLayout(self)
        lay.addWidget(self.kind)
        lay.addWidget(self.search)
        lay.addWidget(self.gpu_filters)
        lay.addWidget(split, 1)
        lay.addWidget(self.count)
        follow_ui_locale(self)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.search.textChanged.connect(self._filters_changed)
        for w in (self.min_vram, self.max_length, self.max_price):
            w.valueChanged.connect(self._filters_changed)
        self.max_width.valueChanged.connect(self._filters_changed)
        self.cooler.currentIndexChanged.connect(self._filters_changed)
        self.table.selectionModel().currentRowChanged.connect(self._show_details)
        self.table.doubleClicked.connect(lambda i: self.partActivated.emit(self.part_at(i).id))
        self._kind_changed()

    def set_index(self, index: PartIndex) -> None:
        self.index = index
        self.model.part_index = index
        self._kind_changed()

    def _load_pending(self) -> None:
        """A few of the pending community rows into the index (for at most ``PENDING_BUDGET_S``),
        and those of the kind shown staged for the list; then the next turn of the event loop,
        so the window never stalls a frame. The kind's rows join the list together, once."""
        kind = self.current_kind()
        if self.index.pending:
            piece: list[Part] = []
            deadline = time.perf_counter() + self.PENDING_BUDGET_S
            while self.index.pending and time.perf_counter() < deadline:  # a few parts at a time, up to the budget
                piece += self.index.load_pending_piece(PENDING_STEP)
            mine = [p for p in piece if p.KIND == kind]
            if any(p.id in self._shown_ids for p in mine):
                # a row already shown was replaced (your own part of the same id): list it again
                self.model.set_parts(self.index.loaded_of_kind(kind), kind)
                self._update_count()
            elif mine:
                self.model.stage_parts(mine)  # the kind's rows come together (sorted by kind): added once
            self._shown_ids.update(p.id for p in mine)
            if self.model.staged and not mine:
                self.model.add_staged()
                self._update_count()
            if self.index.pending:
                QTimer.singleShot(0, self, self._load_pending)  # dropped if the panel goes first
                return
        self._pending_scheduled = False
        self.model.add_staged()
        # The rows may have come in another way (a part the build names loads them all on its
        # look-up): the list and its count ("N of M GPU parts") take them either way.
        if len(self.model.all_parts) != len(self.index.loaded_of_kind(kind)):
            self.model.set_parts(self.index.of_kind(kind), kind)
            self._filters_changed()
        else:
            self._update_count()

    def current_kind(self) -> str:
        return self.kind.currentData()

    PENDING_BUDGET_S = 0.004
    """How long one event-loop turn loads community rows (then input and painting get their turn)."""

    PENDING_DELAY_MS = 150
    """The imported community rows (thousands) join the list this long after the window first
    answers, instead of holding up its start (PartIndex.pending)."""

    def _kind_changed(self) -> None:
        kind = self.current_kind()
        self.gpu_filters.setVisible(kind == "gpu")
        if self.index.pending:
            self.model.set_parts(self.index.loaded_of_kind(kind), kind)
            self._shown_ids = {p.id for p in self.model.all_parts}
            if not getattr(self, "_pending_scheduled", False):
                self._pending_scheduled = True
                # counted from the event loop's first turn (the window answers), not from here
                QTimer.singleShot(0, self, lambda: QTimer.singleShot(self.PENDING_DELAY_MS, self, self._load_pending))
        else:
            self.model.set_parts(self.index.of_kind(kind), kind)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        # Fitted once per kind (not on every keystroke), and then the user's to change: the widest
        # of the header and the first 40 values, measured with the font (Qt's own fitting asks
        # every cell's style and cost 10 ms of start-up).
        fm = self.table.fontMetrics()
        rows = min(40, self.model.rowCount())
        for c in range(1, self.model.columnCount()):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            texts = [self.model.headerData(c, Qt.Orientation.Horizontal)] + [self.model.data(self.model.index(r, c)) or "" for r in range(rows)]
            self.table.setColumnWidth(c, max(fm.horizontalAdvance(t) for t in texts) + 18)
        self.table.fit_name_column()
        self._filters_changed()
        if self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(0, 0))

    def _filters_changed(self) -> None:
        cur = self.table.currentIndex()
        current_id = self.part_at(cur).id if cur.isValid() else None
        self.model.set_query(PartQuery(text=self.search.text().strip(), min_vram_gb=float(self.min_vram.value()),
                                       cooler=self.cooler.currentData() or "", max_slot_width=self.max_width.value(),
                                       max_length_mm=float(self.max_length.value()),
                                       max_price=float(self.max_price.value())))
        self._update_count()
        if current_id is None or not self.select_part(current_id):
            # The part shown left the list (a reset model emits no currentRowChanged): its details go too.
            self.details.clear()

    def _update_count(self) -> None:
        self.count.setText(_("{shown} of {total} {kind} parts", shown=self.model.rowCount(),
                             total=len(self.model.all_parts), kind=_(KIND_LABELS[self.current_kind()])))

    def part_at(self, index) -> Part:
        return self.model.parts[index.row()]

    def _request_price(self) -> None:
        cur = self.table.currentIndex()
        if cur.isValid():
            self.priceRequested.emit(self.part_at(cur).id)

    def refresh_details(self) -> None:
        """Show the current part's details and the Price column again (its prices changed)."""
        self._show_details(self.table.currentIndex())
        self.table.viewport().update()

    def _show_details(self, current, _previous=None) -> None:
        self.price_button.setEnabled(current.isValid())
        if not current.isValid():
            self.details.clear()
            return
        from rigbuilder.ui.pricing import prices_html

        p = self.part_at(current)
        self.details.setHtml(part_details_html(p) + prices_html(p, self.index))

    def select_part(self, part_id: str) -> bool:
        row = next((r for r, p in enumerate(self.model.parts) if p.id == part_id), None)
        if row is None:
            return False
        self.table.setCurrentIndex(self.model.index(row, 0))
        return True


def field_names(fields) -> str:
    """Catalog field names as the details pane names them ('VRAM (GB), length'), in the window's language."""
    return ", ".join(_(FIELD_LABELS[f]) if f in FIELD_LABELS else f for f in fields)


def trust_words(p: Part) -> str:
    """How far ``p``'s figures are confirmed, as a sentence in the window's language: the words of
    ``rigbuilder.domain.parts.trust_text`` with the field names as the details pane names them,
    capitalised."""
    fields = (field_names(p.unverified),) if p.unverified else ()
    text = render_ui(trust_text(p.origin, fields, p.community))
    return text[:1].upper() + text[1:]


def part_details_html(p: Part) -> str:
    esc = html.escape
    c = theme.colors()
    rows = []
    for name, _tp, _req in field_specs(type(p)):
        if name in ("id", "maker", "model", "source", "source_date", "unverified", "notes", "slots", "m2", "lane_rules"):
            continue
        v = getattr(p, name)
        if v is None or v == ():
            continue
        if isinstance(v, tuple):
            v = ", ".join(map(str, v))
        elif isinstance(v, bool):
            v = _("yes") if v else _("no")
        elif name == "price_note":  # the shipped rows' notes are declared translatable; others quoted
            v = render_ui(note_text(v))
        elif name == "segment":
            v = _(SEGMENT_WORDS.get(v, v))
        elif name == "cooler":
            v = _(COOLER_NAMES.get(v, v))
        unverified = esc(_("(unverified)"))
        mark = f" <span style='color:{c.warning}'>{unverified}</span>" if name in p.unverified else ""
        if name == "cooler" and getattr(p, "cooler_derived", None):
            derived = esc(_("(derived from the product line, not confirmed)"))
            mark = f" <span style='color:{c.warning}'>{derived}</span>"
        label = _(FIELD_LABELS[name]) if name in FIELD_LABELS else name.replace('_', ' ')
        if name.endswith("_mm") and isinstance(v, (int, float)):  # a length: in the unit chosen in Preferences
            v = units.length(v)
        rows.append(f"<tr><td style='color:{c.muted};padding-right:8px'>{esc(label)}</td><td>{esc(str(v))}{mark}</td></tr>")
    slots = getattr(p, "slots", None)
    extra = ""
    if slots:
        extra = ("<p><b>" + esc(_("PCIe slots")) + "</b> "
                 + esc(_("(position: id, physical/electrical, gen, source; who confirmed it)")) + "<br>"
                 + esc(render_ui(board_slot_flags(p))) + "<br>" + "<br>".join(
                     esc(f"{s.position}: {s.id} x{s.physical}/x{s.lanes} Gen{s.gen} {_(SOURCE_NAMES.get(s.source, s.source))}") + _slot_source_html(s)
                     for s in sorted(slots, key=lambda s: s.position)) + "</p>")
    warn = ""
    if p.origin == "user":
        warn = (f"<p style='color:{c.warning}'><b>⚠ " + esc(_("Your own figures:")) + "</b> "
                + esc(_("this part was added by you; no published source has confirmed them.")) + "</p>")
    if p.community:
        warn += ("<p style='color:#b26a00'><b>⚠ " + esc(_("Community data:")) + "</b> "
                 + esc(_("imported from {database}, a community-maintained database; its figures are not checked "
                         "against the maker.", database=COMMUNITY_SOURCE)) + "</p>")
    if p.unverified:
        warn += (f"<p style='color:{c.warning}'><b>⚠ " + esc(_("Unverified:")) + "</b> "
                 + esc(_("{fields} could not be confirmed from a published source.", fields=field_names(p.unverified)))
                 + "</p>")
    notes = f"<p><i>{esc(p.notes)}</i></p>" if p.notes else ""
    source = _("Source ({date}): {source}", date=Day(p.source_date), source=quoted(p.source))
    own = " · " + _("your own part") if p.origin == "user" else ""
    return (f"<h3>{esc(p.name)}</h3>{warn}<table>{''.join(rows)}</table>{extra}{notes}"
            f"<p style='color:{c.muted};font-size:small'>{esc(source)}<br>id: {esc(p.id)}{esc(own)}</p>")


def _slot_source_html(slot) -> str:
    """The slot's two flags with their sources: its row (size, width, lane source) and its
    position, each confirmed by a named document or marked unconfirmed in amber."""
    muted, warn = theme.colors().muted, theme.colors().warning
    out = ""
    for ok, words in ((slot.table_confirmed, slot_table_words(slot)), (slot.position_confirmed, slot_position_words(slot))):
        color = muted if ok else warn
        out += f"<br><span style='color:{color};font-size:small'>&nbsp;&nbsp;{html.escape(render_ui(words))}</span>"
    return out
