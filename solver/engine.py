"""The binding to the C core: a :class:`Solver` owns one C solver context.

This is the only module that imports ``solver._core``: it builds the C
position (:func:`_fields`, the one place a contract becomes a C objective)
and makes every call into the core, the analyses' entry points
(:func:`best_discard_search`, :func:`maxn_search`) and the fast paths
included: many positions in one C call (:meth:`Solver.solve_many`), inner
loops over the defenders' hands (:class:`StartSolver`) and the best discard
and its line on layouts given as masks (:class:`StartDiscards`). A Solver packs
each position into one struct it owns (no cffi allocation per call).

The cffi calls release the GIL, so solvers on different threads search in
parallel. One Solver must be used by one thread at a time; using it from two
at once raises :class:`SolverBusyError` instead of corrupting its table.
"""
from __future__ import annotations

import math
import struct
import sys
from array import array
from itertools import chain
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from ._core import ffi, lib
from .notation import Card, Contract, ContractKind, Hand
from .position import Position, PositionError, PositionTypeError

__all__ = ["Solver", "SolverBusyError", "SearchStopped", "SolveStats", "OrderWeightsError",
           "OPT_ALL", "OPT_NONE", "ORDER_WEIGHTS", "DiscardJob", "DiscardSearch", "MaxnOutcome", "StartSolver",
           "StartDiscards", "HandPairs", "best_discard_search", "best_discards_many", "canonical_suits", "discard_class_ids",
           "maxn_search"]

OPT_ALL = lib.PDD_OPT_ALL
"""Every search enhancement on (the default)."""
OPT_NONE = 0
"""Plain alpha-beta: the baseline for benchmarks and cross-checks."""


ORDER_WEIGHTS = lib.PDD_ORDER_WEIGHTS
"""How many move-ordering weights a solver has (see csrc/order.c)."""

DEFAULT_PART_WAYS = lib.PDD_DEFAULT_PART_WAYS
"""Partition-table entries a shape by default (csrc/prefdd.h)."""


class OrderWeightsError(ValueError):
    """Move-ordering weights of the wrong count or out of range."""


class SolverArgumentError(ValueError):
    """A Solver argument out of its range (option flags, table size, table policy)."""


class SolverBusyError(RuntimeError):
    """A Solver was used from two threads at once."""


class SearchStopped(RuntimeError):
    """The search was stopped by :meth:`Solver.request_stop`."""


@dataclass(frozen=True)
class SolveStats:
    nodes: int
    tt_probes: int
    tt_hits: int
    probes: int


def _check(code: int) -> None:
    if code == lib.PDD_OK:
        return
    if code == lib.PDD_ERR_STOPPED:
        raise SearchStopped("search stopped")
    if code == lib.PDD_ERR_NO_MEMORY:
        raise MemoryError("solver table")
    if code == lib.PDD_ERR_WEIGHTS:
        raise OrderWeightsError(ffi.string(lib.pdd_error_text(code)).decode())
    if code == lib.PDD_ERR_POLICY:
        raise SolverArgumentError(ffi.string(lib.pdd_error_text(code)).decode())
    raise PositionError(ffi.string(lib.pdd_error_text(code)).decode())


def _answers(code: int, answers: list[int], what: str) -> list[int]:
    """A batch call's values; its error, or the first refused item's
    (named ``what[i]``), raised."""
    _check(code)
    for i, value in enumerate(answers):
        if value < 0:
            try:
                _check(value)
            except PositionError as error:
                raise type(error)(f"{what}[{i}]: {error}") from None
    return answers


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise PositionError(message)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_position(position: object, what: str = "position") -> Position:
    """``position`` as a :class:`Position` whose every field has the type and
    range its C field takes, or a :class:`PositionError` naming the field.
    (Positions are normally built by :meth:`Position.start` and
    :meth:`Position.play`, which check the rules; this guards the fields of a
    Position built or replaced by hand. The C core checks the rules again.)

    A Position is frozen, so its fields are checked once, on its first way
    into the core (:func:`_check_fields`); its later calls (the value, the
    card values and the line of one request) trust it."""
    if not isinstance(position, Position):
        raise PositionTypeError(f"{what} must be a Position, got {type(position).__name__} {position!r:.80}")
    if not position.__dict__.get(_CHECKED):
        _check_fields(position, what)
        object.__setattr__(position, _CHECKED, True)   # not a field: equality and hashing ignore it
    return position


_CHECKED = "_fields_checked"


def _check_fields(p: Position, what: str) -> None:
    hands, trick, taken = p.hands, p.trick, p.tricks_taken
    # One pass for the usual, valid case (it runs once per Position);
    # the field at fault is named only when something is wrong.
    if (type(hands) is tuple and len(hands) == 3 and type(hands[0]) is Hand and type(hands[1]) is Hand
            and type(hands[2]) is Hand and type(p.contract) is Contract and type(p.declarer) is int
            and 0 <= p.declarer <= 2 and type(p.leader) is int and 0 <= p.leader <= 2
            and type(trick) is tuple and len(trick) <= 2 and all(type(c) is Card for c in trick)
            and type(p.talon_leads) is tuple and all(type(c) is Card for c in p.talon_leads)
            and type(taken) is tuple and len(taken) == 3 and all(type(t) is int and 0 <= t <= 10 for t in taken)
            and type(p.four_players) is bool):
        return
    _name_the_bad_field(p, what)


