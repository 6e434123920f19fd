"""The cluster view (a .rigcluster opened from the window) and the lab-database preferences."""
from __future__ import annotations

from rigbuilder.config import DictStore, Preferences
from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.files import buildfile, clusterfile
from tests.builds import CONNECTX3_40G, seed003_node


def _plan(tmp_path, kind="roce"):
    buildfile.save(seed003_node("gpu-nvidia-quadro-rtx-5000", 4), tmp_path / "node.rig")
    buildfile.save(seed003_node("gpu-nvidia-quadro-rtx-5000", 4), tmp_path / "big.rig")
    plan = ClusterPlan("seed 003", (Machine("node", "node.rig", 2, (NicPlacement(CONNECTX3_40G, "PCIE5"),)),),
                       Network("switch", kind), circuits=2, compare_with="big.rig")
    clusterfile.save(plan, tmp_path / "lab.rigcluster")
    return tmp_path / "lab.rigcluster"


def test_cluster_view_lists_machines_draws_the_network_and_opens_a_machine(make_window, tmp_path, qtbot):
    win = make_window()
    view = win.tools.open_cluster(str(_plan(tmp_path)))
    qtbot.addWidget(view)
    assert view.table.rowCount() == 2 and view.table.item(0, 8).text() == "yes"
    assert view.headline.text() == "40 Gbit/s with GPUDirect RDMA: 2 machines give 1.56x one"
    assert len(view.scene.boxes) == 2
    assert "One bigger machine (Seed 003: cluster node)" in view.summary.text()
    assert any("slower than inside it" in view.findings.item(i).text() for i in range(view.findings.count()))
    view.table.cellDoubleClicked.emit(1, 0)
    assert win.doc.path == tmp_path / "node.rig" and len(win.doc.build.gpus) == 2


def test_a_broken_cluster_file_is_a_message(make_window, tmp_path):
    win = make_window()
    (tmp_path / "bad.rigcluster").write_text('{"format": "rigbuilder-cluster", "format_version": 1, "machines": []}')
    assert win.tools.open_cluster(str(tmp_path / "bad.rigcluster")) is None
    assert "must name at least one machine" in win.dialogs.errors[-1][1]


def test_lab_tab_refuses_to_store_a_password_and_tests_the_connection(qtbot, tmp_path, monkeypatch):
    from rigbuilder.catalog import labdb
    from rigbuilder.ui.lab_prefs import LabTab

    monkeypatch.setattr(labdb, "keyring_available", lambda: False)
    prefs = Preferences.open(DictStore())
    tab = LabTab(prefs, tmp_path / "lab.pgpass")
    qtbot.addWidget(tab)
    tab.url.setText("postgresql://me:secret@server/lab")
    assert tab.values()["lab/database_url"] == ""  # never stored with its password
    tab.url.setText("postgresql://me@server/lab")
    tab.password.setText("secret")
    tab.keep_password()
    assert "secret" in (tmp_path / "lab.pgpass").read_text() and tab.password.text() == ""
    assert tab.values()["lab/database_url"] == "postgresql+psycopg://me@server/lab"
    tab.url.setText(f"sqlite:///{tmp_path / 'lab.sqlite'}")
    tab.test_connection()
    assert tab.status.text().startswith("Connected to sqlite:///") and "0 builds" in tab.status.text()


def test_keep_password_in_the_window_never_writes_through_a_link(qtbot, tmp_path, monkeypatch, capsys):
    """Keep Password appended the password to the file lab.pgpass linked to and changed its mode."""
    import os
    import stat

    from rigbuilder.catalog import labdb
    from rigbuilder.cli import main
    from rigbuilder.ui.lab_prefs import LabTab

    monkeypatch.setattr(labdb, "keyring_available", lambda: False)
    other = tmp_path / "notes.txt"
    other.write_text("notes\n")
    os.chmod(other, 0o644)
    (tmp_path / "lab.pgpass").symlink_to(other)
    tab = LabTab(Preferences.open(DictStore()), tmp_path / "lab.pgpass")
    qtbot.addWidget(tab)
    tab.url.setText("postgresql://me@server/lab")
    tab.password.setText("s3cret")
    tab.keep_password()
    assert "is a symbolic link or not a plain file" in tab.status.text()
    assert other.read_text() == "notes\n" and stat.S_IMODE(other.stat().st_mode) == 0o644
    # a malformed address: the same words as on the command line, and no part of the password
    tab.url.setText("postgresql://me:pw@PW3@127.0.0.1:notaport/lab")
    tab.test_connection()
    said = tab.status.text()
    assert main(["lab", "status", "--db", "postgresql://me:pw@PW3@127.0.0.1:notaport/lab"]) == 2
    assert said in capsys.readouterr().err and "PW3" not in said and "%40" in said


