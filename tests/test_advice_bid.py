"""The bidder's question on endgames against an independent enumeration
(10-card and 12-card forms), and on a full deal."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from solver import Hand
from solver.advice import AdviceError, RunOptions, advise_bid, bid_request
from solver.notation import Contract, ContractKind
from solver.scoring import MisereOutcome, get_convention
from test_advice_brute import brute_best_discard, brute_tricks, cards_of, mean, outcome, value_for

PLAYERS = ("0", "1", "2")


def declarer_value(convention, contract: Contract, total: int, seat: int = 0) -> Fraction:
    """The bidder's deal value when the first defender whists and the second passes."""
    first, second = (seat + 1) % 3, (seat + 2) % 3
    if contract.kind is ContractKind.MISERE:
        deal = MisereOutcome(PLAYERS, str(seat), {str(seat): total, str(first): 10 - total, str(second): 0})
    elif contract.level == 10 and not convention.ten_whisted:
        tricks = {seat: total, first: 10 - total, second: 0} if total < 10 else None
        deal = outcome(PLAYERS, seat, 10, {first: "whist", second: "whist"}, tricks)
    else:
        deal = outcome(PLAYERS, seat, contract.level, {first: "whist", second: "pass"},
                       {seat: total, first: 10 - total, second: 0})
    return value_for(convention, deal, seat)


def made(contract: Contract, total: int) -> bool:
    return total == 0 if contract.kind is ContractKind.MISERE else total >= contract.level


# Two cards a hand: the bidder (seat 0) took 4 of the first 8 tricks.
HAND, UNSEEN, PRIOR = "A..K.", "K.A.QJ.A7", (4, 3, 1)
CONTRACTS = "6s,6d,7d,6nt,misere"


@pytest.mark.parametrize("convention", ["sochi", "leningrad"])
def test_before_the_talon_matches_independent_enumeration(convention: str) -> None:
    request = bid_request(HAND, 0, contracts=CONTRACTS, unseen=UNSEEN, prior_tricks=PRIOR, convention=convention)
    advice = advise_bid(request, RunOptions(workers=2))
    assert advice.run.complete and advice.run.layouts == 15 * 6
    rules = get_convention(convention)
    mine, unseen = cards_of(Hand.parse(HAND)), cards_of(Hand.parse(UNSEEN))
    totals: dict[Contract, list[int]] = {}
    for talon in itertools.combinations(sorted(unseen), 2):
        rest = unseen - set(talon)
        for first in itertools.combinations(sorted(rest), 2):
            hands = [mine, frozenset(first), rest - set(first)]
            for contract in request.contracts:
                kind = Contract(ContractKind.MISERE) if contract.kind is ContractKind.MISERE else \
                    Contract(ContractKind.TRICKS, 6, contract.strain)
                best, _ = brute_best_discard(hands, frozenset(talon), kind, 0)
                totals.setdefault(contract, []).append(PRIOR[0] + best)
    for contract in request.contracts:
        got = next(c for c in advice.contracts if c.contract == contract)
        assert got.make_probability.exact == mean(Fraction(made(contract, t)) for t in totals[contract])
        assert got.value.exact == mean(declarer_value(rules, contract, t) for t in totals[contract])
        assert sum(got.tricks.values()) == pytest.approx(1.0)
    best = max(advice.contracts, key=lambda c: c.value.exact)
    assert advice.recommended.value.exact == best.value.exact


def test_after_the_talon_finds_the_best_contract_and_discard() -> None:
    hand, unseen, prior = "AK..K.7", "Q.A.Q.A", (4, 3, 1)
    request = bid_request(hand, 0, contracts="6s,6d,6h,6nt,7nt", unseen=unseen, prior_tricks=prior)
    assert request.after_talon
    advice = advise_bid(request, RunOptions(workers=1))
    assert advice.run.complete and advice.run.layouts == 6
    rules = get_convention("sochi")
    pool, them = cards_of(Hand.parse(hand)), cards_of(Hand.parse(unseen))
    expected: dict[tuple[Contract, frozenset], Fraction] = {}
    for contract in request.contracts:
        kind = Contract(ContractKind.TRICKS, 6, contract.strain)
        for out in itertools.combinations(sorted(pool), 2):
            values = []
            for first in itertools.combinations(sorted(them), 2):
                hands = [pool - set(out), frozenset(first), them - set(first)]
                values.append(declarer_value(rules, contract, prior[0] + brute_tricks(hands, kind, 0)))
            expected[(contract, frozenset(out))] = mean(values)
    for got in advice.contracts:
        best = max(v for (c, _), v in expected.items() if c == got.contract)
        assert got.value.exact == best
        assert expected[(got.contract, cards_of(got.discard))] == best
    assert advice.recommended.value.exact == max(expected.values())
    assert advice.discards[0].value == advice.recommended.value
    assert all(d.contract == advice.recommended.contract for d in advice.discards)


