"""Deal records in the forms players and other programs keep, one module a
format, each with ``loads/load/dumps/dump`` over :class:`GameRecord`:

* :mod:`.record`: the project's own game record (JSON, documented by
  ``record.schema.json``);
* :mod:`.jpref`: JPref ``deal:`` lines;
* :mod:`.slovesnov`: Slovesnov's ``.pts``/``.bts`` v5 problem files;
* :mod:`.text`: the project's notation (``solver.notation``), one deal.

:func:`read_records` takes the text itself (or, for the command line, a
file path) and finds the format; :func:`read_record` wants exactly one deal (``FILE#N`` picks the N-th
of a file). Every reader raises :class:`FormatError` (a ``ValueError``) naming
the line, the field and the problem.
"""
from __future__ import annotations

import json
import os
import re
from types import ModuleType

from ..notation import Deal
from . import jpref, record, slovesnov, text
from .errors import FormatError
from .record import GameRecord

__all__ = ["FORMATS", "FormatError", "GameRecord", "detect", "read_records", "read_record", "read_deal",
           "write_records"]

FORMATS: dict[str, ModuleType] = {"record": record, "jpref": jpref, "pts": slovesnov, "text": text}
"""Format name -> module (``loads``/``dumps``)."""

_EXTENSIONS = {".json": "record", ".jsonl": "record", ".pts": "pts", ".bts": "pts"}


def detect(content: str) -> str:
    """The format name of a text: a JSON record, JPref lines, a .pts file, or notation."""
    stripped = content.lstrip("\ufeff").strip()
    if stripped.startswith("{") or re.match(r"\[\s*(\{|\])", stripped):
        return "record"
    if re.search(r"(?m)^\s*deal:", stripped):
        return "jpref"
    if re.search(r"(?im)^(%\s*[bp]ts\b|deal\s+\d+\s)", stripped):
        return "pts"
    return "text"


def _split_index(source: str) -> tuple[str, int | None]:
    match = re.fullmatch(r"(.*)#(\d+)", source)
    if match and os.path.isfile(match.group(1)):
        return match.group(1), int(match.group(2))
    return source, None


def read_records(source: str, form: str | None = None, *, files: bool = False) -> list[GameRecord]:
    """The records in ``source``: the text itself or, with ``files`` (the
    command line; never for text from a network request), a file path (UTF-8,
    or cp1251 for old Slovesnov files); in ``form`` or the detected format."""
    records, _ = _read(source, form, files)
    return records


def _read(source: str, form: str | None, files: bool) -> tuple[list[GameRecord], int | None]:
    if not isinstance(source, str):
        raise FormatError(f"expected a file name or deal text, got {source!r}")
    path, index = _split_index(source) if files else (source, None)
    if files and "\n" not in path and len(path) < 4096 and os.path.isfile(path):
        with open(path, "rb") as handle:
            content = slovesnov.decode(handle.read())
        form = form or _EXTENSIONS.get(os.path.splitext(path)[1].lower()) or detect(content)
    else:
        content, index = source, None
        form = form or detect(content)
    if form not in FORMATS:
        raise FormatError(f"unknown format {form!r}; expected one of {', '.join(FORMATS)}")
    try:
        return FORMATS[form].loads(content), index
    except json.JSONDecodeError as error:  # pragma: no cover - record.loads converts these
        raise FormatError(str(error)) from None


def read_record(source: str, form: str | None = None, *, files: bool = False) -> GameRecord:
    """Exactly one record: the only one, or the N-th of ``FILE#N`` (``files``
    as for :func:`read_records`)."""
    records, index = _read(source, form, files)
    if index is not None:
        if not 1 <= index <= len(records):
            raise FormatError(f"{source}: deal {index} asked for, the file holds {len(records)}")
        return records[index - 1]
    if len(records) != 1:
        raise FormatError(f"the input holds {len(records)} deals; pick one with FILE#N (1..{len(records)})")
    return records[0]


def read_deal(source: str, *, files: bool = False) -> Deal:
    """The deal of :func:`read_record` (any format; a file only with ``files``)."""
    return read_record(source, files=files).deal


def write_records(records: list[GameRecord], form: str) -> str:
    """The records in ``form`` (a name of :data:`FORMATS`)."""
    if form not in FORMATS:
        raise FormatError(f"unknown format {form!r}; expected one of {', '.join(FORMATS)}")
    for number, one in enumerate(records, start=1):
        try:
            FORMATS[form].dumps([one])
        except FormatError as error:
            raise FormatError(f"deal {number} cannot be written as {form}: {error}") from None
    return FORMATS[form].dumps(records)