def _name_the_bad_field(p: Position, what: str) -> None:
    _require(isinstance(p.hands, tuple) and len(p.hands) == 3 and all(isinstance(h, Hand) for h in p.hands),
             f"{what}.hands must be a tuple of 3 Hands, got {p.hands!r:.80}")
    _require(isinstance(p.contract, Contract), f"{what}.contract must be a Contract, got {p.contract!r:.80}")
    for name in ("declarer", "leader"):
        value = getattr(p, name)
        _require(_whole(value) and 0 <= value <= 2, f"{what}.{name} must be a seat 0-2, got {value!r:.80}")
    _require(isinstance(p.trick, tuple) and len(p.trick) <= 2 and all(isinstance(c, Card) for c in p.trick),
             f"{what}.trick must be a tuple of at most 2 Cards, got {p.trick!r:.80}")
    _require(isinstance(p.talon_leads, tuple) and all(isinstance(c, Card) for c in p.talon_leads),
             f"{what}.talon_leads must be a tuple of Cards, got {p.talon_leads!r:.80}")
    _require(isinstance(p.tricks_taken, tuple) and len(p.tricks_taken) == 3
             and all(_whole(t) and 0 <= t <= 10 for t in p.tricks_taken),
             f"{what}.tricks_taken must be 3 whole numbers 0-10, got {p.tricks_taken!r:.80}")
    _require(isinstance(p.four_players, bool), f"{what}.four_players must be True or False, got {p.four_players!r:.80}")


_PACKED = struct.Struct("=3I13i")
"""A ``pdd_position`` as bytes: the three hand masks (uint32, bit ``index``
per card), then trick[3], trick_count, leader, trump, declarer, objective,
tricks_taken, talon[2], talon_count, four_players (int32), in the header's
order. Packing all fields in one call costs less than setting each field of
a cffi struct."""
if _PACKED.size != ffi.sizeof("pdd_position") or ffi.offsetof("pdd_position", "four_players") != 60:
    raise ImportError("solver._core: pdd_position does not have the layout engine._PACKED packs")


_TRICKS = ContractKind.TRICKS
_NO_CARDS = (0, 0, 0)


def _fields(masks: Sequence[int], contract: Contract, declarer: int, leader: int,
            trick: Sequence[Card] = (), tricks_taken: int = 0, talon: Sequence[Card] = (),
            four_players: bool = False) -> tuple[int, ...]:
    """The one builder of the C position (the fields :data:`_PACKED` packs).
    A trick contract maximises the declarer's tricks; misère and all-pass
    minimise the counted player's (``PDD_MISERE``)."""
    cards = [card.index for card in trick] + [0, 0, 0] if trick else _NO_CARDS
    leads = [card.index for card in talon[:2]] + [0, 0] if talon else _NO_CARDS
    objective = lib.PDD_TRICKS if contract.kind is _TRICKS else lib.PDD_MISERE
    return (masks[0], masks[1], masks[2], cards[0], cards[1], cards[2], len(trick), leader, contract.trump,
            declarer, objective, tricks_taken, leads[0], leads[1], min(len(talon), 2), 1 if four_players else 0)


def position_fields(position: Position, what: str = "position") -> tuple[int, ...]:
    """The C fields of a position; every field is checked first
    (:func:`check_position`)."""
    p = check_position(position, what)
    hands = p.hands
    return _fields((hands[0].mask, hands[1].mask, hands[2].mask), p.contract, p.declarer, p.leader, p.trick,
                   p.tricks_taken[p.declarer], p.talon_leads, p.four_players)


def _struct(fields: tuple[int, ...]):
    """A new C struct (a cffi object that owns its memory) holding ``fields``."""
    c = ffi.new("pdd_position *")
    _PACKED.pack_into(ffi.buffer(c), 0, *fields)
    return c


def to_c_position(position: Position):
    """The C struct for a position; every field is checked first
    (:func:`check_position`)."""
    return _struct(position_fields(position))


def _clamp_guess(value_guess: int) -> int:
    """A whole-number value guess as the C line calls take it: within -1..10."""
    return max(-1, min(value_guess, 10))


def _value_guess(value_guess: int | None) -> int:
    """A value guess for the C line calls: -1 for none, else within -1..10."""
    if value_guess is not None and (isinstance(value_guess, bool) or not isinstance(value_guess, int)):
        raise PositionError(f"value_guess must be a whole number or None, got {value_guess!r}")
    return -1 if value_guess is None else _clamp_guess(value_guess)


