"""Best discard and the deal's table against a brute force: every discard
solved on its own (the plain alpha-beta on random endgames, the full solver on
random full deals), then the best value, the discards reaching it and the
highest contract taken from those values independently."""
from __future__ import annotations

import gc
import random
import threading
import time
import weakref
from itertools import combinations

import pytest

import solver.analysis.table as table_module
from solver import Card, Contract, ContractKind, Deal, Hand, Position, SearchStopped, Solver
from solver.analysis import (
    AnalysisError,
    best_discard,
    deal_after_discard,
    discard_table,
    discard_text,
    highest_contract,
)
from solver.advice.play import discard_classes
from solver.analysis.discard import AnalysisError, discard_job, discard_jobs, discard_order
from solver.engine import OPT_NONE, DiscardJob, SolverBusyError, best_discard_search, best_discards_many
from solver.position import PositionError

CONTRACTS = ["6s", "6c", "6d", "6h", "6nt", "misere"]
FULL_DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"


def random_deal(rng: random.Random, size: int) -> Deal:
    """Three hands of ``size`` cards and a 2-card talon (size 10: a full deal)."""
    cards = rng.sample(range(32), 3 * size + 2)
    hands = [Hand.from_cards(Card.from_index(i) for i in cards[k * size:(k + 1) * size]) for k in range(3)]
    talon = Hand.from_cards(Card.from_index(i) for i in cards[3 * size:])
    return Deal((hands[0], hands[1], hands[2]), talon)


def every_discard(deal: Deal, declarer: int, contract: Contract, solver: Solver) -> dict[Hand, int]:
    """The value of each of the declarer's discards, one solve each."""
    pool = deal.hands[declarer] | deal.talon
    values = {}
    for pair in combinations(pool.cards(), 2):
        discard = Hand.from_cards(pair)
        played = deal_after_discard(deal, declarer, discard)
        values[discard] = solver.solve(Position.start(played, contract, declarer, 0))
    return values


def best_of(values: dict[Hand, int], contract: Contract) -> tuple[int, set[Hand]]:
    pick = min if contract.kind is ContractKind.MISERE else max
    best = pick(values.values())
    return best, {d for d, v in values.items() if v == best}


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_mib=8)


@pytest.fixture(scope="module")
def plain() -> Solver:
    plain = Solver(table_mib=1)
    plain.set_options(OPT_NONE)
    return plain


@pytest.mark.parametrize("seed", range(60))
def test_best_discard_matches_plain_search_on_endgames(solver: Solver, plain: Solver, seed: int) -> None:
    rng = random.Random(seed)
    deal = random_deal(rng, rng.randint(1, 5))
    declarer = rng.randrange(3)
    contract = Contract.parse(rng.choice(CONTRACTS))
    value, reaching = best_of(every_discard(deal, declarer, contract, plain), contract)
    found = best_discard(deal, declarer, contract, solver=solver)
    assert found.value == value
    assert set(found.discards) == reaching
    one = best_discard(deal, declarer, contract, all_discards=False, solver=solver)
    assert one.value == value and one.discards and set(one.discards) <= reaching
    assert_value_mode(deal, declarer, contract, solver, value, reaching)


def assert_value_mode(deal: Deal, declarer: int, contract: Contract, solver: Solver, value: int,
                      reaching: set[Hand]) -> None:
    """PDD_DISCARD_VALUE (the whist advice's search, through StartDiscards,
    in its own class order) answers the brute force's value and some of the
    discards reaching it; with a floor (pdd_best_discard_floor) too when the
    value reaches it, else some value below the floor and at least the best,
    with no discard (misère: the floor is not used), and the canonical mode
    its discard of the search without a floor."""
    masks = tuple(hand.mask for hand in deal.hands)
    pool = (deal.hands[declarer] | deal.talon).mask
    start = solver.start_discards(contract, declarer, 0)
    canonical = best_discard(deal, declarer, contract, solver=solver, canonical=True).discards
    for floor in range(len(deal.hands[declarer]) + 2):
        for first, expected in ((False, None), (True, {d.mask for d in canonical})):
            found, discards = start.best_discard(solver, masks, pool, first, floor)
            if value < floor and contract.kind is ContractKind.TRICKS:
                assert value <= found < floor and discards == (), (floor, first)
                continue
            assert found == value, (floor, first)
            assert discards and {Hand(mask) for mask in discards} <= reaching, (floor, first)
            assert expected is None or set(discards) == expected, (floor, first)


