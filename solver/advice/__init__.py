"""Decisions under hidden cards: the defender's whist-or-pass, the
bidder's choice of contract, and exact enumeration of the defenders' splits.

Every layout of the hidden cards is solved double dummy (sampled, or
enumerated when there are few enough), and each decision is valued with the
single-deal value of the scoring spec (§8), in whists.

* :func:`advise_whist` (:class:`WhistRequest`, :func:`whist_request`) →
  :class:`WhistAdvice`: each option's expected value, standard error, chance
  the declarer fails, trick distribution, and the recommended option.
* :func:`advise_bid` (:class:`BidRequest`, :func:`bid_request`) →
  :class:`BidAdvice`: every contract's chance and expected value; 12 cards:
  the best contract and discard.
* :func:`enumerate_splits` (:class:`EnumerationRequest`,
  :func:`enumeration_request`) → :class:`Enumeration`: exact counts over
  every split of the defenders' cards.
* :func:`advise_play` (:class:`PlayRequest`, :func:`play_request`) →
  :class:`PlayAdvice`: during the play, each legal card's expected tricks
  and value over the layouts consistent with what the seat has seen (the
  misère catchers' question over the declarer's discards included).
* :class:`RunOptions`: layout and time budgets, seed, worker threads, sample or
  exact, a cancel event and a progress callback. Results carry
  :class:`RunStats`.

Bad input raises :class:`AdviceError` (a ``ValueError``) naming the problem.

The package imports its modules on first use of a name (:func:`__getattr__`),
so that a program needing one of them (``prefdd enumerate``) does not load
the others; every name above is importable from the package as it is from
its module.
"""
from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

_HOMES = {
    "bid": ("BidAdvice", "BidRequest", "ContractAdvice", "advise_bid", "bid_request", "parse_contracts"),
    "card_play": ("CardAdvice", "PlayAdvice", "PlayRequest", "advise_play", "play_request", "play_space"),
    "enumeration": ("ContractCount", "Enumeration", "EnumerationRequest", "enumerate_splits",
                    "enumeration_request"),
    "errors": ("AdviceError",),
    "jsonio": ("bid_json", "enumeration_json", "whist_json"),
    "layouts": ("LayoutSpace",),
    "parallel": ("RunOptions", "RunStats"),
    "play": ("AUCTION_MODEL", "AuctionFilter", "DiscardModel", "auction_text"),
    "play_json": ("play_json",),
    "progress": ("Progress", "ProgressBar"),
    "stats": ("Estimate",),
    "values": ("DefenceRule", "Scenario"),
    "whist": ("WhistAdvice", "WhistOption", "WhistRequest", "advise_whist", "whist_request"),
    "whist_request": ("layout_space",),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    """A public name from its module, or a submodule, imported on first use."""
    module = _MODULE_OF.get(name)
    if module is not None:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    if not name.startswith("_"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(ModuleType):
    """The package module: ``play_json`` and ``whist_request`` name both a
    module and a function of the package; the package's name is the
    function, so the import system's binding of the submodule is not kept
    (the submodule stays in ``sys.modules``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _MODULE_OF and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
