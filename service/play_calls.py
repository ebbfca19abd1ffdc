"""``AdvisePlay``: the request, its layout count and the answer (no grpc
here; the servicer runs it as the other advice calls, with
:mod:`service.advice_calls`' budget and layout limit).

The request becomes a :func:`solver.advice.play_request`, checked there; the
budget's default is ``prefdd play``'s 500 layouts. Cards are answered in the
notation's card text (``"As"``), void suits as suit letters (``"sc"``).
"""
from __future__ import annotations

from solver.advice import PlayAdvice, PlayRequest, play_request, play_space
from solver.notation import SUITS

from . import convert
from .advice_calls import BudgetChoice, _estimate, _optional_text, _run, budget_from_proto
from .errors import RequestError
from .proto import pb

__all__ = ["DEFAULT_PLAY_LAYOUTS", "play_from_proto", "play_layouts", "play_response"]

DEFAULT_PLAY_LAYOUTS = 500
"""The layout budget of ``prefdd play``."""


def _open_hands(message: pb.AdvisePlayRequest) -> dict[int, str]:
    if len(message.open_hands) > 2:
        raise RequestError(f"field 'open_hands' holds {len(message.open_hands)} hands; at most the 2 other seats")
    hands: dict[int, str] = {}
    for i, opened in enumerate(message.open_hands):
        seat = convert.seat_from_proto(opened.seat, f"open_hands[{i}].seat", required=True)
        if seat in hands:
            raise RequestError(f"field 'open_hands[{i}].seat': seat {seat} is given twice")
        hands[seat] = convert.text_field(opened.hand, f"open_hands[{i}].hand")  # type: ignore[index]
    return hands


def _whisters(message: pb.AdvisePlayRequest) -> list[int] | None:
    if len(message.whisters) > 2:
        raise RequestError(f"field 'whisters' holds {len(message.whisters)} seats; at most the 2 defenders")
    seats = [convert.seat_from_proto(value, f"whisters[{i}]", required=True)
             for i, value in enumerate(message.whisters)]
    return [seat for seat in seats if seat is not None] or None


def play_from_proto(message: pb.AdvisePlayRequest) -> tuple[PlayRequest, BudgetChoice]:
    if not message.HasField("contract"):
        raise RequestError("field 'contract' is required: a trick contract or misère")
    contract = convert.contract_from_proto(message.contract, "contract")
    declarer = convert.seat_from_proto(message.declarer, "declarer", required=True)
    seat = convert.seat_from_proto(message.seat, "seat", required=True)
    choice = convert.required_convention(message.convention, message.option_overrides_json)
    request = play_request(
        convert.text_field(message.hand, "hand"), contract, declarer, seat,  # type: ignore[arg-type]
        played=convert.cards_field(message.played, "played"),
        talon=_optional_text(message.talon, "talon"), discard=_optional_text(message.discard, "discard"),
        open_hands=_open_hands(message), unseen=_optional_text(message.unseen, "unseen"),  # type: ignore[arg-type]
        prior_tricks=convert.prior_tricks_from_proto(message.prior_tricks), whisters=_whisters(message),
        returned=message.half_whist_returned, convention=choice.convention, four_players=message.four_players,
        leader=convert.seat_from_proto(message.leader, "leader", required=False) or 0)
    return request, budget_from_proto(message.budget, DEFAULT_PLAY_LAYOUTS)


def play_layouts(request: PlayRequest) -> int:
    """How many layouts of the hidden cards fit what the seat has seen."""
    return play_space(request).count()


def play_response(advice: PlayAdvice) -> pb.AdvisePlayResponse:
    cards = [pb.CardPlayValue(card=str(card.card), declarer_tricks=_estimate(card.declarer_tricks),
                              value=_estimate(card.value), declarer_fails=_estimate(card.declarer_fails),
                              fail_count=int(card.fail_count))
             for card in advice.cards]
    voids = [pb.SeatVoids(seat=convert.seat_to_proto(seat), suits="".join(SUITS[s] for s in suits))
             for seat, suits in sorted(advice.voids.items())]
    out = pb.AdvisePlayResponse(recommended=str(advice.recommended), sureness=advice.sureness, cards=cards,
                                outcome=advice.scenario.value, voids=voids, discard_hidden=advice.discard_hidden,
                                run=_run(advice.run), notes=list(advice.notes))
    if advice.advantage is not None:
        out.advantage.CopyFrom(_estimate(advice.advantage))
    return out
