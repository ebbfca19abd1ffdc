"""The blind-discard figure (solver/advice/blind_discard.py): never above
double dummy, equal to it when the discard cannot matter or every world
agrees, the rule checked by brute force on small deals, and the same figure
from the library, the command line and the HTTP API (RPC:
test_service_advice.py)."""
from __future__ import annotations

import itertools
import json
import random
import time
from dataclasses import replace

from hypothesis import given, settings, strategies as st

from test_advice_brute import brute_best_discard, brute_tricks, cards_of
from test_advice_bid import HAND as BID_HAND, PRIOR as BID_PRIOR, UNSEEN as BID_UNSEEN
from test_advice_whist import endgame
from solver import Card, Contract, Deal, Hand
from solver.advice import RunOptions, advise_bid, advise_whist, bid_json, bid_request, whist_json, whist_request
from solver.advice.blind_discard import BlindDiscard, blind_candidates, blind_tricks, blind_worlds
from solver.advice.play import discard_classes
from solver.advice.whist import with_conservative
from solver.analysis import best_discard
from solver.analysis.discard import discard_order
from solver.cli import main
from solver.engine import Solver

TRICK_CONTRACTS = ["6s", "6c", "6d", "6h", "6nt"]
CONTRACTS = TRICK_CONTRACTS + ["misere"]


def small_deal(rng: random.Random, size: int) -> Deal:
    cards = [Card.from_index(i) for i in rng.sample(range(32), 3 * size + 2)]
    hands = tuple(Hand.from_cards(cards[i * size:(i + 1) * size]) for i in range(3))
    return Deal((hands[0], hands[1], hands[2]), Hand.from_cards(cards[3 * size:]))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.sampled_from(CONTRACTS), st.integers(0, 2), st.integers(1, 4),
       st.integers(2, 5))
def test_never_better_than_double_dummy(seed: int, contract: str, declarer: int, worlds: int, size: int) -> None:
    rng = random.Random(seed)
    deal = small_deal(rng, size)
    solver = Solver()
    dd = best_discard(deal, declarer, contract, solver=solver).value
    blind = blind_tricks(deal, declarer, Contract.parse(contract), 0, BlindDiscard(1, worlds), rng, solver)
    if contract == "misere":
        assert dd <= blind <= size
    else:
        assert 0 <= blind <= dd


def test_equal_when_every_discard_leaves_the_same_game() -> None:
    # The declarer holds ♠AKQJ (hand and talon): whichever two he keeps are the two top
    # spades, so every discard is one class and the figure is the double-dummy value.
    hand, talon = Hand.parse("AK..."), Hand.parse("QJ...")
    rng = random.Random(5)
    others = (Hand((1 << 32) - 1) - hand - talon).cards()
    solver = Solver()
    for _ in range(12):
        rng.shuffle(others)
        first, second = Hand.from_cards(others[:2]), Hand.from_cards(others[2:4])
        deal = Deal((hand, first, second), talon)
        assert len(discard_classes(hand | talon, [first, second])) == 1
        dd = best_discard(deal, 0, "6s", solver=solver).value
        assert blind_tricks(deal, 0, Contract.parse("6s"), 0, BlindDiscard(1, 3), rng, solver) == dd


def test_equal_when_the_worlds_agree_with_the_layout() -> None:
    # A declarer whose worlds are the real layout (all agree on it) discards as double dummy.
    rng = random.Random(11)
    solver = Solver()
    for _ in range(20):
        deal = small_deal(rng, 5)
        declarer, contract = rng.randrange(3), Contract.parse(rng.choice(CONTRACTS))
        pool = deal.hands[declarer] | deal.talon
        found = best_discard(deal, declarer, contract, solver=solver)
        choice, candidates = blind_candidates(pool, deal.talon, declarer, contract, 0, [deal.hands] * 3, solver)
        assert len(candidates) == 1 and choice in found.discards


def brute_worlds(deal: Deal, declarer: int) -> list[tuple[Hand, Hand, Hand]]:
    """Every layout of the defenders' cards in their hand sizes."""
    first, second = [seat for seat in range(3) if seat != declarer]
    cards = (deal.hands[first] | deal.hands[second]).cards()
    layouts = []
    for part in itertools.combinations(cards, len(deal.hands[first])):
        hands = list(deal.hands)
        hands[first] = Hand.from_cards(part)
        hands[second] = Hand.from_cards(c for c in cards if c not in part)
        layouts.append((hands[0], hands[1], hands[2]))
    return layouts


