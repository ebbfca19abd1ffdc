"""What tables for the last tricks could save at most: the search with every
trick-start position of k or fewer tricks left answered for free.

Builds ``endgame_oracle.c`` (the C core compiled in, with the
``PDD_ENDGAME_ORACLE`` hook of ``search.c``) into ``build/``, feeds it the
seeded sets of ``sets.py`` and prints, per set and k, the nodes that remain,
the oracle's answers, and the time that remains (the driver's time less the
oracle's). Every k must give the same answers as k = 0 (checked).

    .venv/bin/python benchmarks/endgame_oracle.py                 # every set, k = 0 2 3 4 5
    .venv/bin/python benchmarks/endgame_oracle.py --sets "random misere" --k 0 3 --count 200
    .venv/bin/python benchmarks/endgame_oracle.py --proof-marks    # answers fix only their proofs' cards
    .venv/bin/python benchmarks/endgame_oracle.py --instructions --count 30   # and instructions left (callgrind)
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "csrc"))

from build_ffi import C_SOURCES, OPTIMISE, arch_flags  # noqa: E402
from deals import random_positions  # noqa: E402
from sets import KINDS, deals, discard_jobs  # noqa: E402
from solver.analysis.discard import declarer_pool  # noqa: E402
from solver.notation import NO_TRUMP, Contract, ContractKind  # noqa: E402

DRIVER = ROOT / "build" / "endgame_oracle"
# The C library's default features, as the extension is built: strict POSIX
# (-D_POSIX_C_SOURCE) hides MADV_HUGEPAGE, and tt.c's table then sits on
# 4 KiB pages, whose TLB misses the extension does not have (a driver so
# built took 15 % of a misère search's samples at the table's prefetch, 4.5 %
# with huge pages).
DRIVER_DEFINES = ["-D_DEFAULT_SOURCE"]
MISERE = Contract(ContractKind.MISERE)


def build(proof_marks: bool, callgrind: bool = False) -> Path:
    """The driver; proof_marks: an answer fixes only the cards of its proof,
    not every live card; callgrind: it counts only the searched solver's
    instructions under callgrind (see endgame_oracle.c)."""
    suffix = ("-proof" if proof_marks else "") + ("-callgrind" if callgrind else "")
    driver = DRIVER.with_name(DRIVER.name + suffix)
    driver.parent.mkdir(exist_ok=True)
    source = ROOT / "benchmarks" / "endgame_oracle.c"
    subprocess.run(["gcc", *OPTIMISE, *arch_flags(), "-DPDD_ENDGAME_ORACLE", *DRIVER_DEFINES,
                    *(["-DORACLE_PROOF_MARKS"] if proof_marks else []),
                    *(["-DORACLE_CALLGRIND"] if callgrind else []), f"-I{ROOT / 'csrc'}",
                    *(f for name in C_SOURCES for f in ("-include", str(ROOT / "csrc" / name))),
                    "-o", str(driver), str(source), "-lpthread"], check=True)
    return driver


def instructions(driver: Path, k: int, lines: list[str]) -> int:
    """The searched solver's instructions over the jobs with the oracle at k
    (callgrind's total of the collected parts)."""
    out = driver.with_name(f"{driver.name}.{k}.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no", f"--callgrind-out-file={out}",
                    str(driver), str(k)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                   check=True)
    for line in out.read_text().splitlines():
        if line.startswith(("totals:", "summary:")):
            out.unlink()
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {out}")


def objective(contract: Contract) -> int:
    return 0 if contract.kind is ContractKind.TRICKS else 1


def solve_line(position) -> str:
    assert not position.trick and not position.declarer_tricks
    h = [hand.mask for hand in position.hands]
    return (f"S {h[0]:x} {h[1]:x} {h[2]:x} {position.leader} {position.contract.trump} "
            f"{position.declarer} {objective(position.contract)}")


def discard_line(deal, declarer: int, contract: Contract, leader: int = 0) -> str:
    h = [0 if seat == declarer else deal.hands[seat].mask for seat in range(3)]
    pool = declarer_pool(deal, declarer).mask
    return (f"D {h[0]:x} {h[1]:x} {h[2]:x} {pool:x} {leader} {contract.trump} {declarer} "
            f"{objective(contract)}")


def table_contracts() -> list[Contract]:
    """The deal's table's contracts: 6 in each strain and misère."""
    return [Contract(ContractKind.TRICKS, 6, strain) for strain in range(NO_TRUMP + 1)] + [MISERE]


def job_sets(count: int | None) -> dict[str, list[str]]:
    sets = {f"random {kind}": [solve_line(p) for p in random_positions(1000, kind)[:count]] for kind in KINDS}
    table = deals(40, "analysis-table")[:count]
    for label, keep in (("deal's table, trick contracts", lambda c: c.kind is ContractKind.TRICKS),
                        ("deal's table, misere", lambda c: c.kind is ContractKind.MISERE)):
        sets[label] = [discard_line(deal, seat, contract) for deal in table for seat in range(3)
                       for contract in table_contracts() if keep(contract)]
    # The whole table in its one-thread order (row by row, misère last in a
    # row) on one solver: what discard_table(deal) searches.
    sets["deal's table"] = [discard_line(deal, seat, contract) for deal in table for seat in range(3)
                            for contract in table_contracts()]
    sets["best discard, misere"] = [discard_line(deal, seat, contract)
                                    for deal, seat, contract in discard_jobs("misere")[:count]]
    return sets


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="*", help="set names (default: all)")
    parser.add_argument("--k", nargs="*", type=int, default=[0, 2, 3, 4, 5])
    parser.add_argument("--proof-marks", action="store_true",
                        help="an answer fixes only the cards its proof needs (trick contracts)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions left under callgrind (slow: use --count)")
    parser.add_argument("--count", type=int, default=None, help="the first COUNT jobs (deals) of each set")
    args = parser.parse_args(argv)
    driver = build(args.proof_marks)
    counter = build(args.proof_marks, callgrind=True) if args.instructions else None
    ks = args.k if 0 in args.k else [0, *args.k]
    failed = 0
    for name, lines in job_sets(args.count).items():
        if args.sets and name not in args.sets:
            continue
        out = subprocess.run([str(driver), *map(str, ks)], input="\n".join(lines) + "\n",
                             capture_output=True, text=True, check=True).stdout.split("\n")
        rows = [list(map(float, line.split())) for line in out if line.strip()]
        base = next(r for r in rows if r[0] == 0)
        print(f"{name} ({len(lines)} jobs)")
        print(f"  {'k':>2} {'nodes/job':>10} {'nodes':>7} {'oracle/job':>10} {'time/job ms':>11} {'time':>6}"
              + (f" {'instr/job':>10} {'instr':>6}" if counter else ""))
        counted = {int(r[0]): instructions(counter, int(r[0]), lines) for r in rows} if counter else {}
        for k, jobs, nodes, calls, total, spent, digest in rows:
            left = total - spent
            same = digest == base[6]
            failed += not same
            counts = (f" {counted[int(k)] / jobs / 1e6:>9.2f}M {counted[int(k)] / counted[0]:>6.1%}"
                      if counted else "")
            print(f"  {int(k):>2} {nodes / jobs:>10.0f} {nodes / base[2]:>7.1%} {calls / jobs:>10.0f} "
                  f"{left / jobs / 1e6:>11.3f} {left / (base[4] - base[5]):>6.1%}" + counts
                  + ("" if same else "  ANSWERS DIFFER"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
