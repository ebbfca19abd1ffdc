"""Single-deal value (spec §8) and the whist/pass decision by expected value (§8.4).

The value of a deal for player *i* is the change of his final balance caused by the
deal's record delta::

    v_i = Σ_j (ΔW[i][j] − ΔW[j][i]) + K_P·(ΔP[i] − mean ΔP) − K_M·(ΔM[i] − mean ΔM)

with ``K_M = mountain_whist_value·N/divisor`` and ``K_P = pool_point_mountain_equiv·K_M``
(10 and 10 in Sochi/Rostov, 10 and 20 in Leningrad).  Values are exact and add up to 0.

:func:`deal_value` is the objective a whist advisor maximises: a plain function of
(convention, outcome).  :func:`expected_value` averages it over a lottery of outcomes,
and :func:`decide_whist` solves the defender's choice of §8.4.

Choices made where the spec is silent:

* ``half_whist`` in :func:`decide_whist` means a half-whist that is not returned.
* Ties between actions go to the first of ``pass``, ``half_whist``, ``whist``.
* When the other defender passed, the distribution may be over total defence tricks
  (the single whister's tricks are pooled, so the split does not matter).  When the
  other defender whisted, "whist" is scored with two whisters and needs the split:
  keys ``(decider's tricks, other's tricks)``; "pass" then leaves the other as the
  single whister with the same total.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Union

from .errors import ScoringError
from .options import Convention
from .outcome import ContractOutcome, DealOutcome, Decision, seating
from .records import Records, score_deal

TrickKey = Union[int, tuple[int, int]]


def record_value(convention: Convention, records: Records) -> dict[str, Fraction]:
    """Value (§8.1) of a record delta for every player, in whists, exact."""
    players = records.players
    n = len(players)
    k_mountain = convention.mountain_coefficient(n)
    k_pool = convention.pool_coefficient(n)
    mean_pool = sum(records.pool.values(), Fraction(0)) / n
    mean_mountain = sum(records.mountain.values(), Fraction(0)) / n
    values: dict[str, Fraction] = {}
    for player in players:
        values[player] = (k_pool * (records.pool[player] - mean_pool)
                          - k_mountain * (records.mountain[player] - mean_mountain))
    for (writer, target), amount in records.whists.items():
        values[writer] += amount
        values[target] -= amount
    return values


def deal_value(convention: Convention, outcome: DealOutcome) -> dict[str, Fraction]:
    """Each player's change in final balance (in whists, exact) caused by one deal,
    as scored alone (all-pass index from the outcome, 1 if absent; no pool routing —
    help is value-neutral, §8.3).  Raises :class:`ScoringError` for an impossible
    outcome."""
    return record_value(convention, score_deal(convention, outcome).records)


def expected_value(convention: Convention,
                   lottery: Iterable[tuple[Fraction, DealOutcome]]) -> dict[str, Fraction]:
    """Expected deal value over ``(probability, outcome)`` pairs; the probabilities
    must be >= 0 and add up to 1."""
    total_probability = Fraction(0)
    result: dict[str, Fraction] = {}
    for raw, outcome in lottery:
        probability = _probability(raw, "lottery")
        if probability < 0:
            raise ScoringError(f"probability {probability} is negative")
        total_probability += probability
        for player, value in deal_value(convention, outcome).items():
            result[player] = result.get(player, Fraction(0)) + probability * value
    if total_probability != 1:
        raise ScoringError(f"probabilities add up to {total_probability}, not 1")
    return result


@dataclass(frozen=True)
class OutcomeValue:
    """One possible result of whisting: defence tricks (total, or the pair
    (decider, other) when both whist), its probability and the deal values."""

    defence_tricks: TrickKey
    probability: Fraction
    deal_value: dict[str, Fraction]


@dataclass(frozen=True)
class WhistDecision:
    """Result of :func:`decide_whist`: the values of each outcome of whisting, the
    expected deal value per action for every player, and the decider's best action."""

    decider: str
    outcomes_if_whist: tuple[OutcomeValue, ...]
    expected_value: dict[Decision, dict[str, Fraction]]
    best_action: Decision


