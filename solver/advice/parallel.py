"""Evaluating layouts on worker threads, one solver each.

The C search releases the GIL, so worker threads with their own
:class:`~solver.engine.Solver` search in parallel. Work is handed out as
numbered *tasks* (one sampled layout, or one chunk of consecutive enumerated
layouts); each worker keeps its solver, so its table carries over from task to
task. Results are kept by task number and only the longest run of finished
tasks from task 0 is used, so the answer for a given seed and number of
layouts is the same whatever the number of threads.

A run ends when:
 - sampling: the finished tasks from 0 on hold ``layouts`` kept layouts
   (tasks stop there: a later task that finished first is dropped);
 - enumeration: every chunk is done;
 - ``seconds`` have passed or ``cancel`` is set: the searches under way are
   stopped (:meth:`Solver.request_stop`) and the answer is the estimate from
   the finished prefix, with its standard error.

Enumerated chunks are numbered in a seeded random order, so an enumeration
stopped early is still an unbiased (cluster) sample of the layouts. A run
with a time budget hands them out in that order. A run without one (it ends
when every chunk is done, or on cancel) cuts the layouts' own order into
:data:`BLOCKS_PER_WORKER` blocks of consecutive chunks a worker, numbers the
blocks in a seeded random order and the chunks in a block in the layouts'
order, and gives worker ``w`` blocks ``w``, ``w + workers``, ... (a worker
done with its blocks takes chunks from the end of the longest queue left):
a worker goes on from one chunk into the next and its table stays warm
across the chunk boundaries (a jump to a far chunk costs as many nodes as
about a thousand splits of a searching hand: in the numbering's order
10-13 % more nodes in all on one worker). Cancelled, such a run answers from
the whole blocks of its finished prefix, a block one unit: a random set of
blocks, where the chunks finished first in the layouts' order would not be.

With ``RunOptions.executor`` the same tasks run elsewhere (a Dask cluster:
:mod:`solver.distributed`), built from the same pieces (:func:`sample_task`,
:func:`exact_chunks`, :func:`chunk_task`) and answered from the same
finished prefix (:func:`sample_run`, :func:`exact_run`).

A sampled run whose mask evaluator has ``rejects`` (the layouts it turns
down without a search) is solved in sorted rounds instead
(:class:`_SortedSampleEngine`): the same layouts counted, searched in an
order that keeps each worker's table warm (:func:`warm_key`).
"""
from __future__ import annotations

import os
import random
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Hashable, Optional, Protocol, Sequence

from ..engine import SearchStopped, Solver
from ..notation import Hand
from .errors import AdviceError, AdviceTypeError
from .layouts import LayoutSpace
from .progress import Progress
from .stats import Estimate, Number, Unit, collapse, estimate_collapsed, merge_units

__all__ = ["RunOptions", "RunStats", "LayoutRun", "LayoutEvaluator", "LayoutExecutor", "TaskResult", "StopRun",
           "run_layouts", "default_workers", "max_workers", "WORKERS_PER_CORE", "exact_chunks", "sample_limit",
           "sample_task", "chunk_task", "sample_run", "exact_run"]

LayoutEvaluator = Callable[[tuple[Hand, ...], Solver], Optional[dict[Hashable, Number]]]
"""Evaluates one layout with the worker's solver: its outcome histogram
(weights adding up to 1), or None when the layout is rejected."""

MODES = ("auto", "sample", "exact")
MAX_CHUNK = 8192
"""Most enumerated layouts per task: long runs of neighbouring layouts keep
the solver's table useful. Measured over all 184,756 splits of a 6♠ deal on
one solver: the whole order in one run 7.2 M nodes, chunks of 8,192 in a
random order 7.9 M, of 2,048 9.2 M."""
FIRST_CHUNK = 512
SPLIT_FIRST = 2
"""The first SPLIT_FIRST chunks handed out are cut into pieces of FIRST_CHUNK,
so that a run with a time budget has a finished prefix soon. On a searching
hand (``K87.KT7.T7.AKQT``, 6♠ and misère, two workers) pieces of 2,048 left
a 1 s budget with no split finished; pieces of 512 finish 2,560 in it, and a
3 s budget counts about as many splits either way (13,824 against 14,336)."""
BLOCKS_PER_WORKER = 4
"""Blocks of consecutive chunks a worker, for an enumeration without a time
budget: each block a jump of the worker's table (about a thousand splits'
nodes on a searching hand), and the unit of the sample a cancelled run
answers from."""
BATCH = 256
"""Layouts an evaluator's ``batch`` (a mask evaluator's optional attribute:
``batch(layouts, solver)``, the outcomes of a list of layouts, as the
evaluator would answer each) gets at once: one C call for many layouts,
and a stop still noticed within a few milliseconds."""
MAX_ENUMERATION = 5_000_000
"""Most layouts an exact run lists (they are held in memory)."""
REJECTION_LIMIT = 20
"""Sampling gives up after this many tries per layout wanted."""


