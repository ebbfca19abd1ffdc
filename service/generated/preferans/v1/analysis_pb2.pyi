from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Seat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_UNSPECIFIED: _ClassVar[Seat]
    SEAT_FIRST: _ClassVar[Seat]
    SEAT_SECOND: _ClassVar[Seat]
    SEAT_THIRD: _ClassVar[Seat]

class ContractKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONTRACT_KIND_UNSPECIFIED: _ClassVar[ContractKind]
    CONTRACT_KIND_TRICKS: _ClassVar[ContractKind]
    CONTRACT_KIND_MISERE: _ClassVar[ContractKind]
    CONTRACT_KIND_ALL_PASS: _ClassVar[ContractKind]

class Strain(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRAIN_UNSPECIFIED: _ClassVar[Strain]
    STRAIN_SPADES: _ClassVar[Strain]
    STRAIN_CLUBS: _ClassVar[Strain]
    STRAIN_DIAMONDS: _ClassVar[Strain]
    STRAIN_HEARTS: _ClassVar[Strain]
    STRAIN_NO_TRUMP: _ClassVar[Strain]

class Convention(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONVENTION_UNSPECIFIED: _ClassVar[Convention]
    CONVENTION_SOCHI: _ClassVar[Convention]
    CONVENTION_LENINGRAD: _ClassVar[Convention]
    CONVENTION_ROSTOV: _ClassVar[Convention]

class ScoreKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCORE_KIND_UNSPECIFIED: _ClassVar[ScoreKind]
    SCORE_KIND_DEAL: _ClassVar[ScoreKind]
    SCORE_KIND_SETTLEMENT: _ClassVar[ScoreKind]
    SCORE_KIND_POOL_WRITE_WITH_HELP: _ClassVar[ScoreKind]
    SCORE_KIND_ALLPASS_PROGRESSION: _ClassVar[ScoreKind]
    SCORE_KIND_MINI_POOL: _ClassVar[ScoreKind]
    SCORE_KIND_EV_DECISION: _ClassVar[ScoreKind]
    SCORE_KIND_GAME: _ClassVar[ScoreKind]

class Decision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_UNSPECIFIED: _ClassVar[Decision]
    DECISION_PASS: _ClassVar[Decision]
    DECISION_WHIST: _ClassVar[Decision]
    DECISION_HALF_WHIST: _ClassVar[Decision]

class LayoutMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LAYOUT_MODE_UNSPECIFIED: _ClassVar[LayoutMode]
    LAYOUT_MODE_AUTO: _ClassVar[LayoutMode]
    LAYOUT_MODE_SAMPLE: _ClassVar[LayoutMode]
    LAYOUT_MODE_EXACT: _ClassVar[LayoutMode]

class DiscardModel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DISCARD_MODEL_UNSPECIFIED: _ClassVar[DiscardModel]
    DISCARD_MODEL_BEST: _ClassVar[DiscardModel]
    DISCARD_MODEL_UNIFORM: _ClassVar[DiscardModel]

class DefenceRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEFENCE_RULE_UNSPECIFIED: _ClassVar[DefenceRule]
    DEFENCE_RULE_WHIST: _ClassVar[DefenceRule]
    DEFENCE_RULE_PASS: _ClassVar[DefenceRule]
    DEFENCE_RULE_BOTH: _ClassVar[DefenceRule]
SEAT_UNSPECIFIED: Seat
SEAT_FIRST: Seat
SEAT_SECOND: Seat
SEAT_THIRD: Seat
CONTRACT_KIND_UNSPECIFIED: ContractKind
CONTRACT_KIND_TRICKS: ContractKind
CONTRACT_KIND_MISERE: ContractKind
CONTRACT_KIND_ALL_PASS: ContractKind
STRAIN_UNSPECIFIED: Strain
STRAIN_SPADES: Strain
STRAIN_CLUBS: Strain
STRAIN_DIAMONDS: Strain
STRAIN_HEARTS: Strain
STRAIN_NO_TRUMP: Strain
CONVENTION_UNSPECIFIED: Convention
CONVENTION_SOCHI: Convention
CONVENTION_LENINGRAD: Convention
CONVENTION_ROSTOV: Convention
SCORE_KIND_UNSPECIFIED: ScoreKind
SCORE_KIND_DEAL: ScoreKind
SCORE_KIND_SETTLEMENT: ScoreKind
SCORE_KIND_POOL_WRITE_WITH_HELP: ScoreKind
SCORE_KIND_ALLPASS_PROGRESSION: ScoreKind
SCORE_KIND_MINI_POOL: ScoreKind
SCORE_KIND_EV_DECISION: ScoreKind
SCORE_KIND_GAME: ScoreKind
DECISION_UNSPECIFIED: Decision
DECISION_PASS: Decision
DECISION_WHIST: Decision
DECISION_HALF_WHIST: Decision
LAYOUT_MODE_UNSPECIFIED: LayoutMode
LAYOUT_MODE_AUTO: LayoutMode
LAYOUT_MODE_SAMPLE: LayoutMode
LAYOUT_MODE_EXACT: LayoutMode
DISCARD_MODEL_UNSPECIFIED: DiscardModel
DISCARD_MODEL_BEST: DiscardModel
DISCARD_MODEL_UNIFORM: DiscardModel
DEFENCE_RULE_UNSPECIFIED: DefenceRule
DEFENCE_RULE_WHIST: DefenceRule
DEFENCE_RULE_PASS: DefenceRule
DEFENCE_RULE_BOTH: DefenceRule

class Position(_message.Message):
    __slots__ = ("deal", "talon", "kind", "strain", "declarer", "leader", "played", "no_talon_leads", "four_players")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STRAIN_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    NO_TALON_LEADS_FIELD_NUMBER: _ClassVar[int]
    FOUR_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    deal: str
    talon: str
    kind: ContractKind
    strain: Strain
    declarer: Seat
    leader: Seat
    played: _containers.RepeatedScalarFieldContainer[str]
    no_talon_leads: bool
    four_players: bool
    def __init__(self, deal: _Optional[str] = ..., talon: _Optional[str] = ..., kind: _Optional[_Union[ContractKind, str]] = ..., strain: _Optional[_Union[Strain, str]] = ..., declarer: _Optional[_Union[Seat, str]] = ..., leader: _Optional[_Union[Seat, str]] = ..., played: _Optional[_Iterable[str]] = ..., no_talon_leads: _Optional[bool] = ..., four_players: _Optional[bool] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ("position", "card_values", "best_line")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CARD_VALUES_FIELD_NUMBER: _ClassVar[int]
    BEST_LINE_FIELD_NUMBER: _ClassVar[int]
    position: Position
    card_values: bool
    best_line: bool
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., card_values: _Optional[bool] = ..., best_line: _Optional[bool] = ...) -> None: ...

class CardValue(_message.Message):
    __slots__ = ("card", "declarer_tricks")
    CARD_FIELD_NUMBER: _ClassVar[int]
    DECLARER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    card: str
    declarer_tricks: int
    def __init__(self, card: _Optional[str] = ..., declarer_tricks: _Optional[int] = ...) -> None: ...

class SolveResponse(_message.Message):
    __slots__ = ("declarer_tricks", "seat_to_move", "card_values", "best_line", "tricks_left")
    DECLARER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    SEAT_TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    CARD_VALUES_FIELD_NUMBER: _ClassVar[int]
    BEST_LINE_FIELD_NUMBER: _ClassVar[int]
    TRICKS_LEFT_FIELD_NUMBER: _ClassVar[int]
    declarer_tricks: int
    seat_to_move: Seat
    card_values: _containers.RepeatedCompositeFieldContainer[CardValue]
    best_line: _containers.RepeatedScalarFieldContainer[str]
    tricks_left: int
    def __init__(self, declarer_tricks: _Optional[int] = ..., seat_to_move: _Optional[_Union[Seat, str]] = ..., card_values: _Optional[_Iterable[_Union[CardValue, _Mapping]]] = ..., best_line: _Optional[_Iterable[str]] = ..., tricks_left: _Optional[int] = ...) -> None: ...

class EvaluateBatchRequest(_message.Message):
    __slots__ = ("items",)
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[BatchItem]
    def __init__(self, items: _Optional[_Iterable[_Union[BatchItem, _Mapping]]] = ...) -> None: ...

class EvaluateBatchResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[BatchResult]
    def __init__(self, results: _Optional[_Iterable[_Union[BatchResult, _Mapping]]] = ...) -> None: ...

class BatchItem(_message.Message):
    __slots__ = ("id", "deal", "talon", "kind", "strain", "declarer", "leader", "card_values")
    ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STRAIN_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARD_VALUES_FIELD_NUMBER: _ClassVar[int]
    id: str
    deal: str
    talon: str
    kind: ContractKind
    strain: Strain
    declarer: Seat
    leader: Seat
    card_values: bool
    def __init__(self, id: _Optional[str] = ..., deal: _Optional[str] = ..., talon: _Optional[str] = ..., kind: _Optional[_Union[ContractKind, str]] = ..., strain: _Optional[_Union[Strain, str]] = ..., declarer: _Optional[_Union[Seat, str]] = ..., leader: _Optional[_Union[Seat, str]] = ..., card_values: _Optional[bool] = ...) -> None: ...

class Evaluation(_message.Message):
    __slots__ = ("declarer_tricks", "card_values")
    DECLARER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    CARD_VALUES_FIELD_NUMBER: _ClassVar[int]
    declarer_tricks: int
    card_values: _containers.RepeatedCompositeFieldContainer[CardValue]
    def __init__(self, declarer_tricks: _Optional[int] = ..., card_values: _Optional[_Iterable[_Union[CardValue, _Mapping]]] = ...) -> None: ...

class BatchResult(_message.Message):
    __slots__ = ("id", "index", "evaluation", "error")
    ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    id: str
    index: int
    evaluation: Evaluation
    error: str
    def __init__(self, id: _Optional[str] = ..., index: _Optional[int] = ..., evaluation: _Optional[_Union[Evaluation, _Mapping]] = ..., error: _Optional[str] = ...) -> None: ...

class ScoreRequest(_message.Message):
    __slots__ = ("convention", "option_overrides_json", "kind", "input_json", "players")
    CONVENTION_FIELD_NUMBER: _ClassVar[int]
    OPTION_OVERRIDES_JSON_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    convention: Convention
    option_overrides_json: str
    kind: ScoreKind
    input_json: str
    players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, convention: _Optional[_Union[Convention, str]] = ..., option_overrides_json: _Optional[str] = ..., kind: _Optional[_Union[ScoreKind, str]] = ..., input_json: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ...) -> None: ...

class ScoreResponse(_message.Message):
    __slots__ = ("result_json",)
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    result_json: str
    def __init__(self, result_json: _Optional[str] = ...) -> None: ...

class Contract(_message.Message):
    __slots__ = ("kind", "strain", "level")
    KIND_FIELD_NUMBER: _ClassVar[int]
    STRAIN_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    kind: ContractKind
    strain: Strain
    level: int
    def __init__(self, kind: _Optional[_Union[ContractKind, str]] = ..., strain: _Optional[_Union[Strain, str]] = ..., level: _Optional[int] = ...) -> None: ...

class DealScoring(_message.Message):
    __slots__ = ("convention", "option_overrides_json", "first_defender", "second_defender", "half_whist_returned")
    CONVENTION_FIELD_NUMBER: _ClassVar[int]
    OPTION_OVERRIDES_JSON_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEFENDER_FIELD_NUMBER: _ClassVar[int]
    SECOND_DEFENDER_FIELD_NUMBER: _ClassVar[int]
    HALF_WHIST_RETURNED_FIELD_NUMBER: _ClassVar[int]
    convention: Convention
    option_overrides_json: str
    first_defender: Decision
    second_defender: Decision
    half_whist_returned: bool
    def __init__(self, convention: _Optional[_Union[Convention, str]] = ..., option_overrides_json: _Optional[str] = ..., first_defender: _Optional[_Union[Decision, str]] = ..., second_defender: _Optional[_Union[Decision, str]] = ..., half_whist_returned: _Optional[bool] = ...) -> None: ...

class AnalyzeDealRequest(_message.Message):
    __slots__ = ("deal", "talon", "contract", "declarer", "discard", "played", "leader", "no_talon_leads", "four_players", "scoring")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    NO_TALON_LEADS_FIELD_NUMBER: _ClassVar[int]
    FOUR_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    deal: str
    talon: str
    contract: Contract
    declarer: Seat
    discard: str
    played: _containers.RepeatedScalarFieldContainer[str]
    leader: Seat
    no_talon_leads: bool
    four_players: bool
    scoring: DealScoring
    def __init__(self, deal: _Optional[str] = ..., talon: _Optional[str] = ..., contract: _Optional[_Union[Contract, _Mapping]] = ..., declarer: _Optional[_Union[Seat, str]] = ..., discard: _Optional[str] = ..., played: _Optional[_Iterable[str]] = ..., leader: _Optional[_Union[Seat, str]] = ..., no_talon_leads: _Optional[bool] = ..., four_players: _Optional[bool] = ..., scoring: _Optional[_Union[DealScoring, _Mapping]] = ...) -> None: ...

class SeatTable(_message.Message):
    __slots__ = ("seat", "tricks", "discards", "misere", "misere_discard", "best_contract")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    MISERE_FIELD_NUMBER: _ClassVar[int]
    MISERE_DISCARD_FIELD_NUMBER: _ClassVar[int]
    BEST_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    seat: Seat
    tricks: _containers.RepeatedScalarFieldContainer[int]
    discards: _containers.RepeatedScalarFieldContainer[str]
    misere: int
    misere_discard: str
    best_contract: Contract
    def __init__(self, seat: _Optional[_Union[Seat, str]] = ..., tricks: _Optional[_Iterable[int]] = ..., discards: _Optional[_Iterable[str]] = ..., misere: _Optional[int] = ..., misere_discard: _Optional[str] = ..., best_contract: _Optional[_Union[Contract, _Mapping]] = ...) -> None: ...

class DealTable(_message.Message):
    __slots__ = ("leader", "rows")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    leader: Seat
    rows: _containers.RepeatedCompositeFieldContainer[SeatTable]
    def __init__(self, leader: _Optional[_Union[Seat, str]] = ..., rows: _Optional[_Iterable[_Union[SeatTable, _Mapping]]] = ...) -> None: ...

class BestDiscard(_message.Message):
    __slots__ = ("declarer_tricks", "discards", "made")
    DECLARER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    declarer_tricks: int
    discards: _containers.RepeatedScalarFieldContainer[str]
    made: bool
    def __init__(self, declarer_tricks: _Optional[int] = ..., discards: _Optional[_Iterable[str]] = ..., made: _Optional[bool] = ...) -> None: ...

class LineTrick(_message.Message):
    __slots__ = ("number", "cards", "seats", "already_played", "winner", "talon_card")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    ALREADY_PLAYED_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TALON_CARD_FIELD_NUMBER: _ClassVar[int]
    number: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    seats: _containers.RepeatedScalarFieldContainer[Seat]
    already_played: int
    winner: Seat
    talon_card: str
    def __init__(self, number: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., seats: _Optional[_Iterable[_Union[Seat, str]]] = ..., already_played: _Optional[int] = ..., winner: _Optional[_Union[Seat, str]] = ..., talon_card: _Optional[str] = ...) -> None: ...

class BestLine(_message.Message):
    __slots__ = ("value", "cards", "tricks")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    value: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    tricks: _containers.RepeatedCompositeFieldContainer[LineTrick]
    def __init__(self, value: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., tricks: _Optional[_Iterable[_Union[LineTrick, _Mapping]]] = ...) -> None: ...

class CardStep(_message.Message):
    __slots__ = ("trick", "seat", "card", "counted_seat", "value_before", "value_after", "cost", "best_cards")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COUNTED_SEAT_FIELD_NUMBER: _ClassVar[int]
    VALUE_BEFORE_FIELD_NUMBER: _ClassVar[int]
    VALUE_AFTER_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    BEST_CARDS_FIELD_NUMBER: _ClassVar[int]
    trick: int
    seat: Seat
    card: str
    counted_seat: Seat
    value_before: int
    value_after: int
    cost: int
    best_cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, trick: _Optional[int] = ..., seat: _Optional[_Union[Seat, str]] = ..., card: _Optional[str] = ..., counted_seat: _Optional[_Union[Seat, str]] = ..., value_before: _Optional[int] = ..., value_after: _Optional[int] = ..., cost: _Optional[int] = ..., best_cards: _Optional[_Iterable[str]] = ...) -> None: ...