def _tie_order(tie_suits: Sequence[int] | None) -> list[int]:
    """A checked tie order (a permutation of 0-3; None: the suits' own)."""
    if tie_suits is None:
        return [0, 1, 2, 3]
    order = list(tie_suits)
    _require(sorted(order) == [0, 1, 2, 3] and all(_whole(s) for s in order),
             f"tie_suits must be a permutation of 0-3, got {tie_suits!r:.60}")
    return order


class Solver:
    """An exact double-dummy solver with its own transposition table.

    ``table_mib`` sets the table's memory (default 16 MiB). Reuse one Solver
    for many positions: its table stays valid across calls.
    """

    def __init__(self, table_mib: int = 16) -> None:
        if isinstance(table_mib, bool) or not isinstance(table_mib, int) or not 1 <= table_mib <= 4096:
            raise ValueError(f"table_mib must be a whole number from 1 to 4096, got {table_mib!r}")
        handle = lib.pdd_new(table_mib << 20)
        if handle == ffi.NULL:
            raise MemoryError(f"cannot allocate a {table_mib} MiB solver table")
        self._handle = ffi.gc(handle, lib.pdd_free)
        self._lock = threading.Lock()
        # Reused by every call of this solver (under its lock): one position
        # struct, packed in place, and the value it answers.
        self._position = ffi.new("pdd_position *")
        self._position_bytes = ffi.buffer(self._position)
        self._value = ffi.new("int *")
        self._many: tuple[object, object, object, int] = (ffi.NULL, ffi.NULL, None, 0)
        self._starts: dict[tuple[Contract, int, int], StartDiscards] = {}

    def start_discards(self, contract: Contract, declarer: int, leader: int) -> StartDiscards:
        """This solver's :class:`StartDiscards` for the contract, declarer
        and leader (made at the first call, kept with the solver)."""
        key = (contract, declarer, leader)
        found = self._starts.get(key)
        if found is None:
            found = self._starts[key] = StartDiscards(contract, declarer, leader)
        return found

    def _acquire(self) -> None:
        if not self._lock.acquire(blocking=False):
            raise SolverBusyError("this Solver is in use by another thread; use one Solver per thread")

    def _call(self, function, *args) -> None:
        """Call a C function of the core (``solver._core.lib``) with this
        solver's context as its first argument, under the one-thread rule;
        an error code raises as in :meth:`solve`. Every call into the core
        made in this module goes through here or :meth:`_call_at`."""
        self._acquire()
        try:
            _check(function(self._handle, *args))
        finally:
            self._lock.release()

    def _call_at(self, fields: tuple[int, ...], function, *args) -> None:
        """:meth:`_call` with the solver's own position struct, packed from
        ``fields`` (see :func:`position_fields`), as the second argument."""
        self._acquire()
        try:
            _PACKED.pack_into(self._position_bytes, 0, *fields)
            _check(function(self._handle, self._position, *args))
        finally:
            self._lock.release()

    def solve(self, position: Position) -> int:
        """The declarer's total tricks with best play (misère: the fewest he
        can be held to; all-pass: the fewest the counted player can be sure of)."""
        fields = position_fields(position)
        self._acquire()
        try:
            _PACKED.pack_into(self._position_bytes, 0, *fields)
            code = lib.pdd_solve(self._handle, self._position, self._value)
            value = self._value[0]
        finally:
            self._lock.release()
        _check(code)
        return value

    def solve_many(self, positions: Sequence[Position]) -> list[int]:
        """:meth:`solve` of each position, in one C call (``pdd_solve_many``:
        the same values and the same table as one call each, at a fraction of
        the cost per position). A refused position raises the PositionError
        it would in :meth:`solve`, naming its index; a stop raises
        SearchStopped."""
        return self._solve_packed([position_fields(p, f"positions[{i}]") for i, p in enumerate(positions)])

    def _solve_packed(self, packed: Sequence[tuple[int, ...]]) -> list[int]:
        count = len(packed)
        self._acquire()
        try:
            structs, values, buffer, capacity = self._many
            if capacity < count:
                capacity = max(count, 2 * capacity, 64)
                structs = ffi.new("pdd_position[]", capacity)
                values = ffi.new("int32_t[]", capacity)
                buffer = ffi.buffer(structs)
                self._many = (structs, values, buffer, capacity)
            size = _PACKED.size
            for i, fields in enumerate(packed):
                _PACKED.pack_into(buffer, i * size, *fields)
            code = lib.pdd_solve_many(self._handle, structs, count, values)
            answers = ffi.unpack(values, count) if count else []
        finally:
            self._lock.release()
        return _answers(code, answers, "positions")

    def _solve_hands(self, template, seats: tuple[int, int], pairs: Sequence[tuple[int, int]]) -> list[int]:
        """``pdd_solve_hands``: the C struct ``template`` with each pair of
        hand masks for the two ``seats``."""
        count = len(pairs)
        if isinstance(pairs, HandPairs):
            hands = pairs.flat   # already packed: nothing to convert
        else:
            try:
                hands = array("I", chain.from_iterable(pairs))
            except (OverflowError, TypeError):
                raise PositionError("hand masks must be whole numbers 0..2**32-1") from None
        if len(hands) != 2 * count:
            raise PositionError("give each split as a pair of hand masks")
        values = ffi.new("int32_t[]", max(count, 1))
        self._acquire()
        try:
            code = lib.pdd_solve_hands(self._handle, template, seats[0], seats[1],
                                       ffi.from_buffer("uint32_t[]", hands), count, values)
            answers = ffi.unpack(values, count) if count else []
        finally:
            self._lock.release()
        return _answers(code, answers, "pairs")

    def probe(self, position: Position, target: int) -> bool:
        """One null-window search: is the value at least ``target``? (Trick
        contract: can the declarer make it; misère: is it caught.)"""
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 10:
            raise PositionError(f"target must be 0..10, got {target!r}")
        result = ffi.new("int *")
        self._call_at(position_fields(position), lib.pdd_probe, target, result)
        return bool(result[0])

    def card_values(self, position: Position) -> dict[Card, int]:
        """The value after each legal card of the seat on move."""
        values = ffi.new("int[32]")
        legal = ffi.new("uint32_t *")
        self._call_at(position_fields(position), lib.pdd_card_values, values, legal)
        return {Card.from_index(i): values[i] for i in range(32) if legal[0] >> i & 1}

    def best_line(self, position: Position, value_guess: int | None = None,
                  tie_suits: Sequence[int] | None = None) -> list[Card]:
        """An optimal play sequence to the end (ties to the lowest card index).
        A guess of the position's value (the declarer's total, e.g. from a best
        discard) saves searching for it; the line is the same whatever the
        guess. ``tie_suits`` (a permutation: suit s as if named
        ``tie_suits[s]``) breaks the ties as in the renamed position, while
        the search keeps the position's own names (and the table filled
        under them)."""
        guess = _value_guess(value_guess)
        cards = ffi.new("int[30]")
        count = ffi.new("int *")
        fields = position_fields(position)
        if tie_suits is None:
            self._call_at(fields, lib.pdd_best_line_from, guess, cards, count)
        else:
            order = _tie_order(tie_suits)
            self._call_at(fields, lib.pdd_best_line_ordered, guess, ffi.new("int32_t[4]", order), cards, count)
        return [Card.from_index(index) for index in ffi.unpack(cards, count[0])]

    def line_tricks(self, position: Position, value_guess: int | None = None,
                    tie_suits: Sequence[int] | None = None) -> tuple[int, int, int]:
        """Each seat's tricks from ``position`` on (the current trick
        included) along :meth:`best_line` with the same arguments, counted in
        C (``pdd_line_tricks``): the line is not listed, nor searched past
        the point where the declarer takes every trick left. Not for talon
        tricks (all-pass). The tricks taken before ``position`` are not
        counted (:func:`solver.advice.play.line_tricks` counts them)."""
        guess = _value_guess(value_guess)
        order = _tie_order(tie_suits)
        tricks = ffi.new("int32_t[3]")
        self._call_at(position_fields(position), lib.pdd_line_tricks, guess, ffi.new("int32_t[4]", order), tricks)
        return tricks[0], tricks[1], tricks[2]

    def set_options(self, flags: int) -> None:
        """Switch search enhancements (OPT_ALL, OPT_NONE or lib.PDD_OPT_*)."""
        if not _whole(flags) or not 0 <= flags <= OPT_ALL:
            raise SolverArgumentError(f"flags must be a whole number 0..{OPT_ALL} (PDD_OPT_* bits), got {flags!r:.60}")
        self._acquire()
        try:
            lib.pdd_set_options(self._handle, flags)
        finally:
            self._lock.release()

    def set_table_policy(self, part_ways: int = DEFAULT_PART_WAYS, solves_per_generation: int = 1,
                         exact_table: bool = True) -> None:
        """How the table keeps entries over many calls (``pdd_set_table_policy``):
        the defaults suit unrelated positions; a long run of similar ones (an
        enumeration's splits) gains from more partition entries a shape, from
        several calls sharing a table generation and, for trick contracts
        only (they never read the exact entries), from ``exact_table=False``:
        the partition entries get all the table's memory. Never changes a
        value; clears the table."""
        for name, value, top in (("part_ways", part_ways, lib.PDD_MAX_PART_WAYS),
                                 ("solves_per_generation", solves_per_generation,
                                  lib.PDD_MAX_SOLVES_PER_GENERATION)):
            if not _whole(value) or not 1 <= value <= top:
                raise SolverArgumentError(f"{name} must be a whole number 1..{top}, got {value!r:.60}")
        if not isinstance(exact_table, bool):
            raise SolverArgumentError(f"exact_table must be True or False, got {exact_table!r:.60}")
        self._call(lib.pdd_set_table_policy, part_ways, solves_per_generation, int(exact_table))

    @property
    def order_weights(self) -> tuple[int, ...]:
        """The lead-ordering weights (csrc/order.c names each one). They
        change how fast the search runs, never a value."""
        weights = ffi.new("int[]", ORDER_WEIGHTS)
        lib.pdd_get_order_weights(self._handle, weights, ORDER_WEIGHTS)
        return tuple(weights)

    def set_order_weights(self, weights: tuple[int, ...] | list[int]) -> None:
        """Replace the lead-ordering weights (for tuning: see
        benchmarks/tune_ordering.py)."""
        if isinstance(weights, (str, bytes, dict)) or not hasattr(weights, "__iter__"):
            raise OrderWeightsError(f"give {ORDER_WEIGHTS} whole numbers, got {weights!r:.80}")
        values = list(weights)
        # Range checked here only as far as a C int needs; the C core checks the rest.
        if len(values) != ORDER_WEIGHTS or not all(_whole(w) and -2**31 <= w < 2**31 for w in values):
            raise OrderWeightsError(f"give {ORDER_WEIGHTS} whole numbers (each a C int), got {weights!r:.80}")
        self._call(lib.pdd_set_order_weights, ffi.new("int[]", values), len(values))

    def request_stop(self) -> None:
        """Ask a search running on another thread to stop (it raises SearchStopped)."""
        lib.pdd_request_stop(self._handle)

    def clear_stop(self) -> None:
        lib.pdd_clear_stop(self._handle)

    def stats(self) -> SolveStats:
        s = ffi.new("pdd_stats *")
        lib.pdd_get_stats(self._handle, s)
        return SolveStats(s.nodes, s.tt_probes, s.tt_hits, s.probes)

    def reset_stats(self) -> None:
        lib.pdd_reset_stats(self._handle)

    @property
    def table_bytes(self) -> int:
        return lib.pdd_table_bytes(self._handle)


