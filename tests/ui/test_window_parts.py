"""The window's small objects (issue 23), each built here without a MainWindow: a real document,
fake dialogs, a plain settings store and a list for the status bar are all they need."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rigbuilder
from rigbuilder.domain.build import Build
from rigbuilder.domain.edits import SetPowerLimit
from tests.builds import frank_2070, x99_4x3090
from tests.ui.conftest import FakeDialogs

UI = Path(rigbuilder.__file__).resolve().parent / "ui"
PARTS = ("dialogs", "file_session", "build_edits", "panel_loader", "part_imports", "tool_windows",
         "history_buttons", "money_actions", "report_actions", "list_import_dialog")


class Settings:
    """QSettings' value/setValue over a dict: the file session needs no more."""

    def __init__(self) -> None:
        self.values: dict = {}

    def value(self, key, default=None):
        return self.values.get(key, default)

    def setValue(self, key, value) -> None:  # noqa: N802 (Qt's name)
        self.values[key] = value


@pytest.fixture
def doc(qapp, index):
    from rigbuilder.ui.document import BuildDocument

    return BuildDocument(index, x99_4x3090())


@pytest.fixture
def status():
    return []


def _session(doc, status, settings=None):
    from rigbuilder.ui.file_session import FileSession

    return FileSession(doc, FakeDialogs(), settings or Settings(),
                       new_settings=lambda: Build().settings, status=lambda text, ms: status.append(text))


