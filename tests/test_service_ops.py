"""Operating the service: health and reflection, deadlines and cancellation
reaching the C search, TLS, bearer tokens, per-call logs, graceful shutdown
of a real `prefdd serve` process, and the generated code matching protos/."""
from __future__ import annotations

import importlib.util
import json
import logging
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from conftest import REPO
from service_support import GUARD, ServeProcess, client_for, make_certificate, random_deal, running_server, wait_until

from solver import Deal, Position, Solver
from solver.engine import OPT_NONE
from service.client import AnalysisClient, BatchItem, ServiceError
from service.proto import GENERATED, SERVICE_NAME, pb
from service.interceptors import JsonLogFormatter

ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"
SLOW_DEAL = str(random_deal(7))  # misère on a full deal: many seconds for plain alpha-beta
FULL_DEALS = [str(Deal(random_deal(seed).hands)) for seed in range(100, 140)]  # the declarer has discarded


def plain_alpha_beta(solver) -> None:  # type: ignore[no-untyped-def]
    solver.set_options(OPT_NONE)


# ---- health and reflection -----------------------------------------------------

def test_health_and_reflection() -> None:
    with running_server(workers=1) as server, client_for(server) as client:
        assert client.health() == "SERVING"
        assert client.health(SERVICE_NAME) == "SERVING"
        with pytest.raises(ServiceError) as unknown:
            client.health("no.such.Service")
        assert unknown.value.code == grpc.StatusCode.NOT_FOUND
        database = ProtoReflectionDescriptorDatabase(client.channel)
        services = database.get_services()
        assert SERVICE_NAME in services and "grpc.health.v1.Health" in services
        service = descriptor_pool.DescriptorPool(database).FindServiceByName(SERVICE_NAME)
        assert {m.name for m in service.methods} == {"Solve", "EvaluateBatch", "Score", "AnalyzeDeal",
                                                     "AdviseWhist", "AdviseBid", "Enumerate", "AdvisePlay"}
        assert service.methods_by_name["EvaluateBatch"].client_streaming
        server.health.enter_graceful_shutdown()
        assert client.health() == "NOT_SERVING"


# ---- deadlines and cancellation ------------------------------------------------

def slow_solve_request() -> pb.SolveRequest:
    return pb.SolveRequest(position=pb.Position(deal=SLOW_DEAL, kind=pb.CONTRACT_KIND_MISERE,
                                                declarer=pb.SEAT_FIRST), card_values=True)


def test_solve_deadline_stops_the_search_and_the_worker_serves_again() -> None:
    with running_server(workers=1, solver_setup=plain_alpha_beta) as server, client_for(server) as client:
        future = client.stub.Solve.future(slow_solve_request(), timeout=2.0)
        assert wait_until(lambda: server.pool.stats().busy_workers == 1)  # the search runs
        with pytest.raises(grpc.RpcError) as caught:
            future.result()
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_until(lambda: server.pool.stats().stopped == 1)
        assert server.pool.stats().completed == 0
        # The only worker is free again: a new call is answered (GUARD deadline).
        assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2


def test_cancelled_solve_stops_the_search() -> None:
    with running_server(workers=1, solver_setup=plain_alpha_beta) as server, client_for(server) as client:
        future = client.stub.Solve.future(slow_solve_request())
        assert wait_until(lambda: server.pool.stats().busy_workers == 1)
        future.cancel()
        assert wait_until(lambda: server.pool.stats().stopped == 1)
        assert server.pool.stats().busy_workers == 0
        assert client.solve(ENDGAME, "misere", 1).declarer_tricks >= 0


def test_batch_deadline_shorter_than_the_enumeration() -> None:
    """A few quick endgames, then thousands of full-deal misères that plain
    alpha-beta takes seconds each to solve, on one worker: the first answers
    arrive, then the deadline falls inside a search whatever the machine's
    speed; the stream ends DEADLINE_EXCEEDED, the queued items are dropped,
    the running search stopped, and the server keeps serving."""
    count = 20000
    quick = 5

    def items() -> Iterator[BatchItem]:
        for i in range(count):
            if i < quick:
                yield BatchItem(ENDGAME, "6nt", 0, id=str(i))
            else:
                yield BatchItem(FULL_DEALS[i % len(FULL_DEALS)], "misere", i % 3, id=str(i))

    with running_server(workers=1, solver_setup=plain_alpha_beta) as server, client_for(server) as client:
        received = 0
        with pytest.raises(ServiceError) as caught:
            for _ in client.evaluate_batch(items(), timeout=2.0):
                received += 1
        assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert quick <= received < count
        assert wait_until(lambda: server.pool.stats().busy_workers == 0 and server.pool.stats().queued == 0)
        stats = server.pool.stats()
        # The search under way was stopped, and no item read as the call
        # ended ran to its end unread: every search finished was answered.
        assert stats.stopped == 1 and stats.completed == received
        assert stats.completed + stats.dropped + stats.stopped < count
        assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2


