"""The defender's question: whist or pass?

The defender sees his own hand and the open talon. Every layout of the
hidden cards (the declarer's 10 and the other defender's 10 from the 20
unseen cards) is played double dummy with the declarer's discard chosen by
the discard model (:mod:`solver.advice.play`), and every decision the
defenders can make is scored with the single-deal value of the scoring spec
(§8). The answer is each option's expected value in whists with its standard
error, the probability the declarer fails, the distribution of the defence's
tricks, and the recommended option with how sure it is.

The decision game (scoring spec §8.4, "solve the small game"):
 - the other defender passed: pass / half-whist (6 and 7; the other may then
   return the whist) / whist alone;
 - the other whisted: pass (he plays alone) / whist (two whisters);
 - the other half-whisted after this defender passed: accept / return;
 - this defender speaks first (the other's decision is not given): pass,
   then the other passes, half-whists (and this defender accepts or returns)
   or whists alone; or whist, then the other passes or whists too;
 - a 10 that is checked (``ten_whisted`` off) leaves nothing to decide, and
   under the Stalingrad rule a 6♠ must be whisted by both.

Choices where the issue is silent:
 - The other defender's replies are modelled as the reply with the highest
   expected value *for him* over the same layouts (he is credited with this
   defender's information; his own hand would tell him more). Each reply is
   reported with its values, so a reader can take the other branch.
 - Light and dark whist give the same double-dummy play and the same score
   (scoring spec §3.4), so one "whist" covers both.
 - "How sure": the probability, under a normal approximation of the paired
   difference over the same layouts, that the recommended option is better
   than the runner-up (1 when the enumeration is exact).
 - Cards already played: the seat of each card follows from the tricks
   (first hand leads, the winner leads next); a layout is kept when it holds
   those cards where they were played and the play is legal for it (the other
   defender's voids are dealt to the declarer directly); each kept layout
   counts the same.
 - The declarer's and the other defender's hands are dealt from the unseen
   cards uniformly (no inference from the auction unless asked for).
 - An endgame (fewer than 10 cards a hand) needs the unseen cards and the
   tricks taken before it by each seat, which must add up to 10 − hand size.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Hashable, Sequence

from ..engine import Solver
from ..notation import NO_TRUMP, Card, Contract, ContractKind, Hand, NotationError, parse_cards, parse_seat
from ..scoring import SOCHI, Convention, Decision, get_convention
from .errors import AdviceError
from .layouts import LayoutSpace
from .parallel import LayoutRun, RunOptions, RunStats, run_layouts
from .play import AuctionFilter, ContractPlay, DiscardModel, OutcomeKey, made
from .stats import Estimate, Number, estimate, merge_units, sureness
from .values import Scenario, Valuer

__all__ = ["WhistRequest", "WhistOption", "WhistAdvice", "advise_whist", "whist_advice_from_run", "whist_request"]

FULL_DECK = Hand((1 << 32) - 1)


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
    auction: AuctionFilter | None = None
    split: bool = False
    """Also count the defenders' split along the solver's line when no option needs it."""
    four_players: bool = False
    leader: int = 0

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
    auction: AuctionFilter | None = None,
    split: bool = False,
    four_players: bool = False,
) -> WhistRequest:
    """A :class:`WhistRequest` from text or objects (``options``: convention
    option overrides)."""
    try:
        return WhistRequest(
            hand=_hand(hand, "hand"),
            talon=_hand(talon, "talon"),
            contract=Contract.parse(contract) if isinstance(contract, str) else contract,
            declarer=parse_seat(declarer),
            seat=parse_seat(seat),
            other_decision=_decision(other_decision),
            convention=_convention(convention, options),
            played=_cards(played),
            unseen=None if unseen is None else _hand(unseen, "unseen cards"),
            prior_tricks=tuple(prior_tricks),  # type: ignore[arg-type]
            discard_model=_discard_model(discard_model),
            auction=auction,
            split=split,
            four_players=four_players,
        )
    except NotationError as error:
        raise AdviceError(str(error)) from None


def _hand(value: Hand | str, what: str) -> Hand:
    if isinstance(value, Hand):
        return value
    try:
        return Hand.parse(value)
    except NotationError as error:
        raise AdviceError(f"{what}: {error}") from None


def _cards(value: Sequence[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(parse_cards(value))
    return tuple(card if isinstance(card, Card) else Card.parse(card) for card in value)


def _decision(value: Decision | str | None) -> Decision | None:
    if value is None or isinstance(value, Decision):
        return value
    text = value.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Decision({"half": "half_whist", "halfwhist": "half_whist"}.get(text, text))
    except ValueError:
        raise AdviceError(f"the other defender's decision must be pass, whist or half_whist, got {value!r}") from None


def _convention(value: Convention | str, options: dict | None) -> Convention:
    if isinstance(value, Convention):
        return value.with_options(options) if options else value
    return get_convention(value, options)


def _discard_model(value: DiscardModel | str) -> DiscardModel:
    try:
        return DiscardModel(value)
    except ValueError:
        raise AdviceError(f"discard model must be 'best' or 'uniform', got {value!r}") from None


def _check_seat(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2:
        raise AdviceError(f"{what} must be a seat 0, 1 or 2, got {value!r}")


def _names(hand: Hand) -> str:
    return " ".join(card.pretty() for card in hand)


def _check_request(r: WhistRequest) -> None:
    for name, kind in (("hand", Hand), ("talon", Hand), ("contract", Contract), ("convention", Convention)):
        if not isinstance(getattr(r, name), kind):
            raise AdviceError(f"{name} must be a {kind.__name__}, got {getattr(r, name)!r}")
    _check_seat(r.declarer, "declarer")
    _check_seat(r.seat, "the defender's seat")
    _check_seat(r.leader, "leader")
    if r.seat == r.declarer:
        raise AdviceError(f"seat {r.seat} is the declarer's; the question is a defender's")
    if r.contract.kind is ContractKind.MISERE:
        raise AdviceError("a misère is not whisted (scoring spec §3.3): there is nothing to decide")
    if r.contract.kind is ContractKind.ALLPASS:
        raise AdviceError("all-pass has no declarer to whist against; give a trick contract such as 6s")
    if len(r.talon) != 2:
        raise AdviceError(f"the talon has {len(r.talon)} cards, must have 2")
    if r.hand.mask & r.talon.mask:
        raise AdviceError(f"the defender's hand overlaps the talon: {_names(r.hand & r.talon)}")
    size = len(r.hand)
    if not 1 <= size <= 10:
        raise AdviceError(f"the defender's hand has {size} cards, must have 1 to 10")
    if r.unseen is None and size != 10:
        raise AdviceError(f"an endgame of {size} cards a hand needs the unseen cards (the declarer's and "
                          "the other defender's together)")
    hidden = r.hidden
    if hidden.mask & (r.hand.mask | r.talon.mask):
        raise AdviceError(f"the unseen cards overlap the hand or the talon: {_names(hidden & (r.hand | r.talon))}")
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
    prior = r.prior_tricks
    if (not isinstance(prior, tuple) or len(prior) != 3
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in prior)):
        raise AdviceError(f"prior_tricks must be three whole numbers (by seat), got {prior!r}")
    if sum(prior) != 10 - size:
        raise AdviceError(f"the tricks before an endgame of {size} cards must add up to {10 - size}, "
                          f"got {sum(prior)}")
    _seats_of_played(r)


def _nothing_to_decide(r: WhistRequest) -> bool:
    return _ten_checked(r) or _stalingrad(r)


def _ten_checked(r: WhistRequest) -> bool:
    return r.contract.level == 10 and not r.convention.ten_whisted


def _stalingrad(r: WhistRequest) -> bool:
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


def _layout_space(r: WhistRequest) -> LayoutSpace:
    """The declarer's hand (before the talon) and the other defender's."""
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


@dataclass(frozen=True)
class WhistOption:
    """One option and what it is worth to the asking defender (``value``), to
    the other defender and to the declarer, in whists per deal.

    When the option hands the word to someone else, ``replies`` are that
    player's choices and ``chooser`` says who he is (``other`` or ``self``);
    the option's figures are those of the reply he is modelled to choose
    (the highest expected value for him)."""

    action: str
    description: str
    scenario: Scenario
    value: Estimate
    other_value: Estimate
    declarer_value: Estimate
    declarer_fails: Estimate
    """Probability the declarer fails (0 when the deal is not played)."""
    defence_tricks: dict[int, float] | None
    """Distribution of the defence's tricks when the deal is played, else None."""
    layouts: int
    chooser: str | None = None
    replies: tuple["WhistOption", ...] = ()


