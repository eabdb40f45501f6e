"""Workbooks that Excel opens: its limits, the check of a workbook against
them, the one saving function, and the pieces every workbook fivecard
writes is made of (a text cell, the columns' widths, fitted to the header
and the first rows and set before a streamed sheet's first row).

Guarantees: every workbook fivecard holds whole (the grid, a marked copy)
is saved through :func:`save_workbook`, which checks it first
(:func:`check_workbook`): no sheet past :data:`MAX_ROWS` rows or
:data:`XLSX_COLUMNS` columns, no cell past :data:`XLSX_CELL` characters, no
sheet name Excel refuses, and macros only in a file named ``.xlsm``; a
workbook that would break one is refused with a
:class:`~fivecard.core.errors.FileError` before anything is written. The
streamed workbook of ``solve`` (:class:`~fivecard.files.writers.xlsx.XlsxWriter`)
keeps within the same limits as it goes. A text written by
:func:`text_cell` is a text cell, never a formula.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import IO, Any, Final

from ...core.errors import PATH_QUOTE, FileError, quote
from ..rows import column_letter
from ..workbook import MAX_ROWS
from .cells import XLSX_CELL, check_text, sheet_text

__all__ = [
    "MAX_ROWS",
    "XLSX_CELL",
    "XLSX_COLUMNS",
    "XLSX_SHEET_NAME",
    "check_workbook",
    "save_workbook",
    "text_cell",
    "column_widths",
    "fitted_widths",
    "MOST_WIDTH",
    "MEASURED_ROWS",
]

#: What Excel opens: columns of a sheet (A ... XFD; rows: :data:`MAX_ROWS`;
#: characters of a cell: :data:`XLSX_CELL`), characters of a sheet's name
#: (and those a name may not hold, nor start or end with: ``'``).
XLSX_COLUMNS: Final = 16_384
XLSX_SHEET_NAME: Final = 31
_SHEET_NAME_BANNED: Final = frozenset("[]:*?/\\")


def text_cell(cell: Any, text: str) -> Any:
    """Put ``text`` in an openpyxl cell as a text cell (its control
    characters as pictures, :func:`~fivecard.files.writers.cells.sheet_text`):
    never a formula, even when it starts with ``=``. Returns the cell."""
    cell.value = sheet_text(text)
    cell.data_type = "s"
    return cell


#: The widest a column is made, in characters (a long explanation wraps
#: in Excel's cell, not across the screen).
MOST_WIDTH: Final = 60
#: The rows a streamed sheet's widths are measured on (its first rows).
MEASURED_ROWS: Final = 200


def fitted_widths(rows: Iterable[Sequence[Any]], most: int = MOST_WIDTH) -> list[int]:
    """The characters each column needs to show ``rows`` (the header, then
    the rows or the first of them), at most ``most``: what
    :func:`column_widths` takes. A cell is measured as its text (a number by
    its digits; an openpyxl cell by its value).

    >>> fitted_widths([["line", "hand 1 sorted"], [12, "AS KS QS JS TS"], [7, "x" * 99]])
    [4, 60]
    """
    widths: list[int] = []
    for row in rows:
        for j, value in enumerate(row):
            value = getattr(value, "value", value)
            size = min(len(value if isinstance(value, str) else "" if value is None else str(value)), most)
            if j >= len(widths):
                widths.append(size)
            elif size > widths[j]:
                widths[j] = size
    return widths


def column_widths(sheet: Any, widths: Sequence[int]) -> None:
    """Size a sheet's columns, from the first: each the characters of
    ``widths`` (see :func:`fitted_widths`) and two more. A streamed sheet
    (openpyxl's write-only mode) writes its columns' widths with its first
    row and drops any set later, so there they are set before any row is
    appended, from what is known then (the header and the first rows, read
    ahead); setting them later is a :class:`RuntimeError`."""
    from openpyxl.utils import get_column_letter

    if getattr(sheet, "_writer", None) is not None:
        raise RuntimeError("a streamed sheet's column widths are set before its first row")
    for j, width in enumerate(widths, 1):
        sheet.column_dimensions[get_column_letter(j)].width = width + 2


def _sheet_name_problem(title: str) -> str | None:
    if not title:
        return "a sheet has no name"
    if len(title) > XLSX_SHEET_NAME:
        return f"sheet {quote(title)} has a name of {len(title):,} characters, and Excel allows {XLSX_SHEET_NAME}"
    banned = "".join(sorted(set(title) & _SHEET_NAME_BANNED))
    if banned:
        return f"sheet {quote(title)} has {quote(banned)} in its name, which Excel does not allow ([]:*?/\\)"
    if title.startswith("'") or title.endswith("'"):
        return f"sheet {quote(title)} starts or ends its name with ', which Excel does not allow"
    return None


def check_workbook(book: Any, name: str) -> None:
    """Raise :class:`~fivecard.core.errors.FileError` where an openpyxl workbook
    (one held whole, not write-only) saved as ``name`` would be a file that
    Excel refuses to open: a sheet past :data:`MAX_ROWS` rows or
    :data:`XLSX_COLUMNS` columns, a cell of more than :data:`XLSX_CELL`
    characters, a sheet's name longer than :data:`XLSX_SHEET_NAME` or
    holding ``[]:*?/\\``, or macros in a file not named ``.xlsm`` (Excel
    opens a file only when its name says what it holds)."""
    problem: str | None = None
    macros = getattr(book, "vba_archive", None) is not None
    if macros != name.lower().endswith(".xlsm"):
        problem = (
            "it holds macros, which only a workbook named .xlsm may hold"
            if macros
            else "a workbook named .xlsm holds macros, and this one is not macro-enabled"
        )
    for sheet in book.worksheets + getattr(book, "chartsheets", []):
        problem = problem or _sheet_name_problem(sheet.title)
    for sheet in book.worksheets:
        if problem is not None:
            break
        if sheet.max_row > MAX_ROWS:
            problem = f"sheet {quote(sheet.title)} has {sheet.max_row:,} rows, and Excel's sheets hold {MAX_ROWS:,}"
        elif sheet.max_column > XLSX_COLUMNS:
            problem = (
                f"sheet {quote(sheet.title)} reaches column {column_letter(sheet.max_column - 1)} "
                f"({sheet.max_column:,}), past {column_letter(XLSX_COLUMNS - 1)}, Excel's last ({XLSX_COLUMNS:,})"
            )
        else:
            for cell in sheet._cells.values():
                if isinstance(cell.value, str):
                    check_text(cell.value, name, f"cell {cell.coordinate} of sheet {quote(sheet.title)}")
    if problem is not None:
        raise FileError(f"{quote(name, PATH_QUOTE)} would not open in Excel: {problem}")


def save_workbook(book: Any, stream: IO[bytes], name: str) -> None:
    """Save an openpyxl workbook (held whole) to ``stream`` as the file
    ``name`` (``.xlsx``, or ``.xlsm`` for one with macros), checked first
    (:func:`check_workbook`): every workbook fivecard writes whole goes
    through here; a streamed one is
    :class:`~fivecard.files.writers.xlsx.XlsxWriter`'s."""
    book.template = False  # a template's content type under .xlsx is refused too
    check_workbook(book, name)
    book.save(stream)
