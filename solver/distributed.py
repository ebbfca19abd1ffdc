"""Batches, enumerations and advice runs on a Dask cluster (``pip install "preferans-dd[dask]"``).

Every worker runs the same ``preferans-dd`` package; the client sends only
requests and small descriptions of the work, never code it would not find.

* :func:`submit_batch` (``prefdd batch --dask``): an iterable of batch
  requests (JSON lines or dicts, :mod:`solver.batch`), read as the work goes
  on: at most ``in_flight`` blocks are out at once, so a million-line file is
  never held in memory. Answers come back in input order (``ordered``) or as
  blocks finish, each with its index; :attr:`BatchJob.progress` and a
  callback tell how far the run is; :meth:`BatchJob.cancel` stops it.
* :class:`DaskExecutor` (``RunOptions(executor=...)``; ``prefdd enumerate /
  whist / bid --dask``): an enumeration or an advice run with the same tasks,
  the same finished prefix and so the same answer as on local threads
  (:mod:`solver.advice.parallel`), its budget in seconds, cancel event and
  progress callback kept.
* :func:`connect`: a client for a scheduler's address, or for ``local:N``, a
  :class:`distributed.LocalCluster` of N worker processes on this machine
  (:func:`local_cluster`, with Dask's profiler off: :data:`WORKER_CONFIG`).

Blocks. Work goes out in blocks of about ``block_seconds`` (0.1 s) of
solving, sized from the CPU time the finished blocks took per item (the
worker thread's own time: on a loaded machine wall time would shrink the
blocks for nothing, and every block costs the worker some): a Dask task
costs a few milliseconds of scheduling, which a block of that size hides.
An enumeration's block is one or more of its chunks of consecutive layouts
(:func:`~solver.advice.parallel.exact_chunks`), so a worker's table carries
from layout to layout. Each worker thread keeps its solvers (one per table
size) from block to block: :func:`solver.api.thread_solver` for batches.

Faults. A block is a pure function of its arguments (the requests, or the
run's pickled description and the layout indices), so Dask recomputes the
blocks of a worker that died on another; a block whose task failed anyway
(``KilledWorker``) is submitted again, up to ``retries`` times. Results are
kept by block index and a block answered twice is answered once, so every
item is answered exactly once. A bad item answers an error result inside its
block, as without Dask.

Cancellation. Cancelling (or a budget running out, or leaving the iteration
early) cancels the run's futures and runs :func:`_stop_run` on every worker
(``Client.run``, on the worker's event loop, so it is not queued behind the
blocks): it marks the run stopped, so no later block of it starts, and asks
the solvers searching for it to stop; their C searches answer within a few
thousand nodes.

This module is the only one that imports Dask, and only when it is used.
"""
from __future__ import annotations

import itertools
import json
import pickle
import queue
import threading
import time
import uuid
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from . import api
from .advice.layouts import LayoutSpace
from .advice.parallel import (LayoutEvaluator, LayoutRun, RunOptions, TaskResult, chunk_task, exact_chunks,
                              exact_run, sample_limit, sample_run, sample_task)
from .advice.progress import Progress
from .analysis.batch import evaluate_line
from .engine import SearchStopped, Solver

__all__ = ["DaskNotInstalled", "DaskRunError", "RunCancelled", "BatchResult", "BatchProgress", "BatchJob",
           "DaskExecutor", "QueueSource", "WORKER_CONFIG", "connect", "local_cluster", "dask_module", "parse_address", "submit_batch", "dask_options",
           "cluster_threads", "stopped_searches"]

EXTRA_HINT = 'install the dask extra: pip install "preferans-dd[dask]"'
BLOCK_SECONDS = 0.1
"""The solving time (CPU) a block aims at: Dask's cost per task (a few
milliseconds of scheduling and transfer on a loaded machine) is then a few
per cent; longer blocks measured no faster and leave workers idle at the
end of a batch. Blocks
grow to it from a few items, at most doubling from one block to the next, so
a short batch is still spread over every worker."""
FIRST_BLOCK_ITEMS = 64
"""Items in a batch's blocks before any block has been timed."""
MAX_BLOCK_ITEMS = 4096
MAX_BLOCK_LAYOUTS = 256
"""Most sampled layouts in one block (a few seconds of whist advice)."""
POLL_SECONDS = 0.1
"""How often a waiting client looks at its cancel event and time budget."""
LOST = ("KilledWorker", "CommClosedError", "FutureCancelledError")


