"""Every page recovers by itself when ``fivecard serve`` stops and starts
again, and the app is installable: played in Debian's chromium.

The server is stopped (or killed) in each phase of a dealer round (your
turn, the computers deciding, the dealer's cards turning up, the
showdown, game over), on the video-poker machine mid-hand, on the hand
checker and on a friends' table; a new server starts on the same data
folder and port. The page shows the offline banner meanwhile, and, without
a reload, ends in the state the server has. An action whose answer was
lost after the server applied it is not sent again; one the server never
got is done again by the player. Then the manifest and the service
worker: a reload with the server stopped shows the offline screen, which
goes back to the page once the server answers.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, Route, ViewportSize, expect

from browser import CSP_WATCH, DESKTOP, PHONE, SHOTS, Server, Tab, browser, card_names, labels, open_tab

# A round's requests (the computers ask the advisor) take a second or two on
# a busy machine; a server takes a few to start: wait up to 30 s.
expect.set_options(timeout=30_000)

OFFLINE = "The app does not answer"


class Restarts:
    """A server on a data folder of its own, stopped and started again on
    the same port (same address: same cookies, same storage)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.server = Server(data)
        self.url = self.server.url

    def start_again(self) -> None:
        self.server.stop()
        self.server = Server(self.data, port=self.server.port)

    def close(self) -> None:
        self.server.stop()


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Restarts]:
    made = Restarts(tmp_path / "data")
    yield made
    made.close()


def opened(browser: Browser, *, workers: bool = True, viewport: ViewportSize = DESKTOP) -> Tab:
    """A tab; ``workers`` False: no service worker (as on a home network's
    plain-http address, where browsers do not run one)."""
    if workers:
        return open_tab(browser, viewport)
    context = browser.new_context(viewport=viewport, service_workers="block")
    context.add_init_script(CSP_WATCH)
    tab = Tab(context.new_page())
    tab.page.on("console", tab.watch)
    tab.page.on("pageerror", lambda error: tab.errors.append(f"uncaught: {error}"))
    return tab


def closed(tab: Tab) -> None:
    """Close the tab: no console errors or CSP violations but the browser's
    own lines about the refused connections while the server was away."""
    tab.page.context.close()
    assert [e for e in tab.errors if "net::ERR_" not in e] == [], "console errors or CSP violations"


def mark(page: Page) -> None:
    """A mark on the page's window: still there, the page was not loaded anew."""
    page.evaluate("window.notReloaded = true")


def not_reloaded(page: Page) -> bool:
    return bool(page.evaluate("window.notReloaded === true"))


def offline_banner(page: Page) -> None:
    banner = page.locator("#offline")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(OFFLINE)
    expect(banner).to_contain_text("fivecard serve")
    expect(page.locator("#offline-status")).to_have_text(re.compile(r"Trying again( in \d+ s)?…"))
    expect(page.get_by_role("button", name="Retry now")).to_be_visible()
    expect(page.locator("main")).to_have_attribute("inert", "")


def back_online(page: Page) -> None:
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("main")).not_to_have_attribute("inert", "")
    expect(page.locator("#alert")).to_be_hidden()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


# --- the dealer game ------------------------------------------------------------------------


def new_game(page: Page, base: str, *, seed: int, stack: int = 1000) -> str:
    """A game made and its first round dealt through the API (the browser's cookie)."""
    made = page.request.post(f"{base}/api/games", data={"seed": seed, "stack": stack})
    assert made.status == 201, made.text()
    game_id = str(made.json()["id"])
    assert page.request.post(f"{base}/api/games/{game_id}/actions", data={"action": "start"}).ok
    return game_id


def server_view(page: Page, base: str, game_id: str) -> dict[str, Any]:
    answer = page.request.get(f"{base}/api/games/{game_id}")
    assert answer.ok, answer.text()
    return dict(answer.json())


def actions_sent(page: Page) -> list[str]:
    """The dealer game's actions the page sends, in order."""
    sent: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/actions"):
            sent.append(str(json.loads(request.post_data or "{}").get("action")))

    page.on("request", seen)
    return sent


