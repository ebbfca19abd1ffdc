"""``AdviseWhist``, ``AdviseBid`` and ``Enumerate``: requests, budgets, the
layout limit and the answers (no grpc here; :mod:`service.server` runs them).

The requests become :mod:`solver.advice` requests (``whist_request``,
``bid_request``, ``enumeration_request``), checked there; the budget becomes a
:class:`BudgetChoice` from which the server makes the run's
:class:`~solver.advice.RunOptions` (adding its worker threads, a cancel event
and a time budget no longer than the call's deadline).

Choices where the issue is silent:

* ``max_advice_layouts`` bounds the layouts one request may cost: the
  sampling budget, or every layout of the space when the run enumerates
  (``exact`` mode, or ``auto`` with a space no larger than the budget). An
  Enumerate always enumerates, so a full deal's 184,756 splits need a limit of
  at least that (the default is 200,000).
* The unspecified enums take the command line's defaults: auto mode, the
  best-discard model, the ``whist`` defence rule, the default auction model;
  the convention is required. The auction model changed the meaning of an
  AdviseWhist request without ``auction`` (every layout before, the model
  now): the answer says which model it played (``auction_model``), and
  ``AUCTION_MODEL_NONE`` asks for every layout.
* Discards are answered as two cards in canonical order (``"AsKs"``), as in
  AnalyzeDeal and ``prefdd analyze --json``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from solver.advice import (AuctionFilter, auction_text, BidAdvice, BidRequest, ContractAdvice, Enumeration, EnumerationRequest,
                           Estimate, LayoutSpace, RunStats, WhistAdvice, WhistOption, WhistRequest, bid_request,
                           enumeration_request, whist_request)
from solver.advice import layout_space
from solver.advice.play import AUCTION_MODEL
from solver.analysis import discard_text
from solver.notation import Contract, Hand

from . import convert
from .enums import AUCTION_MODELS, DEFENCE_RULES, DISCARD_MODELS, LAYOUT_MODES
from .errors import RequestError
from .proto import pb

__all__ = ["BudgetChoice", "LayoutLimitExceeded", "DEFAULT_WHIST_LAYOUTS", "DEFAULT_BID_LAYOUTS",
           "bid_from_proto", "bid_layouts", "bid_response", "budget_from_proto", "check_layouts",
           "enumeration_from_proto", "enumeration_layouts", "enumeration_response", "whist_from_proto",
           "whist_layouts", "whist_response"]

DEFAULT_WHIST_LAYOUTS = 1000
DEFAULT_BID_LAYOUTS = 200
"""The layout budgets of ``prefdd whist`` and ``prefdd bid``."""


class LayoutLimitExceeded(Exception):
    """A request would cost more layouts than the server allows (RESOURCE_EXHAUSTED)."""


@dataclass(frozen=True)
class BudgetChoice:
    layouts: int
    seconds: float | None
    seed: int
    mode: str
    """``auto``, ``sample`` or ``exact`` (:class:`~solver.advice.RunOptions`)."""


def _seconds(value: float, field: str) -> float | None:
    if not math.isfinite(value) or value < 0:
        raise RequestError(f"field '{field}' must be 0 (no time budget) or a positive number of seconds, "
                           f"got {value}")
    return value or None


def budget_from_proto(message: pb.Budget, default_layouts: int) -> BudgetChoice:
    mode = LAYOUT_MODES.required(message.mode, "budget.mode")
    return BudgetChoice(message.layouts or default_layouts, _seconds(message.seconds, "budget.seconds"),
                        message.seed, mode)


def check_layouts(budget: BudgetChoice, space: int, limit: int) -> None:
    """Raise :class:`LayoutLimitExceeded` when the run would cost more than
    ``limit`` layouts (``space``: how many layouts there are), in every mode;
    the one check of a run's size, before it starts."""
    if isinstance(budget.layouts, bool) or not isinstance(budget.layouts, int) or budget.layouts < 1:
        raise RequestError(f"field 'budget.layouts' must be a whole number of at least 1, got {budget.layouts!r}")
    if budget.mode not in ("auto", "sample", "exact"):
        raise RequestError(f"field 'budget.mode': unknown mode {budget.mode!r}")
    enumerates = budget.mode == "exact" or (budget.mode == "auto" and space <= budget.layouts)
    if enumerates and space > limit:
        raise LayoutLimitExceeded(f"the request has {space:,} layouts to enumerate; the server's limit is "
                                  f"max_advice_layouts={limit}")
    if not enumerates and budget.layouts > limit:
        raise LayoutLimitExceeded(f"budget.layouts={budget.layouts} exceeds the server's limit "
                                  f"max_advice_layouts={limit}")


