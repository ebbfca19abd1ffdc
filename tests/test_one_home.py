"""Each game rule has one home; the places that use it agree with it."""
from __future__ import annotations

import pytest

from solver.advice.play import made
from solver.analysis.cli import format_best_discard
from solver.analysis.discard import BestDiscard
from solver.cli import main
from solver.notation import Contract, ContractKind, Deal, Hand, NotationError, check_seat, seat_field
from solver import solve

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
CONTRACTS = [Contract.parse(text) for text in ("6s", "7c", "8d", "9h", "10nt", "misere")]


@pytest.mark.parametrize("contract", CONTRACTS, ids=str)
def test_is_made_callers_agree(contract: Contract) -> None:
    verdicts = []
    for tricks in range(11):
        found = BestDiscard(0, contract, tricks, (Hand.parse("AsKs"),), 1)
        verdict = contract.is_made(tricks)
        assert made(contract, tricks) is verdict
        assert found.made is verdict
        text = format_best_discard(found)
        assert ("made" in text and "down" not in text and "caught" not in text) is verdict
        verdicts.append(verdict)
    if contract.kind is ContractKind.MISERE:
        assert verdicts == [True] + [False] * 10
    else:
        assert contract.level is not None
        assert verdicts == [t >= contract.level for t in range(11)]


def test_is_made_all_pass_has_nothing_to_make() -> None:
    with pytest.raises(NotationError, match="all-pass"):
        Contract.parse("allpass").is_made(0)


@pytest.mark.parametrize("text", ["6c", "7c", "8c", "misere"])
def test_is_made_solve_command_agrees(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    contract = Contract.parse(text)
    assert main(["solve", DEAL, "--contract", text, "--declarer", "1"]) == 0
    shown = capsys.readouterr().out.splitlines()[-1]
    value = solve(DEAL, contract, 1)
    says_made = "made" in shown and "down" not in shown and "caught" not in shown
    assert says_made is contract.is_made(value)


# ---- seats: notation.check_seat (arguments) and notation.seat_field (JSON fields)

BAD_SEATS = [3, -1, True, 1.0, None, "1"]


def _argument_checks():
    from solver.advice.errors import AdviceError
    from solver.advice.inputs import check_seat as advice_seat
    from solver.analysis.discard import AnalysisError, seat as analysis_seat
    from solver.position import Position, PositionError

    deal = Deal.parse(DEAL)
    yield PositionError, lambda v: Position.start(deal, "6s", v)
    yield AnalysisError, lambda v: analysis_seat(v, "declarer")
    yield AdviceError, lambda v: advice_seat(v, "declarer")


@pytest.mark.parametrize("value", BAD_SEATS, ids=repr)
def test_seat_arguments_one_check(value: object) -> None:
    with pytest.raises(NotationError) as expected:
        check_seat(value, "declarer")
    for error, call in _argument_checks():
        with pytest.raises(error) as raised:
            call(value)
        assert str(raised.value) == str(expected.value)
    for good in (0, 1, 2):
        assert check_seat(good, "declarer") == good
        assert all(call(good) is not None for _, call in _argument_checks())


@pytest.mark.parametrize("value", [3, -1, True, 1.5, "fourth", [1]], ids=repr)
def test_seat_fields_one_check(value: object) -> None:
    from service.errors import RequestError
    from service.web.calls import _seat as web_seat
    from solver.analysis.discard import AnalysisError
    from solver.analysis.requests import evaluate_analysis
    from solver.batch import BatchError, evaluate
    from solver.engine import Solver

    request = {"deal": DEAL, "contract": "6s", "declarer": value}
    with pytest.raises(NotationError) as expected:
        seat_field(request, "declarer")
    with pytest.raises(BatchError) as batch:
        evaluate(request, Solver(1))
    with pytest.raises(AnalysisError) as analysis:
        evaluate_analysis({**request, "best_discard": True}, Deal.parse(DEAL), Contract.parse("6s"), Solver(1))
    with pytest.raises(RequestError) as web:
        web_seat(request, "declarer", required=True)
    assert str(batch.value) == str(analysis.value) == str(web.value) == str(expected.value)
    assert "declarer" in str(expected.value)


def test_seat_field_missing_and_words() -> None:
    with pytest.raises(NotationError, match="missing field 'leader'"):
        seat_field({}, "leader")
    assert seat_field({}, "leader", 0) == 0
    assert seat_field({"leader": "second hand"}, "leader") == 1
    assert seat_field({"leader": 2}, "leader") == 2


# ---- the trick winner: solver.position.trick_winner

def test_trick_winner_matches_brute_force() -> None:
    import random

    from brute_force import trick_winner as reference

    from solver.notation import Card
    from solver.position import trick_winner

    rng = random.Random(18)
    cards = [Card.from_index(i) for i in range(32)]
    for _ in range(3000):
        *trick, talon = rng.sample(cards, 4)
        leader, trump = rng.randrange(3), rng.randrange(5)
        lead = trick[0] if rng.random() < 0.5 else None
        four = lead is None and rng.random() < 0.5
        shown = None if lead is not None else talon
        plays = tuple(((leader + i) % 3, (c.suit, c.rank)) for i, c in enumerate(trick))
        expected = reference(plays, (lead or talon).suit, trump if trump < 4 else None,
                             (talon.suit, talon.rank) if four else None)
        assert trick_winner(trick, leader, trump, shown, four) == expected


def test_line_tricks_is_the_played_line() -> None:
    from solver.advice.play import line_tricks
    from solver.analysis.lines import group_tricks
    from solver.engine import Solver
    from solver.position import Position

    solver = Solver()
    deal = Deal.parse(DEAL)
    for text, declarer in (("6c", 1), ("7s", 0), ("misere", 2), ("8nt", 0)):
        start = Position.start(deal, text, declarer)
        for after in (start, start.play(start.legal_cards()[0])):
            line = solver.best_line(after)
            tricks, end = group_tricks(after, line)
            assert line_tricks(after, line) == end.tricks_taken
            counted = list(after.tricks_taken)
            for trick in tricks:
                if trick.winner is not None:
                    counted[trick.winner] += 1
            assert tuple(counted) == end.tricks_taken


def test_trick_winner_has_one_home() -> None:
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    found = []
    for path in sorted([*(root / "solver").rglob("*.py"), *(root / "service").rglob("*.py")]):
        if "_proto" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "winner" in node.name:
                found.append(f"{path.relative_to(root)}:{node.name}")
    assert found == ["solver/position.py:trick_winner", "solver/position.py:_trick_winner"]


# ---- one C boundary: only solver/engine.py reaches the C core

def _core_imports(path) -> list[str]:
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[-1] == "_core"]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[-1] == "_core":
                found.append(module or ".")
            found += [f"{module}:{alias.name}" for alias in node.names if alias.name in ("_core", "lib", "ffi")]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__"):
            found += [arg.value for arg in node.args if isinstance(arg, ast.Constant) and "_core" in str(arg.value)]
    return found


