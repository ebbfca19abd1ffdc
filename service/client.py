"""A small typed client for the ``preferans.v1.Analysis`` service.

    >>> from service.client import AnalysisClient, BatchItem
    >>> with AnalysisClient("127.0.0.1:50051") as client:               # doctest: +SKIP
    ...     client.solve("AKJ9.A.KJ.T98 QT7.QJ8.A7.J7 8.T97.QT98.KQ", "6h", declarer=0, leader=2)
    SolveResult(declarer_tricks=5, ...)

Contracts are notation text (``"6h"``, ``"7nt"``, ``"misere"``, ``"allpass"``),
seats 0-2, deals and cards notation text. A failed call raises
:class:`ServiceError` with the gRPC status code and the server's message.

:meth:`~AnalysisClient.solve` and :meth:`~AnalysisClient.evaluate_batch` answer
small dataclasses; the analysis and advice calls
(:meth:`~AnalysisClient.analyze_deal`, :meth:`~AnalysisClient.advise_whist`,
:meth:`~AnalysisClient.advise_bid`, :meth:`~AnalysisClient.enumerate_splits`,
:meth:`~AnalysisClient.advise_play`)
answer the response messages themselves (typed by the generated ``.pyi``),
which mirror the .proto and its documentation field for field.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, NamedTuple, Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from solver.notation import Contract

from .enums import (AUCTION_MODELS, CONTRACT_KINDS, CONVENTIONS, DECISIONS, DEFENCE_RULES, DISCARD_MODELS,
                    LAYOUT_MODES, SCORE_KINDS, SEATS, STRAINS)
from .proto import pb, pb_grpc

__all__ = ["AnalysisClient", "BatchItem", "BatchResult", "ServiceError", "SolveResult", "contract_fields",
           "contract_message"]


class ServiceError(Exception):
    """A call that ended with a status other than OK."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> ServiceError:
        return cls(error.code(), error.details() or "")  # type: ignore[attr-defined]


def contract_fields(contract: Contract | str) -> tuple[int, int]:
    """(ContractKind, Strain) enum values of a contract (text or object)."""
    contract = Contract.parse(contract) if isinstance(contract, str) else contract
    strain = STRAINS.to_proto(contract.strain) if contract.strain is not None else STRAINS.unspecified
    return CONTRACT_KINDS.to_proto(contract.kind), strain


def contract_message(contract: Contract | str) -> pb.Contract:
    """A ``Contract`` message (kind, strain, level) from text or an object."""
    contract = Contract.parse(contract) if isinstance(contract, str) else contract
    kind, strain = contract_fields(contract)
    return pb.Contract(kind=kind, strain=strain, level=contract.level or 0)


def _overrides(options: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(options)) if options else ""


def _budget(layouts: int, seconds: float, seed: int, mode: str) -> pb.Budget:
    return pb.Budget(layouts=layouts, seconds=seconds, seed=seed,
                     mode=LAYOUT_MODES.from_text(mode))


def _seat(seat: int | None) -> int:
    if seat is None:
        return SEATS.unspecified
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise ValueError(f"a seat is 0, 1 or 2, got {seat!r}")
    return SEATS.to_proto(seat)


@dataclass(frozen=True)
class SolveResult:
    """The answer of :meth:`AnalysisClient.solve`."""

    declarer_tricks: int
    seat_to_move: int
    tricks_left: int
    card_values: dict[str, int] = field(default_factory=dict)
    """Legal card of the seat on move → the declarer's tricks after it (card order)."""
    best_line: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BatchItem:
    """One contract to evaluate (a ``prefdd batch`` request)."""

    deal: str
    contract: str
    declarer: int
    """Seat 0-2; for all-pass, the player whose tricks are counted."""
    leader: int | None = None
    talon: str = ""
    card_values: bool = False
    id: str = ""

    def to_proto(self) -> pb.BatchItem:
        kind, strain = contract_fields(self.contract)
        return pb.BatchItem(id=self.id, deal=self.deal, talon=self.talon, kind=kind, strain=strain,
                            declarer=_seat(self.declarer), leader=_seat(self.leader),
                            card_values=self.card_values)


