"""``prefdd serve --http-processes N`` (:mod:`service.web.processes`) with real
servers on 127.0.0.1 and real HTTP clients: the connections spread over the
processes, deadlines stop the searches there, and no process outlives the
server, whether it is stopped, gets SIGTERM or is killed. (Every endpoint
under two processes: ``test_web_api``.)"""
from __future__ import annotations

import json
import os
import signal
import threading
from operator import methodcaller
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from solver.engine import OPT_NONE
from service.server import ServerConfig

from conftest import batch_answer as evaluate
from service_support import GUARD, ServeProcess, random_deal, running_server, wait_until
from test_web_api import Api

ENDGAME = {"deal": "A9.9.7.Q 8.8..KJ7 KJT..KT.", "contract": "6s", "declarer": 0, "leader": 2}
SLOW = methodcaller("set_options", OPT_NONE)
"""Plain alpha-beta: many seconds for a full deal's one search, minutes for its analysis."""


def http_processes(main_pid: int) -> list[int]:
    """The HTTP processes among ``main_pid``'s children."""
    found = []
    for task in os.listdir(f"/proc/{main_pid}/task"):
        for child in Path(f"/proc/{main_pid}/task/{task}/children").read_text().split():
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if b"service.web.processes" in command:
                found.append(int(child))
    return found


def gone(pid: int) -> bool:
    """The process has ended (a zombie not yet reaped by whoever adopted it counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def established(pid: int, port: int) -> int:
    """TCP connections to local ``port`` whose socket the process ``pid`` holds."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            local_port, state, inode = int(fields[1].rsplit(":", 1)[1], 16), fields[3], fields[9]
            count += local_port == port and state == "01" and inode in inodes
    return count


def test_connections_are_handed_to_the_processes_in_turn() -> None:
    with running_server(http_port=0, workers=2, grpc_enabled=False, http_processes=2) as running:
        clients = [Api(running.http.port) for _ in range(4)]
        for client in clients:
            assert client.post("solve", ENDGAME) == (200, evaluate(ENDGAME))
        assert [established(pid, running.http.port) for pid in running.http.pids] == [2, 2]


def test_a_deadline_stops_the_search_in_an_http_process() -> None:
    fresh = str(random_deal(20261202))
    with running_server(http_port=0, workers=2, grpc_enabled=False, http_processes=2, solver_setup=SLOW) as running:
        api = Api(running.http.port)
        # solve runs on the process's event loop: a 504 comes only from the C search stopping.
        status, answer = api.post("solve", {"deal": fresh, "contract": "6s", "declarer": 0}, "?timeout=0.3")
        assert status == 504 and "deadline" in answer["error"]
        assert api.post("solve", ENDGAME, "?timeout=30") == (200, evaluate(ENDGAME))
        # analyze runs on the process's one solver thread: had its search gone on,
        # the next pool call would wait behind it past its own deadline.
        status, answer = api.post("analyze", {"deal": fresh}, "?timeout=0.3")
        assert status == 504 and "deadline" in answer["error"]
        status, answer = api.post("position", {**ENDGAME, "played": []}, "?timeout=30")
        assert status == 200 and answer["value"] == evaluate(ENDGAME)["declarer_tricks"]


def test_stop_ends_every_http_process() -> None:
    with running_server(http_port=0, workers=2, http_processes=3) as running:
        pids = running.http.pids
        assert len(pids) == 3 and not any(gone(pid) for pid in pids)
        assert Api(running.http.port).post("solve", ENDGAME)[0] == 200
    assert all(gone(pid) for pid in pids)


def test_a_call_in_flight_is_answered_before_its_process_ends() -> None:
    fresh = str(random_deal(20261203))
    answers: list[tuple[int, dict]] = []
    with running_server(http_port=0, workers=2, grpc_enabled=False, http_processes=2, solver_setup=SLOW) as running:
        api = Api(running.http.port)
        assert api.post("solve", ENDGAME)[0] == 200  # the connection is a process's now
        pids = running.http.pids
        before = sum(cpu_seconds(pid) for pid in pids)
        call = threading.Thread(target=lambda: answers.append(
            api.post("solve", {"deal": fresh, "contract": "6nt", "declarer": 0}, "?timeout=3")))
        call.start()
        assert wait_until(lambda: sum(cpu_seconds(pid) for pid in pids) > before + 0.3), "the search did not start"
        running.http.stop(grace=30)
        call.join(GUARD)
    assert answers and answers[0][0] == 504 and "deadline" in answers[0][1]["error"]
    assert all(gone(pid) for pid in pids)


def test_prefdd_serve_sigterm_ends_it_and_its_http_processes() -> None:
    served = ServeProcess("--no-grpc", "--http-port", "0", "--http-processes", "2", "--workers", "2")
    try:
        listening = served.logs[-1]
        assert listening["http_processes"] == 2
        pids = http_processes(served.process.pid)
        assert len(pids) == 2
        api = Api(urlsplit(listening["http"]).port or 0)
        assert api.post("solve", ENDGAME, "") == (200, evaluate(ENDGAME))
        logged = served.wait_for_log("http")  # an HTTP process's line, on the server's log stream
        assert logged["method"] == "/api/v1/solve" and logged["status"] == 200
        api.connection.close()
        assert served.terminate() == 0
        assert all(gone(pid) for pid in pids)
    finally:
        served.close()


def test_http_processes_end_when_the_main_process_is_killed() -> None:
    served = ServeProcess("--no-grpc", "--http-port", "0", "--http-processes", "2", "--workers", "2")
    try:
        pids = http_processes(served.process.pid)
        assert len(pids) == 2
        served.process.send_signal(signal.SIGKILL)
        served.process.wait(GUARD)
        assert wait_until(lambda: all(gone(pid) for pid in pids)), "an HTTP process outlived its server"
    finally:
        for pid in http_processes_left(pids):
            os.kill(pid, signal.SIGKILL)
        served.close()


def http_processes_left(pids: list[int]) -> list[int]:
    return [pid for pid in pids if not gone(pid)]


@pytest.mark.parametrize("options, phrase", [
    ({"http_processes": 2}, "HTTP port"),
    ({"http_processes": 0, "http_port": 0}, "http_processes"),
    ({"http_processes": 2, "http_port": 0, "dask": "local:1"}, "Dask"),
])
def test_bad_http_processes_are_refused_naming_the_problem(options: dict, phrase: str) -> None:
    with pytest.raises(ValueError, match=phrase):
        ServerConfig(host="127.0.0.1", port=0, **options)  # type: ignore[arg-type]


def test_settings_pickle_the_solver_setup_and_divide_the_limits() -> None:
    from service.web.app import WebConfig
    from service.web.processes import ProcessSettings

    settings = ProcessSettings(WebConfig(max_concurrent=64, auth_token="t0ken"), workers=4, max_advice_runs=2,
                               advice_workers=0, max_advice_seconds=120.0, score_workers=2, max_score_seconds=30.0,
                               keep_alive=30.0, log_level="info", solver_setup=SLOW)
    one = ProcessSettings.from_json(settings.shared(3).to_json())
    assert (one.workers, one.max_advice_runs, one.advice_workers, one.score_workers) == (1, 1, 4, 1)
    assert one.web == WebConfig(max_concurrent=21, auth_token="t0ken")
    assert isinstance(one.solver_setup, methodcaller) and json.loads(settings.to_json())["web"]["timeout"] == 60.0
