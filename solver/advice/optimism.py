"""Double-dummy optimism, measured: the advice's double-dummy figures next
to those of a declarer who plays single dummy (:mod:`solver.advice.single_dummy`),
on the same layouts.

The layouts are the first ones of the run's sampling sequence (its seed)
that the advice keeps (auction model, cards played), up to
``SingleDummy.layouts`` of them; on each the declarer discards as the
double-dummy figure has him do (his best discard) and the deal is played
twice from the first card: double dummy, and with the declarer single
dummy. The figure reports both trick means, both failure rates and, for each
option valued without the defenders' split, both expected values, with the
standard error of the paired difference (single dummy less double dummy).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Sequence

from ..analysis import best_discard, deal_after_discard
from ..engine import Solver
from ..notation import Contract, ContractKind, Deal, Hand
from ..position import Position
from .errors import AdviceError
from .layouts import LayoutSpace
from .parallel import REJECTION_LIMIT
from .play import AuctionFilter, made
from .single_dummy import SingleDummy, single_dummy_tricks

__all__ = ["Optimism", "PairedFigure", "measure_optimism"]


@dataclass(frozen=True)
class PairedFigure:
    """One quantity over the same layouts: double dummy, single dummy, and
    the paired difference's standard error."""

    double_dummy: float
    single_dummy: float
    std_error: float
    """Of the mean of (single dummy − double dummy)."""


@dataclass(frozen=True)
class Optimism:
    """The double-dummy and single-dummy figures of one contract."""

    contract: Contract
    layouts: int
    worlds: int
    tricks: PairedFigure
    """The declarer's tricks (whole deal)."""
    makes: PairedFigure
    """The probability he makes the contract."""
    values: dict[str, PairedFigure]
    """Expected values by name (whist options, or the bidder's value), in whists."""


def _paired(dd: Sequence[float], sd: Sequence[float]) -> PairedFigure:
    n = len(dd)
    diffs = [b - a for a, b in zip(dd, sd)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
    return PairedFigure(sum(dd) / n, sum(sd) / n, math.sqrt(var / n) if n > 1 else math.inf)


def measure_optimism(contract: Contract, declarer: int, space: LayoutSpace, seat_hands: Callable[[tuple[Hand, ...]],
                     tuple[tuple[Hand, Hand, Hand], Hand] | None], settings: SingleDummy, seed: int, *,
                     auction: AuctionFilter | None = None, whisters: tuple[int, ...] = (), leader: int = 0,
                     prior: int = 0, values: dict[str, Callable[[int], float]] | None = None,
                     discard: Hand | None = None) -> Optimism:
    """The figure for ``contract`` over up to ``settings.layouts`` layouts of
    ``space`` (``seat_hands`` turns a layout into the three hands, the
    declarer's before the talon, and the talon; None rejects it). With
    ``discard`` the declarer discards those cards (the talon given), else his
    double-dummy best on each layout."""
    if contract.kind is not ContractKind.TRICKS:
        raise AdviceError("the single-dummy figure is for trick contracts, not a misère")
    solver = Solver()
    dd_tricks: list[int] = []
    sd_tricks: list[int] = []
    for index in range(settings.layouts * REJECTION_LIMIT + 100):
        if len(dd_tricks) == settings.layouts:
            break
        seated = seat_hands(space.sample(seed, index))
        if seated is None:
            continue
        hands, talon = seated
        if auction is not None and (not auction.trumps_ok(contract, hands[declarer] | talon)
                                    or not all(auction.whister_ok(hands[s]) for s in whisters)):
            continue
        deal = Deal(hands, talon)
        if discard is not None:
            start = Position.start(deal_after_discard(deal, declarer, discard), contract, declarer, leader)
            value = solver.solve(start)
        else:
            found = best_discard(deal, declarer, contract, leader=leader, all_discards=False, solver=solver)
            start = Position.start(deal_after_discard(deal, declarer, found.discards[0]), contract, declarer,
                                   leader)
            value = found.value
        if auction is not None and not auction.value_ok(contract, value, prior):
            continue
        dd_tricks.append(prior + value)
        sd_tricks.append(prior + single_dummy_tricks(start, solver, settings.worlds,
                                                     random.Random(f"{seed}/single-dummy/{index}")))
    if not dd_tricks:
        raise AdviceError("no layout fits what is known for the single-dummy figure")
    figures = {name: _paired([value(t) for t in dd_tricks], [value(t) for t in sd_tricks])
               for name, value in (values or {}).items()}
    return Optimism(contract, len(dd_tricks), settings.worlds, _paired(dd_tricks, sd_tricks),
                    _paired([float(made(contract, t)) for t in dd_tricks], [float(made(contract, t)) for t in sd_tricks]),
                    figures)
