"""The compiled kernels: built where the project is installed, turned off
by the environment, and giving the answers of the Python and numpy paths
that serve where no kernel is built, hand for hand, over whole decks and
every rule set (one model, two executions)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from helpers import executed_by
from hypothesis import given
from hypothesis import strategies as st

from fivecard import strength_function
from fivecard.core import kernel
from fivecard.core.cards import CARDS, Rank, full_deck
from fivecard.core.rules import FIVE_OF_A_KIND, RULE_SETS, STANDARD, RuleSet, wild_rules
from fivecard.vector import batch
from fivecard.vector import seven as bulk_seven

#: Every rule set, and one with wild cards named by the user.
ALL_RULES: tuple[RuleSet, ...] = (*RULE_SETS.values(), wild_rules("2"))
RULE_IDS = [r.name for r in ALL_RULES]


def scorers(rules: RuleSet, best_five: bool) -> tuple[Callable[[Sequence[int]], int], Callable[[Sequence[int]], int]]:
    """The kernel's scorer and the Python function, side by side."""
    with executed_by("numpy"):
        python = strength_function(rules, best_five=best_five)
    with executed_by("kernel"):
        compiled = strength_function(rules, best_five=best_five)
    return compiled, python


def both(function: Callable[[], npt.NDArray[np.generic]]) -> tuple[npt.NDArray[np.generic], npt.NDArray[np.generic]]:
    """What the function gives by the kernels, then by the numpy path."""
    with executed_by("kernel"):
        compiled = function()
    with executed_by("numpy"):
        fallback = function()
    return compiled, fallback


def deck(rules: RuleSet) -> npt.NDArray[np.int32]:
    return np.array([c.index for c in rules.deck()], dtype=np.int32)


def test_the_kernels_are_built_unless_turned_off() -> None:
    """An install on a machine with a C compiler builds every kernel: a build
    that failed must not hide behind the numpy path."""
    if os.environ.get(kernel.ENVIRONMENT, "").strip().lower() == "numpy":
        assert not any(kernel.built().values())
    else:
        assert all(kernel.built().values()), (
            "the compiled kernels are not built: install a C compiler and run scripts/setup.sh again "
            f"(or set {kernel.ENVIRONMENT}=numpy to test the numpy path alone)"
        )


def test_the_environment_turns_the_kernels_off() -> None:
    script = "from fivecard.core import kernel; from fivecard import strength_function as s; print(kernel.built(), type(s()).__name__)"
    shown = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, kernel.ENVIRONMENT: "numpy"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown.strip() == f"{dict.fromkeys(kernel.MODULES, False)} function"


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_every_five_card_hand_of_the_deck_scores_alike(rules: RuleSet) -> None:
    """All five-card hands of the rule set's deck: the kernel's rows against
    the numpy batch path; a sample of them one per call against the Python."""
    hands = deck(rules)[batch.combinations(len(deck(rules)), 5)]
    compiled, python = scorers(rules, best_five=False)
    with executed_by("kernel"):
        rows = bulk_seven.best_strengths(hands, rules=rules)  # five cards: the numpy batch path in both
        by_rows = np.empty(len(hands), dtype=np.uint16)
        from fivecard.core.seven import compiled_scorer

        scorer = compiled_scorer(rules)
        assert scorer is not None
        scorer.rows(np.ascontiguousarray(hands), by_rows, 5)
    assert (by_rows == rows).all()
    sample = hands[:: 101].tolist()
    assert [compiled(h) for h in sample] == [python(h) for h in sample] == rows[:: 101].tolist()


