"""JSON forms of the advice results (``prefdd whist/bid/enumerate --json``,
and the service). Values in whists are floats with their standard errors;
an exact mean is also given as a rational string (``"-20/3"``)."""
from __future__ import annotations

import math
from typing import Any

from ..notation import Hand
from .bid import BidAdvice, ContractAdvice
from .enumeration import Enumeration
from .errors import require_type
from .optimism import Optimism, PairedFigure
from .parallel import RunStats
from .stats import Estimate
from .whist import WhistAdvice, WhistOption

__all__ = ["estimate_json", "run_json", "whist_json", "bid_json", "enumeration_json"]


def _number(value: float) -> float | None:
    return None if math.isnan(value) or math.isinf(value) else round(value, 6)


def estimate_json(value: Estimate) -> dict[str, Any]:
    result: dict[str, Any] = {"mean": _number(value.mean), "std_error": _number(value.std_error)}
    if value.exact is not None:
        result["exact"] = str(value.exact)
    return result


def run_json(stats: RunStats) -> dict[str, Any]:
    return {"layouts": stats.layouts, "rejected": stats.rejected, "exact": stats.exact,
            "complete": stats.complete, "stopped": stats.stopped, "seconds": round(stats.elapsed, 3),
            "workers": stats.workers, "space": stats.space, "seed": stats.seed}


def _distribution(values: dict) -> dict[str, float]:
    return {str(key): round(probability, 6) for key, probability in values.items()}


def _option_json(option: WhistOption) -> dict[str, Any]:
    result: dict[str, Any] = {
        "action": option.action,
        "description": option.description,
        "outcome": option.scenario.value,
        "value": estimate_json(option.value),
        "other_defender_value": estimate_json(option.other_value),
        "declarer_value": estimate_json(option.declarer_value),
        "declarer_fails": estimate_json(option.declarer_fails),
        "defence_tricks": None if option.defence_tricks is None else _distribution(option.defence_tricks),
        "layouts": option.layouts,
    }
    if option.replies:
        result["chooser"] = option.chooser
        result["chosen_reply"] = option.chosen_reply
        result["replies"] = [_option_json(reply) for reply in option.replies]
    return result


def _paired_json(figure: PairedFigure) -> dict[str, Any]:
    return {"double_dummy": _number(figure.double_dummy), "single_dummy": _number(figure.single_dummy),
            "std_error": _number(figure.std_error)}


def optimism_json(optimism: Optimism | None) -> dict[str, Any] | None:
    """The single-dummy figure (``single_dummy``: each pair names its
    conservative value ``single_dummy``)."""
    if optimism is None:
        return None
    return {"contract": str(optimism.contract), "layouts": optimism.layouts, "worlds": optimism.worlds,
            "tricks": _paired_json(optimism.tricks), "makes": _paired_json(optimism.makes),
            "values": {name: _paired_json(figure) for name, figure in optimism.values.items()}}


def _conservative_pair(figure: PairedFigure) -> dict[str, Any]:
    return {"double_dummy": _number(figure.double_dummy), "conservative": _number(figure.conservative),
            "std_error": _number(figure.std_error)}


def conservative_json(figure: Optimism | None) -> dict[str, Any] | None:
    """A conservative figure (``conservative``): which it is and what it
    means, and each quantity double dummy and conservative."""
    if figure is None:
        return None
    return {"figure": figure.figure, "description": figure.description, "contract": str(figure.contract),
            "layouts": figure.layouts, "worlds": figure.worlds, "tricks": _conservative_pair(figure.tricks),
            "makes": _conservative_pair(figure.makes),
            "values": {name: _conservative_pair(value) for name, value in figure.values.items()}}


def whist_json(advice: WhistAdvice) -> dict[str, Any]:
    require_type(advice, WhistAdvice, "advice")
    r = advice.request
    return {
        "contract": str(r.contract),
        "declarer": r.declarer,
        "seat": r.seat,
        "speaking_order": "first" if r.speaks_first else "second",
        "other_decision": None if r.other_decision is None else r.other_decision.value,
        "convention": r.convention.name,
        "discard_model": r.discard_model.value,
        "auction": None if r.auction_played is None else
        {**r.auction_played.as_dict(), "description": r.auction_played.describe()},
        "recommended": advice.recommended,
        "plan": advice.plan,
        "sureness": round(advice.sureness, 6),
        "advantage": None if advice.advantage is None else estimate_json(advice.advantage),
        "options": [_option_json(option) for option in advice.options],
        "declarer_tricks": _distribution(advice.declarer_tricks),
        "declarer_fails": estimate_json(advice.declarer_fails),
        "split": None if advice.split is None else
        {f"{mine}-{other}": round(p, 6) for (mine, other), p in advice.split.items()},
        "run": run_json(advice.run),
        "notes": list(advice.notes),
        "single_dummy": optimism_json(advice.optimism),
        "conservative": conservative_json(advice.conservative),
    }


def _hand(hand: Hand | None) -> str | None:
    return None if hand is None else str(hand)


def _contract_json(advice: ContractAdvice) -> dict[str, Any]:
    return {"contract": str(advice.contract), "make_probability": estimate_json(advice.make_probability),
            "value": estimate_json(advice.value), "tricks": _distribution(advice.tricks),
            "discard": _hand(advice.discard)}


def bid_json(advice: BidAdvice) -> dict[str, Any]:
    require_type(advice, BidAdvice, "advice")
    r = advice.request
    return {
        "hand": str(r.hand),
        "seat": r.seat,
        "after_talon": r.after_talon,
        "convention": r.convention.name,
        "defence": r.defence.value,
        "recommended": _contract_json(advice.recommended),
        "sureness": round(advice.sureness, 6),
        "advantage": None if advice.advantage is None else estimate_json(advice.advantage),
        "recommendation": advice.recommendation,
        "recommendation_sureness": round(advice.recommendation_sureness, 6),
        "recommendation_advantage": None if advice.recommendation_advantage is None
        else estimate_json(advice.recommendation_advantage),
        "plan": advice.plan,
        "pass": None if advice.passing is None else
        {"value": estimate_json(advice.passing.value), "tricks": _distribution(advice.passing.tricks)},
        "contracts": [_contract_json(c) for c in advice.contracts],
        "discards": [_contract_json(c) for c in advice.discards],
        "run": run_json(advice.run),
        "notes": list(advice.notes),
        "single_dummy": optimism_json(advice.optimism),
        "conservative": conservative_json(advice.conservative),
        "conservative_runner_up": conservative_json(advice.conservative_runner_up),
    }


def enumeration_json(result: Enumeration) -> dict[str, Any]:
    require_type(result, Enumeration, "result")
    r = result.request
    return {
        "hand": str(r.hand),
        "declarer": r.declarer,
        "defenders": str(r.defenders),
        "convention": r.convention.name,
        "defence": r.defence.value,
        "splits": result.splits,
        "contracts": [{"contract": str(c.contract), "counts": {str(t): str(n) for t, n in c.counts.items()},
                       "make_probability": estimate_json(c.make_probability), "value": estimate_json(c.value)}
                      for c in result.contracts],
        "run": run_json(result.run),
    }
