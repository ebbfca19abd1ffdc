"""Helpers for the gRPC service tests: real servers on 127.0.0.1 (in this
process, or as a `prefdd serve` process) and real clients."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

import grpc
import pytest

from solver import Card, Deal, Hand
from service.client import AnalysisClient
from service.server import RunningServer, ServerConfig, start_server

LOOPBACK = "127.0.0.1"
GUARD = 60.0
"""Seconds a test waits for something that should take well under one: a
guard against hanging, not a speed requirement."""


@contextmanager
def running_server(**options: object) -> Iterator[RunningServer]:
    """A server on 127.0.0.1 and a free port, stopped afterwards."""
    config = ServerConfig(host=LOOPBACK, port=0, **options)  # type: ignore[arg-type]
    server = start_server(config)
    try:
        yield server
    finally:
        server.stop(grace=0)


def client_for(server: RunningServer, **options: object) -> AnalysisClient:
    options.setdefault("timeout", GUARD)
    return AnalysisClient(f"{LOOPBACK}:{server.port}", **options)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[AnalysisClient]:
    """A client of the module's ``server`` fixture (each service test module
    starts its own server, with the options it tests)."""
    with client_for(server) as connected:
        yield connected


def random_deal(seed: int) -> Deal:
    """A full random deal (10 cards each and a talon)."""
    cards = random.Random(seed).sample(range(32), 32)
    hands = tuple(Hand.from_cards(Card.from_index(i) for i in cards[k * 10:(k + 1) * 10]) for k in range(3))
    return Deal(hands, Hand.from_cards(Card.from_index(i) for i in cards[30:]))  # type: ignore[arg-type]


def wait_until(condition, guard: float = GUARD, step: float = 0.01) -> bool:  # type: ignore[no-untyped-def]
    """Poll ``condition()`` until it is true or ``guard`` seconds pass."""
    end = time.monotonic() + guard
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


class ServeProcess:
    """``prefdd serve --port 0 ...`` as a child process; its log lines are
    read from standard error (JSON, one per line)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "serve", "--host", LOOPBACK, "--port", "0", *args],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
        self.logs: list[dict] = []
        self.port = int(self.wait_for_log("listening")["port"])

    @property
    def stderr(self) -> IO[str]:
        assert self.process.stderr is not None
        return self.process.stderr

    def wait_for_log(self, event: str) -> dict:
        """Read log lines until one with this ``event`` (fails if the process ends first)."""
        for line in self.stderr:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                self.logs.append({"raw": line})
                continue
            self.logs.append(entry)
            if entry.get("event") == event:
                return entry
        raise AssertionError(f"prefdd serve ended before logging {event!r}: {self.logs}")

    def terminate(self) -> int:
        """SIGTERM, then the exit status (killed after the guard time)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=GUARD)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


def raw_channel(port: int, **options: object) -> grpc.Channel:
    """A plain channel of its own (not sharing a connection with other channels)."""
    return grpc.insecure_channel(f"{LOOPBACK}:{port}", options=[("grpc.use_local_subchannel_pool", 1),
                                                                 *options.items()])


def raw_call(channel: grpc.Channel, method: str, data: bytes, timeout: float = GUARD,
             metadata: tuple = ()) -> grpc.RpcError | bytes:
    """Send ``data`` as the request of a unary ``method``; the answer bytes or the error."""
    call = channel.unary_unary(method, request_serializer=None, response_deserializer=None)
    try:
        return call(data, timeout=timeout, metadata=metadata)
    except grpc.RpcError as error:
        return error


def raw_stream(channel: grpc.Channel, method: str, messages: list[bytes], timeout: float = GUARD,
               metadata: tuple = ()) -> tuple[list[bytes], grpc.RpcError | None]:
    """Send ``messages`` on a stream-stream ``method``; the answers and the error, if any."""
    call = channel.stream_stream(method, request_serializer=None, response_deserializer=None)
    answers: list[bytes] = []
    try:
        for answer in call(iter(messages), timeout=timeout, metadata=metadata):
            answers.append(answer)
    except grpc.RpcError as error:
        return answers, error
    return answers, None


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1 (openssl)."""
    if shutil.which("openssl") is None:
        pytest.skip("the TLS tests make their certificate with the openssl command, which is not installed")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True, timeout=GUARD)
    return cert, key