def _optional_text(value: str, field: str) -> str | None:
    return convert.text_field(value, field) or None


def _contracts(messages: list[pb.Contract]) -> list[Contract]:
    if len(messages) > 64:
        raise RequestError(f"field 'contracts' holds {len(messages)} contracts; the limit is 64")
    return [convert.contract_from_proto(message, f"contracts[{i}]") for i, message in enumerate(messages)]


# ---- AdviseWhist ---------------------------------------------------------------

def _auction(message: pb.AdviseWhistRequest) -> AuctionFilter | None:
    model = AUCTION_MODELS.required(message.auction_model, "auction_model")
    if not message.HasField("auction"):
        return AUCTION_MODEL if model == "default" else None
    if message.auction_model == pb.AUCTION_MODEL_NONE:
        raise RequestError("field 'auction_model' is AUCTION_MODEL_NONE but field 'auction' gives a filter: "
                           "give one of them")
    default = AuctionFilter()
    auction = message.auction
    return AuctionFilter(auction.min_trumps if auction.HasField("min_trumps") else default.min_trumps,
                         auction.max_undertricks if auction.HasField("max_undertricks") else default.max_undertricks,
                         auction.whister_min_tops if auction.HasField("whister_min_tops") else None,
                         auction.sure_from_level if auction.HasField("sure_from_level") else None)


def whist_from_proto(message: pb.AdviseWhistRequest) -> tuple[WhistRequest, BudgetChoice]:
    if not message.HasField("contract"):
        raise RequestError("field 'contract' is required: the declarer's trick contract")
    contract = convert.contract_from_proto(message.contract, "contract")
    declarer = convert.seat_from_proto(message.declarer, "declarer", required=True)
    seat = convert.seat_from_proto(message.seat, "seat", required=True)
    choice = convert.required_convention(message.convention, message.option_overrides_json)
    request = whist_request(
        convert.text_field(message.hand, "hand"), convert.text_field(message.talon, "talon"), contract,
        declarer, seat,  # type: ignore[arg-type]
        other_decision=convert.decision_from_proto(message.other_decision, "other_decision"),
        convention=choice.convention, played=convert.cards_field(message.played, "played"),
        unseen=_optional_text(message.unseen, "unseen"), prior_tricks=convert.prior_tricks_from_proto(
            message.prior_tricks),
        discard_model=DISCARD_MODELS.required(message.discard_model, "discard_model"),
        auction=_auction(message), split=message.split, four_players=message.four_players,
        single_dummy=_single_dummy_layouts(message.single_dummy_layouts),
        blind_discard=_blind_discard_layouts(message))
    return request, budget_from_proto(message.budget, DEFAULT_WHIST_LAYOUTS)


MAX_SINGLE_DUMMY_LAYOUTS = 1000
MAX_BLIND_DISCARD_LAYOUTS = 1000
"""The most layouts a caller may ask the single-dummy and blind-discard figures for."""


def _single_dummy_layouts(value: int) -> int:
    if value > MAX_SINGLE_DUMMY_LAYOUTS:
        raise RequestError(f"field 'single_dummy_layouts' is {value}; the limit is {MAX_SINGLE_DUMMY_LAYOUTS}")
    return value


def _blind_discard_layouts(message) -> int | None:  # type: ignore[no-untyped-def]
    """The optional ``blind_discard_layouts`` (unset: the default, 0: off)."""
    if not message.HasField("blind_discard_layouts"):
        return None
    value = message.blind_discard_layouts
    if value > MAX_BLIND_DISCARD_LAYOUTS:
        raise RequestError(f"field 'blind_discard_layouts' is {value}; the limit is {MAX_BLIND_DISCARD_LAYOUTS}")
    return value


def _figure(figure) -> pb.PairedFigure:  # type: ignore[no-untyped-def]
    return pb.PairedFigure(double_dummy=figure.double_dummy, single_dummy=figure.single_dummy,
                           std_error=figure.std_error)


