"""The friends' table across the local network in a real browser (Debian's
chromium through Playwright): ``fivecard serve --lan`` announcing a network
address (not loopback), the host's page (opened at 127.0.0.1) sharing the
link and QR code at it, friends joining from browser contexts of their own
(one a phone) through that link, a round with the draw step (cards chosen,
drawn once, the new ones marked), the host's start button while a round is
in play, a removal announced as the host's, a tied table's end naming no
leader; and, served without --lan, the page saying what friends elsewhere
need. Screenshots friends-share-qr.png and friends-draw.png go to
$FIVECARD_SCREENSHOTS (default: a temporary folder)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import DESKTOP, PHONE, SHOTS, Server, Tab, browser, open_tab

expect.set_options(timeout=10_000)


# An address of the documentation range (TEST-NET-1), announced as this
# computer's: the server listens on 127.0.0.1 alone, and the friends'
# browsers reach it through a proxy at 127.0.0.1, believing they talk to
# the LAN address (their requests carry it as Host and Origin, as a
# friend's phone's would).
LAN = "192.0.2.10"


class LanServer(Server):
    """``fivecard serve --lan`` announcing ``LAN`` as the address friends
    type: ``url`` is that address, ``local`` the host's own."""

    def __init__(self, data: Path) -> None:
        super().__init__(data, options=("--lan", "--lan-address", LAN))
        self.local = self.url
        assert self.process.stdout is not None
        # the lines after the first are printed with it, at once
        text = ""
        for _ in range(3):
            text = self.process.stdout.readline()
            if "friends type" in text:
                break
        found = re.search(r"friends type (http://[^/\s]+:(\d+))/", text)
        if not found:
            self.kill()
            pytest.fail(f"fivecard serve --lan does not say what friends type: {text!r}")
        self.url = found.group(1)
        assert int(found.group(2)) == self.port

    def friend(self, browser: Browser, viewport: ViewportSize | None = None) -> Tab:
        """A friend's browser elsewhere on the network."""
        return open_tab(browser, viewport or DESKTOP, proxy=self.local)


@pytest.fixture
def lan(tmp_path: Path) -> Iterator[LanServer]:
    server = LanServer(tmp_path / "data")
    yield server
    server.stop()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def open_table(page: Page, base: str, **fields: str) -> str:
    page.goto(f"{base}/tables")
    for name, value in fields.items():
        page.locator(f"#{name}").fill(value)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/[^/?]+$"))
    return page.url.rsplit("/", 1)[1]


def take_seat(page: Page, link: str, name: str) -> None:
    page.goto(link)
    expect(page.locator("#connection")).to_have_text("live")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#seats li.me")).to_contain_text(f"{name} you")


