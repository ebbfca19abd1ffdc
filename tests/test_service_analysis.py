"""AnalyzeDeal end to end (a real server on 127.0.0.1, the real client)
against the in-process analyses (:mod:`solver.analysis`) and scoring
(:func:`solver.scoring.deal_value`); its bad input, the score's omissions,
and deadlines and cancellation reaching its search."""
from __future__ import annotations

import json
from fractions import Fraction
from typing import Iterator

import grpc
import pytest

from service_support import GUARD, client, client_for, random_deal, running_server, wait_until  # noqa: F401  (client: a fixture)

from solver import Deal, Position, Solver
from solver.analysis import (allpass_line, allpass_values, analyze_play, best_discard, discard_table,
                             discard_text)
from solver.engine import OPT_NONE
from solver.scoring import (AllPassOutcome, ContractOutcome, Decision, MisereOutcome, ScoringError, deal_value,
                            get_convention, handle_request)
from service import servicer
from service.client import AnalysisClient, ServiceError, contract_message
from service.proto import pb
from service.server import RunningServer

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
PLAYED = "As Ks 8s 7s 7h 9s Ac Tc 8c".split()
ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"
PLAYERS = ("0", "1", "2")
SEATS = {pb.SEAT_FIRST: 0, pb.SEAT_SECOND: 1, pb.SEAT_THIRD: 2}


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2) as running:
        yield running


def seat(value: int) -> int | None:
    return SEATS.get(value)


def line_tricks(messages) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(t.number, list(t.cards), [seat(s) for s in t.seats], t.already_played, seat(t.winner),
             t.talon_card or None) for t in messages]


def expected_tricks(tricks) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(t.number, [str(p.card) for p in t.cards], [p.seat for p in t.cards], t.already_played, t.winner,
             None if t.talon_card is None else str(t.talon_card)) for t in tricks]


def check_play(message: pb.PlayAnalysis, expected) -> None:  # type: ignore[no-untyped-def]
    assert message.deal == str(expected.deal)
    assert seat(message.declarer) == expected.declarer
    assert message.discard == ("" if expected.discard is None else discard_text(expected.discard))
    assert message.value == expected.value
    got = [(s.trick, seat(s.seat), s.card, seat(s.counted_seat), s.value_before, s.value_after, s.cost,
            list(s.best_cards)) for s in message.steps]
    assert got == [(s.trick, s.seat, str(s.card), s.counted_seat, s.value_before, s.value_after, s.cost,
                    [str(c) for c in s.best_cards]) for s in expected.steps]
    if expected.line is None:
        assert not message.HasField("best_line")
    else:
        assert message.best_line.value == expected.line.value
        assert list(message.best_line.cards) == [str(c) for c in expected.line.cards]
        assert line_tricks(message.best_line.tricks) == expected_tricks(expected.line.tricks)


# ---- the table -----------------------------------------------------------------

@pytest.mark.parametrize("deal", [DEAL] + [str(random_deal(seed)) for seed in (11, 12)])
def test_table_and_allpass_values(client: AnalysisClient, deal: str) -> None:
    answer = client.analyze_deal(deal)
    table = discard_table(deal)
    assert answer.deal == str(Deal.parse(deal))
    assert seat(answer.table.leader) == table.leader == 0
    assert len(answer.table.rows) == 3
    for got, row in zip(answer.table.rows, table.rows):
        assert seat(got.seat) == row.seat
        assert list(got.tricks) == list(row.tricks)
        assert list(got.discards) == [discard_text(s.discard) for s in row.strains]
        assert (got.misere, got.misere_discard) == (row.misere.value, discard_text(row.misere.discard))
        if row.best_contract is None:
            assert not got.HasField("best_contract")
        else:
            assert got.best_contract == contract_message(row.best_contract)
    assert list(answer.allpass_tricks) == list(allpass_values(deal).tricks)
    for part in ("best_discard", "play", "allpass_line", "score"):
        assert not answer.HasField(part)
    assert answer.score_omitted == "no convention given (scoring.convention)"


def test_a_deal_without_talon_has_no_table(client: AnalysisClient) -> None:
    answer = client.analyze_deal(ENDGAME, convention="sochi")
    assert not answer.HasField("table")
    assert list(answer.allpass_tricks) == list(allpass_values(ENDGAME).tricks)
    assert "no contract" in answer.score_omitted


# ---- a contract played ---------------------------------------------------------

