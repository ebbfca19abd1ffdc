"""All-pass analyses: the per-player values against ../shared/data/allpass.jsonl
and the plain minimax of brute_force.py; the max^n line against a plain max^n
written here, on small endgames (3 and 4 players, talon leads on and off,
positions inside a trick)."""
from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest

from brute_force import Game, legal_cards, trick_winner
from conftest import batch_line, load_jsonl
from solver import Card, Deal, Hand, Position, SearchStopped, Solver
from solver.analysis import AnalysisError, allpass_line, allpass_values
from solver.analysis.allpass import allpass_start

BCard = tuple[int, int]


def random_allpass(rng: random.Random, max_cards: int = 4) -> Position:
    size = rng.randint(1, max_cards)
    cards = rng.sample(range(32), 3 * size + 2)
    hands = [Hand.from_cards(Card.from_index(i) for i in cards[k * size:(k + 1) * size]) for k in range(3)]
    talon = Hand.from_cards(Card.from_index(i) for i in cards[3 * size:])
    position = allpass_start(Deal((hands[0], hands[1], hands[2]), talon),
                             talon_leads=rng.random() < 0.7, four_players=rng.random() < 0.5)
    for _ in range(rng.randrange(3)):
        position = position.play(rng.choice(position.legal_cards()))
    return position


def brute_state(position: Position):
    hands = tuple(frozenset((c.suit, c.rank) for c in h) for h in position.hands)
    plays = tuple(((position.leader + i) % 3, (c.suit, c.rank)) for i, c in enumerate(position.trick))
    talon = tuple((c.suit, c.rank) for c in position.talon_leads)
    return hands, plays, position.leader, talon


def plain_maxn(position: Position) -> tuple[tuple[int, int, int, int], list[Card]]:
    """Max^n by plain recursion: each seat takes the card giving it the fewest
    tricks of its own, the first such card in index order. Answers the future
    tricks of seats 0-2 and of nobody (slot 3), and the line."""
    four = position.four_players

    @lru_cache(maxsize=None)
    def value(hands, plays, first, talon) -> tuple[tuple[int, ...], tuple[BCard, ...]]:
        if not any(hands) and not plays:
            return (0, 0, 0, 0), ()
        seat = (first + len(plays)) % 3
        lead = talon[0][0] if talon else (plays[0][1][0] if plays else None)
        best = None
        for card in legal_cards(hands[seat], lead, None):
            new_hands = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
            new_plays = plays + ((seat, card),)
            if len(new_plays) < 3:
                outcome, line = value(new_hands, new_plays, first, talon)
            else:
                winner = trick_winner(new_plays, lead, None, talon[0] if talon and four else None)
                rest, line = value(new_hands, (), 0 if talon else winner, talon[1:])
                slot = 3 if winner is None else winner
                outcome = tuple(t + (1 if i == slot else 0) for i, t in enumerate(rest))
            if best is None or outcome[seat] < best[0][seat]:
                best = (outcome, (card,) + line)
        return best

    outcome, line = value(*brute_state(position))
    return outcome, [Card(s, r) for s, r in line]  # type: ignore[return-value]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_mib=4)


REFERENCE = load_jsonl("allpass.jsonl")


@pytest.mark.parametrize("line", REFERENCE, ids=[str(i) for i in range(len(REFERENCE))])
def test_values_match_reference(solver: Solver, line: dict) -> None:
    deal = Deal(Deal.parse(line["deal"]).hands, Hand.parse(line["talon"]))
    values = allpass_values(deal, solver=solver)
    assert values.tricks[line["player"]] == line["player_tricks"]


@pytest.mark.parametrize("seed", range(80))
def test_values_match_brute_force(solver: Solver, seed: int) -> None:
    position = random_allpass(random.Random(seed))
    values = allpass_values(position, solver=solver)
    for player in range(3):
        game = Game("misere", player, None, position.four_players)
        expected = position.tricks_taken[player] + game.value(*brute_state(position))
        assert values.tricks[player] == expected, (position, player)


