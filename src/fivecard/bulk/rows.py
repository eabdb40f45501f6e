"""How a row of a file holds its hands: one line of text, or the cells of a
CSV or spreadsheet row. Splitting only; no poker rules.

Text lines (:func:`split_line`):

* hands separated by ``|``, ``;``, a tab or the word ``vs``;
* otherwise a line of ten cards is two hands, first five and last five (as in
  Project Euler 54), and any multiple of five cards is that many hands;
* a line with one hand is classified only.

Table rows (:class:`TableLayout`): each column holds one card, one hand, or
something else (a label such as a round number, kept but not read). Which is
which is decided from the *shape* of the cells (card-like tokens), never from
whether they parse, so a typo makes an error row instead of turning a hand
column into a label column; see :meth:`TableLayout.detect`, or state the
layout with :meth:`TableLayout.from_spec`.

Every splitter here is linear in the length of its input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.cards import JOKER_SPELLINGS, RANK_SPELLINGS, SUIT_SPELLINGS, cards_in_token
from ..core.hand import HAND_SIZE, MOST_CARDS
from ..errors import FivecardError, ParseError, quote

__all__ = [
    "Row",
    "split_line",
    "is_skipped",
    "line_row",
    "cell_shape",
    "column_letter",
    "TableLayout",
    "LayoutError",
    "CARD",
    "HAND",
    "OTHER",
    "MAX_HANDS",
    "MAX_TABLE_COLUMNS",
]

#: The most hands one row may hold (one deck holds ten; more is a typo or an
#: attack, and an error row, not a memory blow-up).
MAX_HANDS: Final = 1_000
#: The widest table read: a cell past this column makes its row an error.
MAX_TABLE_COLUMNS: Final = 1_024

# Hand separators: |, ;, a tab, or the word "vs" between spaces. Every
# alternative is one or two characters after a one-character look-behind, so
# splitting is linear however the line is spaced.
_HAND_BREAKS: Final = re.compile(r"[|;\t]|(?<=\s)vs\.?(?=\s)", re.IGNORECASE)

CARD: Final = "card"
HAND: Final = "hand"
OTHER: Final = "other"


class LayoutError(FivecardError):
    """A table layout the user stated that does not fit the table."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row of input: its line (or spreadsheet row) number, its original
    cells (a text line is one cell), and the hand texts read from it, one per
    hand position (``""`` for an empty hand); or ``error`` when the row could
    not even be split into hands."""

    line: int
    cells: tuple[str, ...]
    hands: tuple[str, ...] = ()
    error: str | None = None


def is_skipped(line: str) -> bool:
    """Blank lines and ``#`` comments are skipped (but keep their line numbers)."""
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def split_line(line: str, *, best_five: bool = False) -> list[str]:
    """The hands of one line of text, one string per hand position.

    >>> split_line('8C TS KC 9H 4S 7D 2S 5D 3S AC')
    ['8C TS KC 9H 4S', '7D 2S 5D 3S AC']
    >>> split_line('KD, 9C, 4H, KS, 9D | 2C 3C 4C 5C 7D ; AS KS QS JS TS')
    ['KD, 9C, 4H, KS, 9D', '2C 3C 4C 5C 7D', 'AS KS QS JS TS']
    >>> split_line('Q, A, 5, A, A vs K, 4, 7, K, 9')
    ['Q, A, 5, A, A', 'K, 4, 7, K, 9']
    >>> split_line('AS KS QS JS TS | | 2C 3C 4C 5C 7D')  # hand 2 is empty
    ['AS KS QS JS TS', '', '2C 3C 4C 5C 7D']

    ``best_five``: hands hold 5 to 7 cards and play their best five, so a
    line without marks between hands is one hand, unless its cards are
    written together a hand to a word:

    >>> split_line('AS KS QS JS TS 9S 2D', best_five=True)
    ['AS KS QS JS TS 9S 2D']
    >>> split_line('AsKsQsJsTs9s2d 2c3d4h5s7c8d', best_five=True)
    ['AsKsQsJsTs9s2d', '2c3d4h5s7c8d']

    Raises :class:`~fivecard.errors.ParseError` when the line holds no whole
    number of hands, or more than :data:`MAX_HANDS`.
    """
    line = line.lstrip("\ufeff").strip()
    breaks = 0
    for match in _HAND_BREAKS.finditer(line):
        breaks += 1
        if breaks >= MAX_HANDS:
            raise ParseError(f"more than {MAX_HANDS:,} hands in one line")
    if breaks:
        return [part.strip() for part in _HAND_BREAKS.split(line)]
    tokens = _joined(line.replace(",", " ").split())
    counts = [cards_in_token(t) for t in tokens]
    if best_five:
        return _best_five_hands(line, tokens, counts)
    if len(tokens) > 1 and max(counts) > 1:  # cards written together ("AsKd7h7c2s 2c3c4c5c7d")
        return _hands_of_runs(tokens, counts)
    if len(tokens) > 5 and len(tokens) % 5 == 0:
        if len(tokens) // 5 > MAX_HANDS:
            raise ParseError(f"{len(tokens) // 5:,} hands in one line; at most {MAX_HANDS:,}")
        return [" ".join(tokens[i : i + 5]) for i in range(0, len(tokens), 5)]
    if len(tokens) > 5:
        raise ParseError(
            f"{len(tokens):,} cards is not a whole number of hands; write five cards "
            "per hand, or separate hands with |, ;, a tab or 'vs'"
        )
    return [line]


