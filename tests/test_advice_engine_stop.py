"""The thread pool's stop rule: a worker whose solver joins the run after
the run has ended finds it stopped, so no solver outlives a stopped run
searching (the run's end stops the solvers that joined before it)."""
from __future__ import annotations

import pytest

from solver import Deal, Position, SearchStopped, Solver
from solver.advice import RunOptions
from solver.advice.parallel import TaskResult, _Engine

POSITION = Position.start(Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9"), "6c", 1)


def _engine(pool):
    tasks: list[int] = []

    def task(index, solver, stop):
        tasks.append(index)
        return TaskResult({}, 1, 0)

    return _Engine(task, 3, None, RunOptions(workers=1, table_mib=1), exact=True, pool=pool), tasks


@pytest.mark.parametrize("pooled", [True, False])
def test_a_solver_joining_an_ended_run_is_stopped(pooled: bool) -> None:
    pool = [Solver(1)] if pooled else []
    engine, tasks = _engine(pool)
    engine.stop.set()          # the run has ended before this worker took its solver
    engine._worker(0)
    assert tasks == [] and len(engine.solvers) == 1 and pool == engine.solvers
    with pytest.raises(SearchStopped):
        engine.solvers[0].solve(POSITION)


def test_a_pooled_solver_stopped_by_an_earlier_run_searches_again() -> None:
    solver = Solver(1)
    solver.request_stop()      # how the earlier run left it
    engine, tasks = _engine([solver])
    engine._worker(0)
    assert tasks == [0, 1, 2] and engine.solvers == [solver]
    assert solver.solve(POSITION) == Solver(1).solve(POSITION)
