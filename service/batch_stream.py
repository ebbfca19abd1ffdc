"""One ``EvaluateBatch`` stream: items read, solved on the pool, answered as they finish.

A reader thread takes items from the request stream (messages of any number
of items) and submits each to the solver pool, holding at most ``window``
items in flight (so a client that pushes 100,000 items is read only as fast as
they are solved, and a client that stops reading stops the reading too). The
answers are sent on the calling thread as they come, each with the item's
``id`` and ``index``. An answer message carries the results that finish
within ``linger`` (10 ms) of the first one, up to a size budget: gRPC's
per-message cost (a few hundred microseconds of Python on each side) is then
paid once per group rather than once per item, for at most 10 ms more latency.

A bad item answers an error result and the stream goes on. A message that
does not decode ends the stream: the items read are answered, then
:class:`~service.errors.UndecodableMessage` is raised. An item past
``max_items`` ends the stream: the items already read are answered, then the
stream fails with ``RESOURCE_EXHAUSTED`` naming the limit. :meth:`cancel`
(the call was cancelled or its deadline passed) drops the queued items and
stops the running searches.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Callable, Iterator

import grpc

from solver.batch import evaluate_solve as evaluate

from . import convert
from .errors import UndecodableMessage
from .pool import Job, JobCancelled, PoolClosed, SolverPool
from .proto import pb

__all__ = ["BatchLimitExceeded", "BatchStream"]


class BatchLimitExceeded(Exception):
    """The client sent more items than one stream may hold."""


LOGGER = logging.getLogger("service")
_READER_DONE = object()
_WAKE = object()


class BatchStream:
    """The state of one EvaluateBatch call."""

    def __init__(self, pool: SolverPool, max_items: int, window: int, message_budget: int,
                 linger: float = 0.01) -> None:
        self._pool = pool
        self._budget = message_budget
        self._linger = linger
        self._max_items = max_items
        self._slots = threading.Semaphore(window)
        self._out: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._jobs: set[Job] = set()
        self._cancelled = threading.Event()
        self._submitted = 0
        self._limit_exceeded = False
        self._pool_closed = False
        self._failure: Exception | None = None
        self._undecodable: UndecodableMessage | None = None

    # -- the reader thread -------------------------------------------------

    def _take_slot(self) -> bool:
        while not self._cancelled.is_set():
            if self._slots.acquire(timeout=0.1):
                return True
        return False

    def _items(self, requests: Iterator[pb.EvaluateBatchRequest]) -> Iterator[pb.BatchItem]:
        for message in requests:
            yield from message.items

    def _read(self, requests: Iterator[pb.EvaluateBatchRequest]) -> None:
        try:
            for index, item in enumerate(self._items(requests)):
                if index >= self._max_items:
                    self._limit_exceeded = True
                    break
                if not self._take_slot():
                    break
                self._submit(index, item)
        except UndecodableMessage as error:  # answer what was read, then INVALID_ARGUMENT (see results)
            self._undecodable = error
        except grpc.RpcError:  # the call ended (cancelled, deadline): nothing more to read
            self.cancel()
        except Exception as error:  # a bug: end the call with INTERNAL (see results)
            LOGGER.exception("the batch reader failed")
            self._failure = error
            self.cancel()
        finally:
            self._out.put(_READER_DONE)

    def _submit(self, index: int, item: pb.BatchItem) -> None:
        with self._lock:
            self._submitted += 1
        try:
            request = convert.batch_request(item)
        except ValueError as error:
            self._out.put(convert.batch_error(item.id, index, str(error)))
            return
        if self._cancelled.is_set():   # the slot came free because cancel() dropped the queued items
            return
        try:
            job = self._pool.submit(lambda solver: evaluate(request, solver))
        except PoolClosed:
            self._pool_closed = True
            self.cancel()
            return
        # Recorded and checked under the lock that cancel() sets the flag
        # under: either cancel() sees this job or this sees the flag, so no
        # job submitted as the call ends runs to its end unread.
        with self._lock:
            self._jobs.add(job)
            cancelled = self._cancelled.is_set()
        if cancelled:
            job.cancel()
        job.add_done_callback(lambda done: self._out.put((item.id, index, done)))

    # -- the answering side ------------------------------------------------

    def cancel(self) -> None:
        """Stop reading, drop queued items and stop running searches."""
        with self._lock:
            self._cancelled.set()
            jobs = list(self._jobs)
        for job in jobs:
            job.cancel()
        self._out.put(_WAKE)

    @property
    def items_read(self) -> int:
        """Items read from the stream so far."""
        with self._lock:
            return self._submitted

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def _answer(self, item_id: str, index: int, job: Job) -> pb.BatchResult | None:
        with self._lock:
            self._jobs.discard(job)
        try:
            return convert.batch_result(item_id, index, job.result())
        except JobCancelled:
            return None
        except ValueError as error:
            return convert.batch_error(item_id, index, str(error))
        except MemoryError:
            return convert.batch_error(item_id, index, "the solver's table could not be allocated")

    def _result(self, event: object) -> pb.BatchResult | None:
        if isinstance(event, pb.BatchResult):
            return event
        return self._answer(*event)  # type: ignore[misc]

    def results(self, requests: Iterator[pb.EvaluateBatchRequest], expired: Callable[[], bool],
                poll: float = 0.1) -> Iterator[pb.EvaluateBatchResponse]:
        """Answer messages as results finish. Ends when every item read is
        answered; raises :class:`BatchLimitExceeded` then if the client sent
        too many. Stops early, without raising, once :meth:`cancel` is called
        or ``expired()`` (checked at least every ``poll`` seconds) turns true:
        the caller then looks at :attr:`cancelled` and its deadline."""
        reader = threading.Thread(target=self._read, args=(requests,), name="prefdd-batch-reader",
                                  daemon=True)
        reader.start()
        answered = 0
        reader_done = False
        while not self._cancelled.is_set():
            if reader_done:
                with self._lock:
                    if answered == self._submitted:
                        break
            if expired():
                self.cancel()
                break
            try:
                event = self._out.get(timeout=poll)
            except queue.Empty:
                continue
            group: list[pb.BatchResult] = []
            size = 0
            send_by = time.monotonic() + self._linger
            while True:
                if event is _READER_DONE:
                    reader_done = True
                elif event is _WAKE:
                    break
                else:
                    answered += 1
                    self._slots.release()
                    result = self._result(event)
                    if result is not None:
                        group.append(result)
                        size += result.ByteSize() + 8
                if size >= self._budget:
                    break
                if reader_done:
                    with self._lock:
                        if answered == self._submitted:
                            break
                try:
                    event = self._out.get(timeout=max(0.0, send_by - time.monotonic()))
                except queue.Empty:
                    break
            if group and not self._cancelled.is_set():
                yield pb.EvaluateBatchResponse(results=group)
        if self._failure is not None:
            raise RuntimeError("the batch reader failed") from self._failure
        if self._pool_closed:
            raise PoolClosed("the server is shutting down")
        if self._undecodable is not None and not self._cancelled.is_set():
            raise self._undecodable
        if self._limit_exceeded and not self._cancelled.is_set():
            raise BatchLimitExceeded(
                f"the batch exceeds max_batch_items={self._max_items} items in one stream; "
                "split it into several streams")