def _best_five_hands(line: str, tokens: list[str], counts: list[int]) -> list[str]:
    """The hands of a line without marks between hands, when hands hold 5 to
    7 cards: the whole line, or each word when every word holds 5 or more
    cards written together."""
    total = sum(counts)
    if total <= MOST_CARDS:
        return [line]
    if len(tokens) > 1 and min(counts) >= HAND_SIZE:
        if len(tokens) > MAX_HANDS:
            raise ParseError(f"{len(tokens):,} hands in one line; at most {MAX_HANDS:,}")
        return tokens
    raise ParseError(
        f"{total:,} cards and no mark between hands; a hand plays the best five of 5 to "
        f"{MOST_CARDS} cards: separate hands with |, ;, a tab or 'vs'"
    )


def _hands_of_runs(tokens: list[str], counts: list[int]) -> list[str]:
    """Tokens, some holding several cards, grouped five cards to a hand."""
    total = sum(counts)
    if total <= 5:
        return [" ".join(tokens)]
    if total % 5:
        raise ParseError(
            f"{total:,} cards is not a whole number of hands; write five cards "
            "per hand, or separate hands with |, ;, a tab or 'vs'"
        )
    if total // 5 > MAX_HANDS:
        raise ParseError(f"{total // 5:,} hands in one line; at most {MAX_HANDS:,}")
    hands: list[str] = []
    group: list[str] = []
    held = 0
    for token, count in zip(tokens, counts):
        group.append(token)
        held += count
        if held > 5:
            raise ParseError(
                f"{quote(token)} runs from hand {len(hands) + 1} into the next; "
                "separate hands with a space, |, ;, a tab or 'vs'"
            )
        if held == 5:
            hands.append(" ".join(group))
            group, held = [], 0
    return hands


def _joined(tokens: list[str]) -> list[str]:
    """Tokens with a lone suit symbol joined to the lone rank before it
    (``J ♦`` is one card, as :func:`~fivecard.core.cards.parse_cards` reads it)."""
    if not any(t in _LONE_SUITS for t in tokens):
        return tokens
    out: list[str] = []
    for token in tokens:
        if token in _LONE_SUITS and out and out[-1] in RANK_SPELLINGS:
            out[-1] += token
        else:
            out.append(token)
    return out


def line_row(number: int, line: str, *, best_five: bool = False) -> Row | None:
    """The :class:`Row` of one line of text (``None`` for a blank or comment
    line): its hands, or the error that splitting it gave (``best_five``: see
    :func:`split_line`)."""
    if is_skipped(line):
        return None
    try:
        return Row(number, (line,), tuple(split_line(line, best_five=best_five)))
    except FivecardError as exc:
        return Row(number, (line,), error=str(exc))


# --- the shape of a cell ---------------------------------------------------------------

_RANKISH: Final = frozenset("23456789tjqka1")
_LONE_SUITS: Final = frozenset(s for s in SUIT_SPELLINGS if not s.isascii())


def _card_like(token: str) -> bool:
    """Whether a token is shaped like a card, right or mistyped: a joker, a
    rank alone, or a rank-like character (or ``10``) and one letter or suit
    symbol (``8O`` and ``1S`` are card-like typos; ``Round`` is not)."""
    token = token.replace("\ufe0f", "")
    if not token or len(token) > 5:  # "\ufe0f" alone: nothing left
        return False
    low = token.lower()
    if low in JOKER_SPELLINGS or token in RANK_SPELLINGS or token in _LONE_SUITS:
        return True
    head = 2 if low.startswith("10") else 1
    rest = token[head:]
    return low[0] in _RANKISH and len(rest) == 1 and (rest.isalpha() or rest in SUIT_SPELLINGS)


