"""``prefdd batch``, ``prefdd score`` and ``prefdd pool`` read their input as
bytes, line by line: every non-blank line gets exactly one answer, in order,
whatever bytes it holds, and JSON the decoder cannot take is an error line,
never a traceback. Resources are bounded: ``--workers`` and the numbers of
scoring input."""
from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path

import pytest

from solver.advice.parallel import max_workers
from solver.cli import main
from solver.jsonlines import MAX_DEPTH, MAX_LINE_BYTES

DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9"


def request(n: int) -> bytes:
    return json.dumps({"deal": DEAL, "contract": "6c", "declarer": 1, "id": n}).encode()


SCORE = json.dumps({"convention": "sochi", "kind": "deal", "input": {
    "type": "allpass", "players": ["A", "B", "C"], "tricks": {"A": 3, "B": 3, "C": 4}}}).encode()

BAD_LINES = {
    "invalid UTF-8": b'{"deal": "\xff\xfe"}',
    "a lone continuation byte": b"\x80",
    "a NUL byte": b'{"id": 1}\x00',
    "a BOM after the first line": b"\xef\xbb\xbf" + request(0),
    "nesting 1,000 deep": b"[" * 1000 + b"]" * 1000,
    "nesting 100,000 deep": b"[" * 100_000,
    "nesting just past the limit": b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
    "an integer of 5,000 digits": b'{"id": ' + b"9" * 5000 + b"}",
    "a float that overflows": b'{"id": 1e999}',
    "NaN": b'{"id": NaN}',
    "Infinity": b'{"id": -Infinity}',
    "a lone surrogate": b'{"id": "\\ud800", "deal": "\\udfff"}',
    "not JSON": b"{{{",
    "a JSON array": b"[1, 2]",
}


def run(capsysbinary, argv: list[str]) -> tuple[int, list[dict], str]:
    status = main(argv)
    captured = capsysbinary.readouterr()
    lines = captured.out.decode("utf-8").splitlines()
    return status, [json.loads(line) for line in lines], captured.err.decode("utf-8", "replace")


@pytest.mark.parametrize("what", sorted(BAD_LINES))
@pytest.mark.parametrize("command", ["batch", "score"])
def test_one_bad_line_is_one_error_answer(tmp_path: Path, capsysbinary, command: str, what: str) -> None:
    good = request(1) if command == "batch" else SCORE
    path = tmp_path / "in.jsonl"
    path.write_bytes(good + b"\n" + BAD_LINES[what] + b"\n" + good + b"\n")
    status, answers, err = run(capsysbinary, [command, str(path)])
    assert status == 0 and "Traceback" not in err
    assert len(answers) == 3
    assert "error" not in answers[0] and "error" not in answers[2]
    assert "error" in answers[1]


def test_one_bad_byte_in_1100_lines_loses_nothing(tmp_path: Path, capsysbinary) -> None:
    lines = [request(n) for n in range(1100)]
    lines[700] = lines[700].replace(b"AQ7", b"A\xffQ7")
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    status, answers, _ = run(capsysbinary, ["batch", str(path)])
    assert status == 0 and len(answers) == 1100
    assert [a.get("id") for a in answers[:700]] == list(range(700))
    assert answers[700] == {"error": "line 701: not UTF-8 text (byte 0xff at column 12)"}
    assert [a["id"] for a in answers[701:]] == list(range(701, 1100))
    assert all(a["declarer_tricks"] == answers[0]["declarer_tricks"] for a in answers if "id" in a)


def test_a_bom_on_the_first_line_is_accepted(tmp_path: Path, capsysbinary) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + request(1) + b"\n" + request(2) + b"\n")
    _, answers, _ = run(capsysbinary, ["batch", str(path)])
    assert [a["id"] for a in answers] == [1, 2]


def test_blank_lines_get_no_answer_and_every_other_line_one(tmp_path: Path, capsysbinary) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b"\n  \n" + request(1) + b"\r\n\t\n" + b"\xff\n\n" + request(2))   # no final newline
    _, answers, _ = run(capsysbinary, ["batch", str(path)])
    assert [a.get("id", "error" in a) for a in answers] == [1, True, 2]


def test_a_line_too_long_is_one_error_and_the_rest_goes_on(tmp_path: Path, capsysbinary) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(request(1) + b"\n" + b'{"id": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n' + request(2) + b"\n")
    _, answers, _ = run(capsysbinary, ["batch", str(path)])
    assert answers[0]["id"] == 1 and answers[2]["id"] == 2
    assert "longer than" in answers[1]["error"] and len(answers) == 3


def test_workers_keep_one_answer_per_line_in_order(tmp_path: Path, capsysbinary) -> None:
    lines = [request(n) if n % 7 else BAD_LINES[sorted(BAD_LINES)[n % len(BAD_LINES)]] for n in range(60)]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    _, one, _ = run(capsysbinary, ["batch", str(path)])
    _, four, _ = run(capsysbinary, ["batch", str(path), "--workers", "4"])
    assert one == four and len(one) == 60
    assert [a.get("id") for a in one if n_is_good(a)] == [n for n in range(60) if n % 7]


def n_is_good(answer: dict) -> bool:
    return "error" not in answer


