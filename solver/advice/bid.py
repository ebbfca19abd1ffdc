"""The bidder's question: which contract?

From a 10-card hand (before the talon): over layouts of the talon and the
other two hands, for every contract 6♠ … 10NT and misère, the probability of
making it with the best discard and its expected single-deal value (scoring
spec §8) for the bidder when the defenders answer by a stated
:class:`~solver.advice.values.DefenceRule`; the recommended bid is the one of
highest expected value.

From a 12-card hand (after the talon): the declarer must discard before he
sees the other hands, so every discard is tried on the same layouts of the
other two hands, and the answer is the best contract with its best discard.

Choices where the issue is silent:
 - 10 cards: "with the best discard" is the double-dummy best discard for
   each layout (rules.md, best discard), as if the declarer knew the hidden
   hands when he discards: an upper bound on what he can expect.
 - Double-dummy optimism (:mod:`solver.advice.optimism`): 10 cards, by
   default the best contract and the runner-up (misère included) are also
   measured on the first ``blind_discard.layouts`` layouts with the discard
   chosen without seeing the defenders' cards (:mod:`solver.advice.blind_discard`;
   ``conservative``, ``conservative_runner_up``); the plan says so when the
   runner-up is worth more by that figure. 12 cards: the discard is already
   one for every layout (below), so that figure is not measured. With
   ``single_dummy`` (layouts > 0) the best contract is also played on that
   many layouts with the declarer single dummy (``optimism``). The ranking
   itself stays double dummy.
 - 12 cards: discards that leave the same game up to the relative ranks of
   the live cards are one choice (they give the same tricks on every layout);
   the best discard of a contract is the one with the highest estimated
   value, which favours it a little when the sample is small.
 - A contract's tricks do not depend on its level, so each strain (and
   misère) is solved once per layout and read against every level.
 - Passing (10 cards of a whole deal): valued as if the other two pass as
   well and the all-pass is played: on every layout, the exact max^n
   solution of the all-pass (each player minimising his own tricks, assuming
   the others do too; ties to the lowest card; :func:`~solver.analysis.allpass_line`)
   gives the three seats' tricks, scored as the first all-pass of a run
   (index 1). The recommendation (``recommendation``) is ``pass`` when that
   is worth more than the best contract: never a contract worth less than
   passing. That the others may bid instead is not modelled. After the talon
   (12 cards) the bidder must declare, and an endgame has no all-pass: there
   passing is not offered.
 - The bidder's seat matters only through the lead: first hand (seat 0)
   leads to the first trick.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable, Hashable, Sequence

from ..analysis import allpass_line, best_discard, deal_after_discard
from ..engine import Solver
from ..notation import BIDDING_ORDER, Contract, ContractKind, Deal, Hand, NotationError, parse_seat
from ..position import Position
from ..scoring import SOCHI, Convention
from .errors import AdviceError, require_type
from .layouts import LayoutSpace, misere_only
from .parallel import LayoutRun, RunOptions, RunStats, run_layouts
from .play import OutcomeKey, contract_kind, discard_classes, made, split_tricks
from .stats import Estimate, Number, merge_units, sureness
from .blind_discard import BLIND_DISCARD, BLIND_NOTE, BlindDiscard
from .optimism import SINGLE_DUMMY_STOPPED, Optimism, layout_key, measure_blind_discard, measure_optimism
from .single_dummy import SingleDummy
from .values import AllPassValuer, DefenceRule, Valuer, rule_scenario
from .inputs import FULL_DECK, check_prior, parse_contracts, parse_convention, parse_hand

__all__ = ["BidRequest", "ContractAdvice", "BidAdvice", "PassAdvice", "advise_bid", "bid_request", "contract_kind",
           "parse_contracts"]


@dataclass(frozen=True)
class BidRequest:
    """The bidder's question: a 10-card hand (before the talon) or a 12-card
    hand (after it), seat, convention, the contracts to weigh."""

    hand: Hand
    seat: int
    convention: Convention = SOCHI
    contracts: tuple[Contract, ...] = BIDDING_ORDER
    defence: DefenceRule = DefenceRule.WHIST
    unseen: Hand | None = None
    """Every card not in the hand that is in play (default: the rest of the deck;
    required for an endgame)."""
    prior_tricks: tuple[int, int, int] = (0, 0, 0)
    four_players: bool = False
    leader: int = 0
    value_pass: bool = True
    """Value passing too (an all-pass played), where it is an option (:attr:`pass_allowed`)."""
    single_dummy: SingleDummy = SingleDummy()
    """The single-dummy figure of the best contract (layouts 0: none)."""
    blind_discard: BlindDiscard = BLIND_DISCARD
    """The blind-discard figures of the best contract and the runner-up (10 cards; layouts 0: none)."""

    def __post_init__(self) -> None:
        if not isinstance(self.hand, Hand):
            raise AdviceError(f"hand must be a Hand, got {self.hand!r}")
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or not 0 <= self.seat <= 2:
            raise AdviceError(f"seat must be 0, 1 or 2, got {self.seat!r}")
        if not isinstance(self.convention, Convention):
            raise AdviceError(f"convention must be a Convention, got {self.convention!r}")
        if not self.contracts or not all(isinstance(c, Contract) and c.kind is not ContractKind.ALLPASS
                                         for c in self.contracts):
            raise AdviceError(f"contracts must be trick contracts or misère, got {self.contracts!r}")
        if not isinstance(self.blind_discard, BlindDiscard):
            raise AdviceError(f"blind_discard must be a BlindDiscard, got {self.blind_discard!r}")
        if not isinstance(self.defence, DefenceRule):
            raise AdviceError(f"defence must be a DefenceRule, got {self.defence!r}")
        if self.unseen is not None and self.unseen.mask & self.hand.mask:
            raise AdviceError(f"the unseen cards overlap the hand: {(self.unseen & self.hand).pretty()}")
        total = len(self.hand) + len(self.hidden)
        if (total - 2) % 3 or total < 5:
            raise AdviceError(f"{len(self.hand)} cards in hand and {len(self.hidden)} unseen do not make "
                              "three equal hands and a talon")
        size = self.hand_size
        if len(self.hand) not in (size, size + 2):
            raise AdviceError(f"the hand has {len(self.hand)} cards: give {size} (before the talon) "
                              f"or {size + 2} (after it)")
        check_prior(self.prior_tricks, size)

    @property
    def hidden(self) -> Hand:
        return self.unseen if self.unseen is not None else FULL_DECK - self.hand

    @property
    def hand_size(self) -> int:
        return (len(self.hand) + len(self.hidden) - 2) // 3

    @property
    def pass_allowed(self) -> bool:
        """Passing is valued: 10 cards of a whole deal, before the talon."""
        return (self.value_pass and not self.after_talon and self.hand_size == 10
                and self.prior_tricks == (0, 0, 0))

    @property
    def after_talon(self) -> bool:
        """True for the 12-card question (the hand includes the talon)."""
        return len(self.hand) == self.hand_size + 2

    @property
    def kinds(self) -> tuple[Contract, ...]:
        """The games to solve: each strain asked for, and misère."""
        seen: list[Contract] = []
        for contract in self.contracts:
            kind = contract_kind(contract)
            if kind not in seen:
                seen.append(kind)
        return tuple(seen)


def bid_request(hand: Hand | str, seat: int | str, *, talon: Hand | str | None = None,
                convention: Convention | str = "sochi", options: dict | None = None,
                contracts: str | Sequence[Contract | str] | None = None, defence: DefenceRule | str = "whist",
                unseen: Hand | str | None = None, prior_tricks: Sequence[int] = (0, 0, 0),
                four_players: bool = False, value_pass: bool = True,
                single_dummy: SingleDummy | int = 0, blind_discard: BlindDiscard | int | None = None) -> BidRequest:
    """A :class:`BidRequest` from text or objects; a ``talon`` is added to the
    hand (the 12-card question)."""
    try:
        cards = parse_hand(hand, "hand")
        if talon is not None:
            extra = parse_hand(talon, "talon")
            if extra.mask & cards.mask:
                raise AdviceError(f"the hand overlaps the talon: {(extra & cards).pretty()}")
            cards = cards | extra
        try:
            rule = DefenceRule(defence)
        except ValueError:
            raise AdviceError(f"defence rule must be whist, pass or both, got {defence!r}") from None
        return BidRequest(cards, parse_seat(seat), parse_convention(convention, options), parse_contracts(contracts),
                          rule, None if unseen is None else parse_hand(unseen, "unseen cards"),
                          tuple(prior_tricks), four_players, value_pass=value_pass,  # type: ignore[arg-type]
                          single_dummy=single_dummy if isinstance(single_dummy, SingleDummy)
                          else SingleDummy(single_dummy), blind_discard=BlindDiscard.given(blind_discard))
    except NotationError as error:
        raise AdviceError(str(error)) from None


@dataclass(frozen=True)
class ContractAdvice:
    """One contract: the chance of making it and its value to the declarer."""

    contract: Contract
    make_probability: Estimate
    value: Estimate
    """The declarer's expected deal value, in whists."""
    tricks: dict[int, float]
    """Distribution of the declarer's tricks (whole deal); misère: the tricks he takes."""
    discard: Hand | None = None
    """12 cards: the discard these figures are for."""


