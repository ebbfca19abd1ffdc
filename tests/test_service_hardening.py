"""Hostile requests against a real server on 127.0.0.1: messages that do not
decode, calls that would stall the server, unauthenticated streams taking
slots, frozen clients, too many connections, secrets in the configuration."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import threading
from typing import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service_support import (GUARD, LOOPBACK, ServeProcess, client_for, raw_call, raw_channel, raw_stream,
                             running_server, wait_until)

from service.advice_calls import BudgetChoice, check_layouts
from service.client import AnalysisClient, BatchItem, ServiceError
from service.proto import SERVICE_NAME, pb
from service.server import RunningServer, ServerConfig

ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"
FULL_DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
SOLVE = f"/{SERVICE_NAME}/Solve"
SCORE = f"/{SERVICE_NAME}/Score"
BATCH = f"/{SERVICE_NAME}/EvaluateBatch"
CHECK = "/grpc.health.v1.Health/Check"
GARBAGE = [b"\xff\xff\xff\xff", b"\x0a\x10abc", b"\x08" + b"\xff" * 11, b"\x0f\x00"]
TOKEN = "s3cret-token-value"
HUGE = "1e10000000"
"""Read as an exact rational, this holds the interpreter for about 15 s (10**10,000,000)."""


def valid_item(index: int) -> bytes:
    return pb.EvaluateBatchRequest(items=[BatchItem(ENDGAME, "6nt", 0, id=str(index)).to_proto()]).SerializeToString()


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2, advice_workers=1, score_workers=1) as running:
        yield running


@pytest.fixture(scope="module")
def channel(server: RunningServer) -> Iterator[grpc.Channel]:
    with raw_channel(server.port) as connected:
        yield connected


# ---- messages that do not decode -------------------------------------------------

@pytest.mark.parametrize("data", GARBAGE)
@pytest.mark.parametrize("method", [SOLVE, SCORE, CHECK])
def test_undecodable_unary_request_is_invalid_argument(channel: grpc.Channel, method: str, data: bytes) -> None:
    error = raw_call(channel, method, data)
    assert isinstance(error, grpc.RpcError)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "does not decode" in error.details()


def test_undecodable_stream_message_is_invalid_argument_after_the_items_read(channel: grpc.Channel) -> None:
    for garbage in GARBAGE:
        answers, error = raw_stream(channel, BATCH, [valid_item(0), valid_item(1), garbage, valid_item(2)])
        assert error is not None and error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "does not decode" in error.details()
        results = [r for a in answers for r in pb.EvaluateBatchResponse.FromString(a).results]
        assert sorted(r.id for r in results) == ["0", "1"]
        assert all(r.evaluation.declarer_tricks == 2 for r in results)


def test_sigterm_ends_the_process_after_undecodable_stream_messages() -> None:
    grace = 1.0
    process = ServeProcess("--workers", "1", "--grace", str(grace))
    try:
        with raw_channel(process.port) as channel:
            for garbage in GARBAGE * 2:
                _answers, error = raw_stream(channel, BATCH, [valid_item(0), garbage])
                assert error is not None and error.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert raw_call(channel, SOLVE, b"\xff").code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[union-attr]
        process.process.send_signal(signal.SIGTERM)
        try:
            status = process.process.wait(timeout=grace + 10)  # a hang guard: shutdown needs well under a second
        except subprocess.TimeoutExpired:
            pytest.fail("prefdd serve did not end after SIGTERM")
        assert status == 0
        lines = process.stderr.read().splitlines()
        entries = [json.loads(line) for line in lines]  # every line is a JSON log record
        assert entries[-1]["event"] == "stopped"
        assert not any("deserializ" in line for line in lines)
    finally:
        process.close()


# ---- requests that used to stall the server ----------------------------------------

def score(**fields: object) -> pb.ScoreRequest:
    base: dict[str, object] = {"convention": pb.CONVENTION_SOCHI, "kind": pb.SCORE_KIND_DEAL}
    base.update(fields)
    return pb.ScoreRequest(**base)  # type: ignore[arg-type]


def game(deals: int, **changes: object) -> str:
    with open("tests/data/pool-example.json", encoding="utf-8") as file:
        data = json.load(file)
    data["deals"] = (data["deals"] * (deals // len(data["deals"]) + 1))[:deals]
    if deals > len(data["deals"]) // 2:
        data["pool_size"] = 10**6  # the game goes on to its last deal
    data.update(changes)
    return json.dumps(data)


def test_huge_numbers_are_refused_before_any_arithmetic(server: RunningServer) -> None:
    with client_for(server) as client:
        requests = [
            (client.stub.Score, score(kind=pb.SCORE_KIND_GAME, input_json=game(8, whist_price=HUGE))),
            (client.stub.Score, score(kind=pb.SCORE_KIND_GAME, input_json=game(8),
                                      option_overrides_json=json.dumps({"pool_point_mountain_equiv": HUGE}))),
            (client.stub.AdviseWhist, pb.AdviseWhistRequest(
                hand="AQ7.K98.KT.QJ", talon="..J.K", contract=pb.Contract(kind=pb.CONTRACT_KIND_TRICKS,
                                                                         strain=pb.STRAIN_HEARTS, level=6),
                declarer=pb.SEAT_SECOND, seat=pb.SEAT_FIRST, convention=pb.CONVENTION_SOCHI,
                option_overrides_json=json.dumps({"whist_trick_factor": HUGE}))),
            (client.stub.AnalyzeDeal, pb.AnalyzeDealRequest(
                deal=FULL_DEAL, scoring=pb.DealScoring(convention=pb.CONVENTION_SOCHI,
                                                       option_overrides_json=json.dumps({"misere_pool": "-2E99"})))),
        ]
        for method, request in requests:
            assert len(request.SerializeToString()) < 2000
            with pytest.raises(grpc.RpcError) as caught:
                method(request, timeout=GUARD)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "out of range" in caught.value.details()
        assert client.health() == "SERVING"


def test_score_runs_where_a_deadline_or_cancel_stops_it(server: RunningServer) -> None:
    heavy = score(kind=pb.SCORE_KIND_GAME, input_json=game(6400))
    with client_for(server) as client:
        running = client.stub.Score.future(heavy)
        assert wait_until(lambda: server.scoring.busy == 1)
        # The server answers while the scoring computes: health and a solve.
        assert client.health() == "SERVING"
        assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
        assert not running.done()
        running.cancel()
        assert wait_until(lambda: server.scoring.busy == 0)
        with pytest.raises(grpc.RpcError) as caught:
            client.stub.Score(heavy, timeout=0.3)
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_until(lambda: server.scoring.busy == 0)
        small = json.loads(client.stub.Score(score(kind=pb.SCORE_KIND_GAME, input_json=game(8))).result_json)
        assert small["players"] == ["Anna", "Boris", "Vera"]


def test_score_beyond_the_servers_time_limit() -> None:
    with running_server(workers=1, score_workers=1, max_score_seconds=0.3) as server, \
            client_for(server) as client:
        with pytest.raises(ServiceError) as caught:
            client.score("sochi", "game", json.loads(game(6400)))
        assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "max_score_seconds=0.3" in caught.value.message


# ---- authentication and call slots -------------------------------------------------

def test_authentication_comes_before_decoding() -> None:
    with running_server(workers=1, auth_token=TOKEN) as server, raw_channel(server.port) as channel:
        for method in (SOLVE, SCORE):
            error = raw_call(channel, method, GARBAGE[0])
            assert isinstance(error, grpc.RpcError) and error.code() == grpc.StatusCode.UNAUTHENTICATED
        _answers, stream_error = raw_stream(channel, BATCH, GARBAGE)
        assert stream_error is not None and stream_error.code() == grpc.StatusCode.UNAUTHENTICATED
        authorized = (("authorization", f"Bearer {TOKEN}"),)
        error = raw_call(channel, SOLVE, GARBAGE[0], metadata=authorized)
        assert isinstance(error, grpc.RpcError) and error.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_health_watch_streams_cannot_take_the_call_slots() -> None:
    with running_server(workers=1, auth_token=TOKEN, max_concurrent_rpcs=2, max_health_watches=2) as server, \
            raw_channel(server.port) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        watches = [stub.Watch(health_pb2.HealthCheckRequest(), timeout=GUARD) for _ in range(2)]
        for watch in watches:
            assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(grpc.RpcError) as refused:
            next(stub.Watch(health_pb2.HealthCheckRequest(), timeout=GUARD))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "max_health_watches=2" in refused.value.details()
        with client_for(server, token=TOKEN) as client:
            futures = [client.stub.Solve.future(pb.SolveRequest(position=pb.Position(
                deal=ENDGAME, kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_NO_TRUMP, declarer=pb.SEAT_FIRST)),
                timeout=GUARD) for _ in range(2)]
            assert [f.result().declarer_tricks for f in futures] == [2, 2]
            assert client.health() == "SERVING"  # checks are not counted either
        for watch in watches:
            watch.cancel()
        assert wait_until(lambda: server.limits.watches.taken == 0 and server.limits.calls.taken == 0)


# ---- frozen clients and connection limits ------------------------------------------

FROZEN_CLIENT = textwrap.dedent("""
    import sys
    from service.client import AnalysisClient, BatchItem
    client = AnalysisClient(sys.argv[1])
    items = (BatchItem(sys.argv[2], "misere", i % 3, card_values=True, id=str(i)) for i in range(10**6))
    for n, _ in enumerate(client.evaluate_batch(items, chunk_size=8)):
        if n == 20:
            print("reading", flush=True)
