"""Double-dummy optimism, measured: the advice's double-dummy figures next
to a conservative figure on the same layouts, one where the declarer does not
see the defenders' cards.

Two figures (:attr:`Optimism.figure`):

 - ``blind_discard`` (shown by default, :func:`measure_blind_discard`): his
   discard chosen on what he sees, the same for every layout he cannot tell
   apart (:mod:`solver.advice.blind_discard`); the play double dummy. Cheap:
   a few best-discard searches per layout, on the first layouts of the run.
 - ``single_dummy`` (asked for, :func:`measure_optimism`): his discard as in
   the double-dummy figure and his play single dummy, by Monte Carlo worlds at
   each of his turns (:mod:`solver.advice.single_dummy`). Stronger (it
   catches the finesse and the throw-in he must guess), and some hundred
   times dearer per layout.

Each reports both trick means, both make rates and, for each option valued
without the defenders' split, both expected values, with the standard error
of the paired difference (conservative less double dummy). On every layout
the conservative figure is never better for the declarer: at most his
double-dummy tricks (misère, blind discard only: at least).

The single-dummy layouts are the first ones of the run's sampling sequence (its seed)
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
import time
from dataclasses import dataclass, replace
from typing import Callable, Hashable, Mapping, Sequence

from ..analysis import best_discard, deal_after_discard
from ..engine import Solver
from ..notation import Contract, ContractKind, Deal, Hand
from ..position import Position
from .errors import AdviceError
from .layouts import LayoutSpace
from .parallel import REJECTION_LIMIT, RunOptions, run_layouts
from .stats import Estimate, Number
from .play import AuctionFilter, made
from .single_dummy import SingleDummy, single_dummy_tricks
from .blind_discard import BLIND_DISCARD_TEXT, BlindDiscard, blind_tricks

__all__ = ["FIGURE_TEXT", "Optimism", "PairedFigure", "SINGLE_DUMMY_STOPPED", "layout_key", "measure_blind_discard",
           "measure_optimism"]


@dataclass(frozen=True)
class PairedFigure:
    """One quantity over the same layouts: double dummy, single dummy, and
    the paired difference's standard error."""

    double_dummy: float
    conservative: float
    """The conservative figure's (blind discard, or single dummy)."""
    std_error: float
    """Of the mean of (conservative − double dummy)."""

    @property
    def single_dummy(self) -> float:
        """The conservative value (its name when the figure was the single-dummy one only)."""
        return self.conservative


@dataclass(frozen=True)
class Optimism:
    """The double-dummy and conservative figures of one contract."""

    contract: Contract
    layouts: int
    worlds: int
    """Worlds the declarer weighs each decision on (blind discard: his
    discard; single dummy: each of his cards)."""
    tricks: PairedFigure
    """The declarer's tricks (whole deal)."""
    makes: PairedFigure
    """The probability he makes the contract."""
    values: dict[str, PairedFigure]
    """Expected values by name (whist options, or the bidder's value), in whists."""
    figure: str = "single_dummy"
    """Which conservative figure: ``blind_discard`` or ``single_dummy``."""

    @property
    def description(self) -> str:
        """What the figure is, in words."""
        return FIGURE_TEXT[self.figure]


FIGURE_TEXT = {
    "blind_discard": BLIND_DISCARD_TEXT,
    "single_dummy": ("single dummy: the declarer's discard as in the double-dummy figure, his play chosen at "
                     "each turn on worlds of the defenders' cards he cannot see (Monte Carlo), against a "
                     "double-dummy defence"),
}


SINGLE_DUMMY_STOPPED = ("single-dummy figure not measured: the run was stopped (its time budget, or cancelled) "
                        "before its first layout")
"""The note when :func:`measure_optimism` answers None."""


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
                     discard: Hand | None = None, options: RunOptions | None = None,
                     started: float | None = None) -> Optimism | None:
    """The figure for ``contract`` over up to ``settings.layouts`` layouts of
    ``space`` (``seat_hands`` turns a layout into the three hands, the
    declarer's before the talon, and the talon; None rejects it). With
    ``discard`` the declarer discards those cards (the talon given), else his
    double-dummy best on each layout. ``options``: the advice's, whose
    ``cancel`` and what is left of its ``seconds`` since ``started`` (as for
    :func:`measure_blind_discard`) stop the figure between two layouts: it is
    then over the layouts done, None when there are none."""
    if contract.kind is not ContractKind.TRICKS:
        raise AdviceError("the single-dummy figure is for trick contracts, not a misère")
    left = None if options is None else _seconds_left(options, started)
    deadline = None if left is None else time.monotonic() + left
    cancel = None if options is None else options.cancel

    def stopped() -> bool:
        return (deadline is not None and time.monotonic() >= deadline) or (cancel is not None and cancel.is_set())

    solver = Solver() if options is None else Solver(options.table_mib)
    dd_tricks: list[int] = []
    sd_tricks: list[int] = []
    for index in range(settings.layouts * REJECTION_LIMIT + 100):
        if len(dd_tricks) == settings.layouts or stopped():
            break
        seated = seat_hands(space.sample(seed, index))
        if seated is None:
            continue
        hands, talon = seated
        if auction is not None and not auction.hands_ok(contract, hands[declarer] | talon, hands, whisters):
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
        if stopped():
            return None
        raise AdviceError("no layout fits what is known for the single-dummy figure")
    figures = {name: _paired([value(t) for t in dd_tricks], [value(t) for t in sd_tricks])
               for name, value in (values or {}).items()}
    return Optimism(contract, len(dd_tricks), settings.worlds, _paired(dd_tricks, sd_tricks),
                    _paired([float(made(contract, t)) for t in dd_tricks], [float(made(contract, t)) for t in sd_tricks]),
                    figures)


