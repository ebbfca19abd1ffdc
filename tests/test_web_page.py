"""The page in a real headless browser: Debian's chromium driven by Playwright
(its own browser download does not work here, so the executable is given),
against a real ``prefdd serve --http-port`` server on 127.0.0.1. A screenshot
of every step goes to ``build/web-screens/`` (kept by CI as an artifact).

The test skips, saying so, only where chromium or Playwright is missing;
``.ci/run`` installs both, so in CI it always runs."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from solver import Position, Solver
from solver.analysis.discard import deal_after_discard
from solver.notation import Deal, Hand

from service_support import running_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENS = Path(__file__).resolve().parents[1] / "build" / "web-screens"
DEAL = "AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K"
PREFDD = Path(sys.executable).parent / "prefdd"

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip(f"chromium is not installed at {CHROMIUM} (.ci/run installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running_server(http_port=0, workers=2, grpc_enabled=False) as running:
        yield running.http.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield launched
        launched.close()


@pytest.fixture()
def page(browser: Any, base_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    opened = context.new_page()
    opened.errors = []
    opened.on("console", lambda message: message.type == "error" and opened.errors.append(message.text))
    opened.on("pageerror", lambda error: opened.errors.append(str(error)))
    opened.goto(base_url + "/")
    opened.wait_for_selector("body[data-ready=true]")
    yield opened
    context.close()


def screenshot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5000, "the screenshot is blank"


def shown_values(page: Any) -> dict[str, int]:
    """The legal cards the page offers and the value shown on each."""
    values = {}
    for button in page.query_selector_all("#diagram button.card"):
        values[button.get_attribute("data-card")] = int(button.query_selector(".value").inner_text())
    return values


def solve_cards(deal: str, contract: str, declarer: int) -> dict[str, int]:
    done = subprocess.run([str(PREFDD), "solve", deal, "--contract", contract, "--declarer", str(declarer),
                           "--cards", "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["card_values"]


def api_analyze(page: Any, deal: str) -> Any:
    return page.evaluate("""async (deal) => (await fetch('/api/v1/analyze', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: JSON.stringify({deal})})).json()""", deal)


def test_paste_a_deal_play_three_cards_and_undo(page: Any) -> None:
    page.fill("#deal-input", DEAL)
    page.click("#analyze")
    page.wait_for_selector("#deal-table button.cell")
    screenshot(page, "1-table")
    assert len(page.query_selector_all("#diagram .card")) == 32

    expected = api_analyze(page, DEAL)["table"]
    rows = page.query_selector_all("#deal-table tr")[1:]
    for row, answer in zip(rows, expected["rows"]):
        shown = [int(cell.inner_text()) for cell in row.query_selector_all("button.cell")]
        assert shown == answer["tricks"] + [answer["misere"]]

    cell = page.query_selector("#deal-table button.cell[data-seat='1'][data-contract='6h']")
    discard = cell.get_attribute("data-discard")
    cell.click()
    page.wait_for_selector("#diagram button.card")
    screenshot(page, "2-contract")
    after = deal_after_discard(Deal.parse(DEAL), 1, Hand.parse(discard))
    first = shown_values(page)
    assert first == solve_cards(str(after), "6h", 1)

    played: list[str] = []
    solver = Solver()
    for step in range(3):
        best = page.query_selector("#diagram button.card.best")
        card = best.get_attribute("data-card")
        best.click()
        played.append(card)
        page.wait_for_function("(n) => decodeURIComponent(location.hash).split(',').length === n &&"
                               " document.querySelectorAll('#diagram button.card').length > 0", arg=len(played))
        screenshot(page, f"3-card-{step + 1}")
        position = Position.after(after, "6h", 1, played)
        expected_values = {str(c): v for c, v in solver.card_values(position).items()}
        page.wait_for_function("(cards) => [...document.querySelectorAll('#diagram button.card')]"
                               ".map(b => b.dataset.card).sort().join() === cards",
                               arg=",".join(sorted(expected_values)))
        assert shown_values(page) == expected_values
    assert f"played={','.join(played)}" in page.evaluate("decodeURIComponent(location.hash)")

    page.keyboard.press("ArrowLeft")
    page.wait_for_function("(c) => !decodeURIComponent(location.hash).includes(',' + c)", arg=played[2])
    page.wait_for_function("(cards) => [...document.querySelectorAll('#diagram button.card')]"
                           ".map(b => b.dataset.card).sort().join() === cards",
                           arg=",".join(sorted(str(c) for c in
                                               solver.card_values(Position.after(after, "6h", 1, played[:2])))))
    screenshot(page, "4-undo")
    page.click("#redo")
    page.wait_for_function("(n) => decodeURIComponent(location.hash).split(',').length === n", arg=3)
    assert page.errors == []


def test_a_shared_link_restores_the_position(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/#deal={DEAL}&contract=6h&declarer=1&discard=KsQc&played=As")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#diagram button.card")
    after = deal_after_discard(Deal.parse(DEAL), 1, Hand.parse("KsQc"))
    expected = {str(c): v for c, v in Solver().card_values(Position.after(after, "6h", 1, ["As"])).items()}
    assert shown_values(page) == expected
    assert page.errors == []


def test_a_bad_deal_shows_the_parser_message(page: Any) -> None:
    page.fill("#deal-input", "AQ7.K98.KT.QJ K.AQ7")
    page.click("#analyze")
    page.wait_for_selector("#deal-error:not([hidden])")
    message = page.inner_text("#deal-error")
    assert "expected 3 hands" in message
    screenshot(page, "5-bad-deal")
    assert page.is_hidden("#deal-panel")
    assert page.errors == [] or all("400" in error for error in page.errors)


def test_whist_advice_draws_its_charts(page: Any) -> None:
    page.click("summary >> text=Whist or pass?")
    form = "#whist-form"
    for name, value in {"hand": "AQ7.K98.KT.QJ", "talon": "..J.K", "contract": "6h", "layouts": "40"}.items():
        page.fill(f"{form} [name={name}]", value)
    page.select_option(f"{form} [name=other]", "pass")
    page.click(f"{form} button[type=submit]")
    page.wait_for_selector("#whist-result svg.chart")
    assert "Recommended:" in page.inner_text("#whist-result")
    assert len(page.query_selector_all("#whist-result svg.chart")) == 2
    screenshot(page, "6-whist")
    assert page.errors == []


def test_a_phone_screen_shows_the_deal(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    phone.goto(f"{base_url}/#deal={DEAL}")
    phone.wait_for_selector("#deal-table button.cell")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width} px wide on a 390 px screen"
    screenshot(phone, "7-phone")
    context.close()


def test_a_record_file_misere_and_allpass(page: Any, tmp_path: Path) -> None:
    """A JPref line uploaded as a file (notes/record-formats.md §2.3), then a
    misère from the table and the all-pass, each showing the solver's values."""
    line = "deal: ♠9A ♣KA ♦789A ♥8Q  ♠XJ ♣9JQ ♦J ♥7XJK  ♠78Q ♣78X ♦XQK ♥9  ♥A ♠K  1"
    record = tmp_path / "deal.txt"
    record.write_text(line + "\n", encoding="utf-8")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#deal-table button.cell")
    canonical = api_analyze(page, line)["deal"]
    assert page.input_value("#deal-input") == canonical
    assert len(page.query_selector_all("#diagram .card")) == 32

    cell = page.query_selector("#deal-table button.cell[data-seat='0'][data-contract='misere']")
    discard = cell.get_attribute("data-discard")
    cell.click()
    page.wait_for_selector("#diagram button.card")
    after = deal_after_discard(Deal.parse(canonical), 0, Hand.parse(discard))
    assert shown_values(page) == {str(c): v for c, v in Solver().card_values(
        Position.start(after, "misere", 0)).items()}
    screenshot(page, "8-misere")

    page.click("#allpass")
    page.wait_for_function("() => decodeURIComponent(location.hash).includes('contract=allpass')")
    # The misère's cards are still shown until the all-pass position arrives:
    # its status is written with its diagram.
    page.wait_for_function("() => document.querySelector('#status').innerText.includes('all-pass')")
    start = Position.start(Deal.parse(canonical), "allpass", 0)
    assert shown_values(page) == {str(c): v for c, v in Solver().card_values(start).items()}
    assert "all-pass" in page.inner_text("#status")
    screenshot(page, "9-allpass")
    assert page.errors == []


