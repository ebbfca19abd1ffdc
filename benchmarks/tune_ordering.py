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

Prints each improvement and the final weights; put them into the rows of
``LEAD_WEIGHT_ROWS`` in csrc/order.c (whose groups and ranges this script
reads through ``pdd_order_weight_info``), and check the change with
``make nodes``. Weights never change a value, only the speed
(tests/test_order_weights.py checks that).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deals import random_positions  # noqa: E402
from solver import Position, Solver  # noqa: E402
from solver._core import ffi, lib  # noqa: E402

TUNING_SEED = 777
KINDS = {"tricks": ("trump", "nt"), "misere": ("misere",)}


def weight_table() -> list[tuple[str, int, int, str]]:
    """order.c's rows through the C API: (name, min, max, group) per index."""
    info = ffi.new("pdd_weight_info *")
    rows = []
    for index in range(lib.PDD_ORDER_WEIGHTS):
        assert lib.pdd_order_weight_info(index, info) == lib.PDD_OK
        rows.append((ffi.string(info.name).decode(), info.min, info.max,
                     ffi.string(info.group).decode().lower()))
    return rows


TABLE = weight_table()
# The weights each group tunes (indices into the table) and the deals it tunes on.
GROUPS = {group: ([k for k, row in enumerate(TABLE) if row[3] == group], kinds)
          for group, kinds in KINDS.items()}


def corpus_nodes(positions: list[Position], weights: list[int]) -> int:
    solver = Solver()
    solver.set_order_weights(weights)
    for position in positions:
        solver.solve(position)
    return solver.stats().nodes


def candidates(index: int, value: int) -> list[int]:
    """Values to try: a weight of a narrow range (a history shift) moves by
    one, the others by about a third of their size, once and three times."""
    _, low, high, _ = TABLE[index]
    if high - low <= 16:
        steps = [value - 1, value + 1]
    else:
        step = max(1, abs(value) // 3) if value else 5
        steps = [value - step, value + step, value - 3 * step, value + 3 * step, 0, -value]
    return [v for v in steps if low <= v <= high]


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
                    print(f"round {round_number}: {TABLE[index][0]} -> {value}: {best} nodes", flush=True)
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
