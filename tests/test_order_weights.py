"""Move-ordering weights: one table in csrc/order.c (read through
pdd_order_weight_info) that the defaults, the range checks, the error text and
the tuning script's groups come from; validated at the boundary, and never
change a value (ordering decides only how soon a cut-off is found)."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Solver
from solver._core import ffi, lib
from solver.engine import ORDER_WEIGHTS, OrderWeightsError

from test_search_consistency import position


def weight_rows() -> list[dict]:
    info = ffi.new("pdd_weight_info *")
    rows = []
    for index in range(ORDER_WEIGHTS):
        assert lib.pdd_order_weight_info(index, info) == lib.PDD_OK
        rows.append({"name": ffi.string(info.name).decode(), "default": info.default_value,
                     "min": info.min, "max": info.max, "group": ffi.string(info.group).decode()})
    return rows


ROWS = weight_rows()
SHIFTS = tuple(k for k, row in enumerate(ROWS) if row["name"].endswith("HISTORY_SHIFT"))


def test_the_table_names_every_weight_once_with_its_default_in_range() -> None:
    names = [row["name"] for row in ROWS]
    assert len(set(names)) == ORDER_WEIGHTS and all(name.startswith("W_") for name in names)
    assert {row["group"] for row in ROWS} == {"TRICKS", "MISERE"}
    assert all(row["min"] <= row["default"] <= row["max"] for row in ROWS)
    assert tuple(row["default"] for row in ROWS) == Solver(table_mib=1).order_weights
    assert [names[k] for k in SHIFTS] == ["W_HISTORY_SHIFT", "W_MIS_HISTORY_SHIFT"]
    assert all((row["min"], row["max"]) == (0, 16) for row in (ROWS[k] for k in SHIFTS))
    others = [row for k, row in enumerate(ROWS) if k not in SHIFTS]
    assert all((row["min"], row["max"]) == (-lib.PDD_WEIGHT_LIMIT, lib.PDD_WEIGHT_LIMIT) for row in others)


def test_weight_info_refuses_bad_indices_and_null() -> None:
    info = ffi.new("pdd_weight_info *")
    assert lib.pdd_order_weight_info(-1, info) == lib.PDD_ERR_WEIGHTS
    assert lib.pdd_order_weight_info(ORDER_WEIGHTS, info) == lib.PDD_ERR_WEIGHTS
    assert lib.pdd_order_weight_info(0, ffi.NULL) == lib.PDD_ERR_NULL


def test_the_error_text_comes_from_the_table() -> None:
    text = ffi.string(lib.pdd_error_text(lib.PDD_ERR_WEIGHTS)).decode()
    assert text == (f"move-ordering weights: give {ORDER_WEIGHTS} integers, "
                    "W_HISTORY_SHIFT and W_MIS_HISTORY_SHIFT within 0..16, "
                    f"the others within +-{lib.PDD_WEIGHT_LIMIT}")


def test_the_tuning_groups_come_from_the_table() -> None:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "tune_ordering.py"
    spec = importlib.util.spec_from_file_location("tune_ordering", path)
    tune = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tune)
    tricks, misere = tune.GROUPS["tricks"][0], tune.GROUPS["misere"][0]
    assert sorted(tricks + misere) == list(range(ORDER_WEIGHTS))
    assert all(ROWS[k]["group"] == "TRICKS" for k in tricks) and 28 in tricks
    assert all(ROWS[k]["group"] == "MISERE" for k in misere) and 27 in misere
    assert tune.candidates(SHIFTS[0], 16) == [15]   # a shift stays within 0..16


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
    ([10001] + [0] * (ORDER_WEIGHTS - 1), "the others within +-10000"),
    ([0] * SHIFTS[0] + [17] + [0] * (ORDER_WEIGHTS - SHIFTS[0] - 1), "SHIFT within 0..16"),
    ([0] * SHIFTS[1] + [-1] + [0] * (ORDER_WEIGHTS - SHIFTS[1] - 1), "SHIFT within 0..16"),
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
