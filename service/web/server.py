"""uvicorn serving the page and the JSON API on a thread of ``prefdd serve``.

The gRPC server keeps the main thread's signal handling; uvicorn runs on its
own thread (where it installs no signal handlers) and is stopped by
:meth:`HttpServer.stop`. Keep-alive connections stay open
``keep_alive`` seconds between requests.
"""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass

import uvicorn

from ..advice_runs import AdviceRuns
from ..pool import SolverPool
from ..score_workers import ScoreWorkers
from .app import WebConfig, create_app

__all__ = ["HttpServer", "start_http"]


@dataclass
class HttpServer:
    server: uvicorn.Server
    thread: threading.Thread
    host: str
    port: int

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)


def start_http(pool: SolverPool, advice: AdviceRuns, scoring: ScoreWorkers, host: str, port: int,
               config: WebConfig = WebConfig(), keep_alive: float = 30.0) -> HttpServer:
    """Bind ``host:port`` (0: a free port) and serve on a thread; raises OSError
    if the address cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: the response goes out without waiting
    # for the client's delayed ACK (measured: 45 ms a keep-alive call without).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port} (HTTP): {error.strerror}") from None
    sock.listen(128)
    bound = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(pool, advice, scoring, config), log_config=None, access_log=False,
                                           lifespan="off", timeout_keep_alive=int(keep_alive),
                                           limit_concurrency=config.max_concurrent * 2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="prefdd-http", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    if not server.started:
        server.should_exit = True
        raise OSError(f"the HTTP server on {host}:{bound} did not start")
    return HttpServer(server, thread, host, bound)
