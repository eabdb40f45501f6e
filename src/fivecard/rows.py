"""How a row of a file holds its hands: one line of text, or the cells of a
CSV or spreadsheet row. Splitting only; no poker rules.

Text lines (:func:`split_line`):

* hands separated by ``|``, ``;``, a tab or the word ``vs``;
* otherwise a line of ten cards is two hands, first five and last five (as in
  Project Euler 54), and any multiple of five cards is that many hands;
* a line with one hand is classified only.

Table rows (:class:`TableLayout`): each column holds one card, one hand, or
something else (a label such as a round number, kept but not read). The
layout is decided once per table, from its first rows: see
:meth:`TableLayout.detect`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import parse_cards
from .errors import FivecardError, ParseError

__all__ = ["split_line", "is_skipped", "cell_kind", "TableLayout", "CARD", "HAND", "OTHER"]

_HAND_SEPARATORS: Final = re.compile(r"\s*(?:\||;|\t|\s+vs\.?\s+)\s*", re.IGNORECASE)
_CARD_SEPARATORS: Final = re.compile(r"[\s,]+")


def is_skipped(line: str) -> bool:
    """Blank lines and ``#`` comments are skipped (but keep their line numbers)."""
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def split_line(line: str) -> list[str]:
    """The hands of one line of text.

    >>> split_line('8C TS KC 9H 4S 7D 2S 5D 3S AC')
    ['8C TS KC 9H 4S', '7D 2S 5D 3S AC']
    >>> split_line('KD, 9C, 4H, KS, 9D | 2C 3C 4C 5C 7D ; AS KS QS JS TS')
    ['KD, 9C, 4H, KS, 9D', '2C 3C 4C 5C 7D', 'AS KS QS JS TS']
    >>> split_line('Q, A, 5, A, A vs K, 4, 7, K, 9')
    ['Q, A, 5, A, A', 'K, 4, 7, K, 9']

    Raises :class:`~fivecard.errors.ParseError` when the line holds no whole
    number of hands.
    """
    line = line.strip().lstrip("\ufeff")
    parts = _HAND_SEPARATORS.split(line)
    if len(parts) > 1:
        return [p.strip() for p in parts]
    tokens = [t for t in _CARD_SEPARATORS.split(line) if t]
    if len(tokens) > 5 and len(tokens) % 5 == 0:
        return [" ".join(tokens[i : i + 5]) for i in range(0, len(tokens), 5)]
    if len(tokens) > 5:
        raise ParseError(
            f"{len(tokens)} cards is not a whole number of hands; write five cards "
            "per hand, or separate hands with |, ;, a tab or 'vs'"
        )
    return [line]


CARD: Final = "card"
HAND: Final = "hand"
OTHER: Final = "other"


def cell_kind(cell: str, *, suits: bool = True) -> str | None:
    """What a cell holds: a card, a hand (2+ cards), other text, or nothing.
    With ``suits`` (every rule set but ``semi``), a rank alone such as ``7``
    is not a card: most likely a number (a round, an id)."""
    if not cell.strip():
        return None
    try:
        cards = parse_cards(cell)
    except FivecardError:
        return OTHER
    if suits and any(c.suit is None and not c.is_joker for c in cards):
        return OTHER
    if len(cards) == 1:
        return CARD
    return HAND if cards else None


def _column_kinds(
    rows: Sequence[Sequence[str]], width: int, *, suits: bool
) -> tuple[str, ...]:
    """Each column's kind: the one most of its non-empty cells have (so a typo
    does not turn a card column into a label column). If the card columns do
    not make whole hands of five, the leftmost card columns holding only
    numbers, or some cells that are not cards, are labels (a round number
    that happens to read as a rank)."""
    kinds = []
    others = []
    for column in range(width):
        votes: dict[str, int] = {}
        for row in rows:
            kind = cell_kind(row[column], suits=suits) if column < len(row) else None
            if kind is not None:
                votes[kind] = votes.get(kind, 0) + 1
        kinds.append(max(votes, key=lambda k: (votes[k], k != OTHER)) if votes else OTHER)
        others.append(votes.get(OTHER, 0))
    extra = sum(1 for k in kinds if k == CARD) % 5
    for column in range(width):
        if not extra:
            break
        numeric = all(
            not row[column].strip() or row[column].strip().isdigit()
            for row in rows
            if column < len(row)
        )
        if kinds[column] == CARD and (numeric or others[column]):
            kinds[column] = OTHER
            extra -= 1
    return tuple(kinds)


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Which columns of a table hold cards and hands.

    ``kinds`` gives each column's kind (``CARD``, ``HAND`` or ``OTHER``);
    ``header`` says whether the table's first row is a header.
    """

    kinds: tuple[str, ...]
    header: bool

    @classmethod
    def detect(cls, rows: Sequence[Sequence[str]], *, suits: bool = True) -> TableLayout:
        """Decide the layout from the first rows of a table.

        Each column takes the kind most of its non-empty cells have; a column
        of mostly non-cards is a label. The first row is a header when a cell
        of a card or hand column is neither (``Card 1``, ``Player 2``).

        >>> layout = TableLayout.detect([['Round', 'Player 1', 'Player 2'],
        ...                              ['1', 'AS KS QS JS TS', '2c 3c 4c 5c 7d']])
        >>> layout.header, layout.kinds
        (True, ('other', 'hand', 'hand'))
        """
        if not rows:
            return cls((), False)
        width = max(len(r) for r in rows)
        kinds = _column_kinds(rows[1:] if len(rows) > 1 else rows, width, suits=suits)
        first = [cell_kind(c, suits=suits) for c in rows[0]]
        if len(rows) > 1:
            # A header: some cell of a card or hand column is not a card or hand.
            header = any(
                k in (CARD, HAND) and column < len(first) and first[column] == OTHER
                for column, k in enumerate(kinds)
            )
        else:
            header = not any(k in (CARD, HAND) for k in first)
        if not header and len(rows) > 1:
            kinds = _column_kinds(rows, width, suits=suits)
        return cls(kinds, header)

    @property
    def units(self) -> list[tuple[int, ...]]:
        """The columns of each hand, in order: a hand column alone, or card
        columns five at a time."""
        units: list[tuple[int, ...]] = []
        group: list[int] = []
        for column, kind in enumerate(self.kinds):
            if kind == HAND:
                units.append((column,))
            elif kind == CARD:
                group.append(column)
                if len(group) == 1:
                    units.append(())  # placeholder: filled when the group ends
                if len(group) == 5:
                    units[units.index(())] = tuple(group)
                    group = []
        if group:
            units[units.index(())] = tuple(group)
        return units

    def hands(self, cells: Sequence[str]) -> list[str]:
        """The hands of one row, in column order. A hand whose cells are all
        empty is left out; one with some empty cells comes out short, and the
        hand check reports it (cards never move from one hand to another)."""
        hands = []
        for unit in self.units:
            parts = [cells[c].strip() for c in unit if c < len(cells) and cells[c].strip()]
            if parts:
                hands.append(" ".join(parts))
        return hands
