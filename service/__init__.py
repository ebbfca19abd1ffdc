"""The preferans-dd gRPC service (``protos/preferans/v1/analysis.proto``).

* :mod:`service.server` — the server's configuration, start and shutdown
  (health checking, reflection, TLS); :func:`service.server.serve`.
* :mod:`service.servicer` — the ``Analysis`` RPC handlers.
* :mod:`service.interceptors` — bearer-token authentication, call limits,
  safe request decoding, per-call logs, the JSON log format;
  :mod:`service.metrics` — the optional Prometheus endpoint.
* :mod:`service.pool` — the solver worker pool: one solver per worker thread,
  jobs that can be cancelled while they search.
* :mod:`service.convert` — protobuf messages to and from the solver's objects;
  :mod:`service.enums` — the proto enums and their Python values, each table once.
* :mod:`service.deal_analysis` — AnalyzeDeal: the whole-deal analysis and its score.
* :mod:`service.advice_calls` — AdviseWhist, AdviseBid, Enumerate: requests,
  budgets, the layout limit, answers; :mod:`service.advice_runs` — the bounded
  advice runs, stopped when their call ends; :mod:`service.score_workers` —
  Score in worker processes that a deadline can stop.
* :mod:`service.client` — a small typed Python client.
* :mod:`service.cli` — ``prefdd serve``.

The protobuf code is generated from ``protos/`` by the package build into
:mod:`service._proto` (see :mod:`service.proto`). Nothing here imports grpc
at package import time, so ``prefdd`` runs without the service extra.
"""
