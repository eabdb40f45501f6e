"""The public API says what it means: evaluations ordered by strength and
printed as their description, names that cannot be confused, explanations
that order their own arguments, `is_draw` only when no hand loses, one
default for `rules`, 1-based scores, one card index; old names still work for
one release and warn."""

from __future__ import annotations

import functools
import importlib
import inspect
import io
import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import fivecard
from fivecard import (
    RULE_SETS,
    Card,
    Hand,
    HandError,
    ParseError,
    cmp_hands,
    evaluate,
    explain,
    full_deck,
    get_rules,
    showdown,
    strength,
    strength_function,
)
from fivecard.core import cards as codec
from fivecard.core import lookup
from fivecard.core import hand as hand_module
from fivecard.cli import main
from fivecard.core.report import evaluation_json
from fivecard.core.showdown import explain_classes
from fivecard.core.lookup import codes_for, tables_for

PAIR_OF_ACES = "AS AD KH 7C 2D"
LOWER_ACES = "AH AC QS JD 9H"  # loses to PAIR_OF_ACES on the third card
SAME_ACES = "AH AC KS 7D 2C"  # draws with PAIR_OF_ACES

# The modules named like the functions they define (fivecard.evaluate is the function).
evaluate_module = importlib.import_module("fivecard.core.evaluate")


# --- 1. evaluations are ordered by strength ---------------------------------------


def test_evaluations_compare_by_strength() -> None:
    high, low, same = evaluate(PAIR_OF_ACES), evaluate(LOWER_ACES), evaluate(SAME_ACES)
    assert low < high and low <= high and high > low and high >= low
    assert not high < low and not high <= low and not low > high and not low >= high
    assert high == same and high <= same and high >= same and not high < same
    assert high != low and high.hand != same.hand  # equal: a draw, whatever the cards
    assert hash(high) == hash(same)
    assert len({high, same, low}) == 2
    assert max([low, high]) is high and min([high, low]) is low


def test_sorted_evaluations_match_the_showdown_order() -> None:
    rng = random.Random(10)
    deck = list(full_deck())
    for _ in range(50):
        cards = rng.sample(deck, 20)
        hands = [Hand.of(cards[i : i + 5]) for i in range(0, 20, 5)]
        evaluations = [evaluate(h) for h in hands]
        result = showdown(hands)
        best_first = sorted(evaluations, reverse=True)
        assert [e.strength for e in best_first] == sorted((e.strength for e in evaluations), reverse=True)
        assert max(evaluations) == evaluations[result.winners[0]]
        assert sorted(hands, key=evaluate) == sorted(hands, key=functools.cmp_to_key(cmp_hands))


def test_evaluations_under_other_rules_do_not_compare() -> None:
    standard = evaluate("AS KS QS JS TS")
    wild = evaluate("AS KS QS JS TS", rules="joker")
    for order in (
        lambda: standard < wild,
        lambda: standard <= wild,
        lambda: standard > wild,
        lambda: standard >= wild,
        lambda: sorted([standard, wild]),
    ):
        with pytest.raises(HandError) as caught:
            order()
        message = str(caught.value)
        assert message.startswith("cannot order evaluate(")
        assert any(f"under the {a} and the {b} rules" in message for a, b in [("standard", "joker"), ("joker", "standard")])
        assert "evaluate('As Ks Qs Js Ts')" in message and "evaluate('As Ks Qs Js Ts', rules='joker')" in message
    assert standard != wild and not standard == wild  # never equal, never an error
    assert len({standard, wild}) == 2 and standard in [wild, standard]


def test_evaluations_do_not_compare_with_other_things() -> None:
    e = evaluate(PAIR_OF_ACES)
    assert e != e.strength and e != PAIR_OF_ACES
    with pytest.raises(TypeError):
        e < e.strength  # type: ignore[operator]  # noqa: B015
    with pytest.raises(TypeError):
        e >= PAIR_OF_ACES  # type: ignore[operator]  # noqa: B015


def test_str_is_the_description_and_repr_pastes_back() -> None:
    for text, rules in [(PAIR_OF_ACES, "standard"), ("JK AS KS QS 9S", "joker"), ("Q, A, 5, A, A", "semi")]:
        e = evaluate(text, rules=rules)
        assert str(e) == e.description and f"{e}" == e.description
        again = eval(repr(e), {"evaluate": evaluate})
        assert again == e and again.hand == e.hand and again.rules is e.rules
        assert len(repr(e)) < 60
    assert repr(evaluate(PAIR_OF_ACES)) == "evaluate('As Ad Kh 7c 2d')"
    assert repr(evaluate("JK AS KS QS 9S", rules="joker")) == "evaluate('JK As Ks Qs 9s', rules='joker')"


