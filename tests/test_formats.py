"""Deal records in other programs' forms and our own (solver.formats).

The samples are written here from each format's documented grammar:

* JPref ``deal:`` lines: the lines of ab-chesspad/jpref's test files
  (``etc/tests/freeplay``, ``misereplay``: hands, talon, elder hand, ``->``
  bid and tricks, ``#`` comment, a bracketed trick list before a deal) and its
  log line (``GameManager``: ``printf("%s %s  %d\\n", DEAL_MARK, ...)``);
* Slovesnov's ``.pts``/``.bts`` v5: slovesnov/bridge ``Problem.cpp``
  (``getBtsContent`` writes, ``parseBts`` reads: ``deal N`` then the hands in
  spades.hearts.diamonds.clubs from North, or East when North is absent;
  ``contract``, ``play``, ``turns``, ``player``, ``absent``, ``comment``) and
  its sample ``problems/preferansFriday.pts``; old files in cp1251;
* our record: ``solver/formats/record.schema.json``.
"""
from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.formats import FORMATS, FormatError, GameRecord, detect, jpref, read_record, read_records, record, slovesnov, text, write_records
from solver.notation import Card, Contract, ContractKind, Deal, Hand
from solver.position import Position
from solver.scoring import Decision, handle_request

EXAMPLE = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K")

JPREF_SAMPLE = """freeplay: hands, talon, elderhand -> bid, tricks

deal: ♠7JQK ♦7XJK ♥7J  ♠89X ♣789XJ ♦Q ♥9  ♠A ♣QKA ♦89 ♥8XQA  ♦A ♥K  1 -> X♥ 9 # X♥??
[♠87A, ♦A7Q, ♦8K ♠9, ♠X ♣7 ♦9, ♦X ♠J ♣8, ♥KQ7, ♥X ♠Q ♥9, ♥8 ♠K ♥A, ♣9 ♦J ♣J, ♥J ♣AX]
deal: ♠79 ♣789X ♦Q ♥79A  ♠A ♣QK ♦89XJA ♥8K  ♠8XJQK ♣JA ♦7K ♥Q  ♥XJ  2 -> 6♦ 8
#misère
deal: ♠789XJ ♣7 ♦78X ♥7   ♠QA ♣89 ♦9JQK ♥9J   ♠K ♣XJQKA  ♥8XQK   ♦A ♥A  0 -> Misère 0 # не ловится
deal: ♠JQKA ♣JQ ♦9K ♥9K  ♠9X ♣9X ♦8QA ♥8QA  ♠78 ♣78 ♦7XJ ♥7XJ  ♣KA  1 -> All-pass
deal: ♠9A ♣KA ♦789A ♥8Q  ♠XJ ♣9JQ ♦J ♥7XJK  ♠78Q ♣78X ♦XQK ♥9  ♥A ♠K  1
"""

PTS_SAMPLE = """% bts version 5.2
deal 1 KQ7.AJ7.K87.J J98.KQT8..T98 A..AQJT9.AKQ7
contract 8D
play N
turns 0
player S
absent W
comment

deal 2 A.AKT.KJ.A987 KQJT9.QJ987.. ..AQT987.KQJT
contract 6C
play SA
turns 1
player N
absent S
comment two lines
of comment

deal 3 7.98.AK.KQJT9 AKQJT.7.QJT9. 98.AKQJT.87.A
contract mizer
play E
turns 0
player E
absent N
comment
"""


@st.composite
def full_deals(draw) -> Deal:
    order = draw(st.permutations(range(32)))
    hands = tuple(Hand.from_cards(Card.from_index(i) for i in order[10 * s:10 * s + 10]) for s in range(3))
    return Deal(hands, Hand.from_cards(Card.from_index(i) for i in order[30:]))


@st.composite
def played_records(draw) -> GameRecord:
    """A full deal, a contract and declarer, a discard, and some legal cards."""
    deal = draw(full_deals())
    contract = draw(st.sampled_from([Contract.parse(c) for c in ("6s", "7c", "8nt", "10h", "misere")]))
    declarer = draw(st.integers(0, 2))
    pool = (deal.hands[declarer] | deal.talon).cards()
    discard = Hand.from_cards(draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True)))
    base = GameRecord(deal, contract=contract, declarer=declarer, discard=discard)
    position = base.final_position()
    cards = []
    for _ in range(draw(st.integers(0, 30))):
        legal = position.legal_cards()
        card = draw(st.sampled_from(legal))
        cards.append(card)
        position = position.play(card)
    decisions = [None, None, None]
    for seat in range(3):
        if seat != declarer:
            decisions[seat] = draw(st.sampled_from(list(Decision)))
    return base.with_(played=tuple(cards), decisions=tuple(decisions),
                      convention=draw(st.sampled_from([None, "sochi", "leningrad", "rostov"])))