def test_only_engine_imports_the_c_core() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    importers = {}
    for path in sorted([*(root / "solver").rglob("*.py"), *(root / "service").rglob("*.py")]):
        if "_proto" in path.parts:
            continue
        if found := _core_imports(path):
            importers[str(path.relative_to(root))] = found
    assert list(importers) == ["solver/engine.py"], importers
    assert importers["solver/engine.py"] == ["_core", "_core:ffi", "_core:lib"]


# ---- no search done twice: a known value goes to the best line

def _counting_solver():
    from solver.engine import Solver

    class Counting(Solver):
        solves = 0

        def solve(self, position):  # type: ignore[no-untyped-def]
            self.solves += 1
            return super().solve(position)

    return Counting()


def test_best_line_takes_the_known_value() -> None:
    from solver.analysis.play import analyze_play, best_line
    from solver.position import Position

    solver = _counting_solver()
    start = Position.start(Deal.parse(DEAL), "6c", 1)
    fresh = best_line(start, solver)
    assert solver.solves == 1
    known = best_line(start, solver, fresh.value)
    assert solver.solves == 1 and known == fresh
    played = analyze_play(DEAL, 1, "6c", fresh.cards[:4], solver=solver)
    assert played.line is not None and played.line.value == played.steps[-1].value_after
    assert played.line == best_line(played.final, _counting_solver())


def test_service_solve_searches_the_value_once() -> None:
    from service.convert import solve
    from solver.engine import Solver
    from solver.position import Position

    solver = _counting_solver()
    start = Position.start(Deal.parse(DEAL), "7s", 0)
    answer = solve(solver, start, card_values=False, best_line=True)
    assert solver.solves == 1
    assert answer.best_line == Solver().best_line(start)
    assert not hasattr(Solver, "call")
