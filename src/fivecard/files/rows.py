"""How a row of a file holds its hands: one line of text, or the cells of a
CSV or spreadsheet row. Splitting only; no poker rules.

Text lines (:func:`split_line`):

* hands separated by ``|``, ``;``, a tab or the word ``vs``;
* otherwise a line of ten cards is two hands, first five and last five (as in
  Project Euler 54), and any multiple of five cards is that many hands;
* a line with one hand is classified only.

Table rows (:class:`TableLayout`): each column holds one card, one hand, or
something else (a label such as a round number, kept but not read). Which is
which is decided from the *shape* of the cells (:func:`cell_shape`: card-like
tokens, cards written together, cards between punctuation the notation does
not read such as ``AH-KH-QH-JH-TH``), never from whether they parse, so a
typo makes an error row instead of turning a hand column into a label column;
see :meth:`TableLayout.detect`, or state the layout with
:meth:`TableLayout.from_spec`. A detected layout never settles a row without
a hand the table holds:

* a column of single cards is a hand of its own, each cell an error row (never
  dropped: the hands after it keep their numbers);
* a column empty in the first rows is a hand column when its header names a
  hand or a player (:func:`names_a_hand`) or is named like a hand column;
* every later row is held to the layout (:meth:`TableLayout.check`): a hand in
  a label column (or a card, in a column that was empty), or in a column past
  the first rows', stops the run with a :class:`LayoutError` naming the line,
  the column and the hand columns to state.

Every splitter here is linear in the length of its input.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.cards import (
    FOREIGN_SEPARATORS,
    JOKER_SPELLINGS,
    RANK_SPELLINGS,
    SUIT_SPELLINGS,
    TOKENS,
    cards_in_token,
    cards_written_together,
)
from ..core.hand import HAND_SIZE, MOST_CARDS
from ..core.errors import FivecardError, ParseError, quote

__all__ = [
    "Row",
    "split_line",
    "is_skipped",
    "line_row",
    "cell_shape",
    "names_a_hand",
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
    """A table layout that does not fit the table: one the user stated, or
    one decided on the first rows that a later row shows wrong (a label
    column that holds hands, see :meth:`TableLayout.check`)."""


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

    Raises :class:`~fivecard.core.errors.ParseError` when the line holds no whole
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


def _real_card(token: str, suits: bool) -> bool:
    """Whether a card-like token is spelled as a real card, right or
    mistyped: a rank and a suit (``AS``, ``10♦``, ``8O``), a Unicode card,
    or (without suits) a rank alone; not a joker's word (``x``) nor a lone
    suit, which are as often marks as cards."""
    low = token.replace("\ufe0f", "").lower()
    if low in JOKER_SPELLINGS or token in _LONE_SUITS:
        return False
    return not suits or not _rank_alone(token)


_FOREIGN: Final = re.compile("[" + re.escape(FOREIGN_SEPARATORS) + "]+")


def _token_look(token: str, suits: bool) -> tuple[int, int, bool]:
    """What a token (no spaces or commas in it) looks like: how many card
    places it takes, how many of them look like cards, and whether it is a
    real card alone (see :func:`_real_card`). Cards written together
    (``AsKd7h``, Unicode cards) and cards between other punctuation
    (``AH-KH-QH``, ``AH/KH``: see
    :data:`~fivecard.core.cards.FOREIGN_SEPARATORS`) are places of their own."""
    if _card_like(token):
        return 1, 1, _real_card(token, suits)
    if token in TOKENS:  # a Unicode card or joker
        real = token.lower() not in JOKER_SPELLINGS
        return 1, 1, real
    together = cards_written_together(token)
    if together:
        return together + (cards_in_token(token) == 1), together, False  # a typo after the run: one place more
    if _FOREIGN.search(token):
        pieces = [p for p in _FOREIGN.split(token) if p]
        if 2 <= len(pieces) <= 64:
            places = like = 0
            for piece in pieces:
                # Only cards spelled right count here: "2P-3K" is a code, "AH-KH" cards.
                piece_places, piece_like, _ = _token_look(piece, suits)
                places += piece_places
                if _rank_alone(piece):  # between punctuation a number (2.5, 3/4), unless five (Q-Q-Q-Q-9)
                    piece_like = piece_like if not suits and len(pieces) >= 5 else 0
                elif piece_places == 1 and (piece not in TOKENS or piece.lower() in JOKER_SPELLINGS):
                    piece_like = 0
                like += piece_like
            if like >= 2 and like * 2 > places:
                return places, like, False
    return 1, 0, False


def _look(cell: str, suits: bool) -> tuple[str | None, bool]:
    """A cell's shape (see :func:`cell_shape`), and whether it is a real card
    alone. (Short cells are remembered: a column of labels repeats them.)"""
    return _look_short(cell, suits) if len(cell) <= 64 else _look_at(cell, suits)


@functools.lru_cache(maxsize=1 << 12)
def _look_short(cell: str, suits: bool) -> tuple[str | None, bool]:
    return _look_at(cell, suits)


def _look_at(cell: str, suits: bool) -> tuple[str | None, bool]:
    tokens = cell.replace(",", " ").split()
    if not tokens:
        return None, False
    if len(tokens) > 64:  # no hand is written with so many tokens
        return OTHER, False
    words = like = places = 0  # tokens, those that look like cards, card places
    real = previous_rank = rank_alone = False
    for token in tokens:
        if previous_rank and token in _LONE_SUITS:  # "J ♦": one card
            previous_rank = rank_alone = False
            real = True
            continue
        token_places, token_like, real = _token_look(token, suits)
        words += 1
        like += token_like > 0
        places += token_places
        previous_rank = rank_alone = _rank_alone(token)
    if places == 1:
        if not like or (suits and rank_alone):
            return OTHER, False
        return CARD, real
    return (HAND if like * 2 > words else OTHER), False


def cell_shape(cell: str, *, suits: bool = True) -> str | None:
    """What a cell looks like it holds: a card, a hand (two or more cards,
    most of its tokens card-like), other text, or nothing. A token looks
    like a card when it is shaped like one (right or mistyped, ``KD``,
    ``8O``), and like several when they are written together (``AsKd7h7c2s``,
    Unicode cards) or between punctuation the notation does not read as a
    separator (``AH-KH-QH-JH-TH``, ``AH/KH/QH/JH/TH``, cards spelled right:
    a hand so written is an error row that says so, never a label). With
    ``suits`` (every rule set but ``semi``), a rank alone such as ``7`` is
    not a card: most likely a number (a round, an id); ranks alone between
    punctuation (``2.5``, ``3/4``, ``A-K-Q-J-9``) are numbers under any
    rules, unless five or more of them are under rules without suits.

    >>> [cell_shape(c) for c in ('AS', 'KD, 9C, 4H, KS, 8O', '7', 'Round 1', '')]
    ['card', 'hand', 'other', 'other', None]
    >>> [cell_shape(c) for c in ('AsKsQsJsTs', 'AH-KH-QH-JH-TH', 'AH/KH QH JH TH', '2.5', '2024-03-01')]
    ['hand', 'hand', 'hand', 'other', 'other']
    """
    return _look(cell, suits)[0]


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


@dataclass
class _Tally:
    """The shapes of one column's cells in the first rows."""

    hands: int = 0
    cards: int = 0
    real: int = 0  # cards spelled as real cards (see _real_card)
    others: int = 0

    def add(self, shape: str | None, real: bool) -> None:
        if shape == HAND:
            self.hands += 1
        elif shape == CARD:
            self.cards += 1
            self.real += real
        elif shape == OTHER:
            self.others += 1

    @property
    def filled(self) -> int:
        return self.hands + self.cards + self.others

    @property
    def kind(self) -> str:
        """The shape most of its cells have (a card or a hand wins a tie
        against other text; an empty column is a label)."""
        votes = {HAND: self.hands, CARD: self.cards, OTHER: self.others}
        return max(votes, key=lambda k: (votes[k], k != OTHER)) if self.filled else OTHER


