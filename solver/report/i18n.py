"""Texts for people in the reports, in English and Russian (``--lang ru``).

:func:`texts` gives one language's table; keys are the same in both (a test
checks it). Formatting fields use ``str.format`` names.
"""
from __future__ import annotations

from typing import Mapping

__all__ = ["LANGUAGES", "texts", "contract_text", "seat_name"]

LANGUAGES = ("en", "ru")

_EN = {
    "seats": ("first hand", "second hand", "third hand"),
    "talon": "talon",
    "discard": "discard",
    "declarer": "declarer",
    "leads": "leads",
    "misere": "misère",
    "allpass": "all-pass",
    "nt": "NT",
    "report_title": "Deal analysis",
    "deal": "The deal",
    "table": "What each seat could make (taking the talon, best discard)",
    "table_note": "Tricks the declarer takes with his best discard in each strain; misère: the tricks he is "
                  "held to; {leader} leads.",
    "col_declarer": "declarer",
    "col_best": "best contract",
    "nothing": "nothing",
    "best_discards": "Best discards",
    "best_discard_value": "{contract} by {seat}: {verdict} with the best discard.",
    "any_discard": "any discard",
    "show_all": "show them all",
    "n_of_total": "{n} of {total} discards",
    "discards_reach": "Discards that reach it: {summary}",
    "made": "made", "down": "down {n}", "tricks": "{n} tricks",
    "misere_made": "misère made", "misere_caught": "caught for {n} trick(s)",
    "play": "The play, card by card",
    "play_note": "Value: {counted} before and after each card; a card that loses value is a mistake.",
    "counted_declarer": "the declarer's tricks", "counted_own": "the tricks of the card's own player",
    "col_trick": "trick", "col_seat": "seat", "col_card": "card", "col_before": "before", "col_after": "after",
    "col_cost": "cost", "col_best_cards": "best cards",
    "ok": "ok",
    "mistakes": "Mistakes", "no_mistakes": "No mistakes: every card kept the value.",
    "best_line": "Best line", "best_line_note": "Double dummy from {where}; the declarer ends with {value}.",
    "from_start": "the start", "from_here": "the end of the cards played",
    "col_winner": "wins",
    "allpass_title": "All-pass",
    "allpass_values": "Each player's worst case at all-pass",
    "allpass_explain": "Each number is that player's worst case: the fewest tricks he can be sure of taking "
                       "even if both others play to give him as many as they can. Each is computed on its own, "
                       "against a different pair of opponents, so the three need not add up to 10.",
    "allpass_line": "One likely outcome (max^n: each player keeps his own tricks down, ties to the lowest card)",
    "score": "Score ({convention})",
    "score_note": "The deal's value in whists for each player, and what goes on the sheet.",
    "col_player": "player", "col_value": "value (whists)", "col_pool": "pool", "col_mountain": "mountain",
    "col_whists": "whists written",
    "score_missing": "Not scored: {why}",
    "contract": "Contract",
    "generated": "Made by prefdd; a single file that needs no network.",
    "whist_title": "Whist or pass",
    "whist_heading": "{contract} by {declarer}; you are {seat} ({order} defender); convention {convention}",
    "first": "first", "second": "second",
    "options": "Your options: expected value in whists, with its error bar (± one standard error)",
    "col_option": "option", "col_expected": "expected value", "col_fails": "declarer fails",
    "exact": "exact",
    "recommended": "Recommended: {option}",
    "sure": "sure {p}",
    "tricks_chart": "The declarer's tricks over the hidden layouts",
    "tricks_axis": "declarer's tricks",
    "short_note": "Red: fewer tricks than the contract.",
    "run": "{layouts} layouts, {how}; {seconds} s",
    "enumerated": "every layout counted", "sampled": "sampled (seed {seed})",
    "bid_title": "Which contract",
    "bid_heading": "{hand} ({what}), {seat}; convention {convention}; defenders: {defence}",
    "before_talon": "before the talon", "after_talon": "12 cards after the talon",
    "col_contract": "contract", "col_makes": "makes",
    "contracts_chart": "Expected value of each contract (whists, ± one standard error)",
    "notes": "Notes",
    "actions": {"pass": "pass", "whist": "whist", "half_whist": "half-whist"},
    "defences": {"whist": "one whists, one passes", "pass": "both pass", "both": "both whist"},
    "conventions": {"sochi": "Sochi", "leningrad": "Leningrad", "rostov": "Rostov"},
}

