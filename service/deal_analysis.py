"""``AnalyzeDeal``: the whole-deal analysis of ``prefdd analyze`` over gRPC.

:func:`deal_request` reads and checks a request on the handler thread;
:func:`analyze` runs on a solver pool worker with the worker's solver (so a
cancel or an expired deadline stops its searches); :func:`deal_response`
builds the answer. The analyses are those of :mod:`solver.analysis`, combined
as ``prefdd analyze`` combines them:

* no contract: the deal's table (when the deal has a talon) and the all-pass
  values from the start;
* a trick contract or misère: the best discards (when the deal has a talon),
  the play card by card (the declarer's own discard if given, else his best)
  and the best line from the end of the cards played;
* all-pass: the play card by card (each card judged by its player's own
  value), the all-pass values after the cards played and the max^n line.

The score (choices where the issue is silent): the deal is scored as it
would end if play went on from the cards played along the best line (all-pass:
the max^n line), so a finished play is scored as played. Players are named by
seat, ``"0" "1" "2"``. A trick contract needs both defenders' decisions
(whether the deal is played follows from them: both pass or a half-whist that
stands leave it unplayed, and a checked 10 that makes stands unplayed); misère
and all-pass need nothing more. The score is left out, with the reason in
``score_omitted``, when the request has no convention or no contract, the deal
is an endgame (scoring needs the whole deal's tricks), the decisions are
missing, or it is a four-player all-pass. A scoring input the scoring package
rejects (a half-whist on an 8, a Stalingrad 6♠ passed, ...) is checked before
any search, with a made contract standing in for the play's outcome, and
answered with the scoring package's message.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from solver.analysis import (AllPassLine, BestDiscard, DiscardTable, LineTrick, PlayAnalysis, allpass_line,
                             allpass_values, analyze_play, best_discard, discard_table, discard_text)
from solver.engine import Solver
from solver.notation import Contract, ContractKind, Deal
from solver.position import Position
from solver.scoring import Decision, handle_request

from . import convert
from .convert import ConventionChoice, RequestError
from .proto import pb

__all__ = ["DealAnswer", "DealRequest", "ScoreAnswer", "ScoringPlan", "analyze", "deal_request", "deal_response",
           "score_input"]

PLAYERS = ("0", "1", "2")
"""Player names of the score: the seats."""
STRAIN_TEXT = ("s", "c", "d", "h", "nt")
ALLPASS = Contract(ContractKind.ALLPASS)


@dataclass(frozen=True)
class ScoringPlan:
    """What the score needs besides the play."""

    convention: ConventionChoice
    first: Decision | None
    """The first defender's decision (trick contracts only)."""
    second: Decision | None
    returned: bool
    """The passing defender returned the other's half-whist."""


@dataclass(frozen=True)
class DealRequest:
    """A checked AnalyzeDeal request."""

    deal: Deal
    contract: Contract | None
    declarer: int | None
    discard: str | None
    played: tuple[str, ...]
    leader: int
    talon_leads: bool
    four_players: bool
    scoring: ScoringPlan | None
    score_omitted: str
    """Why there will be no score ("" when there will be one)."""


def deal_request(message: pb.AnalyzeDealRequest) -> DealRequest:
    """Read and check a request (raises ValueError naming the problem)."""
    deal = convert.deal_from_fields(message.deal, message.talon)
    contract = convert.contract_from_proto(message.contract, "contract") if message.HasField("contract") else None
    trick_game = contract is not None and contract.kind is not ContractKind.ALLPASS
    declarer = convert.seat_from_proto(message.declarer, "declarer", required=trick_game)
    leader = convert.seat_from_proto(message.leader, "leader", required=False) or 0
    played = tuple(convert.cards_field(message.played, "played"))
    discard = convert.text_field(message.discard, "discard") or None
    if contract is None:
        for name, given in (("declarer", declarer is not None), ("discard", discard is not None),
                            ("played", bool(played))):
            if given:
                raise RequestError(f"field '{name}' needs field 'contract'")
    elif trick_game:
        for flag in ("no_talon_leads", "four_players"):
            if getattr(message, flag):
                raise RequestError(f"field '{flag}' applies only to all-pass (an all-pass contract, or none)")
    scoring, omitted = _scoring(message, deal, contract, declarer)
    return DealRequest(deal, contract, declarer, discard, played, leader, not message.no_talon_leads,
                       message.four_players, scoring, omitted)


