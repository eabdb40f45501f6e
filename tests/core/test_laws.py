"""Laws, checked with hypothesis: showdowns are antisymmetric and transitive,
blind to card order and suit names; notation round-trips; any text gives a
hand or a FivecardError, nothing else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard import (
    Card,
    FivecardError,
    Hand,
    Suit,
    evaluate,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    showdown,
)

DECK = full_deck()
hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True).map(Hand.of)
two_decks = st.lists(st.sampled_from(DECK), min_size=15, max_size=15, unique=True)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def beats(a: Hand, b: Hand) -> int:
    """1, 0 or -1 from a two-hand showdown (one deck not needed: two decks)."""
    result = showdown([a, b], decks=2)
    return 0 if result.is_draw else (1 if result.winners == (0,) else -1)


@given(hands, hands)
def test_antisymmetric(a: Hand, b: Hand) -> None:
    assert beats(a, b) == -beats(b, a)
    assert beats(a, b) == sign(evaluate(a).strength - evaluate(b).strength)


@given(hands, hands, hands)
def test_transitive(a: Hand, b: Hand, c: Hand) -> None:
    if beats(a, b) >= 0 and beats(b, c) >= 0:
        assert beats(a, c) >= 0
        if beats(a, b) > 0 or beats(b, c) > 0:
            assert beats(a, c) > 0


@given(hands, st.randoms(use_true_random=False))
def test_card_order_does_not_matter(hand: Hand, rnd: object) -> None:
    cards = list(hand.cards)
    rnd.shuffle(cards)  # type: ignore[attr-defined]
    shuffled = Hand.of(cards)
    assert evaluate(shuffled).strength == evaluate(hand).strength
    assert evaluate(shuffled).description == evaluate(hand).description
    assert shuffled.sorted() == hand.sorted()


@given(hands, st.permutations(list(Suit)))
def test_renaming_suits_does_not_matter(hand: Hand, suits: list[Suit]) -> None:
    rename = dict(zip(Suit, suits))
    renamed = Hand.of(Card(c.rank, rename[c.suit] if c.suit else None) for c in hand.cards)
    assert evaluate(renamed).strength == evaluate(hand).strength
    assert beats(hand, renamed) == 0


@given(two_decks)
def test_showdown_order_is_sorted_by_strength(cards: list[Card]) -> None:
    three = [Hand.of(cards[i : i + 5]) for i in (0, 5, 10)]
    result = showdown(three)
    strengths = [[result.evaluations[i].strength for i in tier] for tier in result.order]
    assert all(len(set(tier)) == 1 for tier in strengths)
    assert [tier[0] for tier in strengths] == sorted({s[0] for s in strengths}, reverse=True)
    assert sorted(i for tier in result.order for i in tier) == [0, 1, 2]


@given(hands)
def test_format_parse_round_trip(hand: Hand) -> None:
    for ascii_form in (True, False):
        text = format_cards(hand.cards, ascii=ascii_form)
        assert Hand.parse(text) == hand
    assert eval(repr(hand), {"Hand": Hand}) == hand  # repr can be pasted back
    for card in hand.cards:
        assert parse_card(card.code_str) == card == parse_card(str(card))
        assert eval(repr(card), {"Card": Card}) == card


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_any_text_is_a_hand_or_a_fivecard_error(text: str) -> None:
    try:
        hand = Hand.parse(text)
    except FivecardError as exc:
        assert isinstance(exc, ValueError)
        assert str(exc)
    else:
        assert Hand.parse(format_cards(hand.cards)) == hand


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["A", "k", "10", "T", "7", "s", "H", "♦", "♣", ",", " ", "1", "JK", "x"]),
                max_size=14).map("".join))
def test_card_like_text_is_cards_or_a_fivecard_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except FivecardError:
        return
    assert parse_cards(format_cards(cards)) == cards


# --- every rule set -----------------------------------------------------------------

JOKER_DECK = full_deck(jokers=2)
joker_hands = st.lists(
    st.integers(0, len(JOKER_DECK) - 1), min_size=5, max_size=5, unique=True
).map(lambda ix: Hand.of((JOKER_DECK[i] for i in ix), rules="joker"))
semi_hands = st.lists(st.sampled_from(full_deck(suits=False)), min_size=5, max_size=5).map(
    lambda cards: Hand.of(cards, rules="semi")
)
ace_king_hands = hands.map(lambda h: Hand.of(h.cards, rules="ace-king"))
ace_to_five_hands = hands.map(lambda h: Hand.of(h.cards, rules="ace-to-five"))
deuce_to_seven_hands = hands.map(lambda h: Hand.of(h.cards, rules="deuce-to-seven"))
BY_RULES = {
    "joker": joker_hands,
    "semi": semi_hands,
    "ace-king": ace_king_hands,
    "ace-to-five": ace_to_five_hands,
    "deuce-to-seven": deuce_to_seven_hands,
}


@given(st.one_of(*BY_RULES.values()), st.data())
def test_laws_hold_under_every_rule_set(hand: Hand, data: st.DataObject) -> None:
    rules = hand.rules
    other = data.draw(BY_RULES[rules.name])
    third = data.draw(BY_RULES[rules.name])
    a, b, c = (evaluate(h) for h in (hand, other, third))
    pair = showdown([hand, other], decks=2)
    assert (pair.winners == (0, 1)) == (a.strength == b.strength)
    if a.strength != b.strength:
        assert pair.winners == ((0,) if a.strength > b.strength else (1,))
    if a.strength >= b.strength >= c.strength:
        assert showdown([third, hand], decks=2).winners[0] == 1 or a.strength == c.strength
    # Card order and suit names do not matter.
    reversed_hand = Hand.of(reversed(hand.cards), rules=rules)
    assert evaluate(reversed_hand).strength == a.strength
    rename = dict(zip(Suit, [Suit.HEARTS, Suit.CLUBS, Suit.SPADES, Suit.DIAMONDS]))
    renamed = Hand.of((Card(x.rank, rename[x.suit] if x.suit else None) for x in hand.cards), rules=rules)
    assert evaluate(renamed).strength == a.strength
    assert Hand.parse(format_cards(hand.cards, ascii=True), rules=rules) == hand
    # The jokers became cards that, put in their place, make a hand as good.
    if a.jokers and all(j.suit is not None for j in a.jokers):
        naturals = [x for x in hand.cards if not x.is_joker]
        replaced = Hand.of(naturals + list(a.jokers), rules="standard")
        assert evaluate(replaced).strength == a.strength
