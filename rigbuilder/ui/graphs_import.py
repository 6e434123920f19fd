"""What the power and cost graphs import, brought in after the window is on screen without holding
its event loop for long (issues 31 and 36).

- On a worker thread, :func:`import_pure_python`: the models the graphs draw, numpy and the
  standard modules pyqtgraph takes in, none of which has Qt in it.
- On the GUI thread, :func:`pyqtgraph_steps`: PySide6's extra modules pyqtgraph loads (one a
  step), then pyqtgraph itself a few top-level statements a step (:func:`import_in_steps`).
  A module that makes PySide6 classes and signals when imported, imported on a second thread while
  the GUI thread ran Qt, crashed the app now and then: pyqtgraph is therefore never imported off
  the GUI thread.

While pyqtgraph is loaded in steps it sits half-made in ``sys.modules`` (as a package does while
its ``__init__`` runs). Anyone who asks it for a name it does not have yet (the Adviser opened
during those few hundred milliseconds, a test) gets the rest of it imported at once first: the
half-made package answers unknown names through a module ``__getattr__`` that finishes the import.
"""
from __future__ import annotations

import ast
import dis
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import time
import types
from typing import Iterator, Optional

PURE_PYTHON = (
    "rigbuilder.models.perf", "rigbuilder.models.renting", "rigbuilder.models.cost", "rigbuilder.models.power",
    "rigbuilder.models.plots", "rigbuilder.rules.context",
    # what pyqtgraph imports that has no Qt in it (numpy is most of it)
    "numpy", "xml.etree.ElementTree", "subprocess", "multiprocessing", "multiprocessing.connection", "pickle",
    "ctypes", "platform", "importlib.resources", "cProfile", "pydoc", "pkgutil", "socket", "mmap", "array",
    "contextvars", "colorama",
)
"""What the graphs import that has no Qt in it."""

