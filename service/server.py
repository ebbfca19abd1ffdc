"""The ``preferans.v1.Analysis`` gRPC server (``prefdd serve``).

* Solving runs on a :class:`~service.pool.SolverPool`: N worker threads, each
  with its own solver context; the C search releases the GIL. The gRPC handler
  threads only convert messages and wait.
* Deadlines and cancellation reach the search: a call that is cancelled or
  whose deadline passes cancels its job, whose worker asks the C search to
  stop (``Solver.request_stop`` → ``SearchStopped``); the worker is then free.
* AnalyzeDeal runs on the pool too (:mod:`service.deal_analysis`). The advice
  calls (AdviseWhist, AdviseBid, Enumerate: :mod:`service.advice_calls`) run
  their own worker threads, one solver each, waited for on the handler
  thread; :class:`~service.advice_runs.AdviceRuns` bounds how many go at once
  and stops a run when its call ends.
* Errors: bad input → ``INVALID_ARGUMENT`` with the notation's message; server
  limits → ``RESOURCE_EXHAUSTED`` naming the limit (``max_batch_items``,
  ``max_advice_runs``, ``max_advice_layouts``, gRPC's own message-size and
  concurrent-call limits); an unexpected error → ``INTERNAL`` (logged with
  its traceback), never ``UNKNOWN``.
* Standard health checking (``grpc.health.v1``) and server reflection.
* Optional TLS and optional bearer-token authentication (``authorization:
  Bearer <token>`` metadata; others get ``UNAUTHENTICATED``).
* One structured (JSON) log line per call: method, status, duration, peer,
  responses streamed. Metadata is never logged, so neither is the token.
* Graceful shutdown (SIGTERM, SIGINT): health turns NOT_SERVING, new calls are
  refused, calls in flight get ``grace`` seconds to finish and are then
  cancelled (their searches stopped).

Choices where the issue is silent:

* The health service is exempt from the token (load balancers and
  orchestrators probe it without secrets); reflection is not.
* The default address is 127.0.0.1 (expose it with ``--host 0.0.0.0``).
* EvaluateBatch messages carry groups of items and of results (see
  :mod:`service.batch_stream`): one gRPC message per item costs about as much
  Python as a quarter of a full-deal solve.
* Text fields are limited (``convert.MAX_TEXT`` characters, ``convert.MAX_PLAYED``
  cards) and error messages cut to ``convert.MAX_MESSAGE_TEXT`` characters, as
  the notation quotes the text it rejects.
* Score runs on the handler thread (pure Python, no search) and takes its
  input and answers as JSON text in the ``prefdd score`` / ``prefdd pool
  --json`` forms.
* A deadline that passes while a call waits or searches answers
  ``DEADLINE_EXCEEDED``; a client's cancel ``CANCELLED``; a call arriving during
  shutdown ``UNAVAILABLE``. An advice run's own time budget (``Budget.seconds``)
  is not an error: it answers the estimate so far.
* An advice call beyond ``max_advice_runs`` is refused at once rather than
  queued: a run takes every advice worker thread for seconds to minutes, and a
  client is better told to retry than left waiting behind an unknown queue.
"""
from __future__ import annotations

import hmac
import json
import logging
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from solver.advice import RunOptions, advise_bid, advise_whist, enumerate_splits
from solver.engine import Solver
from solver.scoring import ScoringError, game_from_json, handle_request
from solver.scoring.drawing import game_json

from . import advice_calls, convert, deal_analysis
from .advice_calls import BudgetChoice, LayoutLimitExceeded
from .advice_runs import AdviceBusy, AdviceRuns, CallEnded
from .batch_stream import BatchLimitExceeded, BatchStream
from .pool import JobCancelled, PoolClosed, SolverPool
from .proto import SERVICE_NAME, pb, pb_grpc

__all__ = ["ServerConfig", "RunningServer", "AnalysisServicer", "start_server", "serve", "LOGGER"]

LOGGER = logging.getLogger("service")
HEALTH_SERVICE = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
UNAUTHENTICATED_METHODS = frozenset({f"/{HEALTH_SERVICE}/Check", f"/{HEALTH_SERVICE}/Watch"})
LONGEST_WAIT = 1.0  # seconds; waits are sliced so a dead call is noticed

