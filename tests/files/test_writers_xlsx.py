"""Every workbook fivecard writes is one Excel opens: each output (``solve
-o x.xlsx``, ``mark -o x.xlsx`` / ``.xlsm``, ``grid -o x.xlsx``) stays within
Excel's limits (1,048,576 rows and 16,384 columns a sheet, 32,767 characters
a cell, sheet names of at most 31 characters without ``[]:*?/\\``) and holds
macros only under ``.xlsm``; past a limit the writer says so up front, and
leaves no file. A test per limit and writer; every file made is checked by
:func:`assert_excel_opens`, and a scan of the source finds every place that
saves a workbook, so that a new writer cannot skip the checks."""

from __future__ import annotations

import ast
import csv
import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from fivecard.files import writers
from fivecard.modeloff.grid import GridRow, grid_rows, write_grid
from fivecard.files.workbook import MAX_ROWS, open_workbook
from fivecard.files.writers import (
    XLSX_CELL,
    XLSX_COLUMNS,
    XLSX_SHEET_NAME,
    XlsxWriter,
    check_workbook,
    save_workbook,
)
from fivecard.cli import main
from fivecard.core.rules import STANDARD
from fivecard.core.errors import FileError

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src" / "fivecard"
EXAMPLES = ROOT / "examples"
HEADER = ["Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"]
ROW = ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "2"]
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


def answers_workbook(path: Path, rows: list[list[Any]] | None = None, *, title: str = "Answers") -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title
    for row in [HEADER, *(rows or [ROW, ROW])]:
        sheet.append(row)
    book.save(path)
    return path


def macro_workbook(path: Path) -> Path:
    """A workbook with macros (a VBA project part and its content type and
    relationship, as Excel writes them), named as given."""
    plain = answers_workbook(path.with_suffix(".plain.xlsx"))
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "[Content_Types].xml":
                data = data.replace(_XLSX_TYPE.encode(), _XLSM_TYPE.encode()).replace(
                    b"</Types>", b'<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/></Types>'
                )
            if item.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdVba" Type="http://schemas.microsoft.com/office/2006/relationships/'
                    b'vbaProject" Target="vbaProject.bin"/></Relationships>',
                )
            out.writestr(item, data)
        out.writestr("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0 a VBA project")
    plain.unlink()
    return path


def refused(argv: list[str], folder: Path, message: str) -> None:
    """The command stops with one line that says ``message`` and writes nothing."""
    before = set(folder.iterdir())
    code, out, err = run(argv)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("fivecard: error: ") and re.search(message, err), err
    assert set(folder.iterdir()) == before


# --- every place that saves a workbook --------------------------------------------------------

#: Where a workbook is saved: the one function for workbooks held whole, and
#: the streaming writer. Each checks Excel's limits.
SAVERS = {("files/writers/excel.py", "save_workbook"), ("files/writers/xlsx.py", "XlsxWriter.close")}
#: Who saves a workbook held whole: each is walked by the tests below.
WHOLE_WRITERS = {("modeloff/grid.py", "write_grid"), ("modeloff/mark.py", "MarkedFile.commit")}


def _calls(name: Callable[[ast.Call], bool]) -> set[tuple[str, str]]:
    """The (module, function) of every call the predicate picks in the source."""
    found = set()
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(SOURCE))

        def visit(node: ast.AST, scope: list[str]) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    visit(child, [*scope, child.name])
                    continue
                if isinstance(child, ast.Call) and name(child):
                    found.add((where, ".".join(scope)))
                visit(child, scope)

        visit(tree, [])
    return found


def _called(call: ast.Call, *names: str) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr in names) or (isinstance(func, ast.Name) and func.id in names)


@pytest.mark.slow
def test_every_workbook_is_saved_through_the_checked_savers() -> None:
    openpyxl_modules = {
        str(p.relative_to(SOURCE)) for p in SOURCE.rglob("*.py") if "openpyxl" in p.read_text(encoding="utf-8")
    }
    saves = {where for where in _calls(lambda c: _called(c, "save", "ExcelWriter")) if where[0] in openpyxl_modules}
    assert saves == SAVERS, "save workbooks through writers.save_workbook (or XlsxWriter), which check Excel's limits"
    assert _calls(lambda c: _called(c, "save_workbook")) == WHOLE_WRITERS, "walk the new writer in this file's tests"
    assert {w for w in _calls(lambda c: _called(c, "XlsxWriter")) if w[0] != "files/writers/xlsx.py" or w[1]} == {
        ("files/writers/__init__.py", "make_writer")
    }


