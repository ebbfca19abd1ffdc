"""Tune the lead-ordering weights (csrc/order.c) on a fixed corpus.

Coordinate descent on the search's node count: each weight in turn is moved
by a few steps, and a move is kept when the total nodes over the corpus fall
by more than 0.2 %. The corpus is seeded random full deals (seed 777, apart
from the benchmark sets' seed 2026, so that the benchmarks measure positions
the weights were not tuned on). Trick-contract weights are tuned on trump and
no-trump deals, misère weights on misère deals. Node counts do not depend on
the machine's load, so a run is reproducible.

    .venv/bin/python benchmarks/tune_ordering.py tricks   # or: misere
    .venv/bin/python benchmarks/tune_ordering.py misere --deals 80 --rounds 4

Prints each improvement and the final weights; paste them into
``default_weights`` in csrc/order.c (and record the node counts in
benchmarks/README.md). Weights never change a value, only the speed
(tests/test_order_weights.py checks that).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deals import random_positions  # noqa: E402
from solver import Position, Solver  # noqa: E402

TUNING_SEED = 777
HISTORY_SHIFTS = (6, 19)
# Indices into the weights (csrc/order.c, enum W_*): trick-contract leads,
# misere leads.
GROUPS = {
    "tricks": ([*range(0, 10), 20, 28], ("trump", "nt")),
    "misere": ([*range(10, 20), 21, 22, 23, 24, 25, 26, 27], ("misere",)),
}


def corpus_nodes(positions: list[Position], weights: list[int]) -> int:
    solver = Solver()
    solver.set_order_weights(weights)
    for position in positions:
        solver.solve(position)
    return solver.stats().nodes


def candidates(index: int, value: int) -> list[int]:
    if index in HISTORY_SHIFTS:
        return [v for v in (value - 1, value + 1) if 0 <= v <= 16]
    step = max(1, abs(value) // 3) if value else 5
    return [value - step, value + step, value - 3 * step, value + 3 * step, 0, -value]


def tune(group: str, deals: int, rounds: int) -> list[int]:
    indices, kinds = GROUPS[group]
    positions = [p for kind in kinds for p in random_positions(deals, kind, seed=TUNING_SEED)]
    weights = list(Solver().order_weights)
    best = corpus_nodes(positions, weights)
    print(f"start: {best} nodes over {len(positions)} positions", flush=True)
    for round_number in range(rounds):
        improved = False
        for index in indices:
            for value in candidates(index, weights[index]):
                if value == weights[index]:
                    continue
                trial = weights[:index] + [value] + weights[index + 1:]
                nodes = corpus_nodes(positions, trial)
                if nodes < best * 0.998:
                    best, weights, improved = nodes, trial, True
                    print(f"round {round_number}: weight {index} -> {value}: {best} nodes", flush=True)
        if not improved:
            break
    print("weights:", ", ".join(map(str, weights)))
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("group", choices=sorted(GROUPS))
    parser.add_argument("--deals", type=int, default=None,
                        help="deals per contract kind (default: 200 for tricks, 80 for misere)")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    deals = args.deals or (200 if args.group == "tricks" else 80)
    tune(args.group, deals, args.rounds)


if __name__ == "__main__":
    main()
