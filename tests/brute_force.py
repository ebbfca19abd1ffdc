"""A small, obviously correct double-dummy solver for the tests.

Plain minimax over every legal card, no pruning and no heuristics; finished
sub-games are remembered by their exact state (all cards, the trick, who plays
first), which changes nothing but the time. It shares no code with the solver:
its own rules of play, written from spec/rules.md.

Cards are (suit, rank) pairs; trump is a suit 0-3 or None.
"""
from __future__ import annotations

from functools import lru_cache

Card = tuple[int, int]


def legal_cards(hand: frozenset[Card], lead_suit: int | None, trump: int | None) -> list[Card]:
    if lead_suit is None:
        return sorted(hand)
    follow = sorted(c for c in hand if c[0] == lead_suit)
    if follow:
        return follow
    trumps = sorted(c for c in hand if c[0] == trump)
    return trumps or sorted(hand)


def trick_winner(plays: tuple[tuple[int, Card], ...], lead_suit: int, trump: int | None,
                 talon_card: Card | None) -> int | None:
    """The seat taking the trick; None when nobody does (talon tricks)."""
    best, best_seat = talon_card, None
    for seat, card in plays:
        if best is None:
            better = card[0] == lead_suit or card[0] == trump
        elif card[0] == best[0]:
            better = card[1] > best[1]
        else:
            better = card[0] == trump
        if better:
            best, best_seat = card, seat
    return best_seat


class Game:
    """One objective: 'tricks' (the declarer maximises his tricks) or 'misere'
    (he minimises them; all-pass per-player value is the same game)."""

    def __init__(self, objective: str, declarer: int, trump: int | None, four_players: bool = False):
        self.objective = objective
        self.declarer = declarer
        self.trump = trump
        self.four_players = four_players
        self.value = lru_cache(maxsize=None)(self._value)

    def maximises(self, seat: int) -> bool:
        return (seat == self.declarer) == (self.objective == "tricks")

    def _value(self, hands: tuple[frozenset[Card], ...], plays: tuple[tuple[int, Card], ...],
               first: int, talon: tuple[Card, ...]) -> int:
        """The declarer's tricks from here on."""
        if not any(hands) and not plays:
            return 0
        results = [v for _, v in self.children(hands, plays, first, talon)]
        return max(results) if self.maximises((first + len(plays)) % 3) else min(results)

    def children(self, hands, plays, first, talon):
        """(card, value after it) for each legal card of the seat on move."""
        seat = (first + len(plays)) % 3
        lead_suit = talon[0][0] if talon else (plays[0][1][0] if plays else None)
        out = []
        for card in legal_cards(hands[seat], lead_suit, self.trump):
            new_hands = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
            new_plays = plays + ((seat, card),)
            if len(new_plays) < 3:
                out.append((card, self.value(new_hands, new_plays, first, talon)))
                continue
            talon_card = talon[0] if talon and self.four_players else None
            winner = trick_winner(new_plays, lead_suit, self.trump, talon_card)
            gain = 1 if winner == self.declarer else 0
            next_first = 0 if talon else winner
            out.append((card, gain + self.value(new_hands, (), next_first, talon[1:])))
        return out
