"""``prefdd batch``: one JSON request in, one JSON answer out.

This is the interface other programs script against; keep it backwards
compatible. A request is an object:

    {"deal": DEAL, "contract": "6s" | "7nt" | "misere" | "allpass",
     "declarer": 0-2, "leader": 0-2 (default 0), "cards": false,
     "talon": HAND (all-pass), "player": 0-2 (all-pass), "id": anything}

Answers: ``{"declarer_tricks": n}`` (plus ``"card_values": {"As": n, ...}``, the
declarer's total tricks after each legal card of the leader, when ``cards`` is
true); for all-pass ``{"player_tricks": n}``. An ``id`` in the request is copied
into the answer. Other keys are ignored, so reference lines that carry their
answers can be fed back in. A bad request answers ``{"error": "message"}``.

Analyses (``solver.analysis.requests``):

    {"deal", "talon", "contract": C, "declarer": S, "best_discard": true}
        -> {"declarer_tricks": n, "discards": ["AsKs", ...]}
       the best value over the declarer's discards (he takes the talon) and
       every discard reaching it;
    {"deal", "talon", "contract": "allpass", "line": true,
     "talon_leads": true, "four_players": false (both optional)}
        -> {"tricks": [a, b, c], "line": ["Td", ...]}
       the all-pass max^n outcome and line (plus "player_tricks" when
       "player" is given).
"""
from __future__ import annotations

from typing import Any

from .analysis.requests import evaluate_analysis
from .api import thread_solver
from .engine import SearchStopped
from .jsonlines import JSONTextError, LineError, dumps, loads
from .notation import Contract, ContractKind, Deal, Hand, seat_field
from .position import Position

__all__ = ["BatchError", "evaluate", "evaluate_line"]


class BatchError(ValueError):
    """A request that is not of the batch form."""


def _text_field(request: dict[str, Any], name: str) -> str:
    if name not in request:
        raise BatchError(f"missing field '{name}'")
    value = request[name]
    if not isinstance(value, str):
        raise BatchError(f"field '{name}' must be a string, got {value!r}")
    return value


def _deal(request: dict[str, Any]) -> Deal:
    deal = Deal.parse(_text_field(request, "deal"))
    if "talon" in request:
        talon = Hand.parse(_text_field(request, "talon"))
        deal = Deal(deal.hands, talon)
    return deal


def evaluate(request: Any) -> dict[str, Any]:
    """Answer one request (a dict); raises ValueError subclasses on bad input."""
    if not isinstance(request, dict):
        raise BatchError(f"a request must be a JSON object, got {type(request).__name__}")
    deal = _deal(request)
    contract = Contract.parse(_text_field(request, "contract"))
    want_cards = request.get("cards", False)
    if not isinstance(want_cards, bool):
        raise BatchError(f"field 'cards' must be true or false, got {want_cards!r}")
    analysis = evaluate_analysis(request, deal, contract)
    if analysis is not None:
        return analysis
    solver = thread_solver()
    if contract.kind is ContractKind.ALLPASS:
        player = seat_field(request, "player", error=BatchError)
        position = Position.start(deal, contract, player, 0)
        answer: dict[str, Any] = {"player_tricks": solver.solve(position)}
    else:
        declarer = seat_field(request, "declarer", error=BatchError)
        leader = seat_field(request, "leader", 0, BatchError)
        position = Position.start(deal, contract, declarer, leader)
        answer = {"declarer_tricks": solver.solve(position)}
    if want_cards:
        values = solver.card_values(position)
        answer["card_values"] = {str(card): value for card, value in sorted(values.items())}
    return answer


def evaluate_line(line: str | LineError) -> str:
    """One input line to one output line (never raises for bad input). A
    LineError (a line that could not be read, see :mod:`solver.jsonlines`)
    is answered with its message; so is anything else a request makes go
    wrong (an "internal error"), so the stream always goes on."""
    request: Any = None
    try:
        if isinstance(line, LineError):
            raise line
        request = loads(line)
        answer = evaluate(request)
    except JSONTextError as error:
        answer = {"error": f"not JSON: {error}"}
    except ValueError as error:
        answer = {"error": str(error)}
    except SearchStopped:
        raise
    except Exception as error:  # noqa: BLE001 - one line's failure is that line's answer
        answer = {"error": f"internal error: {type(error).__name__}: {error}"}
    if isinstance(request, dict) and "id" in request:
        answer = {"id": request["id"], **answer}
    return dumps(answer)
