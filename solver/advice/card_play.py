"""The player's question during the play: which card?

One seat is on move. It knows its own hand, the talon when it was shown, the
hands it sees open (``open_hands``: the passer's in a light whist, the
catchers' in a misère after the first lead, or any hand the caller knows), the
declarer's discard when it knows it, and every card played so far. Every
layout of the rest consistent with all of that is played double dummy
(:meth:`Solver.card_values`: each legal card's value in one search), and each
legal card gets the declarer's expected tricks, the seat's expected value in
whists (scoring spec §8, with :class:`~solver.advice.values.Valuer`) and the
chance the declarer fails, with standard errors: sampled, or every layout
counted when there are no more than the layout budget.

What the layouts are (choices where the issue is silent):
 - Every deal of the unseen cards into the hidden hands, and, when the seat
   does not know it, every discard of the declarer (2 of his 12 cards), is
   equally likely, provided it fits the cards played: each card played is in
   the hand that played it, and a player who did not follow suit holds no
   card of it (in a suit contract, one who neither followed nor trumped
   holds no trump either). These voids are the only inference from the play:
   which legal card a player chose tells nothing. No inference from the
   auction.
 - A talon that was shown is among the declarer's 12 cards: each of its
   cards not yet played is in his hand or his discard.
 - A misère catcher who sees his partner's hand and the talon knows the
   declarer's 12 cards: the layouts are then exactly the discards he could
   have made (66 before any card of his is seen), and each card's
   ``fail_count`` says of how many of them it catches the misère.
 - Endgames (fewer than 10 cards a hand) give the hidden hands' cards
   together (``unseen``) and each seat's tricks before them; no discard
   there.
 - The value in whists needs the defenders' decisions of a trick contract:
   ``whisters`` (the seats that whist; default: the seat asking, when it is
   a defender, else the first defender) and ``returned`` (the lone whister
   returned a half-whist). A 10 checked under ``ten_whisted`` off and a
   Stalingrad 6♠ take their own scenario. Two whisters score their tricks
   along the solver's line after each card (:func:`~solver.advice.play.line_tricks`).
 - The recommended card has the highest expected value in whists; ties go to
   the better expectation of tricks for the seat's side, then to the lowest
   card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Mapping, Sequence

from ..engine import Solver
from ..notation import NO_TRUMP, SEAT_NAMES, SUIT_SYMBOLS, Card, Contract, ContractKind, Deal, Hand, NotationError, parse_seat
from ..position import Position, PositionError, trick_winner
from ..scoring import SOCHI, Convention
from .constrained import ConstrainedSpace
from .errors import AdviceError
from .inputs import FULL_DECK, card_names, check_prior, check_seat, parse_convention, parse_hand, parse_played
from .parallel import LayoutRun, RunOptions, RunStats, run_layouts
from .play import line_tricks, made
from .stats import Estimate, Number, merge_units, sureness
from .values import Scenario, Valuer
from .whist_request import stalingrad, ten_checked

__all__ = ["PlayRequest", "CardAdvice", "PlayAdvice", "play_request", "advise_play", "play_space"]


@dataclass(frozen=True)
class PlayRequest:
    """The player's question. Build one with :func:`play_request` (which
    reads text) or directly with notation objects; either way it is checked."""

    hand: Hand
    """The asking seat's cards at the start of the play (the declarer's after
    his discard), or at the start of an endgame; cards it played included."""
    contract: Contract
    declarer: int
    seat: int
    """The seat on move, whose card is asked for."""
    played: tuple[Card, ...] = ()
    """Cards played so far, in order, from the first lead (seat ``leader``)."""
    talon: Hand | None = None
    """The talon when it was shown (full deals)."""
    discard: Hand | None = None
    """The declarer's discard, when the seat knows it (required from the
    declarer himself unless every other hand is open)."""
    open_hands: tuple[tuple[int, Hand], ...] = ()
    """(seat, cards at the start) of each other hand the seat sees."""
    unseen: Hand | None = None
    """Endgames: the hidden hands' cards together (at the endgame's start)."""
    prior_tricks: tuple[int, int, int] = (0, 0, 0)
    whisters: tuple[int, ...] | None = None
    """Trick contracts: the defenders who whist (None: see the module)."""
    returned: bool = False
    """The lone whister returned the other defender's half-whist."""
    convention: Convention = SOCHI
    four_players: bool = False
    leader: int = 0

    def __post_init__(self) -> None:
        _check_request(self)

    @property
    def defenders(self) -> tuple[int, int]:
        """The first defender (next after the declarer) and the second."""
        return (self.declarer + 1) % 3, (self.declarer + 2) % 3

    @property
    def hand_size(self) -> int:
        return len(self.hand)

    def known_hands(self) -> dict[int, Hand]:
        """Every hand the seat sees, by seat (its own included)."""
        return {self.seat: self.hand, **dict(self.open_hands)}

    def scenario(self) -> Scenario:
        """The defenders' decisions the values are scored with (x = the first defender)."""
        if self.contract.kind is ContractKind.MISERE:
            return Scenario.X_WHISTS  # a misère is not whisted: the valuer ignores the scenario
        if ten_checked(self):  # type: ignore[arg-type]
            return Scenario.TEN_CHECKED
        if stalingrad(self):  # type: ignore[arg-type]
            return Scenario.BOTH_WHIST
        x, y = self.defenders
        whisters = set(self.effective_whisters)
        if whisters == {x, y}:
            return Scenario.BOTH_WHIST
        if whisters == {x}:
            return Scenario.Y_HALF_RETURNED if self.returned else Scenario.X_WHISTS
        return Scenario.X_HALF_RETURNED if self.returned else Scenario.Y_WHISTS

    @property
    def effective_whisters(self) -> tuple[int, ...]:
        if self.whisters is not None:
            return self.whisters
        return (self.seat,) if self.seat != self.declarer else (self.defenders[0],)


