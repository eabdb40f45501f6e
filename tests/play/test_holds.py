"""The ranked hold list: holds named in players' words, the classes of a
solved strategy grouped by the name of their best hold."""

from __future__ import annotations

import functools
import io
import json
import random
from math import comb
from pathlib import Path

import pytest

from fivecard.cli import main
from fivecard.core.cards import parse_cards
from fivecard.core.evaluate import evaluate
from fivecard.core.rules import (
    ACE_TO_FIVE,
    DEUCE_TO_SEVEN,
    DEUCES_WILD,
    JOKER_RULES,
    ONE_EYED_JACKS,
    SEMI,
    SHORT_DECK,
    STANDARD,
    RuleSet,
    get_rules,
)
from fivecard.play.paytables import DEUCES_WILD_FULL_PAY, JACKS_OR_BETTER, PayTable
from fivecard.play.dealer import dealer_hands, solve_dealer
from fivecard.play.holds import HoldLine, describe_hold, hold_list
from fivecard.play.strategy import solve_paytable, starting_hands

JOB = JACKS_OR_BETTER


@pytest.mark.parametrize(
    ("kept", "rules", "paytable", "expected"),
    [
        # standard, Jacks or Better
        ("AS KS QS JS TS", STANDARD, JOB, "Pat Royal Flush"),
        ("AS 5S 4S 3S 2S", STANDARD, JOB, "Pat Straight Flush"),
        ("AS KH KD KC KS", STANDARD, JOB, "Pat Four of a Kind"),
        ("9S 7S 5S 3S 2S", STANDARD, JOB, "Pat Flush"),
        ("9S 7H 5S 3D 2C", STANDARD, JOB, "Pat High Card"),
        ("", STANDARD, JOB, "Discard everything"),
        ("KS KH KD KC", STANDARD, JOB, "Four of a Kind"),
        ("7S 7H 7D", STANDARD, JOB, "Three of a Kind"),
        ("7S 7H 4D 4C", STANDARD, JOB, "Two Pair"),
        ("JD JC", STANDARD, JOB, "High pair (J or better)"),
        ("TD TC", STANDARD, JOB, "Low pair (2 to 10)"),
        ("TD TC", STANDARD, None, "Pair of Tens"),
        ("KS QS JS TS", STANDARD, JOB, "4 to a Royal Flush"),
        ("AH KH TH", STANDARD, JOB, "3 to a Royal Flush"),
        ("9S TS JS QS", STANDARD, JOB, "4 to a Straight Flush"),
        ("AS 2S 3S", STANDARD, JOB, "3 to a Straight Flush"),
        ("2S 3S 7S 9S", STANDARD, JOB, "4 to a Flush"),
        ("2S 7S 9S", STANDARD, JOB, "3 to a Flush"),
        ("5S 6D 7C 8H", STANDARD, JOB, "4 to an outside Straight"),
        ("JS QD KC AH", STANDARD, JOB, "4 to an inside Straight"),
        ("AS 2D 3C 4H", STANDARD, JOB, "4 to an inside Straight"),
        ("5S 6D 8C 9H", STANDARD, JOB, "4 to an inside Straight"),
        ("KS QD JC", STANDARD, JOB, "K Q J unsuited"),
        ("QS JS", STANDARD, JOB, "Q J suited"),
        ("TS JS", STANDARD, JOB, "J 10 suited"),
        ("AS", STANDARD, JOB, "A alone"),
        # deuces wild: the wild cards counted first, and counted in
        ("2C KS QS JS", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "One wild card: 4 to a Royal Flush"),
        ("2C 2D KS QS", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "Two wild cards: 4 to a Royal Flush"),
        ("2C 2D KS", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "Two wild cards: Three of a Kind"),
        ("2C KS KD", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "One wild card: Three of a Kind"),
        ("2C 2D 2S KS", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "Three wild cards: Four of a Kind"),
        ("2C 2D 2S 2H", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "Four wild cards"),
        ("2C", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "One wild card"),
        ("2C 5S 6D 7H", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "One wild card: 4 to an outside Straight"),
        ("2C 6S 8S", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "One wild card: 3 to a Straight Flush"),
        ("2C KS QS JS TS", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "One wild card: Pat Royal Flush"),
        ("KD KC", DEUCES_WILD, DEUCES_WILD_FULL_PAY, "One Pair"),  # no pair pays
        ("JS JH KS QS", ONE_EYED_JACKS, None, "Two wild cards: 4 to a Royal Flush"),
        ("JD JC", ONE_EYED_JACKS, None, "Pair of Jacks"),  # the natural jacks
        ("JK KS QS TS", JOKER_RULES, None, "One wild card: 4 to a Royal Flush"),
        # short deck: A-6-7-8-9 is a straight, pairs start at 6
        ("AS 6S 7S 8S", SHORT_DECK, JOB, "4 to a Straight Flush"),
        ("TS JS QS KS", SHORT_DECK, JOB, "4 to a Royal Flush"),
        ("AS 6D 7S 8S", SHORT_DECK, JOB, "4 to an inside Straight"),
        ("6D 7S 8S 9H", SHORT_DECK, JOB, "4 to an outside Straight"),  # an ace or a 10
        ("6D 6S", SHORT_DECK, JOB, "Low pair (6 to 10)"),
        ("AS KS QS JS 9S", SHORT_DECK, JOB, "Pat Flush"),
        # semi: no suits, so no flushes; no wheel
        ("AS KS QS JS", SEMI, JOB, "4 to an inside Straight"),
        ("AS KS QS", SEMI, JOB, "A K Q"),
        ("AS 2S 3S 4S", SEMI, None, "A 4 3 2"),
        ("AS AD AC AH", SEMI, None, "Four of a Kind"),
        # lowball: by the highest card
        ("7S 5D 4C 3H", DEUCE_TO_SEVEN, None, "4 to a Seven low"),
        ("8S 5D 4C 3H", DEUCE_TO_SEVEN, None, "4 to an Eight low"),
        ("7S 5D 4C 3H 2S", DEUCE_TO_SEVEN, None, "Pat Seven low"),
        ("7S 6D 5C 4H 3S", DEUCE_TO_SEVEN, None, "Pat Straight"),
        ("8S", DEUCE_TO_SEVEN, None, "8 alone"),
        ("8S 8D 3C", DEUCE_TO_SEVEN, None, "3 cards with a pair of Eights"),
        ("AS 2D 3C 5H", ACE_TO_FIVE, None, "4 to a Five low"),
        ("KS 2D 3C 5H", ACE_TO_FIVE, None, "4 to a King low"),
        ("AS 2D 3C 4H 5S", ACE_TO_FIVE, None, "Pat Five low"),
        ("", ACE_TO_FIVE, None, "Discard everything"),
    ],
)
def test_describe_hold(kept: str, rules: RuleSet, paytable: PayTable | None, expected: str) -> None:
    cards = parse_cards(kept) if kept else ()
    if not rules.suits:
        cards = tuple(c.rank_only() for c in cards)
    assert describe_hold(cards, rules, paytable) == expected