@dataclass(frozen=True)
class PassAdvice:
    """Passing, valued as an all-pass played (see the module)."""

    value: Estimate
    """The bidder's expected deal value, in whists."""
    tricks: dict[int, float]
    """Distribution of the bidder's all-pass tricks."""


@dataclass(frozen=True)
class BidAdvice:
    request: BidRequest
    contracts: tuple[ContractAdvice, ...]
    """Every contract asked for, in bidding order (12 cards: each with its best discard)."""
    recommended: ContractAdvice
    """The best contract (highest expected value)."""
    sureness: float
    """Probability the recommended contract is worth more than the runner-up
    (the best contract worth something different on some layout)."""
    advantage: Estimate | None
    discards: tuple[ContractAdvice, ...]
    """12 cards: the recommended contract with every distinct discard, best first."""
    run: RunStats
    notes: tuple[str, ...] = field(default=())
    passing: PassAdvice | None = None
    """Passing, when it is valued (:attr:`BidRequest.pass_allowed`)."""
    recommendation: str = ""
    """What to say: ``pass`` when passing is worth more than the best contract,
    else the best contract (text such as ``7s``)."""
    recommendation_sureness: float = 1.0
    """Probability the recommendation beats the other of pass / best contract (1: pass not valued)."""
    recommendation_advantage: Estimate | None = None
    """Its expected gain over the other (None: pass not valued)."""
    plan: str = ""
    """The recommendation in words."""
    optimism: Optimism | None = None
    """The best contract's single-dummy figure next to its double-dummy one, when asked for (over the
    layouts done within the advice's budget; None when stopped before the first: the notes say so)."""
    conservative: Optimism | None = None
    """The best contract's blind-discard figure (the default conservative
    figure; None when not measured: see the notes)."""
    conservative_runner_up: Optimism | None = None
    """The same figure for the runner-up contract, when there is one."""

    def contract(self, text: str) -> ContractAdvice:
        wanted = Contract.parse(text)
        for advice in self.contracts:
            if advice.contract == wanted:
                return advice
        raise KeyError(text)


