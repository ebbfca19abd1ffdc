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
 - The auction model (default :data:`~solver.advice.play.AUCTION_MODEL`): the
   declarer's and the other defender's hands are dealt from the unseen cards
   uniformly, and a layout is kept only when the declarer could reasonably
   have named the contract (at least 4 trumps among his 12 cards for a suit
   contract; his double-dummy best-discard value at least the contract less
   one on a 6 or a 7, the contract itself from 8 on) and a partner who said
   whist holds at least one top (an ace, or a
   king with another card of its suit). ``auction=None`` keeps every layout;
   an :class:`~solver.advice.play.AuctionFilter` loosens or tightens the
   tests. The model is stated in the advice (``auction``, notes).
 - An endgame (fewer than 10 cards a hand) needs the unseen cards and the
   tricks taken before it by each seat, which must add up to 10 − hand size.
 - Double-dummy optimism (:mod:`solver.advice.optimism`): by default the
   advice also measures, on the first ``blind_discard.layouts`` layouts, a
   conservative figure where the declarer discards without seeing the
   defenders' cards (:mod:`solver.advice.blind_discard`; ``conservative``),
   and with ``single_dummy`` (layouts > 0) it plays that many layouts with
   the declarer single dummy (``optimism``). Both are reported next to the
   double-dummy figures; the recommendation stays the double-dummy one, and
   the plan says so when the conservative figure would rank another option
   first.
 - The speaking order follows from the seats: play goes clockwise 0 → 1 → 2,
   so the first defender is the seat after the declarer's.
 - Four players: scored with the sitting dealer's consolation and the
   4-player coefficients; the dealer's own whist or return is not offered.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable, Hashable, Mapping, Sequence

from ..engine import Solver
from ..notation import ContractKind, Hand
from ..scoring import Decision
from .errors import AdviceError, require_type
from .parallel import LayoutRun, RunOptions, RunStats, run_layouts
from .blind_discard import BLIND_NOTE
from .optimism import SINGLE_DUMMY_STOPPED, Optimism, measure_blind_discard, measure_optimism
from .play import ContractPlay, DiscardModel, auction_text, made
from .stats import Estimate, Number, merge_units, sureness
from .values import Scenario, Valuer
from .whist_request import WhistRequest, layout_space, stalingrad, ten_checked, whist_request

__all__ = ["WhistRequest", "WhistOption", "WhistAdvice", "advise_whist", "plan_words", "whist_advice_from_run",
           "whist_request"]


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
    chosen_reply: int | None = None
    """Index of the reply the chooser is modelled to take."""


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
    """Expected gain of the recommended option over the runner-up, the best option
    worth something else on some layout (None: no such option)."""
    declarer_tricks: dict[int, float]
    """Distribution of the declarer's tricks (whole deal) over the layouts."""
    declarer_fails: Estimate
    split: dict[tuple[int, int], float] | None
    """Distribution of (this defender's, the other's) tricks along the canonical line (:func:`~solver.advice.play.split_tricks`), when counted."""
    run: RunStats
    notes: tuple[str, ...] = field(default=())
    plan: str = ""
    """The recommendation with the later choices it counts on, in words (:func:`plan_words`)."""
    optimism: Optimism | None = None
    """The single-dummy figure next to the double-dummy one, when asked for (over the
    layouts done within the advice's budget; None when stopped before the first: the notes say so)."""
    conservative: Optimism | None = None
    """The blind-discard figure next to the double-dummy one (the default
    conservative figure; None when not measured: see the notes)."""

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
    if ten_checked(r):
        return [_Node("check", "a 10 is checked, not whisted: nothing to decide", Scenario.TEN_CHECKED)]
    if stalingrad(r):
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
        return self.run.estimate(f)

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
                fails = Estimate(0.0, 0.0, Fraction(0) if self.run.stats.complete else None)
                defence = None
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
        values = [reply.value if node.chooser == "self" else reply.other_value for reply in replies]
        pick = max(range(len(replies)), key=lambda i: (values[i].as_float(), -i))
        chosen = replies[pick]
        return WhistOption(node.action, node.description, chosen.scenario, chosen.value, chosen.other_value,
                           chosen.declarer_value, chosen.declarer_fails, chosen.defence_tricks, chosen.layouts,
                           node.chooser, replies, pick)


