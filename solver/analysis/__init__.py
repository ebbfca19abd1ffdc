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

The package imports its modules on first use of a name (:mod:`solver.lazy`);
every name above is importable from the package as it is from its module.
"""
from ..lazy import lazy_package

_HOMES = {
    "allpass": ("AllPassLine", "AllPassValues", "allpass_line", "allpass_values"),
    "discard": ("AnalysisError", "AnalysisTypeError", "BestDiscard", "best_discard", "deal_after_discard",
                "discard_text"),
    "deal": ("DealAnalysis", "DealRequest", "DealScore", "RecordScore", "ScoringPlan", "analyze_deal"),
    "lines": ("LineTrick", "PlayedCard"),
    "play": ("BestLine", "CardStep", "PlayAnalysis", "analyze_play", "best_line"),
    "table": ("BIDDING_ORDER", "DiscardTable", "SeatTable", "StrainBest", "discard_table",
              "highest_contract"),
}
__all__ = lazy_package(__name__, _HOMES)
