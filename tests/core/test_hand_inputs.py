"""The library takes what people pass where a hand is expected (text, a
sequence of cards or card strings, a Hand), refuses anything else with a
message that says what it got, and its messages name no command-line flags."""

from __future__ import annotations

import functools
import io
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard import (
    Card,
    FivecardError,
    Hand,
    HandError,
    ParseError,
    RulesError,
    check_decks,
    cmp_hands,
    evaluate,
    explain,
    full_deck,
    showdown,
    strength,
    strength_function,
)
from fivecard.vector import batch
from fivecard.play.advise import advise
from fivecard.cli import main
from fivecard.core.errors import in_context, kind_of
from fivecard.core.evaluate import Evaluation
from fivecard.core.hand import as_hand
from fivecard.core.showdown import settle

TEXT = "AS KD 7C 7H 2S"
OTHER = "2C 3C 4C 5C 7D"  # shares no card with TEXT, loses to it


def generator(text: str) -> Iterator[str]:
    yield from text.split()


# Every form of the hand TEXT (a fresh object per call: a generator is used once).
FORMS: dict[str, Callable[[], Any]] = {
    "str": lambda: TEXT,
    "str with commas": lambda: "as, kd, 7c, 7h, 2s",
    "list of str": lambda: TEXT.split(),
    "tuple of str": lambda: tuple(TEXT.split()),
    "tuple of Card": lambda: tuple(Card.parse(t) for t in TEXT.split()),
    "mixed": lambda: ["AS", Card.parse("KD"), "7♣", Card.parse("7h"), "2S"],
    "Hand": lambda: Hand.parse(TEXT),
    "generator": lambda: generator(TEXT),
}

# Bad forms: (value, error class, words the message must contain).
BAD: list[tuple[Any, type[Exception], str]] = [
    (None, TypeError, "got None"),
    (5, TypeError, "got int 5"),
    (b"AS KD 7C 7H 2S", TypeError, "got bytes b'AS KD 7C 7H 2S'"),
    ({"AS": 1}, TypeError, "got dict"),
    ([1, 2, 3, 4, 5], TypeError, "card 1 is int 1"),
    (["AS KD", "7C", "7H", "2S", "3S"], ParseError, "card 1 ('AS KD') holds 2 cards"),
    (["AS", "KD", "7C", "7H", "1S"], ParseError, "unknown rank '1' in card 5 ('1S')"),
    (["AS", "KD", "7C", "7H", None], TypeError, "card 5 is None"),
    (["AS", "KD", "7C", "7H", ""], ParseError, "card 5 ('') holds no card"),
    ([Card.parse("AS")] * 5, HandError, "duplicate card A♠ (cards 1 and 2)"),
    (3.5, TypeError, "got float 3.5"),
    (Card.parse("AS"), TypeError, "got Card"),
]

# The public functions that take one hand, each reduced to a comparable result.
ONE_HAND: dict[str, Callable[[Any], object]] = {
    "evaluate": lambda h: evaluate(h).strength,
    "strength": strength,
    "as_hand": lambda h: as_hand(h).indices,
    "Hand.of": lambda h: Hand.of(h).indices,
    "cmp_hands a": lambda h: cmp_hands(h, OTHER),
    "cmp_hands b": lambda h: cmp_hands(OTHER, h),
    "explain": lambda h: explain(h, OTHER),
    "showdown": lambda h: showdown([h, OTHER]).winners,
    "showdown alone": lambda h: showdown([h]).explanation,
    "check_decks": lambda h: check_decks([h, OTHER]),
}


@pytest.mark.parametrize("function", ONE_HAND, ids=str)
def test_every_form_gives_the_same_result(function: str) -> None:
    call = ONE_HAND[function]
    results = {form: call(make()) for form, make in FORMS.items()}
    assert len(set(map(repr, results.values()))) == 1, results


