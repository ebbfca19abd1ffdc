"""Exact enumeration of the defenders' splits against brute force, the
defence rules, partial runs and bad input."""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from solver import Hand
from solver.advice import AdviceError, RunOptions, enumerate_splits, enumeration_request
from solver.notation import Contract, ContractKind
from solver.scoring import get_convention
from test_advice_bid import declarer_value, made
from test_advice_brute import brute_tricks, cards_of, mean

# Four cards a hand: seat 1 declares, having taken 3 of the first 6 tricks.
HAND, DEFENDERS, PRIOR = "AQ.K..K", "KJ7.A.A.AQ8", (2, 3, 1)


@pytest.mark.parametrize("convention", ["sochi", "rostov"])
def test_counts_and_values_match_brute_force(convention: str) -> None:
    request = enumeration_request(HAND, 1, "6s,7s,6nt,misere", defenders=DEFENDERS, prior_tricks=PRIOR,
                                  convention=convention)
    result = enumerate_splits(request, RunOptions(workers=2))
    assert result.run.complete and result.splits == math.comb(8, 4) == 70
    rules = get_convention(convention)
    mine, them = cards_of(Hand.parse(HAND)), cards_of(Hand.parse(DEFENDERS))
    totals: dict[Contract, list[int]] = {}
    for first in itertools.combinations(sorted(them), 4):
        hands = [them - set(first), mine, frozenset(first)]   # seat 2 is the first defender of seat 1
        for contract in request.contracts:
            kind = contract if contract.kind is ContractKind.MISERE else Contract(ContractKind.TRICKS, 6,
                                                                                    contract.strain)
            totals.setdefault(contract, []).append(PRIOR[1] + brute_tricks(hands, kind, 1))
    for count in result.contracts:
        expected = totals[count.contract]
        assert count.counts == dict(sorted(Counter(expected).items()))
        assert sum(count.counts.values()) == 70
        assert count.make_probability.exact == mean(Fraction(made(count.contract, t)) for t in expected)
        assert count.value.exact == mean(declarer_value(rules, count.contract, t, seat=1) for t in expected)
    assert len({tuple(c.counts.items()) for c in result.contracts}) > 1


def test_both_whisting_costs_the_declarer_the_same_in_sochi() -> None:
    """Sochi: greedy single whist and two whisters write the same on the
    declarer, and the shortfall rules charge the pair what one whister pays."""
    values = {}
    for rule in ("whist", "both"):
        request = enumeration_request(HAND, 1, "6s,7s", defenders=DEFENDERS, prior_tricks=PRIOR, defence=rule)
        values[rule] = [c.value.exact for c in enumerate_splits(request, RunOptions(workers=1)).contracts]
    assert values["whist"] == values["both"]


def test_pass_rule_lets_every_contract_stand() -> None:
    request = enumeration_request(HAND, 1, "7s", defenders=DEFENDERS, prior_tricks=PRIOR, defence="pass")
    result = enumerate_splits(request, RunOptions(workers=1))
    assert result.contracts[0].value.exact == Fraction(4 * 20, 3)   # 4 pool points, 20/3 each (3 players)


def test_full_deal_partial_run_reports_what_it_counted() -> None:
    request = enumeration_request("AKQJ87.AK.A8.87", 0, "6s", discard="..8.8")
    try:
        result = enumerate_splits(request, RunOptions(seconds=3.0, workers=2))   # well short of the ~20 s whole
    except AdviceError as error:   # a loaded machine may finish no chunk in time
        assert "before any layout was finished: no estimate" in str(error)
        return
    assert result.run.space == 184_756 and result.run.exact
    if not result.run.complete:
        assert result.run.stopped == "seconds"
    count = result.contracts[0]
    assert sum(count.counts.values()) == result.splits > 0
    assert count.make_probability.mean == pytest.approx(1.0)   # ♠AKQJ87 ♣AK ♦A: 8 top tricks at least


@pytest.mark.parametrize("arguments, message", [
    (dict(hand="AKQJ87.AK.A8.87", discard="..7.8"), "not in the 12 cards"),
    (dict(hand="AKQJ8.AK.A.87"), "discard"),
    (dict(hand="AKQJ8.AK.A.87", discard="..8.8", defenders="7...9"), "not both"),
    (dict(hand="AKQJ8.AK.A.87", discard="A...7"), "overlaps the hand"),
    (dict(hand="AKQJ8.AK.A.87", discard="...7"), "2 cards"),
    (dict(hand="AK...", defenders="QJT..."), "two hands of 2"),
    (dict(hand="AK...", defenders="QJ.T9..", contract="allpass"), "all-pass"),
    (dict(hand="AK...", defenders="QJ.T9..", prior_tricks=(1, 1, 1)), "up to 8"),
    (dict(hand="AK...", defenders="QJ.T9..", defence="sometimes"), "defence rule"),
])
def test_bad_enumeration_requests(arguments: dict, message: str) -> None:
    arguments = dict(arguments)
    contract = arguments.pop("contract", "6s")
    hand = arguments.pop("hand")
    arguments.setdefault("prior_tricks", (8, 0, 0))
    with pytest.raises(AdviceError, match=message):
        enumeration_request(hand, 0, contract, **arguments)
