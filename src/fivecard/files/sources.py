"""Reading the rows of an input: text, CSV or ``.xlsx``, from a file, a pipe or
standard input.

Nothing is lost and nothing hangs:

* an input is opened and read **once**: its format is sniffed from the first
  bytes kept in memory, so pipes, FIFOs and ``/dev/stdin`` lose nothing (a
  workbook from a pipe is spooled to a temporary file, since a zip needs
  seeking);
* text is UTF-8, or UTF-16 or UTF-32 by its byte order mark (recoded as it
  is read, :func:`recoded`; Excel's "Unicode Text" is UTF-16 with one); an
  input whose first bytes hold NUL bytes every other byte (or three in
  four) and no byte order mark, UTF-16 or UTF-32 without it, is refused in
  one line saying so, and so is an Excel 97-2003 workbook; elsewhere a byte
  that is not UTF-8 spoils only its own row, an error row that says so
  (:func:`decode_line`);
* a text file that is a table between tabs (its first lines hold as many
  tabs each, and a label or a number) is read as a table;
* lines end at ``\\n``, ``\\r\\n`` or ``\\r``; a line (or CSV record) longer
  than :data:`MAX_LINE` bytes is an error row, read past without being held;
* a CSV quote left open fails its own row only: a quoted cell may span at
  most :data:`RECORD_LINES` lines, else that row is an error and reading goes
  on from the next line; a cell past :data:`~fivecard.files.workbook.MAX_CELL`
  characters or a row past :data:`~fivecard.files.rows.MAX_TABLE_COLUMNS`
  cells is an error row;
* a table's layout is decided by shape on its first rows
  (:class:`~fivecard.files.rows.TableLayout`), or stated.

Every reader is linear in the length of its input.
"""

from __future__ import annotations

import codecs
import csv
import functools
import io
import itertools
import os
import stat
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from .rows import MAX_TABLE_COLUMNS, OTHER, Row, TableLayout, cell_shape, is_skipped, line_row
from ..core.errors import PATH_QUOTE, FileAccessError, FileError, quote
from .workbook import Record, open_workbook, unsaved_formula

__all__ = [
    "Block",
    "Source",
    "open_source",
    "byte_stream",
    "read_blocks",
    "read_lines",
    "hand_texts",
    "block_rows",
    "block_lines",
    "long_row",
    "wide_row_error",
    "decode_line",
    "recoded",
    "NOT_UTF8",
    "INPUT_FORMATS",
    "MAX_LINE",
    "RECORD_LINES",
    "FileError",
]

INPUT_FORMATS: Final = ("text", "csv", "xlsx")
#: The longest line (or CSV record) read, in bytes; a longer one is an error row.
MAX_LINE: Final = 1 << 20
#: The most lines one CSV record (a quoted cell with line breaks) may span.
RECORD_LINES: Final = 32
_HEAD: Final = 4096
_BLOCK: Final = 1 << 19
_SAMPLE_ROWS: Final = 50
_MOST_HANDS: Final = 10  # header columns of a text input: at most this many hands
_XLSX_MAGIC: Final = b"PK\x03\x04"
_XLS_MAGIC: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Excel 97-2003 (and other OLE files)
_BOM: Final = b"\xef\xbb\xbf"
#: Byte order marks of the other encodings read, longest first (UTF-32 LE's
#: starts as UTF-16 LE's does).
_WIDE_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
_MAX_SPOOL: Final = 1 << 30  # a workbook read from a pipe
_PROGRESS_BYTES: Final = 1 << 20


# --- lines ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Block:
    """Whole lines of an input: ``data`` holds them, each ending in ``\\n``
    (``\\r\\n`` and ``\\r`` made ``\\n``), the first numbered ``first``.
    ``long`` maps the index (in this block) of each line over the limit to
    its length and first bytes; its text in ``data`` is empty."""

    first: int
    data: bytes
    long: dict[int, tuple[int, bytes]] = field(default_factory=dict)