def advise_whist(request: WhistRequest, options: RunOptions | None = None) -> WhistAdvice:
    """Whist or pass: every option's expected value over the hidden layouts."""
    started = time.monotonic()
    require_type(request, WhistRequest, "request")
    options = RunOptions.given(options)
    tree = _decision_tree(request)
    leaves = {leaf for node in tree for leaf in node.leaves()}
    play = ContractPlay(request.contract, request.declarer, request.leader, request.played,
                        request.prior_tricks, request.discard_model,
                        request.split or any(leaf.needs_split for leaf in leaves), request.auction_played,
                        request.whisters)
    space = layout_space(request)

    known: dict[tuple[int, ...], int | None] = {}
    remember = _blind_skipped(request) is None

    hand, talon = request.hand.mask, request.talon.mask

    def deal_of(parts: tuple[int, ...]) -> tuple[int, int, int]:
        """The three hands' masks of a layout (the declarer's and the other
        defender's parts, this defender's hand)."""
        hands = [hand] * 3
        hands[request.declarer], hands[request.other] = parts
        return hands[0], hands[1], hands[2]

    def remembered(parts: tuple[int, ...], outcome: dict[Hashable, Number] | None) -> dict[Hashable, Number] | None:
        if remember:   # one outcome a layout (the best discard, no card played): its tricks
            known[parts] = None if outcome is None else next(iter(outcome))[0]  # type: ignore[index]
        return outcome

    def evaluate(parts: tuple[int, ...], solver: Solver) -> dict[Hashable, Number] | None:
        return remembered(parts, play.play_masks(deal_of(parts), talon, solver))

    def evaluate_many(layouts: Sequence[tuple[int, ...]], solver: Solver) -> list[dict[Hashable, Number] | None]:
        """``evaluate`` of each layout, their searches in one C call."""
        outcomes = play.play_masks_many([deal_of(parts) for parts in layouts], talon, solver)
        return [remembered(parts, outcome) for parts, outcome in zip(layouts, outcomes)]

    def rejects(parts: tuple[int, ...]) -> bool:
        """The layouts ``evaluate`` turns down without a search (the run
        solves the others in an order of its own: parallel.warm_key)."""
        if not play.rejects_masks(deal_of(parts), talon):
            return False
        if remember:
            known[parts] = None
        return True

    evaluate.rejects = rejects  # type: ignore[attr-defined]
    evaluate.batch = evaluate_many  # type: ignore[attr-defined]
    solvers: list[Solver] = []   # the run's, then the blind-discard figure's
    advice = whist_advice_from_run(request, run_layouts(space, evaluate, options, masks=True, solvers=solvers))
    if request.single_dummy.layouts:
        figure = _optimism(request, advice, options, started)
        advice = replace(advice, optimism=figure,
                         notes=advice.notes + (() if figure is not None else (SINGLE_DUMMY_STOPPED,)))
    return with_conservative(advice, options, known, solvers, started)


def _seated(request: WhistRequest, parts: tuple[Hand, ...]) -> tuple[tuple[Hand, Hand, Hand], Hand]:
    hands = [Hand(0)] * 3
    hands[request.seat] = request.hand
    hands[request.declarer], hands[request.other] = parts
    return (hands[0], hands[1], hands[2]), request.talon


def _option_values(request: WhistRequest, advice: WhistAdvice) -> dict[str, Callable[[int], float]]:
    """The asking defender's value of each option valued without the
    defenders' split, as a function of the declarer's tricks."""
    valuer = Valuer(request.convention, request.contract, request.declarer, request.seat, request.other,
                    request.four_players)

    def value_of(scenario: Scenario) -> Callable[[int], float]:
        return lambda tricks: float(valuer.values(scenario, (tricks, None))[1])

    return {option.action: value_of(option.scenario) for option in advice.options
            if not option.scenario.needs_split}


def _optimism(request: WhistRequest, advice: WhistAdvice, options: RunOptions, started: float) -> Optimism | None:
    """Double dummy against single dummy on the same layouts, for the
    options valued without the defenders' split (within the advice's budget)."""
    return measure_optimism(request.contract, request.declarer, layout_space(request),
                            lambda parts: _seated(request, parts), request.single_dummy, options.seed,
                            auction=request.auction_played, whisters=request.whisters, leader=request.leader,
                            prior=request.prior_tricks[request.declarer], values=_option_values(request, advice),
                            options=options, started=started)


def _blind_skipped(request: WhistRequest) -> str | None:
    """Why the blind-discard figure is not measured, or None."""
    if not request.blind_discard.layouts:
        return "not asked for"
    if request.played:
        return "cards have been played: the discard is made"
    if request.discard_model is not DiscardModel.BEST:
        return "the discard model is not the best discard"
    if request.contract.kind is not ContractKind.TRICKS:
        return "a misère"
    if ten_checked(request):
        return "a checked 10 is not played"
    return None


