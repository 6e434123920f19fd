"""File > New Cluster Plan: a cluster plan made in the window. Machines come from the open build, a
build file or an optimiser answer (:meth:`ClusterEditor.add_build`), each with a count; network cards
go into the slots of each machine's board (the slot list says, by the checks' own test
``rules.cluster.slot_taken``, which slots a GPU sits in or covers); the link, topology, circuits and
workload are chosen; the figures and findings (each with its fix) of :class:`ClusterView` follow every
edit. Every edit is one undoable step on a QUndoStack (the plan is immutable: a step swaps one plan
for the next). Saved as the ``.rigcluster`` the command line reads and writes; builds that exist only
in memory are saved beside it as ``.rig`` files; Save to Lab / Open from Lab use the lab database's
cluster plans (``LabDb.save_cluster``) where one is set in the preferences.

Nothing is decided here: the checks and figures are ``rules.cluster``'s."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDockWidget, QDoubleSpinBox, QFileDialog, QFormLayout,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel, QListWidget, QPushButton, QSpinBox,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from rigbuilder.domain.build import Build
from rigbuilder.domain.catalog import PartIndex
from rigbuilder.domain.cluster import LINK_KINDS, TOPOLOGIES, ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.domain.parts import NIC
from rigbuilder.rules.cluster import ClusterContext, slot_taken
from rigbuilder.ui.cluster_view import ClusterView, LabFigures
from rigbuilder.ui.i18n import N_, _, render_ui

LINK_LABELS = {"ethernet": N_("Ethernet (TCP, no RDMA)"), "roce": N_("Ethernet with RoCE (RDMA)"),
               "infiniband": N_("InfiniBand (RDMA)")}
TOPOLOGY_LABELS = {"switch": N_("through a switch"), "direct": N_("direct cables")}


class _PlanStep(QUndoCommand):
    """One edit of the plan: redo shows the plan after it, undo the plan before it."""

    def __init__(self, editor: "ClusterEditor", before: ClusterPlan, after: ClusterPlan, text: str) -> None:
        super().__init__(text)
        self.editor, self.before, self.after = editor, before, after

    def redo(self) -> None:
        self.editor._set_plan(self.after)

    def undo(self) -> None:
        self.editor._set_plan(self.before)


class ClusterEditor(ClusterView):
    """A cluster plan being made. ``current``: the open build (label, build); ``load``: a .rig path ->
    Build (raises ValueError naming what); ``ask_path(save, suggested)``: a file name ("" cancelled)."""

    def __init__(self, index: PartIndex, current: Callable[[], tuple[str, Build]], load: Callable[[str], Build],
                 open_build: Callable[[str], object], parent=None, *, plan: Optional[ClusterPlan] = None,
                 plan_path: Optional[Path] = None, builds: Optional[dict[str, Build]] = None,
                 lab: Optional[LabFigures] = None, lab_db: Callable[[], object] = lambda: None,
                 ask_path: Optional[Callable[[bool, str], str]] = None, error: Callable[[str, str], None] = None,
                 start_dir: str = "") -> None:
        self.index, self.current, self.load = index, current, load
        self.builds: dict[str, Build] = dict(builds or {})  # the machines' builds by their file text
        self.unsaved: set[str] = set()  # builds only in memory: saved beside the plan with it
        self.lab_db, self.start_dir = lab_db, start_dir
        self.ask_path = ask_path or self._file_dialog
        self.error = error or (lambda title, text: self.status.setText(text))
        plan = plan or ClusterPlan("", ())
        self.prices_index = index
        lab = lab or LabFigures()
        if lab.prices:
            import copy

            self.prices_index = copy.copy(index)
            self.prices_index.prices = index.prices.with_observations(lab.prices)
        super().__init__(plan, self._context(plan), plan_path, open_build, parent=parent, lab=lab)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.statusBar().addWidget(self.status, 1)
        self._make_panel()
        self._make_menus()
        self._fill_panel()
        self._title()

    # -- the plan's context -----------------------------------------------------------------------
    def _context(self, plan: ClusterPlan) -> ClusterContext:
        rows = []
        for m, k in plan.expanded():
            b = self.builds.get(m.build)
            if b is not None:
                rows.append((m.name if m.count == 1 else f"{m.name} #{k}", b, m.nics, m.name))
        return ClusterContext(plan, rows, self.prices_index)

    def _set_plan(self, plan: ClusterPlan) -> None:
        row = self.machines.currentRow() if hasattr(self, "machines") else -1
        self.show_plan(plan, self._context(plan))
        if hasattr(self, "machines"):
            self._fill_panel(row)

    def edit(self, after: ClusterPlan, text: str) -> bool:
        """Make ``after`` the plan as one undoable step named ``text``; False when nothing changes."""
        if after == self.plan:
            return False
        self.undo_stack.push(_PlanStep(self, self.plan, after, text))
        return True

    # -- the panel: machines, cards in slots, the link ------------------------------------------------
    def _make_panel(self) -> None:
        panel = QWidget()
        lay = QVBoxLayout(panel)
        box = QGroupBox(_("Machines"))
        bl = QVBoxLayout(box)
        self.machines = QListWidget()
        self.machines.setObjectName("cluster_editor_machines")
        self.machines.setToolTip(_("The kinds of machine in the plan; select one to place its network cards"))
        self.machines.currentRowChanged.connect(lambda _row: self._fill_slots())
        bl.addWidget(self.machines)
        row = QHBoxLayout()
        self.add_open = QPushButton(_("Add &Open Build"))
        self.add_open.setToolTip(_("Add the build open in the planner, as it is now"))
        self.add_open.clicked.connect(self.add_current)
        self.add_file = QPushButton(_("Add &File…"))
        self.add_file.setToolTip(_("Add a saved .rig build file"))
        self.add_file.clicked.connect(self._add_file)
        self.remove_machine = QPushButton(_("&Remove"))
        self.remove_machine.setToolTip(_("Remove the selected machine from the plan"))
        self.remove_machine.clicked.connect(self._remove_machine)
        for b in (self.add_open, self.add_file, self.remove_machine):
            row.addWidget(b)
        bl.addLayout(row)
        form = QFormLayout()
        self.count = QSpinBox()
        self.count.setRange(1, 256)
        self.count.setToolTip(_("How many copies of the selected machine"))
        self.count.valueChanged.connect(self._set_count)
        form.addRow(_("Copies:"), self.count)
        bl.addLayout(form)
        lay.addWidget(box)

        cards = QGroupBox(_("Network cards on the board"))
        cl = QVBoxLayout(cards)
        self.slots = QTableWidget(0, 3)
        self.slots.setObjectName("cluster_editor_slots")
        self.slots.setHorizontalHeaderLabels([_("Slot"), _("Lanes"), _("What is there")])
        self.slots.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.slots.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.slots.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.slots.verticalHeader().hide()
        self.slots.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.slots.horizontalHeader().setStretchLastSection(True)
        self.slots.setToolTip(_("The board's slots: double-click or press Enter to place the card chosen below, "
                                "Delete to remove a card"))
        self.slots.cellDoubleClicked.connect(lambda _r, _c: self.place_selected())
        cl.addWidget(self.slots)
        self.nic = QComboBox()
        self.nic.setObjectName("cluster_editor_nic")
        self.nic.setToolTip(_("The network card to place"))
        for part in sorted((p for p in self.index if isinstance(p, NIC)), key=lambda p: (-p.speed_gbps, p.name)):
            rdma = _(", RDMA") if part.rdma else ""
            self.nic.addItem(_("{name} ({speed:g} Gbit/s{rdma})", name=part.name, speed=part.speed_gbps, rdma=rdma),
                             part.id)
        self.ports = QSpinBox()
        self.ports.setRange(1, 8)
        self.ports.setToolTip(_("Ports of the card that are cabled"))
        form = QFormLayout()
        form.addRow(_("Card:"), self.nic)
        form.addRow(_("Ports cabled:"), self.ports)
        cl.addLayout(form)
        row = QHBoxLayout()
        self.place = QPushButton(_("&Place in Slot"))
        self.place.setToolTip(_("Put the card in the selected slot of every copy of this machine"))
        self.place.clicked.connect(self.place_selected)
        self.unplace = QPushButton(_("Remove &Card"))
        self.unplace.setToolTip(_("Take the card out of the selected slot"))
        self.unplace.clicked.connect(self.remove_selected_card)
        row.addWidget(self.place)
        row.addWidget(self.unplace)
        cl.addLayout(row)
        lay.addWidget(cards, 1)

        net = QGroupBox(_("Network and room"))
        nf = QFormLayout(net)
        self.link = QComboBox()
        self.link.setObjectName("cluster_editor_link")
        for k in LINK_KINDS:
            self.link.addItem(_(LINK_LABELS[k]), k)
        self.link.setToolTip(_("The link between the machines: RDMA needs RoCE or InfiniBand"))
        self.link.currentIndexChanged.connect(lambda _i: self._set_network(kind=self.link.currentData()))
        self.topology = QComboBox()
        for k in TOPOLOGIES:
            self.topology.addItem(_(TOPOLOGY_LABELS[k]), k)
        self.topology.currentIndexChanged.connect(lambda _i: self._set_network(topology=self.topology.currentData()))
        self.speed = QDoubleSpinBox()
        self.speed.setRange(0, 3200)
        self.speed.setDecimals(0)
        self.speed.setSuffix(_(" Gbit/s"))
        self.speed.setSpecialValueText(_("the cards' speed"))
        self.speed.setToolTip(_("The link speed per port; 0: the cards' own port speed"))
        self.speed.editingFinished.connect(lambda: self._set_network(speed_gbps=self.speed.value() or None))
        self.circuits = QSpinBox()
        self.circuits.setRange(1, 1000)
        self.circuits.setToolTip(_("The room's wall circuits that feed the machines"))
        self.circuits.valueChanged.connect(lambda n: self.edit(replace(self.plan, circuits=n), _("Circuits")))
        self.workload = QComboBox()
        from rigbuilder.models.workloads import WORKLOADS

        for wid, wl in WORKLOADS.items():
            self.workload.addItem(render_ui(wl.label), wid)
        self.workload.setToolTip(_("The workload the scaling is worked out for"))
        self.workload.currentIndexChanged.connect(
            lambda _i: self.edit(replace(self.plan, workload=self.workload.currentData()), _("Workload")))
        nf.addRow(_("Link:"), self.link)
        nf.addRow(_("Topology:"), self.topology)
        nf.addRow(_("Speed per port:"), self.speed)
        nf.addRow(_("Circuits:"), self.circuits)
        nf.addRow(_("Workload:"), self.workload)
        lay.addWidget(net)
        dock = QDockWidget(_("Plan"), self)
        dock.setObjectName("cluster_editor_panel")
        dock.setWidget(panel)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        self.resizeDocks([dock], [480], Qt.Orientation.Horizontal)
        self.machines.setMaximumHeight(140)
        self.resize(1500, 900)

    def _make_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu(_("&File"))

        def act(menu, text, slot, key=None, tip="") -> QAction:
            a = QAction(text, self)
            if key is not None:
                a.setShortcut(key)
            a.setToolTip(tip or text)
            a.setStatusTip(tip)
            a.triggered.connect(slot)
            menu.addAction(a)
            return a

        self.act_save = act(f, _("&Save"), self.save, QKeySequence.StandardKey.Save, _("Save the cluster plan"))
        self.act_save_as = act(f, _("Save &As…"), self.save_as, QKeySequence.StandardKey.SaveAs,
                               _("Save the cluster plan under another name"))
        f.addSeparator()
        self.act_lab_save = act(f, _("Save to &Lab"), self.save_to_lab, None,
                                _("Share the plan and its machines' builds in the lab database"))
        self.act_lab_open = act(f, _("Open from La&b…"), self.open_from_lab, None,
                                _("Open a cluster plan shared in the lab database"))
        f.addSeparator()
        act(f, _("&Close"), self.close, QKeySequence.StandardKey.Close, _("Close this cluster plan"))
        e = mb.addMenu(_("&Edit"))
        self.act_undo = self.undo_stack.createUndoAction(self, _("&Undo"))
        self.act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.act_redo = self.undo_stack.createRedoAction(self, _("&Redo"))
        self.act_redo.setShortcut(QKeySequence.StandardKey.Redo)
        e.addAction(self.act_undo)
        e.addAction(self.act_redo)
        e.addSeparator()
        self.act_remove_card = act(e, _("Remove &Card"), self.remove_selected_card, None,
                                   _("Take the card out of the selected slot (Delete in the slot list)"))
        self.slots.installEventFilter(self)  # Enter places the chosen card, Delete removes it

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        from PySide6.QtCore import QEvent

        if obj is self.slots and event.type() == QEvent.Type.KeyPress:
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.place_selected()
                return True
            if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self.remove_selected_card()
                return True
        return super().eventFilter(obj, event)

    def _on_clean_changed(self, _clean: bool) -> None:
        from shiboken6 import isValid

        if isValid(self) and isValid(self.undo_stack):  # not while the window is being taken down
            self._title()

    def _title(self) -> None:
        name = self.plan.name or (self.plan_path.stem if self.plan_path else _("Untitled cluster plan"))
        self.setWindowTitle(_("Cluster: {name}", name=name) + ("" if self.undo_stack.isClean() else " *"))

    def _fill_panel(self, row: int = -1) -> None:
        widgets = (self.machines, self.count, self.link, self.topology, self.speed, self.circuits, self.workload)
        for w in widgets:
            w.blockSignals(True)
        try:
            self.machines.clear()
            for m in self.plan.machines:
                b = self.builds.get(m.build)
                what = render_ui(b.name) if b is not None and b.name else m.build
                self.machines.addItem(_("{n}\u00d7 {name} ({build})", n=m.count, name=m.name, build=what))
            if self.plan.machines:
                self.machines.setCurrentRow(min(max(row, 0), len(self.plan.machines) - 1))
            net = self.plan.network
            self.link.setCurrentIndex(max(0, self.link.findData(net.kind)))
            self.topology.setCurrentIndex(max(0, self.topology.findData(net.topology)))
            self.speed.setValue(net.speed_gbps or 0)
            self.circuits.setValue(self.plan.circuits)
            self.workload.setCurrentIndex(max(0, self.workload.findData(self.plan.workload)))
            m = self.selected_machine()
            self.count.setValue(m.count if m else 1)
        finally:
            for w in widgets:
                w.blockSignals(False)
        self.count.setEnabled(self.selected_machine() is not None)
        self.remove_machine.setEnabled(self.selected_machine() is not None)
        self._fill_slots()
        self._title()

    def selected_machine(self) -> Optional[Machine]:
        row = self.machines.currentRow()
        return self.plan.machines[row] if 0 <= row < len(self.plan.machines) else None

    def _fill_slots(self) -> None:
        """The selected machine's board slots: free, a GPU there, covered by a GPU, or a card placed."""
        from rigbuilder.rules.context import Context

        m = self.selected_machine()
        self.count.blockSignals(True)
        self.count.setValue(m.count if m else 1)
        self.count.blockSignals(False)
        b = self.builds.get(m.build) if m else None
        ctx = Context(b, self.index) if b is not None else None
        slots = sorted(ctx.board.slots, key=lambda s: s.position) if ctx and ctx.board else []
        keep = self.slots.currentRow()
        self.slots.setRowCount(len(slots))
        for r, s in enumerate(slots):
            card = next((n for n in m.nics if n.slot == s.id), None)
            taken = slot_taken(ctx, s.position)
            if card is not None:
                part = self.index.get(card.part_id)
                what = _("network card: {name}", name=part.name if part else card.part_id)
                if taken is not None and taken[0] == "sits":
                    what = _("{what}: not possible, GPU {num} is there", what=what, num=taken[1].num)
                elif taken is not None:
                    what = _("{what}: not possible, GPU {num} covers this slot", what=what, num=taken[1].num)
            elif taken is None:
                what = _("free")
            elif taken[0] == "sits":
                what = _("GPU {num}", num=taken[1].num)
            else:
                what = _("covered by GPU {num}", num=taken[1].num)
            cells = (s.id, f"x{s.lanes}", what)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, s.id)
                if taken is not None:
                    item.setForeground(Qt.GlobalColor.darkRed if card is not None else Qt.GlobalColor.gray)
                self.slots.setItem(r, c, item)
        if slots:
            self.slots.setCurrentCell(min(max(keep, 0), len(slots) - 1), 0)
        has = bool(slots)
        self.place.setEnabled(has and self.nic.count() > 0)
        self.unplace.setEnabled(has)

    def open_machine(self, row: int) -> None:
        """A machine's build in the main window's board view (one held only in memory is saved with the
        plan first: there is no file to open yet)."""
        if 0 <= row < len(self.cc.machines) == self.plan.machine_count:
            machine = self.plan.expanded()[row][0]
            if machine.build in self.unsaved:
                self.status.setText(_("{name} is not saved in a file yet: save the cluster plan first.",
                                      name=machine.name))
                return
        super().open_machine(row)

    # -- edits ----------------------------------------------------------------------------------
    def _key_for(self, label: str) -> str:
        """A file name for a build held in memory, unique in the plan."""
        from rigbuilder.ui.report_actions import file_stem

        stem = file_stem(label.removesuffix(".rig"))
        key, n = f"{stem}.rig", 2
        while key in self.builds:
            key, n = f"{stem}-{n}.rig", n + 1
        return key

    def add_build(self, label: str, build: Build, count: int = 1, path: Optional[str] = None) -> bool:
        """Add a machine (the open build, a file's, an optimiser answer) with ``count`` copies."""
        key = path or self._key_for(render_ui(build.name) or label)
        if path is None:
            self.unsaved.add(key)
        self.builds[key] = build.clone()
        names = {m.name for m in self.plan.machines}
        base = Path(label).stem or _("machine")
        name, n = base, 2
        while name in names:
            name, n = f"{base} {n}", n + 1
        ok = self.edit(replace(self.plan, machines=self.plan.machines + (Machine(name, key, count),)),
                       _("Add machine {name}", name=name))
        self.machines.setCurrentRow(len(self.plan.machines) - 1)
        return ok

    def add_current(self) -> bool:
        label, build = self.current()
        return self.add_build(label, build)

    def _add_file(self) -> None:
        path = self.ask_path(False, self.start_dir)
        if path:
            self.add_path(path)

    def add_path(self, path: str, count: int = 1) -> bool:
        try:
            build = self.load(path)
        except ValueError as e:
            self.error(_("Cannot open build"), render_ui(e.args[0] if e.args else str(e)))
            return False
        return self.add_build(Path(path).name, build, count, path=str(Path(path).resolve()))

    def _remove_machine(self) -> None:
        row = self.machines.currentRow()
        m = self.selected_machine()
        if m is not None:
            ms = self.plan.machines[:row] + self.plan.machines[row + 1:]
            self.edit(replace(self.plan, machines=ms), _("Remove machine {name}", name=m.name))

    def _replace_machine(self, new: Machine, text: str) -> bool:
        row = self.machines.currentRow()
        ms = list(self.plan.machines)
        ms[row] = new
        return self.edit(replace(self.plan, machines=tuple(ms)), text)

    def _set_count(self, n: int) -> None:
        m = self.selected_machine()
        if m is not None and n != m.count:
            self._replace_machine(replace(m, count=n), _("Copies of {name}: {n}", name=m.name, n=n))

    def selected_slot(self) -> str:
        item = self.slots.item(self.slots.currentRow(), 0) if self.slots.currentRow() >= 0 else None
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else ""

    def place_card(self, part_id: str, slot: str, ports: int = 1) -> bool:
        """The card in ``slot`` of the selected machine (any card there before is replaced). A slot a GPU
        sits in or covers takes it too, and the findings say it cannot be (``cluster.nic_covered``)."""
        m = self.selected_machine()
        if m is None or not slot:
            return False
        nics = tuple(n for n in m.nics if n.slot != slot) + (NicPlacement(part_id, slot, ports),)
        part = self.index.get(part_id)
        return self._replace_machine(replace(m, nics=nics), _("Place {card} in {slot}", card=part.name if part else
                                                              part_id, slot=slot))

    def place_selected(self) -> bool:
        return self.place_card(self.nic.currentData(), self.selected_slot(), self.ports.value())

    def remove_selected_card(self) -> bool:
        m, slot = self.selected_machine(), self.selected_slot()
        if m is None or not any(n.slot == slot for n in m.nics):
            return False
        return self._replace_machine(replace(m, nics=tuple(n for n in m.nics if n.slot != slot)),
                                     _("Remove the card in {slot}", slot=slot))

    def _set_network(self, **change) -> None:
        net: Network = replace(self.plan.network, **change)
        self.edit(replace(self.plan, network=net), _("Network"))

    # -- files and the lab ---------------------------------------------------------------------------
    def _file_dialog(self, save: bool, suggested: str) -> str:
        if save:
            path, _unused = QFileDialog.getSaveFileName(self, _("Save cluster plan"), suggested,
                                                        _("Cluster plans (*.rigcluster)"))
            if path and not path.endswith(".rigcluster"):
                path += ".rigcluster"
            return path
        path, _unused = QFileDialog.getOpenFileName(self, _("Add build file"), suggested, _("rigbuilder builds (*.rig)"))
        return path

    def _stored_plan(self, where: Path) -> ClusterPlan:
        """The plan as a file beside ``where`` holds it: builds named relative to it where they can be."""
        ms = []
        for m in self.plan.machines:
            p = Path(m.build)
            if p.is_absolute():
                try:
                    p = p.relative_to(where.parent.resolve())
                except ValueError:
                    pass
            ms.append(replace(m, build=str(p)))
        return replace(self.plan, name=self.plan.name or where.stem, machines=tuple(ms))

    def save(self) -> bool:
        if self.plan_path is None:
            return self.save_as()
        return self.write(self.plan_path)

    def save_as(self) -> bool:
        from rigbuilder.ui.report_actions import file_stem

        suggested = str(self.plan_path or Path(self.start_dir or ".") / f"{file_stem(self.plan.name or _('cluster'))}"
                        ".rigcluster")
        path = self.ask_path(True, suggested)
        return self.write(Path(path)) if path else False

    def write(self, path: Path) -> bool:
        """The plan as ``path`` and each build held only in memory as a .rig beside it (never over a file
        that exists: another name is taken). Nothing is lost when a write fails."""
        from rigbuilder.files import buildfile, clusterfile

        if not self.plan.machines:
            self.error(_("Cannot save cluster plan"), _("Add at least one machine first."))
            return False
        renames: dict[str, str] = {}
        try:
            from rigbuilder.ui.report_actions import file_stem

            for key in sorted(self.unsaved & {m.build for m in self.plan.machines}):
                stem = file_stem(key.removesuffix(".rig"))  # a lab build's name may hold ':' or '/'
                target, n = path.parent / f"{stem}.rig", 2
                while target.exists():
                    target, n = path.parent / f"{stem}-{n}.rig", n + 1
                buildfile.save(self.builds[key], target)
                renames[key] = target.name
            stored = self._stored_plan(path)
            stored = replace(stored, machines=tuple(replace(s, build=renames.get(m.build, s.build))
                                                    for s, m in zip(stored.machines, self.plan.machines)))
            clusterfile.save(stored, path)
        except (clusterfile.BuildFileError, OSError) as e:
            why = e.args[0] if isinstance(e, clusterfile.BuildFileError) else (e.strerror or str(e))
            self.error(_("Cannot save cluster plan"), render_ui(why))
            return False
        for s, m in zip(stored.machines, self.plan.machines):
            self.builds[s.build] = self.builds[m.build]
        self.unsaved -= set(renames)
        self.plan_path = path
        self._set_plan(stored)  # the same plan, its builds named as the file names them (no undo step)
        self.undo_stack.setClean()
        self._title()
        self.status.setText(_("Saved {path}", path=str(path)))
        return True

    def _open_lab(self):
        from rigbuilder.catalog.labdb import LabDbError

        try:
            db = self.lab_db()
        except LabDbError as e:
            self.error(_("Cannot read the lab database"), render_ui(e.args[0] if e.args else str(e)))
            return None
        if db is None:
            self.error(_("No lab database"), _("Set the lab database in Preferences (Lab tab) first."))
        return db

    def save_to_lab(self) -> bool:
        """The plan and every machine's build into the lab database (a newer version than the one read
        is refused by the database, never overwritten)."""
        from rigbuilder.catalog.labdb import LabDbError
        from rigbuilder.files import buildfile, clusterfile

        db = self._open_lab()
        if db is None:
            return False
        if not self.plan.machines:
            self.error(_("Cannot save cluster plan"), _("Add at least one machine first."))
            return False
        name = self.plan.name or (self.plan_path.stem if self.plan_path else _("cluster"))
        try:
            versions = {e.key[0]: e.version for e in db.builds()}
            ms = []
            for m in self.plan.machines:
                b = self.builds[m.build]
                bname = f"{name}: {m.name}"
                db.save_build(bname, buildfile.to_dict(b), version=versions.get(bname))
                ms.append(replace(m, build=bname))
            plan = replace(self.plan, name=name, machines=tuple(ms))
            cversions = {e.key[0]: e.version for e in db.clusters()}
            db.save_cluster(name, clusterfile.to_dict(plan), version=cversions.get(name))
        except LabDbError as e:
            self.error(_("Cannot save to the lab database"), render_ui(e.args[0] if e.args else str(e)))
            return False
        finally:
            db.close()
        self.status.setText(_("Saved {name} and its {n} builds in the lab database.", name=name, n=len(ms)))
        return True

    def open_from_lab(self, name: str = "") -> bool:
        """A plan from the lab database, its machines' builds read from the lab's builds of the same names."""
        from PySide6.QtWidgets import QInputDialog

        from rigbuilder.catalog.labdb import LabDbError
        from rigbuilder.files import buildfile, clusterfile

        db = self._open_lab()
        if db is None:
            return False
        try:
            plans = {e.key[0]: e.values for e in db.clusters()}
            builds = {e.key[0]: e.values for e in db.builds()}
        except LabDbError as e:
            self.error(_("Cannot read the lab database"), render_ui(e.args[0] if e.args else str(e)))
            return False
        finally:
            db.close()
        if not name:
            if not plans:
                self.error(_("Open from Lab"), _("The lab database holds no cluster plan."))
                return False
            name, ok = QInputDialog.getItem(self, _("Open from Lab"), _("Cluster plan:"), sorted(plans), 0, False)
            if not ok:
                return False
        try:
            plan = clusterfile.from_dict(plans[name], name)
            got = {m.build: buildfile.from_dict(builds[m.build], m.build) for m in plan.machines if m.build in builds}
        except (KeyError, buildfile.BuildFileError) as e:
            self.error(_("Cannot open cluster plan"), render_ui(e.args[0] if e.args else str(e)))
            return False
        missing = [m.build for m in plan.machines if m.build not in got]
        if missing:
            self.error(_("Cannot open cluster plan"), _("The lab database lacks the builds {names}.",
                                                        names=", ".join(missing)))
            return False
        self.builds.update(got)
        self.unsaved |= set(got)
        self.plan_path = None
        self.undo_stack.clear()
        self._set_plan(plan)
        return True
