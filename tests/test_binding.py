"""The binding's fast paths give the answers of the plain calls: many
positions in one C call (``Solver.solve_many``, ``pdd_solve_many``), the
solver's reused struct, and ``prefdd batch`` answering runs of requests
together. And the batch layers: the core batch module stays below the
analyses, and the service hands its workers' solvers to batch evaluation."""
from __future__ import annotations

import ast
import json
import random
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from test_brute_force import random_position as endgame
from conftest import REPO, load_jsonl, shared_file
from solver import Deal, Hand, Position, PositionError, SearchStopped, Solver
from solver.analysis import batch as full_batch
from solver.batch import BatchError, evaluate as evaluate_solve
from solver.engine import _PACKED, SolverArgumentError, position_fields, to_c_position
from solver._core import ffi, lib

REFERENCE = load_jsonl("dd-endgames.jsonl") + load_jsonl("dd-full.jsonl")


def reference_positions() -> list[Position]:
    if not REFERENCE:
        shared_file("dd-endgames.jsonl")
    return [Position.start(r["deal"], r["contract"], r["declarer"], r["leader"]) for r in REFERENCE]


def random_positions(seed: int, count: int) -> list[Position]:
    """Endgames inside a trick, all-pass ones with talon leads (3 and 4
    players) and tricks already taken."""
    rng = random.Random(seed)
    positions = []
    for k in range(count):
        position = endgame(rng, max_cards=6, allpass=k % 4 == 0)
        taken = [0, 0, 0]
        taken[position.declarer] = rng.randint(0, 10 - position.tricks_left)
        positions.append(replace(position, tricks_taken=tuple(taken)))
    return positions


# ---- Solver.solve_many ------------------------------------------------------------

def test_solve_many_answers_the_reference_values_with_the_same_searches() -> None:
    positions = reference_positions()
    one, many = Solver(), Solver()
    values = many.solve_many(positions)
    assert values == [record["declarer_tricks"] for record in REFERENCE]
    assert values == [one.solve(p) for p in positions]
    assert many.stats() == one.stats()   # the same searches, node for node


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solve_many_agrees_with_solve_on_random_positions(seed: int) -> None:
    positions = random_positions(seed, 120)
    one, many = Solver(1), Solver(1)
    assert many.solve_many(positions[:7]) + many.solve_many(positions[7:]) == [one.solve(p) for p in positions]
    assert many.stats() == one.stats()
    assert many.solve_many([]) == []


def test_packed_struct_is_the_struct_of_each_field() -> None:
    # The packed bytes against a struct filled field by field through cffi.
    for position in random_positions(4, 40):
        fields = position_fields(position)
        c = ffi.new("pdd_position *")
        for seat in range(3):
            c.hands[seat] = position.hands[seat].mask
        for i, card in enumerate(position.trick):
            c.trick[i] = card.index
        c.trick_count, c.leader, c.trump = len(position.trick), position.leader, position.trump
        c.declarer, c.tricks_taken = position.declarer, position.declarer_tricks
        c.objective = lib.PDD_TRICKS if position.contract.kind.value == "tricks" else lib.PDD_MISERE
        for i, card in enumerate(position.talon_leads[:2]):
            c.talon[i] = card.index
        c.talon_count, c.four_players = len(position.talon_leads[:2]), int(position.four_players)
        assert bytes(ffi.buffer(c)) == _PACKED.pack(*fields) == bytes(ffi.buffer(to_c_position(position)))


def test_solve_many_names_the_position_it_refuses() -> None:
    solver = Solver(1)
    good = Position.start("AK.7..J9 .Q9.Q8.T 7.T.9.AK", "6nt", 0)
    with pytest.raises(PositionError, match=r"positions\[1\] must be a Position"):
        solver.solve_many([good, "6nt"])   # type: ignore[list-item]
    with pytest.raises(PositionError, match=r"positions\[2\]\.leader"):
        solver.solve_many([good, good, replace(good, leader=5)])
    # Fields of the right types that break the rules: the C core refuses them.
    twice = replace(good, hands=(good.hands[0], good.hands[0], good.hands[2]))
    with pytest.raises(PositionError, match=r"positions\[1\]: a card appears twice"):
        solver.solve_many([good, twice, good])
    assert solver.solve_many([good]) == [Solver(1).solve(good)]


