"""The optimised search against simpler searches built from the same code.

Plain alpha-beta (every enhancement off) is far too slow for full deals, so it
is compared on 7-card endgames; on full deals the reference is the search with
the transposition table alone (it stores only proven bounds; its exactness is
checked against the brute force in test_brute_force.py)."""
from __future__ import annotations

import random

import pytest

from solver import Card, Contract, ContractKind, Deal, Hand, Position, Solver
from solver.engine import OPT_ALL, OPT_NONE
from solver._core import lib

OBJECTIVES = ["trump", "nt", "misere"]


def deal_of(rng: random.Random, size: int) -> Deal:
    cards = rng.sample(range(32), 3 * size)
    return Deal(tuple(Hand.from_cards(Card.from_index(c) for c in cards[k * size:(k + 1) * size])
                      for k in range(3)))


def position(rng: random.Random, size: int, objective: str) -> Position:
    if objective == "misere":
        contract = Contract(ContractKind.MISERE)
    else:
        contract = Contract(ContractKind.TRICKS, 6, 4 if objective == "nt" else rng.randrange(4))
    return Position.start(deal_of(rng, size), contract, rng.randrange(3), rng.randrange(3))


def solver_with(options: int) -> Solver:
    solver = Solver(table_mib=8)
    solver.set_options(options)
    return solver


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_full_deals_against_table_only_search(objective: str) -> None:
    rng = random.Random(f"full-{objective}")
    optimised, reference = solver_with(OPT_ALL), solver_with(lib.PDD_OPT_TT)
    for _ in range(100):
        p = position(rng, 10, objective)
        assert optimised.solve(p) == reference.solve(p), p


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_endgames_against_plain_alpha_beta(objective: str) -> None:
    rng = random.Random(f"plain-{objective}")
    optimised, plain = solver_with(OPT_ALL), solver_with(OPT_NONE)
    for _ in range(60):
        p = position(rng, 7, objective)
        assert optimised.solve(p) == plain.solve(p), p


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_first_lead_values_on_full_deals(objective: str) -> None:
    rng = random.Random(f"cards-{objective}")
    optimised, reference = solver_with(OPT_ALL), solver_with(lib.PDD_OPT_TT)
    for _ in range(15):
        p = position(rng, 10, objective)
        assert optimised.card_values(p) == reference.card_values(p), p


@pytest.mark.parametrize("objective", ["trump", "nt"])
def test_partition_entries_against_exact_entries(objective: str) -> None:
    """Partition search (entries covering positions that differ in small
    cards) against the same search with exact entries only, on full deals and
    mid-size endgames, values and every first card's value."""
    rng = random.Random(f"partition-{objective}")
    partition = solver_with(OPT_ALL)
    exact = solver_with(OPT_ALL & ~lib.PDD_OPT_PARTITION)
    for size in (10, 8, 6):
        for _ in range(50):
            p = position(rng, size, objective)
            assert partition.solve(p) == exact.solve(p), p
            assert partition.card_values(p) == exact.card_values(p), p


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_sure_trick_bounds_against_search_without_them(objective: str) -> None:
    """The bounds at trick starts (sure tricks: runs and long cards, the
    declarer regaining the lead, drawing trumps; misère's bounds) against the
    same search with them off, from full deals down to small endgames, where
    they settle most nodes."""
    rng = random.Random(f"quick-{objective}")
    bounded = solver_with(OPT_ALL)
    unbounded = solver_with(OPT_ALL & ~lib.PDD_OPT_QUICK)
    for size in (10, 8, 6, 4):
        for _ in range(40):
            p = position(rng, size, objective)
            assert bounded.solve(p) == unbounded.solve(p), p
        p = position(rng, size, objective)
        assert bounded.card_values(p) == unbounded.card_values(p), p


@pytest.mark.parametrize("contract", ["misere", "allpass"])
@pytest.mark.parametrize("option", ["EVERY_TRICK", "EXIT_LOOKAHEAD", "ALL_BUT_ONE", "EXIT_ESCAPE"])
def test_misere_tests_against_search_without_them(contract: str, option: str) -> None:
    """The exact "every trick left?" test and the look past the declarer's
    exits at misère and all-pass trick starts, each against the same search
    with it off: values, every first card's value, and the probe at each
    target, from full deals down to small endgames."""
    rng = random.Random(f"every-trick-{contract}-{option}")
    tested, untested = solver_with(OPT_ALL), solver_with(OPT_ALL & ~getattr(lib, f"PDD_OPT_{option}"))
    for size in (10, 8, 6, 4, 3):
        for _ in range(40):
            p = Position.start(deal_of(rng, size), contract, rng.randrange(3), rng.randrange(3))
            assert tested.solve(p) == untested.solve(p), p
            target = rng.randint(1, size)
            assert tested.probe(p, target) == untested.probe(p, target), (p, target)
        assert tested.card_values(p) == untested.card_values(p), p


def renamed(deal: Deal, suits: list[int]) -> Deal:
    """The deal with suit s renamed suits[s] (ranks kept)."""
    def rename(hand: Hand) -> Hand:
        return Hand.from_cards(Card.from_index(suits[c.index // 8] * 8 + c.index % 8) for c in hand)
    return Deal(tuple(rename(hand) for hand in deal.hands))


@pytest.mark.parametrize("contract", ["misere", "allpass"])
def test_renamed_suits_share_table_entries(contract: str) -> None:
    """Misère and all-pass keys list the suits in a canonical order, so a
    deal and its copy with the suits renamed share every table entry (and
    its best card, kept by the key's suit slots). One solver solves both in
    turn; the values must agree with each other, with a fresh table-only
    search, and card by card under the renaming."""
    rng = random.Random(f"renamed-{contract}")
    shared, reference = solver_with(OPT_ALL), solver_with(lib.PDD_OPT_TT)
    for size in (10, 7):
        for _ in range(20):
            deal = deal_of(rng, size)
            suits = rng.sample(range(4), 4)
            seat, leader = rng.randrange(3), rng.randrange(3)
            p = Position.start(deal, contract, seat, leader)
            q = Position.start(renamed(deal, suits), contract, seat, leader)
            value = reference.solve(p)
            assert shared.solve(p) == value, p
            assert shared.solve(q) == value, q
            values_p, values_q = shared.card_values(p), shared.card_values(q)
            assert {Card.from_index(suits[c.index // 8] * 8 + c.index % 8): v
                    for c, v in values_p.items()} == values_q, q


def test_renamed_misere_deal_is_found_in_the_table() -> None:
    """After a misère deal is solved, its renamed copy is answered from the
    table (the whole deal's value is stored under the shared key): far fewer
    nodes than the copy takes in a fresh solver."""
    rng = random.Random("renamed-nodes")
    for _ in range(10):
        deal = deal_of(rng, 10)
        suits = rng.sample([0, 1, 2, 3], 4)
        while suits == [0, 1, 2, 3]:
            suits = rng.sample([0, 1, 2, 3], 4)
        p = Position.start(deal, "misere", 1, 0)
        q = Position.start(renamed(deal, suits), "misere", 1, 0)
        warm, cold = solver_with(OPT_ALL), solver_with(OPT_ALL)
        warm.solve(p)
        warm.reset_stats()
        assert warm.solve(q) == cold.solve(q)
        assert warm.stats().nodes * 10 < cold.stats().nodes, (warm.stats(), cold.stats())
