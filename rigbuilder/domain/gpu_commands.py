"""The commands that set a build's GPU power limits on Linux, and keep them across reboots.

One place for every door: the window's power-limit dialog, the report and ``rigbuilder limits``.
``nvidia-smi -pl`` needs root and lasts until the next reboot (or until the driver unloads, which
persistence mode ``-pm 1`` prevents); a systemd unit or a root cron ``@reboot`` line sets the
limits again at every start.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from rigbuilder.domain.build import Build
from rigbuilder.domain.i18n import T

NVIDIA_SMI = "/usr/bin/nvidia-smi"
UNIT_NAME = "gpu-power-limits.service"
UNIT_PATH = f"/etc/systemd/system/{UNIT_NAME}"

ORDER_NOTE = T("nvidia-smi counts GPUs from 0 in PCI bus order; 'nvidia-smi -L' lists which card has which "
               "number (GPU 1 here is usually number 0 there).")
PERSIST_NOTE = T("A power limit lasts until the next reboot. To set it at every start, save the unit below as "
                 "{path} and run 'sudo systemctl enable --now {unit}', or add the @reboot line to root's "
                 "crontab ('sudo crontab -e').", path=UNIT_PATH, unit=UNIT_NAME)

CRON_NOTE = T("Or, instead of the unit, this line in root's crontab:")
PERSIST_CRON_NOTE = T("A power limit lasts until the next reboot. To set it at every start, add this line to root's "
                      "crontab ('sudo crontab -e'); 'rigbuilder limits' and the window's power-limit dialog also "
                      "give a systemd unit for it.")


def build_limits(build: Build) -> list[tuple[int, int]]:
    """(GPU number from 1, watts) for every GPU of ``build`` that has a power limit."""
    return [(i + 1, int(round(g.power_limit_w))) for i, g in enumerate(build.gpus) if g.power_limit_w]


def _lines(limits: Iterable[tuple[int, int]], smi: str) -> list[str]:
    return [f"{smi} -pm 1"] + [f"{smi} -i {num - 1} -pl {int(w)}" for num, w in limits]


def set_limits(limits: Sequence[tuple[int, int]]) -> list[str]:
    """Persistence mode, then one ``-pl`` per GPU, each with the ``sudo`` it needs."""
    if not limits:
        return []
    return [f"sudo {line}" for line in _lines(limits, "nvidia-smi")]


def systemd_unit(limits: Sequence[tuple[int, int]]) -> str:
    """A oneshot unit that sets the limits at boot (not translated: a file for systemd)."""
    if not limits:
        return ""
    starts = "\n".join(f"ExecStart={line}" for line in _lines(limits, NVIDIA_SMI))
    return ("[Unit]\nDescription=GPU power limits (rigbuilder)\nAfter=multi-user.target\n\n"
            f"[Service]\nType=oneshot\n{starts}\n\n[Install]\nWantedBy=multi-user.target\n")


def cron_line(limits: Sequence[tuple[int, int]]) -> str:
    """The same as one line for root's crontab."""
    if not limits:
        return ""
    return "@reboot " + " && ".join(_lines(limits, NVIDIA_SMI))


def instructions(limits: Sequence[tuple[int, int]], unit: bool = True) -> list[str]:
    """Everything a door prints: the commands, a note on numbering, and how to persist them (with
    ``unit``, a systemd unit and a cron line; without, the cron line: the printed report).
    Lines are plain commands or ``T`` texts (translated where shown)."""
    if not limits:
        return []
    if not unit:
        return [*set_limits(limits), ORDER_NOTE, PERSIST_CRON_NOTE, cron_line(limits)]
    return [*set_limits(limits), ORDER_NOTE, PERSIST_NOTE, *systemd_unit(limits).rstrip("\n").split("\n"),
            CRON_NOTE, cron_line(limits)]
