"""The pages in a real browser: Debian's chromium driven by Playwright against
``fivecard serve`` in a subprocess. Whole rounds by mouse and by keyboard,
the dealer's cards turned up one by one, a fold, a split pot, game over, the
hint, the hand checker's URL round trip, a restart of the server in the
middle of a round, and no console errors or CSP violations on any page.

Games are seeded, so the test knows from the library's own engine
(:class:`fivecard.play.game.Game`, same seed and actions) what the page must
show. The pages run with ``?fast=1`` (no pause between the dealer's cards)
except where the pause is the point. Screenshots are taken on every run, into
a temporary folder; with FIVECARD_SCREENSHOTS=DIR (e.g. docs/screenshots, the
manual's) they go there.
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser import DESKTOP, PHONE, SHOTS, Server, Tab, browser, card_names, labels, my_cards, new_game, open_tab, pressed, server
from helpers import engine_round
from fivecard import evaluate, get_rules, showdown
from fivecard.core.report import showdown_json
from fivecard.core.errors import FivecardError
from fivecard.core.rules import RULE_SETS
from fivecard.play.game import Game, RoundSettled, keep_positions
from fivecard.play.table_game import MAX_ROUNDS
from fivecard.play.view import a_hand, card_json, event_json


# A round's requests (the computers ask the advisor) take a second or two on
# a busy machine: wait up to 20 s for what a page must show.
expect.set_options(timeout=20_000)


# Counts the dealer's face-up cards after every change to them.
DEALER_COUNTS = """
() => {
  const box = document.getElementById("dealer-cards");
  const counts = [];
  const record = () => {
    const n = box.querySelectorAll(".card:not(.back):not(.slot)").length;
    if (counts[counts.length - 1] !== n) counts.push(n);
  };
  record();
  new MutationObserver(record).observe(box, { childList: true });
  window.dealerCounts = counts;
}
"""


# --- the server and the browser ---------------------------------------------------------


@pytest.fixture
def tab(browser: Browser) -> Iterator[Tab]:
    opened = open_tab(browser, DESKTOP)
    yield opened
    opened.page.context.close()
    assert opened.errors == [], "console errors or CSP violations"


# --- helpers ------------------------------------------------------------------------------


def check_showdown(page: Page, settled: RoundSettled) -> None:
    """The page's showdown says what the engine's settled round says."""
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result).to_contain_text(settled.pot_explanation)
    expect(result).to_contain_text(settled.dealer.description)
    for seat in settled.results:
        expect(result).to_contain_text(seat.explanation)
        if seat.evaluation is not None:  # the hand, face up at its seat, in showdown order
            expect(result).to_contain_text(seat.evaluation.description)
            shown = [card_json(c)["label"] for c in seat.evaluation.showdown]
            assert card_names(page, f"#seat-{seat.seat} .card") == shown
    dealer = [card_json(c)["label"] for c in settled.dealer.showdown]
    assert card_names(page, "#dealer-cards .card") == dealer


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=full_page)


# --- Poker vs Dealer ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_round_by_mouse_with_the_dealers_cards_one_by_one(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=5)
    expect(page.locator("#events")).to_contain_text("Round 1: You, Computer 1, Computer 2 ante 10 and bet 10")
    expect(page.locator("#seat-1 .card.back")).to_have_count(5)  # the computers' cards face down
    cards = my_cards(page)
    dealt = Game(seed=5)
    dealt.start_round()
    hand = dealt.hand(0)
    assert hand is not None
    assert labels(page, "#seat-0 button.card") == [card_json(c)["label"] for c in hand.cards]
    cards.nth(0).click()
    cards.nth(2).click()
    assert pressed(page) == [0, 2]
    expect(cards.nth(0).locator(".keep-marker")).to_be_visible()
    expect(cards.nth(1).locator(".keep-marker")).to_be_hidden()
    cards.nth(2).click()
    cards.nth(2).click()  # off and on again
    expect(page.locator("#btn-exchange")).to_contain_text("Exchange 3 cards")
    shot(page, "table-mid-round.png")

    page.evaluate(DEALER_COUNTS)
    page.locator("#btn-exchange").click()
    game, settled = engine_round("standard", 5, [0, 2])
    check_showdown(page, settled)
    # each dealer card turned up in a DOM update of its own, in order
    assert page.evaluate("window.dealerCounts") == [0, 1, 2, 3, 4, 5]
    events = page.locator("#events")
    for text in ("You exchange 3 cards", "Computer 1 exchanges", "The dealer's card 1:", "The dealer's card 5:"):
        expect(events).to_contain_text(text)
    for seat in (1, 2):  # the computers' hands face up now
        expect(page.locator(f"#seat-{seat} .card:not(.back)")).to_have_count(5)
    for result in event_json(game, settled)["results"]:  # the chips each seat won or lost
        seat = result["seat"]
        expect(page.locator(f"#seat-{seat} .chip-sentence")).to_have_text(result["chips_text"])
        expect(page.locator(f"#seat-{seat} .stack")).to_have_text(f"Stack {settled.stacks[seat]:,}")
    expect(page.locator("#history")).to_contain_text("Round 1")
    shot(page, "showdown.png", full_page=True)

    page.get_by_role("button", name="Next round").click()
    expect(page.locator("#events li")).to_have_count(1)
    expect(page.locator("#events")).to_contain_text("Round 2:")
    expect(cards).to_have_count(5)
    assert pressed(page) == []
    page.get_by_role("button", name="Keep all").click()
    expect(page.locator("#result-title")).to_have_text("Round 2: showdown")
    expect(page.locator("#events")).to_contain_text("You keep all five")
    expect(page.locator("#history li")).to_have_count(2)


@pytest.mark.slow
def test_a_round_by_keyboard_alone(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(f"{server.url}/?seed=11&rules=ace-king&fast=1")
    page.keyboard.press("n")  # a new game, its first round dealt
    page.wait_for_url(re.compile(r"/play/"))
    cards = my_cards(page)
    expect(cards).to_have_count(5)
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.keyboard.press("4")
    page.keyboard.press("4")
    assert pressed(page) == [0, 1]
    expect(page.locator("#btn-exchange")).to_contain_text("Exchange 3 cards")
    page.keyboard.press("h")
    expect(page.locator("#hint")).to_be_visible()
    expect(page.locator("#hint .choice").first).to_contain_text("%")
    page.keyboard.press("Enter")
    _, settled = engine_round("ace-king", 11, [0, 1])
    check_showdown(page, settled)
    expect(page.locator("#events")).to_contain_text("You exchange 3 cards")

    page.keyboard.press("n")
    expect(page.locator("#events")).to_contain_text("Round 2:")
    expect(cards).to_have_count(5)
    # the cards can be reached with Tab, and focus shows
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#seat-0 button.card')"):
            break
    else:
        pytest.fail("Tab never reached your cards")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), "a focused card shows no outline"
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("f")
    expect(page.locator("#result .headline")).to_contain_text("You folded.")
    expect(page.locator("#history li")).to_have_count(2)
    # the round folded says what the dealer had, as a person says it ("a Flush", "Two Pair")
    game_id = page.url.split("/play/")[1].split("?")[0]
    dealer = page.request.get(f"{server.url}/api/games/{game_id}").json()["history"][-1]["dealer"]
    expect(page.locator("#history li").first).to_contain_text(f"you folded (the dealer had {a_hand(dealer)})")


@pytest.mark.slow
def test_a_fold_and_game_over(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=3, rules="semi", stack=20)
    expect(page.locator("#seat-0 button.card.rank-only")).to_have_count(5)  # semi: ranks only
    page.get_by_role("button", name="Fold").click()
    _, settled = engine_round("semi", 3, None, stack=20)
    check_showdown(page, settled)
    expect(page.locator("#result .headline")).to_contain_text("You folded.")
    expect(page.locator("#seat-0 .badge.fold")).to_have_text("folded")
    expect(page.locator("#seat-0")).to_contain_text("You folded")
    expect(page.locator("#seat-0 .stack")).to_have_text(f"Stack {settled.stacks[0]}")
    over = page.locator("#game-over")
    expect(over).to_be_visible()
    expect(over).to_contain_text("Game over")
    expect(over.get_by_role("link", name="New game")).to_be_visible()
    expect(page.locator("#btn-next")).to_be_hidden()
    over.get_by_role("link", name="New game").click()
    page.wait_for_url(f"{server.url}/")
    expect(page.locator("#continue")).to_contain_text("game over")


@pytest.mark.slow
def test_a_game_at_its_bound_on_rounds_is_over_and_says_why(tab: Tab, server: Server) -> None:
    """A dealer game starts no round past MAX_ROUNDS: its page says it is
    over, and why (not that the chips ran out: they did not)."""
    page = tab.page
    game_id = new_game(page, server.url, seed=5)
    page.get_by_role("button", name="Fold").click()
    expect(page.locator("#btn-next")).to_be_visible()
    with sqlite3.connect(server.data / "games.sqlite3") as db:
        (state,) = db.execute("SELECT state FROM table_games WHERE id = ?", (game_id,)).fetchone()
        db.execute(
            "UPDATE table_games SET state = ? WHERE id = ?",
            (json.dumps(json.loads(state) | {"rounds": MAX_ROUNDS}), game_id),
        )
    page.reload()
    over = page.locator("#game-over")
    expect(over).to_be_visible()
    expect(over).to_contain_text("Game over: this game has played as many rounds as one game may.")
    expect(page.locator("#btn-next")).to_be_hidden()


#: Where the split-pot search starts. Searched from seed 0, the first seed
#: whose first round splits the pot (joker rules, one of your 33 choices) is
#: 177, about a minute of the advisor's work; starting near it keeps this
#: test quick, and the test still finds and proves the split with the engine.
SPLIT_SEARCH = range(170, 420)


def find_split(rules: str) -> tuple[int, list[int] | None, RoundSettled]:
    """A seed and your choice (the positions kept; None: fold) whose first
    round ends in a split pot, by playing it with the engine."""
    choices: list[list[int] | None] = [list(c) for r in range(6) for c in itertools.combinations(range(5), r)]
    choices.append(None)
    for seed in SPLIT_SEARCH:
        dealt = Game(rules=rules, seed=seed)
        dealt.start_round()
        state = dealt.to_state()
        for keep in choices:
            game = Game.from_state(state)
            if keep is None:
                game.fold(0)
            else:
                game.exchange(0, keep)
            while game.can_computer_act():
                game.computer_acts()
            while game.can_reveal():
                game.reveal_dealer_card()
            settled = game.settle()
            if len(settled.pot_winners) > 1:
                return seed, keep, settled
    pytest.fail(f"no seed in {SPLIT_SEARCH} splits the first round's pot")


@pytest.mark.slow
def test_a_split_pot(tab: Tab, server: Server) -> None:
    seed, keep, settled = find_split("joker")
    page = tab.page
    new_game(page, server.url, seed=seed, rules="joker")
    if keep is None:
        page.get_by_role("button", name="Fold").click()
    else:
        for position in keep:
            my_cards(page).nth(position).click()
        assert pressed(page) == keep
        page.locator("#btn-exchange").click()
    check_showdown(page, settled)
    expect(page.locator("#result .badge.split")).to_have_text("split pot")
    expect(page.locator("#result .pot-result")).to_contain_text("split the pot")


@pytest.mark.slow
def test_the_hint_and_a_phone_sized_table(browser: Browser, server: Server) -> None:
    tab = open_tab(browser, PHONE)
    page = tab.page
    try:
        new_game(page, server.url, seed=21)
        shot(page, "table-phone.png")
        for width in (390, 360):  # nothing wider than the phone
            page.set_viewport_size({"width": width, "height": 800})
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.get_by_role("button", name="Hint").click()
        hint = page.locator("#hint")
        expect(hint).to_be_visible()
        game = Game(seed=21)
        game.start_round()
        advice = game.hint(0)
        best = advice.recommended
        hand = game.hand(0)
        assert hand is not None
        positions = keep_positions(hand.cards, best.keep)
        expect(hint).to_contain_text(advice.reason)
        expect(hint.locator(".choice.best")).to_contain_text(f"win {best.win * 100:.1f}%")
        _, likely, chance = advice.likeliest(best)  # the advisor's words, as the command line's
        expect(hint.locator(".choice.best")).to_contain_text(f"most likely {likely} {chance * 100:.1f}%")
        expect(hint.locator(".choice")).to_have_count(5)
        hint.locator(".choice.best").get_by_role("button").click()
        assert pressed(page) == positions
        left = 5 - len(positions)
        expect(page.locator("#btn-exchange")).to_contain_text(f"Exchange {left}" if left < 5 else "Exchange all 5")
    finally:
        page.context.close()
    assert tab.errors == []


@pytest.mark.slow
def test_a_game_survives_a_restart_mid_round(browser: Browser, tmp_path: Path) -> None:
    first = Server(tmp_path / "data")
    tab = open_tab(browser, DESKTOP)
    page = tab.page
    try:
        base = first.url
        game_id = new_game(page, base, seed=8)
        page.goto(f"{base}/play/{game_id}")  # at the normal pace: a pause before the dealer's cards
        expect(my_cards(page)).to_have_count(5)
        my_cards(page).nth(4).click()
        page.locator("#btn-exchange").click()
        expect(page.locator("#events")).to_contain_text("You exchange 4 cards")
        mine = sorted(card_names(page, "#seat-0 .card"))
        page.goto("about:blank")  # leave before the page asks for the dealer's cards
        first.stop()

        second = Server(tmp_path / "data", port=first.port)  # same address: same cookies, same storage
        try:
            table = page.request.get(f"{base}/api/games/{game_id}").json()
            assert table["round"] == 1 and table["phase"] in ("dealer", "showdown")
            assert sorted(c["label"] for c in table["seats"][0]["cards"]) == mine
            page.goto(f"{base}/play/{game_id}?fast=1")
            expect(page.locator("#table-info")).to_contain_text("round 1")
            expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
            assert sorted(card_names(page, "#seat-0 .card")) == mine  # (laid out for the showdown now)
            page.goto(f"{base}/")
            expect(page.locator("#continue")).to_be_visible()
            page.get_by_role("link", name="Continue your game").click()
            page.wait_for_url(f"{base}/play/{game_id}")
            expect(page.locator("#history li")).to_have_count(1)
        finally:
            second.stop()
    finally:
        page.context.close()
        first.stop()
    assert tab.errors == []


@pytest.mark.slow
def test_an_unknown_game_says_so(tab: Tab, server: Server) -> None:
    page = tab.page
    made = page.request.post(f"{server.url}/api/games", data={"seed": 1})  # the browser's cookie
    assert made.status == 201
    response = page.request.get(f"{server.url}/api/games/no-such-game")
    assert response.status == 404
    page.goto(f"{server.url}/")
    page.evaluate("localStorage.setItem('fivecard.game', 'no-such-game')")
    page.goto(f"{server.url}/play/no-such-game?fast=1")
    expect(page.locator("#alert")).to_have_text(response.json()["detail"])
    expect(page.locator(".felt")).to_be_hidden()
    page.goto(f"{server.url}/")
    expect(page.locator("#continue")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('fivecard.game')") is None
    tab.errors[:] = [e for e in tab.errors if "404" not in e]  # the browser logs the 404 itself


# --- the hand checker ---------------------------------------------------------------------


@pytest.mark.slow
def test_the_checker_round_trips_its_url(tab: Tab, server: Server) -> None:
    page = tab.page
    hands = ["8C TS KC 9H 4S", "7D 2S 5D 3S AC"]
    expected = showdown_json(showdown(hands, rules=get_rules("standard")), hands)
    page.goto(f"{server.url}/check")
    expect(page.locator("input[name='hand']")).to_have_count(2)
    page.get_by_label("Rule set").select_option("standard")
    page.get_by_label("Hand 1", exact=True).fill(hands[0])
    page.get_by_label("Hand 2", exact=True).fill(hands[1])
    page.get_by_role("button", name="Check").click()
    page.wait_for_url(re.compile(r"/check\?"))
    assert parse_qs(urlsplit(page.url).query) == {"rules": ["standard"], "hand": hands}

    def shows_the_result() -> None:
        expect(page.locator("#explanation")).to_have_text(expected["explanation"])
        expect(page.locator("#verdict-title")).to_have_text("Hand 2 wins")
        for number, hand in enumerate(expected["hands"], 1):
            row = page.locator(".hand-row").nth(number - 1)
            expect(row).to_contain_text(hand["description"])
            sorted_labels = [card_json(c)["label"] for c in evaluate(hands[number - 1]).hand.sorted()]
            assert labels(page, f".hand-row:nth-child({number}) .hand-result .card") == sorted_labels

    shows_the_result()
    shot(page, "checker.png")
    page.goto(page.url)  # the bookmark
    shows_the_result()

    # a bad hand: the library's message beside it
    with pytest.raises(FivecardError) as bad:
        evaluate("AS KS QS JS")
    page.get_by_label("Hand 2", exact=True).fill("AS KS QS JS")
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".hand-row").nth(1).locator(".hand-error")).to_have_text(str(bad.value))
    expect(page.get_by_label("Hand 2", exact=True)).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".hand-row").nth(0).locator(".hand-error")).to_have_count(0)
    expect(page.locator("#explanation")).to_have_count(0)


@pytest.mark.slow
def test_the_checker_card_grid_and_more_hands(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(f"{server.url}/check?rules=joker")
    grid = page.locator("#card-grid")
    expect(grid.locator("button")).to_have_count(53)  # 52 cards and the joker
    page.get_by_label("Rule set").select_option("semi")
    expect(grid.locator("button")).to_have_count(13)  # ranks only
    page.get_by_label("Rule set").select_option("short-deck")
    expect(grid.locator("button")).to_have_count(36)  # 6 to A
    expect(grid.get_by_role("button", name="Five of spades", exact=True)).to_have_count(0)
    page.get_by_label("Rule set").select_option("standard")
    expect(grid.locator("button")).to_have_count(52)

    page.get_by_role("button", name="Add a hand").click()
    expect(page.locator("input[name='hand']")).to_have_count(3)
    page.get_by_label("Hand 1", exact=True).fill("2C 2D 3H 4S 5C")
    page.get_by_label("Hand 2", exact=True).fill("nonsense")
    page.get_by_label("Hand 3", exact=True).click()
    for card in ("Ace of hearts", "King of hearts", "Queen of hearts", "Jack of hearts", "Ten of hearts"):
        grid.get_by_role("button", name=card, exact=True).click()
    expect(page.get_by_label("Hand 3", exact=True)).to_have_value("Ah Kh Qh Jh Th")
    page.get_by_role("button", name="Remove hand 2").click()
    expect(page.locator("input[name='hand']")).to_have_count(2)
    expect(page.get_by_label("Hand 2", exact=True)).to_have_value("Ah Kh Qh Jh Th")
    expect(page.get_by_role("button", name="Remove hand 1")).to_be_hidden()  # two hands at least
    page.get_by_role("button", name="Check").click()
    page.wait_for_url(re.compile(r"/check\?.*hand="))  # (sent once the page knows the app answers)
    assert parse_qs(urlsplit(page.url).query)["hand"] == ["2C 2D 3H 4S 5C", "Ah Kh Qh Jh Th"]
    expect(page.locator(".hand-row").nth(1)).to_contain_text("Royal Flush")
    expect(page.locator("#verdict-title")).to_have_text("Hand 2 wins")


@pytest.mark.slow
def test_the_checker_works_without_javascript(browser: Browser, server: Server) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/check")
        page.get_by_label("Hand 1", exact=True).fill("AS AD KH 7C 2D")
        page.get_by_label("Hand 2", exact=True).fill("AH AC KS 7D 2C")
        page.get_by_role("button", name="Check").click()
        page.wait_for_url(re.compile(r"/check\?"))
        expect(page.locator("#verdict-title")).to_have_text("Hands 1 and 2 split")
        expect(page.locator("#picker")).to_be_hidden()  # the grid needs the script
    finally:
        context.close()


@pytest.mark.slow
def test_the_trainer_says_what_a_broken_pair_cost(tab: Tab, server: Server) -> None:
    page = tab.page
    new_game(page, server.url, seed=6)
    dealt = Game(seed=6, trainer=True)
    dealt.start_round()
    hand = dealt.hand(0)
    assert hand is not None and [c.code_str for c in hand.cards[3:]] == ["5c", "5d"]
    switch = page.get_by_role("switch", name="Trainer")
    expect(switch).to_be_checked()  # on by default
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("aria-live", "polite")
    expect(verdict).to_have_text("")
    cards = my_cards(page)
    cards.nth(2).click()  # K♠ and 5♣: the pair of fives broken
    cards.nth(3).click()
    page.locator("#btn-exchange").click()
    expected = dealt.exchange(0, [2, 3]).verdict
    assert expected is not None and not expected.best
    expect(verdict).to_have_text(expected.text())
    expect(verdict).to_contain_text(f"{expected.chips:.2f} chips")
    expect(page.locator("#result-title")).to_have_text("Round 1: showdown")
    expect(verdict).to_have_text(expected.text())  # still there at the showdown
    shot(page, "trainer-verdict.png", full_page=True)

    # off: remembered with the game, and no verdict for the next exchange
    switch.click()
    expect(switch).not_to_be_checked()
    page.reload()
    expect(page.get_by_role("switch", name="Trainer")).not_to_be_checked()
    page.get_by_role("button", name="Next round").click()
    expect(page.locator("#events")).to_contain_text("Round 2:")
    expect(verdict).to_have_text("")
    page.get_by_role("button", name="Keep all").click()
    expect(page.locator("#result-title")).to_have_text("Round 2: showdown")
    expect(page.locator("#events")).to_contain_text("You keep all five")
    expect(verdict).to_have_text("")


@pytest.mark.slow
def test_the_address_chooses_the_rule_set_and_an_unknown_one_is_said(tab: Tab, server: Server) -> None:
    """``?rules=`` chooses a rule set on the dealer page's form by its name or
    any other name of it, in any case, silently; a name with no rule set
    leaves Standard chosen and the page's alert says so."""
    page = tab.page
    for rules in RULE_SETS.values():
        for name in (rules.name, *rules.aliases, rules.name.upper()):
            page.goto(f"{server.url}/?rules={name}")
            expect(page.locator(f'#new-game input[name="rules"][value="{rules.name}"]')).to_be_checked()
            expect(page.locator("#alert")).to_be_hidden()
    for name, said in [("xyz", "xyz"), ("texas", "texas"), ("<b>x</b>", "<b>x</b>"), ("q" * 100, "q" * 20 + "…" + "q" * 20)]:
        page.goto(f"{server.url}/?rules={urllib.parse.quote(name)}")
        expect(page.locator('#new-game input[name="rules"][value="standard"]')).to_be_checked()
        expect(page.locator("#alert")).to_have_text(f"no rule set '{said}': Standard chosen")
        assert page.locator("#alert b").count() == 0
    page.locator("#new-game-button").click()  # the game is the rule set the page said it chose
    page.wait_for_url(re.compile(r"/play/"))
    expect(page.locator("#table-info")).to_contain_text(RULE_SETS["standard"].title or "standard")
