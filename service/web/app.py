"""The HTTP side of ``prefdd serve``: the page at ``/`` and the JSON API under ``/api/v1/``.

A Starlette application over the same :class:`~service.pool.SolverPool` and
:class:`~service.advice_runs.AdviceRuns` as the gRPC service, so both share
the solvers, the limits and the logs.

* ``POST /api/v1/solve``: one ``prefdd batch`` request object, its answer
  object; with ``Content-Type: application/x-ndjson``, ``prefdd batch``'s
  input lines (at most ``max_batch_items`` answered lines, as one gRPC
  EvaluateBatch stream) and exactly its output lines, the lines' solves in
  one C call as the command does (:func:`solver.analysis.batch.evaluate_lines`);
  ``/analyze``, ``/position``, ``/whist``, ``/bid``, ``/enumerate``
  ``/play`` and ``/score`` answer what their commands print with ``--json``
  (:mod:`service.web.calls`). ``GET /api/v1/openapi.json`` describes them.
* Bad input: HTTP 400 with ``{"error": message}``, the message the command
  line prints. A limit: 429 (advice slots, calls at once) or 413 (a body
  too large), naming the limit. A missing or wrong token: 401.
* Deadlines: a call gets ``timeout`` seconds (the server's ``--http-timeout``,
  or less with ``?timeout=S``). When it passes, the search is stopped (the
  pool job is cancelled; in an HTTP process ``solve`` searches on the event
  loop's thread and :class:`LoopSearches` stops it; an advice run's time
  budget never outlasts the deadline) and the answer is 504 with
  ``{"error": ...}``.
* One JSON log line per call on the ``service`` logger, as for gRPC calls:
  method, path, status, duration, request id (``X-Request-Id``, made up when
  the client sends none, and echoed), and for JSON lines the lines answered
  (``items``).

Starlette is used for routing, request parsing and static files; uvicorn
serves it (:mod:`service.web.server`). The page needs no templates: it is one
static HTML file, a stylesheet and a JavaScript module, all served from
``service/web/static`` with no network at view time.
"""
from __future__ import annotations

import asyncio
import hmac
import io
import json
import logging
import math
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..advice_calls import (BudgetChoice, LayoutLimitExceeded, bid_layouts, check_layouts, enumeration_layouts,
                            whist_layouts)
from ..advice_runs import AdviceBusy, AdviceRuns, CallEnded
from ..convert import check_numbers
from ..play_calls import play_layouts
from solver.analysis.batch import evaluate_lines
from solver.api import thread_solver
from solver.engine import SearchStopped, Solver
from solver.jsonlines import read_lines

from ..pool import Job, JobCancelled, SolverPool
from ..score_workers import ScoreFailed, ScoreStopped, ScoreWorkers
from . import calls
from .openapi import openapi

__all__ = ["LoopSearches", "WebConfig", "create_app"]

LOGGER = logging.getLogger("service")
_ids = random.Random()
"""Made-up request ids: 64 random bits without a system call each (uuid4 reads the OS's randomness)."""
STATIC = Path(__file__).resolve().parent / "static"
NDJSON = "application/x-ndjson"


@dataclass(frozen=True)
class WebConfig:
    """The HTTP API's limits (``prefdd serve --http-*``)."""

    timeout: float = 60.0
    """Seconds a call may take at most; a client may ask for less with ``?timeout=``."""
    max_body_bytes: int = 1 << 20
    max_concurrent: int = 64
    """Calls served at once; more answer 429."""
    max_advice_layouts: int = 200_000
    auth_token: str | None = field(default=None, repr=False)
    """If set, every ``/api/`` call but ``openapi.json`` needs ``Authorization: Bearer <token>``."""
    max_batch_items: int = 1_000_000
    """Non-blank lines one JSON-lines ``solve`` call may carry (``prefdd serve --max-batch-items``,
    the limit of one EvaluateBatch stream); more answer 400."""


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class _Deadline:
    """What :class:`AdviceRuns` asks of a call, for an HTTP request: its time left."""

    def __init__(self, seconds: float) -> None:
        self._end = time.monotonic() + seconds
        self._callbacks: list[Callable[[], None]] = []

    def add_callback(self, callback: Callable[[], None]) -> bool:
        self._callbacks.append(callback)
        return True

    def time_remaining(self) -> float:
        return self._end - time.monotonic()

    def is_active(self) -> bool:
        return self.time_remaining() > 0

    def end(self) -> None:
        for callback in self._callbacks:
            callback()


