"""Layout spaces (sampling and enumeration), the thread pool's determinism,
budgets and cancellation, and the estimates' arithmetic."""
from __future__ import annotations

import math
import random
import statistics
import threading
import time
from collections import Counter
from fractions import Fraction

import pytest

from solver import Hand
from solver.advice import AdviceError, LayoutSpace, RunOptions
from solver.advice.layouts import _card_indices, layout_seed, layout_rng, revolving_door
from solver.engine import HandPairs, ShuffleDeal, SolverArgumentError
from solver.advice.parallel import (BLOCKS_PER_WORKER, TaskResult, _layout_result, block_queues, exact_blocks,
                                   exact_chunks, run_layouts, whole_blocks)
from solver.advice.stats import Estimate, estimate, sureness


@pytest.mark.parametrize("n, k", [(1, 0), (1, 1), (4, 2), (6, 3), (9, 4), (12, 6)])
def test_revolving_door_lists_every_subset_once_by_single_swaps(n: int, k: int) -> None:
    order = revolving_door(n, k)
    assert len(order) == len(set(order)) == math.comb(n, k)
    assert all(bin(mask).count("1") == k and mask < 1 << n for mask in order)
    for before, after in zip(order, order[1:]):
        assert bin(before ^ after).count("1") == 2


@pytest.mark.parametrize("free, sizes, fixed", [
    ("AKQJT987.AKQJT987.AKQJ.", (10, 10), ("", "..T9.")),            # a whist advice's two hands
    ("AKQJT987.AKQJT987.AKQJT987.AKQJT987", (10, 10, 10, 2), ("", "", "", "")),   # a whole deal and talon
    ("AK7.Q8..", (0, 3, 2), ("..A.", "", "...K")),                   # an empty part, a small endgame
    ("A...", (1, 0), ("", "")),
])
def test_sampled_layouts_are_the_seeded_shuffles_of_the_free_cards(free: str, sizes, fixed) -> None:
    """Layout i of seed s: the free cards (spades first, high to low)
    shuffled by Random("s/i"), dealt to the parts in order; drawn in C
    (csrc/sample.c) for any seed whose key fits, in Python beyond."""
    space = LayoutSpace(Hand.parse(free), sizes, tuple(Hand.parse(f) if f else Hand(0) for f in fixed))
    huge = 10 ** 700   # its key does not fit the C seeding: the Python shuffle
    assert not ShuffleDeal.fits(layout_seed(huge, 0)) and ShuffleDeal.fits(layout_seed(-2**64, 10**9))
    for seed, index in [(s, i) for s in (0, 1, -3, 2**40, -2**64) for i in range(300)] + [(huge, 0), (huge, 1)]:
        rng = layout_rng(seed, index)
        assert rng.getstate() == random.Random(layout_seed(seed, index)).getstate()
        cards = list(_card_indices(space.free.mask))
        rng.shuffle(cards)
        expected, start = [], 0
        for size, part in zip(sizes, space.fixed):
            expected.append(part.mask | sum(1 << card for card in cards[start:start + size]))
            start += size
        assert space.sample_masks(seed, index) == tuple(expected), (seed, index)
    # Many layouts in one C call (pdd_shuffle_deals): the same deals, a key
    # that does not fit among them drawing the whole range in Python.
    for seed, start, end in [(1, 0, 300), (-2**64, 5, 69), (2**40, 7, 7), (huge, 0, 2), (0, 9, 10)]:
        assert space.sample_masks_many(seed, start, end) == [space.sample_masks(seed, index)
                                                             for index in range(start, end)]


@pytest.mark.parametrize("sizes, fixed", [([2, 2], [0]), ([2], [0, 1]), ([], [0])])
def test_shuffle_deal_refuses_a_fixed_mask_count_unlike_the_parts(sizes: list[int], fixed: list[int]) -> None:
    with pytest.raises(SolverArgumentError, match=f"{len(sizes)} sizes, {len(fixed)} fixed masks"):
        ShuffleDeal([0, 1, 2, 3], sizes, fixed)


def test_full_deal_space_has_every_split() -> None:
    assert len(revolving_door(20, 10)) == 184_756


