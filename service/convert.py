"""Protobuf messages (``preferans.v1``) to and from the solver's objects.

Everything a client sends is checked here or by the notation; a bad field
raises a ``ValueError`` (:class:`RequestError`, or the notation's own
``NotationError``/``PositionError``) whose message names the field, which the
server answers as ``INVALID_ARGUMENT``.

The enum tables live in :mod:`service.enums`. Choices where the issue is
silent: ``strain`` must be unset for misère and all-pass, and the all-pass options
(``no_talon_leads``, ``four_players``) must be unset for other contracts, so a
client's mistake is reported rather than ignored.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from solver.engine import Solver
from solver.notation import Card, Contract, ContractKind, Deal, Hand
from solver.batch import SolveRequest
from solver.position import Position
from solver.scoring import Convention, Decision, ScoringRequest, get_convention

from .enums import CONTRACT_KINDS, CONVENTIONS, DECISIONS, SCORE_KINDS, SEATS, STRAINS
from .errors import RequestError
from .proto import pb

__all__ = [
    "MAX_PLAYED",
    "MAX_TEXT",
    "ConventionChoice",
    "RequestError",
    "SolveAnswer",
    "batch_fields",
    "batch_request",
    "batch_result",
    "batch_error",
    "cards_field",
    "contract_from_fields",
    "contract_from_proto",
    "contract_to_proto",
    "convention_from_proto",
    "deal_from_fields",
    "decision_from_proto",
    "json_object",
    "position_from_proto",
    "prior_tricks_from_proto",
    "required_convention",
    "text_field",
    "score_request",
    "seat_from_proto",
    "seat_to_proto",
    "short",
    "solve",
    "solve_response",
]


MAX_TEXT = 1000
"""Characters in a deal, talon or card field: far more than any deal in any
accepted spelling needs, and it keeps error messages (which quote the text)
small."""
MAX_PLAYED = 30
"""Cards in ``played``: a whole deal."""
MAX_MESSAGE_TEXT = 2000
"""Characters of an error message sent back (longer ones are cut)."""


def short(message: str) -> str:
    """An error message cut to MAX_MESSAGE_TEXT characters."""
    return message if len(message) <= MAX_MESSAGE_TEXT else message[:MAX_MESSAGE_TEXT - 1] + "…"


def _text(value: str, field: str) -> str:
    if len(value) > MAX_TEXT:
        raise RequestError(f"field '{field}' is {len(value)} characters long; the limit is {MAX_TEXT}")
    return value


def text_field(value: str, field: str) -> str:
    """A notation text field checked against MAX_TEXT."""
    return _text(value, field)


def cards_field(values: Any, field: str) -> list[str]:
    """A repeated card field (``played``): at most MAX_PLAYED cards, each
    within MAX_TEXT; the cards themselves are read by the notation."""
    if len(values) > MAX_PLAYED:
        raise RequestError(f"field '{field}' holds {len(values)} cards; the limit is {MAX_PLAYED}")
    return [_text(card, field) for card in values]


def seat_from_proto(value: int, field: str, required: bool) -> int | None:
    """Seat 0-2 from a ``Seat`` enum value; None when unset and not required."""
    return SEATS.from_proto(value, field, required)


def seat_to_proto(seat: int) -> int:
    return SEATS.to_proto(seat)


def contract_from_fields(kind: int, strain: int, level: int | None = None, prefix: str = "") -> Contract:
    """The contract named by ``kind``, ``strain`` and ``level``: the one check
    of both ways the proto names a contract. ``level`` None: the message has
    no level (Position, BatchItem), and a trick contract is played at level 6,
    which does not change a position's value; else it is a ``Contract``
    message's level (6-10 for a trick contract, 0 otherwise). ``prefix`` is
    the message's path in the request (``"contract."``), for the errors."""
    contract_kind = CONTRACT_KINDS.required(kind, f"{prefix}kind")
    kind_name = pb.ContractKind.Name(kind)
    if contract_kind is ContractKind.TRICKS:
        if strain == pb.STRAIN_UNSPECIFIED:
            raise RequestError(f"field '{prefix}strain' is required for {kind_name}: one of {STRAINS.names()}")
        suit = STRAINS.required(strain, f"{prefix}strain")
        if level is None:
            return Contract(ContractKind.TRICKS, 6, suit)
        if level == 0:
            raise RequestError(f"field '{prefix}level' is required for {kind_name}: 6 to 10")
        if not 6 <= level <= 10:
            raise RequestError(f"field '{prefix}level': {level} is out of range 6..10")
        return Contract(ContractKind.TRICKS, level, suit)
    if strain != pb.STRAIN_UNSPECIFIED:
        raise RequestError(f"field '{prefix}strain' must be unset for {kind_name}")
    if level:
        raise RequestError(f"field '{prefix}level' must be 0 for {kind_name}")
    return Contract(contract_kind)


def _deal(deal_text: str, talon_text: str) -> Deal:
    deal = Deal.parse(_text(deal_text, "deal"))
    if talon_text:
        deal = Deal(deal.hands, Hand.parse(_text(talon_text, "talon")))
    return deal


