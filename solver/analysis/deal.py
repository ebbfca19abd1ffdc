"""Analyse a deal: the one orchestration of ``prefdd analyze``, the
``AnalyzeDeal`` RPC and ``POST /api/v1/analyze``.

:func:`analyze_deal` takes a :class:`DealRequest` and answers a
:class:`DealAnalysis`; the front ends only convert (argparse, a proto, a JSON
body → request; analysis → text, JSON, proto). What is analysed:

* no contract: the deal's table (when the deal has a talon) and the all-pass
  values from the start;
* a trick contract or misère: the best discards (when the deal has a talon),
  the play card by card (the declarer's own discard if given, else his best)
  and the best line from the end of the cards played;
* all-pass: the play card by card (each card judged by its player's own
  value), the all-pass values after the cards played and the max^n line.

The score (optional, :attr:`DealRequest.scoring`) is one of two kinds:

* :class:`ScoringPlan`: the deal scored as it would end if play went on from
  the cards played along the best line (all-pass: the max^n line), so a
  finished play is scored as played; players are named by seat, ``"0" "1"
  "2"``. A trick contract needs both defenders' decisions (whether the deal
  is played follows from them: both pass or a half-whist that stands leave it
  unplayed, and a checked 10 that makes stands unplayed).
* :class:`RecordScore`: a game record's own outcome, scored as recorded.

A scoring input the scoring package rejects leaves the score out with the
package's message in :attr:`DealAnalysis.score_omitted`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from ..api import given_solver
from ..engine import Solver
from ..notation import Card, Contract, ContractKind, Deal, Hand, check_seat
from ..position import Position
from ..scoring import (AllPassOutcome, ContractOutcome, Convention, DealOutcome, Decision, MisereOutcome, Records,
                       ScoringError, record_value, score_deal)
from .allpass import AllPassLine, AllPassValues, allpass_line, allpass_values
from .discard import AnalysisError, AnalysisTypeError, BestDiscard, best_discard
from .play import PlayAnalysis, analyze_play
from .table import DiscardTable, discard_table

__all__ = ["DealAnalysis", "DealRequest", "DealScore", "RecordScore", "ScoringPlan", "analyze_deal", "SEAT_PLAYERS"]

SEAT_PLAYERS = ("0", "1", "2")
"""Player names of a :class:`ScoringPlan`'s score: the seats."""
STRAIN_TEXT = ("s", "c", "d", "h", "nt")
ALLPASS = Contract(ContractKind.ALLPASS)


@dataclass(frozen=True)
class ScoringPlan:
    """Score the deal's end along the best line: what the score needs besides the play."""

    convention: Convention
    first: Decision | None = None
    """The first defender's decision (trick contracts only)."""
    second: Decision | None = None
    returned: bool = False
    """The passing defender returned the other's half-whist."""

    def outcome(self, contract: Contract, declarer: int, tricks: tuple[int, int, int]) -> DealOutcome:
        """The scoring outcome of the contract ending with ``tricks`` by seat."""
        names = SEAT_PLAYERS
        by_seat = {names[seat]: tricks[seat] for seat in range(3)}
        if contract.kind is ContractKind.ALLPASS:
            return AllPassOutcome(names, by_seat)
        if contract.kind is ContractKind.MISERE:
            return MisereOutcome(names, names[declarer], by_seat)
        assert self.first is not None and self.second is not None
        assert contract.strain is not None and contract.level is not None
        first, second = (declarer + 1) % 3, (declarer + 2) % 3
        returned_by = None
        if self.returned:
            returned_by = names[second if self.first is Decision.HALF_WHIST else first]
        return ContractOutcome(names, names[declarer], contract.level,
                               {names[first]: self.first, names[second]: self.second},
                               by_seat if self._played(contract, tricks[declarer]) else {},
                               returned_by=returned_by, strain=STRAIN_TEXT[contract.strain])

    def _played(self, contract: Contract, declarer_tricks: int) -> bool:
        if contract.level == 10 and not self.convention.ten_whisted:
            return declarer_tricks < 10  # a checked 10: played unless it stands
        decisions = (self.first, self.second)
        if Decision.HALF_WHIST in decisions:
            return self.returned
        return Decision.WHIST in decisions

    def check(self, contract: Contract, declarer: int) -> None:
        """The scoring package's own checks, before any search, with a made
        contract standing in for the play's outcome (raises ScoringError)."""
        tricks = [0, 0, 0]
        if contract.kind is ContractKind.ALLPASS:
            tricks = [4, 3, 3]
        else:
            taken = contract.level if contract.kind is ContractKind.TRICKS else 0
            assert taken is not None
            tricks[declarer], tricks[(declarer + 1) % 3] = taken, 10 - taken
        score_deal(self.convention, self.outcome(contract, declarer, (tricks[0], tricks[1], tricks[2])))


@dataclass(frozen=True)
class RecordScore:
    """A deal's recorded outcome, scored as it is whatever the analysis finds."""

    convention: Convention
    outcome: DealOutcome


Scoring = Union[ScoringPlan, RecordScore]


