"""Hypothesis strategies for adversarial inputs: random bytes, almost-valid
text lines, CSV tables, and workbooks (made with openpyxl, or zipped by hand
from sheet XML). Used by ``tests/files/test_readers_fuzz.py``."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

# --- pieces -----------------------------------------------------------------------------

#: Real card spellings (every form the parser knows), jokers and lone ranks.
CARDS: tuple[str, ...] = (
    "AS", "kd", "Qh", "jC", "TS", "10♦", "10d", "9♥", "2♣", "A♠", "K♤", "5♡", "7♢", "3♧",
    "4♠\ufe0f", "J", "q", "10", "JK", "joker", "X", "*", "🃏", "8C", "6h", "\U0001f0a1", "\U0001f0de",
)  # fmt: skip
#: Mistyped cards: unknown ranks and suits, suits alone, card-like words.
TYPOS: tuple[str, ...] = (
    "1S", "11H", "ZZ", "AX", "8O", "♠", "S", "0", "AAS", "Round", "vs", "VS.", "JKK", "1",
    "♦\ufe0f", "\ufe0f", "K♦♦", "\U0001f0ac", "AsKx",
)  # fmt: skip
#: What may stand between cards and hands.
SEPARATORS: tuple[str, ...] = (
    " ", "  ", ",", ", ", " ,", "|", " | ", ";", "\t", " vs ", " VS. ", " vs", "vs ", "||",
    ";;", ",,,", "\t\t", " | | ", "\u00a0", "\u3000",
)  # fmt: skip
#: Characters that trip parsers: controls, BOMs, odd line ends and spaces,
#: quotes, comment marks, formula starts.
NASTY: tuple[str, ...] = (
    "\x00", "\x07", "\x1b", "\x1b[31m", "\ufeff", "\r", "\u2028", "\x85", "\x0b", "\x0c",
    "\x1c", "\u200b", "\ufffd", "#", '"', "'", "=1+1", "@x", "+x", "-x", "=cmd|' /C calc'!A0",
    "é", "\U0001f0cf",
)  # fmt: skip
#: Line ends the readers accept.
LINE_ENDS: tuple[str, ...] = ("\n", "\r\n", "\r")
BOM = "\ufeff"
#: Bytes that are not UTF-8: a lone continuation byte, a truncated sequence,
#: a surrogate, an overlong NUL, a byte no UTF-8 text holds.
BAD_UTF8: tuple[bytes, ...] = (b"\x80", b"\xc3", b"\xe2\x99", b"\xed\xa0\x80", b"\xc0\x80", b"\xff")

tokens = st.sampled_from(CARDS + TYPOS + NASTY)
separators = st.sampled_from(SEPARATORS)


@st.composite
def hand_texts(draw: st.DrawFn, max_tokens: int = 12) -> str:
    """Mostly card tokens, some typos and nasty characters, joined by any
    separators; sometimes a valid hand, often almost one."""
    count = draw(st.integers(0, max_tokens))
    card = st.one_of(st.sampled_from(CARDS), tokens)  # real cards twice as often
    parts: list[str] = []
    for i in range(count):
        if i:
            parts.append(draw(st.one_of(st.just(" "), separators)))
        parts.append(draw(card))
    text = "".join(parts)
    if draw(st.booleans()):
        before = draw(st.sampled_from(("", " ", "  ", "\t", BOM)))
        text = before + text + draw(st.sampled_from(("", " ", "\t")))
    return text


#: Any text: almost-valid hands, or arbitrary Unicode.
any_text = st.one_of(hand_texts(), st.text(max_size=40))


@st.composite
def text_lines(draw: st.DrawFn) -> str:
    """One line of a text input, without its line end (but it may hold a
    lone ``\\r`` or other line-breaking characters from :data:`NASTY`)."""
    kind = draw(st.sampled_from(("hands", "hands", "hands", "comment", "blank", "run", "any")))
    if kind == "hands":
        count = draw(st.integers(1, 4))
        return draw(separators).join(draw(hand_texts(max_tokens=7)) for _ in range(count))
    if kind == "comment":
        return draw(st.sampled_from(("#", " #", "\t# "))) + draw(st.text(max_size=10))
    if kind == "blank":
        return draw(st.sampled_from(("", " ", "\t", "   ", "\u00a0", "\u3000 ")))
    if kind == "run":  # a long run of one separator
        return draw(separators) * draw(st.integers(1, 30))
    return draw(st.text(max_size=30))


@dataclass(frozen=True)
class TextFile:
    """A text input as bytes, and the lines it was made of, each as a reader
    should see it (decoded as UTF-8, an invalid byte as U+FFFD)."""

    data: bytes
    lines: tuple[str, ...]


@st.composite
def text_files(draw: st.DrawFn, max_lines: int = 12) -> TextFile:
    """A text input: lines of :func:`text_lines` without ``\\r`` and ``\\n``
    (other characters that some splitters take for line ends stay), joined
    by any of ``\\n``, ``\\r\\n``, ``\\r``; maybe a BOM first, no line end
    last, invalid UTF-8 in some lines. Its lines are known exactly."""
    count = draw(st.integers(0, max_lines))
    lines: list[str] = []
    chunks: list[bytes] = []
    bom = draw(st.booleans())
    if bom:
        chunks.append(BOM.encode())
    end = ""
    for i in range(count):
        line = draw(text_lines()).replace("\r", " ").replace("\n", " ")
        raw = line.encode("utf-8")
        if draw(st.integers(0, 9)) == 0:
            where = draw(st.integers(0, len(raw)))
            raw = raw[:where] + draw(st.sampled_from(BAD_UTF8)) + raw[where:]
        last = i == count - 1
        if last and not raw and not draw(st.booleans()):
            break  # an empty last line without a line end is no line
        lines.append(raw.decode("utf-8", "replace"))
        chunks.append(raw)
        if not last or draw(st.booleans()):
            # After \r, an empty line ends in \r too: \r then \n would be one line end.
            end = "\r" if end == "\r" and not raw else draw(st.sampled_from(LINE_ENDS))
            chunks.append(end.encode())
    if lines and not bom and lines[0].startswith(BOM):
        lines[0] = lines[0][1:]  # the input's first bytes are a byte order mark after all
    return TextFile(b"".join(chunks), tuple(lines))


#: Byte pieces that make line readers work: line ends split every way, BOMs
#: and their halves, spaces, quotes, separators, invalid UTF-8.
BYTE_PIECES: tuple[bytes, ...] = (
    b"\n", b"\r", b"\r\n", b"\n\r", b" ", b"  ", b"\t", b"x", b"xxxxxxxx", b"\xef\xbb\xbf",
    b"\xef", b"\xef\xbb", b"#", b"|", b";", b",", b'"', b"AS KS QS JS TS", b"2c 3c 4c 5c 7d",
    b" vs ", b"\x00", b"\x1b", b"\x0b",
) + BAD_UTF8  # fmt: skip

#: Bytes: uniformly random, or strung from :data:`BYTE_PIECES`.
random_bytes = st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from(BYTE_PIECES), max_size=60).map(b"".join),
    st.lists(st.one_of(st.sampled_from(BYTE_PIECES), st.binary(max_size=20)), max_size=30).map(b"".join),
)


# --- CSV -----------------------------------------------------------------------------------

#: Cells of a table: hands, cards, labels, numbers, formula-looking text,
#: text with line breaks (quoted by the writer), empty cells. No delimiter
#: and no single quote, so a sniffer cannot take the table for another
#: dialect than the one it was written in.
table_cells = st.one_of(
    st.just(""),
    st.sampled_from(("AS KS QS JS TS", "2c 3c 4c 5c 7d", "KD, 9C, 4H, KS, 9D", "10♦ A♥ 3♠ 4♥ 5♣")),
    st.sampled_from(CARDS + TYPOS),
    st.sampled_from(("Round 1", "Player 1", "Player 2", "id", "7", "12.5", "=1+1", "@x", "+x", "-x", "#")),
    hand_texts(max_tokens=6),
    st.text(st.characters(codec="utf-8", blacklist_characters=",;\t'"), max_size=12),
    st.sampled_from(("AS\nKS", "line\r\nbreak", 'say "hi"', '"', '""', " \n ")),
).map(lambda cell: cell.replace(",", " ").replace(";", " ").replace("\t", " ").replace("'", "`"))


@dataclass(frozen=True)
class CsvTable:
    """A CSV input as bytes, and its records: ``titles`` title rows, then a
    header, then data rows."""

    data: bytes
    delimiter: str
    records: tuple[tuple[str, ...], ...]
    header: int  # index in records


def _csv_field(cell: str, delimiter: str) -> str:
    """A cell as CSV writes it: quoted when it holds the delimiter, a quote
    or a line break (the csv module leaves a lone \\r unquoted when lines
    end in \\n)."""
    if any(c in cell for c in (delimiter, '"', "\r", "\n")):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def _csv_bytes(records: Sequence[Sequence[str]], delimiter: str, terminator: str, bom: bool) -> bytes:
    lines = (delimiter.join(_csv_field(c, delimiter) for c in record) for record in records)
    text = "".join(line + terminator for line in lines)
    return (BOM if bom else "").encode() + text.encode("utf-8")


@st.composite
def csv_tables(draw: st.DrawFn, max_rows: int = 10) -> CsvTable:
    """A table with a known layout: maybe title rows, a header (``Round``,
    ``Player 1``, ``Player 2``), a first data row of two good hands, then rows
    of any :data:`table_cells`, ragged (short rows, cells past the header).

    Title rows, ragged rows and line breaks in cells only with commas: the
    dialect sniffer takes a table delimited by ``;`` or tabs for commas when
    they are there (see ``test_sniffing_tables_not_delimited_by_commas`` in
    test_fuzz.py)."""
    delimiter = draw(st.sampled_from((",", ";", "\t")))
    comma = delimiter == ","
    title = st.sampled_from(("Showdowns of March", "Table 7", "notes")).map(lambda t: (t,))
    titles = draw(st.lists(title, max_size=2 if comma else 0))
    header = ("Round", "Player 1", "Player 2")
    first = ("1", "AS KS QS JS TS", "2c 3c 4c 5c 7d")
    fewest, most = (2, 5) if comma else (3, 3)
    cells = table_cells if comma else table_cells.map(lambda c: c.replace("\r", " ").replace("\n", " "))
    rows = draw(st.lists(st.lists(cells, min_size=fewest, max_size=most).map(tuple), max_size=max_rows))
    records = (*titles, header, first, *rows)
    terminator = draw(st.sampled_from(("\n", "\r\n")))
    data = _csv_bytes(records, delimiter, terminator, draw(st.booleans()))
    return CsvTable(data, delimiter, tuple(records), len(titles))


@st.composite
def raw_csv_texts(draw: st.DrawFn, max_lines: int = 40, delimiters: str = ",;\t") -> bytes:
    """CSV-ish text written by hand: lines of cells joined by one of the
    delimiters, with stray quotes (many left open), quoted cells spanning
    lines, empty lines, ragged rows."""
    delimiter = draw(st.sampled_from(delimiters))
    cell = st.one_of(
        table_cells,
        st.sampled_from(('"', '"AS KS', 'QS"', '"a""b"', '""', '"x\ny"', 'a"b')),
    )
    lines = draw(st.lists(st.lists(cell, min_size=1, max_size=4).map(delimiter.join), max_size=max_lines))
    ending = draw(st.sampled_from(("\n", "\r\n")))
    return ending.join(["Round" + delimiter + "Player 1" + delimiter + "Player 2", *lines]).encode()


# --- workbooks -----------------------------------------------------------------------------

#: What a cell of a workbook made by openpyxl may hold (no control
#: characters, which openpyxl refuses; a text starting with "=" would be
#: written as a formula without a value, so it reads as empty).
xlsx_values = st.one_of(
    st.none(),
    st.just(""),
    st.sampled_from(("AS KS QS JS TS", "2c 3c 4c 5c 7d", "KD, 9C, 4H, KS, 9D", "x", "#", "# note", " ")),
    st.sampled_from(CARDS + TYPOS),
    hand_texts(max_tokens=6).filter(lambda t: t.isprintable()),
    st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=10),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.booleans(),
)


@dataclass(frozen=True)
class XlsxBook:
    """A workbook as bytes and the values of its sheets (first sheet first),
    rows as written, ``None`` for an empty cell."""

    data: bytes
    sheets: tuple[tuple[tuple[object, ...], ...], ...]


def xlsx_cell_text(value: object) -> str:
    """Whether a written value reads back as text, and as what text (for
    blankness only): ``""`` for an empty cell or a formula."""
    if value is None:
        return ""
    if isinstance(value, str):
        return "" if value.startswith("=") else value
    return str(value)


@st.composite
def xlsx_books(draw: st.DrawFn, max_rows: int = 8) -> XlsxBook:
    """A workbook written by openpyxl: one to three sheets of random cells,
    the first with a header and a first row of two good hands, gaps
    between rows sometimes."""
    import openpyxl

    book = openpyxl.Workbook()
    sheets: list[tuple[tuple[object, ...], ...]] = []
    count = draw(st.integers(1, 3))
    for index in range(count):
        sheet = book.active if index == 0 else book.create_sheet()
        assert sheet is not None
        sheet.title = f"S{index + 1}"
        rows: list[tuple[object, ...]] = []
        if index == 0:
            rows += [("Round", "Player 1", "Player 2"), (1, "AS KS QS JS TS", "2c 3c 4c 5c 7d")]
        rows += draw(st.lists(st.lists(xlsx_values, max_size=5).map(tuple), max_size=max_rows))
        for row in rows:
            sheet.append(list(row))
        sheets.append(tuple(rows))
    out = io.BytesIO()
    book.save(out)
    return XlsxBook(out.getvalue(), tuple(sheets))


_CONTENT_TYPES = (
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="xml" ContentType="application/xml"/></Types>'
)
_WORKBOOK = (
    '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_RELS = (
    '<?xml version="1.0"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)
_STRINGS = (
    '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    "<si><t>AS KS QS JS TS</t></si><si><r><t>2c 3c </t></r><r><t>4c 5c 7d</t></r></si>"
    "<si><t>x</t><rPh><t>ignored</t></rPh></si></sst>"
)
_STYLES = (
    '<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="x" formatCode="0"/></numFmts>'
    '<cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="²"/></cellXfs></styleSheet>'
)  # style 1 and 2 are dates
_DOCTYPE = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><x>&a;</x>'

cell_refs = st.one_of(
    st.sampled_from(("A", "B", "C", "D", "AA", "XFD", "XFE", "ZZZZ", "a", "1", "A0", "", "-A", "Ａ", "AΩ")),
    st.from_regex(r"[A-Z]{1,4}[0-9]{0,8}", fullmatch=True),
)
row_numbers = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(("", "x", "-1", "1048576", "1048577", "99999999", "999999999999", "१", "¹", "1.5")),
)


@st.composite
def sheet_cells(draw: st.DrawFn) -> str:
    """One ``<c>`` element written by hand: any reference, type and value."""
    ref = draw(cell_refs)
    kind = draw(st.sampled_from(("", "s", "b", "str", "inlineStr", "e", "d", "n", "zz")))
    value = draw(
        st.one_of(
            st.sampled_from(("0", "1", "60", "-1", " 1", "³", "1e308", "1e999", "nan", "2958466", "", "AS KS")),
            st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8),
        )
    )
    value = value.replace("&", "&amp;").replace("<", "&lt;")
    attrs = (f' r="{ref}"' if draw(st.booleans()) else "") + (f' t="{kind}"' if kind else "")
    attrs += draw(st.sampled_from(("", ' s="1"', ' s="2"', ' s="3"', ' s="x"', ' s="999"', ' s="²"')))
    if kind == "inlineStr":
        return f"<c{attrs}><is><t>{value}</t></is></c>"
    forms = (f"<c{attrs}><v>{value}</v></c>", f"<c{attrs}/>", f"<x:c{attrs}><x:v>{value}</x:v></x:c>")
    return draw(st.sampled_from(forms))


@st.composite
def sheet_xml(draw: st.DrawFn) -> bytes:
    """A sheet part written by hand: rows with any numbers and cells, and
    sometimes a document type, garbage or a cut."""
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        number = draw(row_numbers)
        attr = f' r="{number}"' if draw(st.booleans()) else ""
        cells = "".join(draw(st.lists(sheet_cells(), max_size=4)))
        rows.append(f"<row{attr}>{cells}</row>")
    body = (
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<sheetData>{''.join(rows)}</sheetData></worksheet>"
    )
    damage = draw(st.sampled_from(("none", "none", "none", "doctype", "cut", "garbage", "entity")))
    data = body.encode()
    if damage == "doctype":
        data = _DOCTYPE.encode()
    elif damage == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    elif damage == "garbage":
        data = draw(st.binary(max_size=60))
    elif damage == "entity":
        data = data.replace(b"<sheetData>", b"<sheetData>&bogus;")
    return data


#: The parts of a small workbook written by hand (its sheet: two hands in row 1).
BOOK_PARTS: dict[str, bytes] = {
    "[Content_Types].xml": _CONTENT_TYPES.encode(),
    "xl/workbook.xml": _WORKBOOK.encode(),
    "xl/_rels/workbook.xml.rels": _RELS.encode(),
    "xl/sharedStrings.xml": _STRINGS.encode(),
    "xl/styles.xml": _STYLES.encode(),
    "xl/worksheets/sheet1.xml": (
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row></sheetData></worksheet>'
    ).encode(),
}


def xlsx_of(parts: dict[str, bytes], method: int = zipfile.ZIP_STORED) -> bytes:
    """A workbook zipped by hand from ``parts`` over :data:`BOOK_PARTS`
    (a part given as ``b""`` is left out)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in {**BOOK_PARTS, **parts}.items():
            if data:
                archive.writestr(name, data)
    return out.getvalue()


