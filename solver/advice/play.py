"""One layout, played double dummy: the declarer's discard, his tricks, and
the split of the defence's tricks along the canonical line.

An outcome key is ``(declarer's tricks, split)``: the declarer's tricks in the
whole deal, and ``split`` = every seat's tricks in the whole deal (a tuple by
seat) or None when the split was not asked for. Tricks of the whole deal are
the tricks before the hands given (``prior``, endgames only), the tricks taken
by the cards already played, and the tricks from the position on.

The discard (rules.md, "best discard"; the issue leaves the model open):
 - ``best`` (default): the declarer's double-dummy best discard for the named
   contract. Among several best discards the first in canonical order is
   played, or with cards already played the first one those cards are
   consistent with; a layout with no consistent best discard is rejected.
   When the split is counted (it may differ from one best discard to
   another), every best discard is found and the one whose position comes
   first in canonical form (:func:`canonical_key`) is played, so that the
   choice does not depend on the cards' names either.
 - ``uniform``: one of the discards that keep the contract makeable (double
   dummy, before any card is played; equivalent discards - the same game up to
   the relative ranks of the live cards, in misère also up to a renaming of
   the suits (:func:`discard_classes`) - are one search), each equally
   likely: the layout's weight is spread evenly over them. If no discard makes
   the contract, the best discard is played. With cards already played, only
   the discards those cards are consistent with count.

The split of the defence's tricks (two whisters) is defined by a rule that
does not depend on how the cards are named (:func:`split_tricks`): the
position's suits are renamed in a canonical order (trumps first, then the
suits ordered by who holds each live card, high to low, and where the cards
on the trick lie), the solver's line is taken there (every card optimal for
its player, each player's ties going to his lowest card), and each seat's
tricks are counted along it. Suits whose holdings have the same pattern are
interchangeable, so their order does not matter; within a suit only the
cards' order counts. The declarer's total along the line is always his
double-dummy value; the defenders' shares are those of this one optimal
line (no other optimal line is searched).

Auction inference (:class:`AuctionFilter`): a layout is rejected when its
declarer could not reasonably have named the contract, or when a defender who
said "whist" could not reasonably have whisted:
 - fewer than ``min_trumps`` trumps among the declarer's 12 cards (suit
   contracts);
 - a double-dummy best-discard value more than ``max_undertricks`` short of
   the contract (misère: caught for more than ``max_undertricks`` tricks);
 - a defender known to have whisted holding fewer than ``whister_min_tops``
   tops: aces, and kings with at least one more card of their suit.
The trump and tops tests read the hands given; for an endgame given by its
unseen cards the default model keeps the value test alone
(:func:`auction_model_for`).

:data:`AUCTION_MODEL` is the default model of the whist advice: at least 4
trumps, at most 1 down double dummy with the best discard (the contract less
one) on a 6 or a 7 and none from 8 on (``sure_from_level``: a bid of 8 or
more is made on counted tricks, and with one down allowed the layouts just
short of the contract, the most numerous, would make a 9♠ fail more often
than not), and a whisting partner with at least one top. A passing defender implies
nothing (players pass strong hands too, to let the other whist or to half-whist).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Hashable, Iterable, Sequence

from ..analysis import best_discard, deal_after_discard
from ..analysis.discard import discard_order
from ..engine import Solver, canonical_suits, discard_class_ids
from ..notation import NO_TRUMP, Card, Contract, ContractKind, Deal, Hand
from ..position import Position, PositionError, trick_winner
from .errors import AdviceError
from .stats import Number

__all__ = [
    "AUCTION_MODEL",
    "AuctionFilter",
    "ContractPlay",
    "auction_model_for",
    "auction_text",
    "canonical_key",
    "canonical_position",
    "split_tricks",
    "DiscardModel",
    "OutcomeKey",
    "discard_classes",
    "line_tricks",
    "made",
]

OutcomeKey = tuple[int, "tuple[int, int, int] | None"]


class DiscardModel(str, Enum):
    BEST = "best"
    UNIFORM = "uniform"


@dataclass(frozen=True)
class AuctionFilter:
    """Which layouts a declarer could reasonably have bid from (None: no test)."""

    min_trumps: int | None = 4
    max_undertricks: int | None = 2
    whister_min_tops: int | None = None
    sure_from_level: int | None = None
    """From this level on, no undertrick: the value must reach the contract."""

    def __post_init__(self) -> None:
        for name in ("min_trumps", "max_undertricks", "whister_min_tops", "sure_from_level"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 12):
                raise AdviceError(f"auction filter: {name} must be a whole number 0..12 or None, got {value!r}")

    def describe(self) -> str:
        """The model in words (for the advice's output)."""
        parts = []
        if self.min_trumps is not None:
            parts.append(f"the declarer holds at least {self.min_trumps} trumps in his 12 cards (suit contracts)")
        if self.max_undertricks is not None:
            parts.append("his double-dummy best-discard value is at least the contract"
                         + (f" less {self.max_undertricks}" if self.max_undertricks else "")
                         + (f", the contract itself from {self.sure_from_level} on"
                            if self.sure_from_level is not None else "")
                         + f" (misère: caught for at most {self.max_undertricks})")
        if self.whister_min_tops is not None:
            parts.append(f"a defender who said whist holds at least {self.whister_min_tops} top(s) "
                         "(aces, kings with another card of the suit)")
        return "; ".join(parts) if parts else "no test: every layout counts"

    def as_dict(self) -> dict[str, int | None]:
        return {"min_trumps": self.min_trumps, "max_undertricks": self.max_undertricks,
                "whister_min_tops": self.whister_min_tops, "sure_from_level": self.sure_from_level}

    def trumps_ok(self, contract: Contract, pool: Hand) -> bool:
        return self._trumps_ok(contract, pool.mask)

    def _trumps_ok(self, contract: Contract, pool: int) -> bool:
        if self.min_trumps is None or contract.kind is not ContractKind.TRICKS or contract.strain == NO_TRUMP:
            return True
        assert contract.strain is not None
        return (pool >> (8 * contract.strain) & 0xFF).bit_count() >= self.min_trumps

    def whister_ok(self, hand: Hand) -> bool:
        return self.whister_min_tops is None or tops_of_mask(hand.mask) >= self.whister_min_tops

    def hands_ok(self, contract: Contract, pool: Hand, hands: Sequence[Hand], whisters: Iterable[int]) -> bool:
        """The tests that need no search: the declarer's trumps in ``pool``
        (his hand and the talon) and each whister's tops in ``hands``."""
        return self.masks_ok(contract, pool.mask, [hand.mask for hand in hands], whisters)

    def masks_ok(self, contract: Contract, pool: int, hands: Sequence[int], whisters: Iterable[int]) -> bool:
        """:meth:`hands_ok` with card masks (a sampled layout's, no Hand made)."""
        if not self._trumps_ok(contract, pool):
            return False
        least = self.whister_min_tops
        return least is None or all(tops_of_mask(hands[seat]) >= least for seat in whisters)

    def value_ok(self, contract: Contract, value: int, prior: int) -> bool:
        """``value`` is the best-discard value of the hands given; ``prior`` the
        declarer's tricks before them."""
        if self.max_undertricks is None:
            return True
        if contract.kind is ContractKind.MISERE:
            return prior + value <= self.max_undertricks
        return value >= self.value_floor(contract, prior)

    def value_floor(self, contract: Contract, prior: int) -> int:
        """Trick contracts: the least best-discard value :meth:`value_ok`
        keeps (0: every value; also misère, whose test is a ceiling). A
        search may answer any value below it for a layout that is rejected
        anyway (``pdd_best_discard_floor``)."""
        if self.max_undertricks is None or contract.kind is not ContractKind.TRICKS:
            return 0
        assert contract.level is not None
        sure = self.sure_from_level is not None and contract.level >= self.sure_from_level
        return max(0, contract.level - (0 if sure else self.max_undertricks) - prior)


AUCTION_MODEL = AuctionFilter(min_trumps=4, max_undertricks=1, whister_min_tops=1, sure_from_level=8)
"""The default auction model of the whist advice (see the module)."""
AUCTION_MODEL_ENDGAME = AuctionFilter(min_trumps=None, max_undertricks=AUCTION_MODEL.max_undertricks,
                                      sure_from_level=AUCTION_MODEL.sure_from_level)
"""The default model on an endgame given by its unseen cards: the value test alone."""


def auction_model_for(auction: AuctionFilter | None, hand_size: int) -> AuctionFilter | None:
    """The filter a request plays with: the default model on an endgame
    (fewer than 10 cards a hand) tests the declarer's value alone, the hands
    being too short for trump lengths and tops."""
    if auction == AUCTION_MODEL and hand_size < 10:
        return AUCTION_MODEL_ENDGAME
    return auction


def auction_text(auction: AuctionFilter | None) -> str:
    """The auction model a run played, in words."""
    if auction is None:
        return "none (every layout of the hidden cards counts the same)"
    if auction == AUCTION_MODEL_ENDGAME:
        return "the default model (an endgame: the value test alone): " + auction.describe()
    return ("the default model: " if auction == AUCTION_MODEL else "") + auction.describe()


def tops(hand: Hand) -> int:
    """Aces, and kings with at least one more card of their suit."""
    return tops_of_mask(hand.mask)


def tops_of_mask(mask: int) -> int:
    """:func:`tops` of a card mask."""
    count = 0
    for suit in range(4):
        held = mask >> (8 * suit) & 0xFF   # bit 7 the ace, bit 6 the king
        count += (held >> 7) + (held >> 6 & 1 and held.bit_count() >= 2)
    return count


def made(contract: Contract, declarer_tricks: int) -> bool:
    """Did the declarer make ``contract`` with these tricks (whole deal)?"""
    return contract.is_made(declarer_tricks)


def contract_kind(contract: Contract) -> Contract:
    """The game a contract is played as, whatever its level: 6 of its strain,
    or misère (a contract's tricks do not depend on its level)."""
    if contract.kind is ContractKind.MISERE:
        return contract
    return Contract(ContractKind.TRICKS, 6, contract.strain)


def line_tricks(position: Position, line: Sequence[Card]) -> tuple[int, int, int]:
    """Each seat's tricks at the end when ``line`` (the rest of the play, in
    order) is played from ``position`` (a trick contract or misère), counting
    the tricks already taken.  The winners come from
    :func:`~solver.position.trick_winner`; the line is not re-checked card by
    card: through Position.play a whole deal's line takes 350 µs, here 7 µs,
    and layout loops call this once per layout and card."""
    if position.talon_leads:
        raise AdviceError("line_tricks counts trick contracts and misère, not all-pass talon tricks")
    return _tricks_along(position.tricks_taken, position.leader, position.trick, position.trump, line)


def _tricks_along(taken_before: Sequence[int], leader: int, trick_before: Sequence[Card], trump: int,
                  line: Sequence[Card]) -> tuple[int, int, int]:
    """:func:`line_tricks` from the position's tricks taken, leader, cards on
    the trick and trump."""
    taken = list(taken_before)
    trick = list(trick_before)
    for card in line:
        trick.append(card)
        if len(trick) == 3:
            winner = trick_winner(trick, leader, trump)
            assert winner is not None  # no talon: someone follows the lead
            leader, trick = winner, []
            taken[leader] += 1
    if trick:
        raise AdviceError("the solver's line stops inside a trick")
    return taken[0], taken[1], taken[2]


def _relabel(mask: int, suit_to: Sequence[int]) -> int:
    out = 0
    for suit in range(4):
        out |= ((mask >> (8 * suit)) & 0xFF) << (8 * suit_to[suit])
    return out


def canonical_position(position: Position) -> Position:
    """The position with its suits renamed in the canonical order
    (:func:`~solver.engine.canonical_suits`: trump first, then by who holds
    each live card of the suit, high to low, or where on the trick it lies):
    positions that differ by a renaming of the suits give the same one
    (suits alike in that are interchangeable, so their order does not
    matter)."""
    suit_to = canonical_suits(position)
    contract = position.contract
    if contract.kind is ContractKind.TRICKS and contract.strain != NO_TRUMP:
        contract = Contract(contract.kind, contract.level, suit_to[contract.strain])
    hands = tuple(Hand(_relabel(hand.mask, suit_to)) for hand in position.hands)
    trick = tuple(Card.from_index(suit_to[card.suit] * 8 + card.rank) for card in position.trick)
    return Position((hands[0], hands[1], hands[2]), contract, position.declarer, position.leader, trick,
                    position.tricks_taken)


def canonical_key(position: Position) -> tuple:
    """A key of the position's canonical form (:func:`canonical_position`):
    equal for positions that differ by a renaming of the suits."""
    canonical = canonical_position(position)
    return (tuple(hand.mask for hand in canonical.hands), tuple(card.index for card in canonical.trick))


def split_tricks(position: Position, solver: Solver, known_value: int | None = None) -> tuple[int, int, int]:
    """Each seat's tricks at the end along the canonical optimal line: the
    solver's line (every card optimal for its player, each player's ties to
    his lowest card) on the position with its suits in canonical order
    (:func:`canonical_position`). The rule does not depend on the suits'
    names, nor on the cards' absolute ranks (only their order counts).
    The line is searched under the position's own suit names with the ties
    broken in the canonical order (the same line, renamed), so the table a
    best-discard search just filled serves it."""
    if position.talon_leads:
        raise AdviceError("line_tricks counts trick contracts and misère, not all-pass talon tricks")
    line = solver.best_line(position, known_value, tie_suits=canonical_suits(position))
    return line_tricks(position, line)


def discard_classes(pool: Hand, others: Sequence[Hand], suits_renamed: bool = False) -> list[list[Hand]]:
    """Every 2-card discard from ``pool``, grouped into the classes the C
    best-discard search uses (:func:`~solver.engine.discard_class_ids`, one
    definition): discards that leave the same game up to the relative ranks
    of the live cards (``others``: the hands, or groups of cards, whose cards
    stay in play, each its own owner; at most two), and with
    ``suits_renamed`` (misère, all-pass) up to a renaming of the suits.
    Classes and their members in canonical order."""
    groups: dict[int, list[Hand]] = {}
    for discard, index in discard_class_ids(pool, others, suits_renamed):
        groups.setdefault(index, []).append(discard)
    classes = [sorted(members, key=discard_order) for members in groups.values()]
    return sorted(classes, key=lambda members: discard_order(members[0]))


@dataclass(frozen=True)
class ContractPlay:
    """Plays one contract on a layout: the evaluator of the whist question."""

    contract: Contract
    declarer: int
    leader: int = 0
    played: tuple[Card, ...] = ()
    prior: tuple[int, int, int] = (0, 0, 0)
    model: DiscardModel = DiscardModel.BEST
    split: bool = False
    auction: AuctionFilter | None = None
    whisters: tuple[int, ...] = ()
    """Seats known to have said whist (the auction model's tops test)."""
    canonical_first: bool = True
    """Let the C search pick the canonically first best discard (False:
    list every best discard and compare them here; the same answer, for the
    cross-checks)."""
    lean: bool = True
    """:meth:`play_masks` takes the lean path where it applies (False:
    always through :meth:`__call__`; the same answer, for the cross-checks)."""

    def rejects_masks(self, hands: Sequence[int], talon: int) -> bool:
        """Whether the auction model turns the layout (hand masks, the
        declarer's before the talon) down by the tests that need no search:
        :meth:`play_masks` and :meth:`__call__` then answer None."""
        auction = self.auction
        return auction is not None and not auction.masks_ok(self.contract, hands[self.declarer] | talon, hands,
                                                            self.whisters)

    def play_masks(self, hands: tuple[int, int, int], talon: int, solver: Solver) -> dict[Hashable, Number] | None:
        """:meth:`__call__` with the hands and the talon as masks, the same
        outcome. Before any card is played with the best discard (the whist
        advice's usual question) the masks go straight to the C searches
        (:class:`~solver.engine.StartDiscards`: about 60 µs less Python a
        layout, held under the GIL); otherwise through :meth:`__call__`."""
        if not self._lean_applies():
            return self((Hand(hands[0]), Hand(hands[1]), Hand(hands[2])), Hand(talon), solver)
        declarer = self.declarer
        pool = hands[declarer] | talon
        if self.rejects_masks(hands, talon):
            return None
        start = solver.start_discards(self.contract, declarer, self.leader)
        value, discards = start.best_discard(solver, hands, pool, self.split, self._value_floor())
        if self._value_rejected(value):
            return None
        if not self.split:
            return self._start_outcome(value, None)
        kept = list(hands)
        kept[declarer] = pool & ~discards[0]
        return self._start_outcome(value, start.canonical_tricks(solver, kept, value))

    def _lean_applies(self) -> bool:
        """Whether :meth:`play_masks` goes straight to the C searches: before
        any card is played, the best discard, the canonically first one."""
        split_listed = self.split and not self.canonical_first
        return not (self.played or self.model is not DiscardModel.BEST or split_listed or not self.lean)

    def _value_floor(self) -> int:
        """The least value the auction model keeps (0: no model)."""
        auction = self.auction
        return 0 if auction is None else auction.value_floor(self.contract, self.prior[self.declarer])

    def _value_rejected(self, value: int) -> bool:
        """Whether the auction model turns the layout down by its value."""
        auction = self.auction
        return auction is not None and not auction.value_ok(self.contract, value, self.prior[self.declarer])

    def _start_outcome(self, value: int, tricks: tuple[int, int, int] | None) -> dict[Hashable, Number]:
        """A kept layout's outcome from the best discard's value and, split,
        each seat's tricks along the canonical line."""
        prior = self.prior[self.declarer]
        if tricks is None:
            return {(prior + value, None): 1}
        return {(prior + tricks[self.declarer], self._whole(tricks)): 1}

    def play_masks_many(self, layouts: Sequence[tuple[int, int, int]], talon: int,
                        solver: Solver) -> list[dict[Hashable, Number] | None]:
        """:meth:`play_masks` of each layout, the same outcomes; on the lean
        path the searches of all of them in one C call
        (:meth:`~solver.engine.StartDiscards.best_discards_lines`)."""
        # The C call draws the line for every value at least the floor: the
        # layouts a trick contract's auction test keeps (a misère's is a ceiling).
        ceiling = self.auction is not None and self.contract.kind is not ContractKind.TRICKS
        if not self._lean_applies() or ceiling:
            return [self.play_masks(hands, talon, solver) for hands in layouts]
        declarer = self.declarer
        rejected = [self.rejects_masks(hands, talon) for hands in layouts]
        searched: list[list[int]] = []
        for hands, out in zip(layouts, rejected):
            if not out:
                pooled = list(hands)
                pooled[declarer] |= talon
                searched.append(pooled)
        start = solver.start_discards(self.contract, declarer, self.leader)
        found = iter(start.best_discards_lines(solver, searched, self.split, self._value_floor(), self.split))
        outcomes: list[dict[Hashable, Number] | None] = []
        for out in rejected:
            if out:
                outcomes.append(None)
                continue
            value, tricks = next(found)
            if self._value_rejected(value):
                outcomes.append(None)
            else:
                # split: a value the auction keeps is at least the floor, so a discard and its line were found
                assert not self.split or tricks is not None
                outcomes.append(self._start_outcome(value, tricks))   # no line asked: None
        return outcomes

    def __call__(self, hands: tuple[Hand, Hand, Hand], talon: Hand,
                 solver: Solver) -> dict[Hashable, Number] | None:
        """``hands[declarer]`` before he takes the talon. The outcome histogram
        (weights adding up to 1), or None when the layout is rejected."""
        pool = hands[self.declarer] | talon
        if self.auction is not None and not self.auction.hands_ok(self.contract, pool, hands, self.whisters):
            return None
        deal = Deal(hands, talon)
        if self.model is DiscardModel.UNIFORM:
            outcome = self._uniform(deal, pool, solver)
            if outcome is not False:
                return outcome
        return self._best(deal, solver)

    def _best(self, deal: Deal, solver: Solver) -> dict[Hashable, Number] | None:
        # The split depends on which best discard is played: the one whose
        # position comes first in canonical form, whatever the cards' names.
        # Before any card is played the C search finds that one itself
        # (canonical); with cards played, every best discard is listed and
        # those the cards fit are compared here.
        first = self.split and not self.played and self.canonical_first
        found = best_discard(deal, self.declarer, self.contract, leader=self.leader,
                             all_discards=bool(self.played) or self.split, solver=solver, canonical=first)
        if self._value_rejected(found.value):
            return None
        if not self.played and not self.split:
            # Every discard fits and the start is not the end: the value is the outcome.
            return self._start_outcome(found.value, None)
        known = None if self.played else found.value
        positions = (self._position(deal, discard) for discard in found.discards)
        if not self.split:
            position = next((p for p in positions if p is not None), None)
            return None if position is None else {self._outcome(position, solver, known): 1}
        candidates = [p for p in positions if p is not None]
        if not candidates:
            return None
        chosen = candidates[0] if len(candidates) == 1 else min(candidates, key=canonical_key)
        return {self._outcome(chosen, solver, known): 1}

    def _uniform(self, deal: Deal, pool: Hand, solver: Solver) -> dict[Hashable, Number] | None | bool:
        """The outcome spread over the makeable discards; False when no discard
        makes the contract (the caller then plays the best one)."""
        others = [hand for seat, hand in enumerate(deal.hands) if seat != self.declarer]
        makeable: list[list[Hand]] = []
        for members in discard_classes(pool, others, self.contract.kind is not ContractKind.TRICKS):
            start = Position.start(deal_after_discard(deal, self.declarer, members[0]), self.contract,
                                   self.declarer, self.leader)
            if self._makes(start, solver):
                makeable.append(members)
        if not makeable:
            return False
        weighted: list[tuple[Position, int]] = []
        for members in makeable:
            if not self.played:
                position = self._position(deal, members[0])
                assert position is not None
                weighted.append((position, len(members)))
                continue
            for discard in members:
                position = self._position(deal, discard)
                if position is not None:
                    weighted.append((position, 1))
        total = sum(weight for _, weight in weighted)
        if not total:
            return None
        histogram: dict[Hashable, Number] = {}
        for position, weight in weighted:
            key = self._outcome(position, solver, None)
            histogram[key] = histogram.get(key, 0) + Fraction(weight, total)
        return histogram

    def _makes(self, start: Position, solver: Solver) -> bool:
        taken = self.prior[self.declarer]
        if self.contract.kind is ContractKind.MISERE:
            return taken == 0 and not solver.probe(start, 1)
        assert self.contract.level is not None
        need = self.contract.level - taken
        return need <= 0 or (need <= start.tricks_left and solver.probe(start, need))

    def _position(self, deal: Deal, discard: Hand) -> Position | None:
        """The position after the discard and the cards played, or None when
        the cards played do not fit this discard."""
        try:
            return Position.after(deal_after_discard(deal, self.declarer, discard), self.contract,
                                  self.declarer, self.played, self.leader)
        except PositionError:
            return None

    def _outcome(self, position: Position, solver: Solver, known_value: int | None) -> OutcomeKey:
        if position.is_over:
            tricks = position.tricks_taken
            return (self.prior[self.declarer] + tricks[self.declarer], self._whole(tricks) if self.split else None)
        if self.split:
            tricks = split_tricks(position, solver, known_value)
            return (self.prior[self.declarer] + tricks[self.declarer], self._whole(tricks))
        value = known_value if known_value is not None else solver.solve(position)
        return (self.prior[self.declarer] + value, None)

    def _whole(self, tricks: tuple[int, int, int]) -> tuple[int, int, int]:
        return (self.prior[0] + tricks[0], self.prior[1] + tricks[1], self.prior[2] + tricks[2])
