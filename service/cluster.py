"""``prefdd serve --dask ADDRESS``: batches and advice runs on a Dask cluster.

The server connects to the cluster when it starts (:class:`Cluster`); then
every EvaluateBatch stream is answered on the cluster
(:class:`ClusterBatchStream`, the same interface and limits as
:class:`~service.batch_stream.BatchStream`), and every advice run
(AdviseWhist, AdviseBid, Enumerate) runs its layouts there
(:class:`solver.distributed.DaskExecutor` in the run's options). Single
solves and deal analyses stay on the server's own pool: one search is
shorter than a round trip to the cluster is worth.

Deadlines and cancellation are kept: a stream's reader and a watcher stop
the job when the call is cancelled or its deadline passes, which cancels its
blocks and stops their searches on the workers; an advice run's time budget
and cancel event work as on the server's threads.
"""
from __future__ import annotations

import logging
import queue
import threading
from contextlib import ExitStack
from typing import Callable, Iterator

import grpc

from solver import distributed

from . import convert
from .batch_stream import BatchLimitExceeded, BatchStream
from .proto import pb

__all__ = ["Cluster", "ClusterBatchStream"]


class Cluster:
    """The server's connection to a Dask cluster (``local:N`` starts one here)."""

    def __init__(self, address: str) -> None:
        self.address = address
        distributed.dask_module()   # Dask's own info lines are not the service's log
        for name in [name for name in logging.root.manager.loggerDict if name.startswith("distributed")]:
            logging.getLogger(name).setLevel(logging.WARNING)
        self._exit = ExitStack()
        self.client = self._exit.enter_context(distributed.connect(address))
        self.executor = distributed.DaskExecutor(self.client)

    @property
    def threads(self) -> int:
        return distributed.cluster_threads(self.client)

    def batch_stream(self, max_items: int, window: int, message_budget: int) -> ClusterBatchStream:
        return ClusterBatchStream(self.client, max_items, window, message_budget)

    def close(self) -> None:
        self._exit.close()


class ClusterBatchStream(BatchStream):
    """One EvaluateBatch call answered on the cluster: the reader thread of
    :class:`BatchStream` puts the items into the job's source (at most
    ``window`` waiting), the answers go out block by block, each with its
    item's ``id`` and ``index``."""

    def __init__(self, client: object, max_items: int, window: int, message_budget: int) -> None:
        super().__init__(None, max_items, window, message_budget)  # type: ignore[arg-type]
        self._source = distributed.QueueSource(window)
        self._job = distributed.submit_batch(client, self._source, ordered=False)
        self._positions: list[tuple[str, int]] = []        # job position -> (item id, item index)
        self._early: list[pb.BatchResult] = []          # items refused before the cluster

    def cancel(self) -> None:
        super().cancel()
        self._job.cancel()

    def _take_slot(self) -> bool:
        return not self.cancelled     # the source's capacity holds the reader back

    def _submit(self, index: int, item: pb.BatchItem) -> None:
        try:
            request = convert.batch_fields(item)
        except ValueError as error:
            with self._lock:
                self._early.append(convert.batch_error(item.id, index, str(error)))
            return
        with self._lock:
            self._positions.append((item.id, index))
        while not self.cancelled:
            try:
                self._source.put(request, timeout=0.1)
                return
            except queue.Full:
                continue

    def _read(self, requests: Iterator[pb.EvaluateBatchRequest]) -> None:
        try:
            super()._read(requests)
        finally:
            self._source.close()

    def _watch(self, expired: Callable[[], bool], poll: float, done: threading.Event) -> None:
        while not done.wait(poll):
            if expired():
                self.cancel()
                return

    def _message(self, results: list[pb.BatchResult]) -> Iterator[pb.EvaluateBatchResponse]:
        group: list[pb.BatchResult] = []
        size = 0
        for result in results:
            group.append(result)
            size += result.ByteSize() + 8
            if size >= self._budget:
                yield pb.EvaluateBatchResponse(results=group)
                group, size = [], 0
        if group:
            yield pb.EvaluateBatchResponse(results=group)

    def _answer(self, result: distributed.BatchResult) -> pb.BatchResult:
        with self._lock:
            item_id, index = self._positions[result.index]
        answer = result.answer
        assert isinstance(answer, dict)
        if "error" in answer:
            return convert.batch_error(item_id, index, answer["error"])
        return convert.batch_result(item_id, index, answer)

    def _refused(self) -> list[pb.BatchResult]:
        with self._lock:
            early, self._early = self._early, []
        return early

    def results(self, requests: Iterator[pb.EvaluateBatchRequest], expired: Callable[[], bool],
                poll: float = 0.1) -> Iterator[pb.EvaluateBatchResponse]:
        """As :meth:`service.batch_stream.BatchStream.results`."""
        done = threading.Event()
        reader = threading.Thread(target=self._read, args=(requests,), name="prefdd-dask-reader", daemon=True)
        watcher = threading.Thread(target=self._watch, args=(expired, poll, done), name="prefdd-dask-watch",
                                   daemon=True)
        reader.start()
        watcher.start()
        try:
            for group in self._job.groups():
                if self._cancelled.is_set():
                    break
                yield from self._message(self._refused() + [self._answer(result) for result in group])
            reader.join()
            if not self._cancelled.is_set():
                yield from self._message(self._refused())
        finally:
            done.set()
            self._job.cancel()
        if self._failure is not None:
            raise RuntimeError("the batch reader failed") from self._failure
        if self._limit_exceeded and not self._cancelled.is_set():
            raise BatchLimitExceeded(
                f"the batch exceeds max_batch_items={self._max_items} items in one stream; "
                "split it into several streams")
