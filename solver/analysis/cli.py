"""``prefdd analyze``: a finished deal, what was possible and what went wrong.

    prefdd analyze DEAL                      the deal's table with best discards,
                                             and the all-pass values
    prefdd analyze DEAL --declarer S --contract C [--discard CARDS] [--played CARDS]
                                             best discard(s), the value before and
                                             after each card played, the mistakes,
                                             the best line from there
    prefdd analyze DEAL --contract allpass [--played CARDS] [--no-talon-leads] [--four-players]
                                             all-pass values, each card judged by its
                                             player's own value, the max^n line

DEAL is three hands and the talon (a deal without a talon is taken as played,
the discard made). First hand (seat 0) leads. ``--json`` prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
from typing import Any, Callable, TypeVar

from ..engine import Solver
from .. import cli_args
from ..advice.parallel import default_workers
from ..notation import SEAT_NAMES, SUIT_SYMBOLS, Contract, ContractKind, Deal, Hand
from .deal import DealAnalysis, DealRequest, RecordScore, analyze_deal
from .discard import AnalysisError, BestDiscard
from .jsonio import deal_analysis_json, score_json
from .lines import LineTrick
from .play import PlayAnalysis
from .table import DiscardTable
from ..formats import GameRecord, read_record
from ..report import LANGUAGES, write_report
from ..report.html import analysis_html
from ..scoring import get_convention, outcome_from_json

__all__ = ["register", "analyze", "deal_request", "format_analysis", "run_analyze", "run_stoppable", "compact"]


def compact(hand: Hand) -> str:
    """``♠7♣98``: suit symbol then ranks, voids left out; ``—`` for no cards."""
    groups = []
    for suit in range(4):
        ranks = "".join(str(c)[0] for c in hand.cards() if c.suit == suit)
        if ranks:
            groups.append(SUIT_SYMBOLS[suit] + ranks)
    return "".join(groups) or "—"


def _seat_name(seat: int) -> str:
    return f"{SEAT_NAMES[seat]} (seat {seat})"


def format_discard_table(table: DiscardTable) -> str:
    heads = list(SUIT_SYMBOLS) + ["NT"]
    lines = [f"{'declarer':<13}" + "".join(f"{h:>4}" for h in heads) + f"{'misère':>8}  best contract"]
    for row in table.rows:
        best = row.best_contract.pretty() if row.best_contract is not None else "—"
        lines.append(f"{SEAT_NAMES[row.seat]:<13}" + "".join(f"{t:>4}" for t in row.tricks)
                     + f"{row.misere.value:>8}  {best}")
    lines.append("")
    lines.append(f"{'discards':<13}" + "".join(f"{h:<7}" for h in heads) + "misère")
    for row in table.rows:
        cells = [compact(s.discard) for s in row.strains] + [compact(row.misere.discard)]
        lines.append(f"{SEAT_NAMES[row.seat]:<13}" + "".join(f"{c:<7}" for c in cells[:-1]) + cells[-1])
    lines.append("(each seat declaring with the talon; tricks he takes with his best discard; "
                 f"misère: tricks he is held to; {SEAT_NAMES[table.leader]} leads)")
    return "\n".join(lines)


def format_best_discard(found: BestDiscard) -> str:
    if found.contract.kind is ContractKind.MISERE:
        verdict = "misère made" if found.value == 0 else f"caught for {found.value} trick(s)"
    else:
        assert found.contract.level is not None
        short = found.contract.level - found.value
        verdict = f"{found.value} tricks ({'made' if found.made else f'down {short}'})"
    count = len(found.discards)
    discards = " ".join(compact(d) for d in found.discards)
    return f"Best discard: {verdict}; {count} discard{'s' if count != 1 else ''} reach it: {discards}"


def _trick_lines(tricks: tuple[LineTrick, ...]) -> list[str]:
    return ["  " + trick.pretty() for trick in tricks]


def format_play(analysis: PlayAnalysis) -> str:
    lines = []
    if analysis.discard is not None:
        lines.append(f"Discard: {compact(analysis.discard)}")
    allpass = analysis.contract.kind is ContractKind.ALLPASS
    if not allpass:
        lines.append(f"Value before the first card: {analysis.value} "
                     f"(tricks of {SEAT_NAMES[analysis.declarer]})")
    if analysis.steps:
        counted = "the card's player's own tricks" if allpass else "declarer's tricks"
        lines.append(f"Cards played ({counted} before → after, cost):")
        for step in analysis.steps:
            cost = f"−{step.cost}" if step.cost else "ok"
            lines.append(f"  trick {step.trick:>2}  {SEAT_NAMES[step.seat]:<12} {step.card.pretty():<3}"
                         f" {step.value_before:>2} → {step.value_after:<2} {cost}")
        mistakes = analysis.mistakes
        lines.append("Mistakes:" if mistakes else "Mistakes: none")
        for step in mistakes:
            best = " ".join(card.pretty() for card in step.best_cards)
            lines.append(f"  {step.describe()} (best: {best})")
    if analysis.line is not None and analysis.line.tricks:
        where = "from here" if analysis.steps else "from the start"
        lines.append(f"Best line {where} (declarer's total {analysis.line.value}):")
        lines.extend(_trick_lines(analysis.line.tricks))
    return "\n".join(lines)


def _contract_heading(contract: Contract, declarer: int) -> str:
    return f"{contract.pretty()} by {_seat_name(declarer)}, first hand leads"


def _contract_text(analysis: DealAnalysis) -> list[str]:
    assert analysis.contract is not None and analysis.play is not None
    text = [_contract_heading(analysis.contract, analysis.play.declarer)]
    if analysis.best is not None:
        text.append(format_best_discard(analysis.best))
    text.append(format_play(analysis.play))
    return text


def _allpass_text(analysis: DealAnalysis) -> list[str]:
    play, line, values = analysis.play, analysis.line, analysis.allpass
    assert play is not None and line is not None and values is not None
    where = "after the cards played" if play.steps else "from the start"
    text = [f"All-pass, {where}: the fewest tricks each player can be sure of (in all): "
            + ", ".join(f"{SEAT_NAMES[s]} {values.tricks[s]}" for s in range(3))]
    if play.steps:
        text.append(format_play(play))
    text.append("Max^n line (each player minimises his own tricks, ties to the lowest card): "
                + ", ".join(f"{SEAT_NAMES[s]} {line.tricks[s]}" for s in range(3))
                + (f", no seat {line.unclaimed}" if line.unclaimed else ""))
    text.extend(_trick_lines(line.tricks_played))
    return text


def _table_text(analysis: DealAnalysis) -> list[str]:
    assert analysis.allpass is not None
    text = [] if analysis.table is None else [format_discard_table(analysis.table), ""]
    text.append("All-pass (talon leads): the fewest tricks each player can be sure of: "
                + ", ".join(f"{SEAT_NAMES[s]} {analysis.allpass.tricks[s]}" for s in range(3)))
    return text


def format_analysis(analysis: DealAnalysis, record: GameRecord) -> list[str]:
    """The text lines of ``prefdd analyze``."""
    text = [analysis.deal.pretty(), ""]
    if analysis.contract is None:
        text.extend(_table_text(analysis))
    elif analysis.contract.kind is ContractKind.ALLPASS:
        text.extend(_allpass_text(analysis))
    else:
        text.extend(_contract_text(analysis))
    if analysis.score is not None:
        text.append(f"Score ({record.convention}), the deal's value in whists: "
                    + ", ".join(f"{name} {value}" for name, value in score_json(analysis.score)["deal_value"].items()))
    elif record.convention is not None:
        text.append(f"Score ({record.convention}): not computed: {analysis.score_omitted}")
    return text


def with_record(args: argparse.Namespace, files: bool = False) -> tuple[argparse.Namespace, GameRecord]:
    """The arguments with what the deal's record gives (contract, declarer,
    discard, cards played, all-pass options) where the command line is silent;
    ``files``: the deal may name a file (the command line only)."""
    record = read_record(args.deal, files=files)
    filled = argparse.Namespace(**vars(args))
    known = record.analyze_arguments()
    filled.deal = known["deal"]
    for name in ("contract", "declarer", "discard"):
        if getattr(args, name) is None:
            setattr(filled, name, known[name])
    if not args.played:
        filled.played = known["played"]
    filled.talon_leads = args.talon_leads and known["talon_leads"]
    filled.four_players = args.four_players or known["four_players"]
    return filled, record


def _record_scoring(record: GameRecord) -> tuple[RecordScore | None, str]:
    """The record's own outcome to score under its convention, or why it cannot be."""
    if record.convention is None:
        return None, ""
    try:
        request = record.score_request()
        convention = get_convention(request["convention"], request["option_overrides"])
        return RecordScore(convention, outcome_from_json(request["input"])), ""
    except ValueError as error:
        return None, str(error)