_RU = {
    "seats": ("первая рука", "вторая рука", "третья рука"),
    "talon": "прикуп",
    "discard": "снос",
    "declarer": "играющий",
    "leads": "ходит",
    "misere": "мизер",
    "allpass": "распасы",
    "nt": "БК",
    "report_title": "Разбор сдачи",
    "deal": "Сдача",
    "table": "Что мог сыграть каждый (с прикупом, при лучшем сносе)",
    "table_note": "Взятки играющего при лучшем сносе в каждой масти; мизер — сколько взяток ему дадут. "
                  "Ходит {leader}.",
    "col_declarer": "играющий",
    "col_best": "лучшая игра",
    "nothing": "ничего",
    "best_discards": "Лучший снос",
    "best_discard_value": "{contract}, играет {seat}: {verdict} при лучшем сносе.",
    "any_discard": "любой снос",
    "show_all": "показать все",
    "n_of_total": "{n} из {total} сносов",
    "discards_reach": "Сносы, которые этого достигают: {summary}",
    "made": "сыграно", "down": "без {n}", "tricks": "взяток: {n}",
    "misere_made": "мизер чистый", "misere_caught": "мизер ловится на {n}",
    "play": "Розыгрыш по картам",
    "play_note": "Оценка: {counted} до и после каждой карты; карта, теряющая оценку, — ошибка.",
    "counted_declarer": "взятки играющего", "counted_own": "взятки того, кто кладёт карту",
    "col_trick": "взятка", "col_seat": "рука", "col_card": "карта", "col_before": "до", "col_after": "после",
    "col_cost": "потеря", "col_best_cards": "лучшие карты",
    "ok": "ок",
    "mistakes": "Ошибки", "no_mistakes": "Ошибок нет: каждая карта сохранила оценку.",
    "best_line": "Лучший розыгрыш", "best_line_note": "В открытую, от {where}; у играющего будет {value}.",
    "from_start": "начала", "from_here": "конца сыгранных карт",
    "col_winner": "берёт",
    "allpass_title": "Распасы",
    "allpass_values": "Худший случай каждого игрока на распасах",
    "allpass_explain": "Каждое число — худший случай этого игрока: наименьшее число взяток, которое он "
                       "наберёт наверняка, даже если оба других играют так, чтобы дать ему как можно больше. "
                       "Каждое считается отдельно, против своей пары противников, поэтому в сумме они не "
                       "обязаны давать 10.",
    "allpass_line": "Вероятный исход (max^n: каждый сокращает свои взятки, при равенстве — младшая карта)",
    "score": "Запись ({convention})",
    "score_note": "Цена сдачи в вистах для каждого игрока и что пишется в пулю.",
    "col_player": "игрок", "col_value": "цена (висты)", "col_pool": "пуля", "col_mountain": "гора",
    "col_whists": "висты",
    "score_missing": "Запись не посчитана: {why}",
    "contract": "Игра",
    "generated": "Сделано prefdd; один файл, сеть не нужна.",
    "whist_title": "Вистовать или пасовать",
    "whist_heading": "{contract}, играет {declarer}; вы — {seat} ({order} вистующий); конвенция {convention}",
    "first": "первый", "second": "второй",
    "options": "Ваши варианты: ожидание в вистах с погрешностью (± одна стандартная ошибка)",
    "col_option": "вариант", "col_expected": "ожидание", "col_fails": "играющий без взяток",
    "exact": "точно",
    "recommended": "Совет: {option}",
    "sure": "уверенность {p}",
    "tricks_chart": "Взятки играющего по раскладам закрытых карт",
    "tricks_axis": "взятки играющего",
    "short_note": "Красным — меньше взяток, чем заказано.",
    "run": "раскладов: {layouts}, {how}; {seconds} с",
    "enumerated": "перебраны все", "sampled": "выборка (seed {seed})",
    "bid_title": "Какую игру заказать",
    "bid_heading": "{hand} ({what}), {seat}; конвенция {convention}; вистующие: {defence}",
    "before_talon": "до прикупа", "after_talon": "12 карт с прикупом",
    "col_contract": "игра", "col_makes": "сыграет",
    "contracts_chart": "Ожидание каждой игры (висты, ± одна стандартная ошибка)",
    "notes": "Заметки",
    "actions": {"pass": "пас", "whist": "вист", "half_whist": "полвиста"},
    "defences": {"whist": "один вистует, другой пасует", "pass": "оба пасуют", "both": "оба вистуют"},
    "conventions": {"sochi": "Сочи", "leningrad": "Ленинград", "rostov": "Ростов"},
}

_TABLES = {"en": _EN, "ru": _RU}


def texts(lang: str) -> Mapping[str, object]:
    """The texts of one language; ValueError for a language not offered."""
    if lang not in _TABLES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return _TABLES[lang]


def seat_name(seat: int, lang: str) -> str:
    return texts(lang)["seats"][seat]  # type: ignore[index]


def contract_text(contract: str, lang: str) -> str:
    """A canonical contract (``6s``, ``10nt``, ``misere``, ``allpass``) for people."""
    t = texts(lang)
    if contract == "misere":
        return str(t["misere"])
    if contract == "allpass":
        return str(t["allpass"])
    level, strain = contract[:-2], contract[-2:]
    if strain != "nt":
        level, strain = contract[:-1], contract[-1]
        return level + "♠♣♦♥"["scdh".index(strain)]
    return level + str(t["nt"])
