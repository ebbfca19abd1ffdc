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

This module reads the requests and answers those that solve a position,
with the solver it is given; the analyses belong to the layer above, and
``solver.analysis.batch`` answers every request of the command. Runs of
solve requests are solved in one C call (``Solver.solve_many``), the
searches in the same order as one call each, so every answer is the same.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

from .engine import SearchStopped, Solver
from .jsonlines import JSONTextError, LineError, dumps, loads
from .notation import Contract, ContractKind, Deal, Hand, seat_field
from .position import Position, PositionError

__all__ = ["ANALYSIS_FIELDS", "BatchError", "BatchRequest", "Answer", "answer_lines", "evaluate",
           "evaluate_many", "evaluate_solve", "line_answer", "read_line", "read_request", "solve_request",
           "SolveRequest", "start_position"]

ANALYSIS_FIELDS = ("best_discard", "line")
"""Flags that make a request an analysis (answered by solver.analysis.batch)."""


class BatchError(ValueError):
    """A request that is not of the batch form."""


Answer = dict[str, Any]


class BatchRequest(NamedTuple):
    """A request object with its common fields read and checked."""

    fields: dict[str, Any]
    """The request object itself (analyses read their own fields from it)."""
    deal: Deal
    contract: Contract
    cards: bool
    """Answer each legal first card's value too."""


class SolveRequest(NamedTuple):
    """A solve request read and checked: the position it asks for and
    ``cards``. :func:`solve_request` reads one from a request object; the
    gRPC service builds one from a proto item (``service.convert``)."""

    position: Position
    cards: bool
    """Answer each legal first card's value too."""


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


def read_request(request: Any) -> BatchRequest:
    """The common fields of a request (a dict): the deal, the contract and
    ``cards``; raises ValueError subclasses naming a bad one."""
    if not isinstance(request, dict):
        raise BatchError(f"a request must be a JSON object, got {type(request).__name__}")
    deal = _deal(request)
    contract = Contract.parse(_text_field(request, "contract"))
    want_cards = request.get("cards", False)
    if not isinstance(want_cards, bool):
        raise BatchError(f"field 'cards' must be true or false, got {want_cards!r}")
    return BatchRequest(request, deal, contract, want_cards)


def start_position(request: BatchRequest) -> Position:
    """The position a solve request asks for (its seats read and checked)."""
    fields = request.fields
    for name in ANALYSIS_FIELDS:
        if fields.get(name) is True:
            raise BatchError(f"field '{name}' makes an analysis request: solver.analysis.batch answers it")
    if request.contract.kind is ContractKind.ALLPASS:
        return Position.start(request.deal, request.contract, seat_field(fields, "player", error=BatchError), 0)
    declarer = seat_field(fields, "declarer", error=BatchError)
    leader = seat_field(fields, "leader", 0, BatchError)
    return Position.start(request.deal, request.contract, declarer, leader)


def _answer(request: SolveRequest, value: int, solver: Solver) -> Answer:
    position = request.position
    key = "player_tricks" if position.contract.kind is ContractKind.ALLPASS else "declarer_tricks"
    answer: Answer = {key: value}
    if request.cards:
        values = solver.card_values(position)
        answer["card_values"] = {str(card): v for card, v in sorted(values.items())}
    return answer


def evaluate(request: Any, solver: Solver) -> Answer:
    """Answer one solve request (a dict) with ``solver``; raises ValueError
    subclasses on bad input (an analysis request among them: see
    :func:`solver.analysis.batch.evaluate`)."""
    if not isinstance(solver, Solver):
        raise TypeError(f"solver must be a Solver, got {type(solver).__name__}")
    return solve_request(read_request(request), solver)


def solve_request(request: BatchRequest, solver: Solver) -> Answer:
    """The answer to a read solve request."""
    return evaluate_solve(SolveRequest(start_position(request), request.cards), solver)


def evaluate_solve(request: SolveRequest, solver: Solver) -> Answer:
    """The answer to a checked solve request, as :func:`evaluate` gives it."""
    return _answer(request, solver.solve(request.position), solver)


def evaluate_many(requests: Sequence[BatchRequest | BaseException], solver: Solver) -> list[Answer | BaseException]:
    """Each read request's answer, or the error it raises (an error given in
    place of a request is its own answer). Consecutive requests without
    ``cards`` are solved in one C call; the searches run in the order of
    one :func:`evaluate` each, so each answer is that of :func:`evaluate`.
    A stop raises SearchStopped."""
    results: list[Answer | BaseException] = [error for error in requests]  # type: ignore[misc]
    run: list[tuple[int, SolveRequest]] = []

    def flush() -> None:
        if not run:
            return
        try:
            values = solver.solve_many([request.position for _, request in run])
        except SearchStopped:
            raise
        except (PositionError, MemoryError):
            values = None   # answered one by one below, each with its own error
        for k, (index, request) in enumerate(run):
            try:
                value = values[k] if values is not None else solver.solve(request.position)
                results[index] = _answer(request, value, solver)
            except SearchStopped:
                raise
            except Exception as error:  # noqa: BLE001 - one request's failure is its answer
                results[index] = error
        run.clear()

    for index, request in enumerate(requests):
        if isinstance(request, BaseException):
            continue
        try:
            position = start_position(request)
        except Exception as error:  # noqa: BLE001
            results[index] = error
            continue
        run.append((index, SolveRequest(position, request.cards)))
        if request.cards:   # its card values search next, as in evaluate
            flush()
    flush()
    return results


def read_line(line: str | LineError) -> Any:
    """The request object of an input line; a LineError (a line that could
    not be read, see :mod:`solver.jsonlines`) raises, and so does text that
    is not JSON."""
    if isinstance(line, LineError):
        raise line
    return loads(line)


def line_answer(request: Any, answer: Answer | BaseException) -> str:
    """The output line for a request's answer or error. A ValueError is the
    request's own fault and answers its message; anything else is an
    "internal error" answered the same way, so the stream always goes on."""
    if isinstance(answer, JSONTextError):
        answer = {"error": f"not JSON: {answer}"}
    elif isinstance(answer, ValueError):
        answer = {"error": str(answer)}
    elif isinstance(answer, BaseException):
        answer = {"error": f"internal error: {type(answer).__name__}: {answer}"}
    if isinstance(request, dict) and "id" in request:
        answer = {"id": request["id"], **answer}
    return dumps(answer)


def answer_lines(lines: Sequence[str | LineError],
                 evaluate_all: Callable[[list[Any]], list[Answer | BaseException]]) -> list[str]:
    """Input lines to output lines, one each (never raises for bad input;
    SearchStopped goes through): ``evaluate_all`` answers the request
    objects read, in order, each with its answer or its error."""
    requests: list[Any] = []
    for line in lines:
        try:
            requests.append(read_line(line))
        except ValueError as error:
            requests.append(error)
    answers = evaluate_all(requests)
    return [line_answer(None if isinstance(request, BaseException) else request, answer)
            for request, answer in zip(requests, answers)]
