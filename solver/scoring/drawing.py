"""The score sheet as people draw it, for ``prefdd pool``: per player the running
totals of pool, mountain and the whists written on each other player (paper style,
``2.4.10``), then the settlement.  Also the machine form (``--json``).

Display rounding only: exact values are shown as rationals; balances are also shown
rounded to whole whists and, times the whist price, to whole money units, both by
largest remainder (adding up to zero).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .jsonio import Game, rational_json, settlement_json, sheet_json, values_json
from .settlement import round_balances
from .sheet import ScoreSheet


def show(value: Fraction) -> str:
    """A record amount for people: 7, 7.5, or 10/3."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator & (value.denominator - 1) == 0:
        return str(float(value))
    return str(value)


def signed(value: Fraction) -> str:
    text = show(value)
    return text if value <= 0 else "+" + text


def running_totals(sheet: ScoreSheet) -> dict[str, dict[str, list[Fraction]]]:
    """Per player, per line ("pool", "mountain", "whists on X"): the running totals
    written after each deal that changed that line."""
    lines: dict[str, dict[str, list[Fraction]]] = {p: {} for p in sheet.players}
    totals: dict[tuple[str, str], Fraction] = {}

    def note(player: str, line: str, change: Fraction) -> None:
        if change:
            key = (player, line)
            totals[key] = totals.get(key, Fraction(0)) + change
            lines[player].setdefault(line, []).append(totals[key])

    for entry in sheet.entries:
        for player in sheet.players:
            note(player, "pool", entry.records.pool[player])
            note(player, "mountain", entry.records.mountain[player])
        for writer, target, amount in entry.records.whist_list():
            note(writer, f"whists on {target}", amount)
    return lines


def game_text(game: Game) -> str:
    """The whole sheet and its settlement as text."""
    sheet = game.sheet
    conv = sheet.convention
    names = sheet.players
    out: list[str] = []
    state = "game over" if sheet.is_over() else "game not finished; settled as it stands"
    out.append(f"Pool: {conv.name}, {len(names)} players, pool size {show(sheet.pool_size)}, "
               f"{len(sheet.entries)} deals ({state})")
    out.append("")
    lines = running_totals(sheet)
    width = max(len(line) for line in ["mountain"] + [f"whists on {p}" for p in names])
    for player in names:
        out.append(player)
        order = ["pool", "mountain"] + [f"whists on {p}" for p in names if p != player]
        for line in order:
            written = lines[player].get(line, [])
            out.append(f"  {line:<{width}}  {'.'.join(show(v) for v in written) if written else '-'}")
    settlement = sheet.settle()
    out.append("")
    out.append("Settlement (whists)")
    adjusted = "   ".join(f"{p} {show(settlement.adjusted_mountain[p])}" for p in names)
    out.append(f"  adjusted mountain: {adjusted}")
    for net in settlement.pairwise_net:
        if net.amount > 0:
            out.append(f"  {net.debtor} pays {net.creditor} {show(net.amount)}")
        elif net.amount < 0:
            out.append(f"  {net.creditor} pays {net.debtor} {show(-net.amount)}")
    rounded = round_balances(settlement.balance)
    money = round_balances({p: v * game.whist_price for p, v in settlement.balance.items()})
    name_width = max(len(p) for p in names)
    out.append(f"  {'balance':<{name_width}}  {'exact':>10}  {'rounded':>8}  money at {show(game.whist_price)}/whist")
    for player in names:
        exact = settlement.balance[player]
        out.append(f"  {player:<{name_width}}  {signed(exact):>10}  {signed(rounded[player]):>8}  "
                   f"{signed(money[player])}")
    return "\n".join(out) + "\n"


def game_json(game: Game) -> dict[str, Any]:
    """The sheet and settlement in machine form."""
    sheet = game.sheet
    names = sheet.players
    settlement = sheet.settle()
    body = sheet_json(sheet)
    for item, entry in zip(body["per_deal"], sheet.entries):
        if entry.allpass_price is not None:
            item["allpass_price"] = rational_json(entry.allpass_price)
    money = round_balances({p: v * game.whist_price for p, v in settlement.balance.items()})
    return {
        "players": list(names),
        "convention": sheet.convention.name,
        "pool_size": rational_json(sheet.pool_size),
        "game_over": sheet.is_over(),
        **body,
        "settlement": settlement_json(settlement, names),
        "rounded_balance": values_json(round_balances(settlement.balance), names),
        "whist_price": rational_json(game.whist_price),
        "money": values_json(money, names),
    }