@pytest.mark.parametrize("seed", range(6))
def test_best_discard_matches_every_discard_on_full_deals(solver: Solver, seed: int) -> None:
    rng = random.Random(1000 + seed)
    deal = random_deal(rng, 10)
    declarer = rng.randrange(3)
    contract = Contract.parse(CONTRACTS[seed % 5] if seed != 5 else "misere")
    reference = Solver(table_mib=8)
    value, reaching = best_of(every_discard(deal, declarer, contract, reference), contract)
    found = best_discard(deal, declarer, contract, solver=solver)
    assert (found.value, set(found.discards)) == (value, reaching)
    assert found.classes <= 66
    assert_value_mode(deal, declarer, contract, solver, value, reaching)


def test_equivalent_discards_are_searched_once() -> None:
    # The declarer (seat 1) holds ♠AKQJT and the talon ♠98 brings two more;
    # the only other spade is ♠7: discarding any two of his seven spades
    # leaves the same game.
    deal = Deal.parse(".AKQ.AK. AKQJT... 7..QJ.AK 98...")
    found = best_discard(deal, 1, "6s", solver=Solver(table_mib=1))
    assert found.classes == 1
    assert len(found.discards) == 21
    assert discard_text(found.discards[0]) == "AsKs"


def reference_classes(pool: Hand, others: list[Hand], renamed: bool) -> list[list[Hand]]:
    """The classes of equivalent discards from their definition: for each
    suit the owner of each live card from the ace down (the kept cards, then
    each group of others), the suits as a multiset when renamed."""
    groups: dict[tuple, list[Hand]] = {}
    for pair in combinations(pool.cards(), 2):
        discard = Hand.from_cards(pair)
        owners = [pool - discard, *others]
        suits = []
        for suit in range(4):
            suits.append(tuple(index for rank in range(7, -1, -1) for index, hand in enumerate(owners)
                               if Card(suit, rank) in hand))
        key = tuple(sorted(suits)) if renamed else tuple(suits)
        groups.setdefault(key, []).append(discard)
    classes = [sorted(members, key=discard_order) for members in groups.values()]
    return sorted(classes, key=lambda members: discard_order(members[0]))


@pytest.mark.parametrize("size", [10, 6, 3])
def test_discard_classes_are_the_searchs_classes(size: int) -> None:
    """One definition of equivalent discards: the Python classes (from the
    C core) follow it, and the best-discard search counts the same classes
    (suits renamed in misère only); every best discard's class is best as a
    whole."""
    rng = random.Random(f"classes-{size}")
    solver = Solver(table_mib=4)
    for _ in range(60 if size == 10 else 120):
        deal = random_deal(rng, size)
        declarer = rng.randrange(3)
        contract = Contract.parse(rng.choice(CONTRACTS))
        pool = deal.hands[declarer] | deal.talon
        others = [deal.hands[seat] for seat in range(3) if seat != declarer]
        renamed = contract.kind is ContractKind.MISERE
        classes = discard_classes(pool, others, renamed)
        assert classes == reference_classes(pool, others, renamed)
        assert sum(map(len, classes)) == len(pool) * (len(pool) - 1) // 2
        if not renamed:
            assert discard_classes(pool, [others[0] | others[1]]) == reference_classes(pool, [others[0] | others[1]],
                                                                                      False)
        found = best_discard(deal, declarer, contract, solver=solver)
        assert found.classes == len(classes)
        best = set(found.discards)
        assert all(set(members) <= best or not set(members) & best for members in classes)


def test_discard_classes_check_their_input() -> None:
    with pytest.raises(PositionError, match="two other groups"):
        discard_classes(Hand.parse("AK..."), [Hand.parse(".A.."), Hand.parse("..A."), Hand.parse("...A")])
    with pytest.raises(PositionError, match="twice"):
        discard_classes(Hand.parse("AKQ..."), [Hand.parse("A...")])
    with pytest.raises(PositionError, match="hand sizes"):
        discard_classes(Hand.parse("A..."), [Hand.parse("K...")])


def independent_highest(tricks: list[int], misere: int) -> str | None:
    """The highest makable contract, from the bidding order written out."""
    order = [f"{level}{strain}" for level in (6, 7, 8) for strain in ("s", "c", "d", "h", "nt")]
    order += ["misere"] + [f"{level}{strain}" for level in (9, 10) for strain in ("s", "c", "d", "h", "nt")]
    strains = {"s": 0, "c": 1, "d": 2, "h": 3, "nt": 4}
    best = None
    for bid in order:
        if bid == "misere":
            ok = misere == 0
        else:
            strain = "nt" if bid.endswith("nt") else bid[-1]
            level = int(bid[:-len(strain)])
            ok = tricks[strains[strain]] >= level
        if ok:
            best = bid
    return best


