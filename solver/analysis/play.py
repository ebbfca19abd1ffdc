"""Play analysis and best lines.

:func:`analyze_play` takes a deal, the declarer, the contract, the discard and
the cards played so far (any prefix of the play) and gives the double-dummy
value before and after every card and what each card cost its player's side
in tricks (0 for an optimal card), then the best line from where the play
stopped. :func:`best_line` gives the principal variation from any position,
trick by trick.

Values count the declarer's tricks (misère: the tricks he takes), all tricks
of the deal included. Choices where the rules are silent:
 - with a talon in the deal and no discard given, the declarer is taken to
   have made his best discard (the first in canonical order);
 - a deal without a talon is taken as played (the discard already made);
 - all-pass is analysed too: there each card is judged by its own player's
   paranoid value (the fewest tricks he can be sure of), before and after it,
   so ``value_before``/``value_after`` count that player's tricks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..api import given_solver
from ..engine import Solver, check_position
from ..notation import Card, Contract, ContractKind, Deal, Hand, NotationError, NotationTypeError, parse_cards
from ..position import Position, PositionError
from .discard import AnalysisError, AnalysisTypeError, BestDiscard, best_discard, deal_after_discard, seat
from .lines import LineTrick, group_tricks

__all__ = ["BestLine", "CardStep", "PlayAnalysis", "analyze_play", "best_line", "wants_more"]


def wants_more(position: Position, seat: int) -> bool:
    """Does ``seat`` want the counted tricks to go up? (Trick contract: the
    declarer; misère: the defenders; all-pass counts the mover's own tricks,
    which he wants down.)"""
    kind = position.contract.kind
    if kind is ContractKind.ALLPASS:
        return False
    return (seat == position.declarer) == (kind is ContractKind.TRICKS)


@dataclass(frozen=True)
class BestLine:
    """An optimal line from a position to the end of the play."""

    value: int
    """The position's value (declarer's total tricks; all-pass: the counted seat's)."""
    cards: tuple[Card, ...]
    tricks: tuple[LineTrick, ...]


def best_line(position: Position, solver: Solver | None = None, value: int | None = None) -> BestLine:
    """The principal variation from ``position``: every card optimal for its
    player (ties to the lowest card index), grouped into tricks. ``value``,
    the position's value when the caller has solved it already, saves
    searching for it again."""
    check_position(position)
    solver = given_solver(solver)
    if position.is_over:
        return BestLine(position.declarer_tricks, (), ())
    if value is None:
        value = solver.solve(position)
    cards = tuple(solver.best_line(position, value))
    tricks, _ = group_tricks(position, cards)
    return BestLine(value, cards, tricks)


@dataclass(frozen=True)
class CardStep:
    """One card of the play and what it did to the value."""

    trick: int
    """Trick number, 1 for the first trick of the deal."""
    seat: int
    card: Card
    counted_seat: int
    """Whose tricks the values count: the declarer, or in all-pass the player of the card."""
    value_before: int
    value_after: int
    cost: int
    """Tricks the card lost for its player's side; 0 for an optimal card."""
    best_cards: tuple[Card, ...] = ()
    """For a costly card: the cards that kept the value."""

    def describe(self) -> str:
        """``trick 3, seat 1 played ♦K: −1``."""
        return f"trick {self.trick}, seat {self.seat} played {self.card.pretty()}: −{self.cost}"


@dataclass(frozen=True)
class PlayAnalysis:
    deal: Deal
    """The hands as played (after the discard)."""
    declarer: int
    contract: Contract
    discard: Hand | None
    """The declarer's discard (None for all-pass or a deal given as played)."""
    value: int
    """The value before the first card."""
    steps: tuple[CardStep, ...]
    final: Position
    """The position after the cards played."""
    line: BestLine | None
    """The best line from there on (None for all-pass: see ``allpass_line``)."""

    @property
    def mistakes(self) -> tuple[CardStep, ...]:
        return tuple(step for step in self.steps if step.cost > 0)


def _played(played: Iterable[Card | str] | str) -> list[Card]:
    if isinstance(played, str):
        try:
            return parse_cards(played)
        except NotationError as error:
            raise AnalysisError(f"played cards: {error}") from None
    if isinstance(played, (bytes, dict)) or not hasattr(played, "__iter__"):
        raise NotationTypeError(f"played must be card text or a sequence of cards, got {played!r:.60}")
    return [Card.coerce(c, "played card") for c in played]


