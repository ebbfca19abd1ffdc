"""Properties of the scoring package (hypothesis):

* every deal's values add up to zero, and settlement balances add up to zero;
* over a whole game, the sum of single-deal values equals the final balance (§8.3),
  under every convention and random option overrides, for 3 and 4 players;
* help (and mountain write-off) is value-neutral (§8.3), as are the all-pass amnesty
  and ``made_game_writes = mountain_first``;
* money rounding keeps the sum at zero and moves each amount by less than one unit.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.scoring import (
    CONVENTIONS,
    AllPassOutcome,
    ContractOutcome,
    Convention,
    Decision,
    GiveUpOutcome,
    MisereOutcome,
    ScoreSheet,
    deal_value,
    get_convention,
    record_value,
    round_balances,
    route_pool_write,
    score_deal,
    settle,
)
from solver.scoring.outcome import Seating
from solver.scoring.records import Records

PROPERTY_SETTINGS = settings(max_examples=120, deadline=None, database=None)

# Option overrides any convention may take; each keeps the game well defined.
OVERRIDES: dict[str, list[Any]] = {
    "single_whist_split": ["greedy", "gentleman"],
    "gentleman_scope": ["on_remiz", "always"],
    "whist_responsibility": ["full", "half"],
    "pair_shortfall_rule": ["capped", "own_half"],
    "high_contract_liability": ["second_whister", "both_full", "split_half"],
    "ten_whisted": [False, True],
    "consolation_mode": ["whist_price", "fixed", "none"],
    "consolation_multiplier": [1, 2],
    "consolation_to_dealer_4p": [True, False],
    "consolation_on_misere": [False, True],
    "allpass_scoring": ["mountain", "rostov_whists"],
    "allpass_ladder": [[1, 2, 3], [1, 2, 4], [2, 4, 6], [1]],
    "allpass_amnesty": [False, True],
    "zero_bonus_kind": ["pool", "mountain_writeoff", "none"],
    "zero_bonus_trick_prices": [1, 2],
    "zero_bonus_exclude_dealer_4p": [False, True],
    "rostov_basis": ["absolute", "difference"],
    "allpass_dealer_4p": ["plays_talon", "sits_out_pool_bonus"],
    "progression_reset": ["any_non_allpass_deal", "made_contract", "whisted_made_contract"],
    "pool_end": ["each_closed", "sum_reached"],
    "help": [True, False],
    "help_excludes": [["dealer_4p", "failed_whister"], []],
    "help_tie_break": [["higher_pool", "lower_mountain", "nearest_clockwise_from_writer"],
                       ["nearest_clockwise_from_writer"]],
    "mountain_divisor": ["N", "N-1"],
    "made_game_writes": ["pool", "mountain_first"],
    "pool_point_mountain_equiv": [1, 2],
    "allow_giveup_without_three": [False, True],
    "returned_whist_allowed": [True, False],
    "dealer_whist_responsible": [True, False],
}


@st.composite
def conventions(draw: st.DrawFn) -> Convention:
    """A named convention, possibly with random overrides."""
    base = draw(st.sampled_from(sorted(CONVENTIONS)))
    keys = draw(st.lists(st.sampled_from(sorted(OVERRIDES)), max_size=6, unique=True))
    overrides = {key: draw(st.sampled_from(OVERRIDES[key])) for key in keys}
    return get_convention(base, overrides)


def split(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    """``total`` tricks split at random into ``parts`` whole numbers."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


