"""Helpers for the tests that call the C core directly (no Python checks in
between): a small three-card position to vary field by field, and a solver
context for a test module."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from solver._core import ffi, lib

H0 = 0b111 << 0          # 7s 8s 9s
H1 = 0b111 << 8          # 7c 8c 9c
H2 = 0b111 << 16         # 7d 8d 9d


def c_position(**fields: Any) -> Any:
    """A ``pdd_position``: three-card hands H0, H1, H2 in no trump, with the
    given fields set (``hands``, ``trick`` and ``talon`` take sequences)."""
    p = ffi.new("pdd_position *")
    p.hands[0], p.hands[1], p.hands[2] = H0, H1, H2
    p.trump = 4
    for name, value in fields.items():
        if name == "hands":
            for i, h in enumerate(value):
                p.hands[i] = h
        elif name in ("trick", "talon"):
            for i, c in enumerate(value):
                getattr(p, name)[i] = c
        else:
            setattr(p, name, value)
    return p


@pytest.fixture(scope="module")
def solver() -> Iterator[Any]:
    """A C solver context with a 1 MiB table, freed after the module."""
    s = lib.pdd_new(1 << 20)
    yield s
    lib.pdd_free(s)
