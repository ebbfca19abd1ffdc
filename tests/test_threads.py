"""Solvers on several threads: independent results, the GIL released during a
search, one solver refusing to be used by two threads at once, and stopping."""
from __future__ import annotations

import random
import threading
import time

import pytest

from solver import Deal, Hand, Card, Position, SearchStopped, Solver, SolverBusyError
from solver.engine import OPT_NONE


def random_deal(seed: int) -> Deal:
    cards = random.Random(seed).sample(range(32), 32)
    hands = tuple(Hand.from_cards(Card.from_index(i) for i in cards[k * 10:(k + 1) * 10]) for k in range(3))
    return Deal(hands, Hand.from_cards(Card.from_index(i) for i in cards[30:]))


def slow_solver() -> Solver:
    solver = Solver(table_mib=1)
    solver.set_options(OPT_NONE)     # plain alpha-beta: slow enough to watch
    return solver


def test_threads_agree_with_one_thread() -> None:
    positions = [Position.start(random_deal(s), "6nt", s % 3) for s in range(24)]
    expected = [Solver().solve(p) for p in positions]
    results: dict[int, int] = {}

    def work(k: int) -> None:
        solver = Solver(table_mib=2)
        for i in range(k, len(positions), 4):
            results[i] = solver.solve(positions[i])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert [results[i] for i in range(len(positions))] == expected


class BackgroundSolve:
    """A slow search (plain alpha-beta on a full deal: many seconds) on a
    thread, stopped when the test is done with it."""

    def __init__(self) -> None:
        self.solver = slow_solver()
        self.position = Position.start(random_deal(7), "misere", 0)
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            self.solver.solve(self.position)
        except SearchStopped as error:
            self.errors.append(error)

    def __enter__(self) -> "BackgroundSolve":
        self.thread.start()
        time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.request_stop()
        self.thread.join(timeout=10)
        self.solver.clear_stop()


def test_search_releases_the_gil() -> None:
    """While a long search runs on a thread, this thread keeps running Python."""
    with BackgroundSolve() as background:
        ticks = [time.perf_counter()]
        while ticks[-1] - ticks[0] < 0.3:
            ticks.append(time.perf_counter())
        still_searching = background.thread.is_alive()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert still_searching, "the search ended too soon to tell"
    # A search holding the GIL would stall this loop for the whole search
    # (seconds); the bound leaves room for the scheduler on a loaded machine.
    assert len(ticks) > 1000 and max(gaps) < 0.25


def test_one_solver_two_threads_is_refused() -> None:
    with BackgroundSolve() as background:
        assert background.thread.is_alive()
        with pytest.raises(SolverBusyError):
            background.solver.solve(background.position)


def test_request_stop_ends_a_search() -> None:
    with BackgroundSolve() as background:
        assert background.thread.is_alive()
    assert not background.thread.is_alive()
    assert len(background.errors) == 1 and isinstance(background.errors[0], SearchStopped)
