"""The move ordering (csrc/order.c: lead scores worked out suit by suit, a
trick contract's second hand ordered band by band) and the equivalent cards
(csrc/board.c: runs found by walking down through the dead cards) against
the forms they replaced (every card scored on its own, runs found with the
rank tables), kept in tests/c/order_reference.c: on seeded random positions
of every kind (trick contracts and misere, leads, second and third hands,
talon tricks, random weights, hints, killers and history counts) both give
the same cards in the same order, built optimised and not."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from test_part_table_paths import compiler

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "tests" / "c" / "order_reference.c"
POSITIONS = 200_000


@pytest.mark.parametrize("optimise", ["-O0", "-O2", "-O3"])
def test_ordering_matches_the_per_card_scores(tmp_path: Path, optimise: str) -> None:
    out = tmp_path / "order_reference"
    subprocess.run([compiler(), optimise, "-std=c11", "-UNDEBUG", f"-I{ROOT / 'csrc'}", str(DRIVER), "-o", str(out),
                    "-lpthread"], check=True)
    done = subprocess.run([str(out), str(POSITIONS)], capture_output=True, text=True, timeout=120)
    positions, differ = map(int, done.stdout.split())
    assert (positions, differ) == (POSITIONS, 0)
    assert done.returncode == 0
