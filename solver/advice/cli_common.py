"""What the advice commands share (``prefdd whist``, ``bid``, ``enumerate``,
``play``): the common options, the run under a progress bar and Ctrl-C, and
the pieces of their text output."""
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
from .errors import AdviceError
from .parallel import RunOptions, RunStats
from .progress import ProgressBar
from .stats import Estimate

EXIT_INTERRUPTED = 130
"""The status of a command stopped by Ctrl-C (128 + SIGINT), as the shells give."""


def _tricks(text: str) -> tuple[int, int, int]:
    parts = text.replace(" ", "").split(",")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected three numbers by seat, like 2,1,1; got {text!r}")
    return int(parts[0]), int(parts[1]), int(parts[2])


def _add_prior_tricks(parser: argparse.ArgumentParser) -> None:
    """``--prior-tricks``, as every command that takes an endgame declares it."""
    parser.add_argument("--prior-tricks", type=_tricks, default=(0, 0, 0),
                        help="endgames: tricks taken before, by seat, e.g. 2,1,1")


def _add_four_players(parser: argparse.ArgumentParser) -> None:
    """``--four-players``, as every command that scores declares it."""
    parser.add_argument("--four-players", action="store_true", help="score a 4-player game (the dealer sits out)")


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
