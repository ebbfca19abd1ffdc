"""The ``prefdd`` command line.

    prefdd solve DEAL --contract 6s --declarer 0 [--leader 0] [--cards] [--json]
    prefdd table DEAL [--leader 0] [--json]
    prefdd batch [FILE] [--workers N | --dask ADDRESS]   JSON lines in, JSON lines out
    prefdd score / prefdd pool            scoring (solver.scoring.cli)
    prefdd analyze                        whole-deal analysis (solver.analysis.cli)
    prefdd whist / bid / enumerate / play decisions under hidden cards (solver.advice.cli)
    prefdd convert                        deal records between forms (solver.formats.cli)
    prefdd serve                          the gRPC service (service.cli)
    prefdd --version

Subcommands of other packages are found through the ``prefdd.commands``
entry-point group (``service.cli`` registers ``serve`` so): each entry is a
``register(subparsers)`` function. Every subcommand sets ``func``, called
with the parsed arguments, answering the exit status. Errors go to stderr
with exit status 2.

A command line naming a built-in command builds the parser of that command
alone (:data:`COMMANDS`: the module registering it is the only one
imported), so that ``prefdd enumerate`` does not load the analysis, the
service or the other advice; any other command line (``--help``, a
registered command, a misspelt one) builds the whole parser.
"""
from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import stat
import sys
from collections import deque
from typing import IO, TYPE_CHECKING, Callable, Iterable, Iterator, Sequence, TypeVar

from . import __version__, api, cli_args
from . import batch as batch_module
from .jsonlines import LineError, read_lines, stdin_bytes
from .notation import SEAT_NAMES, SUIT_SYMBOLS, Contract, ContractKind
from .position import Position

if TYPE_CHECKING:
    from concurrent.futures import Future

EXIT_USAGE = 2
T = TypeVar("T")
R = TypeVar("R")
BATCH_CHUNK = 64
"""Lines of a batch file answered together (their solves in one C call)."""
COMMAND_GROUP = "prefdd.commands"
CORE = __name__
COMMANDS = {
    "solve": CORE, "table": CORE, "batch": CORE,
    "score": "solver.scoring.cli", "pool": "solver.scoring.cli",
    "analyze": "solver.analysis.cli",
    "whist": "solver.advice.cli", "bid": "solver.advice.cli",
    "enumerate": "solver.advice.enumerate_cli",
    "play": "solver.advice.play_cli",
    "convert": "solver.formats.cli",
}
"""Each built-in command and the module whose ``register(subparsers)`` adds
it (with the other commands of that module), in the order of ``--help``."""


class CommandError(ValueError):
    """A user error reported on stderr with exit status 2."""


class CommandLoadError(ImportError):
    """A subcommand registered in the ``prefdd.commands`` group could not be loaded."""


def _print_json(value: object, out: IO[str]) -> None:
    out.write(json.dumps(value, ensure_ascii=False) + "\n")


def cmd_solve(args: argparse.Namespace) -> int:
    from .formats import read_deal

    out = sys.stdout
    deal = read_deal(args.deal, files=True)
    contract = Contract.parse(args.contract)
    if contract.kind is ContractKind.ALLPASS:
        raise CommandError("solve takes a trick contract or misere; for all-pass use 'prefdd batch'")
    position = Position.start(deal, contract, args.declarer, args.leader)
    solver = api.thread_solver()
    value = solver.solve(position)
    values = solver.card_values(position) if args.cards else {}
    if args.json:
        answer: dict[str, object] = {"declarer_tricks": value}
        if args.cards:
            answer["card_values"] = {str(c): v for c, v in sorted(values.items())}
        _print_json(answer, out)
        return 0
    out.write(deal.pretty() + "\n\n")
    who = f"{SEAT_NAMES[args.declarer]} (seat {args.declarer})"
    lead = f"{SEAT_NAMES[args.leader]} leads"
    if contract.kind is ContractKind.MISERE:
        verdict = "misère made" if value == 0 else f"misère caught: {value} trick(s)"
        out.write(f"Misère by {who}, {lead}: {verdict}\n")
    else:
        assert contract.level is not None
        made = "made" if contract.is_made(value) else f"down {contract.level - value}"
        out.write(f"{contract.pretty()} by {who}, {lead}: {value} tricks ({made})\n")
    if args.cards:
        out.write("Each card of the leader (declarer's tricks after it):\n")
        out.write("  " + "  ".join(f"{c.pretty()} {v}" for c, v in sorted(values.items())) + "\n")
    return 0


def format_table(table: api.DealTable) -> str:
    header = f"{'declarer':<13}" + "".join(f"{s:>4}" for s in SUIT_SYMBOLS) + f"{'NT':>4}{'misère':>8}"
    lines = [header]
    for seat in range(3):
        row = f"{SEAT_NAMES[seat]:<13}" + "".join(f"{t:>4}" for t in table.tricks[seat])
        lines.append(row + f"{table.misere[seat]:>8}")
    lines.append(f"(tricks the declarer takes; misère: tricks he is held to; {SEAT_NAMES[table.leader]} leads)")
    return "\n".join(lines)


def cmd_table(args: argparse.Namespace) -> int:
    from .formats import read_deal

    out = sys.stdout
    deal = read_deal(args.deal, files=True)
    table = api.deal_table(deal, args.leader)
    if args.json:
        _print_json({"tricks": [list(row) for row in table.tricks], "misere": list(table.misere),
                     "strains": ["s", "c", "d", "h", "nt"], "leader": table.leader}, out)
        return 0
    out.write(deal.pretty() + "\n\n" + format_table(table) + "\n")
    return 0