@pytest.mark.slow
def test_friends_join_through_the_lan_address_and_draw(browser: Browser, lan: LanServer) -> None:
    host, ann, bob = open_tab(browser), lan.friend(browser, PHONE), lan.friend(browser)
    tabs = (host, ann, bob)
    try:
        page = host.page  # the host opened the app on its own computer
        table_id = open_table(page, lan.local, draw="2")
        link = page.locator("#share-link").input_value()
        assert link == f"{lan.url}/tables/{table_id}"
        assert not ipaddress.ip_address(urlsplit(link).hostname or "").is_loopback
        qr = page.locator("#share-qr")
        expect(qr).to_be_visible()
        assert qr.evaluate("img => img.complete && img.naturalWidth > 0")  # the app drew it
        expect(page.locator("#lan-hint")).to_have_count(0)
        expect(page.locator("#talk")).to_contain_text("each player may exchange up to 2 cards once")
        shot(page, "friends-share-qr.png")

        # friends open the shared link in browsers of their own (Ann on a phone)
        take_seat(ann.page, link, "Ann")
        take_seat(bob.page, link, "Bob")

        # the host starts round 1: the button now says the round is in play
        page.get_by_role("button", name="Start round 1").click()
        in_play = page.locator("#btn-start")
        expect(in_play).to_have_text("Round 1 in play")
        expect(in_play).to_be_disabled()
        expect(page.get_by_role("button", name="Start round 2")).to_have_count(0)

        # Ann deals, then chooses two cards to exchange
        ann.page.get_by_role("button", name="Deal my hand").click()
        cards = ann.page.locator("#my-cards button.card")
        expect(cards).to_have_count(5)
        dealt = cards.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        expect(ann.page.locator("#draw-button")).to_have_text("Keep all five")
        expect(ann.page.locator("#status")).to_have_text("Round 1: choose the cards to exchange, then draw.")
        for tab in (host, bob):
            expect(tab.page.locator('#seats li[data-seat="1"] .badge.waiting')).to_have_text("to draw")
        cards.nth(0).click()
        ann.page.keyboard.press("2")  # keys 1-5 choose too
        expect(ann.page.locator("#draw-button")).to_have_text("Draw 2 cards")
        cards.nth(4).click()  # a third: more than the table's draw
        expect(ann.page.locator("#draw-button")).to_be_disabled()
        expect(ann.page.locator("#draw-help-line")).to_contain_text("at most 2 cards: keep 3 or more")
        cards.nth(4).click()
        expect(ann.page.locator("#draw-button")).to_be_enabled()
        expect(cards.nth(0)).to_have_attribute("aria-pressed", "false")
        expect(cards.nth(2)).to_have_attribute("aria-pressed", "true")
        shot(ann.page, "friends-draw.png")
        ann.page.locator("#draw-button").click()
        expect(ann.page.locator("#draw-step")).to_be_hidden()
        drawn = ann.page.locator("#my-cards .card.drawn-card")
        expect(drawn).to_have_count(2)
        after = ann.page.locator("#my-cards .card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        assert after[2:] == dealt[2:] and all(label.endswith("(drawn)") for label in after[:2])
        for tab in (host, bob):
            expect(tab.page.locator("#talk .talk-event").last).to_have_text("Ann exchanges 2 cards")
            expect(tab.page.locator('#seats li[data-seat="1"] .badge.dealt')).to_have_text("drawn ✓")
        expect(page.locator("#status")).to_have_text("Round 1: waiting for Bob to deal.")

        # Bob deals and keeps all five: the round closes
        bob.page.get_by_role("button", name="Deal my hand").click()
        bob.page.get_by_role("button", name="Keep all five").click()
        for tab in tabs:
            expect(tab.page.locator("#result-title")).to_have_text("Round 1: the hands")
            expect(tab.page.locator('#result-hands li[data-seat="1"] .badge.drew')).to_have_text("drew 2")
            expect(tab.page.locator('#result-hands li[data-seat="2"] .badge.drew')).to_have_text("stood pat")
        expect(page.get_by_role("button", name="Start round 2")).to_be_enabled()

        # the host removes Bob: one tap only asks (a phone's stray tap removes
        # nobody), "Keep Bob" goes back; then every browser reads it as the host's doing
        talk = len(page.locator("#talk .talk-event").all())
        page.get_by_role("button", name="Remove Bob").click()
        ask = page.locator('#seats li[data-seat="2"] .remove-confirm')
        expect(ask).to_contain_text("Remove Bob from the table?")
        expect(page.get_by_role("button", name="Yes, remove Bob")).to_be_focused()
        color = ask.locator("p").evaluate("e => getComputedStyle(e).color")
        assert color == "rgb(17, 24, 39)", color  # dark on the light box, not the felt's white
        page.get_by_role("button", name="Keep Bob").click()
        expect(ask).to_have_count(0)
        expect(page.get_by_role("button", name="Remove Bob")).to_be_focused()
        page.keyboard.press("Enter")  # by keys: Enter asks, Enter again says yes
        expect(page.get_by_role("button", name="Yes, remove Bob")).to_be_focused()
        assert len(page.locator("#talk .talk-event").all()) == talk  # nothing happened yet
        expect(bob.page.locator("#seats li.me")).to_contain_text("Bob")
        page.keyboard.press("Enter")
        for tab in tabs:
            expect(tab.page.locator("#talk .talk-event").last).to_have_text("The host removed Bob from the table")
        expect(page.locator("#standings")).to_contain_text("Bob (removed by the host)")
        for tab in tabs:
            assert tab.errors == [], "console errors or CSP violations"
    finally:
        for tab in tabs:
            tab.page.context.close()


@pytest.mark.slow
def test_a_tied_tables_end_names_no_leader(browser: Browser, lan: LanServer) -> None:
    host, ann, bob = open_tab(browser), lan.friend(browser), lan.friend(browser, PHONE)
    tabs = (host, ann, bob)
    try:
        page = host.page
        table_id = open_table(page, lan.local, points="0")
        link = f"{lan.url}/tables/{table_id}"
        take_seat(ann.page, link, "Ann")
        take_seat(bob.page, link, "Bob")
        page.get_by_role("button", name="Start round 1").click()
        ann.page.get_by_role("button", name="Deal my hand").click()
        bob.page.get_by_role("button", name="Deal my hand").click()
        expect(page.locator("#result-title")).to_have_text("Round 1: the hands")
        page.get_by_role("button", name="End the table").click()
        page.get_by_role("button", name="Yes, end the table").click()
        for tab in tabs:
            text = tab.page.locator("#ended-text")
            expect(text).to_have_text("1 round played; a tie between Ann and Bob, 0 points each.")
            expect(text).not_to_contain_text("leads")
        for tab in tabs:
            assert tab.errors == [], "console errors or CSP violations"
    finally:
        for tab in tabs:
            tab.page.context.close()


@pytest.mark.slow
def test_without_lan_the_page_says_friends_elsewhere_need_it(browser: Browser, tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    host = open_tab(browser)
    try:
        table_id = open_table(host.page, server.url)
        expect(host.page.locator("#share-link")).to_have_value(f"{server.url}/tables/{table_id}")
        expect(host.page.locator("#lan-hint")).to_contain_text("fivecard serve --lan")
        expect(host.page.locator("#share-qr")).to_have_count(0)
        assert host.errors == []
    finally:
        host.page.context.close()
        server.stop()