def play_request(
    hand: Hand | str,
    contract: Contract | str,
    declarer: int | str,
    seat: int | str,
    *,
    played: Sequence[Card | str] | str = (),
    talon: Hand | str | None = None,
    discard: Hand | str | None = None,
    open_hands: Mapping[int | str, Hand | str] | None = None,
    unseen: Hand | str | None = None,
    prior_tricks: Sequence[int] = (0, 0, 0),
    whisters: Sequence[int | str] | None = None,
    returned: bool = False,
    convention: Convention | str = "sochi",
    options: dict | None = None,
    four_players: bool = False,
    leader: int | str = 0,
) -> PlayRequest:
    """A :class:`PlayRequest` from text or objects (``options``: convention
    option overrides; ``open_hands``: seat → hand)."""
    try:
        opened = tuple(sorted((parse_seat(s), parse_hand(h, f"open hand of seat {s}"))
                              for s, h in (open_hands or {}).items()))
        return PlayRequest(
            hand=parse_hand(hand, "hand"),
            contract=Contract.parse(contract) if isinstance(contract, str) else contract,
            declarer=parse_seat(declarer),
            seat=parse_seat(seat),
            played=parse_played(played),
            talon=None if talon is None else parse_hand(talon, "talon"),
            discard=None if discard is None else parse_hand(discard, "discard"),
            open_hands=opened,
            unseen=None if unseen is None else parse_hand(unseen, "unseen cards"),
            prior_tricks=tuple(prior_tricks),  # type: ignore[arg-type]
            whisters=None if whisters is None else tuple(sorted(parse_seat(s) for s in whisters)),
            returned=returned,
            convention=parse_convention(convention, options),
            four_players=four_players,
            leader=parse_seat(leader),
        )
    except NotationError as error:
        raise AdviceError(str(error)) from None