# --- 2. names that cannot be confused ----------------------------------------------


def test_category_id_and_label() -> None:
    e = evaluate("KD 9C 4H KS 9D")
    assert (e.category_id, e.label) == ("two_pair", "Two Pair")
    assert (e.category.name, e.category.label) == (e.category_id, e.label)


def test_json_keys_stay_as_they_are() -> None:
    e = evaluate("KD 9C 4H KS 9D")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the library itself warns of nothing
        data = evaluation_json(e)
    assert (data["category"], data["name"], data["score"]) == ("two_pair", "Two Pair", 3)


def test_the_library_and_the_command_raise_no_deprecation_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for argv in (
            ["compare", PAIR_OF_ACES, SAME_ACES, "2S 3S 4S 5S 7H"],
            ["compare", "--json", PAIR_OF_ACES, LOWER_ACES],
            ["classify", "--json", PAIR_OF_ACES],
            ["classify", PAIR_OF_ACES],
            ["solve", "-"],
            ["solve", "-", "--json"],
            ["deal", "--players", "3", "--seed", "1"],
        ):
            stdin = io.StringIO(f"{PAIR_OF_ACES} | {LOWER_ACES}\n")
            assert main(argv, stdin=stdin, stdout=io.StringIO(), stderr=io.StringIO()) == 0, argv
        showdown([PAIR_OF_ACES, LOWER_ACES]).explanation  # noqa: B018
        explain(PAIR_OF_ACES, LOWER_ACES)


# --- 3. explanations order their own arguments -------------------------------------

# (winner, loser, rules, explanation): every kind of deciding step.
EXPLAINED = [
    (PAIR_OF_ACES, LOWER_ACES, "standard", "both One Pair of Aces; the third card decides, K beats Q"),
    ("2S 2D 2H 3C 3D", "AS AD AH 4C 3S", "standard", "Full House beats Three of a Kind"),
    ("AS AD 5H 5C 4D", "KS KD QH QC AH", "standard", "both Two Pair; the higher pair decides, Aces beat Kings"),
    ("AS AD 5H 5C 4D", "AH AC 3S 3D KD", "standard", "both Two Pair of Aces; the lower pair decides, Fives beat Threes"),
    ("6S 5D 4H 3C 2D", "5S 4D 3H 2C AD", "standard",
     "both Straight; the top card decides, 6 beats 5 (the ace plays low in 5-4-3-2-A)"),
    ("KS KD 9H 8C 2D", "QS QD AH KC 2C", "standard", "both One Pair; the pair decides, Kings beat Queens"),
    ("JK 7H 7D 7S 7C", "AS KS QS JS TS", "joker", "Five of a Kind beats Royal Flush"),
    ("Q Q Q Q 9", "Q Q Q Q 5", "semi", "both Four of a Kind of Queens; the fifth card decides, 9 beats 5"),
]


@pytest.mark.parametrize(("winner", "loser", "rules", "words"), EXPLAINED, ids=lambda v: str(v)[:20])
def test_explain_says_it_the_right_way_round(winner: str, loser: str, rules: str, words: str) -> None:
    assert explain(winner, loser, rules=rules) == words  # winner first
    assert explain(loser, winner, rules=rules) == words  # loser first: never "Q beats K"
    w, l = evaluate(winner, rules=rules), evaluate(loser, rules=rules)
    assert explain(l, w) == words
    ruleset = get_rules(rules)
    assert explain_classes(w.hand_class, l.hand_class, rules=ruleset) == words
    assert explain_classes(l.hand_class, w.hand_class, rules=ruleset) == words


def test_explain_a_draw_either_way() -> None:
    words = "both One Pair, Aces, K-7-2 kickers; suits never break ties"
    assert explain(PAIR_OF_ACES, SAME_ACES) == explain(SAME_ACES, PAIR_OF_ACES) == words
    natural, wild = "AH KH QH JH TH", "JK AS KS QS JS"
    mixed = "both Royal Flush; a natural hand and a wild hand of equal value draw"
    assert explain(natural, wild, rules="joker") == explain(wild, natural, rules="joker") == mixed
    n, w = evaluate(natural, rules="joker"), evaluate(wild, rules="joker")
    assert explain_classes(w.hand_class, n.hand_class, rules=n.rules, naturals=(False, True)) == mixed


