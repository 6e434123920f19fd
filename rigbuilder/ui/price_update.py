"""Tools > Update Prices…: a price feed from a file or an http(s) address, fetched off the GUI thread
(progress, Cancel), its rows previewed, and applied whole or not at all
(``rigbuilder.files.pricefeed`` decides; this is its window)."""
from __future__ import annotations

import html
from typing import Optional

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QProgressBar, QPushButton, QTextBrowser, QVBoxLayout, QWidget)

from rigbuilder.domain.catalog import PartIndex
from rigbuilder.ui.i18n import _, render_ui
from rigbuilder.ui import background


class _FeedWorker(QObject):
    progressed = Signal(int)  # bytes read
    finished = Signal(object)  # a FeedResult
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, source: str, index: PartIndex) -> None:
        super().__init__()
        self.source, self.index = source, index
        self.stop = False

    @Slot()
    def run(self) -> None:
        from rigbuilder.files.pricefeed import FeedCancelled, fetch, read_feed
        from rigbuilder.files.priceimport import PriceFileError

        try:
            data = fetch(self.source, cancelled=lambda: self.stop, progress=self.progressed.emit)
            if self.stop:
                raise FeedCancelled()
            res = read_feed(data, self.source, self.index, self.index.prices.rates)
        except FeedCancelled:
            self.cancelled.emit()
        except PriceFileError as e:
            self.failed.emit(render_ui(e.args[0]) if e.args else str(e))
        else:
            self.finished.emit(res)


class UpdatePricesDialog(QDialog):
    """The source, Fetch, a progress bar and Cancel while it arrives, the preview, then Apply (only
    when every row is good)."""

    def __init__(self, parent: Optional[QWidget], index: PartIndex, source: str = "", lab_url: str = "") -> None:
        super().__init__(parent)
        self.index = index
        self.setWindowTitle(_("Update Prices"))
        self.feed = None  # the FeedResult once read
        self._thread: Optional[QThread] = None
        self._worker: Optional[_FeedWorker] = None
        lay = QVBoxLayout(self)
        explain = QLabel(_("A price feed: a CSV or JSON file, or an http:// or https:// address, with the columns "
                           "part (or part_id or name), amount, currency, condition, date, source and market (where "
                           "the price was seen: US before sales tax, DE with VAT, ...). Every row is checked first; "
                           "the feed is applied as your prices only when every row is good."))
        explain.setWordWrap(True)
        lay.addWidget(explain)
        row = QHBoxLayout()
        self.source = QLineEdit(source)
        self.source.setPlaceholderText(_("https://… or a file"))
        self.source.setMaxLength(2000)
        browse = QPushButton(_("Browse…"))
        browse.setToolTip(_("Choose a price file"))
        browse.clicked.connect(self._browse)
        self.fetch_button = QPushButton(_("&Fetch"))
        self.fetch_button.setToolTip(_("Read the feed and check every row; nothing is stored yet"))
        self.fetch_button.clicked.connect(lambda: self.start(self.source.text().strip()))
        row.addWidget(self.source, 1)
        row.addWidget(browse)
        row.addWidget(self.fetch_button)
        lay.addLayout(row)
        prog = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # busy: a feed seldom says its length
        self.progress.setVisible(False)
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.setToolTip(_("Stop fetching the feed"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        prog.addWidget(self.progress, 1)
        prog.addWidget(self.cancel_button)
        lay.addLayout(prog)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.view = QTextBrowser()
        lay.addWidget(self.view, 1)
        self.share_box = QCheckBox(_("Also share the applied prices in the lab database"))
        self.share_box.setToolTip(_("Write the feed's prices into the lab database ({db}) too, all or none, so that "
                                    "the lab's plans use them", db=lab_url))
        self.share_box.setVisible(bool(lab_url))
        lay.addWidget(self.share_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.apply_button = buttons.addButton(_("Apply"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setToolTip(_("Store every price of the feed as your price (replacing yours in that "
                                       "condition)"))
        self.apply_button.setEnabled(False)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(900, 520)

    def _browse(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Price feed"), "", _("Price files (*.csv *.json);;All files (*)"))
        if path:
            self.source.setText(path)

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, source: str) -> None:
        if self.running or not source:
            return
        self.feed = None
        self.apply_button.setEnabled(False)
        self.fetch_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setVisible(True)
        self.status.setText(_("Fetching {source}…", source=source))
        self.view.clear()
        worker = _FeedWorker(source, self.index)
        background.start(self, worker)  # no collection on the fetch's thread (it would free GUI objects there)

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.stop = True
            self.status.setText(_("Cancelling…"))
            self.cancel_button.setEnabled(False)

    def wait(self, ms: int = 30000) -> None:
        if self._thread is not None:
            self._thread.wait(ms)

    @Slot(int)
    def _progressed(self, n: int) -> None:
        self.status.setText(_("Fetching: {kb:,.0f} KB read", kb=n / 1024))

    @Slot(object)
    def _finished(self, feed) -> None:
        self.feed = feed
        lines = feed.preview.lines()[:-1]
        rows = []
        for line in lines:
            text = html.escape(render_ui(line))
            rows.append(f"<li style='color:#a05a00'>{text}</li>" if ": not imported: " in line else f"<li>{text}</li>")
        self.view.setHtml(f"<ul>{''.join(rows)}</ul>")
        self.status.setText(render_ui(feed.verdict()))
        self.apply_button.setEnabled(feed.applicable)

    @Slot(str)
    def _failed(self, why: str) -> None:
        self.status.setText(_("Not read: {error}", error=why))

    @Slot()
    def _cancelled(self) -> None:
        self.status.setText(_("Cancelled: nothing applied"))

    @Slot()
    def _thread_done(self) -> None:
        background.release(self)
        self.fetch_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)

    def done(self, r: int) -> None:  # closing while it fetches: stop and wait for the thread
        if self._worker is not None:
            self._worker.stop = True
        self.wait(10000)
        super().done(r)


def ask_price_update(parent, index: PartIndex, lab_url: str = ""):
    """The dialog; the feed's prices to store when the user pressed Apply, else None. With a lab
    database configured (``lab_url``) the user may also share them there (``feed.share_in_lab``)."""
    dlg = UpdatePricesDialog(parent, index, lab_url=lab_url)
    if dlg.exec() != QDialog.DialogCode.Accepted or dlg.feed is None or not dlg.feed.applicable:
        return None
    dlg.feed.share_in_lab = bool(lab_url) and dlg.share_box.isChecked()
    return dlg.feed
