"""The strategy pages in a real browser (Debian's chromium driven by
Playwright against ``fivecard serve``): the list of games followed to a
card by mouse and by keyboard, the chart's lines rendered, the card at
phone width, and printed: no navigation, black on white, one or two pages
for every game. Screenshots (desktop, phone, print) go to a temporary
folder, or to FIVECARD_SCREENSHOTS (docs/screenshots, the manual's)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import DESKTOP, PHONE, SHOTS, Server, Tab, browser, open_tab, server, tab_of
from fivecard.play.chart import shipped_chart
from fivecard.play.paytables import PAYTABLES, catalogue


@pytest.fixture
def tab(browser: Browser) -> Iterator[Tab]:
    yield from tab_of(browser, DESKTOP)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Tab]:
    yield from tab_of(browser, PHONE)


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=full_page)


def check_card(page: Page, name: str) -> None:
    """The card on the page is the shipped chart's: title, every line in order, the returns."""
    chart = shipped_chart(name)
    expect(page.locator("h1")).to_have_text(chart.paytable.title)
    lines = page.locator("#chart-lines > li .hold")
    expect(lines).to_have_count(len(chart.lines))
    assert lines.all_inner_texts() == [line.describe(chart.paytable) for line in chart.lines]
    for line in page.locator("#chart-lines > li").all()[:3]:
        expect(line).to_be_visible()
    expect(page.locator("#returns")).to_contain_text(f"{float(chart.chart_return * 100):.4f}%")
    expect(page.locator("#returns")).to_contain_text(f"{float(chart.optimum * 100):.4f}%")
    expect(page.locator("#pays tbody tr")).to_have_count(len(chart.paytable.entries))


@pytest.mark.slow
def test_the_list_leads_to_a_card_by_mouse(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(f"{server.url}/")
    page.get_by_role("link", name="Video poker strategy").click()
    page.wait_for_url(f"{server.url}/strategy")
    rows = page.locator("table.games tbody tr")
    expect(rows).to_have_count(len(PAYTABLES))
    assert rows.locator("th a").all_inner_texts() == [t.title for t in catalogue()]
    shot(page, "strategy-card-list.png")
    page.get_by_role("link", name="Jacks or Better 9/6", exact=True).click()
    page.wait_for_url(f"{server.url}/strategy/jacks-or-better-9-6")
    check_card(page, "jacks-or-better-9-6")
    expect(page.get_by_role("button", name="Print the card")).to_be_visible()  # its script ran
    shot(page, "strategy-card-desktop.png")
    page.get_by_role("link", name="All games").click()
    page.wait_for_url(f"{server.url}/strategy")


@pytest.mark.slow
def test_the_list_leads_to_a_card_by_keyboard(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(f"{server.url}/strategy")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('table.games a')"):
            break
    else:
        pytest.fail("Tab never reached a game")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), "a focused link shows no outline"
    first = catalogue()[0]
    assert page.evaluate("document.activeElement.textContent") == first.title
    page.keyboard.press("Enter")
    page.wait_for_url(f"{server.url}/strategy/{first.name}")
    check_card(page, first.name)
    reached = set()
    for _ in range(15):  # past the skip link, the navigation and the language switch: the card's own controls
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.textContent.trim()"))
    assert {"All games", "Print the card", "JSON"} <= reached


@pytest.mark.slow
def test_a_card_at_phone_width(phone: Tab, server: Server) -> None:
    page = phone.page
    page.goto(f"{server.url}/strategy")
    expect(page.locator("table.games tbody tr")).to_have_count(len(PAYTABLES))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the page scrolls down only
    page.goto(f"{server.url}/strategy/deuces-wild-full-pay")
    check_card(page, "deuces-wild-full-pay")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "strategy-card-phone.png")


@pytest.mark.slow
def test_a_printed_card_is_the_card_alone_black_on_white_on_one_or_two_pages(tab: Tab, server: Server) -> None:
    page = tab.page
    page.emulate_media(media="print")
    for table in catalogue():
        page.goto(f"{server.url}/strategy/{table.name}")
        check_card(page, table.name)
        for hidden in (".site-header", ".site-footer", ".card-tools"):
            expect(page.locator(hidden)).to_be_hidden()
        colours = page.evaluate(
            """() => [...document.querySelectorAll('body, .strategy-card, #chart-lines li, #pays th, #returns dd')]
                 .map(e => { const s = getComputedStyle(e); return [s.color, s.backgroundColor]; })"""
        )
        for colour, background in colours:
            assert colour == "rgb(0, 0, 0)" and background in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), table.name
        for paper in ("Letter", "A4"):
            pdf = page.pdf(format=paper, print_background=False)
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert 1 <= pages <= 2, f"{table.name} prints on {pages} {paper} pages"
        if table.name == "jacks-or-better-9-6":
            shot(page, "strategy-card-print.png", full_page=True)