@st.composite
def raw_xlsx(draw: st.DrawFn) -> bytes:
    """A zip made by hand: the parts a workbook needs (some missing or
    damaged), with a hand-written sheet."""
    parts = {**BOOK_PARTS, "xl/worksheets/sheet1.xml": draw(sheet_xml())}
    for name in draw(st.lists(st.sampled_from(sorted(parts)), max_size=2, unique=True)):
        choice = draw(st.sampled_from(("drop", "doctype", "garbage", "empty")))
        if choice == "drop":
            del parts[name]
        elif choice == "doctype":
            parts[name] = _DOCTYPE.encode()
        elif choice == "garbage":
            parts[name] = draw(st.binary(max_size=40))
        else:
            parts[name] = b""
    out = io.BytesIO()
    method = draw(st.sampled_from((zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)))
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    data = out.getvalue()
    if parts and draw(st.integers(0, 5)) == 0:  # a part's own header names another part
        renamed = draw(st.sampled_from(sorted(parts))).encode()
        data = data.replace(renamed, renamed[:-1] + b"X", 1)
    if b"PK\x01\x02" in data and draw(st.integers(0, 5)) == 0:
        # A directory entry that needs a newer zip version, or another compression method.
        field = data.index(b"PK\x01\x02") + draw(st.sampled_from((6, 10)))
        data = data[:field] + bytes([draw(st.integers(0, 255))]) + data[field + 1 :]
    if draw(st.integers(0, 5)) == 0:  # a damaged archive: flip or cut bytes
        where = draw(st.integers(0, len(data) - 1))
        data = data[:where] + bytes([data[where] ^ draw(st.integers(1, 255))]) + data[where + 1 :]
    if draw(st.integers(0, 7)) == 0:
        data = data[: draw(st.integers(0, len(data)))]
    return data


