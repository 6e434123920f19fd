"""The desktop app's door: show a window quickly, then load the catalog.

``RIGBUILDER_SMOKE_EXIT_MS=N`` quits N ms after the main window is shown, or as soon after as the
power and cost graphs have loaded: exit code 0, or 3 if they did not load within 30 s more (used
by the package smoke tests).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional


def _platform_fallback() -> None:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


MAX_SETTINGS_BYTES = 1024 * 1024
"""The most a settings file may hold (a real one is a few KB)."""


def make_settings(paths, notices: Optional[list] = None):
    """The user's settings (``settings.ini`` in the data folder), read as every data-folder file
    is: QSettings writes through a link, so a link is followed only onto the user's own regular
    file inside the data folder; a link elsewhere, a device, a pipe, a folder or an oversized
    file is never opened: the window starts with default settings kept in a private temporary
    file for this run only, and ``notices`` says why."""
    import tempfile

    from PySide6.QtCore import QSettings

    from rigbuilder.domain.i18n import T
    from rigbuilder.domain.safeio import UnsafeTarget, data_file_target

    paths.data_dir.mkdir(parents=True, exist_ok=True)
    path = paths.data_dir / "settings.ini"
    try:
        real = data_file_target(path, paths.data_dir)
        if real.exists() and real.stat().st_size > MAX_SETTINGS_BYTES:
            raise UnsafeTarget(T("is larger than {n} bytes", n=MAX_SETTINGS_BYTES))
    except (UnsafeTarget, OSError) as e:
        if notices is not None:
            notices.append(T("Your settings file {path} {reason}; it is left as it is, and this window starts with "
                             "the default settings and does not save them", path=str(path),
                             reason=e.args[0] if e.args else str(e)))
        import atexit
        import shutil

        private = tempfile.mkdtemp(prefix="rigbuilder-settings-")
        atexit.register(shutil.rmtree, private, True)
        return QSettings(str(Path(private) / "settings.ini"), QSettings.Format.IniFormat)
    settings = QSettings(str(real), QSettings.Format.IniFormat)
    settings.value("settings/version")  # reads the file: its status says whether it could be parsed
    if settings.status() == QSettings.Status.FormatError and notices is not None:
        notices.append(T("Your settings file {path} cannot be read as settings; the default settings are used",
                         path=str(path)))
    return settings


def install_qt_translations(lang: str) -> bool:
    """Qt's own texts (the OK / Cancel / Close buttons, the file and print dialogs) in ``lang``
    (``rigbuilder.ui.qt_language``); True when Qt's catalog was installed. Our texts come from our
    catalogs (``rigbuilder.ui.i18n``); these are Qt's."""
    from rigbuilder.ui.qt_language import install_qt_translations as install

    return install(lang)


def create_main_window(paths, path: Optional[str] = None, dialogs_factory=None, lang: Optional[str] = None):
    """Open the catalog and build the main window (the app and tests share this). ``lang`` (the
    command line's ``--lang``) wins over the language preference for this run."""
    from rigbuilder.catalog.pricebook import user_rates_path
    from rigbuilder.catalog.store import open_catalog
    from rigbuilder.ui.main_window import MainWindow

    from rigbuilder.config import Preferences
    from rigbuilder.ui.i18n import set_ui_language, ui_language

    notices: list = []
    settings = make_settings(paths, notices)
    # The window's language, for this run: set before the catalog opens, so that a catalog that
    # cannot be opened is reported in it too.
    prefs = Preferences.open(settings)
    notices += prefs.unusable()
    if lang:
        from rigbuilder.domain.i18n import choose_language

        set_ui_language(choose_language(lang))
    else:
        set_ui_language(prefs.language())
    install_qt_translations(ui_language())
    if ui_language() != "en":
        from PySide6.QtCore import QLocale

        QLocale.setDefault(QLocale(ui_language()))  # spin boxes write and read numbers as the language does
    catalog = open_catalog(paths, used_estimates=prefs.get("money/used_estimates"))
    win = MainWindow(catalog.index, settings, catalog=catalog, rates_path=user_rates_path(paths),
                     **({"dialogs_factory": dialogs_factory} if dialogs_factory is not None else {}))
    # What the user must know about their data folder: on stderr now, in the window once it shows.
    from rigbuilder.domain.i18n import render

    win.startup_notices = notices + list(catalog.notices)
    for note in win.startup_notices:
        if sys.stderr is not None:
            print(f"rigbuilder: {render(note, ui_language())}", file=sys.stderr)
    if path:
        win.open_path(path, ask=False)
    return win


def _skip_pyside_source_scan(modules) -> None:
    """PySide6 hooks every import statement: the first time one returns a module, the hook reads
    that module's source (``inspect.getsource``) to see whether it names PySide6, and so may switch
    on PySide6's ``__feature__`` options (rigbuilder never does). At start-up that read ~120
    modules, most of them imported before PySide6 and so never using it: 30-60 ms of every start.
    Those modules are entered in the hook's table as not using PySide6, which is what reading
    their source says too. The table is PySide6's own (``shibokensupport.feature``); a version
    without it is left alone."""
    table = getattr(sys.modules.get("shibokensupport.feature"), "pyside_feature_dict", None)
    if isinstance(table, dict):
        for name in modules:
            table.setdefault(name, -1)  # -1: "ignore this module" (a module without PySide6 in its source)


