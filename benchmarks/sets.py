"""The seeded benchmark sets of the solver and analysis benchmarks, each in
one place: how its jobs are made, what one job does with the reused Solver,
which search options it runs with, and what it answers (the values compared by
``nodes.py``). ``test_bench_solver.py`` and ``test_bench_analysis.py`` time
these sets; ``nodes.py`` prints their values and node counts.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from deals import random_deal, random_positions, realistic_positions
from solver import Card, Contract, ContractKind, Deal, Hand, Position, Solver, deal_table
from solver.advice import EnumerationRequest, enumeration_request
from solver.advice.layouts import LayoutSpace
from solver.analysis import allpass_line, best_discard, discard_table
from solver.engine import OPT_ALL, OPT_NONE
from solver._core import lib

KINDS = ("trump", "nt", "misere")


@dataclass(frozen=True)
class BenchSet:
    name: str
    jobs: Callable[[], Sequence[Any]]
    work: Callable[[Solver, Any], Any]
    answer: Callable[[Any], Any]
    """The job's result as plain numbers and strings (what must never change)."""
    options: int = OPT_ALL

    def solver(self) -> Solver:
        solver = Solver()
        solver.set_options(self.options)
        return solver


def deals(count: int, seed: str | int) -> list[Deal]:
    rng = random.Random(seed)
    return [random_deal(rng) for _ in range(count)]


def endgames(count: int, size: int, seed: int = 77) -> list[Position]:
    """Random `size`-card endgames, contracts 6♠, 6NT and misère in turn."""
    rng = random.Random(seed)
    positions = []
    for i in range(count):
        cards = rng.sample(range(32), 3 * size)
        hands = tuple(Hand.from_cards(Card.from_index(c) for c in cards[k * size:(k + 1) * size])
                      for k in range(3))
        contract = ["6s", "6nt", "misere"][i % 3]
        positions.append(Position.start(Deal(hands), contract, rng.randrange(3), 0))
    return positions


def fixed_hands_deals() -> list[Deal]:
    """The hands as dealt (the talon left out)."""
    return [Deal(deal.hands) for deal in deals(100, 99)]


def discard_jobs(kind: str) -> list[tuple[Deal, int, Contract]]:
    """A deal, a declarer and a contract (a random strain, or misère)."""
    rng = random.Random(f"analysis-discard-{kind}")
    jobs = []
    for deal in deals(60, f"analysis-discard-deals-{kind}"):
        contract = (Contract(ContractKind.MISERE) if kind == "misere"
                    else Contract(ContractKind.TRICKS, 6, rng.randrange(5)))
        jobs.append((deal, rng.randrange(3), contract))
    return jobs


def allpass_jobs() -> list[Position]:
    rng = random.Random("analysis-allpass")
    return [Position.start(deal, "allpass", rng.randrange(3), 0)
            for deal in deals(300, "analysis-allpass-deals")]


EASY_ENUMERATION = ("AKJ97.A8.KQ.A87", ".8..7", "6s")
"""The enumeration benchmark's hand: ♠AKJ97 ♣A ♦KQ ♥A8 after discarding ♣8 ♥7,
6♠ by first hand (from an empty table its splits take about 1,400 nodes)."""
SETTLED_NODES = 100
"""A split whose search from an empty table ends within this many nodes is
settled by the bounds (the sure tricks at the first trick boundaries)."""
PROBE_SPLITS = 32
SEARCHING_NODES = (2_000, 3_000)
"""The mean nodes a split of a searching hand takes from an empty table:
above the easy hand's, below what makes one enumeration last minutes."""


def split_nodes(request: EnumerationRequest, splits: int = PROBE_SPLITS, seed: int = 0) -> list[int]:
    """The nodes of each of ``splits`` sampled splits, each searched from an
    empty table (nothing carried over from another split)."""
    size = len(request.hand)
    space = LayoutSpace(request.defenders, (size, size), (Hand(0), Hand(0)))
    first, second = (request.declarer + 1) % 3, (request.declarer + 2) % 3
    solver = Solver()
    nodes = []
    for index in range(splits):
        hands = [request.hand] * 3
        hands[first], hands[second] = space.sample(seed, index)
        solver.set_options(OPT_ALL)    # empties the table
        solver.reset_stats()
        solver.solve(Position((hands[0], hands[1], hands[2]), request.kinds[0], request.declarer, request.leader))
        nodes.append(solver.stats().nodes)
    return nodes


