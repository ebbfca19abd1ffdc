"""Module-level solving functions, each using a solver of the calling thread.

Every function takes deals and contracts as objects or as notation text, and
seats as 0-2. The first trick is led by seat 0 unless ``leader`` says otherwise.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from .engine import Solver
from .notation import Card, Contract, ContractKind, Deal, NO_TRUMP
from .position import Position

__all__ = [
    "thread_solver",
    "given_solver",
    "SolverTypeError",
    "solve",
    "solve_position",
    "solve_misere",
    "card_values",
    "allpass_tricks",
    "DealTable",
    "deal_table",
]

_local = threading.local()


def thread_solver() -> Solver:
    """The calling thread's own solver (created on first use)."""
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = Solver()
    return solver


class SolverTypeError(TypeError):
    """A ``solver`` argument that is neither a Solver nor None."""


def given_solver(solver: Solver | None) -> Solver:
    """The ``solver`` argument of the analyses: a Solver, or None for the
    calling thread's own."""
    if solver is None:
        return thread_solver()
    if not isinstance(solver, Solver):
        raise SolverTypeError(f"solver must be a Solver or None, got {type(solver).__name__} {solver!r:.60}")
    return solver


def solve_position(position: Position) -> int:
    """The exact value of a position (see :meth:`Solver.solve`)."""
    return thread_solver().solve(position)


def solve(deal: Deal | str, contract: Contract | str, declarer: int, leader: int = 0) -> int:
    """The declarer's tricks with best play on both sides (misère: the fewest
    he can be held to)."""
    return solve_position(Position.start(deal, contract, declarer, leader))


def solve_misere(deal: Deal | str, declarer: int, leader: int = 0) -> int:
    """The fewest tricks the misère declarer can be held to (0 = misère made)."""
    return solve(deal, Contract(ContractKind.MISERE), declarer, leader)


def card_values(
    deal: Deal | str, contract: Contract | str, declarer: int, leader: int = 0
) -> dict[Card, int]:
    """The declarer's total tricks after each legal card of the leader."""
    return thread_solver().card_values(Position.start(deal, contract, declarer, leader))


def allpass_tricks(
    deal: Deal | str, player: int, talon_leads: bool = True, four_players: bool = False
) -> int:
    """All-pass: the fewest tricks ``player`` can be sure of when both others
    play to give him as many as possible (the talon, if the deal has one,
    names the first two tricks' suits unless ``talon_leads`` is off)."""
    position = Position.start(deal, Contract(ContractKind.ALLPASS), player, 0,
                              talon_leads=talon_leads, four_players=four_players)
    return solve_position(position)


@dataclass(frozen=True)
class DealTable:
    """The fixed-hands table: for each seat as declarer, his tricks in each
    strain (index 0-3 suits, 4 no trump) and the misère value (tricks he is
    held to). The hands are played as dealt; seat ``leader`` leads."""

    tricks: tuple[tuple[int, ...], ...]
    misere: tuple[int, int, int]
    leader: int = 0


def deal_table(deal: Deal | str, leader: int = 0, solver: Solver | None = None) -> DealTable:
    """Solve every seat as declarer in all five strains and in misère (with
    ``solver``, or the calling thread's)."""
    deal = Deal.coerce(deal)
    solver = given_solver(solver)

    def value(contract: Contract, seat: int) -> int:
        return solver.solve(Position.start(deal, contract, seat, leader))

    tricks = tuple(
        tuple(value(Contract(ContractKind.TRICKS, 6, strain), seat) for strain in range(NO_TRUMP + 1))
        for seat in range(3)
    )
    misere = tuple(value(Contract(ContractKind.MISERE), seat) for seat in range(3))
    return DealTable(tricks, misere, leader)  # type: ignore[arg-type]
