"""``prefdd whist``, ``prefdd bid`` and ``prefdd enumerate``: readable and
JSON output, errors with exit status 2, and the options the advice
commands share declared alike."""
from __future__ import annotations

import argparse
import json

import pytest

from solver.advice.cli_common import _tricks
from solver.cli import build_parser, main

WHIST = ["whist", ".T.A7.", "--talon", "..K.8", "--contract", "6s", "--declarer", "1", "--seat", "2",
         "--other", "pass", "--unseen", "7.K.J.AK9", "--prior-tricks", "1,4,2", "--workers", "1"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_whist_json(capsys) -> None:
    code, out, _ = run(WHIST + ["--json"], capsys)
    assert code == 0
    answer = json.loads(out)
    assert answer["speaking_order"] == "first" and answer["run"]["complete"]
    actions = [o["action"] for o in answer["options"]]
    assert actions == ["pass", "half_whist", "whist"]
    assert answer["recommended"] in actions
    best = max(answer["options"], key=lambda o: o["value"]["mean"])
    assert answer["recommended"] == best["action"] and "exact" in best["value"]
    assert sum(answer["declarer_tricks"].values()) == pytest.approx(1.0)


def test_whist_readable(capsys) -> None:
    code, out, err = run(WHIST + ["--no-auction"], capsys)
    assert code == 0 and "Recommended:" in out and "all 20 layouts enumerated" in out and "Plan: " in out
    assert "auction model: none" in out
    assert err == ""   # no progress bar when standard error is not a terminal


def test_whist_states_the_default_auction_model_and_its_settings(capsys) -> None:
    # The endgame: the declarer has 5 of the 6 tricks he needs before the last 3; the
    # default model keeps the layouts where he makes at least 5 (the contract less one).
    code, out, _ = run(WHIST, capsys)
    assert code == 0 and "Note: auction model: the default model (an endgame" in out and "rejected" in out
    code, out, _ = run(WHIST + ["--json"], capsys)
    model = json.loads(out)["auction"]
    assert model["max_undertricks"] == 1 and model["min_trumps"] is None   # an endgame: the value test alone
    code, out, _ = run(WHIST + ["--json", "--auction-max-down", "3", "--auction-min-trumps", "-1"], capsys)
    answer = json.loads(out)
    assert answer["auction"]["max_undertricks"] == 3 and answer["run"]["rejected"] == 0
    assert answer["auction"]["min_trumps"] is None and answer["auction"]["whister_min_tops"] == 1
    assert "recommended" in answer and answer["plan"].startswith(answer["recommended"].replace("_", "-"))


def test_whist_sampled_with_a_convention_option(capsys) -> None:
    code, out, _ = run(WHIST + ["--sample", "--layouts", "50", "--seed", "3", "--convention", "rostov",
                                "--option", "returned_whist_allowed=false", "--json"], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["run"]["layouts"] == 50 and not answer["run"]["exact"]
    assert answer["convention"] == "rostov"
    half = next(o for o in answer["options"] if o["action"] == "half_whist")
    assert "replies" not in half


def test_bid_and_enumerate(capsys) -> None:
    code, out, _ = run(["bid", "A..K.", "--seat", "0", "--unseen", "K.A.QJ.A7", "--prior-tricks", "4,3,1",
                        "--contracts", "6s,7s,misere", "--json"], capsys)
    answer = json.loads(out)
    assert code == 0 and [c["contract"] for c in answer["contracts"]] == ["6s", "7s", "misere"]
    code, out, _ = run(["bid", "A..K.", "--seat", "0", "--unseen", "K.A.QJ.A7", "--prior-tricks", "4,3,1",
                        "--contracts", "6s,7s"], capsys)
    assert code == 0 and "Recommended: 6♠" in out
    code, out, _ = run(["enumerate", "AQ.K..K", "--declarer", "1", "--contract", "6s,6nt", "--defenders",
                        "KJ7.A.A.AQ8", "--prior-tricks", "2,3,1", "--json"], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["splits"] == 70
    assert sum(int(n) for n in answer["contracts"][0]["counts"].values()) == 70
    code, out, _ = run(["enumerate", "AQ.K..K", "--declarer", "1", "--contract", "6s", "--defenders",
                        "KJ7.A.A.AQ8", "--prior-tricks", "2,3,1"], capsys)
    assert code == 0 and "all 70 layouts enumerated" in out


@pytest.mark.parametrize("argv, message", [
    (["whist", "JT98.JT.98.A9", "--talon", "J...K", "--contract", "6c", "--declarer", "1", "--seat", "0",
      "--other", "pass"], "overlaps the talon"),
    (["whist", "JT98.JT.98.A9", "--talon", "..J.K", "--contract", "misere", "--declarer", "1", "--seat", "0",
      "--other", "pass"], "not whisted"),
    (["whist", "JT98.JT.98.A9", "--talon", "..J.K", "--contract", "6c", "--declarer", "1", "--seat", "0",
      "--other", "pass", "--option", "no_such_option=1"], "no_such_option"),
    (["bid", "AKQJ8.AK.A.87", "--seat", "0", "--contracts", "11s"], "contract"),
    (["enumerate", "AKQJ8.AK.A.87", "--declarer", "0", "--contract", "6s"], "discard"),
])
def test_errors_exit_with_status_2(argv: list[str], message: str, capsys) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and message in err


def test_bid_offers_pass_readable_and_json(capsys) -> None:
    argv = ["bid", "KJ8.Q97.KT8.9", "--seat", "0", "--layouts", "6", "--seed", "3", "--workers", "2"]
    code, out, _ = run(argv, capsys)
    assert code == 0 and "Recommended: pass, sure" in out and "all-pass played" in out and "Plan: pass: " in out
    code, out, _ = run(argv + ["--json"], capsys)
    answer = json.loads(out)
    assert answer["recommendation"] == "pass" and answer["pass"]["value"]["mean"] > answer["recommended"]["value"]["mean"]
    code, out, _ = run(argv + ["--json", "--no-pass", "--contracts", "6s"], capsys)
    answer = json.loads(out)
    assert answer["pass"] is None and answer["recommendation"] == "6s"


def _declared(command: str, option: str) -> tuple[object, ...]:
    parsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    action = next(a for a in parsers[command]._actions if option in a.option_strings)
    return (type(action), tuple(action.option_strings), action.dest, action.type, action.default, action.const,
            action.nargs, action.help)


@pytest.mark.parametrize("option, type_, default", [("--prior-tricks", _tricks, (0, 0, 0)),
                                                    ("--four-players", None, False)])
def test_the_advice_commands_declare_the_shared_options_alike(option: str, type_: object, default: object) -> None:
    declared = {command: _declared(command, option) for command in ("whist", "bid", "enumerate", "play")}
    assert len(set(declared.values())) == 1, declared
    assert declared["whist"][3:5] == (type_, default)
