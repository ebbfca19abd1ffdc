"""The gRPC service under a bounded load on loopback (127.0.0.1 only).

* ``EvaluateBatch`` throughput: positions per second of a `prefdd serve
  --workers 2` process fed one stream by the typed client, against the
  in-process batch rate (``prefdd batch --workers 2 FILE``'s own code path,
  ``solver.cli.batch_answers``) on the same positions, the two run
  alternately. Target: ≥ 80 %.
* ``Solve`` latency under 8 concurrent clients (threads, one channel each,
  sequential calls): p50 and p99.

The cores are shared with the client (and, on a developer's machine, with
whatever else runs), so wall-clock rates are noisy; the CPU time per position
(this process plus the server process) is the steadier measure of the
service's overhead.

Every round uses positions not seen before (fresh random full deals), so
the server's long-lived workers profit from no table warmed by an earlier
round (``batch_answers`` starts fresh threads, so fresh tables, each time).
Bounded: a few thousand positions and a few hundred calls, one server process
that is stopped at the end.

    make bench          # or: .venv/bin/pytest benchmarks/test_bench_service.py --benchmark-only
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator
from urllib.parse import urlsplit

import pytest

from harness import write_summary

from deals import batch_requests
from solver.analysis.batch import evaluate
from solver.api import thread_solver
from solver.cli import BATCH_CHUNK, batch_answers

pytest.importorskip("grpc")
from service.client import AnalysisClient, BatchItem  # noqa: E402

WORKERS = 2
ROUNDS = 3
POSITIONS_PER_ROUND = 1500
LATENCY_CLIENTS = 8
CALLS_PER_CLIENT = 25
SUMMARY: list[str] = []


def to_item(request: dict) -> BatchItem:
    return BatchItem(request["deal"], request["contract"], request["declarer"], leader=request["leader"],
                     id=request["id"])


class ServeProcess:
    """``prefdd serve`` on 127.0.0.1 and a free port, for one module
    (``http_port``: the HTTP API's, when ``--http-port`` is among ``args``)."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "serve", "--host", "127.0.0.1", "--port", "0", *args],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        assert self.process.stderr is not None
        for line in self.process.stderr:
            entry = json.loads(line)
            if entry.get("event") == "listening":
                self.port = int(entry["port"])
                self.http_port = urlsplit(entry["http"]).port if entry.get("http") else None
                break
        else:
            raise RuntimeError("prefdd serve did not start")
        # Drain the per-call log lines so the pipe never fills.
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()  # type: ignore[union-attr]

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module", autouse=True)
def print_summary(request: pytest.FixtureRequest) -> Iterator[None]:
    """The service numbers at the end of the module (pytest-benchmark keeps
    extra_info only in its JSON)."""
    yield
    write_summary(request, f"gRPC service (loopback, --workers {WORKERS}):", SUMMARY)


@pytest.fixture(scope="module")
def server() -> Iterator[ServeProcess]:
    process = ServeProcess("--workers", str(WORKERS))
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def client(server: ServeProcess) -> Iterator[AnalysisClient]:
    with AnalysisClient(f"127.0.0.1:{server.port}", timeout=600) as connected:
        connected.wait_until_ready()
        yield connected


def in_process_round(requests: list[dict]) -> int:
    """``prefdd batch --workers 2``'s code path on JSON lines."""
    lines = [json.dumps(r) for r in requests]
    answers = [json.loads(a) for chunk in batch_answers(lines, WORKERS, BATCH_CHUNK) for a in chunk]
    assert all("declarer_tricks" in a for a in answers)
    return len(answers)


def in_process_unordered_round(requests: list[dict]) -> int:
    """``solver.analysis.batch.evaluate`` on WORKERS fresh threads, every
    request queued at once: no JSON, no head-of-line blocking; the upper bound."""
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        answers = list(pool.map(lambda request: evaluate(request, thread_solver()), requests))
    assert all("declarer_tricks" in a for a in answers)
    return len(answers)


def grpc_round(client: AnalysisClient, requests: list[dict]) -> int:
    results = list(client.evaluate_batch(to_item(r) for r in requests))
    assert all(r.ok for r in results)
    return len(results)


def process_cpu(server_pid: int) -> float:
    """CPU seconds used so far by this process and the server process with
    its live child processes (its HTTP processes, say; Linux /proc)."""
    return time.process_time() + _tree_cpu(server_pid)


def _tree_cpu(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        children = [int(child) for task in os.listdir(f"/proc/{pid}/task")
                    for child in open(f"/proc/{pid}/task/{task}/children", encoding="ascii").read().split()]
    except OSError:  # it has just ended
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") + sum(_tree_cpu(c) for c in children)


def alternate(benchmark, server_pid: int, chunks, runs, elapsed: dict, cpu: dict) -> None:  # type: ignore[no-untyped-def]
    """ROUNDS rounds; each runs the next chunk of requests through every way
    of ``runs`` in turn, adding up each way's wall time and CPU time (this
    process and the server's)."""
    def one_round() -> None:
        requests = next(chunks)
        for name, run in runs:
            start, cpu_start = time.perf_counter(), process_cpu(server_pid)
            assert run(requests) == len(requests)
            elapsed[name] += time.perf_counter() - start
            cpu[name] += process_cpu(server_pid) - cpu_start

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1, warmup_rounds=0)


def test_batch_throughput(benchmark, server: ServeProcess,  # type: ignore[no-untyped-def]
                          client: AnalysisClient) -> None:
    """Each round runs the same fresh positions in process and through the
    server, one after the other, so both see the same machine (the cores are
    shared with the client and with whatever else runs)."""
    chunks = iter([batch_requests(POSITIONS_PER_ROUND, f"round-{k}") for k in range(ROUNDS)])
    elapsed = {"in_process": 0.0, "in_process_unordered": 0.0, "grpc": 0.0}
    cpu = dict.fromkeys(elapsed, 0.0)
    runs = (("in_process", in_process_round), ("in_process_unordered", in_process_unordered_round),
            ("grpc", lambda r: grpc_round(client, r)))

    alternate(benchmark, server.process.pid, chunks, runs, elapsed, cpu)
    positions = ROUNDS * POSITIONS_PER_ROUND
    rates = {name: positions / seconds for name, seconds in elapsed.items()}
    ratio = rates["grpc"] / rates["in_process"]
    bound = rates["grpc"] / rates["in_process_unordered"]
    benchmark.extra_info.update({"positions": positions, **{f"{k}_per_s": round(v, 1) for k, v in rates.items()},
                                 "ratio": round(ratio, 3), "ratio_to_unordered": round(bound, 3)})
    SUMMARY.append(f"EvaluateBatch ({positions} full deals each way), positions/s: gRPC {rates['grpc']:.0f}, "
                   f"prefdd batch in process {rates['in_process']:.0f}, unordered in process "
                   f"{rates['in_process_unordered']:.0f}")
    SUMMARY.append(f"  gRPC / prefdd batch: {ratio:.0%} (target >= 80%); gRPC / unordered: {bound:.0%}")
    cost = {name: seconds / positions * 1e3 for name, seconds in cpu.items()}
    benchmark.extra_info.update({f"{k}_cpu_ms_per_position": round(v, 3) for k, v in cost.items()})
    SUMMARY.append("  CPU ms per position (client and server together): " + ", ".join(
        f"{name} {value:.2f}" for name, value in cost.items())
        + f"; in-process / gRPC cost: {cost['in_process_unordered'] / cost['grpc']:.0%}")


def test_solve_latency_8_clients(benchmark, server: ServeProcess) -> None:  # type: ignore[no-untyped-def]
    requests = batch_requests(LATENCY_CLIENTS * CALLS_PER_CLIENT, "latency")
    latencies: list[float] = []
    lock = threading.Lock()

    def client_thread(mine: list[dict]) -> None:
        with AnalysisClient(f"127.0.0.1:{server.port}", timeout=600) as own:
            own.wait_until_ready()
            for request in mine:
                start = time.perf_counter()
                own.solve(request["deal"], request["contract"], request["declarer"])
                with lock:
                    latencies.append(time.perf_counter() - start)

    def one_round() -> None:
        threads = [threading.Thread(target=client_thread, args=(requests[k::LATENCY_CLIENTS],))
                   for k in range(LATENCY_CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    benchmark.pedantic(one_round, rounds=1, iterations=1, warmup_rounds=0)
    assert len(latencies) == len(requests)
    latencies.sort()
    benchmark.extra_info.update({
        "calls": len(latencies),
        "p50_latency_ms": round(latencies[len(latencies) // 2] * 1e3, 2),
        "p99_latency_ms": round(latencies[max(0, int(0.99 * len(latencies)) - 1)] * 1e3, 2),
        "calls_per_s": round(len(latencies) / benchmark.stats.stats.total, 1),
    })
    info = benchmark.extra_info
    SUMMARY.append(f"Solve, {LATENCY_CLIENTS} concurrent clients, {info['calls']} calls: p50 "
                   f"{info['p50_latency_ms']} ms, p99 {info['p99_latency_ms']} ms, {info['calls_per_s']} calls/s")
