"""Card-play advice against an independent answer: every layout of the hidden
cards listed by plain itertools, kept when the cards played are legal for it
(the rules of brute_force.py, not the advisor's void inference), and each
legal card valued by plain minimax (brute_force.Game) on every kept layout."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Sequence

import pytest

from brute_force import legal_cards, trick_winner
from test_advice_brute import BCard, cards_of, game_of
from solver import Card, Contract, Hand
from solver.advice import AdviceError, RunOptions, advise_play, play_request
from solver.notation import NO_TRUMP


def _replay(hands: Sequence[frozenset[BCard]], played: Sequence[BCard], trump: int | None, leader: int):
    """(hands left, the current trick's plays, its leader, tricks by seat), or
    None when a card is not held or breaks the rules."""
    hands = list(hands)
    taken = [0, 0, 0]
    plays: list[tuple[int, BCard]] = []
    for card in played:
        seat = (leader + len(plays)) % 3
        lead_suit = plays[0][1][0] if plays else None
        if card not in legal_cards(hands[seat], lead_suit, trump):
            return None
        hands[seat] = hands[seat] - {card}
        plays.append((seat, card))
        if len(plays) == 3:
            leader = trick_winner(tuple(plays), plays[0][1][0], trump, None)
            taken[leader] += 1
            plays = []
    return hands, tuple(plays), leader, taken


LAST_TOTALS: dict[BCard, list[int]] = {}
"""The declarer's whole-deal tricks after each card, layout by layout, of
the last :func:`brute_card_means`."""


def brute_card_means(known: dict[int, Hand], unseen: Hand, contract: Contract, declarer: int,
                     played: Sequence[Card], leader: int, prior: tuple[int, int, int]
                     ) -> tuple[dict[BCard, Fraction], dict[BCard, int], int]:
    """Each legal card's mean declarer tricks (whole deal), the layouts on
    which it fails the contract, and the layouts kept."""
    hidden = [seat for seat in range(3) if seat not in known]
    size = len(next(iter(known.values())))
    pool = sorted(cards_of(unseen))
    trump = None if contract.trump == NO_TRUMP else contract.trump
    game = game_of(contract, declarer)
    bplayed = [(c.suit, c.rank) for c in played]
    totals: dict[BCard, Fraction] = {}
    fails: dict[BCard, int] = {}
    LAST_TOTALS.clear()
    kept = 0
    splits = itertools.combinations(pool, size) if len(hidden) == 2 else [tuple(pool)]
    for first in splits:
        hands: list[frozenset[BCard]] = [frozenset()] * 3
        for seat, hand in known.items():
            hands[seat] = cards_of(hand)
        hands[hidden[0]] = frozenset(first)
        if len(hidden) == 2:
            hands[hidden[1]] = frozenset(pool) - frozenset(first)
        state = _replay(hands, bplayed, trump, leader)
        if state is None:
            continue
        left, plays, trick_leader, taken = state
        kept += 1
        before = prior[declarer] + taken[declarer]
        for card, value in game.children(tuple(left), plays, trick_leader, ()):
            total = before + value
            LAST_TOTALS.setdefault(card, []).append(total)
            totals[card] = totals.get(card, Fraction(0)) + total
            failed = total > 0 if contract.kind.value == "misere" else total < contract.level
            fails[card] = fails.get(card, 0) + (1 if failed else 0)
    return {card: total / kept for card, total in totals.items()}, fails, kept


def _random_endgame(seed: int, size: int):
    rng = random.Random(seed)
    cards = [Card.from_index(i) for i in rng.sample(range(32), 3 * size)]
    hands = [Hand.from_cards(cards[k * size:(k + 1) * size]) for k in range(3)]
    return rng, hands


@pytest.mark.parametrize("seed", range(8))
def test_endgames_agree_with_brute_force(seed: int) -> None:
    """Random 4-card endgames, two hidden hands, a trick and a card played:
    every card's exact mean tricks and failure count."""
    rng, hands = _random_endgame(seed, 4)
    contract = Contract.parse(rng.choice(["6s", "6h", "7nt", "misere"]))
    declarer = rng.randrange(3)
    leader = rng.randrange(3)
    played: list[Card] = []
    from solver import Deal, Position
    position = Position.start(Deal(tuple(hands)), contract, declarer, leader)
    for _ in range(4):
        card = rng.choice(position.legal_cards())
        played.append(card)
        position = position.play(card)
    seat = position.seat_to_move
    prior = [0, 0, 0]
    prior[declarer] = 4 if contract.kind.value == "tricks" else 0
    prior[(declarer + 1) % 3] += 6 - prior[declarer]
    prior_t = (prior[0], prior[1], prior[2])
    unseen = Hand(sum(hands[s].mask for s in range(3) if s != seat))
    request = play_request(hands[seat], contract, declarer, seat, played=played, unseen=unseen,
                           prior_tricks=prior_t, leader=leader)
    advice = advise_play(request, RunOptions(layouts=1000, workers=2))
    assert advice.run.exact and advice.run.complete
    means, fails, kept = brute_card_means({seat: hands[seat]}, unseen, contract, declarer, played, leader, prior_t)
    assert advice.run.layouts == kept
    assert {(c.card.suit, c.card.rank): c.declarer_tricks.exact for c in advice.cards} == means
    assert {(c.card.suit, c.card.rank): c.fail_count for c in advice.cards} == fails


def test_voids_shown_by_the_play_narrow_the_layouts() -> None:
    """In 6♣ a defender who discards on a spade lead holds no spade and no
    club: of the 924 splits of the 12 hidden cards only the 5 that give him
    four of the five red cards left are counted, as the brute-force filter
    (legality of every card played) finds."""
    hands = [Hand.parse("AK9.A7.8."), Hand.parse("..KQ9.KQ8"), Hand.parse("QJ.KQJ.7.")]
    contract = Contract.parse("6c")
    played = [Card.parse(c) for c in ("As", "9d", "Js", "7c", "Kh")]
    seat = 2
    unseen = hands[0] | hands[1]
    request = play_request(hands[seat], contract, 0, seat, played=played, unseen=unseen, prior_tricks=(2, 1, 1))
    advice = advise_play(request, RunOptions(layouts=1000))
    assert advice.voids[1] == (0, 1) and advice.voids[0] == () and advice.voids[2] == ()
    means, fails, kept = brute_card_means({seat: hands[seat]}, unseen, contract, 0, played, 0, (2, 1, 1))
    assert kept == 5 and advice.run.layouts == 5 and advice.run.rejected == 0
    assert {(c.card.suit, c.card.rank): c.declarer_tricks.exact for c in advice.cards} == means
    assert {(c.card.suit, c.card.rank): c.fail_count for c in advice.cards} == fails


def test_play_that_fits_no_layout_is_refused() -> None:
    hands = [Hand.parse("A.K7.8.7"), Hand.parse("KQ.A.9.8"), Hand.parse("T.Q8.A.9")]
    unseen = hands[1] | hands[2]
    with pytest.raises(AdviceError, match="must follow suit"):   # the asker's own card breaks the rules
        advise_play(play_request(hands[0], "6s", 1, 0, played=["Ks", "Ts", "7c"], unseen=unseen,
                                 prior_tricks=(2, 2, 1), leader=1))
    with pytest.raises(AdviceError, match="no layout"):   # both others show a spade void: where are ♠KQT?
        advise_play(play_request(hands[0], "6s", 1, 0, played=["As", "9d", "Ad"], unseen=unseen,
                                 prior_tricks=(2, 2, 1)))
    with pytest.raises(AdviceError, match="turn"):
        advise_play(play_request(hands[0], "6s", 1, 0, played=["As"], unseen=unseen, prior_tricks=(2, 2, 1)))
    with pytest.raises(AdviceError, match="unseen"):
        play_request(hands[0], "6s", 1, 0, prior_tricks=(2, 2, 1))


def test_sampling_agrees_with_the_exact_answer_within_its_errors() -> None:
    rng, hands = _random_endgame(11, 6)
    seat, declarer = 0, 1
    unseen = hands[1] | hands[2]
    request = play_request(hands[seat], "6nt", declarer, seat, unseen=unseen, prior_tricks=(2, 1, 1))
    exact = advise_play(request, RunOptions(layouts=1000, mode="exact"))
    sampled = advise_play(request, RunOptions(layouts=300, mode="sample", seed=5))
    assert exact.run.complete and not sampled.run.exact and sampled.run.layouts == 300
    for e, s in zip(exact.cards, sampled.cards):
        assert e.card == s.card
        assert s.declarer_tricks.std_error > 0 or s.declarer_tricks.mean == e.declarer_tricks.mean
        assert abs(s.declarer_tricks.mean - e.declarer_tricks.mean) <= 4 * s.declarer_tricks.std_error + 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_values_in_whists_agree_with_the_scoring_of_each_layout(seed: int) -> None:
    """One whister (the asking defender, or the first defender when the
    declarer asks): each card's exact expected value for the asking seat is
    the mean of the deal values of its brute-force outcomes."""
    from test_advice_brute import outcome, value_for
    from solver.scoring import SOCHI
    rng, hands = _random_endgame(100 + seed, 4)
    contract = Contract.parse(rng.choice(["6s", "7h", "6nt"]))
    declarer = rng.randrange(3)
    seat = rng.randrange(3)
    x, y = (declarer + 1) % 3, (declarer + 2) % 3
    whister = seat if seat != declarer else x
    leader = seat   # the asker leads: no card played
    prior = [0, 0, 0]
    prior[declarer], prior[whister] = 4, 2
    unseen = Hand(sum(hands[s].mask for s in range(3) if s != seat))
    request = play_request(hands[seat], contract, declarer, seat, unseen=unseen, prior_tricks=tuple(prior),
                           leader=leader)
    advice = advise_play(request, RunOptions(layouts=1000))
    brute_card_means({seat: hands[seat]}, unseen, contract, declarer, [], leader, tuple(prior))
    players = ("0", "1", "2")
    for card in advice.cards:
        totals = LAST_TOTALS[(card.card.suit, card.card.rank)]
        values = [value_for(SOCHI, outcome(players, declarer, contract.level, {whister: "whist",
                                                                                 3 - declarer - whister: "pass"},
                                           {declarer: t, whister: 10 - t, 3 - declarer - whister: 0}), seat)
                  for t in totals]
        assert card.value.exact == sum(values, Fraction(0)) / len(values)


def test_two_whisters_score_the_split_along_the_solvers_line() -> None:
    """Both defenders whist: each card's value is the mean over the layouts
    (listed here by itertools) of the deal value with each defender's tricks
    counted along the solver's line after that card."""
    from solver import Deal, Position, Solver
    from solver.advice.play import line_tricks
    from solver.advice.values import Scenario, Valuer
    from solver.scoring import SOCHI
    rng, hands = _random_endgame(7, 4)
    contract, declarer, seat = Contract.parse("6nt"), 1, 2
    prior = (1, 4, 1)
    unseen = hands[0] | hands[1]
    request = play_request(hands[seat], contract, declarer, seat, unseen=unseen, prior_tricks=prior,
                           whisters=[0, 2], leader=seat)
    advice = advise_play(request, RunOptions(layouts=1000))
    assert advice.scenario is Scenario.BOTH_WHIST and advice.run.complete
    valuer = Valuer(SOCHI, contract, declarer, 2, 0)
    solver = Solver(table_mib=4)
    sums: dict[Card, Fraction] = {}
    layouts = 0
    for first in itertools.combinations(unseen.cards(), 4):
        seated = [Hand.from_cards(first), unseen - Hand.from_cards(first), hands[seat]]
        position = Position.start(Deal(tuple(seated)), contract, declarer, leader=seat)
        layouts += 1
        for card in position.legal_cards():
            after = position.play(card)
            tricks = line_tricks(after, solver.best_line(after))
            whole = tuple(p + t for p, t in zip(prior, tricks))
            sums[card] = sums.get(card, Fraction(0)) + valuer.values(Scenario.BOTH_WHIST,
                                                                     (whole[declarer], whole))[1]
    assert advice.run.layouts == layouts == 70
    assert {c.card: c.value.exact for c in advice.cards} == {card: total / layouts for card, total in sums.items()}