def test_solve_many_stops_on_request_and_answers_right_afterwards() -> None:
    records = load_jsonl("dd-full.jsonl")
    if not records:
        shared_file("dd-full.jsonl")
    positions = [Position.start(r["deal"], r["contract"], r["declarer"], r["leader"]) for r in records]
    solver = Solver(4)
    solver.request_stop()
    with pytest.raises(SearchStopped):
        solver.solve_many(positions)
    solver.clear_stop()
    timer = threading.Timer(0.002, solver.request_stop)   # mid-batch, from another thread
    timer.start()
    try:
        solver.solve_many(positions * 20)
    except SearchStopped:
        pass
    timer.join()
    solver.clear_stop()
    assert solver.solve_many(positions) == [r["declarer_tricks"] for r in records]


def test_solver_reuses_its_struct_across_calls() -> None:
    # Every single-position call packs into the solver's own struct: the
    # answers are those of a fresh solver whatever came before.
    positions = random_positions(5, 60)
    solver, fresh = Solver(1), Solver(1)
    for position in positions:
        assert solver.solve(position) == fresh.solve(position)
        assert solver.card_values(position) == fresh.card_values(position)
        assert solver.probe(position, 3) == fresh.probe(position, 3)
        assert solver.best_line(position) == fresh.best_line(position)


# ---- prefdd batch: runs of requests in one C call -----------------------------------

