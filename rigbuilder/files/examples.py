"""The example builds that ship with rigbuilder, one for each question the program was made to answer.

Each is a real build of catalog parts (``rigbuilder check`` finds no error in it), a ``.rig`` file (or
a ``.rigcluster`` with its machine) under ``resources/examples``; the question it answers is declared
here once, translatable, for the window's Examples menu, the comparison's build list and
``rigbuilder examples``. The question is also written, in English, in each file's notes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rigbuilder.domain.i18n import N_


@dataclass(frozen=True)
class Example:
    id: str
    kind: str  # "build": one .rig; "compare": two .rig side by side; "cluster": a .rigcluster
    files: tuple[str, ...]  # file names under resources/examples
    question: str  # the question it answers (translatable)
    labels: tuple[str, ...] = ()  # one short name per file (translatable), for build lists


EXAMPLES: tuple[Example, ...] = (
    Example("workstation-2000-eur", "build", ("workstation-2000-eur.rig",),
            N_("A deep-learning workstation for about 2,000 EUR: one GPU now, room for four later?"),
            (N_("One RTX 2070 now, four later (Threadripper)"),)),
    Example("x99-four-used-rtx-3090", "build", ("x99-four-used-rtx-3090.rig",),
            N_("Four used RTX 3090 on a used X99 board and Xeon: does it fit, and on one wall socket?"),
            (N_("Four used RTX 3090 on X99"),)),
    Example("one-4090-or-two-3090", "compare", ("one-rtx-4090.rig", "two-used-rtx-3090.rig"),
            N_("One new RTX 4090 or two used RTX 3090: which should a buyer get?"),
            (N_("One new RTX 4090"), N_("Two used RTX 3090"))),
    Example("two-machine-cluster", "cluster", ("two-machine-cluster.rigcluster",),
            N_("A small cluster of two machines on 40 Gbit/s: faster than one machine?"),
            (N_("Two machines on 40 Gbit/s"),)),
)
"""One example per question, in the order the menu lists them."""

NODE_FILE = "cluster-node.rig"
"""The cluster example's machine (two copies of it)."""


def examples_dir() -> Path:
    from rigbuilder.catalog.loader import resources_dir

    return resources_dir() / "examples"


def paths(example: Example) -> list[Path]:
    return [examples_dir() / f for f in example.files]


def example_builds() -> list[tuple[Example, str, Path]]:
    """Every shipped build a comparison can take: (its example, its label, its path)."""
    out = []
    for ex in EXAMPLES:
        if ex.kind in ("build", "compare"):
            out += [(ex, label, examples_dir() / f) for f, label in zip(ex.files, ex.labels)]
    return out
