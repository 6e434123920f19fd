"""The power-limit dialog: a number of watts with the suggested limit, what it does to the wall
draw, and the commands that set it on the machine (and keep it across reboots).

The window gives it what it needs (``LimitHelp``): the suggestion comes from
``rigbuilder.rules.power.plan_limits`` and the commands from ``rigbuilder.domain.gpu_commands``,
so the dialog decides nothing a rule decides.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                               QSpinBox, QVBoxLayout)

from rigbuilder.domain.fields import power_limit_floor_w
from rigbuilder.domain.i18n import render
from rigbuilder.ui.i18n import _, ui_language


@dataclass(frozen=True)
class LimitHelp:
    """What the dialog shows besides the number: the suggested watts (None: no limit needed) with
    the sentence that explains it, and the commands for a chosen number of watts."""

    suggested: Optional[int]
    why: str  # a core text (T) or plain text; rendered in the window's language
    commands: Callable[[int], list[str]]  # watts -> command lines and notes (T texts rendered here)


def commands_text(lines: list[str]) -> str:
    """The lines in the window's language, a blank line between notes and commands."""
    from rigbuilder.domain.i18n import T

    lang = ui_language()
    out: list[str] = []
    note = None
    for line in lines:
        if note is not None and isinstance(line, T) != note:
            out.append("")
        note = isinstance(line, T)
        out.append(render(line, lang))
    return "\n".join(out)


class PowerLimitDialog(QDialog):
    def __init__(self, parent, title: str, prompt: str, current: Optional[float], board_power: float,
                 help: Optional[LimitHelp] = None, floor: Optional[int] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.help = help
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(prompt))
        row = QHBoxLayout()
        self.watts = QSpinBox()
        self.watts.setRange(floor if floor is not None else power_limit_floor_w(board_power), int(board_power))
        self.watts.setSuffix(" W")
        self.watts.setValue(int(current or board_power))
        row.addWidget(self.watts)
        self.use = QPushButton()
        row.addWidget(self.use)
        row.addStretch(1)
        lay.addLayout(row)
        self.why = QLabel()
        self.why.setWordWrap(True)
        lay.addWidget(self.why)
        lay.addWidget(QLabel(_("Commands for the machine (Linux, NVIDIA driver):")))
        self.commands = QPlainTextEdit()
        self.commands.setReadOnly(True)
        self.commands.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.commands.setMinimumSize(620, 220)
        lay.addWidget(self.commands)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.copy = buttons.addButton(_("Copy Commands"), QDialogButtonBox.ButtonRole.ActionRole)
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.commands.toPlainText()))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        if help is not None and help.suggested is not None:
            self.use.setText(_("Use Suggested {watts} W", watts=help.suggested))
            self.use.clicked.connect(lambda: self.watts.setValue(help.suggested))
            if current is None:  # no limit yet: start on the suggestion
                self.watts.setValue(help.suggested)
        else:
            self.use.hide()
        self.why.setText(render(help.why, ui_language()) if help is not None else "")
        self.why.setVisible(bool(self.why.text()))
        self.watts.valueChanged.connect(self._update_commands)
        self._update_commands(self.watts.value())

    def _update_commands(self, watts: int) -> None:
        lines = self.help.commands(watts) if self.help is not None else []
        self.commands.setPlainText(commands_text(lines) if lines else
                                   _("At full power no command is needed (no limit)."))

    def value(self) -> int:
        return self.watts.value()


def ask(parent, title: str, prompt: str, current: Optional[float], board_power: float,
        help: Optional[LimitHelp] = None) -> Optional[int]:
    dlg = PowerLimitDialog(parent, title, prompt, current, board_power, help)
    return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None


def help_for(build, index, idx: Optional[int] = None) -> Optional[LimitHelp]:
    """The suggestion and commands for GPU ``idx`` (None: every GPU) of ``build``."""
    from rigbuilder.domain.edits import EditError, SetAllPowerLimits, SetPowerLimit
    from rigbuilder.domain.gpu_commands import build_limits, instructions
    from rigbuilder.domain.i18n import T
    from rigbuilder.rules.power import plan_limits

    plan = plan_limits(build, index)
    if plan is None:
        return None
    region = build.settings.region_info().label
    adv = plan.advice
    watts = dict(adv.limits_w)
    suggested = (watts.get(idx + 1) if idx is not None else max(watts.values())) if plan.needed else None
    if suggested is None:
        why = T("No limit needed. At full power: {verdict}", verdict=plan.full.text(region))
    elif not adv.feasible:
        why = T("Even at half power the build does not fit its PSU and circuit: use a larger PSU, two circuits or "
                "fewer GPUs. At full power: {verdict}", verdict=plan.full.text(region))
    else:
        why = T("Suggested {watts} W: the smallest uniform cut ({cut:.0%}) that fits the PSU and what the circuit "
                "carries continuously; about {wall:.0f} W at the wall, {less:.1%} less throughput (estimate). "
                "At full power: {verdict}", watts=suggested, cut=1 - adv.fraction, wall=adv.peak_wall_w,
                less=1 - adv.throughput, verdict=plan.full.text(region))

    def commands(w: int) -> list[str]:
        try:
            edit = SetAllPowerLimits(float(w)) if idx is None else SetPowerLimit(idx, float(w))
            trial = edit.applied_to(build, index)
        except EditError:
            return []
        return instructions(build_limits(trial))

    if plan.current is not None:
        limits = "/".join(str(w) for w in sorted({w for _, w in plan.current_limits}))
        why = T.join(why, " ", T("At the current limits ({watts} W): {verdict}", watts=limits,
                                 verdict=plan.current.text(region)))
    return LimitHelp(suggested, why, commands)