@dataclass(frozen=True)
class WhistAdvice:
    """The answer to a :class:`WhistRequest`."""

    request: WhistRequest
    options: tuple[WhistOption, ...]
    recommended: str
    """The action of the option with the highest expected value."""
    sureness: float
    """Probability the recommended option beats the runner-up (1: exact, or no other option)."""
    advantage: Estimate | None
    """Expected gain of the recommended option over the runner-up (None: a single option)."""
    declarer_tricks: dict[int, float]
    """Distribution of the declarer's tricks (whole deal) over the layouts."""
    declarer_fails: Estimate
    split: dict[tuple[int, int], float] | None
    """Distribution of (this defender's, the other's) tricks along the solver's line, when counted."""
    run: RunStats
    notes: tuple[str, ...] = field(default=())

    def option(self, action: str) -> WhistOption:
        for option in self.options:
            if option.action == action:
                return option
        raise KeyError(action)


@dataclass(frozen=True)
class _Node:
    action: str
    description: str
    scenario: Scenario | None = None
    chooser: str | None = None
    replies: tuple["_Node", ...] = ()

    def leaves(self) -> list[Scenario]:
        if self.scenario is not None:
            return [self.scenario]
        return [leaf for reply in self.replies for leaf in reply.leaves()]


def _decision_tree(r: WhistRequest) -> list[_Node]:
    """The asking defender's options, each with the replies that follow it."""
    if _ten_checked(r):
        return [_Node("check", "a 10 is checked, not whisted: nothing to decide", Scenario.TEN_CHECKED)]
    if _stalingrad(r):
        return [_Node("whist", "Stalingrad: both defenders must whist a 6♠", Scenario.BOTH_WHIST)]
    half_ok = r.contract.level in r.convention.half_whist_contracts
    return_ok = r.convention.returned_whist_allowed
    S = Scenario

    def half(who: str, accepted: Scenario, returned: Scenario, description: str) -> _Node:
        chooser = "other" if who == "x" else "self"
        stand = _Node("accept", "the half-whist stands", accepted)
        if not return_ok:
            return _Node("half_whist", description, accepted)
        back = _Node("return", "the whist is returned: the returner plays alone", returned)
        return _Node("half_whist", description, chooser=chooser, replies=(stand, back))

    other = r.other_decision
    if other is Decision.PASS:
        options = [_Node("pass", "pass: the contract stands unplayed", S.PASS_PASS)]
        if half_ok:
            options.append(half("x", S.X_HALF, S.X_HALF_RETURNED, "half-whist (the other may return it)"))
        options.append(_Node("whist", "whist alone (light or dark)", S.X_WHISTS))
        return options
    if other is Decision.WHIST:
        return [_Node("pass", "pass: the other defender plays alone", S.Y_WHISTS),
                _Node("whist", "whist too: two whisters", S.BOTH_WHIST)]
    if other is Decision.HALF_WHIST:
        options = [_Node("accept", "let the other's half-whist stand", S.Y_HALF)]
        if return_ok:
            options.append(_Node("return", "return the whist and play alone", S.Y_HALF_RETURNED))
        return options
    after_pass = [_Node("pass", "the other passes too: the contract stands", S.PASS_PASS)]
    if half_ok:
        after_pass.append(half("y", S.Y_HALF, S.Y_HALF_RETURNED, "the other half-whists (you may return it)"))
    after_pass.append(_Node("whist", "the other whists alone", S.Y_WHISTS))
    after_whist = [_Node("pass", "the other passes: you whist alone", S.X_WHISTS),
                   _Node("whist", "the other whists too", S.BOTH_WHIST)]
    return [_Node("pass", "pass; then the other defender speaks", chooser="other", replies=tuple(after_pass)),
            _Node("whist", "whist; then the other defender speaks", chooser="other", replies=tuple(after_whist))]