def _check_request(r: PlayRequest) -> None:
    for name, kind in (("hand", Hand), ("contract", Contract), ("convention", Convention)):
        if not isinstance(getattr(r, name), kind):
            raise AdviceError(f"{name} must be a {kind.__name__}, got {getattr(r, name)!r}")
    for name in ("talon", "discard", "unseen"):
        value = getattr(r, name)
        if value is not None and not isinstance(value, Hand):
            raise AdviceError(f"{name} must be a Hand or None, got {value!r}")
    check_seat(r.declarer, "declarer")
    check_seat(r.seat, "seat")
    check_seat(r.leader, "leader")
    if r.contract.kind is ContractKind.ALLPASS:
        raise AdviceError("card-play advice covers trick contracts and misère, not all-pass")
    size = len(r.hand)
    if not 1 <= size <= 10:
        raise AdviceError(f"the hand has {size} cards, must have 1 to 10")
    if not isinstance(r.open_hands, tuple):
        raise AdviceError(f"open_hands must be a tuple of (seat, Hand) pairs, got {r.open_hands!r}")
    seen = r.hand.mask
    for pair in r.open_hands:
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[1], Hand)):
            raise AdviceError(f"open_hands must hold (seat, Hand) pairs, got {pair!r}")
        open_seat, open_hand = pair
        check_seat(open_seat, "an open hand's seat")
        if open_seat == r.seat:
            raise AdviceError(f"seat {open_seat} is the asking seat; its hand is given as the hand")
        if len(open_hand) != size:
            raise AdviceError(f"the open hand of seat {open_seat} has {len(open_hand)} cards; every hand has {size}")
        if open_hand.mask & seen:
            raise AdviceError(f"the open hand of seat {open_seat} repeats {card_names(Hand(open_hand.mask & seen))}")
        seen |= open_hand.mask
    if len({s for s, _ in r.open_hands}) != len(r.open_hands):
        raise AdviceError("an open hand is given twice for the same seat")
    for name in ("talon", "discard"):
        value = getattr(r, name)
        if value is not None:
            if size != 10:
                raise AdviceError(f"an endgame has no {name}: give the unseen cards and the tricks before")
            if len(value) != 2:
                raise AdviceError(f"the {name} has {len(value)} cards, must have 2")
    if r.discard is not None and r.discard.mask & seen:
        raise AdviceError(f"the discard holds cards of a hand: {card_names(Hand(r.discard.mask & seen))}")
    if r.talon is not None:
        for open_seat, hand in r.known_hands().items():
            if open_seat != r.declarer and hand.mask & r.talon.mask:
                raise AdviceError(f"seat {open_seat} holds the talon card {card_names(hand & r.talon)}; "
                                  "only the declarer takes the talon")
    declarer_hand = dict(r.open_hands).get(r.declarer, r.hand if r.seat == r.declarer else None)
    if r.talon is not None and r.discard is not None and declarer_hand is not None:
        stray = r.talon - declarer_hand - r.discard
        if stray.mask:
            raise AdviceError(f"the talon card {card_names(stray)} is neither in the declarer's hand nor in "
                              "his discard")
    if r.unseen is not None and r.unseen.mask & (seen | (r.discard.mask if r.discard else 0)):
        raise AdviceError(f"the unseen cards overlap a known hand: {card_names(Hand(r.unseen.mask & seen))}")
    if size != 10 and r.unseen is None and len(r.open_hands) < 2:
        raise AdviceError(f"an endgame of {size} cards a hand needs the unseen cards (the hidden hands' together)")
    check_prior(r.prior_tricks, size)
    if r.whisters is not None:
        if not isinstance(r.whisters, tuple) or not r.whisters:
            raise AdviceError(f"whisters must be one or both defenders' seats, got {r.whisters!r}")
        for whister in r.whisters:
            check_seat(whister, "a whister")
            if whister == r.declarer:
                raise AdviceError(f"seat {whister} is the declarer's; whisters are defenders")
        if len(set(r.whisters)) != len(r.whisters):
            raise AdviceError(f"a whister is named twice: {r.whisters}")
        if r.contract.kind is ContractKind.MISERE:
            raise AdviceError("a misère is not whisted: give no whisters")
    if r.returned:
        if r.contract.kind is ContractKind.MISERE or len(r.effective_whisters) != 1:
            raise AdviceError("a returned half-whist leaves one whister of a trick contract")
        if (r.contract.level not in r.convention.half_whist_contracts
                or not r.convention.returned_whist_allowed):
            raise AdviceError(f"the convention has no returned half-whist on a {r.contract.level}")
    if not isinstance(r.played, tuple) or not all(isinstance(card, Card) for card in r.played):
        raise AdviceError(f"played must be a tuple of Cards, got {r.played!r}")
    if len(r.played) >= 3 * size:
        raise AdviceError(f"{len(r.played)} cards played: the hands of {size} hold only {3 * size}, "
                          "and the last card leaves nothing to decide")


# ---- what the seat knows ------------------------------------------------------