# ---- the analyses' entry points (csrc/discard.c, csrc/maxn.c) ------------------
# Each goes through Solver._call, under the solver's one-thread rule, so a
# Solver stays safe to share between the plain solving calls and the analyses.

@dataclass(frozen=True)
class DiscardSearch:
    value: int
    discards: tuple[Hand, ...]
    """Each a 2-card hand, in ascending mask order."""
    classes: int


def best_discard_search(
    solver: Solver,
    hands: tuple[Hand, Hand, Hand],
    pool: Hand,
    declarer: int,
    contract: Contract,
    leader: int,
    all_best: bool,
    canonical: bool = False,
) -> DiscardSearch:
    """``pdd_best_discard``: hands[declarer] is ignored, ``pool`` is his cards
    before the discard. ``canonical`` (over ``all_best``): the one best
    discard whose starting position comes first in canonical form
    (:func:`canonical_suits`, the renamed hands' masks compared in seat
    order), found without proving every tie."""
    result = ffi.new("pdd_discard_result *")
    mode = lib.PDD_DISCARD_CANONICAL if canonical else lib.PDD_DISCARD_ALL if all_best else lib.PDD_DISCARD_ONE
    solver._call_at(_discard_fields(hands, declarer, contract, leader), lib.pdd_best_discard, pool.mask, mode, result)
    return _discard_search(result)