def test_trick_contract_played_and_scored(client: AnalysisClient) -> None:
    answer = client.analyze_deal(DEAL, "6h", 1, played=PLAYED, convention="sochi", decisions=("whist", "pass"))
    found = best_discard(DEAL, 1, "6h")
    assert answer.best_discard.declarer_tricks == found.value
    assert list(answer.best_discard.discards) == [discard_text(d) for d in found.discards]
    assert answer.best_discard.made == found.made
    analysis = analyze_play(DEAL, 1, "6h", PLAYED)
    check_play(answer.play, analysis)
    assert analysis.mistakes and any(step.cost for step in answer.play.steps)
    # The score: the cards played, then the best line to the end; seat 2 (the
    # first defender of seat 1) whists, seat 0 passes.
    end = analysis.final
    for card in analysis.line.cards:
        end = end.play(card)
    tricks = end.tricks_taken
    assert sum(tricks) == 10 and tricks[1] == analysis.line.value
    outcome = ContractOutcome(players=PLAYERS, declarer="1", contract=6, strain="h",
                              decisions={"2": Decision.WHIST, "0": Decision.PASS},
                              tricks={PLAYERS[s]: tricks[s] for s in range(3)})
    values = deal_value(get_convention("sochi"), outcome)
    score = answer.score
    assert list(score.tricks) == list(tricks) and score.played
    assert [Fraction(v) for v in score.deal_value] == [values[p] for p in PLAYERS]
    assert json.loads(score.result_json) == handle_request(
        {"convention": "sochi", "kind": "deal", "input": json.loads(score.input_json)})
    assert not answer.score_omitted


def test_the_declarers_own_discard(client: AnalysisClient) -> None:
    answer = client.analyze_deal(DEAL, "6h", 1, discard="7c 7d", played=PLAYED[:3])
    check_play(answer.play, analyze_play(DEAL, 1, "6h", PLAYED[:3], discard="7c 7d"))
    assert answer.play.discard == "7c7d"


@pytest.mark.parametrize("decisions, returned, played", [
    (("pass", "pass"), False, False),
    (("half_whist", "pass"), False, False),
    (("pass", "half_whist"), True, True),
    (("whist", "whist"), False, True),
])
def test_whether_the_deal_is_played_follows_from_the_decisions(client: AnalysisClient, decisions: tuple[str, str],
                                                                returned: bool, played: bool) -> None:
    answer = client.analyze_deal(DEAL, "7h", 1, convention="leningrad", decisions=decisions,
                                 half_whist_returned=returned)
    analysis = analyze_play(DEAL, 1, "7h")
    end = analysis.final
    for card in analysis.line.cards:
        end = end.play(card)
    first, second = Decision(decisions[0]), Decision(decisions[1])
    passer = "2" if second is Decision.HALF_WHIST else "0"  # the defender who passed returns
    outcome = ContractOutcome(players=PLAYERS, declarer="1", contract=7, strain="h",
                              decisions={"2": first, "0": second}, returned_by=passer if returned else None,
                              tricks={PLAYERS[s]: end.tricks_taken[s] for s in range(3)} if played else {})
    values = deal_value(get_convention("leningrad"), outcome)
    assert answer.score.played == played
    assert ("tricks" in json.loads(answer.score.input_json)) == played
    assert [Fraction(v) for v in answer.score.deal_value] == [values[p] for p in PLAYERS]


def test_misere_played_and_scored(client: AnalysisClient) -> None:
    deal = str(random_deal(21))
    played = [str(card) for card in _some_cards(deal, "misere", 2, 4)]
    answer = client.analyze_deal(deal, "misere", 2, played=played, convention="rostov")
    check_play(answer.play, analyze_play(deal, 2, "misere", played))
    found = best_discard(deal, 2, "misere")
    assert (answer.best_discard.declarer_tricks, answer.best_discard.made) == (found.value, found.value == 0)
    tricks = tuple(answer.score.tricks)
    assert tricks[2] == analyze_play(deal, 2, "misere", played).line.value
    values = deal_value(get_convention("rostov"), MisereOutcome(PLAYERS, "2", dict(zip(PLAYERS, tricks))))
    assert [Fraction(v) for v in answer.score.deal_value] == [values[p] for p in PLAYERS]


def _some_cards(deal: str, contract: str, declarer: int, count: int) -> list:  # type: ignore[type-arg]
    """The first ``count`` cards of the best line after the best discard."""
    analysis = analyze_play(deal, declarer, contract)
    return list(analysis.line.cards[:count])