def test_full_hand_is_reproducible_and_sensible() -> None:
    request = bid_request("AKQJ8.AK.A.87", 1, contracts="6s,8s,misere")
    runs = [advise_bid(request, RunOptions(layouts=12, seed=4, workers=w)) for w in (1, 2)]
    assert runs[0].contracts == runs[1].contracts
    six = runs[0].contract("6s")
    assert six.make_probability.mean > 0.9 and runs[0].contract("misere").make_probability.mean < 0.1
    assert runs[0].recommended.contract != Contract(ContractKind.MISERE)


@pytest.mark.parametrize("arguments, message", [
    (dict(hand="AKQJ8.AK.A.8"), "give 10"),
    (dict(talon="A..."), "talon"),
    (dict(talon="8...7"), "overlaps the talon"),
    (dict(contracts="allpass"), "all-pass"),
    (dict(contracts="6x"), "contract"),
    (dict(seat="fourth"), "seat"),
    (dict(defence="never"), "defence rule"),
    (dict(unseen="A..."), "overlap"),
])
def test_bad_bid_requests(arguments: dict, message: str) -> None:
    base = dict(hand="AKQJ8.AK.A.87", seat=0)
    base.update(arguments)
    with pytest.raises(AdviceError, match=message):
        bid_request(base.pop("hand"), base.pop("seat"), **base)


WEAK = "KJ8.Q97.KT8.9"   # scattered kings and queens, no suit, no misère: a hand that must pass


def test_a_hand_that_must_pass_is_told_to_pass() -> None:
    advice = advise_bid(bid_request(WEAK, 0), RunOptions(layouts=12, seed=3, workers=2))
    assert advice.passing is not None and advice.recommendation == "pass"
    assert advice.passing.value.mean > advice.recommended.value.mean
    assert advice.recommendation_advantage.mean > 0 and advice.recommendation_sureness > 0.9
    assert advice.plan.startswith("pass: ") and "all-pass" in advice.plan
    assert sum(advice.passing.tricks.values()) == pytest.approx(1.0)


def test_pass_value_is_the_all_pass_of_the_same_layouts() -> None:
    # The layouts sampled by the run, re-dealt here: the all-pass's max^n tricks of each,
    # scored as a first all-pass through the scoring package.
    from solver.advice.layouts import LayoutSpace
    from solver.analysis import allpass_line
    from solver.engine import Solver
    from solver.notation import Deal
    from solver.scoring import AllPassOutcome, deal_value
    hand = Hand.parse("AKQJ8.AK.A8.7")
    seat = 1
    advice = advise_bid(bid_request(hand, seat, contracts="6s,8s"), RunOptions(layouts=6, seed=9, workers=1))
    space = LayoutSpace(Hand(0xFFFFFFFF) - hand, (2, 10, 10), (Hand(0), Hand(0), Hand(0)))
    solver, values = Solver(), []
    for index in range(6):
        talon, first, second = space.sample(9, index)
        hands = [Hand(0)] * 3
        hands[seat], hands[(seat + 1) % 3], hands[(seat + 2) % 3] = hand, first, second
        tricks = allpass_line(Deal(tuple(hands), talon), solver=solver).tricks
        values.append(deal_value(get_convention("sochi"),
                                 AllPassOutcome(PLAYERS, {str(s): tricks[s] for s in range(3)}, None, 1))[str(seat)])
    assert advice.passing.value.mean == pytest.approx(float(mean(values)))
    assert advice.recommendation == "8s" and advice.recommended.value.mean > advice.passing.value.mean


@pytest.mark.parametrize("hand, seat", [(WEAK, 2), ("AKQJ8.AK.A8.7", 0), ("A9.KQ.8.AQJ87", 1)])
def test_never_a_contract_worth_less_than_passing(hand: str, seat: int) -> None:
    advice = advise_bid(bid_request(hand, seat), RunOptions(layouts=8, seed=1, workers=2))
    best = max(c.value.mean for c in advice.contracts)
    if advice.recommendation == "pass":
        assert advice.passing.value.mean > best
    else:
        assert advice.recommendation == str(advice.recommended.contract)
        assert advice.recommended.value.mean == best >= advice.passing.value.mean


def test_pass_is_not_offered_after_the_talon_or_in_an_endgame() -> None:
    after = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, talon="..K.8", contracts="6s,7s"),
                       RunOptions(layouts=4, seed=1, workers=1))
    assert after.passing is None and after.recommendation == str(after.recommended.contract)
    assert any("after the talon the bidder must declare" in note for note in after.notes)
    off = advise_bid(bid_request(WEAK, 0, contracts="6s", value_pass=False), RunOptions(layouts=4, seed=1, workers=1))
    assert off.passing is None and off.recommendation == "6s"