# ---- round trips ---------------------------------------------------------------

@given(full_deals())
@settings(max_examples=80, deadline=None)
def test_every_format_round_trips_a_deal(deal):
    for name in ("record", "jpref", "text"):
        out = FORMATS[name].dumps([GameRecord(deal)])
        assert FORMATS[name].loads(out)[0].deal == deal, name
    problem = GameRecord(Deal(deal.hands), contract=Contract.parse("6s"), declarer=1)
    assert slovesnov.loads(slovesnov.dumps([problem]))[0].deal == Deal(deal.hands)


@given(played_records())
@settings(max_examples=60, deadline=None)
def test_records_round_trip_whole(rec):
    assert record.loads(record.dumps(rec))[0] == rec
    again = jpref.loads(jpref.dumps(rec))[0]
    assert again.deal == rec.deal
    if len(rec.played) == 30 and rec.discard != rec.deal.talon:
        # JPref names no declarer: he is found again as the seat that plays a talon card
        assert (again.contract, again.declarer, again.played) == (rec.contract, rec.declarer, rec.played)
    elif len(rec.played) == 30:
        # the talon discarded: any seat could have declared; several fit, so the tricks stay a comment
        assert again.declarer in (None, rec.declarer) and (again.declarer is not None or "tricks [" in again.comment)
    pts = slovesnov.loads(slovesnov.dumps(rec))[0]
    assert (pts.deal, pts.contract, pts.played) == (Deal(rec.deal_in_play().hands), rec.contract, rec.played)
    assert pts.declarer == rec.declarer


@given(played_records())
@settings(max_examples=40, deadline=None)
def test_written_records_follow_the_schema(rec):
    jsonschema.validate(record.to_json(rec), record.schema())


def test_schema_documents_every_field():
    properties = record.schema()["properties"]
    assert set(properties) == set(record._FIELDS)
    jsonschema.Draft202012Validator.check_schema(record.schema())


# ---- JPref ---------------------------------------------------------------------

def test_jpref_sample():
    records = jpref.loads(JPREF_SAMPLE)
    assert len(records) == 5
    ten = records[0]
    # elder hand 1: JPref's hand 1 is seat 0
    assert ten.deal.hands[0] == Hand.parse("♠T98 ♣JT987 ♦Q ♥9")
    assert ten.deal.talon == Hand.parse("♦A ♥K")
    assert ten.bids == ("10h",) and ten.declarer_tricks == 9 and ten.comment == "X♥??"
    played = records[1]
    # the declarer is found from the trick list: the seat that plays the talon cards and takes 8
    assert (str(played.contract), played.declarer, len(played.played)) == ("6d", 2, 30)
    assert played.discard == Hand.parse("♣KQ")
    assert played.tricks_by_seat()[2] == 8
    assert records[2].bids == ("misere",) and records[2].comment == "не ловится"
    assert records[3].contract.kind is ContractKind.ALLPASS
    assert records[4].deal == Deal.parse("♠XJ ♣9JQ ♦J ♥7XJK / ♠78Q ♣78X ♦XQK ♥9 / ♠9A ♣KA ♦789A ♥8Q / ♥A ♠K")


def test_jpref_writes_its_layout():
    line = jpref.format_line(GameRecord(EXAMPLE, bids=("6c",), declarer_tricks=6))
    assert line == "deal: ♠7QA ♣89K ♦XK ♥JQ  ♠K ♣7QA ♦7QA ♥78X  ♠89XJ ♣XJ ♦89 ♥9A  ♦J ♥K  0 -> 6♣ 6"
    assert detect(line) == "jpref"
    # JPref's own bid names (Config.Bid): X for the ten, '-' for no trump
    for bid, name in (("10nt", "X-"), ("6nt", "6-"), ("10h", "X♥"), ("misere", "Misère")):
        written = jpref.format_line(GameRecord(EXAMPLE, bids=(bid,)))
        assert written.endswith("-> " + name) and jpref.parse_line(written).bids == (bid,)