@pytest.mark.parametrize("n, k", [(0, 0), (1, 0), (1, 1), (5, 2), (8, 8), (9, 4), (13, 6), (20, 10)])
def test_hand_pairs_in_c_are_the_revolving_door_of_the_cards(n: int, k: int) -> None:
    """csrc/splits.c lists the splits in revolving_door's order over the
    cards' positions in the list, each part with its fixed cards."""
    rng = random.Random(n * 100 + k)
    cards = rng.sample(range(32), n)
    others = [c for c in range(32) if c not in cards]
    first_fixed = sum(1 << c for c in others[:2]) if n < 30 else 0
    second_fixed = sum(1 << c for c in others[2:5]) if n < 27 else 0
    pairs = HandPairs.revolving_door(cards, k, first_fixed, second_fixed)
    everything = sum(1 << c for c in cards)
    expected = []
    for subset in revolving_door(n, k):
        mask = sum(1 << cards[i] for i in range(n) if subset >> i & 1)
        expected.append((first_fixed | mask, second_fixed | (everything & ~mask)))
    assert list(pairs) == expected and len(pairs) == len(expected)
    assert [pairs[i] for i in range(len(pairs))] == expected and pairs[-1] == expected[-1]
    assert list(pairs[1:4]) == expected[1:4] and list(pairs[3:1]) == [] and pairs[::2] == expected[::2]
    with pytest.raises(IndexError):
        pairs[len(pairs)]


@pytest.mark.parametrize("cards, k, fixed, problem", [
    ([3, 3], 1, (0, 0), "distinct"), ([32], 1, (0, 0), "distinct"), ([-1], 0, (0, 0), "distinct"),
    ([1, 2], 1, (1 << 2, 0), "fixed"), ([1, 2], 1, (1 << 5, 1 << 5), "disjoint"),
    ([1, 2], 3, (0, 0), "cannot split"), (list(range(33)), 1, (0, 0), "cannot split"),
])
def test_hand_pairs_refuse_bad_cards_by_name(cards, k, fixed, problem) -> None:
    with pytest.raises(SolverArgumentError, match=problem):
        HandPairs.revolving_door(cards, k, *fixed)


def test_split_masks_refuse_a_capacity_too_small_even_for_one_split() -> None:
    from solver._core import ffi, lib
    out = ffi.new("uint32_t[2]", [7, 7])
    for n, k in [(0, 0), (3, 0), (3, 3), (4, 2)]:
        assert lib.pdd_split_masks(ffi.new("int32_t[4]", [1, 2, 3, 4]), n, k, 0, 0, out, 0) == lib.PDD_ERR_COUNT
    assert list(out) == [7, 7]


def test_two_part_enumeration_lists_its_splits_in_c_as_in_python() -> None:
    """LayoutSpace.enumerate_list: the same splits as enumerate_masks, for
    trick contracts and misère (the other card order), fixed cards added."""
    for misere in (False, True):
        space = LayoutSpace(Hand.parse("AKQJ98.T97.8.A7"), (6, 6), (Hand.parse("..A."), Hand.parse("..K.")),
                            misere)
        listed = space.enumerate_list()
        assert isinstance(listed, HandPairs) and list(listed) == list(space.enumerate_masks())
    three = small_space()
    assert three.enumerate_list() == list(three.enumerate_masks())


def small_space() -> LayoutSpace:
    return LayoutSpace(Hand.parse("AKQ.J9.T.87"), (2, 3, 3), (Hand(0), Hand.parse("...A"), Hand(0)))


def test_enumeration_is_every_layout_once() -> None:
    space = small_space()
    layouts = list(space.enumerate())
    assert len(layouts) == len(set(layouts)) == space.count() == math.comb(8, 2) * math.comb(6, 3)
    for parts in layouts:
        assert [len(p) for p in parts] == [2, 4, 3]
        assert parts[1].mask & Hand.parse("...A").mask
        assert parts[0].mask | parts[1].mask | parts[2].mask == Hand.parse("AKQ.J9.T.A87").mask


def test_sampling_is_fixed_by_seed_and_index_and_uniform() -> None:
    space = LayoutSpace(Hand.parse("AK.Q.J."), (2, 2), (Hand(0), Hand(0)))
    assert space.sample(3, 17) == space.sample(3, 17)
    assert [space.sample(3, i) for i in range(20)] != [space.sample(4, i) for i in range(20)]
    counts = Counter(space.sample(9, i)[0] for i in range(6000))
    assert len(counts) == 6
    assert all(abs(n - 1000) < 150 for n in counts.values())   # 6 layouts, ~1000 each (fixed seed)


def test_bad_spaces_are_refused() -> None:
    with pytest.raises(AdviceError, match="cannot fill"):
        LayoutSpace(Hand.parse("AK.Q.J."), (2, 3), (Hand(0), Hand(0)))
    with pytest.raises(AdviceError, match="placed twice"):
        LayoutSpace(Hand.parse("AK.Q.J."), (2, 2), (Hand.parse("A..."), Hand(0)))


