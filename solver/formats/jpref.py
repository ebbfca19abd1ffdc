"""JPref ``deal:`` lines (ab-chesspad/jpref), as its logs and test files write them::

    [♠87A, ♦A7Q, ♦8K ♠9, ...]
    deal: ♠9A ♣KA ♦789A ♥8Q  ♠XJ ♣9JQ ♦J ♥7XJK  ♠78Q ♣78X ♦XQK ♥9  ♥A ♠K  1 -> 7♦ 7 # comment

The grammar, from JPref's own test files (``etc/tests/freeplay``,
``misereplay``, ``allpassplay``) and its log line (``GameManager``: the mark,
the hands, the talon, two spaces, the elder hand): three hands of 10 cards
and the talon of 2, each as suit symbols followed by ranks (``X`` is the ten;
a void suit is left out), then the elder hand's number (0-based, the hand that
leads), then optionally ``->`` and the expected bid (its bid names:
``7♦``, ``X♥`` for 10♥, ``6-`` for 6 no trump, ``Misère``, ``All-pass``) and the
declarer's tricks, then ``#`` and a comment.
The hands are read by counting cards (10, 10, 10, 2), since the spacing
between them varies in the files. An optional line before a deal, in
brackets, lists its tricks, each in play order (``♦8K ♠9`` is ♦8 ♦K ♠9).
Other lines (comments, ``#``, blank) are skipped.

Seats: the elder hand is seat 0 (first hand), then the next hands in
JPref's order, so ``hands[(elder + k) % 3]`` is seat ``k``. JPref does not
say who declared, so a record read from it has a contract without a
declarer only when the bid names one; :func:`dumps` writes the elder hand
as 0 and the hands in seat order.
"""
from __future__ import annotations

import re
from typing import IO, Iterable

from ..notation import (SUIT_SYMBOLS, RANKS, Card, Contract, ContractKind, Deal, Hand, NotationError,
                        parse_card_runs)
from .errors import FormatError
from .record import GameRecord

__all__ = ["loads", "load", "dumps", "dump", "parse_line", "format_line", "MARK"]

MARK = "deal:"
_TRICKS_LINE = re.compile(r"^\s*\[(.*)\]\s*$")
_HAND_SIZES = (10, 10, 10, 2)


def _suit_groups(text: str, line: int) -> list[list[Card]]:
    """The suit groups of the cards field, each a suit symbol and its ranks."""
    groups = []
    for token in text.split():
        try:
            cards = parse_card_runs(token)
        except NotationError as error:
            raise FormatError(f"cards: {error}", line=line, field="hands") from None
        if not token[0] in SUIT_SYMBOLS + "♤♧♢♡":
            raise FormatError(f"cards: {token!r} does not start with a suit symbol (JPref writes ♠9A ♣KA ...)",
                              line=line, field="hands")
        groups.append(cards)
    return groups


def _hands(text: str, line: int) -> list[Hand]:
    """Three hands and the talon, read by counting 10, 10, 10 and 2 cards."""
    parts: list[list[Card]] = [[]]
    names = ("hand 0", "hand 1", "hand 2", "talon")
    for group in _suit_groups(text, line):
        while len(parts[-1]) == _HAND_SIZES[len(parts) - 1]:
            if len(parts) == 4:
                raise FormatError("more than 32 cards (hands of 10 and a talon of 2)", line=line, field="talon")
            parts.append([])
        room = _HAND_SIZES[len(parts) - 1] - len(parts[-1])
        if len(group) > room:
            shown = SUIT_SYMBOLS[group[0].suit] + "".join(RANKS[c.rank] for c in group)
            raise FormatError(f"{shown} gives {len(group)} cards but {names[len(parts) - 1]} has room for "
                              f"{room} (hands of 10 cards, then the talon of 2)", line=line, field=names[len(parts) - 1])
        parts[-1].extend(group)
    counts = [len(p) for p in parts] + [0] * (4 - len(parts))
    if counts != list(_HAND_SIZES):
        raise FormatError(f"cards by part {counts}; expected 10, 10, 10 and a talon of 2", line=line, field="hands")
    try:
        return [Hand.from_cards(p) for p in parts]
    except NotationError as error:
        raise FormatError(str(error), line=line, field="hands") from None


