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
* JSON: :func:`handle_request` (the ``prefdd score`` protocol), :func:`game_from_json`.
* Errors: :class:`ScoringError` (a :class:`ValueError`).
"""

from .errors import ScoringError
from .jsonio import Game, game_from_json, handle_request, outcome_from_json
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
    "ScoringError",
    "Settlement",
    "SheetEntry",
    "TalonBonusOutcome",
    "WhistDecision",
    "allpass_price",
    "contract_price",
    "deal_value",
    "decide_whist",
    "expected_value",
    "game_from_json",
    "get_convention",
    "handle_request",
    "obligation",
    "option_names",
    "outcome_from_json",
    "record_value",
    "round_balances",
    "route_pool_write",
    "score_deal",
    "settle",
    "write_with_help",
]
