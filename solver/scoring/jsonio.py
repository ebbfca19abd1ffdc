"""JSON forms of the scoring vectors (spec §12) to and from the typed API.

:func:`handle_request` answers one request object (:func:`scoring_request` reads it
into a typed :class:`ScoringRequest`, :func:`answer_request` answers that) — ``convention``, optional
``option_overrides``, ``kind`` and ``input`` exactly as in ``scoring-vectors.json`` —
with the object the vectors call ``expected``.  Other top-level keys of a vector
(``id``, ``expected``, ``source`` …) are ignored, except ``players``, which gives the
seat order where the input does not.

Number forms: record amounts are JSON numbers (an integer, or a float when the amount
is an exact binary fraction such as 7.5); values, balances, probabilities and
settlement amounts are exact rational strings (``"-62"``, ``"40/3"``).  A record amount
that is not a binary fraction (possible only with unusual options) is written as a
rational string.  Input numbers may be JSON numbers or rational strings.

``ev_decision`` input: ``declarer``, ``contract``, ``decider``, one field
``first_defender_<name>`` holding the other defender's decision, and
``defence_trick_distribution_if_whist`` whose keys are totals (``"4"``) or, when both
would whist, ``"decider+other"`` (``"2+1"``); seat order is the request's ``players``,
else the input's, else ``[declarer, other, decider]`` (optional ``dealer``, ``strain``).
A ``mini_pool`` answer's ``invariant`` repeats the vector's text when the §8.3
invariant holds, and prefixes it with ``violated:`` otherwise.

A game file for ``prefdd pool`` (see :func:`game_from_json`) is an object with
``players`` (seat order clockwise), ``convention``, optional ``option_overrides``,
``pool_size`` (or the option ``pool_size_per_player``), optional ``first_dealer``
(4 players; default the first player), optional ``whist_price`` (money per whist) and
``deals``: deal inputs in order, where ``players`` may be left out and, in a 4-player
game, ``dealer`` too (the deal rotates clockwise from ``first_dealer``; a stand-alone
``talon_bonus`` record does not move the deal).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from .errors import ScoringError
from .numbers import parse_number
from .options import Convention, get_convention
from .outcome import (
    AllPassOutcome,
    ContractOutcome,
    DealOutcome,
    GiveUpOutcome,
    MisereOutcome,
    TalonBonusOutcome,
    player_names,
    seating,
)
from .records import Records, records_from_parts, score_deal
from .settlement import Settlement, settle
from .sheet import AllPassProgression, ProgressionEvent, ScoreSheet, write_with_help
from .value import TrickKey, WhistDecision, decide_whist, record_value

INVARIANT_TEXT = "final_balance == sum(deal_value) for every player"

_DEAL_FIELDS: dict[str, set[str]] = {
    "contract": {"declarer", "contract", "defenders", "decisions", "tricks", "returned_by", "strain", "light",
                 "dark", "talon_fast_tricks"},
    "misere": {"declarer", "tricks"},
    "allpass": {"tricks", "allpass_index"},
    "giveup": {"declarer", "contract"},
    "talon_bonus": {"declarer", "contract", "talon_fast_tricks"},
}
_COMMON_DEAL_FIELDS = {"type", "players", "dealer", "note", "comment"}
_CONTRACT_TEXT = re.compile(r"^\s*(10|[6-9])\s*(s|c|d|h|nt|♠|♣|♦|♥)?\s*$", re.IGNORECASE)
_SUIT_SYMBOLS = {"♠": "s", "♣": "c", "♦": "d", "♥": "h"}


# ---- numbers -------------------------------------------------------------------

def number_json(value: Fraction) -> int | float | str:
    """A record amount as a JSON number (int or exact binary float), else a string."""
    if value.denominator == 1:
        return int(value)
    if value.denominator & (value.denominator - 1) == 0:
        return float(value)
    return str(value)


def rational_json(value: Fraction) -> str:
    return str(value)


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScoringError(f"{what}: expected an object, got {value!r}")
    return value


def _list(value: Any, what: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise ScoringError(f"{what}: expected a list, got {value!r}")
    return value


def _required(obj: Mapping[str, Any], key: str, what: str) -> Any:
    if key not in obj:
        raise ScoringError(f"{what}: field {key!r} missing")
    return obj[key]


# ---- deals ---------------------------------------------------------------------

def _contract(value: Any, what: str) -> tuple[Any, str | None]:
    """Contract as given (int, or text like "7nt"/"6♠") -> (level, strain)."""
    if isinstance(value, str):
        match = _CONTRACT_TEXT.match(value)
        if not match:
            raise ScoringError(f"{what}: expected a contract 6..10 (e.g. 7 or \"7nt\"), got {value!r}")
        strain = match.group(2)
        return int(match.group(1)), (_SUIT_SYMBOLS.get(strain, strain.lower()) if strain else None)
    return value, None


def outcome_from_json(obj: Any, players: Sequence[str] | None = None, dealer: str | None = None) -> DealOutcome:
    """A deal input object (``type`` contract | misere | allpass | giveup | talon_bonus)
    as a typed outcome; ``players``/``dealer`` fill in fields the object leaves out."""
    deal = _object(obj, "deal")
    kind = _required(deal, "type", "deal")
    if not isinstance(kind, str) or kind not in _DEAL_FIELDS:
        raise ScoringError(f"deal type {kind!r} unknown; expected one of {sorted(_DEAL_FIELDS)}")
    unknown = set(deal) - _DEAL_FIELDS[kind] - _COMMON_DEAL_FIELDS
    if unknown:
        raise ScoringError(f"{kind} deal: unknown field {sorted(unknown)[0]!r}")
    names = deal.get("players", players)
    if names is None:
        raise ScoringError(f"{kind} deal: field 'players' missing")
    names = player_names(names)
    who_deals = deal.get("dealer", dealer)
    tricks = deal.get("tricks", {})
    if kind == "contract":
        level, strain = _contract(_required(deal, "contract", "contract deal"), "contract")
        if deal.get("strain") is not None:
            strain = deal["strain"]
        defenders = deal.get("defenders")
        if defenders is not None and (not isinstance(defenders, list) or len(defenders) != 2):
            raise ScoringError(f"defenders: expected [first, second], got {defenders!r}")
        light = deal.get("light")
        if light is None and deal.get("dark") is not None:
            light = not deal["dark"]
        return ContractOutcome(
            players=names,
            declarer=_required(deal, "declarer", "contract deal"),
            contract=level,
            decisions=_object(_required(deal, "decisions", "contract deal"), "decisions"),
            tricks=_object(tricks, "tricks") if tricks is not None else {},
            dealer=who_deals,
            returned_by=deal.get("returned_by"),
            defenders=tuple(defenders) if defenders is not None else None,  # type: ignore[arg-type]
            strain=strain,
            light=light,
            talon_fast_tricks=deal.get("talon_fast_tricks", 0),
        )
    if kind == "misere":
        return MisereOutcome(names, _required(deal, "declarer", "misere deal"),
                             _object(_required(deal, "tricks", "misere deal"), "tricks"), who_deals)
    if kind == "allpass":
        return AllPassOutcome(names, _object(_required(deal, "tricks", "allpass deal"), "tricks"), who_deals,
                              deal.get("allpass_index"))
    level, _ = _contract(_required(deal, "contract", f"{kind} deal"), "contract")
    if kind == "giveup":
        return GiveUpOutcome(names, _required(deal, "declarer", "giveup deal"), level, who_deals)
    return TalonBonusOutcome(names, _required(deal, "declarer", "talon_bonus deal"), level,
                             _required(deal, "talon_fast_tricks", "talon_bonus deal"), who_deals)


def outcome_json(outcome: DealOutcome) -> dict[str, Any]:
    """A contract, misère or all-pass outcome as a deal input object (what
    :func:`outcome_from_json` reads back); optional fields only when set."""
    data: dict[str, Any] = {"players": list(outcome.players)}
    if isinstance(outcome, AllPassOutcome):
        data = {"type": "allpass", **data, "tricks": dict(outcome.tricks)}
        if outcome.index is not None:
            data["allpass_index"] = outcome.index
    elif isinstance(outcome, MisereOutcome):
        data = {"type": "misere", **data, "declarer": outcome.declarer, "tricks": dict(outcome.tricks)}
    elif isinstance(outcome, ContractOutcome):
        data = {"type": "contract", **data, "declarer": outcome.declarer, "contract": outcome.contract}
        if outcome.strain is not None:
            data["strain"] = outcome.strain
        data["decisions"] = {name: getattr(d, "value", d) for name, d in outcome.decisions.items()}
        optional = {"returned_by": outcome.returned_by, "tricks": dict(outcome.tricks) or None,
                    "defenders": None if outcome.defenders is None else list(outcome.defenders),
                    "light": outcome.light, "talon_fast_tricks": outcome.talon_fast_tricks or None}
        data.update({key: value for key, value in optional.items() if value is not None})
    else:
        raise ScoringError(f"outcome_json writes contract, misère and all-pass outcomes, got {outcome!r:.80}")
    if outcome.dealer is not None:
        data["dealer"] = outcome.dealer
    return data


# ---- records -------------------------------------------------------------------

def records_json(records: Records) -> dict[str, Any]:
    """Records in the vector form: pool, mountain per player, whists as a list."""
    return {
        "pool": {p: number_json(records.pool[p]) for p in records.players},
        "mountain": {p: number_json(records.mountain[p]) for p in records.players},
        "whists": [{"writer": w, "target": t, "amount": number_json(a)} for w, t, a in records.whist_list()],
    }


def values_json(values: Mapping[str, Fraction], players: Sequence[str]) -> dict[str, str]:
    return {p: rational_json(values[p]) for p in players}


def records_from_json(pool: Any, mountain: Any, whists: Any, players: Sequence[str]) -> Records:
    """Records from per-player pool and mountain objects and a whist list."""
    pool_obj, mountain_obj = _object(pool, "pool"), _object(mountain, "mountain")
    for what, obj in (("pool", pool_obj), ("mountain", mountain_obj)):
        for name in obj:
            if name not in players:
                raise ScoringError(f"{what}: unknown player {name!r}; players are {list(players)}")
    entries = []
    for item in _list(whists if whists is not None else [], "whists"):
        entry = _object(item, "whists entry")
        writer, target = _required(entry, "writer", "whists entry"), _required(entry, "target", "whists entry")
        for role, name in (("writer", writer), ("target", target)):
            if name not in players:
                raise ScoringError(f"whists: unknown {role} {name!r}; players are {list(players)}")
        entries.append((writer, target, parse_number(_required(entry, "amount", "whists entry"), "whists amount")))
    return records_from_parts(
        players,
        {p: parse_number(pool_obj.get(p, 0), f"pool of {p!r}") for p in players},
        {p: parse_number(mountain_obj.get(p, 0), f"mountain of {p!r}") for p in players},
        entries,
    )


def settlement_json(result: Settlement, players: Sequence[str]) -> dict[str, Any]:
    return {
        "adjusted_mountain": values_json(result.adjusted_mountain, players),
        "pairwise_net": [{"creditor": n.creditor, "debtor": n.debtor, "amount": rational_json(n.amount)}
                         for n in result.pairwise_net],
        "final_balance": values_json(result.balance, players),
    }


# ---- requests ------------------------------------------------------------------

@dataclass(frozen=True)
class ScoringRequest:
    """One scoring computation, typed: what :func:`answer_request` computes.

    ``kind`` is a request kind (``deal``, ``settlement``, ``pool_write_with_help``,
    ``allpass_progression``, ``mini_pool``, ``ev_decision``) or ``game`` (a whole game
    file, :func:`play_game`); ``input`` is the kind's input object; ``players`` the
    seat order where the input does not give it. Plain data and a frozen convention:
    it crosses a process boundary as it is (pickled)."""

    convention: Convention
    kind: str
    input: Mapping[str, Any]
    players: Sequence[str] | None = None


def scoring_request(request: Any) -> ScoringRequest:
    """A request object (a vector without its ``expected``: ``convention``, optional
    ``option_overrides``, ``kind``, ``input``, optional ``players``) checked and typed.
    Raises :class:`ScoringError` for a bad request."""
    req = _object(request, "request")
    convention = get_convention(_required(req, "convention", "request"), req.get("option_overrides") or {})
    kind = _required(req, "kind", "request")
    data = _object(_required(req, "input", "request"), "input")
    if not isinstance(kind, str) or kind not in _HANDLERS:
        raise ScoringError(f"kind {kind!r} unknown; expected one of {sorted(_HANDLERS)}")
    return ScoringRequest(convention, kind, data, req.get("players"))


def answer_request(request: ScoringRequest) -> dict[str, Any]:
    """The answer object of a typed request (a game: ``prefdd pool --json``'s object)."""
    if request.kind == "game":
        from .drawing import game_json  # drawing builds on this module
        return game_json(play_game(request.convention, request.input, request.players))
    return _HANDLERS[request.kind](request.convention, request.input, request.players)


def handle_request(request: Any) -> dict[str, Any]:
    """Answer one request object (a vector without its ``expected``) with the object
    the vectors call ``expected``.  Raises :class:`ScoringError` for a bad request."""
    return answer_request(scoring_request(request))


def _deal(convention: Convention, data: Mapping[str, Any], players: Any) -> dict[str, Any]:
    outcome = outcome_from_json(data, players)
    records = score_deal(convention, outcome).records
    return deal_score_json(records, record_value(convention, records))


def deal_score_json(records: Records, value: Mapping[str, Fraction]) -> dict[str, Any]:
    """A scored deal in the ``deal`` answer form: its records and its value."""
    return {"records": records_json(records), "deal_value": values_json(value, records.players)}


def _settlement(convention: Convention, data: Mapping[str, Any], players: Any) -> dict[str, Any]:
    names = player_names(players if players is not None else list(_object(_required(data, "pool", "settlement"),
                                                                          "pool")))
    records = records_from_json(_required(data, "pool", "settlement"), _required(data, "mountain", "settlement"),
                                data.get("whists", []), names)
    size = data.get("pool_size")
    pool_size = parse_number(size, "pool_size") if size is not None else convention.pool_size_per_player
    return settlement_json(settle(convention, records, pool_size), names)


def _pool_write(convention: Convention, data: Mapping[str, Any], players: Any) -> dict[str, Any]:
    names = player_names(data.get("seat_order_clockwise", players))
    before = records_from_json(_required(data, "pool_before", "pool_write_with_help"),
                               _required(data, "mountain_before", "pool_write_with_help"), [], names)
    excluded = _list(data.get("excluded_from_help", []), "excluded_from_help")
    writer = _required(data, "writer", "pool_write_with_help")
    delta = write_with_help(convention, names, before.pool, before.mountain,
                            parse_number(_required(data, "pool_size", "pool_write_with_help"), "pool_size"),
                            writer, parse_number(_required(data, "points", "pool_write_with_help"), "points"),
                            excluded)
    return {"records": records_json(delta), "deal_value": values_json(record_value(convention, delta), names)}


def _progression(convention: Convention, data: Mapping[str, Any], players: Any) -> dict[str, Any]:
    progression = AllPassProgression(convention)
    prices: list[int | float | str | None] = []
    for item in _list(_required(data, "events", "allpass_progression"), "events"):
        event = _object(item, "event")
        for flag in ("made", "whisted"):
            if not isinstance(event.get(flag, False), bool):
                raise ScoringError(f"event: {flag!r} must be true or false, got {event[flag]!r}")
        price = progression.record(ProgressionEvent(_required(event, "type", "event"), event.get("made", False),
                                                    event.get("whisted", False)))
        prices.append(None if price is None else number_json(price))
    return {"trick_price_per_event": prices}


def _mini_pool(convention: Convention, data: Mapping[str, Any], players: Any) -> dict[str, Any]:
    deals = _list(_required(data, "deals", "mini_pool"), "deals")
    if players is None:
        players = _object(deals[0], "deal").get("players") if deals else None
    sheet = ScoreSheet(convention, player_names(players),
                       parse_number(_required(data, "pool_size", "mini_pool"), "pool_size"))
    for number, deal in enumerate(deals, start=1):
        try:
            sheet.add(outcome_from_json(deal, sheet.players))
        except ScoringError as error:
            raise ScoringError(f"deal {number}: {error}") from None
    return sheet_json(sheet, with_invariant=True)


def sheet_json(sheet: ScoreSheet, with_invariant: bool = False) -> dict[str, Any]:
    """A score sheet as the ``mini_pool`` expected object: per deal, final records and
    final balance (and the §8.3 invariant when it holds)."""
    names = sheet.players
    settlement = sheet.settle()
    result: dict[str, Any] = {
        "per_deal": [{"records": records_json(entry.records), "deal_value": values_json(entry.value, names)}
                     for entry in sheet.entries],
        "final_records": records_json(sheet.totals),
        "final_balance": values_json(settlement.balance, names),
    }
    if with_invariant:
        holds = sheet.values_sum() == settlement.balance
        result["invariant"] = INVARIANT_TEXT if holds else "violated: " + INVARIANT_TEXT
    return result


def _trick_key(text: Any) -> TrickKey:
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str):
        parts = text.split("+")
        if all(part.strip().isdigit() for part in parts) and len(parts) in (1, 2):
            numbers = tuple(int(part) for part in parts)
            return numbers[0] if len(numbers) == 1 else (numbers[0], numbers[1])
    raise ScoringError(f"defence tricks {text!r}: expected \"T\" or \"decider+other\"")


