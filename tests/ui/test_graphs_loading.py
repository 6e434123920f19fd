"""The power and cost panel on pyqtgraph (issue 36): one chart library, pyqtgraph imported a piece
a turn after the window is painted, the panel made and painted a piece a turn, its plot items made
once and given new data on each edit."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from rigbuilder.ui.graphs_import import import_in_steps
from tests.builds import RTX3090_FE, frank_2070, x99_4x3090

ROOT = Path(__file__).resolve().parents[2]


def _edit(doc, command) -> None:
    """An undoable edit of the document (``push`` once the document's ``apply`` is renamed, as on main)."""
    doc.push(command)


@pytest.fixture
def doc(qapp, index):
    from rigbuilder.ui.document import BuildDocument

    d = BuildDocument(index, x99_4x3090())
    yield d
    d.undo_stack.clear()


# --------------------------------------------------------------------------- a package in steps

@pytest.fixture
def package(tmp_path, monkeypatch):
    """A small package ``stepdemo``: its ``__init__`` defines a name, then imports submodules that
    read that name back from the package (as pyqtgraph's do)."""
    root = tmp_path / "stepdemo"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text(textwrap.dedent('''
        """demo"""
        ORDER = []
        def option():
            return "set"
        from .leaf import *
        from . import other as other_alias
        from .sub import deep
        ORDER.append("init")
        '''))
    (root / "leaf.py").write_text(textwrap.dedent('''
        from . import option
        from .helper import HELP
        from . import ORDER
        ORDER.append("leaf")
        LEAF = option() + HELP
        __all__ = ["LEAF"]
        '''))
    (root / "helper.py").write_text('from . import ORDER\nORDER.append("helper")\nHELP = "!"\n')
    (root / "other.py").write_text('from . import ORDER\nORDER.append("other")\n')
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "deep.py").write_text('from .. import ORDER\nORDER.append("deep")\nfrom ..leaf import LEAF\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "stepdemo"
    for name in [m for m in sys.modules if m == "stepdemo" or m.startswith("stepdemo.")]:
        del sys.modules[name]


def test_a_package_imported_in_steps_is_the_package_import_makes(package):
    steps = list(import_in_steps(package, step_s=0.0))  # a step after every statement and module
    mod = sys.modules[package]
    assert len(steps) >= 10
    assert mod.ORDER == ["helper", "leaf", "other", "deep", "init"]  # the order a plain import runs them
    assert mod.LEAF == "set!" and mod.other_alias is mod.other and mod.sub.deep.LEAF == "set!"
    assert "__builtins__" in mod.sub.__dict__
    names = sorted(vars(mod))
    for name in [m for m in sys.modules if m.startswith(package)]:
        del sys.modules[name]
    import importlib

    plain = importlib.import_module(package)
    assert sorted(vars(plain)) == names and plain.ORDER == ["helper", "leaf", "other", "deep", "init"]


def test_a_failing_statement_fails_the_import_and_leaves_no_half_module(package, tmp_path):
    init = tmp_path / "stepdemo" / "__init__.py"
    init.write_text(init.read_text() + "raise RuntimeError('broken install')\n")
    steps = import_in_steps(package, step_s=0.0)
    with pytest.raises(RuntimeError, match="broken install"):
        list(steps)
    assert package not in sys.modules


def test_pyqtgraph_in_steps_is_whole_and_a_name_asked_for_midway_finishes_it():
    """In a fresh interpreter: pyqtgraph made a piece a step, no step importing most of it; a
    caller that asks the half-made package for a name (the Adviser opened meanwhile) gets the
    rest imported at once, and the steps then have nothing left to do."""
    script = textwrap.dedent('''
        import sys
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from rigbuilder.ui import graphs_import as gi
        gi.import_pure_python()
        steps = gi.pyqtgraph_steps()
        seen = []
        while "pyqtgraph.graphicsItems" not in sys.modules:  # PySide6's classes first, then pyqtgraph
            next(steps)
            seen.append(sum(m.startswith("pyqtgraph") for m in sys.modules))
        for _ in range(10):
            next(steps)
            seen.append(sum(m.startswith("pyqtgraph") for m in sys.modules))
        import pyqtgraph as pg
        half = "PlotWidget" not in pg.__dict__
        widget = pg.PlotWidget  # finishes the import
        print(half, len(list(steps)), max(b - a for a, b in zip(seen, seen[1:])) < 40,
              "__getattr__" in pg.__dict__, widget.__name__, len(pg.graphicsItems.__dict__) > 20)
        ''')
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=180)
    assert r.stdout.split() == ["True", "0", "True", "False", "PlotWidget", "True"], r.stderr[-3000:]


# --------------------------------------------------------------------------- one chart library