def read_blocks(
    raw: IO[bytes],
    head: bytes = b"",
    *,
    limit: int = MAX_LINE,
    size: int = _BLOCK,
    first: int = 1,
    start: bool = True,
) -> Iterator[Block]:
    """Cut a byte stream (after ``head``, bytes already read from it) into
    blocks of whole lines, in bounded memory: a line longer than ``limit``
    bytes is read past and reported by its length and first bytes (or, if
    it holds only spaces, given as a blank line). A UTF-8 byte order mark at
    the start is dropped. The first line is numbered ``first``; ``start``:
    the stream is the start of the input (not a part that begins at one of
    its line starts, whose first bytes are never a byte order mark). Text
    in UTF-16 or UTF-32 is recoded to UTF-8 as it is read, by its byte
    order mark (see :func:`recoded`)."""
    if start:
        raw, head, _ = recoded(raw, head)
    step = min(size, limit)  # so that only a block's first line can run past the limit
    reads = itertools.chain(
        (head[i : i + step] for i in range(0, len(head), step)),
        iter(functools.partial(raw.read, step), b""),
        [b""],  # the end
    )
    number = first
    carry = b""  # the start of a line whose end is not read yet
    skip: tuple[int, bytes, bool] | None = None  # a line over the limit: length so far, first bytes, blank
    started = not start
    after_cr = False  # the last read ended in \r: a \n first in this one ends the same line
    for block in reads:
        final = not block
        if after_cr and block.startswith(b"\n"):
            block = block[1:]
        after_cr = block.endswith(b"\r")
        data, carry = carry + block, b""
        if not started:
            if not final and len(data) < 3 and _BOM.startswith(data):
                carry = data  # too short to tell a byte order mark yet
                continue
            data, started = data.removeprefix(_BOM), True
        long: dict[int, tuple[int, bytes]] = {}
        if skip is not None:
            ends = [i for i in (data.find(b"\n"), data.find(b"\r")) if i >= 0]
            end = min(ends) if ends else len(data)
            length, prefix, blank = skip[0] + end, skip[1], skip[2] and not data[:end].strip()
            if not ends and not final:
                skip = (length, prefix, blank)
                continue
            if not blank:  # a long line of spaces is a blank line like any other
                long[0] = (length, prefix)
            data = data[end:] or b"\n"  # the input may end inside the long line
            skip = None
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if final and data and not data.endswith(b"\n"):
            data += b"\n"  # the last line has no line end
        cut = data.rfind(b"\n") + 1
        data, carry = data[:cut], data[cut:] + carry
        first_end = data.find(b"\n")
        if first_end > limit and not long:  # the first line began in the carry
            if data[:first_end].strip():
                long[0] = (first_end, data[:100])
            data = data[first_end:]
        if len(carry) > limit:
            skip, carry = (len(carry), carry[:100], not carry.strip()), b""
        if data:
            yield Block(number, data, long)
            number += data.count(b"\n")


def _long_error(length: int) -> str:
    return f"a line of {length:,} bytes; a line holds at most {MAX_LINE:,} bytes"


def _long_cell(prefix: bytes) -> str:
    return prefix.decode("utf-8", "replace") + "..."


def long_row(number: int, length: int, prefix: bytes) -> Row:
    """The error row of a line over the limit."""
    return Row(number, (_long_cell(prefix),), error=_long_error(length))


def block_rows(block: Block, *, best_five: bool = False) -> Iterator[Row]:
    """The rows of a block of text lines (blank and comment lines skipped;
    ``best_five``: see :func:`~fivecard.files.rows.split_line`)."""
    for number, text, error in block_lines(block):
        if error is not None and not (error.startswith(NOT_UTF8) and is_skipped(text)):
            row: Row | None = Row(number, (text,), error=error)
        else:
            row = line_row(number, text, best_five=best_five)
        if row is not None:
            yield row


def block_lines(block: Block) -> Iterator[tuple[int, str, str | None]]:
    """Each line of a block: its number, its text (UTF-8; undecodable bytes
    replaced) and, for a line over the limit or a line with a byte that is
    not UTF-8, the error (see :func:`decode_line`; a long line's text is its
    first bytes and ``...``)."""
    lines = block.data.split(b"\n")
    lines.pop()
    for i, raw in enumerate(lines):
        if block.long and i in block.long:
            length, prefix = block.long[i]
            yield block.first + i, _long_cell(prefix), _long_error(length)
        else:
            yield block.first + i, *decode_line(raw)


#: How the error of a line with a byte that is not UTF-8 starts.
NOT_UTF8: Final = "not UTF-8 text"


def decode_line(raw: bytes) -> tuple[str, str | None]:
    """A line's text, and the error of its row if a byte is not UTF-8 (the
    text then holds U+FFFD in its place): a file in Latin-1 or Windows-1252
    spoils only the rows with such bytes, each saying why.

    >>> decode_line(b'AS KS QS JS TS')
    ('AS KS QS JS TS', None)
    >>> decode_line(b'M\\xfcller,AS KS QS JS TS')[1]
    'not UTF-8 text: byte 0xfc at byte 2 of the line; save the file as UTF-8 (or as UTF-16 with its byte order mark)'
    """
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return raw.decode("utf-8", "replace"), (
            f"{NOT_UTF8}: byte 0x{raw[exc.start]:02x} at byte {exc.start + 1:,} of the line; "
            "save the file as UTF-8 (or as UTF-16 with its byte order mark)"
        )


def read_lines(raw: IO[bytes], head: bytes = b"") -> Iterator[tuple[int, str, str | None]]:
    """Each line of a byte stream, in bounded memory: its number, its text
    (UTF-8; undecodable bytes replaced) and, for a line over
    :data:`MAX_LINE` bytes, the error (its text is then its first bytes)."""
    return _lines(read_blocks(raw, head))


