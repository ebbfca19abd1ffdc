"""Every scoring vector of ../shared/data/scoring-vectors.json, through the typed API,
through the JSON request layer, and through the ``score`` command in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from solver.scoring import (
    CONVENTIONS,
    Decision,
    Records,
    ScoreSheet,
    decide_whist,
    get_convention,
    handle_request,
    option_names,
    outcome_from_json,
    record_value,
    score_deal,
    settle,
    write_with_help,
)
from solver.scoring.sheet import AllPassProgression, ProgressionEvent

REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
VECTOR_FILE = DATA / "scoring-vectors.json"

if not VECTOR_FILE.exists():
    pytest.skip(f"scoring vectors not found at {VECTOR_FILE} (the shared data folder is absent)",
                allow_module_level=True)

VECTOR_DOC = json.loads(VECTOR_FILE.read_text(encoding="utf-8"))
VECTORS: list[dict[str, Any]] = VECTOR_DOC["vectors"]


def by_kind(kind: str) -> list[Any]:
    return [pytest.param(v, id=v["id"]) for v in VECTORS if v["kind"] == kind]


def convention_of(vector: dict[str, Any]):
    return get_convention(vector["convention"], vector.get("option_overrides") or {})


def expected_records(expected: dict[str, Any], players: list[str]) -> Records:
    records = Records(tuple(players),
                      {p: Fraction(str(v)) for p, v in expected["pool"].items()},
                      {p: Fraction(str(v)) for p, v in expected["mountain"].items()})
    for item in expected["whists"]:
        records.write_whists(item["writer"], item["target"], Fraction(str(item["amount"])))
    return records


def same_records(actual: Records, expected: Records) -> None:
    assert actual.pool == expected.pool
    assert actual.mountain == expected.mountain
    assert actual.whists == expected.whists


def fractions(obj: dict[str, str]) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in obj.items()}


def test_vector_file_is_complete():
    kinds = {v["kind"] for v in VECTORS}
    assert kinds == {"deal", "settlement", "pool_write_with_help", "allpass_progression", "mini_pool",
                     "ev_decision"}
    assert len({v["id"] for v in VECTORS}) == len(VECTORS) >= 60


@pytest.mark.parametrize("name", sorted(VECTOR_DOC["conventions"]))
def test_convention_defaults_match_vector_file(name):
    published = VECTOR_DOC["conventions"][name]
    assert set(published) == set(option_names())
    mine = CONVENTIONS[name].options()
    for option, value in published.items():
        got = list(mine[option]) if isinstance(mine[option], tuple) else mine[option]
        assert got == value, option


@pytest.mark.parametrize("vector", [pytest.param(v, id=v["id"]) for v in VECTORS])
def test_request_layer_reproduces_expected(vector):
    assert handle_request(vector) == vector["expected"]


@pytest.mark.parametrize("vector", [pytest.param(v, id=v["id"]) for v in VECTORS if v.get("source_stated")])
def test_numbers_stated_by_sources(vector):
    answer = handle_request(vector)
    records = answer.get("records")
    for key, stated in vector["source_stated"].items():
        what, _, who = key.partition(":")
        if what in ("pool", "mountain"):
            assert Fraction(str(records[what][who])) == Fraction(str(stated)), key
        elif what == "w":
            writer, target = who.split(">")
            amount = sum(Fraction(str(w["amount"])) for w in records["whists"]
                         if w["writer"] == writer and w["target"] == target)
            assert amount == Fraction(str(stated)), key
        elif what == "value":
            assert Fraction(answer["deal_value"][who]) == Fraction(stated), key
        else:
            assert what == "final_balance"
            assert Fraction(answer["final_balance"][who]) == Fraction(stated), key


# ---- the typed API, kind by kind --------------------------------------------------

@pytest.mark.parametrize("vector", by_kind("deal"))
def test_deal_api(vector):
    conv = convention_of(vector)
    outcome = outcome_from_json(vector["input"])
    scored = score_deal(conv, outcome)
    same_records(scored.records, expected_records(vector["expected"]["records"], vector["players"]))
    values = record_value(conv, scored.records)
    assert values == fractions(vector["expected"]["deal_value"])
    assert sum(values.values()) == 0


@pytest.mark.parametrize("vector", by_kind("settlement"))
def test_settlement_api(vector):
    conv = convention_of(vector)
    data = vector["input"]
    records = expected_records(data, vector["players"])
    result = settle(conv, records, Fraction(data["pool_size"]))
    exp = vector["expected"]
    assert result.adjusted_mountain == fractions(exp["adjusted_mountain"])
    assert [(n.creditor, n.debtor, n.amount) for n in result.pairwise_net] == \
        [(n["creditor"], n["debtor"], Fraction(n["amount"])) for n in exp["pairwise_net"]]
    assert result.balance == fractions(exp["final_balance"])
    assert sum(result.balance.values()) == 0


@pytest.mark.parametrize("vector", by_kind("pool_write_with_help"))
def test_pool_write_api(vector):
    conv = convention_of(vector)
    data = vector["input"]
    delta = write_with_help(conv, data["seat_order_clockwise"],
                            {p: Fraction(v) for p, v in data["pool_before"].items()},
                            {p: Fraction(v) for p, v in data["mountain_before"].items()},
                            Fraction(data["pool_size"]), data["writer"], Fraction(data["points"]),
                            data["excluded_from_help"])
    same_records(delta, expected_records(vector["expected"]["records"], vector["players"]))
    assert record_value(conv, delta) == fractions(vector["expected"]["deal_value"])


@pytest.mark.parametrize("vector", by_kind("allpass_progression"))
def test_progression_api(vector):
    progression = AllPassProgression(convention_of(vector))
    prices = [progression.record(ProgressionEvent(e["type"], e.get("made", False), e.get("whisted", False)))
              for e in vector["input"]["events"]]
    expected = vector["expected"]["trick_price_per_event"]
    assert prices == [None if p is None else Fraction(p) for p in expected]


@pytest.mark.parametrize("vector", by_kind("mini_pool"))
def test_mini_pool_api(vector):
    conv = convention_of(vector)
    sheet = ScoreSheet(conv, vector["players"], vector["input"]["pool_size"])
    for deal, exp in zip(vector["input"]["deals"], vector["expected"]["per_deal"], strict=True):
        entry = sheet.add(outcome_from_json(deal))
        same_records(entry.records, expected_records(exp["records"], vector["players"]))
        assert entry.value == fractions(exp["deal_value"])
    same_records(sheet.totals, expected_records(vector["expected"]["final_records"], vector["players"]))
    balance = sheet.settle().balance
    assert balance == fractions(vector["expected"]["final_balance"])
    assert sheet.values_sum() == balance  # the invariant of §8.3
    assert sheet.is_over()


@pytest.mark.parametrize("vector", by_kind("ev_decision"))
def test_ev_decision_api(vector):
    conv = convention_of(vector)
    data = vector["input"]
    result = decide_whist(conv, players=tuple(vector["players"]), declarer=data["declarer"],
                          contract=data["contract"], decider=data["decider"],
                          other_decision=data["first_defender_B"],
                          defence_tricks_if_whist={int(k): Fraction(v) for k, v in
                                                   data["defence_trick_distribution_if_whist"].items()})
    exp = vector["expected"]
    assert [(o.defence_tricks, o.probability, o.deal_value) for o in result.outcomes_if_whist] == \
        [(o["defence_tricks"], Fraction(o["probability"]), fractions(o["deal_value"])) for o in exp["outcomes_if_whist"]]
    assert {a.value: v for a, v in result.expected_value.items()} == \
        {a: fractions(v) for a, v in exp["expected_value"].items()}
    assert result.best_action == Decision(exp["best_action_for_C"])


# ---- the `score` command -----------------------------------------------------------

def run_score(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solver.scoring.cli", "score", *args], input=stdin,
                          capture_output=True, text=True, cwd=REPO, timeout=120, check=False)


def request_of(vector: dict[str, Any]) -> dict[str, Any]:
    keys = ("convention", "option_overrides", "kind", "input", "players")
    return {k: vector[k] for k in keys if k in vector}


def test_score_command_answers_every_vector():
    lines = [json.dumps(request_of(v), ensure_ascii=False) for v in VECTORS]
    # A bad line and a blank line in the middle: the stream must go on.
    lines.insert(10, "{not json")
    lines.insert(20, "   ")
    proc = run_score("\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(VECTORS) + 1
    assert set(answers[10]) == {"error"} and "JSON" in answers[10]["error"]
    del answers[10]
    for vector, answer in zip(VECTORS, answers, strict=True):
        assert answer == vector["expected"], vector["id"]


def test_score_command_accepts_whole_vectors_from_a_file(tmp_path):
    path = tmp_path / "vectors.jsonl"
    path.write_text("\n".join(json.dumps(v, ensure_ascii=False) for v in VECTORS[:5]) + "\n", encoding="utf-8")
    proc = run_score("", str(path))
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()] == [v["expected"] for v in VECTORS[:5]]


# ---- rules the vectors do not exercise, hand-computed from the spec ---------------

ABC = ("A", "B", "C")
ABCD = ("A", "B", "C", "D")


def contract_outcome(players=ABC, declarer="A", k=6, decisions=None, tricks=None, dealer=None, **extra):
    from solver.scoring import ContractOutcome
    return ContractOutcome(players, declarer, k, decisions or {}, tricks or {}, dealer, **extra)


def whists_of(records: Records) -> dict[tuple[str, str], Fraction]:
    return dict(records.whists)


def test_dealer_returns_half_whist_and_writes_everything():
    # Seed 002 (S-09 of §10): the dealer returned the whist on a 6 that went down two.
    # 6 trick whists at 2 = 12, the two defenders' consolation 2 x 4 = 8, his own 4.
    out = contract_outcome(ABCD, decisions={"B": "pass", "C": "half_whist"}, dealer="D", returned_by="D",
                           tricks={"A": 4, "B": 3, "C": 3})
    records = score_deal(CONVENTIONS["sochi"], out).records
    assert whists_of(records) == {("D", "A"): 24}
    assert records.mountain["A"] == 4


def test_dealer_whists_after_two_passes():
    conv = CONVENTIONS["sochi"]
    down = contract_outcome(ABCD, k=8, decisions={"B": "pass", "C": "pass", "D": "whist"}, dealer="D",
                            tricks={"A": 7, "B": 2, "C": 1})
    assert whists_of(score_deal(conv, down).records) == {("D", "A"): 3 * 6 + 3 * 6}
    empty = contract_outcome(ABCD, k=8, decisions={"B": "pass", "C": "pass", "D": "whist"}, dealer="D",
                             tricks={"A": 10, "B": 0, "C": 0})
    scored = score_deal(conv, empty)
    assert scored.records.mountain == {"A": 0, "B": 0, "C": 0, "D": 6} and scored.failed_whisters == {"D"}
    relaxed = conv.with_options({"dealer_whist_responsible": False})
    assert score_deal(relaxed, empty).records.mountain["D"] == 0


def test_dealer_returns_the_whist_after_two_passes():
    # Seed 002: "Если же сдатчик вернул вист (в том числе после паса двух игроков), то в случае
    # подсада разыгрывающего он все висты записывает себе": scored as the dealer's whist.
    conv = CONVENTIONS["sochi"]
    for k, tricks in ((6, {"A": 4, "B": 3, "C": 3}), (8, {"A": 7, "B": 2, "C": 1}), (8, {"A": 10, "B": 0, "C": 0})):
        returned = contract_outcome(ABCD, k=k, decisions={"B": "pass", "C": "pass"}, dealer="D", returned_by="D",
                                    tricks=tricks)
        whisted = contract_outcome(ABCD, k=k, decisions={"B": "pass", "C": "pass", "D": "whist"}, dealer="D",
                                   tricks=tricks)
        assert score_deal(conv, returned) == score_deal(conv, whisted)
    # The seed's worked example on a 6 down two: 12 trick whists + 8 consolation + his own 4 = 24.
    down_two = contract_outcome(ABCD, decisions={"B": "pass", "C": "pass"}, dealer="D", returned_by="D",
                                tricks={"A": 4, "B": 3, "C": 3})
    assert whists_of(score_deal(conv, down_two).records) == {("D", "A"): 24}


@pytest.mark.parametrize("change,words", [
    ({"decisions": {"B": "whist", "C": "pass"}}, "after both defenders passed"),
    ({"decisions": {"B": "pass", "C": "pass"}, "returned_by": "B"}, "after both defenders passed"),
    ({"options": {"dealer_may_whist_4p": False}}, "dealer_may_whist_4p"),
    ({"options": {"returned_whist_allowed": False}}, "returned_whist_allowed"),
    ({"k": 10, "options": {"ten_whisted": False}}, "cannot whist a 10"),
])
def test_dealer_return_after_two_passes_refused_where_the_rules_say_so(change, words):
    from solver.scoring import ScoringError
    conv = CONVENTIONS["sochi"].with_options(change.get("options", {}))
    out = contract_outcome(ABCD, k=change.get("k", 6), decisions=change.get("decisions", {"B": "pass", "C": "pass"}),
                           dealer="D", returned_by=change.get("returned_by", "D"), tricks={"A": 6, "B": 2, "C": 2})
    with pytest.raises(ScoringError, match=words):
        score_deal(conv, out)
    three = contract_outcome(ABC, decisions={"B": "pass", "C": "pass"}, returned_by="C", tricks={"A": 6, "B": 2, "C": 2})
    with pytest.raises(ScoringError, match="only after a half-whist"):
        score_deal(CONVENTIONS["sochi"], three)


@pytest.mark.parametrize("rule,charge", [("capped", 2), ("own_half", 4)])
def test_pair_shortfall_rules(rule, charge):
    # §5.2.4: 6, two whisters 3 + 0; capped charges C the pair's 1 missing trick, own_half his 2.
    conv = CONVENTIONS["sochi"].with_options({"pair_shortfall_rule": rule})
    out = contract_outcome(decisions={"B": "whist", "C": "whist"}, tricks={"A": 7, "B": 3, "C": 0})
    assert score_deal(conv, out).records.mountain == {"A": 0, "B": 0, "C": charge}


@pytest.mark.parametrize("rule,mountain", [("second_whister", {"B": 0, "C": 6}), ("both_full", {"B": 6, "C": 6}),
                                           ("split_half", {"B": 3, "C": 3})])
def test_high_contract_liability(rule, mountain):
    conv = CONVENTIONS["sochi"].with_options({"high_contract_liability": rule})
    out = contract_outcome(k=8, decisions={"B": "whist", "C": "whist"}, tricks={"A": 10, "B": 0, "C": 0})
    assert score_deal(conv, out).records.mountain == {"A": 0, **mountain}


def test_consolation_on_a_caught_misere():
    from solver.scoring import MisereOutcome
    out = MisereOutcome(ABCD, "A", {"A": 2, "B": 4, "C": 4}, "D")
    sochi = CONVENTIONS["sochi"].with_options({"consolation_on_misere": True})
    assert whists_of(score_deal(sochi, out).records) == {("B", "A"): 20, ("C", "A"): 20, ("D", "A"): 20}
    leningrad = CONVENTIONS["leningrad"].with_options({"consolation_on_misere": True,
                                                       "consolation_to_dealer_4p": False})
    assert whists_of(score_deal(leningrad, out).records) == {("B", "A"): 40, ("C", "A"): 40}
    assert score_deal(leningrad, out).records.mountain["A"] == 40


def test_talon_bonus_on_a_contract_three_players():
    conv = CONVENTIONS["sochi"].with_options({"talon_bonus": True})
    out = contract_outcome(k=9, decisions={"B": "pass", "C": "pass"}, talon_fast_tricks=2)
    records = score_deal(conv, out).records
    assert records.pool["A"] == 8
    assert whists_of(records) == {("B", "A"): 8, ("C", "A"): 8}  # 2 tricks x 8, each opponent half


def test_rostov_difference_basis_tie_four_players():
    from solver.scoring import AllPassOutcome
    conv = CONVENTIONS["rostov"].with_options({"rostov_basis": "difference"})
    records = score_deal(conv, AllPassOutcome(ABCD, {"A": 3, "B": 3, "C": 4}, "D")).records
    assert whists_of(records) == {("A", "C"): Fraction(5, 2), ("B", "C"): Fraction(5, 2)}
    assert records.pool == {"A": 0, "B": 0, "C": 0, "D": 1}


def test_checked_ten_that_stood_and_that_failed():
    conv = CONVENTIONS["sochi"]
    stood = score_deal(conv, contract_outcome(k=10, decisions={"B": "pass", "C": "pass"})).records
    assert stood.pool["A"] == 10 and not stood.whists
    # A lone 'whist' on a checked 10 is scored as two whisters with no obligation.
    failed = score_deal(conv, contract_outcome(k=10, decisions={"B": "whist", "C": "pass"},
                                               tricks={"A": 9, "B": 0, "C": 1})).records
    assert failed.mountain == {"A": 10, "B": 0, "C": 0}
    assert whists_of(failed) == {("B", "A"): 10, ("C", "A"): 20}


def test_decide_whist_after_a_whist_needs_the_split():
    from solver.scoring import SOCHI, decide_whist
    result = decide_whist(SOCHI, players=ABC, declarer="A", contract=8, decider="B", other_decision="whist",
                          defence_tricks_if_whist={(0, 1): Fraction(1, 2), (1, 1): Fraction(1, 2)})
    # Whist: made 8 both times, B writes 0 or 6: v_B = -20 or -14; pass: C alone, v_B = -20.
    assert result.expected_value[Decision.WHIST]["B"] == -17
    assert result.expected_value[Decision.PASS]["B"] == -20
    assert Decision.HALF_WHIST not in result.expected_value
    assert result.best_action == Decision.WHIST


def test_stalingrad_leaves_only_whist():
    from solver.scoring import decide_whist
    conv = get_convention("sochi", {"stalingrad": True})
    result = decide_whist(conv, players=ABC, declarer="A", contract=6, decider="C", other_decision="whist",
                          defence_tricks_if_whist={(2, 2): 1}, strain="s")
    assert list(result.expected_value) == [Decision.WHIST]
