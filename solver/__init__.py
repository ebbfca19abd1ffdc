"""preferans-dd: exact double-dummy analysis for Preferans.

    >>> from solver import solve
    >>> solve("AKJ9.A.KJ.T98 QT7.QJ8.A7.J7 8.T97.QT98.KQ", "6h", declarer=0, leader=2)
    5

The notation (``solver.notation``), positions inside the play
(``solver.position``), the C solver binding (``solver.engine``), the
module-level functions below (``solver.api``), JSON-lines batch evaluation
(``solver.batch``) and scoring (``solver.scoring``).
"""
__version__ = "0.1.0"
"""The package version (the one source: pyproject.toml reads it from here)."""

from .api import (
    DealTable,
    allpass_tricks,
    card_values,
    deal_table,
    solve,
    solve_misere,
    solve_position,
    thread_solver,
)
from .engine import SearchStopped, Solver, SolverBusyError
from .notation import Card, Contract, ContractKind, Deal, Hand, NotationError
from .position import Position, PositionError


__all__ = [
    "Card", "Contract", "ContractKind", "Deal", "DealTable", "Hand", "NotationError",
    "Position", "PositionError", "SearchStopped", "Solver", "SolverBusyError",
    "allpass_tricks", "card_values", "deal_table", "solve", "solve_misere",
    "solve_position", "thread_solver",
]
