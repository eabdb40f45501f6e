"""The card-code scheme that the lookup table relies on."""

from __future__ import annotations

import itertools

from fivecard.core.lookup import KEY_SPACE, RANK_WEIGHTS, SUIT_SHIFT


def test_sums_of_five_weights_are_unique() -> None:
    """Every multiset of five of the 14 symbols (13 ranks and the joker), any
    symbol up to five times, has its own sum: the key names the multiset."""
    sums = [sum(c) for c in itertools.combinations_with_replacement(RANK_WEIGHTS, 5)]
    assert len(sums) == len(set(sums)) == 8_568
    assert max(sums) < KEY_SPACE


def test_codes_stay_small_ints() -> None:
    # Five codes add up below 2**30: one machine word in CPython and numpy int32.
    assert 5 * ((max(RANK_WEIGHTS) << SUIT_SHIFT) | 15) < 2**30
