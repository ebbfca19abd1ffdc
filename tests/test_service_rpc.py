"""Each RPC end to end (a real server on 127.0.0.1, the real client) against
the in-process API's answers and the reference data."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Iterator

import pytest

from conftest import LOCAL_DATA, SHARED_DATA, batch_answer, load_jsonl, shared_file
from service_support import client, random_deal, running_server  # noqa: F401  (client: a fixture)

from solver import Hand, Position, Solver
from solver.scoring import game_from_json, handle_request
from solver.scoring.drawing import game_json
from service.client import AnalysisClient, BatchItem
from service.server import RunningServer

DD_RECORDS = load_jsonl("dd-full.jsonl") + load_jsonl("dd-endgames.jsonl")
ALLPASS_RECORDS = load_jsonl("allpass.jsonl")


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


ETUDES = _json(SHARED_DATA / "etudes.json").get("positions", [])
VECTORS = _json(SHARED_DATA / "scoring-vectors.json").get("vectors", [])


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2) as running:
        yield running


def test_reference_data_is_present() -> None:
    shared_file("dd-full.jsonl")
    assert len(DD_RECORDS) >= 150 and ALLPASS_RECORDS and ETUDES and len(VECTORS) >= 60


# ---- Solve ---------------------------------------------------------------------

@pytest.mark.parametrize("record", DD_RECORDS, ids=lambda r: r["deal"])
def test_solve_reference_positions(client: AnalysisClient, record: dict) -> None:
    cards = "card_values" in record
    answer = client.solve(record["deal"], record["contract"], record["declarer"], leader=record["leader"],
                          card_values=cards)
    assert answer.declarer_tricks == record["declarer_tricks"]
    assert answer.seat_to_move == record["leader"]
    if cards:
        assert answer.card_values == record["card_values"]


@pytest.mark.parametrize("record", ALLPASS_RECORDS, ids=lambda r: r["deal"])
def test_solve_allpass_reference_positions(client: AnalysisClient, record: dict) -> None:
    answer = client.solve(record["deal"], "allpass", record["player"], talon=record["talon"])
    assert answer.declarer_tricks == record["player_tricks"]


@pytest.mark.parametrize("etude", ETUDES, ids=lambda e: e["name"])
def test_solve_etudes(client: AnalysisClient, etude: dict) -> None:
    answer = client.solve(etude["deal"], etude["contract"], etude["declarer"], leader=etude["leader"])
    assert answer.declarer_tricks == etude["declarer_tricks"]


def _random_prefix(position: Position, rng: random.Random, cards: int) -> list[str]:
    played = []
    for _ in range(cards):
        card = rng.choice(position.legal_cards())
        position = position.play(card)
        played.append(str(card))
    return played


@pytest.mark.parametrize("seed", range(6))
def test_solve_inside_the_play_matches_the_api(client: AnalysisClient, seed: int) -> None:
    """Cards played, card values and the best line, against the in-process solver."""
    rng = random.Random(seed)
    deal = random_deal(seed)
    contract = ["6s", "7c", "8nt", "misere", "6h", "allpass"][seed]
    declarer = seed % 3
    start = Position.start(deal, contract, declarer, 0)
    played = _random_prefix(start, rng, 4 + seed)
    position = Position.after(deal, contract, declarer, played)
    solver = Solver()
    answer = client.solve(str(deal), contract, declarer, played=played, card_values=True, best_line=True)
    assert answer.declarer_tricks == solver.solve(position)
    assert answer.seat_to_move == position.seat_to_move
    assert answer.tricks_left == position.tricks_left
    assert answer.card_values == {str(c): v for c, v in sorted(solver.card_values(position).items())}
    # The best line is legal to the end, and each card keeps the value.
    line_position = position
    for card in answer.best_line:
        line_position = line_position.play(card)
        if not line_position.is_over:
            assert solver.solve(line_position) == answer.declarer_tricks
    assert line_position.is_over and line_position.declarer_tricks == answer.declarer_tricks


# ---- EvaluateBatch -------------------------------------------------------------

def _item(record: dict, item_id: str) -> BatchItem:
    seat = record["player"] if record["contract"] == "allpass" else record["declarer"]
    return BatchItem(deal=record["deal"], contract=record["contract"], declarer=seat,
                     leader=record.get("leader"), talon=record.get("talon", ""),
                     card_values=bool(record.get("cards")), id=item_id)


def test_batch_answers_equal_the_batch_protocol(client: AnalysisClient) -> None:
    records = DD_RECORDS + ALLPASS_RECORDS
    results = list(client.evaluate_batch(_item(r, f"r{i}") for i, r in enumerate(records)))
    assert sorted(r.index for r in results) == list(range(len(records)))
    for result in results:
        record = records[result.index]
        assert result.id == f"r{result.index}" and result.ok, result.error
        expected = batch_answer(record)
        assert result.declarer_tricks == expected.get("declarer_tricks", expected.get("player_tricks"))
        assert result.card_values == expected.get("card_values", {})
        assert result.declarer_tricks == record.get("declarer_tricks", record.get("player_tricks"))


@pytest.mark.parametrize("chunk_size", [1, 64])
def test_batch_with_bad_items_keeps_going(client: AnalysisClient, chunk_size: int) -> None:
    good = DD_RECORDS[:20]
    bad = [
        BatchItem(deal="AK.7..J9 .Q9.Q8.T", contract="6nt", declarer=0, id="two hands"),
        BatchItem(deal="AK.7..J9 .Q9.Q8.T 7.T.9.AK", contract="6nt", declarer=0, talon="A...", id="dup"),
        BatchItem(deal="AK.7..J9 .Q9.Q8.T 7.T.9.AZ", contract="misere", declarer=1, id="bad rank"),
    ]
    items = [_item(record, f"good{i}") for i, record in enumerate(good)]
    for place, item in zip((0, 7, 15), bad):
        items.insert(place, item)
    results = {r.id: r for r in client.evaluate_batch(items, chunk_size=chunk_size)}
    assert len(results) == len(items) == len(good) + len(bad)
    for item in bad:
        request = {"deal": item.deal, "contract": item.contract, "declarer": item.declarer,
                   **({"talon": item.talon} if item.talon else {})}
        with pytest.raises(ValueError) as expected:
            batch_answer(request)
        assert results[item.id].error == str(expected.value)
    for i, record in enumerate(good):
        assert results[f"good{i}"].declarer_tricks == record["declarer_tricks"]


def small_endgame(seed: int) -> dict:
    """A batch request on a random 4-card endgame."""
    rng = random.Random(seed)
    deal = random_deal(seed)
    hands = [Hand.from_cards(rng.sample(hand.cards(), 4)) for hand in deal.hands]
    return {"deal": " ".join(str(hand) for hand in hands), "contract": rng.choice(["6s", "6nt", "misere"]),
            "declarer": rng.randrange(3), "leader": rng.randrange(3)}


def test_a_long_stream_is_answered_completely(client: AnalysisClient) -> None:
    """More items than the in-flight window, pushed by a lazy generator."""
    requests = [small_endgame(seed) for seed in range(300)]
    count = 1500

    def items() -> Iterator[BatchItem]:
        for i in range(count):
            yield _item(requests[i % len(requests)], str(i))

    totals = {}
    for result in client.evaluate_batch(items()):
        assert result.ok and int(result.id) == result.index
        totals[result.index] = result.declarer_tricks
    assert len(totals) == count
    expected = [batch_answer(request)["declarer_tricks"] for request in requests]
    assert all(totals[i] == expected[i % len(requests)] for i in range(count))


# ---- Score ---------------------------------------------------------------------

@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["id"])
def test_score_vectors(client: AnalysisClient, vector: dict) -> None:
    answer = client.score(vector["convention"], vector["kind"], vector["input"],
                          option_overrides=vector.get("option_overrides"), players=vector.get("players") or ())
    assert answer == handle_request(vector) == vector["expected"]


def test_score_a_whole_game(client: AnalysisClient) -> None:
    game = json.loads((LOCAL_DATA / "pool-example.json").read_text(encoding="utf-8"))
    answer = client.score(game["convention"], "game", game)
    assert answer == game_json(game_from_json(game))
    assert set(answer) >= {"final_records", "settlement", "final_balance", "money"}
    other = client.score("leningrad", "game", game)
    assert other == game_json(game_from_json({**game, "convention": "leningrad"}))
    assert other["convention"] != answer["convention"]
