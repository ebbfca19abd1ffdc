"""The constrained layout space of card-play advice against plain
enumeration: every allowed layout once, the right count, samples that stay
allowed, depend only on (seed, index) and come out uniform."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from solver import Hand
from solver.advice import AdviceError
from solver.advice.constrained import ConstrainedSpace


def _brute(free: Hand, sizes, fixed, barred) -> set[tuple[int, ...]]:
    """Every deal of ``free`` into the parts by plain combinations, kept when no
    part holds a card barred to it."""
    cards = [card.index for card in free.cards()]
    found = set()

    def deal(part: int, left: list[int], masks: tuple[int, ...]) -> None:
        if part == len(sizes):
            found.add(masks)
            return
        for chosen in itertools.combinations(left, sizes[part]):
            mask = sum(1 << c for c in chosen)
            if mask & barred[part].mask:
                continue
            deal(part + 1, [c for c in left if c not in chosen], masks + (fixed[part].mask | mask,))

    deal(0, cards, ())
    return found


SPACES = [
    # two hands and a discard; hand 0 void in spades, the talon cards (hearts A K) barred from hand 1
    (Hand.parse("KQ9.AJ8.T9.AK"), (5, 3, 2), (Hand.parse("A..."), Hand.parse("..8.9"), Hand(0)),
     (Hand.parse("KQ9..."), Hand.parse("...AK"), Hand(0))),
    (Hand.parse("AKQJ.T98.7.A"), (3, 3, 3), (Hand(0), Hand(0), Hand(0)),
     (Hand.parse("AKQJ..."), Hand.parse(".T98.7."), Hand(0))),
    (Hand.parse("AK.Q.."), (2, 1), (Hand(0), Hand(0)), (Hand(0), Hand(0))),
]


@pytest.mark.parametrize("free, sizes, fixed, barred", SPACES)
def test_enumeration_and_count_match_plain_enumeration(free, sizes, fixed, barred) -> None:
    space = ConstrainedSpace(free, sizes, fixed, barred)
    listed = list(space.enumerate_masks())
    expected = _brute(free, sizes, fixed, barred)
    assert len(listed) == len(set(listed)) == space.count()
    assert set(listed) == expected


def test_samples_are_allowed_reproducible_and_uniform() -> None:
    free, sizes, fixed, barred = SPACES[0]
    space = ConstrainedSpace(free, sizes, fixed, barred)
    allowed = _brute(free, sizes, fixed, barred)
    n = 60 * len(allowed)
    counts = Counter(tuple(h.mask for h in space.sample(3, i)) for i in range(n))
    assert set(counts) <= allowed
    assert space.sample(3, 17) == space.sample(3, 17) and space.sample(3, 17) != space.sample(4, 17)
    # chi-square against uniform, df = |allowed| - 1 (a fixed seed: the figure is the same every run)
    expected = n / len(allowed)
    chi2 = sum((counts.get(layout, 0) - expected) ** 2 / expected for layout in allowed)
    df = len(allowed) - 1
    assert chi2 < df + 5 * (2 * df) ** 0.5


def test_a_card_no_part_may_take_is_refused() -> None:
    with pytest.raises(AdviceError, match="no layout"):
        ConstrainedSpace(Hand.parse("A..."), (1,), (Hand(0),), (Hand.parse("A..."),))
