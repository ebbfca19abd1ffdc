"""Inline SVG pictures: the deal diagram and the reports' charts.

Small functions writing SVG text, not a plotting library: the charts are a
dozen bars with labels, which a few lines draw crisply at any zoom, styled
by the page's CSS, with text a browser can search and a test can read
(every card and bar is an element with a class and data attributes).
matplotlib would add some 40 MB (numpy included) and emit a picture whose
numbers are paths, not text. Everything here escapes the text it writes.
"""
from __future__ import annotations

from html import escape
from typing import Sequence

from ..notation import RANKS, SUIT_SYMBOLS, Card, Deal, Hand

__all__ = ["deal_svg", "bar_chart_svg", "estimate_chart_svg", "SUIT_COLOURS"]

SUIT_COLOURS = ("#1b1b1b", "#1b1b1b", "#c8102e", "#c8102e")
"""♠ ♣ black, ♦ ♥ red, as players expect."""

_SUIT_WORDS = ("spades", "clubs", "diamonds", "hearts")
_RANK_WORDS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_CARD_W, _CARD_H, _GAP = 22, 30, 3
_HAND_W = 20 + 8 * (_CARD_W + _GAP)
_ROW_H = _CARD_H + 4


def _rank(card: Card) -> str:
    return "10" if card.rank == 3 else RANKS[card.rank]


def _card(card: Card, x: float, y: float, css: str = "card") -> str:
    colour = SUIT_COLOURS[card.suit]
    label = f"{_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}"
    size = 11 if card.rank == 3 else 13
    return (f'<g class="{css}" data-card="{card}" role="img" aria-label="{label}">'
            f'<rect x="{x}" y="{y}" width="{_CARD_W}" height="{_CARD_H}" rx="3" fill="#fff" stroke="#9aa"/>'
            f'<text x="{x + _CARD_W / 2}" y="{y + 13}" text-anchor="middle" font-size="{size}" '
            f'font-weight="bold" fill="{colour}">{_rank(card)}</text>'
            f'<text x="{x + _CARD_W / 2}" y="{y + 26}" text-anchor="middle" font-size="12" '
            f'fill="{colour}">{SUIT_SYMBOLS[card.suit]}</text></g>')


def _hand(hand: Hand, x: float, y: float, title: str, seat: int, marks: str) -> str:
    parts = [f'<g class="hand" data-seat="{seat}">',
             f'<text x="{x}" y="{y - 8}" font-size="14" class="seat-name">{escape(title)}'
             + (f' <tspan class="seat-marks" font-size="12" fill="#0a5">{escape(marks)}</tspan>' if marks else "")
             + "</text>"]
    for row, suit in enumerate(range(4)):
        top = y + row * _ROW_H
        parts.append(f'<text x="{x}" y="{top + 21}" font-size="18" fill="{SUIT_COLOURS[suit]}">'
                     f'{SUIT_SYMBOLS[suit]}</text>')
        cards = [c for c in hand.cards() if c.suit == suit]
        if not cards:
            parts.append(f'<text x="{x + 22}" y="{top + 20}" font-size="14" fill="#777">—</text>')
        for column, card in enumerate(cards):
            parts.append(_card(card, x + 20 + column * (_CARD_W + _GAP), top))
    parts.append("</g>")
    return "".join(parts)


