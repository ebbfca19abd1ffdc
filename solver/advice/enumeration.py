"""Exact enumeration: every split of the defenders' cards.

With the declarer's cards in play known (his 12 less the discard), the two
defenders share the other 20 cards: C(20,10) = 184,756 splits. Each split is
solved double dummy in every contract asked for, and the answer is the exact
count of splits per number of declarer's tricks, the exact probability of
making the contract, and the exact expected single-deal value (scoring spec
§8) for the declarer when the defenders answer by a
:class:`~solver.advice.values.DefenceRule`.

The splits are visited in revolving-door order (each differs from the one
before by one card swapped between the defenders) with the owners of the high
cards changing least often (:func:`~solver.advice.layouts.warm_order`), in
chunks of consecutive splits, one worker thread and one solver each, so the
solver's table carries from split to split (its policy set for that:
:data:`ENUMERATION_TABLE_POLICY`); a worker solves 256 splits in one C call. A run stopped early (time budget, cancel) answers the chunks finished,
a random sample of them, with standard errors.

Choices where the issue is silent: every split counts the same (no
inference from the auction); the defenders' split of tricks is counted only
for the ``both`` rule; the first trick is led by seat ``leader`` (0).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Hashable, Sequence

from ..engine import Solver, StartSolver
from ..notation import Contract, ContractKind, Hand, NotationError, check_seat, parse_seat
from ..position import Position
from ..scoring import SOCHI, Convention
from .errors import AdviceError, require_type
from .layouts import LayoutSpace, misere_only
from .parallel import RunOptions, RunStats, run_layouts
from .play import contract_kind, made, split_tricks
from .stats import Estimate, Number, merge_units
from .values import DefenceRule, Valuer, rule_scenario
from .inputs import FULL_DECK, check_prior, parse_contracts, parse_convention, parse_hand

ENUMERATION_TABLE_MIB = 64
"""Each worker's table for an enumeration: a bigger table keeps more of the
neighbouring splits' positions (about a quarter faster than 16 MiB)."""

ENUMERATION_TABLE_POLICY = (63, 2048)
"""Each worker's table policy (:meth:`Solver.set_table_policy`: partition
entries a shape, solves a table generation). Consecutive splits share most of
their positions, so the entries of the splits just before are the ones the
next needs: with the default policy (15, 1) each split starts a generation
and replaces them first. Measured over all 184,756 splits of the searching
hands (benchmarks/README.md): 61-62 % fewer nodes; (15, 1) is the search of
unrelated positions."""
ENUMERATION_PARTITION_ONLY = True
"""When every contract kind is a trick contract, whose search never reads the
exact entries, the partition entries get all of each worker's table
(``exact_table=False``): 12-15 % fewer nodes on the searching hands."""

__all__ = ["EnumerationRequest", "ContractCount", "Enumeration", "enumerate_splits", "enumeration_request"]


@dataclass(frozen=True)
class EnumerationRequest:
    hand: Hand
    """The declarer's cards in play (after his discard)."""
    declarer: int
    contracts: tuple[Contract, ...]
    defenders: Hand
    """The two defenders' cards together."""
    convention: Convention = SOCHI
    defence: DefenceRule = DefenceRule.WHIST
    prior_tricks: tuple[int, int, int] = (0, 0, 0)
    four_players: bool = False
    leader: int = 0

    def __post_init__(self) -> None:
        for name, kind in (("hand", Hand), ("defenders", Hand), ("convention", Convention)):
            if not isinstance(getattr(self, name), kind):
                raise AdviceError(f"{name} must be a {kind.__name__}, got {getattr(self, name)!r}")
        for name in ("declarer", "leader"):
            check_seat(getattr(self, name), name, AdviceError)
        if not self.contracts or not all(isinstance(c, Contract) and c.kind is not ContractKind.ALLPASS
                                         for c in self.contracts):
            raise AdviceError(f"contracts must be trick contracts or misère, got {self.contracts!r}")
        if not isinstance(self.defence, DefenceRule):
            raise AdviceError(f"defence must be a DefenceRule, got {self.defence!r}")
        if self.hand.mask & self.defenders.mask:
            raise AdviceError(f"the declarer's hand overlaps the defenders' cards: "
                              f"{(self.hand & self.defenders).pretty()}")
        size = len(self.hand)
        if not 1 <= size <= 10:
            raise AdviceError(f"the declarer's hand has {size} cards in play, must have 1 to 10")
        if len(self.defenders) != 2 * size:
            raise AdviceError(f"{len(self.defenders)} defenders' cards cannot make two hands of {size}")
        check_prior(self.prior_tricks, size)

    @property
    def kinds(self) -> tuple[Contract, ...]:
        seen: list[Contract] = []
        for contract in self.contracts:
            if contract_kind(contract) not in seen:
                seen.append(contract_kind(contract))
        return tuple(seen)


