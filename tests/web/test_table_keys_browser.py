"""The dealer page's keys, focus and marks in a real browser (Debian's
chromium through Playwright, against ``fivecard serve``): keys that cannot
throw a hand away (Enter exchanges all five only at a second press; N only
where a round or a game can be dealt), the hint scrolled into view, focused
and announced, "Select these cards" then Enter exchanging; and what changed,
shown: the new cards marked, your folded hand face up, the showdown laid out
in showdown order, a joker saying what it became, and percentages by the
app's one rule (common.js against fivecard.play.percent).

Games are seeded, so the library's own engine (same seed, same actions)
says what the page must show. Desktop and phone where the page differs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from helpers import PERCENT_TABLE, engine_round
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import PHONE, SHOTS, Server, Tab, browser, labels, my_cards, new_game, open_tab, pressed, server
from fivecard.play.game import Game, keep_positions
from fivecard.play.percent import percent
from fivecard.play.view import card_json, event_json, showdown_cards_json

DESKTOP: ViewportSize = {"width": 1280, "height": 900}  # where the hint opened below the fold
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}

expect.set_options(timeout=20_000)  # the computers ask the advisor: a second or two on a busy machine

#: A Joker Poker game whose first hand holds a joker (Q♣ 10♦ Q♥ JK 2♥).
JOKER_SEED = 5


@pytest.fixture(params=list(VIEWPORTS))
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Tab]:
    opened = open_tab(browser, VIEWPORTS[request.param])
    yield opened
    opened.page.context.close()
    assert opened.errors == [], "console errors or CSP violations"


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Tab]:
    opened = open_tab(browser, DESKTOP)
    yield opened
    opened.page.context.close()
    assert opened.errors == [], "console errors or CSP violations"


# --- helpers ------------------------------------------------------------------------------


def focused(page: Page) -> str:
    """The focused element: its id, or its tag and text."""
    return str(page.evaluate("(() => { const e = document.activeElement; return e.id || `${e.tagName}:${e.textContent.trim()}`; })()"))


def blur(page: Page) -> None:
    page.evaluate("document.activeElement && document.activeElement.blur()")


def events(page: Page) -> list[str]:
    return [str(t) for t in page.locator("#events li").all_text_contents()]


def dealt(rules: str, seed: int) -> Game:
    game = Game(rules=rules, seed=seed)
    game.start_round()
    return game


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=full_page)


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


# --- keys that cannot throw a hand away ---------------------------------------------------


@pytest.mark.slow
def test_enter_right_after_the_deal_exchanges_all_five_only_at_a_second_press(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=5)
    exchange = page.locator("#btn-exchange")
    expect(exchange).to_contain_text("Exchange all 5")
    expect(exchange.locator("kbd")).to_have_text("Enter ×2")
    expect(exchange).to_have_attribute("aria-keyshortcuts", "Enter")
    note = page.locator("#key-note")
    expect(note).to_have_attribute("aria-live", "polite")
    blur(page)
    page.keyboard.press("Enter")  # a stray Enter: nothing is thrown away
    expect(note).to_have_text("Press Enter again to exchange all five cards, or 1–5 to keep some.")
    expect(exchange).to_have_class(re.compile(r"\bconfirming\b"))
    assert len(events(page)) == 1 and pressed(page) == []
    page.keyboard.press("Shift")  # any other key: no longer waiting for the second Enter
    expect(note).to_have_text("")
    page.keyboard.press("Enter")
    expect(note).not_to_have_text("")
    page.keyboard.press("Enter")  # the second press: all five exchanged
    expect(page.locator("#events")).to_contain_text("You exchange 5 cards")
    _, settled = engine_round("standard", 5, [])
    expect(page.locator("#result")).to_contain_text(settled.pot_explanation)


@pytest.mark.slow
def test_enter_with_cards_kept_exchanges_the_rest_at_once(desktop: Tab, server: Server) -> None:
    page = desktop.page
    new_game(page, server.url, seed=5)
    blur(page)
    page.keyboard.press("1")
    expect(page.locator("#btn-exchange")).to_contain_text("Exchange 4 cards")
    expect(page.locator("#btn-exchange kbd")).to_have_text("Enter")
    page.keyboard.press("Enter")
    expect(page.locator("#events")).to_contain_text("You exchange 4 cards")
    expect(page.locator("#result-title")).to_have_text("Round 1: showdown")


@pytest.mark.slow
def test_n_deals_only_where_a_round_or_a_game_can_be_dealt(desktop: Tab, server: Server) -> None:
    page = desktop.page
    game_id = new_game(page, server.url, seed=3, rules="semi", stack=20)  # one round: game over after it
    blur(page)
    page.keyboard.press("n")  # mid-round: nothing dealt, nothing refused, a word of when
    expect(page.locator("#key-note")).to_have_text("N deals the next round once round 1 is over.")
    expect(page.locator("#alert")).to_be_hidden()
    assert len(events(page)) == 1
    page.keyboard.press("f")
    expect(page.locator("#game-over")).to_be_visible()
    again = page.get_by_role("button", name=re.compile("Play again, same rules"))
    expect(again).to_have_attribute("aria-keyshortcuts", "N")
    expect(page.locator("#key-note")).to_have_text("")
    page.keyboard.press("n")  # game over: a new game of the same rules, dealt
    page.wait_for_url(lambda url: "/play/" in url and game_id not in url)
    expect(my_cards(page)).to_have_count(5)
    expect(page.locator("#seat-0 button.card.rank-only")).to_have_count(5)  # semi again
    expect(page.locator("#alert")).to_be_hidden()
    expect(page.locator("#table-info")).to_contain_text("round 1")
    page.keyboard.press("f")
    expect(page.locator("#btn-next")).to_be_visible()
    page.keyboard.press("n")  # between rounds: the next round
    expect(page.locator("#events")).to_contain_text("Round 2:")


@pytest.mark.slow
def test_keys_do_nothing_out_of_your_turn(desktop: Tab, server: Server) -> None:
    page = desktop.page
    new_game(page, server.url, seed=5)
    page.get_by_role("button", name="Keep all").click()
    expect(page.locator("#btn-next")).to_be_visible()
    before = events(page)
    for key in ("Enter", "f", "h", "1"):
        page.keyboard.press(key)
    expect(page.locator("#alert")).to_be_hidden()
    expect(page.locator("#hint")).to_be_hidden()
    assert events(page) == before


# --- the hint -----------------------------------------------------------------------------


@pytest.mark.slow
def test_the_hint_is_focused_announced_and_select_then_enter_exchanges(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=21)
    game = dealt("standard", 21)
    advice = game.hint(0)
    hand = game.hand(0)
    assert hand is not None
    best = advice.recommended
    positions = keep_positions(hand.cards, best.keep)
    blur(page)
    page.keyboard.press("h")
    expect(page.locator("#hint")).to_be_visible()
    expect(page.locator("#hint-title")).to_be_focused()
    assert in_view(page, "#hint-title"), "the hint's title is scrolled into view"
    reason = page.locator("#hint-reason")
    expect(reason).to_have_attribute("aria-live", "polite")
    expect(reason).to_have_text(advice.reason)
    expect(page.locator("#hint .choice.best")).to_contain_text(f"win {percent(best.win)}")
    page.keyboard.press("Tab")  # one Tab: the advised choice
    expect(page.locator("#hint .choice.best button")).to_be_focused()
    expect(page.locator("#hint .choice.best button")).to_have_text("Select these cards")
    page.keyboard.press("Enter")
    assert pressed(page) == positions
    expect(page.locator("#btn-exchange")).to_be_focused()  # the next Enter exchanges
    page.keyboard.press("Enter")
    count = 5 - len(positions)
    expect(page.locator("#events")).to_contain_text(f"You exchange {count} card")
    _, settled = engine_round("standard", 21, positions)
    expect(page.locator("#result")).to_contain_text(settled.pot_explanation)


# --- what changed, shown ------------------------------------------------------------------


@pytest.mark.slow
def test_the_new_cards_are_marked_after_the_exchange_and_at_the_showdown(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=5)
    _, settled = engine_round("standard", 5, [0, 2])
    drawn = dealt("standard", 5).exchange(0, [0, 2]).drawn
    my_cards(page).nth(0).click()
    my_cards(page).nth(2).click()
    page.locator("#btn-exchange").click()
    expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
    seat = page.locator("#seat-0")
    expect(seat.locator(".mark.new")).to_have_count(3)
    expect(seat.locator(".mark.new").first).to_have_text("new")
    new = [label.removesuffix(", new") for label in labels(page, "#seat-0 .card") if label.endswith(", new")]
    assert sorted(new) == sorted(card_json(c)["label"] for c in drawn)
    mine = settled.results[0].evaluation
    assert mine is not None  # laid out in showdown order, the new ones among them
    assert [label.removesuffix(", new") for label in labels(page, "#seat-0 .card")] == [
        card_json(c)["label"] for c in mine.showdown
    ]
    if page.viewport_size == DESKTOP:
        page.locator("#seat-0").scroll_into_view_if_needed()
        shot(page, "table-exchange-new-cards.png")


@pytest.mark.slow
def test_your_folded_hand_stays_face_up_at_the_showdown(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=5)
    hand = dealt("standard", 5).hand(0)
    assert hand is not None
    page.get_by_role("button", name="Fold").click()
    expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
    seat = page.locator("#seat-0")
    expect(seat.locator(".badge.fold")).to_have_text("folded")
    expect(seat.locator(".card.back")).to_have_count(0)
    assert labels(page, "#seat-0 .card") == [card_json(c)["label"] for c in hand.cards]
    expect(seat.locator(".cards")).to_have_attribute("aria-label", "Your cards, folded")
    expect(seat).to_contain_text("You folded")


@pytest.mark.slow
def test_the_showdown_lays_every_hand_out_in_showdown_order(desktop: Tab, server: Server) -> None:
    page = desktop.page
    new_game(page, server.url, seed=5)
    page.get_by_role("button", name="Keep all").click()
    game, settled = engine_round("standard", 5, [0, 1, 2, 3, 4])
    expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
    data = event_json(game, settled)
    differs = False
    for result in settled.results:
        assert result.evaluation is not None
        order = [card_json(c)["label"] for c in result.evaluation.showdown]
        assert labels(page, f"#seat-{result.seat} .card") == order
        differs |= order != [card_json(c)["label"] for c in result.evaluation.hand.cards]
    assert differs, "a seed whose hands were dealt out of showdown order"
    assert labels(page, "#dealer-cards .card") == [c["label"] for c in data["dealer_cards"]]
    assert labels(page, "#result .result-hand.dealer .card") == [c["label"] for c in data["dealer_cards"]]


@pytest.mark.slow
def test_a_joker_says_what_it_became(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=JOKER_SEED, rules="joker")
    hand = dealt("joker", JOKER_SEED).hand(0)
    assert hand is not None and any(c.is_joker for c in hand.cards)
    page.get_by_role("button", name="Keep all").click()
    _, settled = engine_round("joker", JOKER_SEED, [0, 1, 2, 3, 4])
    expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
    mine = settled.results[0].evaluation
    assert mine is not None
    shown = showdown_cards_json(mine)
    joker = next(c for c in shown if "as" in c)
    became = joker["as"]
    seat = page.locator("#seat-0")
    expect(seat.locator(".mark.as")).to_have_text(f"★ as {became['text']}")
    assert labels(page, "#seat-0 .card") == [c["label"] + (f", as {c['as']['label']}" if "as" in c else "") for c in shown]
    assert f"Joker, as {became['label']}" in labels(page, "#result .card")  # in the showdown's panel too
    if page.viewport_size == DESKTOP:
        page.locator("#seat-0").scroll_into_view_if_needed()
        shot(page, "table-joker.png")


# --- one rule of percentages --------------------------------------------------------------


@pytest.mark.slow
def test_the_pages_percent_is_the_servers(desktop: Tab, server: Server) -> None:
    page = desktop.page
    page.goto(f"{server.url}/check")  # any page: common.js
    values = [[value, digits] for value, digits, _ in PERCENT_TABLE]
    shown = page.evaluate("(values) => values.map(([v, d]) => window.fivecard.percent(v, d))", values)
    assert shown == [text for _, _, text in PERCENT_TABLE]
    assert shown == [percent(value, digits) for value, digits, _ in PERCENT_TABLE]