# --- solve -o x.xlsx (the streaming writer) ------------------------------------------------------


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
    monkeypatch.setattr(writers.xlsx, "MAX_ROWS", 3)
    code, _, _ = run(["solve", str(EXAMPLES / "showdowns.csv"), "-o", str(tmp_path / "out.xlsx")])
    assert code in (0, 1)
    book = openpyxl.load_workbook(tmp_path / "out.xlsx")
    assert len(book.sheetnames) >= 2 and all(s.max_row <= 3 for s in book.worksheets)
    assert_excel_opens(tmp_path / "out.xlsx")


def sheet_widths(path: Path) -> dict[str, dict[int, float]]:
    """Per sheet (by name), the widths its XML's ``<cols>`` gives each column (1-based)."""
    book = openpyxl.load_workbook(path)
    with zipfile.ZipFile(path) as archive:
        widths = {}
        for number, title in enumerate(book.sheetnames, 1):
            xml = archive.read(f"xl/worksheets/sheet{number}.xml").decode()
            assert xml.count("<cols>") == 1, f"sheet {title} has no <cols>"
            widths[title] = {
                int(m["min"]): float(m["width"])
                for m in re.finditer(r'<col (?=[^>]*width="(?P<width>[\d.]+)")(?=[^>]*min="(?P<min>\d+)")', xml)
            }
    return widths


def assert_columns_fit(path: Path) -> None:
    """Every sheet's every column is as wide as its header and the longest
    cell of its first rows, two characters more, and at most 62."""
    book = openpyxl.load_workbook(path)
    for title, widths in sheet_widths(path).items():
        sheet = book[title]
        header = [c.value for c in sheet[1]]
        assert sorted(widths) == list(range(1, len(header) + 1)), title
        for j in range(1, len(header) + 1):
            values = [sheet.cell(row=r, column=j).value for r in range(1, min(sheet.max_row, 201) + 1)]
            longest = max(len(str(v)) for v in values if v is not None)
            assert widths[j] == min(longest, 60) + 2, (title, header[j - 1])


def test_solve_sizes_its_streamed_columns_to_the_header_and_first_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("showdowns.csv", "rulebook-showdowns.txt"):
        out = tmp_path / f"{name}.xlsx"
        code, _, _ = run(["solve", str(EXAMPLES / name), "-o", str(out)])
        assert code in (0, 1)
        assert_columns_fit(out)
    explanation = sheet_widths(tmp_path / "rulebook-showdowns.txt.xlsx")["fivecard"]
    assert max(explanation.values()) == 62  # a long explanation wraps, not the sheet
    monkeypatch.setattr(writers.xlsx, "MAX_ROWS", 3)  # every sheet of a long run has the first sheet's widths
    code, _, _ = run(["solve", str(EXAMPLES / "rulebook-showdowns.txt"), "-o", str(tmp_path / "long.xlsx")])
    sheets = list(sheet_widths(tmp_path / "long.xlsx").values())
    assert len(sheets) > 2 and all(widths == sheets[0] for widths in sheets)


def test_grid_sizes_its_columns_as_solve_does(tmp_path: Path) -> None:
    code, _, _ = run(["grid", "-o", str(tmp_path / "grid.xlsx")])
    assert code == 0
    assert_columns_fit(tmp_path / "grid.xlsx")


def test_a_streamed_sheets_widths_cannot_be_set_after_its_first_row() -> None:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("s")
    writers.column_widths(sheet, [4])
    sheet.append(["x"])
    with pytest.raises(RuntimeError, match="before its first row"):
        writers.column_widths(sheet, [4])
    book.save(io.BytesIO())  # (its temporary file closed)


# --- mark -o x.xlsx / x.xlsm (the input workbook, copied) ----------------------------------------


@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm"])
def test_mark_writes_a_workbook_excel_opens(suffix: str, tmp_path: Path) -> None:
    code, _, _ = run(["mark", str(EXAMPLES / "answered.xlsx"), "-o", str(tmp_path / f"marked{suffix}")])
    assert code == 0
    assert_excel_opens(tmp_path / f"marked{suffix}")


