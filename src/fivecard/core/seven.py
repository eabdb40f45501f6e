"""The best five of six or seven cards (stud, hold'em), for one hand.

A hand of six or seven cards plays its best five: the five whose strength
under the rule set is highest. When several fives share that strength (the
same class, with different suits or kickers of equal rank), the one chosen
is the five whose cards, sorted, come first in sorted order (the ace of
spades first; see :attr:`fivecard.core.cards.Card.sort_key`), so the choice
does not depend on the order the cards were written in.

How the best strength is found fast (:func:`best_strength_function`, and the
batch path, :mod:`fivecard.bulk.seven`): every five of the hand is either a
flush (all five of one suit) or not. The best five that is not a flush
depends only on the hand's rank multiset; the best flush only on the ranks
of the suit that holds five or more cards (at most one suit does, in six or
seven cards). :class:`SevenTables` holds both, derived from the rule set's
five-card table (:mod:`fivecard.core.tables`): ``best[n][key]``, the best
five-card strength among the rank multisets of five inside each multiset of
``n`` ranks, each looked up as not a flush; and ``flush[mask]``, the best
flush among the fives of the ranks in ``mask``. The hand's best is the
larger of the two. That is exact when a flush of five ranks is never weaker
than the same five ranks unsuited (the table is checked for it when it is
built; lowball's deuce-to-seven, where a flush counts against the hand, is
not so), and when no card is wild (a wild card's five depends on what else
it sits with); other rule sets take the maximum over every five, which is
exact by definition.

The batch path gives the same strengths and chooses the same five.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Final

from . import tablecache
from .cards import CARD_OF_CODE, RANK_WEIGHTS, SORT_PLACE, Suit, code_of
from .rules import RuleSet

__all__ = [
    "best_five",
    "best_strength_function",
    "brute_strength_function",
    "FIVES",
    "SevenTables",
    "seven_tables",
    "SUITED_WEIGHTS",
    "RANK_ONLY_WEIGHTS",
    "KEY_SHIFT",
    "SUIT_FLAGS",
    "SUIT_OFFSET",
    "INVALID",
    "COUNTER_SUITS",
]

#: For n = 5, 6, 7 cards: every five of their positions, in lexicographic order.
FIVES: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(combinations(range(n), 5)) for n in (5, 6, 7)
}

#: Weights of the ranks 2 ... A whose sums over six or seven ranks, each rank
#: at most four times (cards with suits), are all distinct: the sum is a key
#: of the rank multiset, below 2**23 (the weights of SKPokerEval; a test
#: checks the uniqueness).
SUITED_WEIGHTS: Final[tuple[int, ...]] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)  # fmt: skip
#: The same for rank-only cards (``semi``), where a rank may appear up to
#: seven times: sums below 2**25 (found by a greedy search; a test checks them).
RANK_ONLY_WEIGHTS: Final[tuple[int, ...]] = (
    0, 1, 8, 57, 256, 1188, 4626, 17652, 59364, 203066, 493687, 1389287, 3393254,
)  # fmt: skip

#: A card's *value* (:meth:`SevenTables.values`) holds four suit counters of
#: four bits in its low 16 bits, its rank weight from bit 16 (the key is the
#: sum shifted right by this) and, for a card no hand of the rule set holds,
#: a bit far above every key.
KEY_SHIFT: Final = 16
#: Added once to a sum of values: each suit counter starts at 3, so that its
#: top bit is set exactly when five or more cards share the suit.
SUIT_OFFSET: Final = 0x3333
#: The counters' top bits: a sum with one of them set holds a flush.
SUIT_FLAGS: Final = 0x8888
#: The value of a card no hand of the rule set holds: its key is past every table.
INVALID: Final = 1 << 45
#: The suit whose cards counter i of a value counts (bits 4 i to 4 i + 3).
COUNTER_SUITS: Final = tuple(Suit)


@dataclass(frozen=True, slots=True)
class SevenTables:
    """What the fast best-of-seven needs for a rule set (see the module
    text): ``weights`` (the rank weights of the keys), ``best[n]`` for n = 6
    and 7 (rank key -> the best five's strength, as if no five were a
    flush; a key that is missing is no hand's), and ``flush`` (a mask of
    ranks, bit ``rank - 2``, -> the best flush among its fives; 0 for fewer
    than five ranks)."""

    rules: RuleSet
    weights: tuple[int, ...]
    best: dict[int, dict[int, int]]
    flush: array[int]

    def values(self) -> dict[int, int]:
        """Card code -> the card's value (see :data:`KEY_SHIFT`), for every
        card a hand of the rule set may hold (under rules without suits, a
        suited card counts as its rank alone)."""
        made: dict[int, int] = {}
        for rank in self.rules.ranks:
            weight = self.weights[rank - 2] << KEY_SHIFT
            if self.rules.suits:
                for i, suit in enumerate(COUNTER_SUITS):
                    made[code_of(rank, suit)] = weight | 1 << 4 * i
            else:
                made[code_of(rank, None)] = weight
                for suit in COUNTER_SUITS:
                    made[code_of(rank, suit)] = weight
        return made


def seven_tables(rules: RuleSet) -> SevenTables | None:
    """The rule set's :class:`SevenTables`, or None where the fast path is not
    exact (wild cards; a flush weaker than its ranks unsuited): made once per
    process, from the user's cache when it holds them, else built (about a
    second) and stored there."""
    return _seven_tables(rules)


@cache
def _seven_tables(rules: RuleSet) -> SevenTables | None:
    from .tables import cache_key, tables_for

    if rules.wild_codes:
        return None
    lookup = tables_for(rules).lookup
    if not _flush_never_weaker(rules, lookup):
        return None
    weights = SUITED_WEIGHTS if rules.suits else RANK_ONLY_WEIGHTS
    key = (*cache_key(rules), "seven", weights, KEY_SHIFT, _own_source())
    made = _from_payload(rules, weights, tablecache.load(rules.name + "-seven", key))
    if made is None:
        made, payload = _build(rules, weights, lookup)
        tablecache.store(rules.name + "-seven", key, payload)
    return made


def _deck_ranks(rules: RuleSet) -> list[int]:
    return sorted(int(r) for r in rules.ranks)


def _flush_never_weaker(rules: RuleSet, lookup: Sequence[int]) -> bool:
    """Whether every five distinct ranks of the deck are at least as strong
    as a flush as they are unsuited (trivially so without suits)."""
    if not rules.suits:
        return True
    from .tables import KEY_SPACE

    for five in combinations(_deck_ranks(rules), 5):
        key = sum([RANK_WEIGHTS[r - 2] for r in five])
        if lookup[key + KEY_SPACE] < lookup[key]:
            return False
    return True


_Payload = tuple[bytes, bytes, bytes, bytes, bytes]


def _build(
    rules: RuleSet, weights: tuple[int, ...], lookup: Sequence[int]
) -> tuple[SevenTables, _Payload]:
    """Build the tables: every rank multiset of 5, then 6, then 7 of the
    deck's ranks (no rank more often than the deck allows in a hand), each
    best of the multisets one rank smaller (for five, the five-card table)."""
    from .tables import KEY_SPACE

    ranks = _deck_ranks(rules)
    level: dict[tuple[int, ...], int] = {}
    for five in _multisets(ranks, 5, rules):
        level[five] = lookup[sum([RANK_WEIGHTS[r - 2] for r in five])]
    best: dict[int, dict[int, int]] = {}
    for size in (6, 7):
        grown: dict[tuple[int, ...], int] = {}
        keyed: dict[int, int] = {}
        for hand in _multisets(ranks, size, rules):
            value = max([level[hand[:i] + hand[i + 1 :]] for i in _distinct_positions(hand)])
            grown[hand] = value
            keyed[sum([weights[r - 2] for r in hand])] = value
        level, best[size] = grown, keyed
    flush = array("H", bytes(2 << 13))
    if rules.suits:
        masks: dict[int, int] = {}
        for five in combinations(ranks, 5):
            mask = sum([1 << r - 2 for r in five])
            masks[mask] = flush[mask] = lookup[KEY_SPACE + sum([RANK_WEIGHTS[r - 2] for r in five])]
        for size in (6, 7):
            grown_masks: dict[int, int] = {}
            for hand in combinations(ranks, size):
                mask = sum([1 << r - 2 for r in hand])
                value = max([masks[mask & ~(1 << r - 2)] for r in hand])
                grown_masks[mask] = flush[mask] = value
            masks = grown_masks
    made = SevenTables(rules, weights, best, flush)
    payload = (
        array("I", best[6]).tobytes(),
        array("H", best[6].values()).tobytes(),
        array("I", best[7]).tobytes(),
        array("H", best[7].values()).tobytes(),
        flush.tobytes(),
    )
    return made, payload


def _multisets(ranks: list[int], size: int, rules: RuleSet) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` of these ranks (as a sorted tuple) that a
    hand may hold: with suits, no rank more than four times."""
    most = 4 if rules.suits else size
    for hand in combinations_with_replacement(ranks, size):
        if most >= size or all(hand[i] != hand[i + most] for i in range(size - most)):
            yield hand


