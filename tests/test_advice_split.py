"""The defenders' split (two whisters): the canonical-line rule gives the
same values whatever the suits are called, and whatever the cards' absolute
ranks (only their order counts)."""
from __future__ import annotations

import itertools

import pytest

from solver import Hand
from solver.advice import RunOptions, advise_whist, whist_request
from solver.advice.play import canonical_position, split_tricks
from solver.engine import Solver
from solver.notation import Contract
from solver.position import Position

# A 4-card endgame: seat 1 declares and has 3 tricks; seat 2 (the first defender) asks,
# the small game (two whisters possible) needs the split on each of the 70 layouts.
HAND, TALON, UNSEEN, PRIOR = "K.9.A8.", "7...7", "AQ.KQ.KQ.A8", (2, 3, 1)


def renamed(text: str, suit_to: tuple[int, ...]) -> str:
    """A hand with suit s renamed suit_to[s]."""
    mask = Hand.parse(text).mask
    out = 0
    for suit in range(4):
        out |= ((mask >> (8 * suit)) & 0xFF) << (8 * suit_to[suit])
    return str(Hand(out))


def advice(contract: str, suit_to: tuple[int, ...]):
    request = whist_request(renamed(HAND, suit_to), renamed(TALON, suit_to), contract, 1, 2,
                            unseen=renamed(UNSEEN, suit_to), prior_tricks=PRIOR, auction=None)
    return advise_whist(request, RunOptions(workers=1))


def figures(result) -> list:
    rows = []
    for option in result.options:
        rows.append((option.action, option.value.exact, option.other_value.exact))
        rows.extend((option.action, reply.action, reply.value.exact, reply.other_value.exact)
                    for reply in option.replies)
    return rows


@pytest.mark.parametrize("contract, permutations", [
    ("6nt", list(itertools.permutations(range(4)))[1::5]),
    ("6s", [(0, 2, 1, 3), (0, 3, 2, 1), (0, 2, 3, 1)]),   # spades stay trumps
])
def test_renamed_suits_give_the_same_values(contract: str, permutations) -> None:
    base = advice(contract, (0, 1, 2, 3))
    assert base.run.complete and base.split is not None
    both = next(r for o in base.options for r in o.replies if r.scenario.needs_split)
    assert both.value.exact is not None
    for suit_to in permutations:
        strain = contract if contract == "6nt" else f"6{'scdh'[suit_to[0]]}"
        other = advice(strain, suit_to)
        assert figures(other) == figures(base), suit_to
        assert other.split == base.split and other.recommended == base.recommended


def test_canonical_position_is_the_same_for_every_renaming_and_rank_shift() -> None:
    solver = Solver()
    hands = ("AQ8.K.9.", "KJ7.A.T.", "T9.Q8.A.")   # 5 cards each, seat 0 leads, 6nt-like endgame
    base = None
    for suit_to in itertools.permutations(range(4)):
        position = Position(tuple(Hand.parse(renamed(h, suit_to)) for h in hands), Contract.parse("6nt"), 0, 0)
        canonical = canonical_position(position)
        base = base or canonical
        assert canonical.hands == base.hands
        assert split_tricks(position, solver) == split_tricks(base, solver)
    # The same game with the clubs one rank lower everywhere (only the order counts).
    lower = Position((Hand.parse("AQ8.Q.9."), Hand.parse("KJ7.K.T."), Hand.parse("T9.J7.A.")),
                     Contract.parse("6nt"), 0, 0)
    assert split_tricks(lower, solver) == split_tricks(base, solver)
