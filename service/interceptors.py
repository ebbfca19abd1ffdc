"""The server's interceptors and its log format.

* :class:`AuthInterceptor`: optional bearer-token authentication
  (``authorization: Bearer <token>`` metadata; others get
  ``UNAUTHENTICATED``). The health service is exempt (load balancers and
  orchestrators probe it without secrets); reflection is not.
* :class:`CallLogInterceptor`: one structured log line per call (method,
  status, duration, peer, responses streamed) and the last line of defence:
  an unexpected error becomes ``INTERNAL`` (logged with its traceback), never
  ``UNKNOWN``. Metadata is never logged, so neither is the token.
* :class:`JsonLogFormatter`: one JSON object a line.
"""
from __future__ import annotations

import hmac
import json
import logging
import time
from typing import Any, Callable, Iterator

import grpc
from grpc_health.v1 import health_pb2

__all__ = ["AuthInterceptor", "CallLogInterceptor", "HEALTH_SERVICE", "JsonLogFormatter", "LOGGER",
           "UNAUTHENTICATED_METHODS"]

LOGGER = logging.getLogger("service")
HEALTH_SERVICE = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
UNAUTHENTICATED_METHODS = frozenset({f"/{HEALTH_SERVICE}/Check", f"/{HEALTH_SERVICE}/Watch"})


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