def _ev_decision(convention: Convention, data: Mapping[str, Any], players: Any) -> dict[str, Any]:
    declarer = _required(data, "declarer", "ev_decision")
    decider = _required(data, "decider", "ev_decision")
    first_keys = [key for key in data if key.startswith("first_defender_")]
    if len(first_keys) != 1:
        raise ScoringError("ev_decision: expected one field 'first_defender_<name>' with the first defender's "
                           "decision")
    other = first_keys[0][len("first_defender_"):]
    if decider == declarer:
        raise ScoringError(f"ev_decision: decider {decider!r} is the declarer")
    if other in (declarer, decider):
        raise ScoringError(f"ev_decision: {other!r} is not the other defender against declarer {declarer!r}")
    names = players if players is not None else data.get("players", [declarer, other, decider])
    raw = _object(_required(data, "defence_trick_distribution_if_whist", "ev_decision"),
                  "defence_trick_distribution_if_whist")
    distribution = {_trick_key(key): parse_number(value, f"probability of {key!r}") for key, value in raw.items()}
    level, strain = _contract(_required(data, "contract", "ev_decision"), "contract")
    seat = seating(names, data.get("dealer"))
    seat.require_card_holder(declarer, "declarer")
    if other == decider or other not in seat.defenders(declarer):
        raise ScoringError(f"ev_decision: {other!r} is not the other defender against declarer {declarer!r}")
    decision = decide_whist(convention, players=seat.players, declarer=declarer, contract=level, decider=decider,
                            other_decision=data[first_keys[0]], defence_tricks_if_whist=distribution,
                            dealer=data.get("dealer"), strain=data.get("strain", strain))
    return ev_json(decision, seat.players)