@pytest.mark.parametrize("seed", range(2))
def test_table_matches_every_discard_on_full_deals(solver: Solver, seed: int) -> None:
    rng = random.Random(2000 + seed)
    deal = random_deal(rng, 10)
    table = discard_table(deal, solver=solver)
    reference = Solver(table_mib=8)
    for seat in range(3):
        row = table.rows[seat]
        values = []
        for strain, text in enumerate(CONTRACTS):
            contract = Contract.parse(text)
            per_discard = every_discard(deal, seat, contract, reference)
            value, reaching = best_of(per_discard, contract)
            best = row.misere if text == "misere" else row.strains[strain]
            assert best.value == value, (seat, text)
            assert best.discard in reaching, (seat, text)
            values.append(value)
        expected = independent_highest(values[:5], values[5])
        got = None if row.best_contract is None else str(row.best_contract)
        assert got == expected


@pytest.mark.parametrize("seed", range(20))
def test_table_on_endgames(solver: Solver, plain: Solver, seed: int) -> None:
    rng = random.Random(3000 + seed)
    deal = random_deal(rng, rng.randint(1, 4))
    table = discard_table(deal, solver=solver)
    for seat in range(3):
        for strain, text in enumerate(CONTRACTS):
            contract = Contract.parse(text)
            value, reaching = best_of(every_discard(deal, seat, contract, plain), contract)
            best = table.rows[seat].misere if text == "misere" else table.rows[seat].strains[strain]
            assert (best.value, best.discard in reaching) == (value, True)


@pytest.mark.parametrize("seed", range(6))
def test_threaded_table_equals_the_sequential_one(seed: int) -> None:
    rng = random.Random(4000 + seed)
    deal = random_deal(rng, 10 if seed < 4 else rng.randint(2, 6))
    sequential = discard_table(deal, solver=Solver(table_mib=4))
    for workers in (2, 3, 18, 19):
        assert discard_table(deal, solver=Solver(table_mib=4), workers=workers) == sequential, workers


def test_tables_on_several_threads_share_a_bounded_pool(monkeypatch) -> None:
    """Four threads making tables on three threads each at once (their first
    tables all holding their partners together): every table as on one
    thread, each caller holding its two partner solvers only while its table
    runs, the pool never keeping more idle than its bound, and no partner
    solver alive beyond it once the tables are done (the callers still
    alive)."""
    made: list[weakref.ref] = []
    real = table_module.Solver

    def counted(*args, **kwargs):
        made.append(weakref.ref(solver := real(*args, **kwargs)))
        return solver

    class Watched(table_module.PartnerPool):
        def __init__(self, kept: int) -> None:
            super().__init__(kept)
            self.watch = threading.Lock()
            self.held = self.most_held = self.most_idle = 0
            self.seen: set[int] = set()

        def take(self, count: int) -> list[Solver]:
            taken = super().take(count)
            with self.watch:
                self.held += len(taken)
                self.most_held = max(self.most_held, self.held)
                first = count > 0 and threading.get_ident() not in self.seen
                self.seen.add(threading.get_ident())
            if first:   # every caller's first table holds its partners at once
                together.wait()
            return taken

        def give_back(self, solvers) -> None:
            with self.watch:
                self.held -= len(solvers)
            super().give_back(solvers)
            with self.watch:
                self.most_idle = max(self.most_idle, self.idle())

    callers, done, finish = 4, threading.Barrier(5, timeout=120), threading.Event()
    together = threading.Barrier(callers, timeout=120)
    pool = Watched(2)
    monkeypatch.setattr(table_module, "Solver", counted)
    monkeypatch.setattr(table_module, "PARTNERS", pool)
    rng = random.Random(4200)
    deals = [random_deal(rng, 10 if i % 2 else rng.randint(4, 7)) for i in range(6)]
    expected = [discard_table(deal, solver=Solver(table_mib=4)) for deal in deals]
    got: dict[tuple[int, int], object] = {}
    errors: list[BaseException] = []

    def caller(k: int) -> None:
        try:
            solver = Solver(table_mib=4)
            for i in range(len(deals)):
                index = (i + k) % len(deals)
                got[k, index] = discard_table(deals[index], solver=solver, workers=3)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        done.wait()
        finish.wait(120)

    threads = [threading.Thread(target=caller, args=(k,)) for k in range(callers)]
    for thread in threads:
        thread.start()
    try:
        done.wait()
        gc.collect()
        alive = sum(ref() is not None for ref in made)
    finally:
        finish.set()
        for thread in threads:
            thread.join()
    assert not errors
    assert all(got[k, i] == expected[i] for k in range(callers) for i in range(len(deals)))
    assert pool.held == 0 and pool.most_held == callers * 2 and pool.most_idle <= 2
    assert len(made) >= callers * 2 and alive == pool.idle() == 2


