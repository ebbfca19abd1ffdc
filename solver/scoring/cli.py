"""Command line: ``prefdd score`` and ``prefdd pool``.

``score [FILE]`` reads JSON lines (from FILE or stdin) — objects with ``convention``,
optional ``option_overrides``, ``kind`` and ``input`` as in ``scoring-vectors.json`` —
and writes one JSON line per input line: the ``expected`` form, or
``{"error": "..."}`` for a bad line; the stream goes on.  Blank lines are skipped.
Lines are read as bytes and decoded one by one (:mod:`solver.jsonlines`): a line
that is not UTF-8, holds a NUL byte or is JSON the decoder cannot take (too deep,
NaN, numbers too large) is answered with an error like any other bad line.
The exit status is 0 once the input has been read, even if some lines were bad
(they were answered in-band); 2 if FILE cannot be read.  An unexpected exception on a
line is answered as ``{"error": "internal error: ..."}`` so the stream still goes on.

``pool FILE [--json] [--price P]`` reads a whole game (see ``jsonio.game_from_json``;
FILE ``-`` is standard input) and prints the score sheet and its settlement.  The file
is one JSON value, not lines: a file that is not UTF-8 (a BOM at its start is
accepted), holds a NUL byte, is not JSON or is JSON the decoder cannot take, and any
bad game, is one message on stderr naming the problem (and its line), status 2.

The main ``prefdd`` CLI calls :func:`register`; :func:`main` runs these two
subcommands alone (``python3 -m solver.scoring.cli score < file``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any, Iterable, Sequence, TextIO

from .drawing import game_json, game_text
from .errors import ScoringError
from .jsonio import game_from_json, handle_request, whist_price
from ..jsonlines import BOM, JSONTextError, LineError, dumps, loads, read_lines, stdin_bytes


def answer_line(line: str | LineError) -> dict[str, Any]:
    """The answer to one JSON request line (or to a line that could not be
    read: see :mod:`solver.jsonlines`)."""
    if isinstance(line, LineError):
        return {"error": str(line)}
    try:
        request = loads(line)
    except JSONTextError as error:
        return {"error": f"invalid JSON: {error}"}
    try:
        return handle_request(request)
    except ScoringError as error:
        return {"error": str(error)}
    except Exception as error:  # a bad line must never stop the stream
        return {"error": f"internal error: {type(error).__name__}: {error}"}


def serve_lines(lines: Iterable[str | LineError], out: TextIO) -> None:
    """Answer every non-blank line, one JSON line each, flushing after each."""
    for line in lines:
        if isinstance(line, str) and not line.strip():
            continue
        out.write(dumps(answer_line(line)) + "\n")
        out.flush()


def run_score(args: argparse.Namespace) -> int:
    if args.file is None or args.file == "-":
        serve_lines(read_lines(stdin_bytes()), sys.stdout)
        return 0
    try:
        with open(args.file, "rb") as handle:
            serve_lines(read_lines(handle), sys.stdout)
    except OSError as error:
        print(f"prefdd score: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    return 0


def _read_game(name: str) -> Any:
    """The game file's JSON value (``-``: standard input). A file that is not
    UTF-8 text (a BOM at its start is accepted), holds a NUL byte, or is JSON
    the decoder cannot take raises a LineError naming the problem."""
    if name == "-":
        data = stdin_bytes().read()
    else:
        with open(name, "rb") as handle:
            data = handle.read()
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise LineError(f"not UTF-8 text (byte 0x{data[error.start]:02x} on line {line})") from None
    if "\0" in text:
        raise LineError(f"holds a NUL byte (line {text.count(chr(10), 0, text.index(chr(0))) + 1})")
    try:
        return loads(text)
    except JSONTextError as error:
        raise LineError(f"is not valid JSON: {error}") from None


def run_pool(args: argparse.Namespace) -> int:
    try:
        data = _read_game(args.file)
    except OSError as error:
        print(f"prefdd pool: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    except LineError as error:
        print(f"prefdd pool: {args.file} {error}", file=sys.stderr)
        return 2
    try:
        game = game_from_json(data)
        if args.price is not None:
            game = replace(game, whist_price=whist_price(args.price))
        text = (json.dumps(game_json(game), ensure_ascii=False, indent=2) + "\n" if args.json
                else game_text(game))
    except ScoringError as error:
        print(f"prefdd pool: {args.file}: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 - a bad file is a message, never a traceback
        print(f"prefdd pool: {args.file}: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def register(subparsers: Any) -> None:
    """Add the ``score`` and ``pool`` subcommands to an argparse subparsers object;
    each sets ``func`` (taking the parsed args, returning an exit status)."""
    score = subparsers.add_parser(
        "score", help="score JSON lines (scoring-vector requests), one JSON answer per line",
        description="Read JSON request lines (convention, option_overrides, kind, input) and write one "
                    "JSON answer per line; a bad line answers {\"error\": ...}.")
    score.add_argument("file", nargs="?", default=None, help="input file (default: standard input)")
    score.set_defaults(func=run_score)
    pool = subparsers.add_parser(
        "pool", help="print the score sheet and settlement of a whole game",
        description="Read a game (JSON: players, convention, pool_size, deals) and print the score sheet "
                    "as drawn on paper, then the settlement.")
    pool.add_argument("file", help="game file (JSON; - for standard input)")
    pool.add_argument("--json", action="store_true", help="machine-readable output")
    pool.add_argument("--price", default=None, help="money per whist (overrides the file's whist_price)")
    pool.set_defaults(func=run_pool)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``score`` or ``pool`` alone; returns the exit status."""
    parser = argparse.ArgumentParser(prog="prefdd", description="Preferans scoring")
    subparsers = parser.add_subparsers(dest="command", required=True)
    register(subparsers)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
