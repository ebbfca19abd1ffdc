"""The enumeration's order: it lists every layout once, by single swaps, the
deciding cards' owners changing least often, and gives every layout the
value it has in any other order (and with the search's enhancements off).
The same holds under the enumeration's table policy (entries kept over many
splits), on random hands and on the searching hands of benchmarks/sets.py."""
from __future__ import annotations

import math
import random
from array import array
from collections import Counter

import pytest

from solver import Hand, Solver
from solver.advice import AdviceError, RunOptions, enumerate_splits, enumeration_request
from solver.advice import enumeration
from solver.advice.enumeration import ENUMERATION_TABLE_POLICY, _template
from solver.advice.layouts import LayoutSpace, misere_only, revolving_door, warm_order
from solver.engine import DEFAULT_PART_WAYS, OPT_NONE, HandPairs, StartSolver
from solver.notation import Card

# Six cards a hand: seat 0 declares, the defenders share 12 cards (924 splits).
HAND, DEFENDERS, PRIOR = "AQ9.K8..7", "KJT7.AJ9.KQJ.AK", (2, 1, 1)
# benchmarks/sets.py, searching_hands(): cards, discard, contract.
SEARCHING = [("AKT8.7.QJT8.QJ9", "8...J", "6d"), ("K87.KT7.T7.AKQT", ".K..Q", "6s")]
DEFAULT_POLICY = (DEFAULT_PART_WAYS, 1)
# The enumeration's policy, and small ones that wrap the 8-bit generation and
# fill buckets within a few hundred splits.
POLICIES = [ENUMERATION_TABLE_POLICY, (*ENUMERATION_TABLE_POLICY, False), (7, 3, False), (1, 1), (127, 1)]


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


def values_in_batches(request, kind, splits: list[int], policy: tuple, mib: int = 16,
                      nodes: list[int] | None = None) -> dict[int, int]:
    """values_in_order as a worker of the enumeration solves them: 256 splits
    a C call, on a solver with the table ``policy`` (its nodes appended to
    ``nodes``); every other call takes its splits packed (HandPairs), as the
    enumeration passes them, the others as a list of pairs."""
    size = len(request.hand)
    solver = Solver(mib)
    solver.set_table_policy(*policy)
    start = StartSolver(solver, _template(request, kind, size), ((request.declarer + 1) % 3,
                                                                 (request.declarer + 2) % 3))
    values: dict[int, int] = {}
    for at in range(0, len(splits), 256):
        chunk = splits[at:at + 256]
        pairs = [(first, request.defenders.mask & ~first) for first in chunk]
        if at // 256 % 2:
            pairs = HandPairs(array("I", [mask for pair in pairs for mask in pair]))
        values.update(zip(chunk, start.solve_pairs(pairs)))
    if nodes is not None:
        nodes.append(solver.stats().nodes)
    return values


def warm_splits(request) -> list[int]:
    size = len(request.hand)
    space = LayoutSpace(request.defenders, (size, size), (Hand(0), Hand(0)), misere_only(request.kinds))
    return [first for first, _ in space.enumerate_masks()]


def random_request(rng: random.Random, size: int, contract: str):
    """A random declarer's hand of ``size`` cards and defenders' cards."""
    cards = rng.sample(range(32), 3 * size)
    hand = Hand.from_cards(Card.from_index(c) for c in cards[:size])
    defenders = Hand.from_cards(Card.from_index(c) for c in cards[size:])
    prior = rng.choice([(10 - size, 0, 0), (0, 10 - size, 0), (1, 1, 8 - size)])
    return enumeration_request(hand, 0, contract, defenders=defenders, prior_tricks=prior)


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


@pytest.mark.parametrize("seed", range(4))
def test_the_table_policy_gives_each_split_of_random_hands_the_same_value(seed: int) -> None:
    rng = random.Random(f"table-policy-{seed}")
    for contract in ("6" + rng.choice("scdh"), "6nt", "misere"):
        request = random_request(rng, 6, contract)
        kind = request.kinds[0]
        warm = warm_splits(request)
        default = values_in_batches(request, kind, warm, DEFAULT_POLICY)
        assert default == values_in_order(request, kind, suit_order_splits(request.defenders, 6), Solver(16))
        for policy in POLICIES:
            assert values_in_batches(request, kind, warm, policy, mib=1) == default, (contract, policy)
        plain = Solver(16)
        plain.set_options(OPT_NONE)
        checked = warm[seed::97]
        assert values_in_order(request, kind, checked, plain) == {first: default[first] for first in checked}


@pytest.mark.parametrize("cards, discard, contract", SEARCHING)
def test_the_table_policy_gives_each_split_of_the_searching_hands_the_same_value(cards, discard, contract) -> None:
    """1,536 consecutive splits in the enumeration's order (the first 1,024
    and 512 from the middle), under each policy, against the default policy
    and against the old order (suit by suit) solved one split a call; every
    48th split also against the table-only search (no partition entries, no
    bounds: the entries the policy keeps are not used there)."""
    request = enumeration_request(cards, 0, contract, discard=discard)
    kind = request.kinds[0]
    warm = warm_splits(request)
    middle = len(warm) // 2
    sample = warm[:1024] + warm[middle:middle + 512]
    nodes: list[int] = []
    default = values_in_batches(request, kind, sample, DEFAULT_POLICY, mib=64, nodes=nodes)
    assert values_in_batches(request, kind, sample, ENUMERATION_TABLE_POLICY, mib=64, nodes=nodes) == default
    assert values_in_batches(request, kind, sample, (*ENUMERATION_TABLE_POLICY, False), mib=64, nodes=nodes) == default
    # The policy is in force: entries of earlier splits serve later ones.
    assert nodes[2] <= nodes[1] < 0.8 * nodes[0]
    position = {first: i for i, first in enumerate(suit_order_splits(request.defenders, len(request.hand)))}
    old = sorted(sample, key=position.__getitem__)
    assert values_in_order(request, kind, old, Solver(16)) == default
    for policy in POLICIES:
        assert values_in_batches(request, kind, sample, policy, mib=4) == default, policy
    table_only = Solver(16)
    table_only.set_options(1)   # PDD_OPT_TT
    checked = sample[::48]
    assert values_in_order(request, kind, checked, table_only) == {first: default[first] for first in checked}
    assert len(set(default.values())) > 1


def test_the_enumeration_counts_are_the_same_under_either_policy(monkeypatch) -> None:
    request = enumeration_request(HAND, 0, "6s", defenders=DEFENDERS, prior_tricks=PRIOR)
    tuned = enumerate_splits(request, RunOptions(workers=2))
    monkeypatch.setattr(enumeration, "ENUMERATION_TABLE_POLICY", DEFAULT_POLICY)
    monkeypatch.setattr(enumeration, "ENUMERATION_PARTITION_ONLY", False)
    plain = enumerate_splits(request, RunOptions(workers=2))
    assert tuned.contracts == plain.contracts and tuned.run.complete and plain.run.complete