@dataclass(frozen=True)
class BatchResult:
    """One answer of :meth:`AnalysisClient.evaluate_batch`: a value or an error."""

    id: str
    index: int
    declarer_tricks: int | None = None
    card_values: dict[str, int] = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @classmethod
    def from_proto(cls, message: pb.BatchResult) -> BatchResult:
        if message.WhichOneof("outcome") == "error":
            return cls(message.id, message.index, error=message.error)
        evaluation = message.evaluation
        return cls(message.id, message.index, evaluation.declarer_tricks,
                   {value.card: value.declarer_tricks for value in evaluation.card_values})


def _chunks(items: Iterable[BatchItem | pb.BatchItem], size: int) -> Iterator[pb.EvaluateBatchRequest]:
    chunk: list[pb.BatchItem] = []
    for item in items:
        chunk.append(item.to_proto() if isinstance(item, BatchItem) else item)
        if len(chunk) == size:
            yield pb.EvaluateBatchRequest(items=chunk)
            chunk = []
    if chunk:
        yield pb.EvaluateBatchRequest(items=chunk)


class _BearerToken(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
                   grpc.StreamUnaryClientInterceptor, grpc.StreamStreamClientInterceptor):
    """Adds ``authorization: Bearer <token>`` to every call on a channel (the
    service's stubs, health checks and reflection alike)."""

    def __init__(self, token: str) -> None:
        self._header = ("authorization", f"Bearer {token}")

    def _with_token(self, details: grpc.ClientCallDetails) -> grpc.ClientCallDetails:
        metadata = [*(details.metadata or ()), self._header]
        return _CallDetails(details.method, details.timeout, metadata, details.credentials,
                            details.wait_for_ready, details.compression)

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_stream_unary(self, continuation: Any, details: Any, requests: Any) -> Any:
        return continuation(self._with_token(details), requests)

    def intercept_stream_stream(self, continuation: Any, details: Any, requests: Any) -> Any:
        return continuation(self._with_token(details), requests)


class _CallDetails(NamedTuple):
    method: str
    timeout: float | None
    metadata: Any
    credentials: Any
    wait_for_ready: bool | None
    compression: Any