# --- tables of showdowns with a known answer ------------------------------------------------------

#: The 52 cards by card index (fivecard.core.cards.CARDS).
DECK_CODES: tuple[str, ...] = (
    "As", "Ah", "Ad", "Ac", "Ks", "Kh", "Kd", "Kc", "Qs", "Qh", "Qd", "Qc", "Js", "Jh", "Jd", "Jc",
    "Ts", "Th", "Td", "Tc", "9s", "9h", "9d", "9c", "8s", "8h", "8d", "8c", "7s", "7h", "7d", "7c",
    "6s", "6h", "6d", "6c", "5s", "5h", "5d", "5c", "4s", "4h", "4d", "4c", "3s", "3h", "3d", "3c",
    "2s", "2h", "2d", "2c",
)  # fmt: skip
_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
#: What people put between the cards of a hand in a cell: the notation's
#: separators, none at all, and punctuation it does not read.
CARD_SEPARATORS: tuple[str, ...] = (" ", " ", ", ", ",", "  ", "", "-", "/", ".", "_", "+", ":", "~", " - ")
#: Label cells that look like no card: numbers, dates, names, notes.
LABEL_CELLS: tuple[str, ...] = (
    "1", "12", "7", "120", "12.5", "2024-03-01", "3/4", "10:30", "Alice", "Bob", "fold", "note", "Round 7",
    "Table 2", "won big", "x y z", "n/a", "-", "?",
)  # fmt: skip


