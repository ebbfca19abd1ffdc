"""The JSON form of card-play advice (``prefdd play --json``)."""
from __future__ import annotations

from typing import Any

from ..notation import SUITS
from .card_play import CardAdvice, PlayAdvice
from .jsonio import estimate_json, run_json

__all__ = ["play_json"]


def _card_json(advice: CardAdvice) -> dict[str, Any]:
    return {"card": str(advice.card), "declarer_tricks": estimate_json(advice.declarer_tricks),
            "value": estimate_json(advice.value), "declarer_fails": estimate_json(advice.declarer_fails),
            "fail_count": advice.fail_count}


def play_json(advice: PlayAdvice) -> dict[str, Any]:
    r = advice.request
    return {
        "contract": str(r.contract),
        "declarer": r.declarer,
        "seat": r.seat,
        "convention": r.convention.name,
        "outcome": advice.scenario.value,
        "recommended": str(advice.recommended),
        "sureness": round(advice.sureness, 6),
        "advantage": None if advice.advantage is None else estimate_json(advice.advantage),
        "cards": [_card_json(card) for card in advice.cards],
        "voids": {str(seat): "".join(SUITS[s] for s in suits) for seat, suits in advice.voids.items()},
        "discard_hidden": advice.discard_hidden,
        "run": run_json(advice.run),
        "notes": list(advice.notes),
    }
