"""The JSON API's ``POST /api/v1/solve`` under a bounded load on loopback (127.0.0.1 only).

Positions per second of ``prefdd serve --no-grpc --http-port 0 --workers 2
--http-processes 2`` (two HTTP processes, one solver each: the same two
solvers as the in-process batch), fed by CLIENTS threads each holding one
keep-alive connection and posting one batch request object per call, against
the in-process batch rate (``prefdd batch --workers 2 FILE``'s code path,
``solver.cli.batch_answers``) on the same fresh positions, the ways
run alternately. Target: ≥ 80 %. The same server with HTTP in its own process
(``--http-processes 1``, the default, on the pool gRPC uses) is measured by
``wrk`` alongside, for reference.

The Python client threads share the two cores with the server, and
``http.client`` costs about as much CPU per call as the server does, so the
same positions are also sent by ``wrk`` (Debian's HTTP load generator, in C;
skipped where it is not installed), which measures what the server itself
can serve. The CPU time per position (this process plus the server's) is
reported too.

    make bench          # or: .venv/bin/pytest benchmarks/test_bench_web.py --benchmark-only
"""
from __future__ import annotations

import http.client
import json
import os
import re
import resource
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from harness import write_summary

from deals import batch_requests
from test_bench_service import WORKERS, ServeProcess, alternate, in_process_round, process_cpu

pytest.importorskip("uvicorn")

ROUNDS = 3
POSITIONS_PER_ROUND = 1500
CLIENTS = 4
SUMMARY: list[str] = []


HTTP_PROCESSES = 2