QT_MODULES = ("PySide6.QtSvg", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtTest")
"""PySide6's modules pyqtgraph imports beyond those the window has (a step each on the GUI thread)."""

STEP_S = 0.012
"""About how long one step of :func:`import_in_steps` runs before it gives the event loop a turn."""


def import_pure_python() -> None:
    """On a worker thread: the graphs' imports that have no Qt in them. A module that cannot be
    imported is left for the GUI thread's import, which says why."""
    # The plots' arrays are a few dozen numbers: OpenBLAS worker threads only wake up and spin on
    # every call, taking a core from the window on a small machine. Set before numpy loads.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    for name in PURE_PYTHON:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - reported when the graphs are made
            pass


# --------------------------------------------------------------------------- a module in steps

def _imports_of(stmt: ast.stmt, package: Optional[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The modules a top-level ``import`` or ``from ... import`` statement names (absolute), each
    with the names taken from it."""
    if isinstance(stmt, ast.Import):
        return [(a.name, ()) for a in stmt.names]
    if isinstance(stmt, ast.ImportFrom):
        base = importlib.util.resolve_name("." * stmt.level + (stmt.module or ""), package) if stmt.level \
            else stmt.module
        return [(base, tuple(a.name for a in stmt.names))]
    return []


class _Stepper:
    """Imports modules of one package (``root``) a few top-level statements at a time."""

    def __init__(self, root: str, step_s: float) -> None:
        self.root = root
        self.step_s = step_s
        self.started = time.perf_counter()
        self.visiting: set[str] = set()

    def _pause(self) -> bool:
        """True when this step has run its time (the caller then yields, and starts the clock
        again when resumed)."""
        return time.perf_counter() - self.started >= self.step_s

    def _ours(self, name: str) -> bool:
        return name == self.root or name.startswith(self.root + ".")

    def module(self, name: str) -> Iterator[None]:
        """Import ``name`` (and first its parent packages) in steps: a package's ``__init__`` a
        statement at a time, a plain module at once after the modules of the package it imports
        at its top level (found in its byte code), as ``import name`` does otherwise."""
        if name in sys.modules or name in self.visiting:
            return
        parent, _dot, child = name.rpartition(".")
        if parent:
            yield from self.module(parent)
            if name in sys.modules:  # the parent's own statements imported it
                return
        spec = importlib.util.find_spec(name)
        if spec is None or not self._ours(name) or not spec.origin or not spec.origin.endswith(".py"):
            importlib.import_module(name)  # an extension, a namespace package, another package: at once
        elif spec.submodule_search_locations is None:
            self.visiting.add(name)
            try:
                for dep in self._needs(spec.loader.get_code(name), name, spec.parent):
                    yield from self.module(dep)
            finally:
                self.visiting.discard(name)
            if name not in sys.modules:  # (a module it imports may have imported it)
                importlib.import_module(name)
        else:
            yield from self._package(name, spec)
            return
        if self._pause():
            yield
            self.started = time.perf_counter()  # (the turns between steps are not this step's)

    def _needs(self, code, name: str, package: str) -> list[str]:
        """The modules of the package that ``code`` (a module's) imports at its top level, in order."""
        out: list[str] = []
        consts: list = []
        for ins in dis.get_instructions(code):
            if ins.opname == "LOAD_CONST":
                consts = (consts + [ins.argval])[-2:]
                continue
            if ins.opname == "IMPORT_NAME" and len(consts) == 2:
                level, fromlist = consts
                try:
                    base = importlib.util.resolve_name("." * level + ins.argval, package) if level else ins.argval
                except (ImportError, ValueError):
                    base = ""
                if self._ours(base) and base != name:
                    out.append(base)
                    for n in fromlist or ():
                        sub = f"{base}.{n}"
                        if n != "*" and self._is_module(sub):
                            out.append(sub)
            consts = []
        return out

    @staticmethod
    def _is_module(name: str) -> bool:
        base, _dot, child = name.rpartition(".")
        mod = sys.modules.get(base)
        if mod is not None and child in mod.__dict__:
            return isinstance(mod.__dict__[child], types.ModuleType)
        try:
            locations = getattr(mod, "__path__", None) if mod is not None else \
                importlib.util.find_spec(base).submodule_search_locations
        except (ImportError, AttributeError, ValueError):
            return False
        return bool(locations) and importlib.machinery.PathFinder.find_spec(name, locations) is not None

    def _package(self, name: str, spec) -> Iterator[None]:
        """A package's ``__init__``, a top-level statement at a time (its source compiled a
        statement each: the file is short)."""
        parent, _dot, child = name.rpartition(".")
        tree = ast.parse(spec.loader.get_source(name), spec.origin)
        if any(isinstance(st, ast.ImportFrom) and st.module == "__future__" for st in tree.body):
            importlib.import_module(name)  # (a future import holds for the whole file: not split)
            return
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec._initializing = True  # (as the import system marks a module whose code runs)
        try:
            exec(compile("", spec.origin, "exec"), module.__dict__)  # (its __builtins__, as an import gives)
            for stmt in tree.body:
                for base, names in _imports_of(stmt, name):
                    if self._ours(base):
                        yield from self.module(base)
                        for n in names:  # "from . import functions": a submodule, unless the package has the name
                            if n != "*" and self._is_module(f"{base}.{n}"):
                                yield from self.module(f"{base}.{n}")
                exec(compile(ast.Module(body=[stmt], type_ignores=[]), spec.origin, "exec"), module.__dict__)
                if self._pause():
                    yield
                    self.started = time.perf_counter()
        except BaseException:
            sys.modules.pop(name, None)  # as a failed import leaves it: not there
            raise
        finally:
            spec._initializing = False
        if parent:
            setattr(sys.modules[parent], child, module)


def steppable(spec) -> bool:
    """Whether a package can be imported in steps: its ``__init__`` is a source file the loader
    gives (a frozen application's archive, a zip or a byte-code-only install gives none, and is
    imported whole)."""
    try:
        source = spec.loader.get_source(spec.name) if spec.loader is not None else None
    except (ImportError, OSError, AttributeError):
        return False
    return source is not None and bool(spec.origin) and os.path.isfile(spec.origin)


def import_in_steps(name: str, step_s: float = STEP_S) -> Iterator[None]:
    """Import the package ``name`` a piece each ``next``: its source files' top-level statements in
    order, as ``import name`` runs them, a step ending once it has run ``step_s`` seconds (a
    statement that imports another module of the package first imports that one in steps). The
    result is the module ``import name`` makes; a statement that fails fails the import, and the
    module it was in is not left in ``sys.modules``."""
    yield from _Stepper(name.partition(".")[0], step_s).module(name)


# --------------------------------------------------------------------------- pyqtgraph

_steps: Optional[Iterator[None]] = None  # pyqtgraph's import under way, between two steps
_running = False  # a step is running


def _steps_of_pyqtgraph() -> Iterator[None]:
    for name in QT_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:  # pyqtgraph goes without it (QtOpenGL without libGL, say)
            pass
        yield
    # pyqtgraph copies every name of QtCore, QtGui and QtWidgets into its own modules, and PySide6
    # makes a class the first time it is asked for (about 1,000 classes: a third of a second):
    # asked for here a few at a time.
    started = time.perf_counter()
    for qt in ("PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets"):
        module = importlib.import_module(qt)
        for attr in dir(module):
            getattr(module, attr, None)
            if time.perf_counter() - started >= STEP_S:
                yield
                started = time.perf_counter()
    spec = importlib.util.find_spec("pyqtgraph")
    if spec is None:
        raise ImportError("No module named 'pyqtgraph'")
    if not steppable(spec):  # a frozen bundle (PyInstaller) ships byte code only: imported whole
        importlib.import_module("pyqtgraph")
        return
    inner = import_in_steps("pyqtgraph")
    first = True
    for _step in inner:
        if first:  # the package is half-made from here on: a name it lacks yet finishes it first
            first = False
            _finish_on_demand(sys.modules.get("pyqtgraph"))
        yield
    pg = sys.modules.get("pyqtgraph")
    if pg is not None and pg.__dict__.get("__getattr__") is _finishing_getattr:
        del pg.__dict__["__getattr__"]


def _finishing_getattr(attr: str):
    if attr.startswith("__") or _running:
        raise AttributeError(attr)
    pg = pyqtgraph()
    try:
        return pg.__dict__[attr]
    except KeyError:
        raise AttributeError(f"module 'pyqtgraph' has no attribute '{attr}'") from None


def _finish_on_demand(module) -> None:
    if module is not None and "__getattr__" not in module.__dict__:
        module.__dict__["__getattr__"] = _finishing_getattr


def pyqtgraph_steps() -> Iterator[None]:
    """pyqtgraph imported on the GUI thread a piece each ``next`` (nothing when it is imported
    already; a second caller shares the steps under way, and stops once someone finished them)."""
    global _steps, _running
    if _steps is None:
        if "pyqtgraph" in sys.modules:
            return
        _steps = _steps_of_pyqtgraph()
    while _steps is not None:
        _running = True
        try:
            next(_steps)
        except StopIteration:
            _steps = None
            return
        except BaseException:
            _steps = None
            raise
        finally:
            _running = False
        yield


def pyqtgraph():
    """pyqtgraph, imported whole (what is left of a stepped import at once)."""
    if _running:  # asked from inside a step (pyqtgraph's own code): it is what it is so far
        return sys.modules["pyqtgraph"]
    for _step in pyqtgraph_steps():
        pass
    return importlib.import_module("pyqtgraph")