def test_no_chart_is_drawn_by_hand_any_more():
    """pyqtgraph alone draws charts: no QPainter chart module, nothing imports one, and the
    modules that show charts do not paint with QPainter."""
    ui = ROOT / "rigbuilder" / "ui"
    assert not (ui / "charts.py").exists()
    for path in (ROOT / "rigbuilder").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module != "rigbuilder.ui.charts", path
                if path.name in ("graphs.py", "measured_view.py", "adviser_panel.py"):
                    assert "QPainter" not in {a.name for a in node.names}, path
            elif isinstance(node, ast.Import):
                assert "rigbuilder.ui.charts" not in {a.name for a in node.names}, path


def test_the_panels_charts_are_pyqtgraph_plots(qtbot, index):
    import pyqtgraph as pg

    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel()
    qtbot.addWidget(p)
    assert all(isinstance(view, pg.GraphicsLayoutWidget) for view in p.charts) and len(p.charts) == 3
    assert all(isinstance(plot, pg.PlotItem) for plot in (p.power_plot, p.eff_plot, p.cost_plot))


# --------------------------------------------------------------------------- made once, setData after

def test_an_edit_gives_the_same_items_new_data(qtbot, index, monkeypatch):
    """A build edit calls setData/setOpts on the items made once, with the description's values."""
    from rigbuilder.domain.edits import ChangeSettings, SetPowerLimit
    from rigbuilder.ui.document import BuildDocument
    from rigbuilder.models.plots import KINDS
    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel()
    qtbot.addWidget(p)
    p.resize(1100, 900)
    doc = BuildDocument(index, x99_4x3090(limit_w=None, gpu=RTX3090_FE), p)
    p.follow(doc)
    items = (p.stack, p.wall_marks, p.cost_curve, p.eff_curve, p.rent_curve)
    calls: dict[str, list] = {}
    for name in ("stack", "wall_marks", "cost_curve"):
        item = getattr(p, name)
        real = item.setOpts if name == "stack" else item.setData
        monkeypatch.setattr(item, "setOpts" if name == "stack" else "setData",
                            lambda *a, _real=real, _n=name, **k: (calls.setdefault(_n, []).append((a, k)), _real(*a, **k)))
    _edit(doc, SetPowerLimit(index=0, watts=250.0))
    assert (p.stack, p.wall_marks, p.cost_curve, p.eff_curve, p.rent_curve) == items  # the same items
    d = p.description
    heights = calls["stack"][-1][1]["height"]
    assert heights == [h for b in d.power.bars for h in b.heights]
    g = 3 * KINDS.index("gpu")
    assert list(p.stack.opts["height"][g:g + 3]) == [60, 1300, 1300]  # the GPUs' bars: 4 x 15 W idle, 3 x 350 + 250 W
    assert [b.kind for b in d.power.bars] == list(KINDS)
    xs, ys = p.wall_marks.getData()
    assert list(ys) == list(d.power.wall) and list(xs) == [0, 1, 2]
    cx, cy = p.cost_curve.getData()
    assert list(cx) == list(d.cost.own.xs) and list(cy) == list(d.cost.own.ys) and calls["cost_curve"]
    rating = next(line for line in d.power.lines if line.key == "rating")
    assert p.rating_line.value() == rating.watts and p.rating_line.isVisible() == rating.shown
    # a setting the power plot does not show leaves its bars alone
    n = len(calls["stack"])
    _edit(doc, ChangeSettings.of(price_per_kwh=0.5))
    assert len(calls["stack"]) == n and len(calls["cost_curve"]) >= 2
    assert list(p.cost_curve.getData()[1]) == list(p.description.cost.own.ys)
    doc.undo_stack.clear()


# --------------------------------------------------------------------------- made and painted in turns

def test_the_panel_is_made_a_piece_at_a_time(qtbot, index):
    """The loader's panel: made in many short steps, each leaving the event loop free."""
    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel(in_steps=True)
    qtbot.addWidget(p)
    assert not hasattr(p, "plots")  # nothing of the charts yet
    steps = sum(1 for _step in p.steps())
    assert steps >= 8 and p.plots is not None and p.cost_plot is not None
    p.show_build(x99_4x3090(280), index)
    assert list(p.bar_heights["gpu"]) == [60, 1120, 1120]


