"""JSON forms of the analysis results (for ``prefdd analyze --json`` and the
batch protocol). Cards and hands are in canonical text: ``As``, a discard
``AsKs`` (its two cards in canonical order)."""
from __future__ import annotations

from typing import Any

from ..scoring import deal_score_json
from .allpass import AllPassLine, AllPassValues
from .deal import DealAnalysis, DealScore
from .discard import BestDiscard, discard_text
from .lines import LineTrick
from .play import BestLine, CardStep, PlayAnalysis
from .table import DiscardTable

__all__ = ["table_json", "best_discard_json", "allpass_values_json", "allpass_line_json",
           "line_json", "play_json", "tricks_json", "deal_analysis_json", "score_json"]

STRAINS = ["s", "c", "d", "h", "nt"]


def table_json(table: DiscardTable) -> dict[str, Any]:
    rows = []
    for row in table.rows:
        rows.append({
            "seat": row.seat,
            "tricks": list(row.tricks),
            "discards": [discard_text(s.discard) for s in row.strains],
            "misere": row.misere.value,
            "misere_discard": discard_text(row.misere.discard),
            "best_contract": None if row.best_contract is None else str(row.best_contract),
        })
    return {"strains": STRAINS, "leader": table.leader, "rows": rows}


def best_discard_json(found: BestDiscard) -> dict[str, Any]:
    return {"declarer_tricks": found.value, "discards": [discard_text(d) for d in found.discards]}


def allpass_values_json(values: AllPassValues) -> dict[str, Any]:
    return {"player_tricks": list(values.tricks)}


def tricks_json(tricks: tuple[LineTrick, ...]) -> list[dict[str, Any]]:
    out = []
    for trick in tricks:
        item: dict[str, Any] = {
            "number": trick.number,
            "seats": [p.seat for p in trick.cards],
            "cards": [str(p.card) for p in trick.cards],
            "winner": trick.winner,
        }
        if trick.already_played:
            item["already_played"] = trick.already_played
        if trick.talon_card is not None:
            item["talon"] = str(trick.talon_card)
        out.append(item)
    return out


def allpass_line_json(line: AllPassLine) -> dict[str, Any]:
    return {"tricks": list(line.tricks), "unclaimed": line.unclaimed,
            "line": [str(c) for c in line.cards], "by_trick": tricks_json(line.tricks_played)}


def line_json(line: BestLine) -> dict[str, Any]:
    return {"value": line.value, "line": [str(c) for c in line.cards],
            "by_trick": tricks_json(line.tricks)}


def _step_json(step: CardStep) -> dict[str, Any]:
    item: dict[str, Any] = {
        "trick": step.trick, "seat": step.seat, "card": str(step.card),
        "counted_seat": step.counted_seat,
        "value_before": step.value_before, "value_after": step.value_after, "cost": step.cost,
    }
    if step.best_cards:
        item["best_cards"] = [str(c) for c in step.best_cards]
    return item


def play_json(analysis: PlayAnalysis) -> dict[str, Any]:
    return {
        "declarer": analysis.declarer,
        "contract": str(analysis.contract),
        "discard": None if analysis.discard is None else discard_text(analysis.discard),
        "value": analysis.value,
        "steps": [_step_json(step) for step in analysis.steps],
        "mistakes": [step.describe() for step in analysis.mistakes],
        "best_line": None if analysis.line is None else line_json(analysis.line),
    }


def score_json(score: DealScore) -> dict[str, Any]:
    return deal_score_json(score.records, score.value)


def deal_analysis_json(analysis: DealAnalysis) -> dict[str, Any]:
    """The answer of ``prefdd analyze --json`` (and ``POST /api/v1/analyze``)."""
    answer: dict[str, Any] = {"deal": str(analysis.deal)}
    if analysis.table is not None:
        answer["table"] = table_json(analysis.table)
    if analysis.best is not None:
        answer["best_discard"] = best_discard_json(analysis.best)
    if analysis.allpass is not None:
        answer["allpass"] = allpass_values_json(analysis.allpass)
    if analysis.line is not None:
        answer["allpass"]["line"] = allpass_line_json(analysis.line)
    if analysis.play is not None:
        answer["play"] = play_json(analysis.play)
    if analysis.score is not None:
        answer["score"] = score_json(analysis.score)
    return answer