class LoopSearches:
    """Searches run on the event loop's own thread (``solve`` in an HTTP
    process, :mod:`service.web.processes`), each stopped at its deadline by a
    watchdog thread that looks every ``poll`` seconds.

    The hand-off to a pool thread and back costs two thread wake-ups a call
    (measured: 2.46 voluntary context switches a call against 0.17) and the
    GIL passed between the loop and the worker at each; a process of its own
    per core needs no other thread to keep its core busy. While a search runs
    the loop serves nothing else, as the process's one solver thread would not.
    """

    def __init__(self, poll: float = 0.02, solver_setup: Callable[[Solver], None] | None = None) -> None:
        self._poll = poll
        self._setup = solver_setup
        self._solver: Solver | None = None   # the loop thread's, set up on first use
        self._lock = threading.Lock()
        self._current: tuple[float, Solver] | None = None
        self._closed = threading.Event()
        threading.Thread(target=self._watch, name="prefdd-http-watchdog", daemon=True).start()

    def run(self, work: Callable[[Any, Solver], Any], body: Any, seconds: float) -> Any:
        """``work(body, solver)`` on this thread's solver; SearchStopped when the deadline passed."""
        solver = self._solver
        if solver is None:
            solver = self._solver = thread_solver()
            if self._setup is not None:
                self._setup(solver)
        with self._lock:
            if self._closed.is_set():
                raise SearchStopped("the server is shutting down")
            solver.clear_stop()
            self._current = (time.monotonic() + seconds, solver)
        try:
            return work(body, solver)
        finally:
            with self._lock:
                self._current = None

    def close(self) -> None:
        """Stop the search in progress, if any, and the watchdog."""
        with self._lock:
            self._closed.set()
            if self._current is not None:
                self._current[1].request_stop()

    def _watch(self) -> None:
        while not self._closed.wait(self._poll):
            with self._lock:
                if self._current is not None and time.monotonic() >= self._current[0]:
                    self._current[1].request_stop()  # the next search clears it under this lock
                    self._current = None


