"""The gRPC server (``prefdd serve``): its configuration, start and shutdown.

* Solving runs on a :class:`~service.pool.SolverPool`: N worker threads, each
  with its own solver context; the C search releases the GIL. The gRPC handler
  threads only convert messages and wait (:mod:`service.servicer`).
* Deadlines and cancellation reach the search: a call that is cancelled or
  whose deadline passes cancels its job, whose worker asks the C search to
  stop (``Solver.request_stop`` → ``SearchStopped``); the worker is then free.
* The advice calls (AdviseWhist, AdviseBid, Enumerate:
  :mod:`service.advice_calls`; AdvisePlay: :mod:`service.play_calls`) run their own worker threads, one solver each;
  :class:`~service.advice_runs.AdviceRuns` bounds how many go at once and
  stops a run when its call ends.
* Limits answer ``RESOURCE_EXHAUSTED`` naming the limit (see
  :class:`ServerConfig`, and gRPC's own message-size and concurrent-call
  limits).
* Standard health checking (``grpc.health.v1``) and server reflection.
* Optional TLS and optional bearer-token authentication, and one JSON log
  line per call (:mod:`service.interceptors`).
* Optionally a Dask cluster (``dask``) for batch streams and advice runs
  (:mod:`service.cluster`).
* Graceful shutdown (SIGTERM, SIGINT): health turns NOT_SERVING, new calls are
  refused, calls in flight get ``grace`` seconds to finish and are then
  cancelled (their searches stopped).

Choices where the issue is silent:

* The default address is 127.0.0.1 (expose it with ``--host 0.0.0.0``).
* EvaluateBatch messages carry groups of items and of results (see
  :mod:`service.batch_stream`): one gRPC message per item costs about as much
  Python as a quarter of a full-deal solve.
* Text fields are limited (``convert.MAX_TEXT`` characters, ``convert.MAX_PLAYED``
  cards) and error messages cut to ``convert.MAX_MESSAGE_TEXT`` characters, as
  the notation quotes the text it rejects.
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from typing import IO, TYPE_CHECKING, Any, Callable

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from solver.engine import Solver

from .advice_runs import AdviceRuns
from .cluster import Cluster
from .interceptors import HEALTH_SERVICE, LOGGER, AuthInterceptor, CallLimits, CallLogInterceptor, JsonLogFormatter
from .pool import SolverPool
from .score_workers import ScoreWorkers
from .proto import SERVICE_NAME, pb_grpc
from .servicer import AnalysisServicer

if TYPE_CHECKING:
    from .metrics import Metrics

__all__ = ["AnalysisServicer", "JsonLogFormatter", "LOGGER", "RunningServer", "ServerConfig", "capture_native_stderr",
           "configure_logging", "serve", "start_server"]


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
    """Calls served at once (health checks not counted); more are refused
    with RESOURCE_EXHAUSTED."""
    max_health_watches: int = 16
    """Health ``Watch`` streams open at once, counted apart from
    ``max_concurrent_rpcs`` (they need no token); more are refused."""
    max_connections: int = 256
    """Client connections open at once; more are closed by gRPC at once."""
    keepalive_seconds: float = 30.0
    """The server pings each connection this often; a client that does not
    answer within ``keepalive_timeout_seconds`` (a frozen or vanished client)
    is disconnected and its calls are cancelled, their work stopped."""
    keepalive_timeout_seconds: float = 10.0
    max_connection_idle_seconds: float = 600.0
    """A connection without calls for this long is closed."""
    max_connection_age_seconds: float | None = None
    """If set, connections are closed after this long (calls in flight get
    ``grace`` more seconds), so that clients spread over restarted servers."""
    max_advice_runs: int = 2
    """Advice calls (AdviseWhist, AdviseBid, Enumerate, AdvisePlay) running at once; more
    are refused with RESOURCE_EXHAUSTED."""
    max_advice_layouts: int = 200_000
    """Layouts one advice request may cost (sampled, or every layout of an
    enumeration); a full deal's Enumerate needs 184,756."""
    advice_workers: int | None = None
    """Worker threads of one advice run; default: as many as solver workers."""
    max_advice_seconds: float = 120.0
    """The longest an advice run goes on (its estimate so far is answered,
    marked stopped), whatever its budget and deadline."""
    score_workers: int = 2
    """Processes that run Score calls (see :mod:`service.score_workers`)."""
    max_score_seconds: float = 30.0
    """The longest one Score call may compute; beyond: RESOURCE_EXHAUSTED."""
    metrics_port: int | None = None
    """If set, Prometheus metrics are served over HTTP on ``host`` and this
    port (0 picks a free one; see :attr:`RunningServer.metrics_port`)."""
    tls_cert: bytes | None = field(default=None, repr=False)
    """PEM certificate chain; with ``tls_key``, serve TLS only."""
    tls_key: bytes | None = field(default=None, repr=False)
    auth_token: str | None = field(default=None, repr=False)
    """If set, every call but health checks needs ``authorization: Bearer <token>``."""
    dask: str | None = None
    """A Dask scheduler's address (or ``local:N``): batch streams and advice
    runs are solved on that cluster (:mod:`service.cluster`)."""
    solver_setup: Callable[[Solver], None] | None = field(default=None, repr=False)
    """Called with each worker's solver before its first job (tests)."""
    grpc_enabled: bool = True
    """Serve gRPC on ``port`` (``--no-grpc`` serves HTTP alone)."""
    http_port: int | None = None
    """If set, serve the page and the JSON API on this port too (0: a free
    port), with the same solvers and limits (:mod:`service.web`)."""
    http_timeout: float = 60.0
    """Seconds an HTTP call may take at most (its search is stopped then)."""
    http_processes: int = 1
    """1: HTTP is served by this process, on the solver pool gRPC uses. N > 1:
    by N processes of their own, the limits divided among them
    (:mod:`service.web.processes`)."""

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
        return (f"ServerConfig({shown}, tls={self.tls_cert is not None}, "
                f"auth={self.auth_token is not None})")

    def __post_init__(self) -> None:
        for name in ("max_batch_items", "batch_window", "max_message_bytes", "max_concurrent_rpcs",
                     "max_health_watches", "max_connections", "max_advice_runs", "max_advice_layouts",
                     "advice_workers", "score_workers", "http_processes"):
            value = getattr(self, name)
            if value is None and name in ("batch_window", "advice_workers"):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        for name in ("keepalive_seconds", "keepalive_timeout_seconds", "max_connection_idle_seconds",
                     "max_connection_age_seconds", "max_advice_seconds", "max_score_seconds"):
            value = getattr(self, name)
            if value is None and name == "max_connection_age_seconds":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1e7:
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        for name in ("port", "metrics_port", "http_port"):
            value = getattr(self, name)
            if value is None and name != "port":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 65535:
                raise ValueError(f"{name} must be 0..65535, got {value!r}")
        if not self.grpc_enabled and self.http_port is None:
            raise ValueError("with gRPC off, give an HTTP port: there is nothing to serve")
        if self.http_processes > 1 and self.http_port is None:
            raise ValueError("HTTP processes need an HTTP port")
        if self.http_processes > 1 and self.dask is not None:
            raise ValueError("HTTP processes solve on their own threads: they cannot be combined with a Dask cluster")
        if not (self.http_timeout > 0):
            raise ValueError(f"http_timeout must be a positive number of seconds, got {self.http_timeout}")
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("TLS needs both a certificate and a key")
        if self.auth_token is not None and (not self.auth_token or not self.auth_token.isprintable()
                                            or any(c.isspace() for c in self.auth_token)):
            raise ValueError("the auth token must be non-empty printable text without spaces")


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


