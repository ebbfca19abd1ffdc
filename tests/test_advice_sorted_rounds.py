"""Sampled runs in sorted rounds (solver/advice/parallel.py,
``_SortedSampleEngine``): an evaluator that says which layouts it turns down
without a search (``rejects``) has the others solved in rounds sorted by
``warm_key``; the answer is that of the runs one layout a task, as drawn:
the same kept layouts (the first ``layouts`` by index), the same rejections,
the same figures, whatever the number of workers, and no layout is searched
that the answer does not hold."""
from __future__ import annotations

import threading
import time

import pytest

from solver import Hand
from solver.advice import RunOptions, advise_whist, whist_request
from solver.advice import parallel
from solver.advice.jsonio import whist_json
from solver.advice.layouts import LayoutSpace
from solver.advice.parallel import run_layouts, sample_limit, warm_key
from solver.advice.stats import merge_units

from test_advice_lean import REQUESTS as LEAN_REQUESTS, request_of as lean_request_of

EXTRA = {
    "first defender, split, blind-discard figure": dict(hand="JT98.JT.98.A9", talon="..J.K", contract="6c", seat=2,
                                                        other_decision=None, single_dummy=12),
    "no trump, first defender, split": dict(hand="AQ7.K98.KT.QJ", talon="..J.K", contract="6nt", seat=2,
                                            other_decision=None),
}
REQUESTS = list(LEAN_REQUESTS) + list(EXTRA)


def request_of(name: str):
    if name in LEAN_REQUESTS:
        return lean_request_of(name)
    settings = dict(EXTRA[name])
    return whist_request(settings.pop("hand"), settings.pop("talon"), settings.pop("contract"), 1,
                         settings.pop("seat"), **settings)


def figures(request, options: RunOptions) -> dict:
    answer = whist_json(advise_whist(request, options))
    for volatile in ("elapsed", "seconds"):
        answer["run"].pop(volatile, None)
    if answer["single_dummy"] is not None:
        answer["single_dummy"].pop("elapsed", None)
    return answer


@pytest.mark.parametrize("name", REQUESTS)
def test_whist_advice_in_sorted_rounds_answers_as_drawn(name: str, monkeypatch) -> None:
    request = request_of(name)
    for seed in (1, 4):
        sorted_rounds = [figures(request, RunOptions(layouts=150, seed=seed, workers=workers))
                         for workers in (1, 2, 3)]
        monkeypatch.setattr(parallel, "SORTED_ROUNDS", False)
        drawn = figures(request, RunOptions(layouts=150, seed=seed, workers=2))
        monkeypatch.setattr(parallel, "SORTED_ROUNDS", True)
        for answer in sorted_rounds:
            answer["run"]["workers"] = drawn["run"]["workers"]
            assert answer == drawn, (name, seed)


def small_space() -> LayoutSpace:
    return LayoutSpace(Hand.parse("AKQJT.AKQ9.T98.87"), (7, 7), (Hand(0), Hand(0)))


class Recording:
    """A mask evaluator turning down the layouts whose first part holds the
    spade ace, and (as a search would) those with the club ace among the
    first part's last cards; it records what it evaluates."""

    def __init__(self, delay: float = 0.0) -> None:
        self.calls: list[tuple[int, ...]] = []
        self.lock = threading.Lock()
        self.delay = delay

    @staticmethod
    def rejects(parts) -> bool:
        return bool(parts[0] & Hand.parse("A...").mask)

    def __call__(self, parts, solver):
        assert not self.rejects(parts)   # the run never asks about a layout already turned down
        with self.lock:
            self.calls.append(parts)
        if self.delay:
            time.sleep(self.delay)
        return None if parts[0] & Hand.parse("...8").mask else {parts[0] & 0xFF: 1}


