"""Estimates from weighted outcome histograms.

Every run yields *units*. A unit is a small histogram ``{outcome key: weight}``:
one sampled layout (weights adding up to 1: one outcome, or several when the
discard model spreads the layout over several discards), or, in an exact
enumeration, one chunk of consecutive layouts (weights adding up to the
layouts of the chunk that were kept). A quantity ``f(key)`` is estimated by
the ratio estimator ``Σ w·f / Σ w`` over all units, which is the exact mean
when the enumeration is complete.

Its standard error comes from the spread of the unit totals around the ratio
(the usual cluster-sample formula), with the finite-population correction when
the units are chunks of a finite enumeration: 0 for a complete enumeration,
``s/√n`` for ``n`` sampled layouts of weight 1.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Hashable, Iterable, Mapping, Sequence, Union

__all__ = ["Number", "Unit", "Estimate", "estimate", "merge_units", "normal_cdf", "sureness"]

Number = Union[int, Fraction]
Unit = Mapping[Hashable, Number]


@dataclass(frozen=True)
class Estimate:
    """An expected value with its standard error; ``exact`` holds the exact
    rational mean when every layout was counted."""

    mean: float
    std_error: float
    exact: Fraction | None = None

    def __str__(self) -> str:
        if self.exact is not None:
            return f"{self.mean:.2f}"
        return f"{self.mean:.2f} ± {self.std_error:.2f}"

    def as_float(self) -> float:
        """The mean as one float, from the exact mean when there is one
        (what the advice ranks its options by)."""
        return self.mean if self.exact is None else float(self.exact)


def merge_units(units: Iterable[Unit]) -> Counter:
    """All units added up into one histogram."""
    total: Counter = Counter()
    for unit in units:
        for key, weight in unit.items():
            total[key] += weight
    return total


def collapse(units: Sequence[Unit]) -> list[tuple[Unit, int]]:
    """Equal units counted once, with their multiplicity (a sample of
    thousands of layouts holds only tens of distinct outcomes)."""
    counts: Counter = Counter()
    first: dict[frozenset, Unit] = {}
    for unit in units:
        signature = frozenset(unit.items())
        counts[signature] += 1
        first.setdefault(signature, unit)
    return [(first[signature], n) for signature, n in counts.items()]


def estimate(
    units: Sequence[Unit],
    f: Callable[[Hashable], Number],
    *,
    population_units: int | None = None,
    exact: bool = False,
) -> Estimate:
    """The ratio estimate of ``f`` over ``units``. ``population_units`` is the
    number of units in the whole (finite) population when the units are chunks
    of an enumeration (None: an unbounded sample). With ``exact`` the mean is
    also given as a Fraction."""
    return estimate_collapsed(collapse(units), f, population_units=population_units, exact=exact)


def estimate_collapsed(
    collapsed: Sequence[tuple[Unit, int]],
    f: Callable[[Hashable], Number],
    *,
    population_units: int | None = None,
    exact: bool = False,
) -> Estimate:
    """:func:`estimate` over units already collapsed (:func:`collapse`), for
    many estimates over the same units."""
    values: dict[Hashable, Number] = {}
    totals: list[tuple[Number, Number, int]] = []
    for unit, multiplicity in collapsed:
        if len(unit) == 1:   # a sampled layout: one key, weight 1 (no Fraction arithmetic for it)
            [(key, weight)] = unit.items()
            if type(weight) is int and weight == 1:
                if key not in values:
                    values[key] = f(key)
                totals.append((1, values[key], multiplicity))
                continue
        weight_sum: Number = 0
        value_sum: Number = 0
        for key, weight in unit.items():
            if key not in values:
                values[key] = f(key)
            weight_sum += weight
            value_sum += weight * values[key]
        totals.append((weight_sum, value_sum, multiplicity))
    all_weight = sum(w * m for w, _, m in totals)
    if not all_weight:
        return Estimate(math.nan, math.nan, None)
    mean = Fraction(sum(v * m for _, v, m in totals)) / Fraction(all_weight)
    n = sum(m for _, _, m in totals)
    if population_units is not None and n >= population_units:
        return Estimate(float(mean), 0.0, mean if exact else None)
    if n < 2:
        return Estimate(float(mean), math.inf, None)
    mean_float = float(mean)
    average_weight = float(all_weight) / n
    spread = sum(m * (float(v) - mean_float * float(w)) ** 2 for w, v, m in totals)
    variance = spread / (n * (n - 1) * average_weight ** 2)
    if population_units is not None:
        variance *= 1 - n / population_units
    return Estimate(mean_float, math.sqrt(max(variance, 0.0)), None)


def normal_cdf(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def sureness(difference: Estimate) -> float:
    """How sure the first of two options is the better: the probability, under
    a normal approximation, that its true advantage ``difference`` is positive
    (1 for an exact positive difference, 0.5 for an exact tie)."""
    if difference.std_error == 0 or difference.exact is not None:
        return 1.0 if difference.mean > 0 else 0.5 if difference.mean == 0 else 0.0
    if math.isinf(difference.std_error) or math.isnan(difference.std_error):
        return 0.5
    return normal_cdf(difference.mean / difference.std_error)
