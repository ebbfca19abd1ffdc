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
"""
from .card_play import CardAdvice, PlayAdvice, PlayRequest, advise_play, play_request, play_space
from .bid import BidAdvice, BidRequest, ContractAdvice, advise_bid, bid_request, parse_contracts
from .enumeration import ContractCount, Enumeration, EnumerationRequest, enumerate_splits, enumeration_request
from .errors import AdviceError
from .jsonio import bid_json, enumeration_json, whist_json
from .play_json import play_json
from .layouts import LayoutSpace
from .parallel import RunOptions, RunStats
from .play import AUCTION_MODEL, AuctionFilter, DiscardModel, auction_text
from .progress import Progress, ProgressBar
from .stats import Estimate
from .values import DefenceRule, Scenario
from .whist import WhistAdvice, WhistOption, WhistRequest, advise_whist, whist_request
from .whist_request import layout_space

__all__ = [
    "AUCTION_MODEL", "AdviceError", "AuctionFilter", "auction_text", "BidAdvice", "BidRequest", "ContractAdvice", "ContractCount",
    "DefenceRule", "DiscardModel", "Enumeration", "EnumerationRequest", "Estimate", "LayoutSpace",
    "Progress", "ProgressBar", "RunOptions", "RunStats", "Scenario", "WhistAdvice", "WhistOption",
    "WhistRequest", "advise_bid", "advise_whist", "bid_json", "bid_request", "enumerate_splits",
    "enumeration_json", "enumeration_request", "layout_space", "parse_contracts", "whist_json",
    "whist_request",
    "CardAdvice", "PlayAdvice", "PlayRequest", "advise_play", "play_json", "play_request", "play_space",
]
