"""Fuzzing the parsers (hypothesis): random text through the notation, random
bytes through the line reader, random JSON through the batch and scoring
requests. Nothing raises but the documented error classes, and every
non-blank line gets exactly one answer."""
from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import batch_line
from solver.jsonlines import LineError, loads, read_lines
from solver.notation import Card, Contract, Deal, Hand, NotationError, parse_cards, parse_seat
from solver.position import Position, PositionError
from solver.scoring.cli import answer_line
from solver.scoring.errors import ScoringError
from solver.scoring.numbers import MAX_MAGNITUDE, parse_number

FUZZ = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

# Text near the notation: cards, suits, separators, digits, symbols, junk.
NOTATION_ALPHABET = "AKQJT98710Xx" + "scdhSCDH" + "♠♣♦♥" + "./ -,\t\n" + "\ufe0f\u0301é\x00\ud7ff"
notation_text = st.one_of(st.text(alphabet=NOTATION_ALPHABET, max_size=60), st.text(max_size=30))


@FUZZ
@given(text=notation_text)
def test_notation_parsers_raise_only_notation_errors(text: str) -> None:
    for parse in (Card.parse, Hand.parse, Deal.parse, Contract.parse, parse_cards, parse_seat):
        try:
            parse(text)
        except NotationError as error:
            assert str(error)


@FUZZ
@given(deal=notation_text, contract=st.sampled_from(["6s", "7nt", "misere", "allpass", "x"]) | notation_text,
       played=notation_text)
def test_positions_from_text_raise_only_value_errors(deal: str, contract: str, played: str) -> None:
    try:
        position = Position.start(deal, contract, 0)
        for card in played.split():
            position = position.play(card)
    except (NotationError, PositionError) as error:
        assert str(error)


JSON_SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                | st.text(max_size=12) | st.sampled_from(["6s", "misere", "allpass", "AQ7.K98.KT.QJ", "..J.K"]))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
BATCH_KEYS = ["declarer", "leader", "cards", "talon", "player", "id", "best_discard", "line",
              "talon_leads", "four_players"]
DEALS = ["AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9", "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K",
         "A... K... Q...", "A.K.. Q.J.. 7.8.."]
batch_requests = st.fixed_dictionaries(
    {"deal": st.sampled_from(DEALS) | JSON_SCALARS, "contract": st.sampled_from(["6s", "7nt", "misere", "allpass"])},
    optional={key: JSON_VALUES | st.integers(-3, 3) for key in BATCH_KEYS})


@FUZZ
@given(line=st.text(max_size=80) | st.builds(json.dumps, JSON_VALUES))
def test_batch_answers_any_text_with_one_json_object(line: str) -> None:
    answer = json.loads(batch_line(line))
    assert isinstance(answer, dict) and "internal error" not in answer.get("error", "")


@settings(FUZZ, max_examples=60)
@given(request=batch_requests)
def test_batch_answers_random_requests(request: dict) -> None:
    answer = json.loads(batch_line(json.dumps(request)))
    assert isinstance(answer, dict) and "internal error" not in answer.get("error", ""), answer
    assert ("error" in answer) != any(k in answer for k in ("declarer_tricks", "player_tricks", "tricks"))


@FUZZ
@given(data=st.lists(st.binary(max_size=40) | st.sampled_from([b"\xef\xbb\xbf", b"\x00", b"\r", b"{}", b"[["]),
                     max_size=12))
def test_line_reader_answers_every_non_blank_line_once(data: list[bytes]) -> None:
    raw = b"".join(data)
    items = list(read_lines(io.BytesIO(raw)))
    expected = 0
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if number == 1:
            line = line.removeprefix(b"\xef\xbb\xbf")
        try:
            blank = not line.decode("utf-8").strip()
        except UnicodeDecodeError:
            blank = False
        expected += not blank
    assert len(items) == expected
    for item in items:
        assert isinstance(item, (str, LineError))
        answer = json.loads(batch_line(item))
        assert isinstance(answer, dict) and "internal error" not in answer.get("error", "")
        assert "internal error" not in answer_line(item).get("error", "")


@FUZZ
@given(text=st.text(alphabet="[]{}\"0123456789.eE+-:,NaIfinty \\u", max_size=200))
def test_json_loads_raises_only_line_errors(text: str) -> None:
    try:
        loads(text)
    except LineError as error:
        assert str(error)


NUMBER_TEXT = st.one_of(
    st.from_regex(r"\A[-+]?[0-9_]{0,30}(\.[0-9_]{0,30})?([eE][-+]?[0-9_]{1,12})?\Z"),
    st.from_regex(r"\A[-+]?[0-9]{1,30}/[0-9]{1,30}\Z"),
    st.text(max_size=20))


@FUZZ
@given(value=NUMBER_TEXT | st.integers() | st.floats() | JSON_SCALARS)
def test_scoring_numbers_are_bounded_or_refused(value) -> None:
    try:
        number = parse_number(value, "amount")
    except ScoringError as error:
        assert "amount" in str(error)
    else:
        assert abs(number) <= MAX_MAGNITUDE
