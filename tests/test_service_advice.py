"""AdviseWhist, AdviseBid and Enumerate end to end (a real server on
127.0.0.1, the real client) against the in-process advisors
(:mod:`solver.advice`, same seed and budget: the answer does not depend on
the number of threads); their bad input; the layout and concurrent-run
limits; time budgets; and deadlines and cancellation stopping a run's
threads while the server keeps serving."""
from __future__ import annotations

import math
import threading
from typing import Iterator

import grpc
import pytest

from service_support import GUARD, client, client_for, running_server, wait_until  # noqa: F401  (client: a fixture)

from solver.advice import (AUCTION_MODEL, AuctionFilter, auction_text, RunOptions, advise_bid, advise_whist, bid_request,
                           enumerate_splits, enumeration_request, whist_request)
from solver.analysis import discard_text
from service.client import AnalysisClient, ServiceError, contract_message
from service.proto import pb
from service.server import RunningServer

# An endgame of 3 cards a hand: seat 1 declares 6♠, seat 2 (first defender) asks.
HAND, TALON, UNSEEN, PRIOR = ".T.A7.", "..K.8", "7.K.J.AK9", (1, 4, 2)
FULL_HAND, FULL_TALON = "AQ7.K98.KT.QJ", "..J.K"
# The bidder's endgame (seat 0, two cards a hand) and the 12-card form.
BID_HAND, BID_UNSEEN, BID_PRIOR = "A..K.", "K.A.QJ.A7", (4, 3, 1)
# Exact enumeration: seat 1 declares with four cards a hand.
ENUM_HAND, ENUM_DEFENDERS, ENUM_PRIOR = "AQ.K..K", "KJ7.A.A.AQ8", (2, 3, 1)
# A full deal's enumeration: 184,756 splits, each solved in every strain and misère.
LONG_ENUMERATION = dict(hand="AKQJ87.AK.A8.87", declarer=0, contracts=["6s", "6c", "6d", "6h", "6nt", "misere"],
                        discard="..8.8")
ENDGAME = "AK.7..J9 .Q9.Q8.T 7.T.9.AK"


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2, advice_workers=2) as running:
        yield running


def advice_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("prefdd-advice")]


# ---- comparing answers ---------------------------------------------------------

def same_number(got: float, expected: float) -> bool:
    return (math.isnan(got) and math.isnan(expected)) or got == expected


def check_estimate(message: pb.Estimate, expected) -> None:  # type: ignore[no-untyped-def]
    assert same_number(message.mean, expected.mean) and same_number(message.std_error, expected.std_error)
    assert message.exact == ("" if expected.exact is None else str(expected.exact))


def check_distribution(messages, expected: dict) -> None:  # type: ignore[no-untyped-def]
    assert [(m.tricks, m.probability) for m in messages] == list(expected.items())


def check_run(message: pb.RunStats, expected, workers: int) -> None:  # type: ignore[no-untyped-def]
    assert (message.layouts, message.rejected, message.exact, message.complete, message.stopped, message.space,
            message.seed) == (expected.layouts, expected.rejected, expected.exact, expected.complete,
                              expected.stopped, expected.space, expected.seed)
    assert message.workers == workers and message.seconds >= 0


def check_option(message: pb.WhistOption, expected) -> None:  # type: ignore[no-untyped-def]
    assert (message.action, message.description, message.outcome, message.layouts, message.chooser) == (
        expected.action, expected.description, expected.scenario.value, expected.layouts, expected.chooser or "")
    for name, value in (("value", expected.value), ("other_defender_value", expected.other_value),
                        ("declarer_value", expected.declarer_value), ("declarer_fails", expected.declarer_fails)):
        check_estimate(getattr(message, name), value)
    check_distribution(message.defence_tricks, expected.defence_tricks or {})
    assert len(message.replies) == len(expected.replies)
    for reply, expected_reply in zip(message.replies, expected.replies):
        check_option(reply, expected_reply)