HEALTH_CHECK_SLOTS = 8
"""gRPC's own call limit leaves this many calls for health checks beyond
the counted calls and Watch streams (:class:`~service.interceptors.CallLimits`)."""


@dataclass
class RunningServer:
    """A started server; :meth:`stop` shuts it down gracefully."""

    server: grpc.Server | None
    """None when gRPC is off."""
    pool: SolverPool
    health: health.HealthServicer
    port: int
    config: ServerConfig
    advice: AdviceRuns
    scoring: ScoreWorkers
    limits: CallLimits
    metrics: Metrics | None = None
    metrics_port: int | None = None
    """The port of the Prometheus endpoint, if one is served."""
    http: Any = None
    """The HTTP server (:class:`service.web.server.HttpServer`), when one runs."""
    cluster: Cluster | None = None
    """The Dask cluster's connection, with ``--dask``."""

    @property
    def address(self) -> str:
        return _address(self.config.host, self.port)

    def stop(self, grace: float | None = 10.0) -> None:
        """Refuse new calls, give calls in flight ``grace`` seconds, then cancel
        them (stopping their searches) and stop the workers."""
        self.health.enter_graceful_shutdown()
        if self.server is not None:
            self.server.stop(grace).wait()
        if self.http is not None:
            self.http.stop(grace or 0.0)
        self.advice.cancel_all()
        self.scoring.close()
        self.pool.shutdown(cancel_running=True, timeout=10.0)
        if self.metrics is not None:
            self.metrics.stop()
        if self.cluster is not None:
            self.cluster.close()


