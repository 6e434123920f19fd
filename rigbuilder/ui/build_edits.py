"""The window's edits of the open build: a part dropped or activated, a GPU moved or removed, power
limits, settings, the name and notes, and Arrange GPUs. Each is an edit object
(``rigbuilder.domain.edits``) the document makes one undoable step.

Given what it needs, not the window: the document, the dialogs (which hold the parent widget),
a status callback, ``settings_changes`` (a new currency converts, a new region offers its
currency: ``MoneyActions.settings_changes``) and ``refused`` (the controls that asked for a refused
edit show the build again)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from rigbuilder.domain.build import MOUNT_RISER
from rigbuilder.domain.edits import (ApplyArrangement, ChangeSettings, Edit, EditError, MoveGpu, RemoveItem, Rename,
                                     SetAllPowerLimits, SetPowerLimit, SetRiser, edit_for_part)
from rigbuilder.domain.fields import limit_for
from rigbuilder.ui.i18n import _, render_ui

if TYPE_CHECKING:
    from rigbuilder.ui.document import BuildDocument


class BuildEdits:
    def __init__(self, doc: "BuildDocument", dialogs: Any, *, status: Callable[[str, int], None],
                 settings_changes: Callable[[dict], dict] = lambda changes: changes,
                 refused: Callable[[], None] = lambda: None) -> None:
        self.doc = doc
        self.dialogs = dialogs
        self.status = status
        self.settings_changes = settings_changes
        self.refused = refused

    def do(self, edit: Edit) -> bool:
        """Apply ``edit`` as one undoable step; a refused one says why in the status bar."""
        try:
            return self.doc.push(edit)
        except EditError as e:
            self.status(_("Not done: {error}", error=e.message), 8000)
            self.refused()  # the controls may show the refused value: show the build again
            return False

    def drop_part(self, part_id: str, position: Optional[int], riser: bool) -> None:
        """A catalog part dropped on the board (or activated in the catalog: no position)."""
        part = self.doc.index.get(part_id)
        if part is None:
            self.dialogs.error(_("Unknown part"), _("The catalog has no part “{part}”.", part=part_id))
            return
        self.do(edit_for_part(part, position, riser, self.doc.build))

    def move_gpu(self, idx: int, position: Optional[int], riser: bool) -> None:
        g = self.doc.build.gpus[idx] if 0 <= idx < len(self.doc.build.gpus) else None
        if g is not None and riser and g.mount == MOUNT_RISER:
            return  # already on a riser
        self.do(MoveGpu(idx, position, riser))

    def remove_gpu(self, idx: Optional[int]) -> bool:
        """True when GPU ``idx`` was removed."""
        return idx is not None and self.do(RemoveItem("gpu", idx))

    def remove_part(self, role: str, i: int) -> None:
        self.do(RemoveItem(role, i))

    def set_riser(self, idx: int, riser_id: Optional[str]) -> None:
        """Put GPU ``idx`` on a riser part (None: a riser of unknown kind)."""
        self.do(SetRiser(idx, riser_id))

    def set_power_limit(self, idx: int, watts) -> None:
        self.do(SetPowerLimit(idx, watts))

    def set_all_power_limits(self, watts) -> None:
        self.do(SetAllPowerLimits(watts))

    def edit_settings(self, changes: dict) -> None:
        changes = self.settings_changes(changes)  # a new currency converts, not relabels
        if changes:
            self.do(ChangeSettings.of(**changes))
        else:
            self.refused()

    def edit_name_and_notes(self) -> None:
        b = self.doc.build
        got = self.dialogs.ask_name_and_notes(b.name, b.notes)
        if got is None:
            return
        name, notes = got
        try:
            self.doc.push(Rename(name, notes))
        except EditError as e:
            self.dialogs.error(_("Build name and notes"), _("Not changed: {error}", error=e.message))

    def ask_power_limit(self, idx: Optional[int]) -> None:
        if idx is None or not 0 <= idx < len(self.doc.build.gpus):
            self.status(_("Select a GPU on the board first."), 4000)
            return
        g = self.doc.build.gpus[idx]
        part = self.doc.index.get(g.part_id)
        if part is None or part.KIND != "gpu":
            self.status(_("GPU {num}: {part} is not a GPU in this catalog.", num=idx + 1, part=g.part_id), 6000)
            return
        w = self.dialogs.ask_power_limit(idx + 1, g.power_limit_w, part.board_power_w, help=self._limit_help(idx))
        if w is not None:
            self.set_power_limit(idx, limit_for(w, part.board_power_w))

    def _limit_help(self, idx: Optional[int]):
        from rigbuilder.ui.power_limit_dialog import help_for

        return help_for(self.doc.build, self.doc.index, idx)

    def ask_all_power_limits(self) -> None:
        """Edit > Power Limit for All GPUs: one limit in watts for every card."""
        cards = [self.doc.index.get(g.part_id) for g in self.doc.build.gpus]
        powers = [p.board_power_w for p in cards if p is not None and p.KIND == "gpu"]
        if not powers:
            self.status(_("Add a GPU first."), 4000)
            return
        limits_now = {g.power_limit_w for g in self.doc.build.gpus}
        current = limits_now.pop() if len(limits_now) == 1 else None
        w = self.dialogs.ask_all_power_limits(len(self.doc.build.gpus), current, max(powers),
                                              help=self._limit_help(None))
        if w is not None:
            self.set_all_power_limits(limit_for(w, max(powers)))

    def arrange_gpus(self) -> None:
        if self.doc.context.board is None:
            self.dialogs.error(_("Arrange GPUs"), _("Choose a motherboard first: drag one from the catalog onto the board area."))
            return
        from rigbuilder.rules.arrange import arrange

        try:
            res = arrange(self.doc.build, self.doc.index)
        except ValueError as e:
            self.dialogs.error(_("Arrange GPUs"), str(e))
            return
        moved = self.do(ApplyArrangement.of(res.build))
        if not moved and res.fits:
            self.status(_("The GPUs are already in the best placement."), 8000)
            return
        if res.fits:
            self.status(_("Arranged: the placement with the fewest findings."), 8000)
        else:
            self.dialogs.info(_("Arrange GPUs"), "\n\n".join(render_ui(a) for a in res.advice))
