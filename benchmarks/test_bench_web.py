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

Each way is measured twice: one position per call (a JSON body), and
LINES_PER_CALL positions per call (a JSON-lines body,
``Content-Type: application/x-ndjson``, answered as ``prefdd batch`` answers
its lines, their solves in one C call).

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
LINES_PER_CALL = 64
"""Positions in one JSON-lines call: ``prefdd batch FILE``'s chunk (BATCH_CHUNK)."""
LINES_POSITIONS_PER_ROUND = CLIENTS * LINES_PER_CALL * 8
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


def http_lines_round(port: int, requests: list[dict]) -> int:
    """CLIENTS keep-alive connections, each posting LINES_PER_CALL positions a call as JSON lines."""
    bodies = ["".join(json.dumps(r) + "\n" for r in requests[k:k + LINES_PER_CALL])
              for k in range(0, len(requests), LINES_PER_CALL)]
    answered: list[int] = []

    def client(mine: list[str]) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        for body in mine:
            connection.request("POST", "/api/v1/solve", body=body.encode(),
                               headers={"content-type": "application/x-ndjson"})
            response = connection.getresponse()
            lines = response.read().splitlines()
            assert response.status == 200 and all(b"declarer_tricks" in line for line in lines)
            answered.append(len(lines))
        connection.close()

    threads = [threading.Thread(target=client, args=(bodies[k::CLIENTS],)) for k in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(answered)


WRK_SCRIPT = r"""
local bodies = {}
-- one body a line; a JSON-lines body has its lines joined by tabs (JSON text holds no raw tab)
for line in io.lines(os.getenv("PREFDD_BODIES")) do bodies[#bodies + 1] = (line:gsub("\t", "\n")) end
local sent = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = os.getenv("PREFDD_CONTENT_TYPE")
request = function()
  sent = sent % #bodies + 1
  return wrk.format(nil, "/api/v1/solve", nil, bodies[sent])
end
response = function(status, headers, body)
  if status ~= 200 or not body:find("declarer_tricks") or body:find('"error"') then io.write("bad answer\n") end
end
"""
WRK_POSITIONS = {1: 10_000, LINES_PER_CALL: 16_384}
WRK_SECONDS = 4
"""wrk sends for a fixed time: at about 1,500 positions/s one a call (2,500
JSON lines), 4 s use 6,000 of the 10,000 fresh positions (10,000 of 16,384),
so none is sent twice (a repeat would find a warm table)."""


def wrk_round(server: ServeProcess, requests: list[dict], folder: Path, per_call: int = 1) -> tuple[float, float]:
    """Positions per second that ``wrk`` (one thread, CLIENTS connections) gets
    answered in WRK_SECONDS, each position sent once, ``per_call`` positions a
    call (more than one: a JSON-lines body), and the CPU ms per position of
    the server (its process tree) and wrk together."""
    bodies, script = folder / "bodies.jsonl", folder / "solve.lua"
    bodies.write_text("".join("\t".join(json.dumps(r) for r in requests[k:k + per_call]) + "\n"
                              for k in range(0, len(requests), per_call)))
    script.write_text(WRK_SCRIPT)
    port = server.http_port
    own, children = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_start = process_cpu(server.process.pid) - own
    content_type = "application/json" if per_call == 1 else "application/x-ndjson"
    done = subprocess.run(["wrk", "-t1", f"-c{CLIENTS}", f"-d{WRK_SECONDS}s", "-s", str(script), f"http://127.0.0.1:{port}/"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PREFDD_BODIES": str(bodies), "PREFDD_CONTENT_TYPE": content_type})
    server_cpu = process_cpu(server.process.pid) - time.process_time() - cpu_start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    assert done.returncode == 0 and not done.stderr, done.stderr  # a Lua error is only printed
    match, sent = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout), re.search(r"(\d+) requests in", done.stdout)
    assert match and sent and "Non-2xx" not in done.stdout and "bad answer" not in done.stdout, done.stdout
    return float(match.group(1)) * per_call, (server_cpu + wrk_cpu) / (int(sent.group(1)) * per_call) * 1e3


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed (apt-get install wrk)")
@pytest.mark.parametrize("per_call", [1, LINES_PER_CALL], ids=["one-a-call", "json-lines"])
def test_api_solve_throughput_wrk(benchmark, server: ServeProcess, one_process_server: ServeProcess,  # type: ignore[no-untyped-def]
                                  tmp_path: Path, per_call: int) -> None:
    chunks = iter([batch_requests(WRK_POSITIONS[per_call], f"wrk-round-{per_call}-{k}") for k in range(ROUNDS)])
    rates: dict[str, list[float]] = {"in_process": [], "wrk": [], "wrk_one_process": []}
    cost: dict[str, list[float]] = {name: [] for name in rates}

    def one_round() -> None:
        requests = next(chunks)
        start, cpu_start = time.perf_counter(), time.process_time()
        assert in_process_round(requests) == len(requests)
        rates["in_process"].append(len(requests) / (time.perf_counter() - start))
        cost["in_process"].append((time.process_time() - cpu_start) / len(requests) * 1e3)
        for name, served in (("wrk", server), ("wrk_one_process", one_process_server)):
            rate, cpu_ms = wrk_round(served, requests, tmp_path, per_call)
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
    SUMMARY.append(f"POST /api/v1/solve from wrk ({WRK_SECONDS} s a round, fresh full deals, {per_call} a call), "
                   "positions/s: "
                   f"HTTP {mean['wrk']:.0f}, prefdd batch in process {mean['in_process']:.0f}: {ratio:.0%} "
                   f"(target >= 80%); --http-processes 1: {mean['wrk_one_process']:.0f} ({ratio_one:.0%})")
    SUMMARY.append("  CPU ms per position (wrk and the server's processes; in process: the batch): "
                   + ", ".join(f"{name} {value:.3f}" for name, value in cpu.items())
                   + f"; in process / HTTP: {cpu['in_process'] / cpu['wrk']:.0%} (on two free cores the rate ratio "
                   "is at most about this)")


@pytest.mark.parametrize("per_call", [1, LINES_PER_CALL], ids=["one-a-call", "json-lines"])
def test_api_solve_throughput(benchmark, server: ServeProcess, per_call: int) -> None:  # type: ignore[no-untyped-def]
    per_round = POSITIONS_PER_ROUND if per_call == 1 else LINES_POSITIONS_PER_ROUND
    chunks = iter([batch_requests(per_round, f"web-round-{per_call}-{k}") for k in range(ROUNDS)])
    elapsed = {"in_process": 0.0, "http": 0.0}
    cpu = dict.fromkeys(elapsed, 0.0)
    send = http_round if per_call == 1 else http_lines_round
    runs = (("in_process", in_process_round), ("http", lambda r: send(server.http_port, r)))

    alternate(benchmark, server.process.pid, chunks, runs, elapsed, cpu)
    positions = ROUNDS * per_round
    rates = {name: positions / seconds for name, seconds in elapsed.items()}
    ratio = rates["http"] / rates["in_process"]
    cost = {name: seconds / positions * 1e3 for name, seconds in cpu.items()}
    benchmark.extra_info.update({"positions": positions, "ratio": round(ratio, 3),
                                 **{f"{k}_per_s": round(v, 1) for k, v in rates.items()},
                                 **{f"{k}_cpu_ms_per_position": round(v, 3) for k, v in cost.items()}})
    SUMMARY.append(f"POST /api/v1/solve ({positions} full deals each way, {per_call} a call), positions/s: "
                   f"HTTP {rates['http']:.0f}, "
                   f"prefdd batch in process {rates['in_process']:.0f}: {ratio:.0%} (target >= 80%)")
    SUMMARY.append("  CPU ms per position (client and server together): "
                   + ", ".join(f"{name} {value:.2f}" for name, value in cost.items()))
