"""Fuzzing the C boundary: hostile structs through every C entry point, by
cffi directly (no Python checks in between) and through :class:`Solver`.

The property that matters: a call that fails, is refused or is stopped never
changes what that solver answers later. After each burst of hostile calls,
positions solved on the same solver agree with a fresh solver and with the
reference data. Also run under the sanitizers (``make sanitize``).
"""
from __future__ import annotations

import random
import threading
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import load_jsonl, shared_file
from solver import Card, Deal, Hand, Position, PositionError, Solver
from solver._core import ffi, lib
from solver.engine import SearchStopped, check_position, to_c_position
from solver.notation import Contract, ContractKind

INT32 = (-2**31, 2**31 - 1)
FUZZ = settings(max_examples=60, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

REFERENCE = load_jsonl("dd-endgames.jsonl")
SMALL_DEAL = "987... .987.. ..987."   # 7-8-9 of spades, clubs, diamonds
CONTRACTS = ["6s", "7c", "8d", "6h", "7nt", "misere"]

# Raw int32 values: each field's edges and the values just past them, the
# extremes, and values whose sum with a small count overflows int32.
EDGES = [-11, -1, 0, 1, 2, 3, 4, 5, 10, 11, 31, 32, 255, 256]
OVERFLOWING = [INT32[1] - k for k in range(11)] + [INT32[0], INT32[0] + 1]
int32 = st.one_of(st.sampled_from(EDGES), st.sampled_from(OVERFLOWING), st.integers(*INT32))
uint32 = st.one_of(st.sampled_from([0, 1, 0xFF, 0x3FF, 0xFFFFFFFF, 0x80000000]), st.integers(0, 2**32 - 1))
FIELDS = ["trick_count", "leader", "trump", "declarer", "objective", "tricks_taken", "talon_count",
          "four_players", "trick0", "trick1", "trick2", "talon0", "talon1", "hand0", "hand1", "hand2"]


def random_position(rng: random.Random) -> Position:
    """A valid position: hands of 2-7 cards, a random contract and seats,
    up to two cards of the trick played, tricks taken that still fit."""
    size = rng.randint(2, 7)
    cards = rng.sample(range(32), 3 * size)
    hands = tuple(Hand.from_cards(Card.from_index(i) for i in cards[k * size:(k + 1) * size]) for k in range(3))
    position = Position.start(Deal(hands), rng.choice(CONTRACTS), rng.randrange(3), rng.randrange(3))
    for _ in range(rng.randint(0, 2)):
        position = position.play(rng.choice(position.legal_cards()))
    taken = [0, 0, 0]
    taken[position.declarer] = rng.randint(0, 10 - position.tricks_left)
    return replace(position, tricks_taken=tuple(taken))


def mutate(c, field: str, value: int) -> None:
    """Set one field of a pdd_position (cffi) to a raw value."""
    if field.startswith(("trick", "talon", "hand")) and field[-1].isdigit():
        name, index = field[:-1], int(field[-1])
        array = {"trick": c.trick, "talon": c.talon, "hand": c.hands}[name]
        if index < len(array):
            array[index] = value & 0xFFFFFFFF if name == "hand" else value
        return
    setattr(c, field, value)


CALLS = 23
"""The entry points hostile_calls makes (each call draws from them)."""

STRATEGIES = {
    "int32": int32,
    "uint32": uint32,
    "stop": st.integers(0, 3).map(lambda k: k == 0),   # a quarter of the calls
    "calls": st.lists(st.integers(0, CALLS - 1), min_size=1, max_size=4),
    "order": st.one_of(st.permutations([0, 1, 2, 3]), st.lists(st.sampled_from([-1, 0, 3, 4, INT32[1]]),
                                                              min_size=4, max_size=4)),
    "many": st.sampled_from([0, 1, 2, 3, -1, INT32[0]]),
    "count": st.sampled_from([29, 0, -1, 28, 30, INT32[1]]),
    "weights": st.one_of(st.lists(st.sampled_from(EDGES + OVERFLOWING), min_size=29, max_size=29),
                         st.lists(st.integers(-20000, 20000), min_size=29, max_size=29)),
}


def hypothesis_draw(data):
    return lambda kind: data.draw(STRATEGIES[kind])


def random_draw(rng: random.Random):
    """The same kinds of values from a seeded generator (for long runs)."""
    kinds = {
        "int32": lambda: rng.choice([INT32[0], -1, 0, 5, 10, 11, 2**31 - 3, INT32[1], rng.randint(*INT32)]),
        "uint32": lambda: rng.choice([0, 0xFFFFFFFF, rng.getrandbits(32)]),
        "stop": lambda: rng.random() < 0.25,
        "calls": lambda: [rng.randrange(CALLS) for _ in range(rng.randint(1, 4))],
        "order": lambda: rng.sample(range(4), 4) if rng.random() < 0.5 else [rng.choice([-1, 0, 3, 4]) for _ in range(4)],
        "many": lambda: rng.choice([0, 1, 2, 3, -1, INT32[0]]),
        "count": lambda: rng.choice([29, 0, -1, 28, 30, INT32[1]]),
        "weights": lambda: [rng.choice([-1, 0, 16, 17, 10001, INT32[1], rng.randint(-20000, 20000)])
                            for _ in range(29)],
    }
    return lambda kind: kinds[kind]()


PARTNER = Solver(1)


def hostile_calls(solver: Solver, c, draw) -> None:
    """Every C entry point of the solver with a (probably) hostile struct,
    some of them with a stop already requested."""
    h = solver._handle
    partner = PARTNER._handle   # pdd_best_discard_many's second solver
    value, result = ffi.new("int *"), ffi.new("int *")
    values, legal = ffi.new("int[32]"), ffi.new("uint32_t *")
    cards, count = ffi.new("int[30]"), ffi.new("int *")
    discard = ffi.new("pdd_discard_result *")
    maxn = ffi.new("pdd_maxn_result *")
    suits = ffi.new("int32_t[4]")
    classes = ffi.new("pdd_discard_classes_result *")
    # pdd_solve_many: the hostile struct between two copies of a solvable
    # one (the call reads at most 3), or no array at all.
    many, many_values = ffi.new("pdd_position[3]"), ffi.new("int32_t[3]")
    many[0] = many[2] = to_c_position(Position.start(SMALL_DEAL, "7nt", 0))[0]
    many[1] = c[0]
    calls = [
        lambda: lib.pdd_solve(h, c, value),
        lambda: lib.pdd_probe(h, c, draw("int32"), result),
        lambda: lib.pdd_card_values(h, c, values, legal),
        lambda: lib.pdd_best_line(h, c, cards, count),
        lambda: lib.pdd_best_line_from(h, c, draw("int32"), cards, count),
        lambda: lib.pdd_legal_moves(c, legal),
        lambda: lib.pdd_validate(c),
        lambda: lib.pdd_best_discard(h, c, draw("uint32"), draw("int32"), discard),
        lambda: lib.pdd_best_discard_floor(h, c, draw("uint32"), draw("int32"), draw("int32"), discard),
        lambda: lib.pdd_maxn_line(h, c, maxn),
        lambda: lib.pdd_canonical_suits(c, suits),
        lambda: lib.pdd_discard_classes(draw("uint32"), ffi.new("uint32_t[2]", [draw("uint32"), draw("uint32")]),
                                        draw("int32"), classes),
        lambda: lib.pdd_best_line_ordered(h, c, draw("int32"), ffi.new("int32_t[4]", draw("order")), cards, count),
        lambda: lib.pdd_line_tricks(h, c, draw("int32"), ffi.new("int32_t[4]", draw("order")), ffi.new("int32_t[3]")),
        # Hostile counts and sizes over arrays of 32 hostile card indices (the call reads at most 32).
        lambda: lib.pdd_shuffle_deal(ffi.new("uint32_t[64]", [draw("uint32")] * 64), draw("count"),
                                     ffi.new("int32_t[32]", [draw("int32") for _ in range(32)]), draw("count"),
                                     ffi.new("int32_t[8]", [draw("many") for _ in range(8)]), draw("many"),
                                     ffi.new("uint32_t[8]")),
        # Up to 3 deals (the call reads at most 3 key counts, 3 * 64 key words, 8 fixed masks, 24 masks).
        lambda: lib.pdd_shuffle_deals(ffi.new("uint32_t[192]", [draw("uint32")] * 192),
                                      ffi.new("int32_t[3]", [draw("count") for _ in range(3)]), draw("many"),
                                      ffi.new("int32_t[32]", [draw("int32") for _ in range(32)]), draw("count"),
                                      ffi.new("int32_t[8]", [draw("many") for _ in range(8)]), draw("many"),
                                      ffi.new("uint32_t[8]"), ffi.new("uint32_t[24]")),
        lambda: lib.pdd_set_order_weights(h, ffi.new("int[]", draw("weights")),
                                          draw("count")),
        lambda: lib.pdd_solve_many(h, many, draw("many"), many_values),
        lambda: lib.pdd_best_discard_many(ffi.new("pdd_solver *[]", [h, partner]), 2, many,
                                          ffi.new("uint32_t[3]", [draw("uint32")] * 3), draw("many"),
                                          draw("int32"), ffi.new("int32_t[3]"), ffi.new("pdd_discard_result[3]")),
        # The hostile struct as the template, with hostile hands for two seats.
        lambda: lib.pdd_solve_hands(h, c, draw("many"), draw("many"),
                                    ffi.new("uint32_t[6]", [draw("uint32") for _ in range(6)]), draw("many"),
                                    many_values),
        # The hostile struct as the template, hostile hands for up to 3 layouts (the call reads at most 9).
        lambda: lib.pdd_best_discard_lines(h, c, ffi.new("uint32_t[9]", [draw("uint32") for _ in range(9)]),
                                           draw("many"), draw("int32"), draw("int32"), draw("int32"),
                                           ffi.new("int32_t[12]")),
        # Hostile cards, counts and fixed masks; room for at most 3 splits (the capacity is 3 or less).
        lambda: lib.pdd_split_masks(ffi.new("int32_t[32]", [draw("int32") for _ in range(32)]), draw("count"),
                                    draw("many"), draw("uint32"), draw("uint32"), ffi.new("uint32_t[6]"),
                                    draw("many")),
        # Small values (some valid) for the table policy; the table is then cleared.
        lambda: lib.pdd_set_table_policy(h, draw("many"), draw("many"), draw("many")),
    ]
    assert len(calls) == CALLS
    for call in draw("calls"):
        if draw("stop"):
            lib.pdd_request_stop(h)
        code = calls[call]()
        lib.pdd_clear_stop(h)
        assert code <= 0 and ffi.string(lib.pdd_error_text(code)) not in (b"", b"unknown error")


def agree_with_fresh(solver: Solver, positions: list[Position]) -> None:
    fresh = Solver(1)
    for position in positions:
        assert solver.solve(position) == fresh.solve(position)
        assert solver.card_values(position) == fresh.card_values(position)
        assert solver.best_line(position) == fresh.best_line(position)


def agree_with_reference(solver: Solver, records: list[dict]) -> None:
    for record in records:
        position = Position.start(record["deal"], record["contract"], record["declarer"], record["leader"])
        assert solver.solve(position) == record["declarer_tricks"], record
        if "card_values" in record:
            got = {str(card): v for card, v in solver.card_values(position).items()}
            assert got == record["card_values"], record


# ---- regressions ---------------------------------------------------------------

@pytest.mark.parametrize("taken", [2**31 - 1, 2**31 - 3, 2**31 - 10, 250, 253, 11, INT32[0], -1])
def test_tricks_taken_near_the_int32_limit_is_refused_by_c(taken: int) -> None:
    # 2**31 - 3 + 3 tricks left overflowed past the check and answered 256.
    c = to_c_position(Position.start(SMALL_DEAL, "7nt", 0))
    c.tricks_taken = taken
    assert lib.pdd_validate(c) == lib.PDD_ERR_TRICKS_TAKEN


def test_a_refused_card_values_call_leaves_the_table_as_it_was() -> None:
    # One card_values call with tricks taken near 2**31 left entries that
    # made the next valid solve of the same deal answer 0 instead of 4.
    deal = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
    position = Position.start(deal, "6c", 1)
    expected = Solver(1).solve(position)
    solver = Solver(1)
    c = to_c_position(position)
    c.tricks_taken = 2**31 - 1
    values, legal = ffi.new("int[32]"), ffi.new("uint32_t *")
    assert lib.pdd_card_values(solver._handle, c, values, legal) == lib.PDD_ERR_TRICKS_TAKEN
    assert solver.solve(position) == expected
    with pytest.raises(PositionError, match="tricks_taken"):
        solver.card_values(replace(position, tricks_taken=(0, 2**31 - 1, 0)))
    assert solver.solve(position) == expected


def test_a_huge_table_request_answers_null_instead_of_looping() -> None:
    # The table sizing multiplied the caller's byte count and wrapped to 0.
    for size in (2**64 - 1, 2**63, 2**62 + 12345):
        handle = lib.pdd_new(size)
        if handle != ffi.NULL:   # a machine that has the memory: a working solver
            assert lib.pdd_table_bytes(handle) <= size
        lib.pdd_free(handle)


def test_probe_refused_for_its_target_before_anything_else() -> None:
    solver = Solver(1)
    result = ffi.new("int *")
    c = to_c_position(Position.start(SMALL_DEAL, "7nt", 0))
    for target in (INT32[0], -1, 11, INT32[1]):
        assert lib.pdd_probe(solver._handle, c, target, result) == lib.PDD_ERR_TARGET


@pytest.mark.parametrize("field, value", [
    ("tricks_taken", (0, 2**31 - 1, 0)), ("tricks_taken", (0, -1, 0)), ("tricks_taken", (0, 0)),
    ("tricks_taken", (0, True, 0)), ("declarer", 2**40), ("declarer", 3), ("leader", -1), ("leader", "0"),
    ("hands", None), ("hands", ("AKQ", "JT9", "876")), ("trick", (0, 1)), ("trick", [Card(0, 0)]),
    ("contract", "7nt"), ("talon_leads", (5,)), ("four_players", 1),
])
def test_python_checks_every_field_before_c(field: str, value: object) -> None:
    position = replace(Position.start(SMALL_DEAL, "7nt", 1), **{field: value})
    with pytest.raises(PositionError, match=field):
        check_position(position)
    with pytest.raises(PositionError, match=field):
        Solver(1).solve(position)


# ---- properties ----------------------------------------------------------------

@settings(FUZZ, max_examples=30)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_hostile_structs_never_change_later_answers(data, seed: int) -> None:
    """Valid positions with raw fields overwritten, through every entry
    point; then the positions they came from, and others, on the same
    solver: the answers are a fresh solver's."""
    rng = random.Random(seed)
    solver = Solver(1)
    originals = []
    for _ in range(2):
        position = random_position(rng)
        originals.append(position)
        # Each field alone (the others valid, so the C checks get past the
        # first refusal), once with a value that overflows int32 arithmetic
        # and once with any; then a few fields together.
        single = [[field] for field in FIELDS]
        for k, fields in enumerate(single * 2 + [data.draw(st.lists(st.sampled_from(FIELDS), max_size=4))]):
            c = to_c_position(position)
            for field in fields:
                mutate(c, field, data.draw(st.sampled_from(OVERFLOWING) if k < len(single) else int32))
            hostile_calls(solver, c, hypothesis_draw(data))
    agree_with_fresh(solver, originals + [random_position(rng) for _ in range(2)])


@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_structs_never_crash_and_valid_ones_agree(data, seed: int) -> None:
    """Fully random structs (most are refused); any the C accepts must solve
    to a value within the position's tricks."""
    solver = Solver(1)
    c = ffi.new("pdd_position *")
    for field in FIELDS:
        mutate(c, field, data.draw(uint32 if field.startswith("hand") else int32))
    value = ffi.new("int *")
    code = lib.pdd_solve(solver._handle, c, value)
    assert code == lib.pdd_validate(c)
    if code == lib.PDD_OK:
        assert c.tricks_taken <= value[0] <= 10
    agree_with_fresh(solver, [random_position(random.Random(seed))])


@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_solve_many_answers_each_struct_as_solve_does(data, seed: int) -> None:
    """A batch of structs, some with raw fields overwritten: each answer is
    what pdd_solve answers for that struct (its value or its code) on a
    solver given the same calls one by one, with the same node counts; the
    batch goes on past a refused struct, and later answers are a fresh
    solver's."""
    rng = random.Random(seed)
    structs = []
    for _ in range(data.draw(st.integers(1, 5))):
        c = to_c_position(random_position(rng))
        for field in data.draw(st.lists(st.sampled_from(FIELDS), max_size=2)):
            mutate(c, field, data.draw(int32))
        structs.append(c[0])
    array, values = ffi.new("pdd_position[]", structs), ffi.new("int32_t[]", len(structs))
    batch, single, one = Solver(1), Solver(1), ffi.new("int *")
    assert lib.pdd_solve_many(batch._handle, array, len(structs), values) == lib.PDD_OK
    for i in range(len(structs)):
        code = lib.pdd_solve(single._handle, ffi.addressof(array, i), one)
        assert values[i] == (one[0] if code == lib.PDD_OK else code)
        assert code == lib.pdd_validate(ffi.addressof(array, i))
    assert batch.stats() == single.stats()
    agree_with_fresh(batch, [random_position(rng)])


@settings(max_examples=12, deadline=None, database=None)
@given(delays=st.lists(st.floats(0, 0.03), min_size=1, max_size=3), which=st.integers(0, 3))
def test_stopped_searches_leave_no_wrong_entries(delays: list[float], which: int) -> None:
    """Full deals stopped part-way (a real stop request from another thread),
    then solved to the end on the same solver: the answers agree with the
    reference."""
    records = load_jsonl("dd-full.jsonl")
    if not records:
        shared_file("dd-full.jsonl")   # skips, naming the missing file
    solver = Solver(4)
    record = records[which % len(records)]
    position = Position.start(record["deal"], record["contract"], record["declarer"], record["leader"])
    calls = [solver.solve, solver.card_values, solver.best_line]
    for k, delay in enumerate(delays):
        timer = threading.Timer(delay, solver.request_stop)
        timer.start()
        try:
            calls[k % 3](position)
        except SearchStopped:
            pass
        timer.join()
        solver.clear_stop()
    assert solver.solve(position) == record["declarer_tricks"]


def test_reference_positions_agree_after_every_kind_of_hostile_call() -> None:
    """One solver through a long hostile run, then every reference endgame."""
    if not REFERENCE:
        shared_file("dd-endgames.jsonl")
    rng = random.Random(16)
    solver = Solver(1)

    for _ in range(150):
        c = to_c_position(random_position(rng))
        mutate(c, rng.choice(FIELDS), rng.choice([INT32[0], -1, 3, 5, 11, 32, 2**31 - 3, INT32[1]]))
        hostile_calls(solver, c, random_draw(rng))
    agree_with_reference(solver, REFERENCE)


@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_solver_methods_refuse_hostile_positions_and_recover(data, seed: int) -> None:
    """Through the Python API: a Position with one field replaced by junk is a
    PositionError (never another exception); the solver answers as before."""
    rng = random.Random(seed)
    solver = Solver(1)
    base = random_position(rng)
    junk = st.one_of(int32, st.none(), st.text(max_size=3), st.booleans(), st.floats(allow_nan=True),
                     st.tuples(int32, int32, int32), st.just((Card(0, 0),) * 3))
    field = data.draw(st.sampled_from(["hands", "contract", "declarer", "leader", "trick", "tricks_taken",
                                       "talon_leads", "four_players"]))
    bad = replace(base, **{field: data.draw(junk)})
    for call in (solver.solve, solver.card_values, solver.best_line, lambda p: solver.probe(p, 1)):
        try:
            call(bad)
        except PositionError:
            pass
    agree_with_fresh(solver, [base])


def test_allpass_and_misere_positions_survive_hostile_calls() -> None:
    rng = random.Random(7)
    solver = Solver(1)
    deal = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K")
    allpass = Position.start(deal, Contract(ContractKind.ALLPASS), 1, 0)
    for _ in range(20):
        c = to_c_position(allpass)
        mutate(c, rng.choice(FIELDS), rng.choice([-1, 3, 2**31 - 3, INT32[1]]))
        hostile_calls(solver, c, random_draw(rng))
    agree_with_fresh(solver, [allpass, Position.start(deal, "misere", 0)])