@pytest.mark.parametrize("line, where, problem", [
    ("deal: ♠7QA ♣89K ♦XK ♥JQ  ♠K ♣7QA ♦7QA ♥78X  ♠89XJ ♣XJ ♦89 ♥9A  ♦J ♥K", "field 'elder'", "elder hand"),
    ("deal: ♠7QA ♣89K ♦XK ♥JQ  ♠K ♣7QA ♦7QA ♥78X  ♠89XJ ♣XJ ♦89 ♥9A  ♦J ♥K  5", "field 'elder'", "0, 1 or 2"),
    ("deal: ♠7QA ♣89K ♦XK ♥JQ  ♠K ♣7QA ♦7QA ♥78X  ♠89XJ ♣XJ ♦89 ♥9Z  ♦J ♥K  0", "field 'hands'", "'Z'"),
    ("deal: ♠7QA ♣89K ♦XK ♥JQ  ♠K ♣7QA ♦7QA ♥78X  ♠89XJ ♣XJ ♦89 ♥9A  ♦J  0", "field 'hands'", "talon of 2"),
    ("deal: ♠7QA ♣89KJ ♦XK ♥JQ  ♠K ♣7QA ♦7QA ♥78X  ♠89XJ ♣XJ ♦89 ♥9A  ♦J ♥K  0", "field 'hand 0'", "♥JQ gives 2 cards but hand 0 has room for 1"),
    ("deal: ♠7QA ♣89K ♦XK ♥JQ  ♠K ♣7QA ♦7QA ♥78X  ♠89XJ ♣XJ ♦89 ♥9A  ♦J ♥K  0 -> 5♠ 6", "field 'bid'",
     "out of range"),
])
def test_jpref_errors_name_line_and_field(line, where, problem):
    with pytest.raises(FormatError) as caught:
        jpref.loads("# a log\n\n" + line + "\n")
    assert str(caught.value).startswith("line 3, " + where)
    assert problem in str(caught.value)


def test_jpref_bad_tricks_line_names_its_line():
    bad = "[♠87A, ♦A7Q, ♦8K ♠9, ♠X ♣7 ♦9]\n" + JPREF_SAMPLE.splitlines()[4] + "\n"
    records = jpref.loads(bad)   # a part of the play: no single declarer fits, kept in the comment
    assert records[0].declarer is None and "tricks [" in records[0].comment
    with pytest.raises(FormatError, match=r"^line 1, field 'tricks': .*\bZ\b"):
        jpref.loads("[♠87Z]\n" + JPREF_SAMPLE.splitlines()[4])


# ---- Slovesnov .pts/.bts ---------------------------------------------------------

def test_pts_sample():
    first, second, third = slovesnov.loads(PTS_SAMPLE)
    # their order spades.hearts.diamonds.clubs; North leads: seat 0 = N, then E, S (W absent)
    assert first.deal == Deal.parse("KQ7.J.K87.AJ7 J98.T98..KQT8 A.AKQ7.AQJT9.")
    assert (str(first.contract), first.declarer, first.played) == ("8d", 2, ())
    # absent S: N, E, W seated; ♠A (North's) was led; one card played
    assert second.deal.hands[0] == Hand.parse("A.A987.KJ.AKT")
    assert second.played == (Card.parse("As"),) and second.declarer == 0
    assert second.comment == "two lines\nof comment"
    # absent N: the hands start at East; E leads and declares the old 'mizer'
    assert third.contract.kind is ContractKind.MISERE and third.declarer == 0
    assert third.deal.hands[0] == Hand.parse("7.KQJT9.AK.98")


def test_pts_old_code_page():
    data = PTS_SAMPLE.replace("comment two lines", "comment Мизер не ловится").encode("cp1251")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert slovesnov.loads(data)[1].comment.startswith("Мизер не ловится")
    assert slovesnov.loads(PTS_SAMPLE.encode("utf-8"))[1].comment == "two lines\nof comment"


@pytest.mark.parametrize("change, where, problem", [
    (("contract 8D", "contract 8X"), "line 3, field 'contract'", "6S ... 10NT"),
    (("KQ7.AJ7.K87.J", "KQ7.AJ7.K87.Z"), "line 2, field 'deal'", "'Z'"),
    (("play N", "play Q"), "line 4, field 'play'", "N, E, S or W"),
    (("turns 0", "turns 3"), "line 5, field 'turns'", "0..0"),
    (("player S", "player W"), "line 6, field 'player'", "absent"),
    (("absent W\n", "absent W\nbidding 6S\n"), "line 8", "unknown line"),
])
def test_pts_errors_name_line_and_field(change, where, problem):
    with pytest.raises(FormatError) as caught:
        slovesnov.loads(PTS_SAMPLE.replace(*change, 1))
    assert str(caught.value).startswith(where)
    assert problem in str(caught.value)


# ---- our record ------------------------------------------------------------------

RECORD = {"players": ["Аня", "Боря", "Вова"], "hands": ["AQ7.K98.KT.QJ", "♠K ♣AQ7 ♦AQ7 ♥T87", "JT98.JT.98.A9"],
          "talon": "..J.K", "contract": "6 треф", "declarer": 1, "discard": "♦В ♥К",
          "decisions": ["вист", None, "пас"], "played": "Qh Th Ah", "convention": "sochi"}


def test_record_reads_every_notation():
    rec = record.from_json(RECORD)
    assert rec.deal == EXAMPLE and str(rec.contract) == "6c" and rec.discard == Hand.parse("..J.K")
    assert rec.decisions == (Decision.WHIST, None, Decision.PASS)
    assert record.to_json(rec)["hands"][1] == "K.AQ7.AQ7.T87"


