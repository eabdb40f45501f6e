"""Reading ``.xlsx`` workbooks that nobody vouches for.

A streaming reader of its own (the standard library's expat, one pass, one
row in memory), because openpyxl's read-only mode parses every sheet whole
when it opens a workbook without stated dimensions, and pads rows to the
column a cell claims: a small file could cost minutes and gigabytes. Here:

* before anything is unpacked, every part's unpacked size is bounded, and a
  part that unpacks to more than :data:`MAX_RATIO` times its packed size is
  refused as a zip bomb;
* XML with a document type declaration (entities) is refused;
* every part's XML is read in time linear in its size and in bounded
  memory, whatever it holds: a token (a tag with its attributes, a comment,
  a processing instruction) of more than :data:`MAX_TOKEN` bytes, elements
  nested more than :data:`MAX_DEPTH` deep, or more than :data:`MAX_NAMES`
  distinct element and attribute names are refused (a :class:`FileError`
  naming the part, the limit and the byte). Text between tags is not a
  token: a cell's text is bounded by :data:`MAX_CELL` instead;
* row numbers go up to 1,048,576 and columns to XFD (16,384), as in Excel;
  a row's cells past :data:`MAX_TABLE_COLUMNS`, a cell of more than
  :data:`MAX_CELL` characters or a row of more than :data:`MAX_ROW` make
  that row an error, and reading goes on (a row in memory stays small);
* the shared-strings table is the only thing held whole, and it is bounded.

Cells come out as the text a spreadsheet shows: numbers as written (``7``,
not ``7.0``), dates as openpyxl shows them, formulas by their cached value,
booleans ``TRUE`` and ``FALSE``, a string by its text and rich-text runs
only (not its phonetic guide, ``<rPh>``, nor anything else a cell may
carry, such as an ``<extLst>``). A damaged workbook is a :class:`FileError`
that names the part and the place, never a traceback.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Final
from xml.parsers import expat

from ..core.errors import FileError, FivecardError, quote
from .rows import MAX_TABLE_COLUMNS

__all__ = [
    "FileError",
    "Workbook",
    "Record",
    "open_workbook",
    "unsaved_formula",
    "MAX_ROWS",
    "MAX_TABLE_COLUMNS",
    "MAX_RATIO",
    "MAX_CELL",
    "MAX_TOKEN",
    "MAX_DEPTH",
    "MAX_NAMES",
]

MAX_ROWS: Final = 1_048_576  # Excel's rows per sheet
_MAX_COLUMNS: Final = 16_384  # Excel's columns (A ... XFD)
#: Characters in one cell (the csv module's field limit).
MAX_CELL: Final = 131_072
#: Characters in one row, as a text line or CSV record holds at most.
MAX_ROW: Final = 1 << 20
#: Unpacked / packed size of one part; Apache POI refuses past 100 too.
MAX_RATIO: Final = 100
_RATIO_FLOOR: Final = 1 << 20  # parts smaller than this unpacked are not ratio-checked
_MAX_SHEET_BYTES: Final = 2 << 30  # a 1,048,576-row sheet written by openpyxl is ~600 MB
_MAX_PART_BYTES: Final = 256 << 20  # any other part (shared strings, styles ...)
_MAX_STRINGS: Final = 4_000_000  # entries of the shared-strings table
#: The longest token of a part's XML, in bytes: a tag with its attributes, a
#: comment, a processing instruction (the text between tags is not a token).
MAX_TOKEN: Final = 1 << 20
#: The deepest nesting of elements (a cell's text is seven deep in a sheet).
MAX_DEPTH: Final = 256
#: The most distinct element and attribute names in a part (expat keeps
#: each for the whole part; a sheet uses a few dozen).
MAX_NAMES: Final = 10_000
_MAX_NAME: Final = 1_000  # characters of one element or attribute name
_READ: Final = 1 << 16


@dataclass(frozen=True, slots=True)
class Record:
    """One row of a sheet: its number, its cells as text, or why it cannot
    be read (its cells are then those that could be)."""

    number: int
    cells: list[str]
    error: str | None = None
    #: The cells (by column) that hold a formula with no saved value: the
    #: formula (its first characters; "" for one shared from another cell).
    formulas: dict[int, str] | None = None


#: The characters of a formula kept to name it (see :func:`unsaved_formula`).
_FORMULA_SHOWN: Final = 40


def unsaved_formula(column: int, line: int, formula: str) -> str:
    """What to say of a cell (0-based ``column``, 1-based ``line``) that
    holds a formula with no saved value: a workbook written by a program
    (openpyxl) and never opened in a spreadsheet stores formulas without
    their values, and a reader cannot compute them.

    >>> print(unsaved_formula(1, 2, '=B1&"x"'))
    cell B2 holds the formula '=B1&"x"' with no saved value (open and save the workbook in Excel or LibreOffice, which store formulas' values)
    """
    from .rows import column_letter

    shown = formula if len(formula) <= _FORMULA_SHOWN else formula[:_FORMULA_SHOWN] + "..."
    what = f"the formula {quote(shown)}" if formula.strip("= ") else "a formula"
    return (
        f"cell {column_letter(column)}{line} holds {what} with no saved value (open and save the "
        "workbook in Excel or LibreOffice, which store formulas' values)"
    )


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.1f} MiB"


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:200] + "..."


def _column(letters: str) -> int:
    """0-based column of a cell reference's letters; -1 if not letters."""
    if not letters or len(letters) > 3 or not letters.isascii() or not letters.isalpha():
        return -1
    number = 0
    for ch in letters.upper():
        number = number * 26 + ord(ch) - 64
    return number - 1


class _Xml:
    """An expat parser fed a part in chunks, with element names reduced to
    their local part (``x:row`` is ``row``) and document type declarations
    refused (so no entity expansion). Attribute names are given as written.

    Bounded: expat (before 2.6) parses a token that a chunk cuts again from
    its start with every later chunk, so a token of n bytes fed 64 KiB at a
    time costs n²/64 KiB. Here, while a token is open, the next chunk is as
    long as what is open already (what expat's own reparse deferral does
    from 2.6 on), so that expat scans a token two or three times in all,
    however long it is; a token over :data:`MAX_TOKEN` bytes, nesting past
    :data:`MAX_DEPTH` and names past :data:`MAX_NAMES` are refused."""

    def __init__(
        self,
        part: str,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None] | None = None,
        text: Callable[[str], None] | None = None,
    ) -> None:
        self.part = part
        self.parser = expat.ParserCreate()
        self.fed = 0  # bytes given to the parser
        self.names: set[str] = set()
        parser = self.parser
        names = self.names
        depth = 0

        def refuse(*_: object) -> None:
            raise FileError(f"the workbook's part {part} declares a document type; refused")

        def local_start(name: str, attrs: dict[str, str]) -> None:
            nonlocal depth
            depth += 1
            if depth > MAX_DEPTH:
                self.refuse(f"nests elements more than {MAX_DEPTH} deep")
            if name not in names or (attrs and not names.issuperset(attrs)):
                self.name(name, attrs)
            start(name.rpartition(":")[2], attrs)

        def local_end(name: str) -> None:
            nonlocal depth
            depth -= 1
            if end is not None:
                end(name.rpartition(":")[2])

        parser.StartDoctypeDeclHandler = refuse
        parser.EntityDeclHandler = refuse
        parser.StartElementHandler = local_start
        parser.EndElementHandler = local_end
        if text is not None:
            parser.CharacterDataHandler = text
        parser.buffer_text = True

    def refuse(self, what: str) -> None:
        """Stop with a :class:`FileError` saying what the part holds past a limit."""
        at = self.parser.CurrentByteIndex
        raise FileError(f"the workbook's part {self.part} {what} (at byte {max(at, 0):,}); refused")

    def name(self, name: str, attrs: dict[str, str]) -> None:
        """Note the names of an element and its attributes not seen before in the part."""
        for new in (name, *attrs):
            if new in self.names:
                continue
            if len(new) > _MAX_NAME:
                self.refuse(f"has a name of {len(new):,} characters (at most {_MAX_NAME:,})")
            if len(self.names) >= MAX_NAMES:
                self.refuse(f"uses more than {MAX_NAMES:,} distinct element and attribute names")
            self.names.add(new)

    def feed(self, data: bytes, final: bool = False) -> None:
        self.fed += len(data)
        try:
            self.parser.Parse(data, final)
        except FivecardError:  # a handler's: it names the place already
            raise
        except (expat.ExpatError, LookupError, ValueError) as exc:  # bad XML, an unknown encoding
            raise FileError(f"the workbook's part {self.part} is damaged: {_reason(exc)}") from None

    def chunks(self, stream: IO[bytes]) -> Iterator[None]:
        """Feed the whole part from ``stream``, pausing after each chunk."""
        while True:
            open_token = self.fed - self.parser.CurrentByteIndex  # bytes expat holds, not parsed yet
            if open_token > MAX_TOKEN:
                self.refuse(f"holds a token (a tag with its attributes, a comment ...) of more than {MAX_TOKEN:,} bytes")
            data = _read(stream, self.part, min(max(_READ, open_token), MAX_TOKEN + 1 - open_token))
            if not data:
                break
            self.feed(data)
            yield
        self.feed(b"", True)
        yield

    def parse(self, stream: IO[bytes]) -> None:
        for _ in self.chunks(stream):
            pass


