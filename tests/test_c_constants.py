"""Limits and defaults of the C core live in csrc/prefdd.h alone: Python
reads them from the extension, the error texts spell them from the macros,
and the enumeration's table rule is called, not restated."""
from __future__ import annotations

import pytest

from solver import Contract, Deal, Position, Solver
from solver._core import ffi, lib
from solver.advice import enumeration
from solver.engine import DEFAULT_PART_WAYS

DEAL = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9")


def test_the_default_part_ways_is_the_c_cores_and_a_fresh_tables_policy() -> None:
    assert DEFAULT_PART_WAYS == lib.PDD_DEFAULT_PART_WAYS
    assert 1 <= DEFAULT_PART_WAYS <= lib.PDD_MAX_PART_WAYS
    positions = [Position.start(DEAL, contract, declarer) for contract in ("6c", "7h", "8nt", "misere")
                 for declarer in range(3)]
    fresh, reset, other = Solver(1), Solver(1), Solver(1)
    reset.set_table_policy()                 # every default: the table as pdd_new makes it
    other.set_table_policy(DEFAULT_PART_WAYS + 1)
    nodes = []
    for solver in (fresh, reset, other):
        values = [solver.solve(position) for position in positions]
        nodes.append((values, solver.stats().nodes))
    assert nodes[0] == nodes[1]
    assert nodes[2][0] == nodes[0][0] and nodes[2][1] != nodes[0][1]   # another bucket size: another search


def test_the_policy_error_text_names_the_limits_of_the_header() -> None:
    text = ffi.string(lib.pdd_error_text(lib.PDD_ERR_POLICY)).decode()
    assert text == (f"table policy out of range: part_ways 1-{lib.PDD_MAX_PART_WAYS}, "
                    f"solves_per_generation 1-{lib.PDD_MAX_SOLVES_PER_GENERATION}")
    assert lib.PDD_MAX_SOLVES_PER_GENERATION == 1 << 20


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[tuple, dict]] = []

    def set_table_policy(self, *args, **kwargs) -> None:
        self.calls.append((args, kwargs))


@pytest.mark.parametrize("contracts, partition_only, exact_table", [
    (["6s", "7nt"], True, False),     # trick contracts never read the exact entries
    (["6s", "misere"], True, True),
    (["misere"], True, True),
    (["6s"], False, True),
])
def test_the_enumeration_table_rule(monkeypatch, contracts, partition_only, exact_table) -> None:
    monkeypatch.setattr(enumeration, "ENUMERATION_PARTITION_ONLY", partition_only)
    solver = _Recorder()
    enumeration.set_enumeration_table(solver, [Contract.parse(text) for text in contracts])  # type: ignore[arg-type]
    assert solver.calls == [(enumeration.ENUMERATION_TABLE_POLICY, {"exact_table": exact_table})]
