"""Pool bookkeeping: the score sheet, pool closing and help (§6), the all-pass
progression and its reset (§5.4), and the end of the game.

Choices made where the spec is silent:

* A deal's mountain entries are written before its pool writes are routed, so help
  tie-breaks and the mountain write-off see the mountain after this deal.  Several
  pool writes of one deal (all-pass zero bonuses) are routed one after another in seat
  order, each seeing the previous ones.
* Pools are capped at the pool size when ``pool_end = each_closed`` or ``help`` is on.
  Without help the excess goes straight to the write-off step (own mountain, then the
  others' mountains).  With ``pool_end = sum_reached`` and no help pools are uncapped.
* Write-off and "add to every other mountain" convert pool points to mountain points
  at ``pool_point_mountain_equiv`` (1 in Sochi/Rostov, as in §6.1), which keeps them
  value-neutral in every convention; only a positive mountain is written off.
* ``made_game_writes = mountain_first`` applies to made contracts and made misères
  (not to all-pass bonuses); it writes off up to e·p of the own mountain first.
* Progression reset: ``made_contract`` means any made trick contract (played or not);
  a misère never counts.  ``whisted`` means some defender or the dealer said whist or
  half-whist.  A give-up is a failed, unwhisted contract; a stand-alone talon bonus
  is not a deal and changes nothing.
* An all-pass added to a sheet takes its index from the sheet; an index given in the
  outcome must agree.  A contract below ``exit_min_contract_ladder`` for the current
  run of all-passes is refused (misère ranks above 8).  No deal may be added after the
  game has ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

from .errors import ScoringError
from .options import Convention
from .outcome import (AllPassOutcome, ContractOutcome, DealOutcome, GiveUpOutcome, MisereOutcome, Seating,
                      player_names, seating)
from .records import Records, ScoredDeal, allpass_price, score_deal
from .settlement import Settlement, settle
from .value import record_value


def route_pool_write(
    convention: Convention,
    seat: Seating,
    state: Records,
    pool_size: Fraction,
    writer: str,
    points: Fraction,
    excluded: Iterable[str] = (),
    made_game: bool = False,
) -> Records:
    """The delta of writing ``points`` to ``writer``'s pool on a sheet in ``state``:
    own pool up to the pool size, then help to other open pools (highest pool, then
    smaller mountain, then nearest clockwise from the writer; ``help_whists_per_point``
    whists each), then write-off from the own mountain, then onto everyone else's
    mountain (§6.1).  ``excluded`` players are not helped.  ``state`` is not changed."""
    delta = Records(seat.players)
    equiv = convention.pool_point_mountain_equiv
    if made_game and convention.made_game_writes == "mountain_first":
        off = min(max(state.mountain[writer], Fraction(0)), equiv * points)
        delta.write_mountain(writer, -off)
        points -= off / equiv
    if not convention.caps_pool():
        delta.write_pool(writer, points)
        return delta
    own = min(points, max(Fraction(0), pool_size - state.pool[writer]))
    delta.write_pool(writer, own)
    excess = points - own
    blocked = set(excluded) | {writer}
    while excess > 0 and convention.help:
        open_pools = [p for p in seat.players
                      if p not in blocked and state.pool[p] + delta.pool[p] < pool_size]
        if not open_pools:
            break
        helped = min(open_pools, key=lambda p: _help_rank(convention, seat, state, delta, writer, p))
        given = min(excess, pool_size - state.pool[helped] - delta.pool[helped])
        delta.write_pool(helped, given)
        delta.write_whists(writer, helped, convention.help_whists_per_point * given)
        excess -= given
    if excess > 0:
        rest = equiv * excess
        off = min(rest, max(Fraction(0), state.mountain[writer] + delta.mountain[writer]))
        delta.write_mountain(writer, -off)
        rest -= off
        if rest > 0:
            for player in seat.players:
                if player != writer:
                    delta.write_mountain(player, rest)
    return delta


def _help_rank(convention: Convention, seat: Seating, state: Records, delta: Records, writer: str,
               player: str) -> tuple[Fraction, ...]:
    rank: list[Fraction] = []
    for criterion in convention.help_tie_break:
        if criterion == "higher_pool":
            rank.append(-(state.pool[player] + delta.pool[player]))
        elif criterion == "lower_mountain":
            rank.append(state.mountain[player] + delta.mountain[player])
        else:
            rank.append(Fraction(seat.clockwise_distance(writer, player)))
    rank.append(Fraction(seat.clockwise_distance(writer, player)))
    return tuple(rank)


def help_exclusions(convention: Convention, scored: ScoredDeal) -> frozenset[str]:
    """Players this deal's pool writes may not help (option ``help_excludes``)."""
    excluded: set[str] = set()
    if "dealer_4p" in convention.help_excludes and scored.sitting_dealer is not None:
        excluded.add(scored.sitting_dealer)
    if "failed_whister" in convention.help_excludes:
        excluded |= scored.failed_whisters
    return frozenset(excluded)