def check_whist(answer: pb.AdviseWhistResponse, expected, workers: int = 2) -> None:  # type: ignore[no-untyped-def]
    assert answer.recommended == expected.recommended and answer.sureness == expected.sureness
    if expected.advantage is None:
        assert not answer.HasField("advantage")
    else:
        check_estimate(answer.advantage, expected.advantage)
    assert len(answer.options) == len(expected.options)
    for option, expected_option in zip(answer.options, expected.options):
        check_option(option, expected_option)
    check_distribution(answer.declarer_tricks, expected.declarer_tricks)
    check_estimate(answer.declarer_fails, expected.declarer_fails)
    assert [((s.mine, s.other), s.probability) for s in answer.split] == list((expected.split or {}).items())
    check_run(answer.run, expected.run, workers)
    assert list(answer.notes) == list(expected.notes)
    assert answer.speaking_order == ("first" if expected.request.speaks_first else "second")
    assert answer.auction_model == auction_text(expected.request.auction_played) and answer.plan == expected.plan
    check_single_dummy(answer, expected.optimism)
    check_conservative(answer, "conservative", expected.conservative)


def check_single_dummy(answer, expected) -> None:  # type: ignore[no-untyped-def]
    assert answer.HasField("single_dummy") == (expected is not None)
    if expected is None:
        return
    got = answer.single_dummy
    assert (got.layouts, got.worlds, got.contract) == (expected.layouts, expected.worlds,
                                                       contract_message(expected.contract))
    pairs = [(got.tricks, expected.tricks), (got.makes, expected.makes)] + [
        (named.figure, expected.values[named.name]) for named in got.values]
    assert [named.name for named in got.values] == list(expected.values)
    for message, figure in pairs:
        assert same_number(message.double_dummy, figure.double_dummy)
        assert same_number(message.single_dummy, figure.single_dummy)
        assert same_number(message.std_error, figure.std_error)


def check_conservative(answer, name: str, expected) -> None:  # type: ignore[no-untyped-def]
    """The blind-discard figure as the library gives it (None: the field unset)."""
    assert answer.HasField(name) == (expected is not None)
    if expected is None:
        return
    got = getattr(answer, name)
    assert (got.figure, got.description, got.layouts, got.worlds, got.contract) == (
        expected.figure, expected.description, expected.layouts, expected.worlds, contract_message(expected.contract))
    assert [named.name for named in got.values] == list(expected.values)
    pairs = [(got.tricks, expected.tricks), (got.makes, expected.makes)] + [
        (named.figure, expected.values[named.name]) for named in got.values]
    for message, figure in pairs:
        assert (message.double_dummy, message.conservative, message.std_error) == (
            figure.double_dummy, figure.conservative, figure.std_error)
    assert got.tricks.conservative <= got.tricks.double_dummy


def check_contract(message: pb.ContractAdvice, expected) -> None:  # type: ignore[no-untyped-def]
    assert message.contract == contract_message(expected.contract)
    check_estimate(message.make_probability, expected.make_probability)
    check_estimate(message.value, expected.value)
    check_distribution(message.tricks, expected.tricks)
    assert message.discard == ("" if expected.discard is None else discard_text(expected.discard))


def check_bid(answer: pb.AdviseBidResponse, expected, workers: int = 2) -> None:  # type: ignore[no-untyped-def]
    assert answer.after_talon == expected.request.after_talon
    check_contract(answer.recommended, expected.recommended)
    assert answer.sureness == expected.sureness
    if expected.advantage is None:
        assert not answer.HasField("advantage")
    else:
        check_estimate(answer.advantage, expected.advantage)
    for got, want in ((answer.contracts, expected.contracts), (answer.discards, expected.discards)):
        assert len(got) == len(want)
        for message, advice in zip(got, want):
            check_contract(message, advice)
    check_run(answer.run, expected.run, workers)
    assert list(answer.notes) == list(expected.notes)
    assert (answer.recommendation, answer.plan, answer.recommendation_sureness) == (
        expected.recommendation, expected.plan, expected.recommendation_sureness)
    assert answer.HasField("passing") == (expected.passing is not None)
    if expected.passing is not None:
        check_estimate(answer.passing.value, expected.passing.value)
        check_distribution(answer.passing.tricks, expected.passing.tricks)
        check_estimate(answer.recommendation_advantage, expected.recommendation_advantage)
    check_single_dummy(answer, expected.optimism)
    check_conservative(answer, "conservative", expected.conservative)
    check_conservative(answer, "conservative_runner_up", expected.conservative_runner_up)


# ---- AdviseWhist ---------------------------------------------------------------