class DaskNotInstalled(ImportError):
    """The ``dask`` extra is not installed."""


class DaskRunError(RuntimeError):
    """A block failed on the cluster for a reason other than a lost worker."""


class RunCancelled(Exception):
    """A block of a run that was stopped (raised on the worker; never seen by callers)."""


def dask_module():
    """The ``distributed`` module; raises :class:`DaskNotInstalled` naming the extra."""
    try:
        import distributed
    except ImportError:
        raise DaskNotInstalled(f"running on a Dask cluster needs the 'distributed' package: {EXTRA_HINT}") from None
    return distributed


def cluster_threads(client: Any) -> int:
    """The worker threads of the cluster (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def parse_address(address: str) -> int | None:
    """The worker count of ``local:N``, or None for a scheduler address;
    raises ValueError for a ``local:`` without a positive count."""
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"a Dask address is host:port, tcp://host:port or local:N, got {address!r}")
    if not address.startswith("local:"):
        return None
    count = address[len("local:"):]
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"local:N takes a number of workers of at least 1, got {address!r}")
    return int(count)


WORKER_CONFIG = {"distributed.worker.profile.enabled": False}
"""Dask settings for the workers. Dask's statistical profiler samples every
worker thread's stack every 10 ms and takes the GIL to do it: it doubled
the CPU cost of a batch position (0.8 -> 1.6 ms) and halved the rate. On
real machines: ``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False dask worker ...``."""


def local_cluster(workers: int, *, threads: int = 1, processes: bool = True) -> Any:
    """A :class:`distributed.LocalCluster` with :data:`WORKER_CONFIG`: worker
    processes on 127.0.0.1 (or, with ``processes`` false, threads of this
    process on Dask's in-process transport), its status page on a free port."""
    distributed = dask_module()
    import dask

    where = {"host": "127.0.0.1"} if processes else {}
    with dask.config.set(WORKER_CONFIG):
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=threads, processes=processes,
                                        dashboard_address=":0", **where)


@contextmanager
def connect(address: str, *, timeout: float = 10.0) -> Iterator[Any]:
    """A :class:`distributed.Client` for ``address`` (a scheduler's
    ``host:port``), or for ``local:N``: N worker processes of one thread on
    127.0.0.1, started here and stopped on exit. Waits for a first worker."""
    workers = parse_address(address)
    distributed = dask_module()
    if workers is not None:
        with local_cluster(workers) as cluster, distributed.Client(cluster) as client:
            client.wait_for_workers(workers, timeout=timeout)
            yield client
        return
    with distributed.Client(address, timeout=timeout) as client:
        client.wait_for_workers(1, timeout=timeout)
        yield client


# -- the worker side ---------------------------------------------------------
#
# Module state of each worker process: the solvers searching for each run,
# the runs stopped lately, the runs' descriptions, and each thread's solvers.

_lock = threading.Lock()
_searching: dict[str, set[Solver]] = {}
_stopped: OrderedDict[str, None] = OrderedDict()
_jobs: OrderedDict[str, Any] = OrderedDict()
_stops: OrderedDict[str, int] = OrderedDict()
_threads = threading.local()
_KEEP_STOPPED = 1024
_KEEP_JOBS = 8


def _thread_solver(table_mib: int) -> Solver:
    """This worker thread's solver with a table of ``table_mib`` (kept)."""
    if table_mib == 16:
        return api.thread_solver()
    solvers = _threads.__dict__.setdefault("solvers", {})
    if table_mib not in solvers:
        solvers[table_mib] = Solver(table_mib)
    return solvers[table_mib]


