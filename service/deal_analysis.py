"""``AnalyzeDeal``: the whole-deal analysis of ``prefdd analyze`` over gRPC.

:func:`deal_request` reads and checks a request on the handler thread into
a :class:`~solver.analysis.deal.DealRequest`; the servicer runs
:func:`~solver.analysis.deal.analyze_deal` on a solver pool worker with the
worker's solver (so a cancel or an expired deadline stops its searches);
:func:`deal_response` builds the answer. What is analysed and how the deal
is scored is :mod:`solver.analysis.deal`'s (a
:class:`~solver.analysis.deal.ScoringPlan`: players are named by seat,
``"0" "1" "2"``).

The score is left out, with the reason in ``score_omitted``, when the request
has no convention or no contract, the deal is an endgame (scoring needs the
whole deal's tricks), the decisions are missing, or it is a four-player
all-pass. A scoring input the scoring package rejects (a half-whist on an 8,
a Stalingrad 6♠ passed, ...) is checked before any search, with a made
contract standing in for the play's outcome, and answered with the scoring
package's message.
"""
from __future__ import annotations

import json

from solver.analysis import DiscardTable, LineTrick, PlayAnalysis, discard_text
from solver.analysis.deal import SEAT_PLAYERS, DealAnalysis, DealRequest, DealScore, ScoringPlan
from solver.notation import Contract, ContractKind, Deal
from solver.scoring import Decision, deal_score_json, outcome_json

from . import convert
from .convert import RequestError
from .proto import pb

__all__ = ["deal_request", "deal_response"]


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
    plan = ScoringPlan(choice.convention, first, second, fields.half_whist_returned)
    assert declarer is not None or contract.kind is ContractKind.ALLPASS
    plan.check(contract, declarer or 0)
    return plan, ""


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


def _score_message(score: DealScore) -> pb.DealScore:
    assert score.tricks is not None
    result = deal_score_json(score.records, score.value)
    values = result["deal_value"]
    return pb.DealScore(tricks=list(score.tricks), played=score.played,
                        input_json=json.dumps(outcome_json(score.outcome), ensure_ascii=False),
                        result_json=json.dumps(result, ensure_ascii=False),
                        deal_value=[values[name] for name in SEAT_PLAYERS])


def deal_response(answer: DealAnalysis) -> pb.AnalyzeDealResponse:
    out = pb.AnalyzeDealResponse(deal=str(answer.deal))
    if answer.table is not None:
        out.table.CopyFrom(_table(answer.table))
    if answer.allpass is not None:
        out.allpass_tricks.extend(answer.allpass.tricks)
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
