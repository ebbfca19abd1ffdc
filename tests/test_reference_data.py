"""Every reference position of ../shared/data agrees with the solver, through
the Python API and through the batch interface."""
from __future__ import annotations

import json

import pytest

from conftest import batch_line, load_jsonl, shared_file
from solver import Card, Contract, Position, Solver, allpass_tricks

DD_RECORDS = load_jsonl("dd-endgames.jsonl") + load_jsonl("dd-full.jsonl")
ALLPASS_RECORDS = load_jsonl("allpass.jsonl")


def _etudes() -> list[dict]:
    from conftest import SHARED_DATA
    path = SHARED_DATA / "etudes.json"
    return json.loads(path.read_text())["positions"] if path.exists() else []


ETUDES = _etudes()


def test_reference_data_is_present() -> None:
    shared_file("dd-full.jsonl")
    assert len(DD_RECORDS) >= 150 and ALLPASS_RECORDS and ETUDES


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


@pytest.mark.parametrize("record", DD_RECORDS, ids=lambda r: r["deal"])
def test_dd_positions(solver: Solver, record: dict) -> None:
    position = Position.start(record["deal"], record["contract"], record["declarer"], record["leader"])
    assert solver.solve(position) == record["declarer_tricks"]
    if "card_values" in record:
        values = {str(card): v for card, v in solver.card_values(position).items()}
        assert values == record["card_values"]


@pytest.mark.parametrize("record", DD_RECORDS, ids=lambda r: r["deal"])
def test_dd_positions_through_batch(record: dict) -> None:
    answer = json.loads(batch_line(json.dumps(record)))
    assert answer["declarer_tricks"] == record["declarer_tricks"]
    if record.get("cards"):
        assert answer["card_values"] == record["card_values"]


@pytest.mark.parametrize("record", ALLPASS_RECORDS, ids=lambda r: r["deal"])
def test_allpass_positions(record: dict) -> None:
    deal = record["deal"] + " " + record["talon"]
    assert allpass_tricks(deal, record["player"]) == record["player_tricks"]
    answer = json.loads(batch_line(json.dumps(record)))
    assert answer == {"player_tricks": record["player_tricks"]}


@pytest.mark.parametrize("etude", ETUDES, ids=lambda e: e["name"])
def test_etudes(solver: Solver, etude: dict) -> None:
    position = Position.start(etude["deal"], etude["contract"], etude["declarer"], etude["leader"])
    assert solver.solve(position) == etude["declarer_tricks"]
    # The value is that of the leader's best first card.
    values = solver.card_values(position).values()
    wants_more = (etude["leader"] == etude["declarer"]) == (Contract.parse(etude["contract"]).level is not None)
    best = max(values) if wants_more else min(values)
    assert best == etude["declarer_tricks"]
