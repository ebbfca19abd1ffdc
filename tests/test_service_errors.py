"""Bad input and limits for every RPC: the right status and a message that
names the problem (the notation's own message where it is the notation's
error); a bad batch item answers an error result and the stream goes on; an
unexpected server error is INTERNAL, never UNKNOWN."""
from __future__ import annotations

import json
from typing import Iterator

import grpc
import pytest

from service_support import GUARD, client, client_for, running_server, wait_until  # noqa: F401  (client: a fixture)

from solver import Deal, Hand, Position, Solver
from solver.engine import OPT_NONE
from solver.scoring import handle_request
from service import convert
from service.client import AnalysisClient, BatchItem, ServiceError
from service.proto import pb
from service.server import RunningServer

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"
MAX_MESSAGE = 64 * 1024
MAX_ITEMS = 8


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=1, max_message_bytes=MAX_MESSAGE, max_batch_items=MAX_ITEMS) as running:
        yield running


def call_error(call, request) -> grpc.RpcError:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=GUARD)
    return caught.value


def notation_message(action) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError) as caught:
        action()
    return str(caught.value)


def position(**fields: object) -> pb.Position:
    base: dict[str, object] = {"deal": DEAL, "kind": pb.CONTRACT_KIND_TRICKS, "strain": pb.STRAIN_CLUBS,
                               "declarer": pb.SEAT_SECOND}
    base.update(fields)
    return pb.Position(**base)  # type: ignore[arg-type]


# ---- Solve ---------------------------------------------------------------------

SOLVE_CASES = [
    ("no position", pb.SolveRequest(), "field 'position' is required"),
    ("no kind", pb.SolveRequest(position=position(kind=0)), "field 'kind' is required"),
    ("unknown kind", pb.SolveRequest(position=position(kind=17)), "unknown ContractKind value 17"),
    ("no strain", pb.SolveRequest(position=position(strain=0)), "field 'strain' is required"),
    ("unknown strain", pb.SolveRequest(position=position(strain=9)), "unknown Strain value 9"),
    ("strain on misere", pb.SolveRequest(position=position(kind=pb.CONTRACT_KIND_MISERE)),
     "field 'strain' must be unset for CONTRACT_KIND_MISERE"),
    ("no declarer", pb.SolveRequest(position=position(declarer=0)), "field 'declarer' is required"),
    ("unknown seat", pb.SolveRequest(position=position(leader=4)), "field 'leader': unknown Seat value 4"),
    ("four players on a trick contract", pb.SolveRequest(position=position(four_players=True)),
     "field 'four_players' applies only to CONTRACT_KIND_ALL_PASS"),
    ("deal text too long", pb.SolveRequest(position=position(deal="A" * 1001)),
     "field 'deal' is 1001 characters long; the limit is 1000"),
    ("talon text too long", pb.SolveRequest(position=position(talon="." * 2000)),
     "field 'talon' is 2000 characters long; the limit is 1000"),
    ("too many cards played", pb.SolveRequest(position=position(played=["7s"] * 31)),
     "field 'played' holds 31 cards; the limit is 30"),
]


@pytest.mark.parametrize("name, request_, message", SOLVE_CASES, ids=[c[0] for c in SOLVE_CASES])
def test_solve_bad_fields(client: AnalysisClient, name: str, request_: pb.SolveRequest, message: str) -> None:
    error = call_error(client.stub.Solve, request_)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in error.details()


