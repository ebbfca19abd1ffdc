"""The error every advice function raises for bad input."""
from __future__ import annotations

__all__ = ["AdviceError", "AdviceTypeError", "require_counts", "require_type"]


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


def require_counts(settings: object, what: str, lows: dict[str, int]) -> None:
    """An AdviceError naming ``what`` and the field unless each field of
    ``settings`` named in ``lows`` is a whole number of at least its low."""
    for name, low in lows.items():
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise AdviceError(f"{what}: {name} must be a whole number of at least {low}, got {value!r}")
