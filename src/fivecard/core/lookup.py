"""Hand classes and lookup tables, generated from a rule set's ladder.

Every five-card hand is decided by its rank multiset and whether it is a
flush. This module classifies every rank multiset a rule set allows (jokers
included), numbers the distinct classes from 1 (weakest) to N (strongest),
and fills one lookup table indexed by the hand's key (see
:data:`RANK_WEIGHTS`). The single-hand path and the batch path both read
this table, so they agree by construction.

The evaluator's own number for a card, its *code*, lives here and in the
evaluator (this module, :mod:`~fivecard.core.evaluate`,
:mod:`~fivecard.core.seven`, the lookups of :mod:`fivecard.vector.batch`):
everywhere else a card is its index (:attr:`fivecard.core.cards.Card.index`).
:data:`CODES` turns an index into its code, and :func:`codes_for` into the
code a rule set's table reads (a wild card as the joker's): the one way in.

Tables are built the first time a rule set is used and kept in the user's
cache directory (:mod:`fivecard.core.lookup_cache`), so later processes load them in
about a millisecond instead of building them again (60-250 ms); a cache that
is missing, stale, corrupt or unwritable only means building them again.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from operator import itemgetter

from . import kernel, lookup_cache
from .cards import CARDS, Rank, Suit
from .frozen import Frozen
from .rules import Category, RuleSet

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "HandClass",
    "Tables",
    "tables_for",
    "build_tables",
    "classify_groups",
    "key_places",
    "RANK_WEIGHTS",
    "JOKER_WEIGHT",
    "SUIT_SHIFT",
    "SUIT_MASK",
    "KEY_SPACE",
    "CODES",
    "JOKER_CODE",
    "codes_for",
    "lookup_index",
]

# --- the card code ---------------------------------------------------------------

#: Weights of the 13 ranks (2 ... A) and of the joker, chosen so that the sums
#: of the weights of any five of them (each used up to five times) are all
#: different. A card's code is ``weight << 7 | suit bits``; the sum of five
#: codes shifted right by 7 is then a unique key of the hand's rank multiset,
#: and the bitwise AND of the five codes keeps a suit bit only for a flush (a
#: joker carries all four suit bits, a rank-only card none). One table lookup
#: per hand finishes the evaluation. Found by a greedy search; a test checks
#: the uniqueness.
RANK_WEIGHTS: Final[tuple[int, ...]] = (
    0, 1, 6, 31, 108, 366, 926, 2286, 5733, 12905, 27316, 44676, 94545, 147031,
)  # fmt: skip
#: The joker's weight (the last of :data:`RANK_WEIGHTS`).
JOKER_WEIGHT: Final = RANK_WEIGHTS[13]
SUIT_SHIFT: Final = 7
SUIT_MASK: Final = 15
#: Each suit's bit in a code.
SUIT_BITS: Final[dict[Suit, int]] = {Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 4, Suit.SPADES: 8}
#: Size of the key space: one more than the largest key (five jokers). A
#: flush's lookup index is its key plus this (see :func:`lookup_index`).
KEY_SPACE: Final = 5 * JOKER_WEIGHT + 1


def _code(rank: Rank | None, suit: Suit | None) -> int:
    """A card's code: its rank's weight shifted left by :data:`SUIT_SHIFT`,
    or'ed with its suit bit (none for a rank-only card, all four for the
    joker, whose rank is ``None``)."""
    if rank is None:
        return JOKER_WEIGHT << SUIT_SHIFT | SUIT_MASK
    return RANK_WEIGHTS[rank - 2] << SUIT_SHIFT | (0 if suit is None else SUIT_BITS[suit])


#: Card index -> the card's code (every index of :data:`fivecard.core.cards.CARDS`).
CODES: Final[tuple[int, ...]] = tuple(_code(c.rank, c.suit) for c in CARDS)
JOKER_CODE: Final = _code(None, None)


@cache
def codes_for(rules: RuleSet) -> tuple[int, ...]:
    """Card index -> the code the rule set's table reads: :data:`CODES`,
    with each wild card of the rule set as the joker (a wild 2 of deuces
    wild is looked up as a joker, yet keeps its own card and index)."""
    return tuple(JOKER_CODE if i in rules.wild_indices else code for i, code in enumerate(CODES))


def lookup_index(codes: Sequence[int]) -> int:
    """Where five card codes are looked up in a rule set's table
    (:attr:`Tables.lookup`): the sum of the codes shifted right by
    :data:`SUIT_SHIFT` (the key of the rank multiset), plus
    :data:`KEY_SPACE` when the five share a suit bit (a flush).

    The one statement of this arithmetic; the fast strength functions
    inline it (a test holds them to it).

    >>> lookup_index([CODES[0]] * 5) == 5 * RANK_WEIGHTS[12] + KEY_SPACE
    True
    """
    a, b, c, d, e = codes
    if a & b & c & d & e & SUIT_MASK:
        return ((a + b + c + d + e) >> SUIT_SHIFT) + KEY_SPACE
    return (a + b + c + d + e) >> SUIT_SHIFT


# --- classes and tables ------------------------------------------------------------

_RANKS: Final = tuple(range(14, 1, -1))
_RANK_OF: Final = (None, None, *Rank)  # _RANK_OF[14] is Rank.ACE
#: Bytes per class in :attr:`Tables.records`: the ladder index, then the five
#: ranks in showdown order.
_RECORD: Final = 6


class HandClass(Frozen):
    """A class of hands that all draw with each other.

    ``key`` is what showdowns compare, left to right: the ranks of the groups
    (largest group first, higher rank first among equal sizes; the ace last
    where it is low only, ``ace-to-five``), or only the top card for
    straights; the higher rank wins at the first difference, the lower under
    lowball rules. ``groups`` pairs each rank with its count, in that order;
    ``order`` is the five ranks in showdown order (``5 4 3 2 A`` for the
    wheel).
    """

    __slots__ = ("strength", "category", "key", "groups", "order")
    strength: int
    category: Category
    key: tuple[Rank, ...]
    groups: tuple[tuple[Rank, int], ...]
    order: tuple[Rank, ...]

    def __init__(
        self,
        strength: int,
        category: Category,
        key: tuple[Rank, ...],
        groups: tuple[tuple[Rank, int], ...],
        order: tuple[Rank, ...],
    ) -> None:
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "order", order)


class Tables(Frozen):
    """The classes of a rule set and its lookup table.

    ``lookup`` has ``2 * KEY_SPACE`` entries: ``lookup[key]`` is the strength
    of a hand that is not a flush, ``lookup[KEY_SPACE + key]`` of one that is;
    0 marks keys no hand has. ``substitutes`` maps a lookup index of a hand
    with jokers to the ranks the jokers stand for. ``records`` holds the
    classes compactly, :data:`_RECORD` bytes each by strength (the ladder
    index, then the five ranks in showdown order); :meth:`hand_class` unpacks
    one when it is first asked for.
    """

    __slots__ = ("rules", "lookup", "substitutes", "records", "_made")
    rules: RuleSet
    lookup: array[int]
    substitutes: dict[int, tuple[Rank, ...]]
    records: bytes
    _made: dict[int, HandClass]

    def __init__(
        self,
        rules: RuleSet,
        lookup: array[int],
        substitutes: dict[int, tuple[Rank, ...]],
        records: bytes,
        _made: dict[int, HandClass],
    ) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "lookup", lookup)
        object.__setattr__(self, "substitutes", substitutes)
        object.__setattr__(self, "records", records)
        object.__setattr__(self, "_made", _made)

    __hash__ = None  # type: ignore[assignment]  # (equal by its fields, but unhashable: the lookup is an array)

    @property
    def size(self) -> int:
        """The number of classes (the highest strength)."""
        return len(self.records) // _RECORD

    @property
    def shapes(self) -> tuple[_Shape, ...]:
        """Every class as ``(ladder index, key, groups)``, weakest first (as
        :func:`classify_groups` gives them)."""
        made: list[_Shape] = []
        indices = self.records[::_RECORD]
        start = 0
        while start < len(indices):  # one category at a time (their classes are in a row)
            index = indices[start]
            end = indices.rindex(index) + 1
            rows = self.records[start * _RECORD : end * _RECORD]
            category = self.rules.ladder[index]
            ranks = list(zip(*(rows[1 + p :: _RECORD] for p in _starts(category.shape))))
            keys = [(r,) for r in rows[1::_RECORD]] if category.straight else ranks
            groups = [tuple(zip(r, category.shape)) for r in ranks]
            made.extend(zip([index] * len(keys), keys, groups))
            start = end
        return tuple(made)

    def ladder_indices(self) -> bytes:
        """Each class's category as its index in the ladder, by strength
        (``[0]`` stands for no hand and is 255)."""
        return b"\xff" + self.records[::_RECORD]

    def _shape(self, strength: int) -> _Shape:
        if not 1 <= strength <= self.size:
            raise IndexError(f"no class of strength {strength} in {self.rules.name}")
        start = (strength - 1) * _RECORD
        index = self.records[start]
        order = self.records[start + 1 : start + _RECORD]
        # A class's groups have its category's shape (the ladder is read by
        # shape): the group ranks stand at the shape's starting positions.
        category = self.rules.ladder[index]
        ranks = _group_ranks(category.shape)(order)
        groups = tuple(zip(ranks, category.shape))
        return index, (order[0],) if category.straight else ranks, groups

    def hand_class(self, strength: int) -> HandClass:
        """The class of that strength (1 ... :attr:`size`)."""
        made = self._made.get(strength)
        if made is None:
            index, key, groups = self._shape(strength)
            made = HandClass(
                strength=strength,
                category=self.rules.ladder[index],
                key=tuple([_RANK_OF[r] for r in key]),
                groups=tuple([(_RANK_OF[r], n) for r, n in groups]),
                order=tuple([_RANK_OF[r] for r, n in groups for _ in range(n)]),
            )
            self._made[strength] = made
        return made

    def classes(self) -> Iterator[HandClass]:
        """Every class, weakest first."""
        return (self.hand_class(s) for s in range(1, self.size + 1))


_Shape = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]


def _starts(shape: tuple[int, ...]) -> list[int]:
    """Where each group of that shape starts among five ranks in showdown order."""
    return list(itertools.accumulate(shape[:-1], initial=0))


def key_places(category: Category) -> tuple[int, ...]:
    """Where the ranks of a class's key (:attr:`HandClass.key`, what
    showdowns compare) stand among its five ranks in showdown order: a
    straight's top card, else the first card of each group.

    >>> from fivecard.core.rules import FULL_HOUSE, STRAIGHT
    >>> key_places(FULL_HOUSE), key_places(STRAIGHT)
    ((0, 3), (0,))
    """
    return (0,) if category.straight else tuple(_starts(category.shape))


@cache
def _group_ranks(shape: tuple[int, ...]) -> Callable[[bytes], tuple[int, ...]]:
    """From five ranks in showdown order, the rank of each group of that shape."""
    starts = _starts(shape)
    if len(starts) == 1:
        return lambda order: (order[0],)
    return itemgetter(*starts)


#: What the cache keeps (see :func:`_build`).
_Payload = tuple[bytes, bytes, bytes, dict[int, tuple[int, ...]]]


def classify_groups(
    groups: tuple[tuple[int, int], ...], flush: bool, rules: RuleSet
) -> _Shape:
    """Classify a hand given as (rank, count) groups, largest group first and
    higher rank first among equal sizes: ``(ladder index, key, groups)``;
    for the straight in which the ace plays low (the wheel, A-2-3-4-5, or
    A-6-7-8-9 in a short deck), and wherever the ace is low only
    (``ace-to-five``), the groups put the ace last among its size.

    The one place where a ladder is read: the highest category whose needs
    the hand meets wins (the lowest, under lowball rules: see
    :meth:`RuleSet.candidates`).
    """
    straight_top = None
    if rules.ace_low and any(r == Rank.ACE for r, _ in groups):
        # the ace is the lowest rank: after the 2 among groups of its size
        value = rules.rank_value
        groups = tuple(sorted(groups, key=lambda g: (-g[1], -value(g[0]))))
    if len(groups) == 5:
        top = groups[0][0]
        low = rules.wheel_top  # the ace plays low below the deck's lowest rank
        if rules.rank_value(top) - rules.rank_value(groups[4][0]) == 4:
            straight_top = top
        elif low is not None and top == 14 and groups[1][0] == low and low - groups[4][0] == 3:
            straight_top = int(low)
            groups = groups[1:] + groups[:1]
    shape = tuple([c for _, c in groups])
    ranks = frozenset([r for r, _ in groups])
    for index, category in rules.candidates(shape):
        if category.accepts(shape, straight_top=straight_top, flush=flush, ranks=ranks):
            if category.straight and straight_top is not None:
                key: tuple[int, ...] = (straight_top,)
            else:
                key = tuple([r for r, _ in groups])
            return index, key, groups
    raise AssertionError(f"no category of {rules.name} takes {groups}")  # pragma: no cover


def _max_count(rules: RuleSet) -> int:
    # With suits a rank has four cards; rank-only hands may repeat a rank five times.
    return 4 if rules.suits else 5


def _deck_ranks(rules: RuleSet) -> tuple[int, ...]:
    """The ranks of the rule set's deck, high to low."""
    return tuple(r for r in _RANKS if r in rules.ranks)


