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

The package imports its modules on first use of a name (:mod:`solver.lazy`),
so that a program needing one of them (``prefdd enumerate``) does not load
the others; every name above is importable from the package as it is from
its module.
"""
from ..lazy import lazy_package

_HOMES = {
    "bid": ("BidAdvice", "BidRequest", "ContractAdvice", "advise_bid", "bid_request"),
    "card_play": ("CardAdvice", "PlayAdvice", "PlayRequest", "advise_play", "play_request", "play_space"),
    "enumeration": ("ContractCount", "Enumeration", "EnumerationRequest", "enumerate_splits",
                    "enumeration_request"),
    "errors": ("AdviceError",),
    "inputs": ("parse_contracts",),
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
__all__ = lazy_package(__name__, _HOMES)