def _hands_as_played(deal: Deal, declarer: int, contract: Contract, discard: Hand | str | None,
                     leader: int, solver: Solver, played: list[Card],
                     known: BestDiscard | None) -> tuple[Deal, Hand | None, int | None]:
    """The hands as played, the discard, and the value when a best discard
    was taken (its value is the best one: no need to search it again)."""
    if contract.kind is ContractKind.ALLPASS:
        if discard is not None:
            raise AnalysisError("all-pass has no discard")
        return deal, None, None
    if deal.talon is None:
        if discard is not None:
            raise AnalysisError("a discard needs the talon: give the deal as three hands and the talon")
        return deal, None, None
    value = None
    if discard is None:
        discard, value = _best_discard_keeping(deal, declarer, contract, leader, solver, played, known)
    else:
        discard = Hand.coerce(discard, "discard")
    return deal_after_discard(deal, declarer, discard), discard, value


def _best_discard_keeping(deal: Deal, declarer: int, contract: Contract, leader: int, solver: Solver,
                          played: list[Card], known: BestDiscard | None) -> tuple[Hand, int]:
    """A best discard that keeps every card of the declarer's among the cards
    played (those of his hand and the talon): the first such in canonical
    order; and the best value. ``known``, the search of every best discard
    when the caller has made it, is used instead of searching again when
    cards are kept (with none kept, one class of best discards is searched,
    as without it)."""
    assert deal.talon is not None
    pool = deal.hands[declarer].mask | deal.talon.mask
    kept = sum(1 << card.index for card in played if pool >> card.index & 1)
    if kept and known is not None and known.all_discards and (known.declarer, known.contract, known.leader) == (
            declarer, contract, leader):
        found = known
    else:
        found = best_discard(deal, declarer, contract, leader=leader, all_discards=bool(kept), solver=solver)
    for discard in found.discards:
        if not discard.mask & kept:
            return discard, found.value
    raise AnalysisError(f"no best discard keeps the cards the declarer played ({Hand(kept)}); "
                        "give his discard")


def _start(deal: Deal, declarer: int, contract: Contract, leader: int, talon_leads: bool,
           four_players: bool) -> Position:
    if contract.kind is ContractKind.ALLPASS:
        return Position.start(deal, contract, declarer, leader, talon_leads=talon_leads,
                              four_players=four_players)
    return Position.start(Deal(deal.hands), contract, declarer, leader)


def _step(solver: Solver, position: Position, card: Card, trick: int,
          known: int | None) -> tuple[CardStep, Position]:
    """One card judged; ``known`` is the position's value when already solved
    (trick contracts and misère count the same seat all along)."""
    seat = position.seat_to_move
    allpass = position.contract.kind is ContractKind.ALLPASS
    before = position.for_player(seat) if allpass else position
    after = before.play(card)
    value_before = known if known is not None and not allpass else solver.solve(before)
    value_after = solver.solve(after) if not after.is_over else after.declarer_tricks
    cost = value_before - value_after if wants_more(before, seat) else value_after - value_before
    best: tuple[Card, ...] = ()
    if cost > 0:
        values = solver.card_values(before)
        best = tuple(c for c, v in sorted(values.items(), key=lambda item: item[0].index)
                     if v == value_before)
    step = CardStep(trick, seat, card, before.declarer, value_before, value_after, cost, best)
    return step, position.play(card)


def analyze_play(
    deal: Deal | str,
    declarer: int,
    contract: Contract | str,
    played: Iterable[Card | str] | str = (),
    *,
    discard: Hand | str | None = None,
    leader: int = 0,
    talon_leads: bool = True,
    four_players: bool = False,
    solver: Solver | None = None,
    best: BestDiscard | None = None,
) -> PlayAnalysis:
    """The value before and after each played card, each card's cost, and
    the best line from the end of the cards played. For all-pass,
    ``declarer`` is only the seat whose tricks the starting value counts, and
    the line is left to :func:`~solver.analysis.allpass.allpass_line`.
    ``best``: the declarer's best discards (:func:`best_discard` of the same
    deal, contract and leader) when already searched, so that they are not
    searched again."""
    deal = Deal.coerce(deal)
    contract = Contract.coerce(contract)
    seat(declarer, "declarer")
    solver = given_solver(solver)
    cards = _played(played)
    if best is not None and not isinstance(best, BestDiscard):
        raise AnalysisTypeError(f"best must be a BestDiscard or None, got {type(best).__name__} {best!r:.60}")
    hands, discard_hand, value = _hands_as_played(deal, declarer, contract, discard, leader, solver, cards, best)
    position = _start(hands, declarer, contract, leader, talon_leads, four_players)
    if value is None:
        value = solver.solve(position)
    steps: list[CardStep] = []
    for card in cards:
        trick = len(position.history) // 3 + 1
        known = steps[-1].value_after if steps else value
        try:
            step, position = _step(solver, position, card, trick, known)
        except PositionError as error:
            raise AnalysisError(f"played cards: {error}") from None
        steps.append(step)
    known = steps[-1].value_after if steps else value
    line = None if contract.kind is ContractKind.ALLPASS else best_line(position, solver, known)
    return PlayAnalysis(hands, declarer, contract, discard_hand, value, tuple(steps), position, line)