def _tallies(looks: Sequence[Sequence[tuple[str | None, bool]]], width: int) -> list[_Tally]:
    tallies = [_Tally() for _ in range(width)]
    for row in looks:
        for tally, (shape, real) in zip(tallies, row):
            tally.add(shape, real)
    return tallies


def _column_kinds(tallies: Sequence[_Tally]) -> list[str]:
    """Each column's kind: the shape most of its non-empty cells have. If
    the card columns do not make whole hands of five, the card columns least
    like cards are taken out of the groups of five until they do: first
    those holding some cells that are not cards (a round number that happens
    to look like a rank), then the sparsest, the leftmost first. A column so
    taken out whose cells are mostly real cards (``AS``, not a mark such as
    ``x``) is a hand of its own, each cell an error row (one card is no
    hand): a column of single cards is never dropped, so hands never
    renumber. The others (a stray ``x`` at the end of a ragged row) are
    labels."""
    kinds = [tally.kind for tally in tallies]
    extra = kinds.count(CARD) % 5
    candidates = sorted(
        (c for c, kind in enumerate(kinds) if kind == CARD),
        key=lambda c: (not tallies[c].others, tallies[c].cards, c),
    )
    for column in candidates[:extra]:
        tally = tallies[column]
        single = not tally.others and tally.real * 2 > tally.filled
        kinds[column] = HAND if single else OTHER
    return kinds


