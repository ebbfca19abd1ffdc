"""The default conservative figure: the declarer discards without seeing the
defenders' cards.

The double-dummy figures give the declarer, on every layout, the discard
that is best for that very layout: he discards as if he saw the defenders'
hands. Here his discard is a decision made on what he knows (his 12 cards,
the open talon, the contract, who leads), the same for every layout of the
defenders' cards he cannot tell apart, and only the play after it is double
dummy:

 - on each layout the declarer deals ``worlds`` layouts of the defenders'
   cards (all of them, in the two hands' sizes, uniformly: he cannot tell
   the real one from these), seeded by the run's seed and the layout's index;
 - in each world a double-dummy best discard is found
   (:func:`~solver.analysis.best_discard`: one class of equivalent best
   discards); the first of them in canonical order is a candidate, unless a
   candidate found before is already best in that world (proving every tie
   in every world would cost about four times as much);
 - every candidate is valued double dummy in every world, and he keeps the
   candidate with the most tricks in total over the worlds (misère: the
   fewest; ties: the one best in more worlds, then the first in canonical
   order);
 - that discard is played on the real layout, double dummy from the first
   card.

On every layout the figure is never better for the declarer than the
double-dummy value (the chosen discard is one of those the double-dummy
figure optimises over: at most its tricks, in misère at least) and equal to
it when every discard leaves the same game, or when the discard chosen blind
is also best on the real layout. It measures only the optimism of the
discard; the play stays double dummy (the single-dummy figure,
:mod:`solver.advice.single_dummy`, measures the play's). Its cost is
``worlds`` best-discard searches and a few solves per layout (the layout's
own best discard is the advice's), on ``layouts`` layouts (the first ones the
run keeps), far fewer than the advice's: it is a measurement next to the
advice, not a second advice.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from ..analysis import best_discard, deal_after_discard
from ..analysis.discard import discard_order
from ..engine import Solver
from ..notation import Contract, ContractKind, Deal, Hand
from ..position import Position
from .errors import AdviceError, require_counts

__all__ = ["BlindDiscard", "BLIND_DISCARD", "BLIND_DISCARD_TEXT", "BLIND_NOTE", "blind_candidates", "blind_choice",
           "blind_tricks", "blind_worlds"]


@dataclass(frozen=True)
class BlindDiscard:
    """The settings of the blind-discard figure: on how many layouts it is
    measured, and how many worlds the declarer weighs his discard on."""

    layouts: int = 12
    """0: not measured."""
    worlds: int = 2

    def __post_init__(self) -> None:
        require_counts(self, "blind discard", {"layouts": 0, "worlds": 1})

    @classmethod
    def given(cls, value: "BlindDiscard | int | None") -> "BlindDiscard":
        """A BlindDiscard from itself, a number of layouts, or None (the default)."""
        if value is None:
            return BLIND_DISCARD
        if isinstance(value, BlindDiscard):
            return value
        return cls(value, BLIND_DISCARD.worlds)


BLIND_DISCARD = BlindDiscard()
"""The default: 12 layouts, 2 worlds each (measured: 4-7 % of the CPU time
of a whist advice of 1,000 layouts, benchmarks/README.md)."""

BLIND_DISCARD_TEXT = ("blind discard: the declarer's discard chosen without seeing the defenders' cards (on his "
                      "12 cards and worlds of theirs he imagines: one discard for every layout he cannot tell "
                      "apart); the play after it double dummy; never better for him than double dummy")
"""What the figure is, in the advice's words."""
BLIND_NOTE = "blind discard: the declarer discards without seeing the defenders' cards, then plays double dummy"
"""The figure named in a note."""


def blind_worlds(deal: Deal, declarer: int, count: int, rng: random.Random) -> list[tuple[Hand, Hand, Hand]]:
    """``count`` layouts of the defenders' cards of ``deal`` as the declarer
    may imagine them: the same cards, dealt anew in the same hand sizes (the
    declarer's own hand left as it is)."""
    first, second = [seat for seat in range(3) if seat != declarer]
    pool = (deal.hands[first] | deal.hands[second]).cards()
    size = len(deal.hands[first])
    worlds = []
    for _ in range(count):
        rng.shuffle(pool)
        hands = list(deal.hands)
        hands[first], hands[second] = Hand.from_cards(pool[:size]), Hand.from_cards(pool[size:])
        worlds.append((hands[0], hands[1], hands[2]))
    return worlds


