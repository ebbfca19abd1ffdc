"""Every validation error of the scoring package: an impossible or malformed input
raises ScoringError (a ValueError) whose message names the problem; through the JSON
layer a bad request never raises anything else."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.scoring import (
    LENINGRAD,
    SOCHI,
    AllPassOutcome,
    ContractOutcome,
    Decision,
    MisereOutcome,
    ScoreSheet,
    ScoringError,
    decide_whist,
    expected_value,
    get_convention,
    handle_request,
    round_balances,
    score_deal,
    settle,
    write_with_help,
)
from solver.scoring.records import Records
from solver.scoring.sheet import AllPassProgression, ProgressionEvent

ABC = ("A", "B", "C")
ABCD = ("A", "B", "C", "D")


def contract(**changes: Any) -> dict[str, Any]:
    """A valid Sochi 6 by A, B and C whisting, 6-2-2; changed by ``changes``."""
    base: dict[str, Any] = {"type": "contract", "players": list(ABC), "dealer": None, "declarer": "A",
                            "contract": 6, "defenders": ["B", "C"],
                            "decisions": {"B": "whist", "C": "whist"},
                            "tricks": {"A": 6, "B": 2, "C": 2}, "returned_by": None}
    base.update(changes)
    return base


def four(**changes: Any) -> dict[str, Any]:
    """The same contract at a 4-player table, D dealing."""
    return contract(**{"players": list(ABCD), "dealer": "D", **changes})


def request(kind: str, data: Any, convention: str = "sochi", **overrides: Any) -> dict[str, Any]:
    return {"convention": convention, "option_overrides": overrides, "kind": kind, "input": data}


def deal(data: dict[str, Any], convention: str = "sochi", **overrides: Any) -> dict[str, Any]:
    return request("deal", data, convention, **overrides)


SETTLEMENT = {"pool": {"A": 10, "B": 10, "C": 10}, "mountain": {"A": 2, "B": 5, "C": 8}, "whists": [],
              "pool_size": 10}
HELP = {"pool_before": {"A": 10, "B": 8, "C": 5}, "mountain_before": {"A": 0, "B": 0, "C": 0}, "pool_size": 10,
        "writer": "A", "points": 2, "excluded_from_help": [], "seat_order_clockwise": list(ABC)}
EV = {"declarer": "A", "contract": 6, "first_defender_B": "pass", "decider": "C",
      "defence_trick_distribution_if_whist": {"2": "1/2", "4": "1/2"}}
ALLPASS = {"type": "allpass", "players": list(ABC), "dealer": None, "allpass_index": 1,
           "tricks": {"A": 2, "B": 3, "C": 5}}
MISERE = {"type": "misere", "players": list(ABC), "dealer": None, "declarer": "A",
          "tricks": {"A": 0, "B": 5, "C": 5}}


def changed(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    result = copy.deepcopy(base)
    result.update(changes)
    return result


def without(base: dict[str, Any], key: str) -> dict[str, Any]:
    result = copy.deepcopy(base)
    del result[key]
    return result


# (request, words the message must contain)
REQUEST_ERRORS: list[tuple[str, dict[str, Any], list[str]]] = [
    # -- the four examples
    ("tricks not adding to 10", deal(contract(tricks={"A": 6, "B": 2, "C": 1})), ["add up to 9", "not 10"]),
    ("half-whist on an 8", deal(contract(contract=8, decisions={"B": "pass", "C": "half_whist"}, tricks={})),
     ["'C'", "half-whists on a 8"]),
    ("return without half-whist", deal(contract(decisions={"B": "pass", "C": "whist"}, returned_by="B")),
     ["returned_by 'B'", "only after a half-whist"]),
    ("unknown declarer", deal(contract(declarer="Z")), ["declarer", "unknown player 'Z'"]),
    ("unknown player in tricks", deal(contract(tricks={"A": 6, "B": 2, "Z": 2})), ["tricks", "'Z'"]),
    ("unknown player in decisions", deal(contract(decisions={"B": "whist", "Z": "whist"})), ["decisions", "'Z'"]),
    # -- players and seating
    ("two players", deal(contract(players=["A", "B"])), ["3 or 4 players"]),
    ("players not a list", deal(contract(players="ABC")), ["players", "list"]),
    ("duplicate player", deal(contract(players=["A", "B", "A"])), ["appears twice"]),
    ("unknown dealer", deal(four(dealer="Q")), ["dealer", "'Q'"]),
    ("4 players without dealer", deal(four(dealer=None)), ["dealer", "4-player"]),
    ("dealer declares", deal(four(declarer="D")), ["'D'", "dealer", "sits out"]),
    ("defenders out of order", deal(contract(defenders=["C", "B"])), ["defenders", "speaking order"]),
    ("defenders malformed", deal(contract(defenders=["B"])), ["defenders"]),
    # -- contract and decisions
    ("contract 5", deal(contract(contract=5)), ["contract 6..10", "5"]),
    ("contract text", deal(contract(contract="11x")), ["contract", "'11x'"]),
    ("bad decision word", deal(contract(decisions={"B": "double", "C": "whist"})), ["decision of 'B'", "double"]),
    ("decisions not an object", deal(contract(decisions=["whist"])), ["decisions", "object"]),
    ("missing decision", deal(contract(decisions={"B": "whist"})), ["decision of defender 'C' missing"]),
    ("declarer decides", deal(contract(decisions={"A": "pass", "B": "whist", "C": "whist"})),
     ["'A' is the declarer"]),
    ("both half-whist", deal(contract(decisions={"B": "half_whist", "C": "half_whist"}, tricks={})),
     ["both defenders half-whist"]),
    ("half-whist after a whist", deal(contract(decisions={"B": "whist", "C": "half_whist"})),
     ["'C' half-whists", "'B' did not pass"]),
    ("half-whist disabled for 7", deal(contract(contract=7, decisions={"B": "pass", "C": "half_whist"}, tricks={}),
                                       half_whist_contracts=[6]), ["half-whists on a 7"]),
    ("half-whist unplayed with tricks", deal(contract(decisions={"B": "pass", "C": "half_whist"})),
     ["tricks given", "not played", "'C' half-whisted"]),
    ("return by the half-whister", deal(contract(decisions={"B": "pass", "C": "half_whist"}, returned_by="C")),
     ["returned_by 'C'", "only the defender who passed ('B')"]),
    ("return by unknown player", deal(contract(decisions={"B": "pass", "C": "half_whist"}, returned_by="Z")),
     ["returned_by", "unknown player 'Z'"]),
    ("return disabled", deal(contract(decisions={"B": "pass", "C": "half_whist"}, returned_by="B"),
                             returned_whist_allowed=False), ["returned_whist_allowed"]),
    ("dealer return disabled", deal(four(decisions={"B": "pass", "C": "half_whist"}, returned_by="D"),
                                    dealer_may_whist_4p=False), ["returned_by 'D'", "dealer_may_whist_4p"]),
    ("dealer half-whists", deal(four(decisions={"B": "pass", "C": "pass", "D": "half_whist"})),
     ["dealer 'D' cannot half-whist"]),
    ("dealer whists after a whist", deal(four(decisions={"B": "whist", "C": "pass", "D": "whist"})),
     ["dealer 'D' may whist only after both defenders passed"]),
    ("dealer whist disabled", deal(four(decisions={"B": "pass", "C": "pass", "D": "whist"}),
                                   dealer_may_whist_4p=False), ["dealer 'D' may not whist"]),
    ("dealer whists a checked 10", deal(four(contract=10, decisions={"B": "pass", "C": "pass", "D": "whist"},
                                             tricks={"A": 10, "B": 0, "C": 0})), ["cannot whist a 10"]),
    ("dealer given tricks", deal(four(tricks={"A": 6, "B": 2, "C": 1, "D": 1})),
     ["'D' holds no cards", "tricks"]),
    ("Stalingrad pass", deal(contract(strain="s", decisions={"B": "pass", "C": "whist"}, tricks={"A": 6, "B": 0,
                                                                                                 "C": 4}),
                             stalingrad=True), ["Stalingrad", "'B' said 'pass'"]),
    ("talon bonus without the option", deal(contract(talon_fast_tricks=1)), ["talon_bonus is off"]),
    ("talon bonus out of range", deal(contract(talon_fast_tricks=4), talon_bonus=True), ["talon_fast_tricks", "0..3"]),
    # -- tricks
    ("tricks missing on a played deal", deal(contract(tricks={})), ["tricks missing", "the 6 was played"]),
    ("tricks of a defender missing", deal(contract(tricks={"A": 8, "B": 2})), ["tricks of 'C' missing"]),
    ("negative tricks", deal(contract(tricks={"A": 8, "B": -2, "C": 4})), ["tricks of 'B'", "-2"]),
    ("fractional tricks", deal(contract(tricks={"A": 6, "B": 2.5, "C": 1.5})), ["tricks of 'B'", "2.5"]),
    ("tricks not an object", deal(contract(tricks=[6, 2, 2])), ["tricks", "object"]),
    ("tricks on a pass-pass", deal(contract(decisions={"B": "pass", "C": "pass"})),
     ["tricks given", "nobody whisted"]),
    ("tricks on a checked 10 given as stood", deal(contract(contract=10, decisions={"B": "pass", "C": "pass"},
                                                            tricks={"A": 9, "B": 0, "C": 0})),
     ["add up to 9"]),
    # -- misère, all-pass, give-up, talon bonus
    ("misère tricks short", deal(changed(MISERE, tricks={"A": 1, "B": 5, "C": 5})), ["misère", "add up to 11"]),
    ("misère declarer unknown", deal(changed(MISERE, declarer="Z")), ["declarer", "'Z'"]),
    ("misère tricks missing", deal(without(MISERE, "tricks")), ["misere deal", "'tricks' missing"]),
    ("all-pass total 9", deal(changed(ALLPASS, tricks={"A": 2, "B": 3, "C": 4})), ["all-pass", "add up to 9"]),
    ("4-player all-pass total 11", deal(changed(ALLPASS, players=list(ABCD), dealer="D",
                                                tricks={"A": 2, "B": 3, "C": 4, "D": 2})), ["add up to 11"]),
    ("Rostov all-pass total 9", deal(changed(ALLPASS, tricks={"A": 2, "B": 3, "C": 4}), "rostov"),
     ["all-pass", "add up to 9", "not 10"]),
    ("all-pass player missing", deal(changed(ALLPASS, tricks={"A": 5, "B": 5})), ["tricks of 'C' missing"]),
    ("all-pass dealer 3 tricks", deal(changed(ALLPASS, players=list(ABCD), dealer="D",
                                              tricks={"A": 2, "B": 3, "C": 2, "D": 3})),
     ["dealer 'D'", "at most the 2 talon tricks"]),
    ("Rostov all-pass dealer tricks", deal(changed(ALLPASS, players=list(ABCD), dealer="D",
                                                   tricks={"A": 2, "B": 3, "C": 4, "D": 1}), "rostov"),
     ["'D' holds no cards"]),
    ("all-pass index 0", deal(changed(ALLPASS, allpass_index=0)), ["allpass_index", "0"]),
    ("give-up not allowed", deal({"type": "giveup", "players": list(ABC), "declarer": "A", "contract": 8}),
     ["allow_giveup_without_three"]),
    ("give-up contract 11", deal({"type": "giveup", "players": list(ABC), "declarer": "A", "contract": 11},
                                 allow_giveup_without_three=True), ["contract 6..10", "11"]),
    ("talon bonus 3-player needs fields", deal({"type": "talon_bonus", "players": list(ABC), "declarer": "A",
                                                "contract": 9}), ["'talon_fast_tricks' missing"]),
    # -- deal JSON form
    ("deal type unknown", deal({"type": "poker", "players": list(ABC)}), ["deal type 'poker'"]),
    ("deal field unknown", deal(contract(trump="s")), ["unknown field 'trump'"]),
    ("deal type missing", deal(without(contract(), "type")), ["'type' missing"]),
    ("deal players missing", deal(without(contract(), "players")), ["'players' missing"]),
    ("deal not an object", deal([1, 2]), ["input", "object"]),  # type: ignore[arg-type]
    # -- conventions and options
    ("unknown convention", deal(contract(), "moscow"), ["unknown convention 'moscow'"]),
    ("unknown option", deal(contract(), whist_factor=2), ["unknown option 'whist_factor'"]),
    ("bad choice", deal(contract(), single_whist_split="polite"), ["single_whist_split", "'polite'"]),
    ("bool option not bool", deal(contract(), help="yes"), ["'help'", "true or false"]),
    ("number option text", deal(contract(), whist_trick_factor="two"), ["whist_trick_factor", "number"]),
    ("number option bool", deal(contract(), whist_trick_factor=True), ["whist_trick_factor", "number"]),
    ("number option zero", deal(contract(), whist_trick_factor=0), ["whist_trick_factor", "> 0"]),
    ("number option negative", deal(contract(), consolation_fixed=-1), ["consolation_fixed", ">= 0"]),
    ("half-whist on 8 option", deal(contract(), half_whist_contracts=[6, 8]), ["half_whist_contracts", "6 and 7"]),
    ("half-whist option not list", deal(contract(), half_whist_contracts=6), ["half_whist_contracts", "list"]),
    ("half-whist option not ints", deal(contract(), half_whist_contracts=["6"]), ["whole numbers"]),
    ("empty ladder", deal(contract(), allpass_ladder=[]), ["allpass_ladder", "at least one price"]),
    ("exit ladder 11", deal(contract(), exit_min_contract_ladder=[6, 11]), ["exit_min_contract_ladder"]),
    ("help exclusion unknown", deal(contract(), help_excludes=["declarer"]), ["help_excludes", "'declarer'"]),
    ("help tie break unknown", deal(contract(), help_tie_break=["coin"]), ["help_tie_break"]),
    ("overrides not an object", {"convention": "sochi", "option_overrides": ["x"], "kind": "deal",
                                 "input": contract()}, ["option_overrides", "object"]),
    # -- requests
    ("request not an object", [1], ["request", "object"]),  # type: ignore[list-item]
    ("kind unknown", request("bridge", contract()), ["kind 'bridge'"]),
    ("kind missing", {"convention": "sochi", "input": contract()}, ["'kind' missing"]),
    ("input missing", {"convention": "sochi", "kind": "deal"}, ["'input' missing"]),
    # -- settlement
    ("settlement unknown player", request("settlement", changed(SETTLEMENT, mountain={"A": 1, "Z": 2})),
     ["mountain", "'Z'"]),
    ("settlement whist on self", request("settlement", changed(SETTLEMENT, whists=[
        {"writer": "A", "target": "A", "amount": 5}])), ["'A' cannot write whists on himself"]),
    ("settlement whist unknown target", request("settlement", changed(SETTLEMENT, whists=[
        {"writer": "A", "target": "Q", "amount": 5}])), ["unknown target 'Q'"]),
    ("settlement whist amount missing", request("settlement", changed(SETTLEMENT, whists=[
        {"writer": "A", "target": "B"}])), ["'amount' missing"]),
    ("settlement bad number", request("settlement", changed(SETTLEMENT, pool={"A": "ten", "B": 10, "C": 10})),
     ["pool of 'A'", "'ten'"]),
    ("settlement whists not a list", request("settlement", changed(SETTLEMENT, whists={"A": 1})),
     ["whists", "list"]),
    ("settlement without pool size", request("settlement", without(SETTLEMENT, "pool_size")),
     ["pool_size", "needed"]),
    # -- help
    ("help writer unknown", request("pool_write_with_help", changed(HELP, writer="Z")), ["unknown player 'Z'"]),
    ("help negative points", request("pool_write_with_help", changed(HELP, points=-2)), ["points", "-2"]),
    ("help zero pool size", request("pool_write_with_help", changed(HELP, pool_size=0)), ["pool_size"]),
    ("help excluded unknown", request("pool_write_with_help", changed(HELP, excluded_from_help=["Q"])), ["'Q'"]),
    # -- progression
    ("progression unknown event", request("allpass_progression", {"events": [{"type": "bridge"}]}),
     ["unknown type 'bridge'"]),
    ("progression flag not bool", request("allpass_progression", {"events": [{"type": "contract", "made": "y"}]}),
     ["'made'", "true or false"]),
    ("progression events not list", request("allpass_progression", {"events": {}}), ["events", "list"]),
    # -- mini pool
    ("mini pool bad deal", request("mini_pool", {"pool_size": 6, "deals": [contract(tricks={"A": 9})]}),
     ["deal 1:", "tricks of 'B' missing"]),
    ("mini pool no deals", request("mini_pool", {"pool_size": 6, "deals": []}), ["players"]),
    # -- EV decision
    ("EV probabilities", request("ev_decision", changed(EV, defence_trick_distribution_if_whist={"2": "1/2"})),
     ["probabilities add up to 1/2"]),
    ("EV negative probability", request("ev_decision", changed(
        EV, defence_trick_distribution_if_whist={"2": "-1/2", "4": "3/2"})), ["negative probability"]),
    ("EV tricks key", request("ev_decision", changed(EV, defence_trick_distribution_if_whist={"x": 1})),
     ["defence tricks 'x'"]),
    ("EV tricks 11", request("ev_decision", changed(EV, defence_trick_distribution_if_whist={"11": 1})),
     ["bad defence tricks 11"]),
    ("EV empty distribution", request("ev_decision", changed(EV, defence_trick_distribution_if_whist={})),
     ["non-empty"]),
    ("EV no first defender", request("ev_decision", without(EV, "first_defender_B")), ["first_defender_<name>"]),
    ("EV wrong other", request("ev_decision", {**without(EV, "first_defender_B"), "first_defender_A": "pass"}),
     ["'A' is not the other defender"]),
    ("EV decider is declarer", request("ev_decision", changed(EV, decider="A")), ["decider 'A' is the declarer"]),
    ("EV other half-whisted", request("ev_decision", changed(EV, first_defender_B="half_whist")),
     ["other defender 'B'", "'pass' or 'whist'"]),
    ("EV split needed", request("ev_decision", changed(EV, first_defender_B="whist")),
     ["with two whisters give (decider's, other's) tricks"]),
]


@pytest.mark.parametrize("case,payload,words", [pytest.param(*c, id=c[0]) for c in REQUEST_ERRORS])
def test_bad_request_names_the_problem(case, payload, words):
    with pytest.raises(ScoringError) as info:
        handle_request(payload)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value), (case, str(info.value))


# ---- errors of the typed API that the JSON form cannot reach ----------------------

def sheet(convention=SOCHI, size=10) -> ScoreSheet:
    return ScoreSheet(convention, ABC, size)


def allpass(index=None, tricks=(3, 3, 4)) -> AllPassOutcome:
    return AllPassOutcome(ABC, dict(zip(ABC, tricks)), None, index)


def made_ten(declarer="A") -> ContractOutcome:
    return ContractOutcome(ABC, declarer, 10, {p: Decision.PASS for p in ABC if p != declarer})


def add_all(target: ScoreSheet, *outcomes) -> None:
    for outcome in outcomes:
        target.add(outcome)


API_ERRORS: list[tuple[str, Callable[[], object], list[str]]] = [
    ("not an outcome", lambda: score_deal(SOCHI, object()), ["not a deal outcome"]),  # type: ignore[arg-type]
    ("sheet pool size", lambda: ScoreSheet(SOCHI, ABC, 0), ["pool_size", "positive"]),
    ("sheet pool size missing", lambda: ScoreSheet(SOCHI, ABC), ["pool_size", "None"]),
    ("sheet players", lambda: ScoreSheet(SOCHI, ("A", "B")), ["3 or 4 players"]),
    ("sheet other players", lambda: sheet().add(AllPassOutcome(("A", "B", "X"), {"A": 3, "B": 3, "X": 4})),
     ["players", "the sheet has"]),
    ("sheet all-pass index", lambda: sheet().add(allpass(index=2)), ["allpass_index: 2", "number 1"]),
    ("sheet game over", lambda: add_all(sheet(size=10), made_ten("A"), made_ten("B"), made_ten("C"),
                                        made_ten("A")), ["game is over", "after deal 3"]),
    ("sheet below exit ladder", lambda: add_all(sheet(SOCHI.with_options({"exit_min_contract_ladder": [6, 7]})),
                                                allpass(), ContractOutcome(ABC, "A", 6, {"B": "pass", "C": "pass"})),
     ["contract: 6 is below the minimum 7", "after 1 all-pass"]),
    ("sheet misère below exit ladder",
     lambda: add_all(sheet(SOCHI.with_options({"exit_min_contract_ladder": [6, 9]})), allpass(),
                     MisereOutcome(ABC, "A", {"A": 0, "B": 5, "C": 5})), ["misère is below the minimum contract 9"]),
    ("progression event", lambda: AllPassProgression(SOCHI).record(ProgressionEvent("poker")),
     ["unknown type 'poker'"]),
    ("rounding unit", lambda: round_balances({"A": Fraction(1), "B": Fraction(-1)}, Fraction(0)), ["unit"]),
    ("rounding not zero-sum", lambda: round_balances({"A": Fraction(1), "B": Fraction(0)}), ["add up to zero"]),
    ("settle without pool size", lambda: settle(SOCHI, Records(ABC), None), ["pool_size"]),
    ("expected value probabilities", lambda: expected_value(SOCHI, [(Fraction(1, 2), made_ten())]),
     ["add up to 1/2"]),
    ("expected value negative", lambda: expected_value(SOCHI, [(Fraction(-1), made_ten()), (Fraction(2), made_ten())]),
     ["negative"]),
    ("decide bad probability", lambda: decide_whist(SOCHI, players=ABC, declarer="A", contract=6, decider="C",
                                                    other_decision="pass",
                                                    defence_tricks_if_whist={4: "half"}),  # type: ignore[dict-item]
     ["bad probability 'half'"]),
    ("lottery bad probability", lambda: expected_value(SOCHI, [(None, made_ten())]),  # type: ignore[list-item]
     ["lottery", "bad probability None"]),
    ("decide unknown decider", lambda: decide_whist(SOCHI, players=ABC, declarer="A", contract=6, decider="Z",
                                                    other_decision="pass", defence_tricks_if_whist={4: 1}),
     ["decider", "unknown player 'Z'"]),
    ("decide other says nonsense", lambda: decide_whist(SOCHI, players=ABC, declarer="A", contract=6, decider="C",
                                                        other_decision="maybe", defence_tricks_if_whist={4: 1}),
     ["'maybe'"]),
    ("write with help writer", lambda: write_with_help(SOCHI, ABC, {}, {}, Fraction(10), "Z", Fraction(1)),
     ["unknown player 'Z'"]),
    ("option with_options", lambda: LENINGRAD.with_options({"pool_end": "never"}), ["pool_end", "'never'"]),
    ("convention name type", lambda: get_convention(7), ["unknown convention 7"]),  # type: ignore[arg-type]
    ("option ladder text", lambda: SOCHI.with_options({"allpass_ladder": "123"}), ["allpass_ladder", "list"]),
    ("option pool size", lambda: SOCHI.with_options({"pool_size_per_player": 0}), ["pool_size_per_player"]),
    ("option tie break twice", lambda: SOCHI.with_options({"help_tie_break": ["higher_pool", "higher_pool"]}),
     ["distinct"]),
]


@pytest.mark.parametrize("case,call,words", [pytest.param(*c, id=c[0]) for c in API_ERRORS])
def test_bad_api_call_names_the_problem(case, call, words):
    with pytest.raises(ScoringError) as info:
        call()
    for word in words:
        assert word in str(info.value), (case, str(info.value))


def test_sheet_left_unchanged_by_a_refused_deal():
    target = sheet()
    target.add(allpass())
    before = target.totals.copy()
    with pytest.raises(ScoringError):
        target.add(ContractOutcome(ABC, "A", 6, {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 1}))
    assert target.totals == before and len(target.entries) == 1
    assert target.progression.next_index() == 2


# ---- no bad request escapes as anything but ScoringError ------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-12, 12) | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(["A", "B", "C", "D", "Z", "", "whist", "pass", "half_whist", "1/0", "6s", "x", "nan"])
    # Absurd numbers: refused by their size before any arithmetic (solver/scoring/numbers.py).
    | st.integers(-10**40, 10**40) | st.sampled_from(["1e10000000", "-1e99999", "1_0e9_999", "1/" + "3" * 30]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["A", "B", "C", "type", "x"]),
                                                                 inner, max_size=3),
    max_leaves=6,
)
BASE_REQUESTS = [deal(contract()), deal(four(decisions={"B": "pass", "C": "half_whist"}, returned_by="D")),
                 deal(ALLPASS), deal(MISERE), request("settlement", SETTLEMENT),
                 request("pool_write_with_help", HELP), request("ev_decision", EV),
                 request("allpass_progression", {"events": [{"type": "allpass"}, {"type": "contract", "made": True}]}),
                 request("mini_pool", {"pool_size": 4, "deals": [contract(), ALLPASS]})]


@settings(max_examples=250, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(BASE_REQUESTS), path_choice=st.integers(0, 1000), value=JSON_VALUES)
def test_mutated_requests_raise_only_scoring_errors(base, path_choice, value):
    mutated = copy.deepcopy(base)
    # Pick one field at any depth of the input and replace it.
    slots: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                slots.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                slots.append((node, index))
                walk(node[index])

    walk(mutated)
    container, key = slots[path_choice % len(slots)]
    container[key] = value
    try:
        answer = handle_request(json.loads(json.dumps(mutated)))
    except ScoringError as error:
        assert str(error)
    else:
        assert isinstance(answer, dict)
        json.dumps(answer)
