"""Self-contained HTML reports (no network at view time: the styles and the
SVG pictures are inline, there is no script), rendered with Jinja2 from
the templates shipped in ``solver/report/templates``.

Each report is built from the same JSON object the command prints with
``--json``, so the page shows exactly those numbers:

* :func:`analysis_html` - ``prefdd analyze``: the diagram, the deal's table,
  the best discards, the play card by card with the mistakes, the best line,
  the all-pass values explained, the score under the record's convention;
* :func:`whist_html` - ``prefdd whist``: the options with error bars, the
  declarer's trick distribution;
* :func:`bid_html` - ``prefdd bid``: the contracts with error bars, the
  recommended contract's trick distribution.
"""
from __future__ import annotations

from math import comb
from typing import Any, Mapping

from markupsafe import Markup, escape

from ..notation import RANKS, SUIT_SYMBOLS, Card, Contract, Deal, Hand
from .i18n import contract_text, texts
from .svg import SUIT_COLOURS, bar_chart_svg, deal_svg, estimate_chart_svg

__all__ = ["analysis_html", "whist_html", "bid_html", "summarise_discards", "environment"]

_ENV = None


def environment():
    """The Jinja2 environment over the package's templates (made once)."""
    global _ENV
    if _ENV is None:
        from jinja2 import Environment, PackageLoader, StrictUndefined
        env = Environment(loader=PackageLoader("solver.report", "templates"), autoescape=True,
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        env.filters["card"] = card_markup
        env.filters["cards"] = cards_markup
        env.globals["suit_colours"] = SUIT_COLOURS
        _ENV = env
    return _ENV


def card_markup(card: Card | str) -> Markup:
    """``♠A`` in its suit's colour."""
    card = Card.parse(card) if isinstance(card, str) else card
    rank = "10" if card.rank == 3 else RANKS[card.rank]
    return Markup(f'<span class="c s{card.suit}" data-card="{card}">{SUIT_SYMBOLS[card.suit]}{rank}</span>')


def cards_markup(cards: Any) -> Markup:
    """Cards (text, a Hand, or a list) as coloured symbols, separated by spaces."""
    if isinstance(cards, str):
        cards = Hand.parse(cards)
    if isinstance(cards, Hand):
        cards = cards.cards()
    return Markup(" ").join(card_markup(c) for c in cards) or Markup("—")


def summarise_discards(discards: list[str], total: int, t: Mapping[str, Any]) -> Markup:
    """Equal best discards: "any discard", "62 of 66 discards", or the list."""
    if len(discards) == total:
        return Markup(escape(t["any_discard"]))
    if len(discards) > 6:
        return Markup(escape(t["n_of_total"].format(n=len(discards), total=total)))
    return Markup(", ").join(cards_markup(d) for d in discards)


def _verdict(contract: str, value: int, t: Mapping[str, Any]) -> str:
    if contract == "misere":
        return t["misere_made"] if value == 0 else t["misere_caught"].format(n=value)
    played = Contract.parse(contract)
    assert played.level is not None
    made = t["made"] if played.is_made(value) else t["down"].format(n=played.level - value)
    return f"{t['tricks'].format(n=value)} ({made})"


def analysis_html(answer: Mapping[str, Any], deal: Deal, *, lang: str = "en", players: Any = None,
                  convention: str | None = None, score_problem: str | None = None) -> str:
    """The ``prefdd analyze`` report of ``answer`` (its ``--json`` object) for ``deal``."""
    t = texts(lang)
    names = list(players) if players else list(t["seats"])
    play = answer.get("play")
    declarer = play["declarer"] if play and play["contract"] != "allpass" else None
    discard = Hand.parse(play["discard"]) if play and play.get("discard") else None
    diagram = deal_svg(deal, seat_names=names, leader=0, declarer=declarer, discard=discard,
                       talon_label=t["talon"], discard_label=t["discard"], declarer_label=t["declarer"],
                       leads_label=t["leads"])
    context: dict[str, Any] = {"t": t, "lang": lang, "names": names, "diagram": Markup(diagram),
                               "answer": answer, "contract_text": lambda c: contract_text(c, lang),
                               "strains": ["♠", "♣", "♦", "♥", t["nt"]], "best": None,
                               "convention": convention and _convention(convention, t),
                               "score_problem": score_problem}
    pool = deal.hand_size + 2
    if "best_discard" in answer and play:
        found = answer["best_discard"]
        heading = t["best_discard_value"].format(
            contract=contract_text(play["contract"], lang), seat=names[play["declarer"]],
            verdict=_verdict(play["contract"], found["declarer_tricks"], t))
        context["best"] = {
            "heading": heading[:1].upper() + heading[1:],
            "summary": summarise_discards(found["discards"], comb(pool, 2), t),
            "count": len(found["discards"]), "total": comb(pool, 2), "discards": found["discards"]}
    if play and play["steps"]:
        context["counted"] = t["counted_own"] if play["contract"] == "allpass" else t["counted_declarer"]
    return environment().get_template("analysis.html.j2").render(**context)


def _convention(name: str, t: Mapping[str, Any]) -> str:
    return t["conventions"].get(name, name)


def _estimate(value: Mapping[str, Any]) -> tuple[float, float]:
    return float(value["mean"] or 0.0), float(value["std_error"] or 0.0)


def _run_text(run: Mapping[str, Any], t: Mapping[str, Any]) -> str:
    how = t["enumerated"] if run["exact"] else t["sampled"].format(seed=run["seed"])
    return t["run"].format(layouts=f"{run['layouts']:,}", how=how, seconds=f"{run['seconds']:.2f}")


def _tricks_chart(distribution: Mapping[str, float], t: Mapping[str, Any], level: int | None) -> Markup:
    items = sorted(((k, v) for k, v in distribution.items()), key=lambda kv: int(kv[0]))
    short = {k for k, _ in items if level is not None and int(k) < level}
    return Markup(bar_chart_svg(items, axis_label=t["tricks_axis"], highlight=short))


def _level(contract: str) -> int | None:
    return None if contract in ("misere", "allpass") else int(contract[:-2] if contract.endswith("nt")
                                                               else contract[:-1])


def whist_html(data: Mapping[str, Any], *, hand: str, talon: str, lang: str = "en") -> str:
    """The ``prefdd whist`` report of ``data`` (its ``--json`` object)."""
    t = texts(lang)
    names = list(t["seats"])
    actions = t["actions"]
    options = [(actions.get(o["action"], o["action"]), *_estimate(o["value"])) for o in data["options"]]
    context = {
        "t": t, "lang": lang, "data": data,
        "heading": t["whist_heading"].format(contract=contract_text(data["contract"], lang),
                                             declarer=names[data["declarer"]], seat=names[data["seat"]],
                                             order=t[data["speaking_order"]],
                                             convention=_convention(data["convention"], t)),
        "hand": hand, "talon": talon, "actions": actions,
        "options_chart": Markup(estimate_chart_svg(options)),
        "tricks_chart": _tricks_chart(data["declarer_tricks"], t, _level(data["contract"])),
        "run": _run_text(data["run"], t),
    }
    return environment().get_template("whist.html.j2").render(**context)


def bid_html(data: Mapping[str, Any], *, lang: str = "en") -> str:
    """The ``prefdd bid`` report of ``data`` (its ``--json`` object)."""
    t = texts(lang)
    names = list(t["seats"])
    rows = [(contract_text(c["contract"], lang), *_estimate(c["value"])) for c in data["contracts"]]
    best = data["recommended"]
    hand = Hand.parse(data["hand"])
    context = {
        "t": t, "lang": lang, "data": data,
        "heading": t["bid_heading"].format(hand=hand.pretty(),
                                           what=t["after_talon"] if data["after_talon"] else t["before_talon"],
                                           seat=names[data["seat"]],
                                           convention=_convention(data["convention"], t),
                                           defence=t["defences"].get(data["defence"], data["defence"])),
        "contract_text": lambda c: contract_text(c, lang),
        "contracts_chart": Markup(estimate_chart_svg(rows)),
        "tricks_chart": _tricks_chart(best["tricks"], t, _level(best["contract"])),
        "run": _run_text(data["run"], t),
    }
    return environment().get_template("bid.html.j2").render(**context)
