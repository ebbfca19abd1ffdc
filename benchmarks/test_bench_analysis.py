"""Whole-deal analysis speed, one thread, seeded random full deals (sets.py).

* the deal's table with best discards: every seat as declarer, 5 strains and
  misère, one best discard each (18 best-discard searches per deal); and the
  same on two threads against one, alternating deal by deal;
* one best-discard search listing every best discard, trick contracts and
  misère apart;
* the all-pass per-player value (paranoid), talon leads on;
* the all-pass max^n line (outcome and line), talon leads on.

Each round is one deal (or one deal and player) never seen before by the
reused Solver, so the mean is per deal. Targets: table ≤ 50 ms, all-pass value
≤ 5 ms. The max^n line has no target; its memo hashes the whole key, without
which some deals took seconds (README.md, "Decisions that shaped the search").
"""
from __future__ import annotations

import time

from harness import run_set
from sets import SETS
from solver.analysis import discard_table


def test_deal_table_with_best_discards(benchmark) -> None:
    run_set(benchmark, SETS["deal's table with best discards"])


def test_deal_table_two_threads(benchmark) -> None:
    """The same deals' tables on two threads (``workers=2``), each round's
    deal also solved on one thread just before (untimed by the benchmark, timed
    here), so the two ways alternate deal by deal under the same load. The
    answers must be equal."""
    bench = SETS["deal's table with best discards"]
    deals = iter(bench.jobs())
    single, threaded = bench.solver(), bench.solver()
    current: list = []
    one_thread: list[float] = []
    two_threads: list[float] = []

    def setup() -> None:
        deal = next(deals)
        start = time.perf_counter()
        current[:] = [deal, discard_table(deal, solver=single)]
        one_thread.append(time.perf_counter() - start)

    def threaded_table() -> None:
        start = time.perf_counter()
        table = discard_table(current[0], solver=threaded, workers=2)
        two_threads.append(time.perf_counter() - start)
        assert table == current[1]

    benchmark.pedantic(threaded_table, setup=setup, rounds=len(bench.jobs()), iterations=1)
    mean_one, mean_two = (sum(t) / len(t) * 1e3 for t in (one_thread, two_threads))
    benchmark.extra_info.update({"two_threads_mean_ms": round(mean_two, 3),
                                 "one_thread_mean_ms": round(mean_one, 3),
                                 "speed_up": round(mean_one / mean_two, 2)})


def test_best_discard_all_tricks(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, tricks"])


def test_best_discard_all_misere(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, misere"])


def test_allpass_player_value(benchmark) -> None:
    run_set(benchmark, SETS["all-pass player value"])


def test_allpass_maxn_line(benchmark) -> None:
    run_set(benchmark, SETS["all-pass max^n line"])