@st.composite
def outcomes(draw: st.DrawFn, conv: Convention, players: tuple[str, ...], dealer: str | None):
    """A random valid deal outcome for this seating and convention."""
    seat = Seating(players, dealer)
    holders = seat.card_holders
    kinds = ["contract", "contract", "contract", "misere", "allpass", "allpass"]
    if conv.allow_giveup_without_three:
        kinds.append("giveup")
    kind = draw(st.sampled_from(kinds))
    if kind == "allpass":
        talon_owner = dealer is not None and conv.allpass_scoring == "mountain" \
            and conv.allpass_dealer_4p == "plays_talon"
        talon_tricks = draw(st.integers(0, 2)) if talon_owner else 0
        counts = dict(zip(holders, split(draw, 10 - talon_tricks, 3)))
        if talon_owner:
            counts[dealer] = talon_tricks  # type: ignore[index]
        return AllPassOutcome(players, counts, dealer)
    declarer = draw(st.sampled_from(holders))
    first, second = seat.defenders(declarer)
    if kind == "misere":
        return MisereOutcome(players, declarer, dict(zip((declarer, first, second), split(draw, 10, 3))), dealer)
    k = draw(st.integers(6, 10))
    if kind == "giveup":
        return GiveUpOutcome(players, declarer, k, dealer)
    scenarios = ["both_whist", "first_whists", "second_whists", "pass_pass"]
    if k in conv.half_whist_contracts:
        scenarios += ["half_whist"]
        if conv.returned_whist_allowed:
            scenarios += ["returned"]
    if dealer is not None and conv.dealer_may_whist_4p and (k < 10 or conv.ten_whisted):
        scenarios.append("dealer_whists")
    scenario = draw(st.sampled_from(scenarios))
    tricks = dict(zip((declarer, first, second), split(draw, 10, 3)))
    decisions: dict[str, Decision] = {first: Decision.PASS, second: Decision.PASS}
    returned_by = None
    if scenario == "both_whist":
        decisions = {first: Decision.WHIST, second: Decision.WHIST}
    elif scenario == "first_whists":
        decisions[first] = Decision.WHIST
    elif scenario == "second_whists":
        decisions[second] = Decision.WHIST
    elif scenario in ("half_whist", "returned"):
        half = draw(st.sampled_from((first, second)))
        decisions[half] = Decision.HALF_WHIST
        if scenario == "returned":
            returners = [first if half == second else second] + ([dealer] if dealer and conv.dealer_may_whist_4p
                                                                 else [])
            returned_by = draw(st.sampled_from(returners))
        else:
            tricks = {}
    elif scenario == "dealer_whists":
        decisions[dealer] = Decision.WHIST  # type: ignore[index]
    else:
        tricks = {} if (k < 10 or conv.ten_whisted or draw(st.booleans())) else tricks
    return ContractOutcome(players, declarer, k, decisions, tricks, dealer, returned_by)


SEATINGS = [("A", "B", "C"), ("Anna", "Boris", "Vera", "Gleb")]


@st.composite
def games(draw: st.DrawFn):
    conv = draw(conventions())
    players = draw(st.sampled_from(SEATINGS))
    pool_size = draw(st.integers(2, 12))
    deals = []
    for number in range(draw(st.integers(1, 25))):
        dealer = players[number % 4] if len(players) == 4 else None
        deals.append(draw(outcomes(conv, players, dealer)))
    return conv, players, pool_size, deals


@PROPERTY_SETTINGS
@given(games())
def test_sum_of_deal_values_is_the_final_balance(game):
    conv, players, pool_size, deals = game
    sheet = ScoreSheet(conv, players, pool_size)
    for outcome in deals:
        if sheet.is_over():
            break
        entry = sheet.add(outcome)
        assert sum(entry.value.values()) == 0
    balance = sheet.settle().balance
    assert sum(balance.values()) == 0
    assert sheet.values_sum() == balance


@PROPERTY_SETTINGS
@given(st.data())
def test_deal_values_add_up_to_zero(data):
    conv = data.draw(conventions())
    players = data.draw(st.sampled_from(SEATINGS))
    dealer = players[3] if len(players) == 4 else None
    outcome = data.draw(outcomes(conv, players, dealer))
    values = deal_value(conv, outcome)
    assert set(values) == set(players)
    assert sum(values.values()) == 0


@st.composite
def records(draw: st.DrawFn, players: tuple[str, ...]) -> Records:
    amounts = st.integers(0, 60).map(Fraction)
    result = Records(players, {p: draw(amounts) for p in players},
                     {p: draw(st.integers(-10, 80).map(Fraction)) for p in players})
    for writer in players:
        for target in players:
            if writer != target:
                result.write_whists(writer, target, draw(st.integers(0, 200).map(Fraction)))
    return result


