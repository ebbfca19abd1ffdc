"""The defender's question: exact endgames against an independent
enumeration, sampled runs converging to it, the §8.4 worked example per
convention, the decision game, reproducibility, budgets and bad input."""
from __future__ import annotations

import itertools
import math
import threading
from fractions import Fraction

import pytest

from solver import Hand
from solver.advice import (AdviceError, AuctionFilter, RunOptions, Scenario, advise_whist, whist_request)
from solver.advice.parallel import LayoutRun, RunStats
from solver.advice.whist import whist_advice_from_run
from solver.notation import Card, Contract
from solver.scoring import get_convention
from test_advice_brute import brute_best_discard, brute_tricks, cards_of, mean, outcome, replay, value_for

# An endgame of 3 cards a hand: seat 1 declares 6♠ and needs 2 of the last 3
# tricks (4 before); seat 2 (first defender) asks, seat 0 passed.
HAND, TALON, UNSEEN = ".T.A7.", "..K.8", "7.K.J.AK9"
PRIOR = (1, 4, 2)
PLAYERS = ("0", "1", "2")
CONVENTIONS = ["sochi", "leningrad", "rostov"]


def endgame(**extra):
    """The endgame, every layout counting (no auction model) unless asked."""
    arguments = dict(other_decision="pass", unseen=UNSEEN, prior_tricks=PRIOR, auction=None)
    arguments.update(extra)
    return whist_request(HAND, TALON, "6s", 1, 2, **arguments)


def exact_values(convention_name: str, played=(), discard="best") -> dict[str, Fraction]:
    """Every layout by itertools and brute force: the defender's (seat 2)
    values of pass, half-whist (standing / returned) and whist alone, each
    layout counting once (spread evenly over its discards, if several)."""
    convention = get_convention(convention_name)
    contract = Contract.parse("6s")
    mine, talon, unseen = cards_of(Hand.parse(HAND)), cards_of(Hand.parse(TALON)), cards_of(Hand.parse(UNSEEN))
    layouts: list[list[int]] = []   # per kept layout: the declarer's totals, one per discard played
    for declarer_cards in itertools.combinations(sorted(unseen), 3):
        hands = [unseen - set(declarer_cards), frozenset(declarer_cards), mine]
        totals = _declarer_totals(hands, talon, contract, played, discard)
        if totals:
            layouts.append(totals)

    def average(make_deal) -> Fraction:
        return mean(mean(value_for(convention, make_deal(t), 2) for t in totals) for totals in layouts)

    return {
        "pass": average(lambda t: outcome(PLAYERS, 1, 6, {0: "pass", 2: "pass"})),
        "half": average(lambda t: outcome(PLAYERS, 1, 6, {0: "pass", 2: "half_whist"})),
        "half_returned": average(lambda t: outcome(PLAYERS, 1, 6, {0: "pass", 2: "half_whist"},
                                                   {1: t, 0: 10 - t, 2: 0}, 0)),
        "whist": average(lambda t: outcome(PLAYERS, 1, 6, {0: "pass", 2: "whist"}, {1: t, 2: 10 - t, 0: 0})),
        "fails": mean(mean(Fraction(1 if t < 6 else 0) for t in totals) for totals in layouts),
        "layouts": len(layouts),
    }


def _declarer_totals(hands, talon, contract, played, discard) -> list[int]:
    """The declarer's whole-deal tricks under the discard model (several for
    'uniform': one per making discard); empty when the layout is rejected."""
    pool = hands[1] | talon
    if discard == "uniform":
        results = []
        for out in itertools.combinations(sorted(pool), 2):
            seated = list(hands)
            seated[1] = pool - set(out)
            results.append(PRIOR[1] + brute_tricks(seated, contract, 1))
        making = [t for t in results if t >= 6]
        return making or [max(results)]
    best, discards = brute_best_discard(hands, talon, contract, 1)
    if not played:
        return [PRIOR[1] + best]
    for out in discards:
        seated = list(hands)
        seated[1] = pool - out
        after = replay(seated, played, 0)
        if after is not None:
            rest, leader, taken = after
            return [PRIOR[1] + taken[1] + brute_tricks(rest, contract, 1, leader)]
    return []


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_exact_endgame_matches_independent_enumeration(convention: str) -> None:
    advice = advise_whist(endgame(convention=convention), RunOptions(workers=1))
    expected = exact_values(convention)
    assert advice.run.exact and advice.run.complete and advice.run.layouts == 20 == expected["layouts"]
    assert advice.option("pass").value.exact == expected["pass"]
    assert advice.option("whist").value.exact == expected["whist"]
    half = advice.option("half_whist")
    replies = {reply.action: reply for reply in half.replies}
    assert replies["accept"].value.exact == expected["half"]
    assert replies["return"].value.exact == expected["half_returned"]
    assert advice.option("whist").declarer_fails.exact == expected["fails"]
    assert math.isclose(sum(advice.declarer_tricks.values()), 1.0)
    assert math.isclose(sum(advice.option("whist").defence_tricks.values()), 1.0)
    best = max(advice.options, key=lambda o: o.value.exact)
    assert advice.recommended == best.action and advice.sureness == 1.0


