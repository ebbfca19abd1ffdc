"""Prometheus metrics of a server (``prefdd serve --metrics-port N``).

Needs ``prometheus_client`` (in the ``service`` extra), imported only when
metrics are asked for. Each server has its own registry, served over HTTP at
``/metrics``:

* ``prefdd_rpc_calls_total{method,status}``: calls finished, by final status;
* ``prefdd_rpc_duration_seconds{method}``: a latency histogram;
* ``prefdd_rpc_in_flight{method}``: calls going on;
* ``prefdd_pool_queued_jobs``, ``prefdd_pool_busy_workers``, ``prefdd_pool_workers``:
  the solver pool; ``prefdd_advice_runs_active``, ``prefdd_score_workers_busy``:
  the advice runs and the scoring processes (read at each scrape).
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

__all__ = ["Metrics"]

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


class Metrics:
    """The call metrics (a :class:`service.interceptors.CallMetrics`) and the
    gauges read from ``gauges`` (name → (help, function)) at each scrape."""

    def __init__(self, gauges: dict[str, tuple[str, Callable[[], float]]]) -> None:
        try:
            from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
        except ImportError as error:
            raise ImportError(f"metrics need the prometheus_client package (the 'service' extra): {error}") from None
        self.registry = CollectorRegistry()
        self._calls = Counter("prefdd_rpc_calls", "Calls finished, by method and final status.",
                              ["method", "status"], registry=self.registry)
        self._latency = Histogram("prefdd_rpc_duration_seconds", "Call duration in seconds, by method.",
                                  ["method"], buckets=_BUCKETS, registry=self.registry)
        self._in_flight = Gauge("prefdd_rpc_in_flight", "Calls going on, by method.", ["method"],
                                registry=self.registry)
        self.registry.register(_Gauges(gauges))
        self._http: Any = None

    def call_started(self, method: str) -> None:
        self._in_flight.labels(method).inc()

    def call_finished(self, method: str, status: str, seconds: float) -> None:
        self._in_flight.labels(method).dec()
        self._calls.labels(method, status).inc()
        self._latency.labels(method).observe(seconds)

    def serve(self, host: str, port: int) -> int:
        """Serve ``/metrics`` on ``host:port`` (0: a free port); the port."""
        from prometheus_client import start_http_server

        self._http, _thread = start_http_server(port, addr=host, registry=self.registry)
        return int(self._http.server_port)

    def stop(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
            self._http = None


class _Gauges:
    """A collector of gauges computed at scrape time."""

    def __init__(self, gauges: dict[str, tuple[str, Callable[[], float]]]) -> None:
        self._gauges = gauges

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        for name, (help_text, read) in self._gauges.items():
            yield GaugeMetricFamily(name, help_text, value=read())
