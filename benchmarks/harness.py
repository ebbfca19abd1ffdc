"""The per-round harness of the solver and analysis benchmarks: each round
does one job (a position, a deal) with one reused Solver, so pytest-benchmark's
statistics are per job; the p99, nodes per job and table hit rate go to
``extra_info`` and are printed by conftest.py at the end of the run."""
from __future__ import annotations

import time
from typing import Any, Callable, Sequence

from sets import BenchSet
from solver import Solver


def run_rounds(benchmark: Any, solver: Solver, jobs: Sequence[Any],
               work: Callable[[Solver, Any], object]) -> None:
    pending = iter(jobs)
    times: list[float] = []

    def one() -> None:
        job = next(pending)
        start = time.perf_counter()
        work(solver, job)
        times.append(time.perf_counter() - start)

    solver.reset_stats()
    benchmark.pedantic(one, rounds=len(jobs), iterations=1, warmup_rounds=0)
    stats = solver.stats()
    times.sort()
    benchmark.extra_info.update({
        "solves": len(times),
        "mean_ms": round(sum(times) / len(times) * 1e3, 4),
        "p99_ms": round(times[max(0, int(0.99 * len(times)) - 1)] * 1e3, 3),
        "nodes_per_solve": round(stats.nodes / len(times)),
        "tt_hit_rate": round(stats.tt_hits / max(1, stats.tt_probes), 3),
    })


def run_set(benchmark: Any, bench: BenchSet) -> None:
    """One of the seeded sets of sets.py, one job a round."""
    run_rounds(benchmark, bench.solver(), bench.jobs(), bench.work)


def write_summary(request, title: str, lines: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Print a module's numbers at the end of the run under ``title``
    (pytest-benchmark keeps extra_info only in its JSON)."""
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None or not lines:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        reporter.write_line(title)
        for line in lines:
            reporter.write_line("  " + line)