def test_allpass_played_and_scored(client: AnalysisClient) -> None:
    played = ["Td", "7d", "8d", "Jh"]
    answer = client.analyze_deal(DEAL, "allpass", played=played, convention="sochi")
    analysis = analyze_play(DEAL, 0, "allpass", played)
    check_play(answer.play, analysis)
    assert list(answer.allpass_tricks) == list(allpass_values(analysis.final).tricks)
    line = allpass_line(analysis.final)
    assert list(answer.allpass_line.tricks) == list(line.tricks)
    assert answer.allpass_line.unclaimed == line.unclaimed == 0
    assert list(answer.allpass_line.cards) == [str(c) for c in line.cards]
    assert line_tricks(answer.allpass_line.by_trick) == expected_tricks(line.tricks_played)
    first, second = answer.allpass_line.by_trick[:2]
    assert (first.talon_card, first.already_played, first.cards[0]) == ("Kh", 1, "Jh")  # the trick under way
    assert second.talon_card == "" and seat(second.winner) is not None
    values = deal_value(get_convention("sochi"), AllPassOutcome(PLAYERS, dict(zip(PLAYERS, line.tricks))))
    assert list(answer.score.tricks) == list(line.tricks)
    assert [Fraction(v) for v in answer.score.deal_value] == [values[p] for p in PLAYERS]


def test_allpass_from_the_start_shows_the_talon_tricks(client: AnalysisClient) -> None:
    answer = client.analyze_deal(DEAL, "allpass", declarer=2)
    assert answer.play.value == Solver().solve(Position.start(DEAL, "allpass", 2))
    assert [t.talon_card for t in answer.allpass_line.by_trick[:2]] == ["Jd", "Kh"]
    four = client.analyze_deal(DEAL, "allpass", four_players=True, no_talon_leads=True, convention="sochi")
    assert list(four.allpass_tricks) == list(allpass_values(DEAL, talon_leads=False, four_players=True).tricks)
    assert four.score_omitted == "a four-player all-pass is not scored here"


@pytest.mark.parametrize("options, reason", [
    ({}, "no convention given"),
    ({"convention": "sochi"}, "both defenders' decisions"),
    ({"convention": "sochi", "decisions": ("whist", None)}, "both defenders' decisions"),
])
def test_the_score_is_left_out_when_the_request_lacks_what_it_needs(client: AnalysisClient, options: dict,
                                                                    reason: str) -> None:
    answer = client.analyze_deal(DEAL, "6h", 1, **options)
    assert not answer.HasField("score") and reason in answer.score_omitted
    assert answer.play.value == analyze_play(DEAL, 1, "6h").value


def test_an_endgame_is_analysed_but_not_scored(client: AnalysisClient) -> None:
    answer = client.analyze_deal(ENDGAME, "6nt", 0, played=["Ks"], convention="sochi", decisions=("whist", "pass"))
    check_play(answer.play, analyze_play(ENDGAME, 0, "6nt", ["Ks"]))
    assert not answer.HasField("best_discard") and not answer.HasField("score")
    assert "endgame" in answer.score_omitted


# ---- bad input -----------------------------------------------------------------

def request(**fields: object) -> pb.AnalyzeDealRequest:
    base: dict[str, object] = {"deal": DEAL, "contract": pb.Contract(kind=pb.CONTRACT_KIND_TRICKS,
                                                                      strain=pb.STRAIN_HEARTS, level=6),
                               "declarer": pb.SEAT_SECOND}
    base.update(fields)
    return pb.AnalyzeDealRequest(**{k: v for k, v in base.items() if v is not None})  # type: ignore[arg-type]


def scoring(**fields: object) -> pb.DealScoring:
    base: dict[str, object] = {"convention": pb.CONVENTION_SOCHI, "first_defender": pb.DECISION_WHIST,
                               "second_defender": pb.DECISION_PASS}
    base.update(fields)
    return pb.DealScoring(**base)  # type: ignore[arg-type]


