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

The table is 18 independent best-discard searches (3 seats × 6 contracts),
so ``workers`` threads can share them, each with a solver of its own: the
calling thread with ``solver``, the others with solvers the process keeps
for them between tables (:data:`PARTNERS`, bounded). All 18 go to the C core in one call, which
starts the other threads itself (no interpreter lock between two
searches). Misère goes first: its three searches take most of the time
(about 59 % of a table on random deals), and the trick contracts fill in
around them.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..api import given_solver
from ..engine import Solver, best_discards_many
from ..notation import BIDDING_ORDER, NO_TRUMP, Contract, ContractKind, Deal, Hand
from .discard import AnalysisError, BestDiscard, discard_jobs, found_best

__all__ = ["StrainBest", "SeatTable", "DiscardTable", "discard_table", "highest_contract",
           "BIDDING_ORDER"]

MISERE = Contract(ContractKind.MISERE)


def highest_contract(tricks: Sequence[int], misere: int) -> Contract | None:
    """The highest contract whose requirement is met: ``tricks[strain]``
    (strain 0-3 a suit, 4 no trump) at least its level, misère value 0."""
    if len(tricks) != NO_TRUMP + 1:
        raise AnalysisError(f"tricks needs one value per strain (5), got {len(tricks)}")
    for contract, strain in _HIGHEST_FIRST:
        if contract.is_made(misere if strain is None else tricks[strain]):
            return contract
    return None


_HIGHEST_FIRST = tuple((c, None if c.kind is ContractKind.MISERE else c.trump) for c in reversed(BIDDING_ORDER))
"""BIDDING_ORDER from the top, each contract with its strain (None: misère)."""


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


CONTRACTS = tuple(Contract(ContractKind.TRICKS, 6, s) for s in range(NO_TRUMP + 1)) + (MISERE,)
"""A row's contracts: 6 in each strain (♠ ♣ ♦ ♥ NT), then misère."""

PARTNERS_KEPT = len(CONTRACTS) * 3 - 1
"""Most idle partner solvers the process keeps between tables: 17, what one
table on 18 threads uses (16 MiB each, 272 MiB at most)."""


class PartnerPool:
    """The process's solvers for the tables' other threads. A table takes
    ``workers - 1`` of them (made when too few are idle) and gives them back
    when it ends, so their tables and memory serve the next table on any
    thread (a fresh 16 MiB table is milliseconds of page faults). Tables on
    several threads at once each hold their own; at most ``kept`` stay idle
    in between, the others are freed."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._lock = threading.Lock()
        self._idle: list[Solver] = []

    def take(self, count: int) -> list[Solver]:
        """``count`` solvers no other caller holds (the last given back first)."""
        with self._lock:
            start = max(0, len(self._idle) - count)
            taken = self._idle[start:]
            del self._idle[start:]
        try:
            while len(taken) < count:   # made outside the lock: an allocation takes milliseconds
                taken.append(Solver())
        except BaseException:
            self.give_back(taken)
            raise
        return taken

    def give_back(self, solvers: Sequence[Solver]) -> None:
        """Solvers taken, no longer used: kept idle up to ``kept``, the rest freed."""
        with self._lock:
            room = max(0, self.kept - len(self._idle))
            self._idle.extend(solvers[:room])

    def idle(self) -> int:
        with self._lock:
            return len(self._idle)


PARTNERS = PartnerPool(PARTNERS_KEPT)
"""The partner solvers of every table of the process (:func:`discard_table`)."""


@contextmanager
def _partner_solvers(count: int) -> Iterator[list[Solver]]:
    """``count`` solvers of :data:`PARTNERS` for one table's other threads,
    given back when it ends."""
    solvers = PARTNERS.take(count)
    try:
        yield solvers
    finally:
        PARTNERS.give_back(solvers)


def _searches(threads: int) -> list[tuple[int, int]]:
    """(seat, index into CONTRACTS) of every search: on one thread row by row,
    on more the dearest first (misère, then the suits, then no trump)."""
    if threads == 1:
        return [(seat, c) for seat in range(3) for c in range(len(CONTRACTS))]
    order = [len(CONTRACTS) - 1, *range(len(CONTRACTS) - 1)]
    return [(seat, c) for c in order for seat in range(3)]


def _check_workers(workers: object) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise TypeError(f"workers must be an int, got {type(workers).__name__} {workers!r:.60}")
    if workers < 1:
        raise AnalysisError(f"workers must be at least 1, got {workers}")
    return workers


def discard_table(deal: Deal | str, *, leader: int = 0, solver: Solver | None = None,
                  workers: int = 1) -> DiscardTable:
    """Every seat as the declarer taking the talon: best tricks per strain and
    misère with a best discard each, and the highest contract he could make.
    ``workers`` threads share the searches (1: all on the calling thread,
    with ``solver``; the others take ``workers - 1`` solvers of
    :data:`PARTNERS` for the table, every enhancement on). A stop requested on ``solver`` ends the table once each other
    thread has finished the search it is in."""
    deal = Deal.coerce(deal)
    if deal.talon is None:
        raise AnalysisError("the deal's table needs the talon: give three hands and the talon")
    solver = given_solver(solver)
    workers = min(_check_workers(workers), len(CONTRACTS) * 3)
    order = _searches(workers)
    by_seat = [discard_jobs(deal, seat, CONTRACTS, leader) for seat in range(3)]
    jobs = [by_seat[seat][c] for seat, c in order]
    with _partner_solvers(workers - 1) as partners:
        answers = best_discards_many([solver, *partners], jobs)
    found = {key: found_best(answer, job, False) for key, job, answer in zip(order, jobs, answers)}
    rows = []
    for seat in range(3):
        strains = tuple(_strain_best(found[seat, c]) for c in range(NO_TRUMP + 1))
        misere = _strain_best(found[seat, NO_TRUMP + 1])
        best = highest_contract([b.value for b in strains], misere.value)
        rows.append(SeatTable(seat, strains, misere, best))
    return DiscardTable(deal, (rows[0], rows[1], rows[2]), leader)


def _strain_best(best: BestDiscard) -> StrainBest:
    return StrainBest(best.contract, best.value, best.discard)
