"""Final settlement (spec §7): adjusted mountains, pairwise nets, balances, and the
rounding of money.

Everything is exact (:class:`fractions.Fraction`); only :func:`round_balances` rounds,
by largest remainder so that the rounded amounts still add up to zero.

Choices made where the spec is silent:

* ``each_closed`` moves an unfinished pool's remainder to the mountain at
  ``pool_point_mountain_equiv`` points per pool point (1 in Sochi/Rostov, §7.1);
  ``sum_reached`` uses the same factor for the difference to the mean (2 in Leningrad).
* ``pairwise_net`` lists every pair once, in seat order (i before j), as
  ``net(i, j)``: positive means j pays i.
* Rounding ties (equal remainders) go to the earlier seat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from .errors import ScoringError
from .options import Convention
from .records import Records


@dataclass(frozen=True)
class PairwiseNet:
    """What ``debtor`` owes ``creditor`` (negative: the creditor owes the debtor)."""

    creditor: str
    debtor: str
    amount: Fraction


@dataclass(frozen=True)
class Settlement:
    """Result of :func:`settle`: adjusted mountains (§7.1), pairwise nets (§7.2) and
    final balances in whists (§7.3), all exact; the balances add up to zero."""

    adjusted_mountain: dict[str, Fraction]
    pairwise_net: tuple[PairwiseNet, ...]
    balance: dict[str, Fraction]


def adjusted_mountains(convention: Convention, records: Records, pool_size: Fraction | None) -> dict[str, Fraction]:
    """§7.1: mountains with the pool differences moved onto them."""
    players = records.players
    equiv = convention.pool_point_mountain_equiv
    if convention.pool_end == "sum_reached":
        mean_pool = sum(records.pool.values(), Fraction(0)) / len(players)
        return {p: records.mountain[p] + equiv * (mean_pool - records.pool[p]) for p in players}
    if pool_size is None:
        raise ScoringError("pool_size: needed to settle a game that ends when every pool is closed")
    return {p: records.mountain[p] + equiv * (pool_size - records.pool[p]) for p in players}


def settle(convention: Convention, records: Records, pool_size: Fraction | None) -> Settlement:
    """Settle final records: adjusted mountains, pairwise nets and balances (§7)."""
    players = records.players
    n = len(players)
    divisor = n if convention.mountain_divisor == "N" else n - 1
    per_point = convention.mountain_whist_value / divisor
    adjusted = adjusted_mountains(convention, records, pool_size)
    whists = records.whists

    def net(i: str, j: str) -> Fraction:
        return (whists.get((i, j), Fraction(0)) - whists.get((j, i), Fraction(0))
                + per_point * (adjusted[j] - adjusted[i]))

    pairs = tuple(PairwiseNet(players[a], players[b], net(players[a], players[b]))
                  for a in range(n) for b in range(a + 1, n))
    balance = {i: sum((net(i, j) for j in players if j != i), Fraction(0)) for i in players}
    return Settlement(adjusted, pairs, balance)


def round_balances(balances: Mapping[str, Fraction], unit: Fraction = Fraction(1)) -> dict[str, Fraction]:
    """Round exact balances (adding up to zero) to multiples of ``unit`` by largest
    remainder, so that the rounded amounts add up to zero too; each moves by less than
    one unit."""
    unit = Fraction(unit)
    if unit <= 0:
        raise ScoringError(f"rounding unit must be positive, got {unit}")
    if sum(balances.values(), Fraction(0)) != 0:
        raise ScoringError("balances to round must add up to zero")
    scaled = {p: Fraction(v) / unit for p, v in balances.items()}
    floors = {p: math.floor(v) for p, v in scaled.items()}
    missing = -sum(floors.values())
    order = sorted(scaled, key=lambda p: (-(scaled[p] - floors[p]), list(scaled).index(p)))
    for player in order[:missing]:
        floors[player] += 1
    return {p: floors[p] * unit for p in balances}
