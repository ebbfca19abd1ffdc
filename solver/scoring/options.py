"""Conventions as named option sets (spec ``scoring.md`` §4 and §11).

A :class:`Convention` holds every option of §4 (the keys are the option names of
``scoring-vectors.json → conventions``).  The three named conventions are
:data:`SOCHI`, :data:`LENINGRAD` and :data:`ROSTOV`; :func:`get_convention` looks one up
by name and applies option overrides, validating every name and value.

Numeric options are kept as :class:`fractions.Fraction`.

Choices made where the spec is silent:

* ``help_tie_break`` (present in the vector file but not in the §4 table) is an ordered
  list drawn from ``higher_pool``, ``lower_mountain``, ``nearest_clockwise_from_writer``;
  when every listed criterion ties, seat order clockwise from the writer decides.
* ``pool_size_per_player`` (also only in the vector file) is the default pool size of a
  score sheet when the game does not give one.
* ``half_whist_contracts`` may only contain 6 and 7 (R = 1 on 8+, a half of it is no trick).
* Rostov has ``progression_reset = any_non_allpass_deal`` and ``allpass_amnesty = false``
  as in the vector file (the §4 table says "no progression" / "n/a"; with the ladder [1]
  neither has any effect).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from .errors import ScoringError
from .numbers import parse_number

# Allowed values of the options that take one of a few words.
CHOICES: dict[str, tuple[str, ...]] = {
    "whist_responsibility": ("full", "half"),
    "pair_shortfall_rule": ("capped", "own_half"),
    "high_contract_liability": ("second_whister", "both_full", "split_half"),
    "single_whist_split": ("greedy", "gentleman"),
    "gentleman_scope": ("on_remiz", "always"),
    "consolation_mode": ("whist_price", "fixed", "none"),
    "allpass_scoring": ("mountain", "rostov_whists"),
    "zero_bonus_kind": ("pool", "mountain_writeoff", "none"),
    "rostov_basis": ("absolute", "difference"),
    "allpass_dealer_4p": ("plays_talon", "sits_out_pool_bonus"),
    "progression_reset": ("any_non_allpass_deal", "made_contract", "whisted_made_contract"),
    "pool_end": ("each_closed", "sum_reached"),
    "mountain_divisor": ("N", "N-1"),
    "made_game_writes": ("pool", "mountain_first"),
}

HELP_EXCLUSIONS = ("dealer_4p", "failed_whister")
HELP_TIE_BREAKS = ("higher_pool", "lower_mountain", "nearest_clockwise_from_writer")

BOOLEAN_OPTIONS = (
    "ten_whisted",
    "consolation_to_dealer_4p",
    "consolation_on_misere",
    "returned_whist_allowed",
    "allpass_amnesty",
    "zero_bonus_exclude_dealer_4p",
    "help",
    "talon_bonus",
    "allow_giveup_without_three",
    "stalingrad",
    "dealer_may_whist_4p",
    "dealer_whist_responsible",
)

# Rational options; the second element says whether zero is allowed.
NUMBER_OPTIONS: dict[str, bool] = {
    "whist_trick_factor": False,
    "declarer_undertrick_factor": False,
    "misere_pool": True,
    "misere_trick_penalty": True,
    "consolation_fixed": True,
    "consolation_multiplier": True,
    "zero_bonus_trick_prices": True,
    "rostov_whists_per_trick": True,
    "help_whists_per_point": True,
    "pool_point_mountain_equiv": False,
    "mountain_whist_value": False,
}


@dataclass(frozen=True)
class Convention:
    """A named scoring convention: every option of spec §4.

    Build one with :func:`get_convention` (or :meth:`with_options`), which validates the
    values; the field meanings are those of the §4 table.
    """

    name: str
    whist_trick_factor: Fraction
    declarer_undertrick_factor: Fraction
    misere_pool: Fraction
    misere_trick_penalty: Fraction
    whist_responsibility: str
    ten_whisted: bool
    pair_shortfall_rule: str
    high_contract_liability: str
    single_whist_split: str
    gentleman_scope: str
    consolation_mode: str
    consolation_fixed: Fraction
    consolation_multiplier: Fraction
    consolation_to_dealer_4p: bool
    consolation_on_misere: bool
    half_whist_contracts: tuple[int, ...]
    returned_whist_allowed: bool
    allpass_scoring: str
    allpass_ladder: tuple[Fraction, ...]
    allpass_amnesty: bool
    zero_bonus_kind: str
    zero_bonus_trick_prices: Fraction
    zero_bonus_exclude_dealer_4p: bool
    rostov_whists_per_trick: Fraction
    rostov_basis: str
    allpass_dealer_4p: str
    progression_reset: str
    exit_min_contract_ladder: tuple[int, ...]
    pool_end: str
    help: bool
    help_whists_per_point: Fraction
    help_excludes: tuple[str, ...]
    help_tie_break: tuple[str, ...]
    pool_size_per_player: Fraction | None
    pool_point_mountain_equiv: Fraction
    mountain_whist_value: Fraction
    mountain_divisor: str
    made_game_writes: str
    talon_bonus: bool
    allow_giveup_without_three: bool
    stalingrad: bool
    dealer_may_whist_4p: bool
    dealer_whist_responsible: bool

    def with_options(self, overrides: Mapping[str, Any]) -> "Convention":
        """Return a copy with the given options changed (values validated)."""
        return _build(self.name, {**self.options(), **_checked_overrides(overrides)})

    def options(self) -> dict[str, Any]:
        """All options as a dict (without the name)."""
        values = dataclasses.asdict(self)
        del values["name"]
        return values

    # Derived quantities used by the scoring rules -------------------------------

    def mountain_coefficient(self, n_players: int) -> Fraction:
        """K_M: whists one mountain point costs against the table mean (§7.3, §8.1)."""
        divisor = n_players if self.mountain_divisor == "N" else n_players - 1
        return self.mountain_whist_value * n_players / divisor

    def pool_coefficient(self, n_players: int) -> Fraction:
        """K_P = e·K_M: whists one pool point is worth against the table mean (§8.1)."""
        return self.pool_point_mountain_equiv * self.mountain_coefficient(n_players)

    def caps_pool(self) -> bool:
        """Whether a pool stops at the pool size, the excess going through §6.1."""
        return self.pool_end == "each_closed" or self.help


def option_names() -> tuple[str, ...]:
    """Names of all options, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(Convention) if f.name != "name")


