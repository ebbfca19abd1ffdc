"""The published études of ../shared/data/etudes.json as analyses: the play
analysis finds their value, the best line is optimal all the way, and where
the source names the discard the best-discard search agrees with it."""
from __future__ import annotations

import json

import pytest

from conftest import SHARED_DATA, shared_file
from solver import Deal, Hand, Solver
from solver.analysis import analyze_play, best_discard, discard_table, discard_text


def load_etudes() -> list[dict]:
    path = SHARED_DATA / "etudes.json"
    return json.loads(path.read_text())["positions"] if path.exists() else []


ETUDES = load_etudes()
WITH_DISCARD = [etude for etude in ETUDES if etude["out_of_play"]]


def names(items: list[dict]) -> list[str]:
    return [item["name"] for item in items]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_mib=8)


def test_the_etudes_are_there() -> None:
    shared_file("etudes.json")
    assert ETUDES and WITH_DISCARD


@pytest.mark.parametrize("etude", ETUDES, ids=names(ETUDES))
def test_play_analysis_finds_the_value_and_an_optimal_line(solver: Solver, etude: dict) -> None:
    analysis = analyze_play(etude["deal"], etude["declarer"], etude["contract"],
                            leader=etude["leader"], solver=solver)
    assert analysis.value == etude["declarer_tricks"]
    assert analysis.line is not None and analysis.line.value == etude["declarer_tricks"]
    # Replaying the best line: every card keeps the value, and the declarer
    # ends with exactly that many tricks.
    replay = analyze_play(etude["deal"], etude["declarer"], etude["contract"],
                          analysis.line.cards, leader=etude["leader"], solver=solver)
    assert [step.cost for step in replay.steps] == [0] * 30
    assert replay.mistakes == ()
    assert replay.final.declarer_tricks == etude["declarer_tricks"]


@pytest.mark.parametrize("etude", WITH_DISCARD, ids=names(WITH_DISCARD))
def test_best_discard_agrees_with_the_published_discard(solver: Solver, etude: dict) -> None:
    hands = Deal.parse(etude["deal"]).hands
    deal = Deal(hands, Hand.parse(etude["out_of_play"]))
    found = best_discard(deal, etude["declarer"], etude["contract"], solver=solver)
    published = Hand.parse(etude["out_of_play"])
    as_played = analyze_play(deal, etude["declarer"], etude["contract"], discard=published,
                             solver=solver)
    assert as_played.value == etude["declarer_tricks"]
    # These études' discards are the best ones: the search lists them.
    assert found.value == etude["declarer_tricks"]
    assert discard_text(published) in [discard_text(d) for d in found.discards]
    row = discard_table(deal, solver=solver).rows[etude["declarer"]]
    best = row.misere if etude["contract"] == "misere" else row.strains[found.contract.trump]
    assert best.value == found.value