def _options(config: ServerConfig) -> list[tuple[str, int]]:
    """gRPC channel arguments: message sizes, keepalive and connection limits."""
    milliseconds = lambda seconds: int(seconds * 1000)  # noqa: E731
    options = [("grpc.max_receive_message_length", config.max_message_bytes),
               ("grpc.max_send_message_length", config.max_message_bytes),
               ("grpc.so_reuseport", 0),
               ("grpc.keepalive_time_ms", milliseconds(config.keepalive_seconds)),
               ("grpc.keepalive_timeout_ms", milliseconds(config.keepalive_timeout_seconds)),
               # gRPC's C core waits this long for any ping's answer (a minute unless set);
               # measured: with only the keepalive timeout a SIGSTOPped client held its call
               # for good in 1 run of 2.
               ("grpc.http2.ping_timeout_ms", milliseconds(config.keepalive_timeout_seconds)),
               ("grpc.keepalive_permit_without_calls", 1),
               # Keep pinging a stream whose client stopped reading (no data frames flow),
               # and let the keepalive ping go out beside an unanswered flow-control (BDP)
               # ping ("too many recent pings" otherwise held it back).
               ("grpc.http2.max_pings_without_data", 0),
               ("grpc.http2.max_inflight_pings", 2),
               ("grpc.max_connection_idle_ms", milliseconds(config.max_connection_idle_seconds)),
               ("grpc.max_allowed_incoming_connections", config.max_connections)]
    if config.max_connection_age_seconds is not None:
        options += [("grpc.max_connection_age_ms", milliseconds(config.max_connection_age_seconds)),
                    ("grpc.max_connection_age_grace_ms", milliseconds(config.max_advice_seconds))]
    return options


def _metrics(pool: SolverPool, advice: AdviceRuns, scoring: ScoreWorkers) -> Metrics:
    from .metrics import Metrics

    return Metrics({
        "prefdd_pool_queued_jobs": ("Solver jobs waiting for a worker.", lambda: pool.stats().queued),
        "prefdd_pool_busy_workers": ("Solver workers running a job.", lambda: pool.stats().busy_workers),
        "prefdd_pool_workers": ("Solver worker threads.", lambda: pool.workers),
        "prefdd_advice_runs_active": ("Advice runs going on.", lambda: advice.active),
        "prefdd_score_workers_busy": ("Scoring processes at work.", lambda: scoring.busy),
    })