def _bid(text: str, line: int) -> Contract:
    """A JPref bid name (its ``Config.Bid``): ``6♠`` ... ``X♥``, ``6-`` for no
    trump, ``Misère``, ``All-pass``."""
    word = text.strip()
    if word.upper().startswith("X"):
        word = "10" + word[1:]
    if word.endswith("-"):
        word = word[:-1] + "nt"
    try:
        return Contract.parse(word)
    except NotationError as error:
        raise FormatError(str(error), line=line, field="bid") from None


def parse_line(text: str, line: int = 1, played: str | None = None) -> GameRecord:
    """One ``deal:`` line (and the tricks line before it, if any) as a record."""
    body = text.strip()
    if not body.startswith(MARK):
        raise FormatError(f"a JPref deal line starts with {MARK!r}", line=line)
    body = body[len(MARK):]
    comment = ""
    if "#" in body:
        body, comment = body.split("#", 1)
    expected = ""
    if "->" in body:
        body, expected = body.split("->", 1)
    match = re.fullmatch(r"(.*?)\s+(\d+)\s*", body)
    if not match:
        raise FormatError("the elder hand (0, 1 or 2) is missing after the talon", line=line, field="elder")
    cards, elder_text = match.groups()
    elder = int(elder_text)
    if elder > 2:
        raise FormatError(f"the elder hand is 0, 1 or 2, got {elder}", line=line, field="elder")
    hands = _hands(cards, line)
    seats = [hands[(elder + k) % 3] for k in range(3)]
    try:
        deal = Deal((seats[0], seats[1], seats[2]), hands[3])
    except NotationError as error:
        raise FormatError(str(error), line=line, field="hands") from None
    contract, declarer_tricks, rest = _expected(expected, line)
    notes = " ".join(part for part in (rest, comment.strip()) if part)
    record = GameRecord(deal, contract=contract if contract is not None and contract.kind is ContractKind.ALLPASS
                        else None, declarer_tricks=declarer_tricks, comment=notes)
    if contract is not None and contract.kind is not ContractKind.ALLPASS:
        record = record.with_(bids=(str(contract),))
    if played is not None:
        record = _with_play(record, contract, played, line - 1)
    return record


def _with_play(record: GameRecord, contract: Contract | None, played: str, line: int) -> GameRecord:
    """The record with the tricks line's cards. JPref names neither the
    declarer nor his discard: with every trick given, the discard is the two
    cards never played, and the declarer the seat that holds them with the
    talon and whose play is legal and takes the expected tricks. When no
    single seat fits, the tricks stay in the comment."""
    if contract is None:
        raise FormatError("a tricks line needs the bid after '->' (its trump decides what is legal)",
                          line=line, field="tricks")
    try:
        cards = tuple(parse_card_runs(played))
    except NotationError as error:
        raise FormatError(str(error), line=line, field="tricks") from None
    if contract.kind is ContractKind.ALLPASS:
        try:
            return record.with_(played=cards)
        except FormatError as error:
            raise FormatError(error.problem, line=line, field="tricks") from None
    unplayed = Hand((1 << 32) - 1) - Hand.from_cards(cards)
    fits = []
    for seat in range(3) if len(cards) == 30 else ():
        try:
            candidate = record.with_(contract=contract, declarer=seat, discard=unplayed, played=cards, bids=())
        except FormatError:
            continue
        by_seat = candidate.tricks_by_seat()
        if record.declarer_tricks is None or (by_seat is not None and by_seat[seat] == record.declarer_tricks):
            fits.append(candidate)
    if len(fits) == 1:
        return fits[0]
    kept = f"tricks [{played}]"
    return record.with_(comment=" ".join(part for part in (record.comment, kept) if part))