def _read(stream: IO[bytes], part: str, size: int = _READ) -> bytes:
    """The next chunk of a part; a damaged archive is a :class:`FileError`."""
    try:
        return stream.read(size)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, zlib.error) as exc:
        raise FileError(f"the workbook's part {part} is damaged: {_reason(exc)}") from None


#: Where the text a spreadsheet shows is, by the elements open inside a
#: cell's ``<c>``: its value, or an inline string's text or rich-text runs.
#: Not shown: a phonetic guide (``<rPh><t>``), a formula, an extension list
#: (``<extLst>``) or anything else a cell may carry.
_CELL_TEXT: Final = frozenset({("v",), ("is", "t"), ("is", "r", "t")})
#: The same inside a shared string's ``<si>``: its text or its runs' text.
_STRING_TEXT: Final = frozenset({("t",), ("r", "t")})


def _shown(inside: list[str], name: str, places: frozenset[tuple[str, ...]]) -> bool:
    """Whether the text of an element ``name`` opening inside ``inside``
    (the elements open inside a cell or a shared string) is text a
    spreadsheet shows. (Text after an element inside it is not: no
    spreadsheet writes elements there.)"""
    return len(inside) < 3 and (*inside, name) in places


class _Text:
    """Character data of the elements being collected, bounded per cell."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.on = False

    def add(self, data: str) -> None:
        if self.on:
            self.size += len(data)
            if self.size <= MAX_CELL:
                self.parts.append(data)

    def take(self) -> tuple[str, int]:
        text, size = "".join(self.parts), self.size
        self.parts, self.size = [], 0
        return text, size


class Workbook:
    """An opened workbook: its sheet names, and the rows of one sheet."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self._archive = archive
        self._sheets = self._read_sheets()
        self.sheetnames = list(self._sheets)
        self._date1904 = False
        self._strings: list[str] | None = None
        self._dates: set[int] | None = None

    # -- the parts ---------------------------------------------------------------------

    def _open(self, part: str) -> IO[bytes]:
        try:
            return self._archive.open(part)
        except KeyError:
            raise FileError(f"the workbook has no part {part}") from None
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError, zlib.error) as exc:
            raise FileError(f"the workbook's part {part} is damaged: {_reason(exc)}") from None

    def _read_sheets(self) -> dict[str, str]:
        """Sheet name -> its part, from the workbook and its relationships."""
        targets: dict[str, str] = {}
        sheets: list[tuple[str, str]] = []

        def rel(name: str, attrs: dict[str, str]) -> None:
            if name == "Relationship" and "Id" in attrs and "Target" in attrs:
                target = attrs["Target"]
                path = target.lstrip("/") if target.startswith("/") else posixpath.normpath("xl/" + target)
                targets[attrs["Id"]] = path

        def book(name: str, attrs: dict[str, str]) -> None:
            if name == "sheet" and "name" in attrs:
                rid = next((v for k, v in attrs.items() if k.rpartition(":")[2] == "id"), "")
                sheets.append((attrs["name"], rid))
            elif name == "workbookPr":
                self._date1904 = attrs.get("date1904", "0").lower() in ("1", "true")

        rels = "xl/_rels/workbook.xml.rels"
        if rels in self._archive.namelist():
            with self._open(rels) as stream:
                _Xml(rels, rel).parse(stream)
        with self._open("xl/workbook.xml") as stream:
            _Xml("xl/workbook.xml", book).parse(stream)
        found: dict[str, str] = {}
        for position, (name, rid) in enumerate(sheets, 1):
            found[name] = targets.get(rid, f"xl/worksheets/sheet{position}.xml")
        return found

    def _shared_strings(self) -> list[str]:
        if self._strings is not None:
            return self._strings
        strings: list[str] = []
        text = _Text()
        inside: list[str] | None = None  # the elements open inside an <si>
        part = "xl/sharedStrings.xml"

        def start(name: str, _: dict[str, str]) -> None:
            nonlocal inside
            if inside is not None:
                text.on = name == "t" and _shown(inside, name, _STRING_TEXT)
                inside.append(name)
            elif name == "si":
                inside = []

        def end(name: str) -> None:
            nonlocal inside
            if inside:
                inside.pop()
                text.on = False
            elif inside is not None:  # the end of the <si>
                inside = None
                if len(strings) >= _MAX_STRINGS:
                    raise FileError(f"the workbook holds more than {_MAX_STRINGS:,} shared strings")
                value, size = text.take()
                strings.append(value if size <= MAX_CELL else "\x00" + str(size))

        if part in self._archive.namelist():
            with self._open(part) as stream:
                _Xml(part, start, end, text.add).parse(stream)
        self._strings = strings
        return strings

    def _date_styles(self) -> set[int]:
        """The cell styles (``s`` attributes) whose number format is a date."""
        if self._dates is not None:
            return self._dates
        from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format

        formats: dict[int, str] = dict(BUILTIN_FORMATS)
        styles: list[int] = []
        where: list[str] = []

        def start(name: str, attrs: dict[str, str]) -> None:
            if name == "numFmt" and attrs.get("numFmtId", "").isdecimal():
                formats[int(attrs["numFmtId"])] = attrs.get("formatCode", "")
            elif name == "cellXfs":
                where.append(name)
            elif name == "xf" and where:
                code = attrs.get("numFmtId", "0")
                styles.append(int(code) if code.isdecimal() else 0)

        def end(name: str) -> None:
            if name == "cellXfs":
                where.clear()

        part = "xl/styles.xml"
        if part in self._archive.namelist():
            with self._open(part) as stream:
                _Xml(part, start, end).parse(stream)
        self._dates = {i for i, f in enumerate(styles) if is_date_format(formats.get(f, ""))}
        return self._dates

    # -- rows -------------------------------------------------------------------------

    def rows(self, sheet: str | None) -> tuple[str, Iterator[Record]]:
        """The sheet's name (the first sheet when ``sheet`` is None) and its
        rows, streaming; empty rows between them are not reported."""
        if not self.sheetnames:
            raise FileError("the workbook has no sheets")
        if sheet is None:
            sheet = self.sheetnames[0]
        elif sheet not in self._sheets:
            names = ", ".join(quote(n) for n in self.sheetnames)
            raise FileError(f"no sheet {quote(sheet)} in the workbook; its sheets: {names}")
        strings = self._shared_strings()
        dates = self._date_styles()
        return sheet, self._records(self._sheets[sheet], sheet, strings, dates)

    def _records(self, part: str, sheet: str, strings: list[str], dates: set[int]) -> Iterator[Record]:
        reader = _SheetReader(sheet, strings, dates, self._date1904)
        xml = _Xml(part, reader.start, reader.end, reader.characters)
        stream = self._open(part)
        try:
            for _ in xml.chunks(stream):
                yield from reader.take()
        finally:
            stream.close()

    def check_parts(self) -> None:
        """Read every XML part of the workbook (``.xml`` and ``.rels``) with
        this reader's limits, and raise a :class:`FileError` for the first
        that passes one (or is damaged or declares a document type). For a
        program about to give the same file to another XML reader (openpyxl,
        which parses parts fivecard never reads: themes, drawings, other
        sheets), so that it meets no XML this reader would refuse."""
        for info in self._archive.infolist():
            if info.filename.lower().endswith((".xml", ".rels")) and not info.is_dir():
                with self._open(info.filename) as stream:
                    _Xml(info.filename, _ignore).parse(stream)

    def close(self) -> None:
        self._archive.close()