@pytest.mark.parametrize("seed", range(200))
def test_maxn_line_matches_plain_maxn(solver: Solver, seed: int) -> None:
    position = random_allpass(random.Random(10_000 + seed))
    outcome, line = plain_maxn(position)
    found = allpass_line(position, solver=solver)
    assert list(found.cards) == line, position
    expected = tuple(position.tricks_taken[s] + outcome[s] for s in range(3))
    assert (found.tricks, found.unclaimed) == (expected, outcome[3])


@pytest.mark.parametrize("seed", range(3))
def test_full_deal_line_is_consistent(solver: Solver, seed: int) -> None:
    # Whole deals where the search is quick (some seat can duck everything).
    rng = random.Random(seed)
    for _ in range(50):
        cards = rng.sample(range(32), 32)
        hands = [Hand.from_cards(Card.from_index(i) for i in cards[k * 10:(k + 1) * 10]) for k in range(3)]
        deal = Deal((hands[0], hands[1], hands[2]), Hand.from_cards(Card.from_index(i) for i in cards[30:]))
        solver.reset_stats()
        found = allpass_line(deal, solver=solver)
        if solver.stats().nodes < 200_000:
            break
    assert len(found.cards) == 30
    assert sum(found.tricks) + found.unclaimed == 10
    assert sum(1 for t in found.tricks_played if t.winner is None) == found.unclaimed
    # From any position on the line the search goes on the same way, and the
    # card the line plays there is the first card (in index order) giving the
    # mover his fewest tricks.
    middle = Position.after(deal, "allpass", 0, found.cards[:13])
    rest = allpass_line(middle, solver=solver)
    assert list(rest.cards) == list(found.cards[13:]) and rest.tricks == found.tricks
    mover = middle.seat_to_move
    outcomes = {card: allpass_line(middle.play(card), solver=solver).tricks[mover]
                for card in middle.legal_cards()}
    fewest = min(outcomes.values())
    assert found.cards[13] == next(c for c in middle.legal_cards() if outcomes[c] == fewest)


def test_stop_request_stops_the_line_search() -> None:
    solver = Solver(table_mib=1)
    deal = Deal.parse("J98.Q7.KQJT.7 AKQT.A98.8.J9 7.KJT.A9.KQT8 ..7.A")
    solver.request_stop()
    with pytest.raises(SearchStopped):
        allpass_line(deal, solver=solver)
    solver.clear_stop()
    assert sum(allpass_line(deal, solver=solver).tricks) <= 10


def test_line_request_in_batch() -> None:
    request = {"deal": "J98.Q7.KQJT.7 AKQT.A98.8.J9 7.KJT.A9.KQT8", "talon": "..7.A",
               "contract": "allpass", "line": True, "player": 2, "id": "x"}
    answer = json.loads(batch_line(json.dumps(request)))
    deal = Deal.parse(request["deal"] + " " + request["talon"])
    line = allpass_line(deal)
    assert answer == {"id": "x", "tricks": list(line.tricks), "line": [str(c) for c in line.cards],
                      "player_tricks": 6}
    off = json.loads(batch_line(json.dumps({**request, "talon_leads": False, "four_players": True})))
    assert off["tricks"] == list(allpass_line(deal, talon_leads=False, four_players=True).tricks)
    bad = json.loads(batch_line(json.dumps({**request, "contract": "6s"})))
    assert "allpass" in bad["error"]
    bad = json.loads(batch_line(json.dumps({**request, "line": "yes"})))
    assert "true or false" in bad["error"]


def test_a_trick_contract_position_is_refused() -> None:
    position = Position.start("A.7.. K.8.. Q.9..", "6s", 0)
    with pytest.raises(AnalysisError, match="all-pass"):
        allpass_line(position)