@pytest.mark.parametrize("name", ["standard", "short-deck", "semi", "deuces-wild", "one-eyed-jacks", "one-joker"])
@pytest.mark.slow
def test_draws_are_named_by_what_completes_them(name: str) -> None:
    """Over random holds of four: a hold named "4 to a X" has a card of the
    deck that makes X; an outside straight draw is completed by two ranks or
    more, an inside one by one; a pat hand is named by its evaluation; no
    hold is named by a category the rule set lacks."""
    rules = get_rules(name)
    deck = rules.deck()
    labels = {c.label for c in rules.ladder}
    chance = random.Random(name)
    for _ in range(1500):
        kept = tuple(chance.sample(deck, 4))
        said = describe_hold(kept, rules, None)
        rest = [c for c in deck if c not in kept]
        made = {evaluate((*kept, c), rules=rules).label: c for c in rest}
        if "4 to " in said:
            target = said.split("4 to ")[1].removeprefix("an outside ").removeprefix("an inside ").removeprefix("a ")
            assert target in labels, said
            assert target in made, (kept, said)
        if "Straight" in said and "Flush" not in said and not any(rules.is_wild(c) for c in kept):
            naturals = [c for c in rest if not rules.is_wild(c)]
            ranks = {c.rank for c in naturals if evaluate((*kept, c), rules=rules).label == "Straight"}
            assert ("outside" in said) == (len(ranks) >= 2), (kept, said, ranks)
        if not rules.suits:
            assert "Flush" not in said and "suited" not in said
        five = kept + (rest[0],)
        assert describe_hold(five, rules, None).endswith(f"Pat {evaluate(five, rules=rules).label}")