def test_an_edit_between_two_steps_is_drawn_whole(qtbot, index):
    """A document change that comes while the panel is drawn a piece a turn: drawn at once, all
    of it, and the drawing under way stops (it would draw an older build)."""
    from rigbuilder.domain.edits import SetPowerLimit
    from rigbuilder.ui.document import BuildDocument
    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel()
    qtbot.addWidget(p)
    doc = BuildDocument(index, x99_4x3090(limit_w=None, gpu=RTX3090_FE), p)
    steps = p.following(doc)
    next(steps)  # described, nothing drawn yet
    next(steps)  # the controls drawn, not the charts
    _edit(doc, SetPowerLimit(index=0, watts=250.0))
    assert list(p.bar_heights["gpu"]) == [60, 1300, 1300]
    from rigbuilder.models.plots import KINDS

    g = 3 * KINDS.index("gpu")  # the GPUs' bars
    assert list(p.stack.opts["height"][g:g + 3]) == [60, 1300, 1300]  # the charts show the edit
    assert list(steps) == []  # the older drawing stopped
    assert list(p.stack.opts["height"][g:g + 3]) == [60, 1300, 1300] and p.limit_rows[0].slider.value() == 250
    doc.undo_stack.clear()


def test_the_loader_paints_the_panel_in_turns(doc, qtbot):
    """Started as the window starts it: the panel made over many turns of the event loop, then
    put in its place and painted; ``load()`` meanwhile finishes it at once."""
    from PySide6.QtCore import QObject

    from rigbuilder.ui.panel_loader import GraphsLoader, scroll_area

    owner = QObject()
    place = scroll_area()
    qtbot.addWidget(place)
    place.resize(420, 800)
    place.show()
    loader = GraphsLoader(doc, place, owner, connect=lambda panel: None)
    turns = []
    real = loader._turn
    loader._turn = lambda: (turns.append(1), real())
    loader.start()
    qtbot.waitUntil(lambda: loader.painted, timeout=30000)
    assert loader.panel is not None and place.widget() is loader.panel
    assert len(turns) >= 10  # a piece a turn
    assert loader.load() is loader.panel

    doc.replace(frank_2070(2), None)  # and it follows the document
    assert len(loader.panel.description.controls.limits) == 2


def test_load_finishes_what_the_turns_began(doc, qtbot):
    from PySide6.QtCore import QObject

    from rigbuilder.ui.panel_loader import GraphsLoader, scroll_area

    place = scroll_area()
    qtbot.addWidget(place)
    loader = GraphsLoader(doc, place, QObject(), connect=lambda panel: None)
    loader._steps = loader._make()
    for _ in range(4):
        next(loader._steps)  # a few pieces, as the first turns make them
    panel = loader.load()
    assert panel is not None and place.widget() is panel
    assert panel.figures.updatesEnabled() and all(c.updatesEnabled() for c in panel.charts)  # nothing half shown
    QApplication.processEvents()


def test_a_chart_exports_as_a_png(qtbot, index, tmp_path, monkeypatch):
    """Right-click > Export… writes the chart as a PNG where the user says."""
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QFileDialog

    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel()
    qtbot.addWidget(p)
    p.resize(420, 1300)
    p.show_build(x99_4x3090(280), index)
    out = tmp_path / "power"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "PNG (*.png)"))
    cost_view = p.charts[2]
    (export,) = [a for a in cost_view.actions() if a.text() == "Export…"]
    export.trigger()
    img = QImage(str(out) + ".png")
    assert not img.isNull() and img.width() == cost_view.width()


def test_rent_tooltips_on_the_mark_the_line_and_the_legend(qtbot, index):
    """What the rent rests on shows on the break-even mark, the rent line, the verdict and the
    legend's rent entry (pyqtgraph items' tooltips)."""
    from rigbuilder.ui.graphs import PowerCostPanel

    p = PowerCostPanel()
    qtbot.addWidget(p)
    p.show_build(x99_4x3090(limit_w=None, gpu=RTX3090_FE), index)
    c = p.description.cost
    assert c is not None and c.rent is not None and c.rent_notes
    tips = {item.toolTip() for item in (p.rent_text, p.rent_mark, p.rent_curve, p.scenario_labels["rent"])}
    assert len(tips) == 1 and tips.pop().startswith("<p>")
    assert p.rent_curve.isVisible() and "rent" in p._scenarios_in_legend


def test_a_package_without_source_files_is_imported_whole():
    """A frozen application (the PyInstaller .deb) ships byte code only: the stepped import cannot
    read pyqtgraph's sources there, and pyqtgraph is imported whole instead of never (the .deb's
    smoke test found the graphs never loaded)."""
    import importlib.util
    import subprocess
    import sys
    import types

    from rigbuilder.ui.graphs_import import steppable

    assert steppable(importlib.util.find_spec("pyqtgraph"))
    frozen = types.SimpleNamespace(name="pyqtgraph", origin="pyqtgraph/__init__.pyc",
                                   loader=types.SimpleNamespace(get_source=lambda name: None))
    assert not steppable(frozen)
    code = ("import sys\nfrom rigbuilder.ui import graphs_import as g\ng.steppable = lambda spec: False\n"
            "for _ in g.pyqtgraph_steps(): pass\nimport pyqtgraph\nprint(hasattr(pyqtgraph, 'PlotWidget'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr[-2000:]