class PlayAnalysis(_message.Message):
    __slots__ = ("deal", "declarer", "discard", "value", "steps", "best_line")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    BEST_LINE_FIELD_NUMBER: _ClassVar[int]
    deal: str
    declarer: Seat
    discard: str
    value: int
    steps: _containers.RepeatedCompositeFieldContainer[CardStep]
    best_line: BestLine
    def __init__(self, deal: _Optional[str] = ..., declarer: _Optional[_Union[Seat, str]] = ..., discard: _Optional[str] = ..., value: _Optional[int] = ..., steps: _Optional[_Iterable[_Union[CardStep, _Mapping]]] = ..., best_line: _Optional[_Union[BestLine, _Mapping]] = ...) -> None: ...

class AllPassLine(_message.Message):
    __slots__ = ("tricks", "unclaimed", "cards", "by_trick")
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    UNCLAIMED_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    BY_TRICK_FIELD_NUMBER: _ClassVar[int]
    tricks: _containers.RepeatedScalarFieldContainer[int]
    unclaimed: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    by_trick: _containers.RepeatedCompositeFieldContainer[LineTrick]
    def __init__(self, tricks: _Optional[_Iterable[int]] = ..., unclaimed: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., by_trick: _Optional[_Iterable[_Union[LineTrick, _Mapping]]] = ...) -> None: ...