def hand_texts(arguments: Sequence[str], stdin: Any) -> list[str]:
    """The hands given as arguments, each a hand, where ``-`` reads the text
    stream ``stdin`` a hand a line (blank lines skipped; a line over
    :data:`MAX_LINE` bytes is a :class:`FileError` naming its hand)."""
    texts: list[str] = []
    for argument in arguments:
        if argument != "-":
            texts.append(argument)
            continue
        raw = binary_stdin(stdin)
        if raw is None:
            raise FileError("no standard input")
        for _, text, error in read_lines(raw):
            if error is not None:
                raise FileError(f"hand {len(texts) + 1}: {error}")
            if text.strip():
                texts.append(text)
    return texts


def _lines(blocks: Iterable[Block]) -> Iterator[tuple[int, str, str | None]]:
    """Each line of the blocks, as :func:`block_lines` gives them."""
    for block in blocks:
        yield from block_lines(block)


# --- text encodings -------------------------------------------------------------------------


class _Recoded(io.RawIOBase):
    """A byte stream of text in another encoding (UTF-16, UTF-32), read as
    UTF-8: what a reader of lines is given. A sequence that does not decode
    is U+FFFD, which spoils only its own row."""

    def __init__(self, raw: IO[bytes], codec: str, encoding: str) -> None:
        self.raw = raw
        self.encoding = encoding
        self.decoder = codecs.getincrementaldecoder(codec)("replace")
        self.ready = bytearray()
        self.ended = False

    def recode(self, data: bytes, final: bool = False) -> bytes:
        """Bytes in the stream's encoding, as UTF-8 (a character cut at the
        end waits for the next bytes)."""
        return self.decoder.decode(data, final=final).encode("utf-8", "surrogatepass")

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        want = size if size is not None and size >= 0 else 1 << 62
        while len(self.ready) < want and not self.ended:
            data = self.raw.read(_BLOCK if want > _BLOCK else max(want, 1 << 16))
            self.ended = not data
            self.ready += self.recode(data, final=self.ended)
        out = bytes(self.ready[:want])
        del self.ready[:want]
        return out

    def tell(self) -> int:  # how far the input is read (for progress)
        return self.raw.tell()


def recoded(raw: IO[bytes], head: bytes = b"", name: str | None = None) -> tuple[IO[bytes], bytes, str]:
    """The start of a text input (``head``, bytes read already, then
    ``raw``) as UTF-8: the stream and head to read from, and the encoding
    found. UTF-16 and UTF-32 by their byte order mark are recoded (without
    the mark); anything else is given as it is, read as UTF-8. Raises
    :class:`FileError` for a text whose first bytes hold NUL bytes every
    other byte (or three bytes in four) and no byte order mark: UTF-16 or
    UTF-32 without it (the byte order, and so the text, would be a guess);
    the message names the input (``name``) and what to do."""
    if isinstance(raw, _Recoded):
        return raw, head, raw.encoding
    while len(head) < _HEAD:  # enough for any byte order mark and to tell UTF-16
        more = raw.read(_HEAD - len(head))
        if not more:
            break
        head += more
    for mark, codec, encoding in _WIDE_BOMS:
        if head.startswith(mark):
            stream = _Recoded(raw, codec, encoding)
            return stream, stream.recode(head[len(mark) :]), encoding  # type: ignore[return-value]
    problem = _not_text(head)
    if problem is not None:
        raise FileError(f"{quote(name, PATH_QUOTE) if name else 'the input'} is {problem}")
    return raw, head, "UTF-8"


#: Where NUL bytes stand, four bytes at a time, in text in the Latin
#: alphabet written in each encoding without a byte order mark.
_NUL_PATTERNS: Final = {
    "UTF-32 (little-endian)": (False, True, True, True),
    "UTF-32 (big-endian)": (True, True, True, False),
    "UTF-16 (little-endian)": (False, True, False, True),
    "UTF-16 (big-endian)": (True, False, True, False),
}


def _not_text(head: bytes) -> str | None:
    """Why the first bytes of an input (no byte order mark) cannot be read
    as UTF-8 text, or None: an Excel 97-2003 workbook, or NUL bytes where
    UTF-16 or UTF-32 puts them (a NUL byte here and there in UTF-8 text
    spoils only its row)."""
    if head.startswith(_XLS_MAGIC):
        return "not text but an Excel 97-2003 workbook (.xls) or another binary file; save it as .xlsx or CSV"
    if head.count(0) < 8:
        return None
    quarters = [head[i::4] for i in range(4)]
    nul = tuple(q.count(0) * 2 > len(q) for q in quarters)
    for encoding, where in _NUL_PATTERNS.items():
        if nul == where:
            return (
                f"not UTF-8 text: it looks like {encoding} without a byte order mark (NUL "
                f"bytes {'every other byte' if encoding.startswith('UTF-16') else 'three bytes in four'}); "
                f"save it as UTF-8, or as {encoding.split()[0]} with its byte order mark "
                '(as Excel\'s "Unicode Text" is)'
            )
    return None


# --- opening an input ---------------------------------------------------------------------


@dataclass
class _Input:
    name: str
    raw: IO[bytes]
    head: bytes
    size: int | None  # bytes, for a regular file
    close: Callable[[], None]
    encoding: str = "UTF-8"  # of a text input (UTF-16 and UTF-32 are recoded as read)