def _rank_alone(token: str) -> bool:
    return token in RANK_SPELLINGS


def cell_shape(cell: str, *, suits: bool = True) -> str | None:
    """What a cell looks like it holds: a card, a hand (2+ card-like tokens,
    most of its tokens card-like), other text, or nothing. With ``suits``
    (every rule set but ``semi``), a rank alone such as ``7`` is not a card:
    most likely a number (a round, an id).

    >>> [cell_shape(c) for c in ('AS', 'KD, 9C, 4H, KS, 8O', '7', 'Round 1', '')]
    ['card', 'hand', 'other', 'other', None]
    """
    tokens = cell.replace(",", " ").split()
    if not tokens:
        return None
    if len(tokens) > 64:  # no hand is written with so many tokens
        return OTHER
    cards = like = 0
    previous_rank = False
    for token in tokens:
        if previous_rank and token in _LONE_SUITS:  # "J ♦": one card
            previous_rank = False
            continue
        cards += 1
        like += _card_like(token)
        previous_rank = _rank_alone(token)
    if cards == 1:
        if not like or (suits and _rank_alone(tokens[0])):
            return OTHER
        return CARD
    return HAND if like * 2 > cards else OTHER


def column_letter(index: int) -> str:
    """A spreadsheet column's letters from its 0-based index.

    >>> column_letter(0), column_letter(25), column_letter(26), column_letter(16383)
    ('A', 'Z', 'AA', 'XFD')
    """
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _column_index(text: str) -> int | None:
    """0-based index of a column given as letters (``B``, ``aa``) or a
    1-based number (``2``), up to :data:`MAX_TABLE_COLUMNS`; None when it
    is neither."""
    index = None
    if text.isascii() and text.isdecimal() and len(text) <= 6:
        index = int(text) - 1
    elif text.isascii() and text.isalpha() and len(text) <= 3:
        index = 0
        for ch in text.upper():
            index = index * 26 + ord(ch) - 64
        index -= 1
    return index if index is not None and 0 <= index < MAX_TABLE_COLUMNS else None


# --- table layouts ----------------------------------------------------------------------


def _shapes(row: Sequence[str], suits: bool) -> list[str | None]:
    return [cell_shape(cell, suits=suits) for cell in row]


def _data_like(shapes: Sequence[str | None]) -> bool:
    """A row that holds hands: a hand-shaped cell, or five card-shaped cells."""
    return HAND in shapes or shapes.count(CARD) >= 5


def _column_kinds(rows: Sequence[Sequence[str | None]], width: int) -> list[str]:
    """Each column's kind: the shape most of its non-empty cells have (a
    card or a hand wins a tie against other text). If the card columns do
    not make whole hands of five, the card columns least like cards are
    labels until they do: first those holding some cells that are not cards
    (a round number that happens to look like a rank), then the sparsest (a
    stray ``x`` at the end of a ragged row), the leftmost first."""
    kinds = []
    others = []
    cards = []
    for column in range(width):
        votes: dict[str, int] = {}
        for shapes in rows:
            shape = shapes[column] if column < len(shapes) else None
            if shape is not None:
                votes[shape] = votes.get(shape, 0) + 1
        kinds.append(max(votes, key=lambda k: (votes[k], k != OTHER)) if votes else OTHER)
        others.append(votes.get(OTHER, 0))
        cards.append(votes.get(CARD, 0))
    extra = kinds.count(CARD) % 5
    candidates = sorted(
        (c for c in range(width) if kinds[c] == CARD), key=lambda c: (not others[c], cards[c], c)
    )
    for column in candidates[:extra]:
        kinds[column] = OTHER
    return kinds


def _find_header(rows: Sequence[Sequence[str]], hand_columns: set[int]) -> tuple[int | None, int]:
    """Among the rows above the first row of cards: the header's index (or
    None) and the index of the first data row (see :meth:`TableLayout.detect`)."""
    for i, row in enumerate(rows):
        filled = {c for c, cell in enumerate(row) if cell.strip()}
        if (len(filled) >= 2 and filled & hand_columns) or (hand_columns and hand_columns <= filled):
            return i, i + 1
    start = 0
    while start < len(rows) and _title_like(rows[start]):
        start += 1
    return None, start