class _Scorer:
    """Estimates of every scenario over one run's layouts."""

    def __init__(self, r: WhistRequest, run: LayoutRun) -> None:
        self.request = r
        self.run = run
        self.valuer = Valuer(r.convention, r.contract, r.declarer, r.seat, r.other, r.four_players)
        self.merged = merge_units(run.units)
        self.weight = sum(self.merged.values())
        self.cache: dict[Scenario, WhistOption] = {}

    def estimate(self, f: Callable[[Hashable], Number]) -> Estimate:
        return estimate(self.run.units, f, population_units=self.run.population_units,
                        exact=self.run.stats.complete)

    def value_of(self, scenario: Scenario, role: int) -> Callable[[Hashable], Number]:
        return lambda key: self.valuer.values(scenario, key)[role]  # type: ignore[arg-type]

    def scenario(self, scenario: Scenario) -> WhistOption:
        if scenario not in self.cache:
            contract = self.request.contract
            if scenario.played:
                fails = self.estimate(lambda key: 0 if made(contract, key[0]) else 1)  # type: ignore[index]
                defence: dict[int, float] | None = {}
                for (taken, _), weight in sorted(self.merged.items(), key=lambda item: -item[0][0]):
                    defence[10 - taken] = defence.get(10 - taken, 0.0) + float(weight / self.weight)
            else:
                fails, defence = Estimate(0.0, 0.0, None), None
            self.cache[scenario] = WhistOption(
                action=scenario.value, description=scenario.value, scenario=scenario,
                value=self.estimate(self.value_of(scenario, 1)),
                other_value=self.estimate(self.value_of(scenario, 2)),
                declarer_value=self.estimate(self.value_of(scenario, 0)),
                declarer_fails=fails, defence_tricks=defence, layouts=self.run.stats.layouts)
        return self.cache[scenario]

    def option(self, node: _Node) -> WhistOption:
        if node.scenario is not None:
            base = self.scenario(node.scenario)
            return WhistOption(node.action, node.description, base.scenario, base.value, base.other_value,
                               base.declarer_value, base.declarer_fails, base.defence_tricks, base.layouts)
        replies = tuple(self.option(reply) for reply in node.replies)
        pick = max(range(len(replies)),
                   key=lambda i: (_mean(replies[i].value if node.chooser == "self" else replies[i].other_value), -i))
        chosen = replies[pick]
        return WhistOption(node.action, node.description, chosen.scenario, chosen.value, chosen.other_value,
                           chosen.declarer_value, chosen.declarer_fails, chosen.defence_tricks, chosen.layouts,
                           node.chooser, replies)


