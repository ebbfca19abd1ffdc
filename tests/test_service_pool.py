"""The solver worker pool: answers equal to a direct solve, one solver per
worker, a cancel that drops a queued job or stops a running C search, and a
worker that is free again afterwards."""
from __future__ import annotations

import threading

import pytest

from service_support import GUARD, random_deal, wait_until

from solver import Position, PositionError, Solver
from solver.engine import OPT_NONE
from service.pool import JobCancelled, PoolClosed, SolverPool


def slow(solver: Solver) -> None:
    solver.set_options(OPT_NONE)  # plain alpha-beta: exact, and many seconds on a full deal


SLOW_POSITION = Position.start(random_deal(7), "misere", 0)


def test_answers_equal_a_direct_solve() -> None:
    positions = [Position.start(random_deal(seed), "6nt", seed % 3) for seed in range(8)]
    expected = [Solver().solve(p) for p in positions]
    pool = SolverPool(2)
    try:
        jobs = [pool.submit(lambda solver, p=p: solver.solve(p)) for p in positions]
        assert all(job.wait(GUARD) for job in jobs)
        assert [job.result() for job in jobs] == expected
        assert pool.stats().completed == len(positions)
    finally:
        pool.shutdown()


def test_each_worker_has_its_own_solver() -> None:
    pool = SolverPool(2)
    seen: dict[int, int] = {}
    barrier = threading.Barrier(2)

    def note(solver: Solver) -> None:
        seen[threading.get_ident()] = id(solver)
        barrier.wait(GUARD)  # both workers busy at once

    try:
        jobs = [pool.submit(note) for _ in range(2)]
        assert all(job.wait(GUARD) for job in jobs)
        assert len(seen) == 2 and len(set(seen.values())) == 2
    finally:
        pool.shutdown()


def test_a_jobs_error_goes_to_its_caller() -> None:
    pool = SolverPool(1)
    try:
        bad = Position.start(random_deal(1), "6s", 0)
        job = pool.submit(lambda solver: solver.probe(bad, 11))
        assert job.wait(GUARD)
        with pytest.raises(PositionError, match="target"):
            job.result()
        follow = pool.submit(lambda solver: solver.solve(bad))
        assert follow.wait(GUARD) and follow.result() == Solver().solve(bad)
    finally:
        pool.shutdown()


def test_cancel_stops_a_running_search_and_frees_the_worker() -> None:
    pool = SolverPool(1, solver_setup=slow)
    try:
        started = threading.Event()

        def long_search(solver: Solver) -> int:
            started.set()
            return solver.solve(SLOW_POSITION)

        job = pool.submit(long_search)
        queued = pool.submit(lambda solver: solver.solve(SLOW_POSITION))
        assert started.wait(GUARD)
        assert pool.stats().busy_workers == 1 and pool.stats().queued == 1
        queued.cancel()
        job.cancel()
        assert job.wait(GUARD) and queued.wait(GUARD)
        for cancelled in (job, queued):
            with pytest.raises(JobCancelled):
                cancelled.result()
        assert job.was_stopped and not queued.was_stopped
        assert wait_until(lambda: pool.stats().busy_workers == 0)
        stats = pool.stats()
        assert (stats.stopped, stats.dropped, stats.completed, stats.queued) == (1, 1, 0, 0)
        # The stop flag does not leak into the next job on the same worker.
        endgame = Position.start("AK.7..J9 .Q9.Q8.T 7.T.9.AK", "6nt", 0)
        after = pool.submit(lambda solver: solver.solve(endgame))
        assert after.wait(GUARD) and after.result() == Solver().solve(endgame)
    finally:
        pool.shutdown()


def test_shutdown_stops_searches_and_refuses_new_jobs() -> None:
    pool = SolverPool(1, solver_setup=slow)
    started = threading.Event()

    def long_search(solver: Solver) -> int:
        started.set()
        return solver.solve(SLOW_POSITION)

    job = pool.submit(long_search)
    assert started.wait(GUARD)
    pool.shutdown(timeout=GUARD)
    assert job.done() and job.was_stopped
    with pytest.raises(PoolClosed):
        pool.submit(lambda solver: 0)


def test_bad_worker_count() -> None:
    with pytest.raises(ValueError, match="workers"):
        SolverPool(0)


def test_a_failing_solver_setup_is_reported() -> None:
    def broken(solver: Solver) -> None:
        raise RuntimeError("no such option")

    with pytest.raises(RuntimeError, match="no such option"):
        SolverPool(2, solver_setup=broken)
