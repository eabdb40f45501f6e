"""The friends' table in a real browser: Debian's chromium driven by
Playwright against ``fivecard serve`` in a subprocess. A host and two
players, each in a browser context of their own (their own cookies), play
three rounds: one with a winner, a tie, chat between them, a player who
reloads the page in the middle of a round, a server killed and started again
between rounds (the pages reconnect by themselves), a seat removed and the
table ended; no console errors or CSP violations but the refused connections
while the server is down.

The table is seeded, so the test knows from the library's own table
(:class:`fivecard.play.friends.FriendsTable`, same seed, same order of
dealing) every hand, winner, explanation and point. A screenshot of the table
after the last round is taken into $FIVECARD_SCREENSHOTS (default: a
temporary folder).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from browser import SHOTS, Server, browser, labels, open_tab
from fivecard import get_rules, showdown
from fivecard.core.cards import Card
from fivecard.core.evaluate import evaluate
from fivecard.core.hand import Hand
from fivecard.play.friends import FriendsTable
from fivecard.play.table_game import round_deck, round_seed
from fivecard.play.view import card_json

RULES = "semi"  # rank-only cards: two hands tie on their ranks alone
PLAYERS = ("Ann", "Bob")  # they deal in this order

expect.set_options(timeout=10_000)



# --- the server and the browser ---------------------------------------------------------


# --- what the library says the table does -----------------------------------------------


def library_rounds(seed: int, count: int = 3) -> list[dict[str, Any]]:
    """The round_closed events of ``count`` rounds at a table of ``seed``
    where Ann then Bob deal, as FriendsTable settles them."""
    table = FriendsTable(rules=RULES, seed=seed, host="host")
    for name in PLAYERS:
        table.join(name.lower(), name)
    closed = []
    for _ in range(count):
        table.start_round("host")
        events: list[dict[str, Any]] = []
        for name in PLAYERS:
            events += table.deal(name.lower())[1]
        closed += [e for e in events if e["type"] == "round_closed"]
    assert len(closed) == count
    return closed


def tie_seed() -> tuple[int, list[dict[str, Any]]]:
    """The first table seed whose round 2 is a tie and rounds 1 and 3 have
    one winner each (with two hands a tie is rare: each seed's round 2 is
    checked from its deck first, then the table is played out)."""
    rules = get_rules(RULES)
    for seed in range(200_000):
        deck = round_deck(RULES, round_seed(seed, 2))
        hands = [evaluate(Hand(tuple(deck[i : i + 5]), rules)) for i in (0, 5)]
        if len(showdown(hands).winners) < 2:
            continue
        rounds = library_rounds(seed)
        if [len(r["winners"]) for r in rounds] == [1, 2, 1]:
            return seed, rounds
    raise AssertionError("no seed with a tie in round 2")


# --- helpers ------------------------------------------------------------------------------


def card_labels(codes: Sequence[str]) -> list[str]:
    return [str(card_json(Card.parse(c))["label"]) for c in codes]


def standings(page: Page) -> list[tuple[str, int]]:
    rows = page.locator("#standings tbody tr").evaluate_all(
        "rows => rows.map(r => [r.querySelector('.name').textContent, r.querySelector('.points').textContent])"
    )
    return [(str(name), int(points)) for name, points in rows]


def check_result(page: Page, event: dict[str, Any], totals: dict[str, int]) -> None:
    """The page shows the closed round as the library settled it: every
    hand sorted and classified, the winners, the explanation (said once,
    in the headline), the points."""
    expect(page.locator("#result-title")).to_have_text(f"Round {event['round']}: the hands")
    expect(page.locator("#result-text")).to_have_text(event["text"])
    why = event["explanation"].split(": ", 1)[-1]
    assert page.locator("#result").inner_text().count(why) == 1, "the panel says why once"
    for hand in event["hands"]:
        row = page.locator(f'#result-hands li[data-seat="{hand["seat"]}"]')
        expect(row).to_contain_text(f"{hand['player']} — {hand['description']}")
        assert labels(page, f'#result-hands li[data-seat="{hand["seat"]}"] .card') == card_labels(hand["sorted"])
        won = hand["seat"] in event["winners"]
        expect(row).to_have_class(re.compile(r"\bwinner\b") if won else re.compile(r"^(?!.*\bwinner\b)"))
        points = event["awarded"].get(str(hand["seat"]), 0)
        expect(row.locator(".badge.points")).to_have_text(f"+{points} points" if points else "no points")
    expect(page.locator("#standings tbody tr")).to_have_count(len(totals))
    assert sorted(standings(page)) == sorted(totals.items())
    expect(page.locator(f'#round-log li[value="{event["round"]}"]')).to_have_text(event["text"])


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


# --- the table ---------------------------------------------------------------------------


@pytest.mark.slow
def test_three_rounds_with_friends(browser: Browser, tmp_path: Path) -> None:
    seed, expected = tie_seed()
    first = Server(tmp_path / "data")
    second: Server | None = None
    host, ann, bob = open_tab(browser), open_tab(browser), open_tab(browser)
    tabs = (host, ann, bob)
    try:
        base = first.url
        page = host.page

        # the host opens a table: semi, 25 points, a tie scores nothing, the seed from the URL
        page.goto(f"{base}/tables?seed={seed}")
        expect(page.get_by_role("link", name="Friends' table")).to_have_attribute("aria-current", "page")
        page.get_by_role("radio", name=re.compile("Semi-Poker")).check()
        expect(page.locator("#points")).to_have_value("25")
        expect(page.get_by_role("radio", name="scores nothing")).to_be_checked()
        page.get_by_role("button", name="Open the table").click()
        page.wait_for_url(re.compile(r"/tables/[^/?]+$"))
        table_id = page.url.rsplit("/", 1)[1]
        link = f"{base}/tables/{table_id}"
        expect(page.locator("#share-link")).to_have_value(link)
        expect(page.locator("#table-info")).to_contain_text("Semi-Poker · the high hand wins 25 points · a tie scores nothing")
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("#host-controls")).to_be_visible()
        expect(page.get_by_role("button", name="Start round 1")).to_be_disabled()  # nobody seated yet
        expect(page.locator("#talk")).to_contain_text("A semi table: the high hand wins 25 points")

        # the players open the shared link and take a seat by name
        for tab, name in zip((ann, bob), PLAYERS):
            tab.page.goto(link)
            expect(tab.page.locator("#connection")).to_have_text("live")
            expect(tab.page.locator("#host-controls")).to_be_hidden()
            expect(tab.page.locator("#chat-help")).to_be_visible()  # watching: no chat yet
            tab.page.get_by_label("Your name").fill(name)
            tab.page.get_by_role("button", name="Take a seat").click()
            expect(tab.page.locator("#join")).to_be_hidden()
            expect(tab.page.locator("#seats li.me")).to_contain_text(f"{name} you")
        for tab in tabs:
            expect(tab.page.locator("#seats li")).to_have_count(2)
        expect(page.locator("#talk")).to_contain_text("Bob sits down")

        # chat: text stays text, in every other browser
        said = "good luck <b>all</b> & <script>"
        ann.page.get_by_label("Message").fill(said)
        ann.page.get_by_label("Message").press("Enter")
        for tab in (host, bob):
            expect(tab.page.locator("#talk .chat-line").last).to_have_text(f"Ann: {said}")
        expect(bob.page.locator("#announce")).to_have_text(f"Ann: {said}")  # the live region
        assert bob.page.locator("#talk b, #talk script").count() == 0
        page.get_by_label("Message").fill("Round 1 coming up")
        page.get_by_role("button", name="Send").click()
        expect(bob.page.locator("#talk .chat-line").last).to_have_text("Host: Round 1 coming up")

        # a chat line whose answer is lost after the server applied it: the page
        # sends it again with the same request id, and it is said once
        ids: list[str] = []

        def lose_first_answer(route: Route) -> None:
            ids.append(str((route.request.post_data_json or {}).get("request_id")))
            if len(ids) == 1:
                route.fetch()  # the server applies it ...
                route.abort("connectionreset")  # ... and the answer never arrives
            else:
                route.continue_()

        errors_before = len(bob.errors)
        bob.page.route("**/chat", lose_first_answer)
        bob.page.get_by_label("Message").fill("once only")
        bob.page.get_by_role("button", name="Send").click()
        expect(bob.page.get_by_label("Message")).to_have_value("")  # the retry's answer came
        bob.page.unroute("**/chat")
        assert len(ids) == 2 and ids[0] == ids[1] != "None"
        for tab in tabs:
            expect(tab.page.locator("#talk .chat-line").last).to_have_text("Bob: once only")
            expect(tab.page.locator("#talk .chat-line", has_text="once only")).to_have_count(1)
        bob.errors[errors_before:] = [e for e in bob.errors[errors_before:] if "net::ERR_CONNECTION_RESET" not in e]

        totals = {name: 0 for name in PLAYERS}

        def play_round(number: int, *, reload_bob: bool = False, bob_by_key: bool = False) -> None:
            event = expected[number - 1]
            page.get_by_role("button", name=f"Start round {number}").click()
            for tab in (ann, bob):
                expect(tab.page.get_by_role("button", name="Deal my hand")).to_be_visible()
                expect(tab.page.locator("#status")).to_have_text(f"Round {number}: deal your hand.")
            expect(page.locator("#deal")).to_be_hidden()  # the host has no seat
            if reload_bob:
                bob.page.reload()
                expect(bob.page.locator("#connection")).to_have_text("live")
            # Ann deals: her hand shows to her alone, the others see "dealt ✓"
            ann.page.get_by_role("button", name="Deal my hand").click()
            ann_hand = next(h for h in event["hands"] if h["player"] == "Ann")
            expect(ann.page.locator("#my-cards .card")).to_have_count(5)
            assert labels(ann.page, "#my-cards .card") == card_labels(ann_hand["cards"])
            expect(ann.page.locator("#deal")).to_be_hidden()
            for tab in (host, bob):
                expect(tab.page.locator('#seats li[data-seat="1"] .badge.dealt')).to_have_text("dealt ✓")
                expect(tab.page.locator('#seats li[data-seat="2"] .badge.waiting')).to_be_visible()
            expect(bob.page.locator("#mine")).to_be_hidden()  # no peeking: the server never sent it
            expect(page.locator("#status")).to_have_text(f"Round {number}: waiting for Bob to deal.")
            if bob_by_key:
                bob.page.locator("body").press("d")
            else:
                bob.page.get_by_role("button", name="Deal my hand").click()
            for name, points in event["awarded"].items():
                totals[PLAYERS[int(name) - 1]] += points
            for tab in tabs:
                check_result(tab.page, event, totals)
            bob_hand = next(h for h in event["hands"] if h["player"] == "Bob")
            assert labels(bob.page, "#my-cards .card") == card_labels(bob_hand["cards"])
            expect(bob.page.locator("#my-hand")).to_have_text(bob_hand["description"])

        # round 1: one winner takes 25 points
        play_round(1)
        assert sorted(totals.values()) == [0, 25]
        # round 2: a tie, with tie=none nobody scores; Bob reloads before dealing
        before = dict(totals)
        play_round(2, reload_bob=True)
        assert totals == before
        expect(ann.page.locator("#result-hands li.winner")).to_have_count(2)

        # the server is killed between rounds and started again on the same port and data
        seen = [len(tab.errors) for tab in tabs]
        first.kill()
        for tab in tabs:
            expect(tab.page.locator("#connection")).to_have_text("reconnecting…")
        second = Server(tmp_path / "data", port=first.port)
        for tab in tabs:
            expect(tab.page.locator("#connection")).to_have_text("live")
        for tab, count in zip(tabs, seen):  # the browser logs the refused reconnections itself
            tab.errors[count:] = [e for e in tab.errors[count:] if "net::ERR_" not in e]

        # round 3 after the restart: Bob deals by keyboard
        play_round(3, bob_by_key=True)
        assert len(expected[2]["winners"]) == 1
        for tab in tabs:
            expect(tab.page.locator("#round-log li")).to_have_count(3)
        shot(ann.page, "friends-table.png")

        # the export: the three rounds in fivecard solve's columns, each hand by its seat's name
        exported = {}
        for form in ("csv", "jsonl"):
            href = page.locator(f"#export-{form}").get_attribute("href")
            assert href == f"/api/tables/{table_id}/export?format={form}"
            answer = page.request.get(base + href)
            assert answer.ok
            exported[form] = answer.text().strip().splitlines()
        assert len(exported["csv"]) == 1 + 3 and exported["csv"][0].startswith("line,input,hand 1 player,hand 1 sorted")
        for line, event in zip(exported["jsonl"], expected, strict=True):
            hands = json.loads(line)["hands"]
            assert [(h["player"], h["cards"]) for h in hands] == [(h["player"], h["cards"]) for h in event["hands"]]

        # the host removes Bob (he may take a seat again), then ends the table
        page.get_by_role("button", name="Remove Bob").click()
        page.get_by_role("button", name="Yes, remove Bob").click()
        expect(bob.page.locator("#join")).to_be_visible()
        expect(page.locator("#seats li")).to_have_count(1)
        expect(page.locator("#standings")).to_contain_text("Bob (removed by the host)")
        for tab in tabs:
            expect(tab.page.locator("#talk .talk-event").last).to_have_text("The host removed Bob from the table")
        page.get_by_role("button", name="End the table").click()
        page.get_by_role("button", name="Yes, end the table").click()
        for tab in tabs:
            expect(tab.page.locator("#ended")).to_be_visible()
            expect(tab.page.locator("#status")).to_have_text("The table has ended.")
        expect(page.locator("#host-controls")).to_be_hidden()
        for tab in tabs:
            assert tab.errors == [], "console errors or CSP violations"
    finally:
        for tab in tabs:
            tab.page.context.close()
        first.kill()
        if second is not None:
            second.kill()


#: Every name on the page drawn no wider than 16em nor its box, not
#: overlapping a button, and the page no wider than the window.
NAMES_IN_PLACE = """() => {
  const problems = [];
  const names = [...document.querySelectorAll("#friends .name")].filter((n) => n.offsetParent);
  const buttons = [...document.querySelectorAll("#friends button")].filter((b) => b.offsetParent);
  for (const node of names) {
    const box = node.getBoundingClientRect();
    const em = parseFloat(getComputedStyle(node).fontSize);
    const parent = node.parentElement.getBoundingClientRect();
    if (box.width > 16 * em + 0.5) problems.push(`${node.title}: ${box.width}px wide, 16em is ${16 * em}px`);
    if (box.right > parent.right + 0.5) problems.push(`${node.title}: past its box`);
    for (const b of buttons) {
      const other = b.getBoundingClientRect();
      const apart = box.right <= other.left || other.right <= box.left || box.bottom <= other.top || other.bottom <= box.top;
      if (!apart) problems.push(`${node.title}: over the button ${b.textContent}`);
    }
  }
  const page = document.documentElement;
  for (const node of document.querySelectorAll("body *")) {
    const right = node.getBoundingClientRect().right;
    if (node.offsetParent && right > page.clientWidth + 0.5) problems.push(`${node.tagName}#${node.id}.${node.className} ends at ${right}px`);
  }
  if (page.scrollWidth > page.clientWidth) problems.push(`the page scrolls sideways: ${page.scrollWidth}px`);
  return {count: names.length, problems};
}"""


@pytest.mark.parametrize("width", [1000, 360])
@pytest.mark.slow
def test_names_keep_their_place_and_the_host_is_marked_by_role(browser: Browser, tmp_path: Path, width: int) -> None:
    """A 40-character name (the longest, in the widest letters) stays in its
    place in every part of the page, on a desktop and a phone; the host's
    chat lines carry a role badge that a player's name cannot draw."""
    running = Server(tmp_path / "data")
    viewport: ViewportSize = {"width": width, "height": 900}
    host, long, mimic = (open_tab(browser, viewport) for _ in range(3))
    tabs = (host, long, mimic)
    wide = "W" * 40
    try:
        page = host.page
        page.goto(f"{running.url}/tables")
        page.get_by_role("button", name="Open the table").click()
        page.wait_for_url(re.compile(r"/tables/[^/?]+$"))
        link = page.url
        for tab, name in ((long, wide), (mimic, "The Host")):
            tab.page.goto(link)
            tab.page.get_by_label("Your name").fill(name)
            tab.page.get_by_role("button", name="Take a seat").click()
            expect(tab.page.locator("#join")).to_be_hidden()
        for sender, line in ((page, "Welcome"), (mimic.page, "I am the host"), (long.page, "hello")):
            sender.get_by_label("Message").fill(line)
            sender.get_by_label("Message").press("Enter")
            expect(page.locator("#talk .chat-line").last).to_contain_text(line)
        page.get_by_role("button", name="Start round 1").click()
        for tab in (long, mimic):
            tab.page.get_by_role("button", name="Deal my hand").click()
        for tab in tabs:
            view = tab.page
            expect(view.locator("#result-hands li")).to_have_count(2)
            expect(view.locator("#talk .chat-line")).to_have_count(3)
            lines = view.locator("#talk .chat-line")
            expect(lines.nth(0)).to_have_text("Host: Welcome")
            expect(lines.nth(0).locator(".badge.role-host")).to_have_text("Host")
            expect(lines.nth(1)).to_have_text("The Host: I am the host")
            expect(lines.nth(1).locator(".badge")).to_have_count(0)  # a name is text, never the badge
            expect(view.locator("#talk .from-host")).to_have_count(1)
            expect(lines.nth(2).locator(".name")).to_have_attribute("title", wide)
            expect(view.locator("#seats .name", has_text=wide)).to_have_text(wide)  # all of it, cut only when drawn
            placed = view.evaluate(NAMES_IN_PLACE)
            assert placed["count"] >= 6 and placed["problems"] == [], placed
        shot(page, f"friends-long-names-{width}.png")
        for tab in tabs:
            assert tab.errors == [], "console errors or CSP violations"
    finally:
        for tab in tabs:
            tab.page.context.close()
        running.kill()