def route_deal(convention: Convention, seat: Seating, state: Records, pool_size: Fraction,
               scored: ScoredDeal) -> Records:
    """A deal's delta after routing all its pool writes through §6 (state unchanged)."""
    raw = scored.records
    delta = Records(seat.players, mountain=dict(raw.mountain), whists=dict(raw.whists))
    excluded = help_exclusions(convention, scored)
    for player in seat.players:
        points = raw.pool[player]
        if points == 0:
            continue
        if points < 0:
            delta.write_pool(player, points)
            continue
        current = state.copy()
        current.add(delta)
        routed = route_pool_write(convention, seat, current, pool_size, player, points, excluded,
                                  made_game=player == scored.made_game_player)
        delta.add(routed)
    return delta


@dataclass(frozen=True)
class ProgressionEvent:
    """What the all-pass progression needs to know about one deal."""

    kind: str  # "allpass", "contract", "misere" or "giveup"
    made: bool = False
    whisted: bool = False


class AllPassProgression:
    """Counts consecutive all-passes and prices them (§5.4, option ``progression_reset``)."""

    def __init__(self, convention: Convention) -> None:
        self.convention = convention
        self.run = 0

    def next_index(self) -> int:
        """Index the next all-pass would have (1 = first of a run)."""
        return self.run + 1

    def next_price(self) -> Fraction:
        return allpass_price(self.convention, self.next_index())

    def minimum_contract(self) -> int:
        """Lowest contract allowed now (``exit_min_contract_ladder``)."""
        ladder = self.convention.exit_min_contract_ladder
        return ladder[min(self.run, len(ladder) - 1)]

    def record(self, event: ProgressionEvent) -> Fraction | None:
        """Register a deal; return the trick price for an all-pass, ``None`` otherwise."""
        if event.kind == "allpass":
            price = self.next_price()
            self.run += 1
            return price
        if event.kind not in ("contract", "misere", "giveup"):
            raise ScoringError(f"progression event: unknown type {event.kind!r}")
        if self._resets(event):
            self.run = 0
        return None

    def _resets(self, event: ProgressionEvent) -> bool:
        rule = self.convention.progression_reset
        if rule == "any_non_allpass_deal":
            return True
        is_contract = event.kind == "contract"
        if rule == "made_contract":
            return is_contract and event.made
        return is_contract and event.made and event.whisted


def progression_event(outcome: DealOutcome, scored: ScoredDeal) -> ProgressionEvent | None:
    """The progression event of a scored deal (``None`` for a stand-alone talon bonus)."""
    if not scored.is_deal:
        return None
    if isinstance(outcome, AllPassOutcome):
        return ProgressionEvent("allpass")
    if isinstance(outcome, MisereOutcome):
        return ProgressionEvent("misere", made=scored.made)
    if isinstance(outcome, GiveUpOutcome):
        return ProgressionEvent("giveup")
    return ProgressionEvent("contract", made=scored.made, whisted=scored.whisted)


@dataclass(frozen=True)
class SheetEntry:
    """One deal on the sheet: the outcome, its delta after pool routing, the deal value
    of that delta, and the all-pass trick price (``None`` unless an all-pass)."""

    outcome: DealOutcome
    records: Records
    value: dict[str, Fraction]
    allpass_price: Fraction | None