def sub_deck_hands(rules: RuleSet, size: int) -> npt.NDArray[np.int32]:
    """Every hand of ``size`` cards of 20 of the deck's cards: its wild cards,
    and cards of two suits, rich in flushes and straights."""
    cards = deck(rules).tolist()
    wild = [c for c in cards if c in rules.wild_indices]
    rng = random.Random(size)
    rich = wild[:3] + [c for c in cards if c % 4 in (0, 1) and c not in wild]
    rich = sorted(rng.sample(rich[3:], 20 - len(rich[:3])) + rich[:3]) if len(rich) > 20 else rich
    chosen = np.array(rich[:20], dtype=np.int32)
    return chosen[batch.combinations(len(chosen), size)]


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.slow
def test_every_six_and_seven_card_hand_of_a_sub_deck_scores_alike(rules: RuleSet) -> None:
    """Every 6- and 7-card hand of a sub-deck of 20 cards (38,760 and 77,520
    hands): the kernel's batch and the numpy batch, row for row; a sample
    one per call against the Python."""
    compiled, python = scorers(rules, best_five=True)
    for size in (6, 7):
        hands = sub_deck_hands(rules, size)
        by_kernel, by_numpy = both(lambda: bulk_seven.best_strengths(hands, rules=rules))
        assert (by_kernel == by_numpy).all()
        sample = hands[:: 53].tolist()
        assert [compiled(h) for h in sample] == [python(h) for h in sample] == by_numpy[:: 53].tolist()


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.slow
def test_every_hand_of_the_whole_deck_counts_alike(rules: RuleSet) -> None:
    """Every hand of five, six and seven cards of the rule set's deck (133
    million of seven from 52): the kernel's counts by strength equal the
    numpy path's."""
    for cards in (5, 6, 7):
        by_kernel, by_numpy = both(lambda: bulk_seven.seven_card_counts(rules, cards=cards))
        assert by_kernel.sum() == by_numpy.sum()
        assert (by_kernel == by_numpy).all(), cards


@pytest.mark.parametrize("best_five", [False, True])
@pytest.mark.parametrize(
    "hand",
    [
        [0, 4, 8, 12],
        [0, 4, 8, 12, 16, 20, 24, 28],
        [0, 4, 8, 12, 99],
        [0, 4, 8, 12, 16, 99],
        [0, 4, 8, 12, "16"],
        [0, 4, 8, 12, 16.0],
        [1 << 70, 0, 4, 8, 12],
        [0, 4, 8, 12, 16, 20, -(1 << 70)],
        "AS KS",
        None,
    ],
)
def test_a_scorer_refuses_what_the_python_refuses(hand: object, best_five: bool) -> None:
    """Unchecked input that is no hand: both raise, the same error (a wrong
    count of cards, a number that is no card index, a thing that is no
    index)."""
    compiled, python = scorers(RULE_SETS["standard"], best_five=best_five)
    raised = []
    for function in (compiled, python):
        with pytest.raises((TypeError, ValueError, LookupError)) as error:
            function(hand)  # type: ignore[arg-type]
        raised.append(error.type)
    assert raised[0] is raised[1]


def test_a_negative_index_reads_as_the_python_reads_it() -> None:
    compiled, python = scorers(RULE_SETS["standard"], best_five=True)
    for hand in ([-1, 0, 4, 8, 12], [0, 4, 8, 12, 16, 20, -3]):
        assert compiled(hand) == python(hand)


class Changing:
    """A card index whose ``__index__`` changes the list it is in: empties
    it, or makes it long (a list's items are moved on both)."""

    def __init__(self, hand: list[object], index: int, grow: bool) -> None:
        self.hand, self.index, self.grow = hand, index, grow

    def __index__(self) -> int:
        if self.grow:
            self.hand.extend(range(1000))
        else:
            self.hand.clear()
        return self.index


def changing(values: Sequence[int], at: int, grow: bool) -> list[object]:
    """``values`` as a list whose item ``at`` changes the list as it is read."""
    made: list[object] = list(values)
    made[at] = Changing(made, values[at], grow)
    return made


@pytest.mark.parametrize("grow", [False, True])
@pytest.mark.parametrize("hand", [[51, 0, 4, 25, 8], [51, 0, 4, 25, 8, 12, 16]])
def test_a_hand_that_changes_as_it_is_read_scores_as_it_was(hand: list[int], grow: bool) -> None:
    """A list is read as it was when the call began, whatever an item's
    ``__index__`` does to it (the items are moved: read where they were,
    they would be read from freed memory)."""
    compiled, python = scorers(RULE_SETS["standard"], best_five=True)
    for at in range(len(hand)):
        assert compiled(changing(hand, at, grow)) == python(hand)  # type: ignore[arg-type]