def test_rule_by_brute_force_on_small_deals() -> None:
    # Three cards a hand: the declarer weighs his discard on all 20 layouts of the
    # defenders' six cards. Every candidate is a best discard of a world (brute force),
    # every world has a candidate among its best, the choice has the most tricks over the
    # worlds (misère: the fewest; ties: more worlds where it is best, then canonical
    # order), and it scores on the real layout never better than its best discard.
    rng = random.Random(7)
    solver = Solver()
    for _ in range(10):
        deal = small_deal(rng, 3)
        declarer, contract = rng.randrange(3), Contract.parse(rng.choice(CONTRACTS))
        sign = 1 if contract.kind.name == "TRICKS" else -1   # misère: the fewest tricks
        pool = deal.hands[declarer] | deal.talon
        worlds = brute_worlds(deal, declarer)
        choice, candidates = blind_candidates(pool, deal.talon, declarer, contract, 0, worlds, solver)
        bests = []
        for world in worlds:
            hands = [cards_of(h) for h in world]
            hands[declarer] = cards_of(pool - deal.talon)
            bests.append((hands, brute_best_discard(hands, cards_of(deal.talon), contract, declarer)))
        assert all(any(cards_of(c) in best[1] for _, best in bests) for c in candidates)
        assert all(any(cards_of(c) in best[1] for c in candidates) for _, best in bests)

        def score(discard: Hand) -> tuple:
            values = []
            for hands, (value, _) in bests:
                seated = list(hands)
                seated[declarer] = cards_of(pool - discard)
                values.append((brute_tricks(seated, contract, declarer), value))
            return (sign * sum(v for v, _ in values), sum(v == best for v, best in values),
                    tuple((-s, -r) for s, r in discard_order(discard)))

        assert max(candidates, key=score) == choice
        real = [cards_of(h) for h in deal.hands]
        real[declarer] = cards_of(pool - choice)
        best_value = brute_best_discard([cards_of(h) for h in deal.hands], cards_of(deal.talon), contract,
                                        declarer)[0]
        assert sign * brute_tricks(real, contract, declarer) <= sign * best_value
        got = blind_tricks(deal, declarer, contract, 0, BlindDiscard(1, len(worlds)), random.Random(0), solver)
        assert sign * got <= sign * best_value


def test_worlds_keep_the_hand_sizes_and_the_cards() -> None:
    deal = small_deal(random.Random(3), 4)
    for world in blind_worlds(deal, 1, 5, random.Random(1)):
        assert world[1] == deal.hands[1]
        assert [len(h) for h in world] == [len(h) for h in deal.hands]
        assert world[0] | world[2] == deal.hands[0] | deal.hands[2]


WHIST = ("JT98.JT.98.A9", "..J.K", "6c", 1, 0)


def test_whist_advice_shows_it_by_default_and_says_what_it_is() -> None:
    advice = advise_whist(whist_request(*WHIST, other_decision="pass"), RunOptions(layouts=30, seed=4, workers=2))
    figure = advice.conservative
    assert figure is not None and figure.figure == "blind_discard" and figure.layouts == 12 and figure.worlds == 2
    assert figure.tricks.conservative <= figure.tricks.double_dummy
    assert figure.makes.conservative <= figure.makes.double_dummy
    assert set(figure.values) == {"pass", "half_whist", "whist"}
    assert figure.values["whist"].conservative >= figure.values["whist"].double_dummy
    assert "without seeing the defenders' cards" in figure.description
    assert any(note.startswith("conservative figure (blind discard") for note in advice.notes)
    off = advise_whist(whist_request(*WHIST, other_decision="pass", blind_discard=0),
                       RunOptions(layouts=30, seed=4, workers=2))
    assert off.conservative is None and off.notes[-1].endswith("not measured: not asked for")
    assert [o.value for o in off.options] == [o.value for o in advice.options]
    # Measured afresh, without the run's own answers to skip searches: the same figure.
    again = with_conservative(replace(off, request=advice.request), RunOptions(layouts=30, seed=4, workers=1))
    assert again.conservative == figure
    played = advise_whist(whist_request("JT98.JT.98.A9", "..J.K", "6c", 1, 2, played=["As"]),
                          RunOptions(layouts=10, seed=4, workers=2))
    assert played.conservative is None and "the discard is made" in played.notes[-1]


