"""The whist advice's best-discard searches, recorded and replayed: nodes,
probes and CPU time of the C calls alone.

The benchmark's two whist cases (test_bench_advice.py: the second defender
after a pass, value only; the first defender, the canonical best discard)
are run once per seed, and every ``StartDiscards.best_discard`` call of the
run's layouts (the lean path's ``StartDiscards.best_discards_lines`` runs)
is recorded with the solver (worker thread) that made it. The calls are
then replayed in one process, each worker's calls in order on a fresh
16 MiB solver, as ``pdd_best_discard_floor`` with the recorded mode and
floor (and with ``--lines`` the first defender's ``pdd_line_tricks`` after
it, as ``pdd_best_discard_lines`` does, but for the table's generations:
there a run's layouts share them); the CPU time is that of the C calls
only. ``--runs`` also replays each recorded run whole as the lean path
makes it, one ``pdd_best_discard_lines`` call (searches and lines
together, its nodes and CPU). Every replayed value must equal the recorded one, or, below
the floor, be below it, and every line's tricks the recorded ones; the
canonical discards found are printed as a digest, to compare builds. With two workers a run searches a few layouts
more or less (those in flight when the 1,000th is kept), so its nodes vary
by a few thousand; with ``--workers 1`` they are the same from run to run
(a build's signature for this workload).

    .venv/bin/python benchmarks/whist_discards.py            # seeds 1-3
    .venv/bin/python benchmarks/whist_discards.py --seeds 1 --no-floor
    .venv/bin/python benchmarks/whist_discards.py --workers 1 --lines
    .venv/bin/python benchmarks/whist_discards.py --workers 1 --lines --runs

``--no-floor`` replays with floor 0 (every value exact; the values of the
layouts below the recorded floor are then not checked).
"""
from __future__ import annotations

import argparse
import hashlib
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
    line: bool
    value: int
    tricks: tuple[int, int, int] | None
    run: int = 0      # which run of ``best_discards_lines`` it was searched in


def record(case: str, seed: int, workers: int) -> list[Call]:
    """The best-discard searches of one advice (1,000 layouts), one a
    layout: the lean path's runs (``StartDiscards.best_discards_lines``)
    split into their layouts, in order."""
    calls: list[Call] = []
    lock = threading.Lock()
    original = StartDiscards.best_discards_lines

    runs = [0]

    def recorded(self, solver, layouts, canonical, floor, line):
        answers = original(self, solver, layouts, canonical, floor, line)
        with lock:
            runs[0] += 1
            for hands, (value, tricks) in zip(layouts, answers):
                masks = list(hands)
                pool, masks[self.declarer] = masks[self.declarer], 0
                calls.append(Call(id(solver), self._at(masks), pool, canonical, floor, line, value, tricks, runs[0]))
        return answers

    settings = CASES[case]
    request = whist_request(HAND, TALON, CONTRACT, 1, settings["seat"], other_decision=settings["other_decision"])
    StartDiscards.best_discards_lines = recorded   # type: ignore[method-assign]
    try:
        advise_whist(request, RunOptions(layouts=1000, seed=seed, workers=workers))
    finally:
        StartDiscards.best_discards_lines = original   # type: ignore[method-assign]
    return calls


@dataclass
class Replayed:
    nodes: int = 0
    probes: int = 0
    cpu: float = 0.0
    line_nodes: int = 0
    line_cpu: float = 0.0
    digest: int = 0     # of the canonical discards found, in order: equal for equal answers


