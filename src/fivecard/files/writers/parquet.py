"""Apache Parquet (with the optional ``pyarrow``): typed columns, a row per
input row.

Guarantees: the columns are line, the input's cells, per hand its sorted
cards, category (a dictionary of the ladder's labels), score and strength
(null where a row has fewer hands), then winner(s) and explanation
(dictionaries of the run's outcomes), error, and ``more``: what a row held
past the columns (further hands as ``hand 3: sorted, category, score``,
then cells past the input's columns; :meth:`ParquetWriter.notes` says so).
Text that is not UTF-8 is read with replacement characters, as every
writer reads it. A chunk's Arrow table is made ahead by the reading thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from ...core.columns import class_columns
from ...core.errors import FileError
from ...core.lang import ENGLISH, Language
from ...core.rules import RuleSet
from ...vector.columns import class_arrays
from ..pipeline import Chunk
from .base import WriterBase, overflow_note, past_note, winners_text
from .cards import token_sorted, written_sorted
from .memo import OutcomeTexts
from .order import sort_order

__all__ = ["ParquetWriter"]

I64 = npt.NDArray[np.int64]


class ParquetWriter(WriterBase):
    """Apache Parquet (with the optional ``pyarrow``): a row per input row,
    typed columns: line, the input's cells, per hand its sorted cards,
    category, score and strength, then winner(s), explanation and error."""

    def __init__(
        self, target: IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet, lang: Language = ENGLISH
    ) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise FileError(
                "Parquet output needs pyarrow: pip install 'fivecard[parquet]'"
            ) from None
        super().__init__(columns, hands, rules, lang)
        self.pa = pa
        self.names = ["line", *columns]
        fields = [pa.field("line", pa.int64())] + [pa.field(c, pa.string()) for c in columns]
        label = pa.dictionary(pa.int8(), pa.string())
        for i in range(1, hands + 1):
            fields += [
                pa.field(f"hand {i} sorted", pa.string()),
                pa.field(f"hand {i} category", label),
                pa.field(f"hand {i} score", pa.int16()),
                pa.field(f"hand {i} strength", pa.int32()),
            ]
        fields += [
            pa.field("winner", pa.dictionary(pa.int32(), pa.string())),
            pa.field("explanation", pa.dictionary(pa.int32(), pa.string())),
            pa.field("error", pa.string()),
            # what a row holds past the columns: further hands ("hand 3: sorted,
            # category, score; ..."), then cells past the table's columns
            pa.field("more", pa.string()),
        ]
        self.schema = pa.schema(fields)
        # Dictionary pages only where values repeat (categories, outcomes):
        # trying them on every input line costs more than it saves.
        repeated = [f.name for f in fields if pa.types.is_dictionary(f.type)]
        # Statistics (min and max per page) where a reader filters by them:
        # the numbers; those of free text cost more to make than they save.
        numbers = [f.name for f in fields if pa.types.is_integer(f.type)]
        # Values handed to the encoder 32,768 at a time, not 1,024: a third
        # less time encoding, the same pages.
        self.file = pq.ParquetWriter(
            target,
            self.schema,
            compression="snappy",
            use_dictionary=repeated,
            write_statistics=numbers,
            write_batch_size=1 << 15,
        )
        self.class_arrays = class_arrays(rules)
        self.columns = class_columns(rules)
        self.labels = pa.array([self.label(c) for c in rules.ladder], pa.string())
        self.winners = OutcomeTexts(winners_text)
        self.explanations = OutcomeTexts(self.explanation)

    def _texts(
        self, data: bytes, lengths: I64, valid: npt.NDArray[np.bool_] | None = None, *, ascii: bool = False
    ) -> Any:
        """A string column from UTF-8 bytes laid end to end (``lengths``
        each; ``valid``: False for a null), built from the buffers without a
        Python object per value; bytes that are not UTF-8 are read with
        replacement characters, as every writer does (``ascii``: the bytes
        are known to be ASCII, and are not checked)."""
        pa = self.pa
        n = len(lengths)
        large = len(data) >= 1 << 31
        offsets = np.zeros(n + 1, dtype=np.int64 if large else np.int32)
        np.cumsum(lengths, out=offsets[1:])
        mask = None if valid is None or valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
        nulls = 0 if mask is None else n - int(valid.sum())  # type: ignore[union-attr]
        buffers = [mask, pa.py_buffer(offsets), pa.py_buffer(data)]
        if ascii and not large:
            return pa.Array.from_buffers(pa.string(), n, buffers, null_count=nulls)
        column = pa.Array.from_buffers(pa.large_binary() if large else pa.binary(), n, buffers, null_count=nulls)
        try:
            return column.cast(pa.large_string() if large else pa.string()).cast(pa.string())
        except pa.lib.ArrowInvalid:
            values = column.to_pylist()
            return pa.array([None if v is None else v.decode("utf-8", "replace") for v in values], pa.string())

    def _object_texts(self, values: Sequence[bytes | None]) -> Any:
        """A string column from values (UTF-8 bytes, or None for a null)."""
        lengths = np.fromiter((0 if v is None else len(v) for v in values), dtype=np.int64, count=len(values))
        valid = np.fromiter((v is not None for v in values), dtype=bool, count=len(values))
        return self._texts(b"".join(v for v in values if v is not None), lengths, valid)

    def prepare(self, chunk: Chunk) -> None:
        """The chunk's Arrow table, made ahead by the reading thread (Arrow
        builds its arrays without holding the interpreter)."""
        if len(chunk):
            chunk.prepared["parquet"] = self._table(chunk)

    def write(self, chunk: Chunk) -> None:
        self.measure(chunk)
        if len(chunk):
            self.file.write_table(chunk.prepared.get("parquet") or self._table(chunk))

    def _table(self, chunk: Chunk) -> Any:
        pa = self.pa
        n = len(chunk)
        spelled = token_sorted(chunk)  # (h, 14) bytes, when every hand was read as tokens
        written = written_sorted(chunk, sort_order(chunk.indices)) if spelled is None else None
        arrays: list[Any] = [pa.array(chunk.line)]
        if chunk.lines is not None and self.width == 1:  # plain lines are ASCII
            arrays.append(self._texts(*chunk.joined_lines(), ascii=spelled is not None and not chunk.error))
        else:
            for j in range(self.width):
                cells = [chunk.row_cells(i) for i in range(n)]
                arrays.append(pa.array([c[j] if j < len(c) else None for c in cells], pa.string()))
        for j in range(self.hands):
            has = chunk.count > j
            rows = np.flatnonzero(has)
            hand = chunk.start[rows] + j
            mask = ~has
            strength = np.zeros(n, dtype=np.int64)
            strength[rows] = chunk.strength[hand]
            if spelled is not None:
                every = len(rows) == n == len(spelled) // self.hands  # each row this many hands
                spelled_cells = spelled[j :: self.hands] if every else spelled[hand]
                arrays.append(self._texts(spelled_cells.tobytes(), np.where(has, 14, 0), has, ascii=True))
            else:
                assert written is not None
                sorted_cells = np.full(n, None, dtype=object)
                sorted_cells[rows] = written[hand]
                arrays.append(self._object_texts(sorted_cells.tolist()))
            category = pa.array(np.maximum(self.class_arrays.category[strength], 0), pa.int8(), mask=mask)
            arrays.append(pa.DictionaryArray.from_arrays(category, self.labels))
            arrays.append(pa.array(self.class_arrays.score[strength], pa.int16(), mask=mask))
            arrays.append(pa.array(strength.astype(np.int32), pa.int32(), mask=mask))
        none = chunk.outcome < 0
        index = pa.array(np.where(none, 0, chunk.outcome).astype(np.int32), pa.int32(), mask=none)
        used = int(chunk.outcome.max(initial=-1)) + 1  # the outcomes this chunk may use
        winners = self.winners.arrow(pa, chunk, used)
        explanations = self.explanations.arrow(pa, chunk, used)
        arrays.append(pa.DictionaryArray.from_arrays(index, winners))
        arrays.append(pa.DictionaryArray.from_arrays(index, explanations))
        errors = np.full(n, None, dtype=object)
        for i, message in chunk.error.items():
            errors[i] = message
        arrays.append(pa.array(errors, pa.string()) if chunk.error else pa.nulls(n, pa.string()))
        more = np.full(n, None, dtype=object)
        held = False
        for i in np.flatnonzero(chunk.count > self.hands).tolist():
            held = True
            span = chunk.hands_of(i)
            texts = []
            for k in range(span.start + self.hands, span.stop):
                number = int(chunk.strength[k])
                if written is None:
                    assert spelled is not None
                    spelling = spelled[k].tobytes()
                else:
                    spelling = written[k]
                cards = spelling.decode("utf-8", "replace")
                label, score = self.label(self.columns.category(number)), self.columns.score(number)
                texts.append(f"hand {k - span.start + 1}: {cards}, {label}, {score}")
            more[i] = "; ".join(texts)
        if chunk.cells is not None:
            for i, row_cells in enumerate(chunk.cells):
                if len(row_cells) > self.width:
                    held = True
                    extra = ", ".join(row_cells[self.width :])
                    more[i] = extra if more[i] is None else f"{more[i]}; {extra}"
        arrays.append(pa.array(more, pa.string()) if held else pa.nulls(n, pa.string()))
        return pa.Table.from_arrays(arrays, schema=self.schema)

    def close(self) -> None:
        self.file.close()

    def discard(self) -> None:
        try:
            self.file.close()
        except Exception:  # noqa: BLE001 - nothing is kept anyway
            pass

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "in the 'more' column") + [
            note.replace("they follow the error column", "they are in the 'more' column")
            for note in past_note(self.past, self.width)
        ]