@dataclass(frozen=True)
class _Setup:
    """The request turned into a layout space and the position's skeleton."""

    space: ConstrainedSpace
    hidden: tuple[int, ...]
    """The hidden seats, in the order of the space's parts (a discard part last)."""
    known: dict[int, int]
    """Seat → hand mask at the start, for the seats the asker sees."""
    played_by: tuple[int, int, int]
    """Seat → mask of the cards it played."""
    voids: dict[int, tuple[int, ...]]
    discard_hidden: bool
    leader: int = 0
    trick: tuple[Card, ...] = ()
    tricks_taken: tuple[int, int, int] = (0, 0, 0)
    legal: tuple[Card, ...] = field(default=())


def _seats_and_voids(r: PlayRequest) -> tuple[list[int], dict[int, set[int]]]:
    """The seat of each card played, and each seat's suits shown void."""
    trump = r.contract.trump
    seats: list[int] = []
    voids: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
    leader, trick = r.leader, []
    seen = 0
    for card in r.played:
        if seen >> card.index & 1:
            raise AdviceError(f"card {card.pretty()} is played twice")
        seen |= 1 << card.index
        seat = (leader + len(trick)) % 3
        seats.append(seat)
        if trick:
            lead = trick[0].suit
            if card.suit != lead:
                voids[seat].add(lead)
                if trump != NO_TRUMP and card.suit != trump:
                    voids[seat].add(trump)
        trick.append(card)
        if len(trick) == 3:
            winner = trick_winner(trick, leader, trump)
            assert winner is not None  # no talon: someone follows the lead
            leader, trick = winner, []
    return seats, voids


def _setup(r: PlayRequest) -> _Setup:
    size = r.hand_size
    known = {seat: hand.mask for seat, hand in r.known_hands().items()}
    seats, voids = _seats_and_voids(r)
    played_by = [0, 0, 0]
    known_all = 0
    for mask in known.values():
        known_all |= mask
    discard = r.discard.mask if r.discard is not None else 0
    for card, seat in zip(r.played, seats):
        bit = 1 << card.index
        if seat in known and not known[seat] & bit:
            raise AdviceError(f"seat {seat} played {card.pretty()}, which is not in its hand")
        if seat not in known and known_all & bit:
            raise AdviceError(f"seat {seat} played {card.pretty()}, which is in another seat's hand")
        if discard & bit:
            raise AdviceError(f"seat {seat} played {card.pretty()}, which was discarded")
        if r.talon is not None and seat != r.declarer and r.talon.mask & bit:
            raise AdviceError(f"seat {seat} played the talon card {card.pretty()}; only the declarer holds the talon")
        played_by[seat] |= bit
    hidden = [seat for seat in range(3) if seat not in known]
    if size == 10:
        if r.unseen is not None:
            raise AdviceError("a full deal needs no unseen cards: every card not seen is unseen")
        if r.discard is None and r.declarer in known and hidden:
            raise AdviceError("the declarer knows his discard: give it (the 2 cards out of play)")
        discard_hidden = r.discard is None and r.declarer not in known
        pool = FULL_DECK.mask & ~known_all & ~discard
        if r.discard is None and not hidden:
            pool = 0  # every hand is open: the rest is the discard
            discard_hidden = False
    else:
        discard_hidden = False
        pool = r.unseen.mask if r.unseen is not None else 0
        if r.unseen is None and hidden:
            raise AdviceError("an endgame with a hidden hand needs the unseen cards")
        if len(Hand(pool)) != size * len(hidden):
            raise AdviceError(f"{len(Hand(pool))} unseen cards cannot make {len(hidden)} hidden hand(s) of {size}")
    for card in r.played:
        bit = 1 << card.index
        if not (known_all | pool) & bit:
            raise AdviceError(f"card {card.pretty()} was played but is not in this deal")
    free = pool
    for seat in hidden:
        free &= ~played_by[seat]
    sizes, fixed, barred = [], [], []
    talon = r.talon.mask if r.talon is not None else 0
    for seat in hidden:
        if len(Hand(played_by[seat])) > size:
            raise AdviceError(f"seat {seat} played more cards than a hand holds")
        sizes.append(size - len(Hand(played_by[seat])))
        fixed.append(Hand(played_by[seat]))
        bar = sum(0xFF << (8 * suit) for suit in voids[seat])
        if seat != r.declarer:
            bar |= talon
        barred.append(Hand(bar & free))
    if discard_hidden:
        sizes.append(2)
        fixed.append(Hand(0))
        barred.append(Hand(0))
    if sum(sizes) != len(Hand(free)):
        raise AdviceError(f"{len(Hand(free))} unseen cards cannot fill the hidden hands"
                          + (" and the discard" if discard_hidden else "")
                          + f" ({'+'.join(map(str, sizes)) or '0'} cards)")
    space = ConstrainedSpace(Hand(free), tuple(sizes), tuple(fixed), tuple(barred))
    setup = _Setup(space, tuple(hidden), known, (played_by[0], played_by[1], played_by[2]),
                   {seat: tuple(sorted(suits)) for seat, suits in voids.items()}, discard_hidden)
    return _skeleton(r, setup)


