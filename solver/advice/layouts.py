"""Hidden-card layouts: how the unseen cards may lie, sampled or enumerated.

A :class:`LayoutSpace` deals the ``free`` cards (unseen and not known to be
anywhere) into *parts* (a seat's hand, or the talon), part ``i`` getting
``sizes[i]`` of them on top of the cards ``fixed[i]`` known to be there.
Every way of dealing is equally likely.

* Sampling: layout ``i`` of seed ``s`` is drawn by its own generator, seeded
  with the text ``"s/i"`` (:class:`random.Random` hashes a text seed with
  SHA-512, the same on every machine and run), so a layout depends only on
  (seed, index): never on the thread that evaluates it, nor on the order.
* Enumeration: every layout once. The last two parts are dealt in
  revolving-door order (each layout differs from the one before by one card
  moved from one part to the other and one moved back) over the cards ranked
  so that the owners of the high cards change least often (of the low cards
  for misère: :func:`warm_order`): long runs of layouts then agree on who
  holds the cards that decide tricks, and the solver's table, whose partition
  entries fix the owners of the top cards only, carries over between them.
  Any earlier part (the talon of a bidder's question) is dealt in
  lexicographic order outside that. Sorting a sample's layouts that way saves
  little (1,000 layouts of a whist advice, sorted all at once: 1.8 % fewer
  nodes); sorted by suit lengths first, then by the owners of the high cards,
  16 % fewer: sampled runs whose evaluator can turn layouts down without a
  search are solved in such sorted rounds (:mod:`~solver.advice.parallel`).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cached_property, lru_cache
from hashlib import sha512
from itertools import combinations
from typing import Iterable, Iterator, Sequence

from ..engine import HandPairs, ShuffleDeal
from ..notation import Contract, ContractKind, Hand
from .errors import AdviceError

__all__ = ["LayoutSpace", "check_parts", "revolving_door", "layout_rng", "layout_seed", "warm_order", "misere_only"]


def layout_rng(seed: int, index: int) -> random.Random:
    """The generator of layout ``index`` under ``seed``."""
    return random.Random(f"{seed}/{index}")


def layout_seed(seed: int, index: int) -> int:
    """The whole number :func:`layout_rng` seeds its generator with: what
    ``random.seed`` makes of a text (version 2: the text's bytes followed by
    their SHA-512, read as one big-endian number)."""
    text = f"{seed}/{index}".encode()
    return int.from_bytes(text + sha512(text).digest(), "big")


@lru_cache(maxsize=64)
def revolving_door(n: int, k: int) -> tuple[int, ...]:
    """Every k-subset of range(n) as a bit mask, consecutive subsets differing
    by one element out and one in (the revolving-door Gray code:
    R(n, k) = R(n-1, k), then R(n-1, k-1) reversed with element n-1 added)."""
    if k < 0 or k > n:
        return ()
    if k == 0:
        return (0,)
    if k == n:
        return ((1 << n) - 1,)
    top = 1 << (n - 1)
    without = revolving_door(n - 1, k)
    with_top = revolving_door(n - 1, k - 1)
    return without + tuple(mask | top for mask in reversed(with_top))


def warm_order(mask: int, misere: bool = False) -> list[int]:
    """The card indices of ``mask`` from the one whose owner should change most
    often to the one whose owner should change least: by rank, low to high,
    the suits interleaved (all sevens, then all eights, ...); for misère high
    to low, as there the low cards decide (4,096 consecutive splits of a
    misère hand: 4.9 M nodes, 5.5 M suit by suit, 7.8 M aces last).

    The last element of :func:`revolving_door`'s list changes least, so the
    aces come last. Measured over all 184,756 splits of 20 defenders' cards
    (6♠, ``benchmarks/README.md``): 7.2 M nodes, against 52.7 M in the same
    code over the cards suit by suit, 10.6 M in lexicographic order with the
    aces slowest, and 74-84 M with the low cards slowest either way."""
    rank = (lambda i: -(i % 8)) if misere else (lambda i: i % 8)
    return sorted((i for i in range(32) if mask >> i & 1), key=lambda i: (rank(i), i // 8))


def misere_only(contracts: Iterable[Contract]) -> bool:
    """Whether the layouts are solved for misère only (a space's ``misere``)."""
    return all(contract.kind is ContractKind.MISERE for contract in contracts)


class _SubsetMap:
    """Maps subset bit masks over a list of cards to the cards' hand masks,
    ten cards a table (two look-ups for the 184,756 subsets of 20 cards: the
    list of an enumeration's splits is built before its workers start)."""

    BITS = 10

    def __init__(self, cards: list[int]) -> None:
        self.tables = []
        for start in range(0, len(cards), self.BITS):
            table = [0]
            for card in cards[start:start + self.BITS]:   # each card doubles the table
                table += [mask | 1 << card for mask in table]
            self.tables.append(table)

    def __call__(self, subset: int) -> int:
        mask = 0
        for table in self.tables:
            mask |= table[subset & (1 << self.BITS) - 1]
            subset >>= self.BITS
        return mask

    def all(self, subsets: Iterable[int]) -> list[int]:
        """``self(subset)`` of each subset."""
        if len(self.tables) == 1:
            return [self.tables[0][subset] for subset in subsets]
        if len(self.tables) == 2:
            low, high, bits = self.tables[0], self.tables[1], self.BITS
            return [low[subset & (1 << bits) - 1] | high[subset >> bits] for subset in subsets]
        return [self(subset) for subset in subsets]


@lru_cache(maxsize=64)
def _card_indices(mask: int) -> tuple[int, ...]:
    """The card indices of a hand mask in :meth:`Hand.cards` order (spades
    first, high to low), which the seeded shuffles start from."""
    return tuple(card.index for card in Hand(mask).cards())


def check_parts(free: Hand, sizes: tuple[int, ...], fixed: tuple[Hand, ...]) -> None:
    """The ``free`` cards fill parts of ``sizes`` exactly, and no card is
    both free and fixed, or fixed in two parts."""
    if any(size < 0 for size in sizes):
        raise AdviceError(f"a part cannot receive a negative number of cards: {sizes}")
    if sum(sizes) != len(free):
        raise AdviceError(f"{len(free)} unseen cards cannot fill parts of {'+'.join(map(str, sizes))} cards")
    seen = free.mask
    for part in fixed:
        if part.mask & seen:
            raise AdviceError(f"card {Hand(part.mask & seen).cards()[0]} is placed twice")
        seen |= part.mask


@dataclass(frozen=True)
class LayoutSpace:
    """The ways the ``free`` cards can be dealt into parts of ``sizes``
    cards, each part also holding its ``fixed`` cards."""

    free: Hand
    sizes: tuple[int, ...]
    fixed: tuple[Hand, ...]
    misere: bool = False
    """The layouts are for misère only: enumerated with the low cards'
    owners changing least often (:func:`warm_order`)."""

    def __post_init__(self) -> None:
        if not isinstance(self.misere, bool):
            raise AdviceError(f"misere must be True or False, got {self.misere!r:.60}")
        if len(self.sizes) != len(self.fixed) or len(self.sizes) < 2:
            raise AdviceError("a layout space needs at least two parts, each with a size and fixed cards")
        check_parts(self.free, self.sizes, self.fixed)

    def count(self) -> int:
        """How many layouts there are (the multinomial coefficient)."""
        total, left = 1, len(self.free)
        for size in self.sizes:
            total *= math.comb(left, size)
            left -= size
        return total

    def sample(self, seed: int, index: int) -> tuple[Hand, ...]:
        """Layout ``index`` of the random sequence of ``seed`` (uniform)."""
        return tuple(Hand(mask) for mask in self.sample_masks(seed, index))

    @cached_property
    def _dealer(self) -> ShuffleDeal:
        return ShuffleDeal(_card_indices(self.free.mask), self.sizes, [part.mask for part in self.fixed])

    def sample_masks(self, seed: int, index: int) -> tuple[int, ...]:
        """:meth:`sample` as hand masks: the free cards (spades first, high to
        low) shuffled by :func:`layout_rng` and dealt to the parts in order,
        drawn in C (:class:`~solver.engine.ShuffleDeal`, the same draws) when
        the seed's key fits it."""
        key = layout_seed(seed, index)
        if ShuffleDeal.fits(key):
            return self._dealer.deal(key)
        cards = list(_card_indices(self.free.mask))
        layout_rng(seed, index).shuffle(cards)
        masks, start = [], 0
        for size, fixed in zip(self.sizes, self.fixed):
            mask = fixed.mask
            for card in cards[start:start + size]:
                mask |= 1 << card
            masks.append(mask)
            start += size
        return tuple(masks)

    def sample_masks_many(self, seed: int, start: int, end: int) -> list[tuple[int, ...]]:
        """:meth:`sample_masks` of the indices ``start`` to ``end`` (excluded),
        those whose seeds' keys fit the C seeding drawn in one C call."""
        keys = [layout_seed(seed, index) for index in range(start, end)]
        if not all(ShuffleDeal.fits(key) for key in keys):
            return [self.sample_masks(seed, index) for index in range(start, end)]
        return self._dealer.deal_many(keys)

    def enumerate(self) -> Iterator[tuple[Hand, ...]]:
        """Every layout once; the last two parts in revolving-door order
        over :func:`warm_order`."""
        for masks in self.enumerate_masks():
            yield tuple(Hand(mask) for mask in masks)

    def enumerate_masks(self) -> Iterator[tuple[int, ...]]:
        """:meth:`enumerate` as hand masks (lighter to keep in a list). Each
        block (one deal of the leading parts) is listed whole before its first
        layout is yielded: faster over a whole enumeration than a layout at a
        time; :meth:`first_masks` gives the first layout alone."""
        one, other = self.fixed[-2].mask, self.fixed[-1].mask
        for head, rest, cards in self._blocks():
            masks = _SubsetMap(cards).all(revolving_door(len(cards), self.sizes[-2]))
            if head:
                yield from [head + (one | mask, other | (rest & ~mask)) for mask in masks]
            else:
                yield from [(one | mask, other | (rest & ~mask)) for mask in masks]

    def enumerate_list(self) -> Sequence[tuple[int, ...]]:
        """:meth:`enumerate_masks` as one sequence. With two parts (a split of
        the defenders' cards) it is a :class:`~solver.engine.HandPairs` made in
        C, which a batch of splits passes to the solver as it is: the list of
        184,756 splits took 0.12 s in Python (csrc/splits.c)."""
        if len(self.sizes) != 2:
            return list(self.enumerate_masks())
        rest = self.free.mask
        return HandPairs.revolving_door(warm_order(rest, self.misere), self.sizes[0],
                                        self.fixed[0].mask, self.fixed[1].mask)

    def first_masks(self) -> tuple[int, ...]:
        """The first layout of :meth:`enumerate_masks`, without listing its
        block: the first subset of :func:`revolving_door` ``(n, k)`` is the
        first ``k`` cards. Every space has one: one whose sizes do not fill
        the free cards is refused when built (AdviceError, :func:`check_parts`)."""
        head, rest, cards = next(self._blocks())
        mask = sum(1 << card for card in cards[:self.sizes[-2]])
        return head + (self.fixed[-2].mask | mask, self.fixed[-1].mask | (rest & ~mask))

    def _blocks(self) -> Iterator[tuple[tuple[int, ...], int, list[int]]]:
        """Per deal of the parts before the last two: their hand masks, the
        cards left for the last two (a mask, and in :func:`warm_order`)."""
        fixed = [part.mask for part in self.fixed]
        for lead in self._leading_parts(0, self.free.mask):
            rest = self.free.mask
            for part in lead:
                rest &= ~part
            yield tuple(fixed[i] | lead[i] for i in range(len(lead))), rest, warm_order(rest, self.misere)

    def _leading_parts(self, part: int, left: int) -> Iterator[tuple[int, ...]]:
        """Every way to deal the parts before the last two, lexicographic."""
        if part == len(self.sizes) - 2:
            yield ()
            return
        cards = [card.index for card in Hand(left).cards()]
        for chosen in combinations(cards, self.sizes[part]):
            mask = sum(1 << card for card in chosen)
            for rest in self._leading_parts(part + 1, left & ~mask):
                yield (mask,) + rest
