"""The whist advice's lean path (ContractPlay.play_masks straight to the C
searches through StartDiscards, the layouts drawn as masks) gives the same
outcome on every layout, and the same advice, as the path through Hands,
Deals and Positions (``lean=False``); runs that share their solvers
(run_layouts' ``solvers``, the advice and its blind-discard figure) answer
as runs on fresh ones."""
from __future__ import annotations

import functools
import weakref

import pytest

from solver.advice import RunOptions, advise_whist, whist_request
from solver.advice import whist as whist_module
from solver.advice.jsonio import whist_json
from solver.advice.parallel import run_layouts
from solver.advice.play import ContractPlay
from solver.advice.whist_request import layout_space
from solver.engine import Solver
from solver.notation import Contract, ContractKind, Hand

HAND = "JT98.JT.98.A9"
REQUESTS = {
    "second defender, auction model": dict(hand=HAND, talon="..J.K", contract="6c", seat=0, other_decision="pass"),
    "first defender, split": dict(hand=HAND, talon="..J.K", contract="6c", seat=2, other_decision=None),
    "two whisters, no auction model": dict(hand=HAND, talon="..J.K", contract="7h", seat=0, other_decision="whist",
                                           auction=None),
    "endgame with prior tricks, split": dict(hand="K.9.A8.", talon="7...7", contract="6nt", seat=2,
                                             other_decision=None, unseen="AQ.KQ.KQ.A8", prior_tricks=(2, 3, 1),
                                             auction=None),
}


def request_of(name: str):
    settings = dict(REQUESTS[name])
    return whist_request(settings.pop("hand"), settings.pop("talon"), settings.pop("contract"), 1,
                         settings.pop("seat"), **settings)


def play_of(request, split: bool, contract: str | None, **flags) -> ContractPlay:
    return ContractPlay(Contract.parse(contract) if contract else request.contract, request.declarer, request.leader, request.played, request.prior_tricks,
                        request.discard_model, split, request.auction_played, request.whisters, **flags)


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("name, contract", [(name, None) for name in REQUESTS] + [
    ("first defender, split", "misere"),   # the declarer's misère on the same layouts (no auction model)
    ("two whisters, no auction model", "8nt")])
def test_play_masks_equals_the_call_on_every_layout(name: str, contract: str | None, split: bool) -> None:
    request = request_of(name)
    space = layout_space(request)
    lean, plain = play_of(request, split, contract), play_of(request, split, contract, lean=False)
    solver, other = Solver(), Solver()
    kept = 0
    for index in range(min(100, space.count())):
        parts = space.sample_masks(3, index)
        assert parts == tuple(part.mask for part in space.sample(3, index))
        hands = [request.hand.mask] * 3
        hands[request.declarer], hands[request.other] = parts
        masks = (hands[0], hands[1], hands[2])
        expected = plain((Hand(masks[0]), Hand(masks[1]), Hand(masks[2])), request.talon, other)
        assert lean.play_masks(masks, request.talon.mask, solver) == expected, index
        assert plain.play_masks(masks, request.talon.mask, other) == expected, index
        kept += expected is not None
    assert kept >= 5


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("name, contract", [(name, None) for name in REQUESTS] + [
    ("first defender, split", "misere"),   # a misère's auction test: one layout at a time
    ("two whisters, no auction model", "misere")])   # the misère in one C call
def test_play_masks_many_equals_play_masks_one_by_one(name: str, contract: str | None, split: bool) -> None:
    # The searches of many layouts in one C call (pdd_best_discard_lines):
    # the same outcomes. A trick contract's run shares table generations
    # (its nodes differ from the calls one by one); a misère's is the same
    # searches on the table (node counts).
    request = request_of(name)
    space = layout_space(request)
    play = play_of(request, split, contract)
    layouts = []
    for index in range(min(60, space.count())):
        hands = [request.hand.mask] * 3
        hands[request.declarer], hands[request.other] = space.sample_masks(5, index)
        layouts.append((hands[0], hands[1], hands[2]))
    one, many = Solver(), Solver()
    expected = [play.play_masks(masks, request.talon.mask, one) for masks in layouts]
    got = play.play_masks_many(layouts[:7], request.talon.mask, many) + play.play_masks_many(
        layouts[7:], request.talon.mask, many)
    assert got == expected
    assert one.stats().nodes > 0
    if play.contract.kind is not ContractKind.TRICKS:
        assert many.stats().nodes == one.stats().nodes
    assert sum(outcome is not None for outcome in expected) >= 5
    assert play.play_masks_many([], request.talon.mask, many) == []


