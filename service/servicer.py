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

* Score runs on the handler thread (pure Python, no search) and takes its
  input and answers as JSON text in the ``prefdd score`` / ``prefdd pool
  --json`` forms.
* An advice call beyond ``max_advice_runs`` is refused at once rather than
  queued: a run takes every advice worker thread for seconds to minutes, and a
  client is better told to retry than left waiting behind an unknown queue.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable, Iterator, TypeVar

import grpc

from solver.advice import RunOptions, advise_bid, advise_play, advise_whist, enumerate_splits
from solver.engine import Solver
from solver.scoring import ScoringError, game_from_json, handle_request
from solver.scoring.drawing import game_json

from . import advice_calls, convert, deal_analysis, play_calls
from .advice_calls import BudgetChoice, LayoutLimitExceeded
from .advice_runs import AdviceBusy, AdviceRuns, CallEnded
from .batch_stream import BatchLimitExceeded, BatchStream
from .pool import JobCancelled, PoolClosed, SolverPool
from .proto import pb, pb_grpc

if TYPE_CHECKING:
    from .cluster import Cluster
    from .server import ServerConfig

__all__ = ["AnalysisServicer"]

LONGEST_WAIT = 1.0  # seconds; waits are sliced so a dead call is noticed

T = TypeVar("T")


def _remaining(context: grpc.ServicerContext) -> float:
    remaining = context.time_remaining()
    return float("inf") if remaining is None else remaining


class AnalysisServicer(pb_grpc.AnalysisServicer):
    """The RPCs. Each handler converts, hands the search to the pool (or to an
    advice run) and waits."""

    def __init__(self, pool: SolverPool, config: ServerConfig, advice: AdviceRuns,
                 cluster: Cluster | None = None) -> None:
        self._pool = pool
        self._config = config
        self._advice = advice
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
            if _remaining(context) <= 0:
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
        except PoolClosed:
            context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
        if stream.cancelled:
            if _remaining(context) <= 0:
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded: the batch was stopped")
            context.abort(grpc.StatusCode.CANCELLED, "the call was cancelled: the batch was stopped")

    def Score(self, request: pb.ScoreRequest, context: grpc.ServicerContext) -> pb.ScoreResponse:
        try:
            kind, data = convert.score_request(request)
            if kind == "game":
                result = game_json(game_from_json(data))
            else:
                result = handle_request(data)
        except (ScoringError, ValueError) as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        return pb.ScoreResponse(result_json=json.dumps(result, ensure_ascii=False))

    def AnalyzeDeal(self, request: pb.AnalyzeDealRequest,
                    context: grpc.ServicerContext) -> pb.AnalyzeDealResponse:
        try:
            plan = deal_analysis.deal_request(request)
        except ValueError as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        answer = self._run(context, lambda solver: deal_analysis.analyze(solver, plan))
        return deal_analysis.deal_response(answer)

    # -- advice under hidden cards -----------------------------------------

    def _advise(self, context: grpc.ServicerContext, budget: BudgetChoice, layouts: int,
                work: Callable[[RunOptions], T]) -> T:
        """Run ``work`` in an advice slot; abort the call with the right status
        when a limit is reached, the call ended, or the run failed."""
        try:
            advice_calls.check_layouts(budget, layouts, self._config.max_advice_layouts)
            result = self._advice.run(context, budget, work)
        except (LayoutLimitExceeded, AdviceBusy) as error:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
        except CallEnded:
            _abort_ended(context)
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded before the advice run started")
        except MemoryError:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "the advice run's solver tables could not be allocated")
        except ValueError as error:
            _abort_ended(context)  # a run stopped before any layout says so with an AdviceError
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, convert.short(str(error)))
        _abort_ended(context)
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

def _abort_ended(context: grpc.ServicerContext) -> None:
    """Abort with DEADLINE_EXCEEDED or CANCELLED if the call has ended."""
    if _remaining(context) <= 0:
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded: the advice run was stopped")
    if not context.is_active():
        context.abort(grpc.StatusCode.CANCELLED, "the call was cancelled: the advice run was stopped")