MISERE = pb.Contract(kind=pb.CONTRACT_KIND_MISERE)
BAD_FIELDS = [
    ("no contract kind", request(contract=pb.Contract(level=6)), "field 'contract.kind' is required"),
    ("unknown kind", request(contract=pb.Contract(kind=12)), "field 'contract.kind': unknown ContractKind value 12"),
    ("no strain", request(contract=pb.Contract(kind=pb.CONTRACT_KIND_TRICKS, level=7)),
     "field 'contract.strain' is required for CONTRACT_KIND_TRICKS"),
    ("no level", request(contract=pb.Contract(kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_CLUBS)),
     "field 'contract.level' is required for CONTRACT_KIND_TRICKS: 6 to 10"),
    ("level 11", request(contract=pb.Contract(kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_CLUBS, level=11)),
     "field 'contract.level': 11 is out of range 6..10"),
    ("level on misere", request(contract=pb.Contract(kind=pb.CONTRACT_KIND_MISERE, level=6)),
     "field 'contract.level' must be 0 for CONTRACT_KIND_MISERE"),
    ("strain on misere", request(contract=pb.Contract(kind=pb.CONTRACT_KIND_MISERE, strain=pb.STRAIN_SPADES)),
     "field 'contract.strain' must be unset for CONTRACT_KIND_MISERE"),
    ("no declarer", request(declarer=None), "field 'declarer' is required"),
    ("unknown seat", request(declarer=7), "field 'declarer': unknown Seat value 7"),
    ("declarer without contract", request(contract=None), "field 'declarer' needs field 'contract'"),
    ("played without contract", request(contract=None, declarer=None, played=["As"]),
     "field 'played' needs field 'contract'"),
    ("discard without contract", request(contract=None, declarer=None, discard="AsKs"),
     "field 'discard' needs field 'contract'"),
    ("talon leads on a trick contract", request(no_talon_leads=True),
     "field 'no_talon_leads' applies only to all-pass"),
    ("too many cards", request(played=["As"] * 31), "field 'played' holds 31 cards; the limit is 30"),
    ("long deal", request(deal="A" * 1001), "field 'deal' is 1001 characters long; the limit is 1000"),
    ("long discard", request(discard="x" * 1001), "field 'discard' is 1001 characters long"),
    ("decision on misere", request(contract=MISERE, scoring=scoring()),
     "field 'scoring.first_defender' applies only to a trick contract"),
    ("unknown decision", request(scoring=scoring(second_defender=9)),
     "field 'scoring.second_defender': unknown Decision value 9"),
    ("returned without half-whist", request(scoring=scoring(half_whist_returned=True)),
     "field 'scoring.half_whist_returned' needs a half-whist"),
    ("unknown convention", request(scoring=scoring(convention=7)),
     "field 'scoring.convention': unknown Convention value 7"),
    ("overrides without convention", request(scoring=scoring(convention=0, option_overrides_json='{"a": 1}')),
     "field 'scoring.option_overrides_json' needs field 'scoring.convention'"),
    ("overrides not JSON", request(scoring=scoring(option_overrides_json="{x")),
     "field 'scoring.option_overrides_json' is not valid JSON"),
]


@pytest.mark.parametrize("name, request_, message", BAD_FIELDS, ids=[c[0] for c in BAD_FIELDS])
def test_bad_fields(client: AnalysisClient, name: str, request_: pb.AnalyzeDealRequest, message: str) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        client.stub.AnalyzeDeal(request_, timeout=GUARD)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in caught.value.details()


def error_of(action) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError) as caught:
        action()
    return str(caught.value)