@pytest.mark.parametrize("seed", range(3))
def test_table_is_its_searches_one_call_each(seed: int) -> None:
    """On one thread the table's one C call is its 18 best-discard searches
    in row order on one table: each best_discard on its own gives the same
    values and discards, and the same nodes in all."""
    rng = random.Random(4100 + seed)
    deal = random_deal(rng, 10 if seed < 2 else 5)
    batched, plain = Solver(table_mib=4), Solver(table_mib=4)
    table = discard_table(deal, solver=batched)
    for seat in range(3):
        row = table.rows[seat]
        for strain, text in enumerate(CONTRACTS):
            best = best_discard(deal, seat, text, all_discards=False, solver=plain)
            got = row.misere if text == "misere" else row.strains[strain]
            assert (got.value, got.discard) == (best.value, best.discard), (seat, text)
    assert batched.stats() == plain.stats()


def test_discard_jobs_are_the_single_jobs_and_refuse_alike() -> None:
    deal = Deal.parse(FULL_DEAL)
    contracts = ["6s", Contract.parse("7nt"), "misere"]
    for declarer in range(3):
        assert discard_jobs(deal, declarer, contracts, leader=2) == [
            discard_job(deal, declarer, c, leader=2) for c in contracts]
    for bad, match in (((deal, 3, contracts), "declarer"), ((deal, 0, ["6s", "allpass"]), "all-pass"),
                       ((Deal(deal.hands), 0, contracts), "talon"), ((deal, 0, ["6x"]), "unknown contract")):
        with pytest.raises((AnalysisError, ValueError), match=match):
            discard_jobs(*bad)
        with pytest.raises((AnalysisError, ValueError), match=match):
            [discard_job(bad[0], bad[1], c) for c in bad[2]]


def test_discard_order_is_the_cards_order_for_every_discard() -> None:
    """The kept sort key answers what the cards' order does, for every
    two-card discard and for larger hands, repeated."""
    rng = random.Random(4300)
    hands = [Hand((1 << a) | (1 << b)) for a, b in combinations(range(32), 2)]
    hands += [Hand(rng.getrandbits(32)) for _ in range(200)] + [Hand(0)]
    for hand in hands + hands:
        assert discard_order(hand) == tuple((card.suit, -card.rank) for card in hand.cards())


def test_best_discards_many_answers_refusals_and_checks_solvers() -> None:
    deal = Deal.parse(FULL_DEAL)
    good = discard_job(deal, 1, "6c")
    refused = DiscardJob(deal.hands, Hand.parse("A.K.."), 1, Contract.parse("6c"), 0)
    first, other = Solver(table_mib=1), Solver(table_mib=1)
    answers = best_discards_many([first, other], [good, refused, good])
    assert answers[0] == answers[2] == best_discard_search(Solver(table_mib=1), good.hands, good.pool, 1,
                                                           good.contract, 0, False)
    assert isinstance(answers[1], PositionError) and "hand sizes" in str(answers[1])
    with pytest.raises(ValueError, match="distinct solvers"):
        best_discards_many([first, first], [good])
    with pytest.raises(ValueError, match="distinct solvers"):
        best_discards_many([], [good])
    # A stopped solver stops the call. Both are stopped: under load one thread
    # can take every search before the other starts.
    first.request_stop()
    other.request_stop()
    with pytest.raises(SearchStopped):
        best_discards_many([first, other], [good] * 4)
    other.clear_stop()
    with pytest.raises(SearchStopped):
        best_discards_many([first], [good] * 2)
    first.clear_stop()
    assert best_discards_many([first], [good]) == [answers[0]]
    other._acquire()   # in use by another thread: refused, and the first solver is free again
    try:
        with pytest.raises(SolverBusyError):
            best_discards_many([first, other], [good])
    finally:
        other._lock.release()
    assert best_discards_many([first], [good]) == [answers[0]]


