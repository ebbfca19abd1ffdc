"""The C solver against the plain minimax of brute_force.py on random endgames:
trick contracts in every strain, misère, all-pass with talon leads (3 and 4
players), positions inside a trick, and per-card values."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from brute_force import Game
from solver import Card, Contract, ContractKind, Deal, Hand, Position, Solver
from solver._core import lib
from solver.engine import OPT_ALL, OPT_NONE
from solver.notation import NO_TRUMP

CONTRACTS = ["6s", "6c", "6d", "6h", "6nt", "misere"]


def random_position(rng: random.Random, max_cards: int = 5, allpass: bool = False) -> Position:
    """A random endgame, possibly with some cards of the current trick played."""
    size = rng.randint(2 if allpass else 1, max_cards)
    cards = rng.sample(range(32), 3 * size + (2 if allpass else 0))
    hands = [Hand.from_cards(Card.from_index(i) for i in cards[k * size:(k + 1) * size]) for k in range(3)]
    if allpass:
        talon = Hand.from_cards(Card.from_index(i) for i in cards[3 * size:])
        deal = Deal(tuple(hands), talon)
        position = Position.start(deal, "allpass", rng.randrange(3), 0,
                                  four_players=rng.random() < 0.5)
    else:
        deal = Deal(tuple(hands))
        position = Position.start(deal, rng.choice(CONTRACTS), rng.randrange(3), rng.randrange(3))
    for _ in range(rng.randrange(3)):       # step inside the trick
        position = position.play(rng.choice(position.legal_cards()))
    return position


def brute_state(position: Position):
    """The position in brute_force.py's terms: a Game and its arguments."""
    trump = None if position.trump == NO_TRUMP else position.trump
    objective = "tricks" if position.contract.kind is ContractKind.TRICKS else "misere"
    game = Game(objective, position.declarer, trump, position.four_players)
    hands = tuple(frozenset((c.suit, c.rank) for c in h) for h in position.hands)
    plays = tuple(((position.leader + i) % 3, (c.suit, c.rank)) for i, c in enumerate(position.trick))
    talon = tuple((c.suit, c.rank) for c in position.talon_leads)
    return game, (hands, plays, position.leader, talon)


def brute_value(position: Position) -> int:
    game, args = brute_state(position)
    return position.declarer_tricks + game.value(*args)


def brute_card_values(position: Position) -> dict[Card, int]:
    game, args = brute_state(position)
    return {Card(s, r): position.declarer_tricks + v for (s, r), v in game.children(*args)}


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_mib=4)


@pytest.mark.parametrize("seed", range(300))
def test_value_matches_brute_force(solver: Solver, seed: int) -> None:
    position = random_position(random.Random(seed))
    assert solver.solve(position) == brute_value(position), position


@pytest.mark.parametrize("seed", range(120))
def test_card_values_match_brute_force(solver: Solver, seed: int) -> None:
    position = random_position(random.Random(10_000 + seed))
    assert solver.card_values(position) == brute_card_values(position), position


@pytest.mark.parametrize("seed", range(150))
def test_allpass_matches_brute_force(solver: Solver, seed: int) -> None:
    position = random_position(random.Random(20_000 + seed), allpass=True)
    assert solver.solve(position) == brute_value(position), position


@pytest.mark.parametrize("seed", range(60))
def test_probe_agrees_with_value(solver: Solver, seed: int) -> None:
    position = random_position(random.Random(30_000 + seed))
    value = brute_value(position)
    for target in range(0, 11):
        assert solver.probe(position, target) == (value >= target)


@pytest.mark.parametrize("seed", range(40))
def test_best_line_keeps_the_value(solver: Solver, seed: int) -> None:
    """Every card of the best line is optimal for its player."""
    position = random_position(random.Random(40_000 + seed))
    value = brute_value(position)
    for card in solver.best_line(position):
        assert brute_card_values(position)[card] == value
        position = position.play(card)
    assert position.is_over and position.declarer_tricks == value


