"""One orchestration of a deal's analysis: ``prefdd analyze --json`` and the
``AnalyzeDeal`` RPC (a real server on 127.0.0.1, the real client) answer the
same deals with the same values, field by field, the score included, and
both reach :func:`solver.analysis.deal.analyze_deal`."""
from __future__ import annotations

import contextlib
import io
import json
from typing import Any, Iterator

import pytest

from service_support import client, random_deal, running_server  # noqa: F401  (client: a fixture)

from solver import Deal, Hand, Position, cli
from solver.analysis import deal_after_discard
from solver.analysis import deal as deal_module
from service import servicer
from service.client import AnalysisClient
from service.proto import pb
from service.server import RunningServer

SEATS = {pb.SEAT_UNSPECIFIED: None, pb.SEAT_FIRST: 0, pb.SEAT_SECOND: 1, pb.SEAT_THIRD: 2}
STRAINS = {pb.STRAIN_SPADES: "s", pb.STRAIN_CLUBS: "c", pb.STRAIN_DIAMONDS: "d", pb.STRAIN_HEARTS: "h",
           pb.STRAIN_NO_TRUMP: "nt"}
DEALS = [str(random_deal(seed)) for seed in (3, 17)] + ["AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"]
ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2) as running:
        yield running


def analyze_cli(*argv: str) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["analyze", *argv, "--json"]) == 0
    return json.loads(out.getvalue())


def contract_text(message: pb.Contract) -> str | None:
    if message.kind == pb.CONTRACT_KIND_UNSPECIFIED:
        return None
    if message.kind == pb.CONTRACT_KIND_MISERE:
        return "misere"
    return f"{message.level}{STRAINS[message.strain]}"


def tricks_json(messages: Any) -> list[dict[str, Any]]:
    """Line tricks of the proto in the CLI's JSON form."""
    out = []
    for trick in messages:
        item: dict[str, Any] = {"number": trick.number, "seats": [SEATS[s] for s in trick.seats],
                                "cards": list(trick.cards), "winner": SEATS[trick.winner]}
        if trick.already_played:
            item["already_played"] = trick.already_played
        if trick.talon_card:
            item["talon"] = trick.talon_card
        out.append(item)
    return out


def rpc_as_cli_json(answer: pb.AnalyzeDealResponse, contract: str | None) -> dict[str, Any]:
    """The RPC's answer in the form ``prefdd analyze --json`` prints, every
    field mapped one by one."""
    out: dict[str, Any] = {"deal": answer.deal}
    if answer.HasField("table"):
        out["table"] = {"strains": ["s", "c", "d", "h", "nt"], "leader": SEATS[answer.table.leader], "rows": [
            {"seat": SEATS[row.seat], "tricks": list(row.tricks), "discards": list(row.discards),
             "misere": row.misere, "misere_discard": row.misere_discard,
             "best_contract": contract_text(row.best_contract) if row.HasField("best_contract") else None}
            for row in answer.table.rows]}
    if answer.HasField("best_discard"):
        out["best_discard"] = {"declarer_tricks": answer.best_discard.declarer_tricks,
                               "discards": list(answer.best_discard.discards)}
    if answer.allpass_tricks:
        out["allpass"] = {"player_tricks": list(answer.allpass_tricks)}
    if answer.HasField("allpass_line"):
        line = answer.allpass_line
        out["allpass"]["line"] = {"tricks": list(line.tricks), "unclaimed": line.unclaimed, "line": list(line.cards),
                                  "by_trick": tricks_json(line.by_trick)}
    if answer.HasField("play"):
        play = answer.play
        steps = []
        for step in play.steps:
            item: dict[str, Any] = {"trick": step.trick, "seat": SEATS[step.seat], "card": step.card,
                                    "counted_seat": SEATS[step.counted_seat], "value_before": step.value_before,
                                    "value_after": step.value_after, "cost": step.cost}
            if step.best_cards:
                item["best_cards"] = list(step.best_cards)
            steps.append(item)
        best_line = None
        if play.HasField("best_line"):
            best_line = {"value": play.best_line.value, "line": list(play.best_line.cards),
                         "by_trick": tricks_json(play.best_line.tricks)}
        out["play"] = {"declarer": SEATS[play.declarer], "contract": contract,
                       "discard": play.discard or None, "value": play.value, "steps": steps,
                       "mistakes": [f"trick {s['trick']}, seat {s['seat']} played {s['card']}" for s in steps
                                    if s["cost"]],
                       "best_line": best_line}
    if answer.HasField("score"):
        out["score"] = json.loads(answer.score.result_json)
    return out


def mistakes_comparable(answer: dict[str, Any]) -> dict[str, Any]:
    """The CLI's mistake texts cut to what the proto carries (the proto has
    the steps; the text adds the card's symbol and cost)."""
    if "play" in answer:
        answer["play"]["mistakes"] = [
            f"trick {s['trick']}, seat {s['seat']} played {s['card']}" for s in answer["play"]["steps"] if s["cost"]]
    return answer