def _check_list(lines: list[HoldLine], deals: int, rules: RuleSet, paytable: PayTable | None) -> None:
    assert sum(line.deals for line in lines) == deals
    assert sum(line.share for line in lines) == pytest.approx(1)
    means = [line.value_mean for line in lines]
    assert means == sorted(means, reverse=True)
    assert len({line.description for line in lines}) == len(lines)
    for line in lines:
        assert line.value_low - 1e-9 <= line.value_mean <= line.value_high + 1e-9
        cards, hold = line.example
        assert set(hold) <= set(cards) and len(cards) == 5
        assert describe_hold(hold, rules, paytable) == line.description


@functools.cache
def _short_deck_job() -> list[HoldLine]:
    solved = solve_paytable(JOB, rules="short-deck")
    return hold_list(starting_hands(solved), solved.rules, JOB)


@pytest.mark.slow
def test_the_short_deck_jacks_or_better_hold_list() -> None:
    lines = _short_deck_job()
    _check_list(lines, comb(36, 5), SHORT_DECK, JOB)
    names = [line.description for line in lines]
    assert names[0] == "Pat Royal Flush" and lines[0].value_mean == 800
    assert lines[0].deals == 4
    assert names.index("4 to a Royal Flush") < names.index("Pat Full House") < names.index("Pat Flush")
    assert names.index("High pair (J or better)") < names.index("Low pair (6 to 10)")
    assert not any("2 to" in n or "Low pair (2" in n for n in names)


def test_the_dealer_games_hold_list_on_a_small_deck() -> None:
    deck = tuple(c for c in STANDARD.deck() if c.rank is not None and c.rank >= 10)
    solved = solve_dealer("standard", deck=deck, workers=0)
    lines = hold_list(dealer_hands(solved), STANDARD)
    _check_list(lines, comb(20, 5), STANDARD, None)
    names = [line.description for line in lines]
    assert names[0] == "Pat Royal Flush"
    assert names.index("Pair of Aces") < names.index("Pair of Kings") < names.index("Pair of Queens")
    assert all(-1 <= line.value_low <= line.value_high <= 1 for line in lines)


@pytest.mark.slow
def test_the_dealer_games_hold_list_under_lowball() -> None:
    deck = tuple(c for c in DEUCE_TO_SEVEN.deck() if c.rank is not None and c.rank.char in "234578")
    solved = solve_dealer("deuce-to-seven", deck=deck, workers=0)
    lines = hold_list(dealer_hands(solved), DEUCE_TO_SEVEN)
    _check_list(lines, comb(24, 5), DEUCE_TO_SEVEN, None)
    assert lines[0].description == "Pat Seven low"  # 7-5-4-3-2, the best hand


