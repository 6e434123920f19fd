"""The build optimiser: the best complete build for a budget and a workload, today and grown.

Its modules, by job (each imports only those below it; an import-linter contract says so):

- ``search``: the search over (GPU, board, CPU) triples, their parts and placements, and
  ``optimise``, its entry point (how it stays exact: the module's docstring);
- ``explain``: what a finished search says (the reason for no answer, the best build explained,
  one answer from the searches of several power-limit steps);
- ``prices``, ``power``, ``bounds``: the prices builds are costed with, the DC draw and energy of a
  build, and the bounds that cannot remove the optimum (slot spacing, Pareto fronts, PSU needs);
- ``request``: the request and its answer (``Request``, ``Candidate``, ``Result``), the errors and
  the ``Scorer`` interface;
- ``scoring``: the adviser's throughput behind ``Scorer``.

The names below are those the rest of the program and the tests import.
"""
from rigbuilder.rules.optimise.bounds import pareto, placements, psu_front
from rigbuilder.rules.optimise.prices import Prices
from rigbuilder.rules.optimise.request import (CONDITIONS, KINDS, OPTIONAL_KINDS, Cancelled, Candidate, OptimiseError,
                                               Request, Result, Scorer, build_name, figure, limit_w, rank_key)
from rigbuilder.rules.optimise.search import LIMIT_STEPS, budget_step, optimise

_Prices = Prices  # the name the tests have used

__all__ = ["CONDITIONS", "KINDS", "LIMIT_STEPS", "OPTIONAL_KINDS", "Cancelled", "Candidate", "OptimiseError", "Prices",
           "Request", "Result", "Scorer", "_Prices", "budget_step", "build_name", "figure", "limit_w", "optimise",
           "pareto", "placements", "psu_front", "rank_key"]
