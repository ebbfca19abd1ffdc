"""Reading the numbers of scoring input (amounts, pool sizes, prices,
probabilities, option values) as exact fractions, bounded before any
arithmetic.

``Fraction("1e10000000")`` builds an integer of ten million digits, and the
score arithmetic after it is as costly again; every number of a request, a
game file or an option override is read here, so the bound is checked once,
on the text, before the number exists. The bounds are far beyond any game:
amounts of at most :data:`MAX_MAGNITUDE` in size, and fractions whose
denominator is at most :data:`MAX_DENOMINATOR`.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from .errors import ScoringError

__all__ = ["MAX_MAGNITUDE", "MAX_DENOMINATOR", "MAX_TEXT", "parse_number"]

MAX_MAGNITUDE = 10**12
MAX_DENOMINATOR = 10**12
MAX_TEXT = 64
"""Longest number text read (characters)."""

# What Fraction() reads from text: an integer, a decimal (with an exponent)
# or a ratio; underscores between digits. Only the exponent can make a short
# text a huge number.
_EXPONENT = re.compile(r"[eE]\s*([-+]?[0-9_]+)\s*$")


def parse_number(value: Any, what: str) -> Fraction:
    """A JSON number or rational string ("40/3", "-7.5", "1e3") as an exact
    Fraction, or a ScoringError naming ``what``: not a number, or out of the
    bounds of this module."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
        raise ScoringError(f"{what}: expected a number, got {value!r:.60}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ScoringError(f"{what}: expected a finite number, got {value!r}")
    if isinstance(value, int) and abs(value) > MAX_MAGNITUDE:
        raise _too_large(what, value)
    if isinstance(value, str):
        _check_text(value, what)
    try:
        number = Fraction(value) if isinstance(value, (int, Fraction)) else Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ScoringError(f"{what}: expected a number, got {value!r:.60}") from None
    if abs(number) > MAX_MAGNITUDE:
        raise _too_large(what, value)
    if number.denominator > MAX_DENOMINATOR:
        raise ScoringError(f"{what}: {value!r:.60} is too fine a fraction (denominator above {MAX_DENOMINATOR:.0e})")
    return number


def _check_text(text: str, what: str) -> None:
    """Text short enough, with an exponent of at most 99 either way: the
    Fraction it makes then has at most a few hundred digits, and the bounds
    are checked on it."""
    if len(text) > MAX_TEXT:
        raise ScoringError(f"{what}: a number of at most {MAX_TEXT} characters, got {len(text)}")
    exponent = _EXPONENT.search(text)
    if exponent:
        digits = exponent.group(1).lstrip("+-").replace("_", "")
        if len(digits.lstrip("0")) > 2:
            raise ScoringError(f"{what}: {text!r} has an exponent beyond 99 either way: out of range")


def _too_large(what: str, value: Any) -> ScoringError:
    return ScoringError(f"{what}: {value!r:.60} is out of range (at most {MAX_MAGNITUDE:,} in size)")
