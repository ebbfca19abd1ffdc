"""The proto enums (``preferans.v1``) and their Python counterparts, each table once.

Each :class:`EnumTable` is built from the enum's descriptor: every value but
``*_UNSPECIFIED`` is mapped, by its name, to the solver's value, and the
reverse direction is derived from that. A value added to the .proto without a
Python counterpart fails at import time, so the tables cannot drift from the
proto. The server reads requests with :meth:`EnumTable.from_proto`, writes
answers with :meth:`EnumTable.to_proto`; the client turns its text options
into numbers with :meth:`EnumTable.from_text`.

Choices where the issue is silent: proto3 enums are open, so a number outside
the .proto (say ``Seat`` 7) is a bad request, not "unspecified".
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, TypeVar

from solver.notation import NO_TRUMP, SUITS, ContractKind
from solver.scoring import Decision

from .errors import RequestError
from .proto import pb

__all__ = ["AUCTION_MODELS", "CONTRACT_KINDS", "CONVENTIONS", "DECISIONS", "DEFENCE_RULES", "DISCARD_MODELS", "EnumTable",
           "LAYOUT_MODES", "SCORE_KINDS", "SEATS", "STRAINS"]

V = TypeVar("V", bound=Hashable)
_MISSING: Any = object()


class EnumTable(Generic[V]):
    """One proto enum ⇄ its Python values.

    ``counterpart(suffix)`` gives the Python value of the enum value named
    ``<PREFIX>_<suffix>``; ``what`` names the option in the client's messages
    ("layout mode"); ``default`` is what an unset (``*_UNSPECIFIED``) field
    means, if it means something.
    """

    def __init__(self, enum_type: Any, counterpart: Callable[[str], V], what: str,
                 default: V = _MISSING) -> None:
        self.enum_type = enum_type
        self.name: str = enum_type.DESCRIPTOR.name
        self.what = what
        self.unspecified: int = 0
        self.default = default
        prefix = ""
        self._from_proto: dict[int, V] = {}
        for value in enum_type.DESCRIPTOR.values:
            if value.number == 0:
                if not value.name.endswith("_UNSPECIFIED"):
                    raise AssertionError(f"{self.name} value 0 must be *_UNSPECIFIED, got {value.name}")
                prefix = value.name[: -len("UNSPECIFIED")]
                continue
            if not value.name.startswith(prefix):
                raise AssertionError(f"{self.name}.{value.name} lacks the prefix {prefix}")
            self._from_proto[value.number] = counterpart(value.name[len(prefix):])
        self.prefix = prefix
        self._to_proto: dict[V, int] = {python: number for number, python in self._from_proto.items()}
        if len(self._to_proto) != len(self._from_proto):
            raise AssertionError(f"two {self.name} values share a Python counterpart")

    def names(self) -> str:
        """The specified values' names, for error messages."""
        return ", ".join(self.enum_type.Name(number) for number in self._from_proto)

    def from_proto(self, number: int, field: str, required: bool = False) -> V | None:
        """The Python value of an enum field; an unset field is the default,
        or None, or (``required``) a :class:`RequestError`."""
        if number == self.unspecified:
            if self.default is not _MISSING:
                return self.default
            if required:
                raise RequestError(f"field '{field}' is required: one of {self.names()}")
            return None
        if number not in self._from_proto:
            raise RequestError(f"field '{field}': unknown {self.name} value {number}")
        return self._from_proto[number]

    def required(self, number: int, field: str) -> V:
        """As :meth:`from_proto`, the field required."""
        value = self.from_proto(number, field, required=True)
        assert value is not None
        return value

    def to_proto(self, value: V) -> int:
        """The enum number of a Python value (KeyError if it has none)."""
        return self._to_proto[value]

    def __contains__(self, value: object) -> bool:
        return value in self._to_proto

    def from_text(self, text: str | None) -> int:
        """The number named by text such as ``"sochi"`` or ``"half-whist"``
        (None: unspecified); ValueError listing the known names otherwise."""
        if text is None:
            return self.unspecified
        name = f"{self.prefix}{str(text).strip().upper().replace('-', '_')}"
        if name not in self.enum_type.keys() or name.endswith("_UNSPECIFIED"):
            known = [key[len(self.prefix):].lower() for key in self.enum_type.keys()
                     if not key.endswith("_UNSPECIFIED")]
            raise ValueError(f"unknown {self.what} {text!r}; known: {known}")
        return int(self.enum_type.Value(name))


_SEAT_NUMBERS = {"FIRST": 0, "SECOND": 1, "THIRD": 2}
_SUIT_NAMES = dict(zip(("SPADES", "CLUBS", "DIAMONDS", "HEARTS"), range(len(SUITS))))


def _strain(suffix: str) -> int:
    return NO_TRUMP if suffix == "NO_TRUMP" else _SUIT_NAMES[suffix]


SEATS: EnumTable[int] = EnumTable(pb.Seat, _SEAT_NUMBERS.__getitem__, "seat")
"""``Seat`` ⇄ seat 0-2."""
STRAINS: EnumTable[int] = EnumTable(pb.Strain, _strain, "strain")
"""``Strain`` ⇄ strain index 0-3 (the suits) or ``NO_TRUMP``."""
CONTRACT_KINDS: EnumTable[ContractKind] = EnumTable(
    pb.ContractKind, lambda suffix: ContractKind[suffix.replace("_", "")], "contract kind")
"""``ContractKind`` ⇄ :class:`~solver.notation.ContractKind` (``ALL_PASS`` is ``ALLPASS``)."""
CONVENTIONS: EnumTable[str] = EnumTable(pb.Convention, str.lower, "convention")
"""``Convention`` ⇄ the scoring convention's name (``sochi``...)."""
SCORE_KINDS: EnumTable[str] = EnumTable(pb.ScoreKind, str.lower, "score kind")
"""``ScoreKind`` ⇄ the ``prefdd score`` request kind (``deal``, ``mini_pool``...)."""
DECISIONS: EnumTable[Decision] = EnumTable(pb.Decision, lambda suffix: Decision[suffix], "decision")
"""``Decision`` ⇄ :class:`~solver.scoring.Decision`; unset means none."""
LAYOUT_MODES: EnumTable[str] = EnumTable(pb.LayoutMode, str.lower, "layout mode", default="auto")
"""``LayoutMode`` ⇄ the advice run's mode; unset is ``auto``."""
DISCARD_MODELS: EnumTable[str] = EnumTable(pb.DiscardModel, str.lower, "discard model", default="best")
"""``DiscardModel`` ⇄ the whist advisor's discard model; unset is ``best``."""
DEFENCE_RULES: EnumTable[str] = EnumTable(pb.DefenceRule, str.lower, "defence rule", default="whist")
"""``DefenceRule`` ⇄ the advisors' defence rule; unset is ``whist``."""
AUCTION_MODELS: EnumTable[str] = EnumTable(pb.AuctionModel, str.lower, "auction model", default="default")
"""``AuctionModel`` ⇄ the whist advisor's auction model (``default``, ``none``); unset is ``default``."""
