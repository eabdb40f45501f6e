"""Writing a columnar result (:class:`~fivecard.files.pipeline.Chunk`): one
writer per format, each formatting whole columns at once, all driven
through one protocol (:class:`~fivecard.files.writers.base.Writer`):
:func:`make_writer` picks the writer of a format.

The formats: :mod:`~fivecard.files.writers.text` (the table for people),
:mod:`~fivecard.files.writers.csv`, :mod:`~fivecard.files.writers.jsonl`,
:mod:`~fivecard.files.writers.xlsx`, :mod:`~fivecard.files.writers.parquet`;
and the writers of ``classify -`` (:mod:`~fivecard.files.writers.classify`),
``deal`` (:mod:`~fivecard.files.writers.deal`) and ``strategy -o``
(:mod:`~fivecard.files.writers.strategy`). What they share: cells made
safe (:mod:`~fivecard.files.writers.cells`), workbooks within Excel's
limits (:mod:`~fivecard.files.writers.excel`), cards spelled
(:mod:`~fivecard.files.writers.cards`) and put in order
(:mod:`~fivecard.files.writers.order`), the hands' JSON objects
(:mod:`~fivecard.files.writers.objects`), pieces made once per distinct
value (:mod:`~fivecard.files.writers.memo`), rows as byte matrices
(:mod:`~fivecard.files.writers.matrix`), and the run's totals
(:mod:`~fivecard.files.writers.tally`).

What a row's cells hold is made once per distinct value and reused: a
strength's category, score and description (read from the class's facts,
:mod:`fivecard.core.columns`), an outcome's winners and explanation, a
card's spelling. The cells a CSV file or a workbook receives are inert: no
cell is ever a formula, and control characters show as their pictures.
``solve`` gives the writers no row wider than the header (such a row is an
error row: :meth:`~fivecard.files.pipeline.Chunk.limited`, and a table's
cells past its columns, :mod:`~fivecard.files.sources`), so every row has
the header's cells; a writer driven otherwise keeps every named column in
place, the extra hands' cells after the error column, and
:meth:`Writer.notes` says so.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, Final

from ...core.report import Painter
from ...core.rules import RuleSet
from ..formats import BINARY_FORMATS, OUTPUT_FORMATS, output_format
from .base import Writer, WriterBase, overflow_note, past_note, result_header
from .cells import XLSX_CELL, check_text, csv_field, csv_line, cut_text, inert, sheet_text
from .tally import Tally

if TYPE_CHECKING:
    from .classify import ClassifyWriter
    from .csv import CsvWriter
    from .deal import DealWriter
    from .excel import (
        MAX_ROWS, XLSX_COLUMNS, XLSX_SHEET_NAME, check_workbook, column_widths, fitted_widths, save_workbook, text_cell,
    )
    from .jsonl import JsonlWriter
    from .parquet import ParquetWriter
    from .strategy import DEALER_COLUMNS, STRATEGY_COLUMNS, check_strategy_path, write_strategy
    from .text import TextWriter
    from .xlsx import XlsxWriter

#: The module of each name that loads when the name is first asked for: a
#: run loads the writer of its format, not every format's (nor what the
#: deal and strategy writers load).
_MODULE_OF: Final = {
    name: module
    for module, names in (
        ("classify", ["ClassifyWriter"]),
        ("csv", ["CsvWriter"]),
        ("deal", ["DealWriter"]),
        ("excel", ["MAX_ROWS", "XLSX_COLUMNS", "XLSX_SHEET_NAME", "check_workbook", "column_widths", "save_workbook",
                   "text_cell", "fitted_widths"]),
        ("jsonl", ["JsonlWriter"]),
        ("parquet", ["ParquetWriter"]),
        ("strategy", ["DEALER_COLUMNS", "STRATEGY_COLUMNS", "check_strategy_path", "write_strategy"]),
        ("text", ["TextWriter"]),
        ("xlsx", ["XlsxWriter"]),
    )
    for name in names
}  # fmt: skip


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Writer",
    "WriterBase",
    "make_writer",
    "OUTPUT_FORMATS",
    "BINARY_FORMATS",
    "output_format",
    "TextWriter",
    "CsvWriter",
    "JsonlWriter",
    "XlsxWriter",
    "ParquetWriter",
    "ClassifyWriter",
    "DealWriter",
    "Tally",
    "result_header",
    "overflow_note",
    "past_note",
    "inert",
    "csv_field",
    "csv_line",
    "sheet_text",
    "check_text",
    "cut_text",
    "MAX_ROWS",
    "XLSX_COLUMNS",
    "XLSX_CELL",
    "XLSX_SHEET_NAME",
    "check_workbook",
    "save_workbook",
    "text_cell",
    "column_widths",
    "fitted_widths",
    "STRATEGY_COLUMNS",
    "DEALER_COLUMNS",
    "check_strategy_path",
    "write_strategy",
]


def make_writer(
    fmt: str,
    *,
    binary: IO[bytes],
    columns: Sequence[str],
    hands: int,
    painter: Painter,
    rules: RuleSet,
    bom: bool = False,
    header: bool = True,
    delimiter: str = ",",
    labels: Sequence[tuple[int, str]] = (),
    width: int | None = None,
) -> Writer:
    """The writer of a format (one of :data:`OUTPUT_FORMATS`), writing to
    ``binary``. ``header``: write the header (not for a part of the rows
    that follows another, see :mod:`fivecard.files.parallel`; text, CSV and
    JSON Lines only). ``painter.lang``: the language of the words for
    people in every format's cells. ``delimiter``: CSV's (the input's, for CSV input). ``labels`` and
    ``width``: the text table's (see :class:`~fivecard.files.writers.text.TextWriter`)."""
    if fmt == "xlsx":
        from .xlsx import XlsxWriter

        return XlsxWriter(binary, columns, hands, rules, painter.lang)
    if fmt == "parquet":
        from .parquet import ParquetWriter

        return ParquetWriter(binary, columns, hands, rules, painter.lang)
    if fmt == "jsonl":
        from .jsonl import JsonlWriter

        return JsonlWriter(binary, rules, painter.lang)
    if fmt == "csv":
        from .csv import CsvWriter

        return CsvWriter(binary, columns, hands, rules, bom=bom, header=header, delimiter=delimiter, lang=painter.lang)
    from .text import TextWriter

    return TextWriter(binary, hands, painter, rules, header=header, labels=labels, width=width)
