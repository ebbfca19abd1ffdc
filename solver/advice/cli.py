"""``prefdd whist`` and ``prefdd bid`` (``prefdd enumerate``:
:mod:`solver.advice.enumerate_cli`; ``prefdd play``: :mod:`solver.advice.play_cli`;
what they share: :mod:`solver.advice.cli_common`).

    prefdd whist HAND --talon T --contract 6s --declarer S --seat S [--other pass|whist|half_whist]
    prefdd bid HAND --seat S [--talon T] [--contracts all|6s,7s,...]
    prefdd enumerate HAND --declarer S --contract 6s[,7s] (--discard CARDS | --defenders CARDS)

Common: ``--convention sochi|leningrad|rostov``, ``--option KEY=VALUE``
(repeatable), ``--seconds S`` (budget), ``--seed N``, ``--workers N``,
``--json``, ``--no-progress``, ``--dask ADDRESS`` (run on a Dask cluster, the
same answer); whist and bid also ``--layouts N`` (budget) and
``--exact``/``--sample``.
A progress bar goes to standard error when it is a terminal; Ctrl-C stops a
run, prints the estimate so far and exits with status 130. A run stopped
(``--seconds`` or Ctrl-C) before its first layout was finished prints no
estimate: standard error says so.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import cli_args
from ..notation import SEAT_NAMES
from .bid import BidAdvice, advise_bid, bid_request
from .blind_discard import BLIND_DISCARD
from .cli_common import (EXIT_INTERRUPTED, _add_common, _add_four_players, _add_prior_tricks, _cards, _options,
                         _percent, _run, _run_line, _value)
from .errors import AdviceError
from .jsonio import bid_json, whist_json
from .optimism import Optimism
from .play import AUCTION_MODEL, AuctionFilter
from .whist import WhistAdvice, WhistOption, advise_whist, whist_request
from ..report import LANGUAGES, write_report
from ..report.html import bid_html, whist_html

__all__ = ["register", "EXIT_INTERRUPTED"]


def _add_report(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report to FILE")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="the HTML report's language (en, ru)")


def _distribution(values: dict, label=str) -> str:
    return "  ".join(f"{label(k)}: {_percent(p)}" for k, p in values.items() if p >= 0.005)


def _option_lines(option: WhistOption, depth: int) -> list[str]:
    indent = "  " * depth
    fails = "" if not option.scenario.played else f"   declarer fails {_percent(option.declarer_fails.mean)}"
    head = f"{indent}{option.action:<11}{_value(option.value)}{fails}   — {option.description}"
    lines = [head]
    if option.replies:
        chosen = option.replies[option.chosen_reply or 0]
        who = "the other defender chooses (modelled" if option.chooser == "other" else "you choose (best"
        lines.append(f"{indent}  then {who}: {chosen.action}); values for you / the other defender:")
        for reply in option.replies:
            lines.extend(_reply_lines(reply, depth + 2))
    return lines


def _reply_lines(option: WhistOption, depth: int) -> list[str]:
    indent = "  " * depth
    lines = [f"{indent}{option.action:<11}{_value(option.value)} / {_value(option.other_value).strip()}"
             f"   — {option.description}"]
    for reply in option.replies:
        lines.extend(_reply_lines(reply, depth + 1))
    return lines


def _optimism_lines(optimism: Optimism | None) -> list[str]:
    """The conservative figure next to the double-dummy one, saying which it is."""
    if optimism is None:
        return []
    blind = optimism.figure == "blind_discard"
    name = "blind discard" if blind else "single dummy"

    def pair(figure, percent=False) -> str:  # type: ignore[no-untyped-def]
        show = _percent if percent else (lambda x: f"{x:.2f}")
        return f"{show(figure.double_dummy)} double dummy, {show(figure.conservative)} {name}"
    how = "worlds for his discard" if blind else "worlds a turn"
    lines = [f"{name.capitalize()} ({optimism.contract.pretty()}, {optimism.layouts} layouts, {optimism.worlds} "
             f"{how}; the declarer does not see the defenders' cards): his tricks {pair(optimism.tricks)}; "
             f"he makes it {pair(optimism.makes, True)}",
             f"  ({optimism.description})"]
    lines.extend(f"  value {name}: {pair(figure)} (difference ± {figure.std_error:.2f})"
                 for name, figure in optimism.values.items())
    return lines


def format_whist(advice: WhistAdvice) -> str:
    r = advice.request
    order = "first" if r.speaks_first else "second"
    lines = [
        f"{r.contract.pretty()} by {SEAT_NAMES[r.declarer]} (seat {r.declarer}); you: {SEAT_NAMES[r.seat]} "
        f"(seat {r.seat}), {order} defender; convention {r.convention.name}",
        f"hand {r.hand.pretty()}   talon {_cards(r.talon)}"
        + (f"   the other defender: {r.other_decision.value}" if r.other_decision else ""),
        _run_line(advice.run) + f"; discard model {r.discard_model.value}",
        "",
        "option     your value (whists)",
    ]
    for option in advice.options:
        lines.extend(_option_lines(option, 0))
    lines.append("")
    if advice.advantage is None:
        alone = "the only option" if len(advice.options) == 1 else "every option is worth the same"
        lines.append(f"Recommended: {advice.recommended} ({alone})")
    else:
        lines.append(f"Recommended: {advice.recommended}, sure {_percent(advice.sureness)} "
                     f"(ahead by {advice.advantage.mean:.2f}"
                     + ("" if advice.advantage.exact is not None else f" ± {advice.advantage.std_error:.2f}")
                     + " whists)")
    lines.append(f"Plan: {advice.plan}")
    lines.extend(_optimism_lines(advice.conservative))
    lines.extend(_optimism_lines(advice.optimism))
    lines.append(f"Declarer fails: {_percent(advice.declarer_fails.mean)}; his tricks: "
                 + _distribution(advice.declarer_tricks))
    if advice.split:
        top = sorted(advice.split.items(), key=lambda item: -item[1])[:6]
        lines.append("Defence split along the canonical line (yours-other's): "
                     + "  ".join(f"{a}-{b}: {_percent(p)}" for (a, b), p in top))
    lines.extend(f"Note: {note}" for note in advice.notes)
    return "\n".join(lines)


def format_bid(advice: BidAdvice) -> str:
    r = advice.request
    what = "12 cards after the talon" if r.after_talon else "before the talon"
    lines = [f"{r.hand.pretty()} ({what}), {SEAT_NAMES[r.seat]} (seat {r.seat}); convention "
             f"{r.convention.name}; defenders: {r.defence.value}",
             _run_line(advice.run), "",
             f"{'contract':<9}{'makes':>8}   {'value (whists)':<20}" + ("discard" if r.after_talon else "")]
    for c in advice.contracts:
        discard = _cards(c.discard) if c.discard is not None else ""
        lines.append(f"{c.contract.pretty():<9}{_percent(c.make_probability.mean):>8}   "
                     f"{_value(c.value):<20}{discard}")
    best = advice.recommended
    if advice.passing is not None:
        lines.append(f"{'pass':<9}{'':>8}   {_value(advice.passing.value):<20}all-pass played; your tricks: "
                     + _distribution(advice.passing.tricks))
    lines.append("")
    if advice.recommendation == "pass":
        lines.append(f"Recommended: pass, sure {_percent(advice.recommendation_sureness)} "
                     f"(best contract {best.contract.pretty()})")
    else:
        lines.append(f"Recommended: {best.contract.pretty()}"
                     + (f" discarding {_cards(best.discard)}" if best.discard is not None else "")
                     + f", sure {_percent(advice.sureness)}"
                     + ("" if advice.passing is None else
                        f"; better than passing, sure {_percent(advice.recommendation_sureness)}"))
    lines.append(f"Plan: {advice.plan}")
    lines.extend(_optimism_lines(advice.conservative))
    lines.extend(_optimism_lines(advice.conservative_runner_up))
    lines.extend(_optimism_lines(advice.optimism))
    lines.extend(f"Note: {note}" for note in advice.notes)
    return "\n".join(lines)


def _add_blind_discard(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--blind-discard", type=int, default=BLIND_DISCARD.layouts, metavar="N",
                        help="the default conservative figure, measured on the first N layouts (default "
                             f"%(default)s; 0: off): the declarer's discard chosen without seeing the defenders' "
                             f"cards, one for every layout he cannot tell apart ({BLIND_DISCARD.worlds} worlds of "
                             "their cards weighed), the play after it double dummy")


def _auction(args: argparse.Namespace) -> AuctionFilter | None:
    """The auction model (the default), its tests changed one by one, or none."""
    changed = (args.auction_min_trumps, args.auction_max_down, args.auction_whister_tops, args.auction_sure_from)
    if args.no_auction:
        if any(value is not None for value in changed):
            raise AdviceError("--no-auction cannot be combined with --auction-* settings")
        return None
    model = AUCTION_MODEL
    return AuctionFilter(*(model_value if value is None else (None if value < 0 else value)
                           for value, model_value in zip(changed, (model.min_trumps, model.max_undertricks,
                                                                   model.whister_min_tops,
                                                                   model.sure_from_level))))


def run_whist(args: argparse.Namespace) -> int:
    out = sys.stdout
    request = whist_request(args.hand, args.talon, args.contract, args.declarer, args.seat,
                            other_decision=args.other, convention=args.convention,
                            options=_options(args.option), played=args.played or "", unseen=args.unseen,
                            prior_tricks=args.prior_tricks, discard_model=args.discard_model,
                            auction=_auction(args), split=args.split, four_players=args.four_players,
                            single_dummy=args.single_dummy, blind_discard=args.blind_discard)

    def html(advice: WhistAdvice) -> None:
        write_report(args.html, whist_html(whist_json(advice), hand=str(request.hand), talon=str(request.talon),
                                           lang=args.lang))

    return _run(args, out, lambda options: advise_whist(request, options), whist_json, format_whist,
                html if args.html else None)


def run_bid(args: argparse.Namespace) -> int:
    out = sys.stdout
    request = bid_request(args.hand, args.seat, talon=args.talon, convention=args.convention,
                          options=_options(args.option), contracts=args.contracts, defence=args.defence,
                          unseen=args.unseen, prior_tricks=args.prior_tricks, four_players=args.four_players,
                          value_pass=not args.no_pass, single_dummy=args.single_dummy,
                          blind_discard=args.blind_discard)
    html = (lambda advice: write_report(args.html, bid_html(bid_json(advice), lang=args.lang))) if args.html else None
    return _run(args, out, lambda options: advise_bid(request, options), bid_json, format_bid, html)


def register(subparsers: Any) -> None:
    """Add ``whist`` and ``bid`` to the ``prefdd`` command line."""
    whist = subparsers.add_parser(
        "whist", help="whist or pass: each option's expected value over the hidden cards",
        description="The defender's question: the expected single-deal value of each option (pass, "
                    "half-whist, whist, and the other defender's replies) over the layouts of the hidden "
                    "cards, each played double dummy.")
    whist.add_argument("hand", help="the defender's hand, e.g. JT98.JT.98.A9")
    whist.add_argument("--talon", required=True, help="the open talon, e.g. ..J.K")
    whist.add_argument("--contract", required=True, help="the declarer's contract, 6s .. 10nt")
    whist.add_argument("--declarer", required=True, type=cli_args.seat, help="the declarer's seat 0-2")
    whist.add_argument("--seat", required=True, type=cli_args.seat, help="your seat 0-2")
    whist.add_argument("--other", metavar="pass|whist|half_whist",
                       help="what the other defender said (required when he spoke first); "
                            "also пас, вист, полвиста")
    whist.add_argument("--played", help="cards played so far, in order from the first lead")
    whist.add_argument("--unseen", help="endgames: the declarer's and the other defender's cards together")
    _add_prior_tricks(whist)
    whist.add_argument("--discard-model", choices=["best", "uniform"], default="best",
                       help="the declarer's discard: his double-dummy best (default) or uniform among "
                            "those that keep the contract makeable")
    whist.add_argument("--auction", action="store_true",
                       help="the auction model (the default): keep only layouts the declarer could reasonably "
                            "have bid from (at least 4 trumps, at most 1 down double dummy with his best "
                            "discard on a 6 or 7, none from 8 on) and where a partner who whisted holds an ace or a guarded king")
    whist.add_argument("--no-auction", action="store_true",
                       help="no auction model: every layout of the hidden cards counts the same")
    whist.add_argument("--auction-min-trumps", type=int,
                       help="auction model: fewest trumps in his 12 cards (default 4; -1: no test)")
    whist.add_argument("--auction-max-down", type=int,
                       help="auction model: most undertricks double dummy (default 1; -1: no test)")
    whist.add_argument("--auction-sure-from", type=int,
                       help="auction model: from this level on no undertrick (default 8; -1: none)")
    whist.add_argument("--auction-whister-tops", type=int,
                       help="auction model: fewest tops of a partner who whisted (default 1; -1: no test)")
    whist.add_argument("--split", action="store_true",
                       help="always count the defenders' split of tricks (the canonical line, see the README)")
    _add_four_players(whist)
    whist.add_argument("--single-dummy", type=int, default=0, metavar="N",
                       help="also play N layouts with the declarer single dummy (he does not see the "
                            "defenders' cards; his play by Monte Carlo worlds at each turn): the stronger "
                            "conservative figure, next to the double-dummy one")
    _add_blind_discard(whist)
    _add_report(whist)
    _add_common(whist, 1000)
    whist.set_defaults(func=run_whist)

    bid = subparsers.add_parser(
        "bid", help="which contract: chance and expected value of every contract",
        description="The bidder's question: for every contract, the chance of making it and its expected "
                    "single-deal value over the hidden layouts (10 cards: talon and hands; 12 cards: "
                    "the other hands, every discard tried).")
    bid.add_argument("hand", help="10 cards (before the talon) or 12 (after it)")
    bid.add_argument("--seat", required=True, type=cli_args.seat, help="your seat 0-2 (seat 0 leads)")
    bid.add_argument("--talon", help="the talon, making the 12-card question")
    bid.add_argument("--contracts", default="all", help="all (default) or a list: 6s,7s,misere")
    bid.add_argument("--defence", choices=["whist", "pass", "both"], default="whist",
                     help="how the defenders answer (default: one whists, one passes)")
    bid.add_argument("--unseen", help="endgames: every other card in play")
    _add_prior_tricks(bid)
    _add_four_players(bid)
    bid.add_argument("--single-dummy", type=int, default=0, metavar="N",
                     help="also play the best contract on N layouts single dummy (the declarer does not see "
                          "the defenders' cards; his play by Monte Carlo worlds at each turn)")
    _add_blind_discard(bid)
    bid.add_argument("--no-pass", action="store_true",
                     help="do not value passing (by default: the others pass too and the all-pass is played)")
    _add_report(bid)
    _add_common(bid, 200)
    bid.set_defaults(func=run_bid)

