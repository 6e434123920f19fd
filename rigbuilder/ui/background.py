"""Work on a thread of its own behind a window (the optimiser's search, a price feed's fetch): the
thread's wiring and its end, written once for every dialog that runs one."""
from __future__ import annotations

from PySide6.QtCore import QObject, QThread


class _GcOnGuiThread:
    """While a search runs on its thread, Python's automatic garbage collection is off and the GUI
    thread collects every second instead: a collection that the search's thread happened to start
    freed Qt objects of the GUI thread there, and Qt aborted (seen in the test suite)."""

    running = 0
    timer = None
    was_enabled = True

    @classmethod
    def begin(cls) -> None:
        import gc

        from PySide6.QtCore import QTimer

        if cls.running == 0:
            cls.was_enabled = gc.isenabled()
            gc.disable()
            if cls.timer is None:
                cls.timer = QTimer()
                cls.timer.setInterval(1000)
                cls.timer.timeout.connect(lambda: gc.collect(0))
            cls.timer.start()
        cls.running += 1

    @classmethod
    def end(cls) -> None:
        import gc

        cls.running = max(0, cls.running - 1)
        if cls.running == 0:
            if cls.timer is not None:
                cls.timer.stop()
            if cls.was_enabled:
                gc.enable()


def start(owner, worker: QObject) -> None:
    """Run ``worker.run`` on a new thread, its ``progressed``, ``finished``, ``failed`` and ``cancelled``
    signals to ``owner``'s slots of those names (``_progressed`` ...), the thread's end to
    ``owner._thread_done``, which calls :func:`release`. The thread is no child of the window: closing
    the window mid-run must not destroy a running thread."""
    thread = QThread()
    worker.moveToThread(thread)
    thread.started.connect(worker.run)
    worker.progressed.connect(owner._progressed)
    worker.finished.connect(owner._finished)
    worker.failed.connect(owner._failed)
    worker.cancelled.connect(owner._cancelled)
    for sig in (worker.finished, worker.failed, worker.cancelled):
        sig.connect(thread.quit)
    thread.finished.connect(owner._thread_done)
    owner._thread, owner._worker = thread, worker
    _GcOnGuiThread.begin()
    thread.start()


def release(owner) -> None:
    """After the thread ended: collection back on the GUI thread's terms, thread and worker deleted."""
    _GcOnGuiThread.end()
    if owner._thread is not None:
        owner._thread.deleteLater()
    if owner._worker is not None:
        owner._worker.deleteLater()
    owner._thread = owner._worker = None
