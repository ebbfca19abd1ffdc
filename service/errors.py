"""The service's request error: a bad field, answered as ``INVALID_ARGUMENT``."""
from __future__ import annotations

__all__ = ["RequestError", "UndecodableMessage"]


class RequestError(ValueError):
    """A request field that is missing, out of range or contradicts another."""


class UndecodableMessage(ValueError):
    """A request message on a stream that does not decode (INVALID_ARGUMENT)."""
