"""``prefdd serve``: run the gRPC analysis service.

    prefdd serve [--host 127.0.0.1] [--port 50051] [--workers N]
                 [--tls-cert FILE --tls-key FILE] [--auth-token-file FILE]
                 [--grace 10] [--max-batch-items N] [--max-message-bytes N]
                 [--max-concurrent-rpcs N] [--max-advice-runs N]
                 [--max-advice-layouts N] [--advice-workers N] [--max-advice-seconds S]
                 [--max-health-watches N] [--max-connections N] [--keepalive S]
                 [--keepalive-timeout S] [--max-connection-idle S] [--max-connection-age S]
                 [--score-workers N] [--max-score-seconds S] [--metrics-port N]
                 [--dask ADDRESS] [--log-level info]

The main ``prefdd`` command line calls :func:`register`. This module imports
only the standard library at import time: grpc and the generated code are
loaded when the command runs, so ``prefdd`` works without the service extra.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from solver import cli_args

__all__ = ["register", "run_serve"]

EXIT_USAGE = 2


def _read(path: str, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read the {what} {path}: {error.strerror}") from None


def _token(path: str) -> str:
    """The token file's text, surrounding whitespace removed (never printed)."""
    try:
        token = _read(path, "auth token file").decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ValueError(f"the auth token file {path} is not UTF-8 text") from None
    if not token:
        raise ValueError(f"the auth token file {path} is empty")
    return token


def run_serve(args: argparse.Namespace) -> int:
    """Start the server from parsed arguments; returns the exit status."""
    if (args.tls_cert is None) != (args.tls_key is None):
        print("prefdd serve: error: --tls-cert and --tls-key go together", file=sys.stderr)
        return EXIT_USAGE
    try:
        from .server import ServerConfig, capture_native_stderr, configure_logging, serve
    except ImportError as error:
        print(f"prefdd serve: error: the gRPC service is not available ({error}); install the "
              "'service' extra: pip install 'preferans-dd[service]'", file=sys.stderr)
        return EXIT_USAGE
    errors: Any = sys.stderr
    try:
        config = ServerConfig(
            host=args.host, port=args.port, workers=args.workers,
            max_batch_items=args.max_batch_items, max_message_bytes=args.max_message_bytes,
            max_concurrent_rpcs=args.max_concurrent_rpcs, max_advice_runs=args.max_advice_runs,
            max_advice_layouts=args.max_advice_layouts, advice_workers=args.advice_workers,
            max_advice_seconds=args.max_advice_seconds, max_health_watches=args.max_health_watches,
            max_connections=args.max_connections, keepalive_seconds=args.keepalive,
            keepalive_timeout_seconds=args.keepalive_timeout, max_connection_idle_seconds=args.max_connection_idle,
            max_connection_age_seconds=args.max_connection_age, score_workers=args.score_workers,
            max_score_seconds=args.max_score_seconds, metrics_port=args.metrics_port,
            tls_cert=_read(args.tls_cert, "TLS certificate") if args.tls_cert else None,
            tls_key=_read(args.tls_key, "TLS key") if args.tls_key else None,
            auth_token=_token(args.auth_token_file) if args.auth_token_file else None,
            grpc_enabled=args.grpc, http_port=args.http_port, http_timeout=args.http_timeout,
            http_processes=args.http_processes,
            dask=args.dask,
        )
        errors = capture_native_stderr()
        configure_logging(args.log_level, errors)
        return serve(config, grace=args.grace)
    except (ValueError, OSError, ImportError) as error:
        print(f"prefdd serve: error: {error}", file=errors)
        return EXIT_USAGE