def _discard_fields(hands: Sequence[Hand], declarer: int, contract: Contract, leader: int) -> tuple[int, ...]:
    """A best-discard search's start: the defenders' hands (the declarer's
    is left empty: his cards are the pool)."""
    masks = [0 if seat == declarer else hands[seat].mask for seat in range(3)]
    return _fields(masks, contract, declarer, leader)


_discard_hand = lru_cache(maxsize=1024)(Hand)
"""A discard's Hand, kept (Hands are immutable): a table turns 18 answers'
discards into Hands, each checked on construction (496 two-card discards)."""


def _discard_search(result) -> DiscardSearch:
    """A ``pdd_discard_result`` as a :class:`DiscardSearch`."""
    return DiscardSearch(result.value, tuple(map(_discard_hand, ffi.unpack(result.discards, result.count))),
                         result.classes)


@dataclass(frozen=True)
class DiscardJob:
    """One search of :func:`best_discards_many`: the arguments of
    :func:`best_discard_search` but the solver and the mode."""

    hands: tuple[Hand, Hand, Hand]
    pool: Hand
    declarer: int
    contract: Contract
    leader: int


def best_discards_many(solvers: Sequence[Solver], jobs: Sequence[DiscardJob],
                       all_best: bool = False) -> list[DiscardSearch | PositionError]:
    """``pdd_best_discard_many``: every job's :func:`best_discard_search`
    in one C call, the solvers sharing them (the calling thread with the
    first, a thread of the call's own for each other; one solver: in order,
    as that many calls). A refused job answers its PositionError; a stop
    request on any solver raises SearchStopped. Every solver is held (its
    one-thread rule) for the call."""
    if not solvers or len({id(s) for s in solvers}) != len(solvers):
        raise SolverArgumentError(f"best_discards_many needs distinct solvers, got {len(solvers)}")
    count = len(jobs)
    positions = ffi.new("pdd_position[]", max(count, 1))
    pools = ffi.new("uint32_t[]", max(count, 1))
    buffer = ffi.buffer(positions)
    for i, job in enumerate(jobs):
        _PACKED.pack_into(buffer, i * _PACKED.size, *_discard_fields(job.hands, job.declarer, job.contract, job.leader))
        pools[i] = job.pool.mask
    codes = ffi.new("int32_t[]", max(count, 1))
    results = ffi.new("pdd_discard_result[]", max(count, 1))
    handles = ffi.new("pdd_solver *[]", [s._handle for s in solvers])
    held: list[Solver] = []
    try:
        for s in solvers:
            s._acquire()
            held.append(s)
        mode = lib.PDD_DISCARD_ALL if all_best else lib.PDD_DISCARD_ONE
        _check(lib.pdd_best_discard_many(handles, len(solvers), positions, pools, count, mode, codes, results))
    finally:
        for s in held:
            s._lock.release()
    answers: list[DiscardSearch | PositionError] = []
    for i in range(count):
        if codes[i] != lib.PDD_OK:
            answers.append(PositionError(ffi.string(lib.pdd_error_text(codes[i])).decode()))
            continue
        answers.append(_discard_search(results[i]))
    return answers