def _start_hands(setup: _Setup, parts: Sequence[int]) -> list[int]:
    hands = [0, 0, 0]
    for seat, mask in setup.known.items():
        hands[seat] = mask
    for seat, mask in zip(setup.hidden, parts):
        hands[seat] = mask
    return hands


def _skeleton(r: PlayRequest, setup: _Setup) -> _Setup:
    """Check the play on one layout (the known hands' cards must be legal)
    and keep what every layout shares: the trick, its leader, tricks taken."""
    if setup.space.count() == 0:
        raise AdviceError("no layout of the hidden cards fits the cards played (the voids they show)")
    first = setup.space.first_masks()
    hands = _start_hands(setup, first)
    try:
        deal = Deal((Hand(hands[0]), Hand(hands[1]), Hand(hands[2])))
        position = Position.after(deal, r.contract, r.declarer, r.played, r.leader)
    except (PositionError, NotationError) as error:
        raise AdviceError(str(error)) from None
    if position.is_over:
        raise AdviceError("all tricks have been played")
    if position.seat_to_move != r.seat:
        mover = position.seat_to_move
        raise AdviceError(f"it is {SEAT_NAMES[mover]} (seat {mover})'s turn to play, not seat {r.seat}'s")
    return _Setup(setup.space, setup.hidden, setup.known, setup.played_by, setup.voids, setup.discard_hidden,
                  position.leader, position.trick, position.tricks_taken, tuple(position.legal_cards()))


def play_space(request: PlayRequest) -> ConstrainedSpace:
    """The layouts of the cards the seat cannot see (hidden hands, and the
    declarer's discard when unknown), consistent with the cards played."""
    return _setup(request).space


# ---- the answer ---------------------------------------------------------------

@dataclass(frozen=True)
class CardAdvice:
    """One legal card and what it is worth over the layouts."""

    card: Card
    declarer_tricks: Estimate
    """The declarer's expected tricks in the whole deal after this card."""
    value: Estimate
    """The asking seat's expected single-deal value in whists."""
    declarer_fails: Estimate
    """Probability the declarer fails (misère: is caught)."""
    fail_count: int
    """Layouts (of those counted) on which the declarer fails after this card."""


@dataclass(frozen=True)
class PlayAdvice:
    """The answer to a :class:`PlayRequest`."""

    request: PlayRequest
    cards: tuple[CardAdvice, ...]
    """Every legal card, lowest card index first."""
    recommended: Card
    sureness: float
    """Probability the recommended card beats the runner-up (1: exact, or one card)."""
    advantage: Estimate | None
    """Expected gain in whists over the runner-up worth something else on some layout."""
    scenario: Scenario
    voids: dict[int, tuple[int, ...]]
    """Each seat's suits shown void by the play."""
    discard_hidden: bool
    """The layouts include the declarer's discard."""
    run: RunStats
    notes: tuple[str, ...] = ()

    def card(self, card: Card | str) -> CardAdvice:
        wanted = Card.parse(card) if isinstance(card, str) else card
        for advice in self.cards:
            if advice.card == wanted:
                return advice
        raise KeyError(card)


def _evaluator(r: PlayRequest, setup: _Setup, split: bool):
    prior = r.prior_tricks[r.declarer]
    played = setup.played_by

    def evaluate(parts: tuple[int, ...], solver: Solver) -> dict[Hashable, Number]:
        start = _start_hands(setup, parts)
        hands = (Hand(start[0] & ~played[0]), Hand(start[1] & ~played[1]), Hand(start[2] & ~played[2]))
        position = Position(hands, r.contract, r.declarer, setup.leader, setup.trick, setup.tricks_taken)
        values = solver.card_values(position)
        outcome = []
        for card in setup.legal:
            if not split:
                outcome.append((prior + values[card], None))
                continue
            after = position.play(card)
            tricks = after.tricks_taken if after.is_over else line_tricks(
                after, solver.best_line(after, values[card]))
            whole = tuple(p + t for p, t in zip(r.prior_tricks, tricks))
            outcome.append((whole[r.declarer], whole))
        return {tuple(outcome): 1}

    return evaluate