def _title_like(row: Sequence[str]) -> bool:
    filled = [cell.strip() for cell in row if cell.strip()]
    return len(filled) == 1 and not filled[0].replace(".", "", 1).isdecimal()


def _name_pattern(name: str) -> str:
    return re.sub(r"\d+", "#", " ".join(name.casefold().split()))


def _name_empty_columns(
    kinds: list[str], header: Sequence[str], rows: Sequence[Sequence[str | None]]
) -> None:
    """A column with no cells in the first rows takes the kind of a column
    whose header is named alike but for its numbers (``Player 2`` beside
    ``Player 1``), so an empty hand stays a hand."""
    named: dict[str, str] = {}
    for column, kind in enumerate(kinds):
        if kind != OTHER and column < len(header) and header[column].strip():
            named.setdefault(_name_pattern(header[column]), kind)
    for column in range(len(kinds)):
        empty = all(column >= len(r) or r[column] is None for r in rows)
        if empty and column < len(header) and header[column].strip():
            kinds[column] = named.get(_name_pattern(header[column]), kinds[column])


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Which columns of a table hold hands, and where the table starts.

    ``units`` lists each hand's columns, in hand order: one column holding a
    whole hand, or up to five columns holding one card each. ``header`` is
    the index (in the rows given to :meth:`detect`) of the header row, or
    None; ``start`` the index of the first data row: rows before it other
    than the header are titles and notes, skipped. ``width`` is the number
    of columns.
    """

    units: tuple[tuple[int, ...], ...]
    width: int
    header: int | None = None
    stated: bool = False
    #: The first data row (rows before it: titles and the header).
    start: int = 0

    @classmethod
    def detect(cls, rows: Sequence[Sequence[str]], *, suits: bool = True) -> TableLayout:
        """Decide the layout from the first rows of a table, by shape.

        The first row that holds hands (a hand-shaped cell, or five
        card-shaped ones) shows the columns: each column takes the shape
        most of its cells have from there on. Above that row, the header is
        the first row that names hand columns (two cells or more, one of
        them over a hand column, or a name over every hand column); rows
        above the header are titles; rows below it are data (a row with no
        cards is an error row, never a header). Without such a row there is
        no header, and only leading rows of one non-numeric cell are titles.

        >>> layout = TableLayout.detect([['Showdowns of March'],
        ...                              ['Round', 'Player 1', 'Player 2'],
        ...                              ['1', '', ''],
        ...                              ['2', 'AS KS QS JS TS', '2c 3c 4c 5c 8O']])
        >>> layout.header, layout.start, layout.units
        (1, 2, ((1,), (2,)))
        """
        width = max((len(r) for r in rows), default=0)
        shapes = [_shapes(r, suits) for r in rows]
        first = next((i for i, s in enumerate(shapes) if _data_like(s)), None)
        if first is None:  # nothing that looks like hands: read every row as data
            first = 0
        kinds = _column_kinds(shapes[first:], width)
        hand_columns = {c for c, k in enumerate(kinds) if k != OTHER}
        header, start = _find_header(rows[:first], hand_columns)
        if header is not None:
            _name_empty_columns(kinds, rows[header], shapes[first:])
        return cls(_units(kinds), width, header, start=start)

    @classmethod
    def from_spec(
        cls, spec: str, rows: Sequence[Sequence[str]], *, suits: bool = True
    ) -> TableLayout:
        """The layout the user states: hands separated by commas, each a
        column (letters ``B`` or a number ``2``, as a spreadsheet shows them)
        holding a whole hand, a range ``B-F`` of columns holding one card
        each, or a header name (``Player 1``). The header is the row above
        the first row whose hand cells look like cards, as in :meth:`detect`.

        >>> TableLayout.from_spec('B, C-G', [['x', 'AS KS QS JS TS', 'AS', 'KS', 'QS', 'JS', 'TS']]).units
        ((1,), (2, 3, 4, 5, 6))
        """
        items = [item.strip() for item in spec.split(",")]
        if not spec.strip() or not all(items):
            raise LayoutError(f"no hand columns in {quote(spec)}: name them like B,C,D or B-F,G-K")
        width = max((len(r) for r in rows), default=0)
        shapes = [_shapes(r, suits) for r in rows]
        units = [_unit(item, rows, shapes) for item in items]
        seen: dict[int, str] = {}
        for item, unit in zip(items, units):
            for column in unit:
                if column in seen:
                    raise LayoutError(
                        f"column {column_letter(column)} is named twice in {quote(spec)} "
                        f"({quote(seen[column])} and {quote(item)})"
                    )
                seen[column] = item
        columns = {c for unit in units for c in unit}

        def holds_hands(row: Sequence[str | None]) -> bool:
            return any(row[c] in (CARD, HAND) for c in columns if c < len(row))

        first = next((i for i, s in enumerate(shapes) if holds_hands(s)), 0)
        header, start = _find_header(rows[:first], columns)
        width = max(width, max(columns) + 1)
        return cls(tuple(units), width, header, stated=True, start=start)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Each column's kind: ``CARD``, ``HAND`` or ``OTHER`` (a label)."""
        kinds = [OTHER] * self.width
        for unit in self.units:
            for column in unit:
                kinds[column] = HAND if len(unit) == 1 else CARD
        return tuple(kinds)

    def hands(self, cells: Sequence[str]) -> tuple[str, ...]:
        """The hands of one row, one per hand position, ``""`` where a hand's
        cells are all empty. A hand with some empty cells comes out short,
        and the hand check reports it: cards never move between hands."""
        hands = []
        for unit in self.units:
            parts = [cells[c].strip() for c in unit if c < len(cells)]
            hands.append(" ".join(p for p in parts if p))
        return tuple(hands)

    def describe(self, names: Sequence[str]) -> str:
        """Which columns hold hands and which labels, for people:
        ``hands: B (Player 1), C (Player 2); labels: A (Round)``."""

        def name(column: int) -> str:
            label = names[column] if column < len(names) else ""
            # One line of plain text: line breaks and control characters as spaces.
            label = " ".join("".join(c if c.isprintable() else " " for c in label).split())
            return column_letter(column) + (f" ({label})" if label else "")

        hands = []
        for unit in self.units:
            if len(unit) == 1:
                hands.append(name(unit[0]))
            elif unit[-1] - unit[0] == len(unit) - 1:
                hands.append(f"{column_letter(unit[0])}-{column_letter(unit[-1])} (a card each)")
            else:
                hands.append("+".join(map(column_letter, unit)) + " (a card each)")
        used = {c for unit in self.units for c in unit}
        labels = [name(c) for c in range(self.width) if c not in used]
        text = "hands: " + (", ".join(hands) if hands else "none")
        return text + "; labels: " + (", ".join(labels) if labels else "none")


