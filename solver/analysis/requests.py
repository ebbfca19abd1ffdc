"""The analysis requests of ``prefdd batch`` (called from :mod:`solver.analysis.batch`).

    {"deal": DEAL, "talon": HAND, "contract": C, "declarer": S, "best_discard": true}
        -> {"declarer_tricks": n, "discards": ["AsKs", ...]}
    {"deal": DEAL, "talon": HAND, "contract": "allpass", "line": true}
        -> {"tricks": [a, b, c], "line": ["7d", ...]}

``best_discard``: the best value over the declarer's discards (he takes the
talon, given in ``deal`` or ``talon``) and every discard reaching it, each
as its two cards in canonical order, the list in canonical order; optional
``leader`` (default 0). ``line``: the all-pass max^n outcome (tricks per
seat) and its line; optional ``talon_leads`` (default true) and
``four_players`` (default false); when ``player`` is also given the answer
carries that player's ``player_tricks`` too. Anything else is not an analysis
request (None), and the plain batch handles it.
"""
from __future__ import annotations

from typing import Any

from ..engine import Solver
from ..notation import Contract, ContractKind, Deal, seat_field
from .allpass import allpass_line, allpass_start
from .discard import AnalysisError, best_discard
from .jsonio import best_discard_json

__all__ = ["evaluate_analysis", "is_analysis"]


def _flag(request: dict[str, Any], name: str, default: bool = False) -> bool:
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise AnalysisError(f"field '{name}' must be true or false, got {value!r}")
    return value


def is_analysis(request: dict[str, Any]) -> bool:
    """Does the request ask for an analysis (a flag's value checked as
    :func:`evaluate_analysis` checks it)?"""
    return _flag(request, "best_discard") or _flag(request, "line")


def evaluate_analysis(request: dict[str, Any], deal: Deal, contract: Contract,
                      solver: Solver) -> dict[str, Any] | None:
    """The answer to an analysis request (solved with ``solver``), or None
    when it is not one."""
    if _flag(request, "best_discard"):
        if contract.kind is ContractKind.ALLPASS:
            raise AnalysisError("best_discard needs a trick contract or misere, not allpass")
        declarer = seat_field(request, "declarer", error=AnalysisError)
        leader = seat_field(request, "leader", 0, AnalysisError)
        return best_discard_json(best_discard(deal, declarer, contract, leader=leader, solver=solver))
    if _flag(request, "line"):
        if contract.kind is not ContractKind.ALLPASS:
            raise AnalysisError("line is the all-pass max^n line: it needs contract allpass")
        start = allpass_start(deal, talon_leads=_flag(request, "talon_leads", True),
                              four_players=_flag(request, "four_players"))
        line = allpass_line(start, solver=solver)
        answer: dict[str, Any] = {"tricks": list(line.tricks), "line": [str(c) for c in line.cards]}
        if "player" in request:
            answer["player_tricks"] = solver.solve(start.for_player(seat_field(request, "player", error=AnalysisError)))
        return answer
    return None