def test_explain_classes_keeps_naturals_with_their_hands() -> None:
    """Swapping the classes swaps whether each is natural with them: a wild
    hand that loses to a natural one is not a draw."""
    winner = evaluate("AH AD AS 2C 3D", rules="joker")
    loser = evaluate("JK KD KS 2H 3H", rules="joker")
    rules = winner.rules
    expected = "both Three of a Kind; the three of a kind decides, Aces beat Kings"
    assert explain_classes(winner.hand_class, loser.hand_class, rules=rules, naturals=(True, False)) == expected
    assert explain_classes(loser.hand_class, winner.hand_class, rules=rules, naturals=(False, True)) == expected


# --- 4. is_draw: no hand loses; is_split: several winners ----------------------------


@pytest.mark.parametrize(
    ("hands", "winners", "is_split", "is_draw"),
    [
        ([PAIR_OF_ACES], (0,), False, False),
        ([PAIR_OF_ACES, LOWER_ACES], (0,), False, False),
        ([PAIR_OF_ACES, "AH AC KS 7D 2C"], (0, 1), True, True),
        ([PAIR_OF_ACES, "AH AC KS 7D 2C", "2S 3S 4S 5S 7H"], (0, 1), True, False),
        (["2S 3S 4S 5S 7H", PAIR_OF_ACES, "AH AC KS 7D 2C"], (1, 2), True, False),
        (["9S 8D 7H 6C 5D", "9H 8C 7S 6D 5C", "9D 8S 7C 6H 5S"], (0, 1, 2), True, True),
    ],
)
def test_draw_and_split(hands: list[str], winners: tuple[int, ...], is_split: bool, is_draw: bool) -> None:
    result = showdown(hands, decks=2)
    assert result.winners == winners
    assert (result.is_split, result.is_draw) == (is_split, is_draw)


