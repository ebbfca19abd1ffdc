"""The typed scoring requests: :class:`solver.scoring.ScoringRequest` is what
the JSON line layer, the Score RPC and ``POST /api/v1/score`` hand to the
scoring (across the ScoreWorkers' process boundary as it is), and the deal
analysis scores through the typed outcomes, never through the JSON handler."""
from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from solver.analysis.deal import DealRequest, RecordScore, ScoringPlan, analyze_deal
from solver.notation import Contract, Deal
from solver.scoring import (ContractOutcome, Decision, ScoringError, ScoringRequest, answer_request, get_convention,
                            handle_request, outcome_from_json, outcome_json, play_game, score_deal,
                            scoring_request)
from solver.scoring import jsonio
from solver.scoring.drawing import game_json
from service.score_workers import ScoreFailed, ScoreWorkers

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
LOCAL_DATA = Path(__file__).resolve().parent / "data"
DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
VECTORS = (json.loads((DATA / "scoring-vectors.json").read_text(encoding="utf-8"))["vectors"]
           if (DATA / "scoring-vectors.json").exists() else [])


@pytest.mark.skipif(not VECTORS, reason="the shared scoring vectors are absent")
def test_typed_requests_answer_every_vector() -> None:
    for vector in VECTORS:
        request = scoring_request(vector)
        assert pickle.loads(pickle.dumps(request)) == request
        assert answer_request(request) == vector["expected"], vector["id"]


def test_a_bad_request_names_its_problem_before_any_scoring() -> None:
    with pytest.raises(ScoringError, match="kind 'dealz' unknown"):
        scoring_request({"convention": "sochi", "kind": "dealz", "input": {}})
    with pytest.raises(ScoringError, match="unknown convention"):
        scoring_request({"convention": "moscow", "kind": "deal", "input": {}})


def test_a_game_is_played_under_the_requests_convention() -> None:
    game = json.loads((LOCAL_DATA / "pool-example.json").read_text(encoding="utf-8"))
    assert game_json(play_game(get_convention(game["convention"]), game)) == game_json(jsonio.game_from_json(game))
    other = play_game(get_convention("leningrad"), {**game, "convention": "no such convention"})
    assert game_json(other) == game_json(jsonio.game_from_json({**game, "convention": "leningrad"}))


def test_outcome_json_reads_back() -> None:
    outcome = ContractOutcome(("0", "1", "2"), "1", 7, {"2": Decision.WHIST, "0": Decision.HALF_WHIST},
                              {"0": 2, "1": 7, "2": 1}, returned_by="2", strain="h")
    data = outcome_json(outcome)
    assert list(data) == ["type", "players", "declarer", "contract", "strain", "decisions", "returned_by", "tricks"]
    assert outcome_from_json(json.loads(json.dumps(data))) == ContractOutcome(
        ("0", "1", "2"), "1", 7, {"2": "whist", "0": "half_whist"}, {"0": 2, "1": 7, "2": 1}, returned_by="2",
        strain="h")


def test_the_score_workers_take_typed_requests() -> None:
    workers = ScoreWorkers(1, 30.0)
    try:
        request = ScoringRequest(get_convention("sochi"), "deal", {
            "type": "misere", "players": ["a", "b", "c"], "declarer": "a", "tricks": {"a": 0, "b": 5, "c": 5}})
        assert json.loads(workers.run(request, ended=lambda: False)) == answer_request(request)
        bad = ScoringRequest(get_convention("sochi"), "deal", {"type": "misere"})
        with pytest.raises(ScoreFailed) as caught:
            workers.run(bad, ended=lambda: False)
        assert caught.value.kind == "invalid" and str(caught.value) == _error(lambda: answer_request(bad))
    finally:
        workers.close()


def _error(work) -> str:  # type: ignore[no-untyped-def]
    try:
        work()
    except ScoringError as error:
        return str(error)
    raise AssertionError("no error")


def test_the_deal_analysis_scores_without_the_json_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object) -> None:
        raise AssertionError("the JSON handler was called")

    for module in (jsonio, __import__("solver.scoring", fromlist=["x"])):
        monkeypatch.setattr(module, "handle_request", refused)
        monkeypatch.setattr(module, "scoring_request", refused)
    plan = ScoringPlan(get_convention("sochi"), Decision.WHIST, Decision.PASS)
    analysis = analyze_deal(DealRequest(Deal.parse(DEAL), Contract.parse("6c"), 1, scoring=plan))
    assert analysis.score is not None and analysis.score.played
    tricks = analysis.score.tricks
    assert tricks is not None and sum(tricks) == 10
    monkeypatch.undo()
    expected = handle_request({"convention": "sochi", "kind": "deal", "input": outcome_json(analysis.score.outcome)})
    assert jsonio.deal_score_json(analysis.score.records, analysis.score.value) == expected
    recorded = RecordScore(get_convention("rostov"), analysis.score.outcome)
    again = analyze_deal(DealRequest(Deal.parse(DEAL), Contract.parse("6c"), 1, scoring=recorded))
    assert again.score is not None
    assert again.score.records == score_deal(get_convention("rostov"), analysis.score.outcome).records
