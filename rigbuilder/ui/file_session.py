"""The window's file session: New, Open, Open Recent, Save, Save As, and the question about unsaved
changes before any of them (or closing) drops the open build.

Given what it needs, not the window: the document, the dialogs (which hold the parent widget),
the settings (where the recent files and the last folder are kept), what a new build's settings
are, and a status callback."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from rigbuilder.domain.build import Build, Settings
from rigbuilder.files.atomic import clean_stale
from rigbuilder.files.buildfile import BuildFileError, load, save
from rigbuilder.ui.i18n import _, n_
from rigbuilder.ui.report_actions import file_stem, shown_name

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from rigbuilder.ui.document import BuildDocument

MAX_RECENT = 8


class FileSession:
    """``settings``: anything with QSettings' ``value`` and ``setValue`` (keys ``recent_files`` and
    ``last_dir``); ``new_settings``: a new build's settings (the preferred region and currency);
    ``status``: a message for the status bar and how long it shows, in ms."""

    def __init__(self, doc: "BuildDocument", dialogs: Any, settings: Any, *, new_settings: Callable[[], Settings],
                 status: Callable[[str, int], None]) -> None:
        self.doc = doc
        self.dialogs = dialogs
        self.settings = settings
        self.new_settings = new_settings
        self.status = status
        self.recent_menu: Optional["QMenu"] = None  # File > Open Recent, once shown there

    # -- the build in the document --------------------------------------------------------
    def maybe_save(self) -> bool:
        """True when the open build may be dropped: saved, unchanged, or the user said Discard."""
        if not self.doc.dirty:
            return True
        answer = self.dialogs.confirm_discard(self.doc.path.name if self.doc.path else shown_name(self.doc.build.name))
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_build(self) -> None:
        if self.maybe_save():
            self.doc.replace(Build(settings=self.new_settings()), None)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.dialogs.open_path(str(self.start_dir()))
        if path:
            self.open_path(path, ask=False)

    def open_untitled(self, build: Build) -> bool:
        """Open ``build`` (a shipped example) without a file: Save asks where to keep it."""
        if not self.maybe_save():
            return False
        self.doc.replace(build, None)
        return True

    def open_path(self, path: str, ask: bool = True) -> bool:
        if ask and not self.maybe_save():
            return False
        try:
            build = load(Path(path))
        except BuildFileError as e:
            self.dialogs.error(_("Cannot open build"), str(e))
            return False
        self.doc.replace(build, Path(path))
        missing = self.doc.context.missing
        if missing:
            self.dialogs.error(_("Parts not in the catalog"),
                               n_("{path} names {n} part this catalog lacks: {parts}. It is kept in the "
                                  "file and shown as a finding; nothing else was lost.",
                                  "{path} names {n} parts this catalog lacks: {parts}. They are kept in the "
                                  "file and shown as findings; nothing else was lost.",
                                  len(missing), path=path, parts=", ".join(missing)))
        self.add_recent(path)
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self.write(self.doc.path)

    def save_as(self) -> bool:
        suggested = str(self.doc.path or self.start_dir() / f"{file_stem(shown_name(self.doc.build.name))}.rig")
        path = self.dialogs.save_path(suggested)
        return bool(path) and self.write(Path(path))

    def write(self, path: Path) -> bool:
        """Save the build to ``path``; a refusal says why and leaves the build open and unchanged."""
        try:
            save(self.doc.build, path)
        except BuildFileError as e:
            self.dialogs.error(_("Cannot save"), _("{error}. The build is still open and unchanged.", error=str(e)))
            return False
        except OSError as e:
            self.dialogs.error(_("Cannot save"), _("{path}: {error}. The build is still open; try another folder.",
                                                 path=str(path), error=str(e.strerror or e)))
            return False
        self.doc.set_path(path)
        self.settings.setValue("last_dir", str(path.parent))
        self.add_recent(str(path))
        self.status(_("Saved {path}", path=str(path)), 4000)
        return True

    def start_dir(self) -> Path:
        """Where file dialogs start: beside the open build, else where the user last saved or
        opened one, else the home folder (not the process's working directory)."""
        if self.doc.path is not None:
            return self.doc.path.parent
        last = self.settings.value("last_dir", "")
        if isinstance(last, str) and last and Path(last).is_dir():
            return Path(last)
        return Path.home()

    # -- recent files ---------------------------------------------------------------------
    def recent(self) -> list[str]:
        v = self.settings.value("recent_files", [])
        if isinstance(v, str):
            v = [v]
        return [str(x) for x in (v or [])]

    def add_recent(self, path: str) -> None:
        items = [p for p in self.recent() if p != path]
        self.settings.setValue("recent_files", [path] + items[: MAX_RECENT - 1])
        self.update_recent_menu()

    def show_recent_in(self, menu: "QMenu") -> None:
        """List the recent files in ``menu`` (File > Open Recent), now and after every save or open;
        and remove the temporaries a killed save of one of them left behind."""
        self.recent_menu = menu
        self.update_recent_menu()
        for p in self.recent():
            clean_stale(p)

    def update_recent_menu(self) -> None:
        if self.recent_menu is None:
            return
        self.recent_menu.clear()
        items = self.recent()
        for p in items:
            self.recent_menu.addAction(Path(p).name, lambda p=p: self.open_path(p)).setToolTip(p)
        self.recent_menu.setEnabled(bool(items))