def start_server(config: ServerConfig) -> RunningServer:
    """Build, bind and start a server; raises OSError if the address is taken."""
    cluster = Cluster(config.dask) if config.dask else None
    pool = SolverPool(config.workers, config.solver_setup)
    advice = AdviceRuns(config.max_advice_runs, config.advice_workers or pool.workers, config.max_advice_seconds,
                        cluster.executor if cluster else None)
    scoring = ScoreWorkers(config.score_workers, config.max_score_seconds)
    limits = CallLimits(config.max_concurrent_rpcs, config.max_health_watches)
    try:
        metrics = _metrics(pool, advice, scoring) if config.metrics_port is not None else None
        running = _start_grpc(config, pool, advice, scoring, limits, metrics, cluster) if config.grpc_enabled \
            else RunningServer(None, pool, health.HealthServicer(), 0, config, advice, scoring, limits, metrics)
    except (ImportError, OSError):
        pool.shutdown()
        if cluster is not None:
            cluster.close()
        raise
    running.cluster = cluster
    try:
        if metrics is not None:
            running.metrics_port = metrics.serve(config.host, config.metrics_port or 0)
        if config.http_port is not None:
            from .web.app import WebConfig
            from .web.server import start_http
            web = WebConfig(timeout=config.http_timeout, max_body_bytes=config.max_message_bytes,
                            max_concurrent=config.max_concurrent_rpcs, max_advice_layouts=config.max_advice_layouts,
                            auth_token=config.auth_token)
            if config.http_processes == 1:
                running.http = start_http(pool, advice, scoring, config.host, config.http_port, web)
            else:
                from .web.processes import ProcessSettings, start_http_processes
                settings = ProcessSettings(
                    web, pool.workers, config.max_advice_runs, config.advice_workers or 0, config.max_advice_seconds,
                    config.score_workers, config.max_score_seconds, keep_alive=30.0,
                    log_level=logging.getLevelName(logging.getLogger().getEffectiveLevel()).lower(),
                    solver_setup=config.solver_setup)
                running.http = start_http_processes(config.host, config.http_port, config.http_processes, settings)
    except OSError:
        running.stop(grace=0)
        raise
    return running


def _start_grpc(config: ServerConfig, pool: SolverPool, advice: AdviceRuns, scoring: ScoreWorkers,
                limits: CallLimits, metrics: Metrics | None, cluster: Cluster | None = None) -> RunningServer:
    interceptors: list[grpc.ServerInterceptor] = [CallLogInterceptor(metrics)]
    if config.auth_token is not None:
        interceptors.append(AuthInterceptor(config.auth_token))
    interceptors.append(limits)
    calls = config.max_concurrent_rpcs + config.max_health_watches + HEALTH_CHECK_SLOTS
    server = grpc.server(
        ThreadPoolExecutor(max_workers=calls + 4, thread_name_prefix="prefdd-rpc"),
        interceptors=interceptors, options=_options(config), maximum_concurrent_rpcs=calls)
    pb_grpc.add_AnalysisServicer_to_server(AnalysisServicer(pool, config, advice, scoring, cluster), server)
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
        raise OSError(f"cannot listen on {address}: {reason}")
    server.start()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, pool, health_servicer, port, config, advice, scoring, limits, metrics)


def configure_logging(level: str = "info", stream: IO[str] | None = None) -> None:
    """JSON log lines on ``stream`` (standard error)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLogFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def capture_native_stderr() -> IO[str]:
    """Route what is written to file descriptor 2 (gRPC's C core and absl
    write their own messages there, and Python's last-resort tracebacks go
    there too) into JSON log records of the ``grpc.native`` logger; answers
    the stream the log itself should be written to (the real standard error)."""
    real = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)
    sys.stderr = os.fdopen(2, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
    native = logging.getLogger("grpc.native")

    def forward() -> None:
        with os.fdopen(read_end, "r", encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if line.strip():
                    native.warning("%s", line.rstrip("\n"))

    threading.Thread(target=forward, name="prefdd-stderr", daemon=True).start()
    return real


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
        "metrics_port": running.metrics_port, "config": repr(config),
        "workers": running.pool.workers, "advice_workers": running.advice.workers,
        "max_advice_runs": running.advice.max_runs, "tls": config.tls_cert is not None,
        "auth": config.auth_token is not None, "grpc": config.grpc_enabled,
        "http": running.http.url if running.http is not None else None, "http_processes": config.http_processes,
        "dask": config.dask}})
    try:
        while not stopping.wait(0.5):
            pass
    finally:
        running.stop(grace)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    LOGGER.info("stopped", extra={"fields": {"event": "stopped"}})
    return 0