def replay(calls: list[Call], use_floor: bool, lines: bool) -> Replayed:
    """The calls on fresh solvers, one a worker, each layout as the three
    calls of ``pdd_best_discard_lines`` (the same nodes): its best discard,
    then with ``lines`` its line's tricks (checked against the record)."""
    solvers: dict[int, Solver] = {}
    position = ffi.new("pdd_position *")
    result, stats = ffi.new("pdd_discard_result *"), ffi.new("pdd_stats *")
    suit_to, tricks = ffi.new("int32_t[4]"), ffi.new("int32_t[3]")
    out = Replayed()
    digest = hashlib.sha256()
    for call in calls:
        solver = solvers.setdefault(call.solver, Solver(16))
        handle = solver._handle
        _PACKED.pack_into(ffi.buffer(position), 0, *call.fields)
        mode = lib.PDD_DISCARD_CANONICAL if call.canonical else lib.PDD_DISCARD_VALUE
        floor = call.floor if use_floor else 0
        lib.pdd_reset_stats(handle)
        start = time.process_time()
        _check(lib.pdd_best_discard_floor(handle, position, call.pool, mode, floor, result))
        out.cpu += time.process_time() - start
        lib.pdd_get_stats(handle, stats)
        out.nodes, out.probes = out.nodes + stats.nodes, out.probes + stats.probes
        discards = tuple(ffi.unpack(result.discards, result.count))
        below = call.value < call.floor
        if below and use_floor:
            assert result.value < call.floor and not discards, call
        elif not below:
            assert result.value == call.value, call
        if call.canonical and discards:
            digest.update(discards[0].to_bytes(4, "little"))
        if not (lines and call.line and discards and (use_floor or not below)):
            continue
        position.hands[position.declarer] = call.pool & ~discards[0]
        _check(lib.pdd_canonical_suits(position, suit_to))
        lib.pdd_reset_stats(handle)
        start = time.process_time()
        _check(lib.pdd_line_tricks(handle, position, max(-1, min(10, result.value)), suit_to, tricks))
        out.line_cpu += time.process_time() - start
        lib.pdd_get_stats(handle, stats)
        out.line_nodes += stats.nodes
        assert tuple(tricks) == call.tricks, call
    out.digest = int.from_bytes(digest.digest()[:4], "big")
    return out


def replay_runs(calls: list[Call]) -> Replayed:
    """The recorded runs as the lean path makes them: one
    ``pdd_best_discard_lines`` call a run, on fresh solvers, one a worker
    (the layouts of a run share table generations there). Values and
    tricks are checked as in :func:`replay`; nodes and CPU are those of
    the searches and lines together (no digest: the call answers no
    discard)."""
    solvers: dict[int, Solver] = {}
    position, stats = ffi.new("pdd_position *"), ffi.new("pdd_stats *")
    out = Replayed()
    start_index = 0
    while start_index < len(calls):
        end = start_index
        while end < len(calls) and calls[end].run == calls[start_index].run:
            end += 1
        run = calls[start_index:end]
        first = run[0]
        handle = solvers.setdefault(first.solver, Solver(16))._handle
        _PACKED.pack_into(ffi.buffer(position), 0, *first.fields)
        declarer = position.declarer
        masks = []
        for call in run:
            _PACKED.pack_into(ffi.buffer(position), 0, *call.fields)
            masks += [call.pool if seat == declarer else position.hands[seat] for seat in range(3)]
        hands, answers = ffi.new("uint32_t[]", masks), ffi.new("int32_t[]", 4 * len(run))
        mode = lib.PDD_DISCARD_CANONICAL if first.canonical else lib.PDD_DISCARD_VALUE
        lib.pdd_reset_stats(handle)
        begun = time.process_time()
        _check(lib.pdd_best_discard_lines(handle, position, hands, len(run), mode, first.floor, int(first.line),
                                          answers))
        out.cpu += time.process_time() - begun
        lib.pdd_get_stats(handle, stats)
        out.nodes, out.probes = out.nodes + stats.nodes, out.probes + stats.probes
        for k, call in enumerate(run):
            value, tricks = answers[4 * k], tuple(answers[4 * k + 1:4 * k + 4])
            if call.value < call.floor:
                assert value < call.floor and tricks == (-1, -1, -1), call
            else:
                assert value == call.value, call
                assert tricks == (call.tricks if call.line else (-1, -1, -1)), call
        start_index = end
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--workers", type=int, default=2, help="the advice's workers (1: the same nodes each run)")
    parser.add_argument("--no-floor", action="store_true", help="replay with floor 0")
    parser.add_argument("--lines", action="store_true", help="replay the first defender's lines too")
    parser.add_argument("--runs", action="store_true",
                        help="also replay the runs whole (pdd_best_discard_lines), as the lean path does")
    args = parser.parse_args()
    for case in CASES:
        for seed in args.seeds:
            calls = record(case, seed, args.workers)
            got = replay(calls, not args.no_floor, args.lines)
            text = (f"{case:16s} seed {seed}  searches {len(calls):5d}  nodes {got.nodes:10,d}  "
                    f"probes/search {got.probes / len(calls):5.1f}  C cpu {got.cpu * 1e3:7.1f} ms")
            if any(call.canonical for call in calls):
                text += f"  discards {got.digest:08x}"
            if args.lines and any(call.line for call in calls):
                text += f"  lines {got.line_nodes:10,d} nodes {got.line_cpu * 1e3:6.1f} ms"
            if args.runs and not args.no_floor:
                whole = replay_runs(calls)
                text += f"  runs {whole.nodes:10,d} nodes {whole.cpu * 1e3:6.1f} ms"
            print(text, flush=True)


if __name__ == "__main__":
    main()
