"""Progress of a long run: the report a run gives while it works, and a text
progress bar for the command line."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import IO

__all__ = ["Progress", "ProgressBar"]


@dataclass(frozen=True)
class Progress:
    """Where a run stands: ``done`` layouts evaluated (kept or rejected) out of
    ``total`` (the layout budget when sampling, every layout when
    enumerating), ``kept`` of them used, after ``elapsed`` seconds."""

    done: int
    total: int
    kept: int
    rejected: int
    elapsed: float
    exact: bool

    @property
    def fraction(self) -> float:
        if not self.total:
            return 0.0
        return min(1.0, (self.done if self.exact else self.kept) / self.total)


class ProgressBar:
    """``[##########----------]  512/1000 layouts  2.1 s`` redrawn in place on a
    terminal stream (at most ten times a second); :meth:`close` ends the line."""

    def __init__(self, stream: IO[str], width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.last_draw = 0.0
        self.drawn = False

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if now - self.last_draw < 0.1 and progress.fraction < 1.0:
            return
        self.last_draw = now
        filled = int(round(progress.fraction * self.width))
        count = progress.done if progress.exact else progress.kept
        text = (f"\r[{'#' * filled}{'-' * (self.width - filled)}] {count:>{len(str(progress.total))}}/"
                f"{progress.total} layouts  {progress.elapsed:.1f} s")
        if progress.rejected:
            text += f"  ({progress.rejected} rejected)"
        self.stream.write(text)
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
