"""``solver.advice``, ``solver.analysis`` and ``solver.scoring`` load their
modules on first use of a name (:mod:`solver.lazy`): every public name is
importable from the package and is its module's object, whatever was
imported before; submodules are reachable as attributes; a name the package
does not have is an AttributeError."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import solver.advice
import solver.analysis
import solver.scoring

from conftest import REPO

PACKAGES = [solver.advice, solver.analysis, solver.scoring]
NAMES = [(package.__name__, name) for package in PACKAGES for name in package.__all__]


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("package", [p.__name__ for p in PACKAGES])
def test_importing_a_package_loads_none_of_its_modules(package: str) -> None:
    code = f"import sys, {package}\nprint(' '.join(m for m in sys.modules if m.startswith('{package}.')))"
    assert _run(code).split() == []


@pytest.mark.parametrize("package, name", NAMES)
def test_every_public_name_is_its_modules_object(package: str, name: str) -> None:
    module = sys.modules[package]
    value = getattr(module, name)
    home = importlib.import_module(f"{package}.{module._homes[name]}")
    assert value is getattr(home, name)
    namespace: dict = {}
    exec(f"from {package} import {name}", namespace)
    assert namespace[name] is value


@pytest.mark.parametrize("name", ["whist_request", "play_json"])
def test_a_name_of_a_function_and_a_module_stays_the_function(name: str) -> None:
    """The advice's ``whist_request`` and ``play_json`` are functions, also
    after their modules of the same name are imported first, in a fresh
    interpreter."""
    _run(f"import solver.advice.{name}\n"
         f"from solver.advice import {name}\n"
         f"import solver.advice as a, sys\n"
         f"assert callable({name}) and {name}.__name__ == {name!r}, {name}\n"
         f"assert a.{name} is {name}\n"
         f"assert sys.modules['solver.advice.{name}'].__name__ == 'solver.advice.{name}'\n")
    assert callable(getattr(solver.advice, name)) and getattr(solver.advice, name).__name__ == name


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_submodules_are_attributes_and_unknown_names_are_errors(package) -> None:
    submodule = sorted(set(package._homes.values()))[0]
    assert getattr(package, submodule).__name__ == f"{package.__name__}.{submodule}"
    with pytest.raises(AttributeError, match="no_such_thing"):
        package.no_such_thing  # noqa: B018
    with pytest.raises(ImportError):
        exec(f"from {package.__name__} import no_such_thing", {})
    assert set(package.__all__) <= set(dir(package))
    namespace: dict = {}
    exec(f"from {package.__name__} import *", namespace)
    assert set(package.__all__) <= set(namespace)


# The public names the packages have always exported (kept as written here,
# so that a name dropped from a package's table fails the test below).
PINNED = {
    "solver.advice": (
        "AUCTION_MODEL", "AdviceError", "AuctionFilter", "BidAdvice", "BidRequest", "CardAdvice",
        "ContractAdvice", "ContractCount", "DefenceRule", "DiscardModel", "Enumeration",
        "EnumerationRequest", "Estimate", "LayoutSpace", "PlayAdvice", "PlayRequest", "Progress",
        "ProgressBar", "RunOptions", "RunStats", "Scenario", "WhistAdvice", "WhistOption",
        "WhistRequest", "advise_bid", "advise_play", "advise_whist", "auction_text", "bid_json",
        "bid_request", "enumerate_splits", "enumeration_json", "enumeration_request",
        "layout_space", "parse_contracts", "play_json", "play_request", "play_space", "whist_json",
        "whist_request"
    ),
    "solver.analysis": (
        "AllPassLine", "AllPassValues", "AnalysisError", "AnalysisTypeError", "BIDDING_ORDER",
        "BestDiscard", "BestLine", "CardStep", "DealAnalysis", "DealRequest", "DealScore",
        "DiscardTable", "LineTrick", "PlayAnalysis", "PlayedCard", "RecordScore", "ScoringPlan",
        "SeatTable", "StrainBest", "allpass_line", "allpass_values", "analyze_deal", "analyze_play",
        "best_discard", "best_line", "deal_after_discard", "discard_table", "discard_text",
        "highest_contract"
    ),
    "solver.scoring": (
        "AllPassOutcome", "AllPassProgression", "CONVENTIONS", "ContractOutcome", "Convention",
        "DealOutcome", "Decision", "Game", "GiveUpOutcome", "LENINGRAD", "MisereOutcome",
        "OutcomeValue", "PairwiseNet", "ProgressionEvent", "ROSTOV", "Records", "SOCHI",
        "ScoreSheet", "ScoredDeal", "ScoringError", "ScoringRequest", "Settlement", "SheetEntry",
        "TalonBonusOutcome", "WhistDecision", "allpass_price", "answer_request", "contract_price",
        "deal_score_json", "deal_value", "decide_whist", "expected_value", "game_from_json",
        "get_convention", "handle_request", "obligation", "option_names", "outcome_from_json",
        "outcome_json", "play_game", "record_value", "round_balances", "route_pool_write",
        "score_deal", "scoring_request", "settle", "write_with_help"
    ),
}


@pytest.mark.parametrize("package", sorted(PINNED))
def test_the_pinned_public_names_are_still_exported(package: str) -> None:
    module = importlib.import_module(package)
    missing = [name for name in PINNED[package] if name not in module.__all__ or not hasattr(module, name)]
    assert missing == []