def table_workers(args: argparse.Namespace) -> int:
    """The deal's table's threads: ``--workers``, else every core (callers
    without the option, such as the web service's, search on one)."""
    if not hasattr(args, "workers"):
        return 1
    return args.workers if args.workers is not None else default_workers()


def deal_request(args: argparse.Namespace, files: bool = False) -> tuple[DealRequest, GameRecord]:
    """The analysis the parsed arguments ask for, and the deal's record (the
    deal is text in any record form; ``files``: it may name a file)."""
    args, record = with_record(args, files)
    deal = Deal.parse(args.deal)
    contract = Contract.parse(args.contract) if args.contract is not None else None
    scoring, omitted = _record_scoring(record)
    if contract is None:
        if args.played or args.discard is not None or args.declarer is not None:
            raise AnalysisError("--declarer, --discard and --played need --contract")
        # The table's all-pass values are always from the start with talon leads.
        return DealRequest(deal, scoring=scoring, score_omitted=omitted, table_workers=table_workers(args)), record
    if contract.kind is ContractKind.ALLPASS:
        if args.discard is not None:
            raise AnalysisError("all-pass has no discard")
        return DealRequest(deal, contract, played=args.played, talon_leads=args.talon_leads,
                           four_players=args.four_players, scoring=scoring, score_omitted=omitted), record
    if args.declarer is None:
        raise AnalysisError("--contract needs --declarer (or use --contract allpass)")
    return DealRequest(deal, contract, args.declarer, args.discard, args.played, scoring=scoring,
                       score_omitted=omitted), record


