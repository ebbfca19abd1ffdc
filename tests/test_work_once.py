"""No work done twice in one request: a position's fields are checked once
(however many calls into the core it takes: the value, the card values, the
line), a line is searched from its value when the value is known, and the
declarer's best discards are searched once per analysis. The C core still
checks every position it is given (tests/test_c_boundary.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

import pytest

from service_support import client, running_server  # noqa: F401  (client: a fixture)

import solver.batch
from solver import Position, Solver, engine
from solver.analysis import analyze_play, best_line, discard as discard_module
from solver.analysis.deal import DealRequest, analyze_deal
from solver.batch import evaluate
from solver.notation import Card, Contract, Deal
from solver.position import PositionError
from service import convert, enums
from service.client import AnalysisClient, BatchItem
from service.server import RunningServer
from service.web import calls

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
PLAYED = "As Ks 8s 7s 7h 9s Ac Tc 8c".split()


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=1) as running:
        yield running


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[Position]:
    """Every position whose fields are checked, in order."""
    seen: list[Position] = []
    real = engine._check_fields

    def counted(position: Position, what: str) -> None:
        seen.append(position)
        real(position, what)

    monkeypatch.setattr(engine, "_check_fields", counted)
    return seen


def test_a_solve_request_checks_its_position_once(client: AnalysisClient, checked: list[Position]) -> None:
    answer = client.solve(DEAL, "6h", 1, played=PLAYED[:4], card_values=True, best_line=True)
    assert answer.card_values and answer.best_line
    assert len(checked) == 1   # one position, three calls into the core


def test_a_batch_request_checks_its_position_once(checked: list[Position]) -> None:
    answer = evaluate({"deal": DEAL, "contract": "6c", "declarer": 1, "cards": True}, Solver(table_mib=1))
    assert answer["card_values"]
    assert len(checked) == 1


@pytest.fixture
def field_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every seat and contract field read from a request, by its name."""
    seen: list[str] = []
    seats = enums.SEATS.from_proto
    contract_fields = convert.contract_from_fields
    seat_field = solver.batch.seat_field
    parse = Contract.parse.__func__  # type: ignore[attr-defined]

    def seat_from_proto(number: int, field: str, required: bool = False) -> Any:
        seen.append(field)
        return seats(number, field, required)

    def from_fields(*args: Any, **kwargs: Any) -> Contract:
        seen.append("contract")
        return contract_fields(*args, **kwargs)

    def from_json(request: Any, name: str, *args: Any, **kwargs: Any) -> int:
        seen.append(name)
        return seat_field(request, name, *args, **kwargs)

    def parsed(cls: type, text: str) -> Contract:
        seen.append("contract")
        return parse(cls, text)

    monkeypatch.setattr(enums.SEATS, "from_proto", seat_from_proto)
    monkeypatch.setattr(convert, "contract_from_fields", from_fields)
    monkeypatch.setattr(solver.batch, "seat_field", from_json)
    monkeypatch.setattr(Contract, "parse", classmethod(parsed))
    return seen


def test_a_batch_item_checks_each_field_and_its_position_once(
        client: AnalysisClient, checked: list[Position], field_checks: list[str]) -> None:
    items = [item.to_proto() for item in (   # the client's own reading of "6c" is not the server's
        BatchItem(DEAL, "6c", 1, leader=2, card_values=True, id="cards"),
        BatchItem(DEAL, "misere", 0, id="misere"),
        BatchItem("AK.7..J9 .Q9.Q8.T 7.T.9.AK", "allpass", 2, id="allpass"))]
    for item in items:
        checked.clear()
        field_checks.clear()
        [result] = client.evaluate_batch([item])
        assert result.id == item.id and result.ok, result
        assert len(checked) == 1
        assert field_checks == ["contract", "declarer", "leader"]


def test_a_best_line_checks_its_position_once(checked: list[Position]) -> None:
    position = Position.after(Deal.parse("AK.7..J9 .Q9.Q8.T 7.T.9.AK"), "6nt", 0, ["Ks"])
    assert best_line(position).cards
    assert len(checked) == 1


def test_an_analysis_checks_no_position_twice(checked: list[Position]) -> None:
    analysis = analyze_deal(DealRequest(Deal.parse(DEAL), Contract.parse("6h"), 1, played=tuple(PLAYED)))
    assert analysis.play is not None and len(analysis.play.steps) == len(PLAYED)
    assert checked and len({id(p) for p in checked}) == len(checked)


def test_a_position_changed_by_hand_is_checked_again(checked: list[Position]) -> None:
    solver = Solver(table_mib=1)
    position = Position.start(DEAL, "6c", 1)
    solver.solve(position)
    bad = replace(position, declarer=5)
    for _ in range(2):
        with pytest.raises(PositionError, match="declarer must be a seat"):
            solver.solve(bad)
    assert checked == [position, bad, bad]


@pytest.fixture
def line_guesses(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The value guess of every best-line search."""
    guesses: list[Any] = []
    real = Solver.best_line

    def recorded(self: Solver, position: Position, value_guess: int | None = None) -> list:
        guesses.append(value_guess)
        return real(self, position, value_guess)

    monkeypatch.setattr(Solver, "best_line", recorded)
    return guesses


def test_every_line_is_searched_from_its_known_value(client: AnalysisClient, line_guesses: list[Any]) -> None:
    client.solve(DEAL, "6h", 1, played=PLAYED[:4], best_line=True)
    analyze_deal(DealRequest(Deal.parse(DEAL), Contract.parse("6h"), 1, played=tuple(PLAYED[:5])))
    analyze_play(DEAL, 1, "misere", discard="..J.K")
    calls.position({"deal": DEAL, "contract": "6c", "declarer": 1, "best_line": True}, Solver(table_mib=1))
    assert len(line_guesses) == 4 and None not in line_guesses


@pytest.mark.parametrize("played", [(), tuple(PLAYED[:3]), tuple(PLAYED)])
def test_the_best_discards_are_searched_once_per_analysis(monkeypatch: pytest.MonkeyPatch,
                                                         played: tuple[str, ...]) -> None:
    searches: list[bool] = []
    real = discard_module.best_discard_search

    def counted(*args: Any, **options: Any) -> Any:
        searches.append(args[6])  # all_best
        return real(*args, **options)

    monkeypatch.setattr(discard_module, "best_discard_search", counted)
    analysis = analyze_deal(DealRequest(Deal.parse(DEAL), Contract.parse("6h"), 1, played=played))
    assert analysis.best is not None and analysis.play is not None
    deal = Deal.parse(DEAL)
    pool = deal.hands[1] | deal.talon   # the declarer's cards before his discard
    kept = any(Card.parse(card) in pool for card in played)
    # With none of his cards played the play takes one class of best discards
    # (a cheaper search whose first discard the answers have always shown).
    assert searches == ([True] if kept else [True, False])
    assert analysis.play.value == analysis.best.value
