"""The hand checker in a real browser (Debian's chromium through
Playwright, against ``fivecard serve``): one hand typed in the form is the
same page as the same hand alone in the URL (a blank hand is no hand), and
the card grid marks the cards already in the hands, typed or picked, so
that a card cannot be picked more often than one deck holds it (once; a
rank alone four times under semi; the joker twice under joker). Desktop
and phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from browser import PHONE, SHOTS, Server, Tab, browser, open_tab, server
from fivecard import evaluate

DESKTOP: ViewportSize = {"width": 1000, "height": 900}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
ROYAL = "AS KS QS JS TS"


@pytest.fixture(params=list(VIEWPORTS))
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Tab]:
    opened = open_tab(browser, VIEWPORTS[request.param])
    yield opened
    opened.page.context.close()
    assert opened.errors == [], "console errors or CSP violations"


def grid_card(page: Page, name: str) -> Locator:
    """A card of the grid by the start of its name (the name goes on: ", picked")."""
    return page.locator("#card-grid").get_by_role("button", name=re.compile(rf"^{re.escape(name)}(,|$)"))


def rows(page: Page) -> list[str]:
    return [str(t).strip() for t in page.locator(".hand-row").all_inner_texts()]


@pytest.mark.slow
def test_one_typed_hand_is_the_same_as_one_hand_in_the_url(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(f"{server.url}/check")
    page.get_by_label("Hand 1", exact=True).fill(ROYAL)  # hand 2 left empty
    page.get_by_role("button", name="Check").click()
    page.wait_for_url(re.compile(r"/check\?"))
    assert parse_qs(urlsplit(page.url).query, keep_blank_values=True)["hand"] == [ROYAL, ""]  # the form sends the empty box
    expect(page.locator(".hand-error")).to_have_count(0)
    expect(page.locator(".hand-row").nth(0)).to_contain_text(evaluate(ROYAL).description)
    expect(page.get_by_label("Hand 2", exact=True)).to_have_value("")
    expect(page.get_by_label("Hand 2", exact=True)).not_to_have_attribute("aria-invalid", "true")
    typed = rows(page)
    page.goto(f"{server.url}/check?rules=standard&hand={ROYAL.replace(' ', '+')}")
    assert rows(page) == typed
    expect(page.locator("#verdict-title")).to_have_count(0)  # one hand: nothing to compare


@pytest.mark.slow
def test_the_grid_marks_the_cards_already_picked_or_typed(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(f"{server.url}/check?rules=standard")
    ace = grid_card(page, "Ace of spades")
    expect(ace).to_have_attribute("aria-disabled", "false")
    ace.click()
    expect(page.get_by_label("Hand 1", exact=True)).to_have_value("As")
    expect(ace).to_have_attribute("aria-disabled", "true")
    expect(ace).to_have_accessible_name("Ace of spades, picked")
    expect(ace).to_have_class(re.compile(r"\bused-up\b"))
    ace.click(force=True)  # a second time (Playwright itself holds it disabled): nothing
    expect(page.get_by_label("Hand 1", exact=True)).to_have_value("As")

    # by keyboard: the card picked keeps the focus, and Enter on it again does nothing
    king = grid_card(page, "King of spades")
    king.focus()
    page.keyboard.press("Enter")
    expect(king).to_be_focused()
    expect(king).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Hand 1", exact=True)).to_have_value("As Ks")

    # typed in any case, or as a face writes it, in any hand: marked too
    page.get_by_label("Hand 2", exact=True).fill("qh 10♥")
    expect(grid_card(page, "Queen of hearts")).to_have_attribute("aria-disabled", "true")
    expect(grid_card(page, "Ten of hearts")).to_have_attribute("aria-disabled", "true")
    page.get_by_label("Hand 1", exact=True).click()
    page.get_by_role("button", name="Remove the last card").click()
    expect(grid_card(page, "King of spades")).to_have_attribute("aria-disabled", "false")
    expect(grid_card(page, "King of spades")).to_have_accessible_name("King of spades")
    page.get_by_role("button", name="Clear the hand").click()
    expect(ace).to_have_attribute("aria-disabled", "false")
    if page.viewport_size == DESKTOP:
        for card in ("Ace of hearts", "King of hearts", "Jack of hearts"):
            grid_card(page, card).click()
        page.locator("#picker").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "checker-grid.png"), full_page=True)


@pytest.mark.slow
def test_a_card_the_deck_holds_more_than_once_is_marked_as_often(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(f"{server.url}/check?rules=semi")  # ranks alone: four of each
    ace = grid_card(page, "Ace")
    for count in range(1, 5):
        expect(ace).to_have_attribute("aria-disabled", "false")
        ace.click()
        expect(ace).to_have_accessible_name(f"Ace, {count} of 4 picked")
    expect(ace).to_have_attribute("aria-disabled", "true")
    ace.click(force=True)
    expect(page.get_by_label("Hand 1", exact=True)).to_have_value("A A A A")

    page.get_by_label("Rule set").select_option("joker")  # two jokers
    expect(grid_card(page, "Ace of spades")).to_have_attribute("aria-disabled", "false")  # "A" is no card here
    joker = grid_card(page, "Joker")
    page.get_by_label("Hand 1", exact=True).fill("")
    joker.click()
    expect(joker).to_have_accessible_name("Joker, 1 of 2 picked")
    joker.click()
    expect(joker).to_have_attribute("aria-disabled", "true")
    joker.click(force=True)
    expect(page.get_by_label("Hand 1", exact=True)).to_have_value("JK JK")
