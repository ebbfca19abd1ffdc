"""The commands read deals in every record form: ``prefdd convert`` between
forms, and ``solve``, ``table`` and ``analyze`` given a file or a record."""
from __future__ import annotations

import io
import json
import sys

import pytest

from solver import cli
from solver.formats import jpref, read_record, record, slovesnov

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
RECORD = {"players": ["Аня", "Боря", "Вова"], "hands": DEAL.split()[:3], "talon": "..J.K",
          "contract": "6c", "declarer": 1, "discard": "..J.K", "decisions": ["whist", None, "pass"],
          "played": "Qh Th Ah", "convention": "sochi"}


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_convert_between_every_form(tmp_path, capsys):
    source = tmp_path / "deal.json"
    source.write_text(json.dumps(RECORD, ensure_ascii=False), encoding="utf-8")
    status, line, _ = run(["convert", str(source), "--to", "jpref"], capsys)
    assert status == 0 and line.startswith("[♥QX")  # the tricks line, then the deal: line
    log = tmp_path / "game.log"
    log.write_text(line, encoding="utf-8")
    assert read_record(str(log), files=True).deal == read_record(str(source), files=True).deal
    status, pts, _ = run(["convert", str(source), "--to", "pts"], capsys)
    assert status == 0 and slovesnov.loads(pts)[0].played == read_record(str(source), files=True).played
    status, back, _ = run(["convert", pts, "--from", "pts", "--to", "record"], capsys)
    assert status == 0 and record.loads(back)[0].declarer == 1
    out = tmp_path / "deal.txt"
    assert run(["convert", str(source), "--to", "text", "-o", str(out)], capsys)[0] == 0
    assert out.read_text(encoding="utf-8") == DEAL + "\n"


def test_convert_to_a_score_line(tmp_path, capsys, monkeypatch):
    rec = read_record(json.dumps({**RECORD, "played": "", "tricks": [3, 6, 1]}))
    source = tmp_path / "deal.json"
    source.write_text(record.dumps(rec), encoding="utf-8")
    status, line, _ = run(["convert", str(source), "--to", "score"], capsys)
    assert status == 0
    request = json.loads(line)
    assert request["input"]["tricks"] == {"Аня": 3, "Боря": 6, "Вова": 1}
    monkeypatch.setattr(sys, "stdin", io.StringIO(line))
    status, answer, _ = run(["score"], capsys)
    assert status == 0 and "deal_value" in json.loads(answer)


def test_convert_errors_name_the_problem(capsys):
    status, _, err = run(["convert", "deal: ♠7QA  0", "--to", "record"], capsys)
    assert status == 2 and "line 1, field 'hands'" in err
    status, _, err = run(["convert", DEAL, "--to", "pts"], capsys)
    assert status == 2 and "deal 1 cannot be written as pts" in err


def test_solve_and_table_take_record_files(tmp_path, capsys):
    pts = tmp_path / "problem.pts"
    rec = read_record(json.dumps(RECORD))
    pts.write_text(slovesnov.dumps(rec.with_(played=())), encoding="utf-8")
    status, out, _ = run(["solve", str(pts), "--contract", "6c", "--declarer", "1", "--json"], capsys)
    direct = run(["solve", str(rec.deal_in_play()), "--contract", "6c", "--declarer", "1", "--json"], capsys)
    assert status == 0 and json.loads(out) == json.loads(direct[1])
    line = jpref.dumps(rec.with_(played=()))
    status, out, _ = run(["table", line, "--json"], capsys)
    assert status == 0 and json.loads(out) == json.loads(run(["table", DEAL, "--json"], capsys)[1])


def test_analyze_takes_its_arguments_from_the_record(tmp_path, capsys):
    source = tmp_path / "deal.json"
    source.write_text(json.dumps(RECORD, ensure_ascii=False), encoding="utf-8")
    status, from_record, _ = run(["analyze", str(source), "--json"], capsys)
    assert status == 0
    explicit = run(["analyze", DEAL, "--contract", "6c", "--declarer", "1", "--discard", "..J.K",
                    "--played", "Qh Th Ah", "--json"], capsys)[1]
    got, want = json.loads(from_record), json.loads(explicit)
    assert "score" not in got          # three cards played: not scored
    assert got == want
    overridden = json.loads(run(["analyze", str(source), "--played", "Qh", "--json"], capsys)[1])
    assert len(overridden["play"]["steps"]) == 1


def test_analyze_scores_a_record_with_its_convention(capsys):
    rec = read_record(json.dumps({**RECORD, "played": "", "tricks": [3, 6, 1]}))
    status, out, _ = run(["analyze", record.dumps(rec), "--json"], capsys)
    answer = json.loads(out)
    assert status == 0 and answer["score"]["deal_value"].keys() == {"Аня", "Боря", "Вова"}
    status, text_out, _ = run(["analyze", record.dumps(rec)], capsys)
    assert "Score (sochi), the deal's value in whists: Аня" in text_out


@pytest.mark.parametrize("argv, message", [
    (["analyze", DEAL, "--lang", "de"], "invalid choice: 'de'"),
    (["whist", "JT98.JT.98.A9", "--talon", "..J.K", "--contract", "6c", "--declarer", "1", "--seat", "2",
      "--other", "может быть"], "пас, вист, полвиста"),
])
def test_bad_options_are_refused(argv, message, capsys):
    try:
        status = cli.main(argv)
    except SystemExit as exit_:
        status = exit_.code
    assert status == 2 and message in capsys.readouterr().err


def test_analyze_for_the_web_never_opens_a_file(tmp_path):
    """solver.analysis.cli.analyze serves the web API: a deal naming a file on
    the server is text to parse, not a file to read."""
    import argparse
    from solver.analysis.cli import analyze
    from solver.engine import Solver
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps(RECORD, ensure_ascii=False), encoding="utf-8")
    args = argparse.Namespace(deal=str(secret), contract=None, declarer=None, discard=None, played="",
                              talon_leads=True, four_players=False)
    with pytest.raises(ValueError) as caught:
        analyze(args, Solver())
    assert "Аня" not in str(caught.value)
