"""The deal's table: what each seat could do as the declarer.

For each seat taking the talon: his best tricks in each strain (♠ ♣ ♦ ♥ NT)
with a best discard, his misère value with a best discard, and the highest
contract he could make. First hand (seat 0) leads whoever declares.

"The highest contract he could make" is the highest bid in the bidding order
6♠ < 6♣ < 6♦ < 6♥ < 6NT < 7♠ < … < 8NT < misère < 9♠ < … < 10NT whose
requirement his best-discard values meet: a trick contract of level L in a
strain needs at least L tricks in that strain, misère needs a misère value of
0. None when he can make nothing (fewer than 6 tricks everywhere, misère
caught). Each row uses its own best discard per contract, as a declarer who
knew every card would.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..api import given_solver
from ..engine import Solver
from ..notation import NO_TRUMP, Contract, ContractKind, Deal, Hand
from .discard import AnalysisError, best_discard

__all__ = ["StrainBest", "SeatTable", "DiscardTable", "discard_table", "highest_contract",
           "BIDDING_ORDER"]

MISERE = Contract(ContractKind.MISERE)


def _bidding_order() -> tuple[Contract, ...]:
    order: list[Contract] = []
    for level in range(6, 11):
        if level == 9:
            order.append(MISERE)
        order.extend(Contract(ContractKind.TRICKS, level, strain) for strain in range(NO_TRUMP + 1))
    return tuple(order)


BIDDING_ORDER = _bidding_order()
"""Every contract from 6♠ to 10NT in bidding order, misère between 8NT and 9♠."""


def highest_contract(tricks: Sequence[int], misere: int) -> Contract | None:
    """The highest contract whose requirement is met: ``tricks[strain]``
    (strain 0-3 a suit, 4 no trump) at least its level, misère value 0."""
    if len(tricks) != NO_TRUMP + 1:
        raise AnalysisError(f"tricks needs one value per strain (5), got {len(tricks)}")
    for contract in reversed(BIDDING_ORDER):
        value = misere if contract.kind is ContractKind.MISERE else tricks[contract.trump]
        if contract.is_made(value):
            return contract
    return None


@dataclass(frozen=True)
class StrainBest:
    """The best value in one contract kind and a discard reaching it."""

    contract: Contract
    """6 in the strain (the level is not part of the value), or misère."""
    value: int
    discard: Hand


@dataclass(frozen=True)
class SeatTable:
    seat: int
    strains: tuple[StrainBest, ...]
    """♠ ♣ ♦ ♥ NT, in that order."""
    misere: StrainBest
    best_contract: Contract | None

    @property
    def tricks(self) -> tuple[int, ...]:
        return tuple(s.value for s in self.strains)


@dataclass(frozen=True)
class DiscardTable:
    deal: Deal
    rows: tuple[SeatTable, SeatTable, SeatTable]
    leader: int = 0


def discard_table(deal: Deal | str, *, leader: int = 0, solver: Solver | None = None) -> DiscardTable:
    """Every seat as the declarer taking the talon: best tricks per strain and
    misère with a best discard each, and the highest contract he could make."""
    deal = Deal.coerce(deal)
    if deal.talon is None:
        raise AnalysisError("the deal's table needs the talon: give three hands and the talon")
    solver = given_solver(solver)
    rows = []
    for seat in range(3):
        bests = []
        for contract in [Contract(ContractKind.TRICKS, 6, s) for s in range(NO_TRUMP + 1)] + [MISERE]:
            found = best_discard(deal, seat, contract, leader=leader, all_discards=False, solver=solver)
            bests.append(StrainBest(contract, found.value, found.discard))
        strains = tuple(bests[:NO_TRUMP + 1])
        misere = bests[NO_TRUMP + 1]
        best = highest_contract([b.value for b in strains], misere.value)
        rows.append(SeatTable(seat, strains, misere, best))
    return DiscardTable(deal, (rows[0], rows[1], rows[2]), leader)
