"""A workbook ready to hand in, streamed (openpyxl's write-only mode).

Guarantees: the columns are CSV's (:func:`~fivecard.files.writers.base.result_header`,
the steps of the ModelOff 2012 case named: ``Step 1: hand 1 sorted`` ...);
numbers (line, round, score, a single winner) are number cells and every
text a text cell, never a formula; control characters show as their
pictures; the workbook stays within what Excel opens
(:mod:`~fivecard.files.writers.excel`): a table wider than
:data:`~fivecard.files.writers.excel.XLSX_COLUMNS` is refused up front, a
text longer than a cell holds is cut (and :meth:`XlsxWriter.notes` says
so), and past :data:`~fivecard.files.writers.excel.MAX_ROWS` rows the rows
go on in another sheet (``fivecard (2)`` ...), each with the header. The
header row is bold and frozen, the columns sized to their contents.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from typing import IO, Any, Final

from ...core.errors import FileError
from ...core.lang import ENGLISH, Language
from ...core.rules import RuleSet
from ..pipeline import Chunk
from ..rows import column_letter
from .base import WriterBase, overflow_note, past_note, result_header, winners_text
from .cards import written_sorted
from .cells import CONTROL, XLSX_CELL, cut_text, sheet_text
from .excel import MAX_ROWS, MEASURED_ROWS, XLSX_COLUMNS, column_widths, fitted_widths, text_cell
from .memo import PerOutcome, PerStrength
from .order import sort_order

__all__ = ["XlsxWriter"]

_PER_HAND: Final = 3  # cells per hand: sorted cards, category, score
_NUMBER: Final = re.compile(r"0|[1-9][0-9]{0,14}")


def _sheet_value(text: str) -> str | int:
    """An input cell for a workbook: a whole number of up to 15 digits (a
    round, an id) as a number, any other text as it is."""
    bare = text.strip() if text[:1].isspace() or text[-1:].isspace() else text
    return int(bare) if _NUMBER.fullmatch(bare) else text


class XlsxWriter(WriterBase):
    """A workbook ready to hand in: the input columns, then the steps of the
    ModelOff 2012 case for each hand (1: sorted cards, 2: category and
    score) and per row (3: winner) with the explanation. Numbers (line,
    round, score, a single winner) are number cells; every text is a text
    cell (never a formula). The header row is bold and frozen, the columns
    sized to their contents. Past a sheet's 1,048,576 rows the rows go on in
    another sheet (``fivecard (2)`` ...), each with the header."""

    def __init__(
        self, target: IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet, lang: Language = ENGLISH
    ) -> None:
        import openpyxl  # deferred: only .xlsx work pays for importing it

        super().__init__(columns, hands, rules, lang)
        self.target = target
        self.book = openpyxl.Workbook(write_only=True)
        header = result_header(columns, hands)
        if len(header) > XLSX_COLUMNS:
            raise FileError(
                f"a workbook of {len(columns):,} input columns and {hands:,} hands would need "
                f"{len(header):,} columns, past {column_letter(XLSX_COLUMNS - 1)}, Excel's last "
                f"({XLSX_COLUMNS:,}): write CSV, JSON Lines or Parquet"
            )
        steps = {"sorted": "Step 1: ", "category": "Step 2: ", "winner": "Step 3: "}
        self.header = [next((steps[k] + h for k in steps if h.endswith(k)), h) for h in header]
        self.cut = 0  # texts cut to what a workbook cell holds
        self.widths: list[int] = []  # of the columns: set from the first rows, before they stream
        self.sheets = 0
        self.rows = MAX_ROWS  # a sheet is started before the first row
        self.classes = PerStrength(rules, self._class_cells)
        self.tails = PerOutcome(
            lambda o: (o.winners[0] + 1 if len(o.winners) == 1 else winners_text(o), self._text(self.explanation(o))),
            ("", ""),
        )

    def _class_cells(self, strength: int) -> tuple[str, int]:
        columns = self.classes.columns
        return self.label(columns.category(strength)), columns.score(strength)

    def _new_sheet(self) -> None:
        self._open_sheet()
        self._start_sheet()

    def _open_sheet(self) -> None:
        """A new sheet, with no row yet (its cells can be made)."""
        self.sheets += 1
        self.sheet = self.book.create_sheet("fivecard" if self.sheets == 1 else f"fivecard ({self.sheets})")
        self.sheet.freeze_panes = "A2"

    def _start_sheet(self) -> None:
        """The sheet's widths, then its header row (a streamed sheet keeps only widths set before its first row)."""
        from openpyxl.styles import Font

        column_widths(self.sheet, self.widths)
        bold = Font(bold=True)
        self.sheet.append([self._cell(text, font=bold) for text in self.header])
        self.rows = 1

    def _cell(self, value: str, font: Any = None) -> Any:
        """A text cell (cut to what a cell holds, see :meth:`_text`)."""
        from openpyxl.cell import WriteOnlyCell

        cell = text_cell(WriteOnlyCell(self.sheet), self._text(value))
        if font is not None:
            cell.font = font
        return cell

    def _text(self, value: str) -> str:
        """A text as a cell shows it: control characters as their pictures,
        cut to what a cell holds (Excel's limit: counted, and said in the
        notes)."""
        text = sheet_text(value)
        if len(text) > XLSX_CELL:
            self.cut += 1
        return cut_text(text)

    def _value(self, value: Any) -> Any:
        """A text that a workbook would take for a formula is a text cell."""
        if isinstance(value, str) and (value.startswith("=") or CONTROL.search(value) or len(value) > XLSX_CELL):
            return self._cell(value)
        return value

    def write(self, chunk: Chunk) -> None:
        self.measure(chunk)
        if not len(chunk):
            return
        rows = self._rows(chunk)
        if self.sheets == 0:  # the widths, from the header and the first rows, before a row streams
            self._open_sheet()
            head = list(itertools.islice(rows, MEASURED_ROWS))
            self.widths = fitted_widths([self.header, *(row[: len(self.header)] for row in head)])
            self._start_sheet()
            rows = itertools.chain(head, rows)
        for row in rows:
            if self.rows >= MAX_ROWS:
                self._new_sheet()
            self.sheet.append(row)
            self.rows += 1

    def _rows(self, chunk: Chunk) -> Iterator[list[Any]]:
        """The chunk's rows as the sheet's cells, in order."""
        order = sort_order(chunk.indices)
        written = [t.decode("utf-8", "replace") for t in written_sorted(chunk, order).tolist()]
        classes = self.classes(chunk.strength).tolist()
        tails = self.tails(chunk).tolist()
        starts = chunk.start.tolist()
        counts = chunk.count.tolist()
        lines = chunk.line.tolist()
        value = self._value
        for i in range(len(chunk)):
            cells = chunk.row_cells(i)
            row: list[Any] = [lines[i]]
            row += [value(_sheet_value(c)) for c in cells[: self.width]]
            row += [""] * (1 + self.width - len(row))
            per_hand: list[Any] = []
            for k in range(starts[i], starts[i] + counts[i]):
                name, score = classes[k]
                per_hand += [value(written[k]), name, score]
            split = _PER_HAND * self.hands
            row += per_hand[:split] + [""] * (split - len(per_hand[:split]))
            winner, explanation = tails[i]
            row += [winner, explanation, value(chunk.error.get(i, ""))]
            row += per_hand[split:] + [value(c) for c in cells[self.width :]]
            if len(row) > XLSX_COLUMNS:
                raise FileError(
                    f"line {lines[i]}: its {len(row):,} cells in the workbook would reach column "
                    f"{column_letter(len(row) - 1)}, past {column_letter(XLSX_COLUMNS - 1)}, Excel's last "
                    f"({XLSX_COLUMNS:,}): write CSV, JSON Lines or Parquet"
                )
            yield row

    def close(self) -> None:
        import zipfile

        from openpyxl.writer.excel import ExcelWriter

        if self.sheets == 0:
            self.widths = fitted_widths([self.header])
            self._new_sheet()
        archive = zipfile.ZipFile(self.target, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
        try:
            ExcelWriter(self.book, archive).save()
        except BaseException:
            try:  # a failed zip must not try again when it is collected
                archive.close()
            except Exception:  # noqa: BLE001 - the first error is the one to report
                pass
            raise

    def discard(self) -> None:
        """Close the sheets' temporary files without writing a workbook."""
        for sheet in self.book.worksheets:
            try:
                sheet.close()
            except Exception:  # noqa: BLE001 - openpyxl's own state; nothing is written anyway
                pass

    def notes(self) -> list[str]:
        notes = overflow_note(self.widest, self.hands, "the error column, three cells a hand")
        notes += past_note(self.past, self.width)
        if self.cut:
            notes.append(
                f"{self.cut:,} text{'s' if self.cut != 1 else ''} longer than a workbook cell holds "
                f"({XLSX_CELL:,} characters) cut, ending in '…'"
            )
        if self.sheets > 1:
            notes.append(
                f"{self.sheets} sheets: a sheet holds {MAX_ROWS:,} rows, so the rows go on "
                f"in 'fivecard (2)' and after"
            )
        return notes
