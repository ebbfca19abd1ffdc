"""Card-play advice on full deals: the misère catchers' count over the
declarer's discards, the light whister's, and the layout counts of the
other ways a seat can see the deal."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from solver import Card, Deal, Hand, Position, PositionError, Solver
from solver.advice import AdviceError, RunOptions, advise_play, play_request, play_space


def random_full_deal(seed: int) -> Deal:
    cards = [Card.from_index(i) for i in random.Random(seed).sample(range(32), 32)]
    hands = tuple(Hand.from_cards(cards[k * 10:(k + 1) * 10]) for k in range(3))
    return Deal(hands, Hand.from_cards(cards[30:]))  # type: ignore[arg-type]


# The constructed misère: the declarer (seat 1) holds all eight hearts and ♠A ♠7 ♣7 ♦7.
# The catchers hold every other card and never have a heart to lead, and his
# 7s are the lowest of their suits: only ♠A can take a trick. Discarding ♠A
# he is safe (11 of his 66 discards). Keeping it (55 discards):
#  - a spade lead catches him: without ♠7 he must win at once; with it he
#    ducks once, and the winner of the trick leads a spade again (each
#    catcher holds three);
#  - a club lead lets him throw ♠A away when he discarded ♣7 (void in clubs),
#    and those 10 discards escape: caught on 45; a diamond lead the same.
CATCHER_0 = Hand.parse("T98.JT98.T98.")
DECLARER_12 = Hand.parse("A7.7.7.AKQJT987")
CATCHER_2 = Hand.parse("KQJ.AKQ.AKQJ.")
TALON = Hand.parse("..7.7")


def test_each_lead_catches_the_discards_worked_out_by_hand() -> None:
    request = play_request(CATCHER_0, "misere", 1, 0, talon=TALON, open_hands={2: CATCHER_2})
    assert play_space(request).count() == 66
    advice = advise_play(request, RunOptions(layouts=100))
    assert advice.run.exact and advice.run.complete and advice.run.layouts == 66
    assert advice.discard_hidden
    assert [c.card for c in advice.cards] == sorted(CATCHER_0.cards(), key=lambda c: c.index)
    for card in advice.cards:
        caught = 55 if card.card.suit == 0 else 45
        assert card.fail_count == caught
        assert card.declarer_fails.exact == Fraction(caught, 66)
    # caught less often after a club or diamond lead, but then for two tricks on average,
    # against one after a spade lead: worth more to the catchers
    assert advice.card("8c").declarer_tricks.exact == Fraction(109, 66)
    assert advice.card("8s").declarer_tricks.exact == Fraction(55, 66)
    assert advice.recommended == Card.parse("8c") and advice.sureness == 1.0
    assert any("only after the first lead" in note for note in advice.notes)


def test_after_the_declarer_shows_the_seven_45_of_55_discards_are_caught() -> None:
    """♠8 led, the declarer plays ♠7: the discards holding ♠7 are gone
    (55 left); 45 of them keep ♠A (two of the other ten cards discarded)."""
    request = play_request(CATCHER_2, "misere", 1, 2, talon=TALON, open_hands={0: CATCHER_0}, played=["8s", "7s"])
    advice = advise_play(request, RunOptions(layouts=100))
    assert advice.run.layouts == 55 and advice.run.complete
    assert [str(c.card) for c in advice.cards] == ["Js", "Qs", "Ks"]
    assert all(c.fail_count == 45 for c in advice.cards)
    assert not any("only after the first lead" in note for note in advice.notes)


def _direct_counts(hands, talon, declarer, seat, played, contract="misere"):
    """Each legal card's caught count, by trying every discard of the
    declarer's 12 directly (Position.after checks the play)."""
    solver = Solver(table_mib=4)
    pool = hands[declarer] | talon
    counts: dict[Card, int] = {}
    kept = 0
    for pair in itertools.combinations(pool.cards(), 2):
        seated = list(hands)
        seated[declarer] = pool - Hand.from_cards(pair)
        try:
            position = Position.after(Deal(tuple(seated)), contract, declarer, played)
        except PositionError:
            continue
        assert position.seat_to_move == seat
        kept += 1
        for card, value in solver.card_values(position).items():
            counts[card] = counts.get(card, 0) + (1 if value > 0 else 0)
    return counts, kept


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_catcher_counts_match_every_discard_tried_directly(seed: int) -> None:
    deal = random_full_deal(seed)
    rng = random.Random(seed)
    declarer = rng.randrange(3)
    pool = deal.hands[declarer] | deal.talon
    discard = Hand.from_cards(rng.sample(pool.cards(), 2))
    seated = list(deal.hands)
    seated[declarer] = pool - discard
    position = Position.start(Deal(tuple(seated)), "misere", declarer)
    played = []
    while len(played) < 5 or position.seat_to_move == declarer:
        card = rng.choice(position.legal_cards())
        played.append(card)
        position = position.play(card)
    seat = position.seat_to_move
    partner = 3 - seat - declarer
    request = play_request(deal.hands[seat], "misere", declarer, seat, talon=deal.talon,
                           open_hands={partner: deal.hands[partner]}, played=played)
    advice = advise_play(request, RunOptions(layouts=100, workers=2))
    counts, kept = _direct_counts(deal.hands, deal.talon, declarer, seat, played)
    assert advice.run.complete and advice.run.layouts == kept
    assert {c.card: c.fail_count for c in advice.cards} == counts