@pytest.mark.parametrize("grow", [False, True])
def test_the_kernel_reads_its_lists_as_they_were(grow: bool) -> None:
    """The lists a scorer is made from, and the first positions it counts
    from: each read as it was, whatever an item's ``__index__`` does."""
    from fivecard.core.lookup import KEY_SPACE, SUIT_MASK, SUIT_SHIFT, codes_for, tables_for

    rules = RULE_SETS["standard"]
    module = kernel.load("fivecard.core._kernel")
    assert module is not None
    codes = codes_for(rules)
    made = module.Scorer(changing(codes, 3, grow), tables_for(rules).lookup, KEY_SPACE, SUIT_SHIFT, SUIT_MASK)
    plain = module.Scorer(codes, tables_for(rules).lookup, KEY_SPACE, SUIT_SHIFT, SUIT_MASK)
    hands = deck(rules)[batch.combinations(8, 5)].tolist()
    assert [made(h) for h in hands] == [plain(h) for h in hands]
    size = tables_for(rules).size + 1
    counted, expected = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    with executed_by("kernel"):
        from fivecard.core.seven import compiled_scorer

        scorer = compiled_scorer(rules)
        assert scorer is not None
        cards = deck(rules).astype(np.uint8)[:12].tobytes()
        scorer.count(cards, changing([0, 1, 2], 0, grow), 7, counted)  # type: ignore[arg-type]
        scorer.count(cards, [0, 1, 2], 7, expected)
    assert expected.sum() > 0 and (counted == expected).all()


def test_a_deck_written_to_while_it_is_counted_is_counted_as_it_was() -> None:
    """count lets go of the interpreter: another thread may write to the
    deck meanwhile (here a number that is no card, then the card again).
    Each count is of the deck as it was checked: the counts of the whole
    deck, or the IndexError of the number that is no card."""
    import threading

    from fivecard.core.lookup import tables_for
    from fivecard.core.seven import compiled_scorer

    rules = RULE_SETS["standard"]
    with executed_by("kernel"):
        scorer = compiled_scorer(rules)
    assert scorer is not None
    cards = bytearray(deck(rules).astype(np.uint8)[:20].tobytes())
    size = tables_for(rules).size + 1
    expected = np.zeros(size, dtype=np.int64)
    scorer.count(bytes(cards), list(range(len(cards))), 7, expected)
    done = threading.Event()

    def write() -> None:
        while not done.is_set():
            for i, card in enumerate(bytes(cards)):
                cards[i] = 250
                cards[i] = card

    writer = threading.Thread(target=write)
    writer.start()
    try:
        for _ in range(20):
            counts = np.zeros(size, dtype=np.int64)
            try:
                scorer.count(cards, list(range(len(cards))), 7, counts)
            except IndexError as error:
                assert str(error) == "250 is no card index of these rules"
            else:
                assert (counts == expected).all()
    finally:
        done.set()
        writer.join()


def scorer_arguments(rules: RuleSet) -> dict[str, object]:
    """The arguments of a scorer of five to seven cards, by name, as
    :func:`fivecard.core.seven.compiled_scorer` gives them but for the
    suits: every card of none (no flush)."""
    from fivecard.core.lookup import KEY_SPACE, SUIT_MASK, SUIT_SHIFT, codes_for, tables_for
    from fivecard.core.seven import seven_tables

    seven = seven_tables(rules)
    assert seven is not None
    return {
        "codes": codes_for(rules), "lookup": tables_for(rules).lookup, "space": KEY_SPACE, "shift": SUIT_SHIFT,
        "mask": SUIT_MASK, "best": True, "symbols": len(seven.symbols()), "symbol": seven.card_symbols(),
        "suit": [5] * len(CARDS), "rank_bit": [0] * len(CARDS), "trans": seven.trans, "final": seven.final,
        "flush": seven.flush,
    }  # fmt: skip


#: Each argument of a scorer, wrong in each way: not of its kind, a length
#: that does not fit, a number out of range, a buffer not C-contiguous (or
#: a function of the right value that makes the wrong one).
WRONG_ARGUMENTS: list[tuple[str, object]] = [
    ("codes", 5), ("codes", iter(range(67))), ("codes", [0] * 66), ("codes", [0] * 300), ("codes", [1 << 40] * 67),
    ("codes", [0.5] * 67), ("lookup", None), ("lookup", b""), ("lookup", b"abc"),
    ("lookup", np.zeros(100, dtype=np.uint16)[::2]), ("space", 1 << 40), ("shift", -1), ("shift", 64),
    ("shift", 1 << 31), ("mask", "x"), ("symbols", -1), ("symbols", 128), ("symbols", (1 << 31) - 1),
    ("symbol", None), ("symbol", [0] * 10), ("symbol", [99] * 67), ("symbol", [-2] * 67), ("suit", [6] * 67),
    ("suit", [-1] * 67), ("rank_bit", [1 << 13] * 67), ("trans", None), ("trans", b"\0\0\0"),
    ("trans", lambda trans: np.full(len(trans), len(trans), dtype=np.int32)), ("final", b"\0"), ("flush", b"\0\0"),
    ("flush", np.zeros(2 << 16, dtype=np.uint16)[::2]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "value"), WRONG_ARGUMENTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(WRONG_ARGUMENTS)])