@pytest.mark.parametrize("function", ONE_HAND, ids=str)
@pytest.mark.parametrize(("value", "error", "words"), BAD, ids=lambda v: repr(v)[:24])
def test_every_bad_form_says_what_it_got(
    function: str, value: Any, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as caught:
        ONE_HAND[function](value)
    message = str(caught.value)
    assert words in message
    assert "--" not in message and len(message) < 400
    if error is TypeError:
        assert not isinstance(caught.value, FivecardError)


def test_the_type_error_spells_out_what_a_hand_is() -> None:
    with pytest.raises(TypeError) as caught:
        evaluate(5)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "expected a hand (a string such as 'AS KD 7C 7H 2S', a sequence of cards or "
        "card strings, or a Hand), got int 5"
    )
    with pytest.raises(TypeError, match=r"decode bytes to text first"):
        strength(b"AS KD 7C 7H 2S")  # type: ignore[arg-type]


def test_errors_in_a_showdown_name_the_hand() -> None:
    with pytest.raises(TypeError, match=r"^hand 2: expected a hand .* got int 5$"):
        showdown([TEXT, 5])  # type: ignore[list-item]
    with pytest.raises(ParseError, match=r"^hand 2: card 1 \('AS KD'\) holds 2 cards"):
        cmp_hands(TEXT, ["AS KD", "7C", "7H", "2S", "3S"])
    with pytest.raises(HandError, match=r"^hand 1: expected 5 cards, got 4"):
        check_decks([["AS", "KD", "7C", "7H"]])


@pytest.mark.parametrize(
    ("hands", "words"),
    [
        (TEXT, "got str 'AS KD 7C 7H 2S'"),
        (b"AS KD", "got bytes"),
        (Hand.parse(TEXT), "got Hand"),
        (5, "got int 5"),
        (None, "got None"),
        ({TEXT: 1}, "got dict"),
    ],
    ids=repr,
)
def test_showdown_takes_a_sequence_of_hands(hands: Any, words: str) -> None:
    for function in (showdown, check_decks):
        with pytest.raises(TypeError) as caught:
            function(hands)
        assert "a sequence of hands" in str(caught.value) and words in str(caught.value)


def test_a_showdown_of_one_hand_and_of_none() -> None:
    for form in FORMS.values():
        result = showdown([form()])
        assert result.winners == (0,) and result.order == ((0,),)
        assert not result.is_draw and not result.is_split
        assert result.explanation == "Hand 1 wins: the only hand"
    with pytest.raises(HandError, match="at least one hand, got none"):
        showdown([])
    with pytest.raises(HandError, match="at least one hand, got none"):
        settle(())
    assert showdown(iter([TEXT, OTHER])).winners == (0,)  # any iterable of hands


def test_the_command_compares_one_hand() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["compare", TEXT], stdout=out, stderr=err) == 0
    assert out.getvalue().splitlines()[-1] == "Hand 1 wins: the only hand"
    assert "<- wins" in out.getvalue() and err.getvalue() == ""


def test_cmp_hands_and_explain_take_hands_and_evaluations() -> None:
    good, bad = evaluate(TEXT), evaluate(OTHER)
    pairs: list[tuple[Any, Any]] = [(good, bad), (TEXT, bad), (good, OTHER.split()), (Hand.parse(TEXT), OTHER)]
    for a, b in pairs:
        assert cmp_hands(a, b) == 1 and cmp_hands(b, a) == -1
        assert explain(a, b) == explain(b, a) == "One Pair beats High Card"
    assert cmp_hands(TEXT, "AH KC 7D 7S 2C") == 0
    assert sorted([OTHER, TEXT, "2D 2H 3S 3D 4C"], key=functools.cmp_to_key(cmp_hands)) == [
        OTHER,
        TEXT,
        "2D 2H 3S 3D 4C",
    ]


