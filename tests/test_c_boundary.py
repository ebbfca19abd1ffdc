"""Every error path of the C boundary answers an error code, never a crash.
These tests call the C functions directly, bypassing the Python checks."""
from __future__ import annotations

import pytest

from solver._core import ffi, lib

from c_positions import H0, H1, H2, solver  # noqa: F401  (solver: a fixture)
from c_positions import c_position as position


def solve(solver, p) -> tuple[int, int]:
    value = ffi.new("int *")
    code = lib.pdd_solve(solver, p, value)
    return code, value[0]


def test_valid_position_solves(solver) -> None:
    # No trump: whoever leads keeps the lead and takes all three tricks.
    assert solve(solver, position()) == (lib.PDD_OK, 3)
    assert solve(solver, position(declarer=2)) == (lib.PDD_OK, 0)
    assert solve(solver, position(declarer=1, leader=1)) == (lib.PDD_OK, 3)
    assert solve(solver, position(objective=1, declarer=1)) == (lib.PDD_OK, 0)


@pytest.mark.parametrize("fields, error", [
    (dict(leader=3), lib.PDD_ERR_SEAT),
    (dict(leader=-1), lib.PDD_ERR_SEAT),
    (dict(declarer=7), lib.PDD_ERR_SEAT),
    (dict(trump=5), lib.PDD_ERR_TRUMP),
    (dict(trump=-1), lib.PDD_ERR_TRUMP),
    (dict(objective=2), lib.PDD_ERR_OBJECTIVE),
    (dict(hands=[H0, H0, H2]), lib.PDD_ERR_DUPLICATE),
    (dict(hands=[H0 | 1 << 8, H1, H2]), lib.PDD_ERR_DUPLICATE),
    (dict(hands=[H0, H1, H2 | 1 << 24]), lib.PDD_ERR_HAND_SIZE),
    (dict(hands=[0x7FF, 0x7FF << 11, 0xFFC00000]), lib.PDD_ERR_HAND_SIZE),
    (dict(hands=[0, 0, 0]), lib.PDD_ERR_NO_CARDS),
    (dict(trick_count=3), lib.PDD_ERR_TRICK),
    (dict(trick_count=-1), lib.PDD_ERR_TRICK),
    (dict(hands=[H0 & ~1, H1, H2], trick=[32], trick_count=1), lib.PDD_ERR_TRICK),
    (dict(hands=[H0 & ~1, H1, H2], trick=[1], trick_count=1), lib.PDD_ERR_DUPLICATE),
    # Seat 1 holds clubs only but plays... a spade it does not hold would be a
    # duplicate; here seat 0 leads 7s, seat 1 discards 7c holding 8c 9c: fine in
    # no trump (no spades). With hearts as trump and a heart in hand it is not.
    (dict(hands=[(H0 & ~1), (H1 & ~1 << 8) | 1 << 24, H2 & ~(1 << 16)], trick=[0, 8],
          trick_count=2, trump=3), lib.PDD_ERR_HAND_SIZE),
    (dict(talon_count=3), lib.PDD_ERR_TALON),
    (dict(talon_count=1, talon=[40]), lib.PDD_ERR_TALON),
    (dict(talon_count=1, talon=[0]), lib.PDD_ERR_DUPLICATE),
    (dict(talon_count=1, talon=[31], leader=1), lib.PDD_ERR_TALON),
    (dict(talon_count=1, talon=[31], trump=0), lib.PDD_ERR_TALON),
    (dict(four_players=2), lib.PDD_ERR_TALON),
    (dict(tricks_taken=8), lib.PDD_ERR_TRICKS_TAKEN),
    (dict(tricks_taken=-1), lib.PDD_ERR_TRICKS_TAKEN),
])
def test_invalid_positions_are_rejected(solver, fields, error) -> None:
    p = position(**fields)
    assert lib.pdd_validate(p) == error
    assert solve(solver, p)[0] == error
    assert ffi.string(lib.pdd_error_text(error)).decode() not in ("", "unknown error")


def test_illegal_cards_on_the_trick() -> None:
    # Seat 0 led 7s (0); seat 1 played 7c (8) while holding 8s (1): must follow.
    p = position(trick=[0, 8], trick_count=2,
                 hands=[1 << 2 | 1 << 25, 1 << 1 | 1 << 9, 1 << 16 | 1 << 17 | 1 << 18])
    assert lib.pdd_validate(p) == lib.PDD_ERR_ILLEGAL_CARD
    # Void in spades but holding 7h (24) with hearts trump: must trump.
    p.hands[1] = 1 << 24 | 1 << 9
    p.trump = 3
    assert lib.pdd_validate(p) == lib.PDD_ERR_ILLEGAL_CARD
    # In no trump the same discard is legal.
    p.trump = 4
    assert lib.pdd_validate(p) == lib.PDD_OK