class _Reader:
    """Reads one contract's figures from the units of a run."""

    def __init__(self, request: BidRequest, run: LayoutRun) -> None:
        self.request = request
        self.run = run
        first = (request.seat + 1) % 3
        self.valuers = {c: Valuer(request.convention, c, request.seat, first, 3 - request.seat - first,
                                  request.four_players) for c in request.contracts}
        self.merged = merge_units(run.units)
        self.weight = sum(self.merged.values())

    def estimate(self, f) -> Estimate:
        return self.run.estimate(f)

    def value_function(self, contract: Contract, slot: int):
        valuer = self.valuers[contract]
        scenario = rule_scenario(self.request.defence, contract, self.request.convention)
        return lambda key: valuer.declarer_value(scenario, key[slot])

    def advice(self, contract: Contract, slot: int, discard: Hand | None) -> ContractAdvice:
        tricks: dict[int, float] = {}
        for key, weight in self.merged.items():
            taken = key[slot][0]
            tricks[taken] = tricks.get(taken, 0.0) + float(weight / self.weight)
        return ContractAdvice(contract,
                              self.estimate(lambda key: 1 if made(contract, key[slot][0]) else 0),
                              self.estimate(self.value_function(contract, slot)),
                              dict(sorted(tricks.items())), discard)