def measure_blind_discard(contract: Contract, declarer: int, space: LayoutSpace,
                          seat_hands: Callable[[tuple[Hand, ...]], tuple[tuple[Hand, Hand, Hand], Hand] | None],
                          settings: BlindDiscard, options: RunOptions, *, auction: AuctionFilter | None = None,
                          whisters: tuple[int, ...] = (), leader: int = 0, prior: int = 0,
                          values: dict[str, Callable[[int], float]] | None = None,
                          known: Mapping[tuple[int, ...], int | None] | None = None,
                          solvers: list[Solver] | None = None, started: float | None = None) -> Optimism | None:
    """The blind-discard figure for ``contract`` over the first
    ``settings.layouts`` layouts of ``space`` that the advice keeps (the same
    seed, at most the run's layout budget; ``seat_hands`` as for
    :func:`measure_optimism`), on the run's threads. None when no layout is
    kept (or the run is stopped first, or no time is left). ``known``: the
    advice's own answers by :func:`layout_key` - the declarer's double-dummy
    tricks (whole deal), or None for a layout it rejected - which are then
    not searched again (about half the figure's cost on a whist with the
    auction model). ``solvers``: the advice's own, reused (see
    :func:`~solver.advice.parallel.run_layouts`).

    The figure is a sample whatever the advice's mode: ``exact`` asks for
    the advice's every layout, not the figure's (``auto`` on the figure's
    own budget: its layouts enumerated when there are no more of them,
    else sampled; ``sample`` stays ``sample``). It shares the advice's time
    budget rather than getting another: ``started`` is the
    :func:`time.monotonic` time the advice's ``options.seconds`` count from
    (None: now), and the figure gets what is left of them (no time budget
    when the advice has none)."""
    if contract.kind is ContractKind.ALLPASS or not settings.layouts:
        return None
    seed = options.seed
    seconds = _seconds_left(options, started)
    if seconds is not None and seconds <= 0:
        return None

    def evaluate(parts: tuple[Hand, ...], solver: Solver) -> dict[Hashable, Number] | None:
        seated = seat_hands(parts)
        if seated is None:
            return None
        hands, talon = seated
        deal = Deal(hands, talon)
        key = layout_key(parts)
        if known is not None and key in known:
            tricks = known[key]
            if tricks is None:
                return None
            value, discards = tricks - prior, ()
        else:
            if auction is not None and not auction.hands_ok(contract, hands[declarer] | talon, hands, whisters):
                return None
            found = best_discard(deal, declarer, contract, leader=leader, all_discards=False, solver=solver)
            if auction is not None and not auction.value_ok(contract, found.value, prior):
                return None
            value, discards = found.value, found.discards
        rng = random.Random(f"{seed}/blind-discard/" + "/".join(str(mask) for mask in key))
        blind = blind_tricks(deal, declarer, contract, leader, settings, rng, solver, found_value=value,
                             found_discards=discards)
        return {(prior + value, prior + blind): 1}

    budget = min(settings.layouts, options.layouts)
    mode = "sample" if options.mode == "sample" else "auto"
    run = run_layouts(space, evaluate, replace(options, layouts=budget, mode=mode, seconds=seconds, progress=None,
                                               executor=None), solvers=solvers)
    if run.stats.layouts == 0:
        return None

    def paired(f: Callable[[int], float]) -> PairedFigure:
        double = run.estimate(lambda key: f(key[0]))  # type: ignore[index]
        blind = run.estimate(lambda key: f(key[1]))  # type: ignore[index]
        gap = run.estimate(lambda key: f(key[1]) - f(key[0]))  # type: ignore[index]
        return PairedFigure(double.as_float(), blind.as_float(), gap.std_error)

    return Optimism(contract, run.stats.layouts, settings.worlds, paired(float),
                    paired(lambda tricks: float(made(contract, tricks))),
                    {name: paired(value) for name, value in (values or {}).items()}, figure="blind_discard")


def _seconds_left(options: RunOptions, started: float | None) -> float | None:
    """What is left of ``options.seconds`` since ``started`` (a
    :func:`time.monotonic` time; None: now): None without a time budget, at
    most 0 once it is spent."""
    if options.seconds is None or started is None:
        return options.seconds
    return options.seconds - (time.monotonic() - started)


def layout_key(parts: tuple[Hand, ...]) -> tuple[int, ...]:
    """A layout of a :class:`LayoutSpace` by its parts' card masks."""
    return tuple(part.mask for part in parts)
