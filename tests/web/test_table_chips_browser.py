"""The chips of every dealer round and the game's session panel in a real
browser (Debian's chromium through Playwright, ``fivecard serve`` in a
subprocess), on a desktop and on a phone (390x844): after every round each
seat's line shows its ante, house bet, pot share and net with the sentence
that adds them up, your result reads as a win or a loss in words and signs
(not in colour alone), and the session panel says the rounds, the results
against the dealer, the pots won and the chips after each round, as a chart
the page draws (inline SVG with its text alternative) and as a table.

The games are seeded: the library's own engine, given the same seed and
moves, says what each round must show. Screenshots go to a temporary folder,
or with FIVECARD_SCREENSHOTS=docs/screenshots to the manual's
(table-chips.png, table-session.png, table-chips-phone.png).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Page, ViewportSize, expect

from browser import DESKTOP, PHONE, SHOTS, Server, Tab, browser, open_tab, server, tab_of
from fivecard.play.game import Game
from fivecard.play.view import event_json, session_json, signed


# A round's requests (the computers ask the advisor) take a second or two on
# a busy machine: wait up to 20 s for what a page must show.
expect.set_options(timeout=20_000)

#: The button for each of your moves, and what it keeps.
BUTTONS = {"keep": "Keep all", "fold": "Fold", "exchange": "Exchange all 5"}


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Tab]:
    yield from tab_of(browser, DESKTOP)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Tab]:
    yield from tab_of(browser, PHONE)


def shot(page: Page, name: str, *, selector: str | None = None, through: str | None = None) -> None:
    """A screenshot of the element ``selector`` (with ``through``: from its
    top to the bottom of that one), else of what the window shows."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if selector and through:
        top, bottom = page.locator(selector).bounding_box(), page.locator(through).bounding_box()
        assert top is not None and bottom is not None
        scroll = float(page.evaluate("window.scrollY"))
        width = page.viewport_size["width"] if page.viewport_size else DESKTOP["width"]
        height = bottom["y"] + bottom["height"] - top["y"] + 16
        clip: FloatRect = {"x": 0, "y": top["y"] + scroll - 8, "width": width, "height": height}
        page.screenshot(path=str(SHOTS / name), clip=clip, full_page=True)
    elif selector:
        page.locator(selector).screenshot(path=str(SHOTS / name))
    else:
        page.screenshot(path=str(SHOTS / name))


def new_game(page: Page, base: str, seed: int) -> None:
    """A new game from the start screen (its seed from the URL); the page
    deals the first round."""
    page.goto(f"{base}/?seed={seed}&rules=standard&fast=1")
    page.get_by_role("button", name="New game").click()
    page.wait_for_url(re.compile(r"/play/[^/?]+\?fast=1$"))
    expect(page.locator("#seat-0 button.card")).to_have_count(5)


def engine_round(game: Game, move: str) -> dict[str, Any]:
    """The round the page plays, through the library: its settled event JSON."""
    if game.phase == "idle":
        game.start_round()
    if move == "fold":
        game.fold(0)
    else:
        game.exchange(0, [0, 1, 2, 3, 4] if move == "keep" else [])
    while game.can_computer_act():
        game.computer_acts()
    while game.can_reveal():
        game.reveal_dealer_card()
    return event_json(game, game.settle())


def play(page: Page, move: str, number: int) -> None:
    """Your move by its button (the first round is dealt; later ones are
    dealt by Next round), until the round's showdown shows."""
    if number > 1:
        page.get_by_role("button", name="Next round").click()
        expect(page.locator("#events")).to_contain_text(f"Round {number}:")
    page.get_by_role("button", name=BUTTONS[move]).click()
    expect(page.locator("#result-title")).to_have_text(f"Round {number}: showdown")


def shown(n: int) -> str:
    """Chips with their sign, as the page and the sentences write them."""
    return signed(n)


