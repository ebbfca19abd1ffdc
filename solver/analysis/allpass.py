"""All-pass (raspasy) analyses.

* :func:`allpass_values`: for each player, the fewest tricks he can be sure of
  when both others play to give him as many as possible (exact, paranoid).
* :func:`allpass_line`: the max^n line: each player in turn plays the card that
  minimises his own final tricks assuming the others do the same, ties to the
  lowest card index (``csrc/maxn.c``). One outcome and its line; a convention
  for showing "natural" play, not a guarantee to anyone.

The talon, when the deal has one and ``talon_leads`` is on, names the suits of
the first two tricks (seat 0 plays first to them); with ``four_players`` the
sitting dealer owns a talon card that stays highest. Both analyses also start
from any :class:`~solver.position.Position` of an all-pass.

Choice where the rules are silent: the line's outcome counts tricks per seat;
tricks no seat takes (a talon trick nobody followed, or the dealer's) are
reported apart as ``unclaimed``, so the three seats' tricks add up to the
tricks played less those.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..api import given_solver
from ..engine import Solver, maxn_search
from ..notation import Card, Contract, ContractKind, Deal
from ..position import Position
from .discard import AnalysisError
from .lines import LineTrick, group_tricks

__all__ = ["AllPassValues", "AllPassLine", "allpass_values", "allpass_line", "allpass_start"]

ALLPASS = Contract(ContractKind.ALLPASS)


def allpass_start(deal: Deal | str, *, talon_leads: bool = True, four_players: bool = False) -> Position:
    """The all-pass position before the first card (tricks counted for seat 0)."""
    return Position.start(deal, ALLPASS, 0, 0, talon_leads=talon_leads, four_players=four_players)


def _position(source: Deal | str | Position, talon_leads: bool, four_players: bool) -> Position:
    if isinstance(source, Position):
        if source.contract.kind is not ContractKind.ALLPASS:
            raise AnalysisError(f"an all-pass analysis needs an all-pass position, got {source.contract}")
        return source
    return allpass_start(source, talon_leads=talon_leads, four_players=four_players)


@dataclass(frozen=True)
class AllPassValues:
    """Per player, the fewest tricks (in all, those taken included) he can be
    sure of against the other two. The three need not add up."""

    tricks: tuple[int, int, int]


def allpass_values(
    source: Deal | str | Position,
    *,
    talon_leads: bool = True,
    four_players: bool = False,
    solver: Solver | None = None,
) -> AllPassValues:
    position = _position(source, talon_leads, four_players)
    solver = given_solver(solver)
    values = tuple(solver.solve(position.for_player(p)) for p in range(3))
    return AllPassValues((values[0], values[1], values[2]))


@dataclass(frozen=True)
class AllPassLine:
    """The max^n outcome and its line."""

    tricks: tuple[int, int, int]
    """Each seat's tricks at the end of the line (those already taken included)."""
    unclaimed: int
    """Tricks of the line no seat takes (dealer's or nobody's talon tricks)."""
    cards: tuple[Card, ...]
    """The line's cards in play order."""
    tricks_played: tuple[LineTrick, ...]
    """The line trick by trick."""


def allpass_line(
    source: Deal | str | Position,
    *,
    talon_leads: bool = True,
    four_players: bool = False,
    solver: Solver | None = None,
) -> AllPassLine:
    position = _position(source, talon_leads, four_players)
    solver = given_solver(solver)
    found = maxn_search(solver, position)
    tricks_played, end = group_tricks(position, found.line)
    totals = tuple(t + taken for t, taken in zip(found.tricks, position.tricks_taken))
    if totals != end.tricks_taken:   # the walk must retrace the searched outcome
        raise AssertionError(f"max^n line {end.tricks_taken} disagrees with its value {totals}")
    return AllPassLine((totals[0], totals[1], totals[2]), found.unclaimed, found.line, tricks_played)