def test_a_scorer_is_made_only_of_tables_that_fit(name: str, value: object) -> None:
    """Every argument of the kernel's scorer, wrong: an error, never a
    scorer that reads past its tables or shifts by more than a number has."""
    module = kernel.load("fivecard.core._kernel")
    assert module is not None
    arguments = scorer_arguments(RULE_SETS["standard"])
    assert module.Scorer(**arguments)([0, 1, 2, 3, 4, 5, 6]) == 7452  # four aces, king
    wrong = value(arguments[name]) if callable(value) else value
    with pytest.raises((TypeError, ValueError, OverflowError)):
        module.Scorer(**{**arguments, name: wrong})


def misaligned(dtype: type[np.generic], n: int) -> memoryview:
    """Room for ``n`` items of ``dtype``, one byte past an aligned start."""
    return memoryview(bytearray(np.dtype(dtype).itemsize * n + 1))[1:]


def read_only(array: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    array.flags.writeable = False
    return array


HANDS = np.zeros((3, 7), dtype=np.int32)
OUT = np.zeros(3, dtype=np.uint16)
DECK = bytes(range(10))
COUNTS = np.zeros(8000, dtype=np.int64)
#: The arguments of rows and count, each wrong in each way: a size out of
#: range, a buffer of another length, not C-contiguous, not aligned for its
#: items, read-only where written, a number that is no card or position.
WRONG_CALLS: list[tuple[str, tuple[object, ...]]] = [
    ("rows", (HANDS, OUT, 4)), ("rows", (HANDS, OUT, 8)), ("rows", (HANDS, OUT, 1 << 40)),
    ("rows", (HANDS.tolist(), OUT, 7)), ("rows", (np.zeros((3, 14), dtype=np.int32)[:, ::2], OUT, 7)),
    ("rows", (misaligned(np.int32, 21), OUT, 7)), ("rows", (HANDS[:2], OUT, 7)), ("rows", (HANDS, OUT[:2], 7)),
    ("rows", (HANDS, bytes(6), 7)), ("rows", (HANDS, read_only(OUT.copy()), 7)), ("rows", (HANDS, bytearray(5), 7)),
    ("rows", (HANDS, misaligned(np.uint16, 3), 7)), ("rows", (HANDS, [0, 0, 0], 7)),
    ("rows", (np.full((3, 7), -1, dtype=np.int32), OUT, 7)), ("rows", (np.full((3, 7), 67, dtype=np.int32), OUT, 7)),
    ("count", (DECK, [0], 4, COUNTS)), ("count", (DECK, [0], 8, COUNTS)), ("count", (bytes(256), [0], 7, COUNTS)),
    ("count", (bytes([67]) + DECK, [0], 7, COUNTS)), ("count", (bytes([52]) + DECK, [0], 7, COUNTS)),
    ("count", (np.arange(20, dtype=np.uint8)[::2], [0], 7, COUNTS)), ("count", (list(DECK), [0], 7, COUNTS)),
    ("count", (DECK, None, 7, COUNTS)), ("count", (DECK, [-1], 7, COUNTS)), ("count", (DECK, [10], 7, COUNTS)),
    ("count", (DECK, [1.5], 7, COUNTS)), ("count", (DECK, [1 << 70], 7, COUNTS)), ("count", (DECK, [0], 7, COUNTS[:10])),
    ("count", (DECK, [0], 7, bytes(64000))), ("count", (DECK, [0], 7, read_only(COUNTS.copy()))),
    ("count", (DECK, [0], 7, bytearray(64001))), ("count", (DECK, [0], 7, misaligned(np.int64, 8000))),
    ("count", (DECK, [0], 7, COUNTS.tolist())),
]  # fmt: skip


@pytest.mark.parametrize(("method", "arguments"), WRONG_CALLS, ids=[f"{m}-{i}" for i, (m, _) in enumerate(WRONG_CALLS)])
def test_rows_and_count_refuse_buffers_they_cannot_use(method: str, arguments: tuple[object, ...]) -> None:
    """Every argument of rows and count, wrong: an error, before the kernel
    reads or writes a byte it should not (or a misaligned item, which C
    leaves undefined)."""
    from fivecard.core.seven import compiled_scorer

    with executed_by("kernel"):
        scorer = compiled_scorer(RULE_SETS["standard"])
    assert scorer is not None
    with pytest.raises((TypeError, ValueError, OverflowError, LookupError, BufferError)):
        getattr(scorer, method)(*arguments)


#: Rule sets made by the user: wild cards named, fields of built-in rule
#: sets replaced.
MADE_RULES: tuple[RuleSet, ...] = (
    wild_rules("JS JH"),
    STANDARD.replace(name="standard-no-wheel", wheel=False),
    RULE_SETS["short-deck"].replace(
        name="short-deck-sixes-wild",
        wild=frozenset(c for c in full_deck() if c.rank == Rank.SIX),
        ladder=(*RULE_SETS["short-deck"].ladder, FIVE_OF_A_KIND),
    ),
    RULE_SETS["deuces-wild"].replace(name="deuces-and-jokers-wild", jokers=2),
    RULE_SETS["semi"].replace(name="semi-no-wheel", wheel=False),
)


def beyond_the_tables(rules: RuleSet, hand: Sequence[int]) -> bool:
    """Whether a hand of the rule set's cards holds a rank, or wild cards,
    more often than the six- and seven-card tables hold them (four of a
    rank with suits, seven without): the unchecked Python and numpy paths
    read such a hand's key as another multiset's, the kernel scores the
    best of its fives."""
    from fivecard.core.seven import INVALID, seven_tables

    seven = seven_tables(rules)
    if seven is None or any(seven.values()[c] == INVALID for c in hand):
        return False
    wild = sum(1 for c in hand if c in rules.wild_indices)
    ranks = Counter(CARDS[c].rank for c in hand if c not in rules.wild_indices)
    return wild > rules.wilds or any(n > (rules.natural_count(r) if rules.suits else 7) for r, n in ranks.items() if r)


@st.composite
def unchecked_hands(draw: st.DrawFn, rules: RuleSet) -> list[int]:
    """Five to seven numbers a scorer takes unchecked: cards of the deck, or
    any card (of no hand of the rules, for some), often one card again and
    again (a card twice, a rank past the deck's count of it)."""
    size = draw(st.integers(5, 7))
    cards = st.one_of(st.sampled_from([c.index for c in rules.deck()]), st.integers(0, len(CARDS) - 1))
    hand = draw(st.lists(cards, min_size=size, max_size=size))
    again = draw(st.integers(0, size - 1))
    return draw(st.permutations(hand[: size - again] + hand[:1] * again))


@given(data=st.data())
@pytest.mark.slow
@pytest.mark.parametrize("rules", (*ALL_RULES, *MADE_RULES), ids=[r.name for r in (*ALL_RULES, *MADE_RULES)])
def test_unchecked_hands_score_alike_one_at_a_time_and_in_rows(rules: RuleSet, data: st.DataObject) -> None:
    """Hands of five to seven numbers, as the fast functions take them
    unchecked: the kernel's scorer equals the Python function, and its rows
    the numpy path's (0 for a row holding a card of no hand of the rules).
    Hands beyond the tables are the best of their fives, in the kernel."""
    from fivecard.core.seven import _brute_strength_function

    hands = data.draw(st.lists(unchecked_hands(rules), min_size=1, max_size=20))
    compiled, python = scorers(rules, best_five=True)
    brute = _brute_strength_function(rules)
    for hand in hands:
        expected = brute(hand) if beyond_the_tables(rules, hand) else python(hand)
        assert compiled(hand) == expected, hand
    for size in (6, 7):
        rows = np.array([h for h in hands if len(h) == size and not beyond_the_tables(rules, h)], dtype=np.int32)
        if len(rows):
            by_kernel, by_numpy = both(lambda: bulk_seven.best_strengths(rows.reshape(-1, size), rules=rules))
            assert by_kernel.tolist() == by_numpy.tolist(), rows.tolist()
        beyond = np.array([h for h in hands if len(h) == size and beyond_the_tables(rules, h)], dtype=np.int32)
        if len(beyond):
            with executed_by("kernel"):
                found = bulk_seven.best_strengths(beyond.reshape(-1, size), rules=rules)
            assert found.tolist() == bulk_seven._brute_strengths(beyond.reshape(-1, size), rules).tolist()


@pytest.mark.parametrize("rules", [RULE_SETS[n] for n in ("standard", "semi", "deuces-wild", "deuce-to-seven")], ids=str)
def test_one_scorer_counts_and_scores_rows_in_many_threads_at_once(rules: RuleSet) -> None:
    """rows and count let go of the interpreter: one scorer's rows and
    counts, called from eight threads at once, are what one call alone
    gives."""
    from concurrent.futures import ThreadPoolExecutor

    from fivecard.core.lookup import tables_for
    from fivecard.core.seven import compiled_scorer

    with executed_by("kernel"):
        scorer = compiled_scorer(rules)
    assert scorer is not None
    cards = deck(rules).astype(np.uint8)[:16].tobytes()
    hands = np.ascontiguousarray(sub_deck_hands(rules, 7)[::4])
    size = tables_for(rules).size + 1

    def count() -> npt.NDArray[np.int64]:
        counts = np.zeros(size, dtype=np.int64)
        scorer.count(cards, list(range(len(cards))), 7, counts)
        return counts

    def rows() -> npt.NDArray[np.uint16]:
        out = np.empty(len(hands), dtype=np.uint16)
        scorer.rows(hands, out, 7)
        return out

    alone = (count(), rows())
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(lambda i: (count, rows)[i % 2](), range(16)))
    assert all((f == alone[i % 2]).all() for i, f in enumerate(found))