def test_rules_come_from_the_hands_or_the_argument() -> None:
    wild = Hand.parse("JK 7H 7D 7S 7C", rules="joker")
    assert cmp_hands(wild, "AS KS QS JS TS") == 1  # the text is read under the joker rules
    assert showdown([wild, "JK 2D 3S 4S 5S"]).evaluations[1].rules.name == "joker"
    with pytest.raises(HandError, match="one rule set"):
        showdown([wild, Hand.parse(TEXT)])
    assert evaluate(Hand.parse(TEXT), rules="semi").rules.name == "semi"
    with pytest.raises(TypeError, match=r"a rule set name .* or a RuleSet, got int 3"):
        evaluate(TEXT, rules=3)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown rule set 'texas'"):
        showdown([TEXT], rules="texas")


def test_hand_constructors_refuse_what_they_cannot_take() -> None:
    with pytest.raises(TypeError, match=r"card 1 is str 'AS', not a Card"):
        Hand(tuple(TEXT.split()))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Hand\(\.\.\.\) takes a tuple of Cards, got str"):
        Hand(TEXT)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Hand.parse reads text .* got list"):
        Hand.parse(TEXT.split())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"got bytes"):
        Hand.parse(b"AS KD 7C 7H 2S")  # type: ignore[arg-type]
    cards = [Card.parse(t) for t in TEXT.split()]
    assert Hand(cards, "standard") == Hand.parse(TEXT)  # type: ignore[arg-type]


def test_text_strength_function_refuses_anything_but_text() -> None:
    score = strength_function(text=True)
    assert score(TEXT) == strength(TEXT)
    for value in (None, 5, b"AS KD 7C 7H 2S", TEXT.split()):
        with pytest.raises(TypeError, match="expected a hand as text"):
            score(value)  # type: ignore[arg-type]


def test_advise_takes_any_form() -> None:
    assert advise(TEXT.split()).recommended.keep == advise(TEXT).recommended.keep


_DECK = list(full_deck())


@settings(max_examples=60, deadline=None)
@given(st.permutations(_DECK), st.integers(0, 2**32 - 1))
def test_random_hands_agree_in_every_form(deck: list[Card], seed: int) -> None:
    cards, other = deck[:5], deck[5:10]
    texts = [c.code_str for c in cards]
    mixed = [c if (seed >> i) & 1 else str(c) for i, c in enumerate(cards)]
    forms: list[Any] = [" ".join(texts), texts, tuple(cards), mixed, Hand.of(cards), iter(texts)]
    expected = evaluate(Hand(tuple(cards)))
    for form in forms:
        found = evaluate(form)
        assert (found.strength, found.hand.indices) == (expected.strength, expected.hand.indices)
    reference = showdown([Hand(tuple(cards)), Hand(tuple(other))])
    pairs: list[list[Any]] = [[texts, other], [tuple(cards), " ".join(map(str, other))], [mixed, list(other)]]
    for form in pairs:
        result = showdown(form)
        assert (result.order, result.explanation) == (reference.order, reference.explanation)


# --- messages: the library's words, the command's flags -----------------------


@pytest.mark.parametrize(
    ("hands", "rules", "words", "option", "flag"),
    [
        (["JK KD 3C 4H 5D"], "standard", "jokers are wild under the joker rules",
         ("rules", "joker"), " (use --rules joker)"),
        (["10 KD 3C 4H 5D"], "standard", "rank-only cards are played under the semi rules",
         ("rules", "semi"), " (use --rules semi)"),
        (["AS KS QS JS TS", "AS 2D 3D 4D 5D"], "standard", "unless you say they come from more decks",
         ("decks", "N"), " (allow more with --decks N)"),
        (["JK JK 2C 7D 9H", "JK 2D 3S 4S 5S"], "joker", "unless you say they come from more decks",
         ("decks", "N"), " (allow more with --decks N)"),
    ],
)
def test_library_says_it_in_words_and_the_command_adds_the_flag(
    hands: list[str], rules: str, words: str, option: tuple[str, str], flag: str
) -> None:
    with pytest.raises(HandError) as caught:
        showdown(hands, rules=rules)
    message = str(caught.value)
    assert words in message and "--" not in message
    assert caught.value.option == option
    out, err = io.StringIO(), io.StringIO()
    code = main(["compare", "--rules", rules, *hands], stdout=out, stderr=err)
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue() == f"fivecard: error: {message}{flag}\n"


