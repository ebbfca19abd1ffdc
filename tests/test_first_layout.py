"""A layout space's first layout, dealt alone, is its enumeration's first;
the play advice checks the play on it without listing any layouts."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Hand
from solver.advice import AdviceError, RunOptions, advise_play, play_request
from solver.advice import card_play
from solver.advice.constrained import ConstrainedSpace
from solver.advice.layouts import LayoutSpace, revolving_door

FULL_DEFENDERS = "AKQJT987.AKQJT987.AKQJ."   # 20 cards: 184,756 splits


def _hands(*texts: str) -> tuple[Hand, ...]:
    return tuple(Hand.parse(text) if text else Hand(0) for text in texts)


@pytest.mark.parametrize("free, sizes, fixed, misere", [
    (FULL_DEFENDERS, (10, 10), ("", ""), False),                              # a full enumeration
    (FULL_DEFENDERS, (10, 10), ("", ""), True),                               # misère order
    ("AKQJT987.AKQJT987.A.", (8, 9), ("...AK", "...QJT"), False),             # known cards in both hands
    ("AKQJT987.AKQJT987.AKQJT987.AKQJT987", (2, 10, 10, 10), ("", "", "", ""), False),  # talon, then three hands
    ("AK7.Q8..", (0, 3, 2), ("..A.", "", "...K"), False),                     # an empty part
    ("A...", (1, 0), ("", ""), False),
    ("A...", (0, 1), ("", ""), False),
])
def test_first_layout_of_a_layout_space_is_its_enumerations_first(free, sizes, fixed, misere) -> None:
    space = LayoutSpace(Hand.parse(free), sizes, _hands(*fixed), misere)
    assert space.first_masks() == next(space.enumerate_masks())


@pytest.mark.parametrize("n, k", [(0, 0), (1, 0), (1, 1), (5, 2), (9, 4), (12, 12), (20, 10)])
def test_first_revolving_door_subset_is_the_first_k_elements(n: int, k: int) -> None:
    assert revolving_door(n, k)[0] == (1 << k) - 1


@pytest.mark.parametrize("free, sizes, fixed, barred", [
    # two hands and a discard, no constraint: a whole play space
    (FULL_DEFENDERS, (10, 8, 2), ("", "..T9.", ""), ("", "", "")),
    # voids: hand 0 has no spades, the talon's hearts barred from hand 1
    ("KQ9.AJ8.T9.AK", (5, 3, 2), ("A...", "..8.9", ""), ("KQ9...", "...AK", "")),
    ("AKQJ.T98.7.A", (3, 3, 3), ("", "", ""), ("AKQJ...", ".T98.7.", "")),
    # a group only one part may take comes first in the groups' order
    ("AKQ.QJ.T9.", (2, 5), ("", ""), (".QJ.T9.", "")),
])
def test_first_layout_of_a_constrained_space_is_its_enumerations_first(free, sizes, fixed, barred) -> None:
    space = ConstrainedSpace(Hand.parse(free), sizes, _hands(*fixed), _hands(*barred))
    assert space.first_masks() == next(space.enumerate_masks())


@st.composite
def _layout_spaces(draw: st.DrawFn) -> tuple[int, tuple[int, ...]]:
    """A free hand of up to 8 cards and two to four part sizes: mostly
    filling it, sometimes one card off (more, fewer, a negative part)."""
    cards = draw(st.sets(st.integers(0, 31), max_size=8))
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=1, max_size=3)))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [len(cards)])]
    sizes[draw(st.integers(0, len(sizes) - 1))] += draw(st.sampled_from([0, 0, 0, 1, -1]))
    return sum(1 << card for card in cards), tuple(sizes)


@settings(max_examples=200, deadline=None)
@given(_layout_spaces())
def test_a_layout_space_is_never_empty(space_args: tuple[int, tuple[int, ...]]) -> None:
    """A LayoutSpace that cannot be dealt is refused when built (AdviceError,
    as a ConstrainedSpace without layouts is by first_masks); one that is
    built has a first layout, that of its enumeration."""
    free, sizes = space_args
    fixed = tuple(Hand(0) for _ in sizes)
    if any(size < 0 for size in sizes) or sum(sizes) != bin(free).count("1"):
        with pytest.raises(AdviceError, match="part|cannot fill"):
            LayoutSpace(Hand(free), sizes, fixed)
        return
    space = LayoutSpace(Hand(free), sizes, fixed)
    assert space.count() >= 1
    assert space.first_masks() == next(space.enumerate_masks())


def test_a_constrained_space_without_layouts_has_no_first() -> None:
    # both cards may go to hand 0 only, which takes one
    space = ConstrainedSpace(Hand.parse("AK..."), (1, 1), _hands("", ""), _hands("", "AK..."))
    assert space.count() == 0
    with pytest.raises(AdviceError, match="no layout"):
        space.first_masks()


def test_play_advice_checks_the_play_without_enumerating(monkeypatch) -> None:
    """The check of the cards played (_skeleton) takes the first layout
    alone: enumerating the 42,678,636 layouts' first block is refused here.
    The advice that follows samples (no enumeration either)."""
    def refuse(self):
        raise AssertionError("the play check enumerated the layouts")

    monkeypatch.setattr(ConstrainedSpace, "enumerate_masks", refuse)
    monkeypatch.setattr(LayoutSpace, "enumerate_masks", refuse)
    request = play_request("AQ7.K98.KT.QJ", "6c", 1, 0)
    space = card_play.play_space(request)
    assert space.count() == 42_678_636
    advice = advise_play(request, RunOptions(layouts=4, workers=1))
    assert advice.run.layouts == 4 and {c.card for c in advice.cards} == set(Hand.parse("AQ7.K98.KT.QJ").cards())
    # a request out of turn is still refused on that one layout
    with pytest.raises(AdviceError, match="turn"):
        card_play.play_space(play_request("AQ7.K98.KT.QJ", "6c", 1, 2))
