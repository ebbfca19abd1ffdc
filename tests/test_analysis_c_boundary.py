"""The analysis calls of the C core (pdd_best_discard, pdd_maxn_line,
pdd_canonical_suits, pdd_best_line_ordered, pdd_line_tricks, pdd_best_discard_many) answer
an error code for bad input, never crash."""
from __future__ import annotations

import pytest

from solver._core import ffi, lib

from c_positions import H0, H1, H2, c_position, solver  # noqa: F401  (solver: a fixture)

POOL = H1 | 0b11 << 24   # seat 1's clubs and a talon of 7h 8h


def position(**fields):
    """Seat 1 declares unless told otherwise."""
    fields.setdefault("declarer", 1)
    return c_position(**fields)


def best_discard(solver, p, pool=POOL, all_best=1):
    result = ffi.new("pdd_discard_result *")
    return lib.pdd_best_discard(solver, p, pool, all_best, result), result


def test_best_discard_answers(solver) -> None:
    code, result = best_discard(solver, position())
    assert code == lib.PDD_OK
    # Seat 0 leads a spade each time and takes all three tricks whatever is kept.
    assert (result.value, result.count) == (0, 10)
    assert [result.discards[i] for i in range(result.count)] == sorted(result.discards[i] for i in range(10))


@pytest.mark.parametrize("fields, pool, error", [
    ({}, H1, lib.PDD_ERR_HAND_SIZE),                        # 3 cards: one trick after the discard
    ({}, POOL | 1 << 28, lib.PDD_ERR_HAND_SIZE),            # 6 cards for 3-card hands
    ({}, 0xFFFF, lib.PDD_ERR_HAND_SIZE),
    ({}, H1 | 1 << 0 | 1 << 24, lib.PDD_ERR_DUPLICATE),     # holds a card of seat 0
    (dict(declarer=3), POOL, lib.PDD_ERR_SEAT),
    (dict(trump=9), POOL, lib.PDD_ERR_TRUMP),
    (dict(objective=5), POOL, lib.PDD_ERR_OBJECTIVE),
    (dict(trick_count=1, trick=[0], hands=[H0 & ~1, 0, H2]), POOL, lib.PDD_ERR_TRICK),
    (dict(talon_count=1, talon=[31]), POOL, lib.PDD_ERR_TALON),
    (dict(tricks_taken=1), POOL, lib.PDD_ERR_TRICKS_TAKEN),
])
def test_best_discard_errors(solver, fields, pool, error) -> None:
    code, _ = best_discard(solver, position(**fields), pool)
    assert code == error


