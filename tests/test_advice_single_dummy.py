"""The single-dummy figure: never more favourable to the declarer than
double dummy on the same layouts, strictly lower on a hand with a guess,
and reported by the whist and bid advice."""
from __future__ import annotations

import itertools
import json
import random
import threading
import time
from types import SimpleNamespace

import solver.advice.optimism as optimism
from solver import Hand
from solver.advice import RunOptions, advise_bid, advise_whist, bid_request, whist_request
from solver.advice.optimism import SINGLE_DUMMY_STOPPED
from solver.advice.single_dummy import single_dummy_tricks
from solver.cli import main
from solver.engine import Solver
from solver.notation import Contract
from solver.position import Position

# 4 cards a hand, 6♠, the declarer (seat 0) leads with ♠8 ♣K8 ♦8; the defenders share
# ♠T ♣T7 ♦J97 ♥J9. Which defender to play for (who holds the trump, who can ruff) is a
# guess: on 32 of the 70 layouts a declarer who does not see the cards takes fewer tricks.
DECLARER, DEFENDERS = "8.K8.8.", "T.T7.J97.J9"


def test_never_above_double_dummy_and_strictly_lower_on_a_guess() -> None:
    solver = Solver()
    mine, cards = Hand.parse(DECLARER), Hand.parse(DEFENDERS).cards()
    double = single = lower = 0
    for index, part in enumerate(itertools.combinations(cards, 4)):
        first = Hand.from_cards(part)
        second = Hand.from_cards(c for c in cards if c not in part)
        position = Position((mine, first, second), Contract.parse("6s"), 0, 0)
        dd = solver.solve(position)
        sd = single_dummy_tricks(position, solver, 6, random.Random(index))
        assert sd <= dd
        double, single, lower = double + dd, single + sd, lower + (sd < dd)
    assert single < double and lower > 0


def test_whist_advice_reports_the_figure() -> None:
    request = whist_request("JT98.JT.98.A9", "..J.K", "6c", 1, 0, other_decision="pass", single_dummy=3)
    advice = advise_whist(request, RunOptions(layouts=10, seed=2, workers=1))
    figure = advice.optimism
    assert figure is not None and figure.layouts == 3 and str(figure.contract) == "6c"
    assert figure.tricks.single_dummy <= figure.tricks.double_dummy
    assert figure.makes.single_dummy <= figure.makes.double_dummy
    assert set(figure.values) == {"pass", "half_whist", "whist"}
    # The defender's whist is worth at least as much against a blind declarer.
    assert figure.values["whist"].single_dummy >= figure.values["whist"].double_dummy
    assert advise_whist(whist_request("JT98.JT.98.A9", "..J.K", "6c", 1, 0, other_decision="pass"),
                        RunOptions(layouts=4, seed=2, workers=1)).optimism is None


def test_bid_advice_reports_the_figure_of_the_best_contract(capsys) -> None:
    advice = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False, single_dummy=2),
                        RunOptions(layouts=4, seed=1, workers=1))
    figure = advice.optimism
    assert figure is not None and figure.contract == advice.recommended.contract and figure.layouts == 2
    assert figure.values["declarer"].single_dummy <= figure.values["declarer"].double_dummy
    code = main(["bid", "AKQJ8.AK.A8.7", "--seat", "0", "--contracts", "6s,8s", "--no-pass", "--layouts", "4",
                 "--single-dummy", "2", "--workers", "1", "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 0 and answer["single_dummy"]["layouts"] == 2
    assert answer["single_dummy"]["tricks"]["single_dummy"] <= answer["single_dummy"]["tricks"]["double_dummy"]


def test_whist_text_shows_the_figure_and_bad_settings_are_refused(capsys) -> None:
    argv = ["whist", "JT98.JT.98.A9", "--talon", "..J.K", "--contract", "6c", "--declarer", "1", "--seat", "0",
            "--other", "pass", "--layouts", "6", "--workers", "1"]
    assert main(argv + ["--single-dummy", "2"]) == 0
    out = capsys.readouterr().out
    assert "Single dummy (6♣, 2 layouts, 8 worlds a turn" in out and "value whist:" in out
    assert main(argv + ["--single-dummy", "-1"]) == 2
    assert "single dummy: layouts must be a whole number" in capsys.readouterr().err
    assert main(argv + ["--single-dummy", "2", "--played", "Ah"]) == 2
    assert "no cards played" in capsys.readouterr().err


def test_the_figure_stops_with_the_advice(monkeypatch) -> None:
    # Cancelled while the figure's second layout is played: the figure is over
    # the two layouts done, and the blind-discard figure after it is not measured.
    cancel = threading.Event()
    played: list[int] = []
    real = optimism.single_dummy_tricks

    def counted(*args, **kwargs):
        played.append(1)
        if len(played) == 2:
            cancel.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(optimism, "single_dummy_tricks", counted)
    request = whist_request("JT98.JT.98.A9", "..J.K", "6c", 1, 0, other_decision="pass", single_dummy=20)
    advice = advise_whist(request, RunOptions(layouts=10, seed=2, workers=1, cancel=cancel))
    assert advice.optimism is not None and advice.optimism.layouts == 2 and len(played) == 2
    assert advice.conservative is None and advice.notes[-1].endswith("no layout kept in its budget")
    # Its time budget spent before it starts (the figures' clock 10 s ahead): not
    # measured, and the notes say so.
    monkeypatch.setattr(optimism, "time", SimpleNamespace(monotonic=lambda: time.monotonic() + 10))
    bid = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False, single_dummy=2),
                     RunOptions(layouts=4, seconds=5, seed=1, workers=1))
    assert bid.run.stopped == "done" and bid.optimism is None and SINGLE_DUMMY_STOPPED in bid.notes
    assert bid.conservative is None
    assert advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False, single_dummy=2),
                      RunOptions(layouts=4, seed=1, workers=1)).optimism is not None   # no budget: measured
