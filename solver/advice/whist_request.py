"""The defender's question as input: :class:`WhistRequest`, read from text
by :func:`whist_request`, checked on construction; and the layouts of the
hidden cards it leaves (:func:`layout_space`), with the cards already played
placed where they were played."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..notation import Card, Contract, ContractKind, Hand, NotationError, parse_seat
from ..scoring import SOCHI, Convention, Decision
from .errors import AdviceError, require_type
from .inputs import (FULL_DECK, card_names, check_prior, check_seat, parse_convention, parse_decision,
                     parse_discard_model, parse_hand, parse_played)
from .layouts import LayoutSpace
from .play import AUCTION_MODEL, AuctionFilter, DiscardModel, auction_model_for
from .single_dummy import SingleDummy
from .blind_discard import BLIND_DISCARD, BlindDiscard

__all__ = ["WhistRequest", "whist_request", "layout_space", "ten_checked", "stalingrad"]


@dataclass(frozen=True)
class WhistRequest:
    """The defender's question. Build one with :func:`whist_request` (which
    reads text) or directly with notation objects; either way it is checked."""

    hand: Hand
    """The asking defender's cards (10, or the hand size of an endgame)."""
    talon: Hand
    contract: Contract
    declarer: int
    seat: int
    """The asking defender's seat."""
    other_decision: Decision | None = None
    """What the other defender said, when known."""
    convention: Convention = SOCHI
    played: tuple[Card, ...] = ()
    """Cards played so far, in order, from the first lead (seat ``leader``)."""
    unseen: Hand | None = None
    """The declarer's and the other defender's cards together (default: every card not
    in the hand or the talon; required for an endgame)."""
    prior_tricks: tuple[int, int, int] = (0, 0, 0)
    """Endgames: each seat's tricks before these hands."""
    discard_model: DiscardModel = DiscardModel.BEST
    auction: AuctionFilter | None = AUCTION_MODEL
    """Which layouts the declarer (and a whisting partner) could have spoken from:
    the default auction model (:data:`~solver.advice.play.AUCTION_MODEL`), another
    filter, or None for every layout alike."""
    split: bool = False
    """Also count the defenders' split (the canonical line) when no option needs it."""
    four_players: bool = False
    leader: int = 0
    single_dummy: SingleDummy = SingleDummy()
    """The single-dummy figure next to the double-dummy one (layouts 0: none)."""
    blind_discard: BlindDiscard = BLIND_DISCARD
    """The blind-discard figure next to the double-dummy one (layouts 0: none;
    measured when there is a discard to make: no cards played, the best-discard model)."""

    def __post_init__(self) -> None:
        _check_request(self)

    @property
    def other(self) -> int:
        return 3 - self.declarer - self.seat

    @property
    def first_defender(self) -> int:
        return (self.declarer + 1) % 3

    @property
    def speaks_first(self) -> bool:
        return self.seat == self.first_defender

    @property
    def auction_played(self) -> AuctionFilter | None:
        """The auction filter the layouts are tested with (the default model
        on an endgame keeps its value test alone)."""
        return auction_model_for(self.auction, len(self.hand))

    @property
    def whisters(self) -> tuple[int, ...]:
        """Seats known to have said whist: the other defender, when he did."""
        return (self.other,) if self.other_decision is Decision.WHIST else ()

    @property
    def hidden(self) -> Hand:
        if self.unseen is not None:
            return self.unseen
        return FULL_DECK - self.hand - self.talon


