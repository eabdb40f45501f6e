"""The pages in Japanese and Russian in a real browser (Debian's chromium
through Playwright, against ``fivecard serve``): the language a browser
asks for (``Accept-Language``), the switch in every page's header (by
mouse and by keyboard; remembered after a reload and on the next page,
the address left clean), ``<html lang>``, the checker's words, card names
and settled explanation, a strategy card, the offline screen's words and
what the service worker shows after a switch. Desktop and phone.
Screenshots (checker-ja.png, checker-ru-phone.png, strategy-ru.png, ...) go
to a temporary folder, or to FIVECARD_SCREENSHOTS (docs/screenshots, the
manual's)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import DESKTOP, PHONE, SHOTS, Server, Tab, browser, open_tab, server
from fivecard import showdown
from fivecard.core.evaluate import describe, evaluate
from fivecard.core.lang import language
from fivecard.core.words import card_name, rank_letter
from fivecard.core.cards import parse_card

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
HANDS = ["KD 9C 4H KS 9D", "AS AD 2C 3C 4C"]
#: What each language calls things on the pages (the catalogs' words, read as a person reads them).
WORDS = {
    "ja": {"checker": "ハンド判定", "hand": "ハンド{n}", "check": "判定する", "switch": "言語", "pays": "配当表"},
    "ru": {"checker": "Проверка рук", "hand": "Рука {n}", "check": "Проверить", "switch": "Язык", "pays": "Таблица выплат"},
    "en": {"checker": "Hand checker", "hand": "Hand {n}", "check": "Check", "switch": "Language", "pays": "Pay table"},
}
NAMES = {"en": "English", "ja": "日本語", "ru": "Русский"}


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> ViewportSize:
    return VIEWPORTS[request.param]


def tab_in(browser: Browser, viewport: ViewportSize, locale: str | None = None) -> Iterator[Tab]:
    opened = open_tab(browser, viewport, locale=locale)
    yield opened
    opened.page.context.close()
    assert [e for e in opened.errors if "net::ERR_" not in e] == [], "console errors or CSP violations"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def suffix(page: Page) -> str:
    return "-phone" if page.viewport_size == PHONE else ""


def switch(page: Page, code: str) -> None:
    """Pick a language with the header's switch (a link named in its own language)."""
    nav = page.get_by_role("navigation", name=re.compile("^(Language|言語|Язык)$"))
    nav.get_by_role("link", name=NAMES[code], exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", code)


def fits(page: Page) -> None:
    """Nothing wider than the window (a phone scrolls up and down only), and
    each of the switch's links on the screen, big enough to touch."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    width = page.evaluate("window.innerWidth")
    for link in page.locator(".lang-switch a").all():
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 44


def the_checker_says_it(page: Page, code: str) -> None:
    """The checker with HANDS settled: its words, cards and explanation in ``code``."""
    words, lang = WORDS[code], language(code)
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.locator("h1")).to_have_text(words["checker"])
    result = showdown(HANDS, lang=code)
    expect(page.locator("#explanation")).to_have_text(result.explanation)
    for i, evaluation in enumerate(result.evaluations):
        expect(page.locator(".hand-desc strong").nth(i)).to_have_text(describe(evaluation.hand_class, code))
    sorted_first = [card_name(c, code) for c in evaluate(HANDS[0]).hand.sorted()]
    assert page.locator(".hand-row").nth(0).locator(".card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == sorted_first
    faces = page.locator(".hand-row").nth(0).locator(".card .corner.top .rank")
    expect(faces).to_have_text([rank_letter(c.rank, code) for c in evaluate(HANDS[0]).hand.sorted() if c.rank is not None])
    expect(page.get_by_label(words["hand"].format(n=1), exact=True)).to_have_value(HANDS[0])
    ace = card_name(parse_card("AS"), code)
    expect(page.locator("#card-grid").get_by_role("button", name=ace, exact=True)).to_have_count(0)  # in a hand: marked
    expect(page.locator("#card-grid").get_by_role("button", name=re.compile(f"^{re.escape(ace)}")).first).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.locator("#verdict-title")).to_have_text(lang.phrase("Hand {n} wins", "web", n=1))
    expect(page.get_by_role("navigation", name=words["switch"])).to_be_visible()


@pytest.mark.slow
def test_the_checker_speaks_the_browser_s_language(browser: Browser, server: Server, viewport: ViewportSize) -> None:
    for tab in tab_in(browser, viewport, locale="ja-JP"):
        page = tab.page
        page.goto(f"{server.url}/check")
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        expect(page.get_by_role("link", name="日本語", exact=True)).to_have_attribute("aria-current", "true")
        for n, hand in enumerate(HANDS, 1):
            page.get_by_label(WORDS["ja"]["hand"].format(n=n), exact=True).fill(hand)
        page.get_by_role("button", name=WORDS["ja"]["check"]).click()
        page.wait_for_url(re.compile(r"/check\?"))
        the_checker_says_it(page, "ja")
        # the script's own words: a hand added, its label and its button's name
        page.get_by_role("button", name="ハンドを追加").click()
        expect(page.get_by_label("ハンド3", exact=True)).to_be_focused()
        expect(page.get_by_role("button", name="ハンド3を削除")).to_be_visible()
        expect(page.get_by_label("ハンド3", exact=True)).to_have_attribute("placeholder", "例：AS KS QS JS TS")
        fits(page)
        shot(page, f"checker-ja{suffix(page)}.png")


@pytest.mark.slow
def test_the_switch_picks_russian_and_it_is_remembered(browser: Browser, server: Server, viewport: ViewportSize) -> None:
    for tab in tab_in(browser, viewport):
        page = tab.page
        query = "&".join(f"hand={h.replace(' ', '+')}" for h in HANDS)
        page.goto(f"{server.url}/check?{query}")
        the_checker_says_it(page, "en")
        switch(page, "ru")
        the_checker_says_it(page, "ru")
        assert "lang=" not in page.url and "hand=" in page.url  # the address: the hands, no language
        page.reload()
        the_checker_says_it(page, "ru")
        expect(page.get_by_role("link", name="Русский", exact=True)).to_have_attribute("aria-current", "true")
        expect(page.get_by_role("link", name="Русский", exact=True)).to_have_attribute("lang", "ru")
        fits(page)
        shot(page, f"checker-ru{suffix(page)}.png")
        # the next page too, and the switch by keyboard back to English
        page.goto(f"{server.url}/strategy/jacks-or-better-9-6")
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        expect(page.locator("#pays-title")).to_have_text(WORDS["ru"]["pays"])
        expect(page.locator("#pays th[scope=row]").first).to_have_text("Роял-флеш")
        expect(page.locator("#returns dt").first).to_have_text("Эта карта (38 строк, из них 6 исключений)")
        expect(page.get_by_role("button", name="Напечатать карту")).to_be_visible()
        fits(page)
        shot(page, f"strategy-ru{suffix(page)}.png")
        page.get_by_role("link", name="English", exact=True).focus()
        page.keyboard.press("Enter")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#pays-title")).to_have_text("Pay table")
        page.goto(f"{server.url}/check?{query}")
        the_checker_says_it(page, "en")


@pytest.mark.slow
def test_the_strategy_pages_in_japanese(browser: Browser, server: Server, viewport: ViewportSize) -> None:
    for tab in tab_in(browser, viewport, locale="ja"):
        page = tab.page
        page.goto(f"{server.url}/strategy")
        expect(page.locator("h1")).to_have_text("ビデオポーカー戦略")
        expect(page.locator("table.games thead th")).to_have_text(["ゲーム", "ルール", "完全なプレイ", "このカード"])
        page.get_by_role("link", name="Jacks or Better 9/6").click()
        expect(page.locator("#pays-title")).to_have_text(WORDS["ja"]["pays"])
        expect(page.locator("#pays caption")).to_have_text("1コインあたり（5コイン賭け）")
        expect(page.locator(".card-sub")).to_contain_text("完全なプレイの還元率")
        fits(page)
        shot(page, f"strategy-ja{suffix(page)}.png")


@pytest.mark.slow
def test_the_offline_screen_counts_down_in_the_page_s_language(browser: Browser, server: Server) -> None:
    for tab in tab_in(browser, PHONE, locale="ru-RU"):
        page = tab.page
        # the screen goes back to the start page once the app answers its
        # probe: the probe unanswered, it stays however slow the machine is
        page.route("**/static/favicon.svg", lambda route: route.abort())
        page.goto(f"{server.url}/offline")
        expect(page.locator("#offline-title")).to_have_text("Приложение не отвечает")
        expect(page.locator("#offline-status")).to_have_text(re.compile(r"^(Пробуем снова…|Новая попытка через \d+ с…)$"))
        expect(page.get_by_role("button", name="Повторить сейчас")).to_be_visible()
        expect(page.locator(".skip-link")).to_have_text("Перейти к содержанию")


@pytest.fixture
def stoppable(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data")
    yield running
    running.stop()


def offline_language(page: Page) -> str:
    return str(
        page.evaluate(
            "caches.keys().then((n) => caches.open(n[0])).then((c) => c.match('/offline'))"
            ".then((r) => r && r.headers.get('content-language'))"
        )
    )


@pytest.mark.slow
def test_after_a_switch_the_service_worker_shows_the_new_language(browser: Browser, stoppable: Server) -> None:
    for tab in tab_in(browser, DESKTOP):
        page, base = tab.page, stoppable.url
        card = f"{base}/strategy/jacks-or-better-9-6"
        page.goto(f"{base}/strategy")  # kept, in English
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        for _ in range(100):  # (it takes over the page it loads in)
            if page.evaluate("navigator.serviceWorker.controller !== null"):
                break
            page.wait_for_timeout(100)
        page.goto(card)  # kept, in English
        expect(page.locator("#pays-title")).to_have_text("Pay table")
        switch(page, "ja")
        page.goto(card)  # the app is up: the page in the new language, not the copy kept
        expect(page.locator("#pays-title")).to_have_text(WORDS["ja"]["pays"])
        for _ in range(100):  # the worker fetches the offline page in the new language meanwhile
            if offline_language(page) == "ja":
                break
            page.wait_for_timeout(100)
        stoppable.stop()
        page.goto(card)  # the copy last seen: in Japanese
        expect(page.locator("#pays-title")).to_have_text(WORDS["ja"]["pays"])
        page.goto(f"{base}/strategy")  # kept in English only: the offline page, in Japanese
        expect(page.locator("#offline-title")).to_have_text("アプリが応答しません")
        assert offline_language(page) == "ja"