def first_card_evaluator(parts, solver):
    """A layout's outcome without the solver: the lowest card of the first part."""
    return {parts[0].cards()[-1].index: 1} if parts[0].cards() else {None: 1}


def test_runs_agree_whatever_the_thread_count() -> None:
    space = small_space()
    for mode in ("sample", "exact"):
        results = [run_layouts(space, first_card_evaluator, RunOptions(layouts=150, seed=2, workers=w, mode=mode))
                   for w in (1, 2, 3)]
        merged = [Counter() for _ in results]
        for total, run in zip(merged, results):
            for unit in run.units:
                total.update(unit)
        assert merged[0] == merged[1] == merged[2]
        assert results[0].stats.layouts == (150 if mode == "sample" else space.count())


def test_an_enumeration_without_a_budget_goes_through_blocks_of_the_layouts_order() -> None:
    """Without a time budget one worker takes the chunks block by block, the
    blocks (runs of consecutive chunks) in a seeded order and each in the
    layouts' own order (its table goes on from one chunk into the next);
    with a budget, in the chunks' seeded numbering, whose every prefix is a
    random set of chunks."""
    space = small_space()
    layouts = list(space.enumerate_masks())
    chunks = exact_chunks(space.count(), 0)
    assert len(chunks) > 2 and chunks != sorted(chunks)
    seen: list = []

    def record(parts, solver):
        seen.append(parts)
        return {parts: 1}

    plain = run_layouts(space, record, RunOptions(mode="exact", workers=1), masks=True)
    blocks = exact_blocks(chunks, 1, 0)
    assert seen == [layouts[i] for block in blocks for index in block for i in range(*chunks[index])]
    seen.clear()
    budget = run_layouts(space, record, RunOptions(mode="exact", workers=1, seconds=600.0), masks=True)
    assert seen == [layouts[i] for start, end in chunks for i in range(start, end)]
    assert plain.units == budget.units and plain.stats.complete
    in_order = sorted(range(len(chunks)), key=lambda i: chunks[i][0])
    for workers in (1, 3):
        blocks = exact_blocks(chunks, workers, 0)
        assert len(blocks) == BLOCKS_PER_WORKER * workers
        by_start = sorted(blocks, key=lambda block: chunks[block[0]][0])
        assert sum(by_start, []) == in_order and min(map(len, blocks)) >= len(chunks) // len(blocks)
        assert blocks != by_start   # in a seeded order, not the layouts'
    assert exact_blocks([], 2, 0) == [] and exact_blocks(chunks[:1], 2, 0) == [[0]]
    queues = block_queues([[0, 1], [2], [3, 4], [5]], 2)
    assert queues == [[0, 1, 3, 4], [2, 5]]


def test_each_worker_goes_through_blocks_of_its_own() -> None:
    """Two workers without a budget: each takes its blocks of the layouts'
    order, each block in that order, then chunks from the end of the other's
    queue."""
    space = small_space()
    layouts = list(space.enumerate_masks())
    position = {layout: i for i, layout in enumerate(layouts)}
    by_thread: dict[str, list[int]] = {}

    def record(parts, solver):
        by_thread.setdefault(threading.current_thread().name, []).append(position[parts])
        return {parts: 1}

    run = run_layouts(space, record, RunOptions(mode="exact", workers=2), masks=True)
    assert run.stats.complete and sorted(sum(by_thread.values(), [])) == list(range(len(layouts)))
    chunks = exact_chunks(space.count(), 0)
    blocks = exact_blocks(chunks, 2, 0)
    fronts = {chunks[blocks[0][0]][0], chunks[blocks[1][0]][0]}
    assert {seen[0] for seen in by_thread.values()} & fronts   # the first task taken is a queue's first
    for seen in by_thread.values():
        runs = sum(1 for a, b in zip(seen, seen[1:]) if b != a + 1)
        assert runs <= len(blocks) + len(chunks) // 2, seen   # ascending inside a block, but for steals


