"""The dealer game in Japanese and Russian in a real browser (Debian's
chromium through Playwright, ``fivecard serve`` in a subprocess), on a
desktop and on a phone: a browser that asks for the language (its
remembered switch, the ``fivecard_lang`` cookie) plays a seeded round
whose sentences are the library's in that language (the round's headline,
your chips, the hint's reason), its figures grouped as the language groups
them, and nothing on the table is left in
English: every word a person reads or hears there (its text, its
aria-labels and titles) but the keys' names.

Screenshots go to a temporary folder, or with FIVECARD_SCREENSHOTS=docs/screenshots
to the manual's (table-ja.png, table-ru.png, table-ja-phone.png, table-ru-phone.png).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import DESKTOP, PHONE, SHOTS, Server, Tab, browser, my_cards, server, tab_of
from fivecard.core.lang import language
from fivecard.core.report import number_text
from fivecard.play.game import Game
from fivecard.play.view import event_json

expect.set_options(timeout=20_000)

SEED = 3
#: What the table says in each language, written here (the catalogs' words).
WORDS = {
    "ja": {"title": "ポーカー vs ディーラー", "showdown": "ラウンド1: ショーダウン", "stack": "持ち点", "you": "あなた"},
    "ru": {"title": "Покер против дилера", "showdown": "Раунд 1: вскрытие", "stack": "Стек", "you": "Вы"},
}
#: The only words in Latin letters the table may show: the keys' names
#: (single letters are allowed: card ranks, N, H, F) and "vs" in the
#: Japanese title.
LATIN_ALLOWED = {"Enter", "vs"}


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Tab]:
    viewport: ViewportSize = request.param
    yield from tab_of(browser, viewport)


def speak(page: Page, base: str, code: str) -> None:
    """The browser's remembered language."""
    page.context.add_cookies([{"name": "fivecard_lang", "value": code, "url": base}])


def english_left(page: Page, selector: str) -> list[str]:
    """The words in Latin letters (two or more) a person reads or hears in
    ``selector``: its text, aria-labels and titles (the rule sets'
    summaries aside: they quote the traditions' own names, ModelOff, razz)."""
    said: list[str] = page.locator(selector).evaluate(
        """root => [root.innerText,
            ...[...root.querySelectorAll('[aria-label], [title]')].flatMap(e =>
                [e.getAttribute('aria-label'), e.getAttribute('title')]).filter(Boolean)]"""
    )
    quoted = page.locator(f"{selector} .rule-summary").all_inner_texts()
    words = []
    for text in said:
        for summary in quoted:
            text = text.replace(summary, "")
        words += [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in LATIN_ALLOWED]
    return words


@pytest.mark.slow
@pytest.mark.parametrize("code", ["ja", "ru"])
def test_a_round_against_the_dealer_in_japanese_and_russian(code: str, tab: Tab, server: Server) -> None:
    page = tab.page
    words = WORDS[code]
    speak(page, server.url, code)
    page.goto(f"{server.url}/?seed={SEED}&rules=standard&fast=1")
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.locator("#start-title")).to_have_text(words["title"])
    assert english_left(page, "#start") == []
    page.locator("#new-game-button").click()
    page.wait_for_url(re.compile(r"/play/[^/?]+\?fast=1$"))
    expect(my_cards(page)).to_have_count(5)
    engine = Game(seed=SEED)
    engine.start_round()
    phone = page.viewport_size == PHONE

    # the hint: the advisor's reason in the language (on the desktop)
    if not phone:
        page.locator("#btn-hint").click()
        expect(page.locator("#hint-reason")).to_have_text(engine.hint(0).reason_text(code))
        assert english_left(page, "#table") == []

    # a round: you keep all five; the page says what the library says
    page.locator("#btn-keep").click()
    expect(page.locator("#result-title")).to_have_text(words["showdown"])
    engine.exchange(0, [0, 1, 2, 3, 4])
    while engine.can_computer_act():
        engine.computer_acts()
    while engine.can_reveal():
        engine.reveal_dealer_card()
    settled = event_json(engine, engine.settle(), code)
    expect(page.locator("#result .headline")).to_have_text(settled["text"])
    expect(page.locator("#result .banner-text")).to_have_text(settled["chips_text"])
    expect(page.locator("#seat-0-name")).to_have_text(words["you"])
    expect(page.locator("#seat-0 .stack")).to_have_text(f"{words['stack']} {number_text(settled['stacks'][0], code)}")
    expect(page.locator("#history li").first).to_be_visible()
    # the dealer's cards are named for screen readers in the language
    dealer = [c["label"] for c in settled["dealer_cards"]]
    assert page.locator("#result .dealer .card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == dealer
    assert english_left(page, "#table") == []
    if code == "ru":  # thousands grouped as Russian does (1,000 would read as one)
        assert re.findall(r"\d,\d{3}\b", page.locator("#table").inner_text()) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    if phone:
        page.locator("#result").evaluate("e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(SHOTS / f"table-{code}-phone.png"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide"
    else:
        page.screenshot(path=str(SHOTS / f"table-{code}.png"), full_page=True)
    # the language's own plural forms (the session panel's tallies, said by the page's script)
    d = settled["results"][0]["outcome"]
    lang = language(code)
    for kind, one, many in [("win", "win", "wins"), ("lose", "loss", "losses"), ("draw", "draw", "draws")]:
        n = 1 if d == kind else 0
        said = lang.phrase_n(f"{{count}} {one}", f"{{count}} {many}", n, "web", count=n)
        expect(page.locator(f"#session .tally.{kind}")).to_have_text(said)
