"""A lean path to the C solver for long runs of similar positions.

An enumeration solves the same contract from the same start 184,756 times
with only the defenders' hands changing. Building a :class:`Position` and its
C struct each time costs more than many of the searches, and that Python work
holds the GIL, which would keep the worker threads from running in parallel.
:class:`StartSolver` builds the C struct once and, per split, only writes the
two defenders' hands before calling ``pdd_solve`` (which releases the GIL).
It calls through :meth:`Solver.call`, under the Solver's one-thread rule, as
``solver.analysis.native`` does.
"""
from __future__ import annotations

from .._core import ffi, lib
from ..engine import Solver, to_c_position
from ..position import Position

__all__ = ["StartSolver"]


class StartSolver:
    """Solves ``template`` with other hands for two seats."""

    def __init__(self, solver: Solver, template: Position, seats: tuple[int, int]) -> None:
        self.solver = solver
        self.position = to_c_position(template)
        self.seats = seats
        self.value = ffi.new("int *")

    def solve(self, first: int, second: int) -> int:
        """The value with hand masks ``first`` and ``second`` for the two seats."""
        self.position.hands[self.seats[0]] = first
        self.position.hands[self.seats[1]] = second
        self.solver.call(lib.pdd_solve, self.position, self.value)
        return self.value[0]