@pytest.mark.parametrize("rules", (*ALL_RULES, *MADE_RULES), ids=[r.name for r in (*ALL_RULES, *MADE_RULES)])
@pytest.mark.slow
def test_every_hand_of_a_sub_deck_counts_alike(rules: RuleSet) -> None:
    """Every hand of five, six and seven cards of 20 of the deck's cards
    (its wild cards among them), under every rule set and those the user
    makes: the kernel's counts by strength equal the numpy path's."""
    from fivecard.core.seven import compiled_scorer

    cards = np.unique(sub_deck_hands(rules, 5)).astype(np.uint8)
    size = bulk_seven._size(rules)
    for k in (5, 6, 7):
        with executed_by("kernel"):
            scorer = compiled_scorer(rules)
            assert scorer is not None
            by_kernel = bulk_seven._compiled_counts(scorer, cards, k, 2, size)
        with executed_by("numpy"):
            by_numpy = bulk_seven._count(rules, cards, bulk_seven._prefixes(len(cards), k - 5), size)
        assert by_kernel.sum() == comb(len(cards), k)
        assert (by_kernel == by_numpy).all(), k


def test_count_adds_to_any_count_modulo_2_to_the_64() -> None:
    """count adds to the caller's counts: from the largest int64 they wrap
    (two's complement, as numpy adds), never a signed overflow, which C
    leaves undefined (UndefinedBehaviorSanitizer reports it)."""
    from fivecard.core.seven import compiled_scorer

    with executed_by("kernel"):
        scorer = compiled_scorer(RULE_SETS["standard"])
    assert scorer is not None
    fresh = np.zeros(8000, dtype=np.int64)
    scorer.count(DECK, [0, 1], 7, fresh)
    full = np.full(8000, np.iinfo(np.int64).max, dtype=np.int64)
    scorer.count(DECK, [0, 1], 7, full)
    assert np.array_equal(full, np.full(8000, np.iinfo(np.int64).max, dtype=np.int64) + fresh)


def test_a_kernels_digest_names_its_build_and_is_0_where_none_serves() -> None:
    with executed_by("kernel"):
        built = {name: kernel.digest(name) for name in kernel.MODULES}
    assert all(built.values())
    assert len(set(built.values())) == len(built)
    with executed_by("numpy"):
        assert all(kernel.digest(name) == 0 for name in kernel.MODULES)
