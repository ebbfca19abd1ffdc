"""Fuzzing the gRPC messages against a real server on 127.0.0.1: random bytes
and mutated valid messages for every RPC. The server always answers a status
that names the client's problem (never INTERNAL or UNKNOWN), and afterwards
it is healthy and still answers right. Bounded: about 20 s in all."""
from __future__ import annotations

import json
from typing import Iterator

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service_support import client_for, raw_channel, raw_stream, running_server

from service.client import BatchItem, contract_message
from service.proto import SERVICE_NAME, pb
from service.server import RunningServer

ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"
DEAL_INPUT = {"type": "contract", "players": ["A", "B", "C"], "declarer": "A", "contract": 6,
              "defenders": ["B", "C"], "decisions": {"B": "whist", "C": "pass"}, "tricks": {"A": 6, "B": 4, "C": 0}}
CALL_TIMEOUT = 5.0
"""Seconds a fuzzed call may take: a mutated request may be a valid, costly one."""
ALLOWED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED,
           grpc.StatusCode.DEADLINE_EXCEEDED}

VALID = {
    "Solve": pb.SolveRequest(position=pb.Position(deal=ENDGAME, kind=pb.CONTRACT_KIND_TRICKS,
                                                  strain=pb.STRAIN_NO_TRUMP, declarer=pb.SEAT_FIRST),
                             card_values=True, best_line=True),
    "Score": pb.ScoreRequest(convention=pb.CONVENTION_SOCHI, kind=pb.SCORE_KIND_DEAL,
                             input_json=json.dumps(DEAL_INPUT), option_overrides_json='{"misere_pool": "10"}'),
    "AnalyzeDeal": pb.AnalyzeDealRequest(deal=ENDGAME, contract=contract_message("6nt"), declarer=pb.SEAT_FIRST,
                                         scoring=pb.DealScoring(convention=pb.CONVENTION_SOCHI)),
    "AdviseWhist": pb.AdviseWhistRequest(
        hand=".T.A7.", talon="..K.8", contract=contract_message("6s"), declarer=pb.SEAT_SECOND, seat=pb.SEAT_THIRD,
        other_decision=pb.DECISION_PASS, convention=pb.CONVENTION_SOCHI, unseen="7.K.J.AK9", prior_tricks=[1, 4, 2],
        budget=pb.Budget(layouts=50, seed=1)),
    "AdviseBid": pb.AdviseBidRequest(hand="A..K.", seat=pb.SEAT_FIRST, convention=pb.CONVENTION_SOCHI,
                                     unseen="K.A.QJ.A7", prior_tricks=[4, 3, 1], budget=pb.Budget(layouts=50)),
    "Enumerate": pb.EnumerateRequest(hand="AQ.K..K", declarer=pb.SEAT_SECOND, contracts=[contract_message("6s")],
                                     defenders="KJ7.A.A.AQ8", prior_tricks=[2, 3, 1], convention=pb.CONVENTION_SOCHI),
}
BATCH = pb.EvaluateBatchRequest(items=[BatchItem(ENDGAME, "6nt", 0, card_values=True, id="a").to_proto(),
                                       BatchItem(ENDGAME, "misere", 1, id="b").to_proto()])


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2, advice_workers=1, max_advice_layouts=5000, max_advice_seconds=2.0,
                        score_workers=1, max_score_seconds=2.0) as running:
        yield running


@pytest.fixture(scope="module")
def channel(server: RunningServer) -> Iterator[grpc.Channel]:
    with raw_channel(server.port) as connected:
        yield connected


@st.composite
def mutated(draw: st.DrawFn, valid: bytes) -> bytes:
    """``valid`` with a few bytes changed, inserted, dropped, or cut short."""
    data = bytearray(valid)
    for _ in range(draw(st.integers(1, 4))):
        action = draw(st.sampled_from(["flip", "set", "insert", "delete", "cut"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if action == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif action == "set" and data:
            data[at] = draw(st.sampled_from([0x00, 0x7F, 0x80, 0xFF, draw(st.integers(0, 255))]))
        elif action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=12))
        elif action == "delete" and data:
            del data[at:at + draw(st.integers(1, 4))]
        elif action == "cut":
            del data[at:]
    return bytes(data)


def payloads(valid: bytes) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=300), mutated(valid))


def check_status(error: grpc.RpcError | bytes) -> None:
    if isinstance(error, grpc.RpcError):
        assert error.code() in ALLOWED, (error.code(), error.details())


FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("method", sorted(VALID))
def test_unary_rpcs_answer_a_client_status_to_any_bytes(channel: grpc.Channel, method: str) -> None:
    call = channel.unary_unary(f"/{SERVICE_NAME}/{method}", request_serializer=None, response_deserializer=None)

    @FUZZ
    @given(data=payloads(VALID[method].SerializeToString()))
    def run(data: bytes) -> None:
        try:
            call(data, timeout=CALL_TIMEOUT)
        except grpc.RpcError as error:
            check_status(error)

    run()


@FUZZ
@given(messages=st.lists(st.one_of(st.just(BATCH.SerializeToString()), payloads(BATCH.SerializeToString())),
                         min_size=1, max_size=4))
def test_batch_streams_answer_a_client_status_to_any_bytes(channel: grpc.Channel, messages: list[bytes]) -> None:
    answers, error = raw_stream(channel, f"/{SERVICE_NAME}/EvaluateBatch", messages, timeout=CALL_TIMEOUT)
    if error is not None:
        check_status(error)
    for answer in answers:
        for result in pb.EvaluateBatchResponse.FromString(answer).results:
            assert result.WhichOneof("outcome") in ("evaluation", "error")


def test_the_server_is_healthy_and_right_after_the_fuzzing(server: RunningServer) -> None:
    with client_for(server) as client:
        assert client.health() == "SERVING"
        assert client.solve(ENDGAME, "6nt", 0, card_values=True).declarer_tricks == 2
        assert json.loads(pb.ScoreResponse.FromString(
            client.channel.unary_unary(f"/{SERVICE_NAME}/Score", request_serializer=None,
                                       response_deserializer=None)(VALID["Score"].SerializeToString())
        ).result_json)
    assert server.limits.calls.taken <= 1