@pytest.mark.slow
def test_an_unknown_table_says_so(browser: Browser, tmp_path: Path) -> None:
    running = Server(tmp_path / "data")
    tab = open_tab(browser)
    try:
        tab.page.goto(f"{running.url}/tables/no-such-table")
        answer = tab.page.request.get(f"{running.url}/api/tables/no-such-table")
        assert answer.status == 404
        expect(tab.page.locator("#alert")).to_have_text(answer.json()["detail"])
        expect(tab.page.locator(".felt")).to_be_hidden()
        tab.errors[:] = [e for e in tab.errors if "404" not in e]  # the browser logs the 404 itself
        assert tab.errors == []
    finally:
        tab.page.context.close()
        running.kill()


@pytest.mark.slow
def test_the_hosts_form_takes_its_choices_from_the_address_and_nothing_else(browser: Browser, tmp_path: Path) -> None:
    """A link with ?rules=&tie=&points=&rounds=&seed= opens the host's form
    with those choices made; a value that is not one of the form's (a rule
    set it lacks, a number not in digits) leaves the form's own."""
    running = Server(tmp_path / "data")
    tab = open_tab(browser, {"width": 1000, "height": 900})
    try:
        page = tab.page
        page.goto(f"{running.url}/tables?rules=semi&tie=split&points=7&rounds=3&seed=11")
        expect(page.locator('input[name="rules"][value="semi"]')).to_be_checked()
        expect(page.locator('input[name="tie"][value="split"]')).to_be_checked()
        for field, value in (("#points", "7"), ("#rounds", "3"), ("#seed", "11")):
            expect(page.locator(field)).to_have_value(value)
        page.goto(f'{running.url}/tables?rules=x"]&tie=both&points=-1&rounds=1e3')
        expect(page.locator('input[name="rules"]').first).to_be_checked()
        expect(page.locator('input[name="tie"][value="none"]')).to_be_checked()
        expect(page.locator("#points")).to_have_value("25")
        expect(page.locator("#rounds")).to_have_value("")
        assert tab.errors == [], "console errors or CSP violations"
    finally:
        tab.page.context.close()
        running.stop()
