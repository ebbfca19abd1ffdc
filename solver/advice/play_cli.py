"""``prefdd play``: which card, for the seat on move, over the layouts it
cannot see.

    prefdd play HAND --contract C --declarer S --seat S [--talon T] [--discard D]
                [--open SEAT=HAND ...] [--played CARDS] [--whisters S[,S]] [--returned]
                [--unseen CARDS --prior-tricks A,B,C --leader S]

with the options every advice command shares (``--layouts``, ``--exact``,
``--sample``, ``--seconds``, ``--seed``, ``--workers``, ``--json``, ...).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import cli_args
from ..notation import SEAT_NAMES, ContractKind, format_cards
from .card_play import PlayAdvice, advise_play, play_request
from .cli_common import (_add_common, _add_four_players, _add_prior_tricks, _options, _percent, _run_line,
                         _run_options)
from .errors import AdviceError
from .play_json import play_json
from .stats import Estimate

__all__ = ["register", "format_play"]

DEFAULT_LAYOUTS = 500


def _open_hand(text: str) -> tuple[int, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected SEAT=HAND, like 2=KQ.J98.AT.7; got {text!r}")
    seat, hand = text.split("=", 1)
    return cli_args.seat(seat.strip()), hand.strip()


def _seats(text: str) -> list[int]:
    return [cli_args.seat(part.strip()) for part in text.split(",") if part.strip()]


def _figure(value: Estimate) -> str:
    if value.exact is not None:
        return f"{value.mean:7.2f}"
    return f"{value.mean:7.2f} ± {value.std_error:.2f}"


def format_play(advice: PlayAdvice) -> str:
    r = advice.request
    misere = r.contract.kind is ContractKind.MISERE
    role = "declarer" if r.seat == r.declarer else ("catcher" if misere else "defender")
    lines = [f"{r.contract.pretty()} by {SEAT_NAMES[r.declarer]} (seat {r.declarer}); on move: "
             f"{SEAT_NAMES[r.seat]} (seat {r.seat}), {role}; convention {r.convention.name}"
             + ("" if misere else f"; scored as {advice.scenario.value}"),
             f"hand {r.hand.pretty()}" + (f"   talon {r.talon.pretty()}" if r.talon is not None else "")
             + "".join(f"   seat {seat} open: {hand.pretty()}" for seat, hand in r.open_hands)]
    if r.played:
        lines.append(f"played {format_cards(r.played)}")
    lines.append(_run_line(advice.run))
    lines.append("")
    failing = "caught" if misere else "declarer fails"
    lines.append(f"{'card':<6}{'declarer tricks':<18}{'your value (whists)':<22}{failing}")
    for card in advice.cards:
        lines.append(f"{card.card.pretty():<6}{_figure(card.declarer_tricks):<18}{_figure(card.value):<22}"
                     f"{_percent(card.declarer_fails.mean):>5} ({card.fail_count:,} of {advice.run.layouts:,})")
    lines.append("")
    if advice.advantage is None:
        alone = "the only card" if len(advice.cards) == 1 else "every card is worth the same"
        lines.append(f"Recommended: {advice.recommended.pretty()} ({alone})")
    else:
        error = "" if advice.advantage.exact is not None else f" ± {advice.advantage.std_error:.2f}"
        lines.append(f"Recommended: {advice.recommended.pretty()}, sure {_percent(advice.sureness)} "
                     f"(ahead by {advice.advantage.mean:.2f}{error} whists)")
    if misere and r.seat != r.declarer:
        most = max(advice.cards, key=lambda c: (c.declarer_fails.mean, -c.card.index))
        lines.append(f"Catches most often: {most.card.pretty()} ({_percent(most.declarer_fails.mean)})")
    lines.extend(f"Note: {note}" for note in advice.notes)
    return "\n".join(lines)


def run_play(args: argparse.Namespace) -> int:
    opened: dict[int, str] = {}
    for seat, hand in args.open or []:
        if seat in opened:
            raise AdviceError(f"--open names seat {seat} twice")
        opened[seat] = hand
    request = play_request(args.hand, args.contract, args.declarer, args.seat, played=args.played or "",
                           talon=args.talon, discard=args.discard, open_hands=opened, unseen=args.unseen,
                           prior_tricks=args.prior_tricks, whisters=args.whisters, returned=args.returned,
                           convention=args.convention, options=_options(args.option),
                           four_players=args.four_players, leader=args.leader)
    with _run_options(args) as options:
        advice = advise_play(request, options)
    sys.stdout.write((json.dumps(play_json(advice), ensure_ascii=False) if args.json else format_play(advice)) + "\n")
    return 0


def register(subparsers: Any) -> None:
    """Add ``play`` to the ``prefdd`` command line."""
    play = subparsers.add_parser(
        "play", help="which card: each legal card's expected tricks and value over the hidden cards",
        description="The seat on move: each legal card's expected tricks and single-deal value over the "
                    "layouts of the cards it cannot see that fit the cards played (voids included), each "
                    "played double dummy; misère catchers who see each other's hands get each lead's "
                    "count of the declarer's discards it catches.")
    play.add_argument("hand", help="your cards at the start of the play (the declarer: after his discard)")
    play.add_argument("--contract", required=True, help="6s .. 10nt or misere")
    play.add_argument("--declarer", required=True, type=cli_args.seat, help="the declarer's seat 0-2")
    play.add_argument("--seat", required=True, type=cli_args.seat, help="your seat 0-2 (on move)")
    play.add_argument("--talon", help="the talon, when it was shown")
    play.add_argument("--discard", help="the declarer's discard, when you know it (the declarer: required)")
    play.add_argument("--open", action="append", type=_open_hand, metavar="SEAT=HAND",
                      help="a hand you see (repeatable): the passer's in a light whist, the catchers' in a "
                           "misère after the first lead")
    play.add_argument("--played", help="cards played so far, in order from the first lead")
    play.add_argument("--whisters", type=_seats,
                      help="trick contracts: the defenders who whist, e.g. 2 or 0,2 (default: you, if you "
                           "defend, else the first defender)")
    play.add_argument("--returned", action="store_true", help="the lone whister returned a half-whist")
    play.add_argument("--unseen", help="endgames: the hidden hands' cards together")
    _add_prior_tricks(play)
    play.add_argument("--leader", type=cli_args.seat, default=0, help="endgames: the seat that leads first")
    _add_four_players(play)
    _add_common(play, DEFAULT_LAYOUTS)
    play.set_defaults(func=run_play)