def _units(kinds: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """The columns of each hand, in order: a hand column alone, or card
    columns five at a time (a short last group is a short hand)."""
    units: list[tuple[int, ...]] = []
    group: list[int] = []
    for column, kind in enumerate(kinds):
        if kind == HAND:
            units.append((column,))
        elif kind == CARD:
            if not group:
                units.append(())  # placeholder: this hand's place in the order
            group.append(column)
            if len(group) == 5:
                units[units.index(())] = tuple(group)
                group = []
    if group:
        units[units.index(())] = tuple(group)
    return tuple(units)


def _unit(item: str, rows: Sequence[Sequence[str]], shapes: Sequence[Sequence[str | None]]) -> tuple[int, ...]:
    """The columns of one item of a stated layout (see :meth:`TableLayout.from_spec`)."""
    for row, row_shapes in zip(rows, shapes):  # a header name, in the rows above the data
        if _data_like(row_shapes):
            break
        matches = [i for i, cell in enumerate(row) if cell.strip().casefold() == item.casefold()]
        if matches:
            return (matches[0],)
    ends = item.split("-")
    columns = [_column_index(e.strip()) for e in ends]
    if len(ends) <= 2 and all(c is not None for c in columns):
        first, last = columns[0], columns[-1]
        assert first is not None and last is not None
        if last < first:
            raise LayoutError(f"column range {quote(item)} runs backwards")
        if last - first >= 16:
            raise LayoutError(f"column range {quote(item)} is {last - first + 1} columns; a hand has five cards")
        return tuple(range(first, last + 1))
    raise LayoutError(
        f"unknown hand column {quote(item)}: give a column letter (B), a number (2), "
        f"a range of card columns (B-F) or a header name, within the first "
        f"{MAX_TABLE_COLUMNS:,} columns (A-{column_letter(MAX_TABLE_COLUMNS - 1)})"
    )