def test_batch_and_score_read_binary_standard_input() -> None:
    data = request(1) + b"\n\xff\n" + request(2) + b"\n"
    for command, expected in (("batch", 3), ("score", 3)):
        done = subprocess.run([sys.executable, "-m", "solver.cli", command], input=data, capture_output=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
        assert len(answers) == expected and "error" in answers[1]


def test_batch_answers_a_pipe_line_by_line() -> None:
    # A program that writes one request and waits for its answer gets it:
    # a pipe is not read ahead (a file is, 64 lines at a time).
    process = subprocess.Popen([sys.executable, "-m", "solver.cli", "batch"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    try:
        for n in range(3):
            process.stdin.write(request(n) + b"\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 120)
            assert ready, f"no answer to request {n} while the pipe stays open"
            assert json.loads(process.stdout.readline()) == {"id": n, "declarer_tricks": 4}
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0


def test_batch_file_and_pipe_answer_the_same(tmp_path: Path, capsysbinary) -> None:
    lines = [request(n) if n % 5 else BAD_LINES[sorted(BAD_LINES)[n % len(BAD_LINES)]] for n in range(150)]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    main(["batch", str(path)])
    from_file = capsysbinary.readouterr().out
    piped = subprocess.run([sys.executable, "-m", "solver.cli", "batch"], input=path.read_bytes(),
                           capture_output=True, timeout=300)
    assert piped.returncode == 0 and piped.stdout == from_file
    assert len(from_file.splitlines()) == 150


# ---- prefdd pool (one game per file) ----------------------------------------------

GAME = {"players": ["A", "B", "C"], "convention": "sochi", "pool_size": 10,
        "deals": [{"type": "allpass", "tricks": {"A": 3, "B": 3, "C": 4}}]}


@pytest.mark.parametrize("content, message", [
    (b"\xef\xbb\xbf" + json.dumps(GAME).encode(), None),
    (json.dumps(GAME).encode().replace(b'"A"', b'"\xff"', 1), "not UTF-8 text (byte 0xff on line 1)"),
    (b'{\n"players": ["A", "B", "C"]\x00}', "holds a NUL byte (line 2)"),
    (b"[" * 1000 + b"]" * 1000, "nested more than"),
    (json.dumps({**GAME, "pool_size": 1}).encode().replace(b"1,", b"1e999,"), "too large"),
    (json.dumps({**GAME, "pool_size": "1e10000000"}).encode(), "out of range"),
    (json.dumps({**GAME, "whist_price": 10**40}).encode(), "out of range"),
    (json.dumps({**GAME, "option_overrides": {"misere_pool": "1" * 70}}).encode(), "at most 64 characters"),
    (b'{"players": NaN}', "NaN is not a JSON number"),
    (b"{", "is not valid JSON"),
])
def test_pool_reports_a_bad_file_clearly(tmp_path: Path, capsysbinary, content: bytes, message: str | None) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    status = main(["pool", str(path), "--json"])
    captured = capsysbinary.readouterr()
    err = captured.err.decode()
    assert "Traceback" not in err
    if message is None:
        assert status == 0 and json.loads(captured.out)
    else:
        assert status == 2 and message in err and captured.out == b""


def test_pool_reads_standard_input() -> None:
    done = subprocess.run([sys.executable, "-m", "solver.cli", "pool", "-"], input=json.dumps(GAME).encode(),
                          capture_output=True, timeout=120)
    assert done.returncode == 0 and done.stdout, done.stderr


# ---- resources ----------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["batch"],
    ["whist", "JT98.JT.98.A9", "--talon", "..J.K", "--contract", "6s", "--declarer", "0", "--seat", "1"],
    ["bid", "AKQJ.AK.AK.AK", "--seat", "0"],
    ["enumerate", "AKQJ87.AK.A8.87", "--declarer", "0", "--contract", "6s", "--discard", "..8.8"],
])
def test_workers_are_bounded_by_the_cores(capsys, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv + ["--workers", "1000"])
    assert exit_.value.code == 2
    assert f"at most {max_workers()}" in capsys.readouterr().err


@pytest.mark.parametrize("number", ["1e10000000", "-1e10000000", "1e-10000000", "1_0e9_999_999", "9" * 64,
                                    10**13, "1/" + "3" * 20, 1e300])
def test_absurd_scoring_numbers_are_refused_before_any_arithmetic(tmp_path: Path, capsysbinary, number) -> None:
    players = ["A", "B", "C"]
    lines = [
        {"convention": "sochi", "kind": "settlement", "players": players,
         "input": {"pool": {"A": number}, "mountain": {}, "whists": [], "pool_size": 10}},
        {"convention": "sochi", "option_overrides": {"misere_pool": number}, "kind": "deal",
         "input": {"type": "allpass", "players": players, "tricks": {"A": 3, "B": 3, "C": 4}}},
        {"convention": "sochi", "kind": "pool_write_with_help", "players": players,
         "input": {"pool_before": {}, "mountain_before": {}, "pool_size": number, "writer": "A", "points": 1,
                   "excluded_from_help": [], "seat_order_clockwise": players}},
        {"convention": "sochi", "kind": "ev_decision", "players": players,
         "input": {"declarer": "A", "contract": 6, "first_defender_B": "pass", "decider": "C",
                   "defence_trick_distribution_if_whist": {"2": number}}},
    ]
    path = tmp_path / "numbers.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    status, answers, _ = run(capsysbinary, ["score", str(path)])
    assert status == 0 and len(answers) == 4
    # Refused for its size (10**10,000,000 alone would take minutes to build).
    bounds = ("out of range", "at most 64 characters", "too fine a fraction")
    assert all(any(b in answer.get("error", "") for b in bounds) for answer in answers), answers


def test_serve_worker_counts_are_bounded_by_the_cores() -> None:
    """prefdd serve --workers 1000 would start 1000 solvers (16 MiB each): refused
    before anything starts, like the other commands' --workers."""
    import subprocess
    import sys
    from pathlib import Path

    prefdd = Path(sys.executable).parent / "prefdd"
    for flag in ("--workers", "--advice-workers", "--score-workers"):
        done = subprocess.run([str(prefdd), "serve", "--port", "0", flag, "1000"], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2
        assert f"{flag}: at most" in done.stderr
