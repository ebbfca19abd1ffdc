"""The error every advice function raises for bad input."""
from __future__ import annotations

__all__ = ["AdviceError", "AdviceTypeError", "require_type"]


class AdviceError(ValueError):
    """A question that cannot be answered as asked: the message names the
    problem (a card both in the hand and the talon, a contract that is not a
    contract, a seat that is the declarer's, no layout consistent with the
    cards played, ...)."""


class AdviceTypeError(AdviceError, TypeError):
    """An argument of the wrong type (the message names it): both a
    TypeError and an AdviceError."""


def require_type(value: object, kind: type, what: str) -> None:
    """An AdviceTypeError naming ``what`` unless ``value`` is a ``kind``."""
    if not isinstance(value, kind):
        raise AdviceTypeError(f"{what} must be a {kind.__name__}, got {type(value).__name__} {value!r:.60}")