def test_sampled_values_converge_to_the_exact_enumeration() -> None:
    expected = exact_values("sochi")
    small = advise_whist(endgame(), RunOptions(mode="sample", layouts=300, seed=11, workers=2))
    large = advise_whist(endgame(), RunOptions(mode="sample", layouts=4000, seed=11, workers=2))
    for advice in (small, large):
        assert not advice.run.exact and advice.run.layouts in (300, 4000)
        whist = advice.option("whist").value
        assert whist.std_error > 0
        assert abs(whist.mean - float(expected["whist"])) <= 4 * whist.std_error
        fails = advice.option("whist").declarer_fails
        assert abs(fails.mean - float(expected["fails"])) <= 4 * fails.std_error
        assert advice.option("pass").value.mean == pytest.approx(float(expected["pass"]))
    assert large.option("whist").value.std_error < small.option("whist").value.std_error / 2


def test_played_cards_keep_only_consistent_layouts() -> None:
    played = ["Ah", "9h", "7d"]   # seat 0 leads ♥A, the declarer follows ♥9, seat 2 throws ♦7
    advice = advise_whist(endgame(played=played), RunOptions(workers=1))
    expected = exact_values("sochi", played=[(3, 7), (3, 2), (2, 0)])
    assert advice.run.layouts == expected["layouts"]
    assert advice.option("whist").value.exact == expected["whist"]
    assert advice.option("whist").declarer_fails.exact == expected["fails"]


def test_uniform_discard_model_matches_independent_enumeration() -> None:
    advice = advise_whist(endgame(discard_model="uniform"), RunOptions(workers=1))
    expected = exact_values("sochi", discard="uniform")
    assert advice.run.layouts == expected["layouts"] == 20
    assert advice.option("whist").value.exact == expected["whist"]
    assert advice.option("whist").declarer_fails.exact == expected["fails"]
    best = advise_whist(endgame(), RunOptions(workers=1))
    assert best.option("whist").value.exact != expected["whist"]   # the model matters here


def test_auction_filter_rejects_layouts_without_trumps() -> None:
    advice = advise_whist(endgame(auction=AuctionFilter(min_trumps=1, max_undertricks=None)), RunOptions(workers=1))
    unseen = Hand.parse(UNSEEN).cards()
    spades = [c for c in unseen if c.suit == 0] + [c for c in Hand.parse(TALON).cards() if c.suit == 0]
    assert len(spades) == 1   # ♠7: the declarer must hold it (the talon has no spade)
    with_trump = sum(1 for cards in itertools.combinations(unseen, 3) if Card.parse("7s") in cards)
    assert advice.run.layouts == with_trump and advice.run.rejected == 20 - with_trump


def test_default_auction_model_on_an_endgame_keeps_the_layouts_the_declarer_could_bid() -> None:
    # An endgame: the model keeps its value test alone (at least the contract less one:
    # 5 of the whole deal's tricks, 1 of the last 3), checked against the enumeration.
    advice = advise_whist(whist_request(HAND, TALON, "6s", 1, 2, other_decision="pass", unseen=UNSEEN,
                                        prior_tricks=PRIOR), RunOptions(workers=1))
    kept = 0
    mine, talon, unseen = cards_of(Hand.parse(HAND)), cards_of(Hand.parse(TALON)), cards_of(Hand.parse(UNSEEN))
    for declarer_cards in itertools.combinations(sorted(unseen), 3):
        hands = [unseen - set(declarer_cards), frozenset(declarer_cards), mine]
        best, _ = brute_best_discard(hands, talon, Contract.parse("6s"), 1)
        kept += PRIOR[1] + best >= 5
    assert advice.run.layouts == kept and advice.run.rejected == 20 - kept and 0 < kept < 20
    assert any("auction model: the default model" in note for note in advice.notes)


