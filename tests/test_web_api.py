"""The HTTP/JSON API against a real server on 127.0.0.1 (``start_server`` with
``http_port=0``, as ``prefdd serve --http-port`` runs it) and a real HTTP
client (``http.client`` over one keep-alive connection); every call both ways
the server can serve it: from its own process, and from two HTTP processes
(``--http-processes 2``, :mod:`service.web.processes`)."""
from __future__ import annotations

import http.client
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from solver.scoring.jsonio import handle_request

from conftest import batch_answer, load_jsonl, shared_file
from service_support import LOOPBACK, random_deal, running_server, wait_until

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
TOKEN = "s3cret-token"
PREFDD = Path(sys.executable).parent / "prefdd"
ADVICE = ("whist", "bid", "enumerate", "play")


class Api:
    """A keep-alive HTTP client of one server."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.connection = http.client.HTTPConnection(LOOPBACK, port, timeout=60)
        self.token = token

    def raw(self, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        headers = {"content-type": "application/json", **(headers or {})}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()

    def post(self, name: str, body: Any, query: str = "") -> tuple[int, Any]:
        status, _headers, data = self.raw("POST", f"/api/v1/{name}{query}", json.dumps(body).encode())
        return status, json.loads(data)


PROCESSES = [pytest.param(1, id="one-process"), pytest.param(2, id="two-processes")]


@pytest.fixture(scope="module", params=PROCESSES)
def server(request: pytest.FixtureRequest) -> Iterator[Any]:
    with running_server(http_port=0, workers=2, max_advice_layouts=50_000, http_processes=request.param) as running:
        yield running


@pytest.fixture(scope="module")
def api(server: Any) -> Api:
    return Api(server.http.port)


def cli_json(*argv: str) -> Any:
    """What the installed ``prefdd`` prints with ``--json``."""
    done = subprocess.run([str(PREFDD), *argv, "--json", *(["--no-progress"] if argv[0] in ADVICE else [])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def without_times(answer: Any) -> Any:
    """An advice answer without its run's elapsed seconds (the only field that
    differs from run to run with the same seed)."""
    answer = dict(answer)
    answer["run"] = {k: v for k, v in answer["run"].items() if k != "seconds"}
    return answer


def test_solve_answers_the_batch_answer_for_every_reference_line(api: Api) -> None:
    shared_file("dd-endgames.jsonl")
    lines = load_jsonl("dd-endgames.jsonl")[:40]
    for index, line in enumerate(lines):
        request = {**line, "cards": index % 2 == 0, "id": index}
        status, answer = api.post("solve", request)
        assert status == 200
        assert answer == {"id": index, **batch_answer(request)}


def test_solve_bad_input_is_400_with_the_batch_message(api: Api) -> None:
    request = {"deal": "AK.7..J9", "contract": "6nt", "declarer": 0}
    status, answer = api.post("solve", request)
    assert status == 400
    with pytest.raises(ValueError) as error:
        batch_answer(request)
    assert answer == {"error": str(error.value)}


def test_analyze_equals_the_command_line(api: Api) -> None:
    assert api.post("analyze", {"deal": DEAL}) == (200, cli_json("analyze", DEAL))
    played = "As Ks 8s 7s 7h 9s Ac Tc 8c"
    status, answer = api.post("analyze", {"deal": DEAL, "declarer": 1, "contract": "6h", "played": played.split()})
    assert status == 200
    assert answer == cli_json("analyze", DEAL, "--declarer", "1", "--contract", "6h", "--played", played)
    assert answer["play"]["mistakes"], "the deal's ♣A at trick 3 is a mistake"


def test_position_values_equal_solve_cards(api: Api) -> None:
    status, answer = api.post("position", {"deal": DEAL, "contract": "6c", "declarer": 1, "discard": "JdKh"})
    assert status == 200
    expected = cli_json("solve", "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9", "--contract", "6c",
                        "--declarer", "1", "--cards")
    assert answer["card_values"] == expected["card_values"]
    assert answer["value"] == expected["declarer_tricks"]
    assert answer["to_move"] == 0 and answer["trick"] == [] and answer["tricks_taken"] == [0, 0, 0]


def test_position_after_cards_follows_the_best_line(api: Api) -> None:
    status, start = api.post("position", {"deal": DEAL, "contract": "6h", "declarer": 1, "best_line": True})
    assert status == 200 and len(start["best_line"]) == 30
    played = start["best_line"][:4]
    status, later = api.post("position", {"deal": DEAL, "contract": "6h", "declarer": 1, "played": played})
    assert status == 200
    assert later["played"] == played and later["value"] == start["value"]
    assert later["trick"] == played[3:] and sum(later["tricks_taken"]) == 1
    assert later["card_values"][start["best_line"][4]] == start["value"]


def test_position_illegal_card_names_the_rule(api: Api) -> None:
    status, answer = api.post("position", {"deal": DEAL, "contract": "6h", "declarer": 1, "played": ["As", "9s"]})
    assert status == 400
    assert "does not hold" in answer["error"] and "9s" in answer["error"]


def test_allpass_position_counts_the_seat_on_move(api: Api) -> None:
    status, answer = api.post("position", {"deal": DEAL, "contract": "allpass"})
    assert status == 200
    assert answer["declarer"] is None and answer["counted_seat"] == answer["to_move"] == 0
    assert answer["talon_lead"] == "Jd"
    values = cli_json("analyze", DEAL, "--contract", "allpass")
    assert answer["value"] == values["allpass"]["player_tricks"][0]


def test_advice_equals_the_command_line(api: Api) -> None:
    whist = {"hand": "AQ7.K98.KT.QJ", "talon": "..J.K", "contract": "6h", "declarer": 1, "seat": 0,
             "other": "pass", "layouts": 60, "seed": 3}
    status, answer = api.post("whist", whist)
    assert status == 200
    expected = cli_json("whist", "AQ7.K98.KT.QJ", "--talon", "..J.K", "--contract", "6h", "--declarer", "1",
                        "--seat", "0", "--other", "pass", "--layouts", "60", "--seed", "3", "--workers", "2")
    assert without_times(answer) == without_times(expected)
    bid = {"hand": "AKQJ8.AK.A.87", "seat": 0, "contracts": ["6s", "7s"], "layouts": 20, "seed": 1}
    status, answer = api.post("bid", bid)
    assert status == 200
    expected = cli_json("bid", "AKQJ8.AK.A.87", "--seat", "0", "--contracts", "6s,7s", "--layouts", "20",
                        "--seed", "1", "--workers", "2")
    assert without_times(answer) == without_times(expected)


def test_blind_discard_figure_as_the_command_line_gives_it(api: Api) -> None:
    whist = {"hand": "AQ7.K98.KT.QJ", "talon": "..J.K", "contract": "6h", "declarer": 1, "seat": 0,
             "other": "pass", "layouts": 20, "seed": 3}
    argv = ["whist", "AQ7.K98.KT.QJ", "--talon", "..J.K", "--contract", "6h", "--declarer", "1", "--seat", "0",
            "--other", "pass", "--layouts", "20", "--seed", "3", "--workers", "2"]
    status, answer = api.post("whist", whist)
    assert status == 200 and answer["conservative"]["figure"] == "blind_discard"
    assert answer["conservative"] == cli_json(*argv)["conservative"]
    status, answer = api.post("whist", {**whist, "blind_discard": 5})
    assert status == 200 and answer["conservative"]["layouts"] == 5
    assert answer["conservative"] == cli_json(*argv, "--blind-discard", "5")["conservative"]
    status, answer = api.post("whist", {**whist, "blind_discard": 0})
    assert status == 200 and answer["conservative"] is None
    status, answer = api.post("bid", {"hand": "AQ.KJ.AKJ98.A", "seat": 0, "contracts": ["7nt", "8d"], "layouts": 6})
    expected = cli_json("bid", "AQ.KJ.AKJ98.A", "--seat", "0", "--contracts", "7nt,8d", "--layouts", "6",
                        "--workers", "2")
    assert status == 200 and answer["conservative_runner_up"] == expected["conservative_runner_up"] is not None
    status, answer = api.post("whist", {**whist, "blind_discard": -1})
    assert status == 400 and "blind_discard" in answer["error"]


def test_play_advice_equals_the_command_line(api: Api) -> None:
    body = {"hand": "T98.JT98.T98.", "contract": "misere", "declarer": 1, "seat": 0, "talon": "..7.7",
            "open": {"2": "KQJ.AKQ.AKQJ."}}
    status, answer = api.post("play", body)
    assert status == 200
    expected = cli_json("play", "T98.JT98.T98.", "--contract", "misere", "--declarer", "1", "--seat", "0",
                        "--talon", "..7.7", "--open", "2=KQJ.AKQ.AKQJ.", "--workers", "2")
    assert without_times(answer) == without_times(expected)
    status, answer = api.post("play", {**body, "open": {"5": "KQJ.AKQ.AKQJ."}})
    assert status == 400 and "open" in answer["error"]


def test_enumerate_over_the_layout_limit_is_refused_naming_it(api: Api) -> None:
    status, answer = api.post("enumerate", {"hand": "AKQJ87.AK.A8.87", "declarer": 0, "contract": "6s",
                                            "discard": "..8.8"})
    assert status == 429
    assert "max_advice_layouts=50000" in answer["error"]


def test_score_equals_the_scoring_api(api: Api) -> None:
    request = {"convention": "sochi", "kind": "deal", "input": {
        "type": "contract", "players": ["A", "B", "C"], "declarer": "A", "contract": 6, "defenders": ["B", "C"],
        "decisions": {"B": "whist", "C": "pass"}, "tricks": {"A": 6, "B": 4, "C": 0}}}
    assert api.post("score", request) == (200, handle_request(request))
    status, answer = api.post("score", {"convention": "nowhere", "kind": "deal", "input": {}})
    assert status == 400 and "nowhere" in answer["error"]


@pytest.mark.parametrize("body, phrase", [
    (b"{not json", "not JSON"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "not JSON"),
    (b'{"deal": NaN}', "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
])
def test_bad_bodies_are_400(api: Api, body: bytes, phrase: str) -> None:
    status, _headers, data = api.raw("POST", "/api/v1/solve", body)
    assert status == 400
    assert phrase in json.loads(data)["error"]


def test_a_body_over_the_limit_is_413(server: Any) -> None:
    api = Api(server.http.port)
    status, _headers, data = api.raw("POST", "/api/v1/solve", b" " * (server.config.max_message_bytes + 1))
    assert status == 413 and "limit" in json.loads(data)["error"]


def test_request_id_is_echoed_and_made_when_missing(api: Api) -> None:
    _status, headers, _data = api.raw("POST", "/api/v1/solve", b"{}", {"x-request-id": "abc-1"})
    assert headers["x-request-id"] == "abc-1"
    _status, headers, _data = api.raw("POST", "/api/v1/solve", b"{}")
    assert len(headers["x-request-id"]) == 16


@pytest.mark.parametrize("server", [1], indirect=True)  # the pool's counters; HTTP processes: test_web_processes
def test_a_deadline_stops_the_search_and_answers_504(server: Any, api: Api) -> None:
    before = server.pool.stats()
    fresh = str(random_deal(20261201))  # no table has seen it: its analysis takes tens of milliseconds
    status, answer = api.post("analyze", {"deal": fresh}, "?timeout=0.001")
    assert status == 504 and "deadline" in answer["error"]
    assert wait_until(lambda: server.pool.stats().busy_workers == 0 and server.pool.stats().queued == 0)
    after = server.pool.stats()
    assert after.stopped + after.dropped > before.stopped + before.dropped, "the job was not stopped"
    assert api.post("solve", {"deal": DEAL, "contract": "6h", "declarer": 1})[0] == 200
    assert api.post("analyze", {"deal": DEAL}, "?timeout=abc")[0] == 400


def test_openapi_lists_every_call(api: Api) -> None:
    status, _headers, data = api.raw("GET", "/api/v1/openapi.json")
    assert status == 200
    spec = json.loads(data)
    assert spec["openapi"].startswith("3.")
    assert {"/api/v1/solve", "/api/v1/analyze", "/api/v1/position", "/api/v1/whist", "/api/v1/bid",
            "/api/v1/enumerate", "/api/v1/play", "/api/v1/score"} <= set(spec["paths"])


def test_the_page_and_its_module_are_served(api: Api) -> None:
    status, headers, page = api.raw("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b"/static/app.js" in page
    status, headers, script = api.raw("GET", "/static/app.js")
    assert status == 200 and b"/api/v1/position" in script


@pytest.mark.parametrize("processes", PROCESSES)
def test_token_is_required_when_configured(processes: int) -> None:
    with running_server(http_port=0, workers=1, auth_token=TOKEN, http_processes=processes) as running:
        request = {"deal": DEAL, "contract": "6h", "declarer": 1}
        status, answer = Api(running.http.port).post("solve", request)
        assert status == 401 and "token" in answer["error"]
        status, answer = Api(running.http.port, token="wrong").post("solve", request)
        assert status == 401
        status, answer = Api(running.http.port, token=TOKEN).post("solve", request)
        assert status == 200 and answer == batch_answer(request)


@pytest.mark.parametrize("processes", PROCESSES)
def test_http_alone_serves_without_grpc(processes: int) -> None:
    with running_server(http_port=0, workers=1, grpc_enabled=False, http_processes=processes) as running:
        assert running.server is None
        status, answer = Api(running.http.port).post("solve", {"deal": DEAL, "contract": "6h", "declarer": 1})
        assert status == 200 and "declarer_tricks" in answer


def test_huge_numbers_are_refused_before_any_arithmetic(api: Api) -> None:
    """"1e10000000" as a price would expand into ten million digits and hold
    the interpreter for seconds: refused at the door, and the server answers
    at once afterwards."""
    request = {"convention": "sochi", "option_overrides": {"whist_price": "1e10000000"}, "kind": "deal",
               "input": {"type": "allpass", "players": ["A", "B", "C"], "tricks": {"A": 5, "B": 0, "C": 5}}}
    status, answer = api.post("score", request)
    assert status == 400 and "out of range" in answer["error"]
    status, answer = api.post("analyze", {"deal": DEAL, "declarer": "1e10000000"})
    assert status == 400
    assert api.post("solve", {"deal": DEAL, "contract": "6h", "declarer": 1})[0] == 200