def ev_json(decision: WhistDecision, players: Sequence[str]) -> dict[str, Any]:
    def key_json(key: TrickKey) -> int | list[int]:
        return list(key) if isinstance(key, tuple) else key

    return {
        "outcomes_if_whist": [{"defence_tricks": key_json(o.defence_tricks), "probability": rational_json(o.probability),
                               "deal_value": values_json(o.deal_value, players)} for o in decision.outcomes_if_whist],
        "expected_value": {action.value: values_json(values, players)
                           for action, values in decision.expected_value.items()},
        f"best_action_for_{decision.decider}": decision.best_action.value,
    }


_HANDLERS = {
    "deal": _deal,
    "settlement": _settlement,
    "pool_write_with_help": _pool_write,
    "allpass_progression": _progression,
    "mini_pool": _mini_pool,
    "ev_decision": _ev_decision,
}


# ---- game files ----------------------------------------------------------------

@dataclass(frozen=True)
class Game:
    """A whole game read from a JSON game file, played onto its score sheet."""

    sheet: ScoreSheet
    whist_price: Fraction


_GAME_FIELDS = {"players", "convention", "option_overrides", "pool_size", "first_dealer", "whist_price", "deals",
                "note", "comment", "title"}


def _game_object(obj: Any) -> Mapping[str, Any]:
    game = _object(obj, "game")
    unknown = set(game) - _GAME_FIELDS
    if unknown:
        raise ScoringError(f"game: unknown field {sorted(unknown)[0]!r}")
    return game


