"""Batches on a Dask LocalCluster (``prefdd batch --dask local:N``) against
the in-process batch on the same positions, 127.0.0.1 only.

Each round takes fresh random full deals (mixed contracts, random declarer)
and answers them four ways, one after the other so all see the same machine:
in process on 1 thread (``prefdd batch``) and on 2 (``--workers 2``), and on
a cluster of 1 and of 2 worker processes of one thread each
(:func:`solver.distributed.submit_batch`, answers in order). Target: each
cluster's rate at least 80 % of the in-process rate with as many threads
(at most 20 % overhead per worker). The CPU time of this process and the
worker processes per position is printed too: on a shared machine it is the
steadier measure of what the cluster adds.

Bounded: 3 rounds of 2,000 positions each way, two clusters stopped at the end.

    make bench          # or: .venv/bin/pytest benchmarks/test_bench_distributed.py --benchmark-only
"""
from __future__ import annotations

import json
import os
import time
from typing import Iterator

import pytest

from harness import write_summary

from deals import batch_requests
from solver.cli import BATCH_CHUNK, batch_answers

distributed = pytest.importorskip("distributed")
from solver import distributed as sd  # noqa: E402

ROUNDS = 3
POSITIONS_PER_ROUND = 2000
SUMMARY: list[str] = []


def batch_lines(count: int, seed: str) -> list[str]:
    return [json.dumps(request) for request in batch_requests(count, seed)]


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by this process and ``pids`` (Linux /proc)."""
    total = time.process_time()
    for pid in pids:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@pytest.fixture(scope="module", autouse=True)
def print_summary(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    write_summary(request, "Dask LocalCluster batches (loopback, worker processes of 1 thread):", SUMMARY)


@pytest.fixture(scope="module")
def clusters() -> Iterator[dict[int, object]]:
    with sd.local_cluster(1) as one, sd.local_cluster(2) as two, \
            distributed.Client(one) as client_one, distributed.Client(two) as client_two:
        client_two.wait_for_workers(2, timeout=120)
        yield {1: client_one, 2: client_two}


def test_batch_throughput_on_a_cluster(benchmark, clusters) -> None:  # type: ignore[no-untyped-def]
    rounds = iter([batch_lines(POSITIONS_PER_ROUND, f"dask-round-{k}") for k in range(ROUNDS)])
    pids = {n: list(client.run(os.getpid).values()) for n, client in clusters.items()}
    names = ("in_process_1", "dask_1", "in_process_2", "dask_2")
    elapsed = dict.fromkeys(names, 0.0)
    cpu = dict.fromkeys(names, 0.0)

    def run(name: str, lines: list[str]) -> list[str]:
        workers = int(name[-1])
        if name.startswith("in_process"):
            return [answer for chunk in batch_answers(lines, workers, BATCH_CHUNK) for answer in chunk]
        return [r.answer for r in sd.submit_batch(clusters[workers], lines)]  # type: ignore[misc]

    def one_round() -> None:
        lines = next(rounds)
        answers = {}
        for name in names:
            watched = pids[int(name[-1])] if name.startswith("dask") else []
            start, cpu_start = time.perf_counter(), cpu_seconds(watched)
            answers[name] = run(name, lines)
            elapsed[name] += time.perf_counter() - start
            cpu[name] += cpu_seconds(watched) - cpu_start
        assert all(answer == answers["in_process_1"] for answer in answers.values())

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    positions = ROUNDS * POSITIONS_PER_ROUND
    rates = {name: positions / seconds for name, seconds in elapsed.items()}
    cost = {name: seconds / positions * 1e3 for name, seconds in cpu.items()}
    ratios = {n: rates[f"dask_{n}"] / rates[f"in_process_{n}"] for n in (1, 2)}
    benchmark.extra_info.update({"positions": positions, **{f"{k}_per_s": round(v, 1) for k, v in rates.items()},
                                 **{f"{k}_cpu_ms": round(v, 3) for k, v in cost.items()},
                                 **{f"ratio_{n}": round(v, 3) for n, v in ratios.items()}})
    SUMMARY.append(f"{positions} full deals each way, positions/s: " + ", ".join(
        f"{name} {rate:.0f}" for name, rate in rates.items()))
    SUMMARY.append(f"  cluster / in process: 1 worker {ratios[1]:.0%}, 2 workers {ratios[2]:.0%} (target >= 80%)")
    SUMMARY.append("  CPU ms per position (this process + workers): " + ", ".join(
        f"{name} {value:.2f}" for name, value in cost.items()))
