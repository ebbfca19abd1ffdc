"""Positions inside the play, checked against the rules (``spec/rules.md``).

A :class:`Position` is what the solver searches from: the cards each seat still
holds, the cards on the current trick, who plays first to it, the tricks each
seat has taken, the contract and the declarer. It is built from a deal and the
cards played so far, each card checked (follow suit; a player void in the suit
led must trump when he can), so a bad card gets a message naming the trick, the
seat and the card.

All-pass: the "declarer" of an all-pass position is the player whose tricks are
counted (the per-player paranoid value). The talon cards, when given, name the
suits of the first tricks as the rules say: seat 0 plays first to each of them.
Choice (the spec is silent): the talon leads in the order the talon is written
(canonical order: spades first, high to low), first card to the first trick.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from .notation import (
    SEAT_NAMES,
    Card,
    Contract,
    ContractKind,
    Deal,
    Hand,
    NO_TRUMP,
    NotationError,
    check_seat,
)

__all__ = ["PositionError", "PositionTypeError", "Position", "trick_winner"]


class PositionError(ValueError):
    """A position that breaks the rules: a card not held, not following suit,
    not trumping when it must, a seat out of range, and so on."""


class PositionTypeError(PositionError, TypeError):
    """An argument that is not a position (or a deal, contract, card where one
    is needed): both a TypeError and a PositionError, so callers that catch
    either get it."""


def trick_winner(trick: Sequence[Card], leader: int, trump: int, talon: Card | None = None,
                 talon_competes: bool = False) -> int | None:
    """The seat that takes a finished trick of three cards, the first played
    by ``leader``: the highest trump, else the highest card of the suit led.
    On an all-pass talon trick the talon card ``talon`` sets the suit led, and
    with four players (``talon_competes``) it also takes part; None when it
    wins, or when nobody follows its suit."""
    suit = talon.suit if talon is not None else trick[0].suit
    best = talon if talon_competes else None
    best_seat: int | None = None
    for offset, card in enumerate(trick):
        if best is None:
            beats = card.suit == suit or card.suit == trump
        elif card.suit == best.suit:
            beats = card.rank > best.rank
        else:
            beats = card.suit == trump
        if beats:
            best, best_seat = card, (leader + offset) % 3
    return best_seat


@dataclass(frozen=True)
class Position:
    """A position during the play of one contract.

    Build one with :meth:`start` (before the first card) or :meth:`after`
    (after a sequence of cards), then :meth:`play` further cards.
    """

    hands: tuple[Hand, Hand, Hand]
    """Cards each seat still holds."""
    contract: Contract
    declarer: int
    """The declarer; for all-pass, the player whose tricks are counted."""
    leader: int
    """Seat that plays first to the current trick."""
    trick: tuple[Card, ...] = ()
    """Cards on the current trick, in play order."""
    tricks_taken: tuple[int, int, int] = (0, 0, 0)
    talon_leads: tuple[Card, ...] = ()
    """All-pass: talon cards still to name a trick's suit (the current one first)."""
    four_players: bool = False
    """All-pass in a 4-player game: a talon card that stays highest wins for the dealer."""
    history: tuple[Card, ...] = field(default=(), compare=False)
    """Every card played from the start, in order."""

    @classmethod
    def start(
        cls,
        deal: Deal | str,
        contract: Contract | str,
        declarer: int,
        leader: int = 0,
        talon_leads: bool = True,
        four_players: bool = False,
    ) -> Position:
        """The position before the first card. For all-pass with a talon in
        the deal and ``talon_leads`` on, the talon names the first two tricks'
        suits and seat 0 plays first to them (``leader`` must then be 0)."""
        deal = Deal.coerce(deal)
        contract = Contract.coerce(contract)
        check_seat(declarer, "declarer", PositionError)
        check_seat(leader, "leader", PositionError)
        leads: tuple[Card, ...] = ()
        if contract.kind is ContractKind.ALLPASS and talon_leads and deal.talon is not None:
            if leader != 0:
                raise PositionError("with talon leads, first hand (seat 0) plays first")
            leads = tuple(deal.talon.cards())[: deal.hand_size]
        if deal.hand_size == 0:
            raise PositionError("the deal has no cards to play")
        return cls(deal.hands, contract, declarer, leader, talon_leads=leads,
                   four_players=four_players)

    @classmethod
    def after(
        cls,
        deal: Deal | str,
        contract: Contract | str,
        declarer: int,
        played: Iterable[Card | str],
        leader: int = 0,
        talon_leads: bool = True,
        four_players: bool = False,
    ) -> Position:
        """The position after ``played`` (cards in play order), each checked."""
        position = cls.start(deal, contract, declarer, leader, talon_leads, four_players)
        for card in played:
            position = position.play(card)
        return position

    @property
    def trump(self) -> int:
        return self.contract.trump

    @property
    def seat_to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    @property
    def tricks_left(self) -> int:
        """Tricks not finished yet, the current one included."""
        return len(self.hands[self.leader]) + (1 if self.trick else 0)

    @property
    def is_over(self) -> bool:
        return self.tricks_left == 0

    @property
    def lead_suit(self) -> int | None:
        if self.talon_leads:
            return self.talon_leads[0].suit
        return self.trick[0].suit if self.trick else None

    def legal_cards(self) -> list[Card]:
        """Cards the seat on move may play, lowest index first."""
        hand = self.hands[self.seat_to_move]
        suit = self.lead_suit
        if suit is None:
            return sorted(hand.cards(), key=lambda c: c.index)
        follow = [c for c in hand if c.suit == suit]
        if follow:
            return sorted(follow, key=lambda c: c.index)
        trumps = [c for c in hand if c.suit == self.trump] if self.trump != NO_TRUMP else []
        return sorted(trumps or hand.cards(), key=lambda c: c.index)

    def play(self, card: Card | str) -> Position:
        """The position after the seat on move plays ``card``."""
        if isinstance(card, str):
            try:
                card = Card.parse(card)
            except NotationError as error:
                raise PositionError(str(error)) from None
        if self.is_over:
            raise PositionError(f"card {card}: all tricks have been played")
        seat = self.seat_to_move
        trick_number = len(self.history) // 3 + 1
        where = f"trick {trick_number}, {SEAT_NAMES[seat]} (seat {seat})"
        hand = self.hands[seat]
        if card not in hand:
            raise PositionError(f"{where} played {card}, which that seat does not hold")
        if card not in self.legal_cards():
            suit = self.lead_suit
            follow = [c for c in hand if c.suit == suit]
            reason = ("must follow suit" if follow else "must play a trump")
            raise PositionError(f"{where} played {card} but {reason}: legal cards are "
                                + " ".join(str(c) for c in self.legal_cards()))
        hands = list(self.hands)
        hands[seat] = hand - card
        trick = self.trick + (card,)
        history = self.history + (card,)
        if len(trick) < 3:
            return replace(self, hands=tuple(hands), trick=trick, history=history)
        winner = self._trick_winner(trick)
        taken = list(self.tricks_taken)
        if winner is not None:
            taken[winner] += 1
        leads = self.talon_leads[1:]
        if self.talon_leads:
            next_leader = 0
        else:
            next_leader = winner if winner is not None else 0
        return replace(self, hands=tuple(hands), trick=(), leader=next_leader,
                       tricks_taken=tuple(taken), talon_leads=leads, history=history)

    def _trick_winner(self, trick: Sequence[Card]) -> int | None:
        """The seat that takes a finished trick; None when nobody does (a talon
        trick nobody followed, or one the 4-player dealer's talon card won)."""
        talon = self.talon_leads[0] if self.talon_leads else None
        return trick_winner(trick, self.leader, self.trump, talon, self.four_players)

    @property
    def declarer_tricks(self) -> int:
        return self.tricks_taken[self.declarer]

    def for_player(self, player: int) -> Position:
        """The same position with another seat's tricks counted (all-pass)."""
        return replace(self, declarer=check_seat(player, "player", PositionError))