def test_cancelled_batch_stops_its_work() -> None:
    with running_server(workers=1, solver_setup=plain_alpha_beta) as server, client_for(server) as client:
        items = [pb.BatchItem(id=str(i), deal=SLOW_DEAL, kind=pb.CONTRACT_KIND_MISERE, declarer=pb.SEAT_FIRST)
                 for i in range(10)]
        call = client.stub.EvaluateBatch(iter([pb.EvaluateBatchRequest(items=items)]), timeout=GUARD)
        assert wait_until(lambda: server.pool.stats().busy_workers == 1)
        call.cancel()
        assert wait_until(lambda: server.pool.stats().stopped == 1 and server.pool.stats().queued == 0)
        assert server.pool.stats().dropped == 9
        assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2


def test_stop_cancels_calls_in_flight_after_the_grace_period() -> None:
    with running_server(workers=1, solver_setup=plain_alpha_beta) as server, client_for(server) as client:
        future = client.stub.Solve.future(slow_solve_request())
        assert wait_until(lambda: server.pool.stats().busy_workers == 1)
        server.stop(grace=0.2)
        with pytest.raises(grpc.RpcError) as caught:
            future.result(timeout=GUARD)
        assert caught.value.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        assert server.pool.stats().stopped == 1


# ---- TLS and tokens ------------------------------------------------------------

TOKEN = "s3cret-token-value"


def test_bearer_token() -> None:
    with running_server(workers=1, auth_token=TOKEN) as server:
        with client_for(server) as anonymous:
            with pytest.raises(ServiceError) as missing:
                anonymous.solve(ENDGAME, "6nt", 0)
            assert missing.value.code == grpc.StatusCode.UNAUTHENTICATED
            with pytest.raises(ServiceError) as batch_refused:
                list(anonymous.evaluate_batch([BatchItem(ENDGAME, "6nt", 0)]))
            assert batch_refused.value.code == grpc.StatusCode.UNAUTHENTICATED
            assert anonymous.health() == "SERVING"  # health checks need no token
            with pytest.raises(Exception):
                ProtoReflectionDescriptorDatabase(anonymous.channel).get_services()
        with client_for(server, token="wrong") as wrong:
            with pytest.raises(ServiceError) as refused:
                wrong.score("sochi", "allpass_progression", {"events": []})
            assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED
        with client_for(server, token=TOKEN) as trusted:
            assert trusted.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
            assert [r.declarer_tricks for r in trusted.evaluate_batch([BatchItem(ENDGAME, "6nt", 0)])] == [2]
            assert SERVICE_NAME in ProtoReflectionDescriptorDatabase(trusted.channel).get_services()


def test_tls_with_token(tmp_path: Path) -> None:
    cert, key = make_certificate(tmp_path)
    with running_server(workers=1, tls_cert=cert.read_bytes(), tls_key=key.read_bytes(),
                        auth_token=TOKEN) as server:
        with client_for(server, root_certificates=cert.read_bytes(), token=TOKEN) as secure:
            assert secure.solve(ENDGAME, "6nt", 0, card_values=True).card_values == {
                "Ks": 2, "As": 2, "7c": 0, "9h": 0, "Jh": 0}
            assert secure.health() == "SERVING"
        with client_for(server, root_certificates=cert.read_bytes()) as no_token:
            with pytest.raises(ServiceError) as refused:
                no_token.solve(ENDGAME, "6nt", 0)
            assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED
        with client_for(server, token=TOKEN, timeout=2.0) as plaintext:
            with pytest.raises(ServiceError) as failed:
                plaintext.solve(ENDGAME, "6nt", 0, timeout=2.0)
            assert failed.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


# ---- logs ----------------------------------------------------------------------

def test_one_structured_log_record_per_call_without_secrets(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="service")
    with running_server(workers=1, auth_token=TOKEN) as server:
        with client_for(server, token=TOKEN) as client:
            client.solve(ENDGAME, "6nt", 0)
            with pytest.raises(ServiceError):
                client.solve(ENDGAME, "6nt", 0, played=["Qh"])
            list(client.evaluate_batch([BatchItem(ENDGAME, "6nt", 0), BatchItem(ENDGAME, "misere", 1)]))
        with client_for(server, token="not-" + TOKEN) as wrong:
            with pytest.raises(ServiceError):
                wrong.solve(ENDGAME, "6nt", 0)
        assert wait_until(lambda: len([r for r in caplog.records if hasattr(r, "fields")]) >= 4)
    calls = [r.fields for r in caplog.records if getattr(r, "fields", {}).get("event") == "rpc"]
    summary = [(c["method"].rsplit("/", 1)[1], c["status"]) for c in calls]
    assert summary == [("Solve", "OK"), ("Solve", "INVALID_ARGUMENT"), ("EvaluateBatch", "OK"),
                       ("Solve", "UNAUTHENTICATED")]
    assert calls[2]["responses"] in (1, 2)  # answer messages: results finished together share one
    assert all(c["duration_ms"] >= 0 and c["peer"].startswith("ipv4:127.0.0.1") for c in calls)
    formatter = JsonLogFormatter()
    lines = [formatter.format(record) for record in caplog.records]
    assert all(json.loads(line)["level"] for line in lines)
    assert not any(TOKEN in line for line in lines)


