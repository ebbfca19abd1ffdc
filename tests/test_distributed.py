"""Batches and advice runs on a real Dask cluster (solver.distributed): a
LocalCluster in this process (threads) and one of 2 worker processes, on
127.0.0.1 only. The answers equal the local ones; a worker process killed
mid-run loses no item and answers none twice; a cancel stops the searches on
the workers; a bad item is an error result; the command line gives the same
output with and without ``--dask``."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Iterable

import pytest
from distributed import Client, LocalCluster

from conftest import batch_line
from solver import distributed as sd
from solver.advice import (AdviceError, RunOptions, advise_bid, advise_whist, bid_request, enumerate_splits,
                           enumeration_request, whist_request)
from solver.advice.jsonio import bid_json, enumeration_json, whist_json
from solver.jsonlines import read_lines
from test_threads import random_deal

GUARD = 60.0
"""Seconds a test waits for something that takes a few: a guard against a
hang, not a speed requirement."""


def requests(count: int, seed: int = 7) -> list[str]:
    """Batch lines of every kind: contracts, card values, analyses, all-pass,
    and bad lines, most with ids."""
    lines = []
    for i in range(count):
        deal = str(random_deal(seed * 1000 + i))
        kind = i % 6
        if kind == 0:
            request: dict[str, Any] = {"deal": deal, "contract": "6s", "declarer": i % 3}
        elif kind == 1:
            request = {"deal": deal, "contract": "7nt", "declarer": i % 3, "cards": True}
        elif kind == 2:
            request = {"deal": deal, "contract": "misere", "declarer": i % 3, "best_discard": True}
        elif kind == 3:
            request = {"deal": deal, "contract": "allpass", "player": i % 3}
        elif kind == 4:
            request = {"deal": deal, "contract": "allpass", "line": True}
        else:
            request = {"deal": deal, "contract": "6h", "declarer": 5}   # a bad seat: an error answer
        request["id"] = f"r{i}"
        lines.append(json.dumps(request))
    return lines + ["not json", '{"deal": "AKQ", "contract": "6s", "declarer": 0, "id": 9}', "[1, 2]"]


def heavy_requests(count: int) -> list[str]:
    """Items of tens of milliseconds each (all-pass lines and misère best discards)."""
    lines = []
    for i in range(count):
        deal = str(random_deal(500 + i))
        request = ({"deal": deal, "contract": "allpass", "line": True} if i % 2 else
                   {"deal": deal, "contract": "misere", "declarer": i % 3, "best_discard": True})
        lines.append(json.dumps({**request, "id": i}))
    return lines


def collect(job: sd.BatchJob, after_first=None) -> list[sd.BatchResult]:  # type: ignore[no-untyped-def]
    """Iterate over a job on a thread, within GUARD seconds; ``after_first``
    is called once the first result is in."""
    results: list[sd.BatchResult] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            for result in job:
                results.append(result)
                if len(results) == 1 and after_first is not None:
                    after_first()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(GUARD)
    if thread.is_alive():
        job.cancel()
        pytest.fail(f"the job did not finish within {GUARD} s")
    if errors:
        raise errors[0]
    return results


def wait_until(condition, guard: float = GUARD) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def process_cluster(workers: int = 2) -> LocalCluster:
    return sd.local_cluster(workers)


@pytest.fixture(scope="module")
def threads() -> Iterable[Client]:
    """One worker of 2 threads in this process (Dask's in-process transport)."""
    with sd.local_cluster(1, threads=2, processes=False) as cluster, Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def processes() -> Iterable[Client]:
    with process_cluster() as cluster, Client(cluster) as client:
        client.wait_for_workers(2, timeout=GUARD)
        yield client


def test_batch_in_order_equals_the_local_batch(threads: Client) -> None:
    lines = requests(30)
    expected = [batch_line(line) for line in lines]
    assert sum('"error"' in answer for answer in expected) >= 8          # the bad items are there
    for block_items in (None, 1, 7):
        results = collect(sd.submit_batch(threads, lines, block_items=block_items))
        assert [r.index for r in results] == list(range(len(lines)))
        assert [r.answer for r in results] == expected


def test_batch_as_finished_answers_every_item_once(threads: Client) -> None:
    lines = requests(24, seed=8)
    requests_as_dicts = [json.loads(line) for line in lines[:24]]
    expected = [json.loads(batch_line(line)) for line in lines[:24]]
    results = collect(sd.submit_batch(threads, requests_as_dicts, ordered=False, block_items=2))
    assert sorted(r.index for r in results) == list(range(24))
    assert {r.index: r.answer for r in results} == dict(enumerate(expected))


def test_batch_reads_its_input_as_it_goes(threads: Client) -> None:
    lines = requests(40, seed=9)
    job = sd.submit_batch(threads, iter(lines), block_items=2, in_flight=2)
    for result in job:
        # At most in_flight blocks of 2 items are read beyond the block being answered.
        assert job.progress.read <= (result.index // 2 + 2) * 2
    assert job.progress.done and job.progress.answered == len(lines)


def test_an_item_that_fails_unexpectedly_is_its_own_error(threads: Client, monkeypatch) -> None:
    lines = requests(6, seed=10)[:6]

    def failing(line: str, solver) -> str:  # type: ignore[no-untyped-def]
        if '"r3"' in line:
            raise RuntimeError("a broken item")
        return batch_line(line)

    monkeypatch.setattr(sd, "evaluate_line", failing)   # the in-process worker uses this module
    answers = [r.answer for r in collect(sd.submit_batch(threads, lines, block_items=6))]
    assert json.loads(answers[3]) == {"id": "r3", "error": "RuntimeError: a broken item"}
    assert answers[:3] + answers[4:] == [batch_line(line) for line in lines[:3] + lines[4:]]


def test_cancelling_a_batch_ends_it(threads: Client) -> None:
    lines = heavy_requests(60)
    job = sd.submit_batch(threads, lines, block_items=2)
    results = collect(job, after_first=job.cancel)
    assert job.cancelled and not job.progress.done
    assert 1 <= len(results) < len(lines)


def test_batch_on_two_worker_processes_equals_the_local_batch(processes: Client) -> None:
    lines = requests(36, seed=11)
    results = collect(sd.submit_batch(processes, lines, block_items=3))
    assert [r.answer for r in results] == [batch_line(line) for line in lines]
    assert len(set(processes.run(os.getpid).values())) == 2     # two processes did the work


def test_a_worker_killed_mid_run_loses_no_item() -> None:
    lines = heavy_requests(24)
    expected = [batch_line(line) for line in lines]
    killed: dict[str, Any] = {}
    with process_cluster() as cluster, Client(cluster) as client:
        client.wait_for_workers(2, timeout=GUARD)
        job = sd.submit_batch(client, lines, block_items=2, in_flight=6)

        def kill_a_busy_worker() -> None:
            busy = {worker: keys for worker, keys in client.processing().items() if keys}
            worker = next(iter(busy))
            killed["blocks"] = len(busy[worker])
            killed["worker"] = worker
            pid = client.run(os.getpid, workers=[worker])[worker]
            os.kill(pid, signal.SIGKILL)

        results = collect(job, after_first=kill_a_busy_worker)
        assert killed["blocks"] >= 1                              # it was killed holding work
        assert wait_until(lambda: killed["worker"] not in client.scheduler_info()["workers"])
    assert sorted(r.index for r in results) == list(range(len(lines)))    # each item exactly once
    assert [r.answer for r in results] == expected


def _strip(answer: dict) -> dict:
    """An advice answer without its run's time and thread count."""
    answer["run"] = {k: v for k, v in answer["run"].items() if k not in ("seconds", "workers")}
    return answer


def test_advice_runs_equal_the_local_runs(threads: Client) -> None:
    endgame = whist_request(".T.A7.", "..K.8", "6s", 1, 2, other_decision="pass", unseen="7.K.J.AK9",
                            prior_tricks=(1, 4, 2))
    full = whist_request("JT98.JT.98.A9", "..J.K", "6s", 1, 2, other_decision="pass")
    bid = bid_request("AKQJ8.AK.A.87", 1, contracts="6s,8s,misere")
    enumeration = enumeration_request("AQ.K..K", 1, "6s,7s,6nt,misere", defenders="KJ7.A.A.AQ8",
                                      prior_tricks=(2, 3, 1))
    runs = [
        (advise_whist, endgame, RunOptions(workers=2), whist_json),
        (advise_whist, full, RunOptions(layouts=40, seed=3, workers=2), whist_json),
        (advise_bid, bid, RunOptions(layouts=12, workers=2), bid_json),
        (enumerate_splits, enumeration, RunOptions(workers=2), enumeration_json),
    ]
    for advise, request, options, to_json in runs:
        local = to_json(advise(request, options))
        on_cluster = to_json(advise(request, sd.dask_options(threads, options)))
        assert _strip(on_cluster) == _strip(local)


def test_a_sampled_run_on_two_processes_equals_the_local_run(processes: Client) -> None:
    request = whist_request("JT98.JT.98.A9", "..J.K", "6s", 1, 2, other_decision="pass", discard_model="uniform")
    options = RunOptions(layouts=30, seed=5, workers=1)
    assert (_strip(whist_json(advise_whist(request, sd.dask_options(processes, options))))
            == _strip(whist_json(advise_whist(request, options))))


def test_cancel_stops_the_searches_on_the_workers(threads: Client) -> None:
    request = enumeration_request("AKQJ87.AK.A8.87", 0, "6s,7s,6nt,misere", discard="..8.8", defence="both")
    cancel = threading.Event()
    executor = sd.DaskExecutor(threads)
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(enumerate_splits(request, RunOptions(cancel=cancel, executor=executor)))
        except AdviceError as error:   # cancelled before the first block finished
            out.append(error)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()

    def searching() -> int:
        return sum(threads.run(lambda: len(sd._searching)).values())

    assert wait_until(lambda: searching() > 0)
    cancel.set()
    runner.join(GUARD)
    assert not runner.is_alive()
    result = out[0]
    if isinstance(result, AdviceError):
        assert "cancelled before any layout was finished" in str(result)
    else:
        assert result.run.stopped == "cancelled" and not result.run.complete
        assert 0 < result.splits < 184_756
    # The blocks under way end in a stopped C search, not at their end.
    assert wait_until(lambda: searching() == 0)
    assert sum(threads.run(sd.stopped_searches, executor.last_run).values()) >= 1


def test_missing_extra_names_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(sd.DaskNotInstalled, match=r"preferans-dd\[dask\]"):
        with sd.connect("local:1"):
            pass


@pytest.mark.parametrize("address", ["local:0", "local:x", "", "local:"])
def test_bad_addresses_are_refused(address: str) -> None:
    with pytest.raises(ValueError, match="local:N|address"):
        sd.parse_address(address)


def prefdd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solver.cli", *args], capture_output=True, text=True,
                          timeout=120)


def test_command_line_gives_the_same_output_with_dask(processes: Client, tmp_path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(requests(12, seed=12)) + "\n")
    plain = prefdd("batch", str(batch))
    on_cluster = prefdd("batch", str(batch), "--dask", processes.scheduler.address)
    assert plain.returncode == on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stdout == plain.stdout and len(plain.stdout.splitlines()) == 15

    enumerate_ = ["enumerate", "AQ.K..K", "--declarer", "1", "--contract", "6s,6nt", "--defenders", "KJ7.A.A.AQ8",
                  "--prior-tricks", "2,3,1", "--json"]
    plain = prefdd(*enumerate_)
    on_cluster = prefdd(*enumerate_, "--dask", "local:1")     # a cluster of its own
    assert plain.returncode == on_cluster.returncode == 0, on_cluster.stderr
    assert _strip(json.loads(on_cluster.stdout)) == _strip(json.loads(plain.stdout))


def test_command_line_refuses_a_bad_address() -> None:
    result = prefdd("batch", "--dask", "local:0")
    assert result.returncode == 2 and "local:N" in result.stderr


def test_batch_lines_that_cannot_be_read_are_answered_on_the_cluster(threads: Client) -> None:
    # prefdd batch --dask hands the line reader's items over as they come:
    # a line that is not UTF-8 is one error answer, in its place.
    good = requests(1)[0].encode()
    lines = list(read_lines(io.BytesIO(good + b"\n\xff\n" + good + b"\n")))
    answers = [json.loads(r.answer) for r in collect(sd.submit_batch(threads, lines))]
    assert len(answers) == 3 and answers[0] == answers[2]
    assert answers[1] == {"error": "line 2: not UTF-8 text (byte 0xff at column 1)"}


def test_closing_a_full_queue_source_never_blocks() -> None:
    """A stream's reader closes its source when the input ends; when the job
    was cancelled and takes no more, the queue stays full: close() must still
    return (a blocked reader held its call, and the server's shutdown, forever)."""
    source = sd.QueueSource(capacity=2)
    source.put({"n": 1})
    source.put({"n": 2})
    closer = threading.Thread(target=source.close, daemon=True)
    closer.start()
    closer.join(10)
    assert not closer.is_alive(), "close() blocked on a full queue"
    items, ended = source.take(5, wait=False)
    assert items == [{"n": 1}, {"n": 2}]
    items, ended = source.take(5, wait=True)
    assert (items, ended) == ([], True)
