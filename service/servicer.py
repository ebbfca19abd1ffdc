"""The ``preferans.v1.Analysis`` servicer: one thin handler per RPC.

Each handler converts its request (:mod:`service.convert`,
:mod:`service.deal_analysis`, :mod:`service.advice_calls`,
:mod:`service.play_calls`), hands the work to
the solver pool (:meth:`AnalysisServicer._run`) or to an advice run
(:meth:`AnalysisServicer._advice_call`) and answers; the call's deadline and
cancel stop the work. A new RPC is a handler of the same shape.

* Errors: bad input → ``INVALID_ARGUMENT`` with the notation's message; server
  limits → ``RESOURCE_EXHAUSTED`` naming the limit (``max_batch_items``,
  ``max_advice_runs``, ``max_advice_layouts``); an unexpected error is turned
  into ``INTERNAL`` by :class:`service.interceptors.CallLogInterceptor`.
* A deadline that passes while a call waits or searches answers
  ``DEADLINE_EXCEEDED``; a client's cancel ``CANCELLED``; a call arriving during
  shutdown ``UNAVAILABLE``. An advice run's own time budget (``Budget.seconds``)
  is not an error: it answers the estimate so far.

Choices where the issue is silent:

* Score (pure Python, no search) runs in a worker process
  (:mod:`service.score_workers`) that its deadline, its cancel or the server's
  ``max_score_seconds`` stops; it takes its input and answers as JSON text in
  the ``prefdd score`` / ``prefdd pool --json`` forms, and hands the worker
  the typed :class:`~solver.scoring.ScoringRequest`.
* An advice call beyond ``max_advice_runs`` is refused at once rather than
  queued: a run takes every advice worker thread for seconds to minutes, and a
  client is better told to retry than left waiting behind an unknown queue.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable, Iterator, TypeVar

import grpc

from solver.advice import RunOptions, advise_bid, advise_play, advise_whist, enumerate_splits
from solver.analysis.deal import analyze_deal
from solver.engine import Solver

from . import advice_calls, convert, deal_analysis, play_calls
from .advice_calls import BudgetChoice, LayoutLimitExceeded
from .advice_runs import AdviceBusy, AdviceRuns, AdviceTimeLimit, CallEnded
from .batch_stream import BatchLimitExceeded, BatchStream
from .errors import UndecodableMessage
from .interceptors import deadline_passed, note
from .pool import JobCancelled, PoolClosed, SolverPool
from .score_workers import ScoreFailed, ScoreStopped, ScoreWorkers
from .proto import pb, pb_grpc

if TYPE_CHECKING:
    from .cluster import Cluster
    from .server import ServerConfig

__all__ = ["AnalysisServicer"]

LOGGER = logging.getLogger("service")
LONGEST_WAIT = 1.0  # seconds; waits are sliced so a dead call is noticed

T = TypeVar("T")


def _remaining(context: grpc.ServicerContext) -> float:
    remaining = context.time_remaining()
    return float("inf") if remaining is None else remaining


class AnalysisServicer(pb_grpc.AnalysisServicer):
    """The RPCs. Each handler converts, hands the search to the pool (or to an
    advice run) and waits."""

    def __init__(self, pool: SolverPool, config: ServerConfig, advice: AdviceRuns, scoring: ScoreWorkers,
                 cluster: Cluster | None = None) -> None:
        self._pool = pool
        self._config = config
        self._advice = advice
        self._scoring = scoring
        self._cluster = cluster

    def _run(self, context: grpc.ServicerContext, work: Callable[[Solver], T]) -> T:
        """Run ``work`` on a pool worker; the call's end (cancel, deadline)
        cancels it. Aborts the call with the right status on failure."""
        try:
            job = self._pool.submit(work)
        except PoolClosed:
            context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
        if not context.add_callback(job.cancel):
            job.cancel()
        while not job.wait(min(LONGEST_WAIT, _remaining(context))):
            if _remaining(context) <= 0 or not context.is_active():
                job.cancel()
                job.wait()
                break
        try:
            return job.result()
        except JobCancelled:
            if deadline_passed(context):
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded: the search was stopped")
            context.abort(grpc.StatusCode.CANCELLED, "the call was cancelled: the search was stopped")
        except MemoryError:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "the solver's table could not be allocated")
        except ValueError as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        raise AssertionError("unreachable")  # every branch above returns or aborts

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        if not request.HasField("position"):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "field 'position' is required")
        try:
            position = convert.position_from_proto(request.position)
        except ValueError as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        answer = self._run(context, lambda solver: convert.solve(
            solver, position, request.card_values, request.best_line))
        return convert.solve_response(position, answer)

    def EvaluateBatch(self, request_iterator: Iterator[pb.EvaluateBatchRequest],
                      context: grpc.ServicerContext) -> Iterator[pb.EvaluateBatchResponse]:
        window = self._config.batch_window or max(64, 16 * self._pool.workers)
        budget = self._config.max_message_bytes // 2
        stream = (self._cluster.batch_stream(self._config.max_batch_items, window, budget) if self._cluster
                  else BatchStream(self._pool, self._config.max_batch_items, window, message_budget=budget))
        if not context.add_callback(stream.cancel):
            return
        try:
            yield from stream.results(request_iterator, expired=lambda: _remaining(context) <= 0)
        except BatchLimitExceeded as error:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
        except UndecodableMessage as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        except PoolClosed:
            context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
        finally:
            note(items=stream.items_read)
        if stream.cancelled:
            if deadline_passed(context):
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded: the batch was stopped")
            context.abort(grpc.StatusCode.CANCELLED, "the call was cancelled: the batch was stopped")

    def Score(self, request: pb.ScoreRequest, context: grpc.ServicerContext) -> pb.ScoreResponse:
        try:
            scoring_request = convert.score_request(request)
        except ValueError as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        try:
            result = self._scoring.run(scoring_request, ended=lambda: _ended(context))
        except ScoreStopped as stop:
            if stop.reason == "limit":
                context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "the scoring took longer than the server's "
                              f"limit max_score_seconds={self._scoring.seconds:g} and was stopped")
            if stop.reason == "closed":
                context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
            _abort_ended(context, "the scoring")
            context.abort(grpc.StatusCode.CANCELLED, "the call was cancelled: the scoring was stopped")
        except ScoreFailed as failure:
            if failure.kind == "invalid":
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(failure)))
            if failure.kind == "exhausted":
                context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(failure))
            LOGGER.error("the scoring process failed", extra={"fields": {
                "event": "score_failure", "traceback": str(failure)}})
            context.abort(grpc.StatusCode.INTERNAL, "internal error in the analysis server (logged)")
        return pb.ScoreResponse(result_json=result)

    def AnalyzeDeal(self, request: pb.AnalyzeDealRequest,
                    context: grpc.ServicerContext) -> pb.AnalyzeDealResponse:
        try:
            plan = deal_analysis.deal_request(request)
        except ValueError as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        answer = self._run(context, lambda solver: analyze_deal(plan, solver))
        return deal_analysis.deal_response(answer)

    # -- advice under hidden cards -----------------------------------------

    def _advise(self, context: grpc.ServicerContext, budget: BudgetChoice, layouts: int,
                work: Callable[[RunOptions], T]) -> T:
        """Run ``work`` in an advice slot; abort the call with the right status
        when a limit is reached, the call ended, or the run failed."""
        try:
            advice_calls.check_layouts(budget, layouts, self._config.max_advice_layouts)
            result = self._advice.run(context, budget, work)
        except (LayoutLimitExceeded, AdviceBusy, AdviceTimeLimit) as error:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
        except CallEnded:
            _abort_ended(context, "the advice run")
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded before the advice run started")
        except MemoryError:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "the advice run's solver tables could not be allocated")
        except ValueError as error:
            _abort_ended(context, "the advice run")  # a run stopped before any layout says so with an AdviceError
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        _abort_ended(context, "the advice run")
        return result

    def AdviseWhist(self, request: pb.AdviseWhistRequest,
                    context: grpc.ServicerContext) -> pb.AdviseWhistResponse:
        return self._advice_call(context, lambda: advice_calls.whist_from_proto(request),
                                 advice_calls.whist_layouts, advise_whist, advice_calls.whist_response)

    def AdviseBid(self, request: pb.AdviseBidRequest, context: grpc.ServicerContext) -> pb.AdviseBidResponse:
        return self._advice_call(context, lambda: advice_calls.bid_from_proto(request),
                                 advice_calls.bid_layouts, advise_bid, advice_calls.bid_response)

    def Enumerate(self, request: pb.EnumerateRequest, context: grpc.ServicerContext) -> pb.EnumerateResponse:
        return self._advice_call(context, lambda: advice_calls.enumeration_from_proto(request),
                                 advice_calls.enumeration_layouts, enumerate_splits,
                                 advice_calls.enumeration_response)

    def AdvisePlay(self, request: pb.AdvisePlayRequest, context: grpc.ServicerContext) -> pb.AdvisePlayResponse:
        return self._advice_call(context, lambda: play_calls.play_from_proto(request), play_calls.play_layouts,
                                 advise_play, play_calls.play_response)

    def _advice_call(self, context: grpc.ServicerContext, read, count_layouts, run, respond):
        """The shape of every advice RPC: read the request (INVALID_ARGUMENT
        with the advisor's message), size it, run it under the call's limits
        and deadline, answer."""
        try:
            advice_request, budget = read()
            layouts = count_layouts(advice_request)
        except ValueError as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        result = self._advise(context, budget, layouts, lambda options: run(advice_request, options))
        return respond(result)

def _ended(context: grpc.ServicerContext) -> bool:
    return _remaining(context) <= 0 or not context.is_active()


def _abort_ended(context: grpc.ServicerContext, work: str) -> None:
    """Abort with DEADLINE_EXCEEDED or CANCELLED if the call has ended (``work``
    names what was stopped)."""
    if deadline_passed(context):
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"deadline exceeded: {work} was stopped")
    if not context.is_active():
        context.abort(grpc.StatusCode.CANCELLED, f"the call was cancelled: {work} was stopped")