class Batched(Recording):
    """The same evaluator with a ``batch`` (runs of layouts in one call);
    it records the size of each run."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[int] = []

    def batch(self, layouts, solver):
        assert layouts
        with self.lock:
            self.runs.append(len(layouts))
        return [self(parts, solver) for parts in layouts]


def drawn_answer(space: LayoutSpace, layouts: int, seed: int, evaluate: Recording) -> tuple[dict, int, int, int]:
    """What a run one layout a task answers: the kept layouts' outcomes, kept,
    rejected, and the index past the last layout used."""
    merged: dict = {}
    kept = rejected = index = 0
    while kept < layouts and index < sample_limit(layouts):
        parts = space.sample_masks(seed, index)
        outcome = None if evaluate.rejects(parts) else evaluate(parts, None)
        index += 1
        if outcome is None:
            rejected += 1
            continue
        kept += 1
        for key, weight in outcome.items():
            merged[key] = merged.get(key, 0) + weight
    return merged, kept, rejected, index


@pytest.mark.parametrize("batched", [False, True])
@pytest.mark.parametrize("workers", [1, 2, 3])
@pytest.mark.parametrize("layouts", [1, 40, 300])
def test_a_sorted_run_keeps_the_drawn_layouts_and_searches_no_other(workers: int, layouts: int,
                                                                     batched: bool) -> None:
    space = small_space()
    reference = Recording()
    expected, kept, rejected, end = drawn_answer(space, layouts, 7, reference)
    evaluate = Batched() if batched else Recording()
    run = run_layouts(space, evaluate, RunOptions(layouts=layouts, seed=7, workers=workers), masks=True)
    merged = dict(merge_units(run.units))
    assert (merged, run.stats.layouts, run.stats.rejected) == (expected, kept, rejected)
    # Exactly the layouts the answer holds were searched, each once.
    assert sorted(evaluate.calls) == sorted(reference.calls)
    if workers == 1:
        # One worker solves the rounds one after another, each in warm_key
        # order: the first FIRST_ROUND layouts (or fewer, when fewer are
        # missing), then each time as many as kept layouts are missing.
        searched, expected_order, missing, first = list(reference.calls), [], layouts, True
        while searched:
            size = min(missing, parallel.FIRST_ROUND if first else parallel.MAX_ROUND)
            batch, searched, first = searched[:size], searched[size:], False
            expected_order += sorted(batch, key=warm_key)
            missing -= sum(1 for parts in batch if reference(parts, None) is not None)
        assert evaluate.calls == expected_order
        if layouts == 300:
            assert evaluate.calls != reference.calls   # the order did change
    if batched and layouts == 300:
        # Runs of up to SOLVE_RUN layouts of a worker's segment, shrinking to one at its end.
        assert max(evaluate.runs) == parallel.SOLVE_RUN and min(evaluate.runs) == 1
        assert sum(evaluate.runs) == len(evaluate.calls)


def test_a_sorted_run_that_finds_too_few_layouts_stops_at_the_limit_of_tries() -> None:
    space = small_space()

    class Never(Recording):
        @staticmethod
        def rejects(parts) -> bool:
            return True

    evaluate = Never()
    run = run_layouts(space, evaluate, RunOptions(layouts=5, seed=1, workers=2), masks=True)
    assert (run.stats.layouts, run.stats.rejected, evaluate.calls) == (0, sample_limit(5), [])


def test_a_sorted_run_with_a_time_budget_keeps_a_finished_prefix() -> None:
    space = small_space()
    evaluate = Recording(delay=0.01)
    run = run_layouts(space, evaluate, RunOptions(layouts=10_000, seconds=0.4, seed=3, workers=2, mode="sample"), masks=True)
    assert run.stats.stopped == "seconds" and 0 < run.stats.layouts < 10_000
    expected, kept, rejected, _ = drawn_answer(space, run.stats.layouts, 3, Recording())
    merged = dict(merge_units(run.units))
    # The finished prefix: the first kept layouts by index, and the layouts
    # turned down among them and after the last, before the next kept one.
    assert (merged, run.stats.layouts) == (expected, kept)
    assert rejected <= run.stats.rejected <= drawn_answer(space, kept + 1, 3, Recording())[2]
    # With a budget the rounds grow from BUDGET_ROUND with the work done and
    # the time left: the stop falls in the last round, which holds at most
    # as many as were done before or as half the time left was to hold
    # (here about 40 layouts a second a worker), so most of the searched
    # layouts are in the prefix.
    in_prefix = Recording()
    drawn_answer(space, kept, 3, in_prefix)
    assert len(in_prefix.calls) >= len(evaluate.calls) // 2 - parallel.BUDGET_ROUND


def test_a_sorted_run_is_cancelled_and_its_errors_reach_the_caller() -> None:
    space = small_space()
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    run = run_layouts(space, Recording(delay=0.01), RunOptions(layouts=10_000, cancel=cancel, workers=2, mode="sample"),
                      masks=True)
    assert run.stats.stopped == "cancelled" and run.stats.layouts < 10_000

    class Broken(Recording):
        def __call__(self, parts, solver):
            raise ZeroDivisionError("boom")

    class BrokenTest(Recording):
        @staticmethod
        def rejects(parts) -> bool:
            raise KeyError("no test")

    with pytest.raises(ZeroDivisionError):
        run_layouts(space, Broken(), RunOptions(layouts=10, workers=2), masks=True)
    with pytest.raises(KeyError):
        run_layouts(space, BrokenTest(), RunOptions(layouts=10, workers=2), masks=True)


def test_a_sorted_run_stopped_inside_a_round_answers_from_the_rounds_before_it() -> None:
    """One worker, no budget: cancelled after most layouts of its second
    round (those of the first keys, not a random set), the run answers from
    the first round's layouts alone."""
    space = small_space()
    cancel = threading.Event()
    first = parallel.FIRST_ROUND

    class StopInRound(Recording):
        def __call__(self, parts, solver):
            outcome = super().__call__(parts, solver)
            if len(self.calls) == first + 900:
                cancel.set()
                time.sleep(0.5)   # the run notices the cancel before the next layout
            return outcome

    evaluate = StopInRound()
    run = run_layouts(space, evaluate, RunOptions(layouts=1_000, seed=4, cancel=cancel, workers=1, mode="sample"),
                      masks=True)
    assert run.stats.stopped == "cancelled" and len(evaluate.calls) == first + 900
    round_one = evaluate.calls[:first]
    kept_one = sum(1 for parts in round_one if Recording()(parts, None) is not None)
    assert run.stats.layouts == kept_one
    expected = drawn_answer(space, kept_one, 4, Recording())[0]
    merged = dict(merge_units(run.units))
    assert merged == expected
