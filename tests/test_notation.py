"""Tests for solver.notation (spec/notation.md)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.notation import (
    NO_TRUMP,
    RANKS,
    SEAT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    Contract,
    ContractKind,
    Deal,
    Hand,
    NotationError,
    _missing_cards_error,
    format_cards,
    parse_cards,
    parse_seat,
)

EXAMPLE_DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"


def C(text: str) -> Card:
    return Card.parse(text)


def H(text: str) -> Hand:
    return Hand.parse(text)


def raises(match: str):
    """pytest.raises(NotationError) with a literal (not regex) message fragment."""
    return pytest.raises(NotationError, match=re.escape(match))


# ---------------------------------------------------------------- strategies

cards_st = st.builds(Card, st.integers(0, 3), st.integers(0, 7))
hands_st = st.integers(0, (1 << 32) - 1).map(Hand)
contracts_st = st.one_of(
    st.builds(
        lambda level, strain: Contract(ContractKind.TRICKS, level, strain),
        st.integers(6, 10),
        st.integers(0, 4),
    ),
    st.just(Contract(ContractKind.MISERE)),
    st.just(Contract(ContractKind.ALLPASS)),
)


@st.composite
def deals_st(draw) -> Deal:
    order = draw(st.permutations(range(32)))
    size = draw(st.integers(0, 10))
    with_talon = draw(st.booleans())
    hands = tuple(
        Hand.from_cards(Card.from_index(i) for i in order[seat * size:(seat + 1) * size])
        for seat in range(3)
    )
    talon = None
    if with_talon:
        talon = Hand.from_cards(Card.from_index(i) for i in order[3 * size:3 * size + 2])
    return Deal(hands, talon)


# ---------------------------------------------------------------- constants

def test_constants():
    assert SUITS == "scdh"
    assert RANKS == "789TJQKA"
    assert SUIT_SYMBOLS == "♠♣♦♥"
    assert NO_TRUMP == 4
    assert SEAT_NAMES == ("first hand", "second hand", "third hand")
    assert issubclass(NotationError, ValueError)


# ---------------------------------------------------------------- cards

def test_card_index_convention():
    assert Card(0, 0).index == 0          # 7 of spades
    assert C("As").index == 7
    assert C("7c").index == 8
    assert C("Td").index == 2 * 8 + 3
    assert C("Ah").index == 31
    for index in range(32):
        card = Card.from_index(index)
        assert card.index == index
        assert card == Card(index // 8, index % 8)


@pytest.mark.parametrize(
    "text, suit, rank",
    [
        ("As", 0, 7), ("Tc", 1, 3), ("7d", 2, 0), ("Qh", 3, 5),
        ("10c", 1, 3), ("Xc", 1, 3), ("xc", 1, 3), ("tc", 1, 3),
        ("AS", 0, 7), ("as", 0, 7), ("aS", 0, 7),
        ("sA", 0, 7), ("SA", 0, 7), ("♠A", 0, 7), ("♠10", 0, 3), ("♠X", 0, 3),
        ("A♠", 0, 7), ("10♥", 3, 3), ("K♦", 2, 6), ("♣J", 1, 4),
        ("♥️A", 3, 7),        # emoji heart with variation selector
        ("♤A", 0, 7), ("♡9", 3, 2),
        ("  8h  ", 3, 1),
    ],
)
def test_card_parse_lenient(text, suit, rank):
    assert Card.parse(text) == Card(suit, rank)


def test_card_str_and_pretty():
    assert str(C("10c")) == "Tc"
    assert str(C("♠A")) == "As"
    assert C("As").pretty() == "♠A"
    assert C("10c").pretty() == "♣T"
    assert C("7h").pretty() == "♥7"


def test_card_ordering_is_by_index():
    cards = [Card.from_index(i) for i in (31, 0, 8, 7)]
    assert sorted(cards) == [Card.from_index(i) for i in (0, 7, 8, 31)]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("Zs", "'Zs'"),
        ("Zs", "'Z'"),
        ("Az", "'Az'"),
        ("A", "'A'"),
        ("s", "'s'"),
        ("1c", "did you mean 10?"),
        ("AsKs", "holds 2 cards"),
        ("", "empty card text"),
        ("   ", "empty card text"),
        ("Ss", "'Ss'"),
    ],
)
def test_card_parse_errors(text, fragment):
    with raises(fragment):
        Card.parse(text)


def test_card_parse_non_text():
    with raises("expected text"):
        Card.parse(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [-1, 32, 100])
def test_card_from_index_out_of_range(index):
    with raises(f"card index {index} is out of range 0..31"):
        Card.from_index(index)


@pytest.mark.parametrize("index", [True, 1.0, "3", None])
def test_card_from_index_wrong_type(index):
    with raises("card index must be an int"):
        Card.from_index(index)  # type: ignore[arg-type]


def test_card_constructor_validates():
    with raises("suit 4 is out of range 0..3"):
        Card(4, 0)
    with raises("rank 8 is out of range 0..7"):
        Card(0, 8)
    with raises("rank must be an int"):
        Card(0, True)


@given(cards_st)
def test_card_roundtrip(card):
    assert Card.parse(str(card)) == card
    assert str(Card.parse(str(card))) == str(card)
    assert Card.parse(card.pretty()) == card
    assert Card.from_index(card.index) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.parse(str(card).upper()) == card


# ---------------------------------------------------------------- hands

# notation.md calls 'AKQ.J98.7.T987' a 10-card hand but it holds 11 cards;
# its card-list example 'As Ks Qs Jc 9c 8c 7d Th 9h 8h' is the 10 cards without 7h.
FIRST_HAND = {"As", "Ks", "Qs", "Jc", "9c", "8c", "7d", "Th", "9h", "8h", "7h"}


@pytest.mark.parametrize(
    "text",
    [
        "AKQ.J98.7.T987",
        "QKA.89J.7.789T",                      # ranks in any order
        "AKQ.J98.7.10987",                     # 10 for the ten
        "AKQ.J98.7.X987",                      # X for the ten
        "akq.j98.7.t987",                      # lower case
        " AKQ . J98 . 7 . T987 ",             # blanks around groups
        "As Ks Qs Jc 9c 8c 7d Th 9h 8h 7h",    # card list
        "As,Ks,Qs,Jc,9c,8c,7d,Th,9h,8h,7h",    # commas
        "As, Ks, Qs, Jc, 9c, 8c, 7d, Th, 9h, 8h, 7h",
        "7h 8h 9h Th 7d 8c 9c Jc Qs Ks As",    # any order
        "AsKsQsJc9c8c7dTh9h8h7h",              # written together
        "♠AKQ ♣J98 ♦7 ♥T987",                  # suit-grouped runs (spec example)
        "♠AKQ♣J98♦7♥T987",
        "sAKQ cJ98 d7 hT987",
        "SAKQ CJ98 D7 H10987",
        "♥T987 ♦7 ♣J98 ♠AKQ",                  # suits in any order
        "♠AK ♠Q ♣J98 7d ♥T987",                # mixed forms
        "A♠ K♠ Q♠ J♣ 9♣ 8♣ 7♦ 10♥ 9♥ 8♥ 7♥",
        "sA sK sQ cJ c9 c8 d7 hT h9 h8 h7",
    ],
)
def test_hand_parse_forms(text):
    hand = Hand.parse(text)
    assert {str(c) for c in hand} == FIRST_HAND
    assert str(hand) == "AKQ.J98.7.T987"
    assert len(hand) == 11


def test_hand_spec_card_list_example():
    hand = Hand.parse("As Ks Qs Jc 9c 8c 7d Th 9h 8h")
    assert len(hand) == 10
    assert str(hand) == "AKQ.J98.7.T98"


def test_hand_spec_examples():
    talon = Hand.parse(".KQ..")
    assert set(talon) == {C("Kc"), C("Qc")}
    assert str(talon) == ".KQ.."
    assert talon.pretty() == "♠— ♣KQ ♦— ♥—"
    assert Hand.parse("AKQ.J98.7.T987").pretty() == "♠AKQ ♣J98 ♦7 ♥T987"
    assert Hand.parse("AKQ..7.T987").pretty() == "♠AKQ ♣— ♦7 ♥T987"


@pytest.mark.parametrize("text", ["", "   ", "...", " . . . ", "-.-.-.-", "—.—.—.—"])
def test_empty_hand(text):
    hand = Hand.parse(text)
    assert hand == Hand(0)
    assert len(hand) == 0
    assert str(hand) == "..."
    assert hand.cards() == []


def test_hand_void_forms():
    expected = Hand.parse("AKQ..7.T987")
    for text in ["AKQ.-.7.T987", "AKQ.—.7.T987", "♠AKQ ♣— ♦7 ♥T987", "♠AKQ ♣- ♦7 ♥T987",
                 "♠AKQ ♦7 ♥T987", "sAKQ c- d7 hT987", "♠AKQ♣—♦7♥T987"]:
        assert Hand.parse(text) == expected, text


def test_hand_cards_order_and_helpers():
    hand = Hand.parse("7h As 9s Kd Tc Ah")
    assert [str(c) for c in hand.cards()] == ["As", "9s", "Tc", "Kd", "Ah", "7h"]
    assert [str(c) for c in hand] == ["As", "9s", "Tc", "Kd", "Ah", "7h"]
    assert hand.suit_ranks(0) == [7, 2]
    assert hand.suit_ranks(3) == [7, 0]
    assert hand.suit_ranks(2) == [6]
    assert Hand.parse("..AK7.").suit_ranks(1) == []
    assert C("As") in hand
    assert C("Ks") not in hand
    assert "As" not in hand          # only Cards are members
    assert len(hand) == 6
    assert hand.mask == sum(1 << c.index for c in hand.cards())


def test_hand_set_operations():
    a = Hand.parse("AK.Q..")
    b = Hand.parse("K.QJ..")
    assert a | b == Hand.parse("AK.QJ..")
    assert a - b == Hand.parse("A...")
    assert a & b == Hand.parse("K.Q..")
    assert a - C("As") == Hand.parse("K.Q..")
    assert a | C("7h") == Hand.parse("AK.Q..7")
    assert a & C("7h") == Hand(0)
    with pytest.raises(TypeError):
        a | 5  # type: ignore[operator]
    with pytest.raises(TypeError):
        a - "As"  # type: ignore[operator]
    with pytest.raises(TypeError):
        a & 1  # type: ignore[operator]


def test_hand_constructor_validates():
    with raises("hand mask 4294967296 is out of range"):
        Hand(1 << 32)
    with raises("hand mask -1 is out of range"):
        Hand(-1)
    with raises("hand mask must be an int"):
        Hand("AKQ")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text, fragments",
    [
        # dotted
        ("AKQ.J98.7", ["'AKQ.J98.7'", "3 groups", "expected 4"]),
        ("AKQ.J98.7.T9.8", ["5 groups"]),
        (EXAMPLE_DEAL, ["13 groups", "Deal.parse"]),
        ("AZQ.J98.7.T987", ["'Z'", "spades group", "'AZQ.J98.7.T987'"]),
        ("AKQ.J98.7.T9s7", ["'s'", "hearts group"]),
        ("AKQ.J1.7.T987", ["'1'", "clubs group", "did you mean 10?"]),
        ("AKQ.J 9.7.T987", ["' '", "clubs group"]),
        # card lists and runs
        ("As Zs", ["'Zs'", "'Z'"]),
        ("hand 2", ["'hand'"]),
        ("As K", ["'K'", "not followed by a suit"]),
        ("AsK", ["'K'", "not followed by a suit"]),
        ("♠AKQJc", ["suit 'c'", "'♠AKQJc'", "not followed by ranks"]),
        ("♠AKQ ♣", ["suit '♣'"]),
        ("♣—K", ["'K'", "not followed by a suit"]),
        ("As 1c", ["'1c'", "did you mean 10?"]),
    ],
)
def test_hand_parse_errors(text, fragments):
    with pytest.raises(NotationError) as info:
        Hand.parse(text)
    for fragment in fragments:
        assert fragment in str(info.value)


@pytest.mark.parametrize(
    "text",
    ["AA.J98.7.T987", "AKQ.J98.7.T9T", "AKQ.J98.7.T910", "AKQ.J98.7.TX", "As Ks As",
     "♠AKA", "♠AK As", "AsAs", "sA As"],
)
def test_hand_duplicate_card(text):
    with pytest.raises(NotationError) as info:
        Hand.parse(text)
    message = str(info.value)
    assert "given twice" in message
    assert re.search(r"card (As|Th) given twice", message)


def test_hand_from_cards_duplicate_and_type():
    with raises("card Ks given twice"):
        Hand.from_cards([C("Ks"), C("As"), C("Ks")])
    with raises("not a Card: 'As'"):
        Hand.from_cards(["As"])  # type: ignore[list-item]


def test_hand_suit_ranks_bad_suit():
    with raises("suit 4 is out of range 0..3"):
        Hand(0).suit_ranks(4)


@given(hands_st)
def test_hand_roundtrip(hand):
    text = str(hand)
    assert Hand.parse(text) == hand
    assert str(Hand.parse(text)) == text
    assert Hand.from_cards(hand.cards()) == hand
    assert Hand.parse(hand.pretty()) == hand
    assert Hand.parse(format_cards(hand.cards())) == hand
    assert Hand.parse("".join(str(c) for c in hand)) == hand
    assert Hand.parse(", ".join(c.pretty() for c in hand)) == hand
    assert list(hand) == hand.cards()
    assert len(hand) == len(hand.cards())
    assert text.count(".") == 3


@given(hands_st)
def test_hand_dotted_shape(hand):
    groups = str(hand).split(".")
    for suit, group in enumerate(groups):
        assert group == "".join(RANKS[r] for r in hand.suit_ranks(suit))
        assert list(group) == sorted(group, key=RANKS.index, reverse=True)


@given(hands_st, hands_st)
def test_hand_set_algebra(a, b):
    assert set(a | b) == set(a) | set(b)
    assert set(a - b) == set(a) - set(b)
    assert set(a & b) == set(a) & set(b)


# ---------------------------------------------------------------- deals

def test_deal_spec_example():
    deal = Deal.parse(EXAMPLE_DEAL)
    assert str(deal) == EXAMPLE_DEAL
    assert deal.hand_size == 10
    first = deal.hands[0]
    assert first == Hand.parse("♠AQ7 ♣K98 ♦KT ♥QJ")
    assert deal.talon == Hand.from_cards([C("Jd"), C("Kh")])
    assert deal.hands[1] == Hand.parse("K.AQ7.AQ7.T87")
    assert deal.hands[2] == Hand.parse("JT98.JT.98.A9")
    union = Hand(0)
    for hand in deal.hands:
        union = union | hand
    assert union | deal.talon == Hand((1 << 32) - 1)


@pytest.mark.parametrize(
    "text",
    [
        "AQ7.K98.KT.QJ/K.AQ7.AQ7.T87/JT98.JT.98.A9/..J.K",
        "AQ7.K98.KT.QJ / K.AQ7.AQ7.T87 / JT98.JT.98.A9 / ..J.K",
        "  AQ7.K98.KT.QJ   K.AQ7.AQ7.T87\tJT98.JT.98.A9\n..J.K  ",
        "qa7.k89.tk.jq k.qa7.a7q.78t jt98.jt.98.a9 ..j.k",
        "AQ7.K98.KT.QJ K.AQ7.AQ7.10 8 7".replace("10 8 7", "1087")
        + " JT98.JT.98.A9 ..J.K",
    ],
)
def test_deal_parse_lenient(text):
    assert str(Deal.parse(text)) == EXAMPLE_DEAL


def test_deal_without_talon_and_endgames():
    deal = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9")
    assert deal.talon is None
    assert deal.hand_size == 10
    assert str(deal) == "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9"

    endgame = Deal.parse("AK... Q.J.. ..T9.")
    assert endgame.hand_size == 2
    assert endgame.talon is None
    with_talon = Deal.parse("AK... Q.J.. ..T9. ...7A")
    assert with_talon.talon == Hand.parse("7h Ah")
    empty = Deal.parse("... ... ...")
    assert empty.hand_size == 0


def test_deal_from_hands():
    deal = Deal.from_hands(["AQ7.K98.KT.QJ", Hand.parse("K.AQ7.AQ7.T87"), "♠JT98 ♣JT ♦98 ♥A9"],
                           talon="Jd Kh")
    assert str(deal) == EXAMPLE_DEAL
    assert Deal.from_hands(deal.hands, deal.talon) == deal
    assert Deal.from_hands(deal.hands) == Deal(deal.hands)
    with raises("a deal needs 3 hands, got 2"):
        Deal.from_hands(deal.hands[:2])
    with raises("card As given twice (hands 0 and 1)"):
        Deal.from_hands(["As", "As", "Ks"])


def test_deal_pretty():
    text = Deal.parse(EXAMPLE_DEAL).pretty()
    assert text.splitlines() == [
        "first hand:  ♠AQ7  ♣K98 ♦KT  ♥QJ",
        "second hand: ♠K    ♣AQ7 ♦AQ7 ♥T87",
        "third hand:  ♠JT98 ♣JT  ♦98  ♥A9",
        "talon:       ♠—    ♣—   ♦J   ♥K",
    ]
    no_talon = Deal.parse("AK... Q.J.. ..T9.").pretty()
    assert len(no_talon.splitlines()) == 3
    assert "talon" not in no_talon


@settings(max_examples=200)
@given(deals_st())
def test_deal_roundtrip(deal):
    text = str(deal)
    assert Deal.parse(text) == deal
    assert str(Deal.parse(text)) == text
    assert Deal.parse(text.replace(" ", " / ")) == deal
    assert Deal.from_hands(deal.hands, deal.talon) == deal
    # Each line of the diagram re-parses as the hand it shows.
    lines = deal.pretty().splitlines()
    parts = list(deal.hands) + ([deal.talon] if deal.talon is not None else [])
    assert len(lines) == len(parts)
    for line, hand in zip(lines, parts):
        assert Hand.parse(line.split(":", 1)[1]) == hand


@pytest.mark.parametrize(
    "text, message",
    [
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.Q", "card Qh given twice (hand 0 and talon)"),
        ("AQ7.K98.KT.QJ AQ7.K.AQ7.T87 JT98.JT.98.A9 ..J.K",
         "card As given twice (hands 0 and 1)"),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 AT98.JT.98.A9", "card As given twice (hands 0 and 2)"),
        ("A... A... A... A.K..", "card As given twice (hands 0, 1, 2 and talon)"),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K Q...", "has 5 parts"),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87", "has 2 parts"),
        ("AQ7.K98.KT.QJ", "has 1 part,"),
        ("", "has 0 parts"),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T8 JT98.JT.98.A9", "hands have unequal sizes: 10, 9, 10"),
        ("AK... Q.J.. ..T.", "hands have unequal sizes: 2, 2, 1"),
        ("AQ7.K98.KT.QJ9 K.AQ7.AQ7.T87 JT98.JT.98.A", "hand 0 has 11 cards, at most 10"),
        ("AKQJT987.AK.. .QJT987.AKQJT. ..987.AKQJT98", "hand 1 has 11 cards, at most 10"),
        ("AK... Q.J.. ..T9. ...7", "talon has 1 cards, must have 2"),
        ("AK... Q.J.. ..T9. ...789", "talon has 3 cards, must have 2"),
        ("AK... Q.J.. ..T9. ...", "talon has 0 cards, must have 2"),
        ("AZ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9", "hand 0: "),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.Z9", "hand 2: "),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.Z", "talon: "),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 Jd,Kh", "talon: 'Jd,Kh' is not a dotted hand"),
        ("As Ks Qs", "hand 0: 'As' is not a dotted hand"),
        ("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98", "hand 2: dotted hand 'JT98.JT.98' has 3 groups"),
        ("AK...//Q.J.. ..T9.", "hand 1: '(empty)' is not a dotted hand"),
    ],
)
def test_deal_errors(text, message):
    with raises(message):
        Deal.parse(text)


def test_deal_bad_card_message_names_card():
    with pytest.raises(NotationError) as info:
        Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.AZ")
    message = str(info.value)
    assert message.startswith("hand 2: ")
    assert "'Z'" in message and "hearts group" in message


def test_deal_several_duplicates_all_named():
    with pytest.raises(NotationError) as info:
        Deal.parse("AK... AK... QJ...")
    message = str(info.value)
    assert "card As given twice (hands 0 and 1)" in message
    assert "card Ks given twice (hands 0 and 1)" in message


def test_deal_missing_cards_message():
    # Cannot happen through Deal (30 distinct cards + a disjoint 2-card talon
    # are all 32), so the guard's message is tested directly.
    present = Hand((1 << 32) - 1) - Hand.parse("7h 8h")
    error = _missing_cards_error(present.mask)
    assert isinstance(error, NotationError)
    assert str(error) == "deal is missing 8h, 7h"
    assert _missing_cards_error((1 << 32) - 1) is None


def test_deal_constructor_validates():
    hand = Hand.parse("A...")
    with raises("a deal needs a tuple of 3 Hands"):
        Deal((hand, hand))  # type: ignore[arg-type]
    with raises("a deal needs a tuple of 3 Hands"):
        Deal([Hand(0), Hand(0), Hand(0)])  # type: ignore[arg-type]
    with raises("talon must be a Hand or None"):
        Deal((Hand(0), Hand(0), Hand(0)), "..")  # type: ignore[arg-type]


# ---------------------------------------------------------------- contracts

@pytest.mark.parametrize(
    "text, level, strain",
    [
        ("6s", 6, 0), ("6c", 6, 1), ("7d", 7, 2), ("8h", 8, 3), ("10nt", 10, NO_TRUMP),
        ("6S", 6, 0), ("6NT", 6, NO_TRUMP), ("6Nt", 6, NO_TRUMP), ("6♠", 6, 0),
        ("9♣", 9, 1), ("9♦", 9, 2), ("10♥", 10, 3), ("10♥️", 10, 3), (" 7 nt ", 7, NO_TRUMP),
    ],
)
def test_contract_parse_tricks(text, level, strain):
    contract = Contract.parse(text)
    assert contract == Contract(ContractKind.TRICKS, level, strain)
    assert contract.trump == strain


@pytest.mark.parametrize(
    "text, kind",
    [
        ("misere", ContractKind.MISERE), ("MISERE", ContractKind.MISERE),
        ("misère", ContractKind.MISERE), ("Misère", ContractKind.MISERE),
        ("mis", ContractKind.MISERE), ("miser", ContractKind.MISERE),
        ("allpass", ContractKind.ALLPASS), ("all-pass", ContractKind.ALLPASS),
        ("All Pass", ContractKind.ALLPASS), ("raspasy", ContractKind.ALLPASS),
        ("ALLPASS", ContractKind.ALLPASS),
    ],
)
def test_contract_parse_words(text, kind):
    contract = Contract.parse(text)
    assert contract.kind is kind
    assert contract.level is None and contract.strain is None
    assert contract.trump == NO_TRUMP


def test_contract_str_and_pretty():
    assert str(Contract.parse("6♠")) == "6s"
    assert str(Contract.parse("10NT")) == "10nt"
    assert str(Contract.parse("misère")) == "misere"
    assert str(Contract.parse("all-pass")) == "allpass"
    assert Contract.parse("6s").pretty() == "6♠"
    assert Contract.parse("10nt").pretty() == "10NT"
    assert Contract.parse("7h").pretty() == "7♥"
    assert Contract.parse("mis").pretty() == "misère"
    assert Contract.parse("allpass").pretty() == "all-pass"


@pytest.mark.parametrize(
    "text, message",
    [
        ("s", "contract 's' has no level"),
        ("nt", "contract 'nt' has no level"),
        ("♠", "contract '♠' has no level"),
        ("6", "contract '6' has no strain"),
        ("5s", "contract level 5 in '5s' is out of range 6..10"),
        ("11nt", "contract level 11 in '11nt' is out of range 6..10"),
        ("0h", "contract level 0 in '0h' is out of range 6..10"),
        ("6x", "unknown contract '6x'"),
        ("pass", "unknown contract 'pass'"),
        ("", "unknown contract ''"),
        ("6 s s", "unknown contract '6 s s'"),
    ],
)
def test_contract_errors(text, message):
    with raises(message):
        Contract.parse(text)


def test_contract_constructor_validates():
    with raises("contract level 11 is out of range 6..10"):
        Contract(ContractKind.TRICKS, 11, 0)
    with raises("contract strain 5 is out of range 0..4"):
        Contract(ContractKind.TRICKS, 6, 5)
    with raises("contract level must be an int"):
        Contract(ContractKind.TRICKS)
    with raises("a misere contract has no level or strain"):
        Contract(ContractKind.MISERE, 6, 0)
    with raises("contract kind must be a ContractKind"):
        Contract("misere")  # type: ignore[arg-type]


@given(contracts_st)
def test_contract_roundtrip(contract):
    assert Contract.parse(str(contract)) == contract
    assert str(Contract.parse(str(contract))) == str(contract)
    assert Contract.parse(contract.pretty()) == contract
    assert Contract.parse(str(contract).upper()) == contract


# ---------------------------------------------------------------- seats

@pytest.mark.parametrize(
    "value, seat",
    [
        (0, 0), (1, 1), (2, 2), ("0", 0), ("1", 1), ("2", 2), (" 2 ", 2),
        ("first", 0), ("second", 1), ("third", 2), ("FIRST", 0), ("Second", 1),
        ("first hand", 0), ("Second Hand", 1), ("third  hand", 2),
    ],
)
def test_parse_seat(value, seat):
    assert parse_seat(value) == seat


def test_seat_names_parse():
    for seat, name in enumerate(SEAT_NAMES):
        assert parse_seat(name) == seat


@pytest.mark.parametrize(
    "value, message",
    [
        (True, "got bool True"),
        (False, "got bool False"),
        (3, "seat 3 is out of range 0..2"),
        (-1, "seat -1 is out of range 0..2"),
        ("3", "unknown seat '3'"),
        ("fourth", "unknown seat 'fourth'"),
        ("", "unknown seat ''"),
        (1.0, "seat must be text or an int, got 1.0"),
        (None, "seat must be text or an int, got None"),
    ],
)
def test_parse_seat_errors(value, message):
    with raises(message):
        parse_seat(value)


# ---------------------------------------------------------------- card sequences

@pytest.mark.parametrize(
    "text",
    ["As Ks 7d", "AsKs7d", "As, Ks, 7d", "As,Ks,7d", "  As   Ks\t7d ", "sA sK d7", "sAsKd7",
     "♠A ♠K ♦7", "♠A♠K♦7", "AS KS 7D", "as ks 7d"],
)
def test_parse_cards_forms(text):
    assert parse_cards(text) == [C("As"), C("Ks"), C("7d")]


def test_parse_cards_keeps_order_and_ten():
    assert parse_cards("7d 10c As Xh") == [C("7d"), C("Tc"), C("As"), C("Th")]
    assert parse_cards("10c10d") == [C("Tc"), C("Td")]
    assert parse_cards("") == []
    assert parse_cards("   ") == []


def test_format_cards():
    assert format_cards([C("As"), C("Ks"), C("7d")]) == "As Ks 7d"
    assert format_cards([C("10c"), C("♥A")]) == "Tc Ah"
    assert format_cards([]) == ""


@pytest.mark.parametrize(
    "text, message",
    [
        ("As Ks As", "card As given twice in 'As Ks As'"),
        ("AsKsAs", "card As given twice"),
        ("As Zs", "unknown card text 'Zs'"),
        ("As K", "card 'K' in 'K': rank 'K' is not followed by a suit"),
        ("AsK", "card 'K' in 'AsK'"),
        ("sAK", "card 'K' in 'sAK'"),
        ("As s", "suit 's' is not followed by a rank"),
        ("As 1c", "did you mean 10?"),
    ],
)
def test_parse_cards_errors(text, message):
    with raises(message):
        parse_cards(text)


@given(st.lists(cards_st, unique=True, max_size=32))
def test_cards_roundtrip(cards):
    text = format_cards(cards)
    assert parse_cards(text) == cards
    assert format_cards(parse_cards(text)) == text
    assert parse_cards(text.replace(" ", "")) == cards
    assert parse_cards(", ".join(c.pretty() for c in cards)) == cards
