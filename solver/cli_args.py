"""Argument types shared by the ``prefdd`` subcommands: each turns a word of
the command line into a value or raises ``argparse.ArgumentTypeError`` with a
message naming the problem."""
from __future__ import annotations

import argparse

from .advice.parallel import WORKERS_PER_CORE, default_workers, max_workers
from .notation import parse_seat

__all__ = ["seat", "positive_int", "workers", "max_workers", "port", "seconds", "positive_seconds", "dask_address"]


def seat(text: str) -> int:
    """A seat: 0-2 or first/second/third."""
    try:
        return parse_seat(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _number(text: str, kind: type, what: str) -> int | float:
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def positive_int(text: str) -> int:
    value = int(_number(text, int, "a whole number"))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def workers(text: str) -> int:
    """Solver threads: 1 up to a few per core (each has its own table of
    16 MiB or more, and more threads than cores only add memory)."""
    value = positive_int(text)
    if value > max_workers():
        raise argparse.ArgumentTypeError(f"at most {max_workers()} ({WORKERS_PER_CORE} per core on "
                                         f"{default_workers()} cores), got {value}")
    return value


def port(text: str) -> int:
    value = int(_number(text, int, "a port number"))
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0..65535 (0 = any free port), got {value}")
    return value


def seconds(text: str) -> float:
    """0 or more seconds."""
    value = float(_number(text, float, "a number of seconds"))
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, got {text}")
    return value


def positive_seconds(text: str) -> float:
    value = float(_number(text, float, "a number of seconds"))
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def dask_address(text: str) -> str:
    """A Dask scheduler's address (host:port, tcp://host:port) or local:N."""
    from .distributed import parse_address  # Dask itself is imported only when the command runs

    try:
        parse_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text
