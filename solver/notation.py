"""Text notation for cards, hands, deals, contracts and seats.

This module implements ``spec/notation.md``.  Output is always canonical; input
is lenient in the documented ways.  Every parse or validation error raises
:class:`NotationError` (a :class:`ValueError`) whose message names the problem:
the bad text, the card concerned, the hand concerned, or the sizes involved.

Card index convention (shared with the C core and the reference data)::

    index = suit * 8 + rank
    suit:  0 = spades, 1 = clubs, 2 = diamonds, 3 = hearts
    rank:  0 = 7, 1 = 8, 2 = 9, 3 = T, 4 = J, 5 = Q, 6 = K, 7 = A

A hand is stored as a 32-bit ``mask`` with bit ``index`` set for each card.

Canonical output forms:

* card: rank then suit letter, ``As``, ``Tc``, ``7d``; pretty: suit symbol then
  rank letter, ``♠A``, ``♣T`` (the ten is always written ``T``).
* hand: dotted, spades.clubs.diamonds.hearts, ranks high to low, an empty group
  for a void: ``AKQ.J98.7.T987``, ``.KQ..``; pretty: ``♠AKQ ♣— ♦7 ♥T987``.
* deal: the three dotted hands in seat order, then the talon if present,
  separated by single spaces.
* contract: ``6s`` ... ``10nt``, ``misere``, ``allpass``; pretty: ``6♠``,
  ``10NT``, ``misère``, ``all-pass``.

Accepted input, beyond the canonical forms:

* cards: ``10`` and ``X`` for the ten; suit symbols ``♠ ♣ ♦ ♥`` (also the white
  symbols ``♤ ♧ ♢ ♡`` and emoji forms with a variation selector); upper or lower
  case; suit-first order (``sA``, ``♠A``, ``♠10``).
* hands: dotted (exactly four groups, ranks in any order, ``-`` or ``—`` allowed
  for an empty group); a list of cards separated by spaces and/or commas
  (``As Ks, Qs``), cards may also be written together (``AsKsQs``);
  suit-grouped runs, suit first then its ranks (``♠AKQ ♣J98 ♦7 ♥T987``,
  ``sAKQ cJ98``, ``♠AKQ♣J98``), with ``♣—`` or ``♣-`` for an explicit void.
  An empty (or all-blank) text is the empty hand, as is ``...``.
* deals: parts separated by ``/`` or by any run of whitespace.
* contracts: any case, suit symbols (``6♠``), ``misère``/``mis``/``miser``,
  ``all-pass``/``all pass``/``raspasy``.
* seats: ``0 1 2``, ``first second third``, ``first hand`` etc., and the
  Russian ``первая вторая третья`` (``первая рука``...).

Russian card text, as players write it:

* ranks ``Т`` (туз, ace), ``К`` (король), ``Д`` (дама), ``В`` (валет), ``10 9 8 7``,
  Cyrillic letters in either case.  The Cyrillic ``Т`` is the ace; the Latin
  ``T`` stays the ten.  Whole words are accepted too: ``туз король дама валет
  десятка девятка восьмёрка семёрка``.
* suits: the symbols, or the words ``пики трефы бубны черви`` in any of their
  usual forms (``пик``, ``треф``, ``бубен``/``бубён``, ``червей``/``черв``).
* a card as words, rank then suit: ``туз пик``, ``дама червей``.
* contracts: ``6 пик``, ``7 треф``, ``8 бубен``, ``6 червей``, ``7 бк`` (без козыря:
  ``б/к``, ``бескозырка``), ``мизер``, ``распасы``.

A hand may also give each suit apart from its ranks: ``♠ A K 10 ♣ Q J``,
``пики: Т К 10; трефы: Д В``.  A deal may also be written one hand per line
(or separated by ``/`` or by two or more spaces) in any hand form, each line
optionally labelled as :meth:`Deal.pretty` prints it (``first hand:``,
``talon:``; also ``прикуп:``): the printed diagram pasted back re-parses.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Iterable, Iterator, Mapping

__all__ = [
    "NotationError",
    "NotationTypeError",
    "SUITS",
    "RANKS",
    "SUIT_SYMBOLS",
    "NO_TRUMP",
    "SEAT_NAMES",
    "Card",
    "Hand",
    "Deal",
    "ContractKind",
    "Contract",
    "BIDDING_ORDER",
    "parse_seat",
    "check_seat",
    "seat_field",
    "parse_cards",
    "parse_card_runs",
    "format_cards",
]


class NotationError(ValueError):
    """Raised for any text that cannot be read, or any invalid card, hand or deal.

    The message names the problem: the bad text, which card, which hand.
    """


class NotationTypeError(NotationError, TypeError):
    """An argument of the wrong type where a card, hand, deal or contract (or
    its text) is needed. Both a TypeError and a NotationError (ValueError),
    so callers catching either get it; the message names the argument."""


def _coerce(kind: type, value: object, what: str, expected: str):
    """``value`` if it is a ``kind``, ``kind.parse(value)`` if it is text,
    else a NotationTypeError naming ``what``."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        return kind.parse(value)  # type: ignore[attr-defined]
    raise NotationTypeError(f"{what} must be {expected}, got {type(value).__name__} {value!r:.60}")


SUITS = "scdh"
"""Canonical suit letters in index order: spades, clubs, diamonds, hearts."""

RANKS = "789TJQKA"
"""Canonical rank letters in index order, low to high."""

SUIT_SYMBOLS = "♠♣♦♥"
"""Suit symbols in index order, used by the ``pretty`` forms."""

NO_TRUMP = 4
"""Strain index for no trump; strains 0-3 are the suits in index order."""

