"""Seeded deal sets for the benchmarks.

``random_deals``: uniformly random full deals (three 10-card hands and the
talon). ``realistic_deals``: the strongest hand (most high-card points, A=4 K=3
Q=2 J=1) takes the talon, makes its best discard for its longest suit, and
declares it. Positions: seat 0 leads; the declarer is random in the random set.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from solver import Card, Contract, ContractKind, Deal, Hand, Position, Solver

STRAINS = ("s", "c", "d", "h", "nt")


def random_deal(rng: random.Random) -> Deal:
    cards = rng.sample(range(32), 32)
    hands = tuple(Hand.from_cards(Card.from_index(i) for i in cards[k * 10:(k + 1) * 10]) for k in range(3))
    return Deal(hands, Hand.from_cards(Card.from_index(i) for i in cards[30:]))  # type: ignore[arg-type]


def random_positions(count: int, contract_kind: str, seed: int = 2026) -> list[Position]:
    """contract_kind: 'trump' (a random suit), 'nt' or 'misere'; random declarer."""
    rng = random.Random(f"{seed}-{contract_kind}")
    positions = []
    for _ in range(count):
        deal = random_deal(rng)
        declarer = rng.randrange(3)
        if contract_kind == "trump":
            contract = Contract(ContractKind.TRICKS, 6, rng.randrange(4))
        elif contract_kind == "nt":
            contract = Contract(ContractKind.TRICKS, 6, 4)
        else:
            contract = Contract(ContractKind.MISERE)
        positions.append(Position.start(Deal(deal.hands), contract, declarer, 0))
    return positions


def _points(hand: Hand) -> int:
    return sum(max(0, c.rank - 3) for c in hand)


def realistic_positions(count: int, contract_kind: str, seed: int = 2027,
                        solver: Solver | None = None) -> list[Position]:
    """The strongest hand declares after taking the talon and discarding the
    two cards whose loss costs least (by the solver, in its longest suit, or
    for misère its best misère discard)."""
    from itertools import combinations
    solver = solver or Solver()
    rng = random.Random(f"{seed}-{contract_kind}")
    positions = []
    for _ in range(count):
        deal = random_deal(rng)
        declarer = max(range(3), key=lambda s: _points(deal.hands[s]))
        twelve = deal.hands[declarer] | deal.talon
        if contract_kind == "misere":
            contract = Contract(ContractKind.MISERE)
        else:
            lengths = [len([c for c in twelve if c.suit == s]) for s in range(4)]
            suit = max(range(4), key=lambda s: (lengths[s], s))
            contract = Contract(ContractKind.TRICKS, 6, 4 if contract_kind == "nt" else suit)
        best = None
        for discard in combinations(twelve.cards(), 2):
            hands = list(deal.hands)
            hands[declarer] = twelve - Hand.from_cards(discard)
            position = Position.start(Deal(tuple(hands)), contract, declarer, 0)
            value = solver.solve(position)
            score = value if contract.kind is ContractKind.TRICKS else -value
            if best is None or score > best[0]:
                best = (score, position)
        positions.append(best[1])
    return positions


CONTRACTS = ("6s", "6c", "6d", "6h", "6nt", "misere")


def batch_requests(count: int, seed: str) -> list[dict]:
    """Fresh full deals (the declarer has discarded: no talon), mixed contracts."""
    rng = random.Random(seed)
    return [{"deal": str(Deal(random_deal(rng).hands)), "contract": rng.choice(CONTRACTS),
             "declarer": rng.randrange(3), "leader": 0, "id": str(i)} for i in range(count)]
