"""Slovesnov's Bridge/Preferans studio problem files, ``.pts`` and ``.bts``
version 5 (text; since version 5 the two are the same format)::

    % bts version 5.2
    deal 1 KQ7.AJ7.K87.J J98.KQT8..T98 A..AQJT9.AKQ7
    contract 8D
    play N
    turns 0
    player S
    absent W
    comment free text

The grammar comes from the program's writer and reader
(slovesnov/bridge ``src/problem/Problem.cpp``: ``getBtsContent`` and
``parseBts``) and its sample files (``problems/preferansFriday.pts``,
``solvealldeals.pts``). Lines may come in any order after ``deal``; keywords
are in any case. One file may hold several problems, each starting with a
``deal`` line.

* ``deal N HANDS``: N is the problem's number; the hands are dotted in the
  order spades.hearts.diamonds.clubs (not ours: spades.clubs.diamonds.hearts),
  ranks ``A K Q J T 9 8 7``; they start at North, or at East when North is
  absent, and go clockwise (N E S W) over the seated players.
* ``contract``: ``6S`` ... ``10NT`` (strain S H D C NT), or ``misere`` (old
  files: ``mizer``).
* ``play``: the seat that leads (``N E S W``), or the cards played so far
  (``SA D9 DJ``, suit letter then rank).
* ``turns``: how many of those cards are played in the position shown.
* ``player``: the declarer's seat; ``absent``: the empty seat (default S,
  files before 5.1).
* ``comment``: free text to the end of the problem.

Old files are in a Cyrillic 8-bit code page: bytes are read as UTF-8 first,
then as cp1251.

The files hold the hands in play (no talon, the discard made), so a record
read from them has no talon; seat 0 is the seat that leads.
"""
from __future__ import annotations

import re
from typing import IO, Iterable

from ..notation import Card, Contract, ContractKind, Deal, Hand, NotationError, RANKS
from .errors import FormatError
from .record import GameRecord

__all__ = ["loads", "load", "dumps", "dump", "decode"]

COMPASS = "NESW"
HEADER = "% bts version 5.2"
_THEIR_SUITS = "shdc"             # their suit order, as our suit indices below
_OUR_SUIT = {"s": 0, "h": 3, "d": 2, "c": 1}
_THEIR_ORDER = (0, 3, 2, 1)       # our suit index of their 1st..4th dotted group
_KEYS = ("deal", "contract", "play", "turns", "player", "absent", "comment", "pbninfo")