NOTATION_CASES = [
    ("two hands", dict(deal="AQ7.K98.KT.QJ K.AQ7.AQ7.T87"), lambda: Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87")),
    ("illegal card", dict(played=["As", "Ac"]), lambda: analyze_play(DEAL, 1, "6h", ["As", "Ac"])),
    ("not a card", dict(played=["Zz"]), lambda: analyze_play(DEAL, 1, "6h", ["Zz"])),
    ("discard not held", dict(discard="Js Ks"), lambda: analyze_play(DEAL, 1, "6h", discard="Js Ks")),
    ("discard of one card", dict(discard="Ks"), lambda: analyze_play(DEAL, 1, "6h", discard="Ks")),
    ("discard in all-pass", dict(contract=pb.Contract(kind=pb.CONTRACT_KIND_ALL_PASS), declarer=None,
                                 discard="Ks7d"), lambda: analyze_play(DEAL, 0, "allpass", discard="Ks7d")),
    ("discard without talon", dict(deal=ENDGAME, discard="AsKs"),
     lambda: analyze_play(ENDGAME, 1, "6h", discard="AsKs")),
    ("talon leads need seat 0", dict(contract=None, declarer=None, leader=pb.SEAT_THIRD),
     lambda: Position.start(DEAL, "allpass", 0, 2)),
]


@pytest.mark.parametrize("name, fields, action", NOTATION_CASES, ids=[c[0] for c in NOTATION_CASES])
def test_bad_input_answers_the_analysis_message(client: AnalysisClient, name: str, fields: dict,
                                                action) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        client.stub.AnalyzeDeal(request(**fields), timeout=GUARD)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == error_of(action)


SCORING_CASES = [
    ("half-whist on an 8", dict(contract=pb.Contract(kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_HEARTS,
                                                     level=8),
                                scoring=scoring(first_defender=pb.DECISION_HALF_WHIST)),
     ContractOutcome(PLAYERS, "1", 8, {"2": Decision.HALF_WHIST, "0": Decision.PASS}, strain="h"), {}),
    ("Stalingrad", dict(contract=pb.Contract(kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_SPADES, level=6),
                        scoring=scoring(option_overrides_json='{"stalingrad": true}')),
     ContractOutcome(PLAYERS, "1", 6, {"2": Decision.WHIST, "0": Decision.PASS}, strain="s"),
     {"stalingrad": True}),
]


@pytest.mark.parametrize("name, fields, outcome, overrides", SCORING_CASES, ids=[c[0] for c in SCORING_CASES])
def test_bad_scoring_answers_the_scoring_message_before_searching(
        client: AnalysisClient, server: RunningServer, name: str, fields: dict, outcome: ContractOutcome,
        overrides: dict) -> None:
    before = server.pool.stats()
    with pytest.raises(grpc.RpcError) as caught:
        client.stub.AnalyzeDeal(request(**fields), timeout=GUARD)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(ScoringError) as expected:
        deal_value(get_convention("sochi", overrides), outcome)
    assert caught.value.details() == str(expected.value)
    after = server.pool.stats()
    assert (after.completed, after.stopped) == (before.completed, before.stopped)  # no search ran


def test_unknown_scoring_option(client: AnalysisClient) -> None:
    with pytest.raises(ServiceError) as caught:
        client.analyze_deal(DEAL, "6h", 1, convention="sochi", option_overrides={"no_such_option": 1},
                            decisions=("whist", "pass"))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.message == error_of(lambda: get_convention("sochi", {"no_such_option": 1}))


def test_unexpected_errors_are_internal(client: AnalysisClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(servicer, "analyze_deal", broken)
    with pytest.raises(ServiceError) as caught:
        client.analyze_deal(DEAL)
    assert caught.value.code == grpc.StatusCode.INTERNAL and "a bug" not in caught.value.message
    monkeypatch.undo()
    assert list(client.analyze_deal(ENDGAME).allpass_tricks) == list(allpass_values(ENDGAME).tricks)


def test_typed_client_checks_its_arguments(client: AnalysisClient) -> None:
    with pytest.raises(ValueError, match="unknown convention"):
        client.analyze_deal(DEAL, "6h", 1, convention="moscow")
    with pytest.raises(ValueError, match="unknown decision"):
        client.analyze_deal(DEAL, "6h", 1, convention="sochi", decisions=("whist", "maybe"))
    with pytest.raises(ValueError, match="a seat is 0, 1 or 2"):
        client.analyze_deal(DEAL, "6h", 3)


# ---- deadlines and cancellation ------------------------------------------------

SLOW_DEAL = str(random_deal(7))  # the table: 18 best-discard searches, minutes for plain alpha-beta


def plain_alpha_beta(solver: Solver) -> None:
    solver.set_options(OPT_NONE)


def test_deadline_stops_the_analysis_and_the_worker_serves_again() -> None:
    with running_server(workers=1, solver_setup=plain_alpha_beta) as server, client_for(server) as client:
        with pytest.raises(ServiceError) as caught:
            client.analyze_deal(SLOW_DEAL, timeout=1.0)
        assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_until(lambda: server.pool.stats().stopped == 1 and server.pool.stats().busy_workers == 0)
        assert server.pool.stats().completed == 0
        assert list(client.analyze_deal(ENDGAME).allpass_tricks) == list(allpass_values(ENDGAME).tricks)


def test_cancelled_analysis_stops_its_search() -> None:
    with running_server(workers=1, solver_setup=plain_alpha_beta) as server, client_for(server) as client:
        future = client.stub.AnalyzeDeal.future(pb.AnalyzeDealRequest(deal=SLOW_DEAL))
        assert wait_until(lambda: server.pool.stats().busy_workers == 1)
        future.cancel()
        assert wait_until(lambda: server.pool.stats().stopped == 1 and server.pool.stats().busy_workers == 0)
        assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