def _distinct_positions(hand: tuple[int, ...]) -> list[int]:
    """The first position of each distinct rank of a sorted tuple."""
    return [i for i in range(len(hand)) if i == 0 or hand[i] != hand[i - 1]]


def _from_payload(rules: RuleSet, weights: tuple[int, ...], payload: object) -> SevenTables | None:
    """Tables from a cached payload (see :func:`_build`), or None when it is
    not a whole one."""
    if not (
        isinstance(payload, tuple)
        and len(payload) == 5
        and all(isinstance(part, bytes) for part in payload)
    ):
        return None
    try:
        keys6, values6, keys7, values7 = (array(t) for t in "IHIH")
        keys6.frombytes(payload[0])
        values6.frombytes(payload[1])
        keys7.frombytes(payload[2])
        values7.frombytes(payload[3])
        flush = array("H")
        flush.frombytes(payload[4])
    except ValueError:
        return None
    if len(keys6) != len(values6) or len(keys7) != len(values7) or len(flush) != 1 << 13:
        return None
    best = {6: dict(zip(keys6, values6)), 7: dict(zip(keys7, values7))}
    return SevenTables(rules, weights, best, flush)


def _own_source() -> int:
    """A checksum of this module, for the cache key (its code builds the tables)."""
    import os
    import zlib

    try:
        with open(os.path.abspath(__file__), "rb") as source:
            return zlib.crc32(source.read())
    except OSError:
        return 0


