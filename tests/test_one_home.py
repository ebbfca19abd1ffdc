"""Each game rule has one home; the places that use it agree with it."""
from __future__ import annotations

import pytest

from solver.advice.play import made
from solver.analysis.cli import format_best_discard
from solver.analysis.discard import BestDiscard
from solver.cli import main
from solver.notation import Contract, ContractKind, Hand, NotationError
from solver import solve

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
CONTRACTS = [Contract.parse(text) for text in ("6s", "7c", "8d", "9h", "10nt", "misere")]


@pytest.mark.parametrize("contract", CONTRACTS, ids=str)
def test_is_made_callers_agree(contract: Contract) -> None:
    verdicts = []
    for tricks in range(11):
        found = BestDiscard(0, contract, tricks, (Hand.parse("AsKs"),), 1)
        verdict = contract.is_made(tricks)
        assert made(contract, tricks) is verdict
        assert found.made is verdict
        text = format_best_discard(found)
        assert ("made" in text and "down" not in text and "caught" not in text) is verdict
        verdicts.append(verdict)
    if contract.kind is ContractKind.MISERE:
        assert verdicts == [True] + [False] * 10
    else:
        assert contract.level is not None
        assert verdicts == [t >= contract.level for t in range(11)]


def test_is_made_all_pass_has_nothing_to_make() -> None:
    with pytest.raises(NotationError, match="all-pass"):
        Contract.parse("allpass").is_made(0)


@pytest.mark.parametrize("text", ["6c", "7c", "8c", "misere"])
def test_is_made_solve_command_agrees(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    contract = Contract.parse(text)
    assert main(["solve", DEAL, "--contract", text, "--declarer", "1"]) == 0
    shown = capsys.readouterr().out.splitlines()[-1]
    value = solve(DEAL, contract, 1)
    says_made = "made" in shown and "down" not in shown and "caught" not in shown
    assert says_made is contract.is_made(value)