T = TypeVar("T")


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``prefdd serve`` can set."""

    host: str = "127.0.0.1"
    port: int = 50051
    """0 picks a free port (see :attr:`RunningServer.port`)."""
    workers: int | None = None
    """Solver worker threads; default: one per CPU."""
    max_batch_items: int = 1_000_000
    """Items one EvaluateBatch stream may carry."""
    batch_window: int | None = None
    """Items of one stream in flight (queued or solving) at a time; default
    16 per worker, at least 64."""
    max_message_bytes: int = 4 << 20
    """Largest request or response message."""
    max_concurrent_rpcs: int = 64
    """Calls served at once; more are refused with RESOURCE_EXHAUSTED."""
    max_advice_runs: int = 2
    """Advice calls (AdviseWhist, AdviseBid, Enumerate) running at once; more
    are refused with RESOURCE_EXHAUSTED."""
    max_advice_layouts: int = 200_000
    """Layouts one advice request may cost (sampled, or every layout of an
    enumeration); a full deal's Enumerate needs 184,756."""
    advice_workers: int | None = None
    """Worker threads of one advice run; default: as many as solver workers."""
    tls_cert: bytes | None = None
    """PEM certificate chain; with ``tls_key``, serve TLS only."""
    tls_key: bytes | None = None
    auth_token: str | None = field(default=None, repr=False)
    """If set, every call but health checks needs ``authorization: Bearer <token>``."""
    solver_setup: Callable[[Solver], None] | None = None
    """Called with each worker's solver before its first job (tests)."""

    def __post_init__(self) -> None:
        for name in ("max_batch_items", "batch_window", "max_message_bytes", "max_concurrent_rpcs",
                     "max_advice_runs", "max_advice_layouts", "advice_workers"):
            value = getattr(self, name)
            if value is None and name in ("batch_window", "advice_workers"):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0..65535, got {self.port}")
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("TLS needs both a certificate and a key")
        if self.auth_token is not None and (not self.auth_token or not self.auth_token.isprintable()
                                            or any(c.isspace() for c in self.auth_token)):
            raise ValueError("the auth token must be non-empty printable text without spaces")


# ---- the service ---------------------------------------------------------------

def _remaining(context: grpc.ServicerContext) -> float:
    remaining = context.time_remaining()
    return float("inf") if remaining is None else remaining


