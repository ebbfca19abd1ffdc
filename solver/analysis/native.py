"""Calls into the analysis part of the C core (``csrc/discard.c``,
``csrc/maxn.c``) with a :class:`~solver.engine.Solver`'s context.

Both go through :meth:`Solver.call`, under the solver's one-thread rule, so a
Solver stays safe to share between the plain solving calls and the analyses.
"""
from __future__ import annotations

from dataclasses import dataclass

from .._core import ffi, lib
from ..engine import Solver, to_c_position
from ..notation import Card, Contract, ContractKind, Hand
from ..position import Position

__all__ = ["DiscardSearch", "MaxnOutcome", "best_discard_search", "maxn_search"]


@dataclass(frozen=True)
class DiscardSearch:
    value: int
    discards: tuple[Hand, ...]
    """Each a 2-card hand, in ascending mask order."""
    classes: int


def best_discard_search(
    solver: Solver,
    hands: tuple[Hand, Hand, Hand],
    pool: Hand,
    declarer: int,
    contract: Contract,
    leader: int,
    all_best: bool,
) -> DiscardSearch:
    """``pdd_best_discard``: hands[declarer] is ignored, ``pool`` is his cards
    before the discard."""
    c = ffi.new("pdd_position *")
    for seat in range(3):
        c.hands[seat] = 0 if seat == declarer else hands[seat].mask
    c.leader = leader
    c.declarer = declarer
    c.trump = contract.trump
    c.objective = lib.PDD_TRICKS if contract.kind is ContractKind.TRICKS else lib.PDD_MISERE
    result = ffi.new("pdd_discard_result *")
    solver.call(lib.pdd_best_discard, c, pool.mask, 1 if all_best else 0, result)
    discards = tuple(Hand(mask) for mask in ffi.unpack(result.discards, result.count))
    return DiscardSearch(result.value, discards, result.classes)


@dataclass(frozen=True)
class MaxnOutcome:
    tricks: tuple[int, int, int]
    """Each seat's tricks from the position on (the current trick included)."""
    unclaimed: int
    """Tricks no seat takes: the sitting dealer's (4 players) or talon tricks nobody followed."""
    line: tuple[Card, ...]


def maxn_search(solver: Solver, position: Position) -> MaxnOutcome:
    """``pdd_maxn_line`` from ``position``."""
    result = ffi.new("pdd_maxn_result *")
    c = to_c_position(position)
    solver.call(lib.pdd_maxn_line, c, result)
    tricks = (result.tricks[0], result.tricks[1], result.tricks[2])
    line = tuple(Card.from_index(result.cards[i]) for i in range(result.count))
    return MaxnOutcome(tricks, result.unclaimed, line)