def create_app(pool: SolverPool, advice: AdviceRuns, scoring: ScoreWorkers,
               config: WebConfig = WebConfig(), loop_searches: LoopSearches | None = None) -> Starlette:
    """The page and the JSON API over the gRPC service's ``pool``, ``advice``
    slots and ``scoring`` processes; with ``loop_searches``, ``solve`` runs
    on the event loop's thread instead of the pool."""
    slots = asyncio.Semaphore(config.max_concurrent)

    async def raw_body_of(request: Request) -> bytes:
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > config.max_body_bytes:
            raise HttpError(413, f"the request body has {length} bytes; the limit is {config.max_body_bytes}")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > config.max_body_bytes:
                raise HttpError(413, f"the request body is over the limit of {config.max_body_bytes} bytes")
        return raw

    async def body_of(request: Request) -> Any:
        raw = await raw_body_of(request)
        try:
            body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except UnicodeDecodeError as error:
            raise HttpError(400, f"the request body is not UTF-8: {error}") from None
        except (ValueError, RecursionError) as error:
            raise HttpError(400, f"the request body is not JSON: {error}") from None
        check_numbers(body, "body")  # numbers as text ("1e10000000") bounded before any arithmetic
        return body

    async def lines_of(request: Request) -> list[Any]:
        """The body's lines as ``prefdd batch`` reads them (a bad line is its error, answered in its place)."""
        lines = list(read_lines(io.BytesIO(await raw_body_of(request))))
        if len(lines) > config.max_batch_items:
            raise HttpError(400, f"the batch has {len(lines)} lines; the limit is "
                                 f"max_batch_items={config.max_batch_items} lines in one call")
        return lines

    def timeout_of(request: Request) -> float:
        text = request.query_params.get("timeout")
        if text is None:
            return config.timeout
        try:
            asked = float(text)
        except ValueError:
            asked = math.nan
        if not (math.isfinite(asked) and asked > 0):
            raise HttpError(400, f"timeout must be a positive number of seconds, got {text!r}")
        return min(asked, config.timeout)

    def authorize(request: Request) -> None:
        if config.auth_token is None:
            return
        given = request.headers.get("authorization", "").encode()
        if not hmac.compare_digest(given, f"Bearer {config.auth_token}".encode()):
            raise HttpError(401, "missing or wrong bearer token")

    async def on_pool(work: Callable[[Any], Any], body: Any, seconds: float) -> Any:
        job: Job[Any] = pool.submit(lambda solver: work(body, solver))
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        job.add_done_callback(lambda _job: loop.call_soon_threadsafe(_settle, done))
        try:
            await asyncio.wait_for(done, seconds)
        except asyncio.TimeoutError:
            job.cancel()
            raise HttpError(504, f"the deadline of {seconds:g} s passed; the search was stopped") from None
        except asyncio.CancelledError:  # the client went away
            job.cancel()
            raise
        try:
            return job.result()
        except JobCancelled:
            raise HttpError(504, "the search was stopped") from None

    async def on_loop(work: Callable[[Any, Any], Any], body: Any, seconds: float) -> Any:
        assert loop_searches is not None
        try:
            return loop_searches.run(work, body, seconds)
        except SearchStopped:
            raise HttpError(504, f"the deadline of {seconds:g} s passed; the search was stopped") from None

    async def advice_run(kind: str, body: Any, seconds: float) -> Any:
        call = calls.advice_call(kind, body)
        budget = BudgetChoice(call.layouts, call.seconds, call.seed, call.mode)
        try:
            check_layouts(budget, calls_layouts(call), config.max_advice_layouts)
        except LayoutLimitExceeded as error:
            raise HttpError(429, str(error)) from None
        deadline = _Deadline(seconds)
        try:
            return await run_in_threadpool(advice.run, deadline, budget, call.run)  # type: ignore[arg-type]
        except AdviceBusy as error:
            raise HttpError(429, str(error)) from None
        except CallEnded as error:
            raise HttpError(504, str(error)) from None
        finally:
            deadline.end()

    def endpoint(name: str, run: Callable[[Any, float], Awaitable[Any]],
                 run_lines: Callable[[Any, float], Awaitable[list[str]]] | None = None) -> Route:
        """``run`` answers a JSON body; ``run_lines``, if given, a JSON-lines body."""
        async def handle(request: Request) -> Response:
            started = time.perf_counter()
            request_id = request.headers.get("x-request-id", "")[:64] or f"{_ids.getrandbits(64):016x}"
            status, answer, error = 200, None, None
            lines = run_lines is not None and _media_type(request) == NDJSON
            items: int | None = None
            try:
                authorize(request)
                if slots.locked():
                    raise HttpError(429, f"the server serves at most {config.max_concurrent} calls at once; "
                                         "try again later")
                async with slots:
                    seconds = timeout_of(request)
                    if lines:
                        assert run_lines is not None
                        answer = await run_lines(await lines_of(request), seconds)
                        items = len(answer)
                    else:
                        answer = await run(await body_of(request), seconds)
            except HttpError as failure:
                status, error = failure.status, str(failure)
            except ValueError as failure:  # the request's own error, as the command line says it
                status, error = 400, str(failure)
            except Exception:
                LOGGER.exception("unexpected error in %s", request.url.path)
                status, error = 500, "internal error in the analysis server (logged)"
            _log(request, name, status, started, request_id, error, items)
            if error is None and lines:
                return Response("".join(line + "\n" for line in answer), media_type=NDJSON,
                                headers={"x-request-id": request_id})
            content = answer if error is None else {"error": error}
            return JSONResponse(content, status_code=status, headers={"x-request-id": request_id})

        return Route(f"/api/v1/{name}", handle, methods=["POST"])

    def pooled(work: Callable[[Any, Any], Any]) -> Callable[[Any, float], Awaitable[Any]]:
        return lambda body, seconds: on_pool(work, body, seconds)

    def solving(work: Callable[[Any, Any], Any]) -> Callable[[Any, float], Awaitable[Any]]:
        if loop_searches is None:
            return pooled(work)
        return lambda body, seconds: on_loop(work, body, seconds)

    def advised(kind: str) -> Callable[[Any, float], Awaitable[Any]]:
        return lambda body, seconds: advice_run(kind, body, seconds)

    async def scored(body: Any, seconds: float) -> Any:
        """On a scoring process, killed at the deadline (pure Python cannot
        otherwise be stopped, and would hold every other call)."""
        end = time.monotonic() + seconds
        try:
            text = await run_in_threadpool(scoring.run, calls.score_request(body), lambda: time.monotonic() >= end)
        except ScoreStopped as stop:
            if stop.reason == "limit":
                raise HttpError(429, "the scoring took longer than the server's limit max_score_seconds="
                                     f"{scoring.seconds:g} and was stopped") from None
            raise HttpError(504, f"the deadline of {seconds:g} s passed; the scoring was stopped") from None
        except ScoreFailed as failure:
            if failure.kind == "invalid":
                raise HttpError(400, str(failure)) from None
            if failure.kind == "exhausted":
                raise HttpError(429, str(failure)) from None
            LOGGER.error("the scoring process failed", extra={"fields": {
                "event": "score_failure", "traceback": str(failure)}})
            raise HttpError(500, "internal error in the analysis server (logged)") from None
        return json.loads(text)

    async def openapi_json(_request: Request) -> Response:
        return JSONResponse(openapi())

    async def page(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    routes = [
        endpoint("solve", solving(calls.solve), solving(evaluate_lines)),
        endpoint("analyze", pooled(calls.analyze)),
        endpoint("position", pooled(calls.position)),
        endpoint("score", scored),
        *(endpoint(kind, advised(kind)) for kind in ("whist", "bid", "enumerate", "play")),
        Route("/api/v1/openapi.json", openapi_json, methods=["GET"]),
        Route("/", page, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


def calls_layouts(call: calls.AdviceCall) -> int:
    """How many layouts the run has (the server's layout limit counts them)."""
    counter = {"whist": whist_layouts, "bid": bid_layouts, "enumerate": enumeration_layouts,
               "play": play_layouts}[call.kind]
    return counter(call.request)  # type: ignore[arg-type]


def _settle(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def _log(request: Request, name: str, status: int, started: float, request_id: str, error: str | None,
         items: int | None = None) -> None:
    fields: dict[str, Any] = {"event": "http", "method": f"/api/v1/{name}", "status": status,
                              "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                              "peer": request.client.host if request.client else "", "request_id": request_id}
    if items is not None:
        fields["items"] = items
    if error is not None:
        fields["error"] = error[:300]
    level = logging.WARNING if status >= 500 else logging.INFO
    LOGGER.log(level, "POST /api/v1/%s %d %.1f ms", name, status, fields["duration_ms"], extra={"fields": fields})