class AnalysisServicer(pb_grpc.AnalysisServicer):
    """The RPCs. Each handler converts, hands the search to the pool (or to an
    advice run) and waits."""

    def __init__(self, pool: SolverPool, config: ServerConfig, advice: AdviceRuns) -> None:
        self._pool = pool
        self._config = config
        self._advice = advice

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
        stream = BatchStream(self._pool, self._config.max_batch_items, window,
                             message_budget=self._config.max_message_bytes // 2)
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


# ---- interceptors --------------------------------------------------------------

def _rebuild(handler: grpc.RpcMethodHandler, unary_unary: Callable[..., Any] | None = None,
             unary_stream: Callable[..., Any] | None = None, stream_unary: Callable[..., Any] | None = None,
             stream_stream: Callable[..., Any] | None = None) -> grpc.RpcMethodHandler:
    """A handler of the same shape and serializers with a new behaviour."""
    codec = {"request_deserializer": handler.request_deserializer,
             "response_serializer": handler.response_serializer}
    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(unary_unary, **codec)
    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(unary_stream, **codec)
    if handler.stream_unary is not None:
        return grpc.stream_unary_rpc_method_handler(stream_unary, **codec)
    return grpc.stream_stream_rpc_method_handler(stream_stream, **codec)


class AuthInterceptor(grpc.ServerInterceptor):
    """Refuses calls without ``authorization: Bearer <token>`` (health checks exempt)."""

    def __init__(self, token: str) -> None:
        self._expected = f"Bearer {token}".encode()

    def _authorized(self, metadata: Any) -> bool:
        for key, value in metadata or ():
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else value
                return hmac.compare_digest(given, self._expected)
        return False

    def intercept_service(self, continuation: Callable[[Any], Any], details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        if handler is None or details.method in UNAUTHENTICATED_METHODS:
            return handler
        if self._authorized(details.invocation_metadata):
            return handler

        def refuse(_request: Any, context: grpc.ServicerContext) -> Any:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong bearer token")

        def refuse_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            refuse(request, context)
            yield  # pragma: no cover - refuse always raises

        return _rebuild(handler, refuse, refuse_stream, refuse, refuse_stream)


class CallLogInterceptor(grpc.ServerInterceptor):
    """One log record per call (``record.fields``: method, status, duration_ms,
    peer, responses), and the last line of defence: an exception a handler did
    not turn into a status becomes ``INTERNAL`` (logged), never ``UNKNOWN``."""

    def intercept_service(self, continuation: Callable[[Any], Any], details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        if handler is None:
            return None
        method = details.method

        def unary(behaviour: Callable[..., Any]) -> Callable[..., Any]:
            def run(request: Any, context: grpc.ServicerContext) -> Any:
                started, peer = time.perf_counter(), context.peer()
                failed = False
                try:
                    return behaviour(request, context)
                except Exception:
                    failed = True
                    _contain(context, method)
                finally:
                    _log_call(method, context, started, peer, failed, responses=None)
            return run

        def streaming(behaviour: Callable[..., Any]) -> Callable[..., Any]:
            def run(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                started, peer = time.perf_counter(), context.peer()
                failed = False
                sent = 0
                try:
                    for response in behaviour(request, context):
                        sent += 1
                        yield response
                except GeneratorExit:
                    failed = True
                    raise
                except Exception:
                    failed = True
                    _contain(context, method)
                finally:
                    _log_call(method, context, started, peer, failed, responses=sent)
            return run

        return _rebuild(
            handler,
            unary_unary=unary(handler.unary_unary) if handler.unary_unary else None,
            unary_stream=streaming(handler.unary_stream) if handler.unary_stream else None,
            stream_unary=unary(handler.stream_unary) if handler.stream_unary else None,
            stream_stream=streaming(handler.stream_stream) if handler.stream_stream else None,
        )


def _contain(context: grpc.ServicerContext, method: str) -> None:
    """Re-raise an abort; turn any other exception into INTERNAL."""
    if context.code() is not None:
        raise  # noqa: PLE0704 - context.abort() raised it: the status is set
    LOGGER.exception("unexpected error in %s", method)
    context.abort(grpc.StatusCode.INTERNAL, "internal error in the analysis server (logged)")


def _log_call(method: str, context: grpc.ServicerContext, started: float, peer: str, failed: bool,
              responses: int | None) -> None:
    code = context.code()
    if code is None:
        status = "CANCELLED" if failed else "OK"
    else:
        status = code.name
    fields: dict[str, Any] = {"event": "rpc", "method": method, "status": status,
                              "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                              "peer": peer}
    if responses is not None:
        fields["responses"] = responses
    level = logging.INFO if status in ("OK", "CANCELLED", "DEADLINE_EXCEEDED", "INVALID_ARGUMENT",
                                       "NOT_FOUND", "UNAUTHENTICATED") else logging.WARNING
    LOGGER.log(level, "%s %s %.1f ms", method, status, fields["duration_ms"], extra={"fields": fields})


class JsonLogFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and the record's ``fields``."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                    + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry.update(fields)
        else:
            entry["message"] = record.getMessage()
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


# ---- running a server ----------------------------------------------------------

def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


@dataclass
class RunningServer:
    """A started server; :meth:`stop` shuts it down gracefully."""

    server: grpc.Server
    pool: SolverPool
    health: health.HealthServicer
    port: int
    config: ServerConfig
    advice: AdviceRuns

    @property
    def address(self) -> str:
        return _address(self.config.host, self.port)

    def stop(self, grace: float | None = 10.0) -> None:
        """Refuse new calls, give calls in flight ``grace`` seconds, then cancel
        them (stopping their searches) and stop the workers."""
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()
        self.advice.cancel_all()
        self.pool.shutdown(cancel_running=True, timeout=10.0)


def start_server(config: ServerConfig) -> RunningServer:
    """Build, bind and start a server; raises OSError if the address is taken."""
    pool = SolverPool(config.workers, config.solver_setup)
    advice = AdviceRuns(config.max_advice_runs, config.advice_workers or pool.workers)
    interceptors: list[grpc.ServerInterceptor] = [CallLogInterceptor()]
    if config.auth_token is not None:
        interceptors.append(AuthInterceptor(config.auth_token))
    server = grpc.server(
        ThreadPoolExecutor(max_workers=config.max_concurrent_rpcs + 4, thread_name_prefix="prefdd-rpc"),
        interceptors=interceptors,
        options=[("grpc.max_receive_message_length", config.max_message_bytes),
                 ("grpc.max_send_message_length", config.max_message_bytes),
                 ("grpc.so_reuseport", 0)],
        maximum_concurrent_rpcs=config.max_concurrent_rpcs,
    )
    pb_grpc.add_AnalysisServicer_to_server(AnalysisServicer(pool, config, advice), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((SERVICE_NAME, HEALTH_SERVICE, reflection.SERVICE_NAME), server)
    address = _address(config.host, config.port)
    try:
        if config.tls_cert is not None:
            assert config.tls_key is not None
            credentials = grpc.ssl_server_credentials([(config.tls_key, config.tls_cert)])
            port = server.add_secure_port(address, credentials)
        else:
            port = server.add_insecure_port(address)
    except RuntimeError as error:
        port, reason = 0, str(error)
    else:
        reason = "the address is in use or not available"
    if port == 0:
        pool.shutdown()
        raise OSError(f"cannot listen on {address}: {reason}")
    server.start()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, pool, health_servicer, port, config, advice)


def configure_logging(level: str = "info") -> None:
    """JSON log lines on standard error."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLogFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def serve(config: ServerConfig, grace: float = 10.0) -> int:
    """Run until SIGTERM or SIGINT, then shut down gracefully; exit status 0."""
    running = start_server(config)
    stopping = threading.Event()

    def on_signal(signum: int, _frame: Any) -> None:
        LOGGER.info("signal %s: shutting down", signal.Signals(signum).name,
                    extra={"fields": {"event": "shutdown", "signal": signal.Signals(signum).name,
                                      "grace_s": grace}})
        stopping.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    LOGGER.info("listening on %s", running.address, extra={"fields": {
        "event": "listening", "address": running.address, "port": running.port,
        "workers": running.pool.workers, "advice_workers": running.advice.workers,
        "max_advice_runs": running.advice.max_runs, "tls": config.tls_cert is not None,
        "auth": config.auth_token is not None}})
    try:
        while not stopping.wait(0.5):
            pass
    finally:
        running.stop(grace)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    LOGGER.info("stopped", extra={"fields": {"event": "stopped"}})
    return 0
