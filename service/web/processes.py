"""``prefdd serve --http-processes N``: the JSON API served by N processes.

One event-loop thread serves all of a process's HTTP calls and holds the GIL
for its share of each (HTTP parsing, routing, JSON, the log line, the hand-off
to a solver thread), so a single process does not scale with its solver
threads the way ``prefdd batch`` does. With N processes each has its own
interpreter, event loop, :class:`~service.pool.SolverPool`, advice slots and
scoring processes, and the calls of a busy server run on every core.

How the processes share the port: the main process (``prefdd serve``, which
also serves gRPC when it is on) listens, accepts each connection on a thread
and hands it over a UNIX socket (``SCM_RIGHTS``) to the next HTTP process in
turn. The kernel's own sharing does not spread a few keep-alive connections:
with one listening socket accepted by every process, 4 connections opened at
once landed all on one process in 10 of 12 tries (measured); ``SO_REUSEPORT``
spreads them by a hash of their addresses, at random. Round-robin hand-off
puts 2 and 2 on 2 processes every time.

Each HTTP process (``python -m service.web.processes``) reads its settings as
one JSON line on its standard input, logs its JSON lines to the main
process's log stream, says ``ready`` on its standard output, and serves until
the main process says stop (with the grace its calls in flight get), its
hand-over socket closes (the main process died: 10 s of grace) or it gets
SIGTERM (the same). A process still running after its grace is killed.

Limits: each process serves at most ``max_concurrent // N`` calls at once
and ``max_advice_runs // N`` advice runs (at least 1 each; an advice run has
``advice_workers`` threads as in one process), and has ``workers // N``
solver threads and ``score_workers // N`` scoring processes (at least 1 each;
the scoring ones start on first use), so the bounds over the machine stay
what the options say, or under. A client over the limit of the process that
serves its connection gets the same 429 as from one process. The token, the
deadlines, the body and layout limits are the same in every process. The
main process's metrics gauges describe its own pool (the gRPC side).
"""
from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import math
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from typing import IO, Any, Callable, Iterator

import uvicorn

from .app import WebConfig

__all__ = ["HttpProcesses", "ProcessSettings", "start_http_processes"]

LOGGER = logging.getLogger("service")
_START_SECONDS = 60.0
"""How long the main process waits for every HTTP process to say ready."""
_DEFAULT_GRACE = 10.0
"""Seconds of grace of an HTTP process whose main process died, or that got SIGTERM."""
_CONNECTION = b"c"
_STOP = b"stop "


