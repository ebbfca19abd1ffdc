"""Every public entry point of solver/ answers an argument of the wrong type
with a TypeError or ValueError subclass naming the argument, never an
AttributeError (or a KeyError, IndexError, OverflowError...)."""
from __future__ import annotations

import inspect

import pytest

import solver.advice as advice
import solver.analysis as analysis
import solver.api as api
from solver import Position, Solver
from solver.advice import RunOptions
from solver.advice.bid import parse_contracts

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
JUNK = [None, "text", 3.5, object(), [], {}, -1, 10**30, True, b"x", [object()], (1, 2, 3, 4)]


def fill(function, given: dict) -> dict:
    """Good values for the parameters of ``function`` that need one."""
    parameters = inspect.signature(function).parameters
    return {name: given[name] for name, p in parameters.items()
            if name in given and p.default is inspect.Parameter.empty}


def junk_calls(function, good: dict):
    """(parameter, junk value, thunk): each parameter in turn set to junk."""
    for name, p in inspect.signature(function).parameters.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        for junk in JUNK:
            if junk is None and p.default is None:
                continue   # None is what the parameter takes by default
            yield name, junk, lambda name=name, junk=junk: function(**{**good, name: junk})


def assert_only_value_or_type_errors(function, good: dict) -> None:
    for name, junk, call in junk_calls(function, good):
        try:
            call()
        except (TypeError, ValueError):
            pass
        except Exception as error:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{function.__qualname__}({name}={junk!r:.30}) raised {type(error).__name__}: {error}")


POSITION = Position.start(DEAL, "6c", 1)
GOOD = dict(deal=DEAL, contract="6c", declarer=1, leader=0, player=1, position=POSITION, source=DEAL,
            played=[], seat=1, target=3)


def public_functions(module) -> list:
    return [getattr(module, name) for name in module.__all__ if inspect.isfunction(getattr(module, name))]


@pytest.mark.parametrize("function", public_functions(api) + public_functions(analysis),
                         ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_solver_and_analysis_functions(function) -> None:
    if function is api.thread_solver:
        return
    assert_only_value_or_type_errors(function, fill(function, GOOD))


@pytest.mark.parametrize("method", ["solve", "probe", "card_values", "best_line", "set_options",
                                    "set_order_weights", "set_table_policy"])
def test_solver_methods(method: str) -> None:
    solver = Solver(1)
    function = getattr(solver, method)
    assert_only_value_or_type_errors(function, fill(function, {**GOOD, "flags": 0, "weights": solver.order_weights}))


WHIST = dict(hand="JT98.JT.98.A9", talon="..J.K", contract="6s", declarer=0, seat=1)
BID = dict(hand="AKQJ.AK.AK.AK", seat=0)
ENUMERATION = dict(hand="AK.A.A.", declarer=0, contracts="6s", defenders="QJ.KQ.KQ.AK", prior_tricks=(3, 2, 1))
FAST = RunOptions(layouts=3, workers=1)


@pytest.mark.parametrize("function, good", [
    (advice.whist_request, WHIST), (advice.bid_request, BID), (advice.enumeration_request, ENUMERATION),
    (parse_contracts, {"text": "6s"}), (RunOptions, {"layouts": 3, "workers": 1}),
    (advice.advise_whist, dict(request=advice.whist_request(**WHIST), options=FAST)),
    (advice.advise_bid, dict(request=advice.bid_request(**BID), options=FAST)),
    (advice.enumerate_splits, dict(request=advice.enumeration_request(**ENUMERATION), options=FAST)),
    (advice.layout_space, dict(r=advice.whist_request(**WHIST))),
    (advice.whist_json, {}), (advice.bid_json, {}), (advice.enumeration_json, {}),
], ids=lambda x: getattr(x, "__name__", ""))
def test_advice_functions(function, good: dict) -> None:
    assert_only_value_or_type_errors(function, good)


@pytest.mark.parametrize("call, kind, named", [
    (lambda: api.solve(None, "6s", 0), TypeError, "deal"),
    (lambda: api.solve(DEAL, None, 0), TypeError, "contract"),
    (lambda: api.solve(DEAL, "6s", None), ValueError, "declarer"),
    (lambda: Solver(1).solve("text"), TypeError, "position"),
    (lambda: Solver(1).card_values(None), TypeError, "position"),
    (lambda: Solver(1).set_options(10**30), ValueError, "flags"),
    (lambda: Solver(1).set_table_policy(10**30), ValueError, "part_ways"),
    (lambda: Solver(1).set_table_policy(15, 0), ValueError, "solves_per_generation"),
    (lambda: Solver(1).set_table_policy("63", 1), ValueError, "part_ways"),
    (lambda: Solver(1).set_table_policy(63, 1, 0), ValueError, "exact_table"),
    (lambda: Solver(1).set_order_weights([10**30] * 29), ValueError, "whole numbers"),
    (lambda: Solver(1).set_order_weights(None), ValueError, "whole numbers"),
    (lambda: RunOptions(cancel="yes"), TypeError, "cancel"),
    (lambda: RunOptions(progress=3), TypeError, "progress"),
    (lambda: RunOptions(table_mib=10**9), ValueError, "table_mib"),
    (lambda: RunOptions(seconds=float("nan")), ValueError, "time budget"),
    (lambda: advice.advise_whist("text"), TypeError, "request"),
    (lambda: advice.advise_bid(advice.bid_request(**BID), options="fast"), TypeError, "options"),
    (lambda: analysis.best_discard(DEAL, 1, "6s", solver="mine"), TypeError, "solver"),
    (lambda: analysis.best_line(None), TypeError, "position"),
    (lambda: analysis.analyze_play(DEAL, 1, "6s", played=[1, 2]), TypeError, "played card"),
    (lambda: analysis.discard_text(None), TypeError, "discard"),
])
def test_named_cases(call, kind: type, named: str) -> None:
    with pytest.raises(kind, match=named):
        call()