def _single_dummy(out, optimism) -> None:  # type: ignore[no-untyped-def]
    if optimism is None:
        return
    out.single_dummy.CopyFrom(pb.SingleDummyFigure(
        contract=convert.contract_to_proto(optimism.contract), layouts=optimism.layouts, worlds=optimism.worlds,
        tricks=_figure(optimism.tricks), makes=_figure(optimism.makes),
        values=[pb.NamedFigure(name=name, figure=_figure(figure)) for name, figure in optimism.values.items()]))


def _pair(figure) -> pb.ConservativePair:  # type: ignore[no-untyped-def]
    return pb.ConservativePair(double_dummy=figure.double_dummy, conservative=figure.conservative,
                               std_error=figure.std_error)


def conservative_figure(figure) -> pb.ConservativeFigure:  # type: ignore[no-untyped-def]
    """A conservative figure (:class:`solver.advice.optimism.Optimism`) as its message."""
    return pb.ConservativeFigure(
        figure=figure.figure, description=figure.description, contract=convert.contract_to_proto(figure.contract),
        layouts=figure.layouts, worlds=figure.worlds, tricks=_pair(figure.tricks), makes=_pair(figure.makes),
        values=[pb.NamedConservative(name=name, figure=_pair(value)) for name, value in figure.values.items()])


def whist_layouts(request: WhistRequest) -> int:
    """How many layouts of the hidden cards there are."""
    return layout_space(request).count()


def _estimate(value: Estimate) -> pb.Estimate:
    return pb.Estimate(mean=value.mean, std_error=value.std_error,
                       exact="" if value.exact is None else str(value.exact))


def _distribution(values: dict[int, float]) -> list[pb.TrickProbability]:
    return [pb.TrickProbability(tricks=tricks, probability=p) for tricks, p in values.items()]


def _run(stats: RunStats) -> pb.RunStats:
    return pb.RunStats(layouts=stats.layouts, rejected=stats.rejected, exact=stats.exact, complete=stats.complete,
                       stopped=stats.stopped, seconds=stats.elapsed, workers=stats.workers, space=stats.space,
                       seed=stats.seed)


def _option(option: WhistOption) -> pb.WhistOption:
    return pb.WhistOption(
        action=option.action, description=option.description, outcome=option.scenario.value,
        value=_estimate(option.value), other_defender_value=_estimate(option.other_value),
        declarer_value=_estimate(option.declarer_value), declarer_fails=_estimate(option.declarer_fails),
        defence_tricks=_distribution(option.defence_tricks or {}), layouts=option.layouts,
        chooser=option.chooser or "", replies=[_option(reply) for reply in option.replies])


def whist_response(advice: WhistAdvice) -> pb.AdviseWhistResponse:
    out = pb.AdviseWhistResponse(
        recommended=advice.recommended, sureness=advice.sureness,
        options=[_option(option) for option in advice.options],
        declarer_tricks=_distribution(advice.declarer_tricks), declarer_fails=_estimate(advice.declarer_fails),
        split=[pb.SplitProbability(mine=mine, other=other, probability=p)
               for (mine, other), p in (advice.split or {}).items()],
        run=_run(advice.run), notes=list(advice.notes),
        speaking_order="first" if advice.request.speaks_first else "second",
        auction_model=auction_text(advice.request.auction_played), plan=advice.plan)
    if advice.advantage is not None:
        out.advantage.CopyFrom(_estimate(advice.advantage))
    _single_dummy(out, advice.optimism)
    if advice.conservative is not None:
        out.conservative.CopyFrom(conservative_figure(advice.conservative))
    return out


# ---- AdviseBid -----------------------------------------------------------------

def bid_from_proto(message: pb.AdviseBidRequest) -> tuple[BidRequest, BudgetChoice]:
    seat = convert.seat_from_proto(message.seat, "seat", required=True)
    choice = convert.required_convention(message.convention, message.option_overrides_json)
    request = bid_request(
        convert.text_field(message.hand, "hand"), seat,  # type: ignore[arg-type]
        talon=_optional_text(message.talon, "talon"), convention=choice.convention,
        contracts=_contracts(list(message.contracts)) or None,
        defence=DEFENCE_RULES.required(message.defence, "defence"),
        unseen=_optional_text(message.unseen, "unseen"),
        prior_tricks=convert.prior_tricks_from_proto(message.prior_tricks), four_players=message.four_players,
        value_pass=not message.no_pass, single_dummy=_single_dummy_layouts(message.single_dummy_layouts),
        blind_discard=_blind_discard_layouts(message))
    return request, budget_from_proto(message.budget, DEFAULT_BID_LAYOUTS)


