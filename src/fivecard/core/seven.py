"""The best five of six or seven cards (stud, hold'em), for one hand.

A hand of six or seven cards plays its best five: the five whose strength
under the rule set is highest. When several fives share that strength (the
same class, with different suits or kickers of equal rank), the one chosen
is the five whose cards, sorted, come first in sorted order (the ace of
spades first; see :attr:`fivecard.core.cards.Card.sort_key`), so the choice
does not depend on the order the cards were written in.

The batch path (:mod:`fivecard.bulk.seven`) gives the same strengths and
chooses the same five.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

from .cards import SORT_PLACE
from .rules import RuleSet

__all__ = ["best_five", "best_strength_function", "FIVES"]

#: For n = 5, 6, 7 cards: every five of their positions, in lexicographic order.
FIVES: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(combinations(range(n), 5)) for n in (5, 6, 7)
}


def best_five(codes: Sequence[int], rules: RuleSet) -> tuple[int, tuple[int, ...]]:
    """The strength of the best five of 5-7 card codes (``Card.code``, of a
    valid hand under ``rules``) and the positions of those five (ascending).

    >>> from fivecard.core.hand import Hand
    >>> from fivecard.core.cards import parse_cards
    >>> from fivecard.core.rules import STANDARD
    >>> best_five([c.code for c in parse_cards('2C AS KS 7D QS JS TS')], STANDARD)
    (7462, (1, 2, 4, 5, 6))
    """
    strength = _strength_function(rules)
    best, chosen = -1, FIVES[5][0]
    places: tuple[int, ...] = (99,)
    for five in FIVES[len(codes)]:
        s = strength([codes[i] for i in five])
        if s < best:
            continue
        mine = tuple(sorted(SORT_PLACE[codes[i]] for i in five))
        if s > best or mine < places:
            best, chosen, places = s, five, mine
    return best, chosen


def best_strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    """A fast function from 5-7 card codes (of a valid hand) to the strength
    of their best five."""
    strength = _strength_function(rules)

    def best_strength(codes: Sequence[int]) -> int:
        return max(strength([codes[i] for i in five]) for five in FIVES[len(codes)])

    return best_strength


@cache
def _strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    from .evaluate import strength_function

    return strength_function(rules)
