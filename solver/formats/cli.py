"""``prefdd convert``: a deal record from one form to another.

    prefdd convert SOURCE [--from FORMAT] --to FORMAT [--output FILE]

SOURCE is a file (``FILE#N`` for its N-th deal) or the text itself; its
format is detected unless ``--from`` names it. Formats: ``record`` (the
project's JSON game record), ``jpref`` (JPref ``deal:`` lines), ``pts``
(Slovesnov's .pts/.bts v5), ``text`` (dotted deal lines), and for output
only ``score``: one ``prefdd score`` request line per deal.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import FORMATS, read_record, read_records, write_records

__all__ = ["register", "run_convert"]


def run_convert(args: argparse.Namespace) -> int:
    if "#" in args.source:
        records = [read_record(args.source, args.source_format, files=True)]
    else:
        records = read_records(args.source, args.source_format, files=True)
    if args.to == "score":
        text = "".join(json.dumps(r.score_request(), ensure_ascii=False) + "\n" for r in records)
    else:
        text = write_records(records, args.to)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


def register(subparsers: Any) -> None:
    """Add ``convert`` to the ``prefdd`` command line."""
    parser = subparsers.add_parser(
        "convert", help="a deal record from one form to another (record, jpref, pts, text, score)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="a file (FILE#N: its N-th deal) or the deal text")
    parser.add_argument("--from", dest="source_format", choices=sorted(FORMATS),
                        help="the input's format (default: detected)")
    parser.add_argument("--to", required=True, choices=sorted(FORMATS) + ["score"], help="the output's format")
    parser.add_argument("--output", "-o", help="write to this file (default: standard output)")
    parser.set_defaults(func=run_convert)