def enumeration_request(hand: Hand | str, declarer: int | str, contracts: str | Sequence[Contract | str],
                        *, discard: Hand | str | None = None, defenders: Hand | str | None = None,
                        convention: Convention | str = "sochi", options: dict | None = None,
                        defence: DefenceRule | str = "whist", prior_tricks: Sequence[int] = (0, 0, 0),
                        four_players: bool = False) -> EnumerationRequest:
    """From text: the declarer's 10 cards and his discard (or his 12 cards and
    the 2 of them discarded), or for an endgame his cards and the defenders'."""
    try:
        cards = parse_hand(hand, "hand")
        if defenders is not None:
            if discard is not None:
                raise AdviceError("give either the discard or the defenders' cards, not both")
            them = parse_hand(defenders, "defenders' cards")
        else:
            if discard is None:
                raise AdviceError("the defenders' cards are not known: give the declarer's discard "
                                  "(or the defenders' cards)")
            out = parse_hand(discard, "discard")
            if len(out) != 2:
                raise AdviceError(f"a discard is 2 cards, got {len(out)}")
            if len(cards) == 12:
                if (out - cards).mask:
                    raise AdviceError(f"the discard {out.pretty()} is not in the 12 cards {cards.pretty()}")
                cards = cards - out
            elif out.mask & cards.mask:
                raise AdviceError(f"the discard overlaps the hand: {(out & cards).pretty()}")
            them = FULL_DECK - cards - out
        try:
            rule = DefenceRule(defence)
        except ValueError:
            raise AdviceError(f"defence rule must be whist, pass or both, got {defence!r}") from None
        return EnumerationRequest(cards, parse_seat(declarer), parse_contracts(contracts), them,
                                  parse_convention(convention, options), rule, tuple(prior_tricks),  # type: ignore[arg-type]
                                  four_players)
    except NotationError as error:
        raise AdviceError(str(error)) from None


@dataclass(frozen=True)
class ContractCount:
    contract: Contract
    counts: dict[int, Number]
    """Splits (weights) per number of the declarer's tricks in the whole deal."""
    make_probability: Estimate
    value: Estimate
    """The declarer's expected deal value, in whists."""


@dataclass(frozen=True)
class Enumeration:
    request: EnumerationRequest
    contracts: tuple[ContractCount, ...]
    run: RunStats

    @property
    def splits(self) -> int:
        return self.run.layouts

    def contract(self, text: str) -> ContractCount:
        wanted = Contract.parse(text)
        for count in self.contracts:
            if count.contract == wanted:
                return count
        raise KeyError(text)


def _template(request: EnumerationRequest, kind: Contract, size: int) -> Position:
    """The start of play with placeholder defenders' hands (replaced per split)."""
    placeholder = list(request.defenders.cards())
    hands = [request.hand] * 3
    hands[(request.declarer + 1) % 3] = Hand.from_cards(placeholder[:size])
    hands[(request.declarer + 2) % 3] = Hand.from_cards(placeholder[size:])
    return Position((hands[0], hands[1], hands[2]), kind, request.declarer, request.leader)


