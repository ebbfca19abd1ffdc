"""The enumeration's layout order, measured: ``prefdd enumerate``'s work
(:func:`enumerate_splits`, one worker) as it is (the warm order, chunks of up
to 8,192, one C call per 256 splits, the enumeration's table policy) against
the same code over the cards suit by suit in chunks of 2,048 with one C call
per split and the default table policy, alternating rounds in one process,
on the easy hand and the searching hands (sets.py).

    .venv/bin/python benchmarks/enumeration_order.py             # 2 rounds each
    .venv/bin/python benchmarks/enumeration_order.py --rounds 3 --nodes

Per hand and order: seconds per enumeration, microseconds per split and,
with ``--nodes``, the search's nodes over every split in that order on one
64 MiB solver with that order's table policy (the same on every machine). Both orders must give the same
counts; the script stops if they do not.
"""
from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sets import EASY_ENUMERATION, searching_hands  # noqa: E402
from solver import Hand, Solver  # noqa: E402
from solver.advice import RunOptions, enumerate_splits, enumeration_request  # noqa: E402
from solver.advice import enumeration, layouts, parallel  # noqa: E402
from solver.advice.enumeration import ENUMERATION_TABLE_MIB, _template  # noqa: E402
from solver.engine import DEFAULT_PART_WAYS, StartSolver  # noqa: E402

WARM_ORDER = layouts.warm_order


def suit_by_suit(mask: int, misere: bool = False) -> list[int]:
    """The cards suit by suit, spades first, high to low (the last changes
    least), for every contract."""
    return [card.index for card in Hand(mask).cards()]


def one_call_a_split(space, evaluate, options, masks):
    """run_layouts with the evaluator's batch left out."""
    return parallel.run_layouts(space, lambda layout, solver: evaluate(layout, solver), options, masks=masks)


@contextmanager
def order(name: str):
    """Enumerate in ``name`` order ("warm" or "suit") while inside."""
    saved = (layouts.warm_order, parallel.MAX_CHUNK, enumeration.run_layouts, enumeration.ENUMERATION_TABLE_POLICY,
             enumeration.ENUMERATION_PARTITION_ONLY)
    if name == "suit":
        layouts.warm_order, parallel.MAX_CHUNK, enumeration.run_layouts = suit_by_suit, 2048, one_call_a_split
        enumeration.ENUMERATION_TABLE_POLICY = (DEFAULT_PART_WAYS, 1)
        enumeration.ENUMERATION_PARTITION_ONLY = False
    try:
        yield
    finally:
        (layouts.warm_order, parallel.MAX_CHUNK, enumeration.run_layouts, enumeration.ENUMERATION_TABLE_POLICY,
         enumeration.ENUMERATION_PARTITION_ONLY) = saved


def nodes(request) -> int:
    size = len(request.hand)
    space = layouts.LayoutSpace(request.defenders, (size, size), (Hand(0), Hand(0)))
    solver = Solver(ENUMERATION_TABLE_MIB)
    enumeration.set_enumeration_table(solver, request.kinds)
    start = StartSolver(solver, _template(request, request.kinds[0], size),
                        ((request.declarer + 1) % 3, (request.declarer + 2) % 3))
    for first, second in space.enumerate_masks():
        start.solve(first, second)
    return solver.stats().nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--nodes", action="store_true", help="also count the nodes in each order")
    parser.add_argument("--searching", type=int, default=2, help="how many searching hands")
    args = parser.parse_args()
    hands = [("easy", EASY_ENUMERATION)] + [(f"searching {i}", hand)
                                            for i, hand in enumerate(searching_hands(args.searching))]
    for label, (cards, discard, contract) in hands:
        request = enumeration_request(cards, 0, contract, discard=discard)
        times: dict[str, list[float]] = {"suit": [], "warm": []}
        answers = {}
        for _ in range(args.rounds):
            for name in ("suit", "warm"):
                with order(name):
                    start = time.perf_counter()
                    result = enumerate_splits(request, RunOptions(workers=1))
                    times[name].append(time.perf_counter() - start)
                answers[name] = [(c.counts, c.value.exact) for c in result.contracts]
        if answers["suit"] != answers["warm"]:
            print(f"{label}: the two orders disagree", file=sys.stderr)
            return 1
        print(f"{label}: prefdd enumerate {cards} --discard {discard} --contract {contract} --declarer 0 "
              f"--workers 1")
        for name, seconds in times.items():
            best = min(seconds)
            line = (f"  {name:<5} {best:7.2f} s (rounds {', '.join(f'{s:.2f}' for s in seconds)})  "
                    f"{best / result.splits * 1e6:6.1f} us a split")
            if args.nodes:
                with order(name):
                    line += f"  nodes {nodes(request):,}"
            print(line, flush=True)
        print(f"  warm / suit: {min(times['suit']) / min(times['warm']):.2f}x faster", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
