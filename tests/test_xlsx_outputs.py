"""Every workbook fivecard writes is one Excel opens: each output (``solve
-o x.xlsx``, ``grid -o x.xlsx``) stays within
Excel's limits (1,048,576 rows and 16,384 columns a sheet, 32,767 characters
a cell, sheet names of at most 31 characters without ``[]:*?/\\``) and holds
macros only under ``.xlsm``; past a limit the writer says so up front, and
leaves no file. A test per limit and writer; every file made is checked by
:func:`assert_excel_opens`."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from fivecard.bulk import writers
from fivecard.bulk.grid import GridRow, grid_rows, write_grid
from fivecard.bulk.workbook import MAX_ROWS, open_workbook
from fivecard.bulk.writers import (
    XLSX_CELL,
    XLSX_COLUMNS,
    XLSX_SHEET_NAME,
    XlsxWriter,
    check_workbook,
    save_workbook,
)
from fivecard.cli import main
from fivecard.core.rules import STANDARD
from fivecard.errors import FileError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
_XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
_XLSM_TYPE = "application/vnd.ms-excel.sheet.macroEnabled.main+xml"


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def assert_excel_opens(path: Path) -> None:
    """What Excel checks before it opens a file, checked of a file written:
    the workbook's content type is the one its name says (macro-enabled for
    ``.xlsm`` only) and macros are only there; every sheet's name, rows,
    columns and cells within the limits; and fivecard reads it back."""
    with zipfile.ZipFile(path) as archive:
        types = archive.read("[Content_Types].xml").decode()
        macros = [n for n in archive.namelist() if n.lower().startswith("xl/vba")]
    if path.suffix == ".xlsm":
        assert _XLSM_TYPE in types and _XLSX_TYPE not in types
    else:
        assert path.suffix == ".xlsx" and _XLSX_TYPE in types and _XLSM_TYPE not in types and not macros
    assert "template" not in types
    book = openpyxl.load_workbook(path)  # a cell past XFD or row 1,048,576 is an error here
    for sheet in book.worksheets:
        title = sheet.title
        assert 0 < len(title) <= XLSX_SHEET_NAME and not set(title) & set("[]:*?/\\"), title
        assert not title.startswith("'") and not title.endswith("'"), title
        assert sheet.max_row <= MAX_ROWS and sheet.max_column <= XLSX_COLUMNS, title
        for row in sheet.iter_rows():
            for cell in row:
                assert not isinstance(cell.value, str) or len(cell.value) <= XLSX_CELL, cell.coordinate
    with open(path, "rb") as handle:
        workbook = open_workbook(handle)
        try:
            for title in workbook.sheetnames:
                _, records = workbook.rows(title)
                for record in records:  # a damaged part is a FileError; a row past the widest table, an error row
                    assert record.error is None or "the widest table read" in record.error, (title, record)
        finally:
            workbook.close()


def test_solve_writes_a_workbook_excel_opens(tmp_path: Path) -> None:
    code, _, _ = run(["solve", str(EXAMPLES / "showdowns.csv"), "-o", str(tmp_path / "out.xlsx")])
    assert code in (0, 1)  # the example holds error rows
    assert_excel_opens(tmp_path / "out.xlsx")


def test_solve_cuts_a_cell_past_excels_limit_and_says_so(tmp_path: Path) -> None:
    long = "x" * (XLSX_CELL + 5_000)
    path = tmp_path / "long.csv"
    path.write_text(f"Round,Player 1,Player 2\n{long},AS AH 7C 4D 2S,KS KH 7D 4C 2D\n", encoding="utf-8")
    code, _, err = run(["solve", str(path), "-o", str(tmp_path / "out.xlsx")])
    assert code == 0
    assert "fivecard: note: 1 text longer than a workbook cell holds (32,767 characters) cut, ending in '…'" in err
    assert_excel_opens(tmp_path / "out.xlsx")
    cell = openpyxl.load_workbook(tmp_path / "out.xlsx")["fivecard"]["B2"].value
    assert isinstance(cell, str) and len(cell) == XLSX_CELL and cell.endswith("…")


def test_solve_refuses_a_workbook_wider_than_excel_up_front(tmp_path: Path) -> None:
    columns = [f"c{i}" for i in range(XLSX_COLUMNS - 9)]  # a line, then three cells a hand and three more
    with pytest.raises(FileError, match=r"would need 16,385 columns, past XFD, Excel's last \(16,384\)"):
        XlsxWriter(io.BytesIO(), columns, 2, STANDARD)
    XlsxWriter(io.BytesIO(), columns[:-1], 2, STANDARD).discard()  # 16,384 columns fit


def test_solves_sheets_past_excels_rows_are_named_as_excel_allows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writers, "MAX_ROWS", 3)
    code, _, _ = run(["solve", str(EXAMPLES / "showdowns.csv"), "-o", str(tmp_path / "out.xlsx")])
    assert code in (0, 1)
    book = openpyxl.load_workbook(tmp_path / "out.xlsx")
    assert len(book.sheetnames) >= 2 and all(s.max_row <= 3 for s in book.worksheets)
    assert_excel_opens(tmp_path / "out.xlsx")


# --- grid -o x.xlsx (a workbook held whole) -------------------------------------------------------


def test_grid_writes_a_workbook_excel_opens(tmp_path: Path) -> None:
    code, _, _ = run(["grid", "-o", str(tmp_path / "grid.xlsx")])
    assert code == 0
    assert_excel_opens(tmp_path / "grid.xlsx")


def test_grid_refuses_a_cell_past_excels_limit_and_writes_nothing(tmp_path: Path) -> None:
    rows = [*grid_rows()[:3], GridRow("long", ("AS AH 7C 4D 2S", "KS KH 7D 4C 2D"), "x" * (XLSX_CELL + 1))]
    with pytest.raises(FileError, match=r"would not open in Excel: cell D5 of sheet 'Grid' holds 32,768 characters"):
        write_grid(str(tmp_path / "grid.xlsx"), rows)
    assert list(tmp_path.iterdir()) == []
    write_grid(str(tmp_path / "grid.csv"), rows)  # CSV has no such limit
    assert len(list(csv.reader((tmp_path / "grid.csv").read_text(encoding="utf-8").splitlines()))) == 5


# --- the checks themselves, a limit at a time -------------------------------------------------------


_TITLE = "_WorkbookChild__title"  # a sheet's name as openpyxl keeps it (set past its own checks)


def _book() -> Any:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Sheet"
    sheet.append(["a", "b"])
    return book


def _past_the_last_row(sheet: Any) -> None:
    sheet._current_row = MAX_ROWS  # openpyxl's append does not check (its cell() does)
    sheet.append(["x"])


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda b: b.active.cell(row=1, column=XLSX_COLUMNS + 1, value="x"), r"reaches column XFE \(16,385\)"),
        (lambda b: _past_the_last_row(b.active), r"has 1,048,577 rows"),
        (lambda b: setattr(b.active["A2"], "_value", "x" * (XLSX_CELL + 1)), r"cell A2 .* holds 32,768"),
        (lambda b: setattr(b.active, _TITLE, "x" * 32), r"has a name of 32 characters, and Excel allows 31"),
        (lambda b: setattr(b.active, _TITLE, "Q1/Q2"), r"has '/' in its name"),
        (lambda b: setattr(b.active, _TITLE, "'quoted'"), r"starts or ends its name with '"),
        (lambda b: setattr(b, "vba_archive", zipfile.ZipFile(io.BytesIO(), "a")), r"it holds macros, which only"),
    ],
)
def test_each_limit_is_refused_before_a_byte_is_written(spoil: Callable[[Any], Any], message: str) -> None:
    book = _book()
    check_workbook(book, "out.xlsx")
    spoil(book)
    stream = io.BytesIO()
    with pytest.raises(FileError, match=r"'out\.xlsx' would not open in Excel: .*" + message):
        save_workbook(book, stream, "out.xlsx")
    assert stream.getvalue() == b""
    if book.vba_archive is not None:
        book.vba_archive.close()


def test_a_workbook_named_xlsm_must_be_macro_enabled() -> None:
    with pytest.raises(FileError, match="a workbook named .xlsm holds macros, and this one is not macro-enabled"):
        check_workbook(_book(), "out.xlsm")
    book = _book()
    with zipfile.ZipFile(io.BytesIO(), "a") as archive:
        book.vba_archive = archive
        check_workbook(book, "out.xlsm")


def test_a_template_is_saved_as_a_workbook(tmp_path: Path) -> None:
    book = _book()
    book.template = True
    with open(tmp_path / "out.xlsx", "wb") as handle:
        save_workbook(book, handle, str(tmp_path / "out.xlsx"))
    assert_excel_opens(tmp_path / "out.xlsx")
