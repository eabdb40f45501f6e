"""The friends' table in two languages at once, in a real browser (Debian's
chromium through Playwright): a host whose browser asks for Japanese (on a
desktop) and a friend whose browser asks for Russian (on a phone) play a
round with a draw at one table; each page, and the same events of the
table, speak each browser's language, the names as typed. Screenshots
friends-ja.png and friends-ru-phone.png go to $FIVECARD_SCREENSHOTS
(default: a temporary folder)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import CSP_WATCH, DESKTOP, PHONE, SHOTS, Server, Tab, browser  # noqa: F401 (a fixture)
from fivecard.play.friends import FriendsTable, public_event

expect.set_options(timeout=10_000)

SEED = 11


def _tab(browser: Browser, viewport: ViewportSize, locale: str) -> Tab:
    """A browser context of its own (cookies, language: its Accept-Language
    and navigator.language), watched for errors."""
    context = browser.new_context(viewport=viewport, locale=locale)
    context.add_init_script(CSP_WATCH)
    tab = Tab(context.new_page())
    tab.page.on("console", tab.watch)
    tab.page.on("pageerror", lambda error: tab.errors.append(f"uncaught: {error}"))
    return tab


def _round_as_the_library_says() -> dict[str, Any]:
    """The round the pages play, as the table keeps it: same seed, same
    order of dealing, the same draw."""
    table = FriendsTable(seed=SEED, draw=1, host="h")
    table.join("h", "山田")
    table.join("f", "Борис")
    table.start_round("h")
    table.deal("h")
    table.deal("f")
    table.draw("h", [0, 1, 2, 3, 4])
    closed: dict[str, Any] = table.draw("f", [1, 2, 3, 4])[1][-1]
    return closed


def _no_english(page: Page, selector: str, lang: str) -> None:
    """What the table says there has no English word: Latin letters only in
    the rank letters Japanese writes (A, K, Q, J)."""
    text = " ".join(page.locator(selector).all_inner_texts())
    runs = set(re.findall(r"[A-Za-z]+", text))
    assert runs <= ({"A", "K", "Q", "J"} if lang == "ja" else set()), (selector, lang, runs, text)


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


@pytest.mark.slow
def test_a_japanese_host_and_a_russian_friend_play_a_round(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    server = Server(tmp_path / "data")
    host, friend = _tab(browser, DESKTOP, "ja-JP"), _tab(browser, PHONE, "ru-RU")
    try:
        page, phone = host.page, friend.page
        page.goto(f"{server.url}/tables?seed={SEED}")
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        expect(page.locator("#host-title")).to_have_text("友だちと遊ぶテーブル")
        page.locator("#draw").fill("1")
        page.get_by_role("button", name="テーブルを開く").click()
        page.wait_for_url(re.compile(r"/tables/[^/?]+$"))
        link = page.url
        expect(page.locator("#connection")).to_have_text("接続済み")
        expect(page.locator("#talk")).to_contain_text("標準のテーブル：最も強いハンドに25ポイント")
        page.get_by_label("あなたの名前").fill("山田")
        page.get_by_role("button", name="着席する").click()
        expect(page.locator("#seats li.me")).to_contain_text("山田 あなた")

        phone.goto(link)
        expect(phone.locator("html")).to_have_attribute("lang", "ru")
        expect(phone.locator("#connection")).to_have_text("на связи")
        phone.get_by_label("Ваше имя").fill("Борис")
        phone.get_by_role("button", name="Сесть за стол").click()
        expect(phone.locator("#seats li.me")).to_contain_text("Борис вы")
        # each reads the other's arrival in their own language, the name as typed
        expect(page.locator("#talk")).to_contain_text("Борисが着席しました")
        expect(phone.locator("#talk")).to_contain_text("山田 садится за стол")

        page.get_by_role("button", name="第1ラウンドを開始").click()
        expect(phone.locator("#status")).to_have_text("Раунд 1: сдайте себе карты.")
        page.locator("#deal").click()
        phone.locator("#deal").click()
        expect(page.locator("#draw-button")).to_have_text("5枚すべて残す")
        page.locator("#draw-button").click()
        phone.locator("#card-0").click()  # exchanged
        expect(phone.locator("#draw-button")).to_have_text("Обменять 1 карту")
        phone.locator("#draw-button").click()

        closed = _round_as_the_library_says()
        said = {"ja": public_event(closed, "ja"), "ru": public_event(closed, "ru")}
        for tab_page, lang, title in ((page, "ja", "第1ラウンド：各ハンド"), (phone, "ru", "Раунд 1: руки")):
            expect(tab_page.locator("#result-title")).to_have_text(title)
            expect(tab_page.locator("#result-text")).to_have_text(str(said[lang]["text"]))
            expect(tab_page.locator('#round-log li[value="1"]')).to_have_text(str(said[lang]["text"]))
            for hand in said[lang]["hands"]:
                row = tab_page.locator(f'#result-hands li[data-seat="{hand["seat"]}"]')
                expect(row.locator(".desc")).to_have_text(hand["description"])
            for selector in ("#result-text", "#result-title", "#talk", "#status", "#result-hands .desc"):
                _no_english(tab_page, selector, lang)
        expect(page.locator("#talk")).to_contain_text("Борисが1枚を交換しました")
        expect(phone.locator("#talk")).to_contain_text("山田 оставляет все пять карт")
        _shot(page, "friends-ja.png")
        _shot(phone, "friends-ru-phone.png")
        assert host.errors == [] and friend.errors == [], "console errors or CSP violations"
    finally:
        for tab in (host, friend):
            tab.page.context.close()
        server.stop()