T = TypeVar("T")


def run_stoppable(work: Callable[[], T], solver: Solver) -> T:
    """Run ``work`` on a helper thread so that Ctrl-C can stop a long search:
    the C search never looks at Python's signals, so the main thread waits
    and, on KeyboardInterrupt, asks the solver to stop, waits for the helper
    to give up, then re-raises. (The wait is on an Event: an interrupted
    ``Thread.join`` can wrongly mark a running thread finished.)"""
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # handed over to the main thread
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=target, name="prefdd-analyze", daemon=True).start()
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        solver.request_stop()
        done.wait()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def analyze(args: argparse.Namespace, solver: Solver) -> tuple[dict[str, Any], list[str]]:
    """The JSON answer and the text lines for the parsed arguments (the deal
    is text in any record form, never a file name)."""
    request, record = deal_request(args)
    analysis = analyze_deal(request, solver)
    return deal_analysis_json(analysis), format_analysis(analysis, record)


def run_analyze(args: argparse.Namespace) -> int:
    out = sys.stdout
    solver = Solver()
    request, record = deal_request(args, files=True)
    analysis = run_stoppable(lambda: analyze_deal(request, solver), solver)
    answer = deal_analysis_json(analysis)
    if args.html:
        problem = analysis.score_omitted if record.convention is not None and analysis.score is None else None
        write_report(args.html, analysis_html(answer, analysis.deal, lang=args.lang, players=record.players,
                                              convention=record.convention, score_problem=problem))
    if args.json:
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(format_analysis(analysis, record)).rstrip() + "\n")
    return 0


def register(subparsers: Any) -> None:
    """Add ``analyze`` to the ``prefdd`` command line."""
    parser = subparsers.add_parser(
        "analyze", help="a finished deal: best discards, the table, all-pass, mistakes",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("deal", help="three hands in seat order and the talon, or a record: a file or text "
                                     "in the JSON game record, a JPref deal: line or .pts (FILE#N: its N-th deal)")
    parser.add_argument("--declarer", type=cli_args.seat, help="seat 0-2")
    parser.add_argument("--contract", help="6s .. 10nt, misere or allpass")
    parser.add_argument("--discard", help="the declarer's two discarded cards (default: his best)")
    parser.add_argument("--played", default="", help="cards played, in order: 'As 7s 8s Kd ...'")
    parser.add_argument("--no-talon-leads", dest="talon_leads", action="store_false",
                        help="all-pass: the talon does not lead the first two tricks")
    parser.add_argument("--four-players", action="store_true",
                        help="all-pass: the sitting dealer owns the talon tricks")
    parser.add_argument("--workers", type=cli_args.workers,
                        help="solver threads for the deal's table (default: every core; at most "
                             f"{cli_args.max_workers()})")
    parser.add_argument("--json", action="store_true", help="JSON output")
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report to FILE")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="the HTML report's language (en, ru)")
    parser.set_defaults(func=run_analyze)