def test_a_cancelled_enumeration_answers_from_whole_blocks_in_their_seeded_order() -> None:
    """Taken in the layouts' order, a cancelled enumeration answers from the
    whole blocks finished first in the blocks' seeded order (a random set of
    blocks, each one unit), never from chunks done in the layouts' order."""
    space = small_space()
    layouts = list(space.enumerate_masks())
    chunks = exact_chunks(space.count(), 0)
    blocks = exact_blocks(chunks, 1, 0)
    cancel = threading.Event()
    seen: list = []

    def stop_halfway(parts, solver):
        seen.append(parts)
        if len(seen) == len(layouts) * 5 // 8:
            cancel.set()
            time.sleep(1.0)   # the run notices the cancel before the next layout
        return {parts: 1}

    run = run_layouts(space, stop_halfway, RunOptions(mode="exact", workers=1, cancel=cancel), masks=True)
    assert run.stats.stopped == "cancelled" and not run.stats.complete
    assert len(run.units) == 2   # 4 blocks of 140 layouts: 350 done, two whole
    for unit, block in zip(run.units, blocks):
        assert sorted(unit) == sorted(layouts[i] for index in block for i in range(*chunks[index]))
    assert run.stats.layouts == 2 * len(layouts) // 4 < len(seen)


def test_layout_result_counts_a_layout_and_shares_no_unit() -> None:
    assert _layout_result({"a": 1}) == TaskResult({"a": 1}, 1, 0)
    first, second = _layout_result(None), _layout_result(None)
    assert first == TaskResult({}, 0, 1)
    first.unit["a"] = 1          # a merge that adds into a rejected result's unit
    assert second.unit == {}


def test_whole_blocks_drops_a_block_partly_done() -> None:
    results = [TaskResult({"a": 1}, 1, 0), TaskResult({"a": 1, "b": 1}, 2, 1), TaskResult({"b": 1}, 1, 0)]
    merged = whole_blocks(results, [[4, 5], [0, 1]])
    assert merged == [TaskResult({"a": 2, "b": 1}, 3, 1)]
    assert whole_blocks(results[:1], [[4, 5], [0, 1]]) == []


def test_a_sample_evaluates_no_layout_past_its_budget() -> None:
    # Layouts far cheaper than a wake-up of the calling thread: the workers
    # still take no task once the finished ones hold the budget's layouts
    # (one worker: exactly that many; each other may be in one more).
    space = small_space()
    for workers in (1, 2):
        calls: list[int] = []

        def counted(parts, solver):
            calls.append(1)
            return first_card_evaluator(parts, solver)

        run = run_layouts(space, counted, RunOptions(layouts=12, seed=5, workers=workers, mode="sample"))
        assert run.stats.layouts == 12 and 12 <= len(calls) <= 12 + workers - 1, workers


def test_auto_mode_enumerates_small_spaces_only() -> None:
    space = small_space()
    assert run_layouts(space, first_card_evaluator, RunOptions(layouts=space.count())).stats.exact
    assert not run_layouts(space, first_card_evaluator, RunOptions(layouts=space.count() - 1)).stats.exact


def test_rejected_layouts_are_counted_and_skipped() -> None:
    space = small_space()

    def keep_half(parts, solver):
        return None if parts[0].mask & Hand.parse("A...").mask else {0: 1}

    run = run_layouts(space, keep_half, RunOptions(mode="exact", workers=2))
    with_ace = math.comb(7, 1) * math.comb(6, 3)
    assert run.stats.rejected == with_ace and run.stats.layouts == space.count() - with_ace
    sampled = run_layouts(space, keep_half, RunOptions(layouts=50, mode="sample", workers=2))
    assert sampled.stats.layouts == 50 and sampled.stats.rejected > 0


def slow_evaluator(parts, solver):
    time.sleep(0.01)
    return {0: 1}


def test_time_budget_stops_with_what_is_done() -> None:
    space = LayoutSpace(Hand((1 << 32) - 1), (16, 16), (Hand(0), Hand(0)))
    run = run_layouts(space, slow_evaluator, RunOptions(layouts=10_000, seconds=0.3, workers=2))
    assert run.stats.stopped == "seconds" and 0 < run.stats.layouts < 10_000
    assert len(run.units) == run.stats.layouts


def test_cancel_from_another_thread() -> None:
    space = LayoutSpace(Hand((1 << 32) - 1), (16, 16), (Hand(0), Hand(0)))
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    run = run_layouts(space, slow_evaluator, RunOptions(layouts=10_000, cancel=cancel, workers=2))
    assert run.stats.stopped == "cancelled" and run.stats.layouts < 10_000


def test_a_run_cancelled_before_it_starts_does_nothing() -> None:
    cancel = threading.Event()
    cancel.set()
    calls: list[int] = []

    def counted(parts, solver):
        calls.append(1)
        return first_card_evaluator(parts, solver)

    for mode in ("sample", "exact"):
        run = run_layouts(small_space(), counted, RunOptions(layouts=50, mode=mode, cancel=cancel, workers=2))
        assert (run.stats.stopped, run.stats.layouts, run.units, calls) == ("cancelled", 0, (), [])