class DealScore(_message.Message):
    __slots__ = ("tricks", "played", "input_json", "result_json", "deal_value")
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    INPUT_JSON_FIELD_NUMBER: _ClassVar[int]
    RESULT_JSON_FIELD_NUMBER: _ClassVar[int]
    DEAL_VALUE_FIELD_NUMBER: _ClassVar[int]
    tricks: _containers.RepeatedScalarFieldContainer[int]
    played: bool
    input_json: str
    result_json: str
    deal_value: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tricks: _Optional[_Iterable[int]] = ..., played: _Optional[bool] = ..., input_json: _Optional[str] = ..., result_json: _Optional[str] = ..., deal_value: _Optional[_Iterable[str]] = ...) -> None: ...

class AnalyzeDealResponse(_message.Message):
    __slots__ = ("deal", "table", "allpass_tricks", "best_discard", "play", "allpass_line", "score", "score_omitted")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    ALLPASS_TRICKS_FIELD_NUMBER: _ClassVar[int]
    BEST_DISCARD_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    ALLPASS_LINE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SCORE_OMITTED_FIELD_NUMBER: _ClassVar[int]
    deal: str
    table: DealTable
    allpass_tricks: _containers.RepeatedScalarFieldContainer[int]
    best_discard: BestDiscard
    play: PlayAnalysis
    allpass_line: AllPassLine
    score: DealScore
    score_omitted: str
    def __init__(self, deal: _Optional[str] = ..., table: _Optional[_Union[DealTable, _Mapping]] = ..., allpass_tricks: _Optional[_Iterable[int]] = ..., best_discard: _Optional[_Union[BestDiscard, _Mapping]] = ..., play: _Optional[_Union[PlayAnalysis, _Mapping]] = ..., allpass_line: _Optional[_Union[AllPassLine, _Mapping]] = ..., score: _Optional[_Union[DealScore, _Mapping]] = ..., score_omitted: _Optional[str] = ...) -> None: ...