def _patterns(
    size: int, limit: int, ranks: tuple[int, ...] = _RANKS
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every multiset of ``size`` of these ranks (high to low) with at most
    ``limit`` of a rank, as (rank, count) groups: largest group first, higher
    rank first."""

    def shapes(left: int, most: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
        for part in range(min(left, most), 0, -1):
            for rest in shapes(left - part, part):
                yield (part, *rest)

    for shape in shapes(size, limit):
        # Blocks of equal group sizes: (2, 1, 1, 1) is one pair, three singles.
        blocks = [(n, shape.count(n)) for n in sorted(set(shape), reverse=True)]
        partials: list[tuple[tuple[int, int], ...]] = [()]
        for group_size, count in blocks:
            grown: list[tuple[tuple[int, int], ...]] = []
            for partial in partials:
                taken = {r for r, _ in partial}
                free = [r for r in ranks if r not in taken]
                grown.extend(
                    partial + tuple([(r, group_size) for r in ranks])
                    for ranks in itertools.combinations(free, count)
                )
            partials = grown
        yield from partials


def _best_with_jokers(
    naturals: tuple[tuple[int, int], ...],
    flush_possible: bool,
    natural_hands: dict[tuple[int, bool], _Shape],
    rules: RuleSet,
) -> tuple[_Shape, tuple[int, ...]]:
    """The best hand that jokers can make with these natural cards, and the
    ranks they become (under the ``joker`` rules).

    A joker stands for a card not already in the hand, so the completed hand
    is a natural hand: one of ``natural_hands`` (a flush only if the naturals
    share a suit, since the jokers then take that suit's missing ranks). The
    one exception: all five of one rank, naturals plus jokers, is Five of a
    Kind where the ladder has it.
    """
    jokers = 5 - sum(n for _, n in naturals)
    base = sum(RANK_WEIGHTS[r - 2] * n for r, n in naturals)
    flushes = (False, True) if flush_possible else (False,)
    best: tuple[_Shape, tuple[int, ...]] | None = None
    for subs in itertools.combinations_with_replacement(_deck_ranks(rules), jokers):
        key = base + sum(RANK_WEIGHTS[r - 2] for r in subs)
        for flush in flushes:
            shape = natural_hands.get((key, flush))
            if shape is not None and (best is None or _order(shape, rules) > _order(best[0], rules)):
                best = (shape, subs)
    if len(naturals) <= 1 and rules.candidates((5,)):
        # (five wild cards and no natural: five of the deck's top rank)
        rank = naturals[0][0] if naturals else max(_deck_ranks(rules))
        five = classify_groups(((rank, 5),), False, rules)
        if best is None or _order(five, rules) > _order(best[0], rules):
            best = (five, (rank,) * jokers)
    assert best is not None, naturals
    return best


def _found(rules: RuleSet) -> list[tuple[int, bool, _Shape, tuple[int, ...]]]:
    """Every hand key of the rule set: (key, flush, class, joker ranks)."""
    weights = RANK_WEIGHTS
    limit = _max_count(rules)
    # Only the deck's ranks: a hand of other cards has no class (strength 0).
    ranks = _deck_ranks(rules)
    # Every hand of the deck's cards as if none were wild: what wild cards
    # may complete a hand to.
    natural_hands: dict[tuple[int, bool], _Shape] = {}
    for groups in _patterns(5, limit, ranks):
        key = sum(weights[r - 2] * n for r, n in groups)
        natural_hands[key, False] = classify_groups(groups, False, rules)
        if rules.suits and len(groups) == 5:
            natural_hands[key, True] = classify_groups(groups, True, rules)
    # The natural cards a hand may hold: no more of a rank than the deck has
    # that are not wild (no 2s in deuces wild, two jacks in one-eyed jacks).
    most = {r: rules.natural_count(Rank(r)) for r in ranks}

    def possible(groups: tuple[tuple[int, int], ...]) -> bool:
        return all(n <= most[r] for r, n in groups)

    found: list[tuple[int, bool, _Shape, tuple[int, ...]]] = [
        (key, flush, shape, ())
        for (key, flush), shape in natural_hands.items()
        if not rules.wild or possible(shape[2])
    ]
    for jokers in range(1, min(rules.wilds, 5) + 1):
        joker_key = jokers * JOKER_WEIGHT
        for naturals in _patterns(5 - jokers, limit, ranks):
            if not possible(naturals):
                continue
            key = joker_key + sum(weights[r - 2] * n for r, n in naturals)
            suited = rules.suits and all(n == 1 for _, n in naturals)
            for flush in (False, True) if suited else (False,):
                shape, subs = _best_with_jokers(naturals, flush, natural_hands, rules)
                found.append((key, flush, shape, subs))
    return found


def _order(shape: _Shape, rules: RuleSet) -> tuple[int, tuple[int, ...]]:
    """What orders classes, weakest first: the ladder index, then the key's
    ranks left to right (their heights, the ace 1 where it is low only),
    higher wins; under lowball rules lower wins at the first difference."""
    index, key, _ = shape
    heights = [rules.rank_value(r) for r in key]
    return index, tuple([-h for h in heights] if rules.low else heights)


def _classes(
    found: list[tuple[int, bool, _Shape, tuple[int, ...]]], rules: RuleSet
) -> list[_Shape]:
    """The distinct classes among the found hands, weakest first."""
    distinct = {(s[0], s[1]): s for _, _, s, _ in found}.values()
    return sorted(distinct, key=lambda s: _order(s, rules))


def build_tables(rules: RuleSet) -> Tables:
    """Build the classes and lookup table of a rule set (no cache)."""
    return _build(rules)[0]


def _build(rules: RuleSet) -> tuple[Tables, _Payload]:
    """The tables, and what the cache keeps of them: the class records, the
    lookup table's non-zero entries (indices as 32-bit, strengths as 16-bit
    native integers) and the joker substitutes as plain integers."""
    found = _found(rules)
    distinct_classes = _classes(found, rules)
    number = {(s[0], s[1]): i + 1 for i, s in enumerate(distinct_classes)}
    entries: dict[int, int] = {}
    raw_substitutes: dict[int, tuple[int, ...]] = {}
    for key, flush, shape, subs in found:
        index = key + KEY_SPACE if flush else key
        entries[index] = number[shape[0], shape[1]]
        if subs:
            raw_substitutes[index] = subs
    indices = array("I", sorted(entries))
    values = array("H", [entries[i] for i in indices])
    records = bytes(
        [v for index, _, groups in distinct_classes for v in (index, *_showdown_order(groups))]
    )
    payload = (records, indices.tobytes(), values.tobytes(), raw_substitutes)
    tables = _from_payload(rules, payload)
    assert tables is not None
    return tables, payload


def _showdown_order(groups: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    return tuple([r for r, n in groups for _ in range(n)])


@cache
def tables_for(rules: RuleSet) -> Tables:
    """The classes and lookup table of a rule set: made once per process,
    from the user's cache when it holds them (see :mod:`fivecard.core.lookup_cache`),
    else built and stored there."""
    key = cache_key(rules)
    tables = _from_payload(rules, lookup_cache.load(rules.name, key))
    if tables is None:
        tables, payload = _build(rules)
        lookup_cache.store(rules.name, key, payload)
    return tables



@cache
def _five_strength_function(rules: RuleSet) -> Callable[[Sequence[int]], int]:
    """The fast function from five card indices to strength under
    ``rules``, unchecked (:func:`fivecard.core.evaluate.strength_function`
    is its public face; :mod:`fivecard.core.seven` reads it too): each
    index's code as the table reads it (:func:`codes_for`), then one
    lookup (:func:`lookup_index`, inlined). Numbers that are no card index
    raise an IndexError (or, negative, read some card). Where the compiled
    kernel is built (:mod:`fivecard.core.kernel`), the same lookup in C."""
    compiled = kernel.load("fivecard.core._kernel")
    if compiled is not None:
        scorer: Callable[[Sequence[int]], int] = compiled.Scorer(
            codes_for(rules), tables_for(rules).lookup, KEY_SPACE, SUIT_SHIFT, SUIT_MASK
        )
        return scorer

    def strength_of_indices(
        indices: Sequence[int],
        code: tuple[int, ...] = codes_for(rules),
        lookup: array[int] = tables_for(rules).lookup,
        space: int = KEY_SPACE,
        shift: int = SUIT_SHIFT,
        mask: int = SUIT_MASK,
    ) -> int:
        a, b, c, d, e = indices
        a = code[a]
        b = code[b]
        c = code[c]
        d = code[d]
        e = code[e]
        if a & b & c & d & e & mask:  # lookup_index, inlined for speed
            return lookup[((a + b + c + d + e) >> shift) + space]
        return lookup[(a + b + c + d + e) >> shift]

    return strength_of_indices


def cache_key(rules: RuleSet) -> tuple[object, ...]:
    """The key of a rule set's cached tables: everything in a rule set that
    the tables depend on (not its name, descriptions or deck checks), with
    the weights that make the keys."""
    ladder = tuple(
        (
            c.name,
            c.shape,
            c.straight,
            c.flush,
            None if c.top is None else int(c.top),
            tuple(sorted(int(r) for r in c.holds)),
        )
        for c in rules.ladder
    )
    ranks = tuple(sorted(int(r) for r in rules.ranks))
    wild = tuple(sorted((int(c.rank or 0), c.index) for c in rules.wild))
    low = ("low", rules.low, rules.ace_low)  # lowball: the order of the classes
    return (RANK_WEIGHTS, KEY_SPACE, rules.suits, ranks, rules.wheel, rules.jokers, wild, ladder, low)


def _from_payload(rules: RuleSet, payload: object) -> Tables | None:
    """Tables from a cached payload (see :func:`_build`), or None when it is
    not a whole, consistent set of tables for these rules."""
    if not (isinstance(payload, tuple) and len(payload) == 4):
        return None
    records, index_bytes, value_bytes, raw_substitutes = payload
    if not (
        isinstance(records, bytes)
        and isinstance(index_bytes, bytes)
        and isinstance(value_bytes, bytes)
        and isinstance(raw_substitutes, dict)
        and records
        and len(records) % _RECORD == 0
        # Every ladder index names a category, every rank byte is a rank.
        and not records[::_RECORD].translate(None, bytes(range(len(rules.ladder))))
        and not b"".join(records[i::_RECORD] for i in range(1, _RECORD)).translate(
            None, bytes(range(2, 15))
        )
    ):
        return None
    indices, values = array("I"), array("H")
    try:
        indices.frombytes(index_bytes)
        values.frombytes(value_bytes)
    except ValueError:  # not a whole number of items
        return None
    if (
        indices.itemsize != 4
        or len(indices) != len(values)
        or not values
        or not 1 <= min(values) <= max(values) <= len(records) // _RECORD
    ):
        return None
    substitutes = _substitutes(raw_substitutes)
    if substitutes is None:
        return None
    lookup = array("H", [0]) * (2 * KEY_SPACE)
    try:
        for index, strength in zip(indices, values):
            lookup[index] = strength
    except IndexError:
        return None
    if not rules.suits:
        # No flushes: a hand's suit bits never matter.
        lookup[KEY_SPACE:] = lookup[:KEY_SPACE]
    return Tables(rules, lookup, substitutes, records, {})


def _substitutes(raw: dict[object, object]) -> dict[int, tuple[Rank, ...]] | None:
    """Joker substitutes with ranks as :class:`Rank`; None unless every entry
    is a tuple of one to five ranks (an index no hand has is never asked for)."""
    ranks: dict[object, tuple[Rank, ...]] = {}
    for subs in set(raw.values()):
        if not (
            isinstance(subs, tuple)
            and 1 <= len(subs) <= 5
            and all(type(r) is int and 2 <= r <= 14 for r in subs)
        ):
            return None
        ranks[subs] = tuple([Rank(r) for r in subs])
    return {i: ranks[subs] for i, subs in raw.items()}  # type: ignore[misc]
