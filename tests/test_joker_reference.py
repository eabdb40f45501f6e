"""Joker hands against a brute-force reference: every hand of the 54-card deck
that holds a joker, valued by trying every card the joker(s) could stand for.

The library never substitutes per hand (its table reasons from rank counts
and flush possibilities); this test does, for all 292,825 hands at once with
numpy (every hand against every substitute), and must agree on every hand.
"""

from __future__ import annotations

import numpy as np
from helpers import best_by_substitution

from fivecard.vector import batch
from fivecard.core.cards import JOKER



def test_every_joker_hand_matches_brute_force() -> None:
    checked = 0
    for jokers in (1, 2):
        naturals = batch.combinations(52, 5 - jokers)
        hands = np.column_stack([batch.CODES[naturals], np.full((len(naturals), jokers), JOKER.code)])
        ours = batch.strengths_of_codes(hands, rules="joker")  # = the single-hand path: test_enumeration
        expected = best_by_substitution(naturals)
        wrong = np.flatnonzero(ours != expected)
        assert not len(wrong), [batch.CARDS[i].code_str for i in naturals[wrong[0]]]
        checked += len(naturals)
    # Hands with a joker, counting the two jokers of the deck as one card kind:
    # C(52,4) with one joker and C(52,3) with both.
    assert checked == 270_725 + 22_100