def _find_header(rows: Sequence[Sequence[str]], hand_columns: set[int]) -> tuple[int | None, int]:
    """Among the rows above the first row of cards: the header's index (or
    None) and the index of the first data row (see :meth:`TableLayout.detect`)."""
    filled = [{c for c, cell in enumerate(row) if cell.strip()} for row in rows]
    for i, cells in enumerate(filled):  # two names or more, one over a hand column
        if len(cells) >= 2 and cells & hand_columns:
            return i, i + 1
    for i, cells in enumerate(filled):  # else a name over every hand column (one: "Hand", not a title above it)
        if hand_columns and hand_columns <= cells:
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


#: A header that names a hand or a player, and nothing else: ``Player 3``,
#: ``Hand 2``, ``Seat 1``, ``P2``, ``H 4``, ``Player``. (``Player 1
#: classification`` names an answer, not a hand.)
_HAND_NAME: Final = re.compile(r"(?:player|hand|seat)\s*#?\s*\d*|[ph]\s*#?\s*\d+", re.IGNORECASE)


def names_a_hand(name: str) -> bool:
    """Whether a header names a hand or a player and nothing else.

    >>> [names_a_hand(n) for n in ('Player 3', 'hand', 'P2', 'Seat #4', 'Player 1 classification', 'Round')]
    [True, True, True, True, False, False]
    """
    return _HAND_NAME.fullmatch(" ".join(name.split())) is not None


