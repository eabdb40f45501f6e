"""``strength_function(text=True)`` answers exactly as :meth:`Hand.parse` does:
the same strength for a hand in any spelling, the same error for anything
else. Its fast paths (two-letter cards between single spaces read as bytes;
known tokens between single spaces) must never accept what the parser
refuses nor score a hand differently."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_text

from fivecard import Card, Hand, full_deck, get_rules, rule_names, strength_function
from fivecard.core.cards import TOKENS
from fivecard.core.lookup import codes_for, tables_for
from fivecard.core.lookup import lookup_index as _index

#: Every spelling of every card (jokers and rank-only cards included).
SPELLINGS: dict[Card, list[str]] = {}
for _token, _card in TOKENS.items():
    SPELLINGS.setdefault(_card, []).append(_token)
CARDS = sorted(SPELLINGS, key=lambda c: c.index)
DECK = list(full_deck())
FUNCTIONS = {name: strength_function(name, text=True) for name in rule_names()}


def parsed(text: object, rules: str) -> tuple[str, object]:
    """What Hand.parse makes of it: ("ok", strength) or (error type, message)."""
    ruleset = get_rules(rules)
    if not isinstance(text, str):
        return ("TypeError", "not text")
    try:
        hand = Hand.parse(text, rules=ruleset)
    except Exception as error:  # noqa: BLE001 - compared, not swallowed
        return (type(error).__name__, str(error))
    return ("ok", tables_for(ruleset).lookup[_index([codes_for(ruleset)[i] for i in hand.indices])])


def fast(text: object, rules: str) -> tuple[str, object]:
    try:
        value = FUNCTIONS[rules](text)  # type: ignore[arg-type]
    except TypeError as error:
        assert "expected a hand as text" in str(error)
        return ("TypeError", "not text")
    except Exception as error:  # noqa: BLE001 - compared, not swallowed
        return (type(error).__name__, str(error))
    return ("ok", value)


@st.composite
def spelled_hands(draw: st.DrawFn) -> str:
    """Four to six cards (a card may repeat), each in any of its spellings,
    mostly between single spaces."""
    count = draw(st.sampled_from((5, 5, 5, 5, 5, 4, 6)))
    cards = [draw(st.sampled_from(CARDS)) for _ in range(count)]
    if count == 5 and draw(st.booleans()):
        cards[draw(st.integers(0, 4))] = cards[draw(st.integers(0, 4))]
    ascii_only = draw(st.booleans())
    tokens = []
    for card in cards:
        spellings = [s for s in SPELLINGS[card] if s.isascii() or not ascii_only]
        tokens.append(draw(st.sampled_from(spellings)))
    separator = draw(st.sampled_from((" ", " ", " ", " ", "  ", ",", ", ", "\t", "\n", "-", "\x00")))
    return separator.join(tokens)


@pytest.mark.parametrize("rules", rule_names())
@settings(max_examples=150)
@given(text=st.one_of(spelled_hands(), any_text))
@pytest.mark.slow
def test_agrees_with_the_parser(rules: str, text: str) -> None:
    assert fast(text, rules) == parsed(text, rules)


@pytest.mark.parametrize("rules", rule_names())
@settings(max_examples=80)
@given(cards=st.permutations(DECK), lower=st.booleans())
@pytest.mark.slow
def test_deals_in_the_usual_spelling(rules: str, cards: list[Card], lower: bool) -> None:
    text = " ".join(c.code_str for c in cards[:5])  # "As Kd 7c 7h 2s"
    text = text.lower() if lower else text.upper()
    assert fast(text, rules) == parsed(text, rules)


@pytest.mark.parametrize("rules", ["standard", "ace-king", "joker"])
@settings(max_examples=60)
@given(cards=st.permutations(DECK), spelling=st.randoms(use_true_random=False))
def test_a_card_twice_in_any_spelling_is_refused(rules: str, cards: list[Card], spelling: object) -> None:
    import random

    assert isinstance(spelling, random.Random)
    hand = cards[:5]
    hand[1] = hand[0]  # a card twice
    spelling.shuffle(hand)
    ascii_only = spelling.random() < 0.5
    text = " ".join(
        spelling.choice([s for s in SPELLINGS[c] if s.isascii() or not ascii_only]) for c in hand
    )
    kind, message = fast(text, rules)
    assert kind == "HandError" and "duplicate card" in str(message)
    assert (kind, message) == parsed(text, rules)


@pytest.mark.parametrize(
    "text",
    [
        "AS KS QS JS TS",
        "as ks qs js ts",
        "AS AS KD QD JD",  # a card twice
        "AS as KD QD JD",  # the same card in two spellings
        "AH AS AD AC AH",
        "AS AS AS AS AS",
        "2C 2D 2H 2S 2C",
        "TS 10S 9S 8S 7S",
        "A♠ K♠ Q♠ J♠ 10♠",
        "10 10 10 10 10",
        "A K Q J T",
        "JK JK AS KS QS",
        "JK AS AH AD AC",
        "AS KS QS JS TS ",
        " AS KS QS JS TS",
        "AS KS QS JS  TS",
        "AS,KS,QS,JS,TS",
        "AS\tKS QS JS TS",
        "AS KS QS JS\nTS",
        "AS KS QS JS T\udc80",
        "AS\x00KS QS JS TS",
        "AS KS QS JS TSX",
        "AS KS QS JS",
        "AS KS QS JS TS 9S",
        "ASXKSXQSXJSXTS",
        "A♠KS QS JS TS",
        "",
    ],
)
@pytest.mark.parametrize("rules", rule_names())
def test_edge_cases(rules: str, text: str) -> None:
    assert fast(text, rules) == parsed(text, rules)


@pytest.mark.parametrize("value", [None, 5, b"AS KD 7C 7H 2S", ["AS"] * 5, bytearray(b"AS KD 7C 7H 2S")])
def test_anything_but_text_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError, match="expected a hand as text"):
        FUNCTIONS["standard"](value)  # type: ignore[arg-type]


def test_every_flush_and_every_pair_of_suits() -> None:
    # Each suit's flushes and every two-suit split of a hand, in both cases.
    f = FUNCTIONS["standard"]
    for suits in ("SSSSS", "HHHHH", "DDDDD", "CCCCC", "SSSSH", "CDCDC", "SHDCS"):
        for ranks in ("AKQJT", "5432A", "AK973", "KQ862"):
            text = " ".join(r + s for r, s in zip(ranks, suits))
            assert f(text) == f(text.lower()) == parsed(text, "standard")[1]


@pytest.mark.parametrize("best_five", [False, True])
def test_indices_of_the_wrong_count_or_past_the_deck_are_errors(execution: str, best_five: bool) -> None:
    for rules in rule_names():
        score = strength_function(rules, best_five=best_five)
        most = 7 if best_five else 5
        with pytest.raises(ValueError):
            score(list(range(4)))
        with pytest.raises(ValueError):
            score(list(range(most + 1)))
        with pytest.raises(IndexError):
            score([*range(most - 1), 10_000])
