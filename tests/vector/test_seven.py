"""The best five of six or seven cards: the fast paths (core.seven's two
lookups, bulk.seven's columns) against the definition (the best over every
five), the single hand against the batch, wild hands against brute-force
substitution (the reference evaluator, tests/oracle.py), the whole 52-card
deck's known counts, and pokerkit as an independent oracle."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from math import comb

import numpy as np
import numpy.typing as npt
import oracle
import pokerkit
import pytest
from helpers import RANKS, SUITS, assert_same_order
from hypothesis import given
from hypothesis import strategies as st

from fivecard.vector import batch
from fivecard.vector import seven as bulk_seven
from fivecard.core import seven
from fivecard import strength_function
from fivecard.core.cards import CARDS, TEXTS, Card, Suit, full_deck
from fivecard.core.rules import RULE_SETS, RuleSet, get_rules, wild_rules
from fivecard.core.lookup import JOKER_WEIGHT, RANK_WEIGHTS, tables_for
from fivecard.core.errors import FivecardError

#: Every rule set, and one with wild cards named by the user.
ALL_RULES: tuple[RuleSet, ...] = (*RULE_SETS.values(), wild_rules("2"))
RULE_IDS = [r.name for r in ALL_RULES]
#: The rule sets with the fast path (every one but deuce-to-seven lowball).
FAST_RULES = ("standard", "ace-king", "semi", "joker", "one-joker", "short-deck", "deuces-wild", "one-eyed-jacks")

#: Over all 133,784,560 seven-card hands of 52 cards: the best five's category.
SEVEN_CARD_COUNTS = {
    "royal_flush": 4_324,
    "straight_flush": 37_260,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "one_pair": 58_627_800,
    "high_card": 23_294_460,
}


def deck_indices(rules: RuleSet) -> list[int]:
    """The card indices of the rule set's dealt deck (semi: 52 rank-only cards)."""
    return [c.index for c in rules.deck()]


def random_hands(rules: RuleSet, size: int, count: int, seed: int) -> npt.NDArray[np.int32]:
    rng = random.Random(seed)
    deck = deck_indices(rules)
    return np.array([rng.sample(deck, size) for _ in range(count)], dtype=np.int32)


def category_counts(counts: npt.NDArray[np.int64], rules: RuleSet) -> dict[str, int]:
    made: Counter[str] = Counter()
    tables = tables_for(rules)
    for strength in np.flatnonzero(counts).tolist():
        made[tables.hand_class(strength).category.name] += int(counts[strength])
    return dict(made)


# --- the keys -------------------------------------------------------------------------


def multisets(size: int, most: int) -> npt.NDArray[np.int64]:
    """Every multiset of ``size`` of 13 ranks, no rank more than ``most``
    times, as rows of counts."""
    rows = [np.bincount(m, minlength=13) for m in itertools.combinations_with_replacement(range(13), size)]
    counts = np.array(rows, dtype=np.int64)
    kept: npt.NDArray[np.int64] = counts[counts.max(axis=1) <= most]
    return kept


@pytest.mark.parametrize(
    ("weights", "most"), [(seven.SUITED_WEIGHTS, 4), (seven.RANK_ONLY_WEIGHTS, 7)]
)
def test_rank_weights_key_every_multiset_of_six_and_seven(weights: tuple[int, ...], most: int) -> None:
    # sizes below six: the natural cards beside wild cards
    for size in range(1, 8):
        sums = multisets(size, min(most, size)) @ np.array(weights, dtype=np.int64)
        assert len(np.unique(sums)) == len(sums)
        # the key fits below the suit counters' and the invalid mark's bits
        assert int(sums.max()) < 1 << seven.WILD_SHIFT
    assert 7 << seven.KEY_SHIFT + seven.WILD_SHIFT < seven.INVALID


@pytest.mark.slow
def test_tables_from_the_cache_are_the_tables_built() -> None:
    for rules in (get_rules("standard"), get_rules("semi"), get_rules("short-deck"), get_rules("deuces-wild")):
        weights = seven.SUITED_WEIGHTS if rules.suits else seven.RANK_ONLY_WEIGHTS
        built, payload = seven._build(rules, weights, tables_for(rules).lookup)
        loaded = seven._from_payload(rules, weights, payload)
        assert loaded is not None
        assert loaded.best == built.best and loaded.flush == built.flush
        assert seven._from_payload(rules, weights, payload[:4]) is None
        assert seven._from_payload(rules, weights, (*payload[:4], b"\x00")) is None