def _scoring(message: pb.AnalyzeDealRequest, deal: Deal, contract: Contract | None,
             declarer: int | None) -> tuple[ScoringPlan | None, str]:
    fields = message.scoring
    choice = convert.convention_from_proto(fields.convention, fields.option_overrides_json, "scoring.")
    first = convert.decision_from_proto(fields.first_defender, "scoring.first_defender")
    second = convert.decision_from_proto(fields.second_defender, "scoring.second_defender")
    tricks = contract is not None and contract.kind is ContractKind.TRICKS
    if not tricks:
        for name, given in (("first_defender", first), ("second_defender", second),
                            ("half_whist_returned", fields.half_whist_returned)):
            if given:
                raise RequestError(f"field 'scoring.{name}' applies only to a trick contract")
    if fields.half_whist_returned and Decision.HALF_WHIST not in (first, second):
        raise RequestError("field 'scoring.half_whist_returned' needs a half-whist (DECISION_HALF_WHIST) "
                           "by one defender")
    if choice is None:
        return None, "no convention given (scoring.convention)"
    if contract is None:
        return None, "no contract given: the table is not a deal played"
    if deal.hand_size != 10:
        return None, "an endgame: the score needs the tricks of the whole deal (10 cards a hand)"
    if contract.kind is ContractKind.ALLPASS and message.four_players:
        return None, "a four-player all-pass is not scored here"
    if tricks and (first is None or second is None):
        return None, ("a trick contract is scored with both defenders' decisions "
                      "(scoring.first_defender, scoring.second_defender)")
    plan = ScoringPlan(choice, first, second, fields.half_whist_returned)
    assert declarer is not None or contract.kind is ContractKind.ALLPASS
    _score(plan, contract, declarer or 0, _made_outcome(contract, declarer or 0))  # scoring's own checks
    return plan, ""


def _made_outcome(contract: Contract, declarer: int) -> tuple[int, int, int]:
    """Tricks by seat of a plausible outcome, to check the scoring input early."""
    tricks = [0, 0, 0]
    if contract.kind is ContractKind.ALLPASS:
        return (4, 3, 3)
    taken = contract.level if contract.kind is ContractKind.TRICKS else 0
    assert taken is not None
    tricks[declarer], tricks[(declarer + 1) % 3] = taken, 10 - taken
    return (tricks[0], tricks[1], tricks[2])


# ---- scoring -------------------------------------------------------------------

@dataclass(frozen=True)
class ScoreAnswer:
    tricks: tuple[int, int, int]
    played: bool
    input: dict[str, Any]
    """The ``prefdd score`` deal input."""
    result: dict[str, Any]
    """Its answer: records and deal_value."""


def _is_played(plan: ScoringPlan, contract: Contract, declarer_tricks: int) -> bool:
    if contract.level == 10 and not plan.convention.convention.ten_whisted:
        return declarer_tricks < 10  # a checked 10: played unless it stands
    decisions = (plan.first, plan.second)
    if Decision.HALF_WHIST in decisions:
        return plan.returned
    return Decision.WHIST in decisions


def score_input(plan: ScoringPlan, contract: Contract, declarer: int,
                tricks: tuple[int, int, int]) -> tuple[dict[str, Any], bool]:
    """The ``prefdd score`` deal input of the outcome, and whether it was played."""
    by_seat = {PLAYERS[seat]: tricks[seat] for seat in range(3)}
    if contract.kind is ContractKind.ALLPASS:
        return {"type": "allpass", "players": list(PLAYERS), "tricks": by_seat}, True
    if contract.kind is ContractKind.MISERE:
        return {"type": "misere", "players": list(PLAYERS), "declarer": PLAYERS[declarer], "tricks": by_seat}, True
    assert plan.first is not None and plan.second is not None and contract.strain is not None
    first, second = (declarer + 1) % 3, (declarer + 2) % 3
    data: dict[str, Any] = {
        "type": "contract", "players": list(PLAYERS), "declarer": PLAYERS[declarer], "contract": contract.level,
        "strain": STRAIN_TEXT[contract.strain],
        "decisions": {PLAYERS[first]: plan.first.value, PLAYERS[second]: plan.second.value},
    }
    if plan.returned:
        passer = second if plan.first is Decision.HALF_WHIST else first
        data["returned_by"] = PLAYERS[passer]
    played = _is_played(plan, contract, tricks[declarer])
    if played:
        data["tricks"] = by_seat
    return data, played


def _score(plan: ScoringPlan, contract: Contract, declarer: int, tricks: tuple[int, int, int]) -> ScoreAnswer:
    data, played = score_input(plan, contract, declarer, tricks)
    result = handle_request({"convention": plan.convention.name, "option_overrides": plan.convention.overrides,
                             "kind": "deal", "input": data})
    return ScoreAnswer(tricks, played, data, result)


# ---- the analysis (on a pool worker) -------------------------------------------

@dataclass(frozen=True)
class DealAnswer:
    deal: Deal
    table: DiscardTable | None = None
    allpass: tuple[int, int, int] | None = None
    best: BestDiscard | None = None
    play: PlayAnalysis | None = None
    line: AllPassLine | None = None
    score: ScoreAnswer | None = None
    score_omitted: str = ""


