"""The binding's cost per position: the C core alone against the Python calls
on the same positions, in one run.

Each round takes fresh random full deals (mixed contracts, as ``prefdd
batch`` gets them) and solves them along each path in turn, every path on a
solver whose table was just cleared, so each does the same searches (the
node counts are checked equal):

* ``c``: the C core alone, one ``pdd_solve_many`` call over structs packed
  beforehand (a C-driven loop; no Python per position);
* ``solve``: ``Solver.solve`` per position (a Python call each);
* ``solve_many``: ``Solver.solve_many`` over the round (one C call);
* ``lines``: ``prefdd batch FILE``'s path, JSON text in and out
  (``solver.analysis.batch.evaluate_lines``, 64 lines a call: the JSON, the
  deal's notation, the checks, the answer's JSON);
* ``line``: the same one line at a time (``prefdd batch`` on a pipe).

The overhead of a path is its time per position minus the C core's. Cold:
the table starts empty, so every position is searched (about 0.5 ms): the
overhead is a difference of two noisy times. Warm: the same positions again
on the filled table, where the C core answers each from the table in under
a microsecond, so a path's time is nearly all overhead: the precise reading.
The paths run alternately, each round starting with the next; the times are this thread's CPU
time (every path runs on it, the C search included), and the medians over
rounds are printed at the end.

    .venv/bin/pytest -q benchmarks/test_bench_binding.py --benchmark-only
"""
from __future__ import annotations

import json
import statistics
import time
from typing import Callable

import pytest

from deals import batch_requests
from harness import write_summary
from solver import Position, Solver
from solver.analysis.batch import evaluate_line, evaluate_lines
from solver.batch import read_request, start_position
from solver.engine import OPT_ALL, to_c_position
from solver._core import ffi, lib

ROUNDS = 5
POSITIONS_PER_ROUND = 200
CHUNK = 64
PATHS = ("c", "solve", "solve_many", "lines", "line")
SUMMARY: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def summary(request):  # type: ignore[no-untyped-def]
    yield
    write_summary(request, "binding overhead (ms per position, median over rounds; C core alone for scale):",
                  SUMMARY)


class Round:
    """One round's positions in every form a path takes."""

    def __init__(self, seed: str) -> None:
        requests = batch_requests(POSITIONS_PER_ROUND, seed)
        self.lines = [json.dumps(r) for r in requests]
        self.positions: list[Position] = [start_position(read_request(r)) for r in requests]
        self.structs = ffi.new("pdd_position[]", [to_c_position(p)[0] for p in self.positions])
        self.values = ffi.new("int32_t[]", len(self.positions))

    def run(self, path: str, solver: Solver) -> list[int]:
        n = len(self.positions)
        if path == "c":
            assert lib.pdd_solve_many(solver._handle, self.structs, n, self.values) == lib.PDD_OK
            return list(self.values)
        if path == "solve":
            return [solver.solve(p) for p in self.positions]
        if path == "solve_many":
            return solver.solve_many(self.positions)
        if path == "lines":
            answers = [a for k in range(0, n, CHUNK) for a in evaluate_lines(self.lines[k:k + CHUNK], solver)]
        else:
            answers = [evaluate_line(line, solver) for line in self.lines]
        return [json.loads(a)["declarer_tricks"] for a in answers]


def timed(run: Callable[[], list[int]]) -> tuple[float, list[int]]:
    """The CPU time of this thread (the C search runs on it too): on a
    machine shared with other work, steadier than the wall clock."""
    start = time.thread_time()
    values = run()
    return time.thread_time() - start, values


def test_binding_overhead(benchmark) -> None:  # type: ignore[no-untyped-def]
    rounds = iter([Round(f"binding-{k}") for k in range(ROUNDS)])
    solver = Solver()
    per = {(path, table): [] for path in PATHS for table in ("cold", "warm")}

    turn = iter(range(ROUNDS))

    def one_round() -> None:
        job = next(rounds)
        n = len(job.positions)
        expected = None
        k = next(turn)
        for path in PATHS[k % len(PATHS):] + PATHS[:k % len(PATHS)]:   # each path first in turn
            solver.set_options(OPT_ALL)   # clears the table: every path does the same searches
            solver.reset_stats()
            cold, values = timed(lambda: job.run(path, solver))
            nodes = solver.stats().nodes
            warm, again = timed(lambda: job.run(path, solver))
            expected = expected or (values, nodes)
            assert (values, nodes) == expected and again == values, path
            per[path, "cold"].append(cold / n)
            per[path, "warm"].append(warm / n)

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    for table in ("cold", "warm"):
        core = [per["c", table][k] for k in range(ROUNDS)]
        cells = [f"C core {statistics.median(core) * 1e3:.4f}"]
        for path in PATHS[1:]:
            over = statistics.median(per[path, table][k] - core[k] for k in range(ROUNDS))
            benchmark.extra_info[f"{path}_{table}_overhead_ms"] = round(over * 1e3, 4)
            cells.append(f"{path} +{over * 1e3:.4f}")
        benchmark.extra_info[f"c_{table}_ms"] = round(statistics.median(core) * 1e3, 4)
        SUMMARY.append(f"{table:<5} " + "  ".join(cells))
    SUMMARY.append(f"({ROUNDS} rounds of {POSITIONS_PER_ROUND} fresh full deals; overhead = path - C core, "
                   "per position)")