def test_the_fast_path_wherever_a_flush_is_never_weaker() -> None:
    """Wild cards too (a key counts them, and each suit's flushes take
    them); only a rule set where a flush counts against the hand
    (deuce-to-seven lowball) goes without."""
    for name in (*FAST_RULES, "standard+wild(2)"):
        assert seven.seven_tables(get_rules(name)) is not None, name
    for rules in ALL_RULES:
        tables = seven.seven_tables(rules)
        assert (tables is None) == (not seven._flush_never_weaker(rules, tables_for(rules).lookup))
        assert tables is None or tables.wild == bool(rules.wild_indices)
    if "deuce-to-seven" in RULE_SETS:
        assert seven.seven_tables(get_rules("deuce-to-seven")) is None


def test_a_flush_weaker_than_its_ranks_takes_the_brute_force() -> None:
    """A rule set whose flush would lose to the same ranks unsuited (as in
    deuce-to-seven) has no fast path: the table check finds it."""
    rules = get_rules("standard")
    lookup = list(tables_for(rules).lookup)
    assert seven._flush_never_weaker(rules, lookup)
    from fivecard.core.lookup import KEY_SPACE

    key = sum(RANK_WEIGHTS[r - 2] for r in (14, 13, 12, 11, 9))  # A-K-Q-J-9
    lookup[key + KEY_SPACE] = lookup[key] - 1
    assert not seven._flush_never_weaker(rules, lookup)
    # with wild cards: two of them beside A-K-Q of one suit
    wild = get_rules("deuces-wild")
    lookup = list(tables_for(wild).lookup)
    assert seven._flush_never_weaker(wild, lookup)
    key = sum(RANK_WEIGHTS[r - 2] for r in (14, 13, 12)) + 2 * JOKER_WEIGHT
    lookup[key + KEY_SPACE] = lookup[key] - 1
    assert not seven._flush_never_weaker(wild, lookup)


# --- the fast paths against the definition --------------------------------------------


def sub_decks(rules: RuleSet) -> list[list[int]]:
    """Two 20-card pieces of the dealt deck: one rich in flushes and
    straights (a whole suit with wheel and ace-high runs, pairs beside), one
    at random."""
    deck = deck_indices(rules)
    cards = rules.deck()
    rng = random.Random(20)
    if rules.suits:
        # every wild card (up to four: the joker deck's two jokers are one card), then spades
        wild = sorted({c.index for c in cards if rules.is_wild(c)})[:4]
        first_suit = [c.index for c in cards if c.suit is Suit.SPADES and c.index not in wild]
        others = [c.index for c in cards if c.suit is not Suit.SPADES and c.index not in wild]
        rich = wild + first_suit[: 16 - len(wild)]
        rich += rng.sample(others, 20 - len(rich))
    else:
        rich = deck[:20]
    return [rich, rng.sample(deck, 20)]


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.slow
def test_every_hand_of_a_sub_deck_fast_equals_the_best_of_every_five(rules: RuleSet, execution: str) -> None:
    """Every 6- and 7-card hand of two 20-card sub-decks (116,280 hands
    each): the batch path (fast where the rule set allows) equals the best
    over every five, and so does the single-hand fast function on a sample."""
    single = strength_function(rules, best_five=True)
    for piece in sub_decks(rules):
        codes = np.array(piece, dtype=np.int32)
        for size in (6, 7):
            hands = codes[batch.combinations(20, size)]
            fast = bulk_seven.best_strengths(hands, rules=rules)
            brute = bulk_seven._brute_strengths(hands, rules)
            wrong = np.flatnonzero(fast != brute)
            assert not len(wrong), [TEXTS[i] for i in hands[wrong[0]].tolist()]
            assert fast.min() > 0
            sample = hands[:: 97].tolist()
            assert [single(h) for h in sample] == fast[:: 97].tolist()


@pytest.mark.slow
def test_whole_deck_seven_card_counts() -> None:
    """All 133,784,560 seven-card hands of 52 cards, each evaluated by the
    batch path (about 5 s): the known counts by category, 4,824 strengths."""
    rules = get_rules("standard")
    counts = bulk_seven.seven_card_counts(rules)
    assert int(counts.sum()) == comb(52, 7) == 133_784_560
    assert category_counts(counts, rules) == SEVEN_CARD_COUNTS
    assert int(np.count_nonzero(counts)) == 4_824


