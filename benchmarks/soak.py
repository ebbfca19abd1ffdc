"""A bounded soak of the gRPC service: ``prefdd serve`` on 127.0.0.1 and 8
client threads making mixed calls for a fixed time, then a summary.

    .venv/bin/python benchmarks/soak.py [--seconds 90] [--clients 8] [--json FILE]

Loopback only; it stops by itself (60-180 s). Not part of ``make test``.
It records the calls and errors by status, the p50/p99 latency per method,
and the server's resident memory (``VmRSS``) after a warm-up and at the end,
with its scoring processes counted apart. RESOURCE_EXHAUSTED answers of the
documented limits (``max_advice_runs``: two advice runs at once) are counted
as such, not as errors.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

import grpc

from service.client import AnalysisClient, BatchItem, ServiceError

ROOT = Path(__file__).resolve().parent.parent

ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"
FULL_DEALS = ["AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"]
DEAL_INPUT = {"type": "contract", "players": ["A", "B", "C"], "declarer": "A", "contract": 6,
              "defenders": ["B", "C"], "decisions": {"B": "whist", "C": "pass"}, "tricks": {"A": 6, "B": 4, "C": 0}}
DOCUMENTED_LIMITS = ("max_advice_runs",)
CALL_TIMEOUT = 60.0


def random_deal(rng: random.Random) -> str:
    from solver import Card, Deal, Hand

    cards = rng.sample(range(32), 32)
    hands = [Hand.from_cards(Card.from_index(i) for i in cards[k * 10:(k + 1) * 10]) for k in range(3)]
    return str(Deal(tuple(hands), Hand.from_cards(Card.from_index(i) for i in cards[30:])))  # type: ignore[arg-type]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def children_rss_kib(pid: int) -> int:
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split() if (task / "children").exists() else []
        total += sum(rss_kib(int(child)) for child in children)
    return total


def calls(rng: random.Random) -> list[tuple[str, int, Callable[[AnalysisClient], Any]]]:
    """(method, weight, call) of the mix."""
    deals = [random_deal(rng) for _ in range(16)] + FULL_DEALS
    return [
        ("Solve/endgame", 30, lambda c: c.solve(ENDGAME, "6nt", 0, card_values=True, best_line=True)),
        ("Solve/full", 10, lambda c: c.solve(rng.choice(deals), rng.choice(["6s", "7h", "misere", "6nt"]),
                                             rng.randrange(3), card_values=True)),
        ("EvaluateBatch", 10, lambda c: list(c.evaluate_batch(
            [BatchItem(rng.choice(deals), rng.choice(["6c", "misere", "8d"]), rng.randrange(3), id=str(i))
             for i in range(20)]))),
        ("Score", 15, lambda c: c.score("sochi", "deal", DEAL_INPUT)),
        ("AnalyzeDeal", 10, lambda c: c.analyze_deal(ENDGAME, "6nt", 0, convention="sochi")),
        ("AdviseWhist", 5, lambda c: c.advise_whist(".T.A7.", "..K.8", "6s", 1, 2, other_decision="pass",
                                                    unseen="7.K.J.AK9", prior_tricks=(1, 4, 2))),
        ("Enumerate", 5, lambda c: c.enumerate_splits("AQ.K..K", 1, ["6s"], defenders="KJ7.A.A.AQ8",
                                                      prior_tricks=(2, 3, 1))),
        ("Health", 15, lambda c: c.health()),
    ]


def client_loop(port: int, seed: int, stop: float, record: Callable[[str, float, str], None]) -> None:
    rng = random.Random(seed)
    mix = calls(rng)
    weights = [weight for _, weight, _ in mix]
    with AnalysisClient(f"127.0.0.1:{port}", timeout=CALL_TIMEOUT) as client:
        while time.monotonic() < stop:
            name, _, call = rng.choices(mix, weights)[0]
            started = time.perf_counter()
            status = "OK"
            try:
                call(client)
            except ServiceError as error:
                limited = error.code == grpc.StatusCode.RESOURCE_EXHAUSTED and any(
                    limit in error.message for limit in DOCUMENTED_LIMITS)
                status = f"{error.code.name} (documented limit)" if limited else error.code.name
            record(name, time.perf_counter() - started, status)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=90.0, help="soak time, 60-180 (default 90)")
    parser.add_argument("--clients", type=int, default=8, help="client threads (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="server solver workers (default 2)")
    parser.add_argument("--json", type=Path, help="also write the summary here")
    args = parser.parse_args(argv)
    seconds = min(180.0, max(60.0, args.seconds))
    server = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "serve", "--host", "127.0.0.1", "--port", "0",
         "--workers", str(args.workers)],
        stderr=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert server.stderr is not None
    port = 0
    for line in server.stderr:
        entry = json.loads(line)
        if entry.get("event") == "listening":
            port = entry["port"]
            break
    warnings: list[str] = []

    def read_log() -> None:  # the server's warnings and errors, but the documented limits
        for line in server.stderr:  # type: ignore[union-attr]
            entry = json.loads(line)
            documented = any(limit in str(entry.get("message", "")) for limit in DOCUMENTED_LIMITS)
            if entry.get("level") not in ("info", "debug") and not documented:
                warnings.append(line.strip())
    threading.Thread(target=read_log, daemon=True).start()

    latencies: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, Counter[str]] = defaultdict(Counter)
    lock = threading.Lock()

    def record(name: str, elapsed: float, status: str) -> None:
        with lock:
            latencies[name].append(elapsed)
            statuses[name][status] += 1

    # Warm-up (tables allocated, scoring processes started), then the soak.
    warm_stop = time.monotonic() + 5
    warm = [threading.Thread(target=client_loop, args=(port, 1000 + i, warm_stop, lambda *a: None))
            for i in range(args.clients)]
    for thread in warm:
        thread.start()
    for thread in warm:
        thread.join()
    rss_start, children_start = rss_kib(server.pid), children_rss_kib(server.pid)
    began = time.monotonic()
    stop = began + seconds
    threads = [threading.Thread(target=client_loop, args=(port, i, stop, record)) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    middle = []
    while any(thread.is_alive() for thread in threads):
        time.sleep(5)
        middle.append(rss_kib(server.pid))
    elapsed = time.monotonic() - began
    rss_end, children_end = rss_kib(server.pid), children_rss_kib(server.pid)
    server.send_signal(signal.SIGTERM)
    exit_status = server.wait(timeout=60)

    total = sum(sum(counter.values()) for counter in statuses.values())
    errors = Counter()
    for counter in statuses.values():
        for status, count in counter.items():
            if status != "OK":
                errors[status] += count
    summary = {
        "seconds": round(elapsed, 1), "clients": args.clients, "server_workers": args.workers,
        "cpus": os.cpu_count(), "load_average_at_end": round(os.getloadavg()[0], 1), "calls": total, "calls_per_second": round(total / elapsed, 1),
        "errors": dict(errors),
        "methods": {name: {"calls": len(values), "p50_ms": round(1000 * statistics.median(values), 2),
                           "p99_ms": round(1000 * percentile(values, 0.99), 2),
                           "statuses": dict(statuses[name])}
                    for name, values in sorted(latencies.items())},
        "server_rss_mib": {"start": round(rss_start / 1024, 1), "end": round(rss_end / 1024, 1),
                           "max_during": round(max(middle, default=rss_end) / 1024, 1)},
        "score_processes_rss_mib": {"start": round(children_start / 1024, 1), "end": round(children_end / 1024, 1)},
        "server_exit_status": exit_status,
        "server_warnings": warnings[:20],
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    unexpected = {status: count for status, count in errors.items() if "documented limit" not in status}
    return 1 if unexpected or exit_status != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
