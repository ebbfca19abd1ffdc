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
