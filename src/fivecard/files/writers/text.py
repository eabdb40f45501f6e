"""The text table, for people: line, each hand (its cards in showdown order
and its category), winner(s), explanation.

Guarantees: columns line up (a hand takes 36 columns, a card three); a row
of one hand shows the hand's description where a showdown's explanation
goes; a row with more hands than the header names shows the extra hands
after the explanation (``| hand 3: ...``, and :meth:`TextWriter.notes` says
so); a bad row shows its error. Red hearts and diamonds with colour. A
chunk of plain lines shown without colour is laid out as a byte matrix
(each card written as one eight-byte number), made ahead by the reading
thread.
"""

from __future__ import annotations

from functools import cache
from typing import IO

import numpy as np
import numpy.typing as npt

from ...core.cards import JOKER
from ...core.columns import class_columns
from ...core.report import Painter
from ...core.rules import RuleSet
from ...vector.columns import class_arrays
from ..pipeline import Chunk
from .base import WriterBase, overflow_note, winners_text
from .cards import card_numbers, people_cards
from .matrix import all_tokens, join_rows, numbered_rows, numbers
from .memo import PerOutcome, PerStrength
from .order import showdown_order, showdown_places

__all__ = ["TextWriter"]


@cache
def _category_labels(rules: RuleSet) -> npt.NDArray[np.uint8]:
    """Per ladder index, the category as the text table shows it (`` {name:<16}``),
    as rows of bytes (all of one length, or the rows are not used)."""
    texts = [f" {c.label:<16}".encode() for c in rules.ladder]
    width = max(map(len, texts))
    rows = np.zeros((len(texts), width), dtype=np.uint8)
    for i, text in enumerate(texts):
        rows[i, : len(text)] = np.frombuffer(text, np.uint8)
    return rows if len(set(map(len, texts))) == 1 else rows[:0]


class TextWriter(WriterBase):
    """An aligned table for people: line, each hand (showdown order and
    category), winner(s), explanation."""

    def __init__(self, out: IO[bytes], hands: int, painter: Painter, rules: RuleSet, *, header: bool = True) -> None:
        super().__init__((), hands, rules)
        self.out = out
        self.painter = painter
        if header:
            cells = ["line".rjust(6)] + [f"hand {i + 1}".ljust(36) for i in range(hands)]
            out.write(("  ".join(cells) + "  winner  explanation\n").encode())
        columns = class_columns(rules)
        self.labels = PerStrength(rules, lambda s: f" {columns.category(s).label:<16}".encode())
        self.descriptions = PerStrength(rules, lambda s: f"-       {columns.description(s)}".encode())
        self.tails = PerOutcome(lambda o: f"{winners_text(o):<6}  {o.explanation}".encode(), b"")
        self.line_tails = PerOutcome(lambda o: f"  {winners_text(o):<6}  {o.explanation}\n".encode(), b"  \n")

    def write(self, chunk: Chunk) -> None:
        self.measure(chunk)
        n = len(chunk)
        if not n:
            return
        if self._plain(chunk):
            self.out.write(self._matrix_rows(chunk))
            return
        shown = people_cards(chunk, self.painter, showdown_order(chunk)) + self.labels(chunk.strength)
        grid = np.empty((n, self.hands + 3), dtype=object)
        grid[:, 0] = numbers(chunk.line, pad=6)
        blank = b"  " + b" " * 36
        for j in range(self.hands):
            grid[:, 1 + j] = blank
            rows = np.flatnonzero(chunk.count > j)
            grid[rows, 1 + j] = b"  " + shown[chunk.start[rows] + j]
        tails = self.tails(chunk)
        one = np.flatnonzero(chunk.count == 1)
        if len(one):
            tails[one] = self.descriptions(chunk.strength[chunk.start[one]])
        grid[:, 1 + self.hands] = b"  " + tails
        grid[:, 2 + self.hands] = b"\n"
        for i in np.flatnonzero(chunk.count > self.hands).tolist():
            span = chunk.hands_of(i)
            grid[i, 2 + self.hands] = b"".join(
                f"  | hand {k + 1}: ".encode() + shown[span.start + k].rstrip()
                for k in range(self.hands, len(span))
            ) + b"\n"
        for i, message in chunk.error.items():
            grid[i, 1:] = b""
            grid[i, 1] = f"  error: {message}\n".encode()
        self.out.write(join_rows(grid))

    def _plain(self, chunk: Chunk) -> bool:
        """Rows of the header's hands, all read as two-character cards,
        shown without colour: each row but its explanation is a byte matrix
        row."""
        rules = chunk.rules
        return (
            not self.painter.color and rules.suits and all_tokens(chunk, self.hands)
            and len(_category_labels(rules)) > 0
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
        self.out.flush()

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "the explanation")
