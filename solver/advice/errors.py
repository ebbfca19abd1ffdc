"""The error every advice function raises for bad input."""
from __future__ import annotations

__all__ = ["AdviceError"]


class AdviceError(ValueError):
    """A question that cannot be answered as asked: the message names the
    problem (a card both in the hand and the talon, a contract that is not a
    contract, a seat that is the declarer's, no layout consistent with the
    cards played, ...)."""
