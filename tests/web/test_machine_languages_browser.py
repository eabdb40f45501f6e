"""The video-poker machine in Japanese and Russian in a real browser
(Debian's chromium through Playwright against ``fivecard serve``), on a
desktop and on a phone: a browser that asks for the language (the
``fivecard_lang`` cookie) plays a seeded hand beside the library's
machine, and the page says the library's words in that language (the
pay table's lines, the trainer's verdict, the final line, the log), with
no English word left but the games' own names and the keys'.

Screenshots go to a temporary folder, or with FIVECARD_SCREENSHOTS=docs/screenshots
to the manual's (machine-ja.png, machine-ru.png, machine-ja-phone.png, machine-ru-phone.png).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import DESKTOP, PHONE, SHOTS, Server, Tab, browser, server, tab_of
from fivecard.core.lang import language
from fivecard.core.rules import get_rules
from fivecard.play.machine import Machine, record_label
from fivecard.play.paytables import PAYTABLES
from fivecard.play.view import card_json

expect.set_options(timeout=30_000)

GAME = "jacks-or-better-9-6"
SEED = 31
#: What the machine says in each language, written here (the catalogs' words).
WORDS = {
    "ja": {"title": "ビデオポーカー", "deal": "配る", "draw": "引く", "jacks": "ジャックス・オア・ベター"},
    "ru": {"title": "Видеопокер", "deal": "Раздать", "draw": "Добрать", "jacks": "Валеты и выше"},
}
LATIN_ALLOWED = {"Enter", "Space", "CSV"}


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Tab]:
    viewport: ViewportSize = request.param
    yield from tab_of(browser, viewport)


def english_left(page: Page, selector: str, names: list[str]) -> list[str]:
    """Words in Latin letters (two or more) a person reads or hears in
    ``selector`` (its text, aria-labels and titles), the games' names aside."""
    said: list[str] = page.locator(selector).evaluate(
        """root => [root.innerText,
            ...[...root.querySelectorAll('[aria-label], [title]')].flatMap(e =>
                [e.getAttribute('aria-label'), e.getAttribute('title')]).filter(Boolean)]"""
    )
    words = []
    for text in said:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, "")
        words += [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in LATIN_ALLOWED]
    return words


@pytest.mark.slow
@pytest.mark.parametrize("code", ["ja", "ru"])
def test_a_machine_hand_in_japanese_and_russian(code: str, tab: Tab, server: Server) -> None:
    page = tab.page
    words, lang = WORDS[code], language(code)
    names = [t.title for t in PAYTABLES.values()]
    page.context.add_cookies([{"name": "fivecard_lang", "value": code, "url": server.url}])
    page.goto(f"{server.url}/video-poker?seed={SEED}")
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.locator("#start-title")).to_have_text(words["title"])
    assert english_left(page, "#start", names) == []
    page.locator(f'button[name="game"][value="{GAME}"]').click()
    page.wait_for_url(f"{server.url}/video-poker/*")
    twin = Machine(GAME, seed=SEED, trainer=True)
    rules = get_rules(twin.paytable.rules or "standard")
    # the pay table's lines in the language
    expect(page.locator('#paytable tr[data-line="one_pair_J-A"] th')).to_have_text(words["jacks"])
    expect(page.locator("#deal-draw .label")).to_have_text(words["deal"])
    page.locator("#deal-draw").click()
    twin.deal()
    expect(page.locator("#deal-draw .label")).to_have_text(words["draw"])
    cards = page.locator("#cards button.card")
    expect(cards).to_have_count(5)
    current = twin.current
    assert current is not None
    # the cards named for screen readers in the language
    assert [c.get_attribute("aria-label") for c in cards.all()] == [card_json(c, code)["label"] for c in current.cards]
    assert english_left(page, "#machine", names) == []
    # hold the first card and draw: the verdict and the final line are the library's, in the language
    cards.nth(0).click()
    expect(cards.nth(0)).to_have_attribute("aria-pressed", "true")
    page.locator("#deal-draw").click()
    drawn = twin.draw([0])
    expect(page.locator("#deal-draw .label")).to_have_text(words["deal"])
    expect(page.locator("#verdict .verdict-text")).to_have_text(drawn.verdict.text(code))
    record = drawn.record
    paid = (
        lang.phrase("pays {coins}", "web", coins=lang.phrase_n("{count} coin", "{count} coins", record.paid, "web", count=f"{record.paid:,}"))
        if record.paid
        else lang.phrase("no win", "web")
    )
    line = lang.phrase("{line}: {paid}.", "web", line=record_label(record, rules, twin.paytable, code), paid=paid)
    expect(page.locator("#result")).to_have_text(line)
    expect(page.locator("#log-text")).to_have_text(twin.log().text(code), use_inner_text=False)
    assert english_left(page, "#machine", names) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    if page.viewport_size == PHONE:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide"
        page.locator(".cabinet").evaluate("e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(SHOTS / f"machine-{code}-phone.png"))
    else:
        page.screenshot(path=str(SHOTS / f"machine-{code}.png"), full_page=True)