def _name_empty_columns(kinds: list[str], header: Sequence[str], tallies: Sequence[_Tally]) -> None:
    """A column with no cells in the first rows is a hand column when its
    header names a hand (``Player 3``, see :func:`names_a_hand`), and takes
    the kind of a column whose header is named alike but for its numbers
    (``Player 2`` beside ``Player 1``), so an empty hand stays a hand."""
    named: dict[str, str] = {}
    for column, kind in enumerate(kinds):
        if kind != OTHER and column < len(header) and header[column].strip():
            named.setdefault(_name_pattern(header[column]), kind)
    for column, tally in enumerate(tallies):
        if tally.filled or column >= len(header) or not header[column].strip():
            continue
        alike = named.get(_name_pattern(header[column]))
        if alike is not None:
            kinds[column] = alike
        elif names_a_hand(header[column]):
            kinds[column] = HAND


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Which columns of a table hold hands, and where the table starts.

    ``units`` lists each hand's columns, in hand order: one column holding a
    whole hand, or up to five columns holding one card each. ``header`` is
    the index (in the rows given to :meth:`detect`) of the header row, or
    None; ``start`` the index of the first data row: rows before it other
    than the header are titles and notes, skipped. ``width`` is the number
    of columns.

    A detected layout is decided on the first rows, and :meth:`check` holds
    every later row to it: ``watch`` lists the label columns, each with
    whether it held no text in the first rows (then a card there also says
    the column held hands after all); ``suits`` is the rule set's (see
    :func:`cell_shape`).
    """

    units: tuple[tuple[int, ...], ...]
    width: int
    header: int | None = None
    stated: bool = False
    #: The first data row (rows before it: titles and the header).
    start: int = 0
    watch: tuple[tuple[int, bool], ...] = ()
    suits: bool = True

    @classmethod
    def detect(cls, rows: Sequence[Sequence[str]], *, suits: bool = True) -> TableLayout:
        """Decide the layout from the first rows of a table, by shape.

        The first row that holds hands (a hand-shaped cell, or five
        card-shaped ones) shows the columns: each column takes the shape
        most of its cells have from there on (see :func:`_column_kinds`:
        five card columns make a hand; a column of single cards is a hand
        of its own, each cell an error row). Above that row, the header is
        the first row that names hand columns (two cells or more, one of
        them over a hand column, or a name over every hand column); rows
        above the header are titles; rows below it are data (a row with no
        cards is an error row, never a header). Without such a row there is
        no header, and only leading rows of one non-numeric cell are
        titles. A column empty in these rows is a hand column when its
        header names a hand or is named like a hand column's (``Player 3``
        beside ``Player 1``), else a label column, which :meth:`check`
        watches.

        >>> layout = TableLayout.detect([['Showdowns of March'],
        ...                              ['Round', 'Player 1', 'Player 2'],
        ...                              ['1', '', ''],
        ...                              ['2', 'AS KS QS JS TS', '2c 3c 4c 5c 8O']])
        >>> layout.header, layout.start, layout.units
        (1, 2, ((1,), (2,)))
        """
        width = max((len(r) for r in rows), default=0)
        looks = [[_look(cell, suits) for cell in row] for row in rows]
        first = next((i for i, row in enumerate(looks) if _data_like([shape for shape, _ in row])), None)
        if first is None:  # nothing that looks like hands: read every row as data
            first = 0
        tallies = _tallies(looks[first:], width)
        kinds = _column_kinds(tallies)
        hand_columns = {c for c, k in enumerate(kinds) if k != OTHER}
        header, start = _find_header(rows[:first], hand_columns)
        if header is not None:
            _name_empty_columns(kinds, rows[header], tallies)
        watch = tuple((c, not tallies[c].others) for c, kind in enumerate(kinds) if kind == OTHER)
        return cls(_units(kinds), width, header, start=start, watch=watch, suits=suits)

    def check(self, line: int, cells: Sequence[str], names: Sequence[str] = ()) -> None:
        """Hold a data row to a detected layout: raise :class:`LayoutError`
        (naming the row's ``line``, the column and its header from
        ``names``, the cell, and the hand columns to state) when a label
        column holds a hand-shaped cell, or a card when the column held no
        text in the first rows (it was empty there: a hand column after
        all), or when a column past the table's holds either. The first rows
        could not show it: the run stops, rather than settle the row without
        that hand. A stated layout takes the user's word: nothing is checked."""
        if self.stated:
            return
        suits, count = self.suits, len(cells)
        for column, empty in self.watch if count <= self.width else self._watched(count):
            if column < count and (cell := cells[column]) and not (suits and cell.isdecimal()):
                shape, real = _look(cell, suits)  # (a number, the usual label, is neither)
                if shape == HAND or (empty and shape == CARD and real):
                    self._stop(line, column, cell, shape, empty, names)

    def _watched(self, width: int) -> list[tuple[int, bool]]:
        """The label columns, and the columns past the table's up to ``width``."""
        return [*self.watch, *((column, True) for column in range(self.width, width))]

    def _stop(self, line: int, column: int, cell: str, shape: str, empty: bool, names: Sequence[str]) -> None:
        if column >= self.width:
            why = "past the columns of the table's first rows"
        elif empty:
            why = "but was read as labels, being empty in the table's first rows"
        else:
            why = "but was read as labels, as most of its cells in the table's first rows are not cards"
        spec = _spec(sorted([*self.units, (column,)]))
        raise LayoutError(
            f"line {line}: column {_column_name(column, names)} holds {quote(cell)}, which looks like "
            f"{'a hand' if shape == HAND else 'a card'}, {why}; state which columns hold hands",
            option=("hands", spec) if spec else None,
        )

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
            return _column_name(column, names)

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


def _column_name(column: int, names: Sequence[str]) -> str:
    """A column for people: its letter and header, ``B (Player 1)``."""
    label = names[column] if column < len(names) else ""
    # One line of plain text: line breaks and control characters as spaces.
    label = " ".join("".join(c if c.isprintable() else " " for c in label).split())
    return column_letter(column) + (f" ({label})" if label else "")


def _spec(units: Sequence[tuple[int, ...]]) -> str | None:
    """Hand columns as :meth:`TableLayout.from_spec` reads them (``B,C,D``,
    ``B-F,G-K``), or None if some hand's card columns are not side by side."""
    items = []
    for unit in units:
        if unit[-1] - unit[0] != len(unit) - 1:
            return None
        items.append(column_letter(unit[0]) + (f"-{column_letter(unit[-1])}" if len(unit) > 1 else ""))
    return ",".join(items)


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
