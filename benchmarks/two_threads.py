"""What two threads give on this machine, and where the deal's table on two
threads loses to half of one thread's time.

Over the deal's table's 40 seeded deals (sets.py), each way timed deal by
deal, alternating, in one process (so a load on the machine hits them alike):

* ``independent``: two tables of one deal on two solvers, one after the other
  on one thread, against the same two at once on two threads (each thread
  calling ``pdd_best_discard_many`` with its own solver, started together at
  a barrier): the most two threads can give for work that shares nothing but
  the machine. The wall ratio is the host's bound; the CPU time a node (each
  thread's own clock) says whether two busy threads slow each other (the
  vCPUs sharing a core or the cache).
* ``table``: ``discard_table`` on one thread against ``workers=2``; the
  nodes of the busier solver against one thread's are the makespan's share
  if a node cost the same on both ways.
* ``start``: a call of 18 tiny searches on one solver against two: the
  cost of the call's thread (started and joined by ``pdd_best_discard_many``).
* ``schedule``: each search's nodes on one solver, and what two threads
  taking whole searches would take by nodes (given order, largest first,
  the bound max(largest, half)), whatever the load.
* ``timeline``: the two-thread table's 18 searches taken from one queue by two
  Python threads (``pdd_best_discard_many`` one search at a time, the time of
  each taken): how long each thread idles at the end, and how the searches'
  time on two threads compares with the same searches' on one.

    chrt -f 10 .venv/bin/python benchmarks/two_threads.py [--rounds 2] [--deals 40] [--only KIND]

(``chrt -f``: SCHED_FIFO, as root, keeps other processes off the CPUs our
threads want; without it, on a loaded machine the wall times measure the load.)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sets  # noqa: E402
from sets import SETS  # noqa: E402

import solver.analysis.table as table_module  # noqa: E402
from solver import Solver  # noqa: E402
from solver.analysis import discard_table  # noqa: E402
from solver.analysis.discard import discard_job  # noqa: E402
from solver.engine import best_discards_many  # noqa: E402


WARM_DEALS = 4
"""Tables of other deals each solver searches first, untimed: its table's
pages faulted in, as a solver kept from table to table has them."""


def warm_solvers(count: int) -> list[Solver]:
    solvers = [Solver() for _ in range(count)]
    for deal in sets.deals(WARM_DEALS, "two-threads-warm-up"):
        for s in solvers:
            best_discards_many([s], table_jobs(deal, 1))
    return solvers


def table_jobs(deal, threads: int):  # type: ignore[no-untyped-def]
    order = table_module._searches(threads)
    return [discard_job(deal, seat, table_module.CONTRACTS[c], 0) for seat, c in order]


class Pair:
    """Two threads that each run one callable when released together."""

    def __init__(self) -> None:
        self.start = threading.Barrier(3)
        self.done = threading.Barrier(3)
        self.work: list = [None, None]
        self.cpu = [0.0, 0.0]
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(2)]
        for t in self.threads:
            t.start()

    def _run(self, i: int) -> None:
        while True:
            self.start.wait()
            work = self.work[i]
            if work is None:
                return
            ticks = time.thread_time()
            work()
            self.cpu[i] = time.thread_time() - ticks
            self.done.wait()

    def run(self, a, b) -> float:  # type: ignore[no-untyped-def]
        self.work[:] = [a, b]
        start = time.perf_counter()
        self.start.wait()
        self.done.wait()
        return time.perf_counter() - start

    def close(self) -> None:
        self.work[:] = [None, None]
        self.start.wait()


def independent(deals, pair: Pair) -> dict:  # type: ignore[no-untyped-def]
    one = warm_solvers(2)
    two = warm_solvers(2)
    wall = {"one": 0.0, "two": 0.0}
    cpu = {"one": 0.0, "two": 0.0}
    nodes = {"one": 0, "two": 0}
    for deal in deals:
        jobs = table_jobs(deal, 1)
        before = [s.stats().nodes for s in one]
        start, ticks = time.perf_counter(), time.thread_time()
        for s in one:
            best_discards_many([s], jobs)
        wall["one"] += time.perf_counter() - start
        cpu["one"] += time.thread_time() - ticks
        nodes["one"] += sum(s.stats().nodes for s in one) - sum(before)
        before = [s.stats().nodes for s in two]
        wall["two"] += pair.run(lambda: best_discards_many([two[0]], jobs),
                                lambda: best_discards_many([two[1]], jobs))
        cpu["two"] += sum(pair.cpu)
        nodes["two"] += sum(s.stats().nodes for s in two) - sum(before)
    assert nodes["one"] == nodes["two"], nodes
    return {"wall_ratio": wall["two"] / wall["one"],
            "one_ms": wall["one"] / len(deals) * 1e3, "two_ms": wall["two"] / len(deals) * 1e3,
            "cpu_node_ratio": cpu["two"] / cpu["one"],
            "ns_node_one": cpu["one"] / nodes["one"] * 1e9, "ns_node_two": cpu["two"] / nodes["two"] * 1e9}


def table(deals) -> dict:  # type: ignore[no-untyped-def]
    single, threaded, partner = warm_solvers(3)
    table_module.PARTNERS = table_module.PartnerPool(1)   # this round's partner only
    table_module.PARTNERS.give_back([partner])
    wall = {"one": 0.0, "two": 0.0}
    nodes = {"one": 0, "busier": 0, "two": 0}
    for deal in deals:
        n = single.stats().nodes
        start = time.perf_counter()
        expected = discard_table(deal, solver=single)
        wall["one"] += time.perf_counter() - start
        nodes["one"] += single.stats().nodes - n
        before = (threaded.stats().nodes, partner.stats().nodes)
        start = time.perf_counter()
        got = discard_table(deal, solver=threaded, workers=2)
        wall["two"] += time.perf_counter() - start
        assert got == expected
        done = (threaded.stats().nodes - before[0], partner.stats().nodes - before[1])
        nodes["busier"] += max(done)
        nodes["two"] += sum(done)
    return {"wall_ratio": wall["two"] / wall["one"],
            "one_ms": wall["one"] / len(deals) * 1e3, "two_ms": wall["two"] / len(deals) * 1e3,
            "busier_share": nodes["busier"] / nodes["one"], "nodes_ratio": nodes["two"] / nodes["one"]}


def timeline(deals, pair: Pair) -> dict:  # type: ignore[no-untyped-def]
    """Each search's time on two threads from one queue, against the same
    search on one thread (solvers that saw the same searches before)."""
    solo = warm_solvers(2)
    duo = warm_solvers(2)
    tail = 0.0
    makespan = 0.0
    sum_two = 0.0
    sum_one = 0.0
    for deal in deals:
        jobs = table_jobs(deal, 2)
        lock = threading.Lock()
        state = {"next": 0}
        taken: list[list[int]] = [[], []]
        spans: list[list[float]] = [[], []]
        end = [0.0, 0.0]
        origin = [0.0]

        def take(i: int) -> None:
            while True:
                with lock:
                    k = state["next"]
                    state["next"] += 1
                if k >= len(jobs):
                    break
                t = time.perf_counter()
                best_discards_many([duo[i]], [jobs[k]])
                spans[i].append(time.perf_counter() - t)
                taken[i].append(k)
            end[i] = time.perf_counter()

        origin[0] = time.perf_counter()
        wall = pair.run(lambda: take(0), lambda: take(1))
        makespan += wall
        tail += max(end) - min(end)
        sum_two += sum(spans[0]) + sum(spans[1])
        # the same searches, each solver's own ones in its own order, one thread
        for i in range(2):
            for k in taken[i]:
                t = time.perf_counter()
                best_discards_many([solo[i]], [jobs[k]])
                sum_one += time.perf_counter() - t
    n = len(deals)
    return {"makespan_ms": makespan / n * 1e3, "tail_ms": tail / n * 1e3,
            "searches_two_ms": sum_two / n * 1e3, "searches_one_ms": sum_one / n * 1e3,
            "slowdown": sum_two / sum_one}


def start_cost(rounds: int = 400) -> dict:
    """One call of 18 searches of 1-card hands (microseconds each) on one
    solver against two: what starting and joining the call's thread costs."""
    from solver import Card, Deal, Hand
    deal = Deal(tuple(Hand.from_cards([Card.from_index(i)]) for i in (0, 9, 18)),  # type: ignore[arg-type]
                Hand.from_cards([Card.from_index(27), Card.from_index(31)]))
    jobs = table_jobs(deal, 2)
    one, two = [Solver(table_mib=1)], [Solver(table_mib=1), Solver(table_mib=1)]
    times: dict[str, list[float]] = {"one": [], "two": []}
    for _ in range(rounds):
        for name, solvers in (("one", one), ("two", two)):
            t = time.perf_counter()
            best_discards_many(solvers, jobs)
            times[name].append(time.perf_counter() - t)
    return {f"{name}_us": statistics.median(v) * 1e6 for name, v in times.items()}


