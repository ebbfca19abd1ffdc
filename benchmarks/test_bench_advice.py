"""Decisions under hidden cards, 2 worker threads.

* whist advice over 1,000 sampled layouts of a full deal: the declarer's best
  discard for each layout (one best-discard search), and, when the first
  defender asks and two whisters are possible, the split of tricks along the
  solver's line (one best line). Target ≤ 1 s.
* exact enumeration of all 184,756 splits of the defenders' cards for one
  trump contract. Target ≤ 20 s.
* the same on one worker, for that (easy) hand and for the searching hands
  of sets.py (splits that need real search). Targets on a searching hand: a
  mean under 20 µs a split.

Each whist round uses a new seed (new layouts, fresh solvers). Numbers go to
``extra_info`` and to benchmarks/README.md.
"""
from __future__ import annotations

import itertools

import pytest

from sets import EASY_ENUMERATION, searching_hands
from solver.advice import RunOptions, advise_whist, enumerate_splits, enumeration_request, whist_request

WORKERS = 2
WHIST_CASES = {
    # 6♣ by second hand; first hand (the second defender) asks after third hand passed.
    "second_defender_after_a_pass": dict(seat=0, other_decision="pass"),
    # Third hand (the first defender) asks: the small game, two whisters possible.
    "first_defender_small_game": dict(seat=2, other_decision=None),
}
HAND = "JT98.JT.98.A9"


@pytest.mark.parametrize("case", list(WHIST_CASES))
def test_whist_advice_1000_layouts(benchmark, case: str) -> None:
    settings = WHIST_CASES[case]
    request = whist_request(HAND, "..J.K", "6c", 1, settings["seat"],
                            other_decision=settings["other_decision"])
    seeds = itertools.count(1)
    result = benchmark.pedantic(
        lambda: advise_whist(request, RunOptions(layouts=1000, seed=next(seeds), workers=WORKERS)),
        rounds=3, iterations=1, warmup_rounds=0)
    assert result.run.layouts == 1000
    benchmark.extra_info.update({"layouts": 1000, "workers": WORKERS, "recommended": result.recommended})


def test_enumerate_all_splits_one_trump_contract(benchmark) -> None:
    # ♠AKJ97 ♣A ♦KQ ♥A8 in play after discarding ♣8 ♥7; 6♠, first hand leads.
    request = enumeration_request("AKJ97.A8.KQ.A87", 0, "6s", discard=".8..7")
    result = benchmark.pedantic(lambda: enumerate_splits(request, RunOptions(workers=WORKERS)),
                                rounds=1, iterations=1, warmup_rounds=0)
    assert result.run.complete and result.splits == 184_756
    count = result.contracts[0]
    benchmark.extra_info.update({"splits": result.splits, "workers": WORKERS,
                                 "counts": {str(t): n for t, n in count.counts.items()},
                                 "value": str(count.value.exact)})


@pytest.mark.parametrize("hand", ["easy", "searching-0", "searching-1"])
def test_enumerate_all_splits_one_worker(benchmark, hand: str) -> None:
    cards, discard, contract = (EASY_ENUMERATION if hand == "easy"
                                else searching_hands()[int(hand.rsplit("-", 1)[1])])
    request = enumeration_request(cards, 0, contract, discard=discard)
    result = benchmark.pedantic(lambda: enumerate_splits(request, RunOptions(workers=1)),
                                rounds=1, iterations=1, warmup_rounds=0)
    assert result.run.complete and result.splits == 184_756
    benchmark.extra_info.update({"hand": f"{cards} --discard {discard} --contract {contract}", "workers": 1,
                                 "us_per_split": round(benchmark.stats.stats.mean / result.splits * 1e6, 1),
                                 "counts": {str(t): n for t, n in result.contracts[0].counts.items()}})