def advise_bid(request: BidRequest, options: RunOptions | None = None) -> BidAdvice:
    """Every contract's chance and expected value over the hidden layouts."""
    started = time.monotonic()
    require_type(request, BidRequest, "request")
    options = RunOptions.given(options)
    seen: dict[tuple[int, ...], tuple] = {}
    solvers: list[Solver] = []   # the run's, then the blind-discard figures'
    if request.after_talon:
        advice = _advise_after_talon(request, options)
    else:
        # The layouts' outcomes are kept only for the blind-discard figure.
        advice = _advise_before_talon(request, options, seen if _blind_skipped(request) is None else None, solvers)
    if request.single_dummy.layouts and advice.recommended.contract.kind is ContractKind.TRICKS:
        figure = _optimism(request, advice.recommended, options, started)
        advice = replace(advice, optimism=figure,
                         notes=advice.notes + (() if figure is not None else (SINGLE_DUMMY_STOPPED,)))
    return _with_conservative(advice, options, seen, started, solvers)


def _declarer_values(request: BidRequest, contract: Contract) -> dict[str, Callable[[int], float]]:
    """The bidder's deal value as a function of his tricks (none when the
    defence rule needs the defenders' split)."""
    first = (request.seat + 1) % 3
    valuer = Valuer(request.convention, contract, request.seat, first, 3 - request.seat - first, request.four_players)
    scenario = rule_scenario(request.defence, contract, request.convention)
    if scenario.needs_split:
        return {}
    return {"declarer": lambda tricks: float(valuer.declarer_value(scenario, (tricks, None)))}


def _blind_skipped(request: BidRequest) -> str | None:
    if not request.blind_discard.layouts:
        return "not asked for"
    if request.after_talon:
        return "after the talon the discard is already one for every layout"
    return None