def spelled(index: int, style: int) -> str:
    """Card ``index`` of the deck in one of several spellings: ``As``,
    ``AS``, ``as``, ``A♠``, ``10s`` for a ten."""
    code = DECK_CODES[index]
    rank, suit = code[0], code[1]
    if rank == "T" and style % 2:
        rank = "10"
    return [rank + suit, (rank + suit).upper(), (rank + suit).lower(), rank + _SYMBOLS[suit]][style % 4]


@dataclass(frozen=True)
class Slot:
    """A hand's place in a table: one cell (``cell``), five cells of one card
    each (``cards``), or one cell of a single card (``single``: the table's
    mistake, no row of it has a right answer); and its header text."""

    form: str
    name: str
    #: The first data row that holds it (rows before: empty cells).
    begins: int


@dataclass(frozen=True)
class ShowdownTable:
    """A table of showdowns and the answer each data row has: its records
    (titles, maybe a header, data rows; cells as written, numbers as ints
    for a workbook), the line of each data row, and each data row's true
    hands (deck indices, in the table's hand order: every slot that holds a
    card somewhere, left to right) or None where no answer is right (a
    hand missing or broken); a table of one hand has rows that are
    classified, not settled. ``clean``: a table any reader should solve in
    full (hands written as the notation reads them, named headers, no gaps)."""

    records: tuple[tuple[object, ...], ...]
    lines: tuple[int, ...]
    truth: tuple[tuple[tuple[int, ...], ...] | None, ...]
    clean: bool