def check_seat_lines(page: Page, settled: dict[str, Any]) -> None:
    """Each seat's line: ante, house bet, pot (when it took some) and net,
    each signed, and the sentence; a seat not dealt in has none."""
    dealt = {row["seat"]: row for row in settled["results"]}
    for seat in range(3):
        line = page.locator(f"#seat-{seat} .seat-chips")
        row = dealt.get(seat)
        if row is None:
            expect(line).to_have_count(0)
            continue
        figures = [f"ante {shown(-row['ante'])}", f"house bet {shown(row['house'])}"]
        if row["pot"]:
            figures.append(f"pot {shown(row['pot'])}")
        figures.append(f"net {shown(row['chips'])}")
        expect(line.locator(".chip-figure")).to_have_text(figures)
        expect(line.locator(".chip-sentence")).to_have_text(row["chips_text"])
        tone = "up" if row["chips"] > 0 else "down" if row["chips"] < 0 else "even"
        expect(line.locator(".chip-net")).to_have_class(re.compile(rf"\b{tone}\b"))
        expect(page.locator(f"#seat-{seat} .stack")).to_have_text(f"Stack {settled['stacks'][seat]:,}")


def check_banner(page: Page, settled: dict[str, Any]) -> None:
    """Your round in words, marks and signs: the result against the dealer,
    the net in chips (the banner green when chips were won, red when
    lost), and the round's sentence."""
    mine = settled["results"][0]
    banner = page.locator("#result .round-banner")
    word = {
        "win": ("✓", "You beat the dealer"),
        "lose": ("✗", "The dealer beats you"),
        "draw": ("=", "You draw with the dealer"),
        "fold": ("✗", "You folded"),
    }[mine["outcome"]]
    expect(banner.locator(".banner-mark")).to_have_text(word[0])
    expect(banner.locator(".banner-word")).to_have_text(word[1])
    expect(banner.locator(".banner-net")).to_have_text(f"{shown(mine['chips'])} chips")
    expect(banner.locator(".banner-text")).to_have_text(settled["chips_text"])
    tone = "up" if mine["chips"] > 0 else "down" if mine["chips"] < 0 else "even"
    expect(banner).to_have_class(re.compile(rf"\boutcome-{mine['outcome']}\b.*\b{tone}\b"))
    # green for chips won, red for chips lost, beside the words and signs
    colors = {"up": "rgb(21, 128, 61)", "down": "rgb(185, 28, 28)"}
    if tone in colors:
        color = banner.locator(".banner-net").evaluate("e => getComputedStyle(e).color")
        assert color == colors[tone], color


def count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def check_session(page: Page, session: dict[str, Any]) -> None:
    """The session panel says the library's figures; its chart and table
    carry the chips after each round."""
    panel = page.locator("#session")
    expect(panel).to_be_visible()
    d = session["against_dealer"]
    figures = panel.locator(".session-figure")
    expect(figures.nth(0)).to_have_text(f"Rounds{session['rounds']}")
    counts = [count(d["win"], "win"), count(d["lose"], "loss", "losses"), count(d["draw"], "draw"), count(d["fold"], "fold")]
    expect(figures.nth(1)).to_have_text(f"Against the dealer{' · '.join(counts)}")
    # a win in green and a loss in red, but a zero count in the panel's own colour
    neutral = figures.nth(1).locator("dd").evaluate("e => getComputedStyle(e).color")
    for kind, tint in [("win", "rgb(21, 128, 61)"), ("lose", "rgb(185, 28, 28)"), ("draw", None), ("fold", None)]:
        tally = figures.nth(1).locator(f".tally.{kind}")
        color = tally.evaluate("e => getComputedStyle(e).color")
        assert color == (tint if d[kind] and tint else neutral), (kind, d[kind], color)
    pots = f"{session['pots']} ({session['pot_chips']} chips)" if session["pots"] else "none yet"
    expect(figures.nth(2)).to_have_text(f"Pots won{pots}")
    chips = session["chips"]
    net = shown(session["net"]) if session["net"] else "±0"
    expect(figures.nth(3)).to_have_text(f"Chips{chips[0]:,} → {chips[-1]:,} ({net})")
    # the chart: drawn by the page, named by its text alternative
    chart = panel.locator(".chips-chart svg")
    rounds = session["rounds"]
    alternative = (
        f"Chips: {chips[0]:,} → {chips[-1]:,} over {count(rounds, 'round')}"
        if rounds
        else f"Chips: {chips[0]:,}, no round settled yet"
    )
    expect(chart).to_have_attribute("role", "img")
    expect(page.get_by_role("img", name=alternative)).to_have_count(1)
    expect(panel.locator(".chips-chart figcaption")).to_have_text(alternative)
    points = chart.locator("polyline").get_attribute("points")
    assert points is not None and len(points.split()) == len(chips)
    # higher chips are drawn higher: the y of each point follows the stack
    ys = [float(p.split(",")[1]) for p in points.split()]
    for (a, ya), (b, yb) in zip(zip(chips, ys), zip(chips[1:], ys[1:])):
        assert (b > a) == (yb < ya) and (b == a) == (yb == ya)
    # the numbers, in a table (behind "Chips after each round")
    panel.locator("summary", has_text="Chips after each round").click()
    rows = panel.locator(".chips-numbers tbody tr")
    expect(rows).to_have_count(len(chips))
    cells = [["start", f"{chips[0]:,}", ""]] + [
        [str(i), f"{v:,}", shown(v - chips[i - 1])] for i, v in enumerate(chips) if i
    ]
    for i, want in enumerate(cells):
        expect(rows.nth(i).locator("th, td")).to_have_text(want)
    panel.locator("summary", has_text="Chips after each round").click()


