"""The server's interceptors and its log format.

The server runs them in this order, outermost first:

* :class:`CallLogInterceptor`: one structured log line per call (method,
  final status, error message, request id, deadline, duration, peer,
  responses streamed, and what the handler noted with :func:`note`, such as
  the items of a batch), the call metrics, and the last line of defence: an
  unexpected error becomes ``INTERNAL`` (logged with its traceback), never
  ``UNKNOWN``. Metadata is never logged, so neither is the token. It also
  gives every handler a request deserializer that never raises: a message
  that does not decode answers ``INVALID_ARGUMENT``.
* :class:`AuthInterceptor`: optional bearer-token authentication
  (``authorization: Bearer <token>`` metadata; others get
  ``UNAUTHENTICATED``), checked before the request is read: a refused call's
  message is never decoded. The health service is exempt (load balancers and
  orchestrators probe it without secrets); reflection is not.
* :class:`CallLimits`: at most ``max_calls`` calls at once besides health
  checks, and at most ``max_watches`` health ``Watch`` streams, each counted
  apart, so open Watch streams (which need no token) cannot take the slots
  that other calls need. Beyond either: ``RESOURCE_EXHAUSTED`` naming it.
* :class:`JsonLogFormatter`: one JSON object a line.
"""
from __future__ import annotations

import contextvars
import hmac
import json
import logging
import re
import threading
import time
import uuid
from typing import Any, Callable, Iterator, Protocol

import grpc
from grpc_health.v1 import health_pb2

from .errors import UndecodableMessage

__all__ = ["AuthInterceptor", "CallLimits", "CallLogInterceptor", "CallMetrics", "HEALTH_SERVICE", "deadline_passed",
           "JsonLogFormatter", "LOGGER", "UNAUTHENTICATED_METHODS", "note"]

LOGGER = logging.getLogger("service")
HEALTH_SERVICE = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
HEALTH_CHECK = f"/{HEALTH_SERVICE}/Check"
HEALTH_WATCH = f"/{HEALTH_SERVICE}/Watch"
UNAUTHENTICATED_METHODS = frozenset({HEALTH_CHECK, HEALTH_WATCH})
REQUEST_ID_KEY = "x-request-id"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
"""A client's own request id is used when it looks like one; else one is made."""

_CALL_FIELDS: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("prefdd_call", default=None)


def note(**fields: Any) -> None:
    """Add fields (``items=...``) to the log line of the call being handled."""
    current = _CALL_FIELDS.get()
    if current is not None:
        current.update(fields)


class CallMetrics(Protocol):
    """What the call log reports to (see :mod:`service.metrics`)."""

    def call_started(self, method: str) -> None: ...

    def call_finished(self, method: str, status: str, seconds: float) -> None: ...


# ---- handlers with a new behaviour or codec --------------------------------------

def _rebuild(handler: grpc.RpcMethodHandler, wrap: Callable[[Callable[..., Any], bool], Callable[..., Any]],
             request_deserializer: Callable[[bytes], Any] | None = None) -> grpc.RpcMethodHandler:
    """A handler of the same shape whose behaviour is ``wrap(behaviour,
    streams_responses)``, with its own request deserializer if given."""
    codec = {"request_deserializer": request_deserializer or handler.request_deserializer,
             "response_serializer": handler.response_serializer}
    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(wrap(handler.unary_unary, False), **codec)
    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(wrap(handler.unary_stream, True), **codec)
    if handler.stream_unary is not None:
        return grpc.stream_unary_rpc_method_handler(wrap(handler.stream_unary, False), **codec)
    return grpc.stream_stream_rpc_method_handler(wrap(handler.stream_stream, True), **codec)