def bid_layouts(request: BidRequest) -> int:
    """How many layouts the bidder's question has: the talon and both other
    hands (10 cards), or the other hands (12 cards)."""
    size = request.hand_size
    if request.after_talon:
        return LayoutSpace(request.hidden, (size, size), (Hand(0), Hand(0))).count()
    return LayoutSpace(request.hidden, (2, size, size), (Hand(0), Hand(0), Hand(0))).count()


def _contract_advice(advice: ContractAdvice) -> pb.ContractAdvice:
    return pb.ContractAdvice(contract=convert.contract_to_proto(advice.contract),
                             make_probability=_estimate(advice.make_probability), value=_estimate(advice.value),
                             tricks=_distribution(advice.tricks),
                             discard="" if advice.discard is None else discard_text(advice.discard))


def bid_response(advice: BidAdvice) -> pb.AdviseBidResponse:
    out = pb.AdviseBidResponse(
        after_talon=advice.request.after_talon, recommended=_contract_advice(advice.recommended),
        sureness=advice.sureness, contracts=[_contract_advice(c) for c in advice.contracts],
        discards=[_contract_advice(c) for c in advice.discards], run=_run(advice.run), notes=list(advice.notes),
        recommendation=advice.recommendation, recommendation_sureness=advice.recommendation_sureness,
        plan=advice.plan)
    if advice.advantage is not None:
        out.advantage.CopyFrom(_estimate(advice.advantage))
    if advice.passing is not None:
        out.passing.CopyFrom(pb.PassAdvice(value=_estimate(advice.passing.value),
                                           tricks=_distribution(advice.passing.tricks)))
    if advice.recommendation_advantage is not None:
        out.recommendation_advantage.CopyFrom(_estimate(advice.recommendation_advantage))
    _single_dummy(out, advice.optimism)
    for name in ("conservative", "conservative_runner_up"):
        if (figure := getattr(advice, name)) is not None:
            getattr(out, name).CopyFrom(conservative_figure(figure))
    return out


# ---- Enumerate -----------------------------------------------------------------

def enumeration_from_proto(message: pb.EnumerateRequest) -> tuple[EnumerationRequest, BudgetChoice]:
    declarer = convert.seat_from_proto(message.declarer, "declarer", required=True)
    contracts = _contracts(list(message.contracts))
    if not contracts:
        raise RequestError("field 'contracts' needs at least one contract")
    choice = convert.required_convention(message.convention, message.option_overrides_json)
    request = enumeration_request(
        convert.text_field(message.hand, "hand"), declarer, contracts,  # type: ignore[arg-type]
        discard=_optional_text(message.discard, "discard"), defenders=_optional_text(message.defenders, "defenders"),
        convention=choice.convention, defence=DEFENCE_RULES.required(message.defence, "defence"),
        prior_tricks=convert.prior_tricks_from_proto(message.prior_tricks), four_players=message.four_players)
    budget = BudgetChoice(1, _seconds(message.seconds, "seconds"), message.seed, "exact")
    return request, budget


def enumeration_layouts(request: EnumerationRequest) -> int:
    """The splits of the defenders' cards."""
    size = len(request.hand)
    return LayoutSpace(request.defenders, (size, size), (Hand(0), Hand(0))).count()


def enumeration_response(result: Enumeration) -> pb.EnumerateResponse:
    contracts = [pb.ContractCount(contract=convert.contract_to_proto(count.contract),
                                  counts=[pb.TrickCount(tricks=tricks, splits=int(splits))
                                          for tricks, splits in count.counts.items()],
                                  make_probability=_estimate(count.make_probability), value=_estimate(count.value))
                 for count in result.contracts]
    return pb.EnumerateResponse(defenders=str(result.request.defenders), splits=result.splits,
                                contracts=contracts, run=_run(result.run))
