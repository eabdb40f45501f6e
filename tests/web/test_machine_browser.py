"""The video-poker machine in a real browser (Debian's chromium driven by
Playwright against ``fivecard serve``): a seeded session of 30 hands on
two games (Jacks or Better; Deuces Wild, wild cards) played by keys and
clicks beside the library's machine with the same seed and holds, with
mistakes made on purpose (nothing held, the lowest card held): each
verdict on the page is the library's, to the exact cost; the session log
is the library's; a server restart mid-session continues exactly; a
mistake replayed is practice. Screenshots (machine-*.png) go to a
temporary folder, or to FIVECARD_SCREENSHOTS (docs/screenshots, the manual's)."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Error, Page, Route, ViewportSize, expect

from browser import PHONE, SHOTS, Server, Tab, browser, open_tab
from fivecard.core import kernel
from fivecard.play.machine import LOG_COLUMNS, Machine
from fivecard.play.paytables import PAYTABLES
from fivecard.play.view import card_json

HANDS = 30


@pytest.fixture
def tab(browser: Browser) -> Iterator[Tab]:
    opened = open_tab(browser)
    yield opened
    opened.page.context.close()
    assert opened.errors == [], "console errors or CSP violations"


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=full_page)


def lowest(machine: Machine) -> list[int]:
    """The position of the lowest card dealt (a deuce is wild, not low, in Deuces Wild)."""
    assert machine.current is not None
    cards = machine.current.cards
    order = sorted(range(5), key=lambda p: (cards[p].rank is None or cards[p].index in machine.rules.wild_indices, cards[p].rank or 0))
    return [order[0]]


def holds_for(number: int, machine: Machine) -> list[int]:
    """Hand by hand: the best hold, nothing held, the lowest card held."""
    if number % 3 == 0:
        best = machine.deal_values().best
        return [p for p in range(5) if best >> p & 1]
    return [] if number % 3 == 1 else lowest(machine)


def labels(machine: Machine) -> list[str]:
    assert machine.current is not None
    return [card_json(c)["label"] for c in machine.current.cards]


def blur(page: Page) -> None:
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def deal(page: Page, number: int, twin: Machine) -> None:
    expect(page.locator("#deal-draw")).to_be_enabled()  # the page has the machine: a key is not lost
    blur(page)
    page.keyboard.press("Enter" if number % 2 else "Space")
    twin.deal()
    expect(page.locator("#deal-draw .label")).to_have_text("Draw")
    cards = page.locator("#cards button.card")
    expect(cards).to_have_count(5)
    assert [c.get_attribute("aria-label") for c in cards.all()] == labels(twin)
    expect(page.locator("#credits")).to_have_text(f"{twin.credits:,}")


def draw(page: Page, number: int, twin: Machine, keep: list[int]) -> None:
    cards = page.locator("#cards button.card")
    for p in keep:
        if number % 2:
            page.keyboard.press(str(p + 1))
        else:
            cards.nth(p).click()
        expect(cards.nth(p)).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#cards button.card[aria-pressed="true"]')).to_have_count(len(keep))
    if number % 2:
        blur(page)
        page.keyboard.press("Enter")
        if not keep:  # nothing held: a key draws five new cards only at its second press
            expect(page.locator("#key-note")).to_contain_text("Press Enter again")
            page.keyboard.press("Enter")
    else:
        page.locator("#deal-draw").click()
    drawn = twin.draw(keep)
    expect(page.locator("#deal-draw .label")).to_have_text("Deal")
    expect(page.locator("#verdict .verdict-text")).to_have_text(drawn.verdict.text())
    verdict = page.locator("#verdict")
    expect(verdict).to_have_class("verdict good" if drawn.verdict.is_best else "verdict warn")
    if not drawn.verdict.is_best:
        expect(verdict).to_contain_text(f"Cost: {float(drawn.verdict.cost):.4f} coins")
    paid = f"pays {drawn.record.paid} coin{'s' if drawn.record.paid != 1 else ''}" if drawn.record.paid else "no win"
    practice = "Practice: " if drawn.record.practice else ""
    expect(page.locator("#result")).to_have_text(f"{practice}{drawn.record.label}: {paid}.")
    expect(page.locator("#credits")).to_have_text(f"{twin.credits:,}")
    won = page.locator("#paytable tr.won")
    expect(won).to_have_count(1 if drawn.record.line != "nothing" else 0)
    if drawn.record.line != "nothing":
        expect(won).to_have_attribute("data-line", drawn.record.line)


def start(page: Page, url: str, paytable: str, seed: int) -> str:
    page.goto(f"{url}/video-poker?seed={seed}")
    page.evaluate(
        """() => { const status = document.getElementById("status"); new MutationObserver(() =>
        window.sessionStorage.setItem("statuses", (window.sessionStorage.getItem("statuses") || "") + status.textContent + "\\n"))
        .observe(status, { childList: true, characterData: true, subtree: true }); }"""
    )
    title = PAYTABLES[paytable].title
    page.get_by_role("button", name=f"Play {title}", exact=True).click()
    page.wait_for_url(f"{url}/video-poker/*")
    machine_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#machine-title")).to_have_text(title)
    said = page.evaluate("() => window.sessionStorage.getItem('statuses')")
    assert f"Preparing {title} (first time only)…" in said.split("\n")
    return machine_id


@pytest.mark.slow
@pytest.mark.parametrize("paytable, seed", [("jacks-or-better-9-6", 31), ("deuces-wild-full-pay", 47)])
def test_a_seeded_session_is_the_librarys_through_a_restart(
    browser: Browser, tmp_path: Path, paytable: str, seed: int
) -> None:
    data = tmp_path / "data"
    server = Server(data)
    opened = open_tab(browser)
    page = opened.page
    try:
        machine_id = start(page, server.url, paytable, seed)
        twin = Machine(paytable, seed=seed)
        expect(page.locator("#credits")).to_have_text(f"{twin.credits:,}")
        expect(page.locator("#paytable th.current")).to_have_text("5 coins")
        mistakes = 0
        for number in range(1, HANDS + 1):
            deal(page, number, twin)
            if number == HANDS // 2:  # a restart with a hand dealt: the same hand, the same credits
                server.stop()
                server = Server(data)
                page.goto(f"{server.url}/video-poker/{machine_id}")
                expect(page.locator("#deal-draw .label")).to_have_text("Draw")
                cards = page.locator("#cards button.card")
                expect(cards).to_have_count(5)
                assert [c.get_attribute("aria-label") for c in cards.all()] == labels(twin)
                expect(page.locator("#credits")).to_have_text(f"{twin.credits:,}")
            keep = holds_for(number, twin)
            draw(page, number, twin, keep)
            mistakes += twin.log().tally.mistakes - mistakes
            if number == 2 and paytable.startswith("jacks"):
                shot(page, "machine-verdict-desktop.png", full_page=True)
                page.set_viewport_size(PHONE)
                shot(page, "machine-verdict-phone.png", full_page=True)
                scroll = page.evaluate("() => document.documentElement.scrollWidth")
                assert scroll <= PHONE["width"], "the machine fits a phone's width"
                page.set_viewport_size({"width": 1000, "height": 900})
        log = twin.log()
        assert log.tally.hands == HANDS and log.tally.mistakes >= HANDS // 3
        expect(page.locator("#log-text")).to_have_text(log.text(), use_inner_text=False)
        expect(page.locator('#log-summary dd[data-field="hands"]')).to_have_text(str(HANDS))
        expect(page.locator('#log-summary dd[data-field="mistakes"]')).to_have_text(str(log.tally.mistakes))
        expect(page.locator('#log-summary dd[data-field="cost"]')).to_have_text(f"{float(log.tally.cost):.4f} coins")
        assert log.return_perfect is not None
        expect(page.locator('#log-summary dd[data-field="return-perfect"]')).to_have_text(f"{float(log.return_perfect) * 100:.2f}%")
        biggest = page.locator("#biggest li")
        expect(biggest).to_have_count(len(log.biggest))
        assert [int(n) for n in biggest.evaluate_all("items => items.map(i => i.dataset.hand)")] == [r.number for r in log.biggest]
        if paytable.startswith("jacks"):
            page.locator("#biggest").scroll_into_view_if_needed()
            page.locator(".session-log").screenshot(path=str(SHOTS / "machine-session-log.png"))
        # the export: the log's rows, inert
        answer = page.request.get(f"{server.url}/api/machines/{machine_id}/log.csv")
        rows = list(csv.reader(io.StringIO(answer.text())))
        assert rows[0] == list(LOG_COLUMNS) and len(rows) == HANDS + 1
        assert "attachment" in answer.headers["content-disposition"]
        # the costliest mistake replayed: practice, the same cards, no credit moves
        first = log.biggest[0]
        credits = twin.credits
        page.get_by_role("button", name=f"Replay hand {first.number} as practice").click()
        twin.replay(first.number)
        expect(page.locator("#practice")).to_be_visible()
        cards = page.locator("#cards button.card")
        expect(cards).to_have_count(5)
        assert [c.get_attribute("aria-label") for c in cards.all()] == labels(twin)
        draw(page, 0, twin, list(first.best))
        expect(page.locator("#credits")).to_have_text(f"{credits:,}")
        expect(page.locator("#log-text")).to_have_text(log.text(), use_inner_text=False)
        assert opened.errors == [], "console errors or CSP violations"
    finally:
        opened.page.context.close()
        server.stop()


@pytest.mark.slow
def test_the_list_starts_a_machine_and_says_it_is_preparing(tab: Tab, tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    try:
        page = tab.page
        page.goto(f"{server.url}/")
        page.get_by_role("link", name="Video poker", exact=True).click()
        page.wait_for_url(f"{server.url}/video-poker")
        expect(page.locator("table.games tbody tr")).to_have_count(len(PAYTABLES))
        shot(page, "machine-games.png")
        start(page, server.url, "deuces-wild-full-pay", 5)  # the status says it is preparing the game
        page.go_back()
        expect(page.locator("#continue")).to_be_visible()
        expect(page.locator("#continue-info")).to_contain_text("Deuces Wild")
        # trainer off: one switch, remembered by the machine
        page.locator("#continue-link").click()
        expect(page.locator("#machine-title")).to_have_text("Deuces Wild (full pay)")
        page.locator("#trainer").uncheck()
        expect(page.locator("#trainer")).not_to_be_checked()
        page.reload()
        expect(page.locator("#trainer")).to_be_enabled()  # the page has the machine again
        expect(page.locator("#trainer")).not_to_be_checked()
        blur(page)
        page.keyboard.press("Enter")
        expect(page.locator("#deal-draw .label")).to_have_text("Draw")
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")  # nothing held: the second press draws
        expect(page.locator("#deal-draw .label")).to_have_text("Deal")
        expect(page.locator("#verdict")).to_have_text("The trainer is off.")
        # Bet one cycles the bet; the column lit follows it
        page.locator("#bet-one").click()
        expect(page.locator("#bet")).to_have_text("1")
        expect(page.locator("#paytable th.current")).to_have_text("1 coin")
        page.locator("#max-bet").click()
        expect(page.locator("#bet")).to_have_text("5")
    finally:
        server.stop()


@pytest.mark.slow
def test_a_games_first_count_shows_how_far_it_has_come(tab: Tab, tmp_path: Path) -> None:
    """A server whose cache has never held the game counts its values (half
    a second or more by the numpy path; the compiled kernel's count is done
    before the page first asks): the list page shows the count's progress,
    then the machine."""
    server = Server(tmp_path / "data", env={"FIVECARD_CACHE": str(tmp_path / "cache"), kernel.ENVIRONMENT: "numpy"})
    try:
        page = tab.page
        # what the list page showed, kept across the page's move to the machine
        page.add_init_script(
            """addEventListener("DOMContentLoaded", () => {
              const bar = document.getElementById("preparing"), status = document.getElementById("status");
              if (!bar || !status) return;
              new MutationObserver(() => { if (!bar.hidden) sessionStorage.setItem("shown", status.textContent); })
                .observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
            });"""
        )
        page.clock.install()
        page.goto(f"{server.url}/video-poker")
        page.locator("button[value='jacks-or-better-8-5']").click()
        # The page first asks 0.4 s after the click, so that a quick count
        # shows nothing; its clock moved on at once, it asks while the count
        # runs, however fast the machine.
        machine = re.compile(r".*/video-poker/[A-Za-z0-9_-]+$")
        for _ in range(3000):  # a bound for a hang: a minute
            if machine.match(page.url):
                break
            with contextlib.suppress(Error):  # the page moved on meanwhile
                page.clock.run_for(400)
            page.wait_for_timeout(20)
        expect(page.locator("#machine-title")).to_have_text("Jacks or Better 8/5")
        shown = page.evaluate("() => sessionStorage.getItem('shown')")
        assert re.fullmatch(r"Preparing Jacks or Better 8/5 \(first time only\)… \d+%", shown or ""), shown
    finally:
        server.stop()


@pytest.mark.slow
def test_a_long_pay_table_fits_a_phone_with_the_bets_column_on_screen(browser: Browser, tmp_path: Path) -> None:
    """Aces and Faces names its lines at length ("Four Jacks, Queens or
    Kings"): on a phone the names wrap, and the lit column of the bet is
    on the screen, not past its edge."""
    server = Server(tmp_path / "data")
    opened = open_tab(browser, PHONE)
    page = opened.page
    try:
        start(page, server.url, "aces-and-faces-8-5", 3)
        expect(page.locator("#paytable tbody tr")).not_to_have_count(0)
        scroll = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll <= PHONE["width"], f"the page is {scroll}px wide"
        for cell in page.locator("#paytable .current").all():
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        shot(page, "machine-long-paytable-phone.png")
        assert opened.errors == []
    finally:
        page.context.close()
        server.stop()


@pytest.mark.slow
def test_with_nothing_held_a_draw_key_needs_a_second_press(tab: Tab, tmp_path: Path) -> None:
    """No key throws a hand away: with no card held, Enter or Space draws
    five new cards only at its second press (the button says "Enter ×2",
    a note asks for the second press, any other key cancels it); a card
    held draws at one press; the Draw button draws at once."""
    server = Server(tmp_path / "data")
    try:
        page = tab.page
        start(page, server.url, "jacks-or-better-9-6", 11)
        button, note = page.locator("#deal-draw"), page.locator("#key-note")
        expect(button).to_be_enabled()
        for key in ["Enter", "Space"]:
            blur(page)
            page.keyboard.press(key)
            expect(button.locator(".label")).to_have_text("Draw")
            expect(button.locator("kbd")).to_have_text("Enter ×2")
            for cancel in ["x", "Escape"]:  # another key cancels the first press
                page.keyboard.press(key)
                expect(note).to_have_text("Press Enter again to draw five new cards, or 1–5 to hold some.")
                expect(button).to_have_class(re.compile(r"\bconfirming\b"))
                page.keyboard.press(cancel)
                expect(note).to_have_text("")
                expect(button).not_to_have_class(re.compile(r"\bconfirming\b"))
                expect(button.locator(".label")).to_have_text("Draw")
            page.keyboard.press(key)
            page.keyboard.press("1")  # a card held: the first press is forgotten, one press draws
            expect(note).to_have_text("")
            expect(button.locator("kbd")).to_have_text("Enter")
            page.keyboard.press(key)
            expect(button.locator(".label")).to_have_text("Deal")
            expect(page.locator("#cards .was-held")).to_have_count(1)
            page.keyboard.press(key)
            expect(button.locator(".label")).to_have_text("Draw")
            page.keyboard.press(key)
            expect(button.locator(".label")).to_have_text("Draw")
            page.keyboard.press(key)  # the second press: five new cards
            expect(button.locator(".label")).to_have_text("Deal")
            expect(page.locator("#cards .was-held")).to_have_count(0)
            blur(page)
            page.keyboard.press(key)
            expect(button.locator(".label")).to_have_text("Draw")
            button.click()  # the button, nothing held: it draws at once
            expect(button.locator(".label")).to_have_text("Deal")
            expect(note).to_have_text("")
    finally:
        server.stop()


@pytest.mark.slow
def test_no_control_works_before_the_page_has_the_machine(tab: Tab, tmp_path: Path) -> None:
    """Until the page has the machine from the server, every control is off
    (a press would be lost, a bet would have no machine to bet on); each
    comes on once it has it."""
    server = Server(tmp_path / "data")
    try:
        page = tab.page
        made = page.request.post(f"{server.url}/api/machines", data={"paytable": "jacks-or-better-9-6", "seed": 5})
        assert made.status == 201, made.text()
        machine_id = made.json()["id"]
        controls = ["#deal-draw", "#bet-one", "#max-bet", "#cash-in", "#trainer", "#show-best", "#threshold", "#threshold-set"]
        held: list[Route] = []
        page.route(f"**/api/machines/{machine_id}", lambda route: held.append(route))  # its answer held back
        page.goto(f"{server.url}/video-poker/{machine_id}")
        expect(page.locator("#deal-draw .label")).to_have_text("Deal")
        page.wait_for_timeout(100)
        assert held, "the page asked for its machine"
        page.keyboard.press("Enter")
        for control in controls:
            expect(page.locator(control)).to_be_disabled()
        held[0].continue_()
        for control in controls:
            expect(page.locator(control)).to_be_enabled()
        blur(page)
        page.keyboard.press("Enter")
        expect(page.locator("#deal-draw .label")).to_have_text("Draw")
    finally:
        server.stop()