def ordered_map(work: Callable[[T], R], lines: Iterable[T], workers: int) -> Iterator[R]:
    """``map`` over a stream on worker threads, in input order, holding at most
    a few lines per worker in flight (so a pipe is answered as it is read)."""
    if workers <= 1:
        yield from map(work, lines)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        window: deque[Future[R]] = deque()
        for line in lines:
            window.append(pool.submit(work, line))
            if len(window) >= 4 * workers:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()


def _is_file(source: IO[bytes]) -> bool:
    try:
        return stat.S_ISREG(os.fstat(source.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _answer_lines(lines: list[str | LineError]) -> list[str]:
    from .analysis.batch import evaluate_lines

    return evaluate_lines(lines, api.thread_solver())


def batch_answers(lines: Iterable[str | LineError], workers: int, chunk: int = 1) -> Iterator[list[str]]:
    """``prefdd batch``'s output lines in input order, ``chunk`` input lines
    at a time (their solves in one C call) on each of ``workers`` threads,
    each with its thread's solver."""
    return ordered_map(_answer_lines, _chunks(lines, chunk), workers)


def cmd_batch(args: argparse.Namespace) -> int:
    out = sys.stdout
    source: IO[bytes] = open(args.file, "rb") if args.file else stdin_bytes()
    try:
        lines = read_lines(source)   # a line that cannot be read is answered with its error
        if args.dask:
            from . import distributed

            with distributed.connect(args.dask) as client:
                for result in distributed.submit_batch(client, lines):
                    out.write(result.answer + "\n")  # type: ignore[operator]
                    out.flush()
            return 0
        # A file is read ahead, BATCH_CHUNK lines at a time; a pipe is
        # answered line by line, so a program that waits for each answer
        # before writing the next request gets it.
        size = BATCH_CHUNK if _is_file(source) else 1
        for answers in batch_answers(lines, args.workers, size):
            for answer in answers:
                out.write(answer + "\n")
            out.flush()
    finally:
        if args.file:
            source.close()
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``solve``, ``table`` and ``batch`` to the ``prefdd`` command line."""
    solve = commands.add_parser("solve", help="the declarer's tricks in one contract",
                                description="Solve one contract double dummy.")
    solve.add_argument("deal", help="three hands in seat order (talon optional), or a record file "
                                    "(JSON record, JPref deal: line, .pts)")
    solve.add_argument("--contract", required=True, help="6s .. 10nt, or misere")
    solve.add_argument("--declarer", required=True, type=cli_args.seat, help="seat 0-2")
    solve.add_argument("--leader", default=0, type=cli_args.seat, help="seat that leads (default 0)")
    solve.add_argument("--cards", action="store_true", help="also every legal card's value")
    solve.add_argument("--json", action="store_true", help="JSON output")
    solve.set_defaults(func=cmd_solve)

    table = commands.add_parser("table", help="every seat in every strain and misère",
                                description="The fixed-hands table of a deal.")
    table.add_argument("deal")
    table.add_argument("--leader", default=0, type=cli_args.seat, help="seat that leads (default 0)")
    table.add_argument("--json", action="store_true", help="JSON output")
    table.set_defaults(func=cmd_table)

    batch = commands.add_parser("batch", help="JSON lines in, one JSON answer per line out",
                                description=batch_module.__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    batch.add_argument("file", nargs="?", help="input file (default: standard input)")
    batch.add_argument("--workers", type=cli_args.workers, default=1,
                       help=f"solver threads (default 1, at most {cli_args.max_workers()})")
    batch.add_argument("--dask", metavar="ADDRESS", type=cli_args.dask_address,
                       help="answer on a Dask cluster: its scheduler's host:port, or local:N for N local "
                            "worker processes (the same answers in the same order; needs the dask extra)")
    batch.set_defaults(func=cmd_batch)


def _register_plugins(commands: argparse._SubParsersAction) -> None:
    from importlib.metadata import entry_points

    for entry in entry_points(group=COMMAND_GROUP):  # serve (service.cli)
        try:
            register_entry = entry.load()
        except Exception as error:
            raise CommandLoadError(f"cannot load the prefdd command {entry.name!r} "
                                   f"({entry.value}): {type(error).__name__}: {error}") from error
        register_entry(commands)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``prefdd`` parser: every command, or, for a built-in ``command``,
    that command's module's commands alone."""
    parser = argparse.ArgumentParser(
        prog="prefdd", description="Exact double-dummy solver and analysis for Preferans.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        module = sys.modules[CORE] if name == CORE else importlib.import_module(name)
        module.register(commands)
    if command not in COMMANDS:
        _register_plugins(commands)
    return parser


def command_word(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word, unless that is an
    option (``--help``, ``--version``: then the whole parser is built)."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def _user_errors() -> tuple[type[BaseException], ...]:
    """The errors reported as a message and status 2: bad input, files, and
    a Dask run without the dask extra (only once that module is loaded)."""
    distributed = sys.modules.get(f"{__package__}.distributed")
    return (ValueError, OSError) + ((distributed.DaskNotInstalled,) if distributed is not None else ())


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(command_word(words))
    args = parser.parse_args(words)
    try:
        return args.func(args)
    except _user_errors() as error:
        print(f"prefdd: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