def test_errors_in_a_worker_reach_the_caller() -> None:
    def broken(parts, solver):
        raise ZeroDivisionError("boom")

    with pytest.raises(ZeroDivisionError):
        run_layouts(small_space(), broken, RunOptions(layouts=10, mode="sample"))


@pytest.mark.parametrize("bad, message", [
    (dict(layouts=0), "layout budget"), (dict(seconds=-1), "time budget"), (dict(workers=0), "workers"),
    (dict(mode="fast"), "mode"), (dict(seed=1.5), "seed")])
def test_bad_run_options(bad: dict, message: str) -> None:
    with pytest.raises(AdviceError, match=message):
        RunOptions(**bad)


def test_estimate_of_a_sample_is_the_mean_and_its_standard_error() -> None:
    values = [3, 5, 5, 8, 1, 0, 4]
    units = [{v: 1} for v in values]
    result = estimate(units, lambda key: key)
    assert result.mean == pytest.approx(statistics.mean(values))
    assert result.std_error == pytest.approx(statistics.stdev(values) / math.sqrt(len(values)))
    assert result.exact is None


@pytest.mark.parametrize("f", [lambda key: Fraction(key, 3) - 1, lambda key: float(key) / 7 - 0.5,
                               lambda key: key % 2 == 0, lambda key: 0.0 if key else -0.0])
@pytest.mark.parametrize("population", [None, 32, 40])
def test_sampled_units_estimate_as_the_same_units_with_fraction_weights(f, population) -> None:
    # A unit of one key and weight 1 skips the Fraction sums: the same
    # estimate, to the last bit, as the general path (weights Fraction(1)).
    rng = random.Random(5)
    units = [{rng.randrange(9): 1} for _ in range(30)] + [{2: 1, 5: 1}, {4: Fraction(1, 2), 7: Fraction(1, 2)}]
    general = [{key: Fraction(weight) for key, weight in unit.items()} for unit in units]
    for exact in (False, True):
        got = estimate(units, f, population_units=population, exact=exact)
        want = estimate(general, f, population_units=population, exact=exact)
        assert repr(got) == repr(want) and type(got.exact) is type(want.exact)


def test_estimate_of_a_whole_population_is_exact() -> None:
    units = [{1: 2, 2: 1}, {5: 1}, {}]
    result = estimate(units, lambda key: key, population_units=3, exact=True)
    assert result.exact == Fraction(1 * 2 + 2 + 5, 4) and result.std_error == 0


def test_an_estimate_as_one_float_is_its_exact_mean_when_known() -> None:
    assert Estimate(0.1, 0.2).as_float() == 0.1
    # a mean rounded elsewhere (e.g. read back from JSON) gives way to the exact one
    assert Estimate(0.33, 0.0, Fraction(1, 3)).as_float() == 1 / 3


def test_estimate_of_part_of_a_population_shrinks_with_coverage() -> None:
    units = [{v: 1, v + 1: 1} for v in range(10)]
    partial = estimate(units[:5], lambda key: key, population_units=10)
    sample = estimate(units[:5], lambda key: key)
    assert 0 < partial.std_error < sample.std_error


def test_estimates_over_the_same_units_agree_and_follow_new_units() -> None:
    """Estimates of several functions over one tuple of units (as an advice
    makes them) see the same units; another sequence, or a list changed in
    place, is read afresh."""
    values = [3, 5, 5, 8, 1, 0, 4]
    units = tuple({v: 1} for v in values)
    assert estimate(units, lambda key: key).mean == pytest.approx(statistics.mean(values))
    assert estimate(units, lambda key: 2 * key).mean == pytest.approx(2 * statistics.mean(values))
    other = tuple({v + 1: 1} for v in values)
    assert estimate(other, lambda key: key).mean == pytest.approx(statistics.mean(values) + 1)
    changing = [{v: 1} for v in values]
    assert estimate(changing, lambda key: key).mean == pytest.approx(statistics.mean(values))
    changing.append({100: 1})
    assert estimate(changing, lambda key: key).mean == pytest.approx(statistics.mean(values + [100]))


def test_sureness() -> None:
    assert sureness(Estimate(1.0, 0.0, Fraction(1))) == 1.0
    assert sureness(Estimate(0.0, 0.0, Fraction(0))) == 0.5
    assert sureness(Estimate(2.0, 1.0)) == pytest.approx(0.97725, abs=1e-4)
    assert sureness(Estimate(-2.0, 1.0)) == pytest.approx(0.02275, abs=1e-4)