@pytest.mark.parametrize("seed", range(20))
def test_best_line_is_the_same_whatever_the_value_guess(solver: Solver, seed: int) -> None:
    """A guess of the value only saves work: right, wrong or out of range,
    the line is the lowest-index optimal line."""
    position = random_position(random.Random(41_000 + seed))
    line = solver.best_line(position)
    value = brute_value(position)
    for guess in (value, value + 1, max(0, value - 2), 0, 10, -5, 99):
        assert solver.best_line(position, guess) == line, guess
    with pytest.raises(ValueError, match="value_guess"):
        solver.best_line(position, 2.5)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(OPT_NONE, OPT_ALL))
def test_every_enhancement_is_exact(rng: random.Random, options: int) -> None:
    """Every combination of enhancements gives the brute-force value."""
    solver = Solver(table_mib=1)
    solver.set_options(options)
    position = random_position(rng, max_cards=4, allpass=rng.random() < 0.3)
    assert solver.solve(position) == brute_value(position)


def declarer_heavy_endgame(rng: random.Random, size: int, contract: str) -> Position:
    """A no-trump endgame at a trick start in two or three suits, the declarer
    often holding the higher cards: positions where he may have to take every
    trick left."""
    suits = rng.sample(range(4), rng.randint(2, 3))
    pool = sorted(rng.sample([s * 8 + r for s in suits for r in range(8)], 3 * size), key=lambda c: c % 8)
    declarer = rng.randrange(3)
    high = pool[len(pool) - size:] if rng.random() < 0.5 else rng.sample(pool, size)
    rest = [c for c in pool if c not in high]
    rng.shuffle(rest)
    hands = [rest[:size], rest[size:]]
    hands.insert(declarer, high)
    deal = Deal(tuple(Hand.from_cards(Card.from_index(c) for c in hand) for hand in hands))
    return Position.start(deal, contract, declarer, rng.randrange(3))


@pytest.mark.parametrize("contract", ["misere", "allpass"])
def test_every_trick_left_test_against_brute_force(contract: str) -> None:
    """Misère and all-pass endgames at a trick start: the probe "does the
    declarer take every trick left?", which the exact test of
    PDD_OPT_EVERY_TRICK answers at the root, against the brute force, on
    positions where either answer comes up, with the declarer first, second
    and third to play; and "is he caught?" (PDD_OPT_EXIT_LOOKAHEAD's
    question), either answer, with him on lead or not."""
    rng = random.Random(f"every-trick-{contract}")
    solver = Solver(table_mib=1)
    answers, caught = set(), set()
    for i in range(160):
        size = 5 if i % 8 == 0 else rng.randint(2, 4)
        position = declarer_heavy_endgame(rng, size, contract)
        value = brute_value(position)
        every = value == size
        assert solver.probe(position, size) == every, position
        assert solver.probe(position, 1) == (value >= 1), position
        answers.add((every, (position.declarer - position.leader) % 3))
        caught.add((value >= 1, position.leader == position.declarer))
    assert answers == {(every, place) for every in (True, False) for place in range(3)}
    assert caught == {(yes, on_lead) for yes in (True, False) for on_lead in (True, False)}


def defender_led_endgame(rng: random.Random, size: int, contract: str) -> Position:
    """A no-trump endgame at a trick start in two or three suits, the cards
    dealt at random or (every other one) the declarer often holding the
    higher ones, a defender on lead."""
    if rng.random() < 0.5:
        position = declarer_heavy_endgame(rng, size, contract)
        deal, declarer = Deal(tuple(position.hands)), position.declarer
    else:
        suits = rng.sample(range(4), rng.randint(2, 3))
        pool = rng.sample([s * 8 + r for s in suits for r in range(8)], 3 * size)
        deal = Deal(tuple(Hand.from_cards(Card.from_index(c) for c in pool[k * size:(k + 1) * size])
                          for k in range(3)))
        declarer = rng.randrange(3)
    return Position.start(deal, contract, declarer, (declarer + rng.randint(1, 2)) % 3)