WHIST_CASES = [
    ("passed", dict(other_decision="pass")),
    ("whisted, leningrad", dict(other_decision="whist", convention="leningrad")),
    ("speaks first", dict(seat=2, other_decision=None)),
    ("second defender", dict(seat=0, other_decision="pass", convention="rostov")),
    ("cards played", dict(other_decision="pass", played=["Ah", "9h"])),
    ("uniform discards and the split", dict(other_decision="pass", discard_model="uniform", split=True)),
    ("auction filter", dict(other_decision="pass", auction={"min_trumps": 1})),
    ("four players", dict(other_decision="pass", four_players=True)),
    ("option override", dict(other_decision="pass", option_overrides={"whist_responsibility": "half"})),
]


@pytest.mark.parametrize("name, change", WHIST_CASES, ids=[c[0] for c in WHIST_CASES])
def test_whist_endgames_exact(client: AnalysisClient, name: str, change: dict) -> None:
    arguments = dict(hand=HAND, talon=TALON, contract="6s", declarer=1, seat=2, unseen=UNSEEN,
                     prior_tricks=PRIOR, convention="sochi")
    arguments.update(change)
    answer = client.advise_whist(**arguments)  # type: ignore[arg-type]
    auction = arguments.pop("auction", None)
    options = arguments.pop("option_overrides", None)
    expected = advise_whist(whist_request(**arguments, auction=AUCTION_MODEL if auction is None else AuctionFilter(**auction),
                                          options=options),  # type: ignore[arg-type]
                            RunOptions(workers=1))
    assert expected.run.complete and answer.run.complete
    check_whist(answer, expected)


def test_whist_auction_model_switched_off_and_refused_with_a_filter(client: AnalysisClient) -> None:
    arguments = dict(hand=HAND, talon=TALON, contract="6s", declarer=1, seat=2, unseen=UNSEEN,
                     prior_tricks=PRIOR, other_decision="pass")
    model = client.advise_whist(**arguments)  # type: ignore[arg-type]
    every = client.advise_whist(**arguments, auction_model="none")  # type: ignore[arg-type]
    assert model.run.rejected > 0 and every.run.rejected == 0 and every.run.layouts == 20
    assert model.auction_model.startswith("the default model") and every.auction_model.startswith("none")
    expected = advise_whist(whist_request(**arguments, auction=None), RunOptions(workers=1))  # type: ignore[arg-type]
    check_whist(every, expected)
    with pytest.raises(ServiceError) as error:
        client.advise_whist(**arguments, auction_model="none", auction={"min_trumps": 1})  # type: ignore[arg-type]
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT and "auction_model" in error.value.message