class ScoreSheet:
    """A pool ("пуля") in progress: accumulates deals, routes pool writes (§6), runs
    the all-pass progression (§5.4), knows when the game ends and settles it (§7)."""

    def __init__(self, convention: Convention, players: Iterable[str],
                 pool_size: Fraction | int | None = None) -> None:
        """``players`` in seat order clockwise; ``pool_size`` defaults to the option
        ``pool_size_per_player``."""
        self.convention = convention
        self.seat = Seating(player_names(tuple(players)), None)
        size = pool_size if pool_size is not None else convention.pool_size_per_player
        if isinstance(size, bool) or not isinstance(size, (int, Fraction)) or size <= 0:
            raise ScoringError(f"pool_size: expected a positive number, got {size!r}")
        self.pool_size = Fraction(size)
        self.totals = Records(self.seat.players)
        self.entries: list[SheetEntry] = []
        self.progression = AllPassProgression(convention)

    @property
    def players(self) -> tuple[str, ...]:
        return self.seat.players

    def is_over(self) -> bool:
        """Whether the game has ended (§6: every pool closed / pool sum reached)."""
        pools = self.totals.pool
        if self.convention.pool_end == "sum_reached":
            return sum(pools.values()) >= len(self.players) * self.pool_size
        return all(pools[p] >= self.pool_size for p in self.players)

    def add(self, outcome: DealOutcome) -> SheetEntry:
        """Score a deal, route its pool writes, append it; returns the sheet entry."""
        if self.is_over():
            raise ScoringError(f"the game is over (after deal {len(self.entries)}); no more deals")
        if tuple(outcome.players) != self.players:
            raise ScoringError(f"players: deal has {list(outcome.players)}, the sheet has {list(self.players)}")
        if isinstance(outcome, AllPassOutcome):
            expected = self.progression.next_index()
            if outcome.index is not None and outcome.index != expected:
                raise ScoringError(f"allpass_index: {outcome.index!r} given, but this is all-pass "
                                   f"number {expected} in a row on the sheet")
            outcome = AllPassOutcome(outcome.players, outcome.tricks, outcome.dealer, expected)
        self._check_minimum_contract(outcome)
        scored = score_deal(self.convention, outcome)
        seat = seating(outcome.players, outcome.dealer)
        delta = route_deal(self.convention, seat, self.totals, self.pool_size, scored)
        event = progression_event(outcome, scored)
        if event is not None:
            self.progression.record(event)
        entry = SheetEntry(outcome, delta, record_value(self.convention, delta), scored.allpass_price)
        self.totals.add(delta)
        self.entries.append(entry)
        return entry

    def _check_minimum_contract(self, outcome: DealOutcome) -> None:
        minimum = self.progression.minimum_contract()
        if isinstance(outcome, (ContractOutcome, GiveUpOutcome)) and isinstance(outcome.contract, int) \
                and not isinstance(outcome.contract, bool) and outcome.contract < minimum:
            raise ScoringError(f"contract: {outcome.contract} is below the minimum {minimum} "
                               f"after {self.progression.run} all-pass(es)")
        if isinstance(outcome, MisereOutcome) and minimum > 8:
            raise ScoringError(f"misère is below the minimum contract {minimum} after "
                               f"{self.progression.run} all-pass(es)")

    def settle(self) -> Settlement:
        """Final settlement (§7) of the sheet as it stands."""
        return settle(self.convention, self.totals, self.pool_size)

    def values_sum(self) -> dict[str, Fraction]:
        """Sum of the deal values of all entries (equals the balance, §8.3)."""
        total = {p: Fraction(0) for p in self.players}
        for entry in self.entries:
            for player, value in entry.value.items():
                total[player] += value
        return total


def write_with_help(convention: Convention, seat_order: Iterable[str], pool_before: Mapping[str, Fraction],
                    mountain_before: Mapping[str, Fraction], pool_size: Fraction, writer: str,
                    points: Fraction, excluded: Iterable[str] = ()) -> Records:
    """Stand-alone §6 routing: the delta of writing ``points`` to ``writer`` given the
    pools and mountains before (the ``pool_write_with_help`` vectors)."""
    seat = Seating(player_names(tuple(seat_order)), None)
    for name in list(pool_before) + list(mountain_before) + [writer] + list(excluded):
        seat.require_player(name, "pool write")
    state = Records(seat.players, dict(pool_before), dict(mountain_before))
    if points < 0:
        raise ScoringError(f"points: a pool write must be >= 0, got {points}")
    if pool_size <= 0:
        raise ScoringError(f"pool_size: expected a positive number, got {pool_size}")
    return route_pool_write(convention, seat, state, Fraction(pool_size), writer, Fraction(points), excluded)
