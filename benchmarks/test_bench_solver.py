"""Solver speed: per-solve time on fixed, seeded sets of full deals.

Each benchmark round solves the next position of its set with one reused
Solver (harness.py), so the statistics are per solve. The baseline (plain alpha-beta, every enhancement off) is far too
slow for full deals, so the ratio against it is taken on 8-card endgames.

    make bench
"""
from __future__ import annotations

import random

import pytest

from deals import random_positions, realistic_positions
from harness import run_rounds
from solver import Card, Deal, Hand, Position, Solver
from solver.engine import OPT_ALL, OPT_NONE
from solver._core import lib

DEALS = 1000
KINDS = ["trump", "nt", "misere"]


def solve(solver: Solver, position: Position) -> int:
    return solver.solve(position)


def misere_caught(solver: Solver, position: Position) -> bool:
    return solver.probe(position, 1)


@pytest.mark.parametrize("kind", KINDS)
def test_random_deals(benchmark, kind: str) -> None:
    run_rounds(benchmark, Solver(), random_positions(DEALS, kind), solve)


def test_random_misere_caught_probe(benchmark) -> None:
    run_rounds(benchmark, Solver(), random_positions(DEALS, "misere"), misere_caught)


@pytest.mark.parametrize("kind", KINDS)
def test_realistic_deals(benchmark, kind: str) -> None:
    positions = realistic_positions(200, kind)
    run_rounds(benchmark, Solver(), positions, solve)


def test_first_lead_card_values(benchmark) -> None:
    run_rounds(benchmark, Solver(), random_positions(300, "trump"), lambda s, p: s.card_values(p))


def test_fixed_hands_table(benchmark) -> None:
    """3 declarers x 5 strains + 3 misères, the hands as dealt, seat 0 leads."""
    from solver import deal_table
    from deals import random_deal
    rng = random.Random(99)
    deals = [Deal(random_deal(rng).hands) for _ in range(100)]
    positions = [Position.start(d, "6s", 0) for d in deals]   # carries the deal
    run_rounds(benchmark, Solver(), positions,
            lambda s, p: deal_table(Deal(p.hands), solver=s))


@pytest.mark.parametrize("options", [lib.PDD_OPT_TT, OPT_ALL], ids=["table-only", "optimised"])
@pytest.mark.parametrize("kind", KINDS)
def test_full_deals_against_table_only(benchmark, kind: str, options: int) -> None:
    """The ratio on full deals, against the search with only the table on
    (plain alpha-beta needs tens of seconds per full deal)."""
    solver = Solver()
    solver.set_options(options)
    run_rounds(benchmark, solver, random_positions(100, kind, seed=5), solve)


def endgames(count: int, size: int, seed: int = 77) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for i in range(count):
        cards = rng.sample(range(32), 3 * size)
        hands = tuple(Hand.from_cards(Card.from_index(c) for c in cards[k * size:(k + 1) * size])
                      for k in range(3))
        contract = ["6s", "6nt", "misere"][i % 3]
        positions.append(Position.start(Deal(hands), contract, rng.randrange(3), 0))
    return positions


@pytest.mark.parametrize("options", [OPT_NONE, OPT_ALL], ids=["baseline", "optimised"])
def test_endgames_against_baseline(benchmark, options: int) -> None:
    solver = Solver(table_mib=16)
    solver.set_options(options)
    run_rounds(benchmark, solver, endgames(30, 8), solve)