WORKERS_PER_CORE = 4
"""Most solver threads per core: each has its own table (16 MiB or more),
and the search is CPU-bound, so more threads than cores only add memory."""


def max_workers() -> int:
    """The most worker threads a run (or ``prefdd batch``) may start."""
    return WORKERS_PER_CORE * default_workers()


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class RunOptions:
    """How to run: the budgets, the seed, the threads, sampled or exact.

    ``mode``: ``exact`` enumerates every layout, ``sample`` draws ``layouts``
    of them at random, ``auto`` enumerates when there are no more layouts
    than ``layouts``, else samples. ``seconds`` (optional) stops the run
    early; ``cancel`` (a :class:`threading.Event`) stops it when set;
    ``progress`` is called from the calling thread while the run goes on.
    """

    layouts: int = 1000
    seconds: float | None = None
    seed: int = 0
    workers: int | None = None
    mode: str = "auto"
    table_mib: int = 16
    cancel: threading.Event | None = field(default=None, compare=False)
    progress: Callable[[Progress], None] | None = field(default=None, compare=False)
    executor: LayoutExecutor | None = field(default=None, compare=False)
    """Runs the tasks somewhere else (:class:`solver.distributed.DaskExecutor`:
    on a cluster) with the same answer; None: on this process's threads."""

    def __post_init__(self) -> None:
        if isinstance(self.layouts, bool) or not isinstance(self.layouts, int) or self.layouts < 1:
            raise AdviceError(f"the layout budget must be a whole number of at least 1, got {self.layouts!r}")
        if self.seconds is not None and (isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float))
                                         or not 0 < self.seconds < float("inf")):
            raise AdviceError(f"the time budget must be a positive number of seconds, got {self.seconds!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise AdviceError(f"the seed must be a whole number, got {self.seed!r}")
        if self.workers is not None and (isinstance(self.workers, bool) or not isinstance(self.workers, int)
                                         or not 1 <= self.workers <= max_workers()):
            raise AdviceError(f"workers must be a whole number from 1 to {max_workers()} "
                              f"({WORKERS_PER_CORE} per core), got {self.workers!r:.60}")
        if not isinstance(self.mode, str) or self.mode not in MODES:
            raise AdviceError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r:.60}")
        if isinstance(self.table_mib, bool) or not isinstance(self.table_mib, int) or not 1 <= self.table_mib <= 4096:
            raise AdviceError(f"table_mib must be a whole number from 1 to 4096, got {self.table_mib!r:.60}")
        if self.cancel is not None and not callable(getattr(self.cancel, "is_set", None)):
            raise AdviceTypeError(f"cancel must be a threading.Event or None, got {self.cancel!r:.60}")
        if self.progress is not None and not callable(self.progress):
            raise AdviceTypeError(f"progress must be a callable or None, got {self.progress!r:.60}")

    @classmethod
    def given(cls, options: RunOptions | None) -> RunOptions:
        """The ``options`` argument of the advisors: RunOptions, or None for
        the defaults."""
        if options is None:
            return cls()
        if not isinstance(options, RunOptions):
            raise AdviceTypeError(f"options must be RunOptions or None, got {type(options).__name__} "
                                  f"{options!r:.60}")
        return options

    @property
    def thread_count(self) -> int:
        return self.workers or default_workers()


@dataclass(frozen=True)
class RunStats:
    """What a run did. ``layouts`` were used (kept), ``rejected`` were
    inconsistent with what is known; ``exact``: enumerated rather than
    sampled, ``complete``: every layout counted (the answer is exact);
    ``stopped``: ``done``, ``seconds`` or ``cancelled``."""

    layouts: int
    rejected: int
    exact: bool
    complete: bool
    stopped: str
    elapsed: float
    workers: int
    space: int
    """The number of layouts there are (before any rejection)."""
    seed: int


_STOPPED_WHY = {"seconds": "stopped by its time budget", "cancelled": "cancelled"}


