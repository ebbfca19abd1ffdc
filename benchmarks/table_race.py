"""The deal's table in several trees and thread counts, alternating deal by
deal, each deal's time the least of a few repeats: a repeat hit by another
process's burst on a shared machine loses, the quiet one counts.

    .venv/bin/python benchmarks/table_race.py --repeats 3 \\
        <other tree>:1 .:1 .:2 [--deals 40]

Each ``tree:workers`` runs in a process of its own (the tree's .venv and
benchmarks/sets.py), which answers one table at a time when asked, so only
one table runs at any moment. A repeat has its own solvers, which have seen
the same tables before (as the benchmark's kept solvers have): each repeat
searches the same nodes. Prints, per way, the sum over the deals of the
least wall time, the median, the nodes a table and the ratio to the first way.
The answers of every way must be equal (a digest of each table).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

WORKER = r"""
import hashlib, json, sys, time
sys.path.insert(0, "benchmarks")
from sets import SETS
import solver.analysis.table as table_module
from solver import Solver
from solver.analysis import discard_table
workers, repeats, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
deals = list(SETS["deal's table with best discards"].jobs())[:count]
import os
mib = int(os.environ.get("RACE_TABLE_MIB", "0"))
def new_solver():
    return Solver(table_mib=mib) if mib else Solver()
solvers = [new_solver() for _ in range(repeats)]
pools = []
for _ in range(repeats if workers > 1 else 0):
    pool = table_module.PartnerPool(workers - 1)
    pool.give_back([new_solver() for _ in range(workers - 1)])
    pools.append(pool)
def nodes(k):
    return solvers[k].stats().nodes + sum(s.stats().nodes for s in (pools[k]._idle if pools else []))
print("ready", flush=True)
for line in sys.stdin:
    d, k = map(int, line.split())
    extra = {} if workers == 1 else {"workers": workers}
    if workers > 1:
        table_module.PARTNERS = pools[k]
    n = nodes(k)
    start, cpu = time.perf_counter(), time.process_time()
    table = discard_table(deals[d], solver=solvers[k], **extra)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    digest = hashlib.sha1(repr([(r.tricks, r.misere.value, str(r.best_contract)) for r in table.rows]).encode()).hexdigest()[:12]
    print(json.dumps({"wall": wall, "cpu": cpu, "nodes": nodes(k) - n, "digest": digest}), flush=True)
"""


def start(spec: str, repeats: int, count: int) -> subprocess.Popen:
    tree, _, workers = spec.rpartition(":")
    mib = ""
    if "@" in workers:
        workers, _, mib = workers.partition("@")
    root = Path(tree).resolve()
    env = {**os.environ, "RACE_TABLE_MIB": mib or "0"}
    process = subprocess.Popen([str(root / ".venv/bin/python"), "-c", WORKER, workers, str(repeats), str(count)],
                               cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def ask(process: subprocess.Popen, deal: int, repeat: int) -> dict:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"{deal} {repeat}\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ways", nargs="+", help="tree:workers, or tree:workers@MiB for solvers of that table size")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--deals", type=int, default=40)
    args = parser.parse_args()
    processes = [start(way, args.repeats, args.deals) for way in args.ways]
    rng = random.Random(0)
    best = [[float("inf")] * args.deals for _ in args.ways]
    walls: list[list[float]] = [[] for _ in args.ways]
    nodes = [0] * len(args.ways)
    cpu = [[float("inf")] * args.deals for _ in args.ways]
    for d in range(args.deals):
        digests = set()
        for k in range(args.repeats):
            order = list(range(len(args.ways)))
            rng.shuffle(order)
            for w in order:
                r = ask(processes[w], d, k)
                best[w][d] = min(best[w][d], r["wall"])
                cpu[w][d] = min(cpu[w][d], r["cpu"])
                walls[w].append(r["wall"])
                digests.add(r["digest"])
                if k == 0:
                    nodes[w] += r["nodes"]
        assert len(digests) == 1, (d, digests)
    for p in processes:
        p.stdin.close()  # type: ignore[union-attr]
        p.wait()
    first = sum(best[0])
    for w, way in enumerate(args.ways):
        total = sum(best[w])
        median = sorted(walls[w])[len(walls[w]) // 2]
        print(f"{way}: least {total / args.deals * 1e3:.2f} ms a table (ratio {total / first:.3f}), "
              f"mean {sum(walls[w]) / len(walls[w]) * 1e3:.2f} ms, cpu {sum(cpu[w]) / args.deals * 1e3:.2f} ms, "
              f"{nodes[w] // args.deals:,} nodes")


if __name__ == "__main__":
    sys.exit(main())
