"""Independent exact answers for the advice tests, by plain enumeration and
the brute-force minimax of brute_force.py (no solver, no advice code), and
checks of those helpers against the solver.

The other test_advice_* files import the helpers from here."""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Iterable, Sequence

from brute_force import Game, legal_cards, trick_winner
from solver import Card, Contract, Hand, Position, Solver
from solver.notation import NO_TRUMP, ContractKind
from solver.scoring import ContractOutcome, Decision, MisereOutcome, deal_value

BCard = tuple[int, int]


def cards_of(hand: Hand) -> frozenset[BCard]:
    return frozenset((c.suit, c.rank) for c in hand)


def game_of(contract: Contract, declarer: int) -> Game:
    trump = None if contract.trump == NO_TRUMP else contract.trump
    objective = "tricks" if contract.kind is ContractKind.TRICKS else "misere"
    return Game(objective, declarer, trump)


def brute_tricks(hands: Sequence[frozenset[BCard]], contract: Contract, declarer: int, leader: int = 0) -> int:
    """The declarer's tricks from the start, by plain minimax."""
    return game_of(contract, declarer).value(tuple(hands), (), leader, ())


def canonical_discards(pool: frozenset[BCard]) -> list[frozenset[BCard]]:
    """Every 2-card discard, in canonical order (spades first, high to low)."""
    order = sorted(pool, key=lambda c: (c[0], -c[1]))
    return [frozenset(pair) for pair in itertools.combinations(order, 2)]


def brute_best_discard(hands: Sequence[frozenset[BCard]], talon: frozenset[BCard], contract: Contract,
                       declarer: int, leader: int = 0) -> tuple[int, list[frozenset[BCard]]]:
    """The best value over every discard and the discards reaching it (canonical order)."""
    pool = hands[declarer] | talon
    results = []
    for discard in canonical_discards(pool):
        seated = list(hands)
        seated[declarer] = pool - discard
        results.append((brute_tricks(seated, contract, declarer, leader), discard))
    maximise = contract.kind is ContractKind.TRICKS
    best = max(v for v, _ in results) if maximise else min(v for v, _ in results)
    return best, [d for v, d in results if v == best]


def replay(hands: Sequence[frozenset[BCard]], played: Sequence[BCard], trump: int | None,
           leader: int = 0) -> tuple[list[frozenset[BCard]], int, list[int]] | None:
    """The hands, the leader and the tricks taken by seat after ``played`` (whole
    tricks only), or None when a card is not held or breaks the rules."""
    hands = list(hands)
    taken = [0, 0, 0]
    assert len(played) % 3 == 0
    for start in range(0, len(played), 3):
        plays = []
        lead_suit = None
        for offset, card in enumerate(played[start:start + 3]):
            seat = (leader + offset) % 3
            if card not in legal_cards(hands[seat], lead_suit, trump):
                return None
            if lead_suit is None:
                lead_suit = card[0]
            hands[seat] = hands[seat] - {card}
            plays.append((seat, card))
        leader = trick_winner(tuple(plays), lead_suit, trump, None)
        taken[leader] += 1
    return hands, leader, taken


def outcome(players: tuple[str, ...], declarer: int, level: int, decisions: dict[int, str],
            tricks: dict[int, int] | None = None, returned_by: int | None = None) -> ContractOutcome:
    return ContractOutcome(players=players, declarer=str(declarer), contract=level,
                           decisions={str(s): Decision(d) for s, d in decisions.items()},
                           tricks={str(s): t for s, t in (tricks or {}).items()},
                           returned_by=None if returned_by is None else str(returned_by))


def value_for(convention, deal: ContractOutcome | MisereOutcome, seat: int) -> Fraction:
    return deal_value(convention, deal)[str(seat)]


def mean(values: Iterable[Fraction]) -> Fraction:
    values = list(values)
    return sum(values, Fraction(0)) / len(values)


def test_brute_best_discard_matches_the_solver() -> None:
    from solver.analysis import best_discard
    from solver import Deal
    import random
    rng = random.Random(3)
    for _ in range(12):
        cards = [Card.from_index(i) for i in rng.sample(range(32), 11)]
        hands = (Hand.from_cards(cards[0:3]), Hand.from_cards(cards[3:6]), Hand.from_cards(cards[6:9]))
        talon = Hand.from_cards(cards[9:11])
        contract = Contract.parse(rng.choice(["6s", "6h", "6nt", "misere"]))
        declarer = rng.randrange(3)
        found = best_discard(Deal(hands, talon), declarer, contract)
        value, discards = brute_best_discard([cards_of(h) for h in hands], cards_of(talon), contract, declarer)
        assert found.value == value
        assert [cards_of(d) for d in found.discards] == discards


def test_replay_agrees_with_positions() -> None:
    hands = [Hand.parse("A7..K."), Hand.parse("K.8..7"), Hand.parse("Q..A.9")]
    position = Position.after(" ".join(map(str, hands)), "6s", 0, ["As", "Ks", "Qs"])
    hands_after, leader, taken = replay([cards_of(h) for h in hands], [(0, 7), (0, 6), (0, 5)], 0)
    assert leader == position.leader and tuple(taken) == position.tricks_taken
    assert [cards_of(h) for h in position.hands] == hands_after
    assert replay([cards_of(h) for h in hands], [(0, 0), (1, 1), (0, 5)], 0) is None  # seat 1 must follow ♠7 with his ♠K


def test_solver_line_split_adds_up() -> None:
    from solver.advice.play import line_tricks
    solver = Solver(table_mib=2)
    position = Position.start("AK.8..Q Q..AK.7 .KQ.8.K", "6s", 0)
    tricks = line_tricks(position, solver.best_line(position))
    assert sum(tricks) == 4
    assert tricks[0] == solver.solve(position)