def advise_play(request: PlayRequest, options: RunOptions | None = None) -> PlayAdvice:
    """Each legal card's expected tricks and whists over the layouts the seat cannot see."""
    options = options or RunOptions()
    setup = _setup(request)
    scenario = request.scenario()
    split = request.contract.kind is ContractKind.TRICKS and scenario.needs_split
    run = run_layouts(setup.space, _evaluator(request, setup, split), options, masks=True)
    return _advice(request, setup, scenario, run)


def _advice(r: PlayRequest, setup: _Setup, scenario: Scenario, run: LayoutRun) -> PlayAdvice:
    if run.stats.layouts == 0:
        if run.stats.stopped != "done":
            raise AdviceError(f"the run was {run.stats.stopped} before any layout was finished")
        raise AdviceError("no layout of the hidden cards fits what is known")
    x, y = r.defenders
    valuer = Valuer(r.convention, r.contract, r.declarer, x, y, r.four_players)
    role = {r.declarer: 0, x: 1, y: 2}[r.seat]
    merged = merge_units(run.units)
    cards = []
    for i, card in enumerate(setup.legal):
        fails = [(key, 0 if made(r.contract, key[i][0]) else 1) for key in merged]  # type: ignore[index]
        fail_of = dict(fails)
        cards.append(CardAdvice(
            card=card,
            declarer_tricks=run.estimate(lambda key, i=i: key[i][0]),  # type: ignore[index]
            value=run.estimate(lambda key, i=i: valuer.values(scenario, key[i])[role]),  # type: ignore[index]
            declarer_fails=run.estimate(lambda key: fail_of[key]),
            fail_count=int(sum(weight for key, weight in merged.items() if fail_of[key]))))
    side = 1 if (r.seat == r.declarer) == (r.contract.kind is ContractKind.TRICKS) else -1
    ranked = sorted(range(len(cards)), key=lambda i: (-cards[i].value.as_float(),
                                                      -side * cards[i].declarer_tricks.as_float(), i))
    best = ranked[0]
    advantage, sure = None, 1.0
    for index in ranked[1:]:
        gain = run.estimate(lambda key, a=best, b=index: valuer.values(scenario, key[a])[role]  # type: ignore[index]
                            - valuer.values(scenario, key[b])[role])  # type: ignore[index]
        if gain.mean == 0 and gain.std_error == 0:
            continue
        advantage, sure = gain, sureness(gain)
        break
    return PlayAdvice(r, tuple(cards), cards[best].card, sure, advantage, scenario, setup.voids,
                      setup.discard_hidden, run.stats, _notes(r, setup, scenario))


def _notes(r: PlayRequest, setup: _Setup, scenario: Scenario) -> tuple[str, ...]:
    notes = ["every layout of the hidden cards consistent with the cards played counts the same "
             "(no inference from the auction or from which legal card was chosen)"]
    if setup.discard_hidden:
        notes.append("the declarer's discard is unknown: each discard of his 12 cards is a layout")
    shown = [f"seat {seat}: {''.join(SUIT_SYMBOLS[s] for s in suits)}"
             for seat, suits in sorted(setup.voids.items()) if suits]
    if shown:
        notes.append("voids shown by the play: " + ", ".join(shown))
    misere = r.contract.kind is ContractKind.MISERE
    for seat, _ in r.open_hands:
        if seat == r.declarer:
            notes.append(f"the declarer's hand (seat {seat}) is given open; the rules never open it")
        elif misere and not r.played:
            notes.append(f"seat {seat}'s hand is given open; the rules open the catchers' hands "
                         "only after the first lead")
        elif not misere and (len(r.effective_whisters) != 1 or scenario.needs_split):
            notes.append(f"seat {seat}'s hand is given open; the rules open a defender's hand only "
                         "in a light whist (one whister)")
    if not misere:
        notes.append(f"values in whists are scored as {scenario.value} (x = seat {r.defenders[0]}, "
                     f"the first defender)")
    if scenario.needs_split:
        notes.append("two whisters: each one's tricks follow the solver's line after the card")
    return tuple(notes)