def test_mark_refuses_a_sheet_that_reaches_xfd_and_fills_xfd_at_most(tmp_path: Path) -> None:
    """The verdicts go in the column after the sheet's last: a sheet whose
    cells reach XFD has none, and is refused (a copy past XFD is a file
    that neither Excel nor fivecard opens); one that reaches XFC has its
    verdicts in XFD."""
    def wide(column: int) -> Path:
        path = answers_workbook(tmp_path / "wide.xlsx")
        book = openpyxl.load_workbook(path)
        book["Answers"].cell(row=5, column=column, value="a note far right")
        book.save(path)
        return path

    refused(
        ["mark", str(wide(XLSX_COLUMNS)), "--answers", "C,D,E", "-o", str(tmp_path / "marked.xlsx")], tmp_path,
        r"sheet 'Answers' of '.*wide\.xlsx' reaches column XFD, so the marked copy's column of verdicts would be "
        r"past XFD, Excel's last \(16,384\): write the marks as CSV \(-o marked\.csv\)",
    )
    code, _, _ = run(["mark", str(tmp_path / "wide.xlsx"), "--answers", "C,D,E", "-o", str(tmp_path / "marked.csv")])
    assert code == 1  # line 5, past the widest table read, is an error row
    code, _, _ = run(["mark", str(wide(XLSX_COLUMNS - 1)), "--answers", "C,D,E", "-o", str(tmp_path / "marked.xlsx")])
    assert code == 1
    assert_excel_opens(tmp_path / "marked.xlsx")  # fivecard's reader, too, reads every row of it
    marked = openpyxl.load_workbook(tmp_path / "marked.xlsx")["Answers"]
    assert marked["XFD1"].value == "fivecard" and marked["XFD2"].value.startswith("wrong: the winner")


def test_mark_refuses_a_cell_past_excels_limit_up_front(tmp_path: Path) -> None:
    """A cell longer than Excel's limit (openpyxl cuts a long text as it is
    put in a cell, so the workbook is zipped with the text put in after)."""
    made = answers_workbook(tmp_path / "made.xlsx", [ROW, [*ROW, "LONG TEXT"]])
    path = tmp_path / "long.xlsx"
    with zipfile.ZipFile(made) as source, zipfile.ZipFile(path, "w") as out:
        for item in source.infolist():
            out.writestr(item, source.read(item.filename).replace(b"LONG TEXT", b"x" * (XLSX_CELL + 1)))
    made.unlink()
    refused(
        ["mark", str(path), "-o", str(tmp_path / "marked.xlsx")], tmp_path,
        r"'.*marked\.xlsx' would not open in Excel: cell F3 of sheet 'Answers' holds 32,768 characters, "
        r"and a cell holds at most 32,767",
    )


def test_mark_refuses_a_sheet_name_past_excels_limit_up_front(tmp_path: Path) -> None:
    with pytest.warns(UserWarning, match="Title is more than 31 characters"):
        path = answers_workbook(tmp_path / "named.xlsx", title="Answers of the whole team, round 1")
    refused(
        ["mark", str(path), "-o", str(tmp_path / "marked.xlsx")], tmp_path,
        r"would not open in Excel: sheet 'Answers of the whole team, round 1' has a name of 34 characters, "
        r"and Excel allows 31",
    )


def test_mark_keeps_macros_only_under_xlsm(tmp_path: Path) -> None:
    source = macro_workbook(tmp_path / "model.xlsm")
    code, _, err = run(["mark", str(source), "-o", str(tmp_path / "marked.xlsx")])
    assert code == 0
    assert "fivecard: note: " in err and "the macros of" in err and "name it .xlsm to keep them" in err
    assert_excel_opens(tmp_path / "marked.xlsx")  # an .xlsx: no macros, the plain content type
    code, _, err = run(["mark", str(source), "-o", str(tmp_path / "marked.xlsm")])
    assert code == 0 and "note" not in err
    assert_excel_opens(tmp_path / "marked.xlsm")
    with zipfile.ZipFile(tmp_path / "marked.xlsm") as archive:
        assert archive.read("xl/vbaProject.bin") == b"\xd0\xcf\x11\xe0 a VBA project"
    code, _, _ = run(["mark", str(EXAMPLES / "answered.xlsx"), "-o", str(tmp_path / "plain.xlsm")])
    assert code == 0  # no macros to keep, and still a macro-enabled workbook, as its name says
    assert_excel_opens(tmp_path / "plain.xlsm")


def test_mark_copies_only_workbooks_that_openpyxl_can_hold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fivecard.modeloff.mark as mark

    monkeypatch.setattr(mark, "MAX_COPY_XML", 10_000)
    refused(
        ["mark", str(EXAMPLES / "answered.xlsx"), "-o", str(tmp_path / "marked.xlsx")], tmp_path,
        r"unpacks to 0\.\d MiB of XML; a marked copy .* at most 0 MiB of XML",
    )


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