def test_light_whister_sees_the_declarers_twelve_cards() -> None:
    deal = random_full_deal(7)
    request = play_request(deal.hands[1], "6s", 0, 1, talon=deal.talon, open_hands={2: deal.hands[2]},
                           whisters=[1], played=[])
    with pytest.raises(AdviceError, match="turn"):
        advise_play(request)
    pool = deal.hands[0] | deal.talon
    discard = Hand.from_cards(pool.cards()[-2:])
    seated = (pool - discard, deal.hands[1], deal.hands[2])
    lead = Position.start(Deal(seated), "6s", 0).legal_cards()[0]
    request = play_request(deal.hands[1], "6s", 0, 1, talon=deal.talon, open_hands={2: deal.hands[2]},
                           whisters=[1], played=[lead])
    advice = advise_play(request, RunOptions(layouts=100))
    assert advice.run.layouts == 55 and advice.run.complete   # 66 discards less the 11 holding the lead
    counts, kept = _direct_counts(deal.hands, deal.talon, 0, 1, [lead], contract="6s")
    assert kept == 55
    assert not any("light whist" in note for note in advice.notes)


def test_layout_counts_of_the_ways_a_seat_sees_the_deal() -> None:
    from math import comb
    deal = random_full_deal(9)
    hands, talon = deal.hands, deal.talon
    # a defender in a dark whist: the two other hands and the discard (talon shown, 2 of the declarer's 12)
    dark = play_request(hands[0], "7h", 1, 0, talon=talon)
    assert play_space(dark).count() == sum(comb(2, k) * comb(20, 2 - k) * comb(18 + k, 8 + k) for k in range(3))
    assert play_space(dark).count() == comb(20, 10) * 66   # each deal of the 20 cards, then each discard
    # without the talon shown: the other 22 cards are two hands and a discard
    assert play_space(play_request(hands[0], "7h", 1, 0)).count() == comb(22, 2) * comb(20, 10)
    # the declarer, who knows his discard: the two defenders' hands
    pool = hands[1] | talon
    discard = Hand.from_cards(pool.cards()[:2])
    declarer = play_request(pool - discard, "7h", 1, 1, talon=talon, discard=discard, played=[hands[0].cards()[0]])
    assert play_space(declarer).count() == comb(19, 9)
    with pytest.raises(AdviceError, match="discard"):
        play_space(play_request(pool - discard, "7h", 1, 1, talon=talon, played=[hands[0].cards()[0]]))


def test_bad_requests_name_the_problem() -> None:
    deal = random_full_deal(4)
    hand = deal.hands[0]
    with pytest.raises(AdviceError, match="all-pass"):
        play_request(hand, "allpass", 1, 0)
    with pytest.raises(AdviceError, match="whisted"):
        play_request(hand, "misere", 1, 0, whisters=[0])
    with pytest.raises(AdviceError, match="declarer"):
        play_request(hand, "6s", 1, 0, whisters=[1])
    with pytest.raises(AdviceError, match="talon"):
        play_request(hand, "6s", 1, 0, talon=Hand.from_cards(hand.cards()[:2]))
    with pytest.raises(AdviceError, match="open hand"):
        play_request(hand, "6s", 1, 0, open_hands={2: hand})
    with pytest.raises(AdviceError, match="returned"):
        play_request(hand, "8s", 1, 0, returned=True)
    with pytest.raises(AdviceError, match="seat"):
        play_request(hand, "6s", 3, 0)
    declarer_hand = deal.hands[1]
    discard = Hand.from_cards(deal.hands[2].cards()[:2])   # not the talon, which he did not keep
    with pytest.raises(AdviceError, match="neither in the declarer's hand nor in his discard"):
        play_request(declarer_hand, "6s", 1, 1, talon=deal.talon, discard=discard)
