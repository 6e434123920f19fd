"""The build optimiser: the best complete build for a budget and a workload, today and grown.

Its modules, by job (each imports only those below it; an import-linter contract says so):

- ``answers``: what a no-build answer adds below it: the single changes that give a build, each
  tried and costed, and the proven floor of the purchase now;
- ``frames``: ``optimise``, the entry point: the search with the cards in slots and, as a search
  variable, with them on risers in an open frame or a case with vertical positions;
- ``search``: the search over (GPU, board, CPU) triples, their parts and placements (how it stays
  exact: the module's docstring), wiring its rooms: ``triple`` (the search within one triple),
  ``judge`` (the engine's verdicts), ``pools`` and ``psus`` (the parts it chooses from, their
  floors), ``placement`` (where cards sit, their throughput), ``keeping`` (rank keys, the top
  builds), ``walk`` (a triple's combinations cheapest first), ``mount`` (how cards are mounted:
  in slots, or ``frames.OnRiser``) and ``tally`` (what a search counts);
- ``explain``: what a finished search says (the reason for no answer, the best build explained,
  one answer from the searches of several power-limit steps);
- ``prices``, ``power``, ``bounds``: the prices builds are costed with, the DC draw and energy of a
  build, and the bounds that cannot remove the optimum (slot spacing, Pareto fronts, PSU needs);
- ``request``: the request and its answer (``Request``, ``Candidate``, ``Result``), the errors and
  the ``Scorer`` interface;
- ``scoring``: the adviser's throughput behind ``Scorer``.

The names below are those the rest of the program and the tests import. They load on first use
(PEP 562), so that a command which only needs ``scoring`` (the command line's option list names the
workloads) does not import the search.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_WHERE = {
    "pareto": "bounds", "placements": "bounds", "psu_front": "bounds",
    "Prices": "prices", "_Prices": "prices",
    **{n: "request" for n in ("CONDITIONS", "KINDS", "OPTIONAL_KINDS", "Cancelled", "Candidate", "OptimiseError",
                              "Request", "Result", "Scorer", "build_name", "figure", "limit_w", "rank_key",
                                              "objective_key", "OBJECTIVES")},
    "LIMIT_STEPS": "search", "budget_step": "frames", "noise_cost": "frames", "optimise": "frames",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), "Prices" if name == "_Prices" else name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from rigbuilder.rules.optimise.bounds import pareto, placements, psu_front  # noqa: F401
    from rigbuilder.rules.optimise.prices import Prices  # noqa: F401
    from rigbuilder.rules.optimise.request import (CONDITIONS, KINDS, OPTIONAL_KINDS, Cancelled,  # noqa: F401
                                                   Candidate, OptimiseError, Request, Result, Scorer, build_name,
                                                   figure, limit_w, rank_key, objective_key, OBJECTIVES)
    from rigbuilder.rules.optimise.frames import budget_step, noise_cost, optimise  # noqa: F401
    from rigbuilder.rules.optimise.search import LIMIT_STEPS  # noqa: F401
