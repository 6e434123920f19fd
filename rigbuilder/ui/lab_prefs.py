"""Preferences > Lab database: connect to a lab's shared database (rigbuilder.catalog.labdb).

The URL is stored without a password; a password typed here goes to the system keyring (when the
``keyring`` package works) or to a password file readable by the owner only, never to the
settings. "Test connection" opens the database and says who you are there and what it holds, or
why it cannot (no server, wrong password, no write rights)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from PySide6.QtWidgets import (QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget)

from rigbuilder.config import OPTIONS, Preferences
from rigbuilder.ui.i18n import _, render_ui


class LabTab(QWidget):
    def __init__(self, prefs: Preferences, default_passfile: Path,
                 opener: Optional[Callable[..., Any]] = None, parent=None) -> None:
        super().__init__(parent)
        from rigbuilder.catalog.labdb import LabDb

        self.prefs = prefs
        self.default_passfile = default_passfile
        self.opener = opener or LabDb.open
        self.url = QLineEdit()
        self.url.setObjectName("lab_url")
        url_opt, file_opt = OPTIONS["lab/database_url"], OPTIONS["lab/password_file"]
        self.url.setToolTip(_(url_opt.help))
        self.passfile = QLineEdit()
        self.passfile.setPlaceholderText(_("Default: {path}", path=str(default_passfile)))
        self.passfile.setToolTip(_(file_opt.help))
        self.password = QLineEdit()
        self.password.setObjectName("lab_password")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText(_("only to keep it in the keyring or the password file"))
        self.keep = QPushButton(_("Keep Password"))
        self.keep.clicked.connect(self.keep_password)
        self.test = QPushButton(_("Test Connection"))
        self.test.setObjectName("lab_test")
        self.test.clicked.connect(self.test_connection)
        self.status = QLabel(_("SQLite stays the default: without a lab database rigbuilder needs nothing else."))
        self.status.setObjectName("lab_status")
        self.status.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_(url_opt.label), self.url)
        form.addRow(_(file_opt.label), self.passfile)
        pw = QHBoxLayout()
        pw.addWidget(self.password, 1)
        pw.addWidget(self.keep)
        form.addRow(_("Password"), pw)
        note = QLabel(_("The lab's parts, the prices it paid, its builds, cluster plans and inventory are shared "
                        "by everyone with a role on its database. Passwords are never stored in the settings."))
        note.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.test)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addLayout(buttons)
        lay.addWidget(self.status)
        lay.addWidget(note)
        lay.addStretch(1)
        self.load()

    def load(self) -> None:
        self.url.setText(self.prefs.get("lab/database_url"))
        self.passfile.setText(self.prefs.get("lab/password_file"))

    def _passfile(self) -> Path:
        return Path(self.passfile.text().strip()).expanduser() if self.passfile.text().strip() else self.default_passfile

    def keep_password(self) -> None:
        from rigbuilder.catalog.labdb import LabDbError, parse_url, store_password

        try:
            url, _in_url = parse_url(self.url.text())
        except LabDbError as e:
            self.status.setText(render_ui(e.args[0] if e.args else str(e)))
            return
        if not self.password.text():
            self.status.setText(_("Type the password first."))
            return
        try:
            where = store_password(url, self.password.text(), self._passfile())
        except LabDbError as e:  # a link or no room: said, and the password stays typed for another try
            self.status.setText(render_ui(e.args[0] if e.args else str(e)))
            return
        self.password.clear()
        if where == "keyring":
            self.status.setText(_("The password is in the system keyring."))
        else:
            self.passfile.setText(where)
            self.status.setText(_("The password is in {file} (readable by you only).", file=where))

    def test_connection(self) -> None:
        from rigbuilder.catalog.labdb import LabDbError

        text = self.url.text().strip()
        if not text:
            self.status.setText(_("No lab database: builds, prices and parts stay in your own files."))
            return
        try:
            db = self.opener(text, passfile=self._passfile(), password=self.password.text() or None)
        except LabDbError as e:
            self.status.setText(render_ui(e.args[0] if e.args else str(e)))
            return
        try:
            self.status.setText(_("Connected to {db} as {user}: {builds} builds, {clusters} cluster plans, {prices} "
                                  "prices, {stock} inventory rows.", db=db.url.display, user=db.user,
                                  builds=len(db.builds()), clusters=len(db.clusters()), prices=len(db.prices()),
                                  stock=len(db.inventory())))
        except LabDbError as e:
            self.status.setText(render_ui(e.args[0] if e.args else str(e)))
        finally:
            db.close()

    def values(self) -> dict[str, Any]:
        from rigbuilder.catalog.labdb import LabDbError, stored_url

        text = self.url.text().strip()
        try:
            url = stored_url(text) if text else ""
        except LabDbError:
            url = ""  # never store a password: the dialog's test says why
        return {"lab/database_url": url, "lab/password_file": self.passfile.text().strip()}