@pytest.mark.slow
def test_the_jacks_or_better_hold_list_orders_as_the_published_strategy() -> None:
    """Full Jacks or Better 9/6 (about 8 s): the order facts every published
    strategy for it states, as the exact solution has them."""
    solved = solve_paytable(JOB)
    lines = hold_list(starting_hands(solved), STANDARD, JOB)
    _check_list(lines, comb(52, 5), STANDARD, JOB)
    names = [line.description for line in lines]
    place = names.index
    assert names[0] == "Pat Royal Flush"
    assert place("Pat Straight Flush") < place("4 to a Royal Flush") < place("Pat Full House") < place("Pat Flush")
    assert place("Two Pair") < place("High pair (J or better)") < place("3 to a Royal Flush") < place("4 to a Flush")
    assert place("4 to a Flush") < place("Low pair (2 to 10)") < place("4 to an outside Straight")
    assert place("Q J suited") < place("K Q J unsuited") < place("J alone") < place("A alone")
    assert names[-1] == "Discard everything"


@pytest.mark.slow
def test_the_command_prints_the_ranked_hold_list(tmp_path: Path) -> None:
    base = ["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "--checkpoint", str(tmp_path)]
    out, err = io.StringIO(), io.StringIO()
    assert main([*base, "--holds", "10"], stdout=out, stderr=err) == 0, err.getvalue()
    text = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(text) if line.startswith("ranked hold list (10 of 35 kinds of hold"))
    assert text[start + 1].split() == ["rank", "hold", "share", "of", "deals", "mean", "value", "(range)", "example"]
    rows = text[start + 2 : start + 12]
    assert [row.split()[0] for row in rows] == [str(n) for n in range(1, 11)]
    assert text[start + 12] == "bankroll, betting 5 coins a hand:"  # the session's figures follow
    assert "Pat Royal Flush" in rows[0] and "800.0000 (800.0000 to 800.0000)" in rows[0]
    assert rows[0].endswith("As Ks Qs Js Ts: keep As Ks Qs Js Ts")

    out = io.StringIO()
    assert main([*base, "--json", "--holds", "5"], stdout=out, stderr=err) == 0
    data = json.loads(out.getvalue())
    assert len(data["holds"]) == 5
    assert data["holds"][0] == {"hold": "Pat Royal Flush", "deals": 4, "share": 4 / comb(36, 5), "mean": 800.0, "low": 800.0, "high": 800.0}
    assert [h["hold"] for h in data["holds"]] == [line.description for line in _short_deck_job()[:5]]

    out = io.StringIO()
    assert main([*base, "--json", "--holds", "all"], stdout=out, stderr=err) == 0
    assert len(json.loads(out.getvalue())["holds"]) == len(_short_deck_job())
    out = io.StringIO()
    assert main([*base, "--json"], stdout=out, stderr=err) == 0
    assert "holds" not in json.loads(out.getvalue())
    out = io.StringIO()
    assert main(base, stdout=out, stderr=err) == 0
    assert "ranked hold list" not in out.getvalue()


@pytest.mark.slow
def test_the_dealer_command_prints_the_ranked_hold_list(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    arguments = ["strategy", "--dealer", "--rules", "short-deck", "--workers", "0", "--checkpoint", str(tmp_path)]
    assert main([*arguments, "--json", "--holds", "3"], stdout=out, stderr=err) == 0, err.getvalue()
    holds = json.loads(out.getvalue())["holds"]
    assert [h["hold"] for h in holds] == ["Pat Royal Flush", "Pat Straight Flush", "Pat Four of a Kind"]
    assert holds[0]["deals"] == 4 and 0.99 < holds[0]["mean"] <= 1


def test_a_bad_holds_count_is_a_usage_error() -> None:
    err = io.StringIO()
    code = main(["strategy", "--paytable", "jacks-or-better", "--holds", "-1"], stdout=io.StringIO(), stderr=err)
    assert code == 2
    assert "expected a whole number, 0 or more, or 'all', got '-1'" in err.getvalue()


def test_hold_list_of_no_hands_is_empty() -> None:
    assert hold_list([], STANDARD, JOB) == []