class _Undecodable:
    """What the safe deserializer answers for bytes that do not decode."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _safe(deserialize: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """A deserializer that answers :class:`_Undecodable` instead of raising:
    gRPC's own handling of a raising deserializer answers INTERNAL, and on a
    request stream it can leave the call unfinished so that shutdown waits
    for it forever."""
    if deserialize is None:
        return None

    def run(data: bytes) -> Any:
        try:
            return deserialize(data)
        except Exception as error:  # noqa: BLE001 - any failure to decode is the client's
            return _Undecodable(str(error)[:300] or type(error).__name__)
    return run


def _undecodable_message(reason: str) -> str:
    return f"the request message does not decode: {reason}"


def _checked(requests: Iterator[Any]) -> Iterator[Any]:
    """A request stream that raises :class:`UndecodableMessage` at a message that did not decode."""
    for message in requests:
        if isinstance(message, _Undecodable):
            raise UndecodableMessage(_undecodable_message(message.reason))
        yield message


def _refusing(code: grpc.StatusCode, message: str) -> Callable[[Callable[..., Any], bool], Callable[..., Any]]:
    """A ``wrap`` for :func:`_rebuild` whose behaviour only aborts."""
    def wrap(_behaviour: Callable[..., Any], streams: bool) -> Callable[..., Any]:
        def refuse(_request: Any, context: grpc.ServicerContext) -> Any:
            context.abort(code, message)

        def refuse_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            refuse(request, context)
            yield  # pragma: no cover - refuse always raises
        return refuse_stream if streams else refuse
    return wrap


_NOT_READ = object()


def _ignore(_data: bytes) -> object:
    """The deserializer of a refused call: its bytes are never decoded (and
    not None, which gRPC takes for a failure to decode)."""
    return _NOT_READ


# ---- authentication ----------------------------------------------------------------

class AuthInterceptor(grpc.ServerInterceptor):
    """Refuses calls without ``authorization: Bearer <token>`` (health checks
    exempt) before their request is read."""

    def __init__(self, token: str) -> None:
        self._expected = f"Bearer {token}".encode()

    def _authorized(self, metadata: Any) -> bool:
        for key, value in metadata or ():
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else value
                return hmac.compare_digest(given, self._expected)
        return False

    def intercept_service(self, continuation: Callable[[Any], Any], details: grpc.HandlerCallDetails) -> Any:
        if details.method in UNAUTHENTICATED_METHODS or self._authorized(details.invocation_metadata):
            return continuation(details)
        handler = continuation(details)
        if handler is None:
            return None
        return _rebuild(handler, _refusing(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong bearer token"),
                        request_deserializer=_ignore)


# ---- call limits -------------------------------------------------------------------

class _Slots:
    """A count of calls going on, refused beyond ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.taken = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.taken >= self.limit:
                return False
            self.taken += 1
            return True

    def give(self) -> None:
        with self._lock:
            self.taken -= 1


class CallLimits(grpc.ServerInterceptor):
    """At most ``max_calls`` calls at once (health checks not counted) and
    ``max_watches`` health Watch streams, counted apart."""

    def __init__(self, max_calls: int, max_watches: int) -> None:
        self.calls = _Slots(max_calls)
        self.watches = _Slots(max_watches)

    def intercept_service(self, continuation: Callable[[Any], Any], details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        if handler is None or details.method == HEALTH_CHECK:
            return handler
        if details.method == HEALTH_WATCH:
            slots, name = self.watches, "max_health_watches"
        else:
            slots, name = self.calls, "max_concurrent_rpcs"
        refusal = (f"the server serves at most {name}={slots.limit} such calls at once and all are busy; "
                   "try again later")

        def wrap(behaviour: Callable[..., Any], streams: bool) -> Callable[..., Any]:
            def enter(context: grpc.ServicerContext) -> Callable[[], None]:
                if not slots.take():
                    context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refusal)
                once = threading.Lock()

                def leave() -> None:  # at the call's end, whichever comes first
                    if once.acquire(blocking=False):
                        slots.give()
                if not context.add_callback(leave):
                    leave()
                return leave

            def run(request: Any, context: grpc.ServicerContext) -> Any:
                leave = enter(context)
                try:
                    return behaviour(request, context)
                finally:
                    leave()

            def run_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                leave = enter(context)
                try:
                    yield from behaviour(request, context)
                finally:
                    leave()
            return run_stream if streams else run
        return _rebuild(handler, wrap)


# ---- the call log ------------------------------------------------------------------

def _request_id(metadata: Any) -> str:
    for key, value in metadata or ():
        if key == REQUEST_ID_KEY and isinstance(value, str) and _REQUEST_ID.match(value):
            return value
    return uuid.uuid4().hex