def test_null_pointers(solver) -> None:
    value = ffi.new("int *")
    assert lib.pdd_solve(ffi.NULL, position(), value) == lib.PDD_ERR_NULL
    assert lib.pdd_solve(solver, ffi.NULL, value) == lib.PDD_ERR_NULL
    assert lib.pdd_solve(solver, position(), ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_validate(ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_probe(solver, position(), 1, ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_card_values(solver, position(), ffi.NULL, ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_best_line(solver, position(), ffi.NULL, value) == lib.PDD_ERR_NULL
    assert lib.pdd_best_line_from(solver, position(), 3, ffi.NULL, value) == lib.PDD_ERR_NULL
    assert lib.pdd_best_line_from(ffi.NULL, position(), 3, ffi.new("int[30]"), value) == lib.PDD_ERR_NULL
    weights = ffi.new("int[]", lib.PDD_ORDER_WEIGHTS)
    assert lib.pdd_set_order_weights(ffi.NULL, weights, lib.PDD_ORDER_WEIGHTS) == lib.PDD_ERR_NULL
    assert lib.pdd_set_order_weights(solver, ffi.NULL, lib.PDD_ORDER_WEIGHTS) == lib.PDD_ERR_NULL
    assert lib.pdd_get_order_weights(solver, ffi.NULL, lib.PDD_ORDER_WEIGHTS) == lib.PDD_ERR_NULL
    assert lib.pdd_legal_moves(position(), ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_set_options(ffi.NULL, 0) == lib.PDD_ERR_NULL
    lib.pdd_free(ffi.NULL)                 # a no-op, not a crash
    lib.pdd_request_stop(ffi.NULL)


def test_probe_target_range(solver) -> None:
    result = ffi.new("int *")
    assert lib.pdd_probe(solver, position(), 11, result) == lib.PDD_ERR_TARGET
    assert lib.pdd_probe(solver, position(), -1, result) == lib.PDD_ERR_TARGET
    assert lib.pdd_probe(solver, position(), 0, result) == lib.PDD_OK and result[0] == 1


def test_stop_request_is_answered(solver) -> None:
    # A request made before the call stops even a search too small to reach
    # the search's own periodic check: it stays until cleared (prefdd.h).
    lib.pdd_request_stop(solver)
    try:
        assert solve(solver, position())[0] == lib.PDD_ERR_STOPPED
        assert solve(solver, position())[0] == lib.PDD_ERR_STOPPED
    finally:
        lib.pdd_clear_stop(solver)
    assert solve(solver, position()) == (lib.PDD_OK, 3)


def test_tiny_and_default_tables() -> None:
    tiny = lib.pdd_new(1)                   # raised to the minimum
    assert tiny != ffi.NULL and lib.pdd_table_bytes(tiny) >= 64 << 10
    lib.pdd_free(tiny)
    default = lib.pdd_new(0)
    assert lib.pdd_table_bytes(default) <= 64 << 20
    lib.pdd_free(default)


# ---- pdd_solve_many ------------------------------------------------------------

def many(*structs):
    array = ffi.new("pdd_position[]", [p[0] for p in structs])
    return array, ffi.new("int32_t[]", len(structs))


def test_solve_many_answers_values_and_codes_in_order(solver) -> None:
    array, values = many(position(), position(trump=5), position(declarer=2), position(hands=[0, 0, 0]))
    assert lib.pdd_solve_many(solver, array, 4, values) == lib.PDD_OK
    assert list(values) == [3, lib.PDD_ERR_TRUMP, 0, lib.PDD_ERR_NO_CARDS]


def test_solve_many_refuses_null_pointers_and_negative_counts(solver) -> None:
    array, values = many(position())
    assert lib.pdd_solve_many(ffi.NULL, array, 1, values) == lib.PDD_ERR_NULL
    assert lib.pdd_solve_many(solver, ffi.NULL, 1, values) == lib.PDD_ERR_NULL
    assert lib.pdd_solve_many(solver, array, 1, ffi.NULL) == lib.PDD_ERR_NULL
    for count in (-1, -2**31):
        assert lib.pdd_solve_many(solver, array, count, values) == lib.PDD_ERR_COUNT
    assert ffi.string(lib.pdd_error_text(lib.PDD_ERR_COUNT)).decode() not in ("", "unknown error")
    values[0] = 99
    assert lib.pdd_solve_many(solver, ffi.NULL, 0, values) == lib.PDD_OK   # nothing to read
    assert lib.pdd_solve_many(solver, array, 0, values) == lib.PDD_OK and values[0] == 99


def test_solve_many_honours_the_stop_flag(solver) -> None:
    array, values = many(position(), position(), position(trump=5))
    lib.pdd_request_stop(solver)
    try:
        assert lib.pdd_solve_many(solver, array, 3, values) == lib.PDD_ERR_STOPPED
        assert list(values) == [lib.PDD_ERR_STOPPED] * 3
    finally:
        lib.pdd_clear_stop(solver)
    assert lib.pdd_solve_many(solver, array, 3, values) == lib.PDD_OK
    assert list(values) == [3, 3, lib.PDD_ERR_TRUMP]


# ---- pdd_set_table_policy ----------------------------------------------------------

def test_table_policy_refuses_out_of_range_values_and_keeps_solving(solver) -> None:
    assert lib.pdd_set_table_policy(ffi.NULL, 15, 1, 1) == lib.PDD_ERR_NULL
    for ways, span, exact in ((0, 1, 1), (-1, 1, 1), (lib.PDD_MAX_PART_WAYS + 1, 1, 1), (15, 0, 1), (15, -5, 1),
                              (15, lib.PDD_MAX_SOLVES_PER_GENERATION + 1, 1), (2**31 - 1, 2**31 - 1, 1),
                              (15, 1, 2), (15, 1, -1)):
        assert lib.pdd_set_table_policy(solver, ways, span, exact) == lib.PDD_ERR_POLICY
    assert ffi.string(lib.pdd_error_text(lib.PDD_ERR_POLICY)).decode() not in ("", "unknown error")
    for ways, span, exact in ((1, 1, 1), (lib.PDD_MAX_PART_WAYS, lib.PDD_MAX_SOLVES_PER_GENERATION, 0),
                              (63, 2048, 0), (63, 2048, 1), (15, 1, 1)):
        assert lib.pdd_set_table_policy(solver, ways, span, exact) == lib.PDD_OK
        assert solve(solver, position()) == (lib.PDD_OK, 3)
        assert solve(solver, position(declarer=2)) == (lib.PDD_OK, 0)
        assert solve(solver, position(objective=1, declarer=1)) == (lib.PDD_OK, 0)   # misere: the exact table


def test_table_policy_moves_the_memory_between_the_tables() -> None:
    solver = lib.pdd_new(1 << 20)
    try:
        assert lib.pdd_table_bytes(solver) == 1 << 20
        assert lib.pdd_set_table_policy(solver, 63, 1, 0) == lib.PDD_OK
        assert lib.pdd_table_bytes(solver) == (1 << 20) + (64 << 10)   # all of it for partition entries
        assert lib.pdd_set_table_policy(solver, 15, 1, 1) == lib.PDD_OK
        assert lib.pdd_table_bytes(solver) == 1 << 20
    finally:
        lib.pdd_free(solver)


# ---- pdd_solve_hands ----------------------------------------------------------------

def test_solve_hands_answers_as_solve_many_and_refuses_bad_arguments(solver) -> None:
    template = position()
    hands = ffi.new("uint32_t[]", [H1, H2, H2, H1, H1 | 1, H2, 0, 0])
    values = ffi.new("int32_t[]", 4)
    assert lib.pdd_solve_hands(solver, template, 1, 2, hands, 4, values) == lib.PDD_OK
    expected = [solve(solver, position(hands=h))[1] for h in ([H0, H1, H2], [H0, H2, H1])]
    assert list(values) == expected + [lib.PDD_ERR_DUPLICATE, lib.PDD_ERR_HAND_SIZE]
    assert lib.pdd_solve_hands(ffi.NULL, template, 1, 2, hands, 1, values) == lib.PDD_ERR_NULL
    assert lib.pdd_solve_hands(solver, ffi.NULL, 1, 2, hands, 1, values) == lib.PDD_ERR_NULL
    assert lib.pdd_solve_hands(solver, template, 1, 2, ffi.NULL, 1, values) == lib.PDD_ERR_NULL
    assert lib.pdd_solve_hands(solver, template, 1, 2, hands, 1, ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_solve_hands(solver, template, 1, 2, hands, -1, values) == lib.PDD_ERR_COUNT
    for a, b in ((1, 1), (-1, 2), (1, 3), (2**31 - 1, 0)):
        assert lib.pdd_solve_hands(solver, template, a, b, hands, 1, values) == lib.PDD_ERR_SEAT
    assert lib.pdd_solve_hands(solver, template, 1, 2, ffi.NULL, 0, values) == lib.PDD_OK   # nothing to read
    lib.pdd_request_stop(solver)   # a stop ends the batch: the position under way and every later one
    try:
        assert lib.pdd_solve_hands(solver, template, 1, 2, hands, 4, values) == lib.PDD_ERR_STOPPED
        assert list(values) == [lib.PDD_ERR_STOPPED] * 4
    finally:
        lib.pdd_clear_stop(solver)
