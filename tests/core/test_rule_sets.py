"""The rule sets other than standard, with every example of Joker Poker (the game
show's two-joker poker), Semi-Poker (the chat room's ranks-only poker) and the
Russian 11-combination ladder with Ace-King."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from helpers import SEMI_POKER_BEATS, SEMI_POKER_HANDS, ranked

from fivecard import (
    FivecardError,
    Hand,
    HandError,
    RuleSet,
    RulesError,
    check_decks,
    evaluate,
    get_rules,
    rule_names,
    showdown,
)
from fivecard.core.cards import CARDS, JOKER
from fivecard.core.lookup import tables_for
from fivecard.core.rules import wild_rules
from fivecard.play.game import Game
from fivecard.play.table_game import GameError


def winner(hands: Sequence[str | Hand], rules: str, *, decks: int = 1) -> tuple[int, ...]:
    return showdown(hands, rules=rules, decks=decks).winners


def test_names_and_aliases() -> None:
    assert rule_names() == [
        "standard", "ace-king", "semi", "joker", "one-joker", "short-deck", "deuces-wild",
        "one-eyed-jacks", "ace-to-five", "deuce-to-seven",
    ]
    for alias, name in [
        ("russian", "ace-king"),
        ("Semi-Poker", "semi"),
        ("no-suits", "semi"),
        ("joker-poker", "joker"),
        ("JOKER", "joker"),
        ("One-Joker", "one-joker"),
        ("six-plus", "short-deck"),
        ("Short", "short-deck"),
        ("deuces", "deuces-wild"),
        ("One-Eyed", "one-eyed-jacks"),
        ("a5", "ace-to-five"),
        ("Ace-Five", "ace-to-five"),
        ("2-7", "deuce-to-seven"),
        ("kansas-city", "deuce-to-seven"),
    ]:
        assert get_rules(alias).name == name
    with pytest.raises(RulesError, match="choose one of: standard, ace-king, semi, joker, one-joker, short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven"):
        get_rules("omaha")


def test_built_in_only_takes_every_name_and_alias_and_no_custom_rule_set() -> None:
    """``custom=False`` (what the web app reads a request's rule set with):
    every built-in rule set by each of its names, in any case and spacing,
    and no name that makes a rule set of its own."""
    from fivecard.core.rules import RULE_SETS, wild_rules

    for rules in RULE_SETS.values():
        for name in (rules.name, *rules.aliases):
            for spelled in (name, name.upper(), f"  {name} "):
                assert get_rules(spelled, custom=False) is rules
        assert get_rules(rules, custom=False) is rules
    for custom in ("standard+wild(AS 7)", "standard+wild(2)", " Standard + WILD ( Js Jh ) "):
        assert get_rules(custom) is wild_rules(custom.split("(", 1)[1].rsplit(")", 1)[0])
        with pytest.raises(RulesError) as refused:
            get_rules(custom, custom=False)
        assert str(refused.value) == (
            f"unknown rule set {custom!r}; choose one of: " + ", ".join(RULE_SETS)
        )


@pytest.mark.parametrize(
    ("rules", "classes"),
    [
        ("standard", 7_462),
        ("ace-king", 7_462),
        ("semi", 6_188),
        ("joker", 7_475),
        ("one-joker", 7_475),
        ("short-deck", 1_404),
        ("ace-to-five", 6_175),
        ("deuce-to-seven", 7_462),
    ],
)
def test_strength_runs_from_1_to_the_number_of_classes(rules: str, classes: int) -> None:
    tables = tables_for(get_rules(rules))
    assert tables.size == classes
    ladder = get_rules(rules).ladder
    scores = [ladder.index(c.category) for c in tables.classes()]
    assert scores == sorted(scores)  # strength order agrees with the ladder


# --- ace-king: the Russian combination seniority --------------------------------


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("A K J 3 2", "A K 10 9 8"),  # ace-king: the jack beats the ten
        ("5 5 4 3 2", "4 4 A K Q"),  # the paired cards are compared
        ("5 5 Q 3 2", "5 5 J 10 9"),  # queen beats jack
        ("A A 2 2 3", "K K Q Q A"),  # the higher pair
        ("A K Q J 10", "5 4 3 2 A"),  # the oldest and the youngest straight
        ("3 3 3 2 2", "2 2 2 A A"),  # the three is more important than the pair
        ("2 2 7 5 3", "A K Q J 9"),  # a pair beats ace-king
        ("A K 4 3 2", "A Q J 10 8"),  # ace-king beats an empty hand
    ],
)
def test_combination_seniority_examples(better: str, worse: str) -> None:
    assert winner([ranked(better), ranked(worse, offset=1)], "ace-king", decks=2) == (0,)


@pytest.mark.parametrize(
    ("text", "category", "score"),
    [
        ("AH KH QH JH 10H", "royal_flush", 11),
        ("QD JD 10D 9D 8D", "straight_flush", 10),
        ("JS JH JD JC 4S", "four_of_a_kind", 9),
        ("6S 6H 6D KC KS", "full_house", 8),
        ("2C 7C 9C JC KC", "flush", 7),
        ("9S 8H 7D 6C 5S", "straight", 6),
        ("5S 4H 3D 2C AS", "straight", 6),
        ("9S 9H 9D QC 4S", "three_of_a_kind", 5),
        ("AS AH 5D 5C 10S", "two_pair", 4),
        ("8S 8H KD 4C 2S", "one_pair", 3),
        ("AS KH 8D 7C 3S", "ace_king", 2),
        ("4S 3H 2D AC KS", "ace_king", 2),  # no straight with an ace inside
        ("3S 2H AD KC QS", "ace_king", 2),
        ("JS 10H 7D 5C 2S", "high_card", 1),
    ],
)
def test_combination_seniority_eleven_combinations(text: str, category: str, score: int) -> None:
    result = evaluate(text, rules="russian")
    assert (result.category.name, result.score) == (category, score)


def test_combination_seniority_no_suit_priority() -> None:
    result = showdown(["AH KH QH JH 10H", "AC KC QC JC 10C"], rules="ace-king")
    assert result.is_draw


def test_ace_king_orders_exactly_like_standard() -> None:
    assert tables_for(get_rules("ace-king")).lookup == tables_for(get_rules("standard")).lookup


# --- semi: Semi-Poker -------------------------------------------------------------



@pytest.mark.parametrize(("better", "worse"), SEMI_POKER_BEATS)
def test_semi_poker_every_beats_pair(better: str, worse: str) -> None:
    """Rank-only hands, written as in the chat room; no deck check."""
    assert winner([better, worse], "semi") == (0,)
    assert winner([worse, better], "semi") == (1,)


@pytest.mark.parametrize(
    ("text", "category"),
    SEMI_POKER_HANDS,
)
def test_semi_poker_hands(text: str, category: str) -> None:
    assert evaluate(text, rules="semi").category.name == category


def test_semi_poker_high_card_is_the_highest_card() -> None:
    assert evaluate("2, 3, 9, 8, 4", rules="semi").description == "High Card, 9-8-4-3-2"


def test_semi_specifics() -> None:
    assert evaluate("A 2 3 4 5", rules="semi").category.name == "high_card"  # ace high only
    assert winner(["2 3 4 5 6", "A K Q J 9"], "semi") == (0,)  # 2-6 is the lowest straight
    assert evaluate("KS QS JS 9S 7S", rules="semi").category.name == "high_card"  # no flushes
    five = evaluate("Q Q Q Q Q", rules="semi")
    assert (five.category.name, five.score) == ("five_of_a_kind", 8)
    assert winner(["2 2 2 2 2", "A A A A K"], "semi") == (0,)
    # Suits are accepted and ignored; the hand shows ranks only.
    assert [c.code_str for c in evaluate("QS QH 9D 9C 2S", rules="semi").hand.cards] == [
        "Q", "Q", "9", "9", "2"
    ]
    assert showdown(["KS KH 2D 3C 4S", "KS KH 2D 3C 4S"], rules="semi").is_draw
    with pytest.raises(HandError, match="joker"):
        evaluate("JK 2 3 4 5", rules="semi")


# --- joker: Joker Poker ------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "winners"),
    [
        # High card: A K Q 10 9 each is a tie.
        (["AS KH QD 10C 9S", "AH KD QC 10S 9H"], (0, 1)),
        # One pair: both Kings with A J 10 tie.
        (["KS KH AD JC 10S", "KD KC AH JS 10H"], (0, 1)),
        # Two pair: A A J J 10 loses to A A J J Q.
        (["AS AH JD JC 10S", "AD AC JS JH QH"], (1,)),
        # Three aces with Q and 9 in each hand tie (only possible with jokers).
        (["AS AH AD QC 9S", "AC JK JK QH 9D"], (0, 1)),
        # Straights: A-10 beats K-9; two A-10 straights tie.
        (["AS KH QD JC 10S", "KD QC JS 10H 9H"], (0,)),
        (["AS KH QD JC 10S", "AH KD QC JS 10H"], (0, 1)),
        # Flushes: spades against diamonds of the same ranks tie.
        (["AS JS 9S 5S 3S", "AD JD 9D 5D 3D"], (0, 1)),
        # Full house: AAA99 loses to AAAQQ.
        (["AS AH JK 9S 9H", "AD AC JK QS QH"], (1,)),
        # Four queens beat four tens.
        (["QS QH QD QC 2S", "10S 10H 10D 10C 3S"], (0,)),
        # A straight flush in spades K-9 against one in diamonds: a tie.
        (["KS QS JS 10S 9S", "KD QD JD 10D 9D"], (0, 1)),
        # Royal against royal: a tie; a royal flush beats a straight flush.
        (["AS KS QS JS 10S", "AD KD QD JD 10D"], (0, 1)),
        (["AS KS QS JS 10S", "KD QD JD 10D 9D"], (0,)),
        # Five of a kind beats a royal flush.
        (["JK 7H 7D 7S 7C", "AS KS QS JS 10S"], (0,)),
    ],
)
def test_joker_poker_what_beats_what(hands: list[str], winners: tuple[int, ...]) -> None:
    assert winner(hands, "joker") == winners


def test_joker_poker_natural_royal_flushes() -> None:
    """The bonus for two natural royal flushes needs to know which are natural."""
    natural = evaluate("AS KS QS JS 10S", rules="joker")
    wild = evaluate("AH KH QH JK 10H", rules="joker")
    assert natural.natural and not wild.natural
    assert natural.strength == wild.strength
    result = showdown(["AS KS QS JS 10S", "AH KH QH JK 10H"], rules="joker")
    assert result.explanation == (
        "Draw: both Royal Flush; a natural hand and a wild hand of equal value draw"
    )


@pytest.mark.parametrize(
    ("text", "description", "jokers"),
    [
        ("JK 2D 3S 4S 5S", "Straight, Six high", ["6s"]),
        ("JK 7H 7D 7S 7C", "Five of a Kind, Sevens", ["7"]),
        ("JK AS KS QS 9S", "Flush, A-K-Q-J-9", ["Js"]),
        ("JK JK 2C 7D 9H", "Three of a Kind, Nines, 7-2 kickers", ["9s", "9d"]),
        ("JK JK AS KS QS", "Royal Flush", ["Js", "Ts"]),
        ("JK JK 7S 7H 7D", "Five of a Kind, Sevens", ["7c", "7"]),
        ("JK 2S 3S 4S 5S", "Straight Flush, Six high", ["6s"]),
        ("JK 5H 6D 8C 9S", "Straight, Nine high", ["7s"]),
        ("JK KH KD 4C 4S", "Full House, Kings over Fours", ["Ks"]),
    ],
)
def test_joker_examples(text: str, description: str, jokers: list[str]) -> None:
    result = evaluate(text, rules="joker")
    assert result.description == description
    assert [c.code_str for c in result.jokers] == jokers
    assert not result.natural


def test_joker_errors() -> None:
    with pytest.raises(HandError, match="card 3 is joker number 3; the joker rules allow at most 2"):
        evaluate("JK JK JK 2C 7D", rules="joker")
    with pytest.raises(HandError, match="jokers are wild under the joker rules"):
        evaluate("JK 2C 7D 9H KS")
    with pytest.raises(HandError, match="3 jokers in hands 1 and 2"):
        showdown(["JK JK 2C 7D 9H", "JK 2D 3S 4S 5S"], rules="joker")
    assert showdown(["JK JK 2C 7D 9H", "JK 2D 3S 4S 5S"], rules="joker", decks=2).winners == (1,)


# --- one-joker: video poker's Joker Poker, 53 cards -------------------------------------------


def test_one_joker_plays_as_joker_with_one_joker() -> None:
    """one-joker has joker's ladder and its wild card's semantics; its deck
    holds one joker, so a hand, a showdown (of one deck) and a deal hold at
    most one."""
    rules, two = get_rules("one-joker"), get_rules("joker")
    assert rules.ladder == two.ladder and (rules.jokers, two.jokers) == (1, 2)
    assert len(rules.deck()) == 53 and rules.deck().count(JOKER) == 1
    for text, description, jokers in [
        ("JK 7H 7D 7S 7C", "Five of a Kind, Sevens", ["7"]),
        ("JK AS KS QS 9S", "Flush, A-K-Q-J-9", ["Js"]),
        ("JK KH KD 4C 4S", "Full House, Kings over Fours", ["Ks"]),
        ("JK 5H 6D 8C 9S", "Straight, Nine high", ["7s"]),
    ]:
        found, same = evaluate(text, rules=rules), evaluate(text, rules=two)
        assert (found.description, [c.code_str for c in found.jokers]) == (description, jokers)
        assert found.strength == same.strength and not found.natural
    assert winner(["JK 7H 7D 7S 7C", "AS KS QS JS 10S"], "one-joker") == (0,)
    assert showdown(["AS KS QS JS 10S", "AH KH QH JK 10H"], rules=rules).is_draw
    with pytest.raises(HandError, match="card 2 is joker number 2; the one-joker rules allow at most 1"):
        evaluate("JK JK AS KS QS", rules=rules)
    with pytest.raises(HandError, match="2 jokers in hands 1 and 2"):
        showdown(["JK 2C 7D 9H KS", "JK 2D 3S 4S 5S"], rules=rules)
    assert showdown(["JK 2C 7D 9H KS", "JK 2D 3S 4S 5S"], rules=rules, decks=2).winners == (1,)


def test_errors_are_one_family() -> None:
    for bad in ("JK JK JK 2C 7D", "AS AS KD QD JD", "1S 2C 3D 4H 5S"):
        with pytest.raises(FivecardError):
            evaluate(bad, rules="joker")


# --- one deck rule ------------------------------------------------------------------------

ALL_RULE_SETS = [*(get_rules(name) for name in rule_names()), wild_rules("2")]


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=lambda r: r.name)
def test_every_check_of_cards_reads_the_rule_sets_one_deck(rules: RuleSet) -> None:
    """For every card of every rule set: the deck deals as many of it as its
    limit says, and a hand, a showdown and a game's stacked deck each take
    the card exactly when the deck holds it (and as often as it holds it)."""
    deck = rules.deck()
    assert deck is rules.deck() and isinstance(deck, tuple)
    dealt = Counter(deck)
    assert all(deck.limits[card.index] == count for card, count in dealt.items())
    for card in CARDS[:53] + CARDS[54:]:
        limit = deck.limits[card.index]
        others = [c for c in dict.fromkeys(deck) if c.rank != card.rank and not c.is_joker][:10]
        hand = (card, *others[:4])
        if limit:
            Hand(hand, rules)
            assert deck.refusal(card) is None
        else:
            with pytest.raises(HandError) as refused:
                Hand(hand, rules)
            why = deck.refusal(card)
            assert why is not None and {"joker": "joker", "suit": "no suit", "rank": "not in the"}[why] in str(refused.value)
        rest = list(deck)  # the deck with the card first (in place of one of its own, if any)
        same = card if card in rest else card.rank_only()
        rest.remove(same) if same in rest else rest.pop()
        if limit:
            Game(rules=rules, seed=1, stacked=[[card, *rest]])
        else:
            with pytest.raises(GameError):
                Game(rules=rules, seed=1, stacked=[[card, *rest]])
        if limit and rules.one_deck and not card.is_joker:
            second = (card, *others[4:8])
            with pytest.raises(HandError, match=f"card {card} is in hands 1 and 2"):
                check_decks([Hand(hand, rules), Hand(second, rules)])
            check_decks([Hand(hand, rules), Hand(second, rules)], decks=2)