def _open_input(path: str, stdin: IO[bytes] | None) -> _Input:
    if path == "-":
        if stdin is None:
            raise FileError("no standard input")
        return _Input("standard input", stdin, _read_head(stdin, "standard input"), None, lambda: None)
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed by Source.close
    except OSError as exc:
        raise FileAccessError(f"cannot read {quote(path, PATH_QUOTE)}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(raw.fileno()).st_mode
        size = os.fstat(raw.fileno()).st_size if stat.S_ISREG(mode) else None
        return _Input(path, raw, _read_head(raw, path), size, raw.close)
    except BaseException:
        raw.close()
        raise


def _read_head(raw: IO[bytes], name: str) -> bytes:
    """The first bytes, for sniffing; kept and read again from memory."""
    parts: list[bytes] = []
    have = 0
    try:
        while have < _HEAD and (part := raw.read(_HEAD - have)):
            parts.append(part)
            have += len(part)
    except OSError as exc:
        raise FileAccessError(f"cannot read {quote(name, PATH_QUOTE)}: {exc.strerror or exc}") from None
    return b"".join(parts)


def _is_workbook(path: str, head: bytes) -> bool:
    return (path != "-" and Path(path).suffix.lower() in (".xlsx", ".xlsm")) or head.startswith(_XLSX_MAGIC)


_CSV_SUFFIXES: Final = (".csv", ".tsv")


def _suffix(path: str) -> str:
    return Path(path).suffix.lower() if path != "-" else ""


def _format_of(path: str, head: bytes) -> str:
    suffix = _suffix(path)
    if _is_workbook(path, head):
        return "xlsx"
    if suffix in _CSV_SUFFIXES:
        return "csv"
    if suffix in (".txt", ".text", ".dat", ".log"):
        return "csv" if _tab_table(head.decode("utf-8", "replace")) else "text"
    return "csv" if _looks_like_csv(head.decode("utf-8", "replace")) else "text"


def _sample_lines(text: str) -> list[str]:
    """The first lines (up to ten) of a sample of an input's start, blank
    and comment lines aside, without a last line the sample cuts short."""
    lines = [line for line in text.splitlines() if not is_skipped(line)]
    if len(lines) > 1 and not text.endswith(("\n", "\r")):
        lines.pop()  # cut short by the sample's end
    return lines[:10]


def _tab_table(text: str) -> bool:
    r"""Whether a text is a table of cells between tabs, as a spreadsheet
    saves one as text (Excel's "Text (Tab delimited)" and "Unicode Text"):
    its first lines hold tabs, as many on every line, no ``|``, and some
    cell that is a label or a number, not a card or a hand (a text line may
    put tabs between hands, never a label).

    >>> _tab_table('Showdowns\t\t\nRound\tPlayer 1\tPlayer 2\n1\tAS KS QS JS TS\t2C 3C 4C 5C 7D\n')
    True
    >>> _tab_table('AS KS QS JS TS\t2C 3C 4C 5C 7D\n2H 3H 4H 5H 7C\tAD KD QD JD TD\n')
    False
    """
    lines = _sample_lines(text)
    if not lines or len({line.count("\t") for line in lines}) != 1 or "\t" not in lines[0]:
        return False
    if any("|" in line for line in lines):
        return False
    return any(_a_label(c) for line in lines for c in line.split("\t"))


def _a_label(cell: str) -> bool:
    """Whether a cell is evidence of a table: a label or a number (not a
    card or a hand), with a letter or a digit in it, and no byte that was
    not UTF-8 (punctuation or an undecodable byte says nothing)."""
    return (
        "\ufffd" not in cell
        and any(c.isalnum() for c in cell)
        and cell_shape(cell, suits=False) == OTHER
    )


def _looks_like_csv(text: str) -> bool:
    r"""Content sniffing, on the first lines (up to ten): CSV when some line
    has commas and a comma-separated cell that is a label or a header (not
    a card or a hand: text lines may put commas between cards), and no line
    has the text format's hand separators. A title line without commas does
    not count either way.

    >>> _looks_like_csv('Showdowns\nRound,Player 1,Player 2\n1,AS KS QS JS TS,2C 3C 4C 5C 7D\n')
    True
    >>> _looks_like_csv('KD 9C, 4H KS 9D\nAS, KS, QS, JS, TS\n')
    False

    A table between tabs counts too (see :func:`_tab_table`).
    """
    if _tab_table(text):
        return True
    lines = _sample_lines(text)
    if any(s in line for line in lines for s in ("|", ";", "\t", " vs ")):
        return False
    for line in lines:
        if "," in line:
            cells = next(csv.reader([line]), [])
            if any(cell_shape(c, suits=False) == OTHER for c in cells):
                return True
    return False


# --- sources -----------------------------------------------------------------------------


@dataclass
class Source:
    """The rows of an input, and what writers and people need to know:
    the input's column names (tables), how many hands a row holds (a
    table's hand columns; for text, the most among the first rows), how a
    table was read (``note``), and the progress of reading when it is known.

    A text input in UTF-8 also offers its lines as :class:`Block` s
    (``blocks``), for readers that take whole blocks at once, and that may
    cut the file into parts at its line starts; use either ``rows`` or
    ``blocks``, not both. (A text recoded from UTF-16 or UTF-32 offers rows
    only: its bytes are not its lines.)
    """

    rows: Iterator[Row]
    columns: list[str]
    hands_per_row: int
    name: str
    note: str | None = None
    blocks: Iterator[Block] | None = None
    progress: Callable[[], float] | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)
    #: Read from a regular file (a read never waits on a writer, as a pipe's can).
    regular: bool = False
    #: A table's layout (None for text), its header's line (None: no header)
    #: and, for a workbook, the sheet read.
    layout: TableLayout | None = None
    header_line: int | None = None
    sheet: str | None = None
    #: A text or CSV input's encoding: UTF-8, or UTF-16 or UTF-32 (by its byte order mark).
    encoding: str = "UTF-8"
    #: A CSV input's delimiter (``,``, ``;`` or a tab; ``,`` for any other
    #: input): CSV output keeps it, so a file from Excel in a locale that
    #: writes ``;`` opens there again.
    delimiter: str = ","

    @property
    def label_columns(self) -> list[tuple[int, str]]:
        """A table's label columns (those that hold no hands): each its
        index and name; none for text."""
        if self.layout is None:
            return []
        kinds = self.layout.kinds
        return [(c, name) for c, name in enumerate(self.columns) if c >= len(kinds) or kinds[c] == OTHER]

    @property
    def most_hands(self) -> int | None:
        """The most hands a row may hold: for a text input, whose lines may
        hold more hands than its first rows, the output's (``hands_per_row``;
        a wider row is an error row, :func:`wide_row_error`); None for a
        table, whose every row holds its hand columns."""
        return self.hands_per_row if self.layout is None else None

    def close(self) -> None:
        for closer in self.closers:
            closer()