def deal_from_fields(deal_text: str, talon_text: str) -> Deal:
    """The deal of a ``deal`` field, its talon replaced by a non-empty ``talon`` field."""
    return _deal(deal_text, talon_text)


def contract_from_proto(message: pb.Contract, field: str) -> Contract:
    """The contract of a ``Contract`` message, level included; ``field`` is
    the message's name in the request, for the error messages."""
    return contract_from_fields(message.kind, message.strain, message.level, prefix=f"{field}.")


def contract_to_proto(contract: Contract) -> pb.Contract:
    if contract.kind is ContractKind.TRICKS:
        assert contract.strain is not None and contract.level is not None
        return pb.Contract(kind=pb.CONTRACT_KIND_TRICKS, strain=STRAINS.to_proto(contract.strain),
                           level=contract.level)
    return pb.Contract(kind=CONTRACT_KINDS.to_proto(contract.kind))


def decision_from_proto(value: int, field: str) -> Decision | None:
    """A defender's decision; None when unset."""
    return DECISIONS.from_proto(value, field)


def prior_tricks_from_proto(values: Any, field: str = "prior_tricks") -> tuple[int, int, int]:
    """Tricks before an endgame by seat: empty means none, else three values
    (their sum is checked by the advisors against the hand size)."""
    if len(values) == 0:
        return (0, 0, 0)
    if len(values) != 3:
        raise RequestError(f"field '{field}' needs three values (one per seat) or none, got {len(values)}")
    if any(value > 10 for value in values):
        raise RequestError(f"field '{field}': a seat takes at most 10 tricks, got {list(values)}")
    return (int(values[0]), int(values[1]), int(values[2]))


@dataclass(frozen=True)
class ConventionChoice:
    """A convention named in a request, with its option overrides."""

    name: str
    overrides: dict[str, Any]
    convention: Convention


def convention_from_proto(value: int, overrides_json: str, prefix: str = "") -> ConventionChoice | None:
    """The convention and overrides of a request (None when the convention is
    unset); the overrides are checked by the scoring package."""
    if value == pb.CONVENTION_UNSPECIFIED:
        if overrides_json.strip():
            raise RequestError(f"field '{prefix}option_overrides_json' needs field '{prefix}convention'")
        return None
    name = CONVENTIONS.required(value, f"{prefix}convention")
    overrides = json_object(overrides_json, f"{prefix}option_overrides_json", empty_ok=True)
    return ConventionChoice(name, overrides, get_convention(name, overrides))


def required_convention(value: int, overrides_json: str) -> ConventionChoice:
    """As :func:`convention_from_proto`, the convention required."""
    choice = convention_from_proto(value, overrides_json)
    if choice is None:
        raise RequestError(f"field 'convention' is required: one of {CONVENTIONS.names()}")
    return choice


def position_from_proto(message: pb.Position) -> Position:
    """The position a ``Position`` message describes, every card checked."""
    contract = contract_from_fields(message.kind, message.strain)
    declarer = seat_from_proto(message.declarer, "declarer", required=True)
    leader = seat_from_proto(message.leader, "leader", required=False) or 0
    if contract.kind is not ContractKind.ALLPASS:
        for flag in ("no_talon_leads", "four_players"):
            if getattr(message, flag):
                raise RequestError(f"field '{flag}' applies only to CONTRACT_KIND_ALL_PASS")
    deal = _deal(message.deal, message.talon)
    if len(message.played) > MAX_PLAYED:
        raise RequestError(f"field 'played' holds {len(message.played)} cards; the limit is {MAX_PLAYED}")
    played = [_text(card, "played") for card in message.played]
    assert declarer is not None
    return Position.after(deal, contract, declarer, played, leader,
                          talon_leads=not message.no_talon_leads, four_players=message.four_players)


@dataclass(frozen=True)
class SolveAnswer:
    """What a worker computes for one Solve call."""

    value: int
    card_values: dict[Card, int]
    best_line: list[Card]


def solve(solver: Solver, position: Position, card_values: bool, best_line: bool) -> SolveAnswer:
    """Run on a pool worker: the value, and the optional card values and line."""
    value = solver.solve(position)
    values = solver.card_values(position) if card_values else {}
    line = solver.best_line(position, value) if best_line else []
    return SolveAnswer(value, values, line)


def _card_values(values: dict[Card, int]) -> list[pb.CardValue]:
    return [pb.CardValue(card=str(card), declarer_tricks=value) for card, value in sorted(values.items())]


def solve_response(position: Position, answer: SolveAnswer) -> pb.SolveResponse:
    return pb.SolveResponse(
        declarer_tricks=answer.value,
        seat_to_move=seat_to_proto(position.seat_to_move),
        card_values=_card_values(answer.card_values),
        best_line=[str(card) for card in answer.best_line],
        tricks_left=position.tricks_left,
    )


