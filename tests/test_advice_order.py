"""The enumeration's order: it lists every layout once, by single swaps, the
deciding cards' owners changing least often, and gives every layout the
value it has in any other order (and with the search's enhancements off)."""
from __future__ import annotations

import math
from collections import Counter

import pytest

from solver import Hand, Solver
from solver.advice import AdviceError, RunOptions, enumerate_splits, enumeration_request
from solver.advice.enumeration import _template
from solver.advice.layouts import LayoutSpace, misere_only, revolving_door, warm_order
from solver.engine import OPT_NONE, StartSolver

# Six cards a hand: seat 0 declares, the defenders share 12 cards (924 splits).
HAND, DEFENDERS, PRIOR = "AQ9.K8..7", "KJT7.AJ9.KQJ.AK", (2, 1, 1)


def suit_order_splits(defenders: Hand, size: int) -> list[int]:
    """Every split in revolving-door order over the cards suit by suit (spades
    first, high to low): the first defender's hand masks."""
    cards = [card.index for card in defenders.cards()]
    splits = []
    for subset in revolving_door(len(cards), size):
        splits.append(sum(1 << card for bit, card in enumerate(cards) if subset >> bit & 1))
    return splits


def values_in_order(request, kind, splits: list[int], solver: Solver) -> dict[int, int]:
    """Each split's value, solved in the order given on one solver (its table
    carried from split to split)."""
    size = len(request.hand)
    start = StartSolver(solver, _template(request, kind, size), ((request.declarer + 1) % 3,
                                                                 (request.declarer + 2) % 3))
    return {first: start.solve(first, request.defenders.mask & ~first) for first in splits}


def test_warm_order_lists_every_split_once_by_single_swaps_aces_slowest() -> None:
    free = Hand.parse(DEFENDERS)
    space = LayoutSpace(free, (6, 6), (Hand(0), Hand(0)))
    listed = [masks for masks in space.enumerate_masks()]
    assert len(listed) == len(set(listed)) == math.comb(12, 6) == space.count()
    for (a, b), (c, d) in zip(listed, listed[1:]):
        assert a | b == c | d == free.mask
        assert bin(a ^ c).count("1") == 2 and bin(a & ~c).count("1") == 1   # one card out, one in
    order = warm_order(free.mask)
    changes = [sum(1 for (a, _), (c, _) in zip(listed, listed[1:]) if (a ^ c) >> card & 1) for card in order]
    assert changes[-1] == 1 and changes[-1] <= changes[-2] <= changes[0]   # the last card (an ace) moves once
    assert [i % 8 for i in order] == sorted(i % 8 for i in order)             # by rank, suits interleaved
    low_last = warm_order(free.mask, misere=True)
    assert [i % 8 for i in low_last] == sorted((i % 8 for i in order), reverse=True)   # misère: sevens last
    misere = LayoutSpace(free, (6, 6), (Hand(0), Hand(0)), misere=True)
    assert sorted(misere.enumerate_masks()) == sorted(listed) and list(misere.enumerate_masks()) != listed


@pytest.mark.parametrize("contract", ["6s", "6nt", "misere"])
def test_enumeration_order_gives_each_split_the_same_value(contract: str) -> None:
    request = enumeration_request(HAND, 0, contract, defenders=DEFENDERS, prior_tricks=PRIOR)
    kind = request.kinds[0]
    size = len(request.hand)
    space = LayoutSpace(request.defenders, (size, size), (Hand(0), Hand(0)), misere_only(request.kinds))
    warm = [first for first, _ in space.enumerate_masks()]   # the enumeration's own order
    old = suit_order_splits(request.defenders, size)
    assert warm != old and set(warm) == set(old)
    in_warm_order = values_in_order(request, kind, warm, Solver(16))
    in_old_order = values_in_order(request, kind, old, Solver(16))
    assert in_warm_order == in_old_order
    plain = Solver(16)
    plain.set_options(OPT_NONE)   # plain alpha-beta, no table: nothing carried over
    checked = warm[::41]
    assert values_in_order(request, kind, checked, plain) == {first: in_warm_order[first] for first in checked}
    # The totals of the enumeration (its chunks on two workers) are those of the splits one by one.
    result = enumerate_splits(request, RunOptions(workers=2))
    assert result.run.complete and result.splits == len(warm)
    assert result.contracts[0].counts == dict(sorted(Counter(PRIOR[0] + v for v in in_old_order.values()).items()))
    assert len(set(in_old_order.values())) > 1


def test_a_space_refuses_a_misere_flag_that_is_not_a_bool() -> None:
    with pytest.raises(AdviceError, match="misere must be True or False"):
        LayoutSpace(Hand.parse(DEFENDERS), (6, 6), (Hand(0), Hand(0)), "yes")  # type: ignore[arg-type]
