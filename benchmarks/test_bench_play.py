"""Card-play advice (``advise_play``, the work of the AdvisePlay RPC), 2
worker threads.

* Mid-deal: a defender of 6♥ in a dark whist after four tricks (the
  deal's solver line to a defender's turn from the twelfth card on), 500
  sampled layouts of the two hidden hands and the declarer's discard; each
  layout is one card-values search of the position. Target ≤ 0.3 s. The
  same through the AdvisePlay RPC (an in-process server on 127.0.0.1 with 2
  advice workers, the real client).
* Misère catching from the first lead: the catcher on lead sees his
  partner's hand and the talon, so the layouts are the declarer's 66
  discards, each solved for every lead. Target ≤ 1 s.

Each mid-deal round uses a new seed (new layouts, fresh solvers). Numbers go
to ``extra_info`` and to benchmarks/README.md.
"""
from __future__ import annotations

import itertools

from solver import Deal, Position, Solver
from solver.advice import RunOptions, advise_play, play_request
from solver.analysis import best_discard, deal_after_discard

WORKERS = 2
DEAL = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K")
# The misère: seat 1 declares with ♠97 ♣87 ♦T8 ♥QJ97 and the talon ♣T ♥8;
# seat 0 (on lead) and seat 2 catch.
MISERE_CATCHER = "AKQ8.AKQ9.AK."
MISERE_PARTNER = "JT.J.QJ97.AKT"
MISERE_TALON = ".T..8"


def _mid_deal_request():  # type: ignore[no-untyped-def]
    contract, declarer, seat = "6h", 1, 0
    discard = best_discard(DEAL, declarer, contract).discards[0]
    start = Position.start(deal_after_discard(DEAL, declarer, discard), contract, declarer)
    line = Solver(table_mib=4).best_line(start)
    for count in itertools.count(12):   # the first defender's turn from the twelfth card on
        played = line[:count]
        seat = Position.after(deal_after_discard(DEAL, declarer, discard), contract, declarer, played).seat_to_move
        if seat != declarer:
            break
    return play_request(DEAL.hands[seat], contract, declarer, seat, talon=DEAL.talon, played=played)


def test_mid_deal_play_500_layouts(benchmark) -> None:
    request = _mid_deal_request()
    seeds = itertools.count(1)
    result = benchmark.pedantic(
        lambda: advise_play(request, RunOptions(layouts=500, seed=next(seeds), workers=WORKERS, mode="sample")),
        rounds=5, iterations=1, warmup_rounds=1)
    assert result.run.layouts == 500 and result.discard_hidden
    benchmark.extra_info.update({"layouts": 500, "workers": WORKERS, "cards": len(result.cards),
                                 "recommended": str(result.recommended)})


def test_misere_catching_66_discards_first_lead(benchmark) -> None:
    request = play_request(MISERE_CATCHER, "misere", 1, 0, talon=MISERE_TALON, open_hands={2: MISERE_PARTNER})
    result = benchmark.pedantic(lambda: advise_play(request, RunOptions(workers=WORKERS)),
                                rounds=3, iterations=1, warmup_rounds=0)
    assert result.run.complete and result.run.layouts == 66 and len(result.cards) == 10
    benchmark.extra_info.update({"layouts": 66, "workers": WORKERS,
                                 "caught": {str(c.card): int(c.fail_count) for c in result.cards}})


def test_mid_deal_advise_play_rpc_500_layouts(benchmark) -> None:
    from service.client import AnalysisClient
    from service.server import ServerConfig, start_server
    request = _mid_deal_request()
    server = start_server(ServerConfig(host="127.0.0.1", port=0, workers=1, advice_workers=WORKERS))
    seeds = itertools.count(1)
    try:
        with AnalysisClient(f"127.0.0.1:{server.port}", timeout=60) as client:
            def call():  # type: ignore[no-untyped-def]
                return client.advise_play(str(request.hand), "6h", request.declarer, request.seat,
                                          talon=str(request.talon), played=[str(c) for c in request.played],
                                          layouts=500, seed=next(seeds), mode="sample")
            answer = benchmark.pedantic(call, rounds=5, iterations=1, warmup_rounds=1)
    finally:
        server.stop(grace=0)
    assert answer.run.layouts == 500
    benchmark.extra_info.update({"layouts": 500, "workers": WORKERS, "recommended": answer.recommended})
