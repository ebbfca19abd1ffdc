"""Preferans scoring: Sochi, Leningrad and Rostov (spec ``shared/spec/scoring.md``).

Pure Python, exact rationals (:class:`fractions.Fraction`) throughout.

* Conventions: :data:`SOCHI`, :data:`LENINGRAD`, :data:`ROSTOV`, :func:`get_convention`
  (named option sets of §4 with overrides).
* Outcomes (input): :class:`ContractOutcome`, :class:`MisereOutcome`,
  :class:`AllPassOutcome`, :class:`GiveUpOutcome`, :class:`TalonBonusOutcome`,
  :class:`Decision`.
* Deal records: :func:`score_deal` → :class:`ScoredDeal` with its :class:`Records` delta.
* Score sheet: :class:`ScoreSheet` (pool closing, help, all-pass progression, end of
  game), :func:`write_with_help`, :class:`AllPassProgression`.
* Settlement: :func:`settle` → :class:`Settlement`; :func:`round_balances`.
* Single-deal value: :func:`deal_value` (convention, outcome) → whists per player;
  :func:`record_value`, :func:`expected_value`, :func:`decide_whist`.
* Requests: :class:`ScoringRequest` (typed) and :func:`answer_request`; :func:`play_game`.
* JSON: :func:`handle_request` (the ``prefdd score`` protocol, through :func:`scoring_request`),
  :func:`game_from_json`,
  :func:`outcome_json` / :func:`outcome_from_json`, :func:`deal_score_json`.
* Errors: :class:`ScoringError` (a :class:`ValueError`).

The package imports its modules on first use of a name (:mod:`solver.lazy`);
every name above is importable from the package as it is from its module.
"""
from ..lazy import lazy_package

_HOMES = {
    "errors": ("ScoringError",),
    "jsonio": ("Game", "ScoringRequest", "answer_request", "deal_score_json", "game_from_json",
               "handle_request", "outcome_from_json", "outcome_json", "play_game", "scoring_request"),
    "options": ("CONVENTIONS", "LENINGRAD", "ROSTOV", "SOCHI", "Convention", "get_convention",
                "option_names"),
    "outcome": ("AllPassOutcome", "ContractOutcome", "DealOutcome", "Decision", "GiveUpOutcome",
                "MisereOutcome", "TalonBonusOutcome"),
    "records": ("Records", "ScoredDeal", "allpass_price", "contract_price", "obligation", "score_deal"),
    "settlement": ("PairwiseNet", "Settlement", "round_balances", "settle"),
    "sheet": ("AllPassProgression", "ProgressionEvent", "ScoreSheet", "SheetEntry", "route_pool_write",
              "write_with_help"),
    "value": ("OutcomeValue", "WhistDecision", "decide_whist", "deal_value", "expected_value",
              "record_value"),
}
__all__ = lazy_package(__name__, _HOMES)
