"""``prefdd serve --dask``: a real server on 127.0.0.1 whose batch streams
and advice runs go to a real Dask LocalCluster (in this process), called
with a real client: the same answers as a server without the cluster, bad
items answered as errors, and a deadline that stops the cluster's work."""
from __future__ import annotations

from typing import Iterable, Iterator

import grpc
import pytest
from distributed import Client

from service.client import BatchItem, ServiceError
from service_support import GUARD, client_for, random_deal, running_server, wait_until
from solver import Deal
from solver import distributed as sd

FULL_DEALS = [str(Deal(random_deal(seed).hands)) for seed in range(300, 330)]


@pytest.fixture(scope="module")
def cluster() -> Iterable[Client]:
    with sd.local_cluster(1, threads=2, processes=False) as local, Client(local) as client:
        yield client


def items(count: int) -> Iterator[BatchItem]:
    for i in range(count):
        deal = FULL_DEALS[i % len(FULL_DEALS)] if i % 9 else "AKQ.J.T9"    # every ninth is bad
        yield BatchItem(deal, ["6s", "7c", "misere", "6nt"][i % 4], i % 3, card_values=bool(i % 2), id=f"i{i}")


def answers(results) -> dict[str, tuple]:  # type: ignore[no-untyped-def]
    return {r.id: (r.index, r.error, r.declarer_tricks, tuple(sorted((r.card_values or {}).items())))
            for r in results}


def test_batches_and_enumerations_equal_the_local_server(cluster: Client) -> None:
    with running_server(workers=2) as plain, client_for(plain) as local:
        expected = answers(local.evaluate_batch(items(60), chunk_size=7))
        enumeration = local.enumerate_splits("AQ.K..K", 1, ["6s", "6nt", "misere"], defenders="KJ7.A.A.AQ8",
                                             prior_tricks=[2, 3, 1])
    with running_server(workers=1, dask=cluster.scheduler.address) as server, client_for(server) as client:
        assert server.cluster is not None
        got = answers(client.evaluate_batch(items(60), chunk_size=7))
        on_cluster = client.enumerate_splits("AQ.K..K", 1, ["6s", "6nt", "misere"], defenders="KJ7.A.A.AQ8",
                                             prior_tricks=[2, 3, 1])
        assert server.pool.stats().completed == 0     # the server's own threads solved nothing
    assert len(got) == 60 and got == expected
    assert sum(1 for answer in got.values() if answer[1]) == 7       # the bad items are errors
    assert on_cluster.contracts == enumeration.contracts and on_cluster.run.complete


def test_deadlines_stop_the_work_on_the_cluster(cluster: Client) -> None:
    def searching() -> int:
        return sum(cluster.run(lambda: len(sd._searching)).values())

    with running_server(workers=1, dask=cluster.scheduler.address) as server, client_for(server) as client:
        with pytest.raises(ServiceError) as caught:
            client.enumerate_splits("AKQJ87.AK.A8.87", 0, ["6s", "7s", "6nt", "misere"], discard="..8.8",
                                    defence="both", timeout=1.0)
        assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_until(lambda: searching() == 0, GUARD)

        received = 0
        with pytest.raises(ServiceError) as caught:
            for _ in client.evaluate_batch(items(100_000), timeout=1.5):
                received += 1
        assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert 0 < received < 100_000
        assert wait_until(lambda: searching() == 0, GUARD)
        assert client.solve("AK.7..J9 .Q9.Q8.T 7.T.9.AK", "6nt", 0).declarer_tricks == 2