class CallLogInterceptor(grpc.ServerInterceptor):
    """One log record per call (``record.fields``), the call metrics, safe
    request decoding, and unexpected errors turned into ``INTERNAL``."""

    def __init__(self, metrics: CallMetrics | None = None) -> None:
        self._metrics = metrics

    def intercept_service(self, continuation: Callable[[Any], Any], details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        if handler is None:
            return None
        method = details.method
        request_id = _request_id(details.invocation_metadata)
        streams_requests = handler.stream_unary is not None or handler.stream_stream is not None
        metrics = self._metrics

        def begin(context: grpc.ServicerContext) -> tuple[dict[str, Any], Any]:
            remaining = context.time_remaining()
            fields: dict[str, Any] = {"event": "rpc", "method": method, "request_id": request_id,
                                      "peer": context.peer(),
                                      "deadline_s": None if remaining is None else round(remaining, 3)}
            if metrics is not None:
                metrics.call_started(method)
            context.set_trailing_metadata(((REQUEST_ID_KEY, request_id),))
            return fields, _CALL_FIELDS.set(fields)

        def decoded(request: Any, context: grpc.ServicerContext) -> Any:
            if streams_requests:
                return _checked(request)
            if isinstance(request, _Undecodable):
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, _undecodable_message(request.reason))
            return request

        def wrap(behaviour: Callable[..., Any], streams: bool) -> Callable[..., Any]:
            def run(request: Any, context: grpc.ServicerContext) -> Any:
                started, failed = time.perf_counter(), False
                fields, token = begin(context)
                try:
                    return behaviour(decoded(request, context), context)
                except Exception:
                    failed = True
                    _contain(context, method)
                finally:
                    _finish(context, started, failed, fields, token, metrics, responses=None)

            def run_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                started, failed, sent = time.perf_counter(), False, 0
                fields, token = begin(context)
                try:
                    for response in behaviour(decoded(request, context), context):
                        sent += 1
                        yield response
                except GeneratorExit:
                    failed = True
                    raise
                except Exception:
                    failed = True
                    _contain(context, method)
                finally:
                    _finish(context, started, failed, fields, token, metrics, responses=sent)
            return run_stream if streams else run
        return _rebuild(handler, wrap, request_deserializer=_safe(handler.request_deserializer))


def _contain(context: grpc.ServicerContext, method: str) -> None:
    """Re-raise an abort; turn any other exception into INTERNAL."""
    if context.code() is not None:
        raise  # noqa: PLE0704 - context.abort() raised it: the status is set
    LOGGER.exception("unexpected error in %s", method)
    context.abort(grpc.StatusCode.INTERNAL, "internal error in the analysis server (logged)")


DEADLINE_SLACK = 0.1
"""Seconds: a call that ends this close to its deadline ended by it. The
client's clock starts first, so it gives up a little before the server's
copy of the deadline passes, and the server sees a cancel."""


def deadline_passed(context: grpc.ServicerContext) -> bool:
    """True if the call's deadline has passed (within DEADLINE_SLACK)."""
    remaining = context.time_remaining()
    return remaining is not None and remaining <= DEADLINE_SLACK


def final_status(context: grpc.ServicerContext, failed: bool) -> str:
    """The status the client sees: the code set, else OK, or for a call that
    ended early DEADLINE_EXCEEDED when its deadline passed and CANCELLED otherwise."""
    code = context.code()
    if code is not None:
        return code.name
    if not failed:
        return "OK"
    return "DEADLINE_EXCEEDED" if deadline_passed(context) else "CANCELLED"


_ENDED_BY_CLIENT = {"DEADLINE_EXCEEDED": "the call's deadline passed", "CANCELLED": "the client cancelled the call"}
_QUIET = frozenset({"OK", "CANCELLED", "DEADLINE_EXCEEDED", "INVALID_ARGUMENT", "NOT_FOUND", "UNAUTHENTICATED"})


def _finish(context: grpc.ServicerContext, started: float, failed: bool, fields: dict[str, Any], token: Any,
            metrics: CallMetrics | None, responses: int | None) -> None:
    seconds = time.perf_counter() - started
    status = final_status(context, failed)
    try:
        _CALL_FIELDS.reset(token)
    except ValueError:  # a stream closed from another context (garbage collection)
        pass
    method = fields["method"]
    if metrics is not None:
        metrics.call_finished(method, status, seconds)
    fields["status"] = status
    fields["duration_ms"] = round(seconds * 1000, 3)
    details = context.details() if hasattr(context, "details") else None
    if status != "OK" and details:
        fields["message"] = details.decode("utf-8", "replace") if isinstance(details, bytes) else str(details)
    elif status in _ENDED_BY_CLIENT:
        fields["message"] = _ENDED_BY_CLIENT[status]
    if responses is not None:
        fields["responses"] = responses
    level = logging.INFO if status in _QUIET else logging.WARNING
    LOGGER.log(level, "%s %s %.1f ms", method, status, fields["duration_ms"], extra={"fields": fields})


_ENCODER = json.JSONEncoder(ensure_ascii=False, default=str)
"""One encoder for every log line (``json.dumps`` with options builds one a call)."""


class JsonLogFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and the record's ``fields``."""

    _second = -1
    _second_text = ""

    def format(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        if second != self._second:  # strftime once a second: a busy server logs thousands of lines a second
            self._second_text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
            self._second = second
        entry: dict[str, Any] = {
            "time": f"{self._second_text}.{int(record.msecs):03d}Z",
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
        return _ENCODER.encode(entry)