class AnalysisClient:
    """A connection to an analysis server.

    ``target`` is ``host:port``. With ``root_certificates`` (PEM bytes; or
    ``tls=True`` for the system's roots) the channel uses TLS. ``token`` is sent
    as ``authorization: Bearer <token>`` on every call. ``timeout`` (seconds)
    is the default deadline of each call; None means none.
    """

    def __init__(self, target: str, *, token: str | None = None, tls: bool = False,
                 root_certificates: bytes | None = None, timeout: float | None = None,
                 options: Sequence[tuple[str, Any]] = ()) -> None:
        if tls or root_certificates is not None:
            credentials = grpc.ssl_channel_credentials(root_certificates=root_certificates)
            channel = grpc.secure_channel(target, credentials, options=list(options))
        else:
            channel = grpc.insecure_channel(target, options=list(options))
        self._raw_channel = channel
        self.channel: grpc.Channel = grpc.intercept_channel(channel, _BearerToken(token)) if token else channel
        """The channel (with the token, if any): use it for other stubs, e.g. reflection."""
        self.stub = pb_grpc.AnalysisStub(self.channel)
        self.timeout = timeout

    def __enter__(self) -> AnalysisClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._raw_channel.close()

    def _deadline(self, timeout: float | None) -> float | None:
        return self.timeout if timeout is None else timeout

    def solve(self, deal: str, contract: Contract | str, declarer: int, *, leader: int | None = None,
              played: Iterable[str] = (), talon: str = "", card_values: bool = False, best_line: bool = False,
              no_talon_leads: bool = False, four_players: bool = False,
              timeout: float | None = None) -> SolveResult:
        """Solve a position: ``played`` are the cards played from the start."""
        kind, strain = contract_fields(contract)
        position = pb.Position(deal=deal, talon=talon, kind=kind, strain=strain, declarer=_seat(declarer),
                               leader=_seat(leader), played=list(played), no_talon_leads=no_talon_leads,
                               four_players=four_players)
        request = pb.SolveRequest(position=position, card_values=card_values, best_line=best_line)
        try:
            answer = self.stub.Solve(request, timeout=self._deadline(timeout))
        except grpc.RpcError as error:
            raise ServiceError.from_rpc_error(error) from None
        return SolveResult(answer.declarer_tricks, SEATS.required(answer.seat_to_move, "seat_to_move"),
                           answer.tricks_left, {value.card: value.declarer_tricks for value in answer.card_values},
                           list(answer.best_line))

    def evaluate_batch(self, items: Iterable[BatchItem | pb.BatchItem], timeout: float | None = None,
                       chunk_size: int = 64) -> Iterator[BatchResult]:
        """Stream ``items`` to the server and yield answers as they finish (not
        in order: match them by ``id`` or ``index``). ``items`` is read lazily,
        so it may be a generator of any length; it is sent in messages of up to
        ``chunk_size`` items (a message waits until it is full or ``items`` ends)."""
        if chunk_size < 1:
            raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
        responses = self.stub.EvaluateBatch(_chunks(items, chunk_size), timeout=self._deadline(timeout))
        try:
            for response in responses:
                for result in response.results:
                    yield BatchResult.from_proto(result)
        except grpc.RpcError as error:
            raise ServiceError.from_rpc_error(error) from None
        finally:
            responses.cancel()

    def _call(self, method: Any, request: Any, timeout: float | None) -> Any:
        try:
            return method(request, timeout=self._deadline(timeout))
        except grpc.RpcError as error:
            raise ServiceError.from_rpc_error(error) from None

    def analyze_deal(self, deal: str, contract: Contract | str | None = None, declarer: int | None = None, *,
                     talon: str = "", discard: str = "", played: Iterable[str] = (), leader: int | None = None,
                     no_talon_leads: bool = False, four_players: bool = False, convention: str | None = None,
                     option_overrides: Mapping[str, Any] | None = None,
                     decisions: tuple[str, str] | None = None, half_whist_returned: bool = False,
                     timeout: float | None = None) -> pb.AnalyzeDealResponse:
        """The whole-deal analysis (``prefdd analyze``). Without ``contract``:
        the table and all-pass values; with it: best discards, the play
        analysed card by card and the best line. With ``convention`` (and, for
        a trick contract, ``decisions``: the first and second defender's
        ``pass``/``whist``/``half_whist``), the deal's score."""
        request = pb.AnalyzeDealRequest(deal=deal, talon=talon, declarer=_seat(declarer), discard=discard,
                                        played=list(played), leader=_seat(leader), no_talon_leads=no_talon_leads,
                                        four_players=four_players)
        if contract is not None:
            request.contract.CopyFrom(contract_message(contract))
        if convention is not None or decisions is not None or half_whist_returned:
            first, second = decisions if decisions is not None else (None, None)
            request.scoring.CopyFrom(pb.DealScoring(
                convention=CONVENTIONS.from_text(convention), option_overrides_json=_overrides(option_overrides),
                first_defender=DECISIONS.from_text(first), second_defender=DECISIONS.from_text(second),
                half_whist_returned=half_whist_returned))
        return self._call(self.stub.AnalyzeDeal, request, timeout)

    def advise_whist(self, hand: str, talon: str, contract: Contract | str, declarer: int, seat: int, *,
                     other_decision: str | None = None, convention: str = "sochi",
                     option_overrides: Mapping[str, Any] | None = None, played: Iterable[str] = (),
                     unseen: str = "", prior_tricks: Sequence[int] = (), discard_model: str = "best",
                     auction: Mapping[str, int] | None = None, split: bool = False, four_players: bool = False,
                     layouts: int = 0, seconds: float = 0.0, seed: int = 0, mode: str = "auto",
                     timeout: float | None = None, auction_model: str = "default",
                     single_dummy_layouts: int = 0,
                     blind_discard_layouts: int | None = None) -> pb.AdviseWhistResponse:
        """Whist or pass (``prefdd whist``): each option's expected value over
        the hidden layouts. ``auction``: keep only layouts the declarer could
        have bid from ({} for the defaults, or ``min_trumps``,
        ``max_undertricks``, ``whister_min_tops``); without it,
        ``auction_model`` (``default`` or ``none``) says which model. ``layouts`` (0: 1000), ``seconds`` (0: none),
        ``seed`` and ``mode`` (auto, sample, exact) are the run's budget.
        ``blind_discard_layouts``: None for the default conservative figure, 0 for none."""
        request = pb.AdviseWhistRequest(
            hand=hand, talon=talon, contract=contract_message(contract), declarer=_seat(declarer), seat=_seat(seat),
            other_decision=DECISIONS.from_text(other_decision), convention=CONVENTIONS.from_text(convention),
            option_overrides_json=_overrides(option_overrides), played=list(played), unseen=unseen,
            prior_tricks=list(prior_tricks),
            discard_model=DISCARD_MODELS.from_text(discard_model),
            split=split, four_players=four_players, budget=_budget(layouts, seconds, seed, mode),
            auction_model=AUCTION_MODELS.from_text(auction_model), single_dummy_layouts=single_dummy_layouts,
            blind_discard_layouts=blind_discard_layouts)
        if auction is not None:
            request.auction.CopyFrom(pb.AuctionFilter(**auction))
        return self._call(self.stub.AdviseWhist, request, timeout)

    def advise_play(self, hand: str, contract: Contract | str, declarer: int, seat: int, *,
                    played: Iterable[str] = (), talon: str = "", discard: str = "",
                    open_hands: Mapping[int, str] | None = None, unseen: str = "",
                    prior_tricks: Sequence[int] = (), whisters: Iterable[int] = (),
                    half_whist_returned: bool = False, convention: str = "sochi",
                    option_overrides: Mapping[str, Any] | None = None, four_players: bool = False,
                    leader: int | None = None, layouts: int = 0, seconds: float = 0.0, seed: int = 0,
                    mode: str = "auto", timeout: float | None = None) -> pb.AdvisePlayResponse:
        """Which card (``prefdd play``): each legal card of the seat on move,
        valued over the layouts it cannot see. ``open_hands``: seat → hand it
        sees; ``whisters``: the defenders who whist (empty: the default).
        ``layouts`` 0: 500."""
        request = pb.AdvisePlayRequest(
            hand=hand, contract=contract_message(contract), declarer=_seat(declarer), seat=_seat(seat),
            played=list(played), talon=talon, discard=discard,
            open_hands=[pb.OpenHand(seat=_seat(s), hand=h) for s, h in (open_hands or {}).items()],
            unseen=unseen, prior_tricks=list(prior_tricks), whisters=[_seat(s) for s in whisters],
            half_whist_returned=half_whist_returned, convention=CONVENTIONS.from_text(convention),
            option_overrides_json=_overrides(option_overrides), four_players=four_players, leader=_seat(leader),
            budget=_budget(layouts, seconds, seed, mode))
        return self._call(self.stub.AdvisePlay, request, timeout)

    def advise_bid(self, hand: str, seat: int, *, talon: str = "", convention: str = "sochi",
                   option_overrides: Mapping[str, Any] | None = None, contracts: Iterable[Contract | str] = (),
                   defence: str = "whist", unseen: str = "", prior_tricks: Sequence[int] = (),
                   four_players: bool = False, layouts: int = 0, seconds: float = 0.0, seed: int = 0,
                   mode: str = "auto", timeout: float | None = None, no_pass: bool = False,
                   single_dummy_layouts: int = 0, blind_discard_layouts: int | None = None) -> pb.AdviseBidResponse:
        """Which contract (``prefdd bid``): every contract's chance and expected
        value from 10 cards, or the best contract and discard of 12 (``talon``
        added). ``contracts`` empty: all. ``layouts`` 0: 200."""
        request = pb.AdviseBidRequest(
            hand=hand, seat=_seat(seat), talon=talon, convention=CONVENTIONS.from_text(convention),
            option_overrides_json=_overrides(option_overrides),
            contracts=[contract_message(c) for c in contracts],
            defence=DEFENCE_RULES.from_text(defence), unseen=unseen,
            prior_tricks=list(prior_tricks), four_players=four_players,
            budget=_budget(layouts, seconds, seed, mode), no_pass=no_pass,
            single_dummy_layouts=single_dummy_layouts, blind_discard_layouts=blind_discard_layouts)
        return self._call(self.stub.AdviseBid, request, timeout)

    def enumerate_splits(self, hand: str, declarer: int, contracts: Iterable[Contract | str], *, discard: str = "",
                         defenders: str = "", convention: str = "sochi",
                         option_overrides: Mapping[str, Any] | None = None, defence: str = "whist",
                         prior_tricks: Sequence[int] = (), four_players: bool = False, seconds: float = 0.0,
                         seed: int = 0, timeout: float | None = None) -> pb.EnumerateResponse:
        """Every split of the defenders' cards (``prefdd enumerate``): the
        declarer's cards in play (or his 12 with ``discard``), or an endgame's
        with ``defenders``."""
        request = pb.EnumerateRequest(
            hand=hand, declarer=_seat(declarer), contracts=[contract_message(c) for c in contracts],
            discard=discard, defenders=defenders, convention=CONVENTIONS.from_text(convention),
            option_overrides_json=_overrides(option_overrides),
            defence=DEFENCE_RULES.from_text(defence),
            prior_tricks=list(prior_tricks), four_players=four_players, seconds=seconds, seed=seed)
        return self._call(self.stub.Enumerate, request, timeout)

    def score(self, convention: str, kind: str, input: Any, *, option_overrides: dict[str, Any] | None = None,
              players: Sequence[str] = (), timeout: float | None = None) -> Any:
        """Score ``input`` (a JSON-able object) under a convention (``sochi``,
        ``leningrad``, ``rostov``); ``kind`` is ``deal``, ``settlement``,
        ``pool_write_with_help``, ``allpass_progression``, ``mini_pool``,
        ``ev_decision`` or ``game``. Answers the result object."""
        request = pb.ScoreRequest(convention=CONVENTIONS.from_text(convention),
                                  option_overrides_json=json.dumps(option_overrides or {}),
                                  kind=SCORE_KINDS.from_text(kind), input_json=json.dumps(input),
                                  players=list(players))
        try:
            answer = self.stub.Score(request, timeout=self._deadline(timeout))
        except grpc.RpcError as error:
            raise ServiceError.from_rpc_error(error) from None
        return json.loads(answer.result_json)

    def health(self, service: str = "", timeout: float | None = None) -> str:
        """The health status name of ``service`` ("" = the server): SERVING, NOT_SERVING…"""
        stub = health_pb2_grpc.HealthStub(self.channel)
        try:
            answer = stub.Check(health_pb2.HealthCheckRequest(service=service),
                                timeout=self._deadline(timeout))
        except grpc.RpcError as error:
            raise ServiceError.from_rpc_error(error) from None
        return health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)

    def wait_until_ready(self, timeout: float = 10.0) -> None:
        """Block until the channel connects (raises grpc.FutureTimeoutError)."""
        grpc.channel_ready_future(self._raw_channel).result(timeout=timeout)