def check_history(page: Page, settled: dict[str, Any]) -> None:
    """The round history's newest line: who took the pot, named as in a
    sentence ("you", not "You", after "to"), and your stack."""
    names = ["you", "Computer 1", "Computer 2"]
    winners = " and ".join(names[s] for s in settled["pot_winners"])
    pot = f"pot of {settled['pot']} to {winners}" if winners else f"pot of {settled['pot']} carried"
    newest = page.locator("#history li").first
    expect(newest.locator("p.muted")).to_have_text(f"{pot} · your stack {settled['stacks'][0]:,}")


# --- the desktop ----------------------------------------------------------------------------


@pytest.mark.slow
def test_every_rounds_chips_and_the_session_panel_on_a_desktop(desktop: Tab, server: Server) -> None:
    page = desktop.page
    new_game(page, server.url, seed=3)
    session = session_json((), 1000)
    check_session(page, session)
    engine = Game(seed=3)
    rounds = []
    # seed 3: you lose to the dealer but take the pot, fold, lose, then win the pot
    for number, move in enumerate(["keep", "fold", "exchange", "keep"], 1):
        play(page, move, number)
        settled = engine_round(engine, move)
        rounds.append(settled)
        check_seat_lines(page, settled)
        check_banner(page, settled)
        check_session(page, session_json(rounds, 1000))
        check_history(page, settled)
        if number == 1:  # the seats' lines and the showdown
            shot(page, "table-chips.png", selector=".felt", through="#result")
    outcomes = [r["results"][0]["outcome"] for r in rounds]
    assert outcomes == ["lose", "fold", "lose", "win"]  # every kind of line was seen
    assert [r["results"][0]["chips"] > 0 for r in rounds] == [True, False, False, True]
    shot(page, "table-session.png", selector="#session")


# --- the phone ------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_chips_and_the_session_panel_fit_a_phone(phone: Tab, server: Server) -> None:
    page = phone.page
    new_game(page, server.url, seed=4)
    engine = Game(seed=4)
    rounds = []
    for number, move in enumerate(["keep", "fold"], 1):
        play(page, move, number)
        settled = engine_round(engine, move)
        rounds.append(settled)
        check_seat_lines(page, settled)
        check_banner(page, settled)
    check_session(page, session_json(rounds, 1000))
    # nothing is wider than the phone: no sideways scrolling, the chart inside its panel
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
    chart = page.locator("#session .chips-chart svg").bounding_box()
    panel = page.locator("#session").bounding_box()
    assert chart is not None and panel is not None
    assert panel["x"] <= chart["x"] and chart["x"] + chart["width"] <= panel["x"] + panel["width"]
    for seat in range(3):
        box = page.locator(f"#seat-{seat} .seat-chips").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.locator("#seat-0").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, "table-chips-phone.png")
