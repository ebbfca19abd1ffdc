"""Whole-deal analysis speed, one thread, seeded random full deals (sets.py).

* the deal's table with best discards: every seat as declarer, 5 strains and
  misère, one best discard each (18 best-discard searches per deal);
* one best-discard search listing every best discard, trick contracts and
  misère apart;
* the all-pass per-player value (paranoid), talon leads on;
* the all-pass max^n line (outcome and line), talon leads on.

Each round is one deal (or one deal and player) never seen before by the
reused Solver, so the mean is per deal. Targets: table ≤ 50 ms, all-pass value
≤ 5 ms. The max^n line has no target; its memo hashes the whole key, without
which some deals took seconds (README.md, "Decisions that shaped the search").
"""
from __future__ import annotations

from harness import run_set
from sets import SETS


def test_deal_table_with_best_discards(benchmark) -> None:
    run_set(benchmark, SETS["deal's table with best discards"])


def test_best_discard_all_tricks(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, tricks"])


def test_best_discard_all_misere(benchmark) -> None:
    run_set(benchmark, SETS["best discard, all, misere"])


def test_allpass_player_value(benchmark) -> None:
    run_set(benchmark, SETS["all-pass player value"])


def test_allpass_maxn_line(benchmark) -> None:
    run_set(benchmark, SETS["all-pass max^n line"])