@pytest.fixture(scope="module")
def server() -> Iterator[ServeProcess]:
    process = ServeProcess("--no-grpc", "--http-port", "0", "--workers", str(WORKERS),
                           "--http-processes", str(HTTP_PROCESSES))
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def one_process_server() -> Iterator[ServeProcess]:
    process = ServeProcess("--no-grpc", "--http-port", "0", "--workers", str(WORKERS))
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module", autouse=True)
def print_summary(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    write_summary(request, f"HTTP/JSON API (loopback, --workers {WORKERS} --http-processes {HTTP_PROCESSES}, "
                           f"{CLIENTS} keep-alive connections):", SUMMARY)


def http_round(port: int, requests: list[dict]) -> int:
    answers: list[dict] = []
    lock = threading.Lock()

    def client(mine: list[dict]) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        got = []
        for request in mine:
            connection.request("POST", "/api/v1/solve", body=json.dumps(request),
                               headers={"content-type": "application/json"})
            response = connection.getresponse()
            got.append(json.loads(response.read()))
            assert response.status == 200
        connection.close()
        with lock:
            answers.extend(got)

    threads = [threading.Thread(target=client, args=(requests[k::CLIENTS],)) for k in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all("declarer_tricks" in a for a in answers)
    return len(answers)


WRK_SCRIPT = """
local bodies = {}
for line in io.lines(os.getenv("PREFDD_BODIES")) do bodies[#bodies + 1] = line end
local sent = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  sent = sent % #bodies + 1
  return wrk.format(nil, "/api/v1/solve", nil, bodies[sent])
end
"""
WRK_POSITIONS = 10_000
WRK_SECONDS = 4
"""wrk sends for a fixed time: at about 1,500 positions/s, 4 s use 6,000 of the
10,000 fresh positions, so none is sent twice (a repeat would find a warm table)."""


def wrk_round(server: ServeProcess, requests: list[dict], folder: Path) -> tuple[float, float]:
    """Positions per second that ``wrk`` (one thread, CLIENTS connections) gets
    answered in WRK_SECONDS, each position sent once, and the CPU ms per
    position of the server (its process tree) and wrk together."""
    bodies, script = folder / "bodies.jsonl", folder / "solve.lua"
    bodies.write_text("".join(json.dumps(r) + "\n" for r in requests))
    script.write_text(WRK_SCRIPT)
    port = server.http_port
    own, children = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_start = process_cpu(server.process.pid) - own
    done = subprocess.run(["wrk", "-t1", f"-c{CLIENTS}", f"-d{WRK_SECONDS}s", "-s", str(script), f"http://127.0.0.1:{port}/"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PREFDD_BODIES": str(bodies)})
    server_cpu = process_cpu(server.process.pid) - time.process_time() - cpu_start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    assert done.returncode == 0, done.stderr
    match, sent = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout), re.search(r"(\d+) requests in", done.stdout)
    assert match and sent and "Non-2xx" not in done.stdout, done.stdout
    return float(match.group(1)), (server_cpu + wrk_cpu) / int(sent.group(1)) * 1e3


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed (apt-get install wrk)")
def test_api_solve_throughput_wrk(benchmark, server: ServeProcess, one_process_server: ServeProcess,  # type: ignore[no-untyped-def]
                                  tmp_path: Path) -> None:
    chunks = iter([batch_requests(WRK_POSITIONS, f"wrk-round-{k}") for k in range(ROUNDS)])
    rates: dict[str, list[float]] = {"in_process": [], "wrk": [], "wrk_one_process": []}
    cost: dict[str, list[float]] = {name: [] for name in rates}

    def one_round() -> None:
        requests = next(chunks)
        start, cpu_start = time.perf_counter(), time.process_time()
        assert in_process_round(requests) == len(requests)
        rates["in_process"].append(len(requests) / (time.perf_counter() - start))
        cost["in_process"].append((time.process_time() - cpu_start) / len(requests) * 1e3)
        for name, served in (("wrk", server), ("wrk_one_process", one_process_server)):
            rate, cpu_ms = wrk_round(served, requests, tmp_path)
            rates[name].append(rate)
            cost[name].append(cpu_ms)

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    mean = {name: sum(values) / len(values) for name, values in rates.items()}
    cpu = {name: sum(values) / len(values) for name, values in cost.items()}
    ratio, ratio_one = mean["wrk"] / mean["in_process"], mean["wrk_one_process"] / mean["in_process"]
    benchmark.extra_info.update({"ratio": round(ratio, 3), "ratio_one_process": round(ratio_one, 3),
                                 "cpu_ratio": round(cpu["in_process"] / cpu["wrk"], 3),
                                 **{f"{k}_per_s": round(v, 1) for k, v in mean.items()},
                                 **{f"{k}_cpu_ms_per_position": round(v, 3) for k, v in cpu.items()}})
    SUMMARY.append(f"POST /api/v1/solve from wrk ({WRK_SECONDS} s a round, fresh full deals), positions/s: "
                   f"HTTP {mean['wrk']:.0f}, prefdd batch in process {mean['in_process']:.0f}: {ratio:.0%} "
                   f"(target >= 80%); --http-processes 1: {mean['wrk_one_process']:.0f} ({ratio_one:.0%})")
    SUMMARY.append("  CPU ms per position (wrk and the server's processes; in process: the batch): "
                   + ", ".join(f"{name} {value:.3f}" for name, value in cpu.items())
                   + f"; in process / HTTP: {cpu['in_process'] / cpu['wrk']:.0%} (on two free cores the rate ratio "
                   "is at most about this)")


def test_api_solve_throughput(benchmark, server: ServeProcess) -> None:  # type: ignore[no-untyped-def]
    chunks = iter([batch_requests(POSITIONS_PER_ROUND, f"web-round-{k}") for k in range(ROUNDS)])
    elapsed = {"in_process": 0.0, "http": 0.0}
    cpu = dict.fromkeys(elapsed, 0.0)
    runs = (("in_process", in_process_round), ("http", lambda r: http_round(server.http_port, r)))

    alternate(benchmark, server.process.pid, chunks, runs, elapsed, cpu)
    positions = ROUNDS * POSITIONS_PER_ROUND
    rates = {name: positions / seconds for name, seconds in elapsed.items()}
    ratio = rates["http"] / rates["in_process"]
    cost = {name: seconds / positions * 1e3 for name, seconds in cpu.items()}
    benchmark.extra_info.update({"positions": positions, "ratio": round(ratio, 3),
                                 **{f"{k}_per_s": round(v, 1) for k, v in rates.items()},
                                 **{f"{k}_cpu_ms_per_position": round(v, 3) for k, v in cost.items()}})
    SUMMARY.append(f"POST /api/v1/solve ({positions} full deals each way), positions/s: HTTP {rates['http']:.0f}, "
                   f"prefdd batch in process {rates['in_process']:.0f}: {ratio:.0%} (target >= 80%)")
    SUMMARY.append("  CPU ms per position (client and server together): "
                   + ", ".join(f"{name} {value:.2f}" for name, value in cost.items()))