def _value(deal: Deal, declarer: int, contract: Contract, leader: int, discard: Hand, solver: Solver) -> int:
    return solver.solve(Position.start(deal_after_discard(deal, declarer, discard), contract, declarer, leader))


def blind_choice(pool: Hand, talon: Hand, declarer: int, contract: Contract, leader: int,
                 worlds: Sequence[tuple[Hand, Hand, Hand]], solver: Solver) -> Hand:
    """The discard the declarer keeps when he weighs it on ``worlds`` (the
    three hands, his own ignored; ``pool`` his 12 cards with the ``talon``):
    of the worlds' best discards (one a world), the one with the most tricks
    over all of them (misère: the fewest; ties: best in more worlds, then
    canonical order)."""
    return blind_candidates(pool, talon, declarer, contract, leader, worlds, solver)[0]


def blind_candidates(pool: Hand, talon: Hand, declarer: int, contract: Contract, leader: int,
                     worlds: Sequence[tuple[Hand, Hand, Hand]], solver: Solver) -> tuple[Hand, list[Hand]]:
    """:func:`blind_choice` and the candidates it chose from."""
    if contract.kind is ContractKind.ALLPASS:
        raise AdviceError("the blind-discard figure is for a declarer: a trick contract or misère")
    if not worlds:
        raise AdviceError("the blind discard needs at least one world")
    deals = []
    best: list[tuple[int, frozenset[int]]] = []
    candidates: list[Hand] = []
    for world in worlds:
        hands = list(world)
        hands[declarer] = pool - talon
        deal = Deal((hands[0], hands[1], hands[2]), talon)
        found = best_discard(deal, declarer, contract, leader=leader, all_discards=False, solver=solver)
        deals.append(deal)
        best.append((found.value, frozenset(d.mask for d in found.discards)))
        if not any(c.mask in best[-1][1] for c in candidates):
            candidates.append(found.discards[0])
    if len(candidates) == 1:
        return candidates[0], candidates
    scores = []
    for candidate in candidates:
        total = wins = 0
        for deal, (value, members) in zip(deals, best):
            got = value if candidate.mask in members else _value(deal, declarer, contract, leader, candidate, solver)
            total, wins = total + got, wins + (got == value)
        scores.append((total if contract.kind is ContractKind.TRICKS else -total, wins, _earlier(candidate)))
    pick = max(range(len(candidates)), key=lambda i: scores[i])
    return candidates[pick], candidates


def _earlier(discard: Hand) -> tuple[tuple[int, int], ...]:
    """Larger for a discard earlier in canonical order."""
    return tuple((-suit, -minus_rank) for suit, minus_rank in discard_order(discard))


def blind_tricks(deal: Deal, declarer: int, contract: Contract, leader: int, settings: BlindDiscard,
                 rng: random.Random, solver: Solver, *, found_value: int | None = None,
                 found_discards: Sequence[Hand] = ()) -> int:
    """The declarer's tricks from the start of play on ``deal`` (his hand
    before the talon) with the discard chosen blind (:func:`blind_choice`
    over ``settings.worlds`` worlds drawn with ``rng``). ``found_value`` and
    ``found_discards``: the deal's double-dummy best value and discards when
    already known (a chosen discard among them scores that value unsearched)."""
    assert deal.talon is not None
    pool = deal.hands[declarer] | deal.talon
    worlds = blind_worlds(deal, declarer, settings.worlds, rng)
    choice = blind_choice(pool, deal.talon, declarer, contract, leader, worlds, solver)
    if found_value is not None and any(choice.mask == d.mask for d in found_discards):
        return found_value
    return _value(deal, declarer, contract, leader, choice, solver)
