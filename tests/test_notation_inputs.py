"""The card, contract, seat and decision texts players paste or type
(spec/notation.md, and the Russian forms of solver.notation's docstring):
the project's own printed forms pasted back, suit-first forms with suit
symbols, Russian ranks, suits, contracts and decisions."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.notation import Card, Contract, Deal, Hand, NotationError, parse_seat
from solver.scoring import Decision
from solver.scoring.outcome import decision
from solver.advice.inputs import parse_decision
from solver.scoring.errors import ScoringError
from solver.advice.errors import AdviceError

EXAMPLE = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K")


@st.composite
def full_deals(draw) -> Deal:
    order = draw(st.permutations(range(32)))
    hands = tuple(Hand.from_cards(Card.from_index(i) for i in order[10 * s:10 * s + 10]) for s in range(3))
    return Deal(hands, Hand.from_cards(Card.from_index(i) for i in order[30:]))


def test_printed_diagram_pastes_back():
    assert Deal.parse(EXAMPLE.pretty()) == EXAMPLE
    assert "first hand:" in EXAMPLE.pretty()


@given(full_deals())
@settings(max_examples=60, deadline=None)
def test_printed_forms_paste_back(deal):
    assert Deal.parse(deal.pretty()) == deal
    hands = list(deal.hands) + [deal.talon]
    assert Deal.parse(" / ".join(h.pretty() for h in hands)) == deal
    assert Deal.parse("\n".join(h.pretty() for h in hands)) == deal
    assert Deal.parse("  ".join(h.pretty() for h in hands)) == deal
    for hand in hands:
        assert Hand.parse(hand.pretty()) == hand


def test_labels_in_russian_and_out_of_order():
    text = ("первая рука: ♠AQ7 ♣K98 ♦KT ♥QJ\nвторая рука: ♠K ♣AQ7 ♦AQ7 ♥T87\n"
            "третья рука: ♠JT98 ♣JT ♦98 ♥A9\nприкуп: ♦J ♥K")
    assert Deal.parse(text) == EXAMPLE
    swapped = "second hand: ♠K ♣AQ7 ♦AQ7 ♥T87\nfirst hand: ♠AQ7 ♣K98 ♦KT ♥QJ\nthird hand: ♠JT98 ♣JT ♦98 ♥A9"
    with pytest.raises(NotationError, match="labelled hand 1, hand 0, hand 2; expected hand 0, hand 1, hand 2"):
        Deal.parse(swapped)


def test_suit_first_forms():
    assert Hand.parse("♠ A K 10 ♣ Q J") == Hand.parse("AKT.QJ..")
    assert Hand.parse("♠A♠K ♣Q") == Hand.parse("AK.Q..")
    assert Hand.parse("♠ AK ♣ — ♦ 7") == Hand.parse("AK..7.")
    assert Hand.parse("s AKT c QJ") == Hand.parse("AKT.QJ..")


def test_russian_ranks_and_suits():
    assert Hand.parse("♠ТК10 ♣ДВ ♦7 ♥—") == Hand.parse("AKT.QJ.7.")
    assert Hand.parse("пики: Т К 10; трефы: Д В") == Hand.parse("AKT.QJ..")
    assert Hand.parse("Пики ТК Бубны 98 Черви Д") == Hand.parse("AK..98.Q")
    assert Hand.parse("туз пик, дама червей, 10♦") == Hand.parse("A..T.Q")
    assert Hand.parse("король треф валет бубен") == Hand.parse(".K.J.")
    assert Card.parse("Т♠") == Card.parse("As")      # Cyrillic Т: туз, the ace
    assert Card.parse("T♠") == Card.parse("Ts")      # Latin T: the ten
    assert Card.parse("д♥") == Card.parse("Qh")
    assert Card.parse("десятка червей") == Card.parse("Th")


def test_russian_errors_name_the_problem():
    with pytest.raises(NotationError, match=re.escape("suit '♠' is not followed by ranks")):
        Hand.parse("пики трефы ДВ")
    with pytest.raises(NotationError, match=re.escape("card Qc given twice")):
        Hand.parse("♣ДВ ♣Q")
    with pytest.raises(NotationError, match=re.escape("suit '♠' in '♠Ж' is not followed by ranks")):
        Hand.parse("♠Ж")
    with pytest.raises(NotationError, match=re.escape("'Ж' at position 0 is neither a rank")):
        Hand.parse("Ж♠")


@pytest.mark.parametrize("text, canonical", [
    ("6 пик", "6s"), ("7 треф", "7c"), ("8 бубен", "8d"), ("8 бубён", "8d"), ("6 червей", "6h"),
    ("7 бк", "7nt"), ("7 б/к", "7nt"), ("10 без козыря", "10nt"), ("мизер", "misere"),
    ("Мизер", "misere"), ("распасы", "allpass"), ("6♠", "6s"),
])
def test_russian_contracts(text, canonical):
    assert str(Contract.parse(text)) == canonical


def test_russian_contract_errors():
    with pytest.raises(NotationError, match="out of range 6..10"):
        Contract.parse("5 пик")
    with pytest.raises(NotationError, match="unknown contract 'шесть пик'"):
        Contract.parse("шесть пик")


def test_russian_seats():
    assert [parse_seat(w) for w in ("первая", "Вторая рука", "третья")] == [0, 1, 2]


@pytest.mark.parametrize("text, expected", [
    ("вист", Decision.WHIST), ("пас", Decision.PASS), ("полвиста", Decision.HALF_WHIST),
    ("пол-виста", Decision.HALF_WHIST), ("Half-whist", Decision.HALF_WHIST), ("whist", Decision.WHIST),
])
def test_decisions(text, expected):
    assert Decision.from_text(text) is expected
    assert decision(text, "B") is expected
    assert parse_decision(text) is expected


def test_decision_errors():
    assert Decision.from_text("виста") is None
    with pytest.raises(ScoringError, match="decision of 'B'.*got 'виста'"):
        decision("виста", "B")
    with pytest.raises(AdviceError, match="got 'maybe'"):
        parse_decision("maybe")