def _with_conservative(advice: BidAdvice, options: RunOptions, seen: dict[tuple[int, ...], tuple],
                       started: float, solvers: list[Solver]) -> BidAdvice:
    """The blind-discard figures of the best contract and of the runner-up
    contract, a note saying what they are, and the plan saying so when
    the runner-up is worth more by them (``seen``: the run's outcome key of
    each layout it played, by :func:`~solver.advice.optimism.layout_key`;
    ``started``: when the advice's time budget started, which both figures
    share; ``solvers``: the run's, which they reuse)."""
    request, best = advice.request, advice.recommended
    skipped = _blind_skipped(request)
    if skipped is not None:
        return replace(advice, notes=advice.notes + (f"conservative figure (blind discard) not measured: {skipped}",))
    space = _before_talon_space(request, request.kinds)

    def measure(contract: Contract) -> Optimism | None:
        slot = request.kinds.index(contract_kind(contract))
        return measure_blind_discard(contract, request.seat, space,
                                     lambda parts: (_seated(request, request.hand, parts[1:]), parts[0]),
                                     request.blind_discard, options, leader=request.leader,
                                     prior=request.prior_tricks[request.seat],
                                     values=_declarer_values(request, contract),
                                     known={layout: key[slot][0] for layout, key in seen.items()},
                                     started=started, solvers=solvers)

    figure = measure(best.contract)
    if figure is None:
        return replace(advice, notes=advice.notes + ("conservative figure (blind discard) not measured: no layout "
                                                     "kept in its budget",))
    others = sorted((c for c in advice.contracts if c.contract != best.contract), key=lambda c: -c.value.as_float())
    runner = measure(others[0].contract) if others else None
    note = (f"conservative figure ({BLIND_NOTE}; {figure.layouts} layouts, {figure.worlds} worlds each): "
            f"{best.contract.pretty()} {figure.tricks.conservative:.2f} tricks against "
            f"{figure.tricks.double_dummy:.2f} double dummy")
    plan = advice.plan
    if runner is not None and "declarer" in figure.values and "declarer" in runner.values:
        mine, theirs = figure.values["declarer"], runner.values["declarer"]
        note += (f"; {runner.contract.pretty()} {runner.tricks.conservative:.2f} against "
                 f"{runner.tricks.double_dummy:.2f}")
        if theirs.conservative > mine.conservative:
            plan += (f"; but a declarer who discards without seeing the defenders' cards does better in "
                     f"{runner.contract.pretty()} ({theirs.conservative:.2f} whists against "
                     f"{mine.conservative:.2f} in {best.contract.pretty()}): its double-dummy edge rests on "
                     "seeing them")
    return replace(advice, conservative=figure, conservative_runner_up=runner, notes=advice.notes + (note,),
                   plan=plan)


def _optimism(request: BidRequest, best: ContractAdvice, options: RunOptions, started: float) -> Optimism | None:
    """The best contract played double dummy and single dummy on the same
    layouts (10 cards: his best discard per layout; 12: the discard advised;
    within the advice's budget)."""
    size = request.hand_size
    contract = best.contract
    values = _declarer_values(request, contract)
    if request.after_talon:
        assert best.discard is not None
        kept, discard = request.hand - best.discard, best.discard
        space = LayoutSpace(request.hidden, (size, size), (Hand(0), Hand(0)), misere_only((contract,)))
        seated = lambda parts: (_seated(request, kept, parts), discard)  # noqa: E731
    else:
        space = _before_talon_space(request, (contract,))
        seated = lambda parts: (_seated(request, request.hand, parts[1:]), parts[0])  # noqa: E731
    return measure_optimism(contract, request.seat, space, seated, request.single_dummy, options.seed,
                            leader=request.leader, prior=request.prior_tricks[request.seat], values=values,
                            discard=best.discard, options=options, started=started)


def _opponents(request: BidRequest) -> tuple[int, int]:
    return (request.seat + 1) % 3, (request.seat + 2) % 3


def _seated(request: BidRequest, mine: Hand, parts: Sequence[Hand]) -> tuple[Hand, Hand, Hand]:
    hands = [Hand(0)] * 3
    hands[request.seat] = mine
    first, second = _opponents(request)
    hands[first], hands[second] = parts
    return hands[0], hands[1], hands[2]


def _outcome(request: BidRequest, position: Position, solver: Solver, value: int | None) -> OutcomeKey:
    """(tricks, split) of the whole deal from the start of play."""
    prior = request.prior_tricks
    if request.defence is DefenceRule.BOTH and position.contract.kind is ContractKind.TRICKS:
        tricks = split_tricks(position, solver, value)
        whole = (prior[0] + tricks[0], prior[1] + tricks[1], prior[2] + tricks[2])
        return (whole[request.seat], whole)
    if value is None:
        value = solver.solve(position)
    return (prior[request.seat] + value, None)


def _before_talon_space(request: BidRequest, contracts: Sequence[Contract]) -> LayoutSpace:
    """The layouts before the talon is seen: the talon, then each other
    hand (the blind-discard figure looks its layouts up in the advice's run
    by this space's parts, so both are drawn from it)."""
    size = request.hand_size
    return LayoutSpace(request.hidden, (2, size, size), (Hand(0), Hand(0), Hand(0)), misere_only(contracts))