def test_table_workers_are_checked() -> None:
    with pytest.raises(AnalysisError, match="workers must be at least 1, got 0"):
        discard_table(FULL_DEAL, workers=0)
    with pytest.raises(TypeError, match="workers must be an int, got str"):
        discard_table(FULL_DEAL, workers="2")  # type: ignore[arg-type]


def test_stop_request_stops_a_threaded_table() -> None:
    solver = Solver(table_mib=1)
    solver.request_stop()
    with pytest.raises(SearchStopped):
        discard_table(FULL_DEAL, solver=solver, workers=2)
    solver.clear_stop()
    assert discard_table(FULL_DEAL, solver=solver, workers=2) == discard_table(FULL_DEAL)


def test_highest_contract_order() -> None:
    assert highest_contract([5, 5, 5, 5, 5], 1) is None
    assert str(highest_contract([6, 5, 5, 5, 5], 1)) == "6s"
    assert str(highest_contract([6, 6, 5, 5, 6], 1)) == "6nt"
    assert str(highest_contract([8, 5, 5, 5, 7], 1)) == "8s"
    assert str(highest_contract([8, 5, 5, 5, 8], 0)) == "misere"
    assert str(highest_contract([9, 5, 5, 5, 5], 0)) == "9s"
    assert str(highest_contract([10, 3, 3, 3, 10], 2)) == "10nt"
    with pytest.raises(AnalysisError, match="one value per strain"):
        highest_contract([6, 6], 0)


def test_bad_requests_name_the_problem() -> None:
    with pytest.raises(AnalysisError, match="needs the talon"):
        best_discard("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9", 0, "6s")
    with pytest.raises(AnalysisError, match="all-pass"):
        best_discard("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K", 0, "allpass")
    with pytest.raises(AnalysisError, match="declarer"):
        best_discard("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K", 3, "6s")
    deal = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K")
    with pytest.raises(AnalysisError, match="cannot discard"):
        deal_after_discard(deal, 0, Hand.parse("Ks Jd"))
    with pytest.raises(AnalysisError, match="2 cards"):
        deal_after_discard(deal, 0, Hand.parse("As"))
    with pytest.raises(AnalysisError, match="needs the talon"):
        discard_table("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9")


DISCARD_MODES = [dict(all_discards=True), dict(all_discards=False), dict(canonical=True)]


@pytest.mark.parametrize("contract", ["misere", "6s", "7nt"])
@pytest.mark.parametrize("mode", DISCARD_MODES, ids=["all", "one", "canonical"])
def test_stop_request_stops_the_discard_search(contract: str, mode: dict) -> None:
    """A stop pending before the call stops every mode of the search (the
    sanitizer build also checks that no stopped figure is taken for a
    class's value), and the solver answers as a fresh one after."""
    solver = Solver(table_mib=1)
    deal = random_deal(random.Random(5), 10)
    solver.request_stop()
    with pytest.raises(SearchStopped):
        best_discard(deal, 1, contract, solver=solver, **mode)
    solver.clear_stop()
    assert best_discard(deal, 1, contract, solver=solver, **mode) == best_discard(deal, 1, contract, **mode)


@pytest.mark.parametrize("contract", ["misere", "6s", "7nt"])
def test_discard_searches_stopped_part_way_leave_the_solver_exact(contract: str) -> None:
    """Stop requests from another thread at fractions of the call's own time
    land in different parts of the discard search (which stops, or answers
    if it was quicker); whatever answers equals a fresh solver's result, and
    the solver is exact afterwards."""
    solver = Solver(table_mib=1)
    rng = random.Random(11)
    deals = [random_deal(rng, 10) for _ in range(3)]
    fresh = {}
    for i, deal in enumerate(deals):
        for j, mode in enumerate(DISCARD_MODES):
            began = time.perf_counter()
            fresh[i, j] = best_discard(deal, 1, contract, solver=Solver(table_mib=1), **mode)
            fresh[i, j, "seconds"] = time.perf_counter() - began
    for k, fraction in enumerate([0.05, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.2, 0.02]):
        i, j = k % len(deals), k % len(DISCARD_MODES)
        timer = threading.Timer(fraction * fresh[i, j, "seconds"], solver.request_stop)
        timer.start()
        try:
            answer = best_discard(deals[i], 1, contract, solver=solver, **DISCARD_MODES[j])
        except SearchStopped:
            pass
        else:
            assert answer == fresh[i, j]
        timer.join()
        solver.clear_stop()
    for i, deal in enumerate(deals):
        for j, mode in enumerate(DISCARD_MODES):
            assert best_discard(deal, 1, contract, solver=solver, **mode) == fresh[i, j]
