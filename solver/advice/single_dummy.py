"""A conservative figure next to the double-dummy one: the declarer plays
without seeing the defenders' cards.

Double dummy credits the declarer with every guess (which way to finesse,
whom to throw in): he plays as if he saw the defenders' hands. Here he does
not. On each layout the deal is played out from the start of play:

 - the defenders play double dummy on the true layout (the card keeping the
   declarer to the fewest tricks, ties to the lowest card) - the most a
   defence can do, so the figure stays conservative for the declarer;
 - at each of his turns the declarer (single dummy) deals ``worlds`` layouts
   of the defenders' remaining cards consistent with what he has seen (his
   cards, the cards played, the suits a defender has shown out of), values
   every legal card double dummy in each world, and plays the card with the
   highest total (ties to the lowest card): Monte Carlo sampling of perfect
   information (PIMC). Cards that are equivalent in his hand (touching once
   the cards out of play are left out) are valued once.

On every layout the single-dummy tricks are at most the double-dummy value:
the defence plays double dummy against a declarer who may only do worse than
his double-dummy best. The discard is the one the double-dummy figure uses
(his double-dummy best, or as the advice's discard model says); only the
play is single dummy. Trick contracts only: a misère declarer's play is not
estimated this way. The worlds are drawn from a generator seeded by the run's
seed and the layout's index, so the figure is reproducible.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine import Solver
from ..notation import Card, ContractKind, Hand
from ..position import Position

__all__ = ["SingleDummy", "single_dummy_tricks"]


@dataclass(frozen=True)
class SingleDummy:
    """The settings of the conservative figure: how many layouts it is
    estimated on and how many worlds the declarer samples at each turn."""

    layouts: int = 0
    """0: not estimated."""
    worlds: int = 8

    def __post_init__(self) -> None:
        from .errors import require_counts
        require_counts(self, "single dummy", {"layouts": 0, "worlds": 1})


def _representatives(legal: list[Card], own: Hand, live: int) -> list[Card]:
    """One card of each run of touching cards of the declarer's (``live``:
    the mask of every card still in a hand or on the trick)."""
    chosen: list[Card] = []
    for card in sorted(legal, key=lambda c: c.index):
        if chosen and chosen[-1].suit == card.suit:
            gap = range(chosen[-1].index + 1, card.index)
            if all(not (live >> index & 1) or (own.mask >> index & 1) for index in gap):
                continue
        chosen.append(card)
    return chosen


def _worlds(position: Position, declarer: int, voids: dict[int, set[int]], count: int,
            rng: random.Random) -> list[Position]:
    """Layouts of the defenders' remaining cards consistent with what the declarer saw."""
    first, second = [seat for seat in range(3) if seat != declarer]
    pool = (position.hands[first] | position.hands[second]).cards()
    size = len(position.hands[first])
    to_first = [c for c in pool if c.suit in voids[second] and c.suit not in voids[first]]
    to_second = [c for c in pool if c.suit in voids[first] and c.suit not in voids[second]]
    free = [c for c in pool if c not in to_first and c not in to_second]
    worlds = []
    for _ in range(count):
        rng.shuffle(free)
        take = size - len(to_first)
        hands = list(position.hands)
        hands[first] = Hand.from_cards(to_first + free[:take])
        hands[second] = Hand.from_cards(to_second + free[take:])
        worlds.append(Position((hands[0], hands[1], hands[2]), position.contract, position.declarer,
                               position.leader, position.trick, position.tricks_taken))
    return worlds


def single_dummy_tricks(start: Position, solver: Solver, worlds: int, rng: random.Random) -> int:
    """The declarer's total tricks when he plays single dummy from ``start``
    (a trick contract, no card played) against a double-dummy defence."""
    if start.contract.kind is not ContractKind.TRICKS:
        raise ValueError("the single-dummy figure is for trick contracts")
    declarer = start.declarer
    voids: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
    position = start
    while not position.is_over:
        seat = position.seat_to_move
        legal = position.legal_cards()
        if seat != declarer:
            values = solver.card_values(position)
            card = min(legal, key=lambda c: (values[c], c.index))
        else:
            live = sum(hand.mask for hand in position.hands) | sum(1 << c.index for c in position.trick)
            candidates = _representatives(legal, position.hands[declarer], live)
            if len(candidates) == 1:
                card = candidates[0]
            else:
                totals = {c: 0 for c in candidates}
                for world in _worlds(position, declarer, voids, worlds, rng):
                    values = solver.card_values(world)
                    for c in candidates:
                        totals[c] += values[c]
                card = max(candidates, key=lambda c: (totals[c], -c.index))
        lead = position.lead_suit
        if lead is not None and card.suit != lead:
            voids[seat].add(lead)
            if position.trump not in (lead, card.suit) and position.trump < 4:
                voids[seat].add(position.trump)   # void in the suit led and must trump: no trumps either
        position = position.play(card)
    return position.tricks_taken[declarer]