def _advise_before_talon(request: BidRequest, options: RunOptions,
                         seen: dict[tuple[int, ...], tuple] | None, solvers: list[Solver]) -> BidAdvice:
    """The 10-card question (``seen``, unless None, gets each layout's
    outcome key; ``solvers`` the run's solvers, see
    :func:`~solver.advice.parallel.run_layouts`)."""
    kinds = request.kinds
    space = _before_talon_space(request, kinds)

    def evaluate(parts: tuple[Hand, ...], solver: Solver) -> dict[Hashable, Number]:
        deal = Deal(_seated(request, request.hand, parts[1:]), parts[0])
        key: list = []
        for kind in kinds:
            found = best_discard(deal, request.seat, kind, leader=request.leader, all_discards=False, solver=solver)
            if request.defence is DefenceRule.BOTH and kind.kind is ContractKind.TRICKS:
                position = Position.start(deal_after_discard(deal, request.seat, found.discard), kind,
                                          request.seat, request.leader)
                key.append(_outcome(request, position, solver, found.value))
            else:
                key.append((request.prior_tricks[request.seat] + found.value, None))
        if request.pass_allowed:
            plays_talon = request.four_players and request.convention.allpass_dealer_4p == "plays_talon"
            line = allpass_line(deal, four_players=plays_talon, solver=solver)
            key.append(("allpass", line.tricks, line.unclaimed))
        if seen is not None:
            seen[layout_key(parts)] = tuple(key)
        return {tuple(key): 1}

    run = run_layouts(space, evaluate, options, solvers=solvers).finished()
    reader = _Reader(request, run)
    contracts = tuple(reader.advice(c, kinds.index(contract_kind(c)), None) for c in request.contracts)
    slot_of = lambda advice: kinds.index(contract_kind(advice.contract))  # noqa: E731
    best, sure, advantage, ties = _rank(reader, contracts, slot_of)
    notes = ("each layout is played with its double-dummy best discard (an upper bound for a declarer "
             "who discards blind)",) + _tie_note(ties)
    advice = BidAdvice(request, contracts, best, sure, advantage, (), run.stats, notes)
    if not request.pass_allowed:
        return _without_pass(advice)
    return _with_pass(advice, reader, slot_of(best), len(kinds))


def _without_pass(advice: BidAdvice) -> BidAdvice:
    request = advice.request
    why = ("after the talon the bidder must declare" if request.after_talon else
           "passing is valued only on a whole deal before the talon" if request.value_pass else
           "passing was not asked for")
    best = advice.recommended
    return replace(advice, recommendation=str(best.contract),
                   notes=advice.notes + (f"pass not valued: {why}",),
                   plan=f"declare {best.contract.pretty()}" + (f" discarding {best.discard.pretty()}"
                                                               if best.discard is not None else ""))


def _with_pass(advice: BidAdvice, reader: "_Reader", best_slot: int, pass_slot: int) -> BidAdvice:
    """Compare the best contract with passing (an all-pass played) on the same layouts."""
    request = advice.request
    valuer = AllPassValuer(request.convention, request.seat, request.four_players)
    pass_value = lambda key: valuer.value(key[pass_slot][1], key[pass_slot][2])  # noqa: E731
    tricks: dict[int, float] = {}
    for key, weight in reader.merged.items():
        taken = key[pass_slot][1][request.seat]
        tricks[taken] = tricks.get(taken, 0.0) + float(weight / reader.weight)
    passing = PassAdvice(reader.estimate(pass_value), dict(sorted(tricks.items())))
    best = advice.recommended
    contract_value = reader.value_function(best.contract, best_slot)
    gain = reader.estimate(lambda key: pass_value(key) - contract_value(key))
    if passing.value.as_float() > best.value.as_float():
        recommendation, advantage = "pass", gain
        plan = (f"pass: if the others pass too, the all-pass is worth {passing.value.as_float():.2f} whists to you, "
                f"more than the best contract, {best.contract.pretty()} ({best.value.as_float():.2f})")
    else:
        recommendation, advantage = str(best.contract), reader.estimate(lambda key: -pass_value(key)
                                                                        + contract_value(key))
        plan = (f"bid {best.contract.pretty()} ({best.value.as_float():.2f} whists), more than passing into an "
                f"all-pass ({passing.value.as_float():.2f})")
    sure = 1.0 if advantage.mean == 0 and advantage.std_error == 0 else sureness(advantage)
    note = ("pass: valued as an all-pass played (the others pass too), its tricks from the exact max^n "
            "solution of each layout, scored as a first all-pass")
    return replace(advice, passing=passing, recommendation=recommendation, recommendation_sureness=sure,
                   recommendation_advantage=advantage, plan=plan, notes=advice.notes + (note,))


