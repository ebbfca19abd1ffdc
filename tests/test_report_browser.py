"""The HTML reports in a real headless browser: Debian's chromium driven by
Playwright (``executable_path``; no browser download). Each page loads from
a file with no console error; the analysis diagram shows 32 cards; the
numbers on the page equal the command's ``--json`` answer; a screenshot (kept
under build/screenshots, never committed) is not blank.

Skipped only when chromium is not installed here (``.ci/run`` installs it)."""
from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from solver.formats import record as record_format
from solver.formats import read_record
from solver.position import Position
from solver.api import thread_solver

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                "(apt-get install -y chromium; .ci/run does it)")
SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
RECORD = {"players": ["Аня", "Боря", "Вова"], "hands": DEAL.split()[:3], "talon": "..J.K",
          "contract": "6c", "declarer": 1, "discard": "..J.K", "decisions": ["whist", None, "pass"],
          "convention": "sochi"}


def prefdd(*argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", "solver.cli", *argv], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield chromium
        chromium.close()


def open_page(browser, path: Path, shot: str):
    """The loaded page, its console errors, and its screenshot's bytes."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = page.screenshot(path=str(SHOTS / shot), full_page=True)
    assert requests == [path.as_uri()], "the report must need nothing but itself"
    return page, errors, png


def png_colours(png: bytes) -> int:
    """How varied a screenshot is: the number of different byte values in its
    decompressed image data. A page of one colour gives rows of one repeated
    pixel, which PNG's row filters turn into a handful of values (test below);
    any drawing gives dozens."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(data)))


def test_analysis_report_table_and_diagram(browser, tmp_path):
    report = tmp_path / "table.html"
    answer = json.loads(prefdd("analyze", DEAL, "--json"))
    prefdd("analyze", DEAL, "--html", str(report))
    page, errors, png = open_page(browser, report, "analysis-table.png")
    assert errors == []
    assert page.locator("svg.deal-diagram g.card").count() == 32
    assert page.locator("svg.deal-diagram g.talon g.card").count() == 2
    for row in answer["table"]["rows"]:
        cells = page.locator(f'#deal-table tr[data-seat="{row["seat"]}"]')
        assert [int(v) for v in cells.locator("td.tricks").all_inner_texts()] == row["tricks"]
        assert int(cells.locator("td.misere").inner_text()) == row["misere"]
    shown = [int(v) for v in page.locator("td.allpass-value").all_inner_texts()]
    assert shown == answer["allpass"]["player_tricks"]
    assert "need not add up to 10" in page.locator("p.explain").inner_text()
    assert png_colours(png) > 64


def _a_line_with_a_mistake() -> list[str]:
    """Cards from the start of RECORD's contract, best cards until one seat
    can throw a trick away: that seat then plays its worst card."""
    rec = read_record(json.dumps(RECORD))
    position = rec.final_position()
    solver = thread_solver()
    cards = []
    while not position.is_over:
        values = solver.card_values(position)
        declarer_moves = position.seat_to_move == rec.declarer
        best = max(values.values()) if declarer_moves else min(values.values())
        worst = min(values.values()) if declarer_moves else max(values.values())
        card = next(c for c, v in sorted(values.items()) if v == (worst if worst != best else best))
        cards.append(str(card))
        position = position.play(card)
        if worst != best:
            return cards + [str(c) for c in _finish(position)]
    return cards


def _finish(position: Position) -> list:
    cards = []
    while not position.is_over:
        card = position.legal_cards()[0]
        cards.append(card)
        position = position.play(card)
    return cards


def test_analysis_report_play_mistakes_and_score(browser, tmp_path):
    played = _a_line_with_a_mistake()
    source = tmp_path / "deal.json"
    source.write_text(json.dumps({**RECORD, "played": " ".join(played)}, ensure_ascii=False), encoding="utf-8")
    report = tmp_path / "play.html"
    answer = json.loads(prefdd("analyze", str(source), "--json"))
    prefdd("analyze", str(source), "--html", str(report), "--lang", "ru")
    page, errors, png = open_page(browser, report, "analysis-play-ru.png")
    assert errors == []
    assert page.locator("svg.deal-diagram g.card").count() == 32
    steps = answer["play"]["steps"]
    assert page.locator("#play tr.step").count() == len(steps) == 30
    costs = [int(v) for v in page.locator("#play tr.step").evaluate_all("rows => rows.map(r => r.dataset.cost)")]
    assert costs == [s["cost"] for s in steps]
    assert page.locator("#play tr.mistake").count() == len(answer["play"]["mistakes"]) >= 1
    assert int(page.locator("#best-discard").get_attribute("data-value")) == answer["best_discard"]["declarer_tricks"]
    values = page.locator("#score td.deal-value").all_inner_texts()
    assert values == list(answer["score"]["deal_value"].values())
    assert "Розыгрыш по картам" in page.content()
    assert png_colours(png) > 64


def test_whist_and_bid_reports(browser, tmp_path):
    whist_html = tmp_path / "whist.html"
    whist = json.loads(prefdd("whist", "JT98.JT.98.A9", "--talon", "..J.K", "--contract", "6c", "--declarer", "1",
                              "--seat", "2", "--layouts", "120", "--no-progress", "--workers", "1", "--json",
                              "--html", str(whist_html)))
    page, errors, png = open_page(browser, whist_html, "whist.png")
    assert errors == []
    rows = page.locator("#options tr[data-action]")
    assert rows.count() == len(whist["options"])
    means = [float(v) for v in rows.locator("td.value").evaluate_all("cells => cells.map(c => c.dataset.mean)")]
    assert means == pytest.approx([o["value"]["mean"] for o in whist["options"]])
    bars = page.locator("#tricks-chart g.bar")
    assert bars.count() == len(whist["declarer_tricks"])
    shown = dict(zip(bars.evaluate_all("bars => bars.map(b => b.dataset.label)"),
                     map(float, bars.evaluate_all("bars => bars.map(b => b.dataset.value)"))))
    assert shown == pytest.approx(whist["declarer_tricks"])
    assert page.locator("svg.estimate-chart line.error-bar").count() >= 1
    assert png_colours(png) > 64

    bid_html = tmp_path / "bid.html"
    bid = json.loads(prefdd("bid", "AQ7.K98.KT.QJ", "--seat", "0", "--contracts", "6s,6c,misere", "--layouts", "40",
                            "--no-progress", "--workers", "1", "--json", "--html", str(bid_html), "--lang", "ru"))
    page, errors, png = open_page(browser, bid_html, "bid-ru.png")
    assert errors == []
    assert page.locator("#contracts tr[data-contract]").count() == len(bid["contracts"])
    bars = page.locator("#tricks-chart g.bar")
    assert bars.count() == len(bid["recommended"]["tricks"])
    assert "Какую игру заказать" in page.content()
    assert png_colours(png) > 64


def test_blank_screenshot_is_told_apart(browser, tmp_path):
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>", encoding="utf-8")
    _, errors, png = open_page(browser, blank, "blank.png")
    assert errors == [] and png_colours(png) <= 8
    assert record_format.FORMAT_NAME  # the record module is what the reports read