def _rank(code: int) -> int:
    rank = CARD_OF_CODE[code].rank
    assert rank is not None
    return int(rank)


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
    # Positions in sorted order of their cards (ties by position): the fives
    # of these, in lexicographic order, come in sorted order of their cards,
    # so the first five of the best strength is the one chosen.
    order = sorted(range(len(codes)), key=lambda i: (SORT_PLACE[codes[i]], i))
    best, chosen = -1, FIVES[5][0]
    for five in FIVES[len(codes)]:
        positions = [order[i] for i in five]
        s = strength([codes[i] for i in positions])
        if s > best:
            best, chosen = s, tuple(sorted(positions))
    return best, chosen


def best_strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    """A fast function from 5-7 card codes (of a valid hand) to the strength
    of their best five: two table lookups (see the module text) where the
    rule set allows, else the best over every five
    (:func:`brute_strength_function`).

    >>> from fivecard.core.cards import parse_cards
    >>> from fivecard.core.rules import STANDARD
    >>> best = best_strength_function(STANDARD)
    >>> best([c.code for c in parse_cards('2C AS KS 7D QS JS TS')])
    7462
    """
    return _best_strength_function(rules)


@cache
def _best_strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    strength = _strength_function(rules)
    brute = brute_strength_function(rules)
    seven = seven_tables(rules)
    if seven is None:
        return brute
    value = seven.values()
    best6, best7, flush = seven.best[6], seven.best[7], seven.flush
    suit_of_flag = {8 << 4 * i: suit.bit for i, suit in enumerate(COUNTER_SUITS)}
    rank_bit = {code: 1 << _rank(code) - 2 for code in value}

    def best_strength(
        codes: Sequence[int],
        value: dict[int, int] = value,
        best6: dict[int, int] = best6,
        best7: dict[int, int] = best7,
        flags: int = SUIT_FLAGS,
        shift: int = KEY_SHIFT,
    ) -> int:
        try:
            if len(codes) == 7:
                a, b, c, d, e, f, g = codes
                v = SUIT_OFFSET + value[a] + value[b] + value[c] + value[d] + value[e] + value[f] + value[g]
                made = best7[v >> shift]
            elif len(codes) == 6:
                a, b, c, d, e, f = codes
                v = SUIT_OFFSET + value[a] + value[b] + value[c] + value[d] + value[e] + value[f]
                made = best6[v >> shift]
            else:
                return strength(codes)
        except (KeyError, ValueError):  # not a hand of these rules: as the brute force says
            return brute(codes)
        if v & flags:  # five or more of one suit: the best flush among them
            suit = suit_of_flag[v & flags]
            mask = 0
            for code in codes:
                if code & suit:
                    mask |= rank_bit[code]
            return max(made, flush[mask])
        return made

    return best_strength


def brute_strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    """The best five's strength of 5-7 card codes as the best over every
    five (the definition, and the path of rules with wild cards)."""
    strength = _strength_function(rules)

    def best_strength(codes: Sequence[int]) -> int:
        return max([strength([codes[i] for i in five]) for five in FIVES[len(codes)]])

    return best_strength


@cache
def _strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    from .evaluate import strength_function

    return strength_function(rules)
