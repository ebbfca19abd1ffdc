"""One deal in the project's notation (``spec/notation.md``): dotted hands,
the printed diagram pasted back, suit-grouped runs, Russian ranks.
``dumps`` writes the canonical dotted line, one deal a line."""
from __future__ import annotations

from typing import IO, Iterable

from ..notation import Deal, NotationError
from .errors import FormatError
from .record import GameRecord

__all__ = ["loads", "load", "dumps", "dump"]


def loads(text: str) -> list[GameRecord]:
    try:
        return [GameRecord(Deal.parse(text))]
    except NotationError as error:
        raise FormatError(str(error), field="deal") from None


def load(fp: IO[str]) -> list[GameRecord]:
    return loads(fp.read())


def dumps(records: GameRecord | Iterable[GameRecord]) -> str:
    items = [records] if isinstance(records, GameRecord) else list(records)
    return "".join(str(r.deal) + "\n" for r in items)


def dump(records: GameRecord | Iterable[GameRecord], fp: IO[str]) -> None:
    fp.write(dumps(records))