def shows_the_servers_table(page: Page, base: str, game_id: str) -> dict[str, Any]:
    """The page, settled, shows what the server has: the round, the history,
    your stack and your cards, the result; its buttons work."""
    view = server_view(page, base, game_id)
    assert view["phase"] == "idle", view["phase"]  # the page finished the round
    expect(page.locator("#history li")).to_have_count(len(view["history"]))
    expect(page.locator("#seat-0 .stack strong")).to_have_text(f"{view['seats'][0]['stack']:,}")
    settled = view["events"][-1]
    assert settled["type"] == "round_settled"
    expect(page.locator("#result-title")).to_have_text(f"Round {settled['round']}: showdown")
    mine = next(r for r in settled["results"] if r["seat"] == 0)
    if mine["cards"]:
        assert card_names(page, "#seat-0 .card") == [c["label"] for c in mine["cards"]]
    assert card_names(page, "#dealer-cards .card") == [c["label"] for c in settled["dealer_cards"]]
    if view["game_over"]:
        expect(page.locator("#game-over")).to_be_visible()
    else:
        expect(page.locator("#btn-next")).to_be_enabled()
    return view


def lose_after(server: Restarts, action: str, *, applied: bool) -> Callable[[Route], None]:
    """A route for the game's actions: the first ``action`` stops the server
    (``applied``: after the server has taken it, its answer lost on the way
    back; else before it arrives); the others go through."""
    done: list[bool] = []

    def handle(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        if done or body.get("action") != action:
            route.continue_()
            return
        done.append(True)
        if applied:
            route.fetch()  # the server takes it ...
            server.server.kill()
            route.abort("connectionreset")  # ... and its answer never arrives
        else:
            server.server.kill()
            route.abort("connectionrefused")

    return handle


@pytest.mark.slow
def test_the_dealer_page_recovers_on_your_turn_and_you_act_again(browser: Browser, running: Restarts) -> None:
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        game_id = new_game(page, base, seed=8)
        page.goto(f"{base}/play/{game_id}?fast=1")
        expect(page.locator("#seat-0 button.card")).to_have_count(5)
        mark(page)
        sent = actions_sent(page)
        dealt = labels(page, "#seat-0 button.card")
        # the exchange never reaches the server: the server stops as it is sent
        page.route("**/actions", lose_after(running, "exchange", applied=False))
        page.locator("#seat-0 button.card").nth(0).click()
        page.locator("#btn-exchange").click()
        offline_banner(page)
        shot(page, "offline-banner.png")
        running.start_again()
        back_online(page)
        assert not_reloaded(page)
        view = server_view(page, base, game_id)
        assert view["phase"] == "draw" and view["turn"] == 0  # the server never took it
        expect(page.locator("#status")).to_contain_text("Your turn")
        assert labels(page, "#seat-0 button.card") == dealt
        page.unroute("**/actions")
        page.locator("#seat-0 button.card").nth(0).click()
        page.locator("#btn-exchange").click()  # the player does it again
        expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
        shows_the_servers_table(page, base, game_id)
        assert sent.count("exchange") == 2
    finally:
        closed(tab)


@pytest.mark.slow
def test_the_dealer_page_recovers_while_the_computers_decide(browser: Browser, running: Restarts) -> None:
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        game_id = new_game(page, base, seed=8)
        page.goto(f"{base}/play/{game_id}?fast=1")
        expect(page.locator("#seat-0 button.card")).to_have_count(5)
        mark(page)
        sent = actions_sent(page)
        # the server takes the player's choice (the computers act after it) and stops before answering
        page.route("**/actions", lose_after(running, "keep", applied=True))
        page.locator("#btn-keep").click()
        offline_banner(page)
        running.start_again()
        back_online(page)
        assert not_reloaded(page)
        expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
        view = shows_the_servers_table(page, base, game_id)
        assert sent.count("keep") == 1  # never sent again: the server had taken it
        kept = [e for e in view["events"] if e["type"] == "exchanged" and e["seat"] == 0]
        assert len(kept) == 1
        expect(page.locator("#events li", has_text=kept[0]["text"])).to_have_count(1)
    finally:
        closed(tab)


@pytest.mark.slow
@pytest.mark.parametrize("applied", [True, False], ids=["answer lost", "never arrived"])
def test_the_dealer_page_recovers_while_the_dealers_cards_turn_up(
    browser: Browser, running: Restarts, applied: bool
) -> None:
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        game_id = new_game(page, base, seed=8)
        page.goto(f"{base}/play/{game_id}")  # at the normal pace: the dealer's cards one by one
        expect(page.locator("#seat-0 button.card")).to_have_count(5)
        page.evaluate(
            """() => { const box = document.getElementById("dealer-cards"); window.dealerCounts = [];
            new MutationObserver(() => { const n = box.querySelectorAll(".card:not(.back):not(.slot)").length;
            const c = window.dealerCounts; if (c[c.length - 1] !== n) c.push(n); }).observe(box, { childList: true }); }"""
        )
        mark(page)
        sent = actions_sent(page)
        reveals = {"n": 0}
        lost = lose_after(running, "reveal", applied=applied)

        def third_reveal(route: Route) -> None:  # the server stops at the dealer's third card
            if json.loads(route.request.post_data or "{}").get("action") == "reveal":
                reveals["n"] += 1
                if reveals["n"] == 3:
                    lost(route)
                    return
            route.continue_()

        page.route("**/actions", third_reveal)
        page.locator("#btn-keep").click()
        offline_banner(page)
        expect(page.locator("#dealer-cards .card:not(.back):not(.slot)")).to_have_count(2)
        # your turn is over: the idle button offers no count ("Exchange all 5" after a Keep all)
        exchange = page.locator("#btn-exchange")
        expect(exchange).to_be_disabled()
        expect(exchange.locator(".label")).to_have_text("Exchange")
        expect(exchange.locator("kbd")).to_have_text("Enter")
        running.start_again()
        back_online(page)
        assert not_reloaded(page)
        expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
        shows_the_servers_table(page, base, game_id)
        counts = page.evaluate("window.dealerCounts")
        assert counts == sorted(counts) and counts[-1] == 5, counts  # never back, never a card twice
        # five cards in all: the lost reveal is sent again only if the server never took it
        assert sent.count("reveal") == (5 if applied else 6), sent
    finally:
        closed(tab)


@pytest.mark.slow
def test_the_dealer_page_recovers_at_the_showdown(browser: Browser, running: Restarts) -> None:
    tab = opened(browser, viewport=PHONE)
    page, base = tab.page, running.url
    try:
        game_id = new_game(page, base, seed=8)
        page.goto(f"{base}/play/{game_id}?fast=1")
        expect(page.locator("#seat-0 button.card")).to_have_count(5)
        mark(page)
        sent = actions_sent(page)
        page.route("**/actions", lose_after(running, "settle", applied=True))
        page.locator("#btn-keep").click()
        offline_banner(page)
        expect(page.locator("#dealer-cards .card:not(.back):not(.slot)")).to_have_count(5)
        shot(page, "offline-banner-phone.png")
        running.start_again()
        back_online(page)
        assert not_reloaded(page)
        expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
        shows_the_servers_table(page, base, game_id)
        assert sent.count("settle") == 1
        page.locator("#btn-next").click()  # and the game goes on
        expect(page.locator("#table-info")).to_contain_text("round 2")
    finally:
        closed(tab)


@pytest.mark.slow
def test_the_dealer_page_recovers_at_game_over(browser: Browser, running: Restarts) -> None:
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        game_id = new_game(page, base, seed=8, stack=20)  # one round's ante and bet: a fold ends the game
        page.goto(f"{base}/play/{game_id}?fast=1")
        expect(page.locator("#seat-0 button.card")).to_have_count(5)
        mark(page)
        # the settle that ends the game is taken, and its answer lost
        page.route("**/actions", lose_after(running, "settle", applied=True))
        page.locator("#btn-fold").click()
        offline_banner(page)
        expect(page.locator("#game-over")).to_be_hidden()
        page.get_by_role("button", name="Retry now").click()  # tries at once: still nobody
        offline_banner(page)
        running.start_again()
        back_online(page)
        assert not_reloaded(page)
        expect(page.locator("#game-over")).to_be_visible()
        view = shows_the_servers_table(page, base, game_id)
        assert view["game_over"]
        expect(page.locator("#btn-next")).to_be_hidden()
    finally:
        closed(tab)


# --- the other pages ------------------------------------------------------------------------


@pytest.mark.slow
def test_the_machine_recovers_mid_hand(browser: Browser, running: Restarts) -> None:
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        made = page.request.post(f"{base}/api/machines", data={"paytable": "jacks-or-better-9-6", "seed": 31})
        assert made.status == 201, made.text()
        machine_id = made.json()["id"]
        page.goto(f"{base}/video-poker/{machine_id}")
        page.get_by_role("button", name="Deal").click()
        cards = page.locator("#cards button.card")
        expect(cards).to_have_count(5)
        dealt = labels(page, "#cards button.card")
        cards.nth(1).click()
        cards.nth(3).click()
        mark(page)
        def stop_as_sent(route: Route) -> None:
            running.server.kill()
            route.abort("connectionrefused")

        page.route("**/actions", stop_as_sent)
        page.get_by_role("button", name="Draw").click()  # the server stops as it is sent
        offline_banner(page)
        page.unroute("**/actions")
        running.start_again()
        back_online(page)
        assert not_reloaded(page)
        machine = page.request.get(f"{base}/api/machines/{machine_id}").json()
        assert machine["phase"] == "dealt"  # the draw never arrived: the same hand, the same holds
        shown = [label.replace(", held", "") for label in labels(page, "#cards button.card")]
        assert shown == [c["label"] for c in machine["hand"]["cards"]] == dealt
        held = cards.evaluate_all("els => els.map(e => e.getAttribute('aria-pressed'))")
        assert held == ["false", "true", "false", "true", "false"]
        page.get_by_role("button", name="Draw").click()
        expect(page.get_by_role("button", name="Deal")).to_be_enabled()
        after = page.request.get(f"{base}/api/machines/{machine_id}").json()
        assert after["phase"] == "idle" and after["last"]["record"]["held"] == [2, 4]
        expect(page.locator("#credits")).to_have_text(f"{after['credits']:,}")
    finally:
        closed(tab)


@pytest.mark.slow
def test_the_checker_waits_for_the_app_without_a_service_worker(browser: Browser, running: Restarts) -> None:
    tab = opened(browser, workers=False)  # as on a home network's plain-http address
    page, base = tab.page, running.url
    try:
        page.goto(f"{base}/check")
        assert page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.controller : null") is None
        page.get_by_role("textbox", name="Hand 1").fill("AS KS QS JS TS")
        page.get_by_role("textbox", name="Hand 2").fill("2C 2D 3H 4S 5C")
        running.server.stop()
        page.get_by_role("button", name="Check").click()
        offline_banner(page)
        assert page.url == f"{base}/check"  # not the browser's error page
        expect(page.get_by_role("textbox", name="Hand 1")).to_have_value("AS KS QS JS TS")
        running.server = Server(running.data, port=running.server.port)
        page.wait_for_url(re.compile(r"/check\?.*hand="))
        expect(page.locator("#verdict-title")).to_have_text("Hand 1 wins")
    finally:
        closed(tab)


@pytest.mark.slow
def test_a_friends_table_recovers_as_every_page_does(browser: Browser, running: Restarts) -> None:
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        made = page.request.post(f"{base}/api/tables", data={})
        table_id = made.json()["id"]
        page.goto(f"{base}/tables/{table_id}")
        expect(page.locator("#connection")).to_have_text("live")
        mark(page)
        running.server.kill()
        offline_banner(page)
        expect(page.locator("#connection")).to_have_text("reconnecting…")
        running.server = Server(running.data, port=running.server.port)
        back_online(page)
        expect(page.locator("#connection")).to_have_text("live")
        assert not_reloaded(page)
        page.get_by_label("Your name").fill("Ann")
        page.get_by_role("button", name="Take a seat").click()
        expect(page.locator("#seats li")).to_have_count(1)
    finally:
        closed(tab)


#: Ways the app refuses a table's event stream, or ends it at once: the table
#: gone, too many requests, as many streams as the server holds, a stream
#: that ends as soon as it starts.
REFUSALS: dict[str, dict[str, Any]] = {
    "404": {"status": 404, "content_type": "application/json", "body": '{"detail": "no such table"}'},
    "429": {"status": 429, "content_type": "application/json", "body": '{"detail": "too fast"}'},
    "503": {"status": 503, "content_type": "application/json", "body": '{"detail": "as many streams as it can"}'},
    "ended": {"status": 200, "content_type": "text/event-stream", "body": "retry: 1000\n\n"},
}


@pytest.mark.slow
@pytest.mark.parametrize("refusal", sorted(REFUSALS))
def test_a_refused_event_stream_is_asked_for_less_and_less_often(
    browser: Browser, running: Restarts, refusal: str
) -> None:
    """A table's page whose event stream the app refuses (or ends at once)
    asks again after about 2 s, then 4, 8...: every page at a full server
    knocking every 2 s would keep it full."""
    tab = opened(browser, workers=False)
    page, base = tab.page, running.url
    asked: list[float] = []

    def refuse(route: Route) -> None:
        asked.append(time.monotonic())
        route.fulfill(**REFUSALS[refusal])

    try:
        table_id = page.request.post(f"{base}/api/tables", data={}).json()["id"]
        page.route(re.compile(r"/api/tables/[^/]+/events"), refuse)
        page.goto(f"{base}/tables/{table_id}")
        page.wait_for_timeout(13_000)
    finally:
        page.context.close()
    gaps = [b - a for a, b in zip(asked, asked[1:])]
    assert len(asked) <= 4, gaps  # 0, ~2, ~6, ~14 s (every 2 s: 7 by then)
    assert len(gaps) >= 2 and gaps[0] >= 1.5, gaps
    assert all(later >= 1.3 * sooner for sooner, later in zip(gaps, gaps[1:])), gaps


# --- installable ----------------------------------------------------------------------------


@pytest.mark.slow
def test_the_app_is_installable_and_a_reload_without_the_app_shows_the_offline_screen(
    browser: Browser, running: Restarts
) -> None:
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        page.goto(f"{base}/")
        state = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active && r.active.state)")
        assert state in ("activating", "activated")
        page.wait_for_function("navigator.serviceWorker.controller !== null")  # (it takes over the page it loads in)
        cdp = page.context.new_cdp_session(page)
        found = cdp.send("Page.getAppManifest")
        assert found["url"] == f"{base}/manifest.webmanifest" and found["errors"] == [], found["errors"]
        manifest = json.loads(found["data"])
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert {i["purpose"] for i in manifest["icons"]} == {"any", "maskable"}
        # what keeps the app from being installed: nothing but the test's own private window
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
        names = page.evaluate("caches.keys()")
        assert len(names) == 1 and names[0].startswith("fivecard-")
        kept = page.evaluate(f"caches.open({json.dumps(names[0])}).then((c) => c.keys()).then((r) => r.map((q) => q.url))")
        assert f"{base}/offline" in kept and f"{base}/static/common.js" in kept
        assert not any("/api/" in url for url in kept)

        card = f"{base}/strategy/jacks-or-better-9-6"  # a page that reads nothing more: kept as seen
        page.goto(card)
        title = page.locator("h1").inner_text()
        game_id = new_game(page, base, seed=8)
        page.goto(f"{base}/play/{game_id}?fast=1")
        expect(page.locator("#seat-0 button.card")).to_have_count(5)
        running.server.stop()
        page.reload()
        expect(page.locator("#offline-title")).to_have_text(OFFLINE)  # the offline screen, not the browser's error
        expect(page.locator("#offline")).to_contain_text("fivecard serve")
        # the footer under it does not claim the app "works offline": it needs no internet
        expect(page.locator(".site-footer")).to_have_text("fivecard — needs no internet; chips have no cash value")
        assert page.url == f"{base}/play/{game_id}?fast=1"
        shot(page, "offline-screen.png")
        # the API is never answered from the cache
        assert page.evaluate(f"fetch('/api/games/{game_id}').then(() => 'answered', () => 'refused')") == "refused"
        page.goto(card)
        expect(page.locator("h1")).to_have_text(title)  # the strategy card as last seen
        page.goto(f"{base}/play/{game_id}?fast=1")
        expect(page.locator("#offline-title")).to_have_text(OFFLINE)
        running.server = Server(running.data, port=running.server.port)
        expect(page.locator("#seat-0 button.card")).to_have_count(5)  # back to the table by itself
        expect(page.locator("#offline")).to_be_hidden()
    finally:
        closed(tab)


@pytest.mark.slow
def test_the_dealer_pages_actions_are_off_until_it_has_the_game(browser: Browser, running: Restarts) -> None:
    """Until the page has the game from the server, exchange, keep, fold
    and hint are off (a press would be lost); each comes on once it has it
    and it is your turn."""
    tab = opened(browser)
    page, base = tab.page, running.url
    try:
        game_id = new_game(page, base, seed=8)
        held: list[Route] = []
        page.route(f"**/api/games/{game_id}", lambda route: held.append(route))  # its answer held back
        page.goto(f"{base}/play/{game_id}?fast=1")
        actions = ["#btn-exchange", "#btn-keep", "#btn-fold", "#btn-hint"]
        page.wait_for_timeout(100)
        assert held, "the page asked for its game"
        for action in actions:
            expect(page.locator(action)).to_be_disabled()
        held[0].continue_()
        expect(page.locator("#seat-0 button.card")).to_have_count(5)
        for action in actions:
            expect(page.locator(action)).to_be_enabled()
    finally:
        closed(tab)