def _batch_item(item: pb.BatchItem) -> tuple[Contract, int, int | None]:
    """A batch item's contract and seats (declarer, leader if set), its
    text fields checked against MAX_TEXT: the one check of an item's fields."""
    contract = contract_from_fields(item.kind, item.strain)
    _text(item.deal, "deal")
    if item.talon:
        _text(item.talon, "talon")
    declarer = seat_from_proto(item.declarer, "declarer", required=True)
    assert declarer is not None
    leader = seat_from_proto(item.leader, "leader", required=False)
    if leader is not None and contract.kind is ContractKind.ALLPASS and leader != 0:
        # The batch form has no leader for all-pass: seat 0 plays first.
        raise RequestError("field 'leader': an all-pass item is led by seat 0 (SEAT_FIRST)")
    return contract, declarer, leader


def batch_request(item: pb.BatchItem) -> SolveRequest:
    """The checked solve request (see :mod:`solver.batch`) of a batch item."""
    contract, declarer, leader = _batch_item(item)
    deal = Deal.parse(item.deal)
    if item.talon:
        deal = Deal(deal.hands, Hand.parse(item.talon))
    return SolveRequest(Position.start(deal, contract, declarer, leader or 0), item.card_values)


def batch_fields(item: pb.BatchItem) -> dict[str, Any]:
    """The ``prefdd batch`` request object of a batch item, for a worker
    that reads it as a line (the cluster's)."""
    contract, declarer, leader = _batch_item(item)
    request: dict[str, Any] = {"deal": item.deal, "contract": str(contract), "cards": item.card_values}
    if item.talon:
        request["talon"] = item.talon
    request["player" if contract.kind is ContractKind.ALLPASS else "declarer"] = declarer
    if leader is not None:
        request["leader"] = leader
    return request


def batch_result(item_id: str, index: int, answer: dict[str, Any]) -> pb.BatchResult:
    """A ``prefdd batch`` answer as a BatchResult."""
    tricks = answer["declarer_tricks"] if "declarer_tricks" in answer else answer["player_tricks"]
    values = [pb.CardValue(card=card, declarer_tricks=value)
              for card, value in answer.get("card_values", {}).items()]
    return pb.BatchResult(id=item_id, index=index,
                          evaluation=pb.Evaluation(declarer_tricks=tricks, card_values=values))


def batch_error(item_id: str, index: int, message: str) -> pb.BatchResult:
    return pb.BatchResult(id=item_id, index=index, error=short(message))


MAX_EXPONENT = 40
"""The largest decimal exponent of a number written as text in a JSON field
("1e40"): Python's exact rationals expand an exponent into digits, so
"1e10000000" alone holds the interpreter for seconds."""
MAX_NUMBER_TEXT = 80
"""Characters of a number written as text in a JSON field ("40/3", "-7.5")."""
_NUMBER_TEXT = re.compile(r"\s*[-+]?[\d_]*\.?[\d_]*(?:[eE]\s*([-+]?[\d_]+))?(?:/[\d_]+)?\s*")


def _check_number_text(text: str, field: str) -> None:
    # The match first: most texts (deals, names) fail it at their first
    # character, which is cheaper than looking at every character for a digit.
    match = None if len(text) > 4 * MAX_NUMBER_TEXT else _NUMBER_TEXT.fullmatch(text)
    if match is None or not any(c.isdigit() for c in text):
        return
    exponent = match.group(1)
    if len(text) > MAX_NUMBER_TEXT or (exponent is not None and (
            len(exponent) > 6 or abs(int(exponent.replace("_", "") or 0)) > MAX_EXPONENT)):
        raise RequestError(f"field '{field}': the number {text[:40]!r} is out of range (at most "
                           f"{MAX_NUMBER_TEXT} characters and exponents within ±{MAX_EXPONENT})")


def check_numbers(value: Any, field: str) -> None:
    """Refuse numbers written as text that are absurdly large, before any
    arithmetic; walks the decoded JSON without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _check_number_text(item, field)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def json_object(text: str, field: str, empty_ok: bool) -> dict[str, Any]:
    """A JSON object field (empty text: {} when ``empty_ok``), its numbers
    written as text bounded (``MAX_EXPONENT``, ``MAX_NUMBER_TEXT``)."""
    if not text.strip():
        if empty_ok:
            return {}
        raise RequestError(f"field '{field}' is required: a JSON object")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise RequestError(f"field '{field}' is not valid JSON: {error}") from None
    except RecursionError:
        raise RequestError(f"field '{field}' is nested too deeply") from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise RequestError(f"field '{field}': {error}") from None
    if not isinstance(value, dict):
        raise RequestError(f"field '{field}' must be a JSON object, got {type(value).__name__}")
    check_numbers(value, field)
    return value


def score_request(message: pb.ScoreRequest) -> ScoringRequest:
    """The typed scoring request of a Score call: for a game, the game file
    object played under the request's convention and overrides; else a
    ``prefdd score`` request's kind and input."""
    name = CONVENTIONS.required(message.convention, "convention")
    kind = SCORE_KINDS.required(message.kind, "kind")
    overrides = json_object(message.option_overrides_json, "option_overrides_json", empty_ok=True)
    data = json_object(message.input_json, "input_json", empty_ok=False)
    return ScoringRequest(get_convention(name, overrides), kind, data, list(message.players) or None)
