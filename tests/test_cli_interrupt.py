"""Ctrl-C (a real SIGINT to a real ``prefdd`` process) ends ``whist``, ``bid``
and ``enumerate`` with status 130, like ``batch``; a run stopped before its
first result says so instead of printing NaN."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc to see threads")

LONG_RUNS = {
    # Four contracts, lines for both defences: about 40 s of search on two threads.
    "enumerate": ["enumerate", "AKQJ87.AK.A8.87", "--declarer", "0", "--contract", "6s,7s,6nt,misere",
                  "--discard", "..8.8", "--defence", "both"],
    "whist": ["whist", "JT98.JT.98.A9", "--talon", "..J.K", "--contract", "6s", "--declarer", "0", "--seat", "1",
              "--layouts", "1000000", "--sample"],
    "bid": ["bid", "AKQJ.AK.AK.AK", "--seat", "0", "--layouts", "1000000", "--sample"],
}


def prefdd(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "solver.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for_workers(process: subprocess.Popen, threads: int, timeout: float = 60) -> None:
    """Until the run's worker threads exist (the SIGINT handler is set first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if len(os.listdir(f"/proc/{process.pid}/task")) >= threads:
                return
        except FileNotFoundError:
            break
        time.sleep(0.05)
    process.kill()
    pytest.fail(f"the run did not start its workers: {process.communicate()}")


@pytest.mark.parametrize("command", sorted(LONG_RUNS))
def test_ctrl_c_exits_130_with_the_estimate_so_far(command: str) -> None:
    process = prefdd(*LONG_RUNS[command], "--workers", "2", "--no-progress")
    wait_for_workers(process, 3)
    time.sleep(0.5)                      # let some layouts finish
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and "nan" not in out
    # Either the estimate so far (naming the stop) or a line saying there is none.
    assert "cancelled" in out or "no estimate" in err, (out, err)


def test_batch_exits_130_on_ctrl_c() -> None:
    process = subprocess.Popen([sys.executable, "-m", "solver.cli", "batch"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # One answered line proves the imports are done and it is reading stdin.
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps({"deal": "A9.9.7.Q 8.8..KJ7 KJT..KT.", "contract": "6s", "declarer": 0,
                                    "leader": 2}) + "\n")
    process.stdin.flush()
    first = process.stdout.readline()
    assert "declarer_tricks" in first, first
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (first, out, err)


@pytest.mark.parametrize("command", sorted(LONG_RUNS))
def test_a_run_stopped_before_its_first_result_says_so(command: str) -> None:
    args = LONG_RUNS[command] + ["--workers", "1", "--seconds", "0.000001", "--no-progress"]
    process = prefdd(*args)
    out, err = process.communicate(timeout=120)
    if process.returncode == 0:          # a very fast machine finished a layout in 1 µs
        assert "nan" not in out
        return
    assert process.returncode == 2, (out, err)
    assert "before any layout was finished: no estimate" in err and out == ""
    assert "nan" not in err
