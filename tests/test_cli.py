"""The prefdd command line, run as a real process."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import load_jsonl

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"


def prefdd(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solver.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_solve_json_and_text() -> None:
    from solver import card_values, solve
    result = prefdd("solve", DEAL, "--contract", "6c", "--declarer", "1", "--cards", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["declarer_tricks"] == solve(DEAL, "6c", 1)
    assert answer["card_values"] == {str(c): v for c, v in card_values(DEAL, "6c", 1).items()}
    text = prefdd("solve", DEAL, "--contract", "6♣", "--declarer", "second")
    assert text.returncode == 0 and f"{answer['declarer_tricks']} tricks" in text.stdout
    assert "♠" in text.stdout


def test_table() -> None:
    from solver import deal_table
    result = prefdd("table", DEAL, "--json")
    table = deal_table(DEAL)
    assert json.loads(result.stdout)["tricks"] == [list(r) for r in table.tricks]
    assert json.loads(result.stdout)["misere"] == list(table.misere)
    text = prefdd("table", DEAL)
    assert "misère" in text.stdout and "third hand" in text.stdout


def test_batch_keeps_order_and_survives_bad_lines() -> None:
    records = load_jsonl("dd-endgames.jsonl")[:20]
    lines = [json.dumps(r) for r in records]
    lines.insert(3, "not json")
    lines.insert(7, json.dumps({"deal": "AK.7..J9 .Q9.Q8.T 7.T.9.AK", "contract": "6x", "declarer": 0}))
    lines.insert(9, json.dumps({"deal": "AK.7..J9 .Q9.Q8.T 7.T.9.AK", "contract": "6s", "id": "x1"}))
    for workers in ("1", "3"):
        result = prefdd("batch", "--workers", workers, stdin="\n".join(lines) + "\n")
        assert result.returncode == 0
        answers = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(answers) == len(lines)
        assert "not JSON" in answers[3]["error"]
        assert "6x" in answers[7]["error"]
        assert answers[9] == {"id": "x1", "error": "missing field 'declarer'"}
        good = [a for i, a in enumerate(answers) if i not in (3, 7, 9)]
        assert [a["declarer_tricks"] for a in good] == [r["declarer_tricks"] for r in records]


def test_errors_exit_2() -> None:
    result = prefdd("solve", "AQ7.K98", "--contract", "6s", "--declarer", "0")
    assert result.returncode == 2 and "prefdd: error:" in result.stderr and "part" in result.stderr
    result = prefdd("solve", DEAL, "--contract", "6s", "--declarer", "4")
    assert result.returncode == 2 and "seat" in result.stderr
    result = prefdd("solve", DEAL, "--contract", "allpass", "--declarer", "0")
    assert result.returncode == 2 and "all-pass" in result.stderr


def test_help() -> None:
    for command in ([], ["solve"], ["table"], ["batch"]):
        result = prefdd(*command, "--help")
        assert result.returncode == 0 and "usage: prefdd" in result.stdout
