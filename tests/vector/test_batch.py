"""The batch path against the single-hand path: texts in every spelling, and
the same errors on bad rows (every hand of every deck: test_enumeration);
every public function of the batch modules refuses a bad input at its edge,
saying what and where."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivecard import FivecardError, Hand, format_cards, full_deck, strength
from fivecard.vector import batch
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


# --- every public array function checks its input once, at the edge ---------------------------
#
# A good input of each kind, and for each public function of the batch modules the call that
# hands it one input of its kind. A function added to a module's __all__ must be listed here
# (or among those that take no array), so each new one meets the same bad inputs.

from collections.abc import Callable  # noqa: E402  (this section's own)
from typing import Any  # noqa: E402

from fivecard.vector import seven  # noqa: E402
from fivecard.core.errors import HandError  # noqa: E402

STANDARD = get_rules("standard")
_HANDS = batch.combinations(52)[[0, 5_000, 90_000]].tolist()  # three hands, as card indices
_INDICES = batch.combinations(52)[[0, 5_000, 90_000]].tolist()
_SEVEN = batch.combinations(52, 5)[[0, 7, 9]][:, [0, 1, 2, 3, 4, 0, 1]].tolist()
GOOD: dict[str, Any] = {
    "strengths": [[578, 790, 4469], [1, 7462, 0]],  # a table of strengths; 0 for a bad row
    "showdowns": [[578, 790, 4469], [1, 7462, 12]],
    "hands": _HANDS,
    "seven": _SEVEN,
    "indices": _INDICES,
    "sorted": [[0, 5, 10, 15, 20], [65, 1, 2, 3, 4], [64, 63, 62, 61, 60]],
    "deck": list(range(10)),
}

# function name -> (kind of its array input, the call)
ARRAY_FUNCTIONS: dict[str, tuple[str, Callable[[Any], object]]] = {
    "categories": ("strengths", batch.categories),
    "settle": ("showdowns", batch.settle),
    "strengths_of_indices": ("hands", batch.strengths_of_indices),
    "encode_indices": ("indices", batch.encode_indices),
    "sorted_from_indices": ("sorted", lambda indices: batch.sorted_from_indices(indices, suits=True)),
    "hand_counts": ("deck", batch.hand_counts),
    "best_strengths": ("seven", seven.best_strengths),
    "best_positions": ("seven", seven.best_positions),
}
# the functions that take something else, each with its bad inputs: (call, error, words)
OTHER_FUNCTIONS: dict[str, list[tuple[Callable[[], object], type[Exception], str]]] = {
    "encode": [
        (lambda: batch.encode("AS KS QS JS TS"), TypeError, "a sequence of hand texts"),
        (lambda: batch.encode(5), TypeError, "int 5"),  # type: ignore[arg-type]
        (lambda: batch.encode(None), TypeError, "None"),  # type: ignore[arg-type]
    ],
    **{
        name: [
            (lambda f=function: f(np.zeros((2, 5), dtype=np.int32)), TypeError, "an Encoded batch"),  # type: ignore[misc]
            (lambda f=function: f(["AS KS QS JS TS"]), TypeError, "list"),  # type: ignore[misc]
            (lambda f=function: f(None), TypeError, "None"),  # type: ignore[misc]
        ]
        for name, function in (("strengths", batch.strengths), ("sorted_texts", batch.sorted_texts),
                               ("sorted_bytes", batch.sorted_bytes))
    },
    "Encoded": [
        (lambda: batch.Encoded(STANDARD, np.zeros((2, 5))), TypeError, "int32"),  # type: ignore[arg-type]
        (lambda: batch.Encoded(STANDARD, np.zeros((2, 4), dtype=np.int32)), TypeError, "shape (2, 4)"),
        (lambda: batch.Encoded("standard", np.zeros((2, 5), dtype=np.int32)), TypeError, "RuleSet"),  # type: ignore[arg-type]
    ],
    "combinations": [
        (lambda: batch.combinations(52.0), TypeError, "float 52.0"),  # type: ignore[arg-type]
        (lambda: batch.combinations(True), TypeError, "bool True"),
        (lambda: batch.combinations("52"), TypeError, "str '52'"),  # type: ignore[arg-type]
        (lambda: batch.combinations(300), FivecardError, "not 300"),
        (lambda: batch.combinations(-1), FivecardError, "not -1"),
        (lambda: batch.combinations(52, 0), FivecardError, "not 0"),
        (lambda: batch.combinations(52, 257), FivecardError, "not 257"),
    ],
    "token_view": [
        (lambda: batch.token_view(b"AS KS QS JS TS", 2, 15), FivecardError, "past the data's 14 bytes"),
        (lambda: batch.token_view(b"AS KS QS JS TS", 1, 3), FivecardError, "stride >= 14"),
        (lambda: batch.token_view(b"AS KS QS JS TS", -1, 15), FivecardError, "n >= 0"),
        (lambda: batch.token_view("AS KS QS JS TS", 1, 15), TypeError, "str"),  # type: ignore[arg-type]
        (lambda: batch.token_view(b"AS KS QS JS TS", 1.0, 15), TypeError, "float 1.0"),  # type: ignore[arg-type]
    ],
    "fixed_width_indices": [
        (lambda: batch.fixed_width_indices(b"AS KS QS JS TS", 1, 15, STANDARD, offset=1), FivecardError, "from byte 1"),
        (lambda: batch.fixed_width_indices(b"AS KS QS JS TS", 1, 15, "standard"), TypeError, "RuleSet"),  # type: ignore[arg-type]
    ],
    "seven_card_counts": [
        (lambda: seven.seven_card_counts(cards=8), FivecardError, "not 8"),
        (lambda: seven.seven_card_counts(cards=6.5), TypeError, "float 6.5"),  # type: ignore[arg-type]
        (lambda: seven.seven_card_counts(cards=6, processes=0), FivecardError, "not 0"),
    ],
    "census_counts": [(lambda: batch.census_counts(5), TypeError, "int 5")],  # type: ignore[arg-type]
    "category_table": [(lambda: batch.category_table(5), TypeError, "int 5")],  # type: ignore[arg-type]
}
NO_INPUT: set[str] = set()


def test_every_public_function_of_the_batch_modules_is_walked() -> None:
    public = set(batch.__all__) | set(seven.__all__)
    assert public == set(ARRAY_FUNCTIONS) | set(OTHER_FUNCTIONS) | NO_INPUT


def _with(good: list[Any], bad: Any) -> list[Any]:
    """``good`` (a nested list) with ``bad`` at row 1, column 2 (or at index 2)."""
    rows = [list(row) if isinstance(row, list) else row for row in good]
    if isinstance(rows[1], list):
        rows[1][2] = bad
    else:
        rows[2] = bad
    return rows


# A bad value at one place of a good input: (value, error, the words that say what).
BAD_VALUES: list[tuple[Any, type[Exception], str]] = [
    (-1, FivecardError, "-1 is not"),
    (10**12, FivecardError, "1000000000000 is not"),
    (2**70, TypeError, "dtype object"),
    (float("nan"), FivecardError, "nan is not a whole number"),
    (float("inf"), FivecardError, "inf is not a whole number"),
    (-float("inf"), FivecardError, "-inf is not a whole number"),
    (1.5, FivecardError, "1.5 is not a whole number"),
    (None, TypeError, "None at "),
    ("5", TypeError, "text"),
    (b"5", TypeError, "text"),
    (1 + 2j, TypeError, "complex"),
    (full_deck()[0], TypeError, "Card"),
]
# the kinds of input that are integers only (a float there is the wrong type)
INTEGERS_ONLY = {"hands", "seven", "indices", "sorted", "deck"}


# where a value at row 1, column 2 is said to be, per kind of input
PLACES = {"strengths": ("index (1, 2): ", ""), "deck": ("index 2: ", "")}


@pytest.mark.parametrize("name", ARRAY_FUNCTIONS)
@pytest.mark.parametrize(("bad", "error", "words"), BAD_VALUES, ids=lambda v: repr(v)[:12])
def test_a_bad_value_is_named_with_its_place(name: str, bad: Any, error: type[Exception], words: str) -> None:
    kind, call = ARRAY_FUNCTIONS[name]
    if isinstance(bad, float) and kind in INTEGERS_ONLY:
        error, words = TypeError, "(integers), got dtype float64"
    if kind == "indices" and error is FivecardError:  # a card index out of range is an error row
        found = batch.encode_indices(_with(GOOD[kind], bad))
        assert list(found.errors) == [1] and found.errors[1] == f"card index {bad} in card 3 is not 0-53"
        return
    with pytest.raises(error) as caught:
        call(_with(GOOD[kind], bad))
    message = str(caught.value)
    assert words in message, message
    if error is FivecardError:
        before, after = PLACES.get(kind, ("row 1: ", " 3 of the row"))
        assert message.startswith(before) and after in message, message
    else:
        assert not isinstance(caught.value, FivecardError)


@pytest.mark.parametrize("name", ARRAY_FUNCTIONS)
def test_the_wrong_shape_or_type_of_array_is_refused(name: str) -> None:
    kind, call = ARRAY_FUNCTIONS[name]
    good = np.array(GOOD[kind])
    shapes = [good[0, 0], good[:, :2][None], [[1, 2], [3]], good[:, :4]] if good.ndim == 2 else [good[0], good[None]]
    if kind == "showdowns":  # any number of hands
        shapes = shapes[:3] + [good[0]]
    if kind == "strengths":  # any shape of strengths is a shape of categories
        shapes = [[[1, 2], [3]]]
    for shape in shapes:
        with pytest.raises(FivecardError, match="expected .*(shape|inhomogeneous)"):
            call(shape)
    for array in (good.astype(bool), good.astype(str), np.full(good.shape, None), good.astype(complex)):
        with pytest.raises(TypeError, match="expected .*got (booleans|text|dtype object|dtype complex)"):
            call(array)


@pytest.mark.parametrize("name", ARRAY_FUNCTIONS)
def test_an_empty_array_gives_an_empty_answer(name: str) -> None:
    kind, call = ARRAY_FUNCTIONS[name]
    width = np.array(GOOD[kind]).shape[1:]
    for empty in (np.zeros((0, *width), dtype=np.int64), np.zeros((0, *width))):  # floats: np.asarray([])
        found: Any = call(empty)
        if kind == "deck":  # no cards make no hand
            assert not found.any()
        else:
            assert len(found.indices if isinstance(found, batch.Encoded) else found) == 0


def test_a_showdown_of_no_hands_is_a_hand_error() -> None:
    with pytest.raises(HandError, match="at least one hand, got none"):
        batch.settle(np.zeros((3, 0), dtype=np.int64))


@pytest.mark.parametrize("name", OTHER_FUNCTIONS)
def test_the_other_functions_refuse_what_they_cannot_take(name: str) -> None:
    for call, error, words in OTHER_FUNCTIONS[name]:
        with pytest.raises(error) as caught:
            call()
        assert words in str(caught.value), str(caught.value)
        if error is TypeError:
            assert not isinstance(caught.value, FivecardError)


def test_strengths_out_of_range_of_the_rule_set() -> None:
    # a strength -1 was a royal flush, one past the last an IndexError, nan a row without a winner
    with pytest.raises(FivecardError, match=r"^index 0: -1 is not a strength of the standard rules, 0-7462"):
        batch.categories([-1])
    with pytest.raises(FivecardError, match=r"^index 0: 7463 is not a strength of the standard rules, 0-7462"):
        batch.categories([7463])
    with pytest.raises(FivecardError, match=r"^row 0: nan is not a whole number \(hand 1 of the row\)$"):
        batch.settle([[float("nan"), 5]])
    joker = get_rules("joker")
    top = len(batch.category_table(joker)) - 1
    assert batch.categories([top], rules=joker).tolist() == [len(joker.ladder) - 1]
    assert batch.settle([[top, 5]], rules=joker).tolist() == [[True, False]]
    with pytest.raises(FivecardError, match=rf"^row 0: {top} is not a strength of the standard rules, 1-7462 \(hand 1"):
        batch.settle([[top, 5]])
    with pytest.raises(FivecardError, match=r"^row 1: 0 is not a strength"):  # a bad row's 0 settles nothing
        batch.settle([[5, 9], [0, 3]])
    assert batch.categories([5.0, 0.0]).tolist() == [0, -1]  # whole numbers of any type
    assert batch.settle(np.array([[5, 9]], dtype=np.uint16)).tolist() == [[False, True]]