@dataclass(frozen=True)
class LayoutRun:
    """The units a run produced (see :mod:`solver.advice.stats`) and its stats."""

    units: tuple[Unit, ...]
    population_units: int | None
    stats: RunStats

    @cached_property
    def collapsed(self) -> list[tuple[Unit, int]]:
        """The units collapsed once (an advice estimates tens of options)."""
        return collapse(self.units)

    def finished(self) -> LayoutRun:
        """This run, unless it was stopped (time budget, cancel) before its
        first layout was finished: then an AdviceError saying so (an
        estimate of nothing would be NaN)."""
        if self.stats.layouts == 0 and self.stats.stopped != "done":
            raise AdviceError(f"the run was {_STOPPED_WHY.get(self.stats.stopped, self.stats.stopped)} before "
                              "any layout was finished: no estimate (give it more time)")
        return self

    def estimate(self, f: Callable[[Hashable], Number]) -> Estimate:
        """The estimate of ``f`` over the run's units, exact when the run
        counted every layout (see :func:`solver.advice.stats.estimate`)."""
        return estimate_collapsed(self.collapsed, f, population_units=self.population_units,
                                  exact=self.stats.complete)


@dataclass
class TaskResult:
    """One task's outcome histogram (its unit) and its kept and rejected layouts."""

    unit: dict[Hashable, Number]
    kept: int
    rejected: int


def _layout_result(unit: Optional[dict[Hashable, Number]]) -> TaskResult:
    """One layout's result from its evaluation: kept with its unit, or
    rejected (None). A new result each call: its unit is not shared."""
    return TaskResult({}, 0, 1) if unit is None else TaskResult(unit, 1, 0)


class LayoutExecutor(Protocol):
    """Runs a run's tasks elsewhere: the same tasks (:func:`sample_task`,
    :func:`chunk_task` over :func:`exact_chunks`), the same finished prefix
    (:func:`sample_run`, :func:`exact_run`), so the same answer."""

    def run_layouts(self, space: LayoutSpace, evaluate: LayoutEvaluator, options: RunOptions, *,
                    exact: bool, masks: bool) -> LayoutRun: ...


class _Counter:
    """Layouts evaluated so far, for progress reports (any thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.value = 0

    def add(self, count: int = 1) -> None:
        with self.lock:
            self.value += count


class StopRun(Exception):
    """A task noticed the stop request between two layouts."""


def run_layouts(space: LayoutSpace, evaluate: LayoutEvaluator, options: RunOptions, *,
                masks: bool = False, solvers: list[Solver] | None = None) -> LayoutRun:
    """Evaluate the layouts of ``space`` as ``options`` say (see the module).
    With ``masks`` the evaluator gets each part as a hand mask (an int)
    instead of a :class:`Hand`, which saves time when layouts are cheap.
    ``solvers``: the workers take theirs from this list (the solvers of an
    earlier run, ``options.table_mib`` each) and add the ones they make to
    it, so that runs one after another share their solvers (a fresh 16 MiB
    table is 2-50 ms of page faults); the values do not depend on it."""
    count = space.count()
    exact = options.mode == "exact" or (options.mode == "auto" and count <= options.layouts)
    if exact and count > MAX_ENUMERATION:
        raise AdviceError(f"{count:,} layouts are too many to enumerate (at most {MAX_ENUMERATION:,}); "
                          "sample them instead")
    if options.executor is not None:
        return options.executor.run_layouts(space, evaluate, options, exact=exact, masks=masks)
    if exact:
        return _run_exact(space, evaluate, options, count, masks, solvers)
    return _run_sample(space, evaluate, options, count, masks, solvers)


def sample_limit(layouts: int) -> int:
    """The most sampled tasks a run of ``layouts`` tries (rejections included)."""
    return layouts * REJECTION_LIMIT + 100


def sample_task(space: LayoutSpace, evaluate: LayoutEvaluator, seed: int, index: int, solver: Solver,
                masks: bool) -> TaskResult:
    """Sampled task ``index``: layout ``index`` of ``seed``."""
    parts = space.sample_masks(seed, index) if masks else space.sample(seed, index)
    return _layout_result(evaluate(parts, solver))  # type: ignore[arg-type]


def exact_chunks(count: int, seed: int) -> list[tuple[int, int]]:
    """The enumeration's chunks, ranges of consecutive layouts, in the seeded
    order they are handed out: from the layout count and seed only, so the
    same chunks whatever runs them."""
    size = max(1, min(MAX_CHUNK, count // 16))
    chunks = [(start, min(start + size, count)) for start in range(0, count, size)]
    rng = random.Random(f"{seed}/chunks")
    rng.shuffle(chunks)
    # The first chunks handed out go in smaller pieces (in a random order),
    # so that a run stopped early (a time budget) soon has a finished prefix.
    small = min(FIRST_CHUNK, size)
    head = []
    for start, end in chunks[:SPLIT_FIRST]:
        pieces = [(piece, min(piece + small, end)) for piece in range(start, end, small)]
        rng.shuffle(pieces)
        head += pieces
    return head + chunks[SPLIT_FIRST:]


def exact_blocks(chunks: Sequence[tuple[int, int]], workers: int, seed: int) -> list[list[int]]:
    """An enumeration's chunks (task numbers) for a run without a time
    budget: cut in the layouts' order into :data:`BLOCKS_PER_WORKER` blocks a
    worker, the blocks in a seeded random order (see the module)."""
    in_order = sorted(range(len(chunks)), key=lambda index: chunks[index][0])
    count = min(len(in_order), BLOCKS_PER_WORKER * workers)
    if count == 0:
        return []
    cuts = [len(in_order) * k // count for k in range(count + 1)]
    blocks = [in_order[cuts[k]:cuts[k + 1]] for k in range(count)]
    random.Random(f"{seed}/blocks").shuffle(blocks)
    return blocks


def block_queues(blocks: Sequence[Sequence[int]], workers: int) -> list[list[int]]:
    """The queues of a run without a time budget, its chunks numbered block
    by block (block ``b`` holding the numbers after those of blocks before
    it): worker ``w`` takes blocks ``w``, ``w + workers``, ... in that order."""
    starts = [0]
    for block in blocks:
        starts.append(starts[-1] + len(block))
    return [[task for b in range(w, len(blocks), workers) for task in range(starts[b], starts[b + 1])]
            for w in range(workers)]


def whole_blocks(results: Sequence[TaskResult], blocks: Sequence[Sequence[int]]) -> list[TaskResult]:
    """A stopped run's finished prefix (chunks numbered block by block) cut
    to its whole blocks, each block one unit: the blocks in their seeded
    order are the random sample, not the chunks in the layouts' order."""
    merged: list[TaskResult] = []
    done = 0
    for block in blocks:
        if done + len(block) > len(results):
            break
        part = results[done:done + len(block)]
        unit = dict(merge_units(result.unit for result in part))
        merged.append(TaskResult(unit, sum(r.kept for r in part), sum(r.rejected for r in part)))
        done += len(block)
    return merged