def open_source(
    path: str,
    *,
    input_format: str | None = None,
    sheet: str | None = None,
    stdin: IO[bytes] | None = None,
    suits: bool = True,
    hands: str | None = None,
    best_five: bool = False,
) -> Source:
    """Open an input (``-`` for standard input, given as a binary stream)
    once, and detect its format by extension or content unless
    ``input_format`` says. ``suits``: whether the rule set has suits (a lone
    rank in a table cell is then a number, not a card). ``hands``: the
    table's hand columns, as :meth:`~fivecard.files.rows.TableLayout.from_spec`
    reads them (default: decided by shape). ``best_five``: hands hold 5 to 7
    cards (how a text line splits into hands, see
    :func:`~fivecard.files.rows.split_line`)."""
    opened = _open_input(path, stdin)
    try:
        fmt = input_format or ("xlsx" if _is_workbook(path, opened.head) else None)
        if fmt != "xlsx":
            opened.raw, opened.head, opened.encoding = recoded(opened.raw, opened.head, opened.name)
        fmt = fmt or _format_of(path, opened.head)
        if sheet is not None and fmt != "xlsx":
            raise FileError(f"a sheet is named, but {quote(opened.name, PATH_QUOTE)} is read as {fmt}, not as a workbook")
        if fmt == "xlsx":
            source = _xlsx_source(opened, sheet, suits, hands)
        elif fmt == "csv":
            kind = "CSV" if opened.encoding == "UTF-8" else f"CSV in {opened.encoding}"
            # a text file found to be a table between tabs keeps text's comment lines
            sniffed = input_format is None and _suffix(path) not in _CSV_SUFFIXES
            dialect = _dialect(opened.head.decode("utf-8-sig", "replace"))
            comments = sniffed and _tab_table(opened.head.decode("utf-8", "replace"))
            source = _table_source(_csv_records(opened, dialect, comments=comments), opened.name, kind, suits, hands)
            source.encoding = opened.encoding
            source.delimiter = dialect.delimiter
        else:
            if hands is not None:
                raise FileError("hand columns can be named only for a table (CSV or xlsx); a text line holds its hands in order")
            source = _text_source(opened, best_five)
    except BaseException:
        opened.close()
        raise
    source.closers.append(opened.close)
    source.regular = opened.size is not None
    if opened.size is not None and opened.size >= _PROGRESS_BYTES and fmt != "xlsx":
        size, raw = opened.size, opened.raw
        source.progress = lambda: min(raw.tell() / size, 1.0)
    return source


def wide_row_error(count: int, most: int) -> str:
    """The error of a text line with more hands than the output has columns
    for: the most a line holds among the first :data:`_SAMPLE_ROWS` rows,
    and at most :data:`_MOST_HANDS`. (The output is streamed: its header is
    written before the later rows are read, and a row spilling past its
    columns would break the table.)

    >>> wide_row_error(3, 2)
    "3 hands, and the output has columns for 2 (the most a row holds among the input's first 50 rows): put a row of 3 hands among the first rows, or solve such rows apart"
    """
    why = f"the most a row holds among the input's first {_SAMPLE_ROWS} rows"
    if most >= _MOST_HANDS:
        why, fix = f"at most {_MOST_HANDS}", "solve such rows apart"
    elif count > _MOST_HANDS:
        fix = "solve such rows apart"
    else:
        fix = f"put a row of {count:,} hands among the first rows, or solve such rows apart"
    return f"{count:,} hands, and the output has columns for {most} ({why}): {fix}"