def whist_request(
    hand: Hand | str,
    talon: Hand | str,
    contract: Contract | str,
    declarer: int | str,
    seat: int | str,
    *,
    other_decision: Decision | str | None = None,
    convention: Convention | str = "sochi",
    options: dict | None = None,
    played: Sequence[Card | str] | str = (),
    unseen: Hand | str | None = None,
    prior_tricks: Sequence[int] = (0, 0, 0),
    discard_model: DiscardModel | str = "best",
    auction: AuctionFilter | None = AUCTION_MODEL,
    split: bool = False,
    four_players: bool = False,
    single_dummy: SingleDummy | int = 0,
    blind_discard: BlindDiscard | int | None = None,
) -> WhistRequest:
    """A :class:`WhistRequest` from text or objects (``options``: convention
    option overrides)."""
    try:
        return WhistRequest(
            hand=parse_hand(hand, "hand"),
            talon=parse_hand(talon, "talon"),
            contract=Contract.parse(contract) if isinstance(contract, str) else contract,
            declarer=parse_seat(declarer),
            seat=parse_seat(seat),
            other_decision=parse_decision(other_decision),
            convention=parse_convention(convention, options),
            played=parse_played(played),
            unseen=None if unseen is None else parse_hand(unseen, "unseen cards"),
            prior_tricks=tuple(prior_tricks),  # type: ignore[arg-type]
            discard_model=parse_discard_model(discard_model),
            auction=auction,
            split=split,
            four_players=four_players,
            single_dummy=single_dummy if isinstance(single_dummy, SingleDummy) else SingleDummy(single_dummy),
            blind_discard=BlindDiscard.given(blind_discard),
        )
    except NotationError as error:
        raise AdviceError(str(error)) from None


def _check_request(r: WhistRequest) -> None:
    for name, kind in (("hand", Hand), ("talon", Hand), ("contract", Contract), ("convention", Convention)):
        if not isinstance(getattr(r, name), kind):
            raise AdviceError(f"{name} must be a {kind.__name__}, got {getattr(r, name)!r}")
    check_seat(r.declarer, "declarer")
    check_seat(r.seat, "the defender's seat")
    check_seat(r.leader, "leader")
    if r.seat == r.declarer:
        raise AdviceError(f"seat {r.seat} is the declarer's; the question is a defender's")
    if r.contract.kind is ContractKind.MISERE:
        raise AdviceError("a misère is not whisted (scoring spec §3.3): there is nothing to decide")
    if r.contract.kind is ContractKind.ALLPASS:
        raise AdviceError("all-pass has no declarer to whist against; give a trick contract such as 6s")
    if len(r.talon) != 2:
        raise AdviceError(f"the talon has {len(r.talon)} cards, must have 2")
    if r.hand.mask & r.talon.mask:
        raise AdviceError(f"the defender's hand overlaps the talon: {card_names(r.hand & r.talon)}")
    size = len(r.hand)
    if not 1 <= size <= 10:
        raise AdviceError(f"the defender's hand has {size} cards, must have 1 to 10")
    if r.unseen is None and size != 10:
        raise AdviceError(f"an endgame of {size} cards a hand needs the unseen cards (the declarer's and "
                          "the other defender's together)")
    hidden = r.hidden
    if hidden.mask & (r.hand.mask | r.talon.mask):
        raise AdviceError(f"the unseen cards overlap the hand or the talon: {card_names(hidden & (r.hand | r.talon))}")
    if len(hidden) != 2 * size:
        raise AdviceError(f"{len(hidden)} unseen cards cannot make two hands of {size}")
    if other := r.other_decision:
        if not isinstance(other, Decision):
            raise AdviceError(f"other_decision must be a Decision or None, got {other!r}")
        if other is Decision.HALF_WHIST:
            if not r.speaks_first:
                raise AdviceError("the other defender can half-whist only after this defender passed: "
                                  "this defender must be the first defender")
            if r.contract.level not in r.convention.half_whist_contracts:
                raise AdviceError(f"a half-whist does not exist on a {r.contract.level} in this convention")
    elif not r.speaks_first and not _nothing_to_decide(r):
        raise AdviceError(f"the first defender (seat {r.first_defender}) has spoken already: "
                          "give his decision (pass, whist or half_whist)")
    if not isinstance(r.discard_model, DiscardModel):
        raise AdviceError(f"discard_model must be a DiscardModel, got {r.discard_model!r}")
    if r.auction is not None and not isinstance(r.auction, AuctionFilter):
        raise AdviceError(f"auction must be an AuctionFilter or None, got {r.auction!r}")
    check_prior(r.prior_tricks, size)
    if not isinstance(r.single_dummy, SingleDummy):
        raise AdviceError(f"single_dummy must be a SingleDummy, got {r.single_dummy!r}")
    if r.single_dummy.layouts and r.played:
        raise AdviceError("the single-dummy figure plays from the first card: give no cards played")
    if not isinstance(r.blind_discard, BlindDiscard):
        raise AdviceError(f"blind_discard must be a BlindDiscard, got {r.blind_discard!r}")
    _seats_of_played(r)


