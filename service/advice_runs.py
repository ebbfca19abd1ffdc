"""Advice runs on the server: a bounded number at once, each stopped when its call ends.

An advice run (:func:`solver.advice.advise_whist`, ``advise_bid``,
``enumerate_splits``) starts its own worker threads, one solver each, and
waits for them on the calling thread: here, the call's handler thread. At most
``max_runs`` runs go at once (a call beyond that is refused at once, not
queued: the caller gets RESOURCE_EXHAUSTED naming ``max_advice_runs``), each
with ``workers`` threads.

A run stops when its call ends: the call's termination callback (cancel,
deadline, server shutdown) sets the run's cancel event, its progress callback
(every 50 ms on the handler thread) checks the call as well, and its time
budget is never longer than what is left of the deadline, nor than the
server's ``max_seconds`` (the run then answers its estimate so far, marked
stopped). The run then asks its solvers to stop and joins its threads before
the handler returns, so a finished call leaves no thread behind and frees its
slot.
"""
from __future__ import annotations

import threading
from typing import Callable, TypeVar

import grpc

from solver.advice import Progress, RunOptions
from solver.advice.parallel import LayoutExecutor

from .advice_calls import BudgetChoice

__all__ = ["AdviceBusy", "AdviceRuns", "AdviceTimeLimit", "CallEnded"]

T = TypeVar("T")


class AdviceBusy(Exception):
    """Every advice slot is taken."""


class AdviceTimeLimit(Exception):
    """The server's time limit stopped a run before it counted any layout."""


class CallEnded(Exception):
    """The call ended (deadline, cancel) before its run could start."""


class AdviceRuns:
    """The server's advice slots and the runs going on."""

    def __init__(self, max_runs: int, workers: int, max_seconds: float | None = None,
                 executor: LayoutExecutor | None = None) -> None:
        self.max_runs = max_runs
        self.workers = workers
        self.max_seconds = max_seconds
        self.executor = executor
        """Where the runs' layouts are solved (a Dask cluster); None: here."""
        self._slots = threading.BoundedSemaphore(max_runs)
        self._lock = threading.Lock()
        self._cancels: set[threading.Event] = set()

    @property
    def active(self) -> int:
        """Runs going on now."""
        with self._lock:
            return len(self._cancels)

    def cancel_all(self) -> None:
        """Stop every run (server shutdown)."""
        with self._lock:
            cancels = list(self._cancels)
        for cancel in cancels:
            cancel.set()

    def run(self, context: grpc.ServicerContext, budget: BudgetChoice, work: Callable[[RunOptions], T]) -> T:
        """``work(options)`` in a free slot, stopped when the call ends; raises
        :class:`AdviceBusy` when no slot is free, :class:`CallEnded` when the
        call has ended already, and whatever ``work`` raises."""
        if not self._slots.acquire(blocking=False):
            raise AdviceBusy(f"the server runs at most max_advice_runs={self.max_runs} advice runs at once "
                             "and all are busy; try again later")
        cancel = threading.Event()
        with self._lock:
            self._cancels.add(cancel)
        try:
            options = self._options(context, budget, cancel)
            try:
                return work(options)
            except ValueError:
                capped = self.max_seconds is not None and options.seconds == self.max_seconds
                if capped and context.is_active() and not cancel.is_set():
                    # Stopped by the server's time limit before any layout was counted.
                    raise AdviceTimeLimit(f"the advice run reached the server's limit max_advice_seconds="
                                          f"{self.max_seconds:g} before any layout was counted") from None
                raise
        finally:
            with self._lock:
                self._cancels.discard(cancel)
            self._slots.release()

    def _options(self, context: grpc.ServicerContext, budget: BudgetChoice, cancel: threading.Event) -> RunOptions:
        if not context.add_callback(cancel.set):
            raise CallEnded("the call ended before the run started")
        seconds = budget.seconds
        if self.max_seconds is not None:
            seconds = self.max_seconds if seconds is None else min(seconds, self.max_seconds)
        remaining = context.time_remaining()
        if remaining is not None:
            if remaining <= 0:
                raise CallEnded("the deadline passed before the run started")
            seconds = remaining if seconds is None else min(seconds, remaining)

        def watch(_progress: Progress) -> None:
            left = context.time_remaining()
            if not context.is_active() or (left is not None and left <= 0):
                cancel.set()

        return RunOptions(layouts=budget.layouts, seconds=seconds, seed=budget.seed, workers=self.workers,
                          mode=budget.mode, cancel=cancel, progress=watch, executor=self.executor)