def test_bid_advice_shows_the_best_contract_and_the_runner_up() -> None:
    advice = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False),
                        RunOptions(layouts=10, seed=1, workers=2))
    assert advice.conservative is not None and advice.conservative.contract == advice.recommended.contract
    assert advice.conservative_runner_up is not None
    assert {str(advice.conservative.contract), str(advice.conservative_runner_up.contract)} == {"6s", "8s"}
    for figure in (advice.conservative, advice.conservative_runner_up):
        assert figure.values["declarer"].conservative <= figure.values["declarer"].double_dummy
    misere = advise_bid(bid_request("A87.87.87.987", 0, contracts="6s,misere", value_pass=False),
                        RunOptions(layouts=10, seed=1, workers=2))
    figure = misere.conservative
    assert str(misere.recommended.contract) == "misere" and figure is not None and str(figure.contract) == "misere"
    assert figure.tricks.conservative >= figure.tricks.double_dummy   # misère: blind, he is caught more often
    assert figure.makes.conservative <= figure.makes.double_dummy
    assert figure.values["declarer"].conservative <= figure.values["declarer"].double_dummy
    after = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, talon="..7.8", contracts="6s"),
                       RunOptions(layouts=4, seed=1, workers=2))
    assert after.conservative is None and "already one for every layout" in after.notes[-1]


def test_the_command_line_shows_the_same_figure(capsys) -> None:
    argv = ["whist", *WHIST[:1], "--talon", WHIST[1], "--contract", "6c", "--declarer", "1", "--seat", "0",
            "--other", "pass", "--layouts", "20", "--seed", "2", "--workers", "2", "--no-progress"]
    expected = whist_json(advise_whist(whist_request(*WHIST, other_decision="pass"),
                                       RunOptions(layouts=20, seed=2, workers=2)))
    assert main(argv + ["--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["conservative"] == expected["conservative"] and answer["conservative"]["figure"] == "blind_discard"
    assert set(answer["conservative"]["tricks"]) == {"double_dummy", "conservative", "std_error"}
    assert main(argv) == 0
    text = capsys.readouterr().out
    tricks = expected["conservative"]["tricks"]
    assert (f"Blind discard (6♣, 12 layouts, 2 worlds for his discard; the declarer does not see the defenders' "
            f"cards): his tricks {tricks['double_dummy']:.2f} double dummy, {tricks['conservative']:.2f} blind "
            "discard") in text
    assert main(argv + ["--blind-discard", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["conservative"] is None
    assert main(argv + ["--blind-discard", "-1"]) == 2
    assert "blind discard: layouts must be a whole number" in capsys.readouterr().err
    bid = ["bid", "AKQJ8.AK.A8.7", "--seat", "0", "--contracts", "6s,8s", "--no-pass", "--layouts", "6",
           "--workers", "2", "--json"]
    assert main(bid) == 0
    expected_bid = bid_json(advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False),
                                       RunOptions(layouts=6, seed=0, workers=2)))
    got = json.loads(capsys.readouterr().out)
    assert got["conservative"] == expected_bid["conservative"]
    assert got["conservative_runner_up"] == expected_bid["conservative_runner_up"]


def recorded_runs(monkeypatch) -> list[RunOptions]:
    """The RunOptions of each run the blind-discard figure starts."""
    import solver.advice.optimism as optimism
    seen: list[RunOptions] = []
    real = optimism.run_layouts

    def recorded(space, evaluate, options, **kwargs):
        seen.append(options)
        return real(space, evaluate, options, **kwargs)

    monkeypatch.setattr(optimism, "run_layouts", recorded)
    return seen


def test_an_exact_advice_measures_the_figure_on_its_sample(monkeypatch) -> None:
    # The endgame's 20 layouts, enumerated by the advice: the figure still plays
    # its 12 (the first of the seed's sampling sequence), the same figure as
    # beside a sampled advice.
    runs = recorded_runs(monkeypatch)
    exact = advise_whist(endgame(), RunOptions(mode="exact", seed=3, workers=2))
    assert exact.run.exact and exact.run.complete and exact.run.space == 20
    assert exact.conservative is not None and exact.conservative.layouts == 12
    assert [(r.mode, r.layouts) for r in runs] == [("auto", 12)]
    sampled = advise_whist(endgame(), RunOptions(layouts=200, mode="sample", seed=3, workers=2))
    assert sampled.conservative == exact.conservative and runs[1].mode == "sample"
    # The bid's endgame: 90 layouts enumerated, 12 for each of its two figures.
    bid = advise_bid(bid_request(BID_HAND, 0, contracts="6s,6d,misere", unseen=BID_UNSEEN, prior_tricks=BID_PRIOR),
                     RunOptions(mode="exact", seed=3, workers=2))
    assert bid.run.exact and bid.run.complete and bid.run.space == 90
    assert bid.conservative is not None and bid.conservative_runner_up is not None
    assert bid.conservative.layouts == bid.conservative_runner_up.layouts == 12
    assert [(r.mode, r.layouts) for r in runs[2:]] == [("auto", 12)] * 2


def test_the_figure_gets_the_time_left_of_the_advice_budget(monkeypatch) -> None:
    runs = recorded_runs(monkeypatch)
    advice = advise_whist(whist_request(*WHIST, other_decision="pass"),
                          RunOptions(layouts=30, seconds=600, seed=4, workers=2))
    assert advice.conservative is not None and len(runs) == 1
    assert runs[0].seconds is not None and 0 < runs[0].seconds <= 600 - advice.run.elapsed
    bid = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False),
                     RunOptions(layouts=10, seconds=600, seed=1, workers=2))
    assert bid.conservative_runner_up is not None and len(runs) == 3
    assert 0 < runs[2].seconds < runs[1].seconds <= 600 - bid.run.elapsed   # the two figures share what is left
    # No time budget: none for the figure either.
    advise_whist(whist_request(*WHIST, other_decision="pass"), RunOptions(layouts=30, seed=4, workers=2))
    assert runs[3].seconds is None
    # The budget spent: the figure is not measured, and the notes say so.
    off = advise_whist(whist_request(*WHIST, other_decision="pass", blind_discard=0),
                       RunOptions(layouts=30, seed=4, workers=2))
    spent = with_conservative(replace(off, request=advice.request), RunOptions(layouts=30, seconds=1, seed=4),
                              started=time.monotonic() - 2)
    assert spent.conservative is None and spent.notes[-1].endswith("not measured: no layout kept in its budget")
    assert len(runs) == 4


