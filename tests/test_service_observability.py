"""What operators see of a real server on 127.0.0.1: the per-call log line,
gRPC's own messages in the JSON log stream, the Prometheus endpoint."""
from __future__ import annotations

import json
import logging
import re
import urllib.request

import grpc
import pytest

from service_support import GUARD, ServeProcess, client_for, random_deal, running_server, wait_until

from service.client import AnalysisClient, BatchItem, ServiceError
from service.proto import SERVICE_NAME, pb

ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"
SOLVE = f"/{SERVICE_NAME}/Solve"
BATCH = f"/{SERVICE_NAME}/EvaluateBatch"


def solve_request(**position: object) -> pb.SolveRequest:
    fields: dict[str, object] = {"deal": ENDGAME, "kind": pb.CONTRACT_KIND_TRICKS, "strain": pb.STRAIN_NO_TRUMP,
                                 "declarer": pb.SEAT_FIRST}
    fields.update(position)
    return pb.SolveRequest(position=pb.Position(**fields))  # type: ignore[arg-type]


def rpc_records(caplog: pytest.LogCaptureFixture) -> list[dict]:
    return [r.fields for r in caplog.records if getattr(r, "fields", {}).get("event") == "rpc"]


def test_the_call_log_line_has_status_message_request_id_deadline_and_items(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="service")
    with running_server(workers=1) as server, client_for(server) as client:
        answer, call = client.stub.Solve.with_call(solve_request(), timeout=30,
                                                   metadata=(("x-request-id", "req-42"),))
        assert answer.declarer_tricks == 2
        assert ("x-request-id", "req-42") in tuple(call.trailing_metadata())
        with pytest.raises(grpc.RpcError) as bad:
            client.stub.Solve(solve_request(played=["Qh"]), timeout=30)
        bad_id = dict(bad.value.trailing_metadata())["x-request-id"]
        deals = [str(random_deal(seed)) for seed in range(8)]
        items = (BatchItem(deals[i % 8], "misere", i % 3, card_values=True) for i in range(100_000))
        with pytest.raises(ServiceError) as late:
            list(client.evaluate_batch(items, timeout=1.0))
        assert late.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_until(lambda: len(rpc_records(caplog)) >= 3)
    first, second, third = rpc_records(caplog)[:3]
    assert (first["method"], first["status"], first["request_id"]) == (SOLVE, "OK", "req-42")
    assert 0 < first["deadline_s"] <= 30.5 and "message" not in first  # gRPC rounds the timeout up
    assert (second["status"], second["request_id"]) == ("INVALID_ARGUMENT", bad_id)
    assert second["message"] == bad.value.details() and len(bad_id) == 32
    assert (third["method"], third["status"]) == (BATCH, "DEADLINE_EXCEEDED")
    assert third["items"] > 0 and 0 < third["deadline_s"] <= 1.2 and "deadline" in third["message"]


def test_grpc_core_messages_are_json_lines_too() -> None:
    process = ServeProcess("--workers", "1", env={"GRPC_VERBOSITY": "debug", "GRPC_TRACE": "http_keepalive"})
    try:
        with AnalysisClient(f"127.0.0.1:{process.port}", timeout=GUARD) as client:
            assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
        assert process.terminate() == 0
        entries = process.logs + [json.loads(line) for line in process.stderr if line.strip()]
        assert not [entry for entry in entries if "raw" in entry]  # every line was a JSON object
        native = [entry for entry in entries if entry["logger"] == "grpc.native"]
        assert native and all(entry["level"] == "warning" and entry["message"] for entry in native)
        assert entries[-1]["event"] == "stopped"
    finally:
        process.close()


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=GUARD) as response:
        return response.read().decode()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a metrics page (fails if it is absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        match = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})? (\S+)", line)
        if match and match.group(1) == name and ",".join(sorted((match.group(2) or "").split(","))) == wanted:
            return float(match.group(3))
    raise AssertionError(f"no sample {name}{{{wanted}}} in the metrics")


def test_prometheus_endpoint_counts_calls_latency_in_flight_and_the_pool() -> None:
    with running_server(workers=1, metrics_port=0) as server, client_for(server) as client:
        assert server.metrics_port
        for _ in range(3):
            client.solve(ENDGAME, "6nt", 0)
        with pytest.raises(ServiceError):
            client.solve(ENDGAME, "6nt", 0, played=["Qh"])
        assert client.health() == "SERVING"
        text = scrape(server.metrics_port)
    assert sample(text, "prefdd_rpc_calls_total", method=SOLVE, status="OK") == 3
    assert sample(text, "prefdd_rpc_calls_total", method=SOLVE, status="INVALID_ARGUMENT") == 1
    assert sample(text, "prefdd_rpc_duration_seconds_count", method=SOLVE) == 4
    assert sample(text, "prefdd_rpc_duration_seconds_bucket", method=SOLVE, le="+Inf") == 4
    assert sample(text, "prefdd_rpc_in_flight", method=SOLVE) == 0
    assert sample(text, "prefdd_pool_workers") == 1
    assert sample(text, "prefdd_pool_queued_jobs") == 0
    assert sample(text, "prefdd_advice_runs_active") == 0


def test_serve_metrics_port_flag() -> None:
    process = ServeProcess("--workers", "1", "--metrics-port", "0")
    try:
        port = process.logs[-1]["metrics_port"]
        with AnalysisClient(f"127.0.0.1:{process.port}", timeout=GUARD) as client:
            assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
        assert sample(scrape(port), "prefdd_rpc_calls_total", method=SOLVE, status="OK") == 1
        assert process.terminate() == 0
    finally:
        process.close()
