"""The whist advice's best-discard searches, recorded and replayed: nodes,
probes and CPU time of the C calls alone.

The benchmark's two whist cases (test_bench_advice.py: the second defender
after a pass, value only; the first defender, the canonical best discard)
are run once per seed, and every ``StartDiscards.best_discard`` call of the
run is recorded with the solver (worker thread) that made it. The calls are
then replayed in one process, each worker's calls in order on a fresh
16 MiB solver, as ``pdd_best_discard_floor`` with the recorded mode and
floor; the CPU time is that of the C calls only. Every replayed answer
must equal the recorded one in its value and its canonical discard, or,
below the floor, in being below it. With two workers a run searches a few layouts
more or less (those in flight when the 1,000th is kept), so its nodes vary
by a few thousand; with ``--workers 1`` they are the same from run to run
(a build's signature for this workload).

    .venv/bin/python benchmarks/whist_discards.py            # seeds 1-3
    .venv/bin/python benchmarks/whist_discards.py --seeds 1 --no-floor

``--no-floor`` replays with floor 0 (every value exact; the values of the
layouts below the recorded floor are then not checked).
"""
from __future__ import annotations

import argparse
import threading
import time
from dataclasses import dataclass

from solver.advice import RunOptions, advise_whist, whist_request
from solver.engine import _PACKED, Solver, StartDiscards, _check, ffi, lib

HAND, TALON, CONTRACT = "JT98.JT.98.A9", "..J.K", "6c"
CASES = {"second defender": dict(seat=0, other_decision="pass"),
         "first defender": dict(seat=2, other_decision=None)}


@dataclass(frozen=True)
class Call:
    solver: int
    fields: tuple[int, ...]
    pool: int
    canonical: bool
    floor: int
    value: int
    discards: tuple[int, ...]


def record(case: str, seed: int, workers: int) -> list[Call]:
    """The best-discard calls of one advice (1,000 layouts)."""
    calls: list[Call] = []
    lock = threading.Lock()
    original = StartDiscards.best_discard

    def recorded(self, solver, hands, pool, canonical, floor=0):
        answer = original(self, solver, hands, pool, canonical, floor)
        masks = list(hands)
        masks[self.declarer] = 0
        with lock:
            calls.append(Call(id(solver), self._at(masks), pool, canonical, floor, answer[0], tuple(answer[1])))
        return answer

    settings = CASES[case]
    request = whist_request(HAND, TALON, CONTRACT, 1, settings["seat"], other_decision=settings["other_decision"])
    StartDiscards.best_discard = recorded   # type: ignore[method-assign]
    try:
        advise_whist(request, RunOptions(layouts=1000, seed=seed, workers=workers))
    finally:
        StartDiscards.best_discard = original   # type: ignore[method-assign]
    return calls


def replay(calls: list[Call], use_floor: bool) -> tuple[int, int, float]:
    """Nodes, probes and CPU seconds of the calls on fresh solvers."""
    solvers: dict[int, Solver] = {}
    position = ffi.new("pdd_position *")
    result, stats = ffi.new("pdd_discard_result *"), ffi.new("pdd_stats *")
    nodes = probes = 0
    cpu = 0.0
    for call in calls:
        solver = solvers.setdefault(call.solver, Solver(16))
        handle = solver._handle
        _PACKED.pack_into(ffi.buffer(position), 0, *call.fields)
        mode = lib.PDD_DISCARD_CANONICAL if call.canonical else lib.PDD_DISCARD_VALUE
        floor = call.floor if use_floor else 0
        lib.pdd_reset_stats(handle)
        start = time.process_time()
        _check(lib.pdd_best_discard_floor(handle, position, call.pool, mode, floor, result))
        cpu += time.process_time() - start
        lib.pdd_get_stats(handle, stats)
        nodes, probes = nodes + stats.nodes, probes + stats.probes
        answer = (result.value, tuple(ffi.unpack(result.discards, result.count)))
        below = call.value < call.floor
        if below and use_floor:
            assert answer[0] < call.floor and not answer[1], call
        elif not below:
            assert answer[0] == call.value and (not call.canonical or answer[1] == call.discards), call
    return nodes, probes, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--workers", type=int, default=2, help="the advice's workers (1: the same nodes each run)")
    parser.add_argument("--no-floor", action="store_true", help="replay with floor 0")
    args = parser.parse_args()
    for case in CASES:
        for seed in args.seeds:
            calls = record(case, seed, args.workers)
            nodes, probes, cpu = replay(calls, not args.no_floor)
            print(f"{case:16s} seed {seed}  searches {len(calls):5d}  nodes {nodes:10,d}  "
                  f"probes/search {probes / len(calls):5.1f}  C cpu {cpu * 1e3:7.1f} ms", flush=True)


if __name__ == "__main__":
    main()
