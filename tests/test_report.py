"""The SVG pictures, the texts in both languages, and the HTML reports as
text (the browser tests are in test_report_browser.py)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from solver.notation import Deal, Hand
from solver.report import svg
from solver.report.html import analysis_html, summarise_discards
from solver.report.i18n import LANGUAGES, contract_text, texts

DEAL = Deal.parse("AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K")
SVG = "{http://www.w3.org/2000/svg}"


def test_diagram_draws_every_card_once():
    picture = svg.deal_svg(DEAL, seat_names=["Аня", "Боря <b>", "Вова"], declarer=1, leader=0,
                           discard=Hand.parse("..J.K"))
    root = ET.fromstring(picture)          # well-formed: names are escaped
    cards = [g.get("data-card") for g in root.iter(SVG + "g") if g.get("class") == "card"]
    assert sorted(cards) == sorted(str(c) for c in Hand((1 << 32) - 1).cards())
    text = "".join(root.itertext())
    assert "Боря <b>" in text and "declarer" in text and "leads" in text and "discard: ♦J ♥K" in text
    colours = {g.find(SVG + "text").get("fill") for g in root.iter(SVG + "g") if g.get("class") == "card"}
    assert colours == set(svg.SUIT_COLOURS)


def test_endgame_diagram_without_talon():
    endgame = Deal.parse("AQ... K..A. J...A")
    root = ET.fromstring(svg.deal_svg(endgame, seat_names=["a", "b", "c"]))
    assert sum(1 for g in root.iter(SVG + "g") if g.get("class") == "card") == 6


def test_charts_carry_their_numbers():
    bars = ET.fromstring(svg.bar_chart_svg([("5", 0.25), ("6", 0.75)], highlight={"5"}))
    values = [float(g.get("data-value")) for g in bars.iter(SVG + "g") if g.get("class") == "bar"]
    assert values == [0.25, 0.75]
    chart = ET.fromstring(svg.estimate_chart_svg([("pass", -6.67, 0.0), ("whist", 19.4, 1.5)]))
    rows = [g for g in chart.iter(SVG + "g") if g.get("class") == "bar"]
    assert [float(g.get("data-error")) for g in rows] == [0.0, 1.5]
    assert sum(1 for line in chart.iter(SVG + "line") if line.get("class") == "error-bar") == 1


def test_both_languages_have_every_text():
    english, russian = (texts(lang) for lang in LANGUAGES)
    assert english.keys() == russian.keys()
    for table in ("actions", "defences", "conventions"):
        assert english[table].keys() == russian[table].keys()
    assert [contract_text(c, "ru") for c in ("6s", "10nt", "misere", "allpass")] == ["6♠", "10БК", "мизер", "распасы"]
    with pytest.raises(ValueError, match="unknown language 'de'"):
        texts("de")


def test_equal_discards_are_summarised():
    t = texts("en")
    everything = [f"{i}" for i in range(66)]
    assert summarise_discards(everything, 66, t) == "any discard"
    assert summarise_discards(everything[:62], 66, t) == "62 of 66 discards"
    few = summarise_discards(["AsKs", "..J.K"], 66, t)
    assert few.count('class="c ') == 4
    assert "9 из 66 сносов" == summarise_discards(everything[:9], 66, texts("ru"))


def test_allpass_values_explained_in_words():
    answer = {"deal": str(DEAL), "allpass": {"player_tricks": [5, 3, 5]}}
    page = analysis_html(answer, DEAL, lang="en")
    assert "worst case" in page and "need not add up to 10" in page
    assert re.findall(r'class="allpass-value" data-seat="\d">(\d+)<', page) == ["5", "3", "5"]
    page_ru = analysis_html(answer, DEAL, lang="ru")
    assert "худший случай" in page_ru and "не обязаны" in page_ru and 'lang="ru"' in page_ru
    assert "<script" not in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