@st.composite
def showdown_tables(draw: st.DrawFn, max_rows: int = 75) -> ShowdownTable:
    """A table of 2 to 4 hands, each in a column of its own, in five
    one-card columns, or (the mistake) in a column of single cards; label
    columns anywhere; title rows; a header naming players (``Player 2``,
    ``P2``, ``Alice``) or none; hands written with any separator and
    spelling; cells empty anywhere, a hand's column maybe empty in its first
    50 to 70 rows. Every row's hands are dealt from one deck."""
    clean = draw(st.integers(0, 3)) == 0
    count = draw(st.integers(2, 4))
    rows = draw(st.integers(1, max_rows))
    forms = ["cell"] * count if clean else draw(st.lists(st.sampled_from(("cell", "cell", "cell", "cards", "single")), min_size=count, max_size=count))
    naming = draw(st.sampled_from(("Player {}", "Hand {}", "P{}", "names", "none")))
    names = ("Alice", "Bob", "Carol", "Dave")
    slots = []
    for i, form in enumerate(forms):
        name = names[i] if naming == "names" else "" if naming == "none" else naming.format(i + 1)
        late = not clean and draw(st.integers(0, 4)) == 0
        slots.append(Slot(form, name, draw(st.integers(45, 70)) if late else 0))
    labels = draw(st.lists(st.sampled_from(("Round", "Notes", "Date", "")), max_size=0 if clean else 3))
    # the columns, left to right: ("slot", i) or ("label", kind)
    layout: list[tuple[str, int | str]] = [("slot", i) for i in range(count)]
    if clean:
        layout.insert(0, ("label", "Round"))
    for label in labels:
        layout.insert(draw(st.integers(0, len(layout))), ("label", label))
    gaps = 0.0 if clean else draw(st.sampled_from((0.0, 0.0, 0.02, 0.1)))
    header: list[object] = []
    for kind, what in layout:
        if kind == "label":
            header.append(what)
        else:
            slot = slots[int(what)]
            header += [f"{slot.name} card {k}".strip() for k in range(1, 6)] if slot.form == "cards" else [slot.name]
    records: list[tuple[object, ...]] = []
    for _ in range(0 if clean else draw(st.integers(0, 2))):
        records.append((draw(st.sampled_from(("Showdowns of March", "Table 7", "from the club"))),))
    has_header = clean or naming != "none" or draw(st.booleans())
    if has_header:
        records.append(tuple(header))
    lines: list[int] = []
    written: list[list[tuple[int, ...] | None]] = []  # per row, per slot: the hand written, None if empty
    broken: list[bool] = []
    for r in range(rows):
        deal = draw(st.permutations(range(52)))[: 5 * count]
        cells: list[object] = []
        hands: list[tuple[int, ...] | None] = []
        bad = False
        for kind, what in layout:
            if kind == "label":
                if what == "Round":
                    cells.append(r + 1)
                else:
                    cells.append(draw(st.sampled_from(("",) + LABEL_CELLS)) if what or draw(st.booleans()) else "")
                continue
            i = int(what)
            slot = slots[i]
            hand = tuple(deal[5 * i : 5 * i + 5])
            empty = r < slot.begins or (gaps and draw(st.floats(0, 1)) < gaps)
            style = draw(st.integers(0, 3))
            if slot.form == "cell":
                sep = " " if clean else draw(st.sampled_from(CARD_SEPARATORS))
                cells.append("" if empty else sep.join(spelled(c, style) for c in hand))
                hands.append(None if empty else hand)
            elif slot.form == "cards":
                holes = [bool(gaps) and draw(st.floats(0, 1)) < gaps for _ in hand]
                cells += ["" if empty or hole else spelled(c, style) for c, hole in zip(hand, holes)]
                hands.append(None if empty else hand)
                bad |= any(holes) and not empty
            else:  # a single card where a hand belongs
                cells.append("" if empty else spelled(hand[0], style))
                hands.append(None if empty else hand)
                bad |= not empty
        lines.append(len(records) + 1)
        records.append(tuple(cells))
        written.append(hands)
        broken.append(bad)
    present = [any(row[i] is not None for row in written) for i in range(count)]
    singles = any(present[i] and slots[i].form == "single" for i in range(count))
    truth: list[tuple[tuple[int, ...], ...] | None] = []
    for row, bad in zip(written, broken):
        hands_of_row = [row[i] for i in range(count) if present[i]]
        whole = not bad and not singles and bool(hands_of_row) and all(h is not None for h in hands_of_row)
        truth.append(tuple(h for h in hands_of_row if h is not None) if whole else None)
    return ShowdownTable(tuple(records), tuple(lines), tuple(truth), clean)


