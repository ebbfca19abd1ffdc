"""Smoke test of an installed preferans-dd[service]: `prefdd serve` on
127.0.0.1 answers a health check and a Solve call that agrees with the
installed solver. Run from a directory without the sources:

    python smoke_service.py

Exits 0 and prints "service smoke: PASS", or fails with a message.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import solver
from service.proto import SERVICE_NAME, pb, pb_grpc

GUARD = 60.0
DEAL = "AKJ9.A.KJ.T98 QT7.QJ8.A7.J7 8.T97.QT98.KQ"


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"service smoke: FAIL: {what}")


def listening_port(server: subprocess.Popen) -> int:
    """The port from the server's "listening" log line (JSON on stderr)."""
    assert server.stderr is not None
    for line in server.stderr:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if entry.get("event") == "listening":
            return int(entry["port"])
    raise SystemExit(f"service smoke: FAIL: prefdd serve ended (status {server.wait()}) before listening")


def main() -> int:
    prefdd = Path(sys.executable).parent / "prefdd"  # the installed command of this environment
    check(prefdd.is_file(), f"no {prefdd}")
    server = subprocess.Popen([str(prefdd), "serve", "--host", "127.0.0.1", "--port", "0", "--workers", "1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = listening_port(server)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME),
                                                               timeout=GUARD)
            check(health.status == health_pb2.HealthCheckResponse.SERVING, f"health: {health}")
            position = pb.Position(deal=DEAL, kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_HEARTS,
                                   declarer=pb.SEAT_FIRST, leader=pb.SEAT_THIRD)
            answer = pb_grpc.AnalysisStub(channel).Solve(pb.SolveRequest(position=position, card_values=True),
                                                         timeout=GUARD)
        expected = solver.solve(DEAL, "6h", declarer=0, leader=2)
        check(answer.declarer_tricks == expected, f"Solve answered {answer.declarer_tricks}, the solver {expected}")
        values = {v.card: v.declarer_tricks for v in answer.card_values}
        local = {str(c): v for c, v in solver.card_values(DEAL, "6h", declarer=0, leader=2).items()}
        check(values == local, f"Solve card values {values} differ from the solver's {local}")
        print(f"Solve on 127.0.0.1:{port}: {answer.declarer_tricks} tricks, card values {values}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            status = server.wait(timeout=GUARD)
        except subprocess.TimeoutExpired:
            server.kill()
            raise
    check(status == 0, f"prefdd serve exited with status {status} on SIGTERM")
    print("service smoke: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
