"""The one exception type of the scoring package."""

from __future__ import annotations


class ScoringError(ValueError):
    """An impossible or malformed input: an outcome that cannot happen, an unknown
    player, option or convention, or a badly formed JSON field.

    The message names the problem: which player, which field, which value.
    """
