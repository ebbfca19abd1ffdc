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

import solver.analysis.table as table_module
from harness import run_set
from sets import SETS
from solver.analysis import discard_table


def test_deal_table_with_best_discards(benchmark) -> None:
    run_set(benchmark, SETS["deal's table with best discards"])


def test_deal_table_two_threads(benchmark) -> None:
    """The same deals' tables on two threads (``workers=2``), each round's
    deal also solved on one thread just before (untimed by the benchmark, timed
    here), so the two ways alternate deal by deal under the same load. The
    answers must be equal. The CPU time of the process is summed for each
    way, and the nodes by solver: the busier solver's share of the one-thread
    nodes is what two idle cores would take, whatever the load."""
    bench = SETS["deal's table with best discards"]
    deals = iter(bench.jobs())
    single, threaded = bench.solver(), bench.solver()
    partner = table_module.PARTNERS.take(1)[0]   # the second thread's solver: given back, the next one taken
    table_module.PARTNERS.give_back([partner])
    current: list = []
    wall: dict[str, float] = {"one": 0.0, "two": 0.0}
    cpu: dict[str, float] = {"one": 0.0, "two": 0.0}
    nodes: dict[str, int] = {"one": 0, "two": 0, "busier": 0}
    before: list[int] = []

    def setup() -> None:
        deal = next(deals)
        start, ticks, n = time.perf_counter(), time.process_time(), single.stats().nodes
        current[:] = [deal, discard_table(deal, solver=single)]
        wall["one"] += time.perf_counter() - start
        cpu["one"] += time.process_time() - ticks
        nodes["one"] += single.stats().nodes - n
        before[:] = [threaded.stats().nodes, partner.stats().nodes, time.process_time()]

    def threaded_table() -> None:
        start = time.perf_counter()
        table = discard_table(current[0], solver=threaded, workers=2)
        wall["two"] += time.perf_counter() - start
        assert table == current[1]

    def teardown() -> None:
        cpu["two"] += time.process_time() - before[2]
        done = (threaded.stats().nodes - before[0], partner.stats().nodes - before[1])
        nodes["two"] += sum(done)
        nodes["busier"] += max(done)

    rounds = len(bench.jobs())
    benchmark.pedantic(threaded_table, setup=setup, teardown=teardown, rounds=rounds, iterations=1)

    def per_table(seconds: float) -> float:
        return round(seconds / rounds * 1e3, 3)

    benchmark.extra_info.update({"two_threads_mean_ms": per_table(wall["two"]),
                                 "one_thread_mean_ms": per_table(wall["one"]),
                                 "speed_up": round(wall["one"] / wall["two"], 2),
                                 "cpu_one_thread_ms": per_table(cpu["one"]),
                                 "cpu_two_threads_ms": per_table(cpu["two"]),
                                 "nodes_one_thread": nodes["one"] // rounds,
                                 "nodes_two_threads": nodes["two"] // rounds,
                                 "busier_share": round(nodes["busier"] / nodes["one"], 3)})


def test_best_discard_all_tricks(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, tricks"])


def test_best_discard_all_misere(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, misere"])


def test_allpass_player_value(benchmark) -> None:
    run_set(benchmark, SETS["all-pass player value"])


def test_allpass_maxn_line(benchmark) -> None:
    run_set(benchmark, SETS["all-pass max^n line"])
