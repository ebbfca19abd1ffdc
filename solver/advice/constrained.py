"""Hidden-card layouts with cards a part cannot receive: a player's inferred
voids, the talon cards only the declarer can hold.

A :class:`ConstrainedSpace` deals the ``free`` cards into parts as a
:class:`~solver.advice.layouts.LayoutSpace` does (part ``i`` gets
``sizes[i]`` of them on top of its ``fixed`` cards), except that part ``i``
never receives a card of ``barred[i]``. Every allowed way of dealing is
equally likely. It answers the same questions as a LayoutSpace (:meth:`count`,
:meth:`sample`, :meth:`enumerate_masks`, :meth:`first_masks`), so
:func:`~solver.advice.parallel.run_layouts` runs it unchanged.

How: the free cards fall into *groups* by the set of parts that may take
them (at most 2^parts groups). An *allocation* says how many cards of each
group go to each part; it covers ``Π multinomial`` layouts. Sampling draws an
allocation with that weight, then shuffles each group's cards into their
parts, so every layout is drawn with the same probability and no layout is
ever rejected; layout ``i`` of seed ``s`` uses the generator
:func:`~solver.advice.layouts.layout_rng` ``(s, i)`` alone. Enumeration lists
every allocation's layouts once.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterator

from ..notation import Hand
from .errors import AdviceError
from .layouts import check_parts, layout_rng

__all__ = ["ConstrainedSpace"]

_Group = tuple[tuple[int, ...], tuple[int, ...]]
"""(card indices in canonical order, the parts that may take them)."""
_Allocation = tuple[tuple[int, ...], ...]
"""For each group, the count of its cards going to each of its parts."""


def _splits(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of counts within ``caps``."""
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    for first in range(min(total, caps[0]) + 1):
        for rest in _splits(total - first, caps[1:]):
            yield (first,) + rest


def _multinomial(counts: tuple[int, ...]) -> int:
    result, left = 1, sum(counts)
    for count in counts:
        result *= math.comb(left, count)
        left -= count
    return result


@dataclass(frozen=True)
class ConstrainedSpace:
    """The ways the ``free`` cards can be dealt into parts of ``sizes``
    cards, each part holding its ``fixed`` cards and none of ``barred``."""

    free: Hand
    sizes: tuple[int, ...]
    fixed: tuple[Hand, ...]
    barred: tuple[Hand, ...]
    _groups: list[_Group] = field(init=False, repr=False, compare=False)
    _allocations: list[_Allocation] = field(init=False, repr=False, compare=False)
    _cumulative: list[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not len(self.sizes) == len(self.fixed) == len(self.barred):
            raise AdviceError("each part of a layout space needs a size, fixed cards and barred cards")
        check_parts(self.free, self.sizes, self.fixed)
        by_parts: dict[tuple[int, ...], list[int]] = {}
        for card in self.free.cards():
            parts = tuple(i for i, barred in enumerate(self.barred) if card not in barred)
            if not parts:
                raise AdviceError(f"no layout of the hidden cards fits what is known: card {card.pretty()} "
                                  "can be in no hidden hand")
            by_parts.setdefault(parts, []).append(card.index)
        groups = [(tuple(cards), parts) for parts, cards in sorted(by_parts.items())]
        allocations = list(self._allocate(groups, 0, list(self.sizes)))
        cumulative, total = [], 0
        for allocation in allocations:
            total += self._weight(allocation)
            cumulative.append(total)
        object.__setattr__(self, "_groups", groups)
        object.__setattr__(self, "_allocations", allocations)
        object.__setattr__(self, "_cumulative", cumulative)

    @staticmethod
    def _allocate(groups: list[_Group], index: int, room: list[int]) -> Iterator[_Allocation]:
        if index == len(groups):
            if not any(room):
                yield ()
            return
        cards, parts = groups[index]
        for counts in _splits(len(cards), [room[p] for p in parts]):
            for p, count in zip(parts, counts):
                room[p] -= count
            for rest in ConstrainedSpace._allocate(groups, index + 1, room):
                yield (counts,) + rest
            for p, count in zip(parts, counts):
                room[p] += count

    @staticmethod
    def _weight(allocation: _Allocation) -> int:
        return math.prod(_multinomial(counts) for counts in allocation)

    def count(self) -> int:
        """How many allowed layouts there are."""
        return self._cumulative[-1] if self._cumulative else 0

    def sample(self, seed: int, index: int) -> tuple[Hand, ...]:
        """Layout ``index`` of the random sequence of ``seed`` (uniform over
        the allowed layouts)."""
        return tuple(Hand(mask) for mask in self.sample_masks(seed, index))

    def sample_masks(self, seed: int, index: int) -> tuple[int, ...]:
        """:meth:`sample` as hand masks."""
        if not self._cumulative:
            raise AdviceError("no layout of the hidden cards fits what is known")
        rng = layout_rng(seed, index)
        pick = bisect_right(self._cumulative, rng.randrange(self._cumulative[-1]))
        masks = [part.mask for part in self.fixed]
        for (cards, parts), counts in zip(self._groups, self._allocations[pick]):
            order = list(cards)
            rng.shuffle(order)
            start = 0
            for part, count in zip(parts, counts):
                for card in order[start:start + count]:
                    masks[part] |= 1 << card
                start += count
        return tuple(masks)

    def enumerate(self) -> Iterator[tuple[Hand, ...]]:
        for masks in self.enumerate_masks():
            yield tuple(Hand(mask) for mask in masks)

    def enumerate_masks(self) -> Iterator[tuple[int, ...]]:
        """Every allowed layout once, as hand masks by part."""
        base = tuple(part.mask for part in self.fixed)
        for allocation in self._allocations:
            yield from self._deal_groups(allocation, 0, list(base))

    def enumerate_list(self) -> list[tuple[int, ...]]:
        """:meth:`enumerate_masks` as a list (the enumeration's runs)."""
        return list(self.enumerate_masks())

    def first_masks(self) -> tuple[int, ...]:
        """The first layout of :meth:`enumerate_masks` (dealt alone)."""
        if not self._allocations:
            raise AdviceError("no layout of the hidden cards fits what is known")
        return next(self._deal_groups(self._allocations[0], 0, [part.mask for part in self.fixed]))

    def _deal_groups(self, allocation: _Allocation, index: int, masks: list[int]) -> Iterator[tuple[int, ...]]:
        if index == len(self._groups):
            yield tuple(masks)
            return
        cards, parts = self._groups[index]
        for dealt in self._deal_one(list(cards), parts, allocation[index]):
            for part, mask in zip(parts, dealt):
                masks[part] |= mask
            yield from self._deal_groups(allocation, index + 1, masks)
            for part, mask in zip(parts, dealt):
                masks[part] &= ~mask

    @staticmethod
    def _deal_one(cards: list[int], parts: tuple[int, ...], counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every way to deal one group's ``cards`` into its parts."""
        if len(parts) == 1:
            yield (sum(1 << card for card in cards),)
            return
        for chosen in combinations(cards, counts[0]):
            mask = sum(1 << card for card in chosen)
            rest = [card for card in cards if not mask >> card & 1]
            for tail in ConstrainedSpace._deal_one(rest, parts[1:], counts[1:]):
                yield (mask,) + tail