""")


def test_a_frozen_client_does_not_hold_its_call_forever() -> None:
    with running_server(workers=1, keepalive_seconds=0.5, keepalive_timeout_seconds=0.5) as server:
        child = subprocess.Popen([sys.executable, "-c", FROZEN_CLIENT, f"{LOOPBACK}:{server.port}", FULL_DEAL],
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "reading"
            assert server.limits.calls.taken == 1
            child.send_signal(signal.SIGSTOP)
            assert wait_until(lambda: server.limits.calls.taken == 0)  # the keepalive closed its connection
            assert wait_until(lambda: server.pool.stats().busy_workers == 0 and server.pool.stats().queued == 0)
            with client_for(server) as client:
                assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
        finally:
            child.kill()
            child.wait()


def test_connections_are_capped() -> None:
    with running_server(workers=1, max_connections=2) as server:
        first, second = raw_channel(server.port), raw_channel(server.port)
        for channel in (first, second):
            assert health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=GUARD)
        third = raw_channel(server.port)
        with pytest.raises(grpc.RpcError) as refused:
            health_pb2_grpc.HealthStub(third).Check(health_pb2.HealthCheckRequest(), timeout=2)
        assert refused.value.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
        third.close()  # else it takes the freed place as it keeps reconnecting
        first.close()
        fourth = raw_channel(server.port)
        assert wait_until(lambda: _checks(fourth))
        for channel in (second, fourth):
            channel.close()


def _checks(channel: grpc.Channel) -> bool:
    try:
        health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
        return True
    except grpc.RpcError:
        return False


# ---- advice runs bounded -----------------------------------------------------------

def test_layout_budgets_are_checked_in_one_place() -> None:
    for layouts in (0, -1, True):
        with pytest.raises(ValueError, match="budget.layouts"):
            check_layouts(BudgetChoice(layouts, None, 0, "exact"), 10, 100)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mode"):
        check_layouts(BudgetChoice(10, None, 0, "everything"), 10, 100)


def test_an_exact_full_deal_whist_run_is_bounded_in_time() -> None:
    with running_server(workers=1, advice_workers=1, max_advice_seconds=1.0) as server, \
            client_for(server) as client:
        try:
            answer = client.advise_whist("AQ7.K98.KT.QJ", "..J.K", "6h", 1, 0, other_decision="pass", mode="exact")
        except ServiceError as error:  # stopped before its first chunk of layouts was counted
            assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "max_advice_seconds=1" in error.message
        else:  # stopped with the estimate so far
            assert answer.run.space == 184_756
            assert answer.run.stopped and not answer.run.complete and 0 < answer.run.layouts < answer.run.space
        assert wait_until(lambda: server.advice.active == 0)
        assert client.health() == "SERVING"


# ---- configuration -----------------------------------------------------------------

def test_the_configurations_repr_shows_no_key_material() -> None:
    key = b"-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
    cert = b"-----BEGIN CERTIFICATE-----\nMIIBfTCCASOgAwIBAgIU\n-----END CERTIFICATE-----\n"
    config = ServerConfig(tls_cert=cert, tls_key=key, auth_token=TOKEN)
    text = repr(config)
    assert "PRIVATE" not in text and "MIGHAgEA" not in text and TOKEN not in text
    assert "tls=True" in text and "auth=True" in text and "max_concurrent_rpcs=64" in text
    assert TOKEN not in str(config)


def test_threads_left_behind_are_none() -> None:
    """The calls above end their helper threads (batch readers, advice workers)."""
    assert wait_until(lambda: not [t for t in threading.enumerate() if t.name.startswith("prefdd-batch")])