def _nothing_to_decide(r: WhistRequest) -> bool:
    return ten_checked(r) or stalingrad(r)


def ten_checked(r: WhistRequest) -> bool:
    return r.contract.level == 10 and not r.convention.ten_whisted


def stalingrad(r: WhistRequest) -> bool:
    return r.convention.stalingrad and r.contract.level == 6 and r.contract.strain == 0


def _seats_of_played(r: WhistRequest) -> list[int]:
    """The seat that played each card (from the tricks), checked against what
    is known of the hands."""
    seats: list[int] = []
    seen = 0
    leader, trick = r.leader, []
    trump = r.contract.trump
    for card in r.played:
        if not isinstance(card, Card):
            raise AdviceError(f"played cards must be Cards, got {card!r}")
        if seen >> card.index & 1:
            raise AdviceError(f"card {card.pretty()} is played twice")
        seen |= 1 << card.index
        seat = (leader + len(trick)) % 3
        if seat == r.seat and card not in r.hand:
            raise AdviceError(f"seat {seat} (the defender asking) played {card.pretty()}, which is not in his hand")
        if seat != r.seat and card in r.hand:
            raise AdviceError(f"seat {seat} played {card.pretty()}, which is in the asking defender's hand")
        if card in r.talon and seat != r.declarer:
            raise AdviceError(f"seat {seat} played the talon card {card.pretty()}; only the declarer holds the talon")
        if card not in r.hand and card not in r.talon and card not in r.hidden:
            raise AdviceError(f"card {card.pretty()} was played but is not in this deal")
        seats.append(seat)
        trick.append(card)
        if len(trick) == 3:
            best = 0
            for offset in (1, 2):
                if trick[offset].suit == trick[best].suit:
                    best = offset if trick[offset].rank > trick[best].rank else best
                elif trick[offset].suit == trump:
                    best = offset
            leader, trick = (leader + best) % 3, []
    if len(r.played) > 3 * len(r.hand):
        raise AdviceError(f"{len(r.played)} cards played, but the hands hold only {3 * len(r.hand)}")
    return seats


def layout_space(r: WhistRequest) -> LayoutSpace:
    """The declarer's hand (before the talon) and the other defender's."""
    require_type(r, WhistRequest, "request")
    seats = _seats_of_played(r)
    declarer_known = Hand.from_cards(c for c, s in zip(r.played, seats) if s == r.declarer and c not in r.talon)
    other_known = Hand.from_cards(c for c, s in zip(r.played, seats) if s == r.other)
    # The other defender has no discard: a suit he did not follow is void in his hand.
    voids = set()
    for start in range(0, len(r.played), 3):
        trick = list(zip(r.played[start:start + 3], seats[start:start + 3]))
        lead = trick[0][0].suit
        for card, seat in trick[1:]:
            if seat == r.other and card.suit != lead:
                voids.add(lead)
    played = Hand.from_cards(r.played)
    free = r.hidden - declarer_known - other_known
    for suit in voids:
        for card in free.cards():
            if card.suit == suit and card not in played:
                declarer_known = declarer_known | card
                free = free - card
    size = len(r.hand)
    if len(declarer_known) > size or len(other_known) > size:
        raise AdviceError("no layout fits the cards played (a hand would need more than "
                          f"{size} cards)")
    return LayoutSpace(free, (size - len(declarer_known), size - len(other_known)), (declarer_known, other_known))