def chunk_task(layouts: Sequence[tuple[int, ...]], evaluate: LayoutEvaluator, solver: Solver, masks: bool,
               stopped: Callable[[], bool], counted: Callable[[int], None] | None = None) -> TaskResult:
    """One chunk of enumerated layouts (as masks), added up into one unit;
    raises :class:`StopRun` when ``stopped()`` turns true between two layouts
    (between two batches, with an evaluator that has a ``batch``: see
    :data:`BATCH`)."""
    unit: dict[Hashable, Number] = {}
    kept = rejected = 0
    batch = getattr(evaluate, "batch", None) if masks else None
    step = BATCH if batch is not None else 1
    for start in range(0, len(layouts), step):
        if stopped():
            raise StopRun
        if batch is not None:
            outcomes = batch(layouts[start:start + step], solver)
        else:
            layout = layouts[start]
            outcomes = [evaluate(layout if masks else tuple(Hand(mask) for mask in layout), solver)]  # type: ignore[arg-type]
        if counted is not None:
            counted(len(outcomes))
        for outcome in outcomes:
            if outcome is None:
                rejected += 1
                continue
            kept += 1
            for key, weight in outcome.items():
                unit[key] = unit.get(key, 0) + weight
    return TaskResult(unit, kept, rejected)


def sample_run(results: Sequence[TaskResult], stopped: str, elapsed: float, workers: int, count: int,
               seed: int) -> LayoutRun:
    """A sampling run from its finished prefix of tasks."""
    units = tuple(r.unit for r in results if r.kept)
    stats = RunStats(len(units), sum(r.rejected for r in results), False, False, stopped, elapsed,
                     workers, count, seed)
    return LayoutRun(units, None, stats)


def exact_run(results: Sequence[TaskResult], chunks: int, stopped: str, elapsed: float, workers: int,
              count: int, seed: int) -> LayoutRun:
    """An enumeration from its finished prefix of ``chunks`` chunks."""
    stats = RunStats(sum(r.kept for r in results), sum(r.rejected for r in results), True,
                     len(results) == chunks, stopped, elapsed, workers, count, seed)
    return LayoutRun(tuple(r.unit for r in results), chunks, stats)


def _run_sample(space: LayoutSpace, evaluate: LayoutEvaluator, options: RunOptions, count: int,
                masks: bool, solvers: list[Solver] | None) -> LayoutRun:
    def task(index: int, solver: Solver, stop: threading.Event) -> TaskResult:
        return sample_task(space, evaluate, options.seed, index, solver, masks)

    rejects = getattr(evaluate, "rejects", None) if masks and SORTED_ROUNDS else None
    engine: _Engine
    if rejects is not None:
        engine = _SortedSampleEngine(space, evaluate, rejects, sample_limit(options.layouts), options, solvers)
    else:
        engine = _Engine(task, sample_limit(options.layouts), options.layouts, options, exact=False, pool=solvers)
    results, stopped, elapsed = engine.run()
    return sample_run(results, stopped, elapsed, options.thread_count, count, options.seed)