def discard_class_ids(pool: Hand, others: Sequence[Hand], suits_renamed: bool) -> list[tuple[Hand, int]]:
    """``pdd_discard_classes``: every 2-card discard of ``pool`` with its
    class (discards leaving the same game up to the relative ranks of the
    live cards, the cards of ``others`` - at most two groups, each its own
    owner - staying in play; with ``suits_renamed`` also up to a renaming of
    the suits, as the best-discard search does in misère). Classes are
    numbered in order of first appearance; the discards come by ascending
    card index."""
    groups = [hand.mask for hand in others]
    if len(groups) > 2:
        raise PositionError(f"discard classes take at most two other groups of cards, got {len(groups)}")
    groups += [0] * (2 - len(groups))
    result = ffi.new("pdd_discard_classes_result *")
    _check(lib.pdd_discard_classes(pool.mask, ffi.new("uint32_t[2]", groups), 1 if suits_renamed else 0, result))
    return [(Hand(result.discards[i]), result.class_of[i]) for i in range(result.count)]


def canonical_suits(position: Position) -> tuple[int, int, int, int]:
    """``pdd_canonical_suits``: the new index of each suit in the canonical
    order (trumps first, then by the owners of each suit's live cards from
    the ace down, the trick's cards as owners 3 and 4; ties by the old
    index): csrc/canonical.c is the rule's one home."""
    suit_to = ffi.new("int32_t[4]")
    _check(lib.pdd_canonical_suits(_struct(position_fields(position)), suit_to))
    return (suit_to[0], suit_to[1], suit_to[2], suit_to[3])


@dataclass(frozen=True)
class MaxnOutcome:
    tricks: tuple[int, int, int]
    """Each seat's tricks from the position on (the current trick included)."""
    unclaimed: int
    """Tricks no seat takes: the sitting dealer's (4 players) or talon tricks nobody followed."""
    line: tuple[Card, ...]


def maxn_search(solver: Solver, position: Position) -> MaxnOutcome:
    """``pdd_maxn_line`` from ``position``."""
    result = ffi.new("pdd_maxn_result *")
    solver._call_at(position_fields(position), lib.pdd_maxn_line, result)
    tricks = (result.tricks[0], result.tricks[1], result.tricks[2])
    line = tuple(Card.from_index(result.cards[i]) for i in range(result.count))
    return MaxnOutcome(tricks, result.unclaimed, line)


# ---- the fast path for inner loops -------------------------------------------

