"""Reading JSON lines for ``prefdd batch``, ``prefdd score`` and ``prefdd pool``.

Input is read as bytes, one line at a time, and each line is decoded on its
own, so one bad line is one error answer and the lines after it are read as
usual. What a line can be:

* blank (only whitespace): skipped, no answer;
* not UTF-8, or holding a NUL byte, or longer than :data:`MAX_LINE_BYTES`:
  a :class:`LineError` naming the line and the problem;
* text: handed to :func:`loads`, which refuses what the JSON decoder cannot
  take safely (nesting deeper than :data:`MAX_DEPTH`, NaN and Infinity,
  integers of more than 4300 digits, floats that overflow to infinity).

A UTF-8 byte order mark is accepted at the start of the first line only (some
editors write one); anywhere else it is an error like any other stray
character.
"""
from __future__ import annotations

import io
import json
import math
import sys
from typing import Any, BinaryIO, Iterator

__all__ = ["LineError", "JSONTextError", "MAX_LINE_BYTES", "MAX_DEPTH", "read_lines", "stdin_bytes", "decode", "loads", "dumps"]

MAX_LINE_BYTES = 1 << 20
"""Longest line read (1 MiB); a longer one is skipped to its end and answered
with an error."""
MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted (requests nest 5 deep)."""
BOM = b"\xef\xbb\xbf"


class LineError(ValueError):
    """A line that is not JSON text: the message names the line and why."""


class JSONTextError(LineError):
    """Text the JSON decoder refuses or cannot take safely; the message is
    the reason alone (the callers say "not JSON: ..." in their own words)."""


def read_lines(stream: BinaryIO) -> Iterator[str | LineError]:
    """Each non-blank line of ``stream`` as text, or a LineError in its place."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            _skip_to_line_end(stream)
            yield LineError(f"line {number}: longer than {MAX_LINE_BYTES:,} bytes")
            continue
        try:
            text = decode(raw, number)
        except LineError as error:
            yield error
            continue
        if text.strip():
            yield text


def stdin_bytes() -> BinaryIO:
    """Standard input as bytes. A replaced ``sys.stdin`` without a byte
    buffer (a StringIO in tests or an embedding program) is read whole."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return buffer
    return io.BytesIO(sys.stdin.read().encode("utf-8", "surrogatepass"))


def _skip_to_line_end(stream: BinaryIO) -> None:
    while True:
        rest = stream.readline(MAX_LINE_BYTES)
        if not rest or rest.endswith(b"\n"):
            return


def decode(raw: bytes, number: int = 1) -> str:
    """Line ``number`` (1 = the first) as text, or a LineError."""
    if number == 1 and raw.startswith(BOM):
        raw = raw[len(BOM):]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LineError(f"line {number}: not UTF-8 text (byte 0x{raw[error.start]:02x} at column "
                        f"{error.start + 1})") from None
    if "\0" in text:
        raise LineError(f"line {number}: holds a NUL byte (column {text.index(chr(0)) + 1})")
    return text


def _refuse_constant(name: str) -> Any:
    raise JSONTextError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONTextError(f"the number {text[:40]} is too large")
    return value


def loads(text: str) -> Any:
    """JSON text as a value, or a JSONTextError saying why not (never a
    RecursionError, nor a NaN or an infinity)."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except JSONTextError:
        raise
    except json.JSONDecodeError as error:
        raise JSONTextError(str(error)) from None
    except RecursionError:
        raise JSONTextError(f"nested more than {MAX_DEPTH} deep") from None
    except ValueError as error:   # an integer of more than sys.get_int_max_str_digits() digits
        raise JSONTextError(str(error)) from None
    # Each level of nesting opens a bracket: text with few brackets cannot
    # nest too deep, and the walk is skipped (the usual request has one).
    if text.count("[") + text.count("{") > MAX_DEPTH:
        _check_depth(value)
    return value


def _check_depth(value: Any) -> None:
    """Arrays and objects nested at most MAX_DEPTH deep (without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > MAX_DEPTH:
            raise JSONTextError(f"nested more than {MAX_DEPTH} deep")
        stack.extend((child, depth + 1) for child in children)


def dumps(value: Any) -> str:
    """One JSON answer line. Text the input gave as a lone surrogate escape
    ("\\ud800") cannot be written as UTF-8: such an answer is written with
    ASCII escapes instead."""
    text = json.dumps(value, ensure_ascii=False)
    if text.isascii():   # the usual answer: nothing to check
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value)
    return text
