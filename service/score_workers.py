"""Score calls in worker processes that a deadline can stop.

Scoring is pure Python over exact rationals: one request can hold the
interpreter for seconds (a huge game file, numbers with huge exponents), and
in the server's own process that would hold the GIL and stall every other
call, health checks included. So a Score request, typed
(:class:`~solver.scoring.ScoringRequest`, pickled across the pipe), is sent to one of
``workers`` child processes (started with ``spawn`` on first use: forking a
process that runs gRPC threads is unsafe) and waited for on the handler
thread in short slices. When the call's deadline passes, the call is
cancelled, or the server's own ``seconds`` limit is reached, the child is
killed (nothing else can stop a computation in progress) and a new one takes
its place at the next call.
"""
from __future__ import annotations

import json
import multiprocessing
import threading
import time
import traceback
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from solver.scoring import ScoringRequest

__all__ = ["ScoreFailed", "ScoreStopped", "ScoreWorkers"]

_SLICE = 0.05  # seconds between checks of the call while a child works


class ScoreFailed(Exception):
    """The child raised: ``kind`` is ``invalid`` (the scoring's own error,
    INVALID_ARGUMENT), ``exhausted`` (memory) or ``internal`` (a bug, logged)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ScoreStopped(Exception):
    """The work was stopped: ``reason`` is ``ended`` (the call's deadline or
    cancel), ``limit`` (the server's time limit) or ``closed`` (shutdown)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _child(connection: Connection) -> None:
    """A worker process: answer typed scoring requests until the pipe closes."""
    from solver.scoring import ScoringError, answer_request

    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        try:
            result = answer_request(request)
            answer: tuple[str, str] = ("ok", json.dumps(result, ensure_ascii=False))
        except (ScoringError, ValueError, TypeError) as error:
            answer = ("invalid", str(error))
        except RecursionError:
            answer = ("invalid", "the input is nested too deeply")
        except MemoryError:
            answer = ("exhausted", "the scoring ran out of memory")
        except Exception:  # noqa: BLE001 - reported to the server, which logs it
            answer = ("internal", traceback.format_exc())
        connection.send(answer)


class _Worker:
    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, child_end = context.Pipe()
        self.process = context.Process(target=_child, args=(child_end,), name="prefdd-score", daemon=True)
        self.process.start()
        child_end.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.connection.close()


class ScoreWorkers:
    """``workers`` scoring processes; :meth:`run` waits for a free one."""

    def __init__(self, workers: int, seconds: float) -> None:
        self.workers = workers
        self.seconds = seconds
        self._free: list[_Worker | None] = [None] * workers
        self._lock = threading.Condition()
        self._closed = False

    @property
    def busy(self) -> int:
        with self._lock:
            return self.workers - len(self._free)

    def _take(self, ended: Callable[[], bool]) -> _Worker | None:
        with self._lock:
            while not self._free:
                if self._closed:
                    raise ScoreStopped("closed")
                if ended():
                    raise ScoreStopped("ended")
                self._lock.wait(_SLICE)
            if self._closed:
                raise ScoreStopped("closed")
            return self._free.pop()

    def _give(self, worker: _Worker | None) -> None:
        with self._lock:
            if self._closed and worker is not None:
                worker.kill()
                worker = None
            self._free.append(worker)
            self._lock.notify()

    def _stop_reason(self, ended: Callable[[], bool], limit: float) -> str | None:
        if self._closed:
            return "closed"
        if ended():
            return "ended"
        return "limit" if time.monotonic() >= limit else None

    def run(self, request: ScoringRequest, ended: Callable[[], bool]) -> str:
        """The result JSON of a scoring request; ``ended()`` says the call is over.
        Raises :class:`ScoreFailed` or :class:`ScoreStopped`."""
        worker = self._take(ended)
        try:
            if worker is None or not worker.process.is_alive():
                worker = _Worker()
            worker.connection.send(request)
            limit = time.monotonic() + self.seconds
            while not worker.connection.poll(_SLICE):
                reason = self._stop_reason(ended, limit)
                if reason is not None:
                    worker.kill()
                    worker = None
                    raise ScoreStopped(reason)
                if not worker.process.is_alive():
                    raise EOFError
            status, text = worker.connection.recv()
        except (EOFError, OSError, BrokenPipeError):
            if worker is not None:
                worker.kill()
            worker = None
            raise ScoreFailed("internal", "the scoring process died") from None
        finally:
            self._give(worker)
        if status != "ok":
            raise ScoreFailed(status, text)
        return text

    def close(self) -> None:
        """Kill every child (server shutdown); calls waiting get ScoreStopped."""
        with self._lock:
            self._closed = True
            idle = [worker for worker in self._free if worker is not None]
            self._free = [None] * len(self._free)
            self._lock.notify_all()
        for worker in idle:
            worker.kill()