def test_single_dummy_figures_as_the_api_gives_them(client: AnalysisClient) -> None:
    whisted = client.advise_whist(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", layouts=6, seed=5,
                                  single_dummy_layouts=2)
    expected = advise_whist(whist_request(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", single_dummy=2),
                            RunOptions(layouts=6, seed=5, workers=1))
    check_whist(whisted, expected)
    assert whisted.single_dummy.tricks.single_dummy <= whisted.single_dummy.tricks.double_dummy
    bid = client.advise_bid("AKQJ8.AK.A8.7", 0, contracts=["6s", "8s"], layouts=4, seed=1, no_pass=True,
                            single_dummy_layouts=2)
    expected_bid = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False, single_dummy=2),
                              RunOptions(layouts=4, seed=1, workers=1))
    check_bid(bid, expected_bid)
    with pytest.raises(ServiceError) as error:
        client.advise_whist(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", single_dummy_layouts=5000)
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT and "single_dummy_layouts" in error.value.message


def test_blind_discard_figure_by_default_and_on_request(client: AnalysisClient) -> None:
    arguments = dict(hand=FULL_HAND, talon=FULL_TALON, contract="6h", declarer=1, seat=0, other_decision="pass")
    default = client.advise_whist(**arguments, layouts=8, seed=5)  # type: ignore[arg-type]
    request = whist_request(**arguments)  # type: ignore[arg-type]
    expected = advise_whist(request, RunOptions(layouts=8, seed=5, workers=1))
    assert default.HasField("conservative") and default.conservative.figure == "blind_discard"
    assert default.conservative.layouts == 8   # the run's own 8 layouts: fewer than the default 12
    check_whist(default, expected)
    off = client.advise_whist(**arguments, layouts=8, seed=5, blind_discard_layouts=0)  # type: ignore[arg-type]
    assert not off.HasField("conservative") and "not asked for" in off.notes[-1]
    four = client.advise_whist(**arguments, layouts=8, seed=5, blind_discard_layouts=4)  # type: ignore[arg-type]
    check_whist(four, advise_whist(whist_request(**arguments, blind_discard=4),  # type: ignore[arg-type]
                                   RunOptions(layouts=8, seed=5, workers=1)))
    bid = client.advise_bid("AQ.KJ.AKJ98.A", 0, contracts=["7nt", "8d"], layouts=6, seed=1, no_pass=True)
    expected_bid = advise_bid(bid_request("AQ.KJ.AKJ98.A", 0, contracts="7nt,8d", value_pass=False),
                              RunOptions(layouts=6, seed=1, workers=1))
    assert bid.HasField("conservative") and bid.HasField("conservative_runner_up")
    check_bid(bid, expected_bid)
    with pytest.raises(ServiceError) as error:
        client.advise_bid("AQ.KJ.AKJ98.A", 0, blind_discard_layouts=5000)
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT and "blind_discard_layouts" in error.value.message


def test_whist_on_a_full_deal_samples_as_the_api_does(client: AnalysisClient) -> None:
    answer = client.advise_whist(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", layouts=24, seed=5)
    request = whist_request(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass")
    expected = advise_whist(request, RunOptions(layouts=24, seed=5, workers=1))
    assert not answer.run.exact and answer.run.layouts == 24 and answer.run.space == 184_756
    check_whist(answer, expected)
    assert any(option.value.std_error > 0 for option in answer.options)


def test_whist_time_budget_answers_the_estimate_so_far(client: AnalysisClient) -> None:
    answer = client.advise_whist(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", layouts=150_000,
                                 seconds=1.0)
    assert answer.run.stopped == "seconds" and 0 < answer.run.layouts < 150_000
    assert answer.recommended in {option.action for option in answer.options}


# ---- AdviseBid -----------------------------------------------------------------

def test_bid_before_the_talon(client: AnalysisClient) -> None:
    contracts = ["6s", "6d", "7d", "6nt", "misere"]
    answer = client.advise_bid(BID_HAND, 0, contracts=contracts, unseen=BID_UNSEEN, prior_tricks=BID_PRIOR,
                               convention="leningrad")
    expected = advise_bid(bid_request(BID_HAND, 0, contracts=contracts, unseen=BID_UNSEEN, prior_tricks=BID_PRIOR,
                                      convention="leningrad"), RunOptions(workers=1))
    assert answer.run.complete and answer.run.layouts == 90
    check_bid(answer, expected)


def test_bid_after_the_talon_names_the_discard(client: AnalysisClient) -> None:
    hand, unseen, prior = "AK..K.7", "Q.A.Q.A", (4, 3, 1)
    answer = client.advise_bid(hand, 0, contracts=["6s", "6d", "6h", "6nt", "7nt"], unseen=unseen,
                               prior_tricks=prior, defence="both")
    expected = advise_bid(bid_request(hand, 0, contracts="6s,6d,6h,6nt,7nt", unseen=unseen, prior_tricks=prior,
                                      defence="both"), RunOptions(workers=1))
    assert answer.after_talon and answer.recommended.discard and answer.discards
    check_bid(answer, expected)


def test_bid_on_a_full_hand_samples_as_the_api_does(client: AnalysisClient) -> None:
    answer = client.advise_bid("AKQJ8.AK.A.87", 1, contracts=["6s", "8s", "misere"], layouts=4, seed=4)
    expected = advise_bid(bid_request("AKQJ8.AK.A.87", 1, contracts="6s,8s,misere"),
                          RunOptions(layouts=4, seed=4, workers=1))
    check_bid(answer, expected)


# ---- Enumerate -----------------------------------------------------------------

def test_enumerate_every_split(client: AnalysisClient) -> None:
    answer = client.enumerate_splits(ENUM_HAND, 1, ["6s", "7s", "6nt", "misere"], defenders=ENUM_DEFENDERS,
                                     prior_tricks=ENUM_PRIOR, convention="rostov", defence="both")
    expected = enumerate_splits(enumeration_request(ENUM_HAND, 1, "6s,7s,6nt,misere", defenders=ENUM_DEFENDERS,
                                                    prior_tricks=ENUM_PRIOR, convention="rostov", defence="both"),
                                RunOptions(workers=1))
    assert answer.defenders == str(expected.request.defenders)
    assert answer.splits == expected.splits == 70 and answer.run.complete
    assert len(answer.contracts) == len(expected.contracts)
    for message, count in zip(answer.contracts, expected.contracts):
        assert message.contract == contract_message(count.contract)
        assert [(c.tricks, c.splits) for c in message.counts] == list(count.counts.items())
        check_estimate(message.make_probability, count.make_probability)
        check_estimate(message.value, count.value)
    check_run(answer.run, expected.run, 2)


def test_enumerate_time_budget_answers_the_splits_counted(client: AnalysisClient) -> None:
    answer = client.enumerate_splits("K87.KT7.T7.AKQT", 0, ["6s", "misere"], discard=".K..Q", seconds=3.0)
    assert answer.run.space == 184_756 and answer.run.exact
    assert answer.run.stopped == "seconds" and not answer.run.complete
    assert 0 < answer.splits < 184_756
    for count in answer.contracts:
        assert sum(c.splits for c in count.counts) == answer.splits
        assert count.value.exact == ""


# ---- bad input -----------------------------------------------------------------

def whist_message(**fields: object) -> pb.AdviseWhistRequest:
    base: dict[str, object] = dict(hand=HAND, talon=TALON, contract=contract_message("6s"), declarer=pb.SEAT_SECOND,
                                   seat=pb.SEAT_THIRD, other_decision=pb.DECISION_PASS,
                                   convention=pb.CONVENTION_SOCHI, unseen=UNSEEN, prior_tricks=list(PRIOR))
    base.update(fields)
    return pb.AdviseWhistRequest(**{k: v for k, v in base.items() if v is not None})  # type: ignore[arg-type]


WHIST_FIELDS = [
    ("no contract", whist_message(contract=None), "field 'contract' is required"),
    ("no level", whist_message(contract=pb.Contract(kind=pb.CONTRACT_KIND_TRICKS, strain=pb.STRAIN_SPADES)),
     "field 'contract.level' is required"),
    ("no declarer", whist_message(declarer=None), "field 'declarer' is required"),
    ("no seat", whist_message(seat=None), "field 'seat' is required"),
    ("unknown decision", whist_message(other_decision=5), "field 'other_decision': unknown Decision value 5"),
    ("no convention", whist_message(convention=None), "field 'convention' is required"),
    ("unknown convention", whist_message(convention=9), "field 'convention': unknown Convention value 9"),
    ("bad overrides", whist_message(option_overrides_json="[1]"),
     "field 'option_overrides_json' must be a JSON object, got list"),
    ("unknown discard model", whist_message(discard_model=4),
     "field 'discard_model': unknown DiscardModel value 4"),
    ("two prior tricks", whist_message(prior_tricks=[1, 2]), "field 'prior_tricks' needs three values"),
    ("negative seconds", whist_message(budget=pb.Budget(seconds=-1)), "field 'budget.seconds' must be 0"),
    ("endless seconds", whist_message(budget=pb.Budget(seconds=math.inf)), "field 'budget.seconds' must be 0"),
    ("unknown mode", whist_message(budget=pb.Budget(mode=8)), "field 'budget.mode': unknown LayoutMode value 8"),
    ("long hand", whist_message(hand="A" * 1001), "field 'hand' is 1001 characters long; the limit is 1000"),
    ("too many played", whist_message(played=["Ah"] * 31), "field 'played' holds 31 cards; the limit is 30"),
]


@pytest.mark.parametrize("name, request_, message", WHIST_FIELDS, ids=[c[0] for c in WHIST_FIELDS])
def test_whist_bad_fields(client: AnalysisClient, name: str, request_: pb.AdviseWhistRequest, message: str) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        client.stub.AdviseWhist(request_, timeout=GUARD)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in caught.value.details()


def advice_error(action) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError) as caught:
        action()
    return str(caught.value)


ENDGAME_WHIST = dict(hand=HAND, talon=TALON, contract="6s", declarer=1, seat=2, other_decision="pass",
                     unseen=UNSEEN, prior_tricks=PRIOR)
WHIST_ADVICE_ERRORS = [
    ("misere", dict(contract="misere")),
    ("the declarer asks", dict(seat=1)),
    ("hand overlaps the talon", dict(hand="A.KQ.J.T", talon="A..Q.")),
    ("prior tricks", dict(prior_tricks=(1, 1, 1))),
    ("talon card played", dict(played=["Kd"])),
    ("the first defender spoke", dict(seat=0, other_decision=None)),
    ("no unseen cards", dict(unseen="")),
    ("bad hand", dict(hand=".T.AZ.")),
    ("auction filter", dict(auction={"min_trumps": 13})),
]


@pytest.mark.parametrize("name, change", WHIST_ADVICE_ERRORS, ids=[c[0] for c in WHIST_ADVICE_ERRORS])
def test_whist_answers_the_advisors_message(client: AnalysisClient, name: str, change: dict) -> None:
    arguments = {**ENDGAME_WHIST, **change}
    with pytest.raises(ServiceError) as caught:
        client.advise_whist(**arguments)  # type: ignore[arg-type]
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    auction = arguments.pop("auction", None)
    arguments["unseen"] = arguments["unseen"] or None
    expected = advice_error(lambda: whist_request(
        **arguments, auction=None if auction is None else AuctionFilter(**auction)))  # type: ignore[arg-type]
    assert caught.value.message == expected


def test_no_layout_fits_is_invalid(client: AnalysisClient) -> None:
    with pytest.raises(ServiceError) as caught:
        client.advise_whist(**{**ENDGAME_WHIST, "played": ["Ah", "9h", "Ad"], "auction": {"min_trumps": 3}})
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    request = whist_request(**{**ENDGAME_WHIST, "played": ["Ah", "9h", "Ad"]}, auction=AuctionFilter(min_trumps=3))
    assert caught.value.message == advice_error(lambda: advise_whist(request, RunOptions(workers=1)))


def bid_message(**fields: object) -> pb.AdviseBidRequest:
    base: dict[str, object] = dict(hand="AKQJ8.AK.A.87", seat=pb.SEAT_FIRST, convention=pb.CONVENTION_SOCHI)
    base.update(fields)
    return pb.AdviseBidRequest(**{k: v for k, v in base.items() if v is not None})  # type: ignore[arg-type]


def enumerate_message(**fields: object) -> pb.EnumerateRequest:
    base: dict[str, object] = dict(hand=ENUM_HAND, declarer=pb.SEAT_SECOND, contracts=[contract_message("6s")],
                                   defenders=ENUM_DEFENDERS, prior_tricks=list(ENUM_PRIOR),
                                   convention=pb.CONVENTION_SOCHI)
    base.update(fields)
    return pb.EnumerateRequest(**{k: v for k, v in base.items() if v is not None})  # type: ignore[arg-type]


OTHER_FIELDS = [
    ("bid: no seat", "AdviseBid", bid_message(seat=None), "field 'seat' is required"),
    ("bid: no convention", "AdviseBid", bid_message(convention=None), "field 'convention' is required"),
    ("bid: unknown defence", "AdviseBid", bid_message(defence=6), "field 'defence': unknown DefenceRule value 6"),
    ("bid: bad contract", "AdviseBid", bid_message(contracts=[contract_message("6s"), pb.Contract(kind=1)]),
     "field 'contracts[1].strain' is required"),
    ("bid: too many contracts", "AdviseBid", bid_message(contracts=[contract_message("6s")] * 65),
     "field 'contracts' holds 65 contracts; the limit is 64"),
    ("enumerate: no contracts", "Enumerate", enumerate_message(contracts=[]),
     "field 'contracts' needs at least one contract"),
    ("enumerate: no declarer", "Enumerate", enumerate_message(declarer=None), "field 'declarer' is required"),
    ("enumerate: bad seconds", "Enumerate", enumerate_message(seconds=math.nan), "field 'seconds' must be 0"),
    ("enumerate: misère level", "Enumerate", enumerate_message(contracts=[pb.Contract(kind=2, level=6)]),
     "field 'contracts[0].level' must be 0 for CONTRACT_KIND_MISERE"),
]


@pytest.mark.parametrize("name, method, request_, message", OTHER_FIELDS, ids=[c[0] for c in OTHER_FIELDS])
def test_bid_and_enumerate_bad_fields(client: AnalysisClient, name: str, method: str, request_: object,
                                      message: str) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        getattr(client.stub, method)(request_, timeout=GUARD)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in caught.value.details()


BID_ADVICE_ERRORS = [
    ("nine cards", dict(hand="AKQJ8.AK.A.8")),
    ("talon overlaps", dict(talon="8...7")),
    ("all-pass", dict(contracts=["allpass"])),
    ("unseen overlaps", dict(unseen="A...")),
]


@pytest.mark.parametrize("name, change", BID_ADVICE_ERRORS, ids=[c[0] for c in BID_ADVICE_ERRORS])
def test_bid_answers_the_advisors_message(client: AnalysisClient, name: str, change: dict) -> None:
    arguments = {"hand": "AKQJ8.AK.A.87", "seat": 0, **change}
    with pytest.raises(ServiceError) as caught:
        client.advise_bid(**arguments)  # type: ignore[arg-type]
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.message == advice_error(lambda: bid_request(arguments.pop("hand"), arguments.pop("seat"),
                                                                    **arguments))


ENUMERATE_ADVICE_ERRORS = [
    ("discard and defenders", dict(hand="AKQJ8.AK.A.87", discard="..8.8", defenders="7...9")),
    ("no discard", dict(hand="AKQJ8.AK.A.87")),
    ("discard not in the 12", dict(hand="AKQJ87.AK.A8.87", discard="..7.8")),
    ("prior tricks", dict(hand="AK...", defenders="QJ.T9..", prior_tricks=(1, 1, 1))),
]


@pytest.mark.parametrize("name, change", ENUMERATE_ADVICE_ERRORS, ids=[c[0] for c in ENUMERATE_ADVICE_ERRORS])
def test_enumerate_answers_the_advisors_message(client: AnalysisClient, name: str, change: dict) -> None:
    arguments = {"prior_tricks": (8, 0, 0) if "defenders" in change else (), **change}
    with pytest.raises(ServiceError) as caught:
        client.enumerate_splits(declarer=0, contracts=["6s"], **arguments)  # type: ignore[arg-type]
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    arguments["prior_tricks"] = arguments["prior_tricks"] or (0, 0, 0)
    expected = advice_error(lambda: enumeration_request(arguments.pop("hand"), 0, "6s", **arguments))
    assert caught.value.message == expected


def test_typed_client_checks_its_arguments(client: AnalysisClient) -> None:
    with pytest.raises(ValueError, match="unknown layout mode"):
        client.advise_whist(**ENDGAME_WHIST, mode="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown discard model"):
        client.advise_whist(**ENDGAME_WHIST, discard_model="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown defence rule"):
        client.advise_bid("AKQJ8.AK.A.87", 0, defence="never")
    with pytest.raises(ValueError, match="unknown convention"):
        client.enumerate_splits(ENUM_HAND, 1, ["6s"], defenders=ENUM_DEFENDERS, convention="moscow")


def test_unexpected_errors_are_internal(client: AnalysisClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    for name in ("advise_whist", "advise_bid", "enumerate_splits"):
        monkeypatch.setattr(f"service.servicer.{name}", broken)
    calls = [lambda: client.advise_whist(**ENDGAME_WHIST),  # type: ignore[arg-type]
             lambda: client.advise_bid(BID_HAND, 0, unseen=BID_UNSEEN, prior_tricks=BID_PRIOR),
             lambda: client.enumerate_splits(ENUM_HAND, 1, ["6s"], defenders=ENUM_DEFENDERS,
                                             prior_tricks=ENUM_PRIOR)]
    for call in calls:
        with pytest.raises(ServiceError) as caught:
            call()
        assert caught.value.code == grpc.StatusCode.INTERNAL and "a bug" not in caught.value.message
    monkeypatch.undo()
    assert client.advise_whist(**ENDGAME_WHIST).run.complete  # type: ignore[arg-type]


# ---- limits --------------------------------------------------------------------

def test_layout_budget_over_the_limit(client: AnalysisClient, server: RunningServer) -> None:
    limit = server.config.max_advice_layouts
    with pytest.raises(ServiceError) as caught:
        client.advise_whist(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", layouts=limit + 1,
                            mode="sample")
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert f"max_advice_layouts={limit}" in caught.value.message and str(limit + 1) in caught.value.message


def test_enumerations_over_the_limit() -> None:
    with running_server(workers=1, max_advice_layouts=1000) as server, client_for(server) as client:
        with pytest.raises(ServiceError) as whist:
            client.advise_whist(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", mode="exact")
        with pytest.raises(ServiceError) as bid:
            client.advise_bid("AKQJ8.AK.A.87", 0, contracts=["6s"], mode="exact")
        with pytest.raises(ServiceError) as enumeration:
            client.enumerate_splits("AKQJ87.AK.A8.87", 0, ["6s"], discard="..8.8")
        for caught, count in ((whist, "184,756"), (bid, "42,678,636"), (enumeration, "184,756")):
            assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "max_advice_layouts=1000" in caught.value.message and count in caught.value.message
        # Sampling the same space within the limit is allowed; so is a small enumeration.
        assert client.advise_whist(FULL_HAND, FULL_TALON, "6h", 1, 0, other_decision="pass", layouts=3).run.layouts == 3
        assert client.enumerate_splits(ENUM_HAND, 1, ["6s"], defenders=ENUM_DEFENDERS,
                                       prior_tricks=ENUM_PRIOR).run.complete


def test_advice_runs_over_the_limit_are_refused() -> None:
    with running_server(workers=1, max_advice_runs=1, advice_workers=1) as server, client_for(server) as client:
        long_run = client.stub.Enumerate.future(enumerate_request_of(LONG_ENUMERATION))
        assert wait_until(lambda: server.advice.active == 1 and len(advice_threads()) == 1)
        with pytest.raises(ServiceError) as caught:
            client.advise_whist(**ENDGAME_WHIST)  # type: ignore[arg-type]
        assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "max_advice_runs=1" in caught.value.message
        assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2  # the solver pool is not an advice slot
        long_run.cancel()
        assert wait_until(lambda: server.advice.active == 0 and not advice_threads())
        assert client.advise_whist(**ENDGAME_WHIST).run.complete  # type: ignore[arg-type]


def enumerate_request_of(arguments: dict) -> pb.EnumerateRequest:
    return pb.EnumerateRequest(hand=arguments["hand"], declarer=pb.SEAT_FIRST + arguments["declarer"],
                               contracts=[contract_message(c) for c in arguments["contracts"]],
                               discard=arguments["discard"], convention=pb.CONVENTION_SOCHI)


# ---- deadlines and cancellation ------------------------------------------------

def test_deadline_shorter_than_a_long_enumeration() -> None:
    """A full deal's enumeration in six games takes far longer than the
    deadline: the call ends DEADLINE_EXCEEDED, the run's threads stop, its
    slot is free again and the server keeps serving."""
    with running_server(workers=1, max_advice_runs=1, advice_workers=2) as server, client_for(server) as client:
        with pytest.raises(ServiceError) as caught:
            client.enumerate_splits(**LONG_ENUMERATION, timeout=1.0)  # type: ignore[arg-type]
        assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_until(lambda: server.advice.active == 0 and not advice_threads())
        answer = client.enumerate_splits(ENUM_HAND, 1, ["6s"], defenders=ENUM_DEFENDERS, prior_tricks=ENUM_PRIOR)
        assert answer.run.complete and answer.splits == 70
        assert client.solve(ENDGAME, "6nt", 0).declarer_tricks == 2
        assert client.health() == "SERVING"


def test_cancelled_whist_stops_its_run() -> None:
    with running_server(workers=1, max_advice_runs=1, advice_workers=2) as server, client_for(server) as client:
        request = pb.AdviseWhistRequest(hand=FULL_HAND, talon=FULL_TALON, contract=contract_message("6h"),
                                        declarer=pb.SEAT_SECOND, seat=pb.SEAT_FIRST, other_decision=pb.DECISION_PASS,
                                        convention=pb.CONVENTION_SOCHI, budget=pb.Budget(layouts=150_000))
        future = client.stub.AdviseWhist.future(request)
        assert wait_until(lambda: len(advice_threads()) == 2)
        future.cancel()
        assert wait_until(lambda: server.advice.active == 0 and not advice_threads())
        assert client.advise_whist(**ENDGAME_WHIST).run.complete  # type: ignore[arg-type]


def test_shutdown_stops_advice_runs() -> None:
    with running_server(workers=1, advice_workers=1) as server, client_for(server) as client:
        future = client.stub.Enumerate.future(enumerate_request_of(LONG_ENUMERATION))
        assert wait_until(lambda: len(advice_threads()) == 1)
        server.stop(grace=0.2)
        with pytest.raises(grpc.RpcError) as caught:
            future.result(timeout=GUARD)
        assert caught.value.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        assert wait_until(lambda: server.advice.active == 0 and not advice_threads())