def game_from_json(obj: Any) -> Game:
    """Read a game file object and play all its deals onto a new score sheet."""
    game = _game_object(obj)
    convention = get_convention(_required(game, "convention", "game"), game.get("option_overrides") or {})
    return _play_game(convention, game, None)


def play_game(convention: Convention, obj: Any, players: Sequence[str] | None = None) -> Game:
    """A game file object played under ``convention`` (its own ``convention`` and
    ``option_overrides`` are not read), ``players`` replacing its own when given."""
    return _play_game(convention, _game_object(obj), players)


def _play_game(convention: Convention, game: Mapping[str, Any], players: Sequence[str] | None) -> Game:
    names = player_names(players if players is not None else _required(game, "players", "game"))
    size = game.get("pool_size")
    sheet = ScoreSheet(convention, names, parse_number(size, "pool_size") if size is not None else None)
    dealer_seat = 0
    if len(names) == 4:
        first_dealer = game.get("first_dealer", names[0])
        if first_dealer not in names:
            raise ScoringError(f"first_dealer: unknown player {first_dealer!r}; players are {list(names)}")
        dealer_seat = names.index(first_dealer)
    for number, deal in enumerate(_list(_required(game, "deals", "game"), "deals"), start=1):
        rotation_dealer = names[dealer_seat % len(names)] if len(names) == 4 else None
        try:
            outcome = outcome_from_json(deal, names, rotation_dealer)
            sheet.add(outcome)
        except ScoringError as error:
            raise ScoringError(f"deal {number}: {error}") from None
        if not isinstance(outcome, TalonBonusOutcome):
            dealer_seat += 1
    return Game(sheet, whist_price(game.get("whist_price", 1)))


def whist_price(value: Any) -> Fraction:
    """Money per whist: a positive number."""
    price = parse_number(value, "whist_price")
    if price <= 0:
        raise ScoringError(f"whist_price: must be positive, got {value!r}")
    return price