class Budget(_message.Message):
    __slots__ = ("layouts", "seconds", "seed", "mode")
    LAYOUTS_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    layouts: int
    seconds: float
    seed: int
    mode: LayoutMode
    def __init__(self, layouts: _Optional[int] = ..., seconds: _Optional[float] = ..., seed: _Optional[int] = ..., mode: _Optional[_Union[LayoutMode, str]] = ...) -> None: ...

class AuctionFilter(_message.Message):
    __slots__ = ("min_trumps", "max_undertricks")
    MIN_TRUMPS_FIELD_NUMBER: _ClassVar[int]
    MAX_UNDERTRICKS_FIELD_NUMBER: _ClassVar[int]
    min_trumps: int
    max_undertricks: int
    def __init__(self, min_trumps: _Optional[int] = ..., max_undertricks: _Optional[int] = ...) -> None: ...

class Estimate(_message.Message):
    __slots__ = ("mean", "std_error", "exact")
    MEAN_FIELD_NUMBER: _ClassVar[int]
    STD_ERROR_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    mean: float
    std_error: float
    exact: str
    def __init__(self, mean: _Optional[float] = ..., std_error: _Optional[float] = ..., exact: _Optional[str] = ...) -> None: ...

class TrickProbability(_message.Message):
    __slots__ = ("tricks", "probability")
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    tricks: int
    probability: float
    def __init__(self, tricks: _Optional[int] = ..., probability: _Optional[float] = ...) -> None: ...