def _ignore(name: str, attrs: dict[str, str]) -> None:
    """A start handler that does nothing (the limits are checked around it)."""


class _SheetReader:
    """expat handlers that turn a sheet's XML into :class:`Record` s."""

    def __init__(self, sheet: str, strings: list[str], dates: set[int], date1904: bool) -> None:
        self.sheet = sheet
        self.strings = strings
        self.dates = dates
        self.date1904 = date1904
        self.text = _Text()
        self.formula = _Text()  # a cell's formula (<f>)
        self.formulas: dict[int, str] = {}  # of the row: formulas with no saved value
        self.has_formula = False  # the cell holds a formula
        self.done: list[Record] = []
        self.number = 0
        self.cells: dict[int, str] = {}
        self.problem: str | None = None
        self.column = -1
        self.kind = "n"
        self.style = 0
        self.ref = ""
        self.in_row = False
        self.inside: list[str] | None = None  # the elements open inside a <c> (None: not in one)
        self.row_size = 0  # characters of the row's cells so far

    def take(self) -> list[Record]:
        done, self.done = self.done, []
        return done

    def characters(self, data: str) -> None:
        self.text.add(data)
        self.formula.add(data)

    def fail(self, message: str) -> None:
        raise FileError(f"sheet {quote(self.sheet)}, row {self.number:,}: {message}")

    def start(self, name: str, attrs: dict[str, str]) -> None:
        inside = self.inside
        if inside is not None:  # an element inside a cell
            self.text.on = (name == "v" or name == "t") and _shown(inside, name, _CELL_TEXT)
            self.formula.on = name == "f" and not inside
            self.has_formula = self.has_formula or self.formula.on
            inside.append(name)
        elif name == "row":
            r = attrs.get("r", "")
            number = int(r) if r.isdecimal() and len(r) <= 8 else self.number + 1
            if number <= self.number or number > MAX_ROWS:
                self.number += 1
                self.fail(f"bad row number {quote(r)} (rows go up, to {MAX_ROWS:,} at most)")
            self.number, self.cells, self.problem, self.column = number, {}, None, -1
            self.formulas = {}
            self.in_row, self.row_size = True, 0
        elif name == "c" and self.in_row:
            self.ref = attrs.get("r", "")
            column = _column(self.ref.rstrip("0123456789")) if self.ref else self.column + 1
            if column < 0 or column >= _MAX_COLUMNS or (self.ref and column <= self.column):
                self.fail(f"bad cell reference {quote(self.ref)}")
            self.column, self.kind = column, attrs.get("t", "n")
            style = attrs.get("s", "0")
            self.style = int(style) if style.isdecimal() else 0
            self.inside = []
            self.has_formula = False

    def end(self, name: str) -> None:
        if self.inside:  # an element inside a cell
            self.inside.pop()
            self.text.on = self.formula.on = False
        elif self.inside is not None:  # the cell's end
            self.inside = None
            value, size = self.text.take()
            formula, _ = self.formula.take()
            if self.has_formula and not value and self.column < MAX_TABLE_COLUMNS:
                self.formulas[self.column] = "=" + formula[: _FORMULA_SHOWN + 1] if formula else ""
            if size > MAX_CELL:
                self.problem = self.problem or (
                    f"cell {self.ref or self.column + 1} holds {size:,} characters; a cell holds at most {MAX_CELL:,}"
                )
            elif self.column >= MAX_TABLE_COLUMNS:
                if value:
                    self.problem = self.problem or (
                        f"cell {self.ref} is past column {MAX_TABLE_COLUMNS:,}, the widest table read"
                    )
            elif value and self.row_size <= MAX_ROW:
                self.row_size += len(value)
                if self.row_size > MAX_ROW:  # its cells are dropped: only the error stays
                    self.problem = f"a row of more than {MAX_ROW:,} characters; a row holds at most that"
                    self.cells.clear()
                else:
                    self.cells[self.column] = self.value(value)
        elif name == "row" and self.in_row:
            self.in_row = False
            width = max(self.cells, default=-1) + 1
            cells = [self.cells.get(i, "") for i in range(width)]
            self.done.append(Record(self.number, cells, self.problem, self.formulas or None))

    def value(self, text: str) -> str:
        kind = self.kind
        if kind == "s":
            if not text.strip().isdecimal() or int(text) >= len(self.strings):
                self.fail(f"cell {self.ref}: no shared string {quote(text)}")
            value = self.strings[int(text)]
            if value.startswith("\x00"):  # a string over the limit, by its length
                self.problem = self.problem or (
                    f"cell {self.ref} holds {int(value[1:]):,} characters; a cell holds at most {MAX_CELL:,}"
                )
                return ""
            return value
        if kind == "b":
            return "TRUE" if text.strip() in ("1", "true") else "FALSE"
        if kind in ("str", "inlineStr", "e", "d"):
            return text
        try:
            number = float(text)
        except ValueError:
            self.fail(f"cell {self.ref}: {quote(text)} is not a number")
        if self.style in self.dates:
            from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

            epoch = CALENDAR_MAC_1904 if self.date1904 else CALENDAR_WINDOWS_1900
            try:
                return str(from_excel(number, epoch))
            except (OverflowError, ValueError):
                return text
        if number.is_integer() and abs(number) < 1e16:
            return str(int(number))
        return text


