"""The defenders' split (two whisters): the canonical-line rule gives the
same values whatever the suits are called, and whatever the cards' absolute
ranks (only their order counts); the C core's canonical suit order follows
its definition, and its canonically first best discard is the one the
advice would pick from the list of every best discard."""
from __future__ import annotations

import itertools
import random

import pytest

from solver import Hand
from solver.advice import RunOptions, advise_whist, whist_request
from solver.advice.play import ContractPlay, canonical_key, canonical_position, line_tricks, split_tricks
from solver.advice.whist_request import layout_space
from solver.analysis import best_discard, deal_after_discard
from solver.engine import Solver, canonical_suits
from solver.notation import Card, Contract, Deal
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


def reference_suit_order(position: Position) -> tuple[int, ...]:
    """The canonical suit order written out from its definition (trump
    first, then the owners of each suit's live cards from the ace down, the
    trick's cards as owners 3 and 4, a prefix before any longer sequence,
    ties by the old index), to check csrc/canonical.c against."""
    def key(suit: int) -> tuple:
        owners = []
        for rank in range(7, -1, -1):
            card = Card.from_index(suit * 8 + rank)
            if card in position.trick:
                owners.append(3 + position.trick.index(card))
                continue
            owners.extend(seat for seat in range(3) if card in position.hands[seat])
        return (suit != position.trump, tuple(owners), suit)

    order = sorted(range(4), key=key)
    return tuple(order.index(suit) for suit in range(4))


def random_positions(rng: random.Random, count: int, most_played: int = 2):
    """Random deals (10 cards a seat), some with up to ``most_played`` cards
    played (a card or two on the trick; more: tricks already taken)."""
    for _ in range(count):
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [Hand(sum(1 << c for c in cards[10 * s:10 * s + 10])) for s in range(3)]
        contract = Contract.parse(rng.choice(["6s", "7c", "8d", "6h", "7nt", "misere"]))
        position = Position.start(Deal((hands[0], hands[1], hands[2])), contract, rng.randrange(3), rng.randrange(3))
        for _ in range(rng.randrange(most_played + 1)):
            position = position.play(rng.choice(position.legal_cards()))
        yield position


def test_canonical_suits_follow_their_definition() -> None:
    rng = random.Random(20261201)
    for position in random_positions(rng, 400):
        assert canonical_suits(position) == reference_suit_order(position), position


def test_canonical_best_discard_is_the_first_of_all_best_discards() -> None:
    """The C search's canonically first best discard (no tie proved) is the
    discard the advice picked from every best discard before it: the
    canonical_key minimum over the whole list."""
    rng = random.Random(18)
    solver = Solver()
    checked = 0
    for _ in range(150):
        cards = list(range(32))
        rng.shuffle(cards)
        hands = tuple(Hand(sum(1 << c for c in cards[10 * s:10 * s + 10])) for s in range(3))
        deal = Deal(hands, Hand((1 << cards[30]) | (1 << cards[31])))   # type: ignore[arg-type]
        contract = Contract.parse(rng.choice(["6s", "7c", "6nt", "misere"]))
        declarer, leader = rng.randrange(3), rng.randrange(3)
        every = best_discard(deal, declarer, contract, leader=leader, solver=solver)
        first = best_discard(deal, declarer, contract, leader=leader, solver=solver, canonical=True)
        assert first.value == every.value and len(first.discards) == 1
        starts = {discard: canonical_key(Position.start(deal_after_discard(deal, declarer, discard), contract,
                                                        declarer, leader)) for discard in every.discards}
        assert first.discards[0] in starts
        assert starts[first.discards[0]] == min(starts.values())
        checked += len(every.discards) > 1
    assert checked > 30   # most deals tie several discards


@pytest.mark.parametrize("seat, other", [(2, None), (0, "whist")])
def test_whist_advice_with_the_canonical_search_equals_the_listed_one(seat: int, other: str | None) -> None:
    """The whole advice over sampled layouts, the canonical discard from the
    C search against the list of every best discard compared in Python."""
    request = whist_request("JT98.JT.98.A9", "..J.K", "6c", 1, seat, other_decision=other)
    answers = []
    for canonical in (True, False):
        play = ContractPlay(request.contract, request.declarer, request.leader, request.played,
                            request.prior_tricks, request.discard_model, True, request.auction_played,
                            request.whisters, canonical_first=canonical)
        solver, space, outcomes = Solver(), layout_space(request), []
        for index in range(120):
            parts = space.sample(5, index)
            hands = [Hand(0)] * 3
            hands[request.seat] = request.hand
            hands[request.declarer], hands[request.other] = parts
            outcomes.append(play((hands[0], hands[1], hands[2]), request.talon, solver))
        answers.append(outcomes)
    assert answers[0] == answers[1]
    assert sum(outcome is not None for outcome in answers[0]) > 20


def test_split_tricks_equal_the_line_of_the_renamed_position() -> None:
    """The line searched under the position's own names with the canonical
    tie order gives the tricks of the line of the renamed position."""
    rng = random.Random(7)
    solver, fresh = Solver(), Solver()
    for position in random_positions(rng, 120):
        canonical = canonical_position(position)
        assert split_tricks(position, solver) == line_tricks(canonical, fresh.best_line(canonical)), position


def test_line_tricks_in_c_equal_the_tricks_along_the_listed_line() -> None:
    """pdd_line_tricks (the split without the line, stopping once the
    declarer takes every trick left) counts the tricks of the very line
    pdd_best_line_ordered lists, whatever the guess of the value; the lean
    whist path (StartDiscards.canonical_tricks) gives the split_tricks of the
    start after the canonical best discard."""
    rng = random.Random(20261202)
    solver, other = Solver(), Solver()
    settled_early = 0
    for position in random_positions(rng, 150, most_played=7):
        order = canonical_suits(position)
        line = other.best_line(position, tie_suits=order)
        along = line_tricks(position, line)
        for guess in (None, 0, rng.randrange(11)):
            counted = solver.line_tricks(position, guess, tie_suits=order)
            assert tuple(t + c for t, c in zip(position.tricks_taken, counted)) == along, (position, guess)
        assert solver.line_tricks(position) == tuple(
            a - t for a, t in zip(line_tricks(position, other.best_line(position)), position.tricks_taken))
        if position.tricks_left >= 2:   # the declarer takes the last trick: the C walk stops before it
            before_last = line_tricks(position, line[:-3])
            settled_early += along[position.declarer] > before_last[position.declarer]
    assert settled_early > 30

    request = whist_request("JT98.JT.98.A9", "..J.K", "6c", 1, 2, other_decision=None, auction=None)
    space, checked = layout_space(request), 0
    for index in range(40):
        parts = space.sample(9, index)
        hands = [request.hand] * 3
        hands[request.declarer], hands[request.other] = parts
        deal = Deal((hands[0], hands[1], hands[2]), request.talon)
        found = best_discard(deal, request.declarer, request.contract, leader=request.leader, solver=solver,
                             canonical=True)
        start = Position.start(deal_after_discard(deal, request.declarer, found.discards[0]), request.contract,
                               request.declarer, request.leader)
        masks = [hand.mask for hand in start.hands]
        lean = solver.start_discards(request.contract, request.declarer, request.leader)
        assert lean.canonical_tricks(solver, masks, found.value) == split_tricks(start, other, found.value)
        checked += 1
    assert checked == 40