def register(subparsers: Any) -> None:
    """Add ``serve`` to an argparse subparsers object (it sets ``func``)."""
    serve = subparsers.add_parser(
        "serve", help="run the gRPC analysis service",
        description="Run the preferans.v1.Analysis gRPC service (with health checking and reflection) "
                    "until SIGTERM or SIGINT. Logs one JSON line per call on standard error.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 or :: for all)")
    serve.add_argument("--port", type=cli_args.port, default=50051, help="port (default 50051; 0 = any free port)")
    serve.add_argument("--workers", type=cli_args.workers, default=None,
                       help="solver worker threads (default: one per CPU)")
    serve.add_argument("--tls-cert", metavar="FILE", help="PEM certificate chain: serve TLS (needs --tls-key)")
    serve.add_argument("--tls-key", metavar="FILE", help="PEM private key for --tls-cert")
    serve.add_argument("--auth-token-file", metavar="FILE",
                       help="require 'authorization: Bearer <token>' with the token in FILE "
                            "(health checks exempt)")
    serve.add_argument("--grace", type=cli_args.seconds, default=10.0,
                       help="seconds calls in flight get to finish on SIGTERM (default 10)")
    serve.add_argument("--max-batch-items", type=cli_args.positive_int, default=1_000_000,
                       help="items one EvaluateBatch stream may carry (default 1000000)")
    serve.add_argument("--max-message-bytes", type=cli_args.positive_int, default=4 << 20,
                       help="largest message in bytes (default 4 MiB)")
    serve.add_argument("--max-concurrent-rpcs", type=cli_args.positive_int, default=64,
                       help="calls served at once; more are refused (default 64)")
    serve.add_argument("--max-advice-runs", type=cli_args.positive_int, default=2,
                       help="advice calls (AdviseWhist, AdviseBid, Enumerate) running at once; more are "
                            "refused (default 2)")
    serve.add_argument("--max-advice-layouts", type=cli_args.positive_int, default=200_000,
                       help="layouts one advice request may cost, sampled or enumerated (default 200000)")
    serve.add_argument("--advice-workers", type=cli_args.workers, default=None,
                       help="worker threads of one advice run (default: as many as --workers)")
    serve.add_argument("--max-advice-seconds", type=cli_args.positive_seconds, default=120.0,
                       help="longest an advice run goes on; it then answers its estimate so far (default 120)")
    serve.add_argument("--max-health-watches", type=cli_args.positive_int, default=16,
                       help="health Watch streams open at once, counted apart from other calls (default 16)")
    serve.add_argument("--max-connections", type=cli_args.positive_int, default=256,
                       help="client connections open at once (default 256)")
    serve.add_argument("--keepalive", type=cli_args.positive_seconds, default=30.0,
                       help="seconds between the server's pings of each connection (default 30)")
    serve.add_argument("--keepalive-timeout", type=cli_args.positive_seconds, default=10.0,
                       help="a client that does not answer a ping within this is disconnected and its "
                            "calls cancelled (default 10)")
    serve.add_argument("--max-connection-idle", type=cli_args.positive_seconds, default=600.0,
                       help="close connections without calls for this many seconds (default 600)")
    serve.add_argument("--max-connection-age", type=cli_args.positive_seconds, default=None,
                       help="close connections after this many seconds (default: never)")
    serve.add_argument("--score-workers", type=cli_args.workers, default=2,
                       help="processes that run Score calls (default 2)")
    serve.add_argument("--max-score-seconds", type=cli_args.positive_seconds, default=30.0,
                       help="longest one Score call may compute (default 30)")
    serve.add_argument("--metrics-port", type=cli_args.port, default=None,
                       help="serve Prometheus metrics over HTTP on --host and this port "
                            "(needs prometheus_client; default: none)")
    serve.add_argument("--http-port", type=cli_args.port, default=None,
                       help="also serve the page and the JSON API (/api/v1/) on this port, e.g. 8080")
    serve.add_argument("--no-grpc", dest="grpc", action="store_false",
                       help="serve only HTTP (needs --http-port)")
    serve.add_argument("--http-timeout", type=cli_args.positive_seconds, default=60.0,
                       help="seconds an HTTP call may take at most; its search is stopped then (default 60)")
    serve.add_argument("--http-processes", type=cli_args.positive_int, default=1, metavar="N",
                       help="serve HTTP from N processes of their own, each with its share of --workers and "
                            "of the limits (default 1: this process, on the solver pool gRPC uses); N = the "
                            "number of cores serves the most calls a second")
    serve.add_argument("--dask", metavar="ADDRESS", type=cli_args.dask_address,
                       help="solve batch streams and advice runs on a Dask cluster: its scheduler's host:port, "
                            "or local:N for N local worker processes (needs the dask extra)")
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                       help="log level (default info)")
    serve.set_defaults(func=run_serve)
