"""``POST /api/v1/solve`` with JSON lines (``Content-Type: application/x-ndjson``)
against a real server on 127.0.0.1, from its own process and from two HTTP
processes: the answer is what ``prefdd batch`` prints for the same lines."""
from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import load_jsonl, shared_file
from service_support import random_deal, running_server
from test_web_api import DEAL, PROCESSES, PREFDD, Api

TOKEN = "ndjson-token"
MAX_LINES = 40
NDJSON = {"content-type": "application/x-ndjson"}


@pytest.fixture(scope="module", params=PROCESSES)
def server(request: pytest.FixtureRequest) -> Iterator[Any]:
    with running_server(http_port=0, workers=2, http_processes=request.param, max_batch_items=MAX_LINES,
                        auth_token=TOKEN) as running:
        yield running


@pytest.fixture(scope="module")
def api(server: Any) -> Api:
    return Api(server.http.port, token=TOKEN)


def prefdd_batch(body: bytes, tmp_path: Path) -> bytes:
    """What ``prefdd batch FILE`` prints for ``body``."""
    path = tmp_path / "lines.jsonl"
    path.write_bytes(body)
    done = subprocess.run([str(PREFDD), "batch", str(path)], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def post_lines(api: Api, body: bytes, query: str = "") -> tuple[int, dict[str, str], bytes]:
    return api.raw("POST", f"/api/v1/solve{query}", body, NDJSON)


def test_lines_answer_what_prefdd_batch_prints(api: Api, tmp_path: Path) -> None:
    shared_file("dd-endgames.jsonl")
    good = [json.dumps({**line, "cards": k % 3 == 0, "id": k}) for k, line in enumerate(load_jsonl("dd-endgames.jsonl")[:24])]
    lines = [b"\xef\xbb\xbf" + good[0].encode(), b"", b"   ", b"{not json", b"[1, 2]", b"\xff\xfe",
             json.dumps({"deal": "AK.7..J9", "contract": "6nt", "declarer": 0, "id": "bad"}).encode(),
             json.dumps({"deal": DEAL, "contract": "6h", "declarer": 1, "best_discard": True}).encode(),
             *(line.encode() for line in good[1:])]
    body = b"\n".join(lines) + b"\n"
    status, headers, data = post_lines(api, body)
    assert status == 200, data
    assert headers["content-type"].startswith("application/x-ndjson")
    expected = prefdd_batch(body, tmp_path)
    assert data == expected
    answers = [json.loads(line) for line in data.splitlines()]
    assert len(answers) == len(lines) - 2, "one answer per non-blank line"
    assert sum("error" in answer for answer in answers) == 4
    assert answers[0]["id"] == 0 and "declarer_tricks" in answers[0]


def test_a_body_without_a_last_newline_and_an_empty_body(api: Api, tmp_path: Path) -> None:
    body = json.dumps({"deal": DEAL, "contract": "6h", "declarer": 1}).encode()
    status, _headers, data = post_lines(api, body)
    assert status == 200 and data == prefdd_batch(body, tmp_path)
    assert post_lines(api, b"")[::2] == (200, b"")


def test_a_json_body_keeps_the_single_answer(api: Api) -> None:
    request = {"deal": DEAL, "contract": "6h", "declarer": 1}
    status, headers, data = api.raw("POST", "/api/v1/solve", json.dumps(request).encode())
    assert status == 200 and headers["content-type"] == "application/json"
    status, headers, lines = post_lines(api, json.dumps(request).encode() + b"\n")
    assert headers["content-type"].startswith("application/x-ndjson")
    assert json.loads(data) == json.loads(lines)


def test_more_lines_than_the_limit_are_400_naming_it(api: Api) -> None:
    line = json.dumps({"deal": DEAL, "contract": "6h", "declarer": 1}).encode() + b"\n"
    assert post_lines(api, line * MAX_LINES)[0] == 200
    status, headers, data = post_lines(api, line * (MAX_LINES + 1) + b"\n\n")
    assert status == 400 and headers["content-type"] == "application/json"
    assert f"max_batch_items={MAX_LINES}" in json.loads(data)["error"]
    assert post_lines(api, line * MAX_LINES + b"\n" * 100)[0] == 200, "blank lines are not counted"


def test_a_body_over_the_limit_is_413(server: Any, api: Api) -> None:
    status, _headers, data = post_lines(api, b"\n" * (server.config.max_message_bytes + 1))
    assert status == 413 and "limit" in json.loads(data)["error"]


def test_a_deadline_stops_the_search_and_answers_504(api: Api) -> None:
    fresh = b"".join(json.dumps({"deal": str(random_deal(20261300 + k)), "contract": "misere", "declarer": 0,
                                 "cards": True}).encode() + b"\n" for k in range(MAX_LINES))
    status, _headers, data = post_lines(api, fresh, "?timeout=0.001")
    assert status == 504 and "deadline" in json.loads(data)["error"]
    line = json.dumps({"deal": DEAL, "contract": "6h", "declarer": 1}).encode()
    assert post_lines(api, line)[0] == 200, "the server answers the next call"


def test_the_token_is_required(server: Any) -> None:
    line = json.dumps({"deal": DEAL, "contract": "6h", "declarer": 1}).encode()
    for token in (None, "wrong"):
        status, _headers, data = post_lines(Api(server.http.port, token=token), line)
        assert status == 401 and "token" in json.loads(data)["error"]


@pytest.mark.parametrize("server", [1], indirect=True)  # HTTP processes log in their own processes
def test_the_log_line_counts_the_items(api: Api, caplog: pytest.LogCaptureFixture) -> None:
    line = json.dumps({"deal": DEAL, "contract": "6h", "declarer": 1}).encode()
    with caplog.at_level(logging.INFO, logger="service"):
        assert post_lines(api, b"\n".join([line] * 3) + b"\n\n{bad\n")[0] == 200
    fields = [record.fields for record in caplog.records if getattr(record, "fields", {}).get("event") == "http"]
    assert fields[-1]["items"] == 4 and fields[-1]["method"] == "/api/v1/solve"


def test_openapi_names_the_lines_form(api: Api) -> None:
    spec = json.loads(api.raw("GET", "/api/v1/openapi.json")[2])
    solve = spec["paths"]["/api/v1/solve"]["post"]
    assert "application/x-ndjson" in solve["requestBody"]["content"]
    assert "application/x-ndjson" in solve["responses"]["200"]["content"]
    assert "application/x-ndjson" not in spec["paths"]["/api/v1/analyze"]["post"]["requestBody"]["content"]