def _text_source(opened: _Input, best_five: bool) -> Source:
    blocks = read_blocks(opened.raw, opened.head)
    sampled: list[Block] = []
    seen = 0
    most = 1
    for block in blocks:
        sampled.append(block)
        for row in block_rows(block, best_five=best_five):
            seen += 1
            most = max(most, len(row.hands))
            if seen >= _SAMPLE_ROWS:
                break
        if seen >= _SAMPLE_ROWS:
            break
    lines = itertools.chain(sampled, blocks)
    rows = (row for block in lines for row in block_rows(block, best_five=best_five))
    # A recoded text's lines are not its bytes: no blocks, so no process is given a part of the file.
    whole = lines if opened.encoding == "UTF-8" else None
    return Source(rows, ["input"], min(most, _MOST_HANDS), opened.name, blocks=whole, encoding=opened.encoding)


# --- CSV --------------------------------------------------------------------------------


class _Table(csv.Dialect):
    """A CSV dialect: double quotes, doubled to escape, spaces after a
    delimiter skipped (``1, "AS KS"``)."""

    delimiter = ","
    quotechar = '"'
    doublequote = True
    skipinitialspace = True
    lineterminator = "\n"
    quoting = csv.QUOTE_MINIMAL
    strict = False


def _outside_quotes(line: str, delimiter: str) -> int:
    """How often the delimiter occurs outside double quotes."""
    if '"' not in line:
        return line.count(delimiter)
    return sum(part.count(delimiter) for part in line.split('"')[::2])


def _dialect(sample: str) -> type[csv.Dialect]:
    r"""The delimiter, among ``,``, ``;`` and tab: the one that occurs the
    same number of times (outside quotes) on the most lines of the sample,
    so that a title row, a ragged row or commas inside hands do not sway it;
    between equals, the one whose cells look least like loose text (``1;KD,
    9C, 4H, 3S, 9D;...`` splits on ``;`` into a number and hands, on ``,``
    into cells such as ``1;KD``).

    >>> _dialect('Title\nRound;Hand 1;Hand 2\n1;KD, 9C, 4H, KS, 9D;AS KS QS JS TS\n').delimiter
    ';'
    >>> _dialect('1;KD, 9C, 4H, 3S, 9D;AS, KS, QS, JS, TS\n2;2C, 3C, 4C, 5C, 7D;AH, KH, QH, JH, TH\n').delimiter
    ';'
    """
    lines = [line for line in sample.splitlines() if line.strip()]
    if len(lines) > 1 and not sample.endswith(("\n", "\r")):
        lines.pop()  # cut short by the sample's end
    lines = lines[:20]
    best, best_score = ",", (0, 0.0)
    for delimiter in (",", ";", "\t"):
        counts = [_outside_quotes(line, delimiter) for line in lines]
        found = [c for c in counts if c]
        if not found:
            continue
        usual = max(set(found), key=lambda c: (found.count(c), c))
        agreeing = [line for line, c in zip(lines, counts) if c == usual]
        cells = [cell for line in agreeing for cell in next(csv.reader([line], delimiter=delimiter), [])]
        loose = sum(1 for cell in cells if _loose(cell)) / max(len(cells), 1)
        score = (len(agreeing), -loose)
        if score > best_score:
            best, best_score = delimiter, score
    return type("_Sniffed", (_Table,), {"delimiter": best})


def _loose(cell: str) -> bool:
    """A cell that is text, not a number, a card or a hand."""
    text = cell.strip()
    return bool(text) and not text.replace(".", "", 1).isdecimal() and cell_shape(text, suits=False) == OTHER


