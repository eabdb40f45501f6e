"""The batch path against the single-hand path: texts in every spelling, and
the same errors on bad rows (every hand of every deck: test_enumeration)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivecard import FivecardError, Hand, format_cards, full_deck, strength
from fivecard.bulk import batch
from fivecard.core.rules import get_rules


def test_combinations_match_itertools() -> None:
    for n, k in [(7, 3), (10, 5), (54, 2)]:
        expected = np.array(list(itertools.combinations(range(n), k)), dtype=np.uint8)
        assert (batch.combinations(n, k) == expected).all()


def test_strings_fast_and_slow_paths_agree_with_single_hands() -> None:
    rng = random.Random(5)
    deck = full_deck(jokers=2)
    texts = []
    for _ in range(3_000):
        cards = rng.sample(deck, 5)
        texts.append(format_cards(cards, ascii=rng.random() < 0.8))  # some '10♦' forms
    texts += ["AS KS QS JS TS", "as ks qs js ts", "10s js qs ks as", "JK JK 2C 7D 9H"]
    for rules in ("standard", "joker", "semi", "ace-king"):
        encoded = batch.encode(texts, rules=rules)
        found = batch.strengths(encoded).tolist()
        for i, text in enumerate(texts):
            try:
                expected = strength(text, rules=rules)
            except FivecardError as exc:
                assert encoded.errors[i] == str(exc)
                assert found[i] == 0
            else:
                assert i not in encoded.errors and found[i] == expected, text


BAD = [
    "AS AS KD QD JD",
    "1S KD 3C 4H 5D",
    "AS KS QS JS",
    "AS KS QS JS TS 9S",
    "",
    "AX KD 3C 4H 5D",
    "JK KD 3C 4H 5D",
    "AS KS\nQS JS TS",
    "A♠ K♠ Q♠ J♠ J♠",
    "Zs Kd 7h 7c 2s",
    "As Kd 7h 7c 2s ",
    "As  Kd 7h 7c 2",
]


@pytest.mark.parametrize("rules", ["standard", "joker", "semi"])
def test_bad_rows_report_the_single_hand_error_by_index(rules: str) -> None:
    texts = ["As Kd 7h 7c 2s"] + BAD + ["2c 3c 4c 5c 6c"]
    encoded = batch.encode(texts, rules=rules)
    for i, text in enumerate(texts):
        try:
            Hand.parse(text, rules=rules)
        except FivecardError as exc:
            assert encoded.errors[i] == str(exc)
        else:
            assert i not in encoded.errors
    assert 0 not in encoded.errors and len(texts) - 1 not in encoded.errors
    values = batch.strengths(encoded)
    assert values[0] > 0 and values[-1] > 0
    assert all(values[i] == 0 for i in encoded.errors)


def test_encode_indices_checks_rows() -> None:
    rows = np.array([[0, 4, 8, 12, 16], [0, 0, 8, 12, 16], [52, 53, 1, 2, 3], [0, 1, 2, 3, 99]])
    encoded = batch.encode_indices(rows)
    assert set(encoded.errors) == {1, 2, 3}
    assert encoded.errors[1] == "duplicate card A♠ (cards 1 and 2)"
    assert "joker" in encoded.errors[2]
    assert encoded.errors[3] == "card index 99 in card 5 is not 0-53"
    jokers = batch.encode_indices(rows[2:3], rules="joker")
    assert not jokers.errors
    assert batch.strengths(jokers)[0] == strength("JK JK AS AH AD", rules="joker")
    with pytest.raises(FivecardError, match=r"\(N, 5\)"):
        batch.encode_indices(np.zeros((3, 4), dtype=int))


def test_categories_and_settle() -> None:
    found = batch.strengths(batch.encode(["AS KS QS JS TS", "7D 5C 4H 3S 2D"]))
    names = [get_rules("standard").ladder[i].name for i in batch.categories(found)]
    assert names == ["royal_flush", "high_card"]
    table = np.array([[5, 9, 9], [3, 1, 2]])
    assert batch.settle(table).tolist() == [[False, True, True], [True, False, False]]


@given(st.lists(st.text(alphabet="AKQJT98765432shdcSHDC ,10♠JKx", max_size=20), max_size=30))
def test_random_text_batches_agree(texts: list[str]) -> None:
    encoded = batch.encode(texts)
    found = batch.strengths(encoded)
    for i, text in enumerate(texts):
        try:
            expected = strength(text)
        except FivecardError as exc:
            assert encoded.errors[i] == str(exc)
        else:
            assert found[i] == expected


def test_sorted_texts_match_hand_sorted() -> None:
    rng = random.Random(11)
    for rules, deck in (("joker", full_deck(jokers=2)), ("semi", full_deck()), ("standard", full_deck())):
        hands = [Hand.of(rng.sample(deck, 5), rules=rules) for _ in range(2_000)]
        encoded = batch.encode([format_cards(h.cards, ascii=True) for h in hands], rules=rules)
        expected = [" ".join(c.code_str for c in h.sorted()) for h in hands]
        assert batch.sorted_texts(encoded) == expected


def test_sort_rows_sorts_every_row_of_five() -> None:
    # A network that sorts every 0/1 input sorts every input (the 0-1
    # principle): all 32 of them, then every arrangement of five distinct values.
    zero_one = np.array(list(itertools.product([0, 1], repeat=5)), dtype=np.int8)
    assert (batch.sort_rows(zero_one) == np.sort(zero_one, axis=1)).all()
    every = np.array(list(itertools.permutations(range(5))), dtype=np.int32) * 7 - 3
    assert (batch.sort_rows(every) == np.sort(every, axis=1)).all()
    wide = np.array([[3, 1, 2, 9, 0, 4]], dtype=np.int64)  # not five: numpy's sort
    assert batch.sort_rows(wide).tolist() == [[0, 1, 2, 3, 4, 9]]


def test_row_order_is_a_stable_argsort() -> None:
    keys = np.array(list(itertools.product([0, 1, 2], repeat=5)), dtype=np.int32)
    expected = np.argsort(keys, axis=1, kind="stable")
    assert (batch.row_order(keys) == expected).all()