def table_bytes(table: ShowdownTable, fmt: str) -> bytes:
    """A table written as CSV (the csv module's quoting) or as a workbook
    (openpyxl: numbers as numbers, empty cells empty)."""
    if fmt == "csv":
        import csv

        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([[str(c) for c in record] for record in table.records])
        return out.getvalue().encode("utf-8")
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for record in table.records:
        sheet.append([None if c == "" else c for c in record])
    data = io.BytesIO()
    book.save(data)
    return data.getvalue()


# --- workbooks with hostile XML ------------------------------------------------------------------

#: The kinds of hostile piece :class:`HostileBook` puts in a part.
HOSTILE_KINDS: tuple[str, ...] = (
    "attribute", "comment", "pi", "name", "tag spaces", "attributes", "deep", "names", "long name", "text",
    "cdata", "char refs", "entity", "laughs", "external", "hidden text", "siblings",
)  # fmt: skip


def hostile_piece(kind: str, size: int) -> bytes:
    """A piece of XML that costs a careless reader time or memory, about
    ``size`` long (a count for nesting and names): a long token of each kind
    (attribute, comment, processing instruction, name, spaces inside a tag,
    many attributes), deep nesting, many distinct names, long text and
    CDATA, character and entity references, document types (billion laughs,
    an external entity), cell text hidden from view, many small elements."""
    pieces: dict[str, Callable[[], bytes]] = {
        "attribute": lambda: b'<x a="' + b"v" * size + b'"/>',
        "comment": lambda: b"<!--" + b"c" * size + b"-->",
        "pi": lambda: b"<?pi " + b"c" * size + b"?>",
        "name": lambda: b"<" + b"n" * size + b"/>",
        "tag spaces": lambda: b"<x" + b" " * size + b"/>",
        "attributes": lambda: b"<x " + b" ".join(b'a%d="1"' % i for i in range(size // 8)) + b"/>",
        "deep": lambda: b"<a>" * size + b"</a>" * size,
        "names": lambda: b"".join(b"<e%d/>" % i for i in range(size)),
        "long name": lambda: b"<" + b"n" * size + b"/>",
        "text": lambda: b"<x>" + b"t" * size + b"</x>",
        "cdata": lambda: b"<x><![CDATA[" + b"t" * size + b"]]></x>",
        "char refs": lambda: b"<x>" + b"&#65;&amp;&#x1F0A1;" * (size // 16) + b"</x>",
        "entity": lambda: b"<x>&bogus;</x>",
        "laughs": lambda: b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><x>&b;</x>',
        "external": lambda: b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
        "hidden text": lambda: b'<c r="Z1" t="inlineStr"><is><t>AS</t><rPh><t>KS</t></rPh></is><extLst><t>QS</t></extLst></c>',
        "siblings": lambda: b"<a/>" * (size // 4),
    }
    return pieces[kind]()


@dataclass(frozen=True)
class HostileBook:
    """A workbook (:data:`BOOK_PARTS`) with a hostile piece
    (:func:`hostile_piece`) in one part, stored or deflated (a deflated long
    run is refused as a zip bomb before any XML is read). Described by its
    few choices; :meth:`data` makes the bytes."""

    part: str
    kind: str
    size: int
    method: int

    def data(self) -> bytes:
        piece = hostile_piece(self.kind, self.size)
        data = BOOK_PARTS.get(self.part, b"<theme></theme>")
        if b"<!DOCTYPE" in piece:  # before the root element
            data = piece + data.split(b"?>", 1)[-1]
        elif self.part.endswith("sheet1.xml"):
            end = data.index(b"</row>" if b"<c " in piece else b"</sheetData>")
            data = data[:end] + piece + data[end:]
        else:
            end = data.rindex(b"</")
            data = data[:end] + piece + data[end:]
        return xlsx_of({self.part: data}, self.method)


#: How big a hostile piece is drawn, by its kind: near the reader's limits
#: (fivecard.files.workbook's MAX_TOKEN, MAX_DEPTH, MAX_NAMES, and the
#: longest name), under and over them.
_TOKEN = 1 << 20
_SIZES: dict[str, tuple[int, ...]] = {
    "deep": (100, 255, 256, 257, 5_000),
    "names": (100, 9_900, 10_000, 10_001, 50_000),
    "long name": (999, 1_000, 1_001, 50_000),
    "text": (1_000, 2 * _TOKEN),
    "cdata": (1_000, 2 * _TOKEN),
}


@st.composite
def hostile_books(draw: st.DrawFn) -> HostileBook:
    """A :class:`HostileBook`: any kind of piece, of a size near the limit
    that bounds it, in a part fivecard reads or in one it never reads (a
    theme)."""
    kind = draw(st.sampled_from(HOSTILE_KINDS))
    sizes = _SIZES.get(kind, (1_000, _TOKEN - 1_000, _TOKEN - 2, _TOKEN, _TOKEN + 1, _TOKEN + 200_000))
    part = draw(st.sampled_from(sorted({*BOOK_PARTS, "xl/theme/theme1.xml"} - {"[Content_Types].xml"})))
    method = draw(st.sampled_from((zipfile.ZIP_STORED, zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)))
    return HostileBook(part, kind, draw(st.sampled_from(sizes)), method)