def same(cli_answer: dict[str, Any], rpc: pb.AnalyzeDealResponse, contract: str | None) -> None:
    mapped = rpc_as_cli_json(rpc, contract)
    cli_answer = mistakes_comparable(cli_answer)
    assert mapped.keys() == cli_answer.keys()
    for key in cli_answer:
        assert mapped[key] == cli_answer[key], key


@pytest.mark.parametrize("deal", DEALS + [ENDGAME])
def test_table_and_allpass_values_agree(client: AnalysisClient, deal: str) -> None:
    same(analyze_cli(deal), client.analyze_deal(deal), None)


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("contract, declarer", [("6s", 1), ("7nt", 0), ("misere", 2)])
def test_contract_play_agrees(client: AnalysisClient, deal: str, contract: str, declarer: int) -> None:
    whole = client.analyze_deal(deal, contract, declarer)
    same(analyze_cli(deal, "--contract", contract, "--declarer", str(declarer)), whole, contract)
    line = list(whole.play.best_line.cards)
    # A prefix of the line with its second card replaced by another legal one
    # (a costly card when there is one): steps, mistakes and the line from there.
    hands = deal_after_discard(Deal.parse(deal), declarer, Hand.parse(whole.play.discard))
    after = Position.after(hands, contract, declarer, line[:1])
    played = line[:1] + [str(after.legal_cards()[-1])]
    answer = client.analyze_deal(deal, contract, declarer, played=played)
    same(analyze_cli(deal, "--contract", contract, "--declarer", str(declarer), "--played", " ".join(played)),
         answer, contract)
    discard = whole.play.discard
    same(analyze_cli(deal, "--contract", contract, "--declarer", str(declarer), "--discard", discard),
         client.analyze_deal(deal, contract, declarer, discard=discard), contract)


@pytest.mark.parametrize("deal", DEALS + [ENDGAME])
def test_allpass_agrees(client: AnalysisClient, deal: str) -> None:
    whole = client.analyze_deal(deal, "allpass")
    same(analyze_cli(deal, "--contract", "allpass"), whole, "allpass")
    played = list(whole.allpass_line.cards[:4])
    same(analyze_cli(deal, "--contract", "allpass", "--played", " ".join(played)),
         client.analyze_deal(deal, "allpass", played=played), "allpass")
    same(analyze_cli(deal, "--contract", "allpass", "--no-talon-leads", "--four-players"),
         client.analyze_deal(deal, "allpass", no_talon_leads=True, four_players=True), "allpass")


@pytest.mark.parametrize("contract, declarer, decisions", [
    ("6s", 1, ("whist", "pass")), ("7h", 0, ("whist", "whist")), ("misere", 2, None)])
def test_the_score_of_a_finished_play_agrees(client: AnalysisClient, contract: str, declarer: int,
                                             decisions: tuple[str, str] | None) -> None:
    """The RPC scores the end of the best line; the CLI scores a record whose
    play is that line: the same score, for the seats named "0" "1" "2"."""
    deal = DEALS[0]
    rpc = client.analyze_deal(deal, contract, declarer, convention="leningrad", decisions=decisions)
    assert rpc.HasField("score"), rpc.score_omitted
    record: dict[str, Any] = {"players": ["0", "1", "2"], "hands": deal.split()[:3], "talon": deal.split()[3],
                              "contract": contract, "declarer": declarer, "discard": rpc.play.discard,
                              "played": " ".join(rpc.play.best_line.cards), "convention": "leningrad"}
    if decisions is not None:
        by_seat: list[str | None] = [None, None, None]
        by_seat[(declarer + 1) % 3], by_seat[(declarer + 2) % 3] = decisions
        record["decisions"] = by_seat
    answer = analyze_cli(json.dumps(record))
    assert answer["score"] == json.loads(rpc.score.result_json)


def test_every_front_end_calls_the_one_orchestration(client: AnalysisClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI, the RPC and the HTTP call each reach ``analyze_deal`` once per request."""
    calls: list[deal_module.DealRequest] = []
    real = deal_module.analyze_deal

    def counted(request: deal_module.DealRequest, solver: Any = None) -> deal_module.DealAnalysis:
        calls.append(request)
        return real(request, solver)

    from solver.analysis import cli as analysis_cli
    from service.web import calls as web_calls
    for module in (analysis_cli, servicer, web_calls):
        monkeypatch.setattr(module, "analyze_deal", counted)
    analyze_cli(ENDGAME)
    client.analyze_deal(ENDGAME)
    from solver.engine import Solver
    web_calls.analyze({"deal": ENDGAME}, Solver())
    assert len(calls) == 3 and len({(c.deal, c.contract) for c in calls}) == 1
