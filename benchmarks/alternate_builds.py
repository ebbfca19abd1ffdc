"""CPU time of two or more trees' C cores in alternating runs, on the seeded
sets of ``endgame_oracle.py`` (the driver built without the oracle: the plain
search). Each tree's ``csrc`` is compiled into its own copy of the driver;
the runs alternate tree by tree, round by round, and each reports its nodes,
its answers' digest (equal digests: equal answers) and the CPU seconds of the
driver process (user time, which other load on the machine moves less than
wall time).

    .venv/bin/python benchmarks/alternate_builds.py --trees <other tree> . --rounds 5
    .venv/bin/python benchmarks/alternate_builds.py --sets "random misere" --count 300
"""
from __future__ import annotations

import argparse
import ast
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "csrc"))

from build_ffi import C_SOURCES, OPTIMISE, arch_flags  # noqa: E402
from endgame_oracle import DRIVER_DEFINES, job_sets  # noqa: E402


def tree_sources(csrc: Path) -> list[str]:
    """The C files of a tree's core, from its own build_ffi.py (older trees
    have fewer: every tree is built from its own list)."""
    for node in ast.parse((csrc / "build_ffi.py").read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "C_SOURCES" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return list(C_SOURCES)


def build(tree: Path, out: Path) -> Path:
    csrc = tree.resolve() / "csrc"
    subprocess.run(["gcc", *OPTIMISE, *arch_flags(), *DRIVER_DEFINES, f"-I{csrc}",
                    *(f for name in tree_sources(csrc) for f in ("-include", str(csrc / name))),
                    "-o", str(out), str(ROOT / "benchmarks" / "endgame_oracle.c"), "-lpthread"], check=True)
    return out


def run(driver: Path, lines: list[str]) -> tuple[int, int, float]:
    """Nodes, digest and CPU seconds of one run over the jobs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run([str(driver), "0"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[2]), int(out[6]), resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trees", nargs="+", type=Path, default=[ROOT], help="source trees (each with csrc/)")
    parser.add_argument("--sets", nargs="*", default=["random misere", "deal's table, misere"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--count", type=int, default=None, help="the first COUNT jobs (deals) of each set")
    args = parser.parse_args(argv)
    (ROOT / "build").mkdir(exist_ok=True)
    drivers = [build(tree, ROOT / "build" / f"alternate_{i}") for i, tree in enumerate(args.trees)]
    sets = job_sets(args.count)
    unknown = [name for name in args.sets if name not in sets]
    if unknown:
        parser.error(f"no set {unknown[0]!r}; the sets: {', '.join(sets)}")
    differ = 0
    for name in args.sets:
        lines = sets[name]
        results = [[run(d, lines) for d in drivers] for _ in range(args.rounds)]
        print(f"{name} ({len(lines)} jobs)")
        for i, tree in enumerate(args.trees):
            nodes, digest, _ = results[0][i]
            cpu = [r[i][2] for r in results]
            differ += digest != results[0][0][1]
            print(f"  {str(tree):<30} nodes {nodes:>12,}  cpu s {' '.join(f'{t:.3f}' for t in cpu)}"
                  f"  min {min(cpu):.3f}" + ("" if digest == results[0][0][1] else "  ANSWERS DIFFER"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
