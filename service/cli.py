"""``prefdd serve``: run the gRPC analysis service.

    prefdd serve [--host 127.0.0.1] [--port 50051] [--workers N]
                 [--tls-cert FILE --tls-key FILE] [--auth-token-file FILE]
                 [--grace 10] [--max-batch-items N] [--max-message-bytes N]
                 [--max-concurrent-rpcs N] [--max-advice-runs N]
                 [--max-advice-layouts N] [--advice-workers N] [--dask ADDRESS] [--log-level info]

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
        from .server import ServerConfig, configure_logging, serve
    except ImportError as error:
        print(f"prefdd serve: error: the gRPC service is not available ({error}); install the "
              "'service' extra: pip install 'preferans-dd[service]'", file=sys.stderr)
        return EXIT_USAGE
    try:
        config = ServerConfig(
            host=args.host, port=args.port, workers=args.workers,
            max_batch_items=args.max_batch_items, max_message_bytes=args.max_message_bytes,
            max_concurrent_rpcs=args.max_concurrent_rpcs, max_advice_runs=args.max_advice_runs,
            max_advice_layouts=args.max_advice_layouts, advice_workers=args.advice_workers,
            tls_cert=_read(args.tls_cert, "TLS certificate") if args.tls_cert else None,
            tls_key=_read(args.tls_key, "TLS key") if args.tls_key else None,
            auth_token=_token(args.auth_token_file) if args.auth_token_file else None,
            dask=args.dask,
            grpc_enabled=args.grpc, http_port=args.http_port, http_timeout=args.http_timeout,
        )
        configure_logging(args.log_level)
        return serve(config, grace=args.grace)
    except (ValueError, OSError, ImportError) as error:   # ImportError: --dask without the dask extra
        print(f"prefdd serve: error: {error}", file=sys.stderr)
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
    serve.add_argument("--workers", type=cli_args.positive_int, default=None,
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
    serve.add_argument("--advice-workers", type=cli_args.positive_int, default=None,
                       help="worker threads of one advice run (default: as many as --workers)")
    serve.add_argument("--dask", metavar="ADDRESS", type=cli_args.dask_address,
                       help="solve batch streams and advice runs on a Dask cluster: its scheduler's host:port, "
                            "or local:N for N local worker processes (needs the dask extra)")
    serve.add_argument("--http-port", type=cli_args.port, default=None,
                       help="also serve the page and the JSON API (/api/v1/) on this port, e.g. 8080")
    serve.add_argument("--no-grpc", dest="grpc", action="store_false",
                       help="serve only HTTP (needs --http-port)")
    serve.add_argument("--http-timeout", type=cli_args.positive_seconds, default=60.0,
                       help="seconds an HTTP call may take at most; its search is stopped then (default 60)")
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                       help="log level (default info)")
    serve.set_defaults(func=run_serve)
