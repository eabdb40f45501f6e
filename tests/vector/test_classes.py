"""Deal classes: the quick grouping by the suits' rank sets names the same
classes, in the same order, as trying every suit renaming on every deal;
and what the solvers share about card sets and a deal's 32 holds."""

from __future__ import annotations

from math import comb
from pathlib import Path

import numpy as np
import pytest

from fivecard.core.rules import RULE_SETS, get_rules
from fivecard.vector import batch
from fivecard.vector.classes import (
    _classes_by_renamings,
    _renamings,
    deal_classes,
    numbered_sets,
    set_numbers,
    signed_supersets,
)


def _both(name: str) -> None:
    rules = get_rules(name)
    deck = rules.deck()
    quick = deal_classes(deck, rules)
    deals = batch.combinations(len(deck))
    tried = _classes_by_renamings(deck, deals, _renamings(deck, rules), len(set(deck)) < len(deck))
    assert np.array_equal(quick.first, tried.first) and np.array_equal(quick.deals, tried.deals)
    assert quick.total == len(deals)


def test_the_short_deck_classes_are_the_renamings_classes() -> None:
    _both("short-deck")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_rule_sets_classes_are_the_renamings_classes(name: str) -> None:
    """Every rule set, whichever way its classes are found (semi and
    one-eyed jacks keep trying renamings)."""
    _both(name)


@pytest.mark.parametrize("shape", [(7, 32), (7, 32, 3), (7, 32, 2, 2)])
@pytest.mark.parametrize("contiguous", [True, False])
def test_signed_supersets_is_the_sum_over_each_masks_supersets(shape: tuple[int, ...], contiguous: bool) -> None:
    """In place, whatever the trailing axes and whether the array is one
    block of memory or a view across one: each mask's count becomes the sum
    of its supersets' counts, those of an odd number of cards more negated."""
    rng = np.random.default_rng(len(shape))
    counts = rng.integers(-1000, 1000, size=shape)
    found = counts.copy() if contiguous else np.asfortranarray(counts)
    assert found.flags.c_contiguous == contiguous
    assert signed_supersets(found) is found
    for mask in range(32):
        expected = sum(
            (-1) ** bin(superset ^ mask).count("1") * counts[:, superset]
            for superset in range(32)
            if superset & mask == mask
        )
        assert np.array_equal(found[:, mask], expected)


@pytest.mark.parametrize("n", [5, 13, 36, 52, 54])
def test_numbered_sets_are_every_set_in_the_order_of_its_number(n: int) -> None:
    """Row i of every size's sets is the set whose number is i: each set
    of ascending positions once, numbered 0 to C(n, size) - 1 in turn."""
    for size in range(6):
        sets = numbered_sets(n, size)
        assert sets.shape == (comb(n, size), size) and sets.dtype == np.uint8
        assert (np.diff(sets.astype(np.int64), axis=1) > 0).all()
        assert np.array_equal(set_numbers(sets.astype(np.int64), range(size), n), np.arange(comb(n, size)))


def test_the_classes_the_cache_keeps_read_back_as_they_were(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found once, kept in the user's cache (the first deals a byte a card)
    and read back the same, without being found again."""
    from fivecard.vector import classes

    monkeypatch.setenv("FIVECARD_CACHE", str(tmp_path))
    rules = get_rules("short-deck")
    found = deal_classes(rules.deck(), rules)
    (kept,) = tmp_path.iterdir()
    assert kept.stat().st_size < found.first.nbytes

    def not_again(*args: object) -> None:
        raise AssertionError("found again")

    monkeypatch.setattr(classes, "_deal_classes", not_again)
    read = deal_classes(rules.deck(), rules)
    assert read.first.dtype == found.first.dtype and np.array_equal(read.first, found.first)
    assert np.array_equal(read.deals, found.deals)