def test_classify_keeps_the_suggestion_through_its_hand_prefix() -> None:
    err = io.StringIO()
    assert main(["classify", "AS KS QS JS TS", "JK KD 3C 4H 5D"], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == (
        "fivecard: error: hand 2: card 1 is a joker, which the standard rules do not use "
        "(jokers are wild under the joker rules) in 'JK KD 3C 4H 5D' (use --rules joker)\n"
    )


def test_errors_without_a_suggestion_get_no_hint() -> None:
    err = io.StringIO()
    assert main(["classify", "AS KS QS JS 1S"], stdout=io.StringIO(), stderr=err) == 2
    assert "(use" not in err.getvalue() and "--" not in err.getvalue()


def test_in_context_keeps_class_and_suggestion() -> None:
    error = HandError("card 1 is a joker", option=("rules", "joker"))
    again = in_context(error, "hand 2: ", " in 'JK'")
    assert type(again) is HandError and str(again) == "hand 2: card 1 is a joker in 'JK'"
    assert again.option == ("rules", "joker") and again.args == (str(again),)
    assert FivecardError("plain").option is None
    typed = in_context(TypeError("got int 5"), "hand 3: ")
    assert type(typed) is TypeError and str(typed) == "hand 3: got int 5"
    assert kind_of(None) == "None" and kind_of("x" * 100).startswith("str 'xxx")


# --- near-linear showdowns ------------------------------------------------------


class Counted(int):
    """A strength that counts how often it is compared or hashed."""

    calls = 0

    def __lt__(self, other: int) -> bool:
        Counted.calls += 1
        return int(self) < int(other)

    def __gt__(self, other: int) -> bool:
        Counted.calls += 1
        return int(self) > int(other)

    def __eq__(self, other: object) -> bool:
        Counted.calls += 1
        return isinstance(other, int) and int(self) == int(other)

    def __hash__(self) -> int:
        Counted.calls += 1
        return int.__hash__(self)


def _settle_work(n: int) -> int:
    """Comparisons settle makes for n hands of n different strengths."""
    base = evaluate(TEXT)
    evaluations = tuple(
        Evaluation(base.hand, Counted(1 + (i * 7919) % n), base.hand_class, base.showdown)
        for i in range(n)
    )
    Counted.calls = 0
    settle(evaluations)
    return Counted.calls


def test_settle_is_n_log_n() -> None:
    small, large = _settle_work(1_000), _settle_work(16_000)
    # n log n: about 16 x 1.4 = 22 times the work; once per distinct strength
    # (the old way) would be 256 times.
    assert large < 40 * small


def _compare_seconds(n: int) -> float:
    rng = np.random.default_rng(n)
    deck = [c.code_str for c in full_deck()]
    lines = "\n".join(" ".join(deck[i] for i in rng.permutation(52)[:5]) for _ in range(n))
    best = float("inf")
    for _ in range(3):  # processor time: a busy machine sets a longer run aside more often
        started = time.process_time()
        code = main(["compare", "--rules", "semi", "-"], stdin=io.StringIO(lines),
                    stdout=io.StringIO(), stderr=io.StringIO())
        best = min(best, time.process_time() - started)
        assert code == 0
    return best


@pytest.mark.slow
def test_compare_command_is_near_linear() -> None:
    """Eight times the hands, about eight times the time (quadratic: 64)."""
    assert _compare_seconds(4_000) < 24 * _compare_seconds(500)


# --- batch ----------------------------------------------------------------------


def test_batch_error_rows_for_what_is_not_text() -> None:
    rows: list[Any] = [
        "As Kd 7h 7c 2s",
        "As Kd 7h 7c 2\udcff",
        None,
        5,
        b"As Kd 7h 7c 2s",
        "2c 3c 4c 5c 6c",
        "A\udcff KS QS JS TS",
        "AS KS QS JS TS",
    ]
    encoded = batch.encode(rows)
    assert sorted(encoded.errors) == [1, 2, 3, 4, 6]
    assert encoded.errors[2] == "expected a hand as text, got None"
    assert encoded.errors[3] == "expected a hand as text, got int 5"
    assert encoded.errors[4] == "expected a hand as text, got bytes b'As Kd 7h 7c 2s'"
    assert "U+DCFF" in encoded.errors[1] and "card 5" in encoded.errors[1]
    for message in encoded.errors.values():
        message.encode("utf-8")  # quoted safely: no lone surrogate in a message
    found = batch.strengths(encoded).tolist()
    assert found == [strength(rows[0]), 0, 0, 0, 0, strength(rows[5]), 0, strength(rows[7])]
    assert batch.encode(rows[:1] + rows[5:6]).indices.tolist() == encoded.indices[[0, 5]].tolist()


def test_batch_row_with_a_line_break_does_not_shift_its_neighbours() -> None:
    rows = ["As Kd 7h 7c 2s\nAs Kd 7h 7c 2", "", "2c 3c 4c 5c 6c"]
    encoded = batch.encode(rows)
    assert sorted(encoded.errors) == [0, 1] and "line break" in encoded.errors[0]
    assert batch.strengths(encoded).tolist() == [0, 0, strength(rows[2])]


@pytest.mark.parametrize("hands", ["As Kd 7h 7c 2s", b"As Kd", 5, None, {"As Kd 7h 7c 2s": 1}], ids=repr)
def test_batch_encode_takes_a_sequence(hands: Any) -> None:
    with pytest.raises(TypeError, match="encode takes a sequence of hand texts"):
        batch.encode(hands)


def test_strengths_of_indices_names_the_first_bad_row() -> None:
    indices = batch.combinations(52)[:50_000].astype(np.int32)
    expected = batch.strengths_of_indices(indices)
    assert (expected == batch.strengths_of_indices(indices.astype(np.uint8))).all()
    assert (expected == batch.strengths_of_indices(indices.astype(np.int64))).all()
    for bad in (99_999, -1, 67, 256, 1 << 30, 255):
        broken = indices.copy()
        broken[40_007, 2] = bad
        broken[40_009, 0] = bad
        for array in (broken, broken.astype(np.int64)):
            with pytest.raises(FivecardError, match=rf"^row 40007: {bad} is not a card index 0-66 \(card 3"):
                batch.strengths_of_indices(array)
    wrapped = indices.astype(np.int64)
    wrapped[7, 1] = (1 << 32) + int(indices[0, 0])  # int32 would read a card index
    with pytest.raises(FivecardError, match=r"^row 7: 4\d+ is not a card index"):
        batch.strengths_of_indices(wrapped)
    with pytest.raises(TypeError, match="integers"):
        batch.strengths_of_indices(indices.astype(float))
    with pytest.raises(FivecardError, match=r"\(N, 5\)"):
        batch.strengths_of_indices(indices[:, :4])
    assert batch.strengths_of_indices(np.zeros((0, 5), dtype=np.int32)).tolist() == []


def test_strengths_of_indices_ignores_suits_under_semi() -> None:
    hand = Hand.parse("AS KS QS JS TS")
    assert batch.strengths_of_indices([hand.indices], rules="semi").tolist() == [strength(hand, rules="semi")]


def test_encode_indices_checks_the_array() -> None:
    with pytest.raises(TypeError, match="integers"):
        batch.encode_indices(np.array([[0.0, 4, 8, 12, 16]]))
    with pytest.raises(TypeError, match="integers"):
        batch.encode_indices(np.ones((2, 5), dtype=bool))
    encoded = batch.encode_indices(np.array([[0, 4, 8, 12, 16], [0, 4, 8, 12, 54]], dtype=np.uint8))
    assert list(encoded.errors) == [1] and batch.strengths(encoded)[0] > 0
