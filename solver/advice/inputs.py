"""Reading and checking the inputs shared by the advisors: hands, cards,
contracts, decisions, conventions, seats and the tricks before an endgame."""
from __future__ import annotations

from typing import Sequence

from .. import notation
from ..notation import BIDDING_ORDER, Card, Contract, ContractKind, Hand, NotationError, NotationTypeError, parse_cards
from ..scoring import Convention, Decision, get_convention
from .errors import AdviceError, AdviceTypeError
from .play import DiscardModel

__all__ = ["FULL_DECK", "parse_hand", "parse_played", "parse_contracts", "parse_decision", "parse_convention",
           "parse_discard_model", "check_seat", "check_prior", "card_names"]

FULL_DECK = Hand((1 << 32) - 1)


def parse_hand(value: Hand | str, what: str) -> Hand:
    try:
        return Hand.coerce(value, what)
    except NotationTypeError:
        raise
    except NotationError as error:
        raise AdviceError(f"{what}: {error}") from None


def parse_played(value: Sequence[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(parse_cards(value))
    if isinstance(value, (bytes, dict)) or not hasattr(value, "__iter__"):
        raise NotationTypeError(f"played must be card text or a sequence of cards, got {value!r:.60}")
    return tuple(Card.coerce(card, "played card") for card in value)


def parse_contracts(text: str | Sequence[Contract | str] | None) -> tuple[Contract, ...]:
    """Contracts from ``all``, ``6s,7s,misere`` or a list, in bidding order."""
    if text is None or text == "all":
        return BIDDING_ORDER
    if isinstance(text, (bytes, dict)) or not (isinstance(text, str) or hasattr(text, "__iter__")):
        raise AdviceTypeError(f"contracts must be 'all', text like '6s,7s' or a list of contracts, got {text!r:.60}")
    items = text.split(",") if isinstance(text, str) else list(text)
    chosen = set()
    for item in items:
        try:
            contract = Contract.coerce(item.strip() if isinstance(item, str) else item, "contracts item")
        except NotationTypeError:
            raise
        except NotationError as error:
            raise AdviceError(str(error)) from None
        if contract.kind is ContractKind.ALLPASS:
            raise AdviceError("all-pass is not a contract anyone declares; give 6s … 10nt or misere")
        chosen.add(contract)
    if not chosen:
        raise AdviceError("no contract given")
    return tuple(c for c in BIDDING_ORDER if c in chosen)


def parse_decision(value: Decision | str | None) -> Decision | None:
    if value is None or isinstance(value, Decision):
        return value
    if not isinstance(value, str):
        raise AdviceTypeError(f"the other defender's decision must be a Decision, text or None, got {value!r:.60}")
    found = Decision.from_text(value)
    if found is None:
        raise AdviceError(f"the other defender's decision must be pass, whist or half_whist "
                          f"(пас, вист, полвиста), got {value!r}")
    return found


def parse_convention(value: Convention | str, options: dict | None) -> Convention:
    if isinstance(value, Convention):
        return value.with_options(options) if options else value
    return get_convention(value, options)


def parse_discard_model(value: DiscardModel | str) -> DiscardModel:
    try:
        return DiscardModel(value)
    except ValueError:
        raise AdviceError(f"discard model must be 'best' or 'uniform', got {value!r}") from None


def check_seat(value: object, what: str) -> int:
    """A seat argument 0-2, or an AdviceError naming it."""
    return notation.check_seat(value, what, AdviceError)


def check_prior(prior: object, size: int) -> None:
    """Tricks before an endgame of ``size`` cards a hand: three whole numbers
    by seat adding up to 10 − size."""
    if (not isinstance(prior, tuple) or len(prior) != 3
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in prior)):
        raise AdviceError(f"prior_tricks must be three whole numbers (by seat), got {prior!r}")
    if sum(prior) != 10 - size:
        raise AdviceError(f"the tricks before an endgame of {size} cards a hand must add up to {10 - size}, "
                          f"got {sum(prior)}")


def card_names(hand: Hand) -> str:
    return " ".join(card.pretty() for card in hand)