SEAT_NAMES = ("first hand", "second hand", "third hand")
"""Names of seats 0, 1, 2 (seat 0 leads to the first trick)."""

FULL_MASK = (1 << 32) - 1
"""Mask of the whole 32-card deck."""

MAX_HAND_SIZE = 10
"""Most cards a hand of a deal may hold."""

TALON_SIZE = 2
"""Number of cards in a talon."""

_SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")

# Every character accepted as a suit, mapped to the suit index.
_SUIT_CHARS: dict[str, int] = {}
for _i, _chars in enumerate(("sS♠♤", "cC♣♧", "dD♦♢", "hH♥♡")):
    for _ch in _chars:
        _SUIT_CHARS[_ch] = _i

# Every single character accepted as a rank, mapped to the rank index
# ("10" is handled separately since it is two characters).
_RANK_CHARS: dict[str, int] = {}
for _i, _ch in enumerate(RANKS):
    _RANK_CHARS[_ch] = _i
    _RANK_CHARS[_ch.lower()] = _i
_RANK_CHARS["X"] = 3
_RANK_CHARS["x"] = 3
# Russian rank letters (Cyrillic): Т туз (ace), К король, Д дама, В валет.
for _ch, _i in (("Т", 7), ("К", 6), ("Д", 5), ("В", 4)):
    _RANK_CHARS[_ch] = _i
    _RANK_CHARS[_ch.lower()] = _i
del _i, _ch, _chars

# Russian words, each replaced by its canonical letter or symbol before a text
# is read.  Suit words in the forms players write: пики/пик, трефы/треф,
# бубны/бубен/бубён/буби, черви/червей/черв.  Rank words in the nominative and
# the usual card names (десятка ... семёрка).
_RUSSIAN_SUIT_WORDS = (
    ("♠", r"пик[иа]?|пикей"),
    ("♣", r"треф[ыа]?|трефей|крест[иы]?"),
    ("♦", r"бубн[ыа]?|бубен|бубён|буби|бубей"),
    ("♥", r"черв[иья]?|червей|черв[её]й"),
)
_RUSSIAN_RANK_WORDS = (
    ("A", r"туз[ыа]?"), ("K", r"корол[ья]"), ("Q", r"дам[аы]?"), ("J", r"валет[ыа]?"),
    ("T", r"десятк[аи]|десятка"), ("9", r"девятк[аи]"), ("8", r"восьм[её]рк[аи]"),
    ("7", r"сем[её]рк[аи]"),
)
_RU_SUIT_PATTERN = "|".join(f"(?:{words})" for _, words in _RUSSIAN_SUIT_WORDS)
_RU_RANK_PATTERN = "|".join(f"(?:{words})" for _, words in _RUSSIAN_RANK_WORDS)
_WORD_EDGE = r"(?<![^\W\d_])"
_WORD_END = r"(?![^\W\d_])"
_RU_CARD_RE = re.compile(
    rf"{_WORD_EDGE}({_RU_RANK_PATTERN}){_WORD_END}\s+({_RU_SUIT_PATTERN}){_WORD_END}",
    re.IGNORECASE)
_RU_SUIT_RE = re.compile(rf"{_WORD_EDGE}({_RU_SUIT_PATTERN}){_WORD_END}", re.IGNORECASE)
_RU_RANK_RE = re.compile(rf"{_WORD_EDGE}({_RU_RANK_PATTERN}){_WORD_END}", re.IGNORECASE)


def _word_value(word: str, table: tuple[tuple[str, str], ...]) -> str:
    for value, pattern in table:
        if re.fullmatch(pattern, word, re.IGNORECASE):
            return value
    raise AssertionError(word)  # the caller's pattern is the union of the table's


def _russian_words(text: str) -> str:
    """``туз пик`` -> ``A♠``, ``пики`` -> ``♠``, ``дама`` -> ``Q``; other text unchanged."""
    if not re.search("[а-яё]", text, re.IGNORECASE):
        return text
    text = _RU_CARD_RE.sub(
        lambda m: _word_value(m[1], _RUSSIAN_RANK_WORDS) + _word_value(m[2], _RUSSIAN_SUIT_WORDS), text)
    text = _RU_SUIT_RE.sub(lambda m: _word_value(m[1], _RUSSIAN_SUIT_WORDS), text)
    return _RU_RANK_RE.sub(lambda m: _word_value(m[1], _RUSSIAN_RANK_WORDS), text)

_VOID_MARKS = ("-", "–", "—")

_RANK_HELP = "7 8 9 T J Q K A, 10, X; Т К Д В"
_SUIT_HELP = "s c d h or ♠ ♣ ♦ ♥"


def _clean(text: str, words: bool = True) -> str:
    """Normalise Unicode (NFC), drop emoji variation selectors, and (``words``)
    replace Russian rank and suit words by letters and symbols."""
    if not isinstance(text, str):
        raise NotationError(f"expected text, got {type(text).__name__} {text!r}")
    if text.isascii():   # already NFC, no selectors, no Russian words: the usual case, kept cheap
        return text
    text = unicodedata.normalize("NFC", text).replace("\ufe0f", "").replace("\ufe0e", "")
    return _russian_words(text) if words else text


def _read_rank(text: str, pos: int) -> tuple[int, int] | None:
    """Read a rank at ``text[pos]``; return (rank, next position) or None."""
    if text.startswith("10", pos):
        return 3, pos + 2
    if pos < len(text) and text[pos] in _RANK_CHARS:
        return _RANK_CHARS[text[pos]], pos + 1
    return None


def _read_suit(text: str, pos: int) -> tuple[int, int] | None:
    """Read a suit at ``text[pos]``; return (suit, next position) or None."""
    if pos < len(text) and text[pos] in _SUIT_CHARS:
        return _SUIT_CHARS[text[pos]], pos + 1
    return None