class RunStats(_message.Message):
    __slots__ = ("layouts", "rejected", "exact", "complete", "stopped", "seconds", "workers", "space", "seed")
    LAYOUTS_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    STOPPED_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    layouts: int
    rejected: int
    exact: bool
    complete: bool
    stopped: str
    seconds: float
    workers: int
    space: int
    seed: int
    def __init__(self, layouts: _Optional[int] = ..., rejected: _Optional[int] = ..., exact: _Optional[bool] = ..., complete: _Optional[bool] = ..., stopped: _Optional[str] = ..., seconds: _Optional[float] = ..., workers: _Optional[int] = ..., space: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class AdviseWhistRequest(_message.Message):
    __slots__ = ("hand", "talon", "contract", "declarer", "seat", "other_decision", "convention", "option_overrides_json", "played", "unseen", "prior_tricks", "discard_model", "auction", "split", "four_players", "budget")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OTHER_DECISION_FIELD_NUMBER: _ClassVar[int]
    CONVENTION_FIELD_NUMBER: _ClassVar[int]
    OPTION_OVERRIDES_JSON_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    UNSEEN_FIELD_NUMBER: _ClassVar[int]
    PRIOR_TRICKS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_MODEL_FIELD_NUMBER: _ClassVar[int]
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    SPLIT_FIELD_NUMBER: _ClassVar[int]
    FOUR_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    hand: str
    talon: str
    contract: Contract
    declarer: Seat
    seat: Seat
    other_decision: Decision
    convention: Convention
    option_overrides_json: str
    played: _containers.RepeatedScalarFieldContainer[str]
    unseen: str
    prior_tricks: _containers.RepeatedScalarFieldContainer[int]
    discard_model: DiscardModel
    auction: AuctionFilter
    split: bool
    four_players: bool
    budget: Budget
    def __init__(self, hand: _Optional[str] = ..., talon: _Optional[str] = ..., contract: _Optional[_Union[Contract, _Mapping]] = ..., declarer: _Optional[_Union[Seat, str]] = ..., seat: _Optional[_Union[Seat, str]] = ..., other_decision: _Optional[_Union[Decision, str]] = ..., convention: _Optional[_Union[Convention, str]] = ..., option_overrides_json: _Optional[str] = ..., played: _Optional[_Iterable[str]] = ..., unseen: _Optional[str] = ..., prior_tricks: _Optional[_Iterable[int]] = ..., discard_model: _Optional[_Union[DiscardModel, str]] = ..., auction: _Optional[_Union[AuctionFilter, _Mapping]] = ..., split: _Optional[bool] = ..., four_players: _Optional[bool] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ...) -> None: ...

class WhistOption(_message.Message):
    __slots__ = ("action", "description", "outcome", "value", "other_defender_value", "declarer_value", "declarer_fails", "defence_tricks", "layouts", "chooser", "replies")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    OTHER_DEFENDER_VALUE_FIELD_NUMBER: _ClassVar[int]
    DECLARER_VALUE_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FAILS_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_TRICKS_FIELD_NUMBER: _ClassVar[int]
    LAYOUTS_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_FIELD_NUMBER: _ClassVar[int]
    REPLIES_FIELD_NUMBER: _ClassVar[int]
    action: str
    description: str
    outcome: str
    value: Estimate
    other_defender_value: Estimate
    declarer_value: Estimate
    declarer_fails: Estimate
    defence_tricks: _containers.RepeatedCompositeFieldContainer[TrickProbability]
    layouts: int
    chooser: str
    replies: _containers.RepeatedCompositeFieldContainer[WhistOption]
    def __init__(self, action: _Optional[str] = ..., description: _Optional[str] = ..., outcome: _Optional[str] = ..., value: _Optional[_Union[Estimate, _Mapping]] = ..., other_defender_value: _Optional[_Union[Estimate, _Mapping]] = ..., declarer_value: _Optional[_Union[Estimate, _Mapping]] = ..., declarer_fails: _Optional[_Union[Estimate, _Mapping]] = ..., defence_tricks: _Optional[_Iterable[_Union[TrickProbability, _Mapping]]] = ..., layouts: _Optional[int] = ..., chooser: _Optional[str] = ..., replies: _Optional[_Iterable[_Union[WhistOption, _Mapping]]] = ...) -> None: ...

class SplitProbability(_message.Message):
    __slots__ = ("mine", "other", "probability")
    MINE_FIELD_NUMBER: _ClassVar[int]
    OTHER_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    mine: int
    other: int
    probability: float
    def __init__(self, mine: _Optional[int] = ..., other: _Optional[int] = ..., probability: _Optional[float] = ...) -> None: ...

class AdviseWhistResponse(_message.Message):
    __slots__ = ("recommended", "sureness", "advantage", "options", "declarer_tricks", "declarer_fails", "split", "run", "notes", "speaking_order")
    RECOMMENDED_FIELD_NUMBER: _ClassVar[int]
    SURENESS_FIELD_NUMBER: _ClassVar[int]
    ADVANTAGE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DECLARER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FAILS_FIELD_NUMBER: _ClassVar[int]
    SPLIT_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    SPEAKING_ORDER_FIELD_NUMBER: _ClassVar[int]
    recommended: str
    sureness: float
    advantage: Estimate
    options: _containers.RepeatedCompositeFieldContainer[WhistOption]
    declarer_tricks: _containers.RepeatedCompositeFieldContainer[TrickProbability]
    declarer_fails: Estimate
    split: _containers.RepeatedCompositeFieldContainer[SplitProbability]
    run: RunStats
    notes: _containers.RepeatedScalarFieldContainer[str]
    speaking_order: str
    def __init__(self, recommended: _Optional[str] = ..., sureness: _Optional[float] = ..., advantage: _Optional[_Union[Estimate, _Mapping]] = ..., options: _Optional[_Iterable[_Union[WhistOption, _Mapping]]] = ..., declarer_tricks: _Optional[_Iterable[_Union[TrickProbability, _Mapping]]] = ..., declarer_fails: _Optional[_Union[Estimate, _Mapping]] = ..., split: _Optional[_Iterable[_Union[SplitProbability, _Mapping]]] = ..., run: _Optional[_Union[RunStats, _Mapping]] = ..., notes: _Optional[_Iterable[str]] = ..., speaking_order: _Optional[str] = ...) -> None: ...

class AdviseBidRequest(_message.Message):
    __slots__ = ("hand", "seat", "talon", "convention", "option_overrides_json", "contracts", "defence", "unseen", "prior_tricks", "four_players", "budget")
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    CONVENTION_FIELD_NUMBER: _ClassVar[int]
    OPTION_OVERRIDES_JSON_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_FIELD_NUMBER: _ClassVar[int]
    UNSEEN_FIELD_NUMBER: _ClassVar[int]
    PRIOR_TRICKS_FIELD_NUMBER: _ClassVar[int]
    FOUR_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    hand: str
    seat: Seat
    talon: str
    convention: Convention
    option_overrides_json: str
    contracts: _containers.RepeatedCompositeFieldContainer[Contract]
    defence: DefenceRule
    unseen: str
    prior_tricks: _containers.RepeatedScalarFieldContainer[int]
    four_players: bool
    budget: Budget
    def __init__(self, hand: _Optional[str] = ..., seat: _Optional[_Union[Seat, str]] = ..., talon: _Optional[str] = ..., convention: _Optional[_Union[Convention, str]] = ..., option_overrides_json: _Optional[str] = ..., contracts: _Optional[_Iterable[_Union[Contract, _Mapping]]] = ..., defence: _Optional[_Union[DefenceRule, str]] = ..., unseen: _Optional[str] = ..., prior_tricks: _Optional[_Iterable[int]] = ..., four_players: _Optional[bool] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ...) -> None: ...

class ContractAdvice(_message.Message):
    __slots__ = ("contract", "make_probability", "value", "tricks", "discard")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    MAKE_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    contract: Contract
    make_probability: Estimate
    value: Estimate
    tricks: _containers.RepeatedCompositeFieldContainer[TrickProbability]
    discard: str
    def __init__(self, contract: _Optional[_Union[Contract, _Mapping]] = ..., make_probability: _Optional[_Union[Estimate, _Mapping]] = ..., value: _Optional[_Union[Estimate, _Mapping]] = ..., tricks: _Optional[_Iterable[_Union[TrickProbability, _Mapping]]] = ..., discard: _Optional[str] = ...) -> None: ...

class AdviseBidResponse(_message.Message):
    __slots__ = ("after_talon", "recommended", "sureness", "advantage", "contracts", "discards", "run", "notes")
    AFTER_TALON_FIELD_NUMBER: _ClassVar[int]
    RECOMMENDED_FIELD_NUMBER: _ClassVar[int]
    SURENESS_FIELD_NUMBER: _ClassVar[int]
    ADVANTAGE_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    after_talon: bool
    recommended: ContractAdvice
    sureness: float
    advantage: Estimate
    contracts: _containers.RepeatedCompositeFieldContainer[ContractAdvice]
    discards: _containers.RepeatedCompositeFieldContainer[ContractAdvice]
    run: RunStats
    notes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, after_talon: _Optional[bool] = ..., recommended: _Optional[_Union[ContractAdvice, _Mapping]] = ..., sureness: _Optional[float] = ..., advantage: _Optional[_Union[Estimate, _Mapping]] = ..., contracts: _Optional[_Iterable[_Union[ContractAdvice, _Mapping]]] = ..., discards: _Optional[_Iterable[_Union[ContractAdvice, _Mapping]]] = ..., run: _Optional[_Union[RunStats, _Mapping]] = ..., notes: _Optional[_Iterable[str]] = ...) -> None: ...

