"""CSV, UTF-8: a row per input row.

Guarantees: the header is :func:`~fivecard.files.writers.base.result_header`
(line, the input's cells, three cells per hand: cards as written sorted
by rank, category, score; winner(s), explanation, error); cells are
separated by the input CSV's delimiter (``,``, ``;`` or a tab; ``,`` for
text input); every cell is inert
(:func:`~fivecard.files.writers.cells.inert`) and quoted as the csv module
quotes it with that delimiter; ``solve`` gives no row wider than the
header (see :mod:`~fivecard.files.writers`), and a row with more hands than the header names keeps every named
column in place, the extra hands' cells after the error column, then any
cells past the input's columns (and :meth:`CsvWriter.notes` says so). A
chunk of plain lines (every hand two-character cards at single spaces) is
laid out as byte matrices, made ahead by the reading thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import IO

import numpy as np
import numpy.typing as npt

from ...core.lang import ENGLISH, Language
from ...core.rules import RuleSet
from ..pipeline import Chunk, token_text
from .base import WriterBase, overflow_note, past_note, result_header, winners_text
from .cards import token_sorted, written_sorted
from .cells import CSV_LEADING, csv_cell, csv_field, csv_special, escaped
from .matrix import all_tokens, join_rows, numbered_rows, numbers, rows_of
from .memo import PerOutcome, PerStrength
from .order import sort_order

__all__ = ["CsvWriter"]

Objects = npt.NDArray[np.object_]


class CsvWriter(WriterBase):
    """CSV, UTF-8: the input's cells, three cells per hand (sorted cards as
    written, category, score), winner(s), explanation, error."""

    def __init__(
        self, out: IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet, *, bom: bool = False,
        header: bool = True, delimiter: str = ",", lang: Language = ENGLISH,
    ) -> None:
        super().__init__(columns, hands, rules, lang)
        self.out = out
        self.delimiter = d = delimiter
        self.sep = sep = delimiter.encode()
        if bom and header:
            out.write(b"\xef\xbb\xbf")
        if header:
            out.write(sep.join(csv_cell(c, d) for c in result_header(columns, hands)) + b"\n")
        self.classes = PerStrength(rules, self._class_cells)
        self.tails = PerOutcome(
            lambda o: f"{d}{csv_field(winners_text(o), d)}{d}{csv_cell(self.explanation(o), d).decode()}{d}\n".encode(),
            sep * 3 + b"\n",
        )

    def _class_cells(self, strength: int) -> bytes:
        columns, d = self.classes.columns, self.delimiter
        return f"{d}{csv_field(self.label(columns.category(strength)), d)}{d}{columns.score(strength)}".encode()

    def _cell(self, text: str) -> bytes:
        return csv_cell(text, self.delimiter)

    def _prepared(self, chunk: Chunk) -> tuple[Objects, Objects, Objects]:
        sep = self.sep
        return (
            numbers(chunk.line, after=sep),
            _input_cells(chunk, self.width, sep, csv_special(self.delimiter), CSV_LEADING, self._cell, b""),
            written_sorted(chunk, sort_order(chunk.indices), sep),
        )

    def write(self, chunk: Chunk) -> None:
        self.measure(chunk)
        n = len(chunk)
        if not n:
            return
        if self.sep == b"," and all_tokens(chunk, self.hands):
            self.out.write(self._tokened(chunk))
            return
        hands, sep = self.hands, self.sep
        grid = np.empty((n, 3 + 2 * hands), dtype=object)
        line_numbers, inputs, written = self._prepared(chunk)
        grid[:, 0] = line_numbers
        grid[:, 1] = inputs
        classes = self.classes(chunk.strength)
        for j in range(hands):
            grid[:, 2 + 2 * j] = sep * 3
            grid[:, 3 + 2 * j] = b""
            rows = np.flatnonzero(chunk.count > j)
            at = chunk.start[rows] + j
            grid[rows, 2 + 2 * j] = written[at]
            grid[rows, 3 + 2 * j] = classes[at]
        last = 2 + 2 * hands
        grid[:, last] = self.tails(chunk)
        for i, message in chunk.error.items():
            grid[i, last] = sep * 3 + self._cell(message) + b"\n"
        for i in np.flatnonzero(chunk.count > hands).tolist():
            span = chunk.hands_of(i)
            extra = b"".join(written[k] + classes[k] for k in range(span.start + hands, span.stop))
            grid[i, last] = grid[i, last][:-1] + extra + b"\n"
        if chunk.cells is not None and self.past > 0:
            for i, cells in enumerate(chunk.cells):
                if len(cells) > self.width:
                    tail = b"".join(sep + self._cell(c) for c in cells[self.width :])
                    grid[i, last] = grid[i, last][:-1] + tail + b"\n"
        self.out.write(join_rows(grid))

    def prepare(self, chunk: Chunk) -> None:
        """What :meth:`write` needs that depends on the chunk alone, made
        ahead by the reading thread: for plain lines, their byte matrices."""
        if len(chunk) and self.sep == b"," and all_tokens(chunk, self.hands):
            chunk.prepared["csv"] = self._matrices(chunk)

    def _matrices(self, chunk: Chunk) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """Of plain lines: each hand's sorted cards, and each line (its tokens,
        single spaces), as byte matrices."""
        spelled = token_sorted(chunk)
        assert spelled is not None and chunk.tokens is not None
        return spelled, token_text(chunk.tokens.reshape(len(chunk), 5 * self.hands))

    def _tokened(self, chunk: Chunk) -> bytes:
        """The rows of a chunk of lines that each hold the header's hands as
        two-character cards at single spaces (see
        :func:`~fivecard.files.writers.matrix.all_tokens`): such a line
        needs no escaping, and each row's line number, line and first
        hand's sorted cards are one byte matrix row."""
        hands = self.hands
        spelled, line = chunk.prepared.get("csv") or self._matrices(chunk)
        classes = self.classes(chunk.strength)
        grid = np.empty((len(chunk), 2 * hands + 1), dtype=object)
        grid[:, 0] = numbered_rows(chunk.line, b"", [b",", line, b",", spelled[::hands]])
        grid[:, 1] = classes[::hands]
        comma = np.full((len(chunk), 1), ord(","), dtype=np.uint8)
        for j in range(1, hands):
            grid[:, 2 * j] = rows_of(np.hstack([comma, spelled[j::hands]]))
            grid[:, 2 * j + 1] = classes[j::hands]
        grid[:, -1] = self.tails(chunk)
        return join_rows(grid)

    def close(self) -> None:
        self.out.flush()

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "the error column, three cells a hand") + past_note(
            self.past, self.width
        )


def _input_cells(
    chunk: Chunk,
    width: int,
    separator: bytes,
    special: npt.NDArray[np.bool_],
    leading: npt.NDArray[np.bool_],
    fix: Callable[[str], bytes],
    wrap: bytes,
) -> Objects:
    """Per row: its input cells (``width`` of them, padded), each escaped,
    with a separator between them."""
    if chunk.lines is not None:
        return escaped(chunk.lines, special, leading, fix, wrap)
    assert chunk.cells is not None
    out = np.empty(len(chunk), dtype=object)
    out[:] = b""
    for j in range(width):
        values = [c[j].encode("utf-8", "replace") if j < len(c) else b"" for c in chunk.cells]
        column = escaped(values, special, leading, fix, wrap)
        out = out + column if j == 0 else out + separator + column
    return out
