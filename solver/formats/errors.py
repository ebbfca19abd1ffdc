"""The error every reader in :mod:`solver.formats` raises."""
from __future__ import annotations

__all__ = ["FormatError", "located"]


class FormatError(ValueError):
    """Input in a record format that cannot be read. The message names where
    (the line, the record, the field) and the problem; ``line`` and ``field``
    hold the first two when known."""

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__((", ".join(where) + ": " if where else "") + message)
        self.line = line
        self.field = field
        self.problem = message


def located(error: ValueError, *, line: int | None = None, field: str | None = None) -> FormatError:
    """``error`` (a notation, position or format error) placed at a line and
    field; a FormatError keeps the place it already names."""
    if isinstance(error, FormatError):
        return FormatError(error.problem, line=error.line if error.line is not None else line,
                           field=error.field if error.field is not None else field)
    return FormatError(str(error), line=line, field=field)