def _advise_after_talon(request: BidRequest, options: RunOptions) -> BidAdvice:
    size = request.hand_size
    kinds = request.kinds
    space = LayoutSpace(request.hidden, (size, size), (Hand(0), Hand(0)), misere_only(kinds))
    # Without renaming the suits: one discard of a class serves every
    # contract asked about, trump contracts included.
    classes = discard_classes(request.hand, [request.hidden])
    discards = [members[0] for members in classes]

    def evaluate(parts: tuple[Hand, ...], solver: Solver) -> dict[Hashable, Number]:
        key = []
        for discard in discards:
            hands = _seated(request, request.hand - discard, parts)
            for kind in kinds:
                position = Position(hands, kind, request.seat, request.leader)
                key.append(_outcome(request, position, solver, None))
        return {tuple(key): 1}

    run = run_layouts(space, evaluate, options).finished()
    reader = _Reader(request, run)

    def slot(discard_index: int, contract: Contract) -> int:
        return discard_index * len(kinds) + kinds.index(contract_kind(contract))

    per_contract = []
    every_discard: dict[Contract, list[ContractAdvice]] = {}
    for contract in request.contracts:
        options_for = [reader.advice(contract, slot(i, contract), discard) for i, discard in enumerate(discards)]
        options_for.sort(key=lambda advice: -advice.value.as_float())
        every_discard[contract] = options_for
        per_contract.append(options_for[0])
    contracts = tuple(per_contract)
    index = {discard.mask: i for i, discard in enumerate(discards)}
    best, sure, advantage, ties = _rank(
        reader, contracts, lambda advice: slot(index[advice.discard.mask], advice.contract))  # type: ignore[union-attr]
    notes = (f"{len(discards)} distinct discards of the 12 cards tried on the same layouts",) + _tie_note(ties)
    return _without_pass(BidAdvice(request, contracts, best, sure, advantage, tuple(every_discard[best.contract]),
                                   run.stats, notes))


def _rank(reader: _Reader, contracts: tuple[ContractAdvice, ...], slot_of) -> tuple[
        ContractAdvice, float, Estimate | None, tuple[ContractAdvice, ...]]:
    """The best contract (the first in bidding order among equals), how sure,
    its paired advantage over the runner-up, and the contracts worth exactly
    the same on every layout (skipped as runner-ups)."""
    ranked = sorted(range(len(contracts)), key=lambda i: (-contracts[i].value.as_float(), i))
    best = contracts[ranked[0]]
    best_value = reader.value_function(best.contract, slot_of(best))
    ties = []
    for index in ranked[1:]:
        second = contracts[index]
        second_value = reader.value_function(second.contract, slot_of(second))
        advantage = reader.estimate(lambda key: best_value(key) - second_value(key))
        if advantage.mean == 0 and advantage.std_error == 0:
            ties.append(second)
            continue
        return best, sureness(advantage), advantage, tuple(ties)
    return best, 1.0, None, tuple(ties)


def _tie_note(ties: tuple[ContractAdvice, ...]) -> tuple[str, ...]:
    if not ties:
        return ()
    return (f"worth the same on every layout: {', '.join(t.contract.pretty() for t in ties)}",)