def _run_exact(space: LayoutSpace, evaluate: LayoutEvaluator, options: RunOptions, count: int,
               masks: bool, solvers: list[Solver] | None) -> LayoutRun:
    layouts = space.enumerate_list()
    chunks = exact_chunks(count, options.seed)
    blocks = None if options.seconds is not None else exact_blocks(chunks, options.thread_count, options.seed)
    queues = None
    if blocks is not None:
        chunks = [chunks[index] for block in blocks for index in block]   # numbered block by block
        queues = block_queues(blocks, options.thread_count)

    def task(index: int, solver: Solver, stop: threading.Event) -> TaskResult:
        start, end = chunks[index]
        return chunk_task(layouts[start:end], evaluate, solver, masks, stop.is_set, counter.add)

    engine = _Engine(task, len(chunks), None, options, exact=True, total=count, pool=solvers, queues=queues)
    counter = engine.counter
    results, stopped, elapsed = engine.run()
    if blocks is not None and len(results) < len(chunks):
        return exact_run(whole_blocks(results, blocks), len(blocks), stopped, elapsed, options.thread_count,
                         count, options.seed)
    if blocks is not None:   # every chunk done: its units in the chunks' own numbering, as with a budget
        numbered = [index for block in blocks for index in block]
        results = [result for _, result in sorted(zip(numbered, results), key=lambda pair: pair[0])]
    return exact_run(results, len(chunks), stopped, elapsed, options.thread_count, count, options.seed)


class _Engine:
    """The thread pool of one run."""

    def __init__(self, task: Callable[[int, Solver, threading.Event], TaskResult], task_count: int,
                 target: int | None, options: RunOptions, *, exact: bool, total: int | None = None,
                 pool: list[Solver] | None = None, queues: Sequence[Sequence[int]] | None = None) -> None:
        self.task = task
        self.queues = [deque(queue) for queue in queues] if queues is not None else None
        """The task numbers to hand out (None: in their order): worker ``i``
        takes from the front of queue ``i`` (of the one queue when there is
        one), and once its queue is empty from the back of the longest."""
        self.pool = pool
        self.task_count = task_count
        self.target = target
        self.options = options
        self.exact = exact
        self.total = total if total is not None else (target or task_count)
        self.results: dict[int, TaskResult] = {}
        self.kept_done = 0   # kept layouts over every finished task, in whatever order they finished
        self.next_task = 0
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.work = threading.Condition(self.lock)   # workers waiting for work (_SortedSampleEngine)
        self.stop = threading.Event()
        self.solvers: list[Solver] = []
        self.error: BaseException | None = None
        self.counter = _Counter()

    def _next_task(self, worker: int) -> int:
        """The task a worker takes next (under the lock; one is left)."""
        if self.queues is None:
            return self.next_task
        own = self.queues[worker % len(self.queues)]
        if own:
            return own.popleft()
        return max(self.queues, key=len).pop()

    def _solver(self) -> Solver | None:
        """This worker's solver (from the pool, else a new one), or None when
        it could not be made (the error is handed to the calling thread)."""
        with self.lock:
            pool = self.pool
            solver = pool[len(self.solvers)] if pool is not None and len(self.solvers) < len(pool) else None
            if solver is not None:
                solver.clear_stop()   # the earlier run stopped it at its end
                self._enlist(solver)
        if solver is None:
            try:
                solver = Solver(self.options.table_mib)   # not under the lock: it allocates the table
            except BaseException as error:  # noqa: BLE001 - handed to the calling thread
                self._fail(error)
                return None
            with self.lock:
                if pool is not None:
                    pool.append(solver)
                self._enlist(solver)
        return solver

    def _worker(self, worker: int) -> None:
        solver = self._solver()
        if solver is None:
            return
        while True:
            with self.lock:
                # Sampling: once the finished tasks hold enough kept layouts,
                # the tasks handed out already make a prefix that holds them.
                if self.stop.is_set() or self.next_task >= self.task_count or self._reached(self.kept_done):
                    return
                index = self._next_task(worker)
                self.next_task += 1
            try:
                result = self.task(index, solver, self.stop)
            except (SearchStopped, StopRun):
                return
            except BaseException as error:  # noqa: BLE001 - handed to the calling thread
                self._fail(error)
                return
            with self.changed:
                self.results[index] = result
                self.kept_done += result.kept
                # The calling thread polls every 50 ms for progress; waking it
                # for every result would take the GIL from the workers (a
                # thousand times a second), so only the results that may end
                # the run wake it: every task done, or (sampling) enough kept
                # layouts among the finished tasks for the prefix to hold them.
                # Counting the finished tasks would wake it for each of the
                # last 2,600 of a whist advice's 3,600 tasks (70 % are rejected).
                if len(self.results) >= self.task_count or (self.target is not None
                                                            and self.kept_done >= self.target):
                    self.changed.notify()

    def _enlist(self, solver: Solver) -> None:
        """Count ``solver`` among the run's (the lock held), stopped if the
        run has ended: the end stops the solvers counted by then, under the
        same lock, so each solver is stopped by one or the other."""
        self.solvers.append(solver)
        if self.stop.is_set():
            solver.request_stop()

    def _fail(self, error: BaseException) -> None:
        with self.changed:
            if self.error is None:
                self.error = error
            self.stop.set()
            self.changed.notify()
            self.work.notify_all()

    def run(self) -> tuple[list[TaskResult], str, float]:
        """The finished prefix of tasks, why the run stopped, and its time."""
        start = time.monotonic()
        if self.options.cancel is not None and self.options.cancel.is_set():
            return [], "cancelled", 0.0   # before any thread: no layout done, whatever the timing
        threads = [threading.Thread(target=self._worker, args=(i,), name=f"prefdd-advice-{i}", daemon=True)
                   for i in range(self.options.thread_count)]
        for thread in threads:
            thread.start()
        prefix = kept = rejected = 0
        stopped = "done"
        try:
            while True:
                with self.changed:
                    while prefix in self.results and not self._reached(kept):
                        kept += self.results[prefix].kept
                        rejected += self.results[prefix].rejected
                        prefix += 1
                    done = self.counter.value if self.exact else prefix
                    error = self.error
                if error is not None:
                    raise error
                elapsed = time.monotonic() - start
                if self._reached(kept) or prefix >= self.task_count:
                    break
                if self.options.seconds is not None and elapsed >= self.options.seconds:
                    stopped = "seconds"
                    break
                if self.options.cancel is not None and self.options.cancel.is_set():
                    stopped = "cancelled"
                    break
                self._report(done, kept, rejected, elapsed)
                with self.changed:
                    if prefix not in self.results and self.error is None:
                        self.changed.wait(0.05)
        finally:
            with self.lock:
                self.stop.set()
                self.work.notify_all()
                for solver in self.solvers:
                    solver.request_stop()
            for thread in threads:
                thread.join()
        elapsed = time.monotonic() - start
        self._report(kept + rejected, kept, rejected, elapsed)
        return [self.results[i] for i in range(prefix)], stopped, elapsed

    def _reached(self, kept: int) -> bool:
        return self.target is not None and kept >= self.target

    def _report(self, done: int, kept: int, rejected: int, elapsed: float) -> None:
        if self.options.progress is not None:
            self.options.progress(Progress(done, self.total, kept, rejected, elapsed, self.exact))