def _requests(seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for i in range(90):
        cards = rng.sample(range(32), 32)
        hands = [Hand(sum(1 << c for c in cards[k * 10:(k + 1) * 10])) for k in range(3)]
        talon = Hand(sum(1 << c for c in cards[30:]))
        kind = i % 9
        request: dict = {"deal": str(Deal(tuple(hands))), "contract": rng.choice(["6s", "7nt", "misere", "6h"]),
                         "declarer": rng.randrange(3), "leader": rng.randrange(3), "id": i}
        if kind == 1:
            request["cards"] = True
        elif kind == 2:
            request = {"deal": str(Deal(tuple(hands), talon)), "contract": "allpass", "player": rng.randrange(3)}
        elif kind == 3:
            request = {"deal": str(Deal(tuple(hands), talon)), "contract": "6s", "declarer": 1, "best_discard": True}
        elif kind == 4:
            request["declarer"] = rng.choice([3, "x", None, True])
        elif kind == 5:
            request["line"] = "yes"
        lines.append(json.dumps(request))
        if kind == 6:
            lines.append("{not json")
    return lines


def test_batch_lines_answer_as_one_line_at_a_time_with_the_same_searches() -> None:
    lines = _requests(18)
    together, alone = Solver(4), Solver(4)
    answers = full_batch.evaluate_lines(lines, together)
    assert answers == [full_batch.evaluate_line(line, alone) for line in lines]
    assert together.stats() == alone.stats()
    assert any('"error"' in a for a in answers) and any('"discards"' in a for a in answers)
    assert sum('"declarer_tricks"' in a for a in answers) > 30


def test_batch_lines_match_the_reference_data() -> None:
    reference_positions()   # skips when the reference data is absent
    lines = [json.dumps({"deal": r["deal"], "contract": r["contract"], "declarer": r["declarer"],
                         "leader": r["leader"], "cards": "card_values" in r}) for r in REFERENCE]
    answers = [json.loads(a) for a in full_batch.evaluate_lines(lines, Solver())]
    for record, answer in zip(REFERENCE, answers):
        assert answer["declarer_tricks"] == record["declarer_tricks"]
        if "card_values" in record:
            assert answer["card_values"] == record["card_values"]


def test_core_batch_refuses_an_analysis_request_instead_of_answering_another_question() -> None:
    request = {"deal": "AK.7..J9 .Q9.Q8.T 7.T.9.AK", "talon": "Q...8", "contract": "6nt", "declarer": 0,
               "best_discard": True}
    with pytest.raises(BatchError, match="best_discard"):
        evaluate_solve(request, Solver(1))
    assert "discards" in full_batch.evaluate(request, Solver(1))
    with pytest.raises(TypeError, match="Solver"):
        evaluate_solve(request, None)   # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Solver"):
        full_batch.evaluate(request, None)   # type: ignore[arg-type]


# ---- layers: solver/batch.py stays below the analyses --------------------------------

def _imported_modules(path: Path, package: str) -> list[str]:
    """Every module a file imports (at any depth), relative imports resolved."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found += [module] + [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__"):
            found += [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
    return found


def test_core_batch_imports_nothing_from_the_analyses_or_the_advice() -> None:
    imported = _imported_modules(REPO / "solver" / "batch.py", "solver.batch")
    assert "solver.engine" in imported and "solver.position" in imported   # the walk sees its imports
    upward = [m for m in imported if m.startswith(("solver.analysis", "solver.advice", "service"))]
    assert upward == []


def test_the_import_walk_sees_upward_imports(tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text("from .analysis.requests import x\nimport solver.advice\n"
                    "def f():\n    from .analysis import y\n")
    assert _imported_modules(path, "solver.batch") == [
        "solver.analysis.requests", "solver.analysis.requests.x", "solver.advice",
        "solver.analysis", "solver.analysis.y"]


# ---- the service: batch evaluation with the pool worker's solver ----------------------

def test_web_solve_uses_the_solver_it_is_given() -> None:
    from service.web.calls import solve
    from solver.api import thread_solver

    given, own = Solver(1), thread_solver()
    before = own.stats().nodes
    answer = solve({"deal": "AK.7..J9 .Q9.Q8.T 7.T.9.AK", "contract": "6nt", "declarer": 0, "id": 7}, given)
    assert answer == {"id": 7, "declarer_tricks": Solver(1).solve(
        Position.start("AK.7..J9 .Q9.Q8.T 7.T.9.AK", "6nt", 0))}
    assert given.stats().nodes > 0 and own.stats().nodes == before


def test_batch_stream_evaluates_with_the_pool_workers_solver(monkeypatch) -> None:
    from service import batch_stream
    from service.pool import SolverPool
    from service.proto import pb

    workers: list[Solver] = []
    used: list[Solver] = []
    real = batch_stream.evaluate

    def recording(request, solver):  # type: ignore[no-untyped-def]
        used.append(solver)
        return real(request, solver)

    monkeypatch.setattr(batch_stream, "evaluate", recording)
    pool = SolverPool(1, solver_setup=workers.append)
    try:
        items = [pb.BatchItem(deal="AK.7..J9 .Q9.Q8.T 7.T.9.AK", kind=pb.CONTRACT_KIND_TRICKS,
                              strain=pb.STRAIN_NO_TRUMP, declarer=pb.SEAT_FIRST, id=str(i)) for i in range(3)]
        stream = batch_stream.BatchStream(pool, max_items=10, window=4, message_budget=1 << 16)
        results = [r for message in stream.results(iter([pb.EvaluateBatchRequest(items=items)]), lambda: False)
                   for r in message.results]
    finally:
        pool.shutdown()
    assert sorted(r.id for r in results) == ["0", "1", "2"]
    assert all(r.evaluation.declarer_tricks == results[0].evaluation.declarer_tricks for r in results)
    assert len(workers) == 1 and used == [workers[0]] * 3


# ---- tables made from kept memory ----------------------------------------------------

def full_deals(seed: int, count: int, contract: str) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [Hand(sum(1 << c for c in cards[10 * s:10 * s + 10])) for s in range(3)]
        positions.append(Position.start(Deal((hands[0], hands[1], hands[2])), contract, rng.randrange(3),
                                        rng.randrange(3)))
    return positions


def test_a_table_from_kept_memory_searches_as_a_fresh_one() -> None:
    """Freed table memory is kept for the next table of its size, and handed
    out without zeroing when nothing was stored in it (a trick contract
    stores no exact entry, a misère no partition entry): a table made from
    it searches every workload with the nodes of the first table that ran
    it, whatever the tables before it stored (a block wrongly taken as
    clean would hand a search the entries of another)."""
    tricks, misere = full_deals(3, 12, "6s"), full_deals(4, 3, "misere")
    workloads = {"tricks": tricks, "misère": misere, "both": misere[:2] + tricks[:6]}
    first: dict[str, tuple[list[int], int]] = {}
    for name in ["tricks", "misère", "both", "tricks", "both", "misère", "misère", "tricks"]:
        solver = Solver(2)
        values = [solver.solve(position) for position in workloads[name]]
        answer = (values, solver.stats().nodes)
        assert first.setdefault(name, answer) == answer, name
        solver.set_options(lib.PDD_OPT_ALL)   # the table cleared in place
        solver.reset_stats()
        assert ([solver.solve(position) for position in workloads[name]], solver.stats().nodes) == answer
        del solver


def test_a_bad_table_policy_is_a_solver_argument_error_from_python_or_from_c() -> None:
    solver = Solver(1)
    with pytest.raises(SolverArgumentError, match="part_ways"):
        solver.set_table_policy(0)
    # past the Python checks: the C core's PDD_ERR_POLICY maps to the same class
    with pytest.raises(SolverArgumentError, match="table policy out of range"):
        solver._call(lib.pdd_set_table_policy, lib.PDD_MAX_PART_WAYS + 1, 1, 1)
    assert not issubclass(SolverArgumentError, PositionError)
    solver.set_table_policy(63, 2048, exact_table=False)   # a good policy still sets, and the solver solves
    position = Position.start(Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9"), "6c", 1)
    assert solver.solve(position) == Solver(1).solve(position)