@pytest.mark.slow
def test_whole_short_deck_counts_one_process_and_two_and_brute_force(execution: str) -> None:
    """Every 6-card hand of the 36-card short deck (1,947,792): one process,
    two, and the best of every five, counted alike."""
    rules = get_rules("short-deck")
    one = bulk_seven.seven_card_counts(rules, cards=6, processes=1)
    two = bulk_seven.seven_card_counts(rules, cards=6, processes=2)
    assert int(one.sum()) == comb(36, 6)
    assert (one == two).all()
    codes = np.array(deck_indices(rules), dtype=np.int32)
    hands = codes[batch.combinations(36, 6)]
    brute = np.bincount(bulk_seven._brute_strengths(hands, rules), minlength=len(one))
    assert (brute == one).all()
    # five cards: the five-card census
    assert (bulk_seven.seven_card_counts(rules, cards=5) == batch.census_counts(rules)).all()


def test_seven_card_counts_rejects_other_sizes() -> None:
    with pytest.raises(FivecardError, match="not 8"):
        bulk_seven.seven_card_counts("standard", cards=8)


# --- single hand and batch ------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.slow
def test_single_hand_equals_batch(rules: RuleSet, execution: str) -> None:
    """Random hands of 5, 6 and 7 cards: strengths and the five that play,
    one hand at a time (best_five, the fast function, the brute force) and
    in a batch, all the same."""
    fast = strength_function(rules, best_five=True)
    brute = seven._brute_strength_function(rules)
    for size in (5, 6, 7):
        hands = random_hands(rules, size, 1_500, seed=size)
        strengths = bulk_seven.best_strengths(hands, rules=rules).tolist()
        positions = [tuple(p) for p in bulk_seven.best_positions(hands, rules=rules).tolist()]
        assert positions == [tuple(p) for p in bulk_seven._positions_by_score(hands, rules).tolist()]
        for row, hand in enumerate(hands.tolist()):
            assert seven.best_five(hand, rules) == (strengths[row], positions[row])
            assert fast(hand) == brute(hand) == strengths[row]


def test_semi_hands_with_a_rank_five_six_or_seven_times(execution: str) -> None:
    """Rank-only hands may repeat a rank: every way, fast and brute alike."""
    rules = get_rules("semi")
    ranks = [c.index for c in full_deck(suits=False)]
    rng = random.Random(7)
    fast, brute = strength_function(rules, best_five=True), seven._brute_strength_function(rules)
    for size in (6, 7):
        hands = []
        for _ in range(500):
            many = rng.randint(4, size)
            rank = rng.choice(ranks)
            hand = [rank] * many + rng.choices(ranks, k=size - many)
            rng.shuffle(hand)
            hands.append(hand)
        batch_strengths = bulk_seven.best_strengths(hands, rules=rules).tolist()
        assert [fast(h) for h in hands] == [brute(h) for h in hands] == batch_strengths
    assert fast([ranks[0]] * 7) == tables_for(rules).size  # five aces, the best hand


def test_best_five_names_the_five_that_play() -> None:
    rules = get_rules("standard")
    text = "7D 7C 7H KS KD 2C 7S"  # four sevens and a king: 2C and one king sit out
    codes = [Card.parse(t).index for t in text.split()]
    strength, positions = seven.best_five(codes, rules)
    assert positions == (0, 1, 2, 3, 6)  # the first king in sorted order: K♠
    assert bulk_seven.best_positions([codes]).tolist() == [list(positions)]


def test_bad_codes_and_shapes() -> None:
    with pytest.raises(FivecardError, match="shape"):
        bulk_seven.best_strengths(np.zeros((3, 8), dtype=np.int32))
    good = [Card.parse(t).index for t in "AS KS QS JS TS 9S".split()]
    with pytest.raises(FivecardError, match="row 1: 67 is not a card index"):
        bulk_seven.best_strengths([good, [*good[:5], 67]])
    # a joker under standard is no hand of the rules: 0, as the brute force says
    joker = Card.parse("JK").index
    found = bulk_seven.best_strengths([good, [*good[:5], joker]]).tolist()
    assert found[1] == 0 and found[0] > 0
    assert bulk_seven.best_strengths(np.zeros((0, 7), dtype=np.int32)).tolist() == []
    assert bulk_seven.best_positions(np.zeros((0, 7), dtype=np.int32)).shape == (0, 5)


# --- wild cards against substitution ---------------------------------------------------