def test_the_parts_never_import_the_window_nor_reach_through_one():
    """Not main_window (at any depth of their imports), and no ``window.`` member paths."""
    for name in PARTS:
        tree = ast.parse((UI / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "rigbuilder.ui.main_window", name
                assert not (node.module == "rigbuilder.ui" and any(a.name == "main_window" for a in node.names)), name
            if isinstance(node, ast.Import):
                assert all(a.name != "rigbuilder.ui.main_window" for a in node.names), name
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert node.value.id not in ("window", "win", "main_window"), f"{name}: {node.value.id}.{node.attr}"
    from tests.test_imports import import_graph

    graph, seen, todo = import_graph(), set(), [f"rigbuilder.ui.{n}" for n in PARTS]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    assert "rigbuilder.ui.main_window" not in seen


def test_file_session_saves_and_opens_with_no_window(doc, status, tmp_path):
    files = _session(doc, status)
    doc.push(SetPowerLimit(0, 250.0))
    assert doc.dirty
    files.dialogs.next_save = str(tmp_path / "lab.rig")
    assert files.save()  # no path yet: Save As
    assert not doc.dirty and doc.path == tmp_path / "lab.rig"
    assert status == [f"Saved {tmp_path / 'lab.rig'}"]
    assert files.recent() == [str(tmp_path / "lab.rig")] and files.start_dir() == tmp_path
    saved = doc.build
    files.new_build()
    assert doc.build.gpus == [] and doc.path is None
    assert files.open_path(str(tmp_path / "lab.rig"))
    assert doc.build == saved and not doc.dirty


def test_file_session_asks_before_dropping_changes(doc, status, tmp_path):
    files = _session(doc, status)
    doc.push(SetPowerLimit(0, 250.0))
    files.dialogs.discard_answer = "cancel"
    before = doc.build
    files.new_build()
    assert doc.build == before and doc.dirty  # cancelled: nothing lost
    files.dialogs.discard_answer = "save"
    files.dialogs.next_save = None  # the save dialog cancelled: still nothing lost
    assert not files.maybe_save() and doc.build == before
    files.dialogs.discard_answer = "discard"
    files.new_build()
    assert doc.build.gpus == [] and not doc.dirty


def test_file_session_refusals_say_why_and_keep_the_build(doc, status, tmp_path):
    files = _session(doc, status)
    (tmp_path / "bad.rig").write_text("{not json", encoding="utf-8")
    before = doc.build
    assert not files.open_path(str(tmp_path / "bad.rig"))
    assert files.dialogs.errors[-1][0] == "Cannot open build" and doc.build == before
    assert not files.write(tmp_path / "missing-folder" / "x.rig")
    assert files.dialogs.errors[-1][0] == "Cannot save" and doc.path is None and status == []


def test_file_session_keeps_eight_recent_files_and_fills_a_menu(doc, status, tmp_path, qapp):
    from PySide6.QtWidgets import QMenu

    settings = Settings()
    files = _session(doc, status, settings)
    menu = QMenu()
    files.show_recent_in(menu)
    assert not menu.isEnabled()
    for i in range(10):
        files.add_recent(str(tmp_path / f"b{i}.rig"))
    files.add_recent(str(tmp_path / "b5.rig"))  # again: moves to the top, not listed twice
    assert files.recent()[0].endswith("b5.rig") and len(files.recent()) == 8
    assert settings.values["recent_files"] == files.recent()
    assert [a.text() for a in menu.actions()][:2] == ["b5.rig", "b9.rig"] and menu.isEnabled()


def test_build_edits_with_no_window(doc, status):
    from rigbuilder.ui.build_edits import BuildEdits

    refused = []
    edits = BuildEdits(doc, FakeDialogs(), status=lambda text, ms: status.append(text),
                       refused=lambda: refused.append(True))
    edits.dialogs.power_limit = 200
    edits.ask_power_limit(1)
    assert doc.build.gpus[1].power_limit_w == 200 and doc.undo_stack.count() == 1
    edits.ask_power_limit(None)
    assert status[-1] == "Select a GPU on the board first."
    assert not edits.do(SetPowerLimit(9, 200.0))  # no GPU 10: refused, said, controls reset
    assert status[-1].startswith("Not done:") and refused == [True]
    assert edits.remove_gpu(0) and len(doc.build.gpus) == 3
    edits.drop_part("no-such-part", None, False)
    assert edits.dialogs.errors[-1][0] == "Unknown part"
    edits.edit_settings({})  # nothing to change: the controls show the build again
    assert refused == [True, True]


def test_part_imports_without_a_user_database_say_so(doc, status, qapp):
    from PySide6.QtWidgets import QWidget

    from rigbuilder.ui.part_imports import PartImports

    parent = QWidget()
    imports = PartImports(doc, None, FakeDialogs(), parent, status=lambda text, ms: status.append(text),
                          start_dir=Path.home, maybe_save=lambda: True)
    imports.import_parts()
    assert imports.dialogs.errors == [("Import parts", "This window has no database for your own parts.")]


def test_tool_windows_open_a_cluster_plan_over_a_plain_parent(doc, qapp, tmp_path):
    from PySide6.QtWidgets import QWidget

    from rigbuilder.ui.tool_windows import ToolWindows

    class Prefs:
        def get(self, key):
            return ""

    bad = tmp_path / "bad.rigcluster"
    bad.write_text("{", encoding="utf-8")
    parent = QWidget()
    tools = ToolWindows(doc, parent, Prefs(), FakeDialogs(), do=doc.push, start_dir=lambda: tmp_path,
                        open_path=lambda p: True)
    assert tools.open_cluster(str(bad)) is None
    assert tools.dialogs.errors[-1][0] == "Cannot open cluster plan" and tools.cluster_views == []


def test_history_buttons_over_an_undo_stack(doc, qapp):
    from PySide6.QtCore import QObject
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QToolBar

    from rigbuilder.ui.history_buttons import HistoryButtons

    owner = QObject()
    history = HistoryButtons(doc.undo_stack, owner, QIcon(), QIcon())
    bar = QToolBar()
    history.add_to(bar)
    assert len(history.buttons) == 2 and not history.undo.isEnabled()
    doc.push(SetPowerLimit(0, 250.0))
    assert history.undo.isEnabled() and history.tooltip(history.undo).startswith("Undo ")
    assert history.tooltip(history.redo) == "Redo"
    history.undo.trigger()
    assert doc.undo_stack.count() == 1 and history.redo.isEnabled() and not history.undo.isEnabled()


def test_graphs_loader_fills_its_place_with_no_window(doc, qapp):
    from PySide6.QtCore import QObject

    from rigbuilder.ui.panel_loader import GraphsLoader, scroll_area

    connected = []
    loader = GraphsLoader(doc, scroll_area(), QObject(), connect=connected.append)
    assert "Loading" in loader.place.widget().text() and loader.panel is None
    loader.reset_controls()  # before it is made: nothing to reset, no error
    panel = loader.load()
    assert panel is not None and loader.place.widget() is panel and connected == [panel]
    assert loader.load() is panel  # made once
    doc.replace(frank_2070(2), None)  # the panel follows the document: the new build, without a window to ask
    assert panel.context is doc.context and len(panel.description.controls.limits) == 2
