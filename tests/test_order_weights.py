"""Move-ordering weights: validated at the boundary, and never change a value
(ordering decides only how soon a cut-off is found)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Solver
from solver.engine import ORDER_WEIGHTS, OrderWeightsError

from test_search_consistency import position

SHIFTS = (6, 19)   # the two history shifts (csrc/order.c: W_HISTORY_SHIFT, W_MIS_HISTORY_SHIFT)


def test_weights_round_trip() -> None:
    solver = Solver(table_mib=1)
    defaults = solver.order_weights
    assert len(defaults) == ORDER_WEIGHTS
    changed = tuple(w + 1 if k not in SHIFTS else w for k, w in enumerate(defaults))
    solver.set_order_weights(changed)
    assert solver.order_weights == changed
    assert Solver(table_mib=1).order_weights == defaults   # per solver, not global


@pytest.mark.parametrize("weights, problem", [
    ([0] * (ORDER_WEIGHTS - 1), "whole numbers"),
    ([0] * (ORDER_WEIGHTS + 1), "whole numbers"),
    ([0.5] + [0] * (ORDER_WEIGHTS - 1), "whole numbers"),
    ([True] + [0] * (ORDER_WEIGHTS - 1), "whole numbers"),
    ([10001] + [0] * (ORDER_WEIGHTS - 1), "within +-10000"),
    ([0] * SHIFTS[0] + [17] + [0] * (ORDER_WEIGHTS - SHIFTS[0] - 1), "shifts 0..16"),
    ([0] * SHIFTS[1] + [-1] + [0] * (ORDER_WEIGHTS - SHIFTS[1] - 1), "shifts 0..16"),
])
def test_bad_weights_are_refused_and_keep_the_old(weights: list, problem: str) -> None:
    solver = Solver(table_mib=1)
    before = solver.order_weights
    with pytest.raises(OrderWeightsError, match=problem.replace("+", r"\+")):
        solver.set_order_weights(weights)
    assert solver.order_weights == before


def weight_vectors() -> st.SearchStrategy[list[int]]:
    plain = st.integers(-200, 200)
    return st.tuples(*[st.integers(0, 8) if k in SHIFTS else plain for k in range(ORDER_WEIGHTS)]).map(list)


@settings(max_examples=25, deadline=None)
@given(weight_vectors(), st.randoms(use_true_random=False), st.sampled_from(["trump", "nt", "misere"]))
def test_any_weights_give_the_same_values(weights: list[int], rng: random.Random, objective: str) -> None:
    reference, tuned = Solver(table_mib=2), Solver(table_mib=2)
    tuned.set_order_weights(weights)
    for _ in range(3):
        p = position(rng, 7, objective)
        assert tuned.solve(p) == reference.solve(p), (p, weights)