def test_the_deal_is_scored_at_the_end(page: Any, base_url: str) -> None:
    """A link with the whole best line played, then the score under a chosen
    convention: the page shows what the scoring API answers."""
    line = page.evaluate("""async (deal) => (await (await fetch('/api/v1/position', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: JSON.stringify({deal, contract: '6h', declarer: 1,
        discard: 'KsQc', best_line: true})})).json())""", DEAL)
    page.goto(f"{base_url}/#deal={DEAL}&contract=6h&declarer=1&discard=KsQc&played={','.join(line['best_line'])}")
    page.wait_for_selector("#score-panel:not([hidden])")
    assert "over" in page.inner_text("#status")
    page.select_option("#convention", "leningrad")
    page.click("#score")
    page.wait_for_function("() => document.querySelector('#score-result').textContent.length > 0")
    final = Position.after(deal_after_discard(Deal.parse(DEAL), 1, Hand.parse("KsQc")), "6h", 1, line["best_line"])
    tricks = dict(zip("ABC", final.tricks_taken))
    expected = page.evaluate("""async (body) => (await (await fetch('/api/v1/score', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})).json())""",
        {"convention": "leningrad", "kind": "deal", "input": {
            "type": "contract", "players": ["A", "B", "C"], "declarer": "B", "contract": "6h",
            "defenders": ["C", "A"], "decisions": {"C": "whist", "A": "pass"}, "tricks": tricks}})
    text = page.inner_text("#score-result")
    for seat, name in enumerate("ABC"):
        assert f"{['first hand', 'second hand', 'third hand'][seat]} {expected['deal_value'][name]}" in text
    screenshot(page, "10-score")
    assert page.errors == []