def warm_key(parts: Sequence[int]) -> tuple[int, ...]:
    """The order in which :class:`_SortedSampleEngine` solves a round's
    layouts (hand masks; the last part holds the rest): each part's length
    in each suit, then who holds each card from the aces down (the suits
    interleaved). Layouts of one shape come together, and among them those
    that share their high cards' owners, so the table's entries of one
    layout serve the next. Measured on the first defender's whist advice
    (three seeds, two workers, rounds as solved): −16 % nodes; the high
    cards alone −12 %, the enumeration's order (low cards slowest) −5 %."""
    key: list[int] = []
    for mask in parts[:-1]:
        key += [(mask >> (8 * suit) & 0xFF).bit_count() for suit in range(4)]
    for mask in parts[:-1]:
        key.append(sum(_SPREAD[mask >> (8 * suit) & 0xFF] << (3 - suit) for suit in range(4)))
    return tuple(key)


_SPREAD = [sum(1 << (4 * rank) for rank in range(8) if byte >> rank & 1) for byte in range(256)]
"""A suit's 8 bits spread 4 apart (rank r to bit 4r): the four suits of a
hand interleaved, ranks high to low from the top bit down (:func:`warm_key`)."""

SORTED_ROUNDS = True
"""Sampled runs whose evaluator has ``rejects`` solve their layouts in sorted
rounds (:class:`_SortedSampleEngine`); False: one layout a task, as drawn
(the same answer, for the cross-checks)."""
DRAW_BLOCK = 64
"""Sampled layouts drawn (and tested by the evaluator's ``rejects``) at a time."""
FIRST_ROUND = 64
"""The first round starts once this many layouts that need a search are drawn,
so that one worker searches while another draws the rest."""
MAX_ROUND = 1024
"""Most layouts a round sorts: a run stopped early (time budget, cancel)
loses at most the round under way beyond its finished prefix."""
SOLVE_RUN = 16
"""Most layouts of a worker's segment solved in one call of the evaluator's
``batch`` (see :meth:`_SortedSampleEngine._take`)."""
BUDGET_ROUND = 8
"""With a time budget, the first round's layouts (the later ones grow with
what was solved and the time left: _SortedSampleEngine._round_size)."""