@contextmanager
def _searching_for(run: str, solver: Solver) -> Iterator[None]:
    """Register ``solver`` as working for ``run`` while a block runs, so that
    :func:`_stop_run` can stop its search; a stopped run starts no block."""
    with _lock:
        if run in _stopped:
            raise RunCancelled(run)
        _searching.setdefault(run, set()).add(solver)
        solver.clear_stop()
    try:
        yield
    finally:
        with _lock:
            solvers = _searching.get(run, set())
            solvers.discard(solver)
            if not solvers:
                _searching.pop(run, None)
            solver.clear_stop()   # under the lock: a late stop cannot reach the next block


def _stop_run(run: str) -> int:
    """Stop ``run`` on this worker (called through ``Client.run``): its later
    blocks do not start, its searches stop. Returns the searches stopped."""
    with _lock:
        _stopped[run] = None
        while len(_stopped) > _KEEP_STOPPED:
            _stopped.popitem(last=False)
        solvers = list(_searching.get(run, ()))
        for solver in solvers:
            solver.request_stop()
    return len(solvers)


def _check_running(run: str) -> None:
    if run in _stopped:
        raise RunCancelled(run)


def _search_stopped(run: str) -> RunCancelled:
    """Count a block of ``run`` whose C search was stopped (it answers nothing)."""
    with _lock:
        _stops[run] = _stops.get(run, 0) + 1
        while len(_stops) > _KEEP_STOPPED:
            _stops.popitem(last=False)
    return RunCancelled(run)


def stopped_searches(run: str) -> int:
    """On a worker (``Client.run(stopped_searches, run)``): how many blocks of
    ``run`` ended in a search stopped mid-way."""
    with _lock:
        return _stops.get(run, 0)


def _never() -> bool:
    return False


def _answer(item: str | dict, solver: Solver) -> str | dict:
    """One batch item's answer: a JSON line for a line, a dict for a dict.
    An error of the item (even an unexpected one) is its answer, never the
    block's failure; a stop request is the block's."""
    line = item
    if isinstance(item, dict):
        try:
            line = json.dumps(item, ensure_ascii=False)
        except (TypeError, ValueError) as error:
            return {"error": f"the request is not JSON: {error}"}
    try:
        answer = evaluate_line(line, solver)  # type: ignore[arg-type]
    except SearchStopped:
        raise
    except Exception as error:  # noqa: BLE001 - one item's failure is that item's answer
        failure: dict[str, Any] = {"error": f"{type(error).__name__}: {error}"}
        request = item if isinstance(item, dict) else json.loads(line)  # it parsed before it failed
        if isinstance(request, dict) and "id" in request:
            failure = {"id": request["id"], **failure}
        answer = json.dumps(failure, ensure_ascii=False)
    return json.loads(answer) if isinstance(item, dict) else answer


def _batch_block(run: str, items: Sequence[str | dict]) -> tuple[float, list[str | dict]]:
    """Answer a block of batch items with this thread's solver: (CPU seconds, answers)."""
    start = time.thread_time()
    answers = []
    solver = api.thread_solver()
    with _searching_for(run, solver):
        for item in items:
            _check_running(run)
            try:
                answers.append(_answer(item, solver))
            except SearchStopped:
                raise _search_stopped(run) from None
    return time.thread_time() - start, answers


def _job(run: str, blob: bytes) -> tuple[LayoutSpace, LayoutEvaluator, bool, int]:
    """The run's (space, evaluator, masks, seed), unpickled once per worker
    process: the evaluator's own caches (per-solver templates) then persist
    across the run's blocks."""
    with _lock:
        if run in _jobs:
            _jobs.move_to_end(run)
            return _jobs[run]
    job = pickle.loads(blob)
    with _lock:
        _jobs[run] = job
        while len(_jobs) > _KEEP_JOBS:
            _jobs.popitem(last=False)
    return job