def all_but_one_probe(solver: Solver, without: Solver, position: Position, size: int) -> tuple[bool, bool]:
    """The probe "all tricks left but one?" by both solvers, checked against
    the brute force and each other: the answer, and whether `solver` settled
    the root alone (one node, where `without` needs more)."""
    value = brute_value(position)
    solver.reset_stats()
    without.reset_stats()
    answer = solver.probe(position, size - 1)
    assert answer == (value >= size - 1), position
    assert without.probe(position, size - 1) == answer, position
    return answer, solver.stats().nodes == 1 < without.stats().nodes


@pytest.mark.parametrize("contract", ["misere", "allpass"])
def test_all_but_one_test_against_brute_force(contract: str) -> None:
    """Misère and all-pass endgames at a trick start, a defender on lead: the
    probe "does the declarer take all tricks left but one?", which
    PDD_OPT_ALL_BUT_ONE's escape test answers "no" at the root when it
    proves it (four tricks left or more), against the brute force and the
    search without the test; either answer, the declarer second and third
    to play, and the test settling the root (one node, where the search
    without it needs more) in both places."""
    rng = random.Random(f"all-but-one-{contract}")
    solver, without = Solver(table_mib=1), Solver(table_mib=1)
    without.set_options(OPT_ALL & ~lib.PDD_OPT_ALL_BUT_ONE)
    answers, settled = set(), set()
    for i in range(120):
        size = 5 if i % 4 == 0 else 4
        position = defender_led_endgame(rng, size, contract)
        place = (position.declarer - position.leader) % 3
        answer, alone = all_but_one_probe(solver, without, position, size)
        answers.add((answer, place))
        if alone:
            settled.add(place)
    assert answers == {(answer, place) for answer in (True, False) for place in (1, 2)}
    assert settled == {1, 2}


@pytest.mark.parametrize("contract", ["misere", "allpass"])
def test_exit_escape_against_brute_force(contract: str) -> None:
    """PDD_OPT_EXIT_ESCAPE: the escape test of "all but one?" looking one
    trick further where the declarer wins the first trick (a sure exit
    after it), and with the declarer on lead (a sure exit at once), against
    the brute force and the search without it; both answers on both sides,
    and the look settling roots the search without it does not."""
    rng = random.Random(f"exit-escape-{contract}")
    solver, without = Solver(table_mib=1), Solver(table_mib=1)
    without.set_options(OPT_ALL & ~lib.PDD_OPT_EXIT_ESCAPE)
    answers, settled = set(), set()
    for i in range(300):
        size = 5 if i % 3 == 0 else 4
        position = defender_led_endgame(rng, size, contract)
        if i % 2:
            position = Position.start(Deal(tuple(position.hands)), contract, position.declarer, position.declarer)
        on_lead = position.leader == position.declarer
        answer, alone = all_but_one_probe(solver, without, position, size)
        answers.add((answer, on_lead))
        if alone:
            settled.add(on_lead)
    assert answers == {(answer, on_lead) for answer in (True, False) for on_lead in (True, False)}
    assert settled == {True, False}


# Positions where a sure exit after a first trick the declarer wins is won
# by a card the partner kept: trying only his highest card of a class there
# once claimed an escape that the defenders beat.
EXIT_AFTER_PARTNER_CARDS = [
    (("T9.87..", "A7...AK", "J8...87"), 1, 0),
    (("T8.87..", "J9...87", "A7...AK"), 2, 0),
    (("J.KT.QJT.", "QT8.A9.9.", "A7.J87.8."), 1, 1),
    ((".AT9.T8.9", ".K87.97.8", ".QJ.A.KJT"), 0, 1),
]


@pytest.mark.parametrize("contract", ["misere", "allpass"])
@pytest.mark.parametrize("hands, declarer, leader", EXIT_AFTER_PARTNER_CARDS)
def test_exit_escape_tries_the_partners_lower_cards(contract: str, hands: tuple[str, ...], declarer: int,
                                                    leader: int) -> None:
    position = Position.start(Deal(tuple(Hand.parse(text) for text in hands)), contract, declarer, leader)
    exact = brute_value(position)
    solver = Solver(table_mib=1)
    assert solver.solve(position) == exact
    for target in range(1, len(position.hands[0]) + 1):
        assert solver.probe(position, target) == (exact >= target)
