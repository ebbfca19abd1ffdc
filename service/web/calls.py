"""The JSON API's calls: request objects in, answer objects out (no HTTP here).

Each call reads a JSON object whose fields are the command line's options
(``prefdd analyze --declarer 1`` is ``{"declarer": 1}``; dashes become
underscores) and answers exactly what that command prints with ``--json``,
through the same ``solver`` functions and the same JSON forms
(:mod:`solver.analysis.jsonio`, :mod:`solver.advice.jsonio`). ``solve`` is
``prefdd batch``: one batch request object, one batch answer object.

Bad input raises :class:`~service.errors.RequestError` (a ``ValueError``), or
the ``ValueError`` subclass of the layer that found the problem, with the
message the command line prints; the app answers it with HTTP 400.

``position`` serves the page's card-by-card play: the position after the
cards played, each legal card's value, and on request the best line.
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any

from solver.advice import (BidRequest, EnumerationRequest, PlayRequest, RunOptions, WhistRequest, advise_bid,
                           advise_play, bid_json, bid_request, enumerate_splits, enumeration_json,
                           enumeration_request, play_request, whist_json, whist_request)
from solver.advice.blind_discard import BLIND_DISCARD
from solver.advice.play_json import play_json
from solver.analysis import best_discard
from solver.analysis.cli import deal_request
from solver.analysis.deal import analyze_deal
from solver.analysis.jsonio import deal_analysis_json
from solver.analysis.discard import deal_after_discard
from solver.analysis.batch import evaluate
from solver.engine import Solver
from solver.notation import Contract, ContractKind, Deal, Hand, seat_field
from solver.position import Position
from solver.scoring import ScoringRequest, scoring_request

from ..advice_calls import MAX_BLIND_DISCARD_LAYOUTS
from ..errors import RequestError

__all__ = ["AdviceCall", "DEFAULT_LAYOUTS", "advice_call", "analyze", "position", "score_request", "solve"]

DEFAULT_LAYOUTS = {"whist": 1000, "bid": 200, "play": 500}
"""The layout budgets of ``prefdd whist``, ``prefdd bid`` and ``prefdd play``."""
MAX_TEXT = 4096
"""The longest text field: a deal is under 100 characters, a played list under 200."""


def _object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise RequestError(f"the request must be a JSON object, got {type(body).__name__}")
    return body


def _text(body: dict[str, Any], name: str, required: bool = False) -> str | None:
    value = body.get(name)
    if value is None:
        if required:
            raise RequestError(f"missing field '{name}'")
        return None
    if not isinstance(value, str):
        raise RequestError(f"field '{name}' must be a string, got {value!r}")
    if len(value) > MAX_TEXT:
        raise RequestError(f"field '{name}' is {len(value)} characters long; the limit is {MAX_TEXT}")
    return value


def _flag(body: dict[str, Any], name: str, default: bool = False) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise RequestError(f"field '{name}' must be true or false, got {value!r}")
    return value


def _seat(body: dict[str, Any], name: str, required: bool = False) -> int | None:
    if body.get(name) is None:
        if required:
            raise RequestError(f"missing field '{name}'")
        return None
    return seat_field(body, name, error=RequestError)


def _int(body: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(f"field '{name}' must be a whole number {low}..{high}, got {value!r}")
    return value


def _played(body: dict[str, Any]) -> str:
    """Cards played, as a list of card texts or one space-separated text."""
    value = body.get("played", "")
    if isinstance(value, list):
        if len(value) > 32 or not all(isinstance(card, str) and len(card) <= 8 for card in value):
            raise RequestError("field 'played' must be a list of at most 32 card texts like \"As\"")
        return " ".join(value)
    if not isinstance(value, str):
        raise RequestError(f"field 'played' must be a list of cards or a string, got {value!r}")
    return _text(body, "played") or ""


def _tricks(body: dict[str, Any], name: str) -> tuple[int, int, int]:
    value = body.get(name, [0, 0, 0])
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 10 for n in value)):
        raise RequestError(f"field '{name}' must be three numbers 0..10 by seat, got {value!r}")
    return value[0], value[1], value[2]


def _options(body: dict[str, Any]) -> dict[str, Any]:
    value = body.get("option", {})
    if not isinstance(value, dict):
        raise RequestError(f"field 'option' must be an object of convention options, got {value!r}")
    return value


# ---- solving and analysis (run on a solver of the pool) ------------------------

def solve(body: Any, solver: Solver) -> dict[str, Any]:
    """``prefdd batch``: the answer object of one batch request."""
    request = _object(body)
    answer = evaluate(request, solver)
    if "id" in request:
        answer = {"id": request["id"], **answer}
    return answer


def analyze(body: Any, solver: Solver) -> dict[str, Any]:
    """``prefdd analyze --json``."""
    body = _object(body)
    args = types.SimpleNamespace(
        deal=_text(body, "deal", required=True), contract=_text(body, "contract"),
        declarer=_seat(body, "declarer"), discard=_text(body, "discard"), played=_played(body),
        talon_leads=_flag(body, "talon_leads", True), four_players=_flag(body, "four_players"))
    request, _record = deal_request(args)  # type: ignore[arg-type]
    return deal_analysis_json(analyze_deal(request, solver))


def _position(body: dict[str, Any], solver: Solver) -> tuple[Position, Hand | None]:
    deal = Deal.parse(_text(body, "deal", required=True) or "")
    contract = Contract.parse(_text(body, "contract", required=True) or "")
    played = _played(body).split()
    if contract.kind is ContractKind.ALLPASS:
        if _text(body, "discard") is not None:
            raise RequestError("all-pass has no discard")
        start = Position.start(deal, contract, 0, 0, _flag(body, "talon_leads", True),
                               _flag(body, "four_players"))
        return _after(start, played), None
    declarer = _seat(body, "declarer", required=True)
    assert declarer is not None
    discard_text = _text(body, "discard")
    discard: Hand | None = None
    if deal.talon is not None:
        discard = (Hand.parse(discard_text) if discard_text is not None
                   else best_discard(deal, declarer, contract, solver=solver).discard)
        deal = deal_after_discard(deal, declarer, discard)
    elif discard_text is not None:
        raise RequestError("a discard needs the talon in the deal")
    leader = _seat(body, "leader") or 0
    return _after(Position.start(deal, contract, declarer, leader), played), discard


def _after(position: Position, played: list[str]) -> Position:
    for card in played:
        position = position.play(card)
    return position


def position(body: Any, solver: Solver) -> dict[str, Any]:
    """The position after ``played``: whose move, the trick so far, the tricks
    taken, the value (the declarer's total; all-pass: the fewest the seat on
    move can be sure of) and each legal card's value (``card_values``), with
    ``"best_line": true`` an optimal line to the end."""
    body = _object(body)
    at, discard = _position(body, solver)
    allpass = at.contract.kind is ContractKind.ALLPASS
    answer: dict[str, Any] = {
        "contract": str(at.contract), "declarer": None if allpass else at.declarer,
        "discard": None if discard is None else "".join(str(c) for c in discard.cards()),
        "hands": [str(hand) for hand in at.hands], "trick": [str(card) for card in at.trick],
        "leader": at.leader, "tricks_taken": list(at.tricks_taken), "over": at.is_over,
        "played": [str(card) for card in at.history],
    }
    if at.is_over:
        return answer
    mover = at.seat_to_move
    counted = at.for_player(mover) if allpass else at
    answer.update(to_move=mover, counted_seat=counted.declarer,
                  talon_lead=str(at.talon_leads[0]) if at.talon_leads else None)
    values = solver.card_values(counted)
    answer["card_values"] = {str(card): value for card, value in sorted(values.items())}
    answer["value"] = (min if allpass or _minimises(counted, mover) else max)(values.values())
    if _flag(body, "best_line"):
        answer["best_line"] = [str(card) for card in solver.best_line(counted, answer["value"])]
    return answer


def _minimises(position: Position, mover: int) -> bool:
    """Whether the seat on move wants the counted value low: a defender of a
    trick contract, or the misère declarer himself."""
    misere = position.contract.kind is ContractKind.MISERE
    return (mover == position.declarer) == misere


def score_request(body: Any) -> ScoringRequest:
    """``prefdd score``'s request object, typed (the app answers it on a
    scoring process, :class:`~service.score_workers.ScoreWorkers`)."""
    return scoring_request(_object(body))


# ---- advice runs (their own threads) -------------------------------------------

@dataclass(frozen=True)
class AdviceCall:
    """A checked advice request: what to run and how to answer it."""

    kind: str
    request: WhistRequest | BidRequest | EnumerationRequest | PlayRequest
    layouts: int
    mode: str
    seconds: float | None
    seed: int

    def run(self, options: RunOptions) -> dict[str, Any]:
        if isinstance(self.request, WhistRequest):
            from solver.advice import advise_whist
            return whist_json(advise_whist(self.request, options))
        if isinstance(self.request, BidRequest):
            return bid_json(advise_bid(self.request, options))
        if isinstance(self.request, PlayRequest):
            return play_json(advise_play(self.request, options))
        return enumeration_json(enumerate_splits(self.request, options))


def _budget(body: dict[str, Any], kind: str) -> tuple[int, str, float | None, int]:
    mode = "exact" if kind == "enumerate" else body.get("mode", "auto")
    if mode not in ("auto", "sample", "exact"):
        raise RequestError(f"field 'mode' must be auto, sample or exact, got {mode!r}")
    layouts = _int(body, "layouts", DEFAULT_LAYOUTS.get(kind, 1), 1, 10_000_000)
    seconds = body.get("seconds")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds <= 86_400):
        raise RequestError(f"field 'seconds' must be a positive number of seconds, got {seconds!r}")
    seed = _int(body, "seed", 0, 0, 2**63 - 1)
    return layouts, mode, seconds, seed


def _open_hands(body: dict[str, Any]) -> dict[int, str]:
    """``--open SEAT=HAND``: an object of seat to hand, ``{"1": "AQ7.K98.KT.QJ"}``."""
    value = body.get("open", {})
    if not isinstance(value, dict) or len(value) > 2:
        raise RequestError(f"field 'open' must be an object of at most 2 seats to hands, got {value!r}")
    return {_seat({"open": seat}, "open"): _text({"hand": hand}, "hand", required=True)  # type: ignore[misc]
            for seat, hand in value.items()}


def _seats(body: dict[str, Any], name: str) -> list[int] | None:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > 2:
        raise RequestError(f"field '{name}' must be a list of at most 2 seats, got {value!r}")
    return [_seat({name: seat}, name) for seat in value]  # type: ignore[misc]


def _contracts_text(body: dict[str, Any], name: str) -> str | None:
    value = body.get(name)
    if isinstance(value, list):
        if not all(isinstance(item, str) for item in value):
            raise RequestError(f"field '{name}' must be a list of contracts like \"6s\"")
        return ",".join(value)
    return _text(body, name)


def _blind_discard(body: dict[str, Any]) -> int:
    """The layouts of the blind-discard figure (``prefdd --blind-discard``; 0: off)."""
    return _int(body, "blind_discard", BLIND_DISCARD.layouts, 0, MAX_BLIND_DISCARD_LAYOUTS)


def advice_call(kind: str, body: Any) -> AdviceCall:
    """``prefdd whist``, ``bid`` or ``enumerate`` as a checked request."""
    body = _object(body)
    common = dict(convention=_text(body, "convention") or "sochi", options=_options(body),
                  prior_tricks=_tricks(body, "prior_tricks"), four_players=_flag(body, "four_players"))
    hand = _text(body, "hand", required=True)
    request: WhistRequest | BidRequest | EnumerationRequest | PlayRequest
    if kind == "whist":
        request = whist_request(
            hand, _text(body, "talon", required=True), _text(body, "contract", required=True),
            _seat(body, "declarer", required=True), _seat(body, "seat", required=True),
            other_decision=_text(body, "other"), played=_played(body), unseen=_text(body, "unseen"),
            discard_model=_text(body, "discard_model") or "best", split=_flag(body, "split"),
            blind_discard=_blind_discard(body), **common)
    elif kind == "bid":
        request = bid_request(hand, _seat(body, "seat", required=True), talon=_text(body, "talon"),
                              contracts=_contracts_text(body, "contracts") or "all",
                              defence=_text(body, "defence") or "whist", unseen=_text(body, "unseen"),
                              blind_discard=_blind_discard(body), **common)
    elif kind == "enumerate":
        contracts = _contracts_text(body, "contract")
        if contracts is None:
            raise RequestError("missing field 'contract'")
        request = enumeration_request(hand, _seat(body, "declarer", required=True), contracts,
                                      discard=_text(body, "discard"), defenders=_text(body, "defenders"),
                                      defence=_text(body, "defence") or "whist", **common)
    elif kind == "play":
        request = play_request(
            hand, _text(body, "contract", required=True), _seat(body, "declarer", required=True),
            _seat(body, "seat", required=True), played=_played(body), talon=_text(body, "talon"),
            discard=_text(body, "discard"), open_hands=_open_hands(body), unseen=_text(body, "unseen"),
            whisters=_seats(body, "whisters"), returned=_flag(body, "returned"),
            leader=_seat(body, "leader") or 0, **common)
    else:
        raise RequestError(f"unknown advice call {kind!r}")
    return AdviceCall(kind, request, *_budget(body, kind))