@pytest.mark.parametrize("name", ["second defender, auction model", "first defender, split",
                                  "endgame with prior tricks, split"])
def test_whist_advice_figures_equal_with_and_without_the_lean_path(name: str, monkeypatch) -> None:
    request = request_of(name)
    options = RunOptions(layouts=80, seed=11, workers=2)

    def figures():
        answer = whist_json(advise_whist(request, options))
        for volatile in ("elapsed", "seconds", "workers"):
            answer["run"].pop(volatile, None)
        return answer

    lean = figures()
    monkeypatch.setattr(whist_module, "ContractPlay", functools.partial(ContractPlay, lean=False))
    assert figures() == lean
    assert lean["run"]["layouts"] == min(80, layout_space(request).count())   # the endgame: all 70


def test_runs_sharing_their_solvers_answer_as_fresh_ones() -> None:
    request = request_of("first defender, split")
    play, space = play_of(request, True, None), layout_space(request)

    def evaluate(parts, solver):
        hands = [request.hand.mask] * 3
        hands[request.declarer], hands[request.other] = parts
        return play.play_masks((hands[0], hands[1], hands[2]), request.talon.mask, solver)

    options = RunOptions(layouts=40, seed=5, workers=2)
    fresh = [run_layouts(space, evaluate, options, masks=True) for _ in range(2)]
    pool: list[Solver] = []
    shared = [run_layouts(space, evaluate, options, masks=True, solvers=pool)]
    made = list(pool)
    assert 1 <= len(made) <= 2
    shared.append(run_layouts(space, evaluate, options, masks=True, solvers=pool))   # stopped at the end of the first
    assert pool == made   # the same solvers again, none made
    for run in fresh + shared:
        assert run.units == fresh[0].units and run.stats.rejected == fresh[0].stats.rejected
    assert fresh[0].stats.layouts == 40


def test_a_solver_of_the_lean_path_is_freed_when_dropped() -> None:
    """The StartDiscards a solver keeps does not point back at it: the
    solver (and its table) goes as soon as the last reference does, with
    no garbage collection."""
    request = request_of("first defender, split")
    play, space = play_of(request, True, None), layout_space(request)
    solver = Solver(1)
    for index in range(5):
        hands = [request.hand.mask] * 3
        hands[request.declarer], hands[request.other] = space.sample_masks(1, index)
        play.play_masks((hands[0], hands[1], hands[2]), request.talon.mask, solver)
    assert solver._starts   # the lean path was taken
    gone = weakref.ref(solver)
    del solver
    assert gone() is None


@pytest.mark.parametrize("table_mib", [1, 16])
def test_a_table_made_from_a_freed_one_searches_as_a_fresh_one(table_mib: int) -> None:
    """csrc/tt.c keeps freed table blocks for the next table of their size;
    tt_clear empties them, so a solver made after another was freed searches
    exactly as the first one did (values and nodes)."""
    request = request_of("second defender, auction model")
    play, space = play_of(request, False, None), layout_space(request)

    def searched() -> tuple[list, int]:
        solver = Solver(table_mib)
        outcomes = []
        for index in range(30):
            hands = [request.hand.mask] * 3
            hands[request.declarer], hands[request.other] = space.sample_masks(2, index)
            outcomes.append(play.play_masks((hands[0], hands[1], hands[2]), request.talon.mask, solver))
        return outcomes, solver.stats().nodes

    first = searched()
    assert first[1] > 0
    for _ in range(3):
        assert searched() == first