@PROPERTY_SETTINGS
@given(st.data())
def test_settlement_balances_add_up_to_zero_and_match_the_pairwise_nets(data):
    conv = data.draw(conventions())
    players = data.draw(st.sampled_from(SEATINGS))
    final = data.draw(records(players))
    result = settle(conv, final, Fraction(data.draw(st.integers(1, 60))))
    assert sum(result.balance.values()) == 0
    for player in players:
        owed = sum((n.amount for n in result.pairwise_net if n.creditor == player), Fraction(0))
        owing = sum((n.amount for n in result.pairwise_net if n.debtor == player), Fraction(0))
        assert result.balance[player] == owed - owing


@PROPERTY_SETTINGS
@given(st.data())
def test_help_is_value_neutral(data):
    base = data.draw(st.sampled_from(sorted(CONVENTIONS)))
    conv = get_convention(base, {"help": True, "pool_end": "each_closed",
                                 "made_game_writes": data.draw(st.sampled_from(["pool", "mountain_first"]))})
    players = data.draw(st.sampled_from(SEATINGS))
    n = len(players)
    conv = conv.with_options({"help_whists_per_point": conv.pool_coefficient(n)})
    size = Fraction(data.draw(st.integers(1, 20)))
    state = Records(players, {p: Fraction(data.draw(st.integers(0, int(size)))) for p in players},
                    {p: Fraction(data.draw(st.integers(-5, 30))) for p in players})
    writer = data.draw(st.sampled_from(players))
    points = Fraction(data.draw(st.integers(0, 25)))
    excluded = data.draw(st.lists(st.sampled_from(players), max_size=2))
    routed = route_pool_write(conv, Seating(players, None), state, size, writer, points, excluded,
                              made_game=data.draw(st.booleans()))
    direct = Records(players, {writer: points})
    assert record_value(conv, routed) == record_value(conv, direct)
    # The routed write never overfills a pool.
    for player in players:
        assert state.pool[player] + routed.pool[player] <= max(size, state.pool[player])


def test_help_is_not_value_neutral_with_divisor_n_minus_1():
    """§8.3: with mountain_divisor = N-1, help at 10 whists per point is not neutral."""
    conv = get_convention("sochi", {"mountain_divisor": "N-1"})
    players = ("A", "B", "C")
    state = Records(players, {"A": Fraction(10), "B": Fraction(5), "C": Fraction(5)})
    routed = route_pool_write(conv, Seating(players, None), state, Fraction(10), "A", Fraction(2))
    assert routed.pool["B"] == 2 and routed.whists[("A", "B")] == 20
    assert record_value(conv, routed) != record_value(conv, Records(players, {"A": Fraction(2)}))


@PROPERTY_SETTINGS
@given(st.data())
def test_allpass_amnesty_is_value_neutral(data):
    base = data.draw(st.sampled_from(["sochi", "leningrad"]))
    players = data.draw(st.sampled_from(SEATINGS))
    plain = get_convention(base)
    dealer = players[3] if len(players) == 4 else None
    outcome = data.draw(outcomes(plain, players, dealer).filter(lambda o: isinstance(o, AllPassOutcome)))
    amnesty = plain.with_options({"allpass_amnesty": True})
    assert deal_value(amnesty, outcome) == deal_value(plain, outcome)
    taken = score_deal(amnesty, outcome).records.mountain
    assert min(taken[p] for p in outcome.tricks) <= 0


@PROPERTY_SETTINGS
@given(st.dictionaries(st.sampled_from(["A", "B", "C", "D"]), st.fractions(max_denominator=12), min_size=2),
       st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(5)]))
def test_rounding_keeps_zero_sum(raw, unit):
    names = sorted(raw)
    balances = dict(raw)
    balances[names[-1]] = -sum((raw[p] for p in names[:-1]), Fraction(0))
    rounded = round_balances(balances, unit)
    assert sum(rounded.values()) == 0
    for player, value in balances.items():
        assert abs(rounded[player] - value) < unit
        assert (rounded[player] / unit).denominator == 1
