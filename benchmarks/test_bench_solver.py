"""Solver speed: per-solve time on fixed, seeded sets of full deals (sets.py).

Each benchmark round solves the next position of its set with one reused
Solver (harness.py), so the statistics are per solve. The baseline (plain
alpha-beta, every enhancement off) is far too slow for full deals, so the
ratio against it is taken on 8-card endgames; on full deals the reference is
the search with only the transposition table on.

    make bench
"""
from __future__ import annotations

import pytest

from harness import run_set
from sets import KINDS, SETS


@pytest.mark.parametrize("kind", KINDS)
def test_random_deals(benchmark, kind: str) -> None:
    run_set(benchmark, SETS[f"random {kind}"])


def test_random_misere_caught_probe(benchmark) -> None:
    run_set(benchmark, SETS["random misere caught (probe 1)"])


@pytest.mark.parametrize("kind", KINDS)
def test_realistic_deals(benchmark, kind: str) -> None:
    run_set(benchmark, SETS[f"realistic {kind}"])


def test_first_lead_card_values(benchmark) -> None:
    run_set(benchmark, SETS["first-lead card values"])


def test_fixed_hands_table(benchmark) -> None:
    """3 declarers x 5 strains + 3 misères, the hands as dealt, seat 0 leads."""
    run_set(benchmark, SETS["fixed-hands table"])


@pytest.mark.parametrize("options", ["table-only", "optimised"])
@pytest.mark.parametrize("kind", KINDS)
def test_full_deals_against_table_only(benchmark, kind: str, options: str) -> None:
    """The ratio on full deals, against the search with only the table on
    (plain alpha-beta needs tens of seconds per full deal)."""
    run_set(benchmark, SETS[f"full deals {kind} {options}"])


@pytest.mark.parametrize("options", ["baseline", "optimised"])
def test_endgames_against_baseline(benchmark, options: str) -> None:
    run_set(benchmark, SETS[f"8-card endgames {options}"])
