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
"""

from .errors import ScoringError
from .jsonio import (Game, ScoringRequest, answer_request, deal_score_json, game_from_json, handle_request,
                     outcome_from_json, outcome_json, play_game, scoring_request)
from .options import CONVENTIONS, LENINGRAD, ROSTOV, SOCHI, Convention, get_convention, option_names
from .outcome import (
    AllPassOutcome,
    ContractOutcome,
    DealOutcome,
    Decision,
    GiveUpOutcome,
    MisereOutcome,
    TalonBonusOutcome,
)
from .records import Records, ScoredDeal, allpass_price, contract_price, obligation, score_deal
from .settlement import PairwiseNet, Settlement, round_balances, settle
from .sheet import AllPassProgression, ProgressionEvent, ScoreSheet, SheetEntry, route_pool_write, write_with_help
from .value import OutcomeValue, WhistDecision, decide_whist, deal_value, expected_value, record_value

__all__ = [
    "AllPassOutcome",
    "AllPassProgression",
    "CONVENTIONS",
    "ContractOutcome",
    "Convention",
    "DealOutcome",
    "Decision",
    "Game",
    "GiveUpOutcome",
    "LENINGRAD",
    "MisereOutcome",
    "OutcomeValue",
    "PairwiseNet",
    "ProgressionEvent",
    "ROSTOV",
    "Records",
    "SOCHI",
    "ScoreSheet",
    "ScoredDeal",
    "ScoringRequest",
    "ScoringError",
    "Settlement",
    "SheetEntry",
    "TalonBonusOutcome",
    "WhistDecision",
    "allpass_price",
    "answer_request",
    "contract_price",
    "deal_score_json",
    "deal_value",
    "decide_whist",
    "expected_value",
    "game_from_json",
    "get_convention",
    "handle_request",
    "obligation",
    "play_game",
    "option_names",
    "outcome_from_json",
    "outcome_json",
    "record_value",
    "round_balances",
    "route_pool_write",
    "score_deal",
    "scoring_request",
    "settle",
    "write_with_help",
]
