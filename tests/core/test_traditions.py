"""Every example of the source traditions that applies to the standard rules:
ModelOff 2012 (the financial-modelling competition's poker hands case), the
Japanese tie-breaking text, Semi-Poker (ranks only, played here with suits) and
the Russian combination seniority (its standard categories).
"""

from __future__ import annotations

import pytest
from helpers import SEMI_POKER_BEATS, SEMI_POKER_HANDS, ranked

from fivecard import Hand, Rank
from fivecard import evaluate
from fivecard import showdown


def wins(first: str | Hand, second: str | Hand, *, decks: int = 1) -> None:
    result = showdown([first, second], decks=decks)
    assert result.winners == (0,), result.explanation
    reverse = showdown([second, first], decks=decks)
    assert reverse.winners == (1,), reverse.explanation


def draws(first: str | Hand, second: str | Hand, *, decks: int = 1) -> None:
    result = showdown([first, second], decks=decks)
    assert result.winners == (0, 1), result.explanation
    assert result.explanation.startswith("Draw: ")
    assert "suits never break ties" in result.explanation


# --- ModelOff 2012 ----------------------------------------------------------

MODELOFF_CATEGORIES = [
    ("A♦ K♦ Q♦ J♦ 10♦", "royal_flush", 10),
    ("Q♣ J♣ 10♣ 9♣ 8♣", "straight_flush", 9),
    ("9♣ 9♠ 9♦ 9♥ J♥", "four_of_a_kind", 8),
    ("3♣ 3♠ 3♦ 6♣ 6♥", "full_house", 7),
    ("Q♣ 10♣ 7♣ 6♣ 4♣", "flush", 6),
    ("Q♣ J♠ 10♠ 9♥ 8♥", "straight", 5),
    ("2♦ 2♠ 2♣ K♠ 6♥", "three_of_a_kind", 4),
    ("J♥ J♣ 4♣ 4♠ 9♥", "two_pair", 3),
    ("4♥ 4♠ K♠ 10♦ 5♠", "one_pair", 2),
    ("K♥ J♥ 8♣ 7♦ 4♠", "high_card", 1),
    ("A♥ 2♥ 3♠ 4♥ 5♣", "straight", 5),  # the ace low in a low straight
]


@pytest.mark.parametrize(("text", "category", "score"), MODELOFF_CATEGORIES)
def test_modeloff_table_3_categories_and_scores(text: str, category: str, score: int) -> None:
    """ModelOff Table 3: classification and score of each example hand."""
    result = evaluate(text)
    assert (result.category.name, result.score) == (category, score)


def test_modeloff_notation() -> None:
    """ModelOff: cards typed as value then suit letter, e.g. KD, 9C, 4H."""
    hand = Hand.parse("KD, 9C, 4H, 2s, 7h")
    assert [c.code_str for c in hand.sorted()] == ["Kd", "9c", "7h", "4h", "2s"]


def test_modeloff_step_1_sorts_high_to_low_ace_high() -> None:
    """ModelOff step 1: sort each hand by value, highest to lowest, ace high."""
    hand = Hand.parse("5C AH 3S 4H 2H")
    assert " ".join(str(c) for c in hand.sorted()) == "A♥ 5♣ 4♥ 3♠ 2♥"


def test_modeloff_royal_flush_beats_flush() -> None:
    wins("A♦ K♦ Q♦ J♦ 10♦", "Q♣ 10♣ 7♣ 6♣ 4♣")
    assert showdown(["A♦ K♦ Q♦ J♦ 10♦", "Q♣ 10♣ 7♣ 6♣ 4♣"]).explanation == (
        "Hand 1 wins: Royal Flush beats Flush"
    )


def test_modeloff_flush_tie_breaker() -> None:
    wins("Q♣ 10♣ 7♣ 6♣ 4♣", "Q♦ 10♦ 7♦ 5♦ 4♦")
    assert showdown(["Q♣ 10♣ 7♣ 6♣ 4♣", "Q♦ 10♦ 7♦ 5♦ 4♦"]).explanation == (
        "Hand 1 wins: both Flush; the fourth card decides, 6 beats 5"
    )


def test_modeloff_two_pair_dead_heat() -> None:
    draws("10♦ 10♥ 4♥ 4♣ 3♠", "10♠ 10♣ 4♠ 4♦ 3♥")


def test_modeloff_two_royal_flushes_draw() -> None:
    draws("A♦ K♦ Q♦ J♦ 10♦", "A♠ K♠ Q♠ J♠ 10♠")


@pytest.mark.parametrize(
    ("winner", "loser", "decks"),
    [
        ("9♣ 9♠ 9♦ 9♥ J♥", "7♠ 7♥ 7♦ 7♣ A♠", 1),
        ("7♠ 7♥ 7♦ 4♠ 4♣", "6♠ 6♥ 6♦ A♠ A♣", 1),
        ("Q♠ Q♥ Q♦ 7♠ 4♣", "J♠ J♣ J ♦ A♦ K♣", 1),  # 'J ♦' as typeset in the case
        ("10♠ 10♣ 8♦ 8♠ 4♥", "8♥ 8♣ 4♠ 4♣ 10♥", 1),
        # The case's own example shares 4♠ between the hands: two decks.
        ("10♠ 10♣ 8♥ 8♣ 4♠", "10♦ 10♥ 4♠ 4♥ Q♥", 2),
    ],
)
def test_modeloff_tie_breakers(winner: str, loser: str, decks: int) -> None:
    wins(winner, loser, decks=decks)