def test_default_auction_model_on_a_full_deal() -> None:
    # 6♣ by seat 1; seat 0 asks after seat 2 whisted. Every kept layout gives the declarer
    # at least 4 clubs of his 12 cards and seat 2 (who whisted) an ace or a guarded king.
    from solver.advice.play import AUCTION_MODEL, ContractPlay, tops
    request = whist_request(FULL_HAND, FULL_TALON, "6c", 1, 0, other_decision="whist")
    assert request.auction == AUCTION_MODEL and request.whisters == (2,)
    advice = advise_whist(request, RunOptions(layouts=30, seed=2, workers=1))
    off = advise_whist(whist_request(FULL_HAND, FULL_TALON, "6c", 1, 0, other_decision="whist", auction=None),
                       RunOptions(layouts=30, seed=2, workers=1))
    assert advice.run.rejected > 0 and off.run.rejected == 0
    assert advice.declarer_fails.mean < off.declarer_fails.mean
    from solver.advice.whist_request import layout_space
    from solver.engine import Solver
    space, solver = layout_space(request), Solver()
    play = ContractPlay(request.contract, 1, auction=AUCTION_MODEL, whisters=(2,))
    for index in range(40):
        declarer, other = space.sample(7, index)
        hands = (request.hand, declarer, other)
        kept = play(hands, request.talon, solver) is not None
        clubs = sum(1 for card in declarer | request.talon if card.suit == 1)
        if kept:
            assert clubs >= 4 and tops(other) >= 1
        elif clubs >= 4 and tops(other) >= 1:
            from solver.analysis import best_discard
            from solver.notation import Deal
            assert best_discard(Deal(hands, request.talon), 1, "6c", solver=solver).value < 5


def _synthetic_run(defence_tricks: dict[int, int]) -> LayoutRun:
    """A finished 'enumeration' whose layouts give these defence tricks (count each)."""
    units = tuple({(10 - t, None): 1} for t, n in defence_tricks.items() for _ in range(n))
    stats = RunStats(len(units), 0, True, True, "done", 0.0, 1, len(units), 0)
    return LayoutRun(units, len(units), stats)


WORKED = {  # scoring spec §8.4: contract 6, B passed, C decides; .2/.3/.4/.1 on 2/3/4/5 tricks
    "sochi": (Fraction(-20, 3), Fraction(-8, 3), Fraction(-23, 3)),
    "leningrad": (Fraction(-40, 3), Fraction(-16, 3), Fraction(-7)),
    "rostov": (Fraction(-20, 3), Fraction(-8, 3), Fraction(-27, 10)),
}


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_worked_example_of_the_scoring_spec(convention: str) -> None:
    # A declarer in seat 0 (A), B = seat 1 passed, C = seat 2 asks.
    request = whist_request("AKQJ.AKQ.AKQ.", "...AK", "6h", 0, 2, other_decision="pass",
                            convention=convention, options={"returned_whist_allowed": False})
    advice = whist_advice_from_run(request, _synthetic_run({2: 2, 3: 3, 4: 4, 5: 1}))
    pass_value, half_value, whist_value = WORKED[convention]
    assert advice.option("pass").value.exact == pass_value
    assert advice.option("half_whist").value.exact == half_value
    assert advice.option("whist").value.exact == whist_value
    assert advice.recommended == "half_whist" and advice.sureness == 1.0
    assert advice.advantage.exact == half_value - max(pass_value, whist_value)


def test_returned_half_whist_is_the_other_defenders_choice() -> None:
    request = whist_request("AKQJ.AKQ.AKQ.", "...AK", "6h", 0, 2, other_decision="pass")
    advice = whist_advice_from_run(request, _synthetic_run({2: 2, 3: 3, 4: 4, 5: 1}))
    half = advice.option("half_whist")
    assert half.chooser == "other"
    chosen = max(half.replies, key=lambda r: r.other_value.exact)
    assert half.scenario is chosen.scenario and half.value == chosen.value


