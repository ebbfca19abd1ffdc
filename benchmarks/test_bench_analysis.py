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

import threading
import time

import solver.analysis.table as table_module
from harness import run_set
from sets import SETS
from solver.analysis import discard_table


def test_deal_table_with_best_discards(benchmark) -> None:
    run_set(benchmark, SETS["deal's table with best discards"])


def test_deal_table_two_threads(benchmark, monkeypatch) -> None:
    """The same deals' tables on two threads (``workers=2``), each round's
    deal also solved on one thread just before (untimed by the benchmark, timed
    here), so the two ways alternate deal by deal under the same load. The
    answers must be equal. Each search's CPU time is summed by thread too:
    the busier thread's share is what two idle cores would take, whatever
    the load."""
    bench = SETS["deal's table with best discards"]
    deals = iter(bench.jobs())
    single, threaded = bench.solver(), bench.solver()
    current: list = []
    wall: dict[str, float] = {"one": 0.0, "two": 0.0}
    cpu: dict[str, float] = {"one": 0.0, "two": 0.0, "busier": 0.0}
    by_thread: dict[int, float] = {}
    search = table_module.best_discard

    def timed_search(*args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.thread_time()
        try:
            return search(*args, **kwargs)
        finally:
            ident = threading.get_ident()
            by_thread[ident] = by_thread.get(ident, 0.0) + time.thread_time() - start

    monkeypatch.setattr(table_module, "best_discard", timed_search)

    def setup() -> None:
        deal = next(deals)
        by_thread.clear()
        start = time.perf_counter()
        current[:] = [deal, discard_table(deal, solver=single)]
        wall["one"] += time.perf_counter() - start
        cpu["one"] += sum(by_thread.values())
        by_thread.clear()

    def threaded_table() -> None:
        start = time.perf_counter()
        table = discard_table(current[0], solver=threaded, workers=2)
        wall["two"] += time.perf_counter() - start
        assert table == current[1]

    def teardown() -> None:
        cpu["two"] += sum(by_thread.values())
        cpu["busier"] += max(by_thread.values())

    rounds = len(bench.jobs())
    benchmark.pedantic(threaded_table, setup=setup, teardown=teardown, rounds=rounds, iterations=1)
    def per_table(seconds: float) -> float:
        return round(seconds / rounds * 1e3, 3)

    benchmark.extra_info.update({"two_threads_mean_ms": per_table(wall["two"]),
                                 "one_thread_mean_ms": per_table(wall["one"]),
                                 "speed_up": round(wall["one"] / wall["two"], 2),
                                 **{f"cpu_{name}_ms": per_table(cpu[key]) for name, key in
                                    (("one_thread", "one"), ("two_threads", "two"), ("busier_thread", "busier"))}})


def test_best_discard_all_tricks(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, tricks"])


def test_best_discard_all_misere(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, misere"])


def test_allpass_player_value(benchmark) -> None:
    run_set(benchmark, SETS["all-pass player value"])


def test_allpass_maxn_line(benchmark) -> None:
    run_set(benchmark, SETS["all-pass max^n line"])
