"""What every hand of one strength shares, as columns indexed by strength:
the one statement of a class's facts for code that handles many hands.

The lookup tables (:mod:`fivecard.core.lookup`) keep each class as a record
(its category's ladder index, then its five ranks in showdown order).
:func:`class_columns` reads them once per rule set into
:class:`ClassColumns`: per strength its ladder index and ranks in showdown
order, per category where its compared key stands among those ranks and
how many of the key's first ranks name a group; a class's category, label,
score and description are read through it. The bulk pipeline and every
writer read these columns (the vector layer views them as numpy arrays,
:mod:`fivecard.vector.columns`); nothing decodes the records again.

Nothing here needs numpy: the columns are bytes and tuples.

>>> from fivecard.core.rules import STANDARD
>>> columns = class_columns(STANDARD)
>>> columns.size, columns.category(7462).label, columns.score(7462), columns.description(1)
(7462, 'Royal Flush', 10, 'High Card, 7-5-4-3-2')
>>> list(columns.ranks(7462)), columns.key_places[STANDARD.ladder.index(columns.category(7462))]
([14, 13, 12, 11, 10], (0,))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .evaluate import class_descriptions
from .lang import Language
from .lookup import key_places, tables_for
from .rules import Category, RuleSet

__all__ = ["ClassColumns", "class_columns"]


@dataclass(frozen=True, slots=True)
class ClassColumns:
    """A rule set's classes as columns, by strength (0 stands for no hand;
    1 ... :attr:`size` are the classes, weakest first).

    ``category_index``: per strength, its category's index in the ladder
    (255 for strength 0). ``order``: per strength, five bytes, its ranks
    (2-14) in showdown order (zeros for strength 0). ``key_places``: per
    ladder index, where the ranks that showdowns compare stand in
    ``order`` (a straight's top card; else each group's first card).
    ``named``: per ladder index, how many of the compared key's first two
    ranks name a group of two or more cards (a pair, trips ...: 0, 1 or 2).
    """

    rules: RuleSet
    category_index: bytes
    order: bytes
    key_places: tuple[tuple[int, ...], ...]
    named: tuple[int, ...]

    @property
    def size(self) -> int:
        """The number of classes (the highest strength)."""
        return len(self.category_index) - 1

    def category(self, strength: int) -> Category:
        """The category of a strength (an :class:`IndexError` for no class)."""
        if not 1 <= strength <= self.size:
            raise IndexError(f"no class of strength {strength} in {self.rules.name}")
        return self.rules.ladder[self.category_index[strength]]

    def score(self, strength: int) -> int:
        """The score of a strength's category (see :meth:`RuleSet.score`)."""
        return self.rules.score(self.category(strength))

    def description(self, strength: int, lang: Language | str | None = None) -> str:
        """A strength's description in ``lang`` (default English;
        :func:`fivecard.core.evaluate.describe`, read from
        :func:`~fivecard.core.evaluate.class_descriptions`)."""
        self.category(strength)  # its error: no such class
        return class_descriptions(self.rules, lang)[strength]

    def ranks(self, strength: int) -> bytes:
        """A strength's five ranks (2-14) in showdown order."""
        self.category(strength)
        return self.order[5 * strength : 5 * strength + 5]


@cache
def class_columns(rules: RuleSet) -> ClassColumns:
    """The columns of a rule set's classes, made once per process from its
    lookup tables (:func:`~fivecard.core.lookup.tables_for`)."""
    tables = tables_for(rules)
    records = tables.records
    width = len(records) // tables.size  # a record: the ladder index, then five ranks
    order = bytearray(5 * (tables.size + 1))
    for position in range(5):
        order[5 + position :: 5] = records[1 + position :: width]
    named = tuple(
        0 if category.straight else sum(1 for size in category.shape[:2] if size >= 2)
        for category in rules.ladder
    )
    return ClassColumns(
        rules=rules,
        category_index=tables.ladder_indices(),
        order=bytes(order),
        key_places=tuple(key_places(category) for category in rules.ladder),
        named=named,
    )
