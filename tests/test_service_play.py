"""AdvisePlay end to end: a real server on 127.0.0.1 and the real client,
against the in-process advisor (same seed and budget: the same answer
whatever the threads); bad input as INVALID_ARGUMENT with the advisor's
message; the layout limit; a deadline stopping the run."""
from __future__ import annotations

import math
import threading
from typing import Iterator

import grpc
import pytest

from service_support import client, client_for, running_server, wait_until  # noqa: F401  (client: a fixture)

from solver.advice import AdviceError, RunOptions, advise_play, play_request
from service.client import AnalysisClient, ServiceError, contract_message
from service.proto import pb
from service.server import RunningServer

# The constructed misère of test_advice_play_misere: 66 discards, spade leads catch 55, the others 45.
CATCHER_0, CATCHER_2, TALON = "T98.JT98.T98.", "KQJ.AKQ.AKQJ.", "..7.7"
# A 6♣ endgame where seat 1 has shown a spade and a club void.
ENDGAME = dict(hand="QJ.KQJ.7.", contract="6c", declarer=0, seat=2, played=["As", "9d", "Js", "7c", "Kh"],
               unseen="AK9.A7.KQ98.KQ8", prior_tricks=(2, 1, 1))
# A full deal in a dark whist, mid-play: too many layouts to enumerate.
FULL = dict(hand="AQ7.K98.KT.QJ", contract="6h", declarer=1, seat=0, talon="..J.K",
            played=["As", "Ks", "Js"])


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2, advice_workers=2) as running:
        yield running


def check_estimate(message: pb.Estimate, expected) -> None:  # type: ignore[no-untyped-def]
    same = (math.isnan(message.mean) and math.isnan(expected.mean)) or message.mean == expected.mean
    assert same and message.std_error == expected.std_error
    assert message.exact == ("" if expected.exact is None else str(expected.exact))


def check_play(answer: pb.AdvisePlayResponse, expected) -> None:  # type: ignore[no-untyped-def]
    assert answer.recommended == str(expected.recommended) and answer.sureness == expected.sureness
    assert [c.card for c in answer.cards] == [str(c.card) for c in expected.cards]
    for got, want in zip(answer.cards, expected.cards):
        check_estimate(got.declarer_tricks, want.declarer_tricks)
        check_estimate(got.value, want.value)
        check_estimate(got.declarer_fails, want.declarer_fails)
        assert got.fail_count == want.fail_count
    assert answer.outcome == expected.scenario.value and answer.discard_hidden == expected.discard_hidden
    assert list(answer.notes) == list(expected.notes)
    assert answer.run.layouts == expected.run.layouts and answer.run.complete == expected.run.complete


def test_misere_catcher_counts(client: AnalysisClient) -> None:
    answer = client.advise_play(CATCHER_0, "misere", 1, 0, talon=TALON, open_hands={2: CATCHER_2})
    expected = advise_play(play_request(CATCHER_0, "misere", 1, 0, talon=TALON, open_hands={2: CATCHER_2}),
                           RunOptions(layouts=500, workers=1))
    check_play(answer, expected)
    assert answer.run.complete and answer.run.layouts == 66
    assert {c.card: c.fail_count for c in answer.cards} == {
        c: 55 if c.endswith("s") else 45 for c in ("8s", "9s", "Ts", "8c", "9c", "Tc", "Jc", "8d", "9d", "Td")}


def test_endgame_voids(client: AnalysisClient) -> None:
    answer = client.advise_play(**ENDGAME)  # type: ignore[arg-type]
    expected = advise_play(play_request(**ENDGAME), RunOptions(workers=1))  # type: ignore[arg-type]
    check_play(answer, expected)
    assert [(v.seat, v.suits) for v in answer.voids] == [(pb.SEAT_FIRST, ""), (pb.SEAT_SECOND, "sc"),
                                                        (pb.SEAT_THIRD, "")]


def test_full_deal_samples_as_the_api_does(client: AnalysisClient) -> None:
    answer = client.advise_play(**FULL, whisters=[0], layouts=40, seed=3)  # type: ignore[arg-type]
    expected = advise_play(play_request(**FULL, whisters=[0]), RunOptions(layouts=40, seed=3, workers=1))  # type: ignore[arg-type]
    check_play(answer, expected)
    assert not answer.run.exact and answer.run.layouts == 40 and answer.discard_hidden
    assert any(c.value.std_error > 0 for c in answer.cards)


def _request(**change) -> pb.AdvisePlayRequest:  # type: ignore[no-untyped-def]
    fields = dict(hand=CATCHER_0, contract=contract_message("misere"), declarer=pb.SEAT_SECOND, seat=pb.SEAT_FIRST,
                  talon=TALON, open_hands=[pb.OpenHand(seat=pb.SEAT_THIRD, hand=CATCHER_2)],
                  convention=pb.CONVENTION_SOCHI)
    fields.update(change)
    return pb.AdvisePlayRequest(**fields)


@pytest.mark.parametrize("change, message", [
    (dict(contract=None), "field 'contract' is required"),
    (dict(seat=pb.SEAT_UNSPECIFIED), "field 'seat' is required"),
    (dict(convention=pb.CONVENTION_UNSPECIFIED), "field 'convention' is required"),
    (dict(open_hands=[pb.OpenHand(hand=CATCHER_2)]), "open_hands[0].seat"),
    (dict(whisters=[pb.SEAT_THIRD]), "misère is not whisted"),
    (dict(played=["As"]), "not in its hand"),
    (dict(hand="T98.JT98.T98"), "hand"),
    (dict(contract=contract_message("allpass")), "all-pass"),
])
def test_bad_requests_are_invalid(client: AnalysisClient, change: dict, message: str) -> None:
    if change.get("contract", 0) is None:
        change = {}
        request = _request()
        request.ClearField("contract")
    else:
        request = _request(**change)
    with pytest.raises(grpc.RpcError) as caught:
        client.stub.AdvisePlay(request, timeout=30)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in caught.value.details()


def test_the_advisors_message_is_the_servers() -> None:
    with pytest.raises(AdviceError) as local:
        play_request(CATCHER_0, "misere", 1, 0, talon=TALON, open_hands={2: CATCHER_2}, whisters=[2])
    with running_server(workers=1) as server, client_for(server) as connected:
        with pytest.raises(ServiceError) as remote:
            connected.advise_play(CATCHER_0, "misere", 1, 0, talon=TALON, open_hands={2: CATCHER_2}, whisters=[2])
    assert remote.value.code == grpc.StatusCode.INVALID_ARGUMENT and remote.value.message == str(local.value)


def test_layout_limit_and_deadline() -> None:
    with running_server(workers=1, max_advice_layouts=1000, advice_workers=2) as server, client_for(server) as conn:
        with pytest.raises(ServiceError) as caught:
            conn.advise_play(**FULL, mode="exact")  # type: ignore[arg-type]
        assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "max_advice_layouts=1000" in caught.value.message
        assert conn.advise_play(**FULL, layouts=5).run.layouts == 5  # type: ignore[arg-type]
    with running_server(workers=1, advice_workers=2) as server, client_for(server) as conn:
        with pytest.raises(ServiceError) as late:
            conn.advise_play(**FULL, layouts=150_000, timeout=0.5)  # type: ignore[arg-type]
        assert late.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_until(lambda: server.advice.active == 0 and not [
            t for t in threading.enumerate() if t.name.startswith("prefdd-advice")])
        assert conn.advise_play(CATCHER_0, "misere", 1, 0, talon=TALON, open_hands={2: CATCHER_2}).run.complete