@pytest.mark.parametrize("name", ["deuces-wild", "one-eyed-jacks"])
@pytest.mark.slow
def test_wild_seven_card_hands_equal_brute_force_substitution(name: str) -> None:
    """Seven-card hands with one to four wild cards: the best five is the
    five the reference evaluator (tests/oracle.py, by substitution) values
    highest, at the five-card strength of that five (which test_enumeration
    checks against the same evaluator on every hand)."""
    rules = get_rules(name)
    deck = CARDS[:52]
    wild = [i for i, c in enumerate(deck) if rules.is_wild(c)]
    natural = [i for i in range(52) if i not in wild]
    rng = random.Random(11)
    hands = []
    for row in range(240):
        k = 1 + row % min(4, len(wild))
        hands.append(sorted(rng.sample(wild, k) + rng.sample(natural, 7 - k)))
    fives = np.array([list(itertools.combinations(hand, 5)) for hand in hands], dtype=np.intp)  # (240, 21, 5)
    keys = oracle.keys(oracle.RULES[name], RANKS[fives].reshape(-1, 5), SUITS[fives].reshape(-1, 5)).reshape(240, 21)
    best = fives[np.arange(240), keys.argmax(axis=1)]
    expected = batch.strengths_of_indices(best, rules=rules)
    ours = bulk_seven.best_strengths(np.array(hands), rules=rules)
    assert np.array_equal(ours, expected)
    assert_same_order(keys.max(axis=1), ours)


# --- laws ------------------------------------------------------------------------------


SUITED = [get_rules("standard"), get_rules("ace-king"), get_rules("short-deck")]


@given(
    rules=st.sampled_from(ALL_RULES),
    size=st.sampled_from([6, 7]),
    data=st.data(),
)
@pytest.mark.slow
def test_card_order_does_not_matter(rules: RuleSet, size: int, data: st.DataObject) -> None:
    deck = deck_indices(rules)
    hand = data.draw(st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique=rules.one_deck))
    shuffled = data.draw(st.permutations(hand))
    strength, positions = seven.best_five(hand, rules)
    again, moved = seven.best_five(shuffled, rules)
    assert again == strength == strength_function(rules, best_five=True)(shuffled)
    # the same cards play (as a multiset: semi's rank-only cards repeat)
    assert sorted(hand[i] for i in positions) == sorted(shuffled[i] for i in moved)


@given(
    rules=st.sampled_from(SUITED),
    hand=st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True),
    renaming=st.permutations(list(Suit)),
    size=st.sampled_from([6, 7]),
)
def test_suit_renaming_does_not_matter(
    rules: RuleSet, hand: list[int], renaming: Sequence[Suit], size: int
) -> None:
    deck = rules.deck()
    cards = [deck[i % len(deck)] for i in hand][:size]
    if len(set(cards)) < size:
        return
    rename = dict(zip(Suit, renaming))
    renamed = [Card(c.rank, rename[c.suit]) for c in cards if c.suit is not None]
    best = strength_function(rules, best_five=True)
    assert best([c.index for c in cards]) == best([c.index for c in renamed])


# --- pokerkit, an independent oracle ---------------------------------------------------


def _pokerkit_text(card: Card) -> str:
    assert card.rank is not None and card.suit is not None
    return card.rank.char + card.suit.value


@pytest.mark.parametrize("name", ["standard", "short-deck"])
@pytest.mark.slow
def test_pokerkit_orders_seven_card_hands_alike(name: str) -> None:
    """pokerkit's seven-card hands (StandardHighHand, ShortDeckHoldemHand,
    each the best of its 21 fives): 20,000 pairs compared, hold'em style
    (two hole cards each on 260 shared boards) and across boards, have the
    same order as ours."""
    oracle = pokerkit.StandardHighHand if name == "standard" else pokerkit.ShortDeckHoldemHand
    rules = get_rules(name)
    deck = list(rules.deck())
    rng = random.Random(13)
    hands: list[list[Card]] = []
    for _ in range(260):
        cards = rng.sample(deck, 5 + 2 * 11)
        board = cards[:5]
        hands.extend(board + cards[5 + 2 * p : 7 + 2 * p] for p in range(11))
    theirs = [oracle.from_game("".join(_pokerkit_text(c) for c in h)) for h in hands]
    ours = bulk_seven.best_strengths([[c.index for c in h] for h in hands], rules=rules).tolist()
    pairs = [p for start in range(0, len(hands), 11) for p in itertools.combinations(range(start, start + 11), 2)]
    while len(pairs) < 20_000:
        a, b = rng.sample(range(len(hands)), 2)
        pairs.append((a, b))
    assert len(pairs) == 20_000
    for a, b in pairs:
        mine = (ours[a] > ours[b]) - (ours[a] < ours[b])
        other = (theirs[a] > theirs[b]) - (theirs[a] < theirs[b])
        assert mine == other, (hands[a], hands[b])
