"""Whole-deal analysis: what was possible in a finished deal and what went wrong.

* :func:`best_discard` - the declarer's best discard for a contract.
* :func:`discard_table` - the deal's table: each seat as declarer (taking the
  talon), best tricks per strain and misère with a best discard each, and the
  highest contract he could make.
* :func:`allpass_values` / :func:`allpass_line` - all-pass: each player's
  paranoid value, and the max^n line.
* :func:`analyze_play` - values before and after each card played, the cost of
  each card, the mistakes; :func:`best_line` - the principal variation.
* :func:`analyze_deal` - all of ``prefdd analyze`` (and the AnalyzeDeal RPC)
  for a :class:`DealRequest`, the score included (:mod:`.deal`).

Every function takes an optional ``solver`` (default: the calling thread's)
and answers a frozen dataclass. Bad input raises :class:`AnalysisError` (a
``ValueError``) or the notation/position errors, each naming the problem.
"""
from .allpass import AllPassLine, AllPassValues, allpass_line, allpass_values
from .discard import AnalysisError, AnalysisTypeError, BestDiscard, best_discard, deal_after_discard, discard_text
from .deal import DealAnalysis, DealRequest, DealScore, RecordScore, ScoringPlan, analyze_deal
from .lines import LineTrick, PlayedCard
from .play import BestLine, CardStep, PlayAnalysis, analyze_play, best_line
from .table import BIDDING_ORDER, DiscardTable, SeatTable, StrainBest, discard_table, highest_contract

__all__ = [
    "AllPassLine", "AllPassValues", "AnalysisError", "AnalysisTypeError", "BIDDING_ORDER", "BestDiscard", "BestLine",
    "CardStep", "DealAnalysis", "DealRequest", "DealScore", "DiscardTable", "LineTrick", "PlayAnalysis",
    "PlayedCard", "RecordScore", "ScoringPlan", "SeatTable", "StrainBest", "allpass_line", "allpass_values",
    "analyze_deal", "analyze_play", "best_discard", "best_line", "deal_after_discard", "discard_table",
    "discard_text", "highest_contract",
]