class StartSolver:
    """Solves ``template`` with other hands for two seats: a lean path for
    long runs of similar positions.

    An enumeration solves the same contract from the same start 184,756 times
    with only the defenders' hands changing. Building a :class:`Position` and
    its C struct each time costs more than many of the searches, and that
    Python work holds the GIL, which would keep the worker threads from
    running in parallel. The C struct is built (and checked) once; per split
    only the two hands are written before ``pdd_solve`` (which releases the
    GIL), under the Solver's one-thread rule; the C core validates each.
    """

    def __init__(self, solver: Solver, template: Position, seats: tuple[int, int]) -> None:
        self.solver = solver
        self.position = _struct(position_fields(template))
        self.seats = seats
        self.value = ffi.new("int *")

    def solve(self, first: int, second: int) -> int:
        """The value with hand masks ``first`` and ``second`` for the two seats."""
        self.position.hands[self.seats[0]] = first
        self.position.hands[self.seats[1]] = second
        self.solver._call(lib.pdd_solve, self.position, self.value)
        return self.value[0]

    def solve_pairs(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        """:meth:`solve` of each (first, second) pair of hand masks, in one C
        call (``pdd_solve_hands``: the same values and table as one call each,
        solved in order); a refused pair raises its PositionError, a stop
        SearchStopped."""
        return self.solver._solve_hands(self.position, self.seats, pairs)


class StartDiscards:
    """The declarer's best discard, and each seat's tricks along the canonical
    line after it, for one
    contract, declarer and leader from the start of play, with other hands
    each call: the lean path of a sampled whist advice.

    Each layout of a whist advice is one best-discard search and (two
    whisters) one line; through :func:`best_discard_search`, a
    :class:`Position` and :meth:`Solver.best_line` its Python work (objects,
    checks, sorting) cost about 60 µs a layout, held under the GIL. Here the
    layout's hands go in as masks into the fields :func:`_fields` builds once,
    and the answers come back as masks and trick counts; the C core validates
    every call (a hand of the wrong size, a card twice). Made by
    :meth:`Solver.start_discards`, one a solver, which holds it (it does not
    hold the solver: no reference cycle keeps a solver's table alive).
    """

    def __init__(self, contract: Contract, declarer: int, leader: int) -> None:
        self.fields = list(_fields((0, 0, 0), contract, declarer, leader))
        self.declarer = declarer
        self.result = ffi.new("pdd_discard_result *")
        self.suit_to = ffi.new("int32_t[4]")
        self.tricks = ffi.new("int32_t[3]")
        self.start = ffi.new("pdd_position *")
        self.start_bytes = ffi.buffer(self.start)

    def _at(self, hands: Sequence[int]) -> tuple[int, ...]:
        fields = self.fields
        fields[0], fields[1], fields[2] = hands[0], hands[1], hands[2]
        return tuple(fields)

    def best_discard(self, solver: Solver, hands: Sequence[int], pool: int,
                     canonical: bool, floor: int = 0) -> tuple[int, tuple[int, ...]]:
        """``pdd_best_discard_floor`` on ``solver`` with the hand masks ``hands`` (the declarer's
        is ignored) and his ``pool`` (mask): the value and the discards'
        masks, ascending: one class of best discards (``PDD_DISCARD_VALUE``:
        whichever the search met first, in its fastest order; the whist
        advice reads only the value then), or with ``canonical`` the
        canonically first best discard (see :func:`best_discard_search`).
        In a trick contract whose best value is below ``floor``: some value
        below it and no discards."""
        masks = list(hands)
        masks[self.declarer] = 0
        result = self.result
        mode = lib.PDD_DISCARD_CANONICAL if canonical else lib.PDD_DISCARD_VALUE
        solver._call_at(self._at(masks), lib.pdd_best_discard_floor, pool, mode, floor, result)
        return result.value, tuple(ffi.unpack(result.discards, result.count))

    def best_discards_lines(self, solver: Solver, layouts: Sequence[Sequence[int]], canonical: bool, floor: int,
                            line: bool) -> list[tuple[int, tuple[int, int, int] | None]]:
        """:meth:`best_discard` of each layout (hand masks, the declarer's
        entry his pool) and, with ``line``, :meth:`canonical_tricks` after the
        discard found with its value as the guess, unless the value is below
        ``floor`` (no discard): each layout's value and tricks (or None), in
        one C call (``pdd_best_discard_lines``, the same searches on the same
        table as those calls one by one; about 20 µs less Python a layout)."""
        count = len(layouts)
        if count == 0:
            return []
        hands = ffi.new("uint32_t[]", [mask for layout in layouts for mask in layout])
        out = ffi.new("int32_t[]", 4 * count)
        mode = lib.PDD_DISCARD_CANONICAL if canonical else lib.PDD_DISCARD_VALUE
        solver._call_at(tuple(self.fields), lib.pdd_best_discard_lines, hands, count, mode, floor,
                        1 if line else 0, out)
        flat = ffi.unpack(out, 4 * count)
        return [(flat[k], None if flat[k + 1] < 0 else (flat[k + 1], flat[k + 2], flat[k + 3]))
                for k in range(0, 4 * count, 4)]

    def canonical_tricks(self, solver: Solver, hands: Sequence[int], value_guess: int) -> tuple[int, int, int]:
        """Each seat's tricks along :meth:`Solver.best_line` on ``solver`` of the
        start with the hand masks ``hands``, ties broken in the canonical suit
        order (``pdd_canonical_suits``): :meth:`Solver.line_tricks`
        (``pdd_line_tricks``), about 35 µs less Python a layout than listing
        the line and counting its tricks here."""
        fields = self._at(hands)
        _PACKED.pack_into(self.start_bytes, 0, *fields)
        _check(lib.pdd_canonical_suits(self.start, self.suit_to))
        tricks = self.tricks
        solver._call_at(fields, lib.pdd_line_tricks, _clamp_guess(value_guess), self.suit_to, tricks)
        return tricks[0], tricks[1], tricks[2]


class ShuffleDeal:
    """``pdd_shuffle_deal`` for one list of free cards and one set of parts:
    the deal that ``random.Random(key).shuffle(cards)`` gives, the cards
    dealt in order into parts of ``sizes`` cards on top of each part's
    ``fixed`` mask (csrc/sample.c; 2 µs where Python took 11). The arrays of
    the cards and sizes are made once and only read: one ShuffleDeal serves
    every thread."""

    def __init__(self, cards: Sequence[int], sizes: Sequence[int], fixed: Sequence[int]) -> None:
        if len(fixed) != len(sizes):   # the C code reads and writes one fixed mask a part
            raise SolverArgumentError(f"ShuffleDeal needs one fixed mask a part: {len(sizes)} sizes, "
                                      f"{len(fixed)} fixed masks")
        self.count, self.parts = len(cards), len(sizes)
        self.cards = ffi.new("int32_t[]", list(cards) or [0])
        self.sizes = ffi.new("int32_t[]", list(sizes) or [0])
        self.fixed = list(fixed)
        self.fixed_c = ffi.new("uint32_t[]", self.fixed or [0])

    @staticmethod
    def fits(key: int) -> bool:
        """Whether ``key`` (a whole number at least 0) fits the C seeding."""
        return key.bit_length() <= 32 * lib.PDD_MAX_KEY_WORDS

    def deal(self, key: int) -> tuple[int, ...]:
        """The parts' masks for the generator seeded with ``key`` (a whole
        number at least 0 that :meth:`fits`), its 32-bit words least
        significant first, as CPython's seeding reads them."""
        words = max(1, (key.bit_length() + 31) // 32)
        packed = array("I", key.to_bytes(4 * words, "little"))
        if sys.byteorder == "big":
            packed.byteswap()
        masks = ffi.new("uint32_t[]", self.fixed)
        _check(lib.pdd_shuffle_deal(ffi.from_buffer("uint32_t[]", packed), words, self.cards, self.count,
                                    self.sizes, self.parts, masks))
        return tuple(masks)

    def deal_many(self, keys: Sequence[int]) -> list[tuple[int, ...]]:
        """:meth:`deal` of each key (each one that :meth:`fits`), in one C call
        (``pdd_shuffle_deals``: about 2 µs a deal less than one call each)."""
        if not keys:
            return []
        words = [(key.bit_length() + 31) // 32 or 1 for key in keys]
        packed = array("I", b"".join(key.to_bytes(4 * count, "little") for key, count in zip(keys, words)))
        if sys.byteorder == "big":
            packed.byteswap()
        parts = self.parts
        masks = ffi.new("uint32_t[]", len(keys) * parts)
        _check(lib.pdd_shuffle_deals(ffi.from_buffer("uint32_t[]", packed), ffi.new("int32_t[]", words), len(keys),
                                     self.cards, self.count, self.sizes, parts,
                                     self.fixed_c, masks))
        flat = ffi.unpack(masks, len(keys) * parts)
        return [tuple(flat[start:start + parts]) for start in range(0, len(flat), parts)]


class HandPairs(Sequence[tuple[int, int]]):
    """A sequence of (first, second) hand-mask pairs packed in one
    ``array("I")``, two words a pair: an enumeration's splits, made in C by
    :meth:`revolving_door` and passed to :meth:`StartSolver.solve_pairs`
    without a conversion. Items are tuples; a slice (step 1) is another
    HandPairs."""

    __slots__ = ("flat",)

    def __init__(self, flat: array) -> None:
        if not isinstance(flat, array) or flat.typecode != "I" or len(flat) % 2:
            raise SolverArgumentError("HandPairs needs an array('I') of an even length")
        self.flat = flat

    @classmethod
    def revolving_door(cls, cards: Sequence[int], k: int, first_fixed: int = 0, second_fixed: int = 0) -> HandPairs:
        """Every split of ``cards`` (card indices 0..31, distinct) into ``k``
        of them and the rest, in the revolving-door order of
        :func:`solver.advice.layouts.revolving_door` over the cards' positions
        in ``cards``; the fixed masks are added to each part (csrc/splits.c)."""
        n = len(cards)
        if not 0 <= k <= n <= 32:
            raise SolverArgumentError(f"cannot split {n} cards into {k} and the rest")
        count = math.comb(n, k)
        out = array("I", bytes(8 * count))
        code = lib.pdd_split_masks(ffi.new("int32_t[]", list(cards) or [0]), n, k, first_fixed, second_fixed,
                                   ffi.from_buffer("uint32_t[]", out), count)
        if code == lib.PDD_ERR_DUPLICATE:
            raise SolverArgumentError("split cards must be distinct card indices 0..31, none of them fixed, "
                                      "and the fixed masks disjoint")
        _check(code)
        return cls(out)

    def __len__(self) -> int:
        return len(self.flat) // 2

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            return HandPairs(self.flat[2 * start:2 * max(start, stop)])
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("HandPairs index out of range")
        return self.flat[2 * index], self.flat[2 * index + 1]

    def __iter__(self):
        flat = self.flat
        return zip(flat[0::2], flat[1::2])
