"""Findings: what a check says about a build."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


def plural(n: int, word: str) -> str:
    """``3 errors``, ``1 warning``: how counts of findings (and GPUs) are written everywhere."""
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class Finding:
    """One finding with a stable rule ``code``.

    ``gpus`` are 1-based GPU numbers as the user sees them ("GPU 2"); ``positions`` are board
    expansion positions; ``parts`` are catalog ids.
    """

    code: str
    severity: Severity
    message: str
    fix: str = ""
    limits: str = ""
    gpus: tuple[int, ...] = ()
    positions: tuple[int, ...] = ()
    parts: tuple[str, ...] = ()
    figures: tuple[tuple[str, float], ...] = field(default=())

    def sort_key(self) -> tuple:
        return (self.severity.rank, self.code, self.gpus, self.positions, self.message)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "fix": self.fix,
            "limits": self.limits,
            "gpus": list(self.gpus),
            "positions": list(self.positions),
            "parts": list(self.parts),
            "figures": {k: v for k, v in self.figures},
        }
