"""Joker hands against a brute-force reference: every hand of the 54-card deck
that holds a joker, valued by trying every card the joker(s) could stand for.

The library never substitutes per hand (its table reasons from rank counts
and flush possibilities); this test does, and must agree on every hand.
"""

from __future__ import annotations

import itertools

from fivecard import full_deck, get_rules, strength_function
from fivecard.cards import JOKER, RANK_WEIGHTS
from fivecard.tables import KEY_SPACE, tables_for

STANDARD_CLASSES = 7_462


def test_every_joker_hand_matches_brute_force() -> None:
    ours = strength_function("joker")
    standard = tables_for(get_rules("standard")).lookup  # checked whole-deck elsewhere
    deck = [c.code for c in full_deck()]
    joker = JOKER.code
    rank_of = {w << 7: i + 1 for i, w in enumerate(RANK_WEIGHTS[:13])}  # 1 = twos

    def substituted(naturals: tuple[int, ...]) -> int:
        """Best standard strength over every choice of distinct cards not in
        the hand for the jokers; all five of a rank is Five of a Kind (7,462 +
        1 for twos ... 13 for aces), the one exception to 'not in the hand'."""
        ranks = {code & ~15 for code in naturals}
        if len(ranks) == 1:
            return STANDARD_CLASSES + rank_of[ranks.pop()]
        total = sum(naturals)
        suits = 15
        for code in naturals:
            suits &= code
        others = [c for c in deck if c not in naturals]
        best = 0
        if len(naturals) == 4:
            for x in others:
                index = ((total + x) >> 7) + (KEY_SPACE if suits & x else 0)
                best = max(best, standard[index])
        else:
            for i, x in enumerate(others):
                total_x, suits_x = total + x, suits & x
                for y in others[i + 1 :]:
                    index = ((total_x + y) >> 7) + (KEY_SPACE if suits_x & y else 0)
                    if standard[index] > best:
                        best = standard[index]
        return best

    checked = 0
    for jokers in (1, 2):
        for naturals in itertools.combinations(deck, 5 - jokers):
            expected = substituted(naturals)
            assert ours(naturals + (joker,) * jokers) == expected, naturals
            checked += 1
    # Hands with a joker, counting the two jokers of the deck as one card kind:
    # C(52,4) with one joker and C(52,3) with both.
    assert checked == 270_725 + 22_100
