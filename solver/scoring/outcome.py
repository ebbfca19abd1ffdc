"""Deal outcomes: the typed input of scoring (spec §2), and the checks every outcome
must pass before it is scored.

An outcome is one of :class:`ContractOutcome`, :class:`MisereOutcome`,
:class:`AllPassOutcome`, :class:`GiveUpOutcome`, :class:`TalonBonusOutcome`.  Players
are names; ``players`` lists them in seat order clockwise; in a 4-player game
``dealer`` names the player who sits out.

Choices made where the spec is silent:

* In a 3-player game ``dealer`` has no scoring effect; it may be given (it must then be
  one of the players) or left ``None``.
* ``defenders`` is derived from the seating (first defender = next active player
  clockwise from the declarer); when an outcome gives it, it must agree.
* Half-whist is valid for either defender provided the *other* defender passed (a
  vector writes the first defender's half-whist after the second's pass); a return
  (``returned_by``) comes from that passing defender or from the 4-player dealer.
  The dealer may also return the whist after both defenders passed (seed 002: "в том
  числе после паса двух игроков"): that is scored as his whist.
* Trick counts are whole numbers 0..10.  A played contract and a misère need the tricks
  of all three card holders, adding up to 10.  An unplayed contract (both passed,
  half-whist not returned, a checked 10 that stood) must have no tricks.
* All-pass tricks add up to 10.  In a 4-player ``plays_talon`` game the dealer's talon
  tricks (0..2) count; he may be left out of ``tricks`` when he took none.  (``rules.md``
  lets a talon-led trick go to nobody, but in a full 32-card deal someone can always
  follow the talon card's suit on the first two tricks, so a whole deal has 10.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, Union

from .errors import ScoringError


class Decision(str, Enum):
    """A defender's (or the 4-player dealer's) answer to a contract."""

    PASS = "pass"
    WHIST = "whist"
    HALF_WHIST = "half_whist"

    @classmethod
    def from_text(cls, text: object) -> "Decision | None":
        """The decision a word names, or None: ``pass whist half_whist`` (also
        ``half-whist``, ``half whist``, ``half``) and the Russian ``пас``, ``вист``,
        ``полвиста`` (``пол-виста``, ``пол виста``), any case."""
        if isinstance(text, cls):
            return text
        if not isinstance(text, str):
            return None
        word = "_".join(text.strip().casefold().replace("-", " ").replace("_", " ").split())
        return _DECISION_WORDS.get(word)


_DECISION_WORDS = {
    "pass": Decision.PASS, "whist": Decision.WHIST, "half_whist": Decision.HALF_WHIST,
    "half": Decision.HALF_WHIST, "halfwhist": Decision.HALF_WHIST,
    "пас": Decision.PASS, "вист": Decision.WHIST, "полвиста": Decision.HALF_WHIST,
    "пол_виста": Decision.HALF_WHIST, "полвист": Decision.HALF_WHIST,
}


@dataclass(frozen=True)
class ContractOutcome:
    """A trick contract 6..10 and what happened to it.

    ``decisions`` maps each of the two defenders (optionally also the 4-player dealer,
    who may whist after two passes, §5.2.7) to a :class:`Decision`.  ``tricks`` maps the
    declarer and both defenders to the tricks they took; leave it empty when the deal
    was not played.  ``returned_by`` names who returned a half-whist (§5.2.5).
    ``strain`` (``s c d h nt``) matters only for the Stalingrad rule; ``light`` is
    informational.  ``talon_fast_tricks`` (0..3) is the talon bonus of §5.5.
    """

    players: tuple[str, ...]
    declarer: str
    contract: int
    decisions: Mapping[str, Decision]
    tricks: Mapping[str, int] = field(default_factory=dict)
    dealer: str | None = None
    returned_by: str | None = None
    defenders: tuple[str, str] | None = None
    strain: str | None = None
    light: bool | None = None
    talon_fast_tricks: int = 0


@dataclass(frozen=True)
class MisereOutcome:
    """A misère: ``tricks`` of the declarer and both opponents (adding up to 10)."""

    players: tuple[str, ...]
    declarer: str
    tricks: Mapping[str, int]
    dealer: str | None = None


@dataclass(frozen=True)
class AllPassOutcome:
    """An all-pass deal.  ``tricks`` of the card holders (and, 4-player ``plays_talon``,
    the dealer's talon tricks); ``index`` = consecutive all-passes including this one
    (1 = first of a run; ``None`` means 1 when scored alone, or the score sheet's own
    count when added to a sheet)."""

    players: tuple[str, ...]
    tricks: Mapping[str, int]
    dealer: str | None = None
    index: int | None = None


@dataclass(frozen=True)
class GiveUpOutcome:
    """"Без трёх, без вистов": the declarer concedes three undertricks unplayed
    (needs option ``allow_giveup_without_three``)."""

    players: tuple[str, ...]
    declarer: str
    contract: int
    dealer: str | None = None


@dataclass(frozen=True)
class TalonBonusOutcome:
    """Whists for aces/marriages in the talon (§5.5), recorded on their own:
    ``talon_fast_tricks`` = 1 (ace or marriage), 2 (ace and king), 3 (two aces)."""

    players: tuple[str, ...]
    declarer: str
    contract: int
    talon_fast_tricks: int
    dealer: str | None = None


DealOutcome = Union[ContractOutcome, MisereOutcome, AllPassOutcome, GiveUpOutcome, TalonBonusOutcome]


@dataclass(frozen=True)
class Seating:
    """Validated seating of one deal: seat order, the sitting dealer (4-player only)
    and the three card holders."""

    players: tuple[str, ...]
    sitting_dealer: str | None

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def card_holders(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != self.sitting_dealer)

    def require_player(self, name: object, what: str) -> str:
        """Return ``name`` if it is a player of this deal, else raise."""
        if name not in self.players:
            raise ScoringError(f"{what}: unknown player {name!r}; players are {list(self.players)}")
        return name  # type: ignore[return-value]

    def require_card_holder(self, name: object, what: str) -> str:
        self.require_player(name, what)
        if name == self.sitting_dealer:
            raise ScoringError(f"{what}: {name!r} is the dealer, who sits out this deal")
        return name  # type: ignore[return-value]

    def defenders(self, declarer: str) -> tuple[str, str]:
        """First and second defender in speaking order (clockwise from the declarer)."""
        start = self.players.index(declarer)
        order = [self.players[(start + i) % self.n] for i in range(1, self.n)]
        first, second = [p for p in order if p != self.sitting_dealer]
        return first, second

    def clockwise_distance(self, origin: str, other: str) -> int:
        return (self.players.index(other) - self.players.index(origin)) % self.n


def player_names(players: object) -> tuple[str, ...]:
    """Check a player list: 3 or 4 distinct non-empty names in seat order."""
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p for p in players):
        raise ScoringError(f"players: expected a list of 3 or 4 names, got {players!r}")
    names = tuple(players)
    if len(names) not in (3, 4):
        raise ScoringError(f"players: a game has 3 or 4 players, got {len(names)}: {list(names)}")
    if len(set(names)) != len(names):
        raise ScoringError(f"players: a name appears twice in {list(names)}")
    return names


def seating(players: object, dealer: object) -> Seating:
    """Check the player list (3 or 4 distinct names) and the dealer of one deal."""
    names = player_names(players)
    if dealer is not None and dealer not in names:
        raise ScoringError(f"dealer: unknown player {dealer!r}; players are {list(names)}")
    if len(names) == 4:
        if dealer is None:
            raise ScoringError("dealer: a 4-player deal needs the dealer, who sits out")
        return Seating(names, dealer)  # type: ignore[arg-type]
    return Seating(names, None)


def trick_count(value: object, who: str) -> int:
    """A whole number of tricks 0..10."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
        raise ScoringError(f"tricks of {who!r}: expected a whole number 0..10, got {value!r}")
    return value


def card_holder_tricks(seat: Seating, tricks: Mapping[str, object], what: str) -> dict[str, int]:
    """Tricks of the three card holders, all present and adding up to 10."""
    counts = checked_tricks(seat, tricks, allowed=seat.card_holders)
    missing = [p for p in seat.card_holders if p not in counts]
    if missing:
        raise ScoringError(f"{what}: tricks of {missing[0]!r} missing")
    total = sum(counts.values())
    if total != 10:
        raise ScoringError(f"{what}: tricks add up to {total}, not 10: {counts}")
    return counts


def checked_tricks(seat: Seating, tricks: Mapping[str, object], allowed: tuple[str, ...]) -> dict[str, int]:
    """Trick counts of known players among ``allowed``."""
    if not isinstance(tricks, Mapping):
        raise ScoringError(f"tricks: expected an object of player -> tricks, got {tricks!r}")
    counts: dict[str, int] = {}
    for name, value in tricks.items():
        seat.require_player(name, "tricks")
        if name not in allowed:
            if value == 0:
                continue
            raise ScoringError(f"tricks: {name!r} holds no cards in this deal but is given {value!r} tricks")
        counts[name] = trick_count(value, name)
    return counts


def contract_level(value: object, what: str = "contract") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 6 <= value <= 10:
        raise ScoringError(f"{what}: expected a contract 6..10, got {value!r}")
    return value


def decision(value: object, who: str) -> Decision:
    found = Decision.from_text(value)
    if found is None:
        raise ScoringError(
            f"decision of {who!r}: expected one of {[d.value for d in Decision]} "
            f"(or пас, вист, полвиста), got {value!r}"
        )
    return found