def analyze(solver: Solver, r: DealRequest) -> DealAnswer:
    """Everything the request asks for, with ``solver`` (a pool worker's)."""
    if r.contract is None:
        table = discard_table(r.deal, leader=r.leader, solver=solver) if r.deal.talon is not None else None
        start = Position.start(r.deal, ALLPASS, 0, r.leader, talon_leads=r.talon_leads,
                               four_players=r.four_players)
        values = allpass_values(start, solver=solver)
        return DealAnswer(r.deal, table=table, allpass=values.tricks, score_omitted=r.score_omitted)
    if r.contract.kind is ContractKind.ALLPASS:
        play = analyze_play(r.deal, r.declarer or 0, r.contract, r.played, discard=r.discard, leader=r.leader,
                            talon_leads=r.talon_leads, four_players=r.four_players, solver=solver)
        values = allpass_values(play.final, solver=solver)
        line = allpass_line(play.final, solver=solver)
        score, omitted = None, r.score_omitted
        if r.scoring is not None:
            if line.unclaimed:
                omitted = f"{line.unclaimed} trick(s) of the line go to no seat"
            else:
                score = _score(r.scoring, r.contract, 0, line.tricks)
        return DealAnswer(r.deal, allpass=values.tricks, play=play, line=line, score=score, score_omitted=omitted)
    assert r.declarer is not None
    best = None
    if r.deal.talon is not None:
        best = best_discard(r.deal, r.declarer, r.contract, leader=r.leader, solver=solver)
    play = analyze_play(r.deal, r.declarer, r.contract, r.played, discard=r.discard, leader=r.leader,
                        solver=solver)
    score = None
    if r.scoring is not None:
        end = play.final
        for card in play.line.cards if play.line is not None else ():
            end = end.play(card)
        score = _score(r.scoring, r.contract, r.declarer, end.tricks_taken)
    return DealAnswer(r.deal, best=best, play=play, score=score, score_omitted=r.score_omitted)


# ---- the answer ----------------------------------------------------------------

def _seat(seat: int | None) -> int:
    return pb.SEAT_UNSPECIFIED if seat is None else convert.seat_to_proto(seat)


def _table(table: DiscardTable) -> pb.DealTable:
    rows = []
    for row in table.rows:
        message = pb.SeatTable(seat=_seat(row.seat), tricks=list(row.tricks),
                               discards=[discard_text(s.discard) for s in row.strains],
                               misere=row.misere.value, misere_discard=discard_text(row.misere.discard))
        if row.best_contract is not None:
            message.best_contract.CopyFrom(convert.contract_to_proto(row.best_contract))
        rows.append(message)
    return pb.DealTable(leader=_seat(table.leader), rows=rows)


def _tricks(tricks: tuple[LineTrick, ...]) -> list[pb.LineTrick]:
    return [pb.LineTrick(number=trick.number, cards=[str(p.card) for p in trick.cards],
                         seats=[_seat(p.seat) for p in trick.cards], already_played=trick.already_played,
                         winner=_seat(trick.winner),
                         talon_card="" if trick.talon_card is None else str(trick.talon_card))
            for trick in tricks]


def _play(play: PlayAnalysis) -> pb.PlayAnalysis:
    steps = [pb.CardStep(trick=step.trick, seat=_seat(step.seat), card=str(step.card),
                         counted_seat=_seat(step.counted_seat), value_before=step.value_before,
                         value_after=step.value_after, cost=step.cost,
                         best_cards=[str(card) for card in step.best_cards])
             for step in play.steps]
    message = pb.PlayAnalysis(deal=str(play.deal), declarer=_seat(play.declarer),
                              discard="" if play.discard is None else discard_text(play.discard),
                              value=play.value, steps=steps)
    if play.line is not None:
        message.best_line.CopyFrom(pb.BestLine(value=play.line.value, cards=[str(c) for c in play.line.cards],
                                               tricks=_tricks(play.line.tricks)))
    return message


def _score_message(score: ScoreAnswer) -> pb.DealScore:
    values = score.result["deal_value"]
    return pb.DealScore(tricks=list(score.tricks), played=score.played,
                        input_json=json.dumps(score.input, ensure_ascii=False),
                        result_json=json.dumps(score.result, ensure_ascii=False),
                        deal_value=[values[name] for name in PLAYERS])


def deal_response(answer: DealAnswer) -> pb.AnalyzeDealResponse:
    out = pb.AnalyzeDealResponse(deal=str(answer.deal))
    if answer.table is not None:
        out.table.CopyFrom(_table(answer.table))
    if answer.allpass is not None:
        out.allpass_tricks.extend(answer.allpass)
    if answer.best is not None:
        out.best_discard.CopyFrom(pb.BestDiscard(declarer_tricks=answer.best.value,
                                                 discards=[discard_text(d) for d in answer.best.discards],
                                                 made=answer.best.made))
    if answer.play is not None:
        out.play.CopyFrom(_play(answer.play))
    if answer.line is not None:
        line = answer.line
        out.allpass_line.CopyFrom(pb.AllPassLine(tricks=list(line.tricks), unclaimed=line.unclaimed,
                                                 cards=[str(c) for c in line.cards],
                                                 by_trick=_tricks(line.tricks_played)))
    if answer.score is not None:
        out.score.CopyFrom(_score_message(answer.score))
    else:
        out.score_omitted = answer.score_omitted
    return out