class EnumerateRequest(_message.Message):
    __slots__ = ("hand", "declarer", "contracts", "discard", "defenders", "convention", "option_overrides_json", "defence", "prior_tricks", "four_players", "seconds", "seed")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    DEFENDERS_FIELD_NUMBER: _ClassVar[int]
    CONVENTION_FIELD_NUMBER: _ClassVar[int]
    OPTION_OVERRIDES_JSON_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_FIELD_NUMBER: _ClassVar[int]
    PRIOR_TRICKS_FIELD_NUMBER: _ClassVar[int]
    FOUR_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    hand: str
    declarer: Seat
    contracts: _containers.RepeatedCompositeFieldContainer[Contract]
    discard: str
    defenders: str
    convention: Convention
    option_overrides_json: str
    defence: DefenceRule
    prior_tricks: _containers.RepeatedScalarFieldContainer[int]
    four_players: bool
    seconds: float
    seed: int
    def __init__(self, hand: _Optional[str] = ..., declarer: _Optional[_Union[Seat, str]] = ..., contracts: _Optional[_Iterable[_Union[Contract, _Mapping]]] = ..., discard: _Optional[str] = ..., defenders: _Optional[str] = ..., convention: _Optional[_Union[Convention, str]] = ..., option_overrides_json: _Optional[str] = ..., defence: _Optional[_Union[DefenceRule, str]] = ..., prior_tricks: _Optional[_Iterable[int]] = ..., four_players: _Optional[bool] = ..., seconds: _Optional[float] = ..., seed: _Optional[int] = ...) -> None: ...

