"""The game record: one deal as it was played, in the project's own JSON.

The JSON form is documented by ``record.schema.json`` (shipped in this
package; :func:`schema` reads it). Each field::

    format           "preferans-dd record" (optional on input)
    version          1
    players          names by seat (optional; default first, second, third)
    hands            the three hands as dealt, seat 0 = first hand (who leads)
    talon            the two talon cards (optional: without it the hands are as played)
    bids             the auction in order, e.g. ["6s", "pass", "7c", "pass", "pass"] (optional)
    contract         "6s" ... "10nt", "misere" or "allpass" (optional)
    declarer         seat of the declarer (needed with a trick contract or misère)
    discard          the declarer's two discarded cards (optional: his best is assumed)
    decisions        each seat's answer by seat, null for the declarer: ["whist", null, "pass"]
    whist_play       "open" or "closed" (how the defence was played)
    played           the cards played from the first lead, e.g. "Ks As 7s Kd ..."
    tricks           tricks taken by seat when the play is not recorded
    declarer_tricks  the declarer's tricks as recorded (when the seats' are not known)
    talon_leads, four_players   all-pass options (defaults true, false)
    convention, option_overrides   the scoring convention (sochi, leningrad, rostov)
    comment          free text

Cards and hands take every form of :mod:`solver.notation` on input (Russian
ranks included) and are written canonically. :meth:`GameRecord.analyze_arguments`
and :meth:`GameRecord.score_request` give what ``prefdd analyze`` and
``prefdd score`` need.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import IO, Any, Iterable, Mapping

from ..notation import SEAT_NAMES, Card, Contract, ContractKind, Deal, Hand, NotationError, parse_card_runs, parse_seat
from ..position import Position
from ..scoring import Decision
from .errors import FormatError, located

__all__ = ["GameRecord", "FORMAT_NAME", "VERSION", "loads", "load", "dumps", "dump", "from_json", "to_json",
           "schema"]

FORMAT_NAME = "preferans-dd record"
VERSION = 1
DEFAULT_PLAYERS = ("first", "second", "third")
_FIELDS = ("format", "version", "players", "hands", "talon", "bids", "contract", "declarer", "discard",
           "decisions", "whist_play", "played", "tricks", "declarer_tricks", "talon_leads", "four_players",
           "convention", "option_overrides", "comment")


@dataclass(frozen=True)
class GameRecord:
    """One deal and what is known of how it went. Only ``deal`` is required;
    construction checks that the parts agree (a discard the declarer holds,
    cards played by the rules, decisions of the defenders only)."""

    deal: Deal
    contract: Contract | None = None
    declarer: int | None = None
    discard: Hand | None = None
    decisions: tuple[Decision | None, Decision | None, Decision | None] | None = None
    whist_play: str | None = None
    played: tuple[Card, ...] = ()
    tricks: tuple[int, int, int] | None = None
    declarer_tricks: int | None = None
    players: tuple[str, str, str] | None = None
    bids: tuple[str, ...] = ()
    talon_leads: bool = True
    four_players: bool = False
    convention: str | None = None
    option_overrides: Mapping[str, Any] = field(default_factory=dict)
    comment: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.deal, Deal):
            raise FormatError(f"expected a Deal, got {self.deal!r}", field="hands")
        if self.contract is not None and not isinstance(self.contract, Contract):
            raise FormatError(f"expected a Contract, got {self.contract!r}", field="contract")
        trick_game = self.contract is not None and self.contract.kind is not ContractKind.ALLPASS
        if self.declarer is not None:
            _seat_value(self.declarer, "declarer")
        elif trick_game:
            raise FormatError(f"a {self.contract} contract needs its declarer", field="declarer")
        if self.contract is not None and self.contract.kind is ContractKind.ALLPASS:
            for name in ("declarer", "discard", "decisions"):
                if getattr(self, name) is not None:
                    raise FormatError("all-pass has no " + name, field=name)
        if self.discard is not None:
            self._check_discard()
        if self.decisions is not None:
            self._check_decisions()
        if self.whist_play not in (None, "open", "closed"):
            raise FormatError(f"expected open or closed, got {self.whist_play!r}", field="whist_play")
        if self.tricks is not None:
            if len(self.tricks) != 3 or any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= 10
                                            for t in self.tricks):
                raise FormatError(f"expected three trick counts 0..10 by seat, got {self.tricks!r}", field="tricks")
        if self.declarer_tricks is not None and (isinstance(self.declarer_tricks, bool)
                                                 or not isinstance(self.declarer_tricks, int)
                                                 or not 0 <= self.declarer_tricks <= 10):
            raise FormatError(f"expected 0..10, got {self.declarer_tricks!r}", field="declarer_tricks")
        if self.players is not None and (len(self.players) != 3 or len(set(self.players)) != 3
                                         or not all(isinstance(p, str) and p for p in self.players)):
            raise FormatError(f"expected three different names by seat, got {self.players!r}", field="players")
        if self.played:
            if self.contract is None:
                raise FormatError("cards played need the contract (the trump decides what is legal)",
                                  field="played")
            try:
                self.final_position()
            except ValueError as error:
                raise located(error, field="played") from None

    def _check_discard(self) -> None:
        if self.declarer is None or self.deal.talon is None:
            raise FormatError("a discard needs the declarer and the talon", field="discard")
        pool = self.deal.hands[self.declarer] | self.deal.talon
        if len(self.discard) != 2 or (self.discard - pool).mask:
            raise FormatError(f"the declarer's discard is 2 of his 12 cards ({pool.pretty()}), got "
                              f"{self.discard.pretty()}", field="discard")

    def _check_decisions(self) -> None:
        if self.declarer is None or len(self.decisions) != 3:
            raise FormatError("decisions are given by seat (three entries) and need the declarer",
                              field="decisions")
        for seat, choice in enumerate(self.decisions):
            if seat == self.declarer and choice is not None:
                raise FormatError(f"the declarer (seat {seat}) has no decision; write null", field="decisions")
            if seat != self.declarer and choice is not None and not isinstance(choice, Decision):
                raise FormatError(f"seat {seat}: expected a Decision, got {choice!r}", field="decisions")

    # ---- the deal as played ------------------------------------------------

    @property
    def names(self) -> tuple[str, str, str]:
        return self.players or DEFAULT_PLAYERS

    def deal_in_play(self) -> Deal:
        """The hands as played: with a known discard, the declarer holds his
        hand and the talon less the discard; otherwise the deal itself (the
        analysers then take the declarer's best discard)."""
        if self.discard is None or self.deal.talon is None or self.declarer is None:
            return self.deal
        hands = list(self.deal.hands)
        hands[self.declarer] = hands[self.declarer] | self.deal.talon
        hands[self.declarer] = hands[self.declarer] - self.discard
        return Deal((hands[0], hands[1], hands[2]))

    def final_position(self) -> Position:
        """The position after the cards played (checked card by card)."""
        if self.contract is None:
            raise FormatError("no contract", field="contract")
        allpass = self.contract.kind is ContractKind.ALLPASS
        deal = self.deal if allpass else self.deal_in_play()
        if deal.talon is not None and not allpass:
            if self.played:   # the declarer took the talon: his cards are known with his discard
                raise FormatError("cards played in a game with the talon need the declarer's discard",
                                  field="discard")
            deal = Deal(deal.hands)
        return Position.after(deal, self.contract, self.declarer or 0, self.played,
                              talon_leads=self.talon_leads, four_players=self.four_players)

    def tricks_by_seat(self) -> tuple[int, int, int] | None:
        """Tricks taken by seat: from the play when every card is recorded,
        else as recorded, else None."""
        if self.contract is not None and self.played:
            position = self.final_position()
            if position.is_over:
                return position.tricks_taken
        return self.tricks

    # ---- what the commands need ---------------------------------------------

    def analyze_arguments(self) -> dict[str, Any]:
        """Keyword values for ``prefdd analyze``: deal, contract, declarer,
        discard and played (canonical text; None when unknown)."""
        return {
            "deal": str(self.deal),
            "contract": None if self.contract is None else str(self.contract),
            "declarer": self.declarer,
            "discard": None if self.discard is None else str(self.discard),
            "played": " ".join(str(c) for c in self.played),
            "talon_leads": self.talon_leads,
            "four_players": self.four_players,
        }

    def score_request(self) -> dict[str, Any]:
        """A ``prefdd score`` request line (``kind`` deal) for this deal.
        Needs the contract, the convention, and the tricks (the whole play or
        ``tricks``) unless both defenders passed."""
        if self.contract is None:
            raise FormatError("scoring needs the contract", field="contract")
        if self.convention is None:
            raise FormatError("scoring needs the convention (sochi, leningrad or rostov)", field="convention")
        names = self.names
        data: dict[str, Any] = {"players": list(names)}
        kind = self.contract.kind
        played = True
        if kind is ContractKind.ALLPASS:
            data["type"] = "allpass"
        elif kind is ContractKind.MISERE:
            data.update(type="misere", declarer=names[self.declarer])
        else:
            assert self.declarer is not None and self.contract.level is not None
            data.update(type="contract", declarer=names[self.declarer], contract=self.contract.level,
                        strain=str(self.contract)[len(str(self.contract.level)):])
            if self.decisions is None:
                raise FormatError("scoring a contract needs each defender's decision", field="decisions")
            data["decisions"] = {names[s]: d.value for s, d in enumerate(self.decisions) if d is not None}
            played = any(d not in (None, Decision.PASS) for d in self.decisions)
        if played:
            tricks = self.tricks_by_seat()
            if tricks is None:
                raise FormatError("scoring needs the tricks: give every card in 'played' or the tricks by seat",
                                  field="tricks")
            data["tricks"] = {names[s]: t for s, t in enumerate(tricks)}
        return {"convention": self.convention, "option_overrides": dict(self.option_overrides),
                "kind": "deal", "input": data}

    def with_(self, **changes: Any) -> GameRecord:
        return replace(self, **changes)


def _seat_value(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise FormatError(f"expected a seat 0, 1 or 2, got {value!r}", field=what)
    try:
        return parse_seat(value)
    except NotationError as error:
        raise FormatError(str(error), field=what) from None


# ---- JSON ----------------------------------------------------------------------

def _hand(value: object, what: str) -> Hand:
    if not isinstance(value, str):
        raise FormatError(f"expected a hand as text, got {value!r}", field=what)
    try:
        return Hand.parse(value)
    except NotationError as error:
        raise FormatError(str(error), field=what) from None


def _text(obj: Mapping[str, Any], name: str) -> str | None:
    value = obj.get(name)
    if value is not None and not isinstance(value, str):
        raise FormatError(f"expected text, got {value!r}", field=name)
    return value


def _flag(obj: Mapping[str, Any], name: str, default: bool) -> bool:
    value = obj.get(name, default)
    if not isinstance(value, bool):
        raise FormatError(f"expected true or false, got {value!r}", field=name)
    return value


def _decisions(value: object) -> tuple[Decision | None, Decision | None, Decision | None]:
    if not isinstance(value, list) or len(value) != 3:
        raise FormatError(f"expected three entries by seat (null for the declarer), got {value!r}",
                          field="decisions")
    result = []
    for seat, item in enumerate(value):
        if item is None:
            result.append(None)
            continue
        found = Decision.from_text(item)
        if found is None:
            raise FormatError(f"seat {seat}: expected pass, whist or half_whist (пас, вист, полвиста), got {item!r}",
                              field="decisions")
        result.append(found)
    return result[0], result[1], result[2]


def _played(value: object) -> tuple[Card, ...]:
    try:
        if isinstance(value, str):
            return tuple(parse_card_runs(value))
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(Card.parse(v) for v in value)
    except NotationError as error:
        raise FormatError(str(error), field="played") from None
    raise FormatError(f"expected the cards as text or a list of cards, got {value!r}", field="played")


def from_json(obj: Any) -> GameRecord:
    """A record from its JSON object; FormatError naming the field otherwise."""
    if not isinstance(obj, Mapping):
        raise FormatError(f"a record is a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - set(_FIELDS))
    if unknown:
        raise FormatError(f"unknown field; the fields are {', '.join(_FIELDS)}", field=unknown[0])
    if obj.get("format", FORMAT_NAME) != FORMAT_NAME:
        raise FormatError(f"expected {FORMAT_NAME!r}, got {obj['format']!r}", field="format")
    if obj.get("version", VERSION) != VERSION:
        raise FormatError(f"version {obj['version']!r} is not known; this reader knows {VERSION}", field="version")
    hands = obj.get("hands")
    if not isinstance(hands, list) or len(hands) != 3:
        raise FormatError(f"expected the three hands by seat, got {hands!r}", field="hands")
    parsed = tuple(_hand(h, f"hands[{i}]") for i, h in enumerate(hands))
    talon = _hand(obj["talon"], "talon") if obj.get("talon") is not None else None
    try:
        deal = Deal((parsed[0], parsed[1], parsed[2]), talon)
    except NotationError as error:
        raise FormatError(str(error), field="hands") from None
    contract = None
    if obj.get("contract") is not None:
        try:
            contract = Contract.parse(_text(obj, "contract") or "")
        except NotationError as error:
            raise FormatError(str(error), field="contract") from None
    declarer = _seat_value(obj["declarer"], "declarer") if obj.get("declarer") is not None else None
    players = obj.get("players")
    if players is not None and not isinstance(players, list):
        raise FormatError(f"expected three names by seat, got {players!r}", field="players")
    tricks = obj.get("tricks")
    if tricks is not None and not isinstance(tricks, list):
        raise FormatError(f"expected three trick counts by seat, got {tricks!r}", field="tricks")
    bids = obj.get("bids", [])
    if not isinstance(bids, list) or not all(isinstance(b, str) for b in bids):
        raise FormatError(f"expected a list of bids as text, got {bids!r}", field="bids")
    overrides = obj.get("option_overrides") or {}
    if not isinstance(overrides, Mapping):
        raise FormatError(f"expected an object, got {overrides!r}", field="option_overrides")
    return GameRecord(
        deal=deal, contract=contract, declarer=declarer,
        discard=_hand(obj["discard"], "discard") if obj.get("discard") is not None else None,
        decisions=_decisions(obj["decisions"]) if obj.get("decisions") is not None else None,
        whist_play=_text(obj, "whist_play"),
        played=_played(obj["played"]) if obj.get("played") is not None else (),
        tricks=tuple(tricks) if tricks is not None else None,  # type: ignore[arg-type]
        declarer_tricks=obj.get("declarer_tricks"),
        players=tuple(players) if players is not None else None,  # type: ignore[arg-type]
        bids=tuple(bids), talon_leads=_flag(obj, "talon_leads", True),
        four_players=_flag(obj, "four_players", False), convention=_text(obj, "convention"),
        option_overrides=dict(overrides), comment=_text(obj, "comment") or "",
    )


def to_json(record: GameRecord) -> dict[str, Any]:
    """The JSON object of a record: canonical text, unknown parts left out."""
    out: dict[str, Any] = {"format": FORMAT_NAME, "version": VERSION}
    if record.players is not None:
        out["players"] = list(record.players)
    out["hands"] = [str(h) for h in record.deal.hands]
    if record.deal.talon is not None:
        out["talon"] = str(record.deal.talon)
    if record.bids:
        out["bids"] = list(record.bids)
    if record.contract is not None:
        out["contract"] = str(record.contract)
    if record.declarer is not None:
        out["declarer"] = record.declarer
    if record.discard is not None:
        out["discard"] = str(record.discard)
    if record.decisions is not None:
        out["decisions"] = [None if d is None else d.value for d in record.decisions]
    if record.whist_play is not None:
        out["whist_play"] = record.whist_play
    if record.played:
        out["played"] = " ".join(str(c) for c in record.played)
    if record.tricks is not None:
        out["tricks"] = list(record.tricks)
    if record.declarer_tricks is not None:
        out["declarer_tricks"] = record.declarer_tricks
    if not record.talon_leads:
        out["talon_leads"] = False
    if record.four_players:
        out["four_players"] = True
    if record.convention is not None:
        out["convention"] = record.convention
    if record.option_overrides:
        out["option_overrides"] = dict(record.option_overrides)
    if record.comment:
        out["comment"] = record.comment
    return out


def loads(text: str) -> list[GameRecord]:
    """Records from JSON text: one object, a list of objects, or JSON lines
    (one object a line). Errors name the line (JSON lines) or the record
    number (a list), and the field."""
    stripped = text.strip()
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError as error:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) < 2:
            raise FormatError(f"not valid JSON: {error.msg} (column {error.colno})", line=error.lineno) from None
        return [_json_line(n, line) for n, line in lines]
    if isinstance(data, list):
        records = []
        for number, item in enumerate(data, start=1):
            try:
                records.append(from_json(item))
            except FormatError as error:
                raise FormatError(f"record {number}: {error}") from None
        return records
    return [from_json(data)]


def _json_line(number: int, line: str) -> GameRecord:
    try:
        return from_json(json.loads(line))
    except json.JSONDecodeError as error:
        raise FormatError(f"not valid JSON: {error.msg} (column {error.colno})", line=number) from None
    except FormatError as error:
        raise located(error, line=number) from None


def load(fp: IO[str]) -> list[GameRecord]:
    return loads(fp.read())


def dumps(records: GameRecord | Iterable[GameRecord], indent: int | None = 2) -> str:
    """One record as a JSON object, several as a list."""
    if isinstance(records, GameRecord):
        return json.dumps(to_json(records), ensure_ascii=False, indent=indent) + "\n"
    items = [to_json(r) for r in records]
    return json.dumps(items[0] if len(items) == 1 else items, ensure_ascii=False, indent=indent) + "\n"


def dump(records: GameRecord | Iterable[GameRecord], fp: IO[str]) -> None:
    fp.write(dumps(records))


def schema() -> dict[str, Any]:
    """The JSON Schema of a record (``record.schema.json``)."""
    return json.loads(resources.files(__package__).joinpath("record.schema.json").read_text(encoding="utf-8"))


def seat_label(seat: int, record: GameRecord | None = None) -> str:
    """A seat's player name (or its seat name)."""
    if record is not None and record.players is not None:
        return record.players[seat]
    return SEAT_NAMES[seat]