def _expected(text: str, line: int) -> tuple[Contract | None, int | None, str]:
    """``7♦ 7``, ``Misère 1``, ``All-pass``, ``1`` (tricks only) or nothing;
    words JPref adds there (``d``, ``iter``) are kept as the comment."""
    words = text.split()
    contract = tricks = None
    if words and re.match(r"^(?:\d+|X)(?:[♠♣♦♥-]|nt|бк)$|^mis|^all", words[0], re.IGNORECASE):
        contract = _bid(words[0], line)
        words = words[1:]
    if words and words[0].isdigit():
        tricks = int(words[0])
        if tricks > 10:
            raise FormatError(f"tricks {tricks} out of range 0..10", line=line, field="tricks")
        words = words[1:]
    return contract, tricks, " ".join(words)


def loads(text: str) -> list[GameRecord]:
    """Every ``deal:`` line of a JPref log or test file."""
    records = []
    tricks: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        bracket = _TRICKS_LINE.match(stripped)
        if bracket:
            tricks = bracket.group(1)
            continue
        if stripped.startswith(MARK):
            records.append(parse_line(stripped, number, tricks))
        tricks = None
    if not records:
        raise FormatError(f"no {MARK!r} line found")
    return records


def load(fp: IO[str]) -> list[GameRecord]:
    return loads(fp.read())


def _hand_text(hand: Hand) -> str:
    groups = []
    for suit in range(4):
        ranks = "".join("X" if r == 3 else RANKS[r] for r in sorted(hand.suit_ranks(suit)))
        if ranks:
            groups.append(SUIT_SYMBOLS[suit] + ranks)
    return " ".join(groups)


def _bid_text(contract: Contract) -> str:
    if contract.kind is ContractKind.MISERE:
        return "Misère"
    if contract.kind is ContractKind.ALLPASS:
        return "All-pass"
    assert contract.strain is not None
    level = "X" if contract.level == 10 else str(contract.level)
    return level + (SUIT_SYMBOLS[contract.strain] if contract.strain < 4 else "-")


def format_line(record: GameRecord) -> str:
    """The ``deal:`` line of a record (a full deal with its talon), elder hand 0;
    the contract (or the single bid) and the declarer's tricks after ``->``."""
    deal = record.deal
    if deal.talon is None or deal.hand_size != 10:
        raise FormatError("a JPref line needs a full deal with its talon", field="hands")
    line = f"{MARK} " + "  ".join(_hand_text(h) for h in (*deal.hands, deal.talon)) + "  0"
    contract = record.contract
    if contract is None and len(record.bids) == 1:
        contract = Contract.parse(record.bids[0])
    tricks = record.declarer_tricks
    if tricks is None and record.declarer is not None:
        by_seat = record.tricks_by_seat()
        tricks = None if by_seat is None else by_seat[record.declarer]
    if contract is not None or tricks is not None:
        line += " ->" + (f" {_bid_text(contract)}" if contract is not None else "") + (
            f" {tricks}" if tricks is not None else "")
    if record.comment:
        line += " # " + " ".join(record.comment.split())
    if record.played:
        line = "[" + ", ".join(_trick_text(record.played[i:i + 3]) for i in range(0, len(record.played), 3)) \
            + "]\n" + line
    return line


def _trick_text(cards: tuple[Card, ...]) -> str:
    """A trick in play order, a suit's consecutive cards after one symbol."""
    out = []
    for card in cards:
        rank = "X" if card.rank == 3 else RANKS[card.rank]
        if out and out[-1][0] == SUIT_SYMBOLS[card.suit]:
            out[-1] += rank
        else:
            out.append(SUIT_SYMBOLS[card.suit] + rank)
    return " ".join(out)


def dumps(records: GameRecord | Iterable[GameRecord]) -> str:
    items = [records] if isinstance(records, GameRecord) else list(records)
    return "".join(format_line(r) + "\n" for r in items)


def dump(records: GameRecord | Iterable[GameRecord], fp: IO[str]) -> None:
    fp.write(dumps(records))