def set_enumeration_table(solver: Solver, kinds: Sequence[Contract]) -> None:
    """Set a worker's table policy for an enumeration of contracts ``kinds``
    (:data:`ENUMERATION_TABLE_POLICY`, :data:`ENUMERATION_PARTITION_ONLY`)."""
    trick_contracts = all(kind.kind is ContractKind.TRICKS for kind in kinds)
    solver.set_table_policy(*ENUMERATION_TABLE_POLICY, exact_table=not (ENUMERATION_PARTITION_ONLY and trick_contracts))


def enumerate_splits(request: EnumerationRequest, options: RunOptions | None = None) -> Enumeration:
    """Solve every split of the defenders' cards (``options.mode`` is forced
    to ``exact``; its seconds and cancel still apply)."""
    require_type(request, EnumerationRequest, "request")
    base = RunOptions.given(options)
    options = replace(base, mode="exact", table_mib=max(base.table_mib, ENUMERATION_TABLE_MIB))
    size = len(request.hand)
    kinds = request.kinds
    space = LayoutSpace(request.defenders, (size, size), (Hand(0), Hand(0)), misere_only(kinds))
    first, second = (request.declarer + 1) % 3, (request.declarer + 2) % 3
    prior = request.prior_tricks
    both = request.defence is DefenceRule.BOTH

    lined = [both and kind.kind is ContractKind.TRICKS for kind in kinds]
    fast: dict[Solver, list[StartSolver]] = {}   # per worker's solver: one per contract kind

    def starts(solver: Solver) -> list[StartSolver]:
        """The worker's solvers of each contract kind, its table set for the run."""
        if solver not in fast:
            set_enumeration_table(solver, kinds)
            fast[solver] = [StartSolver(solver, _template(request, kind, size), (first, second))
                            for kind in kinds]
        return fast[solver]

    def evaluate(parts: tuple[int, int], solver: Solver) -> dict[Hashable, Number]:
        key = []
        for kind, lines, start in zip(kinds, lined, starts(solver)):
            if lines:
                hands = [request.hand] * 3
                hands[first], hands[second] = Hand(parts[0]), Hand(parts[1])
                position = Position((hands[0], hands[1], hands[2]), kind, request.declarer, request.leader)
                tricks = split_tricks(position, solver)
                whole = (prior[0] + tricks[0], prior[1] + tricks[1], prior[2] + tricks[2])
                key.append((whole[request.declarer], whole))
            else:
                key.append((prior[request.declarer] + start.solve(parts[0], parts[1]), None))
        return {tuple(key): 1}

    have = prior[request.declarer]
    outcomes: dict[tuple[int, ...], dict[Hashable, Number]] = {}

    def outcome(values: tuple[int, ...]) -> dict[Hashable, Number]:
        """``evaluate``'s answer for a split with these values: one dict per
        distinct values, shared (the run only reads outcomes), as building
        one per split cost as much as a tenth of the searches."""
        found = outcomes.get(values)
        if found is None:
            found = outcomes.setdefault(values, {tuple((have + v, None) for v in values): 1})
        return found

    def evaluate_batch(layouts: list[tuple[int, int]], solver: Solver) -> list[dict[Hashable, Number]]:
        """``evaluate`` of each split, one C call per contract kind."""
        values = [start.solve_pairs(layouts) for start in starts(solver)]
        return [outcome(each) for each in zip(*values)]

    if not any(lined):
        evaluate.batch = evaluate_batch  # type: ignore[attr-defined]
    run = run_layouts(space, evaluate, options, masks=True).finished()  # type: ignore[arg-type]
    merged = merge_units(run.units)
    results = []
    for contract in request.contracts:
        slot = kinds.index(contract_kind(contract))
        valuer = Valuer(request.convention, contract, request.declarer, first, second, request.four_players)
        scenario = rule_scenario(request.defence, contract, request.convention)
        counts: dict[int, Number] = {}
        for key, weight in merged.items():
            counts[key[slot][0]] = counts.get(key[slot][0], 0) + weight
        results.append(ContractCount(
            contract, dict(sorted(counts.items())),
            run.estimate(lambda key, s=slot, c=contract: 1 if made(c, key[s][0]) else 0),
            run.estimate(lambda key, s=slot, v=valuer, sc=scenario: v.declarer_value(sc, key[s]))))
    return Enumeration(request, tuple(results), run.stats)