def test_a_split_among_some_hands_still_reads_as_before() -> None:
    out = io.StringIO()
    hands = [PAIR_OF_ACES, "AH AC KS 7D 2C", "2S 3S 4S 5S 7H"]
    assert main(["compare", *hands], stdout=out, stderr=io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert [line.endswith("<- splits") for line in lines[:3]] == [True, True, False]
    assert lines[3].startswith("Hands 1 and 2 split: ")


# --- 5. one default for rules ------------------------------------------------------

PUBLIC_WITH_RULES: list[Callable[..., Any]] = [
    fivecard.evaluate,
    fivecard.strength,
    fivecard.strength_function,
    fivecard.showdown,
    fivecard.cmp_hands,
    fivecard.explain,
    fivecard.check_decks,
    Hand.parse,
    Hand.of,
    hand_module.as_hand,
]


@pytest.mark.parametrize("function", PUBLIC_WITH_RULES, ids=lambda f: f.__qualname__)
def test_every_rules_argument_defaults_to_none(function: Callable[..., Any]) -> None:
    assert inspect.signature(function).parameters["rules"].default is None


def test_none_means_the_rules_the_hands_carry_else_standard() -> None:
    semi = Hand.parse("Q Q Q Q 9", rules="semi")
    assert evaluate(semi).rules is semi.rules and strength(semi) == evaluate(semi).strength
    assert Hand.parse(PAIR_OF_ACES).rules is get_rules("standard")
    assert Hand(Hand.parse(PAIR_OF_ACES).cards, None).rules is get_rules("standard")  # type: ignore[arg-type]
    indices = Hand.parse("AS KS QS JS TS").indices
    assert strength_function()(indices) == strength_function("standard")(indices) == 7462
    assert strength_function(text=True)("AS KS QS JS TS") == 7462
    assert showdown([semi, "Q Q Q Q 5"]).evaluations[1].rules is semi.rules
    # A name or a RuleSet given applies to every hand.
    assert evaluate(Hand.parse(PAIR_OF_ACES), rules="semi").rules is semi.rules
    assert showdown([Hand.parse(PAIR_OF_ACES), semi], rules="semi").winners == (1,)


# --- 6. scores are 1-based ---------------------------------------------------------


@pytest.mark.parametrize("name", RULE_SETS)
def test_scores_and_strengths_count_from_one(name: str) -> None:
    rules = RULE_SETS[name]
    assert [rules.score(c) for c in rules.ladder] == list(range(1, len(rules.ladder) + 1))
    classes = list(tables_for(rules).classes())
    assert [c.strength for c in classes] == list(range(1, len(classes) + 1))
    # The weakest hand: 7-5-4-3-2; J-9-8-7-6 in the short deck (10-9-8-7-6 is a straight);
    # 8-6-5-4-3 in deuces wild (a 2 is wild); the highest four of a kind in
    # ace-to-five lowball, a royal flush in deuce-to-seven.
    text = {
        "semi": "7 5 4 3 2",
        "short-deck": "JD 9C 8H 7S 6D",
        "deuces-wild": "8D 6C 5H 4S 3D",
        "ace-to-five": "KS KH KD KC QS",
        "deuce-to-seven": "AS KS QS JS TS",
    }.get(name, "7D 5C 4H 3S 2D")
    weakest = evaluate(text, rules=rules)
    assert (weakest.score, weakest.strength) == (1, 1)


# --- 7. one card index -------------------------------------------------------------


def test_every_card_index_round_trips() -> None:
    assert len(codec.CARDS) == len(codec.TEXTS) == len(lookup.CODES) == 67  # 52 suited, the joker twice, 13 ranks alone
    assert len(set(codec.CARDS)) == 66
    for index, card in enumerate(codec.CARDS):
        assert card.index == (codec.JOKER.index if index == 53 else index)
        assert Card.parse(codec.TEXTS[index]) == card and codec.TEXTS[index] == card.code_str
        assert lookup.CODES[index] == lookup._code(card.rank, card.suit)
        if card.rank is None:
            assert index in (52, 53)
        elif card.suit is None:
            assert index == 54 + 14 - card.rank
        else:
            assert index == 4 * (14 - card.rank) + card.suit.order


def test_ascending_index_sorts_a_hands_cards_like_sort_keys() -> None:
    """Suited cards with jokers, or ranks alone: as a hand holds them."""
    rng = random.Random(7)
    suited = [c for c in codec.CARDS[:54]] * 2
    alone = list(codec.CARDS[54:]) * 5
    for cards in (suited, alone):
        for _ in range(20):
            rng.shuffle(cards)
            by_index = sorted(cards, key=lambda c: c.index)
            assert by_index == sorted(cards, key=lambda c: c.sort_key, reverse=True)


def test_token_codes_leave_out_what_needs_a_check() -> None:
    suited, plain = evaluate_module._token_codes(True), evaluate_module._token_codes(False)
    assert suited["As"] == suited["A♠"] == lookup.CODES[Card.parse("AS").index]
    assert "JK" not in suited and "JK" not in plain and "Q" not in suited
    assert plain["Q"] == lookup.CODES[Card.parse("Q").index] and plain["10♦"] == lookup.CODES[Card.parse("TD").index]
    assert all(lookup.CODES[codec.TOKENS[t].index] == code for t, code in plain.items())


@pytest.mark.parametrize("name", RULE_SETS)
@pytest.mark.slow
def test_the_fast_functions_agree_with_the_one_lookup_index(name: str) -> None:
    """strength_function (of indices and of text) inlines lookup_index."""
    rules = RULE_SETS[name]
    lookup_table = tables_for(rules).lookup
    by_indices, by_text = strength_function(rules), strength_function(rules, text=True)
    rng = random.Random(name)
    deck = list(rules.deck()) if rules.suits else list(full_deck(suits=False)) * 4
    for _ in range(3_000):
        hand = Hand.of(rng.sample(deck, 5), rules=rules)
        expected = lookup_table[lookup.lookup_index([codes_for(rules)[i] for i in hand.indices])]
        assert expected > 0
        assert by_indices(hand.indices) == expected == evaluate(hand).strength
        assert by_text(" ".join(codec.TEXTS[i] for i in hand.indices)) == expected


def test_hands_use_the_card_index() -> None:
    hand = Hand.parse("2C JK AS 10D Q♦", rules="joker")
    assert hand.sorted() == tuple(sorted(hand.cards, key=lambda c: c.index))
    assert repr(hand) == "Hand.parse('2c JK As Td Qd', rules='joker')"
    assert evaluate_module.lookup_index is lookup.lookup_index