def _check_archive(archive: zipfile.ZipFile) -> None:
    """Refuse parts that unpack to too much, before anything is unpacked."""
    for info in archive.infolist():
        sheet = info.filename.startswith("xl/worksheets/")
        limit = _MAX_SHEET_BYTES if sheet else _MAX_PART_BYTES
        if info.file_size > limit:
            raise FileError(
                f"the workbook's part {info.filename} unpacks to {_mib(info.file_size)}, "
                f"more than the {_mib(limit)} a part may hold; refused"
            )
        if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise FileError(
                f"the workbook's part {info.filename} unpacks from {_mib(info.compress_size)} "
                f"to {_mib(info.file_size)} ({info.file_size // max(info.compress_size, 1):,} "
                f"times; at most {MAX_RATIO}): refused as a likely zip bomb"
            )


def open_workbook(source: IO[bytes]) -> Workbook:
    """Check and open a workbook from a seekable binary file."""
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as exc:  # NotImplementedError too
        raise FileError(f"cannot read the workbook: not an .xlsx file ({_reason(exc)})") from None
    try:
        _check_archive(archive)
        return Workbook(archive)
    except FivecardError:
        archive.close()
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as exc:
        archive.close()
        raise FileError(f"cannot read the workbook: {_reason(exc)}") from None
