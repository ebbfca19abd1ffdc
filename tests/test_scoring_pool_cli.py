"""``prefdd pool`` and ``prefdd score`` as commands: the hand-made example game
(tests/data/pool-example.json, numbers checked by hand), 4-player dealer rotation,
user errors (stderr, status 2) and the ``register`` hook for the main CLI."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from solver.scoring import ScoringError, game_from_json
from solver.scoring.cli import main, register

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "tests" / "data" / "pool-example.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solver.scoring.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=60, check=False)


def write_game(tmp_path: Path, game: dict) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    return path


def test_example_sheet_as_drawn():
    proc = run("pool", str(EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "game over" in text
    lines = [line.split() for line in text.splitlines()]
    # Hand-checked running totals: Anna's misère overflows and helps Vera (highest
    # open pool) with 2 points = 20 whists; Vera's 10 helps Boris with 1 point and
    # writes the last 5 off her mountain 15 -> 10.
    assert ["pool", "2.10"] in lines
    assert ["whists", "on", "Vera", "8.28"] in lines
    assert ["pool", "4.6.10"] in lines
    assert ["mountain", "7.15.10"] in lines
    assert ["whists", "on", "Boris", "6.16"] in lines
    assert ["Boris", "pays", "Anna", "118/3"] in lines
    # Balances: Anna 52 whist net + 10*(31/3 - 7) = 232/3, rounded 78, money at 1/2.
    assert ["Anna", "+232/3", "+78", "+39"] in lines
    assert ["Boris", "-194/3", "-65", "-32"] in lines
    assert ["Vera", "-38/3", "-13", "-7"] in lines


def test_example_json_output():
    proc = run("pool", str(EXAMPLE), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["game_over"] is True
    assert report["players"] == ["Anna", "Boris", "Vera"]
    balance = {p: Fraction(v) for p, v in report["final_balance"].items()}
    assert balance == {"Anna": Fraction(232, 3), "Boris": Fraction(-194, 3), "Vera": Fraction(-38, 3)}
    per_deal_sum = {p: sum(Fraction(d["deal_value"][p]) for d in report["per_deal"]) for p in balance}
    assert per_deal_sum == balance
    assert report["settlement"]["final_balance"] == report["final_balance"]
    assert report["final_records"]["pool"] == {"Anna": 10, "Boris": 10, "Vera": 10}
    assert [d.get("allpass_price") for d in report["per_deal"][1:3]] == ["1", "2"]
    assert sum(Fraction(v) for v in report["money"].values()) == 0
    assert report["money"] == {"Anna": "39", "Boris": "-32", "Vera": "-7"}


def test_price_option_overrides_the_file(capsys):
    assert main(["pool", str(EXAMPLE), "--json", "--price", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["whist_price"] == "2"
    # 2 x (232/3, -194/3, -38/3) = 154.67, -129.33, -25.33 -> largest remainder.
    assert report["money"] == {"Anna": "155", "Boris": "-129", "Vera": "-26"}


FOUR_PLAYER_GAME = {
    "players": ["N", "E", "S", "W"],
    "convention": "sochi",
    "pool_size": 4,
    "first_dealer": "W",
    "deals": [
        # W deals: N declares 6, both whist, N goes down one; W writes consolation.
        {"type": "contract", "declarer": "N", "contract": 6, "decisions": {"E": "whist", "S": "whist"},
         "tricks": {"N": 5, "E": 3, "S": 2}},
        # N deals: an all-pass; N owns the talon tricks.
        {"type": "allpass", "tricks": {"E": 3, "S": 3, "W": 3, "N": 1}},
    ],
}


def test_four_player_dealer_rotation(tmp_path):
    game = game_from_json(FOUR_PLAYER_GAME)
    first, second = game.sheet.entries
    assert first.records.whists == {("E", "N"): 8, ("S", "N"): 6, ("W", "N"): 2}
    assert second.records.mountain == {"N": 1, "E": 3, "S": 3, "W": 3}
    assert not game.sheet.is_over()
    proc = run("pool", str(write_game(tmp_path, FOUR_PLAYER_GAME)))
    assert proc.returncode == 0, proc.stderr
    assert "game not finished" in proc.stdout


def test_dealer_rotation_refuses_the_sitting_dealer_as_declarer(tmp_path):
    game = json.loads(json.dumps(FOUR_PLAYER_GAME))
    game["deals"][1] = {"type": "misere", "declarer": "N", "tricks": {"N": 0, "E": 5, "S": 5}}
    proc = run("pool", str(write_game(tmp_path, game)))
    assert proc.returncode == 2
    assert "deal 2:" in proc.stderr and "'N' is the dealer" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("content,words", [
    ("{not json", ["not valid JSON"]),
    (json.dumps({**FOUR_PLAYER_GAME, "convention": "minsk"}), ["unknown convention 'minsk'"]),
    (json.dumps({**FOUR_PLAYER_GAME, "first_dealer": "X"}), ["first_dealer", "'X'"]),
    (json.dumps({**FOUR_PLAYER_GAME, "colour": "red"}), ["unknown field 'colour'"]),
    (json.dumps({**FOUR_PLAYER_GAME, "whist_price": 0}), ["whist_price", "positive"]),
    (json.dumps({k: v for k, v in FOUR_PLAYER_GAME.items() if k != "pool_size"}), ["pool_size"]),
])
def test_pool_user_errors(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    proc = run("pool", str(path))
    assert proc.returncode == 2
    for word in words:
        assert word in proc.stderr


def test_pool_missing_file(tmp_path):
    proc = run("pool", str(tmp_path / "absent.json"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_game_after_the_end_is_refused():
    game = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    game["deals"].append({"type": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}})
    with pytest.raises(ScoringError, match="deal 9: the game is over"):
        game_from_json(game)


def test_register_adds_both_subcommands_to_a_foreign_parser(capsys):
    parser = argparse.ArgumentParser(prog="prefdd")
    subparsers = parser.add_subparsers(dest="command", required=True)
    subparsers.add_parser("solve")  # the main CLI has its own commands too
    register(subparsers)
    args = parser.parse_args(["pool", str(EXAMPLE), "--json"])
    assert args.func(args) == 0
    assert json.loads(capsys.readouterr().out)["game_over"] is True
    args = parser.parse_args(["score"])
    assert args.file is None and callable(args.func)


def test_score_main_with_patched_stdin(monkeypatch, capsys):
    good = {"convention": "leningrad", "kind": "allpass_progression",
            "input": {"events": [{"type": "allpass"}, {"type": "allpass"}]}}
    bad = {"convention": "leningrad", "kind": "deal", "input": {"type": "allpass", "players": ["A", "B", "C"],
                                                                 "tricks": {"A": 1, "B": 1, "C": 1}}}
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join([json.dumps(good), "", json.dumps(bad), "[]",
                                                              json.dumps(good)]) + "\n"))
    assert main(["score"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert answers[0] == answers[3] == {"trick_price_per_event": [2, 4]}
    assert "add up to 3" in answers[1]["error"]
    assert "request" in answers[2]["error"]
    assert len(answers) == 4


def test_score_missing_file(tmp_path):
    proc = run("score", str(tmp_path / "absent.jsonl"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr


# ---- sheet bookkeeping beyond the vectors (typed API, hand-computed) --------------

def test_help_skips_the_sitting_dealer_then_loads_every_other_mountain():
    from solver.scoring import SOCHI, ContractOutcome, ScoreSheet
    players = ("N", "E", "S", "W")
    sheet = ScoreSheet(SOCHI, players, 2)
    sheet.add(ContractOutcome(players, "N", 6, {"E": "pass", "S": "pass"}, dealer="W"))
    sheet.add(ContractOutcome(players, "E", 6, {"S": "pass", "W": "pass"}, dealer="N"))
    # N's 7 (4 points) with N's pool closed and S dealing: S may not be helped, W takes
    # 2 for 20 whists, N has no mountain, so the last 2 go onto E's, S's and W's mountains.
    entry = sheet.add(ContractOutcome(players, "N", 7, {"E": "pass", "W": "pass"}, dealer="S"))
    assert entry.records.pool == {"N": 0, "E": 0, "S": 0, "W": 2}
    assert entry.records.whists == {("N", "W"): 20}
    assert entry.records.mountain == {"N": 0, "E": 2, "S": 2, "W": 2}
    assert entry.value["N"] == Fraction(4 * 10 * 3, 4)  # same as 4 pool points of its own


def test_failed_whister_is_not_helped():
    from solver.scoring import SOCHI, ContractOutcome, ScoreSheet
    sheet = ScoreSheet(SOCHI, ("A", "B", "C"), 2)
    sheet.add(ContractOutcome(("A", "B", "C"), "A", 6, {"B": "pass", "C": "pass"}))
    entry = sheet.add(ContractOutcome(("A", "B", "C"), "A", 6, {"B": "whist", "C": "pass"},
                                      {"A": 8, "B": 1, "C": 1}))
    assert entry.records.mountain == {"A": 0, "B": 4, "C": 0}  # B short by 2 tricks
    assert entry.records.pool == {"A": 0, "B": 0, "C": 2}
    assert entry.records.whists == {("B", "A"): 4, ("A", "C"): 20}


def test_made_game_first_reduces_the_own_mountain():
    from solver.scoring import SOCHI, AllPassOutcome, ContractOutcome, ScoreSheet
    conv = SOCHI.with_options({"made_game_writes": "mountain_first"})
    sheet = ScoreSheet(conv, ("A", "B", "C"), 10)
    sheet.add(AllPassOutcome(("A", "B", "C"), {"A": 3, "B": 3, "C": 4}))
    entry = sheet.add(ContractOutcome(("A", "B", "C"), "A", 7, {"B": "pass", "C": "pass"}))
    assert entry.records.mountain["A"] == -3 and entry.records.pool["A"] == 1
    plain = ScoreSheet(SOCHI, ("A", "B", "C"), 10)
    plain.add(AllPassOutcome(("A", "B", "C"), {"A": 3, "B": 3, "C": 4}))
    assert plain.add(ContractOutcome(("A", "B", "C"), "A", 7, {"B": "pass", "C": "pass"})).value == entry.value


@pytest.mark.parametrize("reset,prices", [
    ("any_non_allpass_deal", [2, 2, 2]),
    ("made_contract", [2, 4, 2]),
    ("whisted_made_contract", [2, 4, 6]),
])
def test_sheet_progression_resets(reset, prices):
    from solver.scoring import LENINGRAD, AllPassOutcome, ContractOutcome, MisereOutcome, ScoreSheet
    abc = ("A", "B", "C")
    sheet = ScoreSheet(LENINGRAD.with_options({"progression_reset": reset}), abc, 50)
    allpass = AllPassOutcome(abc, {"A": 3, "B": 3, "C": 4})
    seen = [sheet.add(allpass).allpass_price]
    sheet.add(MisereOutcome(abc, "A", {"A": 1, "B": 4, "C": 5}))
    seen.append(sheet.add(allpass).allpass_price)
    sheet.add(ContractOutcome(abc, "B", 6, {"C": "pass", "A": "pass"}))
    seen.append(sheet.add(allpass).allpass_price)
    assert seen == prices


def test_score_answers_each_line_before_the_input_ends():
    import select
    line = json.dumps({"convention": "rostov", "kind": "allpass_progression",
                       "input": {"events": [{"type": "allpass"}]}})
    proc = subprocess.Popen([sys.executable, "-m", "solver.scoring.cli", "score"], cwd=REPO, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(2):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no answer while the input stream is still open"
            assert json.loads(proc.stdout.readline()) == {"trick_price_per_event": [1]}
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 0