def decide_whist(
    convention: Convention,
    *,
    players: tuple[str, ...],
    declarer: str,
    contract: int,
    decider: str,
    other_decision: Decision | str,
    defence_tricks_if_whist: Mapping[TrickKey, Fraction],
    dealer: str | None = None,
    strain: str | None = None,
) -> WhistDecision:
    """The decider's choice between pass, half-whist and whist (§8.4).

    ``decider`` is a defender; ``other_decision`` is what the other defender already
    said (``pass`` or ``whist``).  ``defence_tricks_if_whist`` maps defence tricks to
    probabilities; keys are totals ``T`` or, when both would whist, pairs
    ``(decider's tricks, other's tricks)``.  Half-whist is offered when the other
    passed and the contract allows it (never returned).  Under the Stalingrad rule a
    6♠ (``strain="s"``) offers only whist.  Returns every action's expected deal value
    for all players and the action maximising the decider's (the scored outcomes
    raise :class:`ScoringError` if the situation is impossible).
    """
    seat = seating(players, dealer)
    declarer = seat.require_card_holder(declarer, "declarer")
    decider = seat.require_card_holder(decider, "decider")
    if decider == declarer:
        raise ScoringError(f"decider {decider!r} is the declarer")
    first, second = seat.defenders(declarer)
    other = second if decider == first else first
    try:
        other_says: Decision | None = Decision(other_decision)
    except ValueError:
        other_says = None
    if other_says not in (Decision.PASS, Decision.WHIST):
        raise ScoringError(f"other defender {other!r}: decision must be 'pass' or 'whist', got {other_decision!r}")
    distribution = _distribution(defence_tricks_if_whist)

    def outcome(decisions: dict[str, Decision], split: tuple[int, int] | None) -> ContractOutcome:
        tricks: dict[str, int] = {}
        if split is not None:
            tricks = {declarer: 10 - split[0] - split[1], decider: split[0], other: split[1]}
        return ContractOutcome(players=seat.players, declarer=declarer, contract=contract,
                               decisions=decisions, tricks=tricks, dealer=dealer, strain=strain)

    def split_of(key: TrickKey, both_whist: bool) -> tuple[int, int]:
        if isinstance(key, tuple):
            return key
        if both_whist:
            raise ScoringError(f"defence tricks {key}: with two whisters give (decider's, other's) tricks")
        return (key, 0)

    whist_decisions = {decider: Decision.WHIST, other: other_says}
    outcomes = []
    for key, probability in distribution.items():
        played = outcome(whist_decisions, split_of(key, other_says == Decision.WHIST))
        outcomes.append(OutcomeValue(key, probability, deal_value(convention, played)))
    values: dict[Decision, dict[str, Fraction]] = {}
    if convention.stalingrad and contract == 6 and (strain or "").lower() == "s":
        pass  # Stalingrad: both must whist, whisting is the only action
    elif other_says == Decision.PASS:
        values[Decision.PASS] = deal_value(convention, outcome({decider: Decision.PASS, other: Decision.PASS}, None))
        if contract in convention.half_whist_contracts:
            half = outcome({decider: Decision.HALF_WHIST, other: Decision.PASS}, None)
            values[Decision.HALF_WHIST] = deal_value(convention, half)
    else:
        lone = [(p, outcome({decider: Decision.PASS, other: Decision.WHIST}, _pooled(split_of(k, False))))
                for k, p in distribution.items()]
        values[Decision.PASS] = expected_value(convention, lone)
    values[Decision.WHIST] = _mean(outcomes)
    best = max(values, key=lambda action: (values[action][decider], -list(values).index(action)))
    return WhistDecision(decider, tuple(outcomes), values, best)


def _pooled(split: tuple[int, int]) -> tuple[int, int]:
    return (0, split[0] + split[1])


def _mean(outcomes: list[OutcomeValue]) -> dict[str, Fraction]:
    result: dict[str, Fraction] = {}
    for item in outcomes:
        for player, value in item.deal_value.items():
            result[player] = result.get(player, Fraction(0)) + item.probability * value
    return result


def _distribution(raw: Mapping[TrickKey, object]) -> dict[TrickKey, Fraction]:
    if not isinstance(raw, Mapping) or not raw:
        raise ScoringError(f"defence trick distribution: expected a non-empty mapping, got {raw!r}")
    result: dict[TrickKey, Fraction] = {}
    for key, probability in raw.items():
        parts = key if isinstance(key, tuple) else (key,)
        if len(parts) not in (1, 2) or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in parts) \
                or sum(parts) > 10:
            raise ScoringError(f"defence trick distribution: bad defence tricks {key!r}")
        value = _probability(probability, f"defence trick distribution: {key!r}")
        if value < 0:
            raise ScoringError(f"defence trick distribution: negative probability {probability!r} for {key!r}")
        result[key] = value
    total = sum(result.values(), Fraction(0))
    if total != 1:
        raise ScoringError(f"defence trick distribution: probabilities add up to {total}, not 1")
    return result


def _probability(value: object, what: str) -> Fraction:
    """A probability given as a Fraction, an int, a float (read as its decimal text) or
    a rational string."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
        raise ScoringError(f"{what}: bad probability {value!r}")
    try:
        return Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ScoringError(f"{what}: bad probability {value!r}") from None
