"""A pool of solver worker threads whose jobs can be cancelled mid-search.

Each worker thread owns one solver context (the solver of its thread,
:func:`solver.api.thread_solver`), so its transposition table is reused from
job to job. A job is a function of that solver: it is given the solver and
searches with it alone. The C search releases the GIL, so N workers search on N cores.

Cancelling a job that waits in the queue drops it; cancelling a running job
asks its worker's solver to stop (:meth:`solver.Solver.request_stop`): the C
search checks the flag, answers ``SearchStopped`` soon, the job ends with
:class:`JobCancelled` and the worker takes the next job. The stop flag is
cleared before each job starts, never while one runs, so a late cancel cannot
leak into the next job.
"""
from __future__ import annotations

import os
import queue
import threading
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Generic, TypeVar

from solver.api import thread_solver
from solver.engine import SearchStopped, Solver

__all__ = ["Job", "JobCancelled", "PoolClosed", "PoolStats", "SolverPool"]

T = TypeVar("T")


class JobCancelled(Exception):
    """The job was cancelled before it finished (its search, if any, was stopped)."""


class PoolClosed(RuntimeError):
    """A job was submitted to a pool that has been shut down."""


class _State(Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


@dataclass(frozen=True)
class PoolStats:
    """Counters since the pool started."""

    completed: int
    """Jobs that returned a value or raised their own error."""
    dropped: int
    """Jobs cancelled while they waited in the queue."""
    stopped: int
    """Jobs cancelled while they ran: their search was stopped."""
    busy_workers: int
    """Workers running a job right now."""
    queued: int
    """Jobs waiting for a worker right now."""


class Job(Generic[T]):
    """One unit of work for the pool: ``work(solver)``, its result or error."""

    def __init__(self, work: Callable[[Solver], T]) -> None:
        self._work = work
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._state = _State.QUEUED
        self._cancel_requested = False
        self._solver: Solver | None = None
        self._value: T | None = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[Job[T]], None]] = []

    # -- client side -------------------------------------------------------

    def cancel(self) -> None:
        """Drop the job if it waits, stop its search if it runs; no-op once done."""
        with self._lock:
            if self._state is _State.DONE:
                return
            self._cancel_requested = True
            if self._state is _State.RUNNING:
                assert self._solver is not None
                self._solver.request_stop()
                return
        self._finish(None, JobCancelled("cancelled before it started"))

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job is done; True if it is."""
        return self._done.wait(timeout)

    def done(self) -> bool:
        return self._done.is_set()

    def result(self) -> T:
        """The job's value; raises its error (or JobCancelled). Call once done."""
        if not self._done.is_set():
            raise RuntimeError("the job is not done yet")
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def add_done_callback(self, callback: Callable[[Job[T]], None]) -> None:
        """Call ``callback(job)`` when the job is done (now, if it already is).
        Callbacks run on the thread that finishes the job and must be quick."""
        with self._lock:
            if self._state is not _State.DONE:
                self._callbacks.append(callback)
                return
        callback(self)

    @property
    def was_stopped(self) -> bool:
        """True if the job was cancelled while its search ran."""
        return self._done.is_set() and isinstance(self._error, JobCancelled) and self._solver is not None

    # -- worker side -------------------------------------------------------

    def _start(self, solver: Solver) -> bool:
        """Mark the job running on ``solver``; False if it was cancelled first."""
        with self._lock:
            if self._state is not _State.QUEUED:
                return False
            self._state = _State.RUNNING
            self._solver = solver
            return True

    def _run(self) -> bool:
        """Run the job on its solver; True if a cancel stopped it."""
        assert self._solver is not None
        try:
            value = self._work(self._solver)
        except SearchStopped:
            if self._cancel_requested:
                self._finish(None, JobCancelled("search stopped"))
                return True
            self._finish(None, RuntimeError("search stopped without a cancel"))
        except BaseException as error:  # the job's own error goes to its caller
            self._finish(None, error)
        else:
            if self._cancel_requested:
                # Cancelled after the last search ended: the caller asked for no answer.
                self._finish(None, JobCancelled("cancelled"))
                return True
            self._finish(value, None)
        return False

    def _finish(self, value: T | None, error: BaseException | None) -> None:
        with self._lock:
            if self._state is _State.DONE:
                return
            self._state = _State.DONE
            self._value, self._error = value, error
            callbacks, self._callbacks = self._callbacks, []
        self._done.set()
        for callback in callbacks:
            callback(self)


_SHUTDOWN = None


class SolverPool:
    """``workers`` threads, each solving jobs with its own solver.

    ``solver_setup`` is called once per worker with the worker's solver before
    its first job (for instance ``lambda s: s.set_options(OPT_NONE)`` to give a
    test an exact but slow search); by default the solver is used as it is.
    """

    def __init__(self, workers: int | None = None,
                 solver_setup: Callable[[Solver], None] | None = None) -> None:
        count = workers if workers is not None else (os.cpu_count() or 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"workers must be a whole number of at least 1, got {count!r}")
        self.workers = count
        self._setup = solver_setup
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._closed = False
        self._completed = self._dropped = self._stopped = self._busy = self._queued = 0
        self._running: set[Job] = set()
        self._setup_errors: list[BaseException] = []
        self._ready = threading.Barrier(count + 1)
        self._threads = [threading.Thread(target=self._worker, name=f"prefdd-solver-{i}", daemon=True)
                         for i in range(count)]
        for thread in self._threads:
            thread.start()
        self._ready.wait()
        if self._setup_errors:
            self.shutdown()
            raise self._setup_errors[0]

    def submit(self, work: Callable[[Solver], T]) -> Job[T]:
        """Queue ``work(solver)`` for the next free worker."""
        job: Job[T] = Job(work)
        with self._lock:
            if self._closed:
                raise PoolClosed("the solver pool is shut down")
            self._queued += 1
        job.add_done_callback(self._count_dropped)
        self._queue.put(job)
        return job

    def stats(self) -> PoolStats:
        with self._lock:
            return PoolStats(self._completed, self._dropped, self._stopped, self._busy, self._queued)

    def shutdown(self, cancel_running: bool = True, timeout: float | None = None) -> None:
        """Stop taking jobs and drop the queued ones; stop the running ones (or
        let them finish when ``cancel_running`` is false); join the workers."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        pending: list[Job] = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                pending.append(item)
        for job in pending:
            job.cancel()
        if cancel_running:
            with self._lock:
                running = list(self._running)
            for job in running:
                job.cancel()
        for _ in self._threads:
            self._queue.put(_SHUTDOWN)
        for thread in self._threads:
            thread.join(timeout)

    # -- internals ---------------------------------------------------------

    def _count_dropped(self, job: Job) -> None:
        # Runs when any job finishes; only jobs that never started count here.
        if job._solver is None:
            with self._lock:
                self._queued -= 1
                self._dropped += 1

    def _worker(self) -> None:
        try:
            solver = thread_solver()
            if self._setup is not None:
                self._setup(solver)
        except BaseException as error:  # reported by the constructor
            self._setup_errors.append(error)
            self._ready.wait()
            return
        self._ready.wait()
        while True:
            job = self._queue.get()
            if job is _SHUTDOWN:
                return
            solver.clear_stop()
            if not job._start(solver):
                continue
            with self._lock:
                self._queued -= 1
                self._busy += 1
                self._running.add(job)
            stopped = job._run()
            with self._lock:
                self._busy -= 1
                self._running.discard(job)
                if stopped:
                    self._stopped += 1
                else:
                    self._completed += 1