class TrickCount(_message.Message):
    __slots__ = ("tricks", "splits")
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    SPLITS_FIELD_NUMBER: _ClassVar[int]
    tricks: int
    splits: int
    def __init__(self, tricks: _Optional[int] = ..., splits: _Optional[int] = ...) -> None: ...

class ContractCount(_message.Message):
    __slots__ = ("contract", "counts", "make_probability", "value")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    MAKE_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    contract: Contract
    counts: _containers.RepeatedCompositeFieldContainer[TrickCount]
    make_probability: Estimate
    value: Estimate
    def __init__(self, contract: _Optional[_Union[Contract, _Mapping]] = ..., counts: _Optional[_Iterable[_Union[TrickCount, _Mapping]]] = ..., make_probability: _Optional[_Union[Estimate, _Mapping]] = ..., value: _Optional[_Union[Estimate, _Mapping]] = ...) -> None: ...

class EnumerateResponse(_message.Message):
    __slots__ = ("defenders", "splits", "contracts", "run")
    DEFENDERS_FIELD_NUMBER: _ClassVar[int]
    SPLITS_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    defenders: str
    splits: int
    contracts: _containers.RepeatedCompositeFieldContainer[ContractCount]
    run: RunStats
    def __init__(self, defenders: _Optional[str] = ..., splits: _Optional[int] = ..., contracts: _Optional[_Iterable[_Union[ContractCount, _Mapping]]] = ..., run: _Optional[_Union[RunStats, _Mapping]] = ...) -> None: ...
