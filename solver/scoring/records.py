"""Score-sheet records and the scoring of one deal into a record delta (spec §3, §5).

:class:`Records` is the pool / mountain / whists triple, used both for a deal's delta
and for a sheet's totals.  :func:`score_deal` turns a validated outcome into a
:class:`ScoredDeal`: the raw delta (pool writes not yet routed through §6) plus what
the score sheet needs to route them.

Choices made where the spec is silent (see also ``outcome.py``):

* Dealer whisting after two passes (§5.2.7) is scored like a dealer's return, as seed
  002 says ("в том числе после паса двух игроков"): the dealer writes all trick whists
  and the consolation of both defenders as well as his own; the defenders write nothing.
* A 10 that is checked (``ten_whisted = false``) and given with tricks is scored as
  played by two whisters with R = 0 whatever the stated decisions; without tricks it
  stood (pool +10).  The dealer cannot whist a checked 10.
* ``allpass_amnesty`` subtracts the minimum over the all-pass participants (in a
  4-player ``plays_talon`` game the dealer is one of them).
* A sitting dealer in ``sits_out_pool_bonus`` mode writes exactly 1 to his pool.
* A zero-trick bonus is ``zero_bonus_trick_prices × price`` of this all-pass (in Rostov
  the price is 1, so +1).  Rostov whists are multiplied by the ladder price too (the
  Rostov ladder is [1]).
* The 3-player talon bonus (no sitting dealer) is the FSPR-TS variant: each defender
  writes half.  A talon bonus on a contract outcome needs option ``talon_bonus``; a
  stand-alone ``talon_bonus`` record is scored whenever it is given.
* Consolation on a caught misère (option) uses price 10 and u = the declarer's tricks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Mapping

from .errors import ScoringError
from .options import Convention
from .outcome import (
    AllPassOutcome,
    ContractOutcome,
    DealOutcome,
    Decision,
    GiveUpOutcome,
    MisereOutcome,
    Seating,
    TalonBonusOutcome,
    card_holder_tricks,
    checked_tricks,
    contract_level,
    decision,
    seating,
)

ZERO = Fraction(0)


@dataclass
class Records:
    """Pool, mountain and whists of every player.

    ``whists[(i, j)]`` is what *i* has written on *j* (j owes i).  Used for a deal's
    delta and for running totals; zero entries are kept out of ``whists``.
    """

    players: tuple[str, ...]
    pool: dict[str, Fraction] = field(default_factory=dict)
    mountain: dict[str, Fraction] = field(default_factory=dict)
    whists: dict[tuple[str, str], Fraction] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.players:
            self.pool.setdefault(name, ZERO)
            self.mountain.setdefault(name, ZERO)

    def write_pool(self, player: str, amount: Fraction) -> None:
        self.pool[player] += amount

    def write_mountain(self, player: str, amount: Fraction) -> None:
        self.mountain[player] += amount

    def write_whists(self, writer: str, target: str, amount: Fraction) -> None:
        if writer == target:
            raise ScoringError(f"whists: {writer!r} cannot write whists on himself")
        if amount:
            total = self.whists.get((writer, target), ZERO) + amount
            if total:
                self.whists[(writer, target)] = total
            else:
                del self.whists[(writer, target)]

    def add(self, other: "Records") -> None:
        """Add another record (a deal delta) to this one, in place."""
        for name in other.players:
            self.write_pool(name, other.pool[name])
            self.write_mountain(name, other.mountain[name])
        for (writer, target), amount in other.whists.items():
            self.write_whists(writer, target, amount)

    def copy(self) -> "Records":
        return Records(self.players, dict(self.pool), dict(self.mountain), dict(self.whists))

    def whist_list(self) -> list[tuple[str, str, Fraction]]:
        """Whists as (writer, target, amount), sorted by seat of writer, then target."""
        seat = {name: i for i, name in enumerate(self.players)}
        ordered = sorted(self.whists.items(), key=lambda item: (seat[item[0][0]], seat[item[0][1]]))
        return [(writer, target, amount) for (writer, target), amount in ordered]


@dataclass(frozen=True)
class ScoredDeal:
    """One deal scored: the raw delta (every pool write straight to its owner) and
    what pool routing (§6) needs: who may not be helped, whose pool write is a made
    game (``made_game_writes = mountain_first``), the all-pass price used, and the
    facts the all-pass progression needs."""

    records: Records
    sitting_dealer: str | None
    failed_whisters: frozenset[str]
    made_game_player: str | None
    allpass_price: Fraction | None
    is_deal: bool
    made: bool
    whisted: bool


def contract_price(k: int) -> Fraction:
    """p(k) = 2(k − 5): pool points of a made contract (§3.1)."""
    return Fraction(2 * (k - 5))


def obligation(k: int, convention: Convention) -> int:
    """R(k): obligatory defence tricks (§3.2); a checked 10 has none."""
    if k == 10:
        return 1 if convention.ten_whisted else 0
    return {6: 4, 7: 2, 8: 1, 9: 1}[k]


def allpass_price(convention: Convention, index: int) -> Fraction:
    """Trick price of the ``index``-th consecutive all-pass (the last step repeats)."""
    ladder = convention.allpass_ladder
    return ladder[min(index, len(ladder)) - 1]


def consolation(convention: Convention, whist_price: Fraction, undertricks: int) -> Fraction:
    """c(u): whists each consolation receiver writes on a failed declarer (§5)."""
    if convention.consolation_mode == "whist_price":
        per_trick = whist_price
    elif convention.consolation_mode == "fixed":
        per_trick = convention.consolation_fixed
    else:
        return ZERO
    return per_trick * undertricks * convention.consolation_multiplier


def score_deal(convention: Convention, outcome: DealOutcome) -> ScoredDeal:
    """Score one deal outcome into its record delta.  Raises :class:`ScoringError`
    for an impossible outcome."""
    if isinstance(outcome, ContractOutcome):
        return _ContractScorer(convention, outcome).score()
    if isinstance(outcome, MisereOutcome):
        return _score_misere(convention, outcome)
    if isinstance(outcome, AllPassOutcome):
        return _score_allpass(convention, outcome)
    if isinstance(outcome, GiveUpOutcome):
        return _score_giveup(convention, outcome)
    if isinstance(outcome, TalonBonusOutcome):
        return _score_talon_bonus(convention, outcome)
    raise ScoringError(f"not a deal outcome: {outcome!r}")


def _talon_bonus(convention: Convention, seat: Seating, declarer: str, k: int, fast_tricks: object,
                 records: Records) -> None:
    if isinstance(fast_tricks, bool) or not isinstance(fast_tricks, int) or not 0 <= fast_tricks <= 3:
        raise ScoringError(f"talon_fast_tricks: expected 0..3, got {fast_tricks!r}")
    amount = fast_tricks * convention.whist_trick_factor * contract_price(k)
    if seat.sitting_dealer is not None:
        records.write_whists(seat.sitting_dealer, declarer, amount)
    else:
        for defender in seat.defenders(declarer):
            records.write_whists(defender, declarer, amount / 2)


class _ContractScorer:
    """Scores a :class:`ContractOutcome` (§5.1, §5.2)."""

    def __init__(self, convention: Convention, outcome: ContractOutcome) -> None:
        self.conv = convention
        self.outcome = outcome
        self.seat = seating(outcome.players, outcome.dealer)
        self.declarer = self.seat.require_card_holder(outcome.declarer, "declarer")
        self.k = contract_level(outcome.contract)
        self.first, self.second = self.seat.defenders(self.declarer)
        self.dealer = self.seat.sitting_dealer
        if outcome.defenders is not None and tuple(outcome.defenders) != (self.first, self.second):
            raise ScoringError(
                f"defenders: expected {[self.first, self.second]} in speaking order "
                f"(clockwise from declarer {self.declarer!r}), got {list(outcome.defenders)}"
            )
        self.decisions = self._decisions()
        p = contract_price(self.k)
        self.price = p
        self.whist_price = convention.whist_trick_factor * p
        self.undertrick_price = convention.declarer_undertrick_factor * p
        half = convention.whist_responsibility == "half"
        self.shortfall_price = self.undertrick_price / 2 if half else self.undertrick_price
        self.records = Records(self.seat.players)
        self.failed: set[str] = set()

    def _decisions(self) -> dict[str, Decision]:
        raw = self.outcome.decisions
        if not isinstance(raw, Mapping):
            raise ScoringError(f"decisions: expected an object of player -> decision, got {raw!r}")
        result: dict[str, Decision] = {}
        for name, value in raw.items():
            self.seat.require_player(name, "decisions")
            if name == self.declarer:
                raise ScoringError(f"decisions: {name!r} is the declarer and does not whist or pass")
            result[name] = decision(value, name)
        for name in (self.first, self.second):
            if name not in result:
                raise ScoringError(f"decisions: decision of defender {name!r} missing")
        if self.dealer is not None:
            result.setdefault(self.dealer, Decision.PASS)
            if result[self.dealer] == Decision.HALF_WHIST:
                raise ScoringError(f"decisions: the dealer {self.dealer!r} cannot half-whist")
        if self.conv.stalingrad and self.k == 6 and (self.outcome.strain or "").lower() == "s":
            for name in (self.first, self.second):
                if result[name] != Decision.WHIST:
                    raise ScoringError(f"decisions: Stalingrad: 6 of spades must be whisted by both; "
                                       f"{name!r} said {result[name].value!r}")
        return result

    def score(self) -> ScoredDeal:
        outcome = self.outcome
        if outcome.talon_fast_tricks:
            if not self.conv.talon_bonus:
                raise ScoringError("talon_fast_tricks given but option talon_bonus is off")
            _talon_bonus(self.conv, self.seat, self.declarer, self.k, outcome.talon_fast_tricks, self.records)
        first, second = self.first, self.second
        d_first, d_second = self.decisions[first], self.decisions[second]
        dealer_whists = self.dealer is not None and self.decisions[self.dealer] == Decision.WHIST
        half_whisters = [p for p in (first, second) if self.decisions[p] == Decision.HALF_WHIST]
        if outcome.returned_by is not None and not half_whisters:
            if not self._dealer_returns_after_passes(d_first, d_second):
                raise ScoringError(f"returned_by {outcome.returned_by!r}: a whist can be returned only after a "
                                   "half-whist, or by the 4-player dealer after both defenders passed")
            dealer_whists = True
        if dealer_whists:
            if not self.conv.dealer_may_whist_4p:
                raise ScoringError(f"decisions: the dealer {self.dealer!r} may not whist (option dealer_may_whist_4p)")
            if d_first != Decision.PASS or d_second != Decision.PASS:
                raise ScoringError(f"decisions: the dealer {self.dealer!r} may whist only after both defenders passed")
            if self.k == 10 and not self.conv.ten_whisted:
                raise ScoringError(f"decisions: the dealer {self.dealer!r} cannot whist a 10, which is checked")
        if half_whisters:
            return self._half_whist(half_whisters)
        if self.k == 10 and not self.conv.ten_whisted:
            if not outcome.tricks:
                return self._unplayed(whisted=d_first == Decision.WHIST or d_second == Decision.WHIST)
            return self._played(whisters=(first, second), sole=None)
        if dealer_whists:
            return self._played(whisters=(), sole=self.dealer)
        whisters = tuple(p for p in (first, second) if self.decisions[p] == Decision.WHIST)
        if not whisters:
            return self._unplayed(whisted=False)
        return self._played(whisters=whisters, sole=None)

    def _dealer_returns_after_passes(self, d_first: Decision, d_second: Decision) -> bool:
        """The 4-player dealer returns the whist after both defenders passed
        (seed 002: "в том числе после паса двух игроков"): his whist."""
        if self.dealer is None or self.outcome.returned_by != self.dealer:
            return False
        if not self.conv.returned_whist_allowed:
            raise ScoringError(f"returned_by {self.dealer!r}: returned whist is off (option returned_whist_allowed)")
        return d_first == Decision.PASS and d_second == Decision.PASS

    # ---- unplayed deals -------------------------------------------------------

    def _no_tricks(self, why: str) -> None:
        if self.outcome.tricks:
            raise ScoringError(f"tricks given, but the deal was not played ({why})")

    def _unplayed(self, whisted: bool) -> ScoredDeal:
        self._no_tricks("nobody whisted" if not whisted else "the 10 stood the check")
        self.records.write_pool(self.declarer, self.price)
        return self._result(made=True, whisted=whisted)

    def _half_whist(self, half_whisters: list[str]) -> ScoredDeal:
        if len(half_whisters) == 2:
            raise ScoringError("decisions: both defenders half-whist; a half-whist needs the other defender's pass")
        half = half_whisters[0]
        other = self.second if half == self.first else self.first
        if self.k not in self.conv.half_whist_contracts:
            raise ScoringError(f"decisions: {half!r} half-whists on a {self.k}; half-whist exists only on "
                               f"{list(self.conv.half_whist_contracts)}")
        if self.decisions[other] != Decision.PASS:
            raise ScoringError(f"decisions: {half!r} half-whists but {other!r} did not pass "
                               f"({self.decisions[other].value!r})")
        returner = self.outcome.returned_by
        if returner is None:
            self._no_tricks(f"{half!r} half-whisted and nobody returned the whist")
            self.records.write_pool(self.declarer, self.price)
            obligation_half = Fraction(obligation(self.k, self.conv), 2)
            self.records.write_whists(half, self.declarer, obligation_half * self.whist_price)
            return self._result(made=True, whisted=True)
        self.seat.require_player(returner, "returned_by")
        if not self.conv.returned_whist_allowed:
            raise ScoringError(f"returned_by {returner!r}: returned whist is off (option returned_whist_allowed)")
        if returner == self.dealer:
            if not self.conv.dealer_may_whist_4p:
                raise ScoringError(f"returned_by {returner!r}: the dealer may not whist (option dealer_may_whist_4p)")
        elif returner != other:
            raise ScoringError(f"returned_by {returner!r}: only the defender who passed ({other!r})"
                               + (f" or the dealer ({self.dealer!r})" if self.dealer else "")
                               + " can return a half-whist")
        return self._played(whisters=(), sole=returner)

    # ---- played deals ---------------------------------------------------------

    def _played(self, whisters: tuple[str, ...], sole: str | None) -> ScoredDeal:
        """Score a played deal.  ``whisters`` are the defenders who whisted (normal
        play); ``sole`` is a returner or the whisting dealer, who writes everything."""
        declarer, first, second = self.declarer, self.first, self.second
        if not self.outcome.tricks:
            raise ScoringError(f"tricks missing: the {self.k} was played")
        tricks = card_holder_tricks(self.seat, self.outcome.tricks, f"tricks of the {self.k}")
        defence = tricks[first] + tricks[second]
        undertricks = max(0, self.k - tricks[declarer])
        w = self.whist_price
        records = self.records
        if undertricks == 0:
            records.write_pool(declarer, self.price)
        else:
            records.write_mountain(declarer, self.undertrick_price * undertricks)
        # Whists for defence tricks (§5.2.2, §5.2.5).
        if sole is not None:
            records.write_whists(sole, declarer, defence * w)
        elif len(whisters) == 2:
            records.write_whists(first, declarer, tricks[first] * w)
            records.write_whists(second, declarer, tricks[second] * w)
        else:
            whister = whisters[0]
            passer = second if whister == first else first
            split = self.conv.single_whist_split == "gentleman" and (
                undertricks > 0 or self.conv.gentleman_scope == "always")
            if split:
                records.write_whists(whister, declarer, defence * w / 2)
                records.write_whists(passer, declarer, defence * w / 2)
            else:
                records.write_whists(whister, declarer, defence * w)
        # Consolation (§5.2.3); a returner / whisting dealer writes the defenders' share.
        if undertricks > 0:
            amount = consolation(self.conv, w, undertricks)
            for receiver in (first, second):
                records.write_whists(sole if sole is not None else receiver, declarer, amount)
            if self.dealer is not None and self.conv.consolation_to_dealer_4p:
                records.write_whists(self.dealer, declarer, amount)
        else:
            self._shortfall(whisters, sole, tricks, defence)
        return self._result(made=undertricks == 0, whisted=True)

    def _shortfall(self, whisters: tuple[str, ...], sole: str | None, tricks: Mapping[str, int],
                   defence: int) -> None:
        """Whist shortfall on a made contract (§5.2.4)."""
        need = obligation(self.k, self.conv)
        if defence >= need:
            return
        s = self.shortfall_price
        if sole is not None:
            if sole == self.dealer and not self.conv.dealer_whist_responsible:
                return
            self._charge(sole, (need - defence) * s)
        elif len(whisters) == 1:
            self._charge(whisters[0], (need - defence) * s)
        elif need >= 2:
            for whister in whisters:
                deficit = max(0, need // 2 - tricks[whister])
                if self.conv.pair_shortfall_rule == "capped":
                    deficit = min(deficit, need - defence)
                self._charge(whister, deficit * s)
        else:
            rule = self.conv.high_contract_liability
            if rule == "second_whister":
                self._charge(self.second, s)
            else:
                for whister in whisters:
                    if tricks[whister] == 0:
                        self._charge(whister, s if rule == "both_full" else s / 2)

    def _charge(self, whister: str, amount: Fraction) -> None:
        if amount > 0:
            self.records.write_mountain(whister, amount)
            self.failed.add(whister)

    def _result(self, made: bool, whisted: bool) -> ScoredDeal:
        return ScoredDeal(
            records=self.records,
            sitting_dealer=self.dealer,
            failed_whisters=frozenset(self.failed),
            made_game_player=self.declarer if made else None,
            allpass_price=None,
            is_deal=True,
            made=made,
            whisted=whisted,
        )


def _score_misere(convention: Convention, outcome: MisereOutcome) -> ScoredDeal:
    seat = seating(outcome.players, outcome.dealer)
    declarer = seat.require_card_holder(outcome.declarer, "declarer")
    tricks = card_holder_tricks(seat, outcome.tricks, "tricks of the misère")
    taken = tricks[declarer]
    records = Records(seat.players)
    if taken == 0:
        records.write_pool(declarer, convention.misere_pool)
    else:
        records.write_mountain(declarer, convention.misere_trick_penalty * taken)
        if convention.consolation_on_misere:
            amount = consolation(convention, convention.whist_trick_factor * 10, taken)
            receivers = [p for p in seat.players if p != declarer]
            if seat.sitting_dealer is not None and not convention.consolation_to_dealer_4p:
                receivers.remove(seat.sitting_dealer)
            for receiver in receivers:
                records.write_whists(receiver, declarer, amount)
    return ScoredDeal(records, seat.sitting_dealer, frozenset(), declarer if taken == 0 else None,
                      None, is_deal=True, made=taken == 0, whisted=False)


def _score_giveup(convention: Convention, outcome: GiveUpOutcome) -> ScoredDeal:
    if not convention.allow_giveup_without_three:
        raise ScoringError("giveup: conceding 'без трёх' is off (option allow_giveup_without_three)")
    seat = seating(outcome.players, outcome.dealer)
    declarer = seat.require_card_holder(outcome.declarer, "declarer")
    k = contract_level(outcome.contract)
    records = Records(seat.players)
    records.write_mountain(declarer, 3 * convention.declarer_undertrick_factor * contract_price(k))
    return ScoredDeal(records, seat.sitting_dealer, frozenset(), None, None,
                      is_deal=True, made=False, whisted=False)


def _score_talon_bonus(convention: Convention, outcome: TalonBonusOutcome) -> ScoredDeal:
    seat = seating(outcome.players, outcome.dealer)
    declarer = seat.require_card_holder(outcome.declarer, "declarer")
    k = contract_level(outcome.contract)
    records = Records(seat.players)
    _talon_bonus(convention, seat, declarer, k, outcome.talon_fast_tricks, records)
    return ScoredDeal(records, seat.sitting_dealer, frozenset(), None, None,
                      is_deal=False, made=False, whisted=False)


def _allpass_tricks(convention: Convention, seat: Seating, tricks: Mapping[str, object]) -> dict[str, int]:
    """Validated all-pass tricks of every participant, adding up to 10."""
    dealer = seat.sitting_dealer
    talon_owner = dealer is not None and convention.allpass_scoring == "mountain" \
        and convention.allpass_dealer_4p == "plays_talon"
    participants = seat.card_holders + ((dealer,) if talon_owner else ())
    counts = checked_tricks(seat, tricks, allowed=participants)  # type: ignore[arg-type]
    missing = [p for p in seat.card_holders if p not in counts]
    if missing:
        raise ScoringError(f"all-pass: tricks of {missing[0]!r} missing")
    if talon_owner:
        counts.setdefault(dealer, 0)  # type: ignore[arg-type]
        if counts[dealer] > 2:  # type: ignore[index]
            raise ScoringError(f"all-pass: the dealer {dealer!r} can win at most the 2 talon tricks, "
                               f"got {counts[dealer]}")  # type: ignore[index]
    total = sum(counts.values())
    if total != 10:
        raise ScoringError(f"all-pass: tricks add up to {total}, not 10: {counts}")
    return counts


def _score_allpass(convention: Convention, outcome: AllPassOutcome) -> ScoredDeal:
    seat = seating(outcome.players, outcome.dealer)
    index = 1 if outcome.index is None else outcome.index
    if isinstance(index, bool) or not isinstance(index, int) or index < 1:
        raise ScoringError(f"allpass_index: expected a whole number >= 1, got {outcome.index!r}")
    tricks = _allpass_tricks(convention, seat, outcome.tricks)
    price = allpass_price(convention, index)
    records = Records(seat.players)
    dealer = seat.sitting_dealer
    if convention.allpass_scoring == "mountain":
        least = min(tricks.values()) if convention.allpass_amnesty else 0
        for player, taken in tricks.items():
            records.write_mountain(player, price * (taken - least))
    else:
        _rostov_whists(convention, tricks, price, records)
    bonus = convention.zero_bonus_trick_prices * price
    for player, taken in tricks.items():
        if taken == 0 and not (player == dealer and convention.zero_bonus_exclude_dealer_4p):
            if convention.zero_bonus_kind == "pool":
                records.write_pool(player, bonus)
            elif convention.zero_bonus_kind == "mountain_writeoff":
                records.write_mountain(player, -bonus)
    if dealer is not None and dealer not in tricks and convention.allpass_dealer_4p == "sits_out_pool_bonus":
        records.write_pool(dealer, Fraction(1))
    return ScoredDeal(records, dealer, frozenset(), None, price, is_deal=True, made=False, whisted=False)


def _rostov_whists(convention: Convention, tricks: Mapping[str, int], price: Fraction, records: Records) -> None:
    """All-pass in whists (§5.4): each minimum-taker writes on each other player."""
    least = min(tricks.values())
    winners = [p for p, t in tricks.items() if t == least]
    losers = [p for p, t in tricks.items() if t != least]
    per_trick = convention.rostov_whists_per_trick * price / len(winners)
    for winner in winners:
        for loser in losers:
            counted = tricks[loser] - (least if convention.rostov_basis == "difference" else 0)
            records.write_whists(winner, loser, per_trick * counted)


def records_from_parts(players: Iterable[str], pool: Mapping[str, Fraction], mountain: Mapping[str, Fraction],
                       whists: Iterable[tuple[str, str, Fraction]]) -> Records:
    """Build :class:`Records` from per-player dicts and a whist list."""
    records = Records(tuple(players), dict(pool), dict(mountain))
    for writer, target, amount in whists:
        records.write_whists(writer, target, amount)
    return records