# --- the Japanese tie-breaking text ----------------------------------------------


@pytest.mark.parametrize(
    ("winner", "loser", "explanation"),
    [
        ("A-J-9-5-3", "A-J-8-7-6", "both High Card; the third card decides, 9 beats 8"),
        ("A-A-K-7-2", "A-A-Q-J-10", "both One Pair of Aces; the third card decides, K beats Q"),
        ("K-K-4-4-A", "Q-Q-J-J-K", "both Two Pair; the higher pair decides, Kings beat Queens"),
        ("3-3-3-A-A", "2-2-2-K-K", "both Full House; the three of a kind decides, Threes beat Twos"),
        ("2-3-4-5-6", "A-2-3-4-5", "both Straight; the top card decides, 6 beats 5 "
         "(the ace plays low in 5-4-3-2-A)"),
        ("A-K-Q-J-10", "K-Q-J-10-9", "both Straight; the top card decides, A beats K"),
    ],
)
def test_tie_breaking_one_rule_for_every_category(winner: str, loser: str, explanation: str) -> None:
    """Tie-breaking: categories, then groups largest first, then kickers high to low."""
    first, second = ranked(winner.replace("-", " ")), ranked(loser.replace("-", " "), offset=1)
    result = showdown([first, second], decks=2)
    assert result.winners == (0,)
    assert result.explanation == f"Hand 1 wins: {explanation}"
    wins(first, second, decks=2)


def test_tie_breaking_group_lists() -> None:
    """Tie-breaking: K-K-4-4-A compares as K, 4, A; Q-Q-J-J-K as Q, J, K."""
    assert [int(r) for r in evaluate(ranked("K K 4 4 A")).key] == [13, 4, 14]
    assert [int(r) for r in evaluate(ranked("Q Q J J K")).key] == [12, 11, 13]


def test_tie_breaking_wheel_is_the_weakest_straight_and_no_wrap_around() -> None:
    wheel = evaluate(ranked("A 2 3 4 5"))
    assert wheel.description == "Straight, Five high"
    assert " ".join(c.short for c in wheel.hand_class.order) == "5 4 3 2 A"
    assert evaluate(ranked("Q K A 2 3")).category.name == "high_card"
    straights = sorted(
        evaluate(ranked(" ".join(Rank(r).short for r in ranks))).strength
        for ranks in [[14, 2, 3, 4, 5]] + [list(range(top - 4, top + 1)) for top in range(6, 15)]
    )
    assert len(set(straights)) == 10


def test_tie_breaking_suits_never_count() -> None:
    draws("A♠ A♥ K♣ Q♦ J♠", "A♣ A♦ K♥ Q♠ J♦")
    draws("A♠ J♠ 9♠ 5♠ 3♠", "A♥ J♥ 9♥ 5♥ 3♥")


# --- Semi-Poker, played with suits under the standard rules -----------------------



@pytest.mark.parametrize(("winner", "loser"), SEMI_POKER_BEATS)
def test_semi_poker_beats_under_standard_rules(winner: str, loser: str) -> None:
    """Semi-Poker's 'beats' table also holds with suits (two decks where its
    hands repeat ranks, e.g. Q-Q-Q-Q-9 against Q-Q-Q-Q-5)."""
    wins(ranked(winner), ranked(loser, offset=1), decks=2)


@pytest.mark.parametrize(
    ("text", "category"),
    SEMI_POKER_HANDS,
)
def test_semi_poker_hand_examples(text: str, category: str) -> None:
    assert evaluate(ranked(text)).category.name == category


# --- combination seniority, standard categories -------------------------------------


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        ("A K J 3 2", "A K 10 9 8"),
        ("5 5 4 3 2", "4 4 A K Q"),
        ("5 5 Q 3 2", "5 5 J 10 9"),
        ("A A 2 2 3", "K K Q Q A"),
        ("A K Q J 10", "5 4 3 2 A"),
        ("3 3 3 2 2", "2 2 2 A A"),
    ],
)
def test_combination_seniority_examples(winner: str, loser: str) -> None:
    wins(ranked(winner), ranked(loser, offset=1), decks=2)


def test_combination_seniority_straights_and_royal_flushes() -> None:
    """Combination seniority: A-K-Q-J-10 is the highest straight, 5-4-3-2-A the lowest; no
    straight has an ace inside; a heart and a club royal flush are equal."""
    straights = [
        evaluate(ranked(" ".join(Rank(top - i).short for i in range(5))))
        for top in range(6, 15)
    ]
    wheel = evaluate(ranked("5 4 3 2 A"))
    assert all(wheel.strength < s.strength for s in straights)
    assert max(s.strength for s in straights) == evaluate(ranked("A K Q J 10")).strength
    assert evaluate(ranked("4 3 2 A K")).category.name == "high_card"
    assert evaluate(ranked("3 2 A K Q")).category.name == "high_card"
    draws("AH KH QH JH TH", "AC KC QC JC TC")


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Q J 10 9 8", "straight"),
        ("J J J J 4", "four_of_a_kind"),
        ("6 6 6 K K", "full_house"),
        ("9 8 7 6 5", "straight"),
        ("9 9 9 Q 4", "three_of_a_kind"),
        ("A A 5 5 10", "two_pair"),
        ("8 8 K 4 2", "one_pair"),
        ("A K 8 7 3", "high_card"),
        ("J 10 7 5 2", "high_card"),
    ],
)
def test_combination_seniority_categories_under_standard(text: str, category: str) -> None:
    assert evaluate(ranked(text)).category.name == category
