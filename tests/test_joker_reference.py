"""Joker hands against a brute-force reference: every hand of the 54-card deck
that holds a joker, valued by trying every card the joker(s) could stand for.

The library never substitutes per hand (its table reasons from rank counts
and flush possibilities); this test does, for all 292,825 hands at once with
numpy (every hand against every substitute), and must agree on every hand.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from helpers import RANKS

from fivecard import get_rules
from fivecard.bulk import batch
from fivecard.core.cards import JOKER
from fivecard.core.tables import KEY_SPACE, tables_for

STANDARD_CLASSES = 7_462
ROWS = 2_048  # hands per step: the hands x substitutes arrays stay small


def brute_force(naturals: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """For hands of 4 (or 3) natural cards (deck indices) and 1 (or 2)
    jokers: the best standard strength over every choice of distinct cards
    not in the hand for the jokers; all five of a rank is Five of a Kind
    (7,462 + 1 for twos ... 13 for aces), the one exception to 'not in the
    hand'."""
    standard = np.frombuffer(tables_for(get_rules("standard")).lookup, dtype=np.uint16)  # checked whole-deck
    deck = batch.CODES[:52].astype(np.int64)
    jokers = 5 - naturals.shape[1]
    if jokers == 1:
        first, second = np.arange(52), None
    else:
        first, second = np.triu_indices(52, 1)  # every pair of cards
    best = np.empty(len(naturals), dtype=np.int64)
    for start in range(0, len(naturals), ROWS):
        hands = naturals[start : start + ROWS]
        codes = deck[hands]
        total = codes.sum(axis=1)
        suits = np.bitwise_and.reduce(codes, axis=1) & 15
        held = np.zeros((len(hands), 52), dtype=bool)
        held[np.arange(len(hands))[:, None], hands] = True
        add, both, taken = deck[first], deck[first], held[:, first]
        if second is not None:
            add, both, taken = add + deck[second], both & deck[second], taken | held[:, second]
        index = ((total[:, None] + add) >> 7) + KEY_SPACE * ((suits[:, None] & both) != 0)
        values = standard[index].astype(np.int64)
        values[taken] = 0
        best[start : start + len(hands)] = values.max(axis=1)
    heights = RANKS[naturals].astype(np.int64)
    five = (heights == heights[:, :1]).all(axis=1)
    best[five] = STANDARD_CLASSES + heights[five, 0] - 1
    return best


def test_every_joker_hand_matches_brute_force() -> None:
    checked = 0
    for jokers in (1, 2):
        naturals = batch.combinations(52, 5 - jokers)
        hands = np.column_stack([batch.CODES[naturals], np.full((len(naturals), jokers), JOKER.code)])
        ours = batch.strengths_of_codes(hands, rules="joker")  # = the single-hand path: test_enumeration
        expected = brute_force(naturals)
        wrong = np.flatnonzero(ours != expected)
        assert not len(wrong), [batch.CARDS[i].code_str for i in naturals[wrong[0]]]
        checked += len(naturals)
    # Hands with a joker, counting the two jokers of the deck as one card kind:
    # C(52,4) with one joker and C(52,3) with both.
    assert checked == 270_725 + 22_100
