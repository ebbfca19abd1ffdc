"""``prefdd analyze`` and the batch best-discard request."""
from __future__ import annotations

import _thread
import json
import threading

import pytest

from conftest import batch_line
from solver import SearchStopped, Solver
from solver.analysis import (
    allpass_line,
    allpass_values,
    analyze_play,
    best_discard,
    discard_table,
    discard_text,
)
from solver.analysis.cli import run_stoppable
from solver.cli import main
from solver.engine import OPT_ALL, OPT_NONE

FULL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_table_text_has_the_diagram_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", FULL)
    assert status == 0
    assert "second hand: ♠K    ♣AQ7 ♦AQ7 ♥T87" in out
    table = discard_table(FULL)
    row = table.rows[1]
    expected = "second hand  " + "".join(f"{t:>4}" for t in row.tricks) + f"{row.misere.value:>8}  6♥"
    assert expected in out
    values = allpass_values(FULL).tricks
    assert f"first hand {values[0]}, second hand {values[1]}, third hand {values[2]}" in out


def test_table_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", FULL, "--json")
    answer = json.loads(out)
    table = discard_table(FULL)
    assert status == 0 and answer["deal"] == FULL
    assert [r["tricks"] for r in answer["table"]["rows"]] == [list(r.tricks) for r in table.rows]
    assert [r["best_contract"] for r in answer["table"]["rows"]] == [None, "6h", None]
    assert answer["allpass"]["player_tricks"] == list(allpass_values(FULL).tricks)


def test_table_workers_give_the_same_answer(capsys: pytest.CaptureFixture[str]) -> None:
    answers = []
    for workers in ("1", "2"):
        status, out, _ = run(capsys, "analyze", FULL, "--json", "--workers", workers)
        assert status == 0
        answers.append(json.loads(out))
    assert answers[0] == answers[1]
    with pytest.raises(SystemExit) as exited:
        main(["analyze", FULL, "--workers", "0"])
    assert exited.value.code == 2 and "--workers: must be at least 1" in capsys.readouterr().err


def test_contract_with_played_cards_lists_the_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", FULL, "--declarer", "1", "--contract", "6c", "--played", "7s Ks")
    assert status == 0
    assert "Best discard: 4 tricks (down 2)" in out
    assert "trick 1, seat 0 played ♠7: −1" in out
    assert "Best line from here" in out


def test_contract_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", FULL, "--declarer", "second", "--contract", "6h",
                         "--discard", "Qc7c", "--played", "As Ks 8s", "--json")
    answer = json.loads(out)
    analysis = analyze_play(FULL, 1, "6h", "As Ks 8s", discard="Qc 7c")
    assert status == 0
    assert answer["best_discard"]["discards"] == [discard_text(d) for d in best_discard(FULL, 1, "6h").discards]
    play = answer["play"]
    assert play["discard"] == "Qc7c" and play["value"] == analysis.value
    assert [s["cost"] for s in play["steps"]] == [s.cost for s in analysis.steps]
    assert play["best_line"]["line"] == [str(c) for c in analysis.line.cards]


def test_allpass(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", FULL, "--contract", "allpass", "--played", "Td 7d 8d", "--json")
    answer = json.loads(out)
    assert status == 0
    assert len(answer["allpass"]["line"]["line"]) == 27
    assert [s["cost"] for s in answer["play"]["steps"]] == [0, 0, 0]
    status, out, _ = run(capsys, "analyze", FULL, "--contract", "allpass", "--no-talon-leads")
    assert status == 0 and "Max^n line" in out and "talon" not in out.split("Max^n line")[1]


@pytest.mark.parametrize("argv, message", [
    (["--contract", "6s"], "--declarer"),
    (["--played", "As"], "need --contract"),
    (["--contract", "allpass", "--discard", "Qc7c"], "no discard"),
    (["--declarer", "1", "--contract", "6h", "--discard", "As Ks"], "cannot discard"),
    (["--declarer", "1", "--contract", "6h", "--played", "Zz"], "played cards"),
])
def test_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = run(capsys, "analyze", FULL, *argv)
    assert status == 2 and out == "" and message in err


def test_best_discard_request_in_batch() -> None:
    request = {"deal": "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9", "talon": "..J.K",
               "contract": "6h", "declarer": 1, "best_discard": True}
    answer = json.loads(batch_line(json.dumps(request)))
    assert answer == {"declarer_tricks": 6, "discards": ["KsQc", "Ks7c", "Qc7c"]}
    misere = json.loads(batch_line(json.dumps({**request, "contract": "misere"})))
    found = best_discard(FULL, 1, "misere")
    assert misere == {"declarer_tricks": found.value, "discards": [discard_text(d) for d in found.discards]}
    plain = json.loads(batch_line(json.dumps({**request, "best_discard": False,
                                                 "deal": "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9"})))
    assert set(plain) == {"declarer_tricks"}
    no_talon = {key: value for key, value in request.items() if key != "talon"}
    assert "talon" in json.loads(batch_line(json.dumps(no_talon)))["error"]
    assert "allpass" in json.loads(batch_line(json.dumps({**request, "contract": "allpass"})))["error"]
    assert "declarer" in json.loads(batch_line(json.dumps(
        {k: v for k, v in request.items() if k != "declarer"})))["error"]


HEAVY = "KQJ97.A.987.Q .QJT8.KJ.AKJ9 A.K97.AQT.T87 T8..."


def test_ctrl_c_stops_a_long_search() -> None:
    solver = Solver(table_mib=1)
    solver.set_options(OPT_NONE)   # plain alpha-beta: many seconds on a full deal
    timer = threading.Timer(0.3, _thread.interrupt_main)
    # Should the interrupt be lost, the search is stopped anyway after a while,
    # so the test fails (no KeyboardInterrupt) instead of hanging.
    watchdog = threading.Timer(60, solver.request_stop)
    timer.start()
    watchdog.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_stoppable(lambda: allpass_values(HEAVY, solver=solver), solver)
    finally:
        timer.cancel()
        watchdog.cancel()
    # The stop was asked of the solver, and stays until cleared.
    with pytest.raises(SearchStopped):
        allpass_values(HEAVY, solver=solver)
    solver.clear_stop()
    solver.set_options(OPT_ALL)
    assert run_stoppable(lambda: allpass_values(HEAVY, solver=solver), solver).tricks == (3, 6, 3)
    line = run_stoppable(lambda: allpass_line(HEAVY, solver=solver), solver)
    assert sum(line.tricks) + line.unclaimed == 10


def test_errors_cross_the_helper_thread() -> None:
    with pytest.raises(ValueError, match="boom"):
        run_stoppable(lambda: (_ for _ in ()).throw(ValueError("boom")), Solver(table_mib=1))
