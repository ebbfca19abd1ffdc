"""Lines of play shown trick by trick: who played what, and who took it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..notation import SEAT_NAMES, Card
from ..position import Position

__all__ = ["PlayedCard", "LineTrick", "group_tricks", "format_tricks"]


@dataclass(frozen=True)
class PlayedCard:
    seat: int
    card: Card


@dataclass(frozen=True)
class LineTrick:
    """One trick of a line. ``cards`` holds the whole trick in play order; the
    first ``already_played`` of them were on the table before the line began."""

    number: int
    """1 for the first trick of the deal."""
    cards: tuple[PlayedCard, ...]
    already_played: int = 0
    talon_card: Card | None = None
    """All-pass: the talon card that names this trick's suit."""
    winner: int | None = None
    """The seat that took the trick; None when no seat did (a talon trick
    nobody followed, the sitting dealer's trick) or the trick is unfinished."""

    @property
    def complete(self) -> bool:
        return len(self.cards) == 3

    def pretty(self) -> str:
        """``trick 3: ♠A ♠7 ♠8 (first hand leads) → first hand``."""
        played = " ".join(p.card.pretty() for p in self.cards)
        if self.talon_card is not None:
            opening = f"talon {self.talon_card.pretty()}, {SEAT_NAMES[self.cards[0].seat]} first"
        else:
            opening = f"{SEAT_NAMES[self.cards[0].seat]} leads"
        if not self.complete:
            outcome = "unfinished"
        elif self.winner is None:
            outcome = "no seat takes it"
        else:
            outcome = SEAT_NAMES[self.winner]
        return f"trick {self.number}: {played} ({opening}) → {outcome}"


def _trick_number(position: Position) -> int:
    return len(position.history) // 3 + 1


def group_tricks(position: Position, cards: Sequence[Card]) -> tuple[tuple[LineTrick, ...], Position]:
    """Play ``cards`` from ``position`` (each checked) and group them into
    tricks; also answers the position at the end."""
    current = [PlayedCard((position.leader + i) % 3, c) for i, c in enumerate(position.trick)]
    already = len(current)
    talon = position.talon_leads[0] if position.talon_leads else None
    number = _trick_number(position)
    tricks: list[LineTrick] = []
    for card in cards:
        seat = position.seat_to_move
        taken = position.tricks_taken
        position = position.play(card)
        current.append(PlayedCard(seat, card))
        if len(current) == 3:
            winner = next((s for s in range(3) if position.tricks_taken[s] > taken[s]), None)
            tricks.append(LineTrick(number, tuple(current), already, talon, winner))
            number, current, already = number + 1, [], 0
            talon = position.talon_leads[0] if position.talon_leads else None
    if len(current) > already:
        tricks.append(LineTrick(number, tuple(current), already, talon, None))
    return tuple(tricks), position


def format_tricks(tricks: Sequence[LineTrick]) -> str:
    return "\n".join(trick.pretty() for trick in tricks)
