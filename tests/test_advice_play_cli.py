"""``prefdd play``: the readable table, the JSON form (the same answer as
the Python API), and errors with exit status 2."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from solver.advice import RunOptions, advise_play, play_request
from solver.cli import main

MISERE = ["play", "T98.JT98.T98.", "--contract", "misere", "--declarer", "1", "--seat", "0",
          "--talon", "..7.7", "--open", "2=KQJ.AKQ.AKQJ.", "--workers", "1"]
ENDGAME = ["play", "QJ.KQJ.7.", "--contract", "6c", "--declarer", "0", "--seat", "2", "--played",
           "As 9d Js 7c Kh", "--unseen", "AK9.A7.KQ98.KQ8", "--prior-tricks", "2,1,1", "--workers", "1"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_misere_catcher_table(capsys) -> None:
    code, out, err = run(MISERE, capsys)
    assert code == 0 and err == ""
    assert "all 66 layouts enumerated" in out
    assert "♠8" in out and "(55 of 66)" in out and "(45 of 66)" in out
    assert "Recommended: ♣8" in out and "Catches most often: ♠8" in out


def test_json_is_the_api_answer(capsys) -> None:
    code, out, _ = run(MISERE + ["--json"], capsys)
    assert code == 0
    answer = json.loads(out)
    advice = advise_play(play_request("T98.JT98.T98.", "misere", 1, 0, talon="..7.7",
                                      open_hands={2: "KQJ.AKQ.AKQJ."}), RunOptions(workers=1))
    assert answer["recommended"] == str(advice.recommended)
    assert [c["card"] for c in answer["cards"]] == [str(c.card) for c in advice.cards]
    assert [c["fail_count"] for c in answer["cards"]] == [c.fail_count for c in advice.cards]
    assert [Fraction(c["value"]["exact"]) for c in answer["cards"]] == [c.value.exact for c in advice.cards]
    assert answer["run"]["complete"] and answer["discard_hidden"]


def test_endgame_shows_the_voids(capsys) -> None:
    code, out, _ = run(ENDGAME + ["--json"], capsys)
    assert code == 0
    answer = json.loads(out)
    assert answer["voids"]["1"] == "sc" and answer["run"]["layouts"] == 5
    assert answer["outcome"] == "y_whists"   # seat 2 whists alone (the second defender of seat 0)


@pytest.mark.parametrize("argv, message", [
    (["play", "T98.JT98.T98.", "--contract", "allpass", "--declarer", "1", "--seat", "0"], "all-pass"),
    (["play", "T98.JT98.T98.", "--contract", "6s", "--declarer", "1", "--seat", "0", "--played", "As"],
     "not in its hand"),
    (["play", "T98.JT98.T98.", "--contract", "6s", "--declarer", "1", "--seat", "0", "--open", "2"], "SEAT=HAND"),
    (["play", "T98.JT98.T98.", "--contract", "6s", "--declarer", "1", "--seat", "1"], "discard"),
])
def test_errors_exit_with_status_2(argv: list[str], message: str, capsys) -> None:
    try:
        code = main(argv)
    except SystemExit as exit_:   # argparse refuses a malformed option itself
        code = exit_.code
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and message in captured.err
