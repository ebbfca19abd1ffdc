"""``prefdd whist``, ``prefdd bid`` and ``prefdd enumerate`` (and ``prefdd play``:
:mod:`solver.advice.play_cli`).

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
import json
import signal
import sys
import threading
from contextlib import contextmanager
from dataclasses import replace
from typing import IO, Any, Callable, Iterator

from .. import cli_args
from ..notation import SEAT_NAMES
from .bid import BidAdvice, advise_bid, bid_request
from .blind_discard import BLIND_DISCARD
from .enumeration import Enumeration, enumerate_splits, enumeration_request
from .errors import AdviceError
from .jsonio import bid_json, enumeration_json, whist_json
from .optimism import Optimism
from .parallel import RunOptions, RunStats
from .play import AUCTION_MODEL, AuctionFilter
from .progress import ProgressBar
from .stats import Estimate
from .whist import WhistAdvice, WhistOption, advise_whist, whist_request
from ..report import LANGUAGES, write_report
from ..report.html import bid_html, whist_html

__all__ = ["register", "EXIT_INTERRUPTED"]

EXIT_INTERRUPTED = 130
"""The status of a command stopped by Ctrl-C (128 + SIGINT), as the shells give."""


def _tricks(text: str) -> tuple[int, int, int]:
    parts = text.replace(" ", "").split(",")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected three numbers by seat, like 2,1,1; got {text!r}")
    return int(parts[0]), int(parts[1]), int(parts[2])


def _options(pairs: list[str] | None) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise AdviceError(f"--option takes KEY=VALUE, got {pair!r}")
        key, text = pair.split("=", 1)
        try:
            result[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            result[key.strip()] = text
    return result


def _add_common(parser: argparse.ArgumentParser, layouts: int | None) -> None:
    """The options every command shares; ``layouts`` None: the command
    always enumerates (no layout budget, no sampling)."""
    parser.add_argument("--convention", default="sochi", help="sochi (default), leningrad or rostov")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="a convention option override (repeatable), e.g. stalingrad=true")
    if layouts is not None:
        parser.add_argument("--layouts", type=cli_args.positive_int, default=layouts,
                            help=f"layouts to sample (default {layouts}); with auto mode, enumerate when there "
                                 "are no more than this")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--exact", dest="mode", action="store_const", const="exact",
                          help="enumerate every layout")
        mode.add_argument("--sample", dest="mode", action="store_const", const="sample",
                          help="always sample, never enumerate")
    parser.add_argument("--seconds", type=cli_args.positive_seconds,
                        help="stop after this many seconds with the estimate so far")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--workers", type=cli_args.workers,
                        help=f"solver threads (default: every core; at most {cli_args.max_workers()})")
    parser.add_argument("--dask", metavar="ADDRESS", type=cli_args.dask_address,
                        help="run on a Dask cluster: its scheduler's host:port, or local:N for N local worker "
                             "processes (the same answer; --workers does not apply; needs the dask extra)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def _add_report(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report to FILE")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="the HTML report's language (en, ru)")


@contextmanager
def _run_options(args: argparse.Namespace) -> Iterator[RunOptions]:
    """Run options with a progress bar and Ctrl-C as cancel (main thread)."""
    cancel = threading.Event()
    bar = ProgressBar(sys.stderr) if not args.no_progress and sys.stderr.isatty() else None
    options = RunOptions(layouts=getattr(args, "layouts", 1000), seconds=args.seconds, seed=args.seed,
                         workers=args.workers,
                         mode=getattr(args, "mode", None) or "auto", cancel=cancel, progress=bar)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, lambda signum, frame: cancel.set())
    try:
        if args.dask:
            from .. import distributed

            with distributed.connect(args.dask) as client:
                yield replace(options, executor=distributed.DaskExecutor(client))
        else:
            yield options
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if bar is not None:
            bar.close()


def _run(args: argparse.Namespace, out: IO[str], work: Callable[[RunOptions], Any],
         to_json: Callable[[Any], dict], to_text: Callable[[Any], str],
         html: Callable[[Any], None] | None = None) -> int:
    """Run one advice under Ctrl-C and print it (``html``: also write the
    report). After Ctrl-C the estimate
    so far is printed (or, when no layout was finished, a line saying so on
    standard error) and the status is 130, as for any command stopped by
    SIGINT."""
    with _run_options(args) as options:
        try:
            result = work(options)
        except AdviceError as error:
            if not _interrupted(options):
                raise
            print(f"prefdd: interrupted: {error}", file=sys.stderr)
            return EXIT_INTERRUPTED
    if html is not None:
        html(result)
    out.write((json.dumps(to_json(result), ensure_ascii=False) if args.json else to_text(result)) + "\n")
    return EXIT_INTERRUPTED if _interrupted(options) else 0


def _interrupted(options: RunOptions) -> bool:
    return options.cancel is not None and options.cancel.is_set()


def _cards(hand) -> str:
    return " ".join(card.pretty() for card in hand)


def _percent(p: float) -> str:
    if 0 < p < 0.01:
        return "<1%"
    return f"{100 * p:.0f}%" if p < 0.995 or p == 1 else ">99%"


def _value(value: Estimate) -> str:
    if value.exact is not None:
        return f"{value.mean:8.2f} (exact)"
    return f"{value.mean:8.2f} ± {value.std_error:.2f}"


def _run_line(stats: RunStats) -> str:
    if stats.exact:
        what = (f"all {stats.layouts:,} layouts enumerated" if stats.complete
                else f"{stats.layouts:,} of {stats.space:,} layouts enumerated (stopped: {stats.stopped})")
    else:
        what = f"{stats.layouts:,} layouts sampled (seed {stats.seed})"
        if stats.stopped != "done":
            what += f", stopped: {stats.stopped}"
    if stats.rejected:
        what += f", {stats.rejected:,} rejected"
    return f"{what}; {stats.workers} worker(s), {stats.elapsed:.2f} s"


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


def run_enumerate(args: argparse.Namespace) -> int:
    out = sys.stdout
    request = enumeration_request(args.hand, args.declarer, args.contract, discard=args.discard,
                                  defenders=args.defenders, convention=args.convention,
                                  options=_options(args.option), defence=args.defence,
                                  prior_tricks=args.prior_tricks, four_players=args.four_players)
    return _run(args, out, lambda options: enumerate_splits(request, options), enumeration_json,
                format_enumeration)


def register(subparsers: Any) -> None:
    """Add ``whist``, ``bid``, ``enumerate`` and ``play`` to the ``prefdd`` command line."""
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
    whist.add_argument("--prior-tricks", type=_tricks, default=(0, 0, 0),
                       help="endgames: tricks taken before, by seat, e.g. 2,1,1")
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
    whist.add_argument("--four-players", action="store_true", help="score a 4-player game (the dealer sits out)")
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
    bid.add_argument("--prior-tricks", type=_tricks, default=(0, 0, 0), help="endgames: tricks before, by seat")
    bid.add_argument("--four-players", action="store_true", help="score a 4-player game")
    bid.add_argument("--single-dummy", type=int, default=0, metavar="N",
                     help="also play the best contract on N layouts single dummy (the declarer does not see "
                          "the defenders' cards; his play by Monte Carlo worlds at each turn)")
    _add_blind_discard(bid)
    bid.add_argument("--no-pass", action="store_true",
                     help="do not value passing (by default: the others pass too and the all-pass is played)")
    _add_report(bid)
    _add_common(bid, 200)
    bid.set_defaults(func=run_bid)

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
    enumerate_.add_argument("--prior-tricks", type=_tricks, default=(0, 0, 0),
                            help="endgames: tricks before, by seat")
    enumerate_.add_argument("--four-players", action="store_true", help="score a 4-player game")
    _add_common(enumerate_, None)
    enumerate_.set_defaults(func=run_enumerate, mode="exact")

    from . import play_cli  # it reads this module's shared options
    play_cli.register(subparsers)