def _csv_records(opened: _Input, dialect: type[csv.Dialect], *, comments: bool = False) -> Iterator[Record]:
    """The records of a CSV input. A record is one line, or several when a
    quoted cell holds line breaks: at most :data:`RECORD_LINES` lines, none
    of them (but the last) a row of its own (no quote, and as many cells as
    the widest record so far). Otherwise the line that opened the quote is
    an error row, and reading goes on from the next line. ``comments``: a
    line that is a comment in a text input (its first character but spaces
    is ``#``) is a blank record (a text file read as a table between tabs).
    ``dialect``: the input's (see :func:`_dialect`)."""
    mark = dialect.quotechar or '"'
    delimiter = dialect.delimiter
    lines = _lines(read_blocks(opened.raw, opened.head))
    back: deque[tuple[int, str, str | None]] = deque()
    width = 0  # the most cells of a record so far

    def next_line() -> tuple[int, str, str | None] | None:
        return back.popleft() if back else next(lines, None)

    def row_of_its_own(text: str) -> bool:
        return width > 1 and mark not in text and text.count(delimiter) + 1 >= width

    while (item := next_line()) is not None:
        number, text, error = item
        if comments and is_skipped(text):
            yield Record(number, [])
            continue
        if error is not None and error.startswith(NOT_UTF8):  # its cells, and why its row fails
            record = _record(number, text, dialect)
            yield record if _blank(record) else Record(number, record.cells, record.error or error)
            continue
        if error is not None:
            yield Record(number, [text], error)
            continue
        if not _open_at_end(text, delimiter):
            record = _record(number, text, dialect)
            width = max(width, len(record.cells)) if record.error is None else width
            yield record
            continue
        taken: list[tuple[int, str, str | None]] = []
        size = len(text)
        joined_record: Record | None = None
        while len(taken) < RECORD_LINES - 1 and size <= MAX_LINE:
            more = next_line()
            if more is None:
                break
            taken.append(more)
            if more[2] is not None:
                break
            size += len(more[1]) + 1
            whole = "\n".join([text] + [t for _, t, _ in taken])
            if size <= MAX_LINE and not _open_at_end(whole, delimiter):
                joined = _record(number, whole, dialect)
                if joined.error is None:
                    joined_record = joined
                break
            if row_of_its_own(more[1]):
                break
        if joined_record is not None:
            yield joined_record
            continue
        yield Record(
            number,
            [text],
            f"unclosed quote ({mark}) in {quote(text)}: a quoted cell must end on its line "
            f"(or, holding line breaks, within {RECORD_LINES} lines)",
        )
        back.extendleft(reversed(taken))


def _open_at_end(text: str, delimiter: str) -> bool:
    """Whether a CSV record's text ends inside a quoted cell, read as the
    csv module reads it: a quote opens a cell only at the cell's start
    (after spaces), ``""`` inside is a quote, and a quote elsewhere is a
    plain character (``O"Brien``).

    >>> _open_at_end('1,"AS KS', ','), _open_at_end('O"Brien,AS KS', ','), _open_at_end('1, "a""b",c', ',')
    (True, False, False)
    """
    if '"' not in text:
        return False
    i, end = 0, len(text)
    while i <= end:
        while i < end and text[i] == " ":
            i += 1
        if i < end and text[i] == '"':  # a quoted cell: find its closing quote
            i += 1
            while True:
                close = text.find('"', i)
                if close < 0:
                    return True
                if text.startswith('""', close):
                    i = close + 2
                    continue
                i = close + 1
                break
        next_cell = text.find(delimiter, i)
        if next_cell < 0:
            return False
        i = next_cell + 1
    return False


def _record(number: int, text: str, dialect: Any) -> Record:
    try:
        cells = next(csv.reader([text], dialect), [])
    except csv.Error as exc:
        reason = str(exc)
        if "field limit" in reason:
            reason = f"a cell holds more than {csv.field_size_limit():,} characters"
        return Record(number, [text[:100]], f"bad CSV: {reason}")
    if len(cells) > MAX_TABLE_COLUMNS and any(c.strip() for c in cells[MAX_TABLE_COLUMNS:]):
        return Record(
            number,
            cells[:MAX_TABLE_COLUMNS],
            f"{len(cells):,} cells; a table row holds at most {MAX_TABLE_COLUMNS:,}",
        )
    return Record(number, cells[:MAX_TABLE_COLUMNS])


# --- xlsx -------------------------------------------------------------------------------


def _xlsx_source(opened: _Input, sheet: str | None, suits: bool, hands: str | None) -> Source:
    if opened.size is not None:
        workbook_file: IO[bytes] = opened.raw
    else:  # a pipe: a zip must be read with seeks
        spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed below or with the source
        try:
            spool.write(opened.head)
            total = len(opened.head)
            while chunk := opened.raw.read(_BLOCK):
                total += len(chunk)
                if total > _MAX_SPOOL:
                    raise FileError(f"a workbook read from a pipe may hold at most {_MAX_SPOOL >> 20:,} MiB")
                spool.write(chunk)
        except BaseException:
            spool.close()
            raise
        workbook_file = spool
    workbook_file.seek(0)
    book = None
    try:
        book = open_workbook(workbook_file)
        name, records = book.rows(sheet)
    except BaseException:
        if book is not None:
            book.close()
        if workbook_file is not opened.raw:
            workbook_file.close()
        raise
    source = _table_source(records, opened.name, f"xlsx, sheet {quote(name, PATH_QUOTE)}", suits, hands)
    source.sheet = name
    source.closers.append(book.close)
    if workbook_file is not opened.raw:
        source.closers.append(workbook_file.close)
    return source


# --- tables ------------------------------------------------------------------------------


def _blank(record: Record) -> bool:
    cells = record.cells
    return record.error is None and not record.formulas and (
        not any(c.strip() for c in cells) or (len(cells) == 1 and is_skipped(cells[0]))
    )