def counting_solvers(monkeypatch) -> list[int]:
    """Counts the solvers the runs' workers make."""
    import solver.advice.parallel as parallel
    made: list[int] = []
    real = parallel.Solver

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(parallel, "Solver", counted)
    return made


def test_the_figures_reuse_the_advice_run_solvers(monkeypatch) -> None:
    import solver.advice.optimism as optimism
    made = counting_solvers(monkeypatch)
    whist = advise_whist(whist_request(*WHIST, other_decision="pass"), RunOptions(layouts=30, seed=4, workers=2))
    assert whist.conservative is not None and len(made) == 2   # the run's two workers, the figure takes theirs
    shared = []
    for seed in (1, 2):
        made.clear()
        shared.append(advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False),
                                 RunOptions(layouts=10, seed=seed, workers=2)))
        assert shared[-1].conservative_runner_up is not None and len(made) == 2   # the same for both figures
    # Fresh solvers for each figure's run: the same figures.
    real = optimism.run_layouts
    monkeypatch.setattr(optimism, "run_layouts",
                        lambda space, evaluate, options, solvers=None, **kwargs: real(space, evaluate, options,
                                                                                      **kwargs))
    for seed, advice in zip((1, 2), shared):
        made.clear()
        fresh = advise_bid(bid_request("AKQJ8.AK.A8.7", 0, contracts="6s,8s", value_pass=False),
                           RunOptions(layouts=10, seed=seed, workers=2))
        assert len(made) == 6
        assert (fresh.conservative, fresh.conservative_runner_up) == (advice.conservative,
                                                                      advice.conservative_runner_up)
        assert fresh.contracts == advice.contracts and fresh.plan == advice.plan