def _mean(value: Estimate) -> float:
    return value.mean if value.exact is None else float(value.exact)


def advise_whist(request: WhistRequest, options: RunOptions | None = None) -> WhistAdvice:
    """Whist or pass: every option's expected value over the hidden layouts."""
    options = options or RunOptions()
    tree = _decision_tree(request)
    leaves = {leaf for node in tree for leaf in node.leaves()}
    play = ContractPlay(request.contract, request.declarer, request.leader, request.played,
                        request.prior_tricks, request.discard_model,
                        request.split or any(leaf.needs_split for leaf in leaves), request.auction)
    space = _layout_space(request)

    def evaluate(parts: tuple[Hand, ...], solver: Solver) -> dict[Hashable, Number] | None:
        hands = [Hand(0)] * 3
        hands[request.seat] = request.hand
        hands[request.declarer], hands[request.other] = parts
        return play((hands[0], hands[1], hands[2]), request.talon, solver)

    return whist_advice_from_run(request, run_layouts(space, evaluate, options))


def whist_advice_from_run(request: WhistRequest, run: LayoutRun) -> WhistAdvice:
    """The advice from a finished run's outcome units (keys of
    :mod:`solver.advice.play`): the scoring half of :func:`advise_whist`."""
    tree = _decision_tree(request)
    if run.stats.layouts == 0:
        if run.stats.stopped != "done":
            raise AdviceError(f"the run was {run.stats.stopped} before any layout was finished")
        raise AdviceError("no layout of the hidden cards fits what is known (cards played, auction filter)")
    scorer = _Scorer(request, run)
    answers = tuple(scorer.option(node) for node in tree)
    ranked = sorted(range(len(answers)), key=lambda i: (-_mean(answers[i].value), i))
    best = answers[ranked[0]]
    advantage, sure = None, 1.0
    if len(answers) > 1:
        second = answers[ranked[1]]
        advantage = scorer.estimate(lambda key: scorer.valuer.values(best.scenario, key)[1]  # type: ignore[arg-type]
                                    - scorer.valuer.values(second.scenario, key)[1])  # type: ignore[arg-type]
        sure = sureness(advantage)
    declarer_tricks: dict[int, float] = {}
    counted = any(seats is not None for _, seats in scorer.merged)
    split: dict[tuple[int, int], float] | None = {} if counted else None
    for (taken, seats), weight in sorted(scorer.merged.items(), key=lambda item: (item[0][0], item[0][1] or ())):
        declarer_tricks[taken] = declarer_tricks.get(taken, 0.0) + float(weight / scorer.weight)
        if split is not None and seats is not None:
            pair = (seats[request.seat], seats[request.other])
            split[pair] = split.get(pair, 0.0) + float(weight / scorer.weight)
    fails = scorer.estimate(lambda key: 0 if made(request.contract, key[0]) else 1)  # type: ignore[index]
    notes = ["light and dark whist play the same double dummy and score the same (scoring spec §3.4)"]
    if any(answer.chooser == "other" for answer in answers) or any(
            reply.chooser == "other" for answer in answers for reply in answer.replies):
        notes.append("the other defender is modelled to choose the reply worth most to him over these layouts")
    return WhistAdvice(request, answers, best.action, sure, advantage, declarer_tricks, fails, split,
                       run.stats, tuple(notes))