def test_plan_says_which_later_choices_the_recommendation_counts_on() -> None:
    # First defender (seat 1 after declarer 0): pass now; if the other half-whists, the
    # value of "pass" counts on this defender's later choice (accept or return).
    request = whist_request("AKQJ.AKQ.AKQ.", "...AK", "6h", 0, 1)
    def run_of(tricks: dict[int, int]) -> LayoutRun:   # defence tricks split evenly, seats 1 and 2
        units = tuple({(10 - t, (10 - t, t // 2, t - t // 2)): 1} for t, n in tricks.items() for _ in range(n))
        return LayoutRun(units, len(units), RunStats(len(units), 0, True, True, "done", 0.0, 1, len(units), 0))

    returned = whist_advice_from_run(request, run_of({3: 5, 4: 5}))
    assert returned.recommended == "pass" and "the other defender is expected to half-whist" in returned.plan
    assert "return the whist" in returned.plan and "counts on this later choice" in returned.plan
    for tricks in ({2: 2, 3: 3, 4: 4, 5: 1}, {4: 3, 5: 4, 6: 3}, {0: 5, 1: 5}):
        advice = whist_advice_from_run(request, run_of(tricks))
        best = advice.option(advice.recommended)
        assert advice.plan.startswith(advice.recommended.replace("_", "-") + " now")
        chosen = best.replies[best.chosen_reply]
        assert f"the other defender is expected to {chosen.action.replace('_', '-')}" in advice.plan
        if chosen.replies:   # the other half-whists: this defender accepts or returns later
            later = chosen.replies[chosen.chosen_reply]
            assert chosen.chooser == "self" and "when it is your turn again" in advice.plan
            assert later.value.exact == max(r.value.exact for r in chosen.replies)
    alone = whist_advice_from_run(whist_request("AKQJ.AKQ.AKQ.", "...AK", "6h", 0, 2, other_decision="whist"),
                                  run_of({3: 4, 4: 6}))
    assert alone.plan.endswith("nothing is decided later")


def test_first_defender_plays_the_small_game() -> None:
    advice = advise_whist(endgame(other_decision=None, convention="leningrad"), RunOptions(workers=1))
    assert [o.action for o in advice.options] == ["pass", "whist"]
    for option in advice.options:
        assert option.chooser == "other"
        best_for_other = max(option.replies, key=lambda r: r.other_value.exact)
        assert option.value == best_for_other.value
    both = next(r for r in advice.option("whist").replies if r.scenario is Scenario.BOTH_WHIST)
    assert both.value.exact is not None and advice.split is not None
    assert math.isclose(sum(advice.split.values()), 1.0)
    for (mine, other), _ in advice.split.items():
        assert mine >= PRIOR[2] and other >= PRIOR[0]


def test_other_whisted_and_other_half_whisted() -> None:
    whisted = advise_whist(endgame(other_decision="whist"), RunOptions(workers=1))
    assert [o.scenario for o in whisted.options] == [Scenario.Y_WHISTS, Scenario.BOTH_WHIST]
    half = advise_whist(endgame(other_decision="half_whist"), RunOptions(workers=1))
    assert [o.action for o in half.options] == ["accept", "return"]
    assert half.option("accept").declarer_fails.mean == 0


def test_nothing_to_decide_on_a_checked_ten_or_stalingrad() -> None:
    ten = advise_whist(whist_request(HAND, TALON, "10s", 1, 2, unseen=UNSEEN, prior_tricks=PRIOR, auction=None),
                       RunOptions(workers=1))
    assert [o.action for o in ten.options] == ["check"] and ten.advantage is None
    stalingrad = advise_whist(endgame(other_decision=None, options={"stalingrad": True}), RunOptions(workers=1))
    assert [o.scenario for o in stalingrad.options] == [Scenario.BOTH_WHIST]


FULL_HAND, FULL_TALON = "JT98.JT.98.A9", "..J.K"


def test_seed_reproduces_the_answer_whatever_the_threads() -> None:
    request = whist_request(FULL_HAND, FULL_TALON, "6c", 1, 0, other_decision="pass")
    one = advise_whist(request, RunOptions(layouts=40, seed=5, workers=1))
    two = advise_whist(request, RunOptions(layouts=40, seed=5, workers=2))
    other_seed = advise_whist(request, RunOptions(layouts=40, seed=6, workers=2))
    assert one.options == two.options and one.declarer_tricks == two.declarer_tricks
    assert one.options != other_seed.options
    assert one.run.layouts == 40 and one.run.space == math.comb(20, 10)


def test_time_budget_returns_the_estimate_so_far() -> None:
    # An endgame: each layout takes well under a millisecond, so the budget ends the run.
    advice = advise_whist(endgame(), RunOptions(layouts=1_000_000, seconds=1.0, mode="sample", workers=2))
    assert advice.run.stopped == "seconds"
    assert 0 < advice.run.layouts < 1_000_000
    assert math.isfinite(advice.option("whist").value.mean)


def test_cancel_stops_the_run_and_progress_is_reported() -> None:
    cancel = threading.Event()
    seen = []

    def progress(report) -> None:
        seen.append(report.kept)
        if report.kept >= 5:
            cancel.set()

    request = whist_request(FULL_HAND, FULL_TALON, "6c", 1, 0, other_decision="pass")
    advice = advise_whist(request, RunOptions(layouts=100_000, cancel=cancel, progress=progress, workers=2))
    assert advice.run.stopped == "cancelled" and advice.run.layouts >= 5
    assert seen == sorted(seen) and seen[-1] == advice.run.layouts


BAD = [
    (dict(hand="A.KQ.J.T", talon="A..Q."), "overlaps the talon"),
    (dict(contract="misere"), "not whisted"),
    (dict(contract="allpass"), "all-pass"),
    (dict(contract="6x"), "contract"),
    (dict(contract="5s"), "out of range"),
    (dict(seat=1), "declarer's"),
    (dict(other_decision=None, seat=0), "has spoken already"),
    (dict(unseen=None), "needs the unseen cards"),
    (dict(prior_tricks=(1, 1, 1)), "add up to 7"),
    (dict(played=["Kd"]), "only the declarer holds the talon"),
    (dict(played=["Tc"]), "asking defender's hand"),
    (dict(other_decision="maybe"), "pass, whist or half_whist"),
    (dict(seat=0, other_decision="half_whist"), "first defender"),
    (dict(unseen="7.K.J.AKA"), "unseen"),
    (dict(discard_model="random"), "discard model"),
]


@pytest.mark.parametrize("change, message", BAD)
def test_bad_requests_name_the_problem(change: dict, message: str) -> None:
    arguments = dict(hand=HAND, talon=TALON, contract="6s", declarer=1, seat=2, other_decision="pass",
                     unseen=UNSEEN, prior_tricks=PRIOR)
    arguments.update(change)
    with pytest.raises(AdviceError, match=message) as error:
        whist_request(**arguments)
    assert isinstance(error.value, ValueError)


def test_no_consistent_layout_is_an_error() -> None:
    with pytest.raises(AdviceError, match="no layout"):
        advise_whist(endgame(played=["Ah", "9h", "Ad"], auction=AuctionFilter(min_trumps=3)), RunOptions(workers=1))


def test_four_players_use_the_four_player_coefficients() -> None:
    advice = advise_whist(endgame(four_players=True), RunOptions(workers=1))
    # Both pass: the declarer writes 2 to his pool; each other player loses 2 × 2.5 whists.
    assert advice.option("pass").value.exact == Fraction(-5)
    three = advise_whist(endgame(), RunOptions(workers=1))
    assert advice.option("whist").value.exact != three.option("whist").value.exact


def test_enumerating_too_many_layouts_is_refused() -> None:
    from solver.advice import advise_bid, bid_request
    with pytest.raises(AdviceError, match="too many to enumerate"):
        advise_bid(bid_request("AKQJ8.AK.A.87", 0, contracts="6s"), RunOptions(mode="exact"))


@pytest.mark.parametrize("contract", ["6c", "10s", "misere"])
def test_valuer_values_are_the_deal_values_whatever_was_asked_before(contract: str) -> None:
    # The values are cached by what the outcome depends on (the split only
    # where the scenario needs it): each equals its deal value scored
    # afresh, whichever key of the same tricks was asked first.
    from solver.advice.values import Valuer
    from solver.scoring import deal_value
    valuer = Valuer(get_convention("sochi"), Contract.parse(contract), 1, 2, 0)
    keys = [(taken, (other, taken, 10 - taken - other)) for taken in (0, 5, 6, 10)
            for other in range(10 - taken, -1, -1)]
    scored = 0
    for scenario in Scenario:
        if (scenario is Scenario.TEN_CHECKED) != (contract == "10s") and contract != "misere":
            continue   # a 10 is checked, any other contract whisted or passed
        for key in keys:
            value = deal_value(valuer.convention, valuer._outcome(scenario, key))
            want = (value["1"], value["2"], value["0"])
            assert valuer.values(scenario, key) == want, (scenario, key)
            assert Valuer(valuer.convention, valuer.contract, 1, 2, 0).values(scenario, key) == want
            scored += 1
    assert scored >= len(keys)