NOTATION_CASES = [
    ("two hands", position(deal="AQ7.K98.KT.QJ K.AQ7.AQ7.T87"),
     lambda: Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87")),
    ("bad rank", position(deal=DEAL.replace("QJ", "QZ")), lambda: Deal.parse(DEAL.replace("QJ", "QZ"))),
    ("talon holds a dealt card", position(talon="A..."),
     lambda: Deal(Deal.parse(DEAL).hands, Hand.parse("A..."))),
    ("card not held", position(played=["7s", "Ks", "Jh"]),
     lambda: Position.after(DEAL, "6c", 1, ["7s", "Ks", "Jh"])),
    ("must follow suit", position(played=["7s", "Ac"]), lambda: Position.after(DEAL, "6c", 1, ["7s", "Ac"])),
    ("not a card", position(played=["Zz"]), lambda: Position.after(DEAL, "6c", 1, ["Zz"])),
    ("two cards in one", position(played=["7s Ks"]), lambda: Position.after(DEAL, "6c", 1, ["7s Ks"])),
    ("talon leads need seat 0", position(kind=pb.CONTRACT_KIND_ALL_PASS, strain=0, leader=pb.SEAT_THIRD),
     lambda: Position.start(DEAL, "allpass", 1, 2)),
]


@pytest.mark.parametrize("name, message_, action", NOTATION_CASES, ids=[c[0] for c in NOTATION_CASES])
def test_solve_answers_the_notations_message(client: AnalysisClient, name: str, message_: pb.Position,
                                             action) -> None:  # type: ignore[no-untyped-def]
    error = call_error(client.stub.Solve, pb.SolveRequest(position=message_))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == notation_message(action)


def test_solve_a_finished_deal(client: AnalysisClient) -> None:
    endgame, played = "A... K... Q...", ["As", "Ks", "Qs"]
    error = call_error(client.stub.Solve, pb.SolveRequest(
        position=position(deal=endgame, strain=pb.STRAIN_NO_TRUMP, played=played)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    finished = Position.after(endgame, "6nt", 1, played)
    assert error.details() == notation_message(lambda: Solver().solve(finished))


def test_oversized_message_names_the_limit(client: AnalysisClient) -> None:
    error = call_error(client.stub.Solve, pb.SolveRequest(position=position(deal="A" * (2 * MAX_MESSAGE))))
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert str(MAX_MESSAGE) in error.details()


def test_typed_client_raises_service_error(client: AnalysisClient) -> None:
    with pytest.raises(ServiceError) as caught:
        client.solve(DEAL, "6c", 1, played=["Ac"])
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.message == notation_message(lambda: Position.after(DEAL, "6c", 1, ["Ac"]))


# ---- EvaluateBatch -------------------------------------------------------------

def test_batch_bad_fields_are_item_errors(client: AnalysisClient) -> None:
    items = [
        pb.BatchItem(id="ok", deal=ENDGAME, kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_NO_TRUMP,
                     declarer=pb.SEAT_FIRST),
        pb.BatchItem(id="no kind", deal=ENDGAME, declarer=pb.SEAT_FIRST),
        pb.BatchItem(id="no declarer", deal=ENDGAME, kind=pb.CONTRACT_KIND_MISERE),
        pb.BatchItem(id="all-pass leader", deal=DEAL, kind=pb.CONTRACT_KIND_ALL_PASS, declarer=pb.SEAT_FIRST,
                     leader=pb.SEAT_SECOND),
        pb.BatchItem(id="seat 9", deal=ENDGAME, kind=pb.CONTRACT_KIND_MISERE, declarer=9),
        pb.BatchItem(id="long", deal="AK " * 400, kind=pb.CONTRACT_KIND_MISERE, declarer=pb.SEAT_FIRST),
    ]
    results = {r.id: r for r in client.evaluate_batch(items)}
    assert results["ok"].ok and results["ok"].declarer_tricks == 2
    assert "field 'kind' is required" in results["no kind"].error
    assert "field 'declarer' is required" in results["no declarer"].error
    assert "led by seat 0" in results["all-pass leader"].error
    assert "unknown Seat value 9" in results["seat 9"].error
    assert results["long"].error == "field 'deal' is 1200 characters long; the limit is 1000"


def test_batch_over_the_item_limit(client: AnalysisClient) -> None:
    items = [BatchItem(ENDGAME, "6nt", 0, id=str(i)) for i in range(MAX_ITEMS + 3)]
    seen = []
    with pytest.raises(ServiceError) as caught:
        for result in client.evaluate_batch(items):
            seen.append(result.index)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert f"max_batch_items={MAX_ITEMS}" in caught.value.message
    assert sorted(seen) == list(range(MAX_ITEMS))


def test_batch_oversized_item(client: AnalysisClient) -> None:
    items = [BatchItem(ENDGAME, "6nt", 0), BatchItem("A" * (2 * MAX_MESSAGE), "6nt", 0)]
    with pytest.raises(ServiceError) as caught:
        list(client.evaluate_batch(items))
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert str(MAX_MESSAGE) in caught.value.message


# ---- Score ---------------------------------------------------------------------

DEAL_INPUT = {"type": "contract", "players": ["A", "B", "C"], "declarer": "A", "contract": 6,
              "defenders": ["B", "C"], "decisions": {"B": "whist", "C": "pass"},
              "tricks": {"A": 6, "B": 4, "C": 0}}


def score_request(**fields: object) -> pb.ScoreRequest:
    base: dict[str, object] = {"convention": pb.CONVENTION_SOCHI, "kind": pb.SCORE_KIND_DEAL,
                               "input_json": json.dumps(DEAL_INPUT)}
    base.update(fields)
    return pb.ScoreRequest(**base)  # type: ignore[arg-type]


SCORE_CASES = [
    ("no convention", score_request(convention=0), "field 'convention' is required"),
    ("unknown convention", score_request(convention=8), "unknown Convention value 8"),
    ("no kind", score_request(kind=0), "field 'kind' is required"),
    ("no input", score_request(input_json=""), "field 'input_json' is required"),
    ("input not JSON", score_request(input_json="{deal"), "field 'input_json' is not valid JSON"),
    ("input a list", score_request(input_json="[1, 2]"), "field 'input_json' must be a JSON object, got list"),
    ("overrides a string", score_request(option_overrides_json='"x"'),
     "field 'option_overrides_json' must be a JSON object"),
]


@pytest.mark.parametrize("name, request_, message", SCORE_CASES, ids=[c[0] for c in SCORE_CASES])
def test_score_bad_fields(client: AnalysisClient, name: str, request_: pb.ScoreRequest, message: str) -> None:
    error = call_error(client.stub.Score, request_)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in error.details()


BAD_SCORING = [
    ("unknown option", {"option_overrides": {"no_such_option": 1}, "input": DEAL_INPUT}),
    ("bad option value", {"option_overrides": {"whist_responsibility": "most"}, "input": DEAL_INPUT}),
    ("unknown deal type", {"input": {**DEAL_INPUT, "type": "bridge"}}),
    ("tricks do not add up", {"input": {**DEAL_INPUT, "tricks": {"A": 6, "B": 4, "C": 3}}}),
]


@pytest.mark.parametrize("name, change", BAD_SCORING, ids=[c[0] for c in BAD_SCORING])
def test_score_answers_the_scoring_message(client: AnalysisClient, name: str, change: dict) -> None:
    vector = {"convention": "sochi", "kind": "deal", "option_overrides": {}, **change}
    with pytest.raises(ServiceError) as caught:
        client.score("sochi", "deal", vector["input"], option_overrides=vector["option_overrides"])
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.message == notation_message(lambda: handle_request(vector))


# ---- unexpected errors and the call limit --------------------------------------

def test_unexpected_errors_are_internal_not_unknown(client: AnalysisClient,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(convert, "solve", broken)
    monkeypatch.setattr(convert, "batch_request", broken)
    monkeypatch.setattr(convert, "score_request", broken)
    with pytest.raises(ServiceError) as solve_error:
        client.solve(DEAL, "6c", 1)
    with pytest.raises(ServiceError) as batch_error:
        list(client.evaluate_batch([BatchItem(ENDGAME, "6nt", 0)]))
    with pytest.raises(ServiceError) as score_error:
        client.score("sochi", "deal", DEAL_INPUT)
    for caught in (solve_error, batch_error, score_error):
        assert caught.value.code == grpc.StatusCode.INTERNAL
        assert "a bug" not in caught.value.message
    monkeypatch.undo()
    assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
    assert [r.declarer_tricks for r in client.evaluate_batch([BatchItem(ENDGAME, "6nt", 0)])] == [2]


def test_calls_over_the_concurrency_limit_are_refused() -> None:
    with running_server(workers=1, max_concurrent_rpcs=1,
                        solver_setup=lambda solver: solver.set_options(OPT_NONE)) as server:
        with client_for(server) as client:
            slow = client.stub.Solve.future(pb.SolveRequest(position=position(kind=pb.CONTRACT_KIND_MISERE,
                                                                              strain=0)))
            assert wait_until(lambda: server.pool.stats().busy_workers == 1)
            error = call_error(client.stub.Solve, pb.SolveRequest(position=position()))
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            slow.cancel()
            assert wait_until(lambda: server.pool.stats().busy_workers == 0)
            assert wait_until(lambda: _answers(client))


def _answers(client: AnalysisClient) -> bool:
    try:
        return client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
    except ServiceError as error:
        assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED  # the cancelled call is still winding down
        return False


def test_typed_client_checks_its_arguments_before_sending(client: AnalysisClient) -> None:
    with pytest.raises(ValueError, match="a seat is 0, 1 or 2"):
        client.solve(DEAL, "6c", 3)
    with pytest.raises(ValueError, match="out of range 6..10"):
        client.solve(DEAL, "5c", 1)
    with pytest.raises(ValueError, match="unknown convention"):
        client.score("moscow", "deal", DEAL_INPUT)
    with pytest.raises(ValueError, match="unknown score kind"):
        client.score("sochi", "table", DEAL_INPUT)