def _number(name: str, value: Any, zero_allowed: bool = True) -> Fraction:
    number = parse_number(value, f"option {name!r}")
    if number < 0 or (number == 0 and not zero_allowed):
        raise ScoringError(f"option {name!r}: must be {'>= 0' if zero_allowed else '> 0'}, got {value!r}")
    return number


def _list(name: str, value: Any) -> list[Any]:
    if not isinstance(value, (list, tuple)) or isinstance(value, str):
        raise ScoringError(f"option {name!r}: expected a list, got {value!r}")
    return list(value)


def _int_value(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(f"option {name!r}: expected whole numbers, got {value!r}")
    return value


def _coerce(name: str, value: Any) -> Any:
    """Validate one option value and convert it to its stored type."""
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise ScoringError(f"option {name!r}: {value!r} is not one of {list(CHOICES[name])}")
        return value
    if name in BOOLEAN_OPTIONS:
        if not isinstance(value, bool):
            raise ScoringError(f"option {name!r}: expected true or false, got {value!r}")
        return value
    if name in NUMBER_OPTIONS:
        return _number(name, value, NUMBER_OPTIONS[name])
    if name == "half_whist_contracts":
        contracts = tuple(sorted({_int_value(name, v) for v in _list(name, value)}))
        if any(k not in (6, 7) for k in contracts):
            raise ScoringError(f"option {name!r}: half-whist exists only on 6 and 7, got {value!r}")
        return contracts
    if name == "allpass_ladder":
        ladder = tuple(_number(name, v, zero_allowed=False) for v in _list(name, value))
        if not ladder:
            raise ScoringError(f"option {name!r}: the ladder needs at least one price")
        return ladder
    if name == "exit_min_contract_ladder":
        ladder_ints = tuple(_int_value(name, v) for v in _list(name, value))
        if not ladder_ints or any(k not in range(6, 11) for k in ladder_ints):
            raise ScoringError(f"option {name!r}: expected contracts 6..10, got {value!r}")
        return ladder_ints
    if name == "help_excludes":
        items = tuple(_list(name, value))
        bad = [v for v in items if v not in HELP_EXCLUSIONS]
        if bad:
            raise ScoringError(f"option {name!r}: unknown exclusion {bad[0]!r}; allowed {list(HELP_EXCLUSIONS)}")
        return items
    if name == "help_tie_break":
        items = tuple(_list(name, value))
        bad = [v for v in items if v not in HELP_TIE_BREAKS]
        if bad or len(set(items)) != len(items):  # all items are known strings here
            raise ScoringError(f"option {name!r}: expected distinct items of {list(HELP_TIE_BREAKS)}, got {value!r}")
        return items
    if name == "pool_size_per_player":
        return None if value is None else _number(name, value, zero_allowed=False)
    raise ScoringError(f"unknown option {name!r}")


def _checked_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(overrides, Mapping):
        raise ScoringError(f"option_overrides must be an object, got {overrides!r}")
    known = set(option_names())
    for name in overrides:
        if name not in known:
            raise ScoringError(f"unknown option {name!r}")
    return dict(overrides)


def _build(name: str, values: Mapping[str, Any]) -> Convention:
    return Convention(name=name, **{key: _coerce(key, values[key]) for key in option_names()})


_SOCHI_OPTIONS: dict[str, Any] = {
    "whist_trick_factor": 1,
    "declarer_undertrick_factor": 1,
    "misere_pool": 10,
    "misere_trick_penalty": 10,
    "whist_responsibility": "full",
    "ten_whisted": False,
    "pair_shortfall_rule": "capped",
    "high_contract_liability": "second_whister",
    "single_whist_split": "greedy",
    "gentleman_scope": "on_remiz",
    "consolation_mode": "whist_price",
    "consolation_fixed": 10,
    "consolation_multiplier": 1,
    "consolation_to_dealer_4p": True,
    "consolation_on_misere": False,
    "half_whist_contracts": [6, 7],
    "returned_whist_allowed": True,
    "allpass_scoring": "mountain",
    "allpass_ladder": [1, 2, 3],
    "allpass_amnesty": False,
    "zero_bonus_kind": "pool",
    "zero_bonus_trick_prices": 1,
    "zero_bonus_exclude_dealer_4p": False,
    "rostov_whists_per_trick": 5,
    "rostov_basis": "absolute",
    "allpass_dealer_4p": "plays_talon",
    "progression_reset": "any_non_allpass_deal",
    "exit_min_contract_ladder": [6],
    "pool_end": "each_closed",
    "help": True,
    "help_whists_per_point": 10,
    "help_excludes": ["dealer_4p", "failed_whister"],
    "help_tie_break": ["higher_pool", "lower_mountain", "nearest_clockwise_from_writer"],
    "pool_size_per_player": None,
    "pool_point_mountain_equiv": 1,
    "mountain_whist_value": 10,
    "mountain_divisor": "N",
    "made_game_writes": "pool",
    "talon_bonus": False,
    "allow_giveup_without_three": False,
    "stalingrad": False,
    "dealer_may_whist_4p": True,
    "dealer_whist_responsible": True,
}

SOCHI: Convention = _build("sochi", _SOCHI_OPTIONS)
"""Сочинка: greedy, fully responsible whist, all-pass 1-2-3 to the mountain, help."""

LENINGRAD: Convention = _build(
    "leningrad",
    {
        **_SOCHI_OPTIONS,
        "whist_trick_factor": 2,
        "declarer_undertrick_factor": 2,
        "misere_trick_penalty": 20,
        "whist_responsibility": "half",
        "high_contract_liability": "both_full",
        "single_whist_split": "gentleman",
        "allpass_ladder": [2, 4, 6],
        "progression_reset": "whisted_made_contract",
        "pool_end": "sum_reached",
        "help": False,
        "pool_point_mountain_equiv": 2,
    },
)
"""Ленинградка (Питер): whists and mountain doubled, half-responsible, gentleman, no help."""

ROSTOV: Convention = _build(
    "rostov",
    {
        **_SOCHI_OPTIONS,
        "whist_responsibility": "half",
        "single_whist_split": "gentleman",
        "consolation_mode": "fixed",
        "allpass_scoring": "rostov_whists",
        "allpass_ladder": [1],
        "allpass_dealer_4p": "sits_out_pool_bonus",
    },
)
"""Ростов (московская пулька): half-responsible, gentleman, fixed consolation 10,
all-pass in whists."""

CONVENTIONS: dict[str, Convention] = {c.name: c for c in (SOCHI, LENINGRAD, ROSTOV)}


def get_convention(name: str, overrides: Mapping[str, Any] | None = None) -> Convention:
    """The named convention (``sochi``, ``leningrad``, ``rostov``; case-insensitive) with
    ``overrides`` applied.  Raises :class:`ScoringError` for an unknown name, an unknown
    option or a bad value."""
    if not isinstance(name, str) or name.lower() not in CONVENTIONS:
        raise ScoringError(f"unknown convention {name!r}; known: {sorted(CONVENTIONS)}")
    base = CONVENTIONS[name.lower()]
    return base.with_options(overrides) if overrides else base