def decode(data: bytes) -> str:
    """UTF-8 first, then the Cyrillic code page cp1251 of old files."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1251")


def _hand(text: str, line: int, seat: str) -> Hand:
    groups = text.split(".")
    if len(groups) != 4:
        raise FormatError(f"{seat}: {text!r} has {len(groups)} groups, expected 4 (spades.hearts.diamonds.clubs)",
                          line=line, field="deal")
    cards = []
    for group, suit in zip(groups, _THEIR_ORDER):
        for char in group.strip().replace("-", ""):
            rank = RANKS.find(char.upper())
            if rank < 0:
                raise FormatError(f"{seat}: {char!r} in {text!r} is not a rank (A K Q J T 9 8 7)",
                                  line=line, field="deal")
            cards.append(Card(suit, rank))
    try:
        return Hand.from_cards(cards)
    except NotationError as error:
        raise FormatError(f"{seat}: {error}", line=line, field="deal") from None


def _seat(text: str, line: int, what: str) -> str:
    word = text.strip().upper()[:1]
    if not word or word not in COMPASS:
        raise FormatError(f"expected a seat N, E, S or W, got {text.strip()!r}", line=line, field=what)
    return word


def _contract(text: str, line: int) -> Contract:
    word = text.strip().lower()
    if word in ("misere", "mizer"):
        return Contract(ContractKind.MISERE)
    match = re.fullmatch(r"(\d+)\s*(nt|n|[shdc])", word)
    if not match:
        raise FormatError(f"expected 6S ... 10NT or misere, got {text.strip()!r}", line=line, field="contract")
    level, strain = match.groups()
    try:
        return Contract.parse(level + ("nt" if strain.startswith("n") else strain))
    except NotationError as error:
        raise FormatError(str(error), line=line, field="contract") from None


def _cards(text: str, line: int) -> list[Card]:
    cards = []
    for token in text.split():
        if len(token) != 2 or token[0].lower() not in _OUR_SUIT or token[1].upper() not in RANKS:
            raise FormatError(f"{token!r} is not a card (suit letter S H D C, then rank: SA, D9)",
                              line=line, field="play")
        cards.append(Card(_OUR_SUIT[token[0].lower()], RANKS.index(token[1].upper())))
    return cards


def _problem(lines: list[tuple[int, str]]) -> GameRecord:
    """One problem: its lines, the first being ``deal``."""
    fields: dict[str, tuple[int, str]] = {}
    comment: list[str] = []
    for number, text in lines:
        if comment:
            comment.append(text)
            continue
        key, _, value = text.strip().partition(" ")
        key = key.lower()
        if key not in _KEYS:
            raise FormatError(f"unknown line {text.strip()!r}; expected one of {', '.join(_KEYS[:-1])}",
                              line=number)
        if key in fields:
            raise FormatError("given twice in one problem", line=number, field=key)
        if key == "comment":
            comment.append(value)
        elif key == "pbninfo":
            break
        fields[key] = (number, value)
    for key in ("contract", "play", "turns"):
        if key not in fields:
            raise FormatError(f"the problem that starts at line {lines[0][0]} has no {key!r} line", field=key)
    deal_line, deal_text = fields["deal"]
    absent = _seat(*reversed(fields["absent"]), "absent") if "absent" in fields else "S"
    seated = [s for s in COMPASS if s != absent]
    parts = deal_text.split()
    if len(parts) != 4 or not parts[0].isdigit():
        raise FormatError("expected the problem's number and three hands, e.g. 'deal 1 KQ7.AJ7.K87.J ...'",
                          line=deal_line, field="deal")
    first = "E" if absent == "N" else "N"
    order = seated[seated.index(first):] + seated[:seated.index(first)]
    hands = {seat: _hand(text, deal_line, seat) for seat, text in zip(order, parts[1:])}
    contract = _contract(fields["contract"][1], fields["contract"][0])
    play_line, play_text = fields["play"]
    played = _cards(play_text, play_line) if len(play_text.split()) != 1 or len(play_text.strip()) != 1 else []
    if played:
        holder = [s for s, h in hands.items() if played[0] in h]
        if not holder:
            raise FormatError(f"the first card {played[0]} is in no hand", line=play_line, field="play")
        leader = holder[0]
    else:
        leader = _seat(play_text, play_line, "play")
        if leader == absent:
            raise FormatError(f"{leader} is the absent seat", line=play_line, field="play")
    turns_line, turns_text = fields["turns"]
    if not turns_text.strip().isdigit() or int(turns_text) > len(played):
        raise FormatError(f"expected 0..{len(played)} (the cards in 'play'), got {turns_text.strip()!r}",
                          line=turns_line, field="turns")
    seats = [seated[(seated.index(leader) + k) % 3] for k in range(3)]
    declarer = None
    if "player" in fields:
        who = _seat(*reversed(fields["player"]), "player")
        if who == absent:
            raise FormatError(f"{who} is the absent seat", line=fields["player"][0], field="player")
        declarer = seats.index(who)
    try:
        deal = Deal((hands[seats[0]], hands[seats[1]], hands[seats[2]]))
        return GameRecord(deal, contract=contract, declarer=declarer,
                          played=tuple(played[:int(turns_text)]), comment="\n".join(comment).strip())
    except (NotationError, FormatError) as error:
        line = play_line if isinstance(error, FormatError) and error.field == "played" else deal_line
        raise FormatError(getattr(error, "problem", str(error)), line=line,
                          field="play" if line == play_line else "deal") from None


def loads(text: str | bytes) -> list[GameRecord]:
    """Every problem of a ``.pts``/``.bts`` v5 file (text, or bytes in UTF-8 or cp1251)."""
    if isinstance(text, bytes):
        text = decode(text)
    problems: list[list[tuple[int, str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if re.match(r"(?i)deal\s", stripped):
            problems.append([(number, stripped)])
        elif problems:
            if stripped or (problems[-1] and any(t.lower().startswith("comment") for _, t in problems[-1])):
                problems[-1].append((number, line.rstrip()))
        elif stripped and not stripped.startswith("%"):
            raise FormatError(f"expected a 'deal' line first, got {stripped!r}", line=number)
    if not problems:
        raise FormatError("no 'deal' line found (a .pts/.bts v5 file starts its problems with 'deal N ...')")
    return [_problem(lines) for lines in problems]


def load(fp: IO[str] | IO[bytes]) -> list[GameRecord]:
    return loads(fp.read())


def _their_hand(hand: Hand) -> str:
    return ".".join("".join(RANKS[r] for r in hand.suit_ranks(suit)) for suit in _THEIR_ORDER)


def _their_card(card: Card) -> str:
    return _THEIR_SUITS[_THEIR_ORDER.index(card.suit)].upper() + RANKS[card.rank]


def _problem_text(number: int, record: GameRecord) -> str:
    contract = record.contract
    if contract is None or contract.kind is ContractKind.ALLPASS or record.declarer is None:
        raise FormatError("a .pts problem needs a trick contract or misère and its declarer", field="contract")
    deal = record.deal_in_play()
    if deal.talon is not None:
        deal = Deal(deal.hands)
    if any(len(h) != len(deal.hands[0]) for h in deal.hands):
        raise FormatError("give the discard: a .pts problem holds the hands as played", field="discard")
    if contract.kind is ContractKind.MISERE:
        contract_text = "misere"
    else:
        strain = str(contract)[len(str(contract.level)):].upper()
        contract_text = f"{contract.level}{strain}"
    play = " ".join(_their_card(c) for c in record.played) if record.played else "N"
    return "\n".join([
        f"deal {number} " + " ".join(_their_hand(h) for h in deal.hands),
        f"contract {contract_text}",
        f"play {play}",
        f"turns {len(record.played)}",
        f"player {COMPASS[record.declarer]}",
        "absent W",
        f"comment {record.comment}".rstrip(),
    ]) + "\n\n"


def dumps(records: GameRecord | Iterable[GameRecord]) -> str:
    """A v5 file: seat 0 written as North (who leads), 1 East, 2 South, West absent."""
    items = [records] if isinstance(records, GameRecord) else list(records)
    return HEADER + "\n" + "".join(_problem_text(n, r) for n, r in enumerate(items, start=1))


def dump(records: GameRecord | Iterable[GameRecord], fp: IO[str]) -> None:
    fp.write(dumps(records))
