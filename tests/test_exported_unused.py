"""Exported API that no caller in the package uses: best_discards_many's
``all_best`` and AuctionFilter's single tests, each against the path the
package does use."""
from __future__ import annotations

import pytest

from solver import Contract, Deal, Hand, Solver
from solver.advice import AuctionFilter
from solver.analysis.discard import discard_job
from solver.engine import best_discard_search, best_discards_many

FULL_DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"


def test_best_discards_many_with_all_best_answers_every_best_discard() -> None:
    deal = Deal.parse(FULL_DEAL)
    jobs = [discard_job(deal, declarer, contract) for declarer in range(3) for contract in ("6c", "7nt", "misere")]
    many = best_discards_many([Solver(1), Solver(1)], jobs, all_best=True)
    one = best_discards_many([Solver(1)], jobs)
    for job, every, single in zip(jobs, many, one):
        alone = best_discard_search(Solver(1), job.hands, job.pool, job.declarer, job.contract, job.leader, True)
        assert every == alone
        assert every.value == single.value and set(single.discards) <= set(every.discards)
    assert any(len(every.discards) > len(single.discards) for every, single in zip(many, one))


@pytest.mark.parametrize("contract, pool, least, ok", [
    ("6s", "AK87.Q..7", 4, True),
    ("6s", "AK8.Q..7", 4, False),
    ("6s", "AK8.Q..7", 3, True),
    ("6s", "AK8.Q..7", None, True),
    ("7nt", "", 4, True),          # no trumps to count
    ("misere", "", 4, True),
    ("6h", "AKQJ.7..", 1, False),  # spades and a club: no heart
])
def test_trumps_ok_counts_the_trumps_of_the_pool(contract: str, pool: str, least, ok: bool) -> None:
    auction = AuctionFilter(min_trumps=least, max_undertricks=None)
    cards = Hand.parse(pool) if pool else Hand(0)
    assert auction.trumps_ok(Contract.parse(contract), cards) is ok
    assert auction.hands_ok(Contract.parse(contract), cards, [], ()) is ok


@pytest.mark.parametrize("hand, least, ok", [
    ("A...", 1, True),
    ("K...", 1, False),    # a bare king is no top
    ("K7...", 1, True),
    ("A.K7..", 2, True),
    ("A.K..", 2, False),
    ("", 0, True),
    ("", None, True),
])
def test_whister_ok_counts_the_whisters_tops(hand: str, least, ok: bool) -> None:
    auction = AuctionFilter(min_trumps=None, max_undertricks=None, whister_min_tops=least)
    cards = Hand.parse(hand) if hand else Hand(0)
    assert auction.whister_ok(cards) is ok
    assert auction.hands_ok(Contract.parse("6s"), Hand(0), [Hand(0), cards, Hand(0)], (1,)) is ok
