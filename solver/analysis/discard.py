"""The declarer's best discard.

The declarer takes the talon, so he holds 12 cards (in an endgame: his hand
size + 2) and puts two out of play. :func:`best_discard` finds the best
double-dummy value of a contract over every discard (trick contract: the most
tricks; misère: the fewest he can be held to) and the discards that reach it.

The search is in C (``csrc/discard.c``): discards that leave the same game up to
the relative ranks of the live cards are searched once (a discarded card is
dead, so throwing ♠Q or ♠J can be the same when nobody else holds a card
between them), each other discard needs one or two null-window probes against
the best value so far, and the solver's table is kept across the discards.

Choices where the rules are silent:
 - only the strain of a trick contract matters for the value (as in the rest
   of the package); its level only decides ``made``;
 - the discards are listed in the canonical order of their cards (spades
   first, high to low), each discard's two cards in that order too.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from ..api import given_solver
from ..engine import DiscardJob, DiscardSearch, Solver, best_discard_search
from ..notation import Card, Contract, ContractKind, Deal, Hand, check_seat
from ..position import PositionError

__all__ = [
    "AnalysisError",
    "AnalysisTypeError",
    "BestDiscard",
    "best_discard",
    "discard_job",
    "discard_jobs",
    "found_best",
    "declarer_pool",
    "deal_after_discard",
    "discard_text",
    "discard_order",
]


class AnalysisError(ValueError):
    """An analysis that cannot be made from what was given (no talon for a
    discard, a discard the declarer does not hold, ...)."""


class AnalysisTypeError(AnalysisError, TypeError):
    """An argument of the wrong type (not a DealRequest, a flag not a bool, ...)."""


def _deal(deal: Deal | str) -> Deal:
    return Deal.coerce(deal)


def _contract(contract: Contract | str) -> Contract:
    return Contract.coerce(contract)


def seat(value: int, what: str) -> int:
    """A seat argument 0-2, or an AnalysisError naming it."""
    return check_seat(value, what, AnalysisError)


def declarer_pool(deal: Deal, declarer: int) -> Hand:
    """The declarer's cards before his discard: his hand and the talon."""
    if deal.talon is None:
        raise AnalysisError("a discard needs the talon: give the deal as three hands and the talon")
    return deal.hands[seat(declarer, "declarer")] | deal.talon


def deal_after_discard(deal: Deal, declarer: int, discard: Hand) -> Deal:
    """The hands as played: the declarer holds his hand and the talon less
    the discard; the two discarded cards are out of play (no talon)."""
    deal = Deal.coerce(deal)
    discard = Hand.coerce(discard, "discard")
    pool = declarer_pool(deal, declarer)
    if len(discard) != 2:
        raise AnalysisError(f"a discard is 2 cards, got {len(discard)} ({discard.pretty()})")
    foreign = discard - pool
    if foreign.mask:
        raise AnalysisError(f"the declarer cannot discard {' '.join(c.pretty() for c in foreign)}: "
                            f"he holds {pool.pretty()}")
    hands = list(deal.hands)
    hands[declarer] = pool - discard
    return Deal((hands[0], hands[1], hands[2]))


def discard_text(discard: Hand) -> str:
    """``AsKs``: the two cards, canonical, in canonical order."""
    return "".join(str(card) for card in Hand.coerce(discard, "discard").cards())


def discard_order(discard: Hand) -> tuple[tuple[int, int], ...]:
    """Sort key listing discards in canonical order (spades first, high to low)."""
    return _card_order(discard.mask)


@lru_cache(maxsize=1024)
def _card_order(mask: int) -> tuple[tuple[int, int], ...]:
    """discard_order by mask, kept: a table sorts 18 answers' discards, and
    listing a hand's cards costs microseconds (496 two-card discards)."""
    return tuple((card.suit, -card.rank) for card in Hand(mask).cards())


@dataclass(frozen=True)
class BestDiscard:
    """The best value of a contract over the declarer's discards."""

    declarer: int
    contract: Contract
    value: int
    """Trick contract: the declarer's tricks; misère: the tricks he is held to."""
    discards: tuple[Hand, ...]
    """Discards reaching ``value`` (all of them when ``all_discards``), canonical order."""
    classes: int
    """Distinct discards searched (equivalent discards count once)."""
    all_discards: bool = True
    leader: int = 0

    @property
    def discard(self) -> Hand:
        """The first best discard in canonical order."""
        return self.discards[0]

    @property
    def made(self) -> bool:
        """Is the contract made with best play and the best discard?"""
        return self.contract.is_made(self.value)


def discard_job(deal: Deal | str, declarer: int, contract: Contract | str, leader: int = 0) -> DiscardJob:
    """The checked arguments of one best-discard search (an AnalysisError
    names what is wrong)."""
    return discard_jobs(deal, declarer, (contract,), leader)[0]


def discard_jobs(deal: Deal | str, declarer: int, contracts: Sequence[Contract | str],
                 leader: int = 0) -> list[DiscardJob]:
    """:func:`discard_job` for each of ``contracts``, the deal and the seats
    checked once (a table makes 18 jobs)."""
    deal = _deal(deal)
    seat(declarer, "declarer")
    seat(leader, "leader")
    checked = [_contract(contract) for contract in contracts]
    if any(contract.kind is ContractKind.ALLPASS for contract in checked):
        raise AnalysisError("all-pass has no declarer and no discard; ask for a trick contract or misère")
    pool = declarer_pool(deal, declarer)
    if len(pool) < 3:
        raise AnalysisError("the deal has no cards to play after the discard")
    return [DiscardJob(deal.hands, pool, declarer, contract, leader) for contract in checked]


def found_best(found: DiscardSearch | PositionError, job: DiscardJob, all_discards: bool) -> BestDiscard:
    """A search's answer as a BestDiscard (its discards in canonical order),
    or the AnalysisError of a refused search."""
    if isinstance(found, PositionError):
        raise AnalysisError(f"cannot search the discards: {found}") from None
    discards = tuple(sorted(found.discards, key=discard_order))
    return BestDiscard(job.declarer, job.contract, found.value, discards, found.classes, all_discards, job.leader)


def best_discard(
    deal: Deal | str,
    declarer: int,
    contract: Contract | str,
    *,
    leader: int = 0,
    all_discards: bool = True,
    solver: Solver | None = None,
    canonical: bool = False,
) -> BestDiscard:
    """The best value over every discard of ``declarer`` (who takes the
    deal's talon) in ``contract`` (a trick contract or misère), and the
    discards reaching it: all of them, or with ``all_discards=False`` those
    of one equivalence class (faster: no tie needs proving). ``canonical``
    (over ``all_discards``): only the best discard whose starting position
    comes first in canonical form (the rule of
    :func:`~solver.advice.play.canonical_key`), found without proving every
    tie."""
    job = discard_job(deal, declarer, contract, leader)
    solver = given_solver(solver)
    try:
        found: DiscardSearch | PositionError = best_discard_search(
            solver, job.hands, job.pool, declarer, job.contract, leader, all_discards, canonical=canonical)
    except PositionError as error:
        found = error
    return found_best(found, job, all_discards and not canonical)