def start_app(path: Optional[str] = None, lang: Optional[str] = None):
    """Make the application and show the main window on ``path`` (or a new build); returns
    (app, window), or (app, None) after saying why the window could not be made. The app and
    the start-up benchmarks (benchmarks/bench_start.py, bench_ui.py) both start this way."""
    import gc

    _platform_fallback()
    # Start-up makes about a million objects and almost no garbage: the collector's passes over
    # them took 60-80 ms (7% of a start). It runs again once the window is shown, with what
    # start-up made frozen out of its full passes.
    collecting = gc.isenabled()
    gc.disable()
    from rigbuilder.codecache import dataclass_code_cached
    from rigbuilder.config import Paths

    paths = Paths.from_env()
    try:
        with dataclass_code_cached(paths.cache_dir):  # the dataclasses' methods, compiled once
            return _start_app(paths, path, lang)
    finally:
        if collecting:
            gc.enable()


def _start_app(paths, path: Optional[str], lang: Optional[str] = None):
    # The plain-Python core first, and marked for PySide6's import hook as not using it.
    import rigbuilder.catalog.store  # noqa: F401
    import rigbuilder.files.buildfile  # noqa: F401
    import rigbuilder.rules.engine  # noqa: F401
    from rigbuilder import __version__

    before = list(sys.modules)
    from PySide6.QtWidgets import QApplication, QMessageBox

    _skip_pyside_source_scan(before)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("rigbuilder")
    app.setApplicationVersion(__version__)
    app.setOrganizationName("rigbuilder")
    try:
        from PySide6.QtGui import QIcon

        from rigbuilder.catalog.loader import resources_dir
        icon = resources_dir() / "icons" / "rigbuilder.svg"
        if icon.exists():
            app.setWindowIcon(QIcon(str(icon)))
        win = create_main_window(paths, path, lang=lang)
    except (OSError, ValueError) as e:
        from rigbuilder.ui.i18n import _

        QMessageBox.critical(None, _("rigbuilder cannot start"),
                             _("The parts catalog could not be opened:\n{error}", error=str(e)))
        return app, None
    win.show()
    import atexit
    import weakref

    atexit.register(_delete_before_exit, weakref.ref(win))  # runs before PySide6's own clean-up
    import gc

    # What start-up made lives as long as the window: kept out of the collector's full passes,
    # which otherwise walk it all (40 ms, more than a frame) while the community rows load.
    gc.freeze()
    if win.startup_notices:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, win.show_notices)
    return app, win


def _delete_before_exit(window) -> None:
    """At the interpreter's exit, before PySide6's own clean-up (atexit calls run last-registered
    first): the main window deleted, and with it everything in it in Qt's order, while Python is
    whole. PySide6's clean-up deletes every object Python still holds in no particular order: a
    pyqtgraph item (a QGraphicsWidget) deleted after parts of its plot called back into Python
    for its layout, and Shiboken crashed printing the error that raised (in about one run in three
    that had loaded the graphs, after everything else had finished)."""
    import shiboken6

    win = window()
    if win is not None and shiboken6.isValid(win):
        shiboken6.delete(win)


SMOKE_GRAPHS_WAIT_S = 30
"""How long past ``RIGBUILDER_SMOKE_EXIT_MS`` the smoke test waits for the graphs to load."""


def run_app(path: Optional[str] = None, lang: Optional[str] = None) -> int:
    import faulthandler

    if sys.stderr is not None:
        faulthandler.enable()  # a crash in Qt's C++ prints the Python stacks of every thread, for a bug report
    app, win = start_app(path, lang)
    if win is None:
        return 2
    smoke = os.environ.get("RIGBUILDER_SMOKE_EXIT_MS")
    if smoke and smoke.isdigit():
        from PySide6.QtCore import QTimer

        import time

        # The graphs load after the window's first paint, a piece per event-loop turn: a slow or
        # busy machine is given up to SMOKE_GRAPHS_WAIT_S more for them before the test fails.
        give_up = time.monotonic() + int(smoke) / 1000 + SMOKE_GRAPHS_WAIT_S

        def smoke_exit() -> None:
            ok = win.graphs is not None
            if not ok and time.monotonic() < give_up:
                QTimer.singleShot(100, smoke_exit)
                return
            if not ok:
                print("rigbuilder: smoke test: the power and cost graphs did not load", file=sys.stderr)
            win.doc.undo_stack.setClean()
            win.close()
            app.exit(0 if ok else 3)
        QTimer.singleShot(int(smoke), smoke_exit)
    rc = app.exec()
    if win.isVisible():  # the event loop ended without the window closing (a signal, app.quit())
        win.settings.sync()
    # Tearing down Qt's and pyqtgraph's objects in the interpreter's own exit crashed now and then
    # after the window had closed (about one run in six to ten that had loaded the graphs). By now
    # everything the app keeps is written: the build only on Save, the user database on each change,
    # the settings on close (synced above otherwise). So leave without that teardown.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(rc)