def test_cluster_view_has_no_text_outside_the_catalogs(make_window, tmp_path, qtbot):
    from rigbuilder.ui.i18n import ui_language_set
    from rigbuilder.domain.i18n import PSEUDO
    from PySide6.QtWidgets import QListWidget

    from tests.ui.i18n_walk import bare, raw_texts

    path = _plan(tmp_path, kind="ethernet")
    with ui_language_set(PSEUDO):
        win = make_window()
        view = win.tools.open_cluster(str(path))
        qtbot.addWidget(view)
        # the findings list is read item by item below (the walker reads views by their columns)
        assert raw_texts(view, skip=lambda w: isinstance(w, QListWidget)) == []
        items = [view.findings.item(i).text() for i in range(view.findings.count())]
        assert items and [t for t in items if bare(t[2:])] == []
        # the drawing: everything but the machines' names and cards (data) is in the catalogs
        from PySide6.QtWidgets import QGraphicsTextItem
        texts = [i.toPlainText() for i in view.scene.items() if isinstance(i, QGraphicsTextItem)]
        assert [t for t in texts if "node" not in t and bare(t)] == []


def test_the_lab_database_preference_feeds_the_cluster_view(make_window, tmp_path, qtbot):
    from rigbuilder.catalog.labdb import LabDb

    path = _plan(tmp_path)
    lab = tmp_path / "lab.sqlite"
    db = LabDb.open(str(lab))
    db.add_stock([("gpu-nvidia-quadro-rtx-5000", "rack 1", 2)])
    db.set_price(CONNECTX3_40G, "new", 45.0, "USD", version=None)
    db.close()
    win = make_window()
    win.prefs.set("lab/database_url", str(lab))
    view = win.tools.open_cluster(str(path))
    qtbot.addWidget(view)
    text = view.summary.text()
    assert "From the lab's stock, at no cost: 2\u00d7 NVIDIA Quadro RTX 5000." in text
    assert "With the lab database sqlite:///" in text
    assert win.doc.index.prices.for_part(CONNECTX3_40G) == ()  # the window's own prices are left alone
    win.prefs.set("lab/database_url", "postgresql://nobody@127.0.0.1:1/none")
    view2 = win.tools.open_cluster(str(path))
    qtbot.addWidget(view2)
    assert "Lab database not used: cannot reach the lab database server 127.0.0.1:1" in view2.summary.text()


def test_a_lab_database_of_a_newer_rigbuilder_opens_the_plan_without_it(make_window, tmp_path, qtbot, capsys):
    """It raised alembic's CommandError out of the menu action, and the plan did not open."""
    from rigbuilder.cli import main
    from tests.labs import newer_lab

    path = _plan(tmp_path)
    lab = tmp_path / "lab.sqlite"
    newer_lab(str(lab))
    win = make_window()
    win.prefs.set("lab/database_url", str(lab))
    view = win.tools.open_cluster(str(path))
    qtbot.addWidget(view)
    said = "was set up by a newer rigbuilder (its tables are of version lab9999"
    assert f"Lab database not used: the lab database sqlite:///{lab} {said}" in view.summary.text()
    assert "update rigbuilder to use it" in view.summary.text()
    # the command line says the same, in the same words
    capsys.readouterr()
    assert main(["lab", "status", "--db", str(lab)]) == 2
    err = capsys.readouterr().err
    assert said in err and "update rigbuilder to use it" in err and "Traceback" not in err
