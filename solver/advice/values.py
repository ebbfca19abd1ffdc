"""Single-deal values (scoring spec §8) of the outcomes the advisors meet.

Players are named by seat, ``"0" "1" "2"``, clockwise in play order; in a
4-player game the sitting dealer ``"dealer"`` sits between seat 2 and seat 0
(seat 0 is left of the dealer). The first defender is the next card holder
clockwise from the declarer, as in the scoring package.

A :class:`Scenario` is what the defenders said (and whether the deal is then
played); with an outcome key of :mod:`solver.advice.play` it is a deal outcome,
scored by :func:`solver.scoring.deal_value`. Values are cached per (scenario,
key): a run meets few distinct keys.

Choices where the spec is silent:
 - a single whister's result depends on the defence's total only (spec §3.2:
   the tricks of both defending hands count for him), so single-whister
   scenarios need no split; two whisters (and a checked 10 that fails, scored
   as two whisters) take the split along the canonical line
   (:func:`~solver.advice.play.split_tricks`: a rule free of the cards' names);
 - a checked 10 that stands is scored unplayed (pool +10), one that fails as
   played by two whisters (spec §3.3).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from ..notation import Contract, ContractKind
from ..scoring import AllPassOutcome, Convention, ContractOutcome, Decision, MisereOutcome, deal_value
from .errors import AdviceError
from .play import OutcomeKey

__all__ = ["AllPassValuer", "DefenceRule", "Scenario", "Valuer", "player", "rule_scenario", "DEALER", "STRAIN_TEXT"]

DEALER = "dealer"
STRAIN_TEXT = ("s", "c", "d", "h", "nt")


def player(seat: int) -> str:
    return str(seat)


class Scenario(str, Enum):
    """What the two defenders (``x`` asking, ``y`` the other) said."""

    PASS_PASS = "pass_pass"
    """Both pass: the contract stands unplayed."""
    X_WHISTS = "x_whists"
    """x whists, y passes: x plays alone (light or dark: the same double dummy)."""
    Y_WHISTS = "y_whists"
    BOTH_WHIST = "both_whist"
    X_HALF = "x_half_whist"
    """x half-whists, y passes and lets it stand: unplayed."""
    X_HALF_RETURNED = "x_half_whist_returned"
    """x half-whists, y returns the whist and plays alone."""
    Y_HALF = "y_half_whist"
    Y_HALF_RETURNED = "y_half_whist_returned"
    TEN_CHECKED = "ten_checked"
    """A 10 under ``ten_whisted = false``: checked, nobody decides."""

    @property
    def played(self) -> bool:
        return self not in (Scenario.PASS_PASS, Scenario.X_HALF, Scenario.Y_HALF)

    @property
    def needs_split(self) -> bool:
        return self in (Scenario.BOTH_WHIST, Scenario.TEN_CHECKED)


_DECISIONS: dict[Scenario, tuple[Decision, Decision, str | None]] = {
    # x's decision, y's decision, who returned the half-whist ("x"/"y")
    Scenario.PASS_PASS: (Decision.PASS, Decision.PASS, None),
    Scenario.X_WHISTS: (Decision.WHIST, Decision.PASS, None),
    Scenario.Y_WHISTS: (Decision.PASS, Decision.WHIST, None),
    Scenario.BOTH_WHIST: (Decision.WHIST, Decision.WHIST, None),
    Scenario.X_HALF: (Decision.HALF_WHIST, Decision.PASS, None),
    Scenario.X_HALF_RETURNED: (Decision.HALF_WHIST, Decision.PASS, "y"),
    Scenario.Y_HALF: (Decision.PASS, Decision.HALF_WHIST, None),
    Scenario.Y_HALF_RETURNED: (Decision.PASS, Decision.HALF_WHIST, "x"),
    Scenario.TEN_CHECKED: (Decision.WHIST, Decision.WHIST, None),
}


@dataclass
class Valuer:
    """Deal values for one contract: declarer, defender ``x``, defender ``y``."""

    convention: Convention
    contract: Contract
    declarer: int
    x: int
    y: int
    four_players: bool = False
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if {self.declarer, self.x, self.y} != {0, 1, 2}:
            raise AdviceError(f"declarer {self.declarer} and defenders {self.x}, {self.y} must be the three seats")

    @property
    def players(self) -> tuple[str, ...]:
        return ("0", "1", "2", DEALER) if self.four_players else ("0", "1", "2")

    @property
    def dealer(self) -> str | None:
        return DEALER if self.four_players else None

    def values(self, scenario: Scenario, key: OutcomeKey) -> tuple[Fraction, Fraction, Fraction]:
        """(declarer, x, y) deal values in whists (a misère ignores ``scenario``)."""
        # Cached by what the outcome depends on: the split only where the
        # scenario needs it (a whist advice's keys carry the split of every
        # layout: the first defender's advice has 40 distinct outcomes among
        # its 82 pairs of a scenario and a key).
        if self.contract.kind is ContractKind.MISERE:
            cache_key: tuple = ("misere", key[0])
        else:
            cache_key = (scenario, key if scenario.needs_split else key[0] if scenario.played else None)
        if cache_key not in self._cache:
            value = deal_value(self.convention, self._outcome(scenario, key))
            self._cache[cache_key] = (value[player(self.declarer)], value[player(self.x)], value[player(self.y)])
        return self._cache[cache_key]

    def declarer_value(self, scenario: Scenario, key: OutcomeKey) -> Fraction:
        """The declarer's deal value. Without a split, a checked 10 is scored
        with the defence's tricks all on ``x``: the declarer's value does not
        depend on the split there (nothing is obligatory, R = 0)."""
        taken, split = key
        if split is None and scenario is Scenario.TEN_CHECKED:
            nominal = [0, 0, 0]
            nominal[self.declarer], nominal[self.x] = taken, 10 - taken
            key = (taken, (nominal[0], nominal[1], nominal[2]))
        return self.values(scenario, key)[0]

    def _outcome(self, scenario: Scenario, key: OutcomeKey) -> ContractOutcome | MisereOutcome:
        declarer, x, y = player(self.declarer), player(self.x), player(self.y)
        taken, split = key
        if self.contract.kind is ContractKind.MISERE:
            return MisereOutcome(self.players, declarer, {declarer: taken, x: 10 - taken, y: 0}, self.dealer)
        assert self.contract.level is not None and self.contract.strain is not None
        level = self.contract.level
        x_says, y_says, returned = _DECISIONS[scenario]
        tricks: dict[str, int] = {}
        if scenario is Scenario.TEN_CHECKED and taken >= level:
            pass  # the 10 stood the check: unplayed
        elif scenario.needs_split:
            if split is None:
                raise AdviceError(f"scenario {scenario.value} needs the defenders' split of tricks")
            tricks = {declarer: taken, x: split[self.x], y: split[self.y]}
        elif scenario.played:
            defence = 10 - taken
            lone = x if scenario in (Scenario.X_WHISTS, Scenario.Y_HALF_RETURNED) else y
            tricks = {declarer: taken, x: 0, y: 0}
            tricks[lone] = defence
        returned_by = {"x": x, "y": y}.get(returned) if returned else None
        return ContractOutcome(players=self.players, declarer=declarer, contract=level,
                               decisions={x: x_says, y: y_says}, tricks=tricks, dealer=self.dealer,
                               returned_by=returned_by, strain=STRAIN_TEXT[self.contract.strain])


@dataclass
class AllPassValuer:
    """Deal values of an all-pass (the first of a run: index 1) for one seat.
    In a 4-player game whose dealer plays the talon (``allpass_dealer_4p =
    plays_talon``) the tricks nobody at the table took are the dealer's."""

    convention: Convention
    seat: int
    four_players: bool = False
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def dealer_plays_talon(self) -> bool:
        return self.four_players and self.convention.allpass_dealer_4p == "plays_talon"

    def value(self, tricks: tuple[int, int, int], unclaimed: int) -> Fraction:
        key = (tricks, unclaimed)
        if key not in self._cache:
            players = ("0", "1", "2", DEALER) if self.four_players else ("0", "1", "2")
            taken = {player(seat): tricks[seat] for seat in range(3)}
            if self.dealer_plays_talon:
                taken[DEALER] = unclaimed
            outcome = AllPassOutcome(players, taken, DEALER if self.four_players else None, 1)
            self._cache[key] = deal_value(self.convention, outcome)[player(self.seat)]
        return self._cache[key]


class DefenceRule(str, Enum):
    """How the defenders answer a contract, for the bidder's question."""

    WHIST = "whist"
    """The first defender whists, the second passes: one whister, whose result
    depends on the defence's total only (the default)."""
    PASS = "pass"
    """Both pass: every contract stands unplayed."""
    BOTH = "both"
    """Both whist (needs the split of tricks along the canonical line)."""


def rule_scenario(rule: DefenceRule, contract: Contract, convention: Convention) -> Scenario:
    """The scenario a defence rule gives (x = the first defender); a 10 that
    is checked is checked whatever the rule."""
    if contract.kind is ContractKind.TRICKS and contract.level == 10 and not convention.ten_whisted:
        return Scenario.TEN_CHECKED
    if rule is DefenceRule.PASS:
        return Scenario.PASS_PASS
    if rule is DefenceRule.BOTH:
        return Scenario.BOTH_WHIST
    return Scenario.X_WHISTS
