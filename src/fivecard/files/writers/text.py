"""The text table, for people: line, the input's label columns, each hand
(its cards in showdown order, as its header says, and its category),
winner(s), explanation. (The other formats' ``sorted`` cells are the cards
in rank order, ModelOff's step 1.)

Guarantees: columns line up (a hand takes 36 columns, a card three; a label
column as wide as its name and its first rows' cells, at most 24); written
to a terminal, the table fits its width (``width``: hands without their
category column when they leave too little room, an explanation wrapped
onto lines of its own); written to a file or a pipe, a row is one line; a
row of one hand shows the hand's description where a showdown's
explanation goes; ``solve`` gives no row wider than the header (see
:mod:`~fivecard.files.writers`), and a row with more hands than the header names shows the extra hands
after the explanation (``| hand 3: ...``, and :meth:`TextWriter.notes` says
so); a bad row shows its error. Red hearts and diamonds with colour. A
chunk of plain lines shown without colour is laid out as a byte matrix
(each card written as one eight-byte number), made ahead by the reading
thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import IO, Final

import numpy as np
import numpy.typing as npt

from ...core.cards import JOKER
from ...core.columns import class_columns
from ...core.report import Painter, padded_text
from ...core.lang import ENGLISH, Language
from ...core.rules import RuleSet
from ...core.words import category_name
from ...vector.columns import class_arrays
from ..pipeline import Chunk
from .base import WriterBase, overflow_note, winners_text
from .cards import card_numbers, people_cards
from .matrix import all_tokens, join_rows, numbered_rows, numbers
from .memo import PerOutcome, PerStrength
from .order import showdown_order, showdown_places

__all__ = ["TextWriter"]


def _label(cells: Sequence[str], column: int) -> str:
    """A label cell as one line of plain text."""
    text = cells[column] if column < len(cells) else ""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _wrapped(text: str, indent: int, width: int) -> bytes:
    """A text wrapped to ``width`` columns from column ``indent``, its
    further lines indented so."""
    import textwrap

    lines = textwrap.wrap(text, max(width - indent, 20), break_long_words=True, break_on_hyphens=False)
    return ("\n" + " " * indent).join(lines or [""]).encode()


@cache
def _category_labels(rules: RuleSet, lang: Language = ENGLISH) -> npt.NDArray[np.uint8]:
    """Per ladder index, the category as the text table shows it (`` {name:<16}``,
    in ``lang``), as rows of bytes (all of one length, or the rows are not used)."""
    texts = [f" {category_name(c.name, c.label, lang):<16}".encode() for c in rules.ladder]
    width = max(map(len, texts))
    rows = np.zeros((len(texts), width), dtype=np.uint8)
    for i, text in enumerate(texts):
        rows[i, : len(text)] = np.frombuffer(text, np.uint8)
    return rows if len(set(map(len, texts))) == 1 else rows[:0]


#: A hand's column: its cards (five, three columns each and a space between)
#: and its category (17); compact, its cards alone.
_HAND: Final = 36
_CARDS: Final = 19
#: The widest a label column is made (a longer label is cut, ending in ``…``).
_MOST_LABEL: Final = 24
#: The fewest columns an explanation is given beside the hands, when the
#: table fits a width (else it goes on lines of its own below the row).
_LEAST_EXPLANATION: Final = 24


class TextWriter(WriterBase):
    """An aligned table for people: line, the input's label columns, each
    hand (its cards in showdown order, and its category), winner(s),
    explanation. ``labels``: the label columns (index, name) of a table
    input, shown after the line, as wide as their name and the first rows'
    cells (the header waits for the first rows). ``width``: the columns to
    fit (a terminal's): hands lose their category column when the table is
    too wide for them, and an explanation (or error) wraps onto lines of its
    own, indented; None (a file or a pipe): one line a row, as wide as it is."""

    def __init__(
        self, out: IO[bytes], hands: int, painter: Painter, rules: RuleSet, *, header: bool = True,
        labels: Sequence[tuple[int, str]] = (), width: int | None = None,
    ) -> None:
        super().__init__((), hands, rules, painter.lang)
        self.out = out
        self.painter = painter
        self.labels_shown = tuple(labels)
        self.fit = width
        self.label_widths: list[int] | None = None if labels else []
        self.compact = False
        self.header = header
        if self.label_widths is not None:
            self._start([])
        columns = class_columns(rules)
        lang = self.lang
        self.labels = PerStrength(rules, lambda s: f" {padded_text(self.label(columns.category(s)), 16)}".encode())
        self.descriptions = PerStrength(rules, lambda s: f"-       {columns.description(s, lang)}".encode())
        self.tails = PerOutcome(lambda o: f"{winners_text(o):<6}  {self.explanation(o)}".encode(), b"")
        self.line_tails = PerOutcome(lambda o: f"  {winners_text(o):<6}  {self.explanation(o)}\n".encode(), b"  \n")

    def _start(self, first: Sequence[Sequence[str]]) -> None:
        """Decide the columns (from the label names and the first rows'
        cells) and write the header."""
        self.label_widths = [
            min(max([len(name), *(len(_label(cells, c)) for cells in first)]), _MOST_LABEL)
            for c, name in self.labels_shown
        ]
        if self.fit is not None and self._before_tail() + 8 + _LEAST_EXPLANATION > self.fit:
            self.compact = True  # the categories go: the explanation names them
        if not self.header:
            return
        if not self.lang.english:
            self.out.write(self._header().encode())
            return
        hand, order = (_CARDS, "showdown") if self.compact else (_HAND, "showdown order")
        cells = ["line".rjust(6)] + [_cut(name, w).ljust(w) for (_, name), w in zip(self.labels_shown, self.label_widths)]
        cells += [f"hand {i + 1} ({order})".ljust(hand) for i in range(self.hands)]
        below = self.fit is not None and self.fit - self._before_tail() - 8 < _LEAST_EXPLANATION
        tail = "  winner" if below else "  winner  explanation"  # (below: under each row, indented)
        room = self.fit - self._before_tail() if self.fit is not None else 6
        if below and room < 6:  # a winner's cell is a few characters: so is its name, when the width is short
            tail = "  won" if room >= 3 else ""
        self.out.write(("  ".join(cells) + tail + "\n").encode())

    def _header(self) -> str:
        """The header in a language other than English (the table is for
        people; the input's label columns keep their names), each cell as
        wide in terminal columns as the English one."""
        assert self.label_widths is not None
        lang = self.lang
        hand = _CARDS if self.compact else _HAND
        cells = [padded_text(lang.pgettext("table", "line", "files"), -6)]
        cells += [_cut(name, w).ljust(w) for (_, name), w in zip(self.labels_shown, self.label_widths)]
        for i in range(self.hands):
            if self.compact:
                title = lang.phrase("hand {number} (showdown)", "files", number=i + 1)
            else:
                title = lang.phrase("hand {number} (showdown order)", "files", number=i + 1)
            cells.append(padded_text(title, hand))
        below = self.fit is not None and self.fit - self._before_tail() - 8 < _LEAST_EXPLANATION
        winner = lang.pgettext("table", "winner", "files")
        tail = "  " + (winner if below else padded_text(winner, 6) + "  " + lang.pgettext("table", "explanation", "files"))
        room = self.fit - self._before_tail() if self.fit is not None else 6
        if below and room < 6:
            tail = "  " + lang.pgettext("table", "won", "files") if room >= 3 else ""
        return "  ".join(cells) + tail + "\n"

    def _before_tail(self) -> int:
        """The columns before the winner: line, labels, hands."""
        assert self.label_widths is not None
        hand = _CARDS if self.compact else _HAND
        return 6 + sum(2 + w for w in self.label_widths) + self.hands * (2 + hand) + 2

    def write(self, chunk: Chunk) -> None:
        self.measure(chunk)
        n = len(chunk)
        if self.label_widths is None:
            if not n:
                return
            cells = chunk.cells or []
            self._start(cells[:200])
        if not n:
            return
        if self._plain(chunk):
            self.out.write(self._matrix_rows(chunk))
            return
        order = showdown_order(chunk)
        shown = people_cards(chunk, self.painter, order)
        if not self.compact:
            shown = shown + self.labels(chunk.strength)
        lead = len(self.labels_shown)
        grid = np.empty((n, 1 + lead + self.hands + 2), dtype=object)
        grid[:, 0] = numbers(chunk.line, pad=6)
        assert self.label_widths is not None
        for j, ((column, _), w) in enumerate(zip(self.labels_shown, self.label_widths)):
            grid[:, 1 + j] = [
                b"  " + _cut(_label(chunk.row_cells(i), column), w).ljust(w).encode() for i in range(n)
            ]
        blank = b"  " + b" " * (_CARDS if self.compact else _HAND)
        for j in range(self.hands):
            grid[:, 1 + lead + j] = blank
            rows = np.flatnonzero(chunk.count > j)
            grid[rows, 1 + lead + j] = b"  " + shown[chunk.start[rows] + j]
        tails = self.tails(chunk)
        one = np.flatnonzero(chunk.count == 1)
        if len(one):
            tails[one] = self.descriptions(chunk.strength[chunk.start[one]])
        tail = 1 + lead + self.hands
        grid[:, tail] = b"  " + tails
        grid[:, tail + 1] = b"\n"
        for i, message in chunk.error.items():
            grid[i, 1 + lead :] = b""
            grid[i, 1 + lead] = f"  error: {message}\n".encode()
        if self.fit is not None:
            self._wrap(grid, chunk, tail)
        self.out.write(join_rows(grid))

    def _wrap(self, grid: npt.NDArray[np.object_], chunk: Chunk, tail: int) -> None:
        """Fit each row's explanation (or error) to the width: wrapped onto
        lines of its own, indented to where it starts (or, with too few
        columns left there, below the row, indented by 8)."""
        assert self.fit is not None
        lead = 1 + len(self.labels_shown)
        before = 6 + sum(2 + w for w in self.label_widths or [])
        at_tail = self._before_tail() + 8  # the explanation, after the winner's column
        for i in range(len(chunk)):
            if i in chunk.error:
                text = grid[i, lead].decode()[2:-1]
                grid[i, lead] = b"  " + _wrapped(text, before + 2, self.fit) + b"\n"
                continue
            cell = grid[i, tail].decode()
            head, explanation = cell[: 2 + 8], cell[2 + 8 :]
            if at_tail + len(explanation) <= self.fit:
                continue
            if self.fit - at_tail >= _LEAST_EXPLANATION:
                grid[i, tail] = head.encode() + _wrapped(explanation, at_tail, self.fit)
            else:
                grid[i, tail] = head.rstrip().encode() + b"\n" + b" " * 8 + _wrapped(explanation, 8, self.fit)

    def _plain(self, chunk: Chunk) -> bool:
        """Rows of the header's hands, all read as two-character cards,
        shown without colour, nor labels, nor a width to fit: each row but
        its explanation is a byte matrix row."""
        rules = chunk.rules
        return (
            not self.painter.color and self.fit is None and not self.labels_shown and rules.suits and all_tokens(chunk, self.hands)
            and self.painter.lang.english and len(_category_labels(rules)) > 0
        )

    def _matrix_rows(self, chunk: Chunk) -> bytes:
        """The rows of a chunk :meth:`_plain` accepts: up to the winner, a
        byte matrix row each (the line number, then per hand its cards in
        showdown order, three columns each, and its category), then the
        winner and the explanation."""
        matrix = chunk.prepared.get("text")
        if matrix is None:
            matrix = self._hands_matrix(chunk)
        grid = np.empty((len(chunk), 2), dtype=object)
        grid[:, 0] = numbered_rows(chunk.line, b"", [matrix], pad=6)
        if chunk.rules.jokers:  # a joker's spelling is shorter than a suited card's: its slot ends in zeros
            joker = (chunk.indices == JOKER.index).any(axis=1).reshape(len(chunk), -1).any(axis=1)
            rows = np.flatnonzero(joker)
            grid[rows, 0] = [row.replace(b"\0", b"") for row in grid[rows, 0].tolist()]
        grid[:, 1] = self.line_tails(chunk)
        return join_rows(grid)

    def prepare(self, chunk: Chunk) -> None:
        """What :meth:`write` needs that depends on the chunk alone, made
        ahead by the reading thread: for plain lines, their byte matrix."""
        if len(chunk) and self._plain(chunk):
            chunk.prepared["text"] = self._hands_matrix(chunk)

    def _hands_matrix(self, chunk: Chunk) -> npt.NDArray[np.uint8]:
        """Of plain lines, per row its hands as the table shows them."""
        n, hands = len(chunk), self.hands
        places = showdown_places(chunk)
        pieces, card = card_numbers("ascii" if self.painter.ascii else "unicode")
        labels = _category_labels(chunk.rules)
        label = len(labels[0])
        hand_width = 2 + 5 * card + 4 + label
        size = hands * hand_width
        matrix = np.full((n, size), ord(" "), dtype=np.uint8)
        category = class_arrays(chunk.rules).category[chunk.strength]
        for j in range(hands):
            start = j * hand_width + 2
            for k in range(5):  # eight bytes a card, the next card written over the spill
                at = start + k * (card + 1)
                np.ndarray((n,), np.uint64, matrix, at, (size,))[:] = pieces[places[j::hands, k]]
            for k in range(4):
                matrix[:, start + k * (card + 1) + card] = ord(" ")
            cards_end = start + 5 * card + 4
            matrix[:, cards_end : cards_end + label] = labels[category[j::hands]]
        return matrix

    def close(self) -> None:
        if self.label_widths is None:
            self._start([])
        self.out.flush()

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "the explanation")
