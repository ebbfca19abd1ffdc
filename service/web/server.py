"""uvicorn serving the page and the JSON API on a thread of ``prefdd serve``.

The gRPC server keeps the main thread's signal handling; uvicorn runs on its
own thread (where it installs no signal handlers) and is stopped by
:meth:`HttpServer.stop`. Keep-alive connections stay open
``keep_alive`` seconds between requests. ``prefdd serve --http-processes N``
serves from N processes instead (:mod:`service.web.processes`).
"""
from __future__ import annotations

import asyncio
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..advice_runs import AdviceRuns
from ..pool import SolverPool
from ..score_workers import ScoreWorkers
from .app import WebConfig, create_app

__all__ = ["HttpServer", "OneWriteProtocol", "listening_socket", "start_http", "uvicorn_config"]


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


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (0: a free port); OSError naming the
    address if it cannot be had."""
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
    return sock


class _OneWrite:
    """A transport whose writes within one turn of the event loop go out as
    one ``send``: uvicorn writes a response's head and its body apart, and
    with ``TCP_NODELAY`` each write is a packet of its own for the client to
    read (measured with ``wrk``: its CPU a call fell from 35-40 to 23-32 µs,
    and the server makes one system call fewer)."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(data)

    def _flush(self) -> None:
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWriteProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (``httptools``) over a :class:`_OneWrite` transport."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(_OneWrite(transport, asyncio.get_running_loop()))  # type: ignore[arg-type]


def uvicorn_config(app: Any, config: WebConfig, keep_alive: float) -> uvicorn.Config:
    """How uvicorn serves the app, in this process or in an HTTP process."""
    return uvicorn.Config(app, http=OneWriteProtocol, log_config=None, access_log=False, lifespan="off",
                          timeout_keep_alive=int(keep_alive), limit_concurrency=config.max_concurrent * 2)


def start_http(pool: SolverPool, advice: AdviceRuns, scoring: ScoreWorkers, host: str, port: int,
               config: WebConfig = WebConfig(), keep_alive: float = 30.0) -> HttpServer:
    """Bind ``host:port`` (0: a free port) and serve on a thread; raises OSError
    if the address cannot be had."""
    sock = listening_socket(host, port)
    bound = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(create_app(pool, advice, scoring, config), config, keep_alive))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="prefdd-http", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    if not server.started:
        server.should_exit = True
        raise OSError(f"the HTTP server on {host}:{bound} did not start")
    return HttpServer(server, thread, host, bound)
