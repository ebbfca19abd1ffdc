"""Positions inside the play: rules checks with clear messages."""
from __future__ import annotations

import pytest

from solver import Card, Position, PositionError, Solver

DEAL = "AKJ9.A.KJ.T98 QT7.QJ8.A7.J7 8.T97.QT98.KQ"


def test_play_follows_the_rules() -> None:
    p = Position.start(DEAL, "6h", declarer=0, leader=0)
    assert p.seat_to_move == 0 and p.tricks_left == 10
    p = p.play("As").play("7s").play("8s")
    assert p.trick == () and p.leader == 0 and p.tricks_taken == (1, 0, 0)
    assert p.history == tuple(Card.parse(c) for c in ("As", "7s", "8s"))


def test_must_follow_suit() -> None:
    p = Position.start(DEAL, "6h", declarer=0).play("As")
    with pytest.raises(PositionError, match=r"second hand \(seat 1\) played Qc but must follow suit"):
        p.play("Qc")


def test_must_trump_when_void() -> None:
    # Third hand has one spade; after it is gone, a spade lead forces a heart.
    p = Position.after(DEAL, "6h", 0, ["As", "7s", "8s", "Ks", "Ts"])
    with pytest.raises(PositionError, match="must play a trump"):
        p.play("7c")
    after = p.play("Kh")
    assert after.history[-1] == Card.parse("Kh") and after.tricks_taken == (1, 0, 1)


def test_card_not_held_and_game_over() -> None:
    p = Position.start(DEAL, "6h", declarer=0)
    with pytest.raises(PositionError, match="does not hold"):
        p.play("Qs")
    with pytest.raises(PositionError, match="unknown|rank|card"):
        p.play("Zz")


def test_bad_seats() -> None:
    with pytest.raises(PositionError, match="declarer"):
        Position.start(DEAL, "6h", declarer=3)
    with pytest.raises(PositionError, match="leader"):
        Position.start(DEAL, "6h", declarer=0, leader=-1)


def test_allpass_talon_leads_need_first_hand() -> None:
    deal = "J98.Q7.KQJT.7 AKQT.A98.8.J9 7.KJT.A9.KQT8 ..7.A"
    with pytest.raises(PositionError, match="first hand"):
        Position.start(deal, "allpass", 0, leader=1)
    p = Position.start(deal, "allpass", 2)
    assert [str(c) for c in p.talon_leads] == ["7d", "Ah"]
    # Seat 0 plays first and must follow the talon's diamond.
    assert p.legal_cards() == [Card.parse(c) for c in ("Td", "Jd", "Qd", "Kd")]


def test_value_after_cards_is_consistent() -> None:
    solver = Solver(table_mib=2)
    p = Position.start(DEAL, "6h", declarer=0, leader=2)
    values = solver.card_values(p)
    for card, value in values.items():
        assert solver.solve(p.play(card)) == value