def _not_rank_or_suit(text: str, pos: int) -> NotationError:
    """The error for a character that starts neither a rank nor a suit."""
    char = text[pos]
    if char == "1":
        hint = " (did you mean 10?)"
    else:
        hint = ""
    return NotationError(
        f"unknown card text {text!r}: {char!r} at position {pos} is neither a rank "
        f"({_RANK_HELP}) nor a suit ({_SUIT_HELP}){hint}"
    )


def _read_second_half(token: str, pos: int, after: int,
                      read: Callable[[str, int], tuple[int, int] | None],
                      first: str, second: str, help_text: str) -> tuple[int, int]:
    """Read the second half of a card whose first half (its ``first``: 'rank'
    or 'suit') was read at ``token[pos:after]``, with ``read`` (_read_suit or
    _read_rank); return (its value, next position)."""
    result = read(token, after)
    if result is None:
        raise NotationError(
            f"card {token[pos:after + 1]!r} in {token!r}: {first} "
            f"{token[pos:after]!r} is not followed by a {second} ({help_text})"
        )
    return result


def _finish_rank_first_card(token: str, pos: int, rank: int, after: int) -> tuple[Card, int]:
    """Finish a card written rank first ('As', '10c') whose rank was read at
    ``token[pos:after]``; return (card, next position)."""
    suit, pos = _read_second_half(token, pos, after, _read_suit, "rank", "suit", _SUIT_HELP)
    return Card(suit, rank), pos


def _scan_cards(token: str, runs: bool = False) -> list[Card]:
    """Read a token made of whole cards, in the order written: 'AsKs', 'sAsK',
    '10c'; with ``runs`` a suit may also be followed by several ranks
    ('♠AKQ' is ♠A ♠K ♠Q) or by a void mark ('♣—', no cards).

    Each card is rank-then-suit or suit-then-rank; the first character decides.
    """
    cards: list[Card] = []
    pos = 0
    while pos < len(token):
        rank_read = _read_rank(token, pos)
        suit_read = _read_suit(token, pos)
        if rank_read is not None:
            card, pos = _finish_rank_first_card(token, pos, *rank_read)
            cards.append(card)
        elif suit_read is not None and not runs:
            suit, after = suit_read
            rank, pos = _read_second_half(token, pos, after, _read_rank, "suit", "rank", _RANK_HELP)
            cards.append(Card(suit, rank))
        elif suit_read is not None:
            suit, pos = suit_read
            if pos < len(token) and token[pos] in _VOID_MARKS:
                pos += 1
                continue
            start = pos
            while (rank_read := _read_rank(token, pos)) is not None:
                rank, pos = rank_read
                cards.append(Card(suit, rank))
            if pos == start:
                raise NotationError(
                    f"suit {token[start - 1]!r} in {token!r} is "
                    f"not followed by ranks ({_RANK_HELP}) or a void mark '—'"
                )
        else:
            raise _not_rank_or_suit(token, pos)
    return cards


_GROUP_BITS: dict[str, int] = {}
"""Rank bits of the dotted groups read so far (at most 8! orderings of 8 ranks
could be asked for; kept to a few thousand)."""


def _group_bits(group: str) -> int | None:
    """The rank bits of a dotted group written as distinct one-character
    ranks, else None (the full reader then parses it and names a problem)."""
    bits = _GROUP_BITS.get(group)
    if bits is not None:
        return bits
    bits = 0
    for char in group:
        rank = _RANK_CHARS.get(char)
        if rank is None or bits >> rank & 1:
            return None
        bits |= 1 << rank
    if len(_GROUP_BITS) < 4096:
        _GROUP_BITS[group] = bits
    return bits


def _dotted_mask(groups: list[str]) -> int | None:
    """The hand mask of four dotted groups in the plain form (each group of
    distinct rank letters, no spaces, no "10", no void mark), else None.
    Reading a deal is most of the cost of a ``prefdd batch`` line: this
    reads a hand without building its Cards (measured: a deal in about a
    tenth of the time)."""
    mask = 0
    for suit, group in enumerate(groups):
        bits = _group_bits(group)
        if bits is None:
            return None
        mask |= bits << (8 * suit)
    return mask


def _plain_deal_masks(text: str) -> list[int] | None:
    """The hand masks of a deal in the plain form (3 or 4 dotted hands, one
    space apart, each as :func:`_dotted_mask` reads), else None."""
    parts = text.split(" ")
    if not 3 <= len(parts) <= 4:
        return None
    masks = []
    for part in parts:
        groups = part.split(".")
        mask = _dotted_mask(groups) if len(groups) == 4 else None
        if mask is None:
            return None
        masks.append(mask)
    return masks