@pytest.mark.parametrize("change, field, problem", [
    ({"hands": ["AQ7.K98.KT.QJ", "K.AQ7.AQ7.T87"]}, "hands", "three hands"),
    ({"discard": "As Ks"}, "discard", "2 of his 12 cards"),
    ({"played": "Qh Ks"}, "played", "must follow suit"),
    ({"decisions": ["вист", "пас", "пас"]}, "decisions", "declarer (seat 1) has no decision"),
    ({"decisions": ["maybe", None, "pass"]}, "decisions", "seat 0"),
    ({"contract": "6 треф", "declarer": None}, "declarer", "needs its declarer"),
    ({"colour": "red"}, "colour", "unknown field"),
    ({"discard": None}, "discard", "need the declarer's discard"),
    ({"hands": ["AQ7.K98.KT.QJ", "K.AQ7.AQ7.T87", "JT98.JT.98.A9Z"]}, "hands[2]", "'Z'"),
])
def test_record_errors_name_the_field(change, field, problem):
    with pytest.raises(FormatError) as caught:
        record.from_json({**RECORD, **change})
    assert caught.value.field == field
    assert problem in str(caught.value)


def test_record_json_lines_errors_name_the_line():
    good = json.dumps(RECORD, ensure_ascii=False)
    bad = json.dumps({**RECORD, "played": "Qh Ks"}, ensure_ascii=False)
    with pytest.raises(FormatError, match=r"^line 3, field 'played': "):
        record.loads("\n".join([good, good, bad]))
    with pytest.raises(FormatError, match=r"^record 2: field 'discard'"):
        record.loads(json.dumps([RECORD, {**RECORD, "discard": "As Ks"}], ensure_ascii=False))


def test_score_request_scores_the_played_tricks():
    rec = record.from_json(RECORD)
    with pytest.raises(FormatError, match="field 'tricks'"):
        rec.score_request()          # three cards played: the tricks are not known
    position = rec.final_position()
    while not position.is_over:
        position = position.play(position.legal_cards()[0])
    full = rec.with_(played=position.history)
    request = full.score_request()
    assert request["input"]["tricks"] == dict(zip(RECORD["players"], position.tricks_taken))
    assert request["input"]["decisions"] == {"Аня": "whist", "Вова": "pass"}
    answer = handle_request(request)
    expected = handle_request({"convention": "sochi", "kind": "deal", "input": {
        "type": "contract", "players": RECORD["players"], "declarer": "Боря", "contract": 6, "strain": "c",
        "decisions": {"Аня": "whist", "Вова": "pass"}, "tricks": dict(zip(RECORD["players"], position.tricks_taken))}})
    assert answer == expected
    passed = rec.with_(decisions=(Decision.PASS, None, Decision.PASS), played=())
    assert "tricks" not in passed.score_request()["input"]   # both passed: nothing to play


# ---- reading any form ------------------------------------------------------------

def test_read_record_detects_and_picks(tmp_path):
    path = tmp_path / "log.txt"
    path.write_text(JPREF_SAMPLE, encoding="utf-8")
    assert len(read_records(str(path), files=True)) == 5
    assert read_record(f"{path}#2", files=True).declarer == 2
    with pytest.raises(FormatError, match=r"holds 5 deals; pick one with FILE#N \(1..5\)"):
        read_record(str(path), files=True)
    with pytest.raises(FormatError, match="deal 9 asked for, the file holds 5"):
        read_record(f"{path}#9", files=True)
    # text from a request is only text: a file name in it is not opened
    with pytest.raises(FormatError, match="field 'deal'"):
        read_record(str(path))
    pts = tmp_path / "old.pts"
    pts.write_bytes(PTS_SAMPLE.replace("two lines", "Ковалевская").encode("cp1251"))
    assert read_record(f"{pts}#2", files=True).comment.startswith("Ковалевская")
    assert read_record(EXAMPLE.pretty()).deal == EXAMPLE
    assert read_record(json.dumps(RECORD, ensure_ascii=False)).declarer == 1
    assert [detect(t) for t in (PTS_SAMPLE, JPREF_SAMPLE, json.dumps(RECORD), str(EXAMPLE))] == \
        ["pts", "jpref", "record", "text"]


def test_writing_names_the_deal_that_cannot_be_written():
    with pytest.raises(FormatError, match=r"deal 2 cannot be written as pts: field 'contract'"):
        write_records([record.from_json(RECORD), GameRecord(EXAMPLE)], "pts")
    with pytest.raises(FormatError, match="full deal with its talon"):
        jpref.format_line(GameRecord(Deal(EXAMPLE.hands)))
    assert text.loads(text.dumps([GameRecord(EXAMPLE)]))[0].deal == EXAMPLE
    assert Position  # the play rules come from solver.position (used by GameRecord)