def with_conservative(advice: WhistAdvice, options: RunOptions,
                      known: Mapping[tuple[int, ...], int | None] | None = None,
                      solvers: list[Solver] | None = None, started: float | None = None) -> WhistAdvice:
    """The advice with its blind-discard figure (:attr:`WhistAdvice.conservative`),
    a note saying what it is and, when it ranks another option first, the plan
    saying so (``known``: the run's layouts already played, ``solvers``: the
    run's solvers to reuse, ``started``: when the advice's time budget
    started, see :func:`~solver.advice.optimism.measure_blind_discard`)."""
    request = advice.request
    skipped = _blind_skipped(request)
    figure = None
    if skipped is None:
        figure = measure_blind_discard(request.contract, request.declarer, layout_space(request),
                                       lambda parts: _seated(request, parts), request.blind_discard, options,
                                       auction=request.auction_played, whisters=request.whisters,
                                       leader=request.leader, prior=request.prior_tricks[request.declarer],
                                       values=_option_values(request, advice), known=known, solvers=solvers,
                                       started=started)
        skipped = None if figure is not None else "no layout kept in its budget"
    if figure is None:
        return replace(advice, notes=advice.notes + (f"conservative figure (blind discard) not measured: {skipped}",))
    note = (f"conservative figure ({BLIND_NOTE}; {figure.layouts} layouts, {figure.worlds} worlds each): "
            f"the declarer's tricks {figure.tricks.conservative:.2f} against {figure.tricks.double_dummy:.2f} "
            "double dummy")
    plan = advice.plan
    ranked = sorted(figure.values, key=lambda name: -figure.values[name].conservative)
    if ranked and ranked[0] != advice.recommended and advice.recommended in figure.values and \
            figure.values[ranked[0]].conservative > figure.values[advice.recommended].conservative:
        plan += (f"; against a declarer who discards without seeing the defenders' cards, "
                 f"{_VERBS.get(ranked[0], ranked[0])} is worth more "
                 f"({figure.values[ranked[0]].conservative:.2f} against "
                 f"{figure.values[advice.recommended].conservative:.2f} whists)")
    return replace(advice, conservative=figure, notes=advice.notes + (note,), plan=plan)


def whist_advice_from_run(request: WhistRequest, run: LayoutRun) -> WhistAdvice:
    """The advice from a finished run's outcome units (keys of
    :mod:`solver.advice.play`): the scoring half of :func:`advise_whist`."""
    tree = _decision_tree(request)
    if run.finished().stats.layouts == 0:
        raise AdviceError("no layout of the hidden cards fits what is known (cards played, auction model: "
                          f"{auction_text(request.auction_played)}); loosen the model or switch it off "
                          "(auction=None, --no-auction, AUCTION_MODEL_NONE)")
    scorer = _Scorer(request, run)
    answers = tuple(scorer.option(node) for node in tree)
    ranked = sorted(range(len(answers)), key=lambda i: (-answers[i].value.as_float(), i))
    best = answers[ranked[0]]
    advantage, sure, ties = None, 1.0, []
    for index in ranked[1:]:   # the runner-up: the best option worth something else on some layout
        second = answers[index]
        gain = scorer.estimate(lambda key: scorer.valuer.values(best.scenario, key)[1]  # type: ignore[arg-type]
                               - scorer.valuer.values(second.scenario, key)[1])  # type: ignore[arg-type]
        if gain.mean == 0 and gain.std_error == 0:
            ties.append(second.action)
            continue
        advantage, sure = gain, sureness(gain)
        break
    declarer_tricks: dict[int, float] = {}
    counted = any(seats is not None for _, seats in scorer.merged)
    split: dict[tuple[int, int], float] | None = {} if counted else None
    for (taken, seats), weight in sorted(scorer.merged.items(), key=lambda item: (item[0][0], item[0][1] or ())):
        declarer_tricks[taken] = declarer_tricks.get(taken, 0.0) + float(weight / scorer.weight)
        if split is not None and seats is not None:
            pair = (seats[request.seat], seats[request.other])
            split[pair] = split.get(pair, 0.0) + float(weight / scorer.weight)
    fails = scorer.estimate(lambda key: 0 if made(request.contract, key[0]) else 1)  # type: ignore[index]
    auction = request.auction_played
    notes = ["auction model: " + auction_text(auction),
             "light and dark whist play the same double dummy and score the same (scoring spec §3.4)"]
    if ties:
        notes.append(f"worth the same as {best.action} on every layout: {', '.join(ties)}")
    if any(answer.chooser == "other" for answer in answers) or any(
            reply.chooser == "other" for answer in answers for reply in answer.replies):
        notes.append("the other defender is modelled to choose the reply worth most to him over these layouts")
    return WhistAdvice(request, answers, best.action, sure, advantage, declarer_tricks, fails, split,
                       run.stats, tuple(notes), plan_words(best))


_VERBS = {"pass": "pass", "whist": "whist", "half_whist": "half-whist", "accept": "let the half-whist stand",
          "return": "return the whist", "check": "check"}


def plan_words(option: WhistOption) -> str:
    """The recommended option and the replies it is valued with, in words:
    whose choice each later step is, and what it is worth when it is the
    asking defender's own (a plan that pays only if he takes it then)."""
    words = [f"{_VERBS.get(option.action, option.action)} now ({option.description})"]
    node = option
    while node.replies and node.chosen_reply is not None:
        chosen = node.replies[node.chosen_reply]
        if node.chooser == "self":
            matters = any(reply.value != chosen.value for reply in node.replies)
            words.append(f"then, when it is your turn again, {_VERBS.get(chosen.action, chosen.action)} "
                         f"({chosen.description})"
                         + (": the recommendation counts on this later choice" if matters else ""))
        else:
            words.append(f"the other defender is expected to {_VERBS.get(chosen.action, chosen.action)} "
                         f"({chosen.description})")
        node = chosen
    if len(words) == 1:
        return words[0] + "; nothing is decided later"
    return "; ".join(words)