# ---- a real `prefdd serve` process ---------------------------------------------

def test_serve_process_shuts_down_gracefully_on_sigterm(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    server = ServeProcess("--workers", "1", "--grace", "0.5", "--auth-token-file", str(token_file))
    try:
        listening = server.logs[-1]
        assert listening["workers"] == 1 and listening["auth"] is True and listening["tls"] is False
        with AnalysisClient(f"127.0.0.1:{server.port}", token=TOKEN, timeout=GUARD) as client:
            assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
            outcome: dict[str, object] = {}

            def long_batch() -> None:
                items = (BatchItem(FULL_DEALS[i % len(FULL_DEALS)], "misere", i % 3, card_values=True)
                         for i in range(100000))
                try:
                    outcome["answers"] = sum(1 for _ in client.evaluate_batch(items))
                except ServiceError as error:
                    outcome["code"] = error.code

            thread = threading.Thread(target=long_batch)
            thread.start()
            assert server.terminate() == 0
            thread.join(GUARD)
            assert not thread.is_alive()
            assert outcome.get("code") in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        events = [entry.get("event") for entry in server.logs]
        for line in server.stderr:
            events.append(json.loads(line).get("event"))
            assert TOKEN not in line
        assert "shutdown" in events and events[-1] == "stopped"
        assert ("rpc" in events) and events.index("shutdown") < events.index("stopped")
    finally:
        server.close()


def test_serve_process_with_tls(tmp_path: Path) -> None:
    cert, key = make_certificate(tmp_path)
    server = ServeProcess("--workers", "1", "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert server.logs[-1]["tls"] is True
        with AnalysisClient(f"localhost:{server.port}", root_certificates=cert.read_bytes(),
                            timeout=GUARD) as client:
            assert client.solve(ENDGAME, "misere", 1).declarer_tricks == Solver().solve(
                Position.start(ENDGAME, "misere", 1))
        assert server.terminate() == 0
    finally:
        server.close()


def test_serve_command_line_errors(tmp_path: Path) -> None:
    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "solver.cli", "serve", "--port", "0", *args],
                              capture_output=True, text=True, timeout=GUARD)

    alone = serve("--tls-cert", str(tmp_path / "cert.pem"))
    assert alone.returncode == 2 and "--tls-cert and --tls-key go together" in alone.stderr
    missing = serve("--tls-cert", str(tmp_path / "cert.pem"), "--tls-key", str(tmp_path / "key.pem"))
    assert missing.returncode == 2 and "cannot read the TLS certificate" in missing.stderr
    (tmp_path / "empty").write_text("\n")
    empty = serve("--auth-token-file", str(tmp_path / "empty"))
    assert empty.returncode == 2 and "is empty" in empty.stderr
    workers = serve("--workers", "0")
    assert workers.returncode == 2 and "must be at least 1" in workers.stderr


# ---- generated code and the .proto ---------------------------------------------

def _compile(tmp_path: Path, *extra: str) -> None:
    from grpc_tools import protoc
    protos = sorted(str(p.relative_to(REPO / "protos")) for p in (REPO / "protos").rglob("*.proto"))
    code = protoc.main(["protoc", f"-I{REPO / 'protos'}", *extra, *protos])
    assert code == 0


def test_generated_code_is_made_from_protos(tmp_path: Path) -> None:
    """The installed generated modules are what the build's generator makes
    from protos/ now, and none of them is committed."""
    spec = importlib.util.spec_from_file_location("build_protos", REPO / "protos" / "build_protos.py")
    assert spec is not None and spec.loader is not None
    build_protos = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_protos)
    made = build_protos.generate(tmp_path)
    assert made, "protoc made nothing"
    for path in made:
        assert (GENERATED / path.name).read_text() == path.read_text(), (
            f"{GENERATED / path.name} differs from protos/: reinstall (pip install -e .)")
        tracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "--error-unmatch",
                                  str(GENERATED / path.name)], capture_output=True)
        assert tracked.returncode != 0, f"generated code must not be committed: {path.name}"


def test_every_field_rpc_and_message_is_documented(tmp_path: Path) -> None:
    out = tmp_path / "set.pb"
    _compile(tmp_path, "--include_source_info", f"--descriptor_set_out={out}")
    files = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    undocumented = []
    for file in files:
        comments = {tuple(loc.path): loc.leading_comments.strip() for loc in file.source_code_info.location}
        for m, message in enumerate(file.message_type):
            if not comments.get((4, m)):
                undocumented.append(message.name)
            undocumented += [f"{message.name}.{f.name}" for i, f in enumerate(message.field)
                             if not comments.get((4, m, 2, i))]
        for s, service in enumerate(file.service):
            undocumented += [f"{service.name}.{r.name}" for i, r in enumerate(service.method)
                             if not comments.get((6, s, 2, i))]
        undocumented += [e.name for i, e in enumerate(file.enum_type) if not comments.get((5, i))]
    assert not undocumented, f"undocumented in protos/: {undocumented}"