def deal_svg(deal: Deal, *, seat_names: Sequence[str], leader: int = 0, declarer: int | None = None,
             discard: Hand | None = None, talon_label: str = "talon", discard_label: str = "discard",
             declarer_label: str = "declarer", leads_label: str = "leads") -> str:
    """The deal around the table: seat 0 at the bottom, seats 1 and 2 above
    (play goes clockwise 0 → 1 → 2), the talon and the discard in the middle,
    each seat's name with who declares and who leads."""
    width, height = 2 * _HAND_W + 140, 2 * (4 * _ROW_H + 30) + 90
    spots = {1: (20, 30), 2: (width - _HAND_W - 20, 30), 0: ((width - _HAND_W) / 2, height - 4 * _ROW_H - 10)}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="deal-diagram" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" font-family="DejaVu Sans, Arial, sans-serif" role="img" '
             f'aria-label="deal diagram">',
             f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="14" fill="#e9f3ec" stroke="#8ab"/>']
    for seat in range(3):
        marks = []
        if seat == declarer:
            marks.append(declarer_label)
        if seat == leader:
            marks.append("▶ " + leads_label)
        x, y = spots[seat]
        parts.append(_hand(deal.hands[seat], x, y, seat_names[seat], seat, " · ".join(marks)))
    middle_y = 4 * _ROW_H + 60
    if deal.talon is not None:
        cx = width / 2 - _CARD_W - 2
        parts.append(f'<text x="{width / 2}" y="{middle_y - 6}" text-anchor="middle" font-size="13" '
                     f'class="talon-label">{escape(talon_label)}</text>')
        parts.append('<g class="talon">' + "".join(
            _card(card, cx + i * (_CARD_W + 4), middle_y) for i, card in enumerate(deal.talon.cards())) + "</g>")
    if discard is not None:
        text = " ".join(SUIT_SYMBOLS[c.suit] + _rank(c) for c in discard.cards())
        parts.append(f'<text class="discard" x="{width / 2}" y="{middle_y + _CARD_H + 18}" text-anchor="middle" '
                     f'font-size="13">{escape(discard_label)}: {escape(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def bar_chart_svg(items: Sequence[tuple[str, float]], *, axis_label: str = "", percent: bool = True,
                  highlight: set[str] | None = None) -> str:
    """Vertical bars, one an item (label, value 0..1 when ``percent``)."""
    highlight = highlight or set()
    bar_w, gap, chart_h, left = 34, 10, 150, 10
    width = left * 2 + len(items) * (bar_w + gap)
    top = max([v for _, v in items] + [1e-9])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart bar-chart" viewBox="0 0 {width} {chart_h + 60}" '
             f'width="{width}" height="{chart_h + 60}" font-family="DejaVu Sans, Arial, sans-serif">']
    for i, (label, value) in enumerate(items):
        h = chart_h * value / top
        x = left + i * (bar_w + gap)
        shown = f"{100 * value:.0f}%" if percent else f"{value:g}"
        fill = "#c8102e" if label in highlight else "#3a7bd5"
        parts.append(f'<g class="bar" data-label="{escape(label)}" data-value="{value:.6f}">'
                     f'<rect x="{x}" y="{20 + chart_h - h:.1f}" width="{bar_w}" height="{h:.1f}" fill="{fill}"/>'
                     f'<text x="{x + bar_w / 2}" y="{16 + chart_h - h:.1f}" text-anchor="middle" font-size="11">'
                     f'{shown}</text>'
                     f'<text x="{x + bar_w / 2}" y="{chart_h + 36}" text-anchor="middle" font-size="12">'
                     f'{escape(label)}</text></g>')
    if axis_label:
        parts.append(f'<text x="{width / 2}" y="{chart_h + 54}" text-anchor="middle" font-size="12" fill="#555">'
                     f'{escape(axis_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def estimate_chart_svg(items: Sequence[tuple[str, float, float]]) -> str:
    """Horizontal bars from zero, one an item (label, mean, standard error),
    with an error bar of ± one standard error."""
    row_h, label_w, plot_w = 26, 150, 360
    low = min([0.0] + [m - e for _, m, e in items])
    high = max([0.0] + [m + e for _, m, e in items])
    span = (high - low) or 1.0

    def x(value: float) -> float:
        return label_w + plot_w * (value - low) / span

    height = row_h * len(items) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart estimate-chart" '
             f'viewBox="0 0 {label_w + plot_w + 130} {height}" width="{label_w + plot_w + 130}" height="{height}" '
             f'font-family="DejaVu Sans, Arial, sans-serif">',
             f'<line x1="{x(0):.1f}" y1="4" x2="{x(0):.1f}" y2="{height - 22}" stroke="#444"/>',
             f'<text x="{x(0):.1f}" y="{height - 8}" text-anchor="middle" font-size="11">0</text>']
    for i, (label, mean, error) in enumerate(items):
        y = 6 + i * row_h
        left, right = sorted((x(0), x(mean)))
        fill = "#2e8b57" if mean >= 0 else "#c8102e"
        parts.append(f'<g class="bar" data-label="{escape(label)}" data-value="{mean:.6f}" data-error="{error:.6f}">'
                     f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end" font-size="12">{escape(label)}</text>'
                     f'<rect x="{left:.1f}" y="{y + 3}" width="{max(right - left, 1):.1f}" height="{row_h - 10}" '
                     f'fill="{fill}" opacity="0.8"/>')
        if error > 0:
            parts.append(f'<line class="error-bar" x1="{x(mean - error):.1f}" y1="{y + 10}" x2="{x(mean + error):.1f}" '
                         f'y2="{y + 10}" stroke="#000" stroke-width="1.5"/>')
        parts.append(f'<text x="{x(high) + 6:.1f}" y="{y + 15}" font-size="11">{mean:.2f}'
                     + (f" ± {error:.2f}" if error > 0 else "") + "</text></g>")
    parts.append("</svg>")
    return "".join(parts)
