"""Whole-deal analysis speed (issue 4), one thread, seeded random full deals.

* the deal's table with best discards: every seat as declarer, 5 strains and
  misère, one best discard each (18 best-discard searches per deal);
* one best-discard search listing every best discard, trick contracts and
  misère apart;
* the all-pass per-player value (paranoid), talon leads on;
* the all-pass max^n line (outcome and line), talon leads on.

Each round is one deal (or one deal and player) never seen before by the
reused Solver, so the mean is per deal. Targets: table ≤ 50 ms, all-pass value
≤ 5 ms. The max^n line has no target; it took seconds on some deals until its
memo got a hash of the whole key (see README.md).
"""
from __future__ import annotations

import random

from deals import random_deal
from harness import run_rounds
from solver import Contract, ContractKind, Deal, Position, Solver
from solver.analysis import allpass_line, best_discard, discard_table

TABLE_DEALS = 40
DISCARD_DEALS = 60
ALLPASS_DEALS = 300
LINE_DEALS = 100


def deals(count: int, seed: str) -> list[Deal]:
    rng = random.Random(seed)
    return [random_deal(rng) for _ in range(count)]


def test_deal_table_with_best_discards(benchmark) -> None:
    run_rounds(benchmark, Solver(), deals(TABLE_DEALS, "analysis-table"),
               lambda solver, deal: discard_table(deal, solver=solver))


def discard_jobs(kind: str) -> list[tuple[Deal, int, Contract]]:
    rng = random.Random(f"analysis-discard-{kind}")
    jobs = []
    for deal in deals(DISCARD_DEALS, f"analysis-discard-deals-{kind}"):
        contract = (Contract(ContractKind.MISERE) if kind == "misere"
                    else Contract(ContractKind.TRICKS, 6, rng.randrange(5)))
        jobs.append((deal, rng.randrange(3), contract))
    return jobs


def test_best_discard_all_tricks(benchmark) -> None:
    run_rounds(benchmark, Solver(), discard_jobs("tricks"),
               lambda solver, job: best_discard(job[0], job[1], job[2], solver=solver))


def test_best_discard_all_misere(benchmark) -> None:
    run_rounds(benchmark, Solver(), discard_jobs("misere"),
               lambda solver, job: best_discard(job[0], job[1], job[2], solver=solver))


def test_allpass_player_value(benchmark) -> None:
    rng = random.Random("analysis-allpass")
    jobs = [Position.start(deal, "allpass", rng.randrange(3), 0)
            for deal in deals(ALLPASS_DEALS, "analysis-allpass-deals")]
    run_rounds(benchmark, Solver(), jobs, lambda solver, position: solver.solve(position))


def test_allpass_maxn_line(benchmark) -> None:
    run_rounds(benchmark, Solver(), deals(LINE_DEALS, "analysis-allpass-line"),
               lambda solver, deal: allpass_line(deal, solver=solver))
