"""The build optimiser (see ``search``): the names the rest of the program and the tests use."""
from rigbuilder.rules.optimise.search import (CONDITIONS, KINDS, LIMIT_STEPS, OPTIONAL_KINDS, Cancelled, Candidate,
                                              OptimiseError, Request, Result, Scorer, _Prices, budget_step,
                                              build_name, figure, limit_w, optimise, pareto, placements, psu_front,
                                              rank_key)

__all__ = ["CONDITIONS", "KINDS", "LIMIT_STEPS", "OPTIONAL_KINDS", "Cancelled", "Candidate", "OptimiseError", "Request",
           "Result", "Scorer", "_Prices", "budget_step", "build_name", "figure", "limit_w", "optimise", "pareto",
           "placements", "psu_front", "rank_key"]
