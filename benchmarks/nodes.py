"""The node-count signature: every seeded benchmark set (sets.py) run once,
with its values and the search's node count.

A change that must not alter the search (a refactoring, a comment, an assert,
a build flag) leaves this output identical; a change to the search shows here
set by set. Node counts do not depend on the machine or its load, so the
output is the same on every machine; the times go to stderr only.

    .venv/bin/python benchmarks/nodes.py            # print the signature
    .venv/bin/python benchmarks/nodes.py --check    # ... and compare it with nodes.txt
    make nodes                                      # the same as --check

Per set: jobs run, total nodes (cards played in the search, ``pdd_stats``),
and a digest of every job's answer (value, best discards, lines...) with the
sum of the values where there is one. ``--answers`` prints every answer.
"""
from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sets import SETS, BenchSet  # noqa: E402

RECORDED = Path(__file__).resolve().parent / "nodes.txt"


def run_set(bench: BenchSet) -> tuple[list, int]:
    solver = bench.solver()
    jobs = bench.jobs()
    solver.reset_stats()
    answers = [bench.answer(bench.work(solver, job)) for job in jobs]
    return answers, solver.stats().nodes


def signature_line(name: str, answers: list, nodes: int) -> str:
    text = json.dumps(answers, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    numbers = [a for a in answers if isinstance(a, int)]
    total = f"  sum {sum(numbers)}" if len(numbers) == len(answers) else ""
    return f"{name:<36} jobs {len(answers):>5}  nodes {nodes:>12,}  answers {digest}{total}"


def signature(names: list[str], show_answers: bool) -> list[str]:
    lines, total = [], 0
    for name in names:
        start = time.perf_counter()
        answers, nodes = run_set(SETS[name])
        total += nodes
        lines.append(signature_line(name, answers, nodes))
        print(lines[-1], flush=True)
        if show_answers:
            print(json.dumps(answers))
        print(f"  ({time.perf_counter() - start:.1f} s)", file=sys.stderr, flush=True)
    if len(names) == len(SETS):
        lines.append(f"total nodes {total:,}")
        print(lines[-1])
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help=f"set names (default: all {len(SETS)})")
    parser.add_argument("--check", action="store_true", help=f"compare with {RECORDED.name}")
    parser.add_argument("--answers", action="store_true", help="print every job's answer")
    args = parser.parse_args()
    unknown = [name for name in args.sets if name not in SETS]
    if unknown:
        parser.error(f"unknown sets {unknown}; known: {list(SETS)}")
    lines = signature(args.sets or list(SETS), args.answers)
    if not args.check:
        return 0
    recorded = RECORDED.read_text().splitlines()
    if args.sets:
        recorded = [line for line in recorded if line.split("  jobs")[0].rstrip() in args.sets]
    diff = list(difflib.unified_diff(recorded, lines, str(RECORDED.name), "this build", lineterm=""))
    print("\n".join(diff) if diff else f"same as {RECORDED.name}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