@dataclass(frozen=True)
class DealRequest:
    """What to analyse. ``played`` is card text or a sequence of cards;
    ``discard`` a hand or its text (None: the declarer's best)."""

    deal: Deal
    contract: Contract | None = None
    declarer: int | None = None
    """Required for a trick contract or misère; all-pass: the seat the
    starting value counts (None: seat 0); must be None without a contract."""
    discard: Hand | str | None = None
    played: str | tuple[Card | str, ...] = ()
    leader: int = 0
    talon_leads: bool = True
    four_players: bool = False
    scoring: Scoring | None = None
    score_omitted: str = ""
    """Why there will be no score, when the front end knows already."""
    table_workers: int = 1
    """Threads sharing the deal's table (no contract): see :func:`discard_table`."""

    def __post_init__(self) -> None:
        """The deal and the contract as objects (text is read), the seats and
        flags checked: a request is checked once, when it is made."""
        object.__setattr__(self, "deal", Deal.coerce(self.deal))
        if self.contract is not None:
            object.__setattr__(self, "contract", Contract.coerce(self.contract))
        if self.declarer is not None:
            check_seat(self.declarer, "declarer", AnalysisError)
        check_seat(self.leader, "leader", AnalysisError)
        for name in ("talon_leads", "four_players"):
            if not isinstance(getattr(self, name), bool):
                raise AnalysisTypeError(f"{name} must be True or False, got {getattr(self, name)!r:.60}")
        if self.scoring is not None and not isinstance(self.scoring, (ScoringPlan, RecordScore)):
            raise AnalysisTypeError(f"scoring must be a ScoringPlan or a RecordScore, got {self.scoring!r:.60}")
        if not isinstance(self.score_omitted, str):
            raise AnalysisTypeError(f"score_omitted must be text, got {self.score_omitted!r:.60}")


@dataclass(frozen=True)
class DealScore:
    """The score of the deal's outcome."""

    outcome: DealOutcome
    records: Records
    value: dict[str, Fraction]
    """The deal's value in whists by player (scoring spec §8)."""
    tricks: tuple[int, int, int] | None = None
    """The tricks by seat the outcome was made of (a :class:`ScoringPlan`'s)."""

    @property
    def played(self) -> bool:
        return not isinstance(self.outcome, ContractOutcome) or bool(self.outcome.tricks)


@dataclass(frozen=True)
class DealAnalysis:
    deal: Deal
    contract: Contract | None
    table: DiscardTable | None = None
    allpass: AllPassValues | None = None
    """No contract: from the start; all-pass: after the cards played."""
    best: BestDiscard | None = None
    play: PlayAnalysis | None = None
    line: AllPassLine | None = None
    score: DealScore | None = None
    score_omitted: str = ""


def analyze_deal(request: DealRequest, solver: Solver | None = None) -> DealAnalysis:
    """Everything the request asks for (with ``solver``, or the calling thread's)."""
    if not isinstance(request, DealRequest):
        raise AnalysisTypeError(f"request must be a DealRequest, got {type(request).__name__} {request!r:.60}")
    r = request
    solver = given_solver(solver)
    if r.contract is None:
        if r.declarer is not None or r.discard is not None or r.played:
            raise AnalysisError("a declarer, a discard or cards played need a contract")
        table = None
        if r.deal.talon is not None:
            table = discard_table(r.deal, leader=r.leader, solver=solver, workers=r.table_workers)
        start = Position.start(r.deal, ALLPASS, 0, r.leader, talon_leads=r.talon_leads,
                               four_players=r.four_players)
        values = allpass_values(start, solver=solver)
        return DealAnalysis(r.deal, None, table=table, allpass=values, score_omitted=r.score_omitted)
    if r.contract.kind is ContractKind.ALLPASS:
        play = _play(r, r.declarer or 0, solver)
        values = allpass_values(play.final, solver=solver)
        line = allpass_line(play.final, solver=solver)
        unclaimed = f"{line.unclaimed} trick(s) of the line go to no seat" if line.unclaimed else ""
        score, omitted = _score(r, 0, line.tricks, unclaimed)
        return DealAnalysis(r.deal, r.contract, allpass=values, play=play, line=line, score=score,
                            score_omitted=omitted)
    if r.declarer is None:
        raise AnalysisError("a trick contract or misère needs the declarer")
    best = None
    if r.deal.talon is not None:
        best = best_discard(r.deal, r.declarer, r.contract, leader=r.leader, solver=solver)
    play = _play(r, r.declarer, solver, best)
    score, omitted = _score(r, r.declarer, _end_tricks(play), "")
    return DealAnalysis(r.deal, r.contract, best=best, play=play, score=score, score_omitted=omitted)


def _play(r: DealRequest, declarer: int, solver: Solver, best: BestDiscard | None = None) -> PlayAnalysis:
    assert r.contract is not None
    options: dict[str, object] = {"best": best}
    if r.contract.kind is ContractKind.ALLPASS:
        options = dict(talon_leads=r.talon_leads, four_players=r.four_players)
    return analyze_play(r.deal, declarer, r.contract, r.played, discard=r.discard, leader=r.leader,
                        solver=solver, **options)


def _end_tricks(play: PlayAnalysis) -> tuple[int, int, int]:
    """Tricks by seat at the end of the best line from the cards played."""
    end = play.final
    for card in play.line.cards if play.line is not None else ():
        end = end.play(card)
    return end.tricks_taken


def _score(r: DealRequest, declarer: int, tricks: tuple[int, int, int],
           omitted: str) -> tuple[DealScore | None, str]:
    """The score the request asks for, or why there is none."""
    scoring = r.scoring
    if scoring is None:
        return None, r.score_omitted
    if isinstance(scoring, RecordScore):
        outcome, made_of = scoring.outcome, None
    elif omitted:
        return None, omitted
    else:
        assert r.contract is not None
        outcome, made_of = scoring.outcome(r.contract, declarer, tricks), tricks
    try:
        records = score_deal(scoring.convention, outcome).records
    except ScoringError as error:
        return None, str(error)
    return DealScore(outcome, records, record_value(scoring.convention, records), made_of), ""

