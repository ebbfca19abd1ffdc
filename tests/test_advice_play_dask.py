"""Card-play advice on a real Dask cluster (a LocalCluster in this process,
one worker of 2 threads; the run still goes to it pickled, as to a remote
one): the same answers as on local threads, sampled and enumerated."""
from __future__ import annotations

from typing import Iterable

import pytest

distributed = pytest.importorskip("distributed")

from solver import distributed as sd  # noqa: E402
from solver.advice import RunOptions, advise_play, play_json, play_request  # noqa: E402


@pytest.fixture(scope="module")
def cluster() -> Iterable["distributed.Client"]:
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as local, distributed.Client(local) as client:
        yield client


def _strip(answer: dict) -> dict:
    answer["run"] = {k: v for k, v in answer["run"].items() if k not in ("seconds", "workers")}
    return answer


def test_play_advice_on_the_cluster_equals_the_local_answer(cluster) -> None:  # type: ignore[no-untyped-def]
    catcher = play_request("T98.JT98.T98.", "misere", 1, 0, talon="..7.7", open_hands={2: "KQJ.AKQ.AKQJ."})
    defender = play_request("AQ7.K98.KT.QJ", "6h", 1, 0, talon="..J.K", played=["As", "Ks", "Js"])
    for request, options in ((catcher, RunOptions(workers=1)),
                             (defender, RunOptions(layouts=30, seed=4, workers=1))):
        local = play_json(advise_play(request, options))
        on_cluster = play_json(advise_play(request, sd.dask_options(cluster, options)))
        assert _strip(on_cluster) == _strip(local)
    assert local["run"]["layouts"] == 30 and not local["run"]["exact"]
