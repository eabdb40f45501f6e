"""The best five of six or seven cards (stud, hold'em), for one hand.

A hand of six or seven cards plays its best five: the five whose strength
under the rule set is highest. When several fives share that strength (the
same class, with different suits or kickers of equal rank), the one chosen
is the five whose cards, sorted, come first in sorted order (the ace of
spades first; see :attr:`fivecard.core.cards.Card.sort_key`), so the choice
does not depend on the order the cards were written in.

How the best strength is found fast (:func:`_best_strength_function`, and the
batch path, :mod:`fivecard.vector.seven`): every five of the hand is either a
flush (its natural cards all of one suit) or not. The best five that is not a
flush depends only on the hand's rank multiset and how many wild cards it
holds; the best flush only on the ranks of the natural cards of a suit that
reaches five with the wild cards (one suit at most without wild cards).
:class:`SevenTables` holds both, derived from the rule set's five-card table
(:mod:`fivecard.core.lookup`, whose keys already settle wild cards):
``best[n][key]``, the best five-card strength among the fives inside each
multiset of ``n`` ranks and wild cards, each looked up as not a flush; and
``flush[mask << 3 | w]``, the best flush of the ranks in ``mask`` and up to
``w`` wild cards. The hand's best is the largest of these. That is exact
when a five is never weaker with its naturals in one suit than without (the
five-card table is checked for it when the tables are built): a five's
strength is one of the two lookups, and each table's best is a five the hand
holds, whose strength is at least the table's. Rule sets where a flush counts
against the hand (deuce-to-seven lowball) take the maximum over every five,
which is exact by definition.

The batch path gives the same strengths and chooses the same five.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final

from . import kernel, lookup_cache
from .cards import CARDS, Rank, Suit
from .rules import RuleSet
from .lookup import (
    JOKER_WEIGHT,
    KEY_SPACE,
    RANK_WEIGHTS,
    SUIT_MASK,
    SUIT_SHIFT,
    cache_key,
    codes_for,
    _five_strength_function,
    tables_for,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import _kernel

__all__ = [
    "best_five",
    "FIVES",
    "SevenTables",
    "seven_tables",
    "SUITED_WEIGHTS",
    "RANK_ONLY_WEIGHTS",
    "KEY_SHIFT",
    "SUIT_FLAGS",
    "SUIT_OFFSET",
    "WILD_SHIFT",
    "WILD_VALUE",
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
#: Where a key counts the hand's wild cards: above every sum of rank weights.
WILD_SHIFT: Final = 25
#: The value of a wild card: one more wild card, and one more card of every
#: suit (it may complete a flush in any suit).
WILD_VALUE: Final = 1 << KEY_SHIFT + WILD_SHIFT | 0x1111
#: The value of a card no hand of the rule set holds: its key is past every table.
INVALID: Final = 1 << 45
#: The wild card in the multisets the tables are built from (below every rank).
_WILD: Final = 1
#: The suit whose cards counter i of a value counts (bits 4 i to 4 i + 3).
COUNTER_SUITS: Final = tuple(Suit)


@dataclass(frozen=True, slots=True)
class SevenTables:
    """What the fast best-of-seven needs for a rule set (see the module
    text): ``weights`` (the rank weights of the keys), ``best[n]`` for n = 6
    and 7 (key -> the best five's strength, as if no five were a flush; the
    key is the natural cards' rank weights summed, plus the number of wild
    cards shifted left by :data:`WILD_SHIFT`; a key that is missing is no
    hand's), and ``flush`` (index ``mask << 3 | w``: the best flush made of
    natural cards of one suit whose ranks are ``mask``, bit ``rank - 2``,
    and up to ``w`` wild cards; 0 for fewer than five cards).

    ``trans`` and ``final`` hold ``best`` again as a state machine over the
    rank multiset, for the compiled kernel (:func:`_states`): a card's
    *symbol* is its rank's place in :meth:`symbols` (or the wild card's);
    from state ``s`` (0: no card yet) a card of symbol ``j`` leads to
    ``trans[s * S + j]`` (S symbols; -1 past the deck's count of the symbol,
    or past six cards), and ``final[s * S + j]`` is ``best[n + 1]`` of the
    multiset one card bigger when that is six or seven cards (0 for a
    multiset no hand holds). A hand's cards walked in any order reach the
    same state."""

    rules: RuleSet
    weights: tuple[int, ...]
    best: dict[int, dict[int, int]]
    flush: array[int]
    trans: array[int]
    final: array[int]

    @property
    def wild(self) -> bool:
        """Whether the rule set has wild cards (a hand's keys count them)."""
        return bool(self.rules.wild_indices)

    def symbols(self) -> list[int]:
        """The symbols of :attr:`trans`: the wild card (:data:`_WILD`) when
        the rule set has one, then the deck's ranks, ascending."""
        return _symbols(self.rules)

    def card_symbols(self) -> list[int]:
        """Card index -> its symbol's place in :meth:`symbols` (-1 for a card
        no hand of the rule set holds)."""
        symbols = self.symbols()
        value = self.values()
        made = [-1] * len(CARDS)
        for index, card in enumerate(CARDS):
            if value[index] == INVALID:
                continue
            made[index] = symbols.index(_WILD if index in self.rules.wild_indices else card.rank)  # type: ignore[arg-type]
        return made

    def values(self) -> list[int]:
        """Card index -> the card's value (see :data:`KEY_SHIFT`): for every
        card a hand of the rule set may hold (under rules without suits, a
        suited card counts as its rank alone; a wild card is
        :data:`WILD_VALUE`), else :data:`INVALID`."""
        made = [INVALID] * len(CARDS)
        for index, card in enumerate(CARDS):
            if card.rank is None or card.rank not in self.rules.ranks:
                continue
            weight = self.weights[card.rank - 2] << KEY_SHIFT
            if card.suit is None:
                if not self.rules.suits:
                    made[index] = weight
            elif self.rules.suits:
                made[index] = weight | 1 << 4 * COUNTER_SUITS.index(card.suit)
            else:
                made[index] = weight
        for index in self.rules.wild_indices:
            made[index] = WILD_VALUE
        return made


def seven_tables(rules: RuleSet) -> SevenTables | None:
    """The rule set's :class:`SevenTables`, or None where the fast path is not
    exact (a flush weaker than its ranks unsuited): made once per process,
    from the user's cache when it holds them, else built (0.3-1 s) and
    stored there."""
    return _seven_tables(rules)


@cache
def _seven_tables(rules: RuleSet) -> SevenTables | None:

    lookup = tables_for(rules).lookup
    if not _flush_never_weaker(rules, lookup):
        return None
    weights = SUITED_WEIGHTS if rules.suits else RANK_ONLY_WEIGHTS
    key = (*cache_key(rules), "seven", weights, KEY_SHIFT, WILD_SHIFT, _own_source())
    made = _from_payload(rules, weights, lookup_cache.load(rules.name + "-seven", key))
    if made is None:
        made, payload = _build(rules, weights, lookup)
        lookup_cache.store(rules.name + "-seven", key, payload)
    return made


def _deck_ranks(rules: RuleSet) -> list[int]:
    return sorted(int(r) for r in rules.ranks)


def _wilds(rules: RuleSet) -> int:
    """The most wild cards a hand of seven may hold."""
    return min(rules.wilds, 7)


def _five_key(hand: Sequence[int]) -> int:
    """The five-card table's key of five ranks (:data:`_WILD` for a wild card)."""
    return sum([JOKER_WEIGHT if r == _WILD else RANK_WEIGHTS[r - 2] for r in hand])


def _flush_never_weaker(rules: RuleSet, lookup: Sequence[int]) -> bool:
    """Whether every five of distinct natural ranks and wild cards is at
    least as strong when its naturals share a suit as when they do not
    (trivially so without suits; a flush no hand makes, 0, is skipped)."""
    if not rules.suits:
        return True

    for wild in range(min(_wilds(rules), 5) + 1):
        for naturals in combinations(_deck_ranks(rules), 5 - wild):
            key = _five_key(naturals) + wild * JOKER_WEIGHT
            flush = lookup[key + KEY_SPACE]
            if flush and flush < lookup[key]:
                return False
    return True


_Payload = tuple[bytes, bytes, bytes, bytes, bytes, bytes, bytes]


def _build(
    rules: RuleSet, weights: tuple[int, ...], lookup: Sequence[int]
) -> tuple[SevenTables, _Payload]:
    """Build the tables: every multiset of 5, then 6, then 7 of the deck's
    ranks and wild cards that a hand may hold, each the best of the
    multisets one smaller (for five, the five-card table); and the flushes
    the same way, by the suit's natural ranks and the wild cards."""

    ranks = _deck_ranks(rules)
    wilds = _wilds(rules)
    most = _most(rules)
    symbols = _symbols(rules)
    level: dict[tuple[int, ...], int] = {}
    for five in _multisets(symbols, 5, most):
        level[five] = lookup[_five_key(five)]
    best: dict[int, dict[int, int]] = {}
    for size in (6, 7):
        grown: dict[tuple[int, ...], int] = {}
        keyed: dict[int, int] = {}
        for hand in _multisets(symbols, size, most):
            value = max([level[hand[:i] + hand[i + 1 :]] for i in _distinct_positions(hand)])
            grown[hand] = value
            key = sum([weights[r - 2] for r in hand if r != _WILD])
            keyed[key + (hand.count(_WILD) << WILD_SHIFT)] = value
        level, best[size] = grown, keyed
    flush = array("H", bytes(2 * (8 << 13)))
    if rules.suits:
        for total in (5, 6, 7):
            for n in range(max(0, total - wilds), total + 1):
                wild = total - n
                for naturals in combinations(ranks, n):
                    mask = sum([1 << r - 2 for r in naturals])
                    if total == 5:
                        key = KEY_SPACE + _five_key(naturals) + wild * JOKER_WEIGHT
                        value = lookup[key]
                    else:
                        smaller = [flush[(mask & ~(1 << r - 2)) << 3 | wild] for r in naturals]
                        if wild:
                            smaller.append(flush[mask << 3 | (wild - 1)])
                        value = max(smaller)
                    flush[mask << 3 | wild] = value
    trans, final = _states(rules, weights, best)
    made = SevenTables(rules, weights, best, flush, trans, final)
    payload = (
        array("I", best[6]).tobytes(),
        array("H", best[6].values()).tobytes(),
        array("I", best[7]).tobytes(),
        array("H", best[7].values()).tobytes(),
        flush.tobytes(),
        trans.tobytes(),
        final.tobytes(),
    )
    return made, payload


def _most(rules: RuleSet) -> dict[int, int]:
    """How often each symbol (a rank, or :data:`_WILD`) may be in a hand of seven."""
    most = {r: rules.natural_count(Rank(r)) if rules.suits else 7 for r in _deck_ranks(rules)}
    most[_WILD] = _wilds(rules)
    return most


def _symbols(rules: RuleSet) -> list[int]:
    ranks = _deck_ranks(rules)
    return [_WILD, *ranks] if _wilds(rules) else ranks


def _states(
    rules: RuleSet, weights: tuple[int, ...], best: dict[int, dict[int, int]]
) -> tuple[array[int], array[int]]:
    """:attr:`SevenTables.trans` and :attr:`SevenTables.final` from ``best``:
    every multiset of up to six symbols a hand may hold is a state, numbered
    as met (by size, so a state's successors come after it); a state's key
    is ``best``'s key of its multiset."""
    symbols = _symbols(rules)
    most = _most(rules)
    step = [1 << WILD_SHIFT if s == _WILD else weights[s - 2] for s in symbols]
    limit = [most[s] for s in symbols]
    width = len(symbols)
    trans, final = array("i"), array("H")
    keys: list[int] = [0]
    counts: list[tuple[int, ...]] = [(0,) * width]
    start = 0
    for size in range(7):
        end = len(keys)
        table = best.get(size + 1, {})
        ids: dict[int, int] = {}  # a key is unique among multisets of one size only (a 2 weighs 0)
        for state in range(start, end):
            key, count = keys[state], counts[state]
            for j in range(width):
                if count[j] >= limit[j]:
                    trans.append(-1)
                    final.append(0)
                    continue
                grown = key + step[j]
                final.append(table.get(grown, 0))
                if size == 6:
                    trans.append(-1)
                    continue
                found = ids.get(grown)
                if found is None:
                    found = ids[grown] = len(keys)
                    keys.append(grown)
                    counts.append(count[:j] + (count[j] + 1,) + count[j + 1 :])
                trans.append(found)
        start = end
    return trans, final


def _multisets(symbols: list[int], size: int, most: dict[int, int]) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` of these symbols (ascending) with no symbol
    more often than ``most`` says, as a sorted tuple."""

    def grow(start: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        for i in range(start, len(symbols)):
            symbol = symbols[i]
            for count in range(min(most[symbol], left), 0, -1):
                for rest in grow(i + 1, left - count):
                    yield (symbol,) * count + rest

    return grow(0, size)


def _distinct_positions(hand: tuple[int, ...]) -> list[int]:
    """The first position of each distinct rank of a sorted tuple."""
    return [i for i in range(len(hand)) if i == 0 or hand[i] != hand[i - 1]]


def _from_payload(rules: RuleSet, weights: tuple[int, ...], payload: object) -> SevenTables | None:
    """Tables from a cached payload (see :func:`_build`), or None when it is
    not a whole one."""
    if not (
        isinstance(payload, tuple)
        and len(payload) == 7
        and all(isinstance(part, bytes) for part in payload)
    ):
        return None
    try:
        keys6, values6, keys7, values7, flush, trans, final = (array(t) for t in "IHIHHiH")
        for part, data in zip((keys6, values6, keys7, values7, flush, trans, final), payload):
            part.frombytes(data)
    except ValueError:
        return None
    width = len(_symbols(rules))
    if (
        len(keys6) != len(values6)
        or len(keys7) != len(values7)
        or len(flush) != 8 << 13
        or len(trans) != len(final)
        or len(trans) % width
        or (trans and max(trans) >= len(trans) // width)
    ):
        return None
    best = {6: dict(zip(keys6, values6)), 7: dict(zip(keys7, values7))}
    return SevenTables(rules, weights, best, flush, trans, final)


def _own_source() -> int:
    """A checksum of this module, for the cache key (its code builds the tables)."""
    import os
    import zlib

    try:
        with open(os.path.abspath(__file__), "rb") as source:
            return zlib.crc32(source.read())
    except OSError:
        return 0


def best_five(indices: Sequence[int], rules: RuleSet) -> tuple[int, tuple[int, ...]]:
    """The strength of the best five of 5-7 card indices (of a valid hand
    under ``rules``) and the positions of those five (ascending).

    >>> from fivecard.core.cards import parse_cards
    >>> from fivecard.core.rules import STANDARD
    >>> best_five([c.index for c in parse_cards('2C AS KS 7D QS JS TS')], STANDARD)
    (7462, (1, 2, 4, 5, 6))
    """
    strength = _five_strength_function(rules)
    # Positions in sorted order of their cards (ascending index; ties by
    # position): the fives of these, in lexicographic order, come in sorted
    # order of their cards, so the first five of the best strength is the one.
    order = sorted(range(len(indices)), key=lambda i: (indices[i], i))
    best, chosen = -1, FIVES[5][0]
    for five in FIVES[len(indices)]:
        positions = [order[i] for i in five]
        s = strength([indices[i] for i in positions])
        if s > best:
            best, chosen = s, tuple(sorted(positions))
    return best, chosen


@cache
def _best_strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    """A fast function from 5-7 card indices (of a valid hand) to the
    strength of their best five: two table lookups (see the module text)
    where the rule set allows, else the best over every five
    (:func:`_brute_strength_function`).
    :func:`fivecard.core.evaluate.strength_function` is its public face
    (``best_five=True``).

    >>> from fivecard.core.cards import parse_cards
    >>> from fivecard.core.rules import STANDARD
    >>> best = _best_strength_function(STANDARD)
    >>> best([c.index for c in parse_cards('2C AS KS 7D QS JS TS')])
    7462
    """
    compiled = compiled_scorer(rules)
    if compiled is not None:
        return compiled
    strength = _five_strength_function(rules)
    brute = _brute_strength_function(rules)
    seven = seven_tables(rules)
    if seven is None:
        return brute
    value = seven.values()
    best6, best7, flush = seven.best[6], seven.best[7], seven.flush
    # the top bit of each suit's counter, and per index the suit's counter bit (0: none, or wild)
    flags_of = tuple(8 << 4 * i for i in range(len(COUNTER_SUITS)))
    suit_flag = [
        0 if i in rules.wild_indices or c.suit is None or not rules.suits else 8 << 4 * COUNTER_SUITS.index(c.suit)
        for i, c in enumerate(CARDS)
    ]
    # a natural card's rank bit; a wild card counts in no suit's ranks
    rank_bit = [
        0 if i in rules.wild_indices or c.rank is None else 1 << c.rank - 2 for i, c in enumerate(CARDS)
    ]
    wild = seven.wild
    wild_shift = KEY_SHIFT + WILD_SHIFT

    def best_strength(
        indices: Sequence[int],
        value: list[int] = value,
        best6: dict[int, int] = best6,
        best7: dict[int, int] = best7,
        flags: int = SUIT_FLAGS,
        shift: int = KEY_SHIFT,
    ) -> int:
        n = len(indices)
        if n != 7 and n != 6:  # five cards, or a count that is no hand's: as the five-card function says
            return strength(indices)
        try:
            if n == 7:
                a, b, c, d, e, f, g = indices
                v = SUIT_OFFSET + value[a] + value[b] + value[c] + value[d] + value[e] + value[f] + value[g]
                made = best7[v >> shift]
            else:
                a, b, c, d, e, f = indices
                v = SUIT_OFFSET + value[a] + value[b] + value[c] + value[d] + value[e] + value[f]
                made = best6[v >> shift]
        except (KeyError, ValueError, IndexError):  # not a hand of these rules: as the brute force says
            return brute(indices)
        if not v & flags:
            return made
        if not wild:  # five or more of one suit: the best flush among them
            flag = v & flags
            mask = 0
            for index in indices:
                if suit_flag[index] == flag:
                    mask |= rank_bit[index]
            return max(made, flush[mask << 3])
        # wild cards: each suit whose naturals and the wild cards make five
        count = v >> wild_shift & 7
        for flag in flags_of:
            if v & flag:
                mask = 0
                for index in indices:
                    if suit_flag[index] == flag:
                        mask |= rank_bit[index]
                made = max(made, flush[mask << 3 | count])
        return made

    return best_strength


#: A card's suit as the compiled kernel reads it: 0-3 (the counters of
#: :data:`COUNTER_SUITS`), a wild card (in every suit), or none.
_KERNEL_WILD: Final = 4
_KERNEL_NO_SUIT: Final = 5


@cache
def compiled_scorer(rules: RuleSet) -> _kernel.Scorer | None:
    """The compiled kernel's scorer of five to seven cards under ``rules``
    (the same strengths as :func:`_best_strength_function`'s Python, from
    the same tables; its ``rows`` and ``count`` serve the batch path), or
    None where the kernel is not built (:mod:`fivecard.core.kernel`)."""
    compiled = kernel.load("fivecard.core._kernel")
    if compiled is None:
        return None
    five = (codes_for(rules), tables_for(rules).lookup, KEY_SPACE, SUIT_SHIFT, SUIT_MASK)
    seven = seven_tables(rules)
    if seven is None:  # every five is tried
        scorer: _kernel.Scorer = compiled.Scorer(*five, best=True)
        return scorer
    suits = []
    rank_bits = []
    for index, card in enumerate(CARDS):
        if index in rules.wild_indices:
            suits.append(_KERNEL_WILD)
            rank_bits.append(0)
            continue
        natural = rules.suits and card.suit is not None
        suits.append(COUNTER_SUITS.index(card.suit) if natural else _KERNEL_NO_SUIT)
        rank_bits.append(0 if card.rank is None else 1 << card.rank - 2)
    scorer = compiled.Scorer(
        *five,
        best=True,
        symbols=len(seven.symbols()),
        symbol=seven.card_symbols(),
        suit=suits,
        rank_bit=rank_bits,
        trans=seven.trans,
        final=seven.final,
        flush=seven.flush,
    )
    return scorer


def _brute_strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    """The best five's strength of 5-7 card indices as the best over every
    five (the definition, and the path of rules where a flush counts
    against the hand)."""
    strength = _five_strength_function(rules)

    def best_strength(indices: Sequence[int]) -> int:
        fives = FIVES.get(len(indices))
        if fives is None:  # (as the other paths: a ValueError)
            raise ValueError(f"expected 5 to 7 card indices, got {len(indices)}")
        return max([strength([indices[i] for i in five]) for five in fives])

    return best_strength