def list_schedule(costs) -> float:  # type: ignore[no-untyped-def]
    """Two threads each taking the next search when free: the makespan."""
    free = [0.0, 0.0]
    for cost in costs:
        free[free[1] < free[0]] += cost
    return max(free)


def schedule(deals) -> dict:  # type: ignore[no-untyped-def]
    """Each search's nodes on one solver (the two-thread order), and the
    makespans on two threads by nodes against one thread's nodes: the given
    order, every cost known (largest first), and max(largest, half)."""
    s = Solver()
    total = given = known = bound = 0.0
    above_half = 0
    for deal in deals:
        costs = []
        for job in table_jobs(deal, 2):
            n = s.stats().nodes
            best_discards_many([s], [job])
            costs.append(s.stats().nodes - n)
        total += sum(costs)
        given += list_schedule(costs)
        known += list_schedule(sorted(costs, reverse=True))
        bound += max(max(costs), sum(costs) / 2)
        above_half += max(costs) > sum(costs) / 2
    return {"given": given / total, "largest_first": known / total, "bound": bound / total,
            "tables_above_half": above_half}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--only", choices=("independent", "table", "timeline", "start", "schedule"))
    parser.add_argument("--other-deals", action="store_true",
                        help="seeded deals other than the benchmark's (seed two-threads-other)")
    args = parser.parse_args()
    deals = (sets.deals(args.deals, "two-threads-other") if args.other_deals
             else list(SETS["deal's table with best discards"].jobs())[: args.deals])
    pair = Pair()
    results: dict[str, list[dict]] = {}
    for _ in range(args.rounds):
        for name, run in (("independent", lambda: independent(deals, pair)),
                          ("table", lambda: table(deals)),
                          ("timeline", lambda: timeline(deals, pair)),
                          ("start", start_cost), ("schedule", lambda: schedule(deals))):
            if args.only and name != args.only:
                continue
            r = run()
            results.setdefault(name, []).append(r)
            print(name, " ".join(f"{k}={v:.3f}" for k, v in r.items()), flush=True)
    pair.close()
    for name, runs in results.items():
        keys = runs[0].keys()
        print(f"{name} median:", " ".join(f"{k}={statistics.median(r[k] for r in runs):.3f}" for k in keys))


if __name__ == "__main__":
    main()