def test_best_discard_null_pointers(solver) -> None:
    result = ffi.new("pdd_discard_result *")
    assert lib.pdd_best_discard(ffi.NULL, position(), POOL, 1, result) == lib.PDD_ERR_NULL
    assert lib.pdd_best_discard(solver, ffi.NULL, POOL, 1, result) == lib.PDD_ERR_NULL
    assert lib.pdd_best_discard(solver, position(), POOL, 1, ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_best_discard_floor(ffi.NULL, position(), POOL, 1, 2, result) == lib.PDD_ERR_NULL
    assert lib.pdd_best_discard_floor(solver, position(), POOL, 1, 2, ffi.NULL) == lib.PDD_ERR_NULL


def test_maxn_answers_and_errors(solver) -> None:
    result = ffi.new("pdd_maxn_result *")
    assert lib.pdd_maxn_line(solver, position(), result) == lib.PDD_OK
    assert list(result.tricks) == [3, 0, 0] and result.unclaimed == 0 and result.count == 9
    assert lib.pdd_maxn_line(solver, position(leader=5), result) == lib.PDD_ERR_SEAT
    assert lib.pdd_maxn_line(solver, position(hands=[H0, H0, H2]), result) == lib.PDD_ERR_DUPLICATE
    assert lib.pdd_maxn_line(solver, position(hands=[0, 0, 0]), result) == lib.PDD_ERR_NO_CARDS
    assert lib.pdd_maxn_line(solver, position(talon_count=1, talon=[40]), result) == lib.PDD_ERR_TALON
    assert lib.pdd_maxn_line(ffi.NULL, position(), result) == lib.PDD_ERR_NULL
    assert lib.pdd_maxn_line(solver, ffi.NULL, result) == lib.PDD_ERR_NULL
    assert lib.pdd_maxn_line(solver, position(), ffi.NULL) == lib.PDD_ERR_NULL


def test_best_discard_modes(solver) -> None:
    """PDD_DISCARD_CANONICAL answers one of the discards PDD_DISCARD_ALL
    lists, PDD_DISCARD_VALUE some of them, with the same value; a mode
    outside the four is an error."""
    code, every = best_discard(solver, position(), all_best=lib.PDD_DISCARD_ALL)
    assert code == lib.PDD_OK
    listed = [every.discards[i] for i in range(every.count)]
    code, first = best_discard(solver, position(), all_best=lib.PDD_DISCARD_CANONICAL)
    assert code == lib.PDD_OK and first.count == 1 and first.value == every.value
    assert first.discards[0] in listed
    code, some = best_discard(solver, position(), all_best=lib.PDD_DISCARD_VALUE)
    assert code == lib.PDD_OK and some.value == every.value and some.count >= 1
    assert {some.discards[i] for i in range(some.count)} <= set(listed)
    for mode in (4, -1, 2**31 - 1):
        assert best_discard(solver, position(), all_best=mode)[0] == lib.PDD_ERR_DISCARD_MODE
    # A floor above the value (0 here): some value below it, no discard; any
    # floor is accepted, a floor of 0 or less is no floor.
    for floor in (1, 3, 4, 2**31 - 1):
        result = ffi.new("pdd_discard_result *")
        assert lib.pdd_best_discard_floor(solver, position(), POOL, lib.PDD_DISCARD_VALUE, floor, result) == lib.PDD_OK
        assert 0 <= result.value < floor and result.count == 0
    for floor in (0, -5, -2**31):
        result = ffi.new("pdd_discard_result *")
        assert lib.pdd_best_discard_floor(solver, position(), POOL, lib.PDD_DISCARD_ALL, floor, result) == lib.PDD_OK
        assert (result.value, result.count) == (every.value, every.count)


def test_canonical_suits_and_ordered_lines_check_their_input(solver) -> None:
    suits = ffi.new("int32_t[4]")
    assert lib.pdd_canonical_suits(ffi.NULL, suits) == lib.PDD_ERR_NULL
    assert lib.pdd_canonical_suits(c_position(), ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_canonical_suits(c_position(trick_count=3), suits) == lib.PDD_ERR_TRICK
    assert lib.pdd_canonical_suits(c_position(trick_count=1, trick=[40]), suits) == lib.PDD_ERR_TRICK
    assert lib.pdd_canonical_suits(c_position(), suits) == lib.PDD_OK
    assert sorted(suits) == [0, 1, 2, 3]
    cards, count = ffi.new("int[30]"), ffi.new("int *")
    for order in ([0, 0, 1, 2], [0, 1, 2, 4], [-1, 0, 1, 2]):
        code = lib.pdd_best_line_ordered(solver, c_position(), -1, ffi.new("int32_t[4]", order), cards, count)
        assert code == lib.PDD_ERR_SUIT_ORDER
    assert lib.pdd_best_line_ordered(solver, c_position(), -1, ffi.NULL, cards, count) == lib.PDD_ERR_NULL
    assert lib.pdd_best_line_ordered(solver, c_position(), -1, suits, cards, count) == lib.PDD_OK
    tricks = ffi.new("int32_t[3]")
    for order in ([0, 0, 1, 2], [0, 1, 2, 4], [-1, 0, 1, 2]):
        code = lib.pdd_line_tricks(solver, c_position(), -1, ffi.new("int32_t[4]", order), tricks)
        assert code == lib.PDD_ERR_SUIT_ORDER
    assert lib.pdd_line_tricks(solver, c_position(), -1, ffi.NULL, tricks) == lib.PDD_ERR_NULL
    assert lib.pdd_line_tricks(solver, c_position(), -1, suits, ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_line_tricks(ffi.NULL, c_position(), -1, suits, tricks) == lib.PDD_ERR_NULL
    assert lib.pdd_line_tricks(solver, ffi.NULL, -1, suits, tricks) == lib.PDD_ERR_NULL
    assert lib.pdd_line_tricks(solver, c_position(hands=[0, 0, 0]), -1, suits, tricks) == lib.PDD_ERR_NO_CARDS
    # Talon tricks (all-pass) have no line of this kind; the tricks stay unwritten.
    tricks[0] = tricks[1] = tricks[2] = 7
    assert lib.pdd_line_tricks(solver, c_position(talon_count=1, talon=[31]), -1, suits, tricks) == lib.PDD_ERR_TALON
    assert list(tricks) == [7, 7, 7]
    # H0's spades win all three tricks: seat 0 leads and takes them.
    assert lib.pdd_line_tricks(solver, c_position(), 11, suits, tricks) == lib.PDD_OK
    assert list(tricks) == [3, 0, 0]


def discard_many(solvers, positions, pools, mode=lib.PDD_DISCARD_ONE):
    count = len(positions)
    array = ffi.new("pdd_position[]", max(count, 1))
    for i, p in enumerate(positions):
        array[i] = p[0]
    codes = ffi.new("int32_t[]", max(count, 1))
    results = ffi.new("pdd_discard_result[]", max(count, 1))
    handles = ffi.new("pdd_solver *[]", list(solvers))
    code = lib.pdd_best_discard_many(handles, len(solvers), array, ffi.new("uint32_t[]", list(pools) or [0]),
                                     count, mode, codes, results)
    return code, list(codes)[:count], results


def test_best_discard_many_answers_each_search_as_one_call(solver) -> None:
    """Refused searches answer their own code and the others go on; with one
    solver or three the answers are those of one pdd_best_discard each."""
    searches = [(position(), POOL), (position(declarer=3), POOL), (position(trump=0), POOL),
                (position(), H1), (position(objective=1), POOL)]
    expected = [best_discard(solver, p, pool, all_best=lib.PDD_DISCARD_ONE) for p, pool in searches]
    extra = [lib.pdd_new(1 << 20) for _ in range(2)]
    try:
        for solvers in ([solver], [solver, *extra]):
            code, codes, results = discard_many(solvers, [p for p, _ in searches], [pool for _, pool in searches])
            assert code == lib.PDD_OK
            assert codes == [c for c, _ in expected]
            assert codes[1] == lib.PDD_ERR_SEAT and codes[3] == lib.PDD_ERR_HAND_SIZE
            for i, (c, one) in enumerate(expected):
                if c == lib.PDD_OK:
                    got = results[i]
                    assert (got.value, got.classes, list(got.discards)[:got.count]) == \
                        (one.value, one.classes, list(one.discards)[:one.count])
    finally:
        for s in extra:
            lib.pdd_free(s)


def test_best_discard_many_checks_its_arguments(solver) -> None:
    other = lib.pdd_new(1 << 20)
    try:
        assert discard_many([solver, solver], [position()], [POOL])[0] == lib.PDD_ERR_SOLVERS
        assert discard_many([solver, other, solver], [position()], [POOL])[0] == lib.PDD_ERR_SOLVERS
        assert discard_many([], [position()], [POOL])[0] == lib.PDD_ERR_SOLVERS
        assert discard_many([solver, ffi.NULL], [position()], [POOL])[0] == lib.PDD_ERR_NULL
        assert discard_many([solver], [], [])[0] == lib.PDD_OK
        assert discard_many([solver], [position()], [POOL], mode=7)[1] == [lib.PDD_ERR_DISCARD_MODE]
    finally:
        lib.pdd_free(other)
    codes, results = ffi.new("int32_t[1]"), ffi.new("pdd_discard_result[1]")
    handles = ffi.new("pdd_solver *[]", [solver])
    p, pools = position(), ffi.new("uint32_t[1]", [POOL])
    call = lib.pdd_best_discard_many
    assert call(ffi.NULL, 1, p, pools, 1, 0, codes, results) == lib.PDD_ERR_NULL
    assert call(handles, 1, ffi.NULL, pools, 1, 0, codes, results) == lib.PDD_ERR_NULL
    assert call(handles, 1, p, ffi.NULL, 1, 0, codes, results) == lib.PDD_ERR_NULL
    assert call(handles, 1, p, pools, 1, 0, ffi.NULL, results) == lib.PDD_ERR_NULL
    assert call(handles, 1, p, pools, 1, 0, codes, ffi.NULL) == lib.PDD_ERR_NULL
    assert call(handles, 1, p, pools, -1, 0, codes, results) == lib.PDD_ERR_COUNT
    assert call(handles, 0, p, pools, 1, 0, codes, results) == lib.PDD_ERR_SOLVERS
    assert call(handles, lib.PDD_MAX_SOLVERS + 1, p, pools, 1, 0, codes, results) == lib.PDD_ERR_SOLVERS


def test_best_discard_many_stops(solver) -> None:
    """A stop requested on a solver: no search is answered but PDD_ERR_STOPPED."""
    lib.pdd_request_stop(solver)
    try:
        code, codes, _ = discard_many([solver], [position()] * 3, [POOL] * 3)
    finally:
        lib.pdd_clear_stop(solver)
    assert code == lib.PDD_ERR_STOPPED and codes == [lib.PDD_ERR_STOPPED] * 3


def shuffle_deal(key=(1,), cards=tuple(range(6)), sizes=(3, 3), masks=(0, 0), key_words=None, count=None, parts=None):
    out = ffi.new("uint32_t[]", list(masks) or [0])
    code = lib.pdd_shuffle_deal(ffi.new("uint32_t[]", list(key) or [0]), len(key) if key_words is None else key_words,
                                ffi.new("int32_t[]", list(cards) or [0]), len(cards) if count is None else count,
                                ffi.new("int32_t[]", list(sizes) or [0]), len(sizes) if parts is None else parts, out)
    return code, list(out)


@pytest.mark.parametrize("fields, error", [
    (dict(key_words=0), lib.PDD_ERR_COUNT),
    (dict(key=[1] * 65), lib.PDD_ERR_COUNT),
    (dict(count=-1), lib.PDD_ERR_COUNT),
    (dict(cards=range(33), sizes=(33,)), lib.PDD_ERR_COUNT),
    (dict(parts=0), lib.PDD_ERR_COUNT),
    (dict(sizes=[1] * 6, masks=[0] * 6, parts=9), lib.PDD_ERR_COUNT),
    (dict(sizes=(3, 2)), lib.PDD_ERR_COUNT),          # sizes add up to 5 of 6 cards
    (dict(sizes=(7, -1)), lib.PDD_ERR_COUNT),
    (dict(sizes=(-1, 7)), lib.PDD_ERR_COUNT),
    (dict(cards=(0, 1, 2, 3, 4, 4)), lib.PDD_ERR_DUPLICATE),
    (dict(cards=(0, 1, 2, 3, 4, 32)), lib.PDD_ERR_DUPLICATE),
    (dict(cards=(-1, 1, 2, 3, 4, 5)), lib.PDD_ERR_DUPLICATE),
])
def test_shuffle_deal_errors(fields, error) -> None:
    code, out = shuffle_deal(**fields)
    assert code == error
    assert not any(out)   # nothing dealt


def test_shuffle_deal_answers_and_null_pointers() -> None:
    code, out = shuffle_deal(masks=(1 << 31, 0))
    assert code == lib.PDD_OK
    assert out[0] >> 31 == 1 and bin(out[0] & 0x3F).count("1") == 3 and out[0] & 0x3F | out[1] == 0x3F
    code, out = shuffle_deal(cards=(), sizes=(0, 0))
    assert (code, out) == (lib.PDD_OK, [0, 0])
    key, cards, sizes, masks = (ffi.new("uint32_t[1]"), ffi.new("int32_t[2]", [0, 1]), ffi.new("int32_t[1]", [2]),
                                ffi.new("uint32_t[1]"))
    assert lib.pdd_shuffle_deal(ffi.NULL, 1, cards, 2, sizes, 1, masks) == lib.PDD_ERR_NULL
    assert lib.pdd_shuffle_deal(key, 1, ffi.NULL, 2, sizes, 1, masks) == lib.PDD_ERR_NULL
    assert lib.pdd_shuffle_deal(key, 1, cards, 2, ffi.NULL, 1, masks) == lib.PDD_ERR_NULL
    assert lib.pdd_shuffle_deal(key, 1, cards, 2, sizes, 1, ffi.NULL) == lib.PDD_ERR_NULL
    assert lib.pdd_shuffle_deal(key, 1, cards, 2, sizes, 1, masks) == lib.PDD_OK and masks[0] == 0b11