def _table_source(
    records: Iterator[Record], name: str, kind: str, suits: bool, hands: str | None
) -> Source:
    """Rows of a table (CSV or sheet): decide the layout on the first rows,
    then read every row with it. Empty rows are skipped like blank lines;
    title rows above the header are skipped and reported."""
    sample: list[Record] = []
    for record in records:
        if not _blank(record):
            sample.append(record)
            if len(sample) >= _SAMPLE_ROWS:
                break
    # The rows that show the layout: a row whose only fault is a byte that is not UTF-8 too
    # (a header in Latin-1 is a header; as a data row it is an error row that says so).
    good = [r for r in sample if r.error is None or r.error.startswith(NOT_UTF8)]
    cells = [r.cells for r in good]
    if hands is not None:
        layout = TableLayout.from_spec(hands, cells, suits=suits)
    else:
        layout = TableLayout.detect(cells, suits=suits)
    width = min(layout.width, MAX_TABLE_COLUMNS)
    skip = {id(r) for r in good[: layout.start]}  # titles and the header
    header = good[layout.header].cells if layout.header is not None else []
    columns = [
        (header[i].strip() if i < len(header) else "") or f"column {i + 1}" for i in range(width)
    ]
    note = f"{name}: read as {kind}"
    titles = [r.number for r in good[: layout.start] if layout.header is None or r is not good[layout.header]]
    if titles:
        which = f"line {titles[0]}" if len(titles) == 1 else f"lines {titles[0]}-{titles[-1]}"
        note += f"; {which} {'above the header ' if layout.header is not None else ''}skipped as a title"
    if layout.header is not None:
        note += f"; header on line {good[layout.header].number}"
    else:
        note += "; no header"
    note += "; " + layout.describe(header)
    for record in good[layout.start :]:  # a label column that holds hands in the first rows: stop now
        if record.error is None:
            layout.check(record.number, record.cells, header)

    def rows() -> Iterator[Row]:
        for record in itertools.chain(sample, records):
            if id(record) in skip or _blank(record):
                continue
            if record.error is not None:
                yield Row(record.number, tuple(record.cells[:width]), error=record.error)
                continue
            cells = record.cells
            while len(cells) > width and not cells[-1].strip():
                cells = cells[:-1]  # empty cells past the table's columns (a trailing delimiter)
            layout.check(record.number, cells, header)
            if len(cells) > width:  # the output's columns are the table's: nothing may spill past them
                yield Row(record.number, tuple(cells[:width]), error=_past_error(cells[width:], width))
                continue
            unsaved = _unsaved_hand(record, cells, layout)
            if unsaved is not None:
                yield Row(record.number, tuple(cells), error=unsaved)
                continue
            yield Row(record.number, tuple(cells), layout.hands(cells))

    header_line = good[layout.header].number if layout.header is not None else None
    return Source(
        rows(), columns, max(len(layout.units), 1), name, note=note, layout=layout, header_line=header_line
    )


def _past_error(past: Sequence[str], width: int) -> str:
    """The error of a table row with cells past the table's columns (set by
    its first rows, and the output's: a cell past them has no column there)."""
    shown = ", ".join(quote(c) for c in past if c.strip())
    cells = "a cell" if len(past) == 1 else f"{len(past):,} cells"
    return (
        f"{cells} past the table's {width} columns (set by its first rows), where the output has no "
        f"column: {shown if len(shown) <= 200 else shown[:200] + '...'}; give the column a header"
    )


def _unsaved_hand(record: Record, cells: Sequence[str], layout: TableLayout) -> str | None:
    """Why a sheet's row cannot be read: a hand cell that holds a formula
    with no saved value (else the hand would read as empty), or None."""
    if not record.formulas:
        return None
    for k, unit in enumerate(layout.units, 1):
        for column in unit:
            formula = record.formulas.get(column)
            if formula is not None and not (column < len(cells) and cells[column].strip()):
                message = unsaved_formula(column, record.number, formula)
                return f"hand {k}: {message}" if len(layout.units) > 1 else message
    return None


class _Pieces(io.RawIOBase):
    """A byte stream read from an iterator of its pieces, each taken when
    the bytes before it are read (what is held: the piece being read)."""

    def __init__(self, pieces: Iterable[bytes]) -> None:
        self.pieces = iter(pieces)
        self.piece = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self.piece:
            piece = next(self.pieces, None)
            if piece is None:
                return 0
            self.piece = memoryview(piece)
        size = min(len(buffer), len(self.piece))
        buffer[:size] = self.piece[:size]
        self.piece = self.piece[size:]
        return size


def byte_stream(pieces: Iterable[bytes]) -> IO[bytes]:
    """A byte stream of ``pieces`` (lines, or any cuts of the bytes), each
    made only as the stream is read that far: an input that is never whole
    in memory."""
    return _Pieces(pieces)  # type: ignore[return-value]


def binary_stdin(stream: Any) -> IO[bytes] | None:
    """The bytes beneath a text stream (``sys.stdin.buffer``), or the text
    re-encoded as UTF-8 for a stream without them (tests, embedding)."""
    raw = getattr(stream, "buffer", None)
    if raw is not None:
        return raw  # type: ignore[no-any-return]
    if stream is None:
        return None
    return io.BytesIO(stream.read().encode("utf-8", "surrogateescape"))