def searching_hands(count: int = 2, seed: str = "searching") -> list[tuple[str, str, str]]:
    """Hands (cards, discard, contract) for the enumeration whose splits need
    real search: from seeded random 12-card hands of first hand with 2 random
    discards, in 6 of the longest suit or (two times in five) 6NT, those
    where none of :data:`PROBE_SPLITS` sampled splits is settled by the
    bounds and the mean is within :data:`SEARCHING_NODES`."""
    rng = random.Random(seed)
    found: list[tuple[str, str, str]] = []
    while len(found) < count:
        cards = rng.sample(range(32), 12)
        hand = Hand.from_cards(Card.from_index(c) for c in cards)
        discard = Hand.from_cards(Card.from_index(c) for c in cards[10:])
        kept = hand - discard
        lengths = [bin(kept.mask >> (8 * suit) & 0xFF).count("1") for suit in range(4)]
        strain = "nt" if rng.random() < 0.4 else "scdh"[max(range(4), key=lambda suit: lengths[suit])]
        request = enumeration_request(hand, 0, "6" + strain, discard=discard)
        nodes = split_nodes(request)
        settled = sum(n <= SETTLED_NODES for n in nodes)
        if settled == 0 and SEARCHING_NODES[0] <= sum(nodes) / len(nodes) <= SEARCHING_NODES[1]:
            found.append((str(hand), str(discard), "6" + strain))
    return found


ENUMERATION_SLICE = 4096


def enumeration_jobs() -> list[EnumerationRequest]:
    """The easy hand and the searching hands, as enumeration requests."""
    return [enumeration_request(cards, 0, contract, discard=discard)
            for cards, discard, contract in [EASY_ENUMERATION] + searching_hands()]


def enumeration_slice(solver: Solver, request: EnumerationRequest) -> list[int]:
    """The values of the first :data:`ENUMERATION_SLICE` splits in the
    enumeration's order, solved one after the other on ``solver`` (as one
    worker of ``prefdd enumerate`` solves its chunk)."""
    size = len(request.hand)
    space = LayoutSpace(request.defenders, (size, size), (Hand(0), Hand(0)))
    hands = [request.hand] * 3
    first, second = (request.declarer + 1) % 3, (request.declarer + 2) % 3
    values = []
    for index, (a, b) in enumerate(space.enumerate_masks()):
        if index == ENUMERATION_SLICE:
            break
        hands[first], hands[second] = Hand(a), Hand(b)
        values.append(solver.solve(Position((hands[0], hands[1], hands[2]), request.kinds[0], request.declarer,
                                            request.leader)))
    return values


def solve(solver: Solver, position: Position) -> int:
    return solver.solve(position)


def same(value: Any) -> Any:
    return value


def card_values(values: dict[Card, int]) -> list[tuple[str, int]]:
    return sorted((str(card), value) for card, value in values.items())


def table_answer(table: Any) -> list:
    return [list(table.tricks), list(table.misere)]


def discard_table_answer(table: Any) -> list:
    return [[[best.value, str(best.discard)] for best in (*row.strains, row.misere)]
            + [str(row.best_contract)] for row in table.rows]


def best_discard_answer(found: Any) -> list:
    return [found.value, found.classes, [str(hand) for hand in found.discards]]


def allpass_line_answer(line: Any) -> list:
    return [list(line.tricks), line.unclaimed, [str(card) for card in line.cards]]


def best_discards(solver: Solver, job: tuple[Deal, int, Contract]) -> Any:
    return best_discard(job[0], job[1], job[2], solver=solver)


def _sets() -> list[BenchSet]:
    sets = []
    for kind in KINDS:
        sets.append(BenchSet(f"random {kind}", lambda kind=kind: random_positions(1000, kind), solve, same))
    sets.append(BenchSet("random misere caught (probe 1)", lambda: random_positions(1000, "misere"),
                         lambda solver, position: solver.probe(position, 1), same))
    for kind in KINDS:
        sets.append(BenchSet(f"realistic {kind}", lambda kind=kind: realistic_positions(200, kind),
                             solve, same))
    sets.append(BenchSet("first-lead card values", lambda: random_positions(300, "trump"),
                         lambda solver, position: solver.card_values(position), card_values))
    sets.append(BenchSet("fixed-hands table", fixed_hands_deals,
                         lambda solver, deal: deal_table(deal, solver=solver), table_answer))
    for kind in KINDS:
        for options, label in ((lib.PDD_OPT_TT, "table-only"), (OPT_ALL, "optimised")):
            sets.append(BenchSet(f"full deals {kind} {label}",
                                 lambda kind=kind: random_positions(100, kind, seed=5), solve, same, options))
    for options, label in ((OPT_NONE, "baseline"), (OPT_ALL, "optimised")):
        sets.append(BenchSet(f"8-card endgames {label}", lambda: endgames(30, 8), solve, same, options))
    sets.append(BenchSet("deal's table with best discards", lambda: deals(40, "analysis-table"),
                         lambda solver, deal: discard_table(deal, solver=solver), discard_table_answer))
    for kind in ("tricks", "misere"):
        sets.append(BenchSet(f"best discard, all, {kind}", lambda kind=kind: discard_jobs(kind),
                             best_discards, best_discard_answer))
    sets.append(BenchSet("all-pass player value", allpass_jobs, solve, same))
    sets.append(BenchSet("all-pass max^n line", lambda: deals(100, "analysis-allpass-line"),
                         lambda solver, deal: allpass_line(deal, solver=solver), allpass_line_answer))
    sets.append(BenchSet(f"enumeration, first {ENUMERATION_SLICE:,} splits", enumeration_jobs,
                         enumeration_slice, same))
    return sets


SETS: dict[str, BenchSet] = {s.name: s for s in _sets()}
