"""The training run of the profile-guided build (see build_pgo.py).

    python csrc/pgo_train.py PATH_TO_INSTRUMENTED_EXTENSION

Loads the instrumented ``_core`` extension from the given file (not the
installed package: the package is being built) and runs a fixed workload
through its C API: exact solves of seeded random deals in trump, no trump
and misère, best discards in each, first-lead card values and all-pass
values. The compiler's profile (a .gcda file) is written when the process
exits. Deterministic: the same deals every build, so the same profile.
"""
from __future__ import annotations

import importlib.util
import random
import sys
from types import ModuleType
from typing import Any

DEALS = 24
SEED = "preferans-dd profile training"


def load_extension(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("solver._core", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_hands(rng: random.Random) -> tuple[list[int], int]:
    """Three 10-card hands as bit masks, and the 2-card talon."""
    cards = list(range(32))
    rng.shuffle(cards)
    masks = [sum(1 << c for c in cards[10 * s:10 * s + 10]) for s in range(3)]
    return masks, (1 << cards[30]) | (1 << cards[31])


def check(code: int, what: str) -> None:
    if code != 0:
        raise RuntimeError(f"{what} failed with code {code}")


def train(ffi: Any, lib: Any) -> None:
    rng = random.Random(SEED)
    solver = lib.pdd_new(0)
    if solver == ffi.NULL:
        raise MemoryError("no solver")
    position = ffi.new("pdd_position *")
    value = ffi.new("int *")
    values = ffi.new("int[32]")
    legal = ffi.new("uint32_t *")
    discard = ffi.new("pdd_discard_result *")
    try:
        for _ in range(DEALS):
            hands, talon = random_hands(rng)
            for trump, objective in ((rng.randrange(4), lib.PDD_TRICKS), (4, lib.PDD_TRICKS), (4, lib.PDD_MISERE)):
                declarer = rng.randrange(3)
                for seat in range(3):
                    position.hands[seat] = hands[seat]
                position.leader, position.trump = 0, trump
                position.declarer, position.objective = declarer, objective
                check(lib.pdd_solve(solver, position, value), "solve")
                check(lib.pdd_card_values(solver, position, values, legal), "card values")
                pool = hands[declarer] | talon
                check(lib.pdd_best_discard(solver, position, pool, 0, discard), "best discard")
    finally:
        lib.pdd_free(solver)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    module = load_extension(argv[0])
    train(module.ffi, module.lib)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
