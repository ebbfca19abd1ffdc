"""``prefdd enumerate``: every split of the defenders' cards, exactly
(:mod:`solver.advice.enumeration`; the options it shares with the other
advice commands: :mod:`solver.advice.cli_common`)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import cli_args
from ..notation import SEAT_NAMES
from .cli_common import (_add_common, _add_four_players, _add_prior_tricks, _options, _percent, _run, _run_line,
                         _value)
from .enumeration import Enumeration, enumerate_splits, enumeration_request

__all__ = ["register", "format_enumeration"]


def format_enumeration(result: Enumeration) -> str:
    r = result.request
    lines = [f"declarer {SEAT_NAMES[r.declarer]} (seat {r.declarer}) holds {r.hand.pretty()}; defenders share "
             f"{len(r.defenders)} cards; convention {r.convention.name}; defenders: {r.defence.value}",
             _run_line(result.run), ""]
    for c in result.contracts:
        lines.append(f"{c.contract.pretty():<8} makes {_percent(c.make_probability.mean):>5}   value "
                     f"{_value(c.value)}")
        lines.append("         tricks: " + "  ".join(f"{t}: {n}" for t, n in c.counts.items()))
    return "\n".join(lines)


def _json(result: Enumeration) -> dict:
    from .jsonio import enumeration_json  # it reads every advice's types: loaded for --json alone

    return enumeration_json(result)


def run_enumerate(args: argparse.Namespace) -> int:
    out = sys.stdout
    request = enumeration_request(args.hand, args.declarer, args.contract, discard=args.discard,
                                  defenders=args.defenders, convention=args.convention,
                                  options=_options(args.option), defence=args.defence,
                                  prior_tricks=args.prior_tricks, four_players=args.four_players)
    return _run(args, out, lambda options: enumerate_splits(request, options), _json,
                format_enumeration)


def register(subparsers: Any) -> None:
    """Add ``enumerate`` to the ``prefdd`` command line."""
    enumerate_ = subparsers.add_parser(
        "enumerate", help="every split of the defenders' cards, exactly",
        description="With the declarer's cards known, solve every split of the defenders' cards "
                    "(C(20,10) = 184,756 for a full deal): the exact trick distribution, chance and "
                    "expected value of each contract.")
    enumerate_.add_argument("hand", help="the declarer's 10 cards in play, or his 12 with --discard")
    enumerate_.add_argument("--declarer", required=True, type=cli_args.seat, help="the declarer's seat 0-2")
    enumerate_.add_argument("--contract", required=True, help="one contract or several: 6s,7s")
    enumerate_.add_argument("--discard", help="the 2 cards out of play (the defenders hold the rest)")
    enumerate_.add_argument("--defenders", help="endgames: the defenders' cards together")
    enumerate_.add_argument("--defence", choices=["whist", "pass", "both"], default="whist",
                            help="how the defenders answer (default: one whists, one passes)")
    _add_prior_tricks(enumerate_)
    _add_four_players(enumerate_)
    _add_common(enumerate_, None)
    enumerate_.set_defaults(func=run_enumerate, mode="exact")
