"""The window's panels that are made when first needed: the power and cost graphs (made once the
window is on screen, a piece each turn of the event loop) and the GPU adviser (made the first time
its tab is shown).

Each loader is given what it needs, not the window: the document, the place the panel goes (a
scroll area or a dock), and what the panel is connected to once made."""
from __future__ import annotations

import gc
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
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


class _PaintWatch(QObject):
    """Calls ``then`` after ``widget``'s next paint (its children paint in the same pass)."""

    def __init__(self, widget: QWidget, then: Callable[[], None]) -> None:
        super().__init__(widget)
        self.then = then
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if event.type() == QEvent.Type.Paint:
            obj.removeEventFilter(self)
            QTimer.singleShot(0, self, self.then)
        return False


class GraphsLoader:
    """The power and cost panel in ``place`` (a scroll area: eight GPUs' limit sliders must not push
    the window past the screen). ``connect(panel)`` wires the panel's signals once it is made;
    ``parent`` owns the timers.

    :meth:`start` makes it a piece each turn of the event loop, so that the window never waits for
    more than a few milliseconds (issues 31 and 36): the models and numpy it imports on a worker
    thread, then pyqtgraph a few modules a turn (``ui.graphs_import``), the graphs module, the
    panel's controls and charts a piece at a time, the build described and drawn, the panel put
    in its place and painted a chart a turn; ``painted`` is True once it has been on screen whole.
    :meth:`load` does what is left at once."""

    def __init__(self, doc: "BuildDocument", place: QScrollArea, parent: QObject, *,
                 connect: Callable[[Any], None]) -> None:
        self.doc = doc
        self.place = place
        self.parent = parent
        self.connect = connect
        self.panel = None  # the PowerCostPanel once made and in its place
        # It has been painted whole in its place (the benchmarks wait for it; stays False while its
        # tab is not on screen, or the charts are scrolled out of view, until they are painted).
        self.painted = False
        self._import: Optional[threading.Thread] = None
        self._steps: Optional[Iterator[None]] = None
        self._poll: Optional[QTimer] = None
        self._turns: Optional[QTimer] = None
        place.setWidget(_centred_label(_("Loading the power and cost graphs…"), wrap=False))

    def start(self) -> None:
        """Import the models on a thread, then make the panel in turns of the event loop.

        Only modules without Qt are imported off the GUI thread: a module that makes PySide6
        classes and signals when imported, imported on a second thread while the GUI thread
        runs Qt, crashed the app now and then."""
        if self.panel is not None or self._import is not None or self._steps is not None:
            return
        from rigbuilder.ui.graphs_import import import_pure_python  # the GUI thread's import says why one failed

        self._import = threading.Thread(target=import_pure_python, name="rigbuilder-graphs-import", daemon=True)
        self._import.start()
        self._poll = QTimer(self.parent)
        self._poll.setInterval(15)
        self._poll.timeout.connect(self._imported)
        self._poll.start()

    def _imported(self) -> None:
        if self._import is not None and self._import.is_alive():
            return
        self._poll.stop()
        # A timer's turn each piece (not a chain of zero-delay single shots, which Qt runs one after
        # the other in one pass of its event loop): input and paints go between them.
        self._turns = QTimer(self.parent)
        self._turns.setInterval(1)
        self._turns.timeout.connect(self._turn)
        self._turns.start()

    def _turn(self) -> None:
        """One piece, then the next in a later turn of the event loop."""
        if self._steps is None:
            self._steps = self._make()
        try:
            next(self._steps)
        except StopIteration:  # made and placed (or it failed): load() may have done the rest
            self._turns.stop()

    def _make(self) -> Iterator[None]:
        """The panel, a piece a ``next`` (each a few milliseconds)."""
        if self._import is not None:
            self._import.join()  # at once when called after the thread (load() may come first)
        try:
            from rigbuilder.ui.graphs_import import pyqtgraph_steps

            yield from pyqtgraph_steps()  # pyqtgraph, a piece a turn
            # What pyqtgraph made lives as long as the program: kept out of the collector's full
            # passes (a full pass over it took 60-80 ms, in one turn), as start-up's objects are.
            gc.freeze()
            yield
            from rigbuilder.ui.graphs import PowerCostPanel
        except Exception as e:  # noqa: BLE001 - a broken install: say so where the graphs would be
            self.place.setWidget(_centred_label(_("The power and cost graphs could not be loaded:\n{error}\n\n"
                                                  "Reinstall rigbuilder; the checks and the command line still work.",
                                                  error=str(e))))
            return
        yield
        panel = PowerCostPanel(in_steps=True)
        yield from panel.steps()
        self.connect(panel)
        yield
        yield from panel.following(self.doc)  # it draws the build, then each change the document reports
        yield
        panel.ensurePolished()  # (styled here, not in the turns that lay it out)
        started = time.perf_counter()
        for child in panel.findChildren(QWidget):
            child.ensurePolished()
            if time.perf_counter() - started > 0.008:  # a few at a time
                yield
                started = time.perf_counter()
        yield
        self.panel = panel
        # painted whole once the part painted last has been: the power chart, at the top (the charts
        # are painted from the bottom up; the figures when the build is empty and the charts are hidden)
        _PaintWatch(panel.charts[0].viewport() if panel.plots.isVisibleTo(panel) else panel.figures.label,
                    self._first_paint)
        yield from panel.placed_in_steps(self.place)

    def _first_paint(self) -> None:
        self.painted = True

    def load(self):
        """Make the power and cost panel (once, what is left of it at once), which then follows
        the document; None when the graphs cannot be loaded (the panel's place says why)."""
        if self._steps is None:
            self._steps = self._make()
        for _step in self._steps:  # what is left (nothing once done)
            pass
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