@dataclass
class _Round:
    """A round of :class:`_SortedSampleEngine`: its layouts not yet finished
    and the finished ones' results by index."""

    left: int
    done: dict[int, TaskResult] = field(default_factory=dict)


class _SortedSampleEngine(_Engine):
    """A sampled run whose layouts are solved in :func:`warm_key` order.

    The answer is that of :class:`_Engine` (the first ``layouts`` kept
    layouts by index, whatever solved them): only the order of the searches
    changes. Layouts are drawn in index order, DRAW_BLOCK at a time, and
    those the evaluator's ``rejects(parts)`` turns down without a search are
    rejected at once; the others wait. A *round* takes the next waiting
    layouts, as many as kept layouts are still missing (so each of them
    belongs to the answer: none is searched in vain), at most MAX_ROUND,
    sorts them and cuts the sorted list into one contiguous segment per
    worker; a worker whose segment is done takes the last layout of the
    longest other one. The next round starts when a worker finds nothing
    left to take in the round under way, and takes as many layouts as are
    then missing with the layouts in flight counted as kept: each layout
    those turn down is one more needed, so the new round's layouts belong to
    the answer too, and no worker waits for another's last search (measured
    on the first defender's whist advice: the waits at the rounds' ends were
    7-15 ms a worker under a load average of 6). A round's results join the
    finished ones once it and every round before it are done: a run stopped
    inside a round answers from the layouts before it, since the part of a
    round done first is its layouts of the first keys, not a random set. While a round
    is solved, a worker draws the layouts the next rounds need (one drawer
    at a time: drawing holds the GIL), so the drawing overlaps the searches.
    """

    def __init__(self, space: LayoutSpace, evaluate: LayoutEvaluator, rejects: Callable[[tuple[int, ...]], bool],
                 limit: int, options: RunOptions, pool: list[Solver] | None) -> None:
        super().__init__(self._unused_task, limit, options.layouts, options, exact=False, pool=pool)
        self.space, self.evaluate, self.rejects = space, evaluate, rejects
        self.batch: Callable[[list[tuple[int, ...]], Solver], list[dict[Hashable, Number] | None]] | None = \
            getattr(evaluate, "batch", None)
        self.drawn_to = 0          # indices below were handed out to be drawn
        self.frontier = 0          # indices below were drawn; their layouts that need a search wait or are solved
        self.blocks: dict[int, tuple[int, list[tuple[int, tuple[int, ...]]]]] = {}   # drawn block start -> (end, waiting)
        self.drawers = 0
        self.waiting: list[tuple[int, tuple[int, ...]]] = []
        self.round_left = 0        # layouts of the rounds under way not yet finished
        self.open_rounds: deque[_Round] = deque()     # the rounds under way, oldest first
        self.rounds = 0            # rounds started
        self.solved = 0            # layouts of the rounds started
        self.began = time.monotonic()

    @staticmethod
    def _unused_task(index: int, solver: Solver, stop: threading.Event) -> TaskResult:
        raise AssertionError("the sorted engine solves its layouts itself")

    def _missing(self) -> int:
        """Kept layouts still missing, counting the rounds under way as kept."""
        assert self.target is not None
        return self.target - self.kept_done - self.round_left

    def _round_size(self) -> int:
        """The next round's size: the layouts still missing (those in flight
        counted as kept), at most MAX_ROUND, the first FIRST_ROUND. With a
        time budget the first is BUDGET_ROUND, and each later one at most as
        many as were solved before or, when more, as many as the rate so far
        solves in half the time left: a stop then seldom falls in a round,
        and when it does the round is at most what was done or what half the
        time left was expected to hold."""
        budget = self.options.seconds
        if budget is not None:
            elapsed = time.monotonic() - self.began
            rate = self.solved / elapsed if elapsed > 0 else 0.0
            most = max(BUDGET_ROUND, self.solved, int(rate * (budget - elapsed) / 2))
        else:
            most = FIRST_ROUND if self.rounds == 0 else MAX_ROUND
        return min(self._missing(), most, MAX_ROUND)

    def _start_round(self) -> None:
        assert self.target is not None and not (self.queues is not None and any(self.queues))
        size = min(len(self.waiting), self._round_size())
        batch = sorted(self.waiting[:size], key=lambda item: warm_key(item[1]))
        del self.waiting[:size]
        workers = self.options.thread_count
        per = -(-size // workers)
        this = _Round(size)
        self.queues = [deque((index, parts, this) for index, parts in batch[k * per:(k + 1) * per])
                       for k in range(workers)]
        self.open_rounds.append(this)
        self.round_left += size
        self.rounds += 1
        self.solved += size

    def _next(self, me: int) -> tuple[str, object] | None:
        """Under the lock: this worker's next job, None when the run is over."""
        while not self.stop.is_set():
            if self._reached(self.kept_done):
                return None
            draw = self._draw_needed()
            if draw and self.drawers == 0:
                return "draw", self._hand_out_block()
            if self.queues is not None and any(self.queues):
                return "solve", self._take(me)
            if self._round_ready(draw):
                self._start_round()
                continue
            if draw:
                return "draw", self._hand_out_block()
            if self.round_left == 0 and not self.waiting and self.drawers == 0:
                return None            # every layout drawn and solved: the limit of tries
            self.work.wait()
        return None

    def _take(self, me: int) -> list[tuple[int, tuple[int, ...], _Round]]:
        """Under the lock: the layouts this worker solves next (one is
        left). With the evaluator's ``batch`` a run of them from the front of
        its own segment, a quarter of what is left there and at most
        SOLVE_RUN (one C call: no interpreter work between them); else, and
        from another worker's segment, one."""
        assert self.queues is not None
        own = self.queues[me]
        if self.batch is None or not own:
            return [self._next_task(me)]   # type: ignore[list-item]
        return [own.popleft() for _ in range(max(1, min(SOLVE_RUN, len(own) // 4)))]

    def _draw_needed(self) -> bool:
        """Layouts are left to draw, and fewer wait than kept ones are missing."""
        return self.drawn_to < self.task_count and len(self.waiting) < self._missing()

    def _round_ready(self, draw: bool) -> bool:
        """With nothing left to take in the rounds under way, whether the
        next starts now: when layouts wait and some are missing (those in
        flight counted as kept), a full round once its layouts are drawn (or
        all that will be). With a time budget (a first round of
        BUDGET_ROUND), while another worker draws, what is waiting, so that
        no core waits for the drawing; without one the first round
        (FIRST_ROUND) lasts about as long as the drawing, and smaller rounds
        while drawing measured +4.6 % nodes."""
        if not self.waiting or self._missing() <= 0:
            return False
        budget = self.options.seconds is not None
        return len(self.waiting) >= self._round_size() or not draw or (budget and self.drawers > 0)

    def _hand_out_block(self) -> tuple[int, int]:
        start = self.drawn_to
        self.drawn_to = min(start + DRAW_BLOCK, self.task_count)
        self.drawers += 1
        return start, self.drawn_to

    def _drawn(self, start: int, end: int, waiting: list[tuple[int, tuple[int, ...]]], rejected: list[int]) -> None:
        """Under the lock: a drawn block's rejected layouts and those that wait."""
        self.drawers -= 1
        for index in rejected:
            self.results[index] = _layout_result(None)
        self.blocks[start] = (end, waiting)
        while self.frontier in self.blocks:
            end, block = self.blocks.pop(self.frontier)
            self.waiting += block
            self.frontier = end
        self._finished()

    def _finished(self) -> None:
        if len(self.results) >= self.task_count or self._reached(self.kept_done):
            self.changed.notify()
        self.work.notify_all()

    def _worker(self, worker: int) -> None:
        solver = self._solver()
        if solver is None:
            return
        try:
            self._work(worker, solver)
        except SearchStopped:
            return
        except BaseException as error:  # noqa: BLE001 - handed to the calling thread
            self._fail(error)

    def _work(self, me: int, solver: Solver) -> None:
        while True:
            with self.lock:
                job = self._next(me)
            if job is None:
                return
            kind, what = job
            if kind == "draw":
                start, end = what  # type: ignore[misc]
                waiting, rejected = [], []
                drawn = self.space.sample_masks_many(self.options.seed, start, end)
                for index, parts in zip(range(start, end), drawn):
                    (rejected.append(index) if self.rejects(parts) else waiting.append((index, parts)))
                with self.lock:
                    self._drawn(start, end, waiting, rejected)
                continue
            taken: list[tuple[int, tuple[int, ...], _Round]] = what  # type: ignore[assignment]
            if self.batch is not None:
                units = self.batch([parts for _, parts, _ in taken], solver)
            else:
                units = [self.evaluate(parts, solver) for _, parts, _ in taken]  # type: ignore[arg-type]
            results = [(index, _layout_result(unit), where) for (index, _, where), unit in zip(taken, units)]
            with self.lock:
                for index, result, where in results:
                    where.done[index] = result
                    where.left -= 1
                    self.kept_done += result.kept
                self.round_left -= len(results)
                rounds = self.open_rounds
                while rounds and rounds[0].left == 0:   # whole rounds join the answer in order (see the class)
                    self.results.update(rounds.popleft().done)
                self._finished()