def _check_int(value: object, what: str, low: int, high: int) -> None:
    """Raise NotationError unless ``value`` is an int (not bool) in low..high."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"{what} must be an int {low}..{high}, got {value!r}")
    if not low <= value <= high:
        raise NotationError(f"{what} {value} is out of range {low}..{high}")


@dataclass(frozen=True, order=True)
class Card:
    """One card.  Cards order by (suit, rank), i.e. by index.

    ``str(card)`` is canonical (``As``, ``Tc``); ``card.pretty()`` gives the suit
    symbol then the rank letter (``♠A``, ``♣T``).
    """

    suit: int
    """Suit index 0-3 (spades, clubs, diamonds, hearts)."""
    rank: int
    """Rank index 0-7 (7 8 9 T J Q K A)."""

    def __post_init__(self) -> None:
        _check_int(self.suit, "suit", 0, 3)
        _check_int(self.rank, "rank", 0, 7)

    @property
    def index(self) -> int:
        """The card index, ``suit * 8 + rank`` (0..31)."""
        return self.suit * 8 + self.rank

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with the given index 0..31; NotationError otherwise."""
        if type(index) is int and 0 <= index <= 31 and cls is Card:
            return _CARDS[index]   # cards are immutable: one object per card
        _check_int(index, "card index", 0, 31)
        return cls(index // 8, index % 8)

    @classmethod
    def coerce(cls, value: Card | str, what: str = "card") -> Card:
        """``value`` as a Card: a Card, or card text; NotationTypeError
        naming ``what`` for anything else."""
        return _coerce(cls, value, what, "a Card or card text")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card: ``As``, ``Tc``, ``10c``, ``Xc``, ``AS``, ``sA``, ``♠A``, ``♠10``.

        Surrounding whitespace is ignored; anything else is an error.
        """
        token = _clean(text).strip()
        if not token:
            raise NotationError("empty card text")
        cards = _scan_cards(token)
        if len(cards) != 1:
            raise NotationError(
                f"card text {token!r} holds {len(cards)} cards, expected exactly one"
            )
        return cards[0]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def pretty(self) -> str:
        """Suit symbol then rank letter: ``♠A``, ``♣T`` (ten is ``T``, never ``10``)."""
        return SUIT_SYMBOLS[self.suit] + RANKS[self.rank]


_CARDS = tuple(Card(index // 8, index % 8) for index in range(32))


def _suit_ranks_text(mask: int, suit: int) -> str:
    """Rank letters of ``suit`` held in ``mask``, high to low."""
    return "".join(
        RANKS[rank] for rank in range(7, -1, -1) if mask >> (suit * 8 + rank) & 1
    )


@dataclass(frozen=True)
class Hand:
    """A set of cards (any number, 0..32), stored as a 32-bit mask.

    ``str(hand)`` is the canonical dotted form (``AKQ.J98.7.T987``);
    ``hand.pretty()`` is ``♠AKQ ♣J98 ♦7 ♥T987`` with ``—`` for a void.
    Iteration and :meth:`cards` go spades first, high to low within a suit.
    ``|``, ``&`` and ``-`` combine hands (or a hand and a single card).
    """

    mask: int
    """Bit ``card.index`` is set for every card held."""

    def __post_init__(self) -> None:
        _check_int(self.mask, "hand mask", 0, FULL_MASK)

    @classmethod
    def coerce(cls, value: Hand | str, what: str = "hand") -> Hand:
        """``value`` as a Hand: a Hand, or hand text; NotationTypeError
        naming ``what`` for anything else."""
        return _coerce(cls, value, what, "a Hand or hand text")

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read a hand in any accepted form (see the module docstring).

        Dotted (``AKQ.J98.7.T987``, exactly four groups), a card list
        (``As Ks, Qs`` or ``AsKsQs``), or suit-grouped runs
        (``♠AKQ ♣J98 ♦7 ♥T987``, ``sAKQ cJ98``, ``♣—`` for a void).  Empty text
        and ``...`` are the empty hand.  A card given twice is an error.
        """
        cleaned = _clean(text).strip()
        if "." in cleaned:
            return cls._parse_dotted(cleaned)
        return cls._parse_runs(cleaned)

    @classmethod
    def _parse_dotted(cls, text: str) -> Hand:
        groups = text.split(".")
        if len(groups) == 4:
            fast = _dotted_mask(groups)
            if fast is not None:
                return cls(fast)
        if len(groups) != 4:
            hint = " (a whole deal? use Deal.parse)" if len(groups) > 4 else ""
            raise NotationError(
                f"dotted hand {text!r} has {len(groups)} groups, expected 4 "
                f"(spades.clubs.diamonds.hearts){hint}"
            )
        mask = 0
        for suit, raw_group in enumerate(groups):
            group = raw_group.strip()
            if group in _VOID_MARKS:
                continue
            pos = 0
            while pos < len(group):
                rank_read = _read_rank(group, pos)
                if rank_read is None:
                    hint = " (did you mean 10?)" if group[pos] == "1" else ""
                    raise NotationError(
                        f"hand {text!r}: {group[pos]!r} in the {_SUIT_NAMES[suit]} "
                        f"group {group!r} is not a rank ({_RANK_HELP}){hint}"
                    )
                rank, pos = rank_read
                mask = cls._add(mask, Card(suit, rank), text)
        return cls(mask)

    @classmethod
    def _parse_runs(cls, text: str) -> Hand:
        """Card lists and suit-grouped runs (everything that is not dotted)."""
        mask = 0
        pending: tuple[int, str] | None = None   # a suit written alone, waiting for its ranks
        for token in re.split(r"[\s,;:]+", text):
            if not token:
                continue
            suit_alone = _read_suit(token, 0)
            if suit_alone is not None and suit_alone[1] == len(token):
                cls._check_pending(pending, text)
                pending = (suit_alone[0], token)
                continue
            if pending is not None and all(ch in _VOID_MARKS for ch in token):
                pending = None
                continue
            ranks = cls._rank_run(token) if pending is not None else None
            if ranks is not None:
                assert pending is not None
                for rank in ranks:
                    mask = cls._add(mask, Card(pending[0], rank), text)
                pending = (pending[0], "")   # more ranks of the suit may follow
                continue
            cls._check_pending(pending, text)
            pending = None
            try:
                cards = _scan_cards(token, runs=True)
            except NotationError as error:
                raise NotationError(f"hand {text!r}: {error}") from None
            for card in cards:
                mask = cls._add(mask, card, text)
        cls._check_pending(pending, text)
        return cls(mask)

    @staticmethod
    def _rank_run(token: str) -> list[int] | None:
        """The ranks of a token made of ranks only ('AK10'), else None."""
        ranks, pos = [], 0
        while pos < len(token):
            rank_read = _read_rank(token, pos)
            if rank_read is None:
                return None
            rank, pos = rank_read
            ranks.append(rank)
        return ranks

    @staticmethod
    def _check_pending(pending: tuple[int, str] | None, text: str) -> None:
        """A suit written alone must be followed by its ranks (or a void mark)."""
        if pending is not None and pending[1]:
            raise NotationError(
                f"hand {text!r}: suit {pending[1]!r} is not followed by ranks "
                f"({_RANK_HELP}) or a void mark '—'"
            )

    @staticmethod
    def _add(mask: int, card: Card, text: str) -> int:
        bit = 1 << card.index
        if mask & bit:
            raise NotationError(f"card {card} given twice in hand {text!r}")
        return mask | bit

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Hand:
        """The hand holding ``cards``; a card given twice is a NotationError."""
        mask = 0
        for card in cards:
            if not isinstance(card, Card):
                raise NotationError(f"not a Card: {card!r}")
            bit = 1 << card.index
            if mask & bit:
                raise NotationError(f"card {card} given twice")
            mask |= bit
        return cls(mask)

    def cards(self) -> list[Card]:
        """The cards, spades first, high to low within each suit."""
        return [
            _CARDS[suit * 8 + rank]
            for suit in range(4)
            for rank in range(7, -1, -1)
            if self.mask >> (suit * 8 + rank) & 1
        ]

    def suit_ranks(self, suit: int) -> list[int]:
        """Ranks held in ``suit`` (0-3), high to low."""
        _check_int(suit, "suit", 0, 3)
        return [rank for rank in range(7, -1, -1) if self.mask >> (suit * 8 + rank) & 1]

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    @staticmethod
    def _operand_mask(other: object) -> int | None:
        if isinstance(other, Hand):
            return other.mask
        if isinstance(other, Card):
            return 1 << other.index
        return None

    def __or__(self, other: Hand | Card) -> Hand:
        """Union with another hand or a card."""
        mask = self._operand_mask(other)
        if mask is None:
            return NotImplemented
        return Hand(self.mask | mask)

    def __and__(self, other: Hand | Card) -> Hand:
        """Cards held in both."""
        mask = self._operand_mask(other)
        if mask is None:
            return NotImplemented
        return Hand(self.mask & mask)

    def __sub__(self, other: Hand | Card) -> Hand:
        """The cards of this hand that are not in ``other``."""
        mask = self._operand_mask(other)
        if mask is None:
            return NotImplemented
        return Hand(self.mask & ~mask)

    def __str__(self) -> str:
        return ".".join(_suit_ranks_text(self.mask, suit) for suit in range(4))

    def pretty(self) -> str:
        """``♠AKQ ♣J98 ♦7 ♥T987``; a void suit is shown as ``♣—``.  Re-parses."""
        return " ".join(self._pretty_groups())

    def _pretty_groups(self) -> list[str]:
        return [
            SUIT_SYMBOLS[suit] + (_suit_ranks_text(self.mask, suit) or "—")
            for suit in range(4)
        ]


def _part_name(part: int) -> str:
    """'hand 0', 'hand 1', 'hand 2' or 'talon' (part 3)."""
    return "talon" if part == 3 else f"hand {part}"


def _holders_text(parts: list[int]) -> str:
    """'hands 0 and 2', 'hand 1 and talon', 'hands 0, 1 and talon'."""
    hands = [str(p) for p in parts if p < 3]
    names: list[str] = []
    if hands:
        names.append(("hand " if len(hands) == 1 else "hands ") + hands[0])
        names.extend(hands[1:])
    if 3 in parts:
        names.append("talon")
    return ", ".join(names[:-1]) + " and " + names[-1]


def _missing_cards_error(present_mask: int) -> NotationError | None:
    """The error naming the cards absent from ``present_mask``, or None if all 32 are present."""
    missing = Hand(FULL_MASK & ~present_mask)
    if not missing.mask:
        return None
    return NotationError(f"deal is missing {', '.join(str(c) for c in missing)}")


# Labels of the lines of a deal, as Deal.pretty prints them and in Russian.
_LABEL_PARTS: dict[str, str] = {}
for _number, _words in enumerate((
        ("first hand", "first", "hand 0", "seat 0", "первая рука", "первая", "первый"),
        ("second hand", "second", "hand 1", "seat 1", "вторая рука", "вторая", "второй"),
        ("third hand", "third", "hand 2", "seat 2", "третья рука", "третья", "третий"),
        ("talon", "widow", "прикуп"))):
    for _word in _words:
        _LABEL_PARTS[_word] = _part_name(_number)
del _number, _words, _word
_PART_LABEL = re.compile(
    "(" + "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in _LABEL_PARTS), key=len, reverse=True))
    + r")\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Deal:
    """Three hands in seat order (seat 0 = first hand) and an optional talon.

    Validated on construction:

    * no card given twice (in hands or talon);
    * at most 10 cards per hand, all three hands of equal size;
    * a talon, if given, holds exactly 2 cards;
    * with 10 cards per hand and a talon, all 32 cards are present.

    Lenient on purpose: three 10-card hands without a talon are valid (the two
    missing cards are out of play), and endgame deals with fewer cards per hand
    are valid with or without a 2-card talon.
    """

    hands: tuple[Hand, Hand, Hand]
    """Seat 0, 1, 2."""
    talon: Hand | None = None
    """The two talon cards, or None."""

    def __post_init__(self) -> None:
        if (
            not isinstance(self.hands, tuple)
            or len(self.hands) != 3
            or not all(isinstance(h, Hand) for h in self.hands)
        ):
            raise NotationError(f"a deal needs a tuple of 3 Hands, got {self.hands!r}")
        if self.talon is not None and not isinstance(self.talon, Hand):
            raise NotationError(f"talon must be a Hand or None, got {self.talon!r}")
        parts = list(self.hands) + ([self.talon] if self.talon is not None else [])

        problems = []
        seen = overlap = 0
        for part in parts:
            overlap |= seen & part.mask
            seen |= part.mask
        for index in (range(32) if overlap else ()):   # only to name the cards given twice
            holders = [p for p, hand in enumerate(parts) if hand.mask >> index & 1]
            if len(holders) > 1:
                card = Card.from_index(index)
                problems.append(f"card {card} given twice ({_holders_text(holders)})")
        if problems:
            raise NotationError("; ".join(problems))

        sizes = [len(hand) for hand in self.hands]
        for seat, size in enumerate(sizes):
            if size > MAX_HAND_SIZE:
                raise NotationError(
                    f"hand {seat} has {size} cards, at most {MAX_HAND_SIZE} allowed"
                )
        if len(set(sizes)) != 1:
            raise NotationError(
                "hands have unequal sizes: " + ", ".join(map(str, sizes))
                + " cards (hands 0, 1, 2)"
            )
        if self.talon is not None:
            if len(self.talon) != TALON_SIZE:
                raise NotationError(
                    f"talon has {len(self.talon)} cards, must have {TALON_SIZE}"
                )
            if sizes[0] == MAX_HAND_SIZE:
                error = _missing_cards_error(
                    self.hands[0].mask | self.hands[1].mask | self.hands[2].mask
                    | self.talon.mask
                )
                if error is not None:  # unreachable without duplicates; kept as a guard
                    raise error

    @classmethod
    def coerce(cls, value: Deal | str, what: str = "deal") -> Deal:
        """``value`` as a Deal: a Deal, or deal text; NotationTypeError
        naming ``what`` for anything else."""
        return _coerce(cls, value, what, "a Deal or deal text")

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read ``'AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K'``.

        Three dotted hands in seat order, then an optional dotted talon,
        separated by ``/`` or whitespace (runs of whitespace are fine).
        """
        cleaned = _clean(text).strip()
        plain = _plain_deal_masks(cleaned)
        if plain is not None:
            hands = [Hand(mask) for mask in plain]
            return cls((hands[0], hands[1], hands[2]), hands[3] if len(hands) == 4 else None)
        if _PART_LABEL.match(cleaned) or ("." not in cleaned and re.search(r"\n|/|\s\s", cleaned)):
            return cls._parse_parts(cleaned)
        parts = re.split(r"\s*/\s*|\s+", cleaned) if cleaned else []
        if len(parts) not in (3, 4):
            raise NotationError(
                f"deal {cleaned!r} has {len(parts)} part{'' if len(parts) == 1 else 's'}, "
                f"expected 3 hands and an optional talon (3 or 4 parts)"
            )
        for number, part in enumerate(parts):
            name = _part_name(number)
            if "." not in part:
                shown = part if part else "(empty)"
                raise NotationError(
                    f"{name}: {shown!r} is not a dotted hand; inside a deal every hand "
                    f"is four dot-separated groups, e.g. 'AKQ.J98.7.T987'"
                )
        return cls._from_parts(list(zip(map(_part_name, range(len(parts))), parts)))

    @classmethod
    def _from_parts(cls, parts: list[tuple[str, str]]) -> Deal:
        """The deal of (part name, hand text) pairs: three hands, an optional talon."""
        hands: list[Hand] = []
        for name, part in parts:
            try:
                hands.append(Hand.parse(part))
            except NotationError as error:
                raise NotationError(f"{name}: {error}") from None
        talon = hands[3] if len(hands) == 4 else None
        return cls((hands[0], hands[1], hands[2]), talon)

    @classmethod
    def _parse_parts(cls, text: str) -> Deal:
        """Hands in any hand form, one a line (optionally labelled ``first
        hand:`` ... ``talon:``), or on one line separated by ``/`` or by two or
        more spaces (JPref's layout)."""
        if "\n" in text:
            lines = [line.strip() for line in text.splitlines()]
        elif "/" in text:
            lines = [part.strip() for part in text.split("/")]
        else:
            lines = [part.strip() for part in re.split(r"\s{2,}", text)]
        parts: list[tuple[str, str]] = []
        for line in lines:
            if not line:
                continue
            label = _PART_LABEL.match(line)
            name = _LABEL_PARTS.get(" ".join(label[1].casefold().split())) if label else None
            parts.append((name or _part_name(len(parts)), line[label.end():] if label else line))
        names = [name for name, _ in parts]
        if len(parts) not in (3, 4):
            raise NotationError(
                f"deal {text!r} has {len(parts)} part{'' if len(parts) == 1 else 's'}, expected 3 "
                f"hands and an optional talon, one a line or separated by '/' or two spaces"
            )
        expected = [_part_name(number) for number in range(len(parts))]
        if names != expected:
            raise NotationError(
                f"deal {text!r}: parts labelled {', '.join(names)}; expected {', '.join(expected)} in that order")
        return cls._from_parts(parts)

    @classmethod
    def from_hands(
        cls, hands: Iterable[Hand | str], talon: Hand | str | None = None
    ) -> Deal:
        """Build and validate a deal; hands and talon may be Hands or hand texts."""
        converted = [h if isinstance(h, Hand) else Hand.parse(h) for h in hands]
        if len(converted) != 3:
            raise NotationError(f"a deal needs 3 hands, got {len(converted)}")
        if isinstance(talon, str):
            talon = Hand.parse(talon)
        return cls((converted[0], converted[1], converted[2]), talon)

    @property
    def hand_size(self) -> int:
        """Cards per hand (all three are equal)."""
        return len(self.hands[0])

    def __str__(self) -> str:
        parts = [str(hand) for hand in self.hands]
        if self.talon is not None:
            parts.append(str(self.talon))
        return " ".join(parts)

    def pretty(self) -> str:
        """A multi-line diagram, one line per seat (and talon), suits in columns::

            first hand:  ♠AQ7  ♣K98 ♦KT  ♥QJ
            second hand: ♠K    ♣AQ7 ♦AQ7 ♥T87
            third hand:  ♠JT98 ♣JT  ♦98  ♥A9
            talon:       ♠—    ♣—   ♦J   ♥K

        The text after each label re-parses with :meth:`Hand.parse`.
        """
        rows = [(SEAT_NAMES[seat] + ":", hand) for seat, hand in enumerate(self.hands)]
        if self.talon is not None:
            rows.append(("talon:", self.talon))
        grid = [hand._pretty_groups() for _, hand in rows]
        widths = [max(len(row[suit]) for row in grid) for suit in range(4)]
        label_width = max(len(label) for label, _ in rows)
        lines = []
        for (label, _), groups in zip(rows, grid):
            cells = " ".join(cell.ljust(width) for cell, width in zip(groups, widths))
            lines.append(f"{label.ljust(label_width)} {cells}".rstrip())
        return "\n".join(lines)


class ContractKind(Enum):
    """What kind of game is played."""

    TRICKS = "tricks"
    """A trick contract, 6 to 10 in a suit or no trump."""
    MISERE = "misere"
    """Misère: the declarer must take no trick."""
    ALLPASS = "allpass"
    """All-pass (raspasy): everyone tries to take few tricks."""


_STRAIN_TEXT = ("s", "c", "d", "h", "nt")
_STRAIN_PRETTY = ("♠", "♣", "♦", "♥", "NT")
_STRAIN_INPUT = {"s": 0, "c": 1, "d": 2, "h": 3, "nt": NO_TRUMP}
for _i, _sym in enumerate(SUIT_SYMBOLS + "♤♧♢♡"):
    _STRAIN_INPUT[_sym] = _i % 4
del _i, _sym
_NO_TRUMP_WORDS = ("без козыря", "без козырей", "бескозырка", "б/к", "бк")
for _word in _NO_TRUMP_WORDS:
    _STRAIN_INPUT[_word] = NO_TRUMP
del _word
_MISERE_WORDS = ("misere", "misère", "mis", "miser", "мизер")
_ALLPASS_WORDS = ("allpass", "all-pass", "all pass", "raspasy", "распасы", "распас", "распасовка")
_STRAIN_PATTERN = "nt|" + "|".join(_NO_TRUMP_WORDS) + "|[scdh♠♣♦♥♤♧♢♡]"


_CONTRACTS_READ: dict[str, Contract] = {}
"""Contract texts read so far (a batch names the same few contracts again and
again), at most 1024."""


@dataclass(frozen=True)
class Contract:
    """A contract: ``6s`` ... ``10nt``, misère or all-pass.

    For ``TRICKS`` both ``level`` (6-10) and ``strain`` (0-3 a suit, 4 =
    :data:`NO_TRUMP`) are set; for misère and all-pass both are None.
    """

    kind: ContractKind
    level: int | None = None
    strain: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ContractKind):
            raise NotationError(f"contract kind must be a ContractKind, got {self.kind!r}")
        if self.kind is ContractKind.TRICKS:
            _check_int(self.level, "contract level", 6, 10)
            _check_int(self.strain, "contract strain", 0, NO_TRUMP)
        elif self.level is not None or self.strain is not None:
            raise NotationError(
                f"a {self.kind.value} contract has no level or strain, got "
                f"level={self.level!r} strain={self.strain!r}"
            )

    @classmethod
    def coerce(cls, value: Contract | str, what: str = "contract") -> Contract:
        """``value`` as a Contract: a Contract, or contract text;
        NotationTypeError naming ``what`` for anything else."""
        return _coerce(cls, value, what, "a Contract or contract text")

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Read ``6s`` ... ``10nt``, ``6♠``, ``6NT``, ``misere``/``misère``/``mis``,
        ``allpass``/``all-pass``/``raspasy`` (any case), and in Russian ``6 пик``,
        ``7 бк``, ``мизер``, ``распасы``.  The level must be 6..10 and is required."""
        if type(text) is str and cls is Contract:
            known = _CONTRACTS_READ.get(text)
            if known is not None:
                return known
        contract = cls._parse(text)
        if type(text) is str and cls is Contract and len(_CONTRACTS_READ) < 1024:
            _CONTRACTS_READ[text] = contract   # contracts are immutable: one object per text
        return contract

    @classmethod
    def _parse(cls, text: str) -> Contract:
        shown = _clean(text, words=False).strip()
        word = " ".join(_clean(text).casefold().split())
        if word in _MISERE_WORDS:
            return cls(ContractKind.MISERE)
        if word in _ALLPASS_WORDS:
            return cls(ContractKind.ALLPASS)
        match = re.fullmatch(rf"([0-9]*)\s*({_STRAIN_PATTERN})", word)
        if match:
            level_text, strain_text = match.groups()
            if not level_text:
                raise NotationError(
                    f"contract {shown!r} has no level; write e.g. '6{strain_text}'"
                )
            level = int(level_text)
            if not 6 <= level <= 10:
                raise NotationError(
                    f"contract level {level_text} in {shown!r} is out of range 6..10"
                )
            return cls(ContractKind.TRICKS, level, _STRAIN_INPUT[strain_text])
        if re.fullmatch(r"[0-9]+", word):
            raise NotationError(
                f"contract {shown!r} has no strain; write e.g. '{word}s' or '{word}nt'"
            )
        raise NotationError(
            f"unknown contract {shown!r}; expected e.g. '6s', '10nt', 'misere', 'allpass'"
        )

    @property
    def trump(self) -> int:
        """The trump strain: the suit 0-3 or NO_TRUMP; misère and all-pass give NO_TRUMP."""
        if self.kind is ContractKind.TRICKS:
            assert self.strain is not None
            return self.strain
        return NO_TRUMP

    def is_made(self, declarer_tricks: int) -> bool:
        """Is the contract made when the declarer takes ``declarer_tricks``
        tricks over the whole deal: at least the level, or none on a misère.
        An all-pass has no declarer and nothing to make (NotationError)."""
        if self.kind is ContractKind.MISERE:
            return declarer_tricks == 0
        if self.kind is ContractKind.ALLPASS:
            raise NotationError("an all-pass has no declarer and no contract to make")
        assert self.level is not None
        return declarer_tricks >= self.level

    def __str__(self) -> str:
        if self.kind is ContractKind.MISERE:
            return "misere"
        if self.kind is ContractKind.ALLPASS:
            return "allpass"
        assert self.strain is not None
        return f"{self.level}{_STRAIN_TEXT[self.strain]}"

    def pretty(self) -> str:
        """``6♠``, ``10NT``, ``misère``, ``all-pass``.  Re-parses."""
        if self.kind is ContractKind.MISERE:
            return "misère"
        if self.kind is ContractKind.ALLPASS:
            return "all-pass"
        assert self.strain is not None
        return f"{self.level}{_STRAIN_PRETTY[self.strain]}"


def _bidding_order() -> tuple[Contract, ...]:
    order: list[Contract] = []
    for level in range(6, 11):
        if level == 9:
            order.append(Contract(ContractKind.MISERE))
        order.extend(Contract(ContractKind.TRICKS, level, strain) for strain in range(NO_TRUMP + 1))
    return tuple(order)


BIDDING_ORDER = _bidding_order()
"""Every contract from 6♠ to 10NT in bidding order, misère between 8NT and 9♠
(rules.md, contracts)."""


_SEAT_WORDS = {
    "0": 0, "1": 1, "2": 2,
    "first": 0, "second": 1, "third": 2,
    "first hand": 0, "second hand": 1, "third hand": 2,
    "первая": 0, "вторая": 1, "третья": 2,
    "первая рука": 0, "вторая рука": 1, "третья рука": 2,
}


def parse_seat(text: str | int) -> int:
    """Seat 0, 1 or 2 from an int or ``'0'``, ``'first'``, ``'first hand'`` (any case).

    Bools and anything else raise NotationError.
    """
    if isinstance(text, bool):
        raise NotationError(f"seat must be 0, 1 or 2, got bool {text!r}")
    if isinstance(text, int):
        if text in (0, 1, 2):
            return text
        raise NotationError(f"seat {text} is out of range 0..2")
    if not isinstance(text, str):
        raise NotationError(f"seat must be text or an int, got {text!r}")
    word = " ".join(text.casefold().split())
    if word in _SEAT_WORDS:
        return _SEAT_WORDS[word]
    raise NotationError(
        f"unknown seat {text!r}; expected 0, 1, 2 or first, second, third"
    )


def check_seat(value: object, what: str, error: Callable[[str], Exception] = NotationError) -> int:
    """``value`` when it is a seat given as a number: the int 0, 1 or 2 (not a
    bool); else ``error`` (a layer's own ValueError class) naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2:
        raise error(f"{what} must be a seat 0, 1 or 2, got {value!r}")
    return value


def seat_field(request: Mapping[str, Any], name: str, default: int | None = None,
               error: Callable[[str], Exception] = NotationError) -> int:
    """The seat in field ``name`` of a JSON request: an int 0-2 or seat text
    (:func:`parse_seat`); ``default`` when the field is absent, or ``error``
    (a layer's own ValueError class) naming the field when it is required."""
    if name not in request:
        if default is None:
            raise error(f"missing field '{name}'")
        return default
    value = request[name]
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise error(f"field '{name}' must be a seat 0-2, got {value!r}")
    try:
        return parse_seat(value)
    except NotationError as problem:
        raise error(f"field '{name}': {problem}") from None


def parse_cards(text: str) -> list[Card]:
    """Cards in play order: ``'As Ks 7d'``, ``'AsKs7d'``, ``'As, Ks, 7d'``.

    Every card form of :meth:`Card.parse` is accepted (``10c``, ``♠A``...).
    Empty text gives an empty list.  A card given twice is a NotationError.
    """
    cleaned = _clean(text).strip()
    cards: list[Card] = []
    seen: set[Card] = set()
    if not cleaned:
        return cards
    for token in re.split(r"[\s,;]+", cleaned):
        for card in _scan_cards(token):
            if card in seen:
                raise NotationError(f"card {card} given twice in {cleaned!r}")
            seen.add(card)
            cards.append(card)
    return cards


def parse_card_runs(text: str) -> list[Card]:
    """Cards in play order, suit-grouped runs allowed: ``'♦8K ♠9'`` is ♦8, ♦K, ♠9
    (JPref's trick lists); every form of :func:`parse_cards` too.  A card
    given twice is a NotationError."""
    cleaned = _clean(text).strip()
    cards: list[Card] = []
    seen: set[Card] = set()
    for token in re.split(r"[\s,;]+", cleaned) if cleaned else []:
        for card in _scan_cards(token, runs=True):
            if card in seen:
                raise NotationError(f"card {card} given twice in {cleaned!r}")
            seen.add(card)
            cards.append(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical card sequence, in the given order: ``'As Ks 7d'``."""
    return " ".join(str(card) for card in cards)
