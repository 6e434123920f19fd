"""The window's panels that are made when first needed: the power and cost graphs (made once the
window is on screen, their imports spread over turns of the event loop) and the GPU adviser (made
the first time its tab is shown).

Each loader is given what it needs, not the window: the document, the place the panel goes (a
scroll area or a dock), and what the panel is connected to once made."""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable, Optional

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QFrame, QLabel, QScrollArea, QWidget

from rigbuilder.ui.i18n import _

if TYPE_CHECKING:
    from rigbuilder.ui.document import BuildDocument


def scroll_area(widget: Optional[QWidget] = None) -> QScrollArea:
    """A frameless vertical scroll area: a short screen scrolls the panel instead of growing the window."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    if widget is not None:
        scroll.setWidget(widget)
    return scroll


def _centred_label(text: str, wrap: bool = True) -> QLabel:
    label = QLabel(text)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(wrap)
    return label


class GraphsLoader:
    """The power and cost panel in ``place`` (a scroll area: eight GPUs' limit sliders must not push
    the window past the screen). ``connect(panel)`` wires the panel's signals once it is made;
    ``parent`` owns the timers."""

    def __init__(self, doc: "BuildDocument", place: QScrollArea, parent: QObject, *,
                 connect: Callable[[Any], None]) -> None:
        self.doc = doc
        self.place = place
        self.parent = parent
        self.connect = connect
        self.panel = None  # the PowerCostPanel once made
        self._import: Optional[threading.Thread] = None
        self._made = None  # made, not yet shown
        self._poll: Optional[QTimer] = None
        place.setWidget(_centred_label(_("Loading the power and cost graphs…"), wrap=False))

    def start(self) -> None:
        """Import numpy on a thread, then pyqtgraph and the panel on the GUI thread.

        Only modules without Qt (numpy and more: ``ui/graphs_import.py``) are imported off the GUI
        thread: pyqtgraph and the graphs module make PySide6 classes and signals when imported,
        and doing that on a second thread while the GUI thread runs Qt crashed the app now and
        then (a segfault about half a second after start in the packaged app, and in the window
        tests)."""
        if self.panel is not None or self._import is not None:
            return
        from rigbuilder.ui.graphs_import import import_pure_python  # load() imports again and says why

        self._import = threading.Thread(target=import_pure_python, name="rigbuilder-numpy-import", daemon=True)
        self._import.start()
        self._poll = QTimer(self.parent)
        self._poll.setInterval(15)
        self._poll.timeout.connect(self._imported)
        self._poll.start()

    def _imported(self) -> None:
        if self._import is not None and self._import.is_alive():
            return
        self._poll.stop()
        # Turns of the event loop, so the window waits for none long: the Qt types pyqtgraph asks
        # for (a few per turn), pyqtgraph (0.1-0.2 s), the panel (0.1-0.2 s), then it is shown
        # with the build and painted (about 35 ms).
        from rigbuilder.ui.graphs_import import make_qt_types

        make_qt_types(self.parent, then=self._import_pyqtgraph)

    def _import_pyqtgraph(self) -> None:
        try:
            import pyqtgraph  # noqa: F401
        except Exception:  # noqa: BLE001 - _make() says why
            pass
        QTimer.singleShot(0, self.parent, self._ready)

    def _ready(self) -> None:
        if self.panel is None:
            self._made = self._make()
            QTimer.singleShot(0, self.parent, self.load)

    def _make(self):
        if self._import is not None:
            self._import.join()  # at once when called from _imported
        try:
            from rigbuilder.ui.graphs import PowerCostPanel
        except Exception as e:  # noqa: BLE001 - a broken install: say so where the graphs would be
            return _centred_label(_("The power and cost graphs could not be loaded:\n{error}\n\n"
                                    "Reinstall rigbuilder; the checks and the command line still work.", error=str(e)))
        panel = PowerCostPanel()
        self.connect(panel)
        return panel

    def load(self):
        """Make the power and cost panel (once), which then follows the document; None when the
        graphs cannot be loaded (the panel's place says why)."""
        if self.panel is None:
            panel, self._made = self._made or self._make(), None
            self.place.setWidget(panel)
            if isinstance(panel, QLabel):
                return None
            self.panel = panel
            panel.follow(self.doc)  # it draws the build, then each change the document reports
        return self.panel

    def reset_controls(self) -> None:
        """The panel's controls show the build again (an edit they asked for was refused)."""
        if self.panel is not None:
            self.panel.reset_controls()


class AdviserLoader:
    """The GPU adviser (issue 17) in ``dock``, made the first time the dock is shown.
    ``drag_pixmap``: the card drawing a dragged row shows (the board's)."""

    def __init__(self, doc: "BuildDocument", dock: QDockWidget, *, drag_pixmap: Callable[..., Any]) -> None:
        self.doc = doc
        self.dock = dock
        self.drag_pixmap = drag_pixmap
        self.panel = None  # the AdviserPanel once made
        dock.setWidget(QLabel(_("Loading the GPU adviser…")))
        dock.visibilityChanged.connect(self._shown)

    def _shown(self, visible: bool) -> None:
        if visible:
            self.load()

    def load(self):
        """Make the Adviser panel (once) and show the open build in it."""
        if self.panel is None:
            try:
                from rigbuilder.ui.adviser_panel import AdviserPanel
            except Exception as e:  # noqa: BLE001 - a broken install: say so where the panel would be
                failed = QLabel(_("The GPU adviser could not be loaded:\n{error}", error=str(e)))
                failed.setWordWrap(True)
                self.dock.setWidget(failed)
                return None
            self.panel = AdviserPanel(self.doc.index, self.doc.build.settings)
            self.panel.drag_pixmap = self.drag_pixmap
            self.dock.setWidget(scroll_area(self.panel))
        self.panel.show_build(self.doc.build, self.doc.index)
        return self.panel

    def show_build(self) -> None:
        """The build again, when the panel is made and on screen (a judged edit)."""
        if self.panel is not None and self.dock.isVisible():
            self.panel.show_build(self.doc.build, self.doc.index)

    def workload(self):
        """The workload the Adviser shows, for the report's throughput line (None before it was opened)."""
        return self.panel.current_workload() if self.panel is not None else None