def _layout_block(run: str, blob: bytes, table_mib: int, exact: bool,
                  tasks: Sequence[Any]) -> tuple[float, list[TaskResult]]:
    """A block of an advice run: sampled task indices, or chunks of
    enumerated layouts (as masks). Returns (CPU seconds, one result per task)."""
    start = time.thread_time()
    space, evaluate, masks, seed = _job(run, blob)
    solver = _thread_solver(table_mib)
    results = []
    with _searching_for(run, solver):
        for task in tasks:
            _check_running(run)
            try:
                # No stop test between a chunk's layouts: the solver's stop flag
                # stays set until the block ends, so the next search stops at once.
                if exact:
                    results.append(chunk_task(task, evaluate, solver, masks, _never))
                else:
                    results.append(sample_task(space, evaluate, seed, task, solver, masks))
            except SearchStopped:
                raise _search_stopped(run) from None
    return time.thread_time() - start, results


# -- the client side ---------------------------------------------------------


class _Blocks:
    """The blocks of one run on the cluster: submitted under keys of the run,
    collected once each by index, resubmitted when their worker was lost."""

    def __init__(self, client: Any, kind: str, retries: int) -> None:
        self.distributed = dask_module()
        self.client = client
        self.run = f"prefdd-{kind}-{uuid.uuid4().hex}"
        self.retries = retries
        self.futures: dict[Any, int] = {}
        self.calls: dict[int, tuple[Callable[..., Any], tuple, int]] = {}
        self.answered: set[int] = set()
        self.stopped = False

    @property
    def pending(self) -> int:
        return len(self.futures)

    def submit(self, index: int, function: Callable[..., Any], *args: Any, attempt: int = 0) -> None:
        self.calls[index] = (function, args, attempt)
        future = self.client.submit(function, self.run, *args, key=f"{self.run}-{index}-{attempt}", pure=False)
        self.futures[future] = index

    def finished(self, timeout: float) -> list[tuple[int, Any]]:
        """Blocks finished within ``timeout`` seconds: (index, value), each
        index once; a block lost with its worker goes out again."""
        if not self.futures:
            return []
        try:
            done = self.distributed.wait(list(self.futures), timeout=timeout, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            return []
        values = []
        for future in done:
            index = self.futures.pop(future)
            function, args, attempt = self.calls[index]
            if future.status == "finished":
                value = future.result()
                future.release()
                if index not in self.answered:
                    self.answered.add(index)
                    del self.calls[index]
                    values.append((index, value))
                continue
            error = future.exception() if future.status == "error" else None
            future.release()
            if error is not None and type(error).__name__ not in LOST or attempt >= self.retries:
                self.stop()
                raise DaskRunError(f"block {index} of {self.run} failed on the cluster: {error!r}") from error
            self.submit(index, function, *args, attempt=attempt + 1)
        return values

    def stop(self) -> None:
        """Cancel the blocks still out and stop their searches on every worker."""
        if self.stopped:
            return
        self.stopped = True
        futures = list(self.futures)
        self.futures.clear()
        try:
            self.client.run(_stop_run, self.run, on_error="ignore")
        finally:
            if futures:
                self.client.cancel(futures)


def _block_size(per_item: float | None, seconds: float, last: int, most: int) -> int:
    """Items for the next block: ``seconds`` of work at ``per_item`` each,
    at most twice the ``last`` block (``last`` itself before any timing)."""
    if per_item is None:
        return last
    return max(1, min(most, 2 * last, int(seconds / max(per_item, 1e-6))))


def _mean_time(per_item: float | None, seconds: float, items: int) -> float:
    """A running mean of the solving time per item (recent blocks count most)."""
    sample = seconds / max(items, 1)
    return sample if per_item is None else 0.7 * per_item + 0.3 * sample


class BatchResult(NamedTuple):
    index: int
    """The item's position in the input, from 0."""
    answer: str | dict
    """A JSON line for a line, a dict for a dict (see :mod:`solver.batch`)."""


@dataclass(frozen=True)
class BatchProgress:
    read: int
    """Items read from the input so far."""
    answered: int
    """Items answered (yielded or waiting for an earlier block in ordered mode)."""
    blocks: int
    """Blocks answered."""
    elapsed: float
    done: bool


class _IterSource:
    """Batch items from an iterable, read on the iterating thread."""

    def __init__(self, items: Iterable[str | dict]) -> None:
        self.items = iter(items)

    def take(self, size: int, wait: bool) -> tuple[list[str | dict], bool]:
        """Up to ``size`` items, and whether the input has ended."""
        items = list(itertools.islice(self.items, size))
        return items, len(items) < size


class QueueSource:
    """Batch items put by another thread (a network stream): a job takes
    what has come, waiting for an item only when it has no block out, so an
    item is answered without waiting for a block to fill. :meth:`put` blocks
    while ``capacity`` items wait; :meth:`close` ends the input."""

    _END = object()

    def __init__(self, capacity: int = 1024) -> None:
        self._queue: queue.Queue[Any] = queue.Queue(capacity)
        self._ended = False
        self._closed = False

    def put(self, item: str | dict, timeout: float | None = None) -> None:
        self._queue.put(item, timeout=timeout)

    def close(self) -> None:
        """No more items (call once, after the last :meth:`put`). Never
        blocks: when the queue is full (its job was cancelled and takes no
        more), the flag alone ends the input once the queue is drained."""
        self._closed = True
        try:
            self._queue.put_nowait(self._END)
        except queue.Full:
            pass

    def take(self, size: int, wait: bool) -> tuple[list[str | dict], bool]:
        items: list[str | dict] = []
        while len(items) < size and not self._ended:
            try:
                item = self._queue.get(timeout=POLL_SECONDS) if wait and not items else self._queue.get_nowait()
            except queue.Empty:
                self._ended = self._closed and self._queue.empty()
                break
            if item is self._END:
                self._ended = True
            else:
                items.append(item)
        return items, self._ended


class BatchJob:
    """A batch running on a cluster; iterate over it for :class:`BatchResult`\\ s
    (or over :meth:`groups` for them block by block). The input (an iterable,
    or a :class:`QueueSource` another thread fills) is read as blocks go out."""

    def __init__(self, client: Any, requests: Iterable[str | dict] | QueueSource, *, ordered: bool = True,
                 block_items: int | None = None, in_flight: int | None = None,
                 block_seconds: float = BLOCK_SECONDS, progress: Callable[[BatchProgress], None] | None = None,
                 cancel: threading.Event | None = None, retries: int = 3) -> None:
        for name, value in (("block_items", block_items), ("in_flight", in_flight)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        self._blocks = _Blocks(client, "batch", retries)
        self._requests = requests
        self._ordered = ordered
        self._block_items = block_items
        self._in_flight = in_flight or 4 * cluster_threads(client) + 1
        self._block_seconds = block_seconds
        self._callback = progress
        self._cancel = cancel or threading.Event()
        self._read = self._answered = self._blocks_done = 0
        self._start = time.monotonic()
        self._done = False
        self._started = False

    @property
    def progress(self) -> BatchProgress:
        return BatchProgress(self._read, self._answered, self._blocks_done, time.monotonic() - self._start,
                             self._done)

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Stop the batch (from any thread): the iteration ends within
        :data:`POLL_SECONDS`, and the blocks out are cancelled and their searches stopped."""
        self._cancel.set()

    def __iter__(self) -> Iterator[BatchResult]:
        for group in self.groups():
            yield from group

    def groups(self) -> Iterator[list[BatchResult]]:
        """The results a finished block brings (in ordered mode: every result
        that block lets out), one list at a time."""
        if self._started:
            raise RuntimeError("a BatchJob is iterated once")
        self._started = True
        source = self._requests if isinstance(self._requests, QueueSource) else _IterSource(self._requests)
        exhausted = False
        first_item: dict[int, int] = {}     # block index -> index of its first item
        waiting: dict[int, list] = {}       # ordered: finished blocks not yet yielded
        next_block = next_yield = 0
        per_item: float | None = None
        size = FIRST_BLOCK_ITEMS
        blocks = self._blocks
        try:
            while not self._cancel.is_set():
                while not exhausted and self._room(next_block, next_yield):
                    size = self._block_items or _block_size(per_item, self._block_seconds, size, MAX_BLOCK_ITEMS)
                    items, exhausted = source.take(size, wait=not blocks.pending)
                    if not items:
                        break
                    first_item[next_block] = self._read
                    self._read += len(items)
                    blocks.submit(next_block, _batch_block, items)
                    next_block += 1
                if exhausted and not blocks.pending:
                    break
                group: list[BatchResult] = []
                for index, (seconds, answers) in blocks.finished(POLL_SECONDS):
                    per_item = _mean_time(per_item, seconds, len(answers))
                    self._answered += len(answers)
                    self._blocks_done += 1
                    self._report()
                    waiting[index] = answers
                    if not self._ordered:
                        group.extend(self._results(index, first_item, waiting))
                while self._ordered and next_yield in waiting:
                    group.extend(self._results(next_yield, first_item, waiting))
                    next_yield += 1
                if group:
                    yield group
            self._done = not self._cancel.is_set()
            self._report()
        finally:
            if not self._done:
                blocks.stop()

    @staticmethod
    def _results(index: int, first_item: dict[int, int], waiting: dict[int, list]) -> list[BatchResult]:
        start = first_item.pop(index)
        return [BatchResult(start + offset, answer) for offset, answer in enumerate(waiting.pop(index))]

    def _room(self, next_block: int, next_yield: int) -> bool:
        if self._ordered:   # finished blocks waiting for an earlier one count too
            return next_block - next_yield < self._in_flight
        return self._blocks.pending < self._in_flight

    def _report(self) -> None:
        if self._callback is not None:
            self._callback(self.progress)


def submit_batch(client: Any, requests: Iterable[str | dict], **options: Any) -> BatchJob:
    """Answer batch ``requests`` (JSON lines or dicts) on the cluster of
    ``client``; see :class:`BatchJob` for the options (``ordered``,
    ``block_items``, ``in_flight``, ``block_seconds``, ``progress``,
    ``cancel``, ``retries``)."""
    return BatchJob(client, requests, **options)


class DaskExecutor:
    """Runs an advice run's tasks on a Dask cluster:
    ``advise_whist(request, RunOptions(..., executor=DaskExecutor(client)))``.
    ``RunOptions.workers`` does not apply (the cluster has its workers)."""

    def __init__(self, client: Any, *, block_seconds: float = BLOCK_SECONDS, in_flight: int | None = None,
                 retries: int = 3) -> None:
        dask_module()
        self.client = client
        self.block_seconds = block_seconds
        self.in_flight = in_flight
        self.retries = retries
        self.last_run: str | None = None
        """The run name of the latest run (its Dask keys start with it)."""

    def run_layouts(self, space: LayoutSpace, evaluate: LayoutEvaluator, options: RunOptions, *,
                    exact: bool, masks: bool) -> LayoutRun:
        import cloudpickle   # a dependency of distributed: it pickles the evaluator's closure

        blob = cloudpickle.dumps((space, evaluate, masks, options.seed))
        blocks = _Blocks(self.client, "advice", self.retries)
        self.last_run = blocks.run
        threads = cluster_threads(self.client)
        run = _LayoutRun(blocks, blob, options, exact, space.count(), threads,
                         self.in_flight or 4 * threads + 1, self.block_seconds)
        try:
            return run.exact(space) if exact else run.sample()
        finally:
            blocks.stop()


class _LayoutRun:
    """The client's side of one advice run: blocks out, the finished prefix in."""

    def __init__(self, blocks: _Blocks, blob: bytes, options: RunOptions, exact: bool, count: int, threads: int,
                 in_flight: int, block_seconds: float) -> None:
        self.blocks = blocks
        self.blob = blob
        self.options = options
        self.is_exact = exact
        self.count = count
        self.threads = threads
        self.in_flight = in_flight
        self.block_seconds = block_seconds
        self.start = time.monotonic()
        self.per_layout: float | None = None
        self.stopped = "done"

    def _submit(self, index: int, tasks: list) -> None:
        self.blocks.submit(index, _layout_block, self.blob, self.options.table_mib, self.is_exact, tasks)

    def _elapsed(self) -> float:
        return time.monotonic() - self.start

    def _why_stop(self) -> str | None:
        if self.options.seconds is not None and self._elapsed() >= self.options.seconds:
            return "seconds"
        if self.options.cancel is not None and self.options.cancel.is_set():
            return "cancelled"
        return None

    def _report(self, done: int, kept: int, rejected: int) -> None:
        if self.options.progress is not None:
            self.options.progress(Progress(done, self.count if self.is_exact else self.options.layouts, kept,
                                           rejected, self._elapsed(), self.is_exact))

    def _wait(self) -> list[tuple[int, list[TaskResult]]] | None:
        """The blocks finished within a poll (timed for the next blocks'
        size), or None when the budget or a cancel ends the run (``stopped`` says which)."""
        why = self._why_stop()
        if why is not None:
            self.stopped = why
            return None
        finished = self.blocks.finished(POLL_SECONDS)
        for _, (seconds, results) in finished:
            self.per_layout = _mean_time(self.per_layout, seconds, sum(r.kept + r.rejected for r in results))
        return [(index, results) for index, (_, results) in finished]

    def exact(self, space: LayoutSpace) -> LayoutRun:
        layouts = list(space.enumerate_masks())
        chunks = exact_chunks(self.count, self.options.seed)
        results: dict[int, TaskResult] = {}
        members: dict[int, list[int]] = {}     # block index -> its chunks (positions in hand-out order)
        next_chunk = next_block = prefix = done = 0
        size = 1    # layouts in the last block
        while prefix < len(chunks):
            while next_chunk < len(chunks) and self.blocks.pending < self.in_flight:
                wanted = _block_size(self.per_layout, self.block_seconds, size, len(layouts))
                group, size = [], 0
                while next_chunk < len(chunks) and (not group or size < wanted):
                    start, end = chunks[next_chunk]
                    group.append(next_chunk)
                    size += end - start
                    next_chunk += 1
                members[next_block] = group
                self._submit(next_block, [layouts[slice(*chunks[i])] for i in group])
                next_block += 1
            finished_blocks = self._wait()
            if finished_blocks is None:
                break
            for index, block_results in finished_blocks:
                group = members.pop(index)
                for position, result in zip(group, block_results):
                    results[position] = result
                    done += result.kept + result.rejected
            while prefix in results:
                prefix += 1
            finished = [results[i] for i in range(prefix)]
            self._report(done, sum(r.kept for r in finished), sum(r.rejected for r in finished))
        self.blocks.stop()
        finished = [results[i] for i in range(prefix)]
        return exact_run(finished, len(chunks), self.stopped, self._elapsed(), self.threads, self.count,
                         self.options.seed)

    def sample(self) -> LayoutRun:
        target = self.options.layouts
        limit = sample_limit(target)
        results: dict[int, TaskResult] = {}
        first_task: dict[int, int] = {}
        next_task = next_block = prefix = kept = rejected = 0
        kept_anywhere = 0    # kept among every finished task (all below next_task)
        size = 1
        while kept < target and prefix < limit:
            while next_task < limit and self.blocks.pending < self.in_flight:
                needed = target - kept_anywhere - (next_task - len(results))
                if needed <= 0:
                    break
                size = min(needed, _block_size(self.per_layout, self.block_seconds, size, MAX_BLOCK_LAYOUTS),
                           limit - next_task)
                first_task[next_block] = next_task
                self._submit(next_block, list(range(next_task, next_task + size)))
                next_task += size
                next_block += 1
            finished_blocks = self._wait()
            if finished_blocks is None:
                break
            for index, block_results in finished_blocks:
                for offset, result in enumerate(block_results):
                    results[first_task[index] + offset] = result
                    kept_anywhere += result.kept
                del first_task[index]
            while prefix in results and kept < target:
                kept += results[prefix].kept
                rejected += results[prefix].rejected
                prefix += 1
            self._report(prefix, kept, rejected)
        self.blocks.stop()
        return sample_run([results[i] for i in range(prefix)], self.stopped, self._elapsed(), self.threads,
                          self.count, self.options.seed)


def dask_options(client: Any, options: RunOptions | None = None, **executor_options: Any) -> RunOptions:
    """``options`` (default :class:`RunOptions`) with a :class:`DaskExecutor`
    on ``client``: pass them to ``advise_whist``, ``advise_bid`` or ``enumerate_splits``."""
    return replace(options or RunOptions(), executor=DaskExecutor(client, **executor_options))