@dataclass(frozen=True)
class ProcessSettings:
    """What one HTTP process is started with (sent as JSON on its standard input)."""

    web: WebConfig
    workers: int
    max_advice_runs: int
    advice_workers: int
    """Threads of one advice run; 0: as many as ``workers`` (the runs, not their threads, are divided)."""
    max_advice_seconds: float
    score_workers: int
    max_score_seconds: float
    keep_alive: float
    log_level: str
    loop_solve: bool = True
    """``solve`` on the event loop's thread (:class:`~service.web.app.LoopSearches`), not on the pool."""
    solver_setup: Callable[[Any], None] | None = None
    """Must pickle (a module-level function or a ``functools.partial`` of one)."""

    def shared(self, processes: int) -> ProcessSettings:
        """The settings of one of ``processes``: the counted limits divided among them."""
        share = lambda total: max(1, total // processes)  # noqa: E731
        web = WebConfig(self.web.timeout, self.web.max_body_bytes, share(self.web.max_concurrent),
                        self.web.max_advice_layouts, self.web.auth_token)
        workers = share(self.workers)
        return ProcessSettings(web, workers, share(self.max_advice_runs), self.advice_workers or self.workers,
                               self.max_advice_seconds, share(self.score_workers), self.max_score_seconds,
                               self.keep_alive, self.log_level, self.loop_solve, self.solver_setup)

    def to_json(self) -> str:
        fields = {name: value for name, value in asdict(self).items() if name not in ("web", "solver_setup")}
        fields["web"] = asdict(self.web)
        fields["solver_setup"] = (None if self.solver_setup is None
                                  else base64.b64encode(pickle.dumps(self.solver_setup)).decode())
        return json.dumps(fields)

    @staticmethod
    def from_json(text: str) -> ProcessSettings:
        fields = json.loads(text)
        fields["web"] = WebConfig(**fields["web"])
        setup = fields["solver_setup"]
        fields["solver_setup"] = None if setup is None else pickle.loads(base64.b64decode(setup))
        return ProcessSettings(**fields)


class HttpProcesses:
    """N HTTP processes and the thread that hands them the accepted connections."""

    def __init__(self, listener: socket.socket, host: str, processes: list[subprocess.Popen],
                 channels: list[socket.socket]) -> None:
        self.listener = listener
        self.host = host
        self.port = listener.getsockname()[1]
        self.processes = processes
        self._channels = channels
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._hand_out, name="prefdd-http-accept", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def _hand_out(self) -> None:
        """Accept connections and give each to the next live process in turn."""
        turn = 0
        while not self._stopping.is_set():
            try:
                connection, _peer = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                if self._stopping.is_set():
                    return
                time.sleep(0.05)  # out of file descriptors, say: the connection waits in the backlog
                continue
            with connection:
                for _ in range(len(self._channels)):
                    channel = self._channels[turn % len(self._channels)]
                    turn += 1
                    try:
                        socket.send_fds(channel, [_CONNECTION], [connection.fileno()])
                        break
                    except OSError as error:  # that process has ended: the next one takes it
                        LOGGER.error("an HTTP process is gone", extra={"fields": {
                            "event": "http_process_gone", "error": str(error),
                            "processes_left": len(self._channels) - 1}})
                        self._channels.remove(channel)
                        if not self._channels:  # refuse connections rather than hold them in the backlog
                            self.listener.close()
                            return

    def stop(self, grace: float = 10.0) -> None:
        """Stop accepting; the processes finish their calls in flight within
        ``grace`` seconds, then end; any still running 5 s after that is killed."""
        self._stopping.set()
        self._thread.join(5.0)
        self.listener.close()
        for channel in list(self._channels):
            with contextlib.suppress(OSError):
                channel.send(_STOP + f"{grace:.3f}".encode())
            channel.close()
        end = time.monotonic() + grace + 5.0
        for process in self.processes:
            try:
                process.wait(max(0.0, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()


def _log_stream() -> IO[str] | None:
    """Where this process's JSON log lines go, for the HTTP processes to write there too."""
    for handler in logging.getLogger().handlers:
        stream = getattr(handler, "stream", None)
        if stream is not None and hasattr(stream, "fileno"):
            try:
                stream.fileno()
            except (OSError, ValueError):
                continue
            return stream
    return None


def start_http_processes(host: str, port: int, processes: int, settings: ProcessSettings) -> HttpProcesses:
    """Listen on ``host:port`` (0: a free port) and start ``processes`` HTTP
    processes; raises OSError if the address cannot be had or a process does
    not start."""
    from .server import listening_socket

    listener = listening_socket(host, port)
    listener.settimeout(0.25)  # the accept thread looks at its stop flag this often
    one = settings.shared(processes)
    started: list[subprocess.Popen] = []
    channels: list[socket.socket] = []
    log = _log_stream()
    try:
        for _ in range(processes):
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)  # one message a hand-over
            with theirs:
                child = subprocess.Popen(
                    [sys.executable, "-m", "service.web.processes", str(theirs.fileno())],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, pass_fds=[theirs.fileno()],
                    text=True, start_new_session=False)
            started.append(child)
            channels.append(ours)
            assert child.stdin is not None
            child.stdin.write(one.to_json() + "\n")
            child.stdin.close()
        _wait_ready(started)
    except BaseException:
        listener.close()
        for channel in channels:
            channel.close()
        for child in started:
            child.kill()
            child.wait()
        raise
    return HttpProcesses(listener, host, started, channels)


def _wait_ready(processes: list[subprocess.Popen]) -> None:
    end = time.monotonic() + _START_SECONDS
    waiting = {process.stdout: process for process in processes}
    while waiting:
        left = end - time.monotonic()
        readable, _, _ = select.select(list(waiting), [], [], max(0.0, left))
        if not readable:
            raise OSError(f"{len(waiting)} HTTP process(es) did not start within {_START_SECONDS:g} s")
        for stream in readable:
            line = stream.readline()  # type: ignore[union-attr]
            if not line:
                code = waiting[stream].wait()
                raise OSError(f"an HTTP process did not start (exit status {code}); see its log lines")
            if line.strip() == "ready":  # anything else a library printed first is passed over
                del waiting[stream]


# ---- the HTTP process itself ---------------------------------------------------------

class _HandedServer(uvicorn.Server):
    """A uvicorn server that serves the connections handed to it over
    ``channel`` (``SCM_RIGHTS``) instead of accepting its own."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])
        loop = asyncio.get_running_loop()
        self.channel.setblocking(False)
        loop.add_reader(self.channel.fileno(), self._take, loop)
        print("ready", flush=True)
        os.dup2(2, 1)  # nothing else goes to the pipe the main process no longer reads

    def _take(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            data, fds, _flags, _address = socket.recv_fds(self.channel, 64, 4)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data, fds = b"", []
        for fd in fds:
            connection = socket.socket(fileno=fd)
            loop.create_task(loop.connect_accepted_socket(self._protocol, connection))
        if data.startswith(_STOP) or not data:  # stop, or the main process died: end gracefully
            if data:
                self.config.timeout_graceful_shutdown = int(math.ceil(float(data[len(_STOP):])))
            loop.remove_reader(self.channel.fileno())
            self.should_exit = True

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # SIGTERM ends the process gracefully; a terminal's ^C reaches the
        # main process as well, which then says stop.
        previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, self._on_term),
                    signal.SIGINT: signal.signal(signal.SIGINT, signal.SIG_IGN)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _on_term(self, _signum: int, _frame: Any) -> None:
        self.should_exit = True

    def _protocol(self) -> asyncio.Protocol:
        # What uvicorn's own startup makes for each connection it accepts.
        return self.config.http_protocol_class(config=self.config, server_state=self.server_state,  # type: ignore[call-arg]
                                               app_state=self.lifespan.state)


def _serve(channel_fd: int) -> int:
    settings = ProcessSettings.from_json(sys.stdin.readline())
    from ..advice_runs import AdviceRuns
    from ..pool import SolverPool
    from ..score_workers import ScoreWorkers
    from ..server import configure_logging
    from .app import LoopSearches, create_app
    from .server import uvicorn_config

    configure_logging(settings.log_level, sys.stderr)
    pool = SolverPool(settings.workers, settings.solver_setup)
    advice = AdviceRuns(settings.max_advice_runs, settings.advice_workers, settings.max_advice_seconds)
    scoring = ScoreWorkers(settings.score_workers, settings.max_score_seconds)
    searches = LoopSearches(solver_setup=settings.solver_setup) if settings.loop_solve else None
    app = create_app(pool, advice, scoring, settings.web, searches)
    config = uvicorn_config(app, settings.web, settings.keep_alive)
    config.timeout_graceful_shutdown = int(_DEFAULT_GRACE)
    server = _HandedServer(config, socket.socket(fileno=channel_fd))
    try:
        server.run()
    finally:
        if searches is not None:
            searches.close()
        advice.cancel_all()
        scoring.close()
        pool.shutdown(cancel_running=True, timeout=10.0)
    return 0


if __name__ == "__main__":
    sys.exit(_serve(int(sys.argv[1])))
