"""Fuzzing: adversarial inputs (``tests/strategies.py``) through every reader,
the parsers and the command, checked with hypothesis for three properties:

* only :class:`~fivecard.FivecardError` (or a result), never another exception;
* rows out = rows in: every row that is not blank or a comment comes out, once,
  in order, under its own line number, in every output format;
* linear time: the work done (Python lines run in fivecard, and a generous
  time ratio) grows like the input, for the inputs that could make it grow
  faster.

Budget: ``FIVECARD_FUZZ`` unset (CI) runs few examples with a fixed seed;
``FIVECARD_FUZZ=long`` runs 50 times as many with fresh random seeds (or
``FIVECARD_FUZZ=N``: N times as many), as the manual says.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import io
import json
import os
import re
import sys
import tempfile
import time
import tracemalloc
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fivecard import FivecardError, Hand
from fivecard.vector import batch
from fivecard.cli import main
from fivecard.files.rows import CARD, HAND, MAX_HANDS, OTHER, Row, TableLayout, cell_shape, split_line
from fivecard.files import sources
from fivecard.files.sources import RECORD_LINES, FileError, open_source, read_blocks
from fivecard.files import workbook
from fivecard.files.workbook import MAX_ROWS, open_workbook

from strategies import (
    CsvTable,
    HostileBook,
    TextFile,
    XlsxBook,
    any_text,
    csv_tables,
    hostile_books,
    random_bytes,
    raw_csv_texts,
    raw_xlsx,
    table_cells,
    text_files,
    xlsx_books,
    xlsx_cell_text,
)

# --- budget -------------------------------------------------------------------------------

LEVEL = os.environ.get("FIVECARD_FUZZ", "").strip().lower()
SCALE = 50 if LEVEL == "long" else int(LEVEL) if LEVEL.isdigit() else 1
CI = SCALE == 1


def fuzz(examples: int) -> settings:
    """Hypothesis settings for a fuzz test worth ``examples`` examples in CI
    (a fixed seed there, so CI is repeatable), ``SCALE`` times as many in a
    long run (random seeds, failures kept in the example database)."""
    checks = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
    if CI:
        return settings(
            max_examples=examples,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=checks,
        )
    return settings(max_examples=examples * SCALE, deadline=None, suppress_health_check=checks)


RULES = ("standard", "ace-king", "semi", "joker")


# --- the library: only FivecardError -----------------------------------------------------


@fuzz(100)
@given(any_text, st.sampled_from(RULES))
@example("AS KS QS JS TS", "standard")
@example("\ufeff10♦ J ♦ Q♦\ufe0f K♦ A♦", "standard")
def test_hand_parse_gives_a_hand_or_a_fivecard_error(text: str, rules: str) -> None:
    try:
        hand = Hand.parse(text, rules=rules)
    except FivecardError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 600
    else:
        assert len(hand.cards) == 5


GOOD_HANDS = st.sampled_from(("AS KS QS JS TS", "2c 3c 4c 5c 7d", "as ks qs js ts"))


@fuzz(75)
@given(st.lists(st.one_of(any_text, GOOD_HANDS)), st.sampled_from(RULES))
def test_batch_encode_never_raises_and_agrees_with_the_single_hand_path(texts: list[str], rules: str) -> None:
    """Bad rows go to ``errors`` with the single-hand path's message; good
    rows get its card indices; nothing raises."""
    encoded = batch.encode(texts, rules=rules)
    assert len(encoded.indices) == len(texts)
    assert set(encoded.errors) <= set(range(len(texts)))
    for i, text in enumerate(texts):
        try:
            hand = Hand.parse(text, rules=rules)
        except FivecardError as exc:
            assert encoded.errors.get(i) == str(exc)
            assert encoded.indices[i].tolist() == [0] * 5
        else:
            assert i not in encoded.errors
            assert tuple(encoded.indices[i].tolist()) == hand.indices


SEPARATOR_RUNS = st.lists(st.sampled_from(("AS", " ", "|", ";", "\t", " vs ", "vs", ",", "  "))).map("".join)


@fuzz(100)
@given(st.one_of(any_text, SEPARATOR_RUNS))
def test_split_line_gives_hands_or_a_parse_error(line: str) -> None:
    try:
        hands = split_line(line)
    except FivecardError as exc:
        assert "hands" in str(exc) or "cards" in str(exc)
        return
    assert 1 <= len(hands) <= MAX_HANDS
    assert all(isinstance(h, str) and not any(c in h for c in "|;\t") for h in hands)


@fuzz(100)
@given(any_text, st.booleans())
@example("\ufe0f", True)  # found by fuzzing: IndexError
def test_cell_shape_is_one_of_four(cell: str, suits: bool) -> None:
    shape = cell_shape(cell, suits=suits)
    assert shape in (CARD, HAND, OTHER, None)
    assert (shape is None) == (not cell.replace(",", " ").split())


LAYOUT_SPECS = ("B", "B,C", "B-F", "Player 1", "A, B ,C", "Z-A", "A-Z", "XFD", "0", "1048577", "", ",", "B,B")


@fuzz(50)
@given(st.lists(st.lists(table_cells, max_size=6), max_size=8), st.booleans(), st.sampled_from(LAYOUT_SPECS))
def test_table_layout_gives_a_layout_or_a_fivecard_error(
    rows: list[list[str]], suits: bool, spec: str
) -> None:
    makers: list[Callable[[], TableLayout]] = [
        lambda: TableLayout.detect(rows, suits=suits),
        lambda: TableLayout.from_spec(spec, rows, suits=suits),
    ]
    for make in makers:
        try:
            layout = make()
        except FivecardError:
            continue
        assert layout.header is None or 0 <= layout.header < len(rows)
        for row in rows:
            assert len(layout.hands(row)) == len(layout.units)
        layout.describe(rows[0] if rows else [])


# --- read_blocks against a reference line splitter ----------------------------------------


#: The byte order marks read besides UTF-8's, and their codecs.
WIDE_MARKS = {b"\xff\xfe\x00\x00": "utf-32-le", b"\x00\x00\xfe\xff": "utf-32-be", b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}


def reference_text(data: bytes) -> bytes | None:
    """The bytes a reader of lines reads: text in UTF-16 or UTF-32 by its
    byte order mark recoded to UTF-8 (what does not decode as U+FFFD), any
    other as it is; None for an input refused as UTF-16 or UTF-32 without a
    byte order mark (see sources.recoded)."""
    for mark, codec in WIDE_MARKS.items():
        if data.startswith(mark):
            return data[len(mark) :].decode(codec, "replace").encode("utf-8")
    return None if sources._not_text(data[:4096]) else data


def reference_lines(data: bytes, limit: int) -> list[tuple[bytes, int | None]]:
    """Each line as (text, None), or (b"", length) for a line over the
    limit; a line over the limit of only spaces is a blank line. Lines end
    at \\n, \\r\\n or \\r; a byte order mark at the start is dropped."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    if not data:
        return []
    lines = re.split(rb"\r\n|\r|\n", data)
    if data.endswith((b"\n", b"\r")):
        lines.pop()
    out: list[tuple[bytes, int | None]] = []
    for line in lines:
        if len(line) <= limit:
            out.append((line, None))
        else:
            out.append((b"", len(line)) if line.strip() else (b"", None))
    return out


class Trickle(io.RawIOBase):
    """A stream that gives fewer bytes than asked, as pipes do."""

    def __init__(self, data: bytes, sizes: Sequence[int]) -> None:
        self.data = data
        self.at = 0
        self.sizes = list(sizes) or [1 << 30]
        self.turn = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        most = self.sizes[self.turn % len(self.sizes)]
        self.turn += 1
        n = len(self.data) - self.at if size < 0 else min(size, most)
        chunk = self.data[self.at : self.at + n]
        self.at += len(chunk)
        return chunk


def block_lines(
    data: bytes, head: int, limit: int, size: int, sizes: Sequence[int]
) -> tuple[list[tuple[bytes, int | None]], dict[int, bytes]]:
    """The lines read_blocks gives (the first ``head`` bytes given as read
    already, then reads of ``sizes`` bytes at most), checked block by block,
    in the form of :func:`reference_lines`; and the first bytes it gives of
    each long line, by line number."""
    out: list[tuple[bytes, int | None]] = []
    prefixes: dict[int, bytes] = {}
    raw = Trickle(data[head:], sizes)
    for block in read_blocks(raw, data[:head], limit=limit, size=size):  # type: ignore[arg-type]
        assert block.first == len(out) + 1, "blocks must number their lines in turn"
        assert block.data.endswith(b"\n") and b"\r" not in block.data
        lines = block.data.split(b"\n")[:-1]
        assert set(block.long) <= set(range(len(lines)))
        for i, line in enumerate(lines):
            if i in block.long:
                length, prefix = block.long[i]
                assert line == b"" and length > limit and 0 < len(prefix) <= 100
                out.append((b"", length))
                prefixes[len(out)] = prefix
            else:
                out.append((line, None))
    return out, prefixes


@fuzz(150)
@given(st.one_of(random_bytes, text_files().map(lambda f: f.data)), st.data())
@example(b"x" * 15 + b"\rAS\n", None)  # a lone \r where a read ends, after a line over the limit
@example(b"x" * 23 + b"\rAS\rB\r", None)
@pytest.mark.slow
def test_read_blocks_agrees_with_a_reference_splitter(data: bytes, draw: st.DataObject | None) -> None:
    if draw is None:  # the examples: limit 10, reads of 8 bytes
        head, limit, size, sizes = 0, 10, 8, [8]
    else:
        head = draw.draw(st.integers(0, len(data)), label="head")
        limit = draw.draw(st.integers(1, 40), label="limit")
        size = draw.draw(st.integers(1, 40), label="size")
        sizes = draw.draw(st.lists(st.integers(1, 40), max_size=4), label="read sizes")
    text = reference_text(data)
    if text is None:  # refused: not UTF-8 and no byte order mark, or an .xls workbook
        why = sources._not_text(data[:4096])
        assert why is not None
        with pytest.raises(FileError, match=re.escape(why)):
            block_lines(data, head, limit, size, sizes)
        return
    got, prefixes = block_lines(data, head, limit, size, sizes)
    assert got == reference_lines(text, limit)
    lines = re.split(rb"\r\n|\r|\n", text.removeprefix(b"\xef\xbb\xbf"))
    keep = min(100, limit + 1)  # (past the limit, a prefix may run on into the next lines)
    for number, prefix in prefixes.items():
        assert prefix[:keep] == lines[number - 1][:keep]


@fuzz(100)
@given(text_files(), st.sampled_from(sorted(WIDE_MARKS)), st.data())
@pytest.mark.slow
def test_read_blocks_reads_utf16_and_utf32_as_their_utf8(file: TextFile, mark: bytes, draw: st.DataObject) -> None:
    """A text in UTF-16 or UTF-32 with its byte order mark, read in pieces
    of any sizes (a character cut between reads, or between the bytes read
    first and the rest): the lines of the same text in UTF-8."""
    text = file.data.decode("utf-8", "replace")
    data = mark + text.encode(WIDE_MARKS[mark])
    head = draw.draw(st.integers(0, len(data)), label="head")
    sizes = draw.draw(st.lists(st.integers(1, 40), max_size=4), label="read sizes")
    got, _ = block_lines(data, head, 1 << 20, draw.draw(st.integers(1, 64), label="size"), sizes)
    assert got == reference_lines(text.encode("utf-8"), 1 << 20)


# --- the readers: only FivecardError, rows well formed --------------------------------------


def check_rows(rows: Iterator[Row]) -> list[Row]:
    seen: list[Row] = []
    for row in rows:
        assert isinstance(row.line, int) and row.line >= 1
        assert not seen or row.line > seen[-1].line, "rows come in order, once each"
        assert all(isinstance(c, str) for c in row.cells) and all(isinstance(h, str) for h in row.hands)
        assert row.error is None or (row.error and "\n" not in row.error)
        seen.append(row)
    return seen


HAND_SPECS = st.one_of(
    st.none(),
    st.sampled_from(("B", "B,C", "B-F,G-K", "Player 1,Player 2", "A", "", "Z-A", "XFD", "2", "¹", "٢")),
    st.text(max_size=6),
)
#: Any input: random bytes, text files, CSV tables made or written by hand.
INPUTS = st.one_of(
    random_bytes, text_files().map(lambda f: f.data), csv_tables().map(lambda t: t.data), raw_csv_texts()
)


@fuzz(90)
@given(
    INPUTS,
    st.sampled_from((None, "text", "csv", "xlsx")),
    HAND_SPECS,
    st.sampled_from(("-", ".txt", ".csv", ".tsv", ".xlsx", "")),
    st.booleans(),
)
def test_open_source_gives_rows_or_a_fivecard_error(
    data: bytes, input_format: str | None, hands: str | None, where: str, suits: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = "-" if where == "-" else os.path.join(folder, "input" + where)
        if path != "-":
            Path(path).write_bytes(data)
        try:
            source = open_source(
                path, input_format=input_format, stdin=io.BytesIO(data), suits=suits, hands=hands
            )
        except FivecardError:
            return
        try:
            rows = check_rows(source.rows)
        finally:
            source.close()
    assert source.hands_per_row >= 1 and all(isinstance(c, str) for c in source.columns)
    if source.blocks is not None:  # a text input
        assert len(rows) <= data.count(b"\n") + data.count(b"\r") + 1


@fuzz(100)
@given(st.one_of(raw_xlsx(), xlsx_books().map(lambda b: b.data), random_bytes))
def test_open_workbook_gives_rows_or_a_fivecard_error(data: bytes) -> None:
    try:
        book = open_workbook(io.BytesIO(data))
    except FivecardError:
        return
    try:
        for name in book.sheetnames:
            try:
                _, records = book.rows(name)
                last = 0
                for record in records:
                    assert last < record.number <= MAX_ROWS
                    assert all(isinstance(c, str) for c in record.cells)
                    last = record.number
            except FivecardError:
                pass
    finally:
        book.close()


WORKBOOK_XML = '<workbook><sheets><sheet name="S" r:id="r1"/></sheets></workbook>'


def zipped_sheet(sheet: str, strings: str | None = None) -> bytes:
    """A workbook of one sheet (and maybe shared strings), zipped by hand."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", WORKBOOK_XML)
        if strings is not None:
            archive.writestr("xl/sharedStrings.xml", strings)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
    return out.getvalue()


def sheet_of(rows: str) -> str:
    return f"<worksheet><sheetData>{rows}</sheetData></worksheet>"


@pytest.mark.parametrize(
    ("sheet", "words"),
    [
        ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', "declares a document type"),
        (sheet_of('<row r="99999999"><c><v>1</v></c></row>'), "bad row number '99999999'"),
        (sheet_of('<row r="2"/><row r="1"/>'), "bad row number '1'"),
        (sheet_of('<row r="1"><c r="ZZZZ1"><v>1</v></c></row>'), "bad cell reference 'ZZZZ1'"),
        (sheet_of('<row r="1"><c r="B1"/><c r="A1"/></row>'), "bad cell reference 'A1'"),
        (sheet_of('<row r="1"><c r="A1" t="s"><v>7</v></c></row>'), "no shared string '7'"),
        (sheet_of('<row r="1"><c r="A1"><v>x</v></c></row>'), "'x' is not a number"),
        ("<worksheet><sheetData><row>", "is damaged"),
    ],
    ids=["doctype", "huge row", "rows going back", "bad ref", "cells going back", "no string", "nan", "cut"],
)
def test_workbook_refusals_are_file_errors(sheet: str, words: str) -> None:
    """Hand-written sheets that cannot be read: errors that say why."""
    opened = open_workbook(io.BytesIO(zipped_sheet(sheet)))
    with pytest.raises(FivecardError, match=re.escape(words)):
        list(opened.rows(None)[1])


SHEET_PART = "xl/worksheets/sheet1.xml"


# --- workbooks with hostile XML: rows or a FivecardError, in bounded work and memory -----------


@contextlib.contextmanager
def expat_work() -> Iterator[list[int]]:
    """Within: the bytes expat scans (each chunk it is fed and, again, the
    bytes of a token the chunks before left open: expat before 2.6 parses
    an open token again from its start with every chunk), and the peak of
    memory allocated (expat's memory is Python's: tracemalloc sees it)."""
    counted = [0, 0]
    feed = workbook._Xml.feed

    def counting(self: workbook._Xml, data: bytes, final: bool = False) -> None:
        counted[0] += self.fed - max(self.parser.CurrentByteIndex, 0) + len(data)
        feed(self, data, final)

    tracemalloc.start()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(workbook._Xml, "feed", counting)
            yield counted
        counted[1] = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def read_every_part(data: bytes) -> str:
    """Open a workbook, read its first sheet and check every part; what came
    of it (rows, or the FivecardError's message)."""
    try:
        opened = open_workbook(io.BytesIO(data))
        try:
            rows = list(opened.rows(None)[1])
            opened.check_parts()
        finally:
            opened.close()
    except FivecardError as exc:
        assert str(exc) and "\n" not in str(exc) and len(str(exc)) < 600
        return str(exc)
    assert all(all(isinstance(c, str) for c in r.cells) for r in rows)
    return f"{len(rows)} rows"


@fuzz(40)
@given(hostile_books())
@pytest.mark.slow
def test_hostile_workbook_xml_gives_rows_or_a_fivecard_error_in_bounded_work(book: HostileBook) -> None:
    """The law for any XML in any part: rows, or one FivecardError naming
    the part; expat scans each byte a few times at most (no quadratic
    reparse of a long token) and memory stays within the limits' bounds
    (a token of 1 MiB, 256 levels, 10,000 names), never the input's; the
    command says it in one line, never with a traceback."""
    data = book.data()
    unpacked = sum(info.file_size for info in zipfile.ZipFile(io.BytesIO(data)).infolist())
    with expat_work() as work:
        outcome = read_every_part(data)
    scanned, peak = work
    if "refused as a likely zip bomb" not in outcome:  # (each part read twice: by the reader, by check_parts)
        assert scanned <= 2 * 4 * unpacked + (1 << 16), (outcome, scanned, unpacked)
    assert peak <= 32 << 20, (outcome, peak)
    if book.kind in ("deep", "names", "long name") and book.size > {"deep": 256, "names": 10_000}.get(book.kind, 1_000):
        assert "refused" in outcome
    if book.kind == "hidden text" and book.part.endswith("sheet1.xml"):
        assert "QS" not in outcome and outcome == "1 rows"
    run_cli(["solve", "-", "--json"], data)


GROWING = {  # a hostile piece of each kind, at a size past its limit, and eight times that
    "attribute": 2 << 20,
    "comment": 2 << 20,
    "many attributes": 2 << 20,
    "deep": 2_000,
    "names": 20_000,
    "text": 1 << 20,
    "siblings": 1 << 20,
}


@pytest.mark.parametrize(("kind", "size"), GROWING.items(), ids=GROWING.keys())
@pytest.mark.slow
def test_workbook_work_and_memory_do_not_outgrow_hostile_xml(kind: str, size: int) -> None:
    """A hostile part eight times bigger: expat's work at most about eight
    times (linear; it stops at a limit for what is refused) and the memory
    peak no bigger (the 11.8 MB workbook of one attribute took over 300 s,
    one of nested elements grew to gigabytes)."""
    measured = []
    for n in (size, 8 * size):
        book = HostileBook(SHEET_PART, "attributes" if kind == "many attributes" else kind, n, zipfile.ZIP_STORED)
        data = book.data()
        with expat_work() as work:
            read_every_part(data)
        measured.append(tuple(work))
    (small_work, small_peak), (big_work, big_peak) = measured
    assert big_work <= 12 * small_work, measured
    assert big_peak <= 1.5 * small_peak + (1 << 20), measured


# --- the command ------------------------------------------------------------------------------

SUMMARY = re.compile(r"(wrote .*: )?[\d,]+ rows?: [\d,]+ solved, [\d,]+ errors?")


def run_cli(argv: list[str], data: bytes = b"") -> tuple[int, str, str]:
    """Run the command with these bytes on standard input (read as the
    console does: UTF-8, a bad byte replaced)."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", errors="replace")
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=stdin, stdout=out, stderr=err)
    check_exit(code, err.getvalue())
    return code, out.getvalue(), err.getvalue()


def check_exit(code: int, err: str) -> None:
    """Exit 0, 1 or 2; no traceback; every stderr line one message of the
    command (``fivecard: ...``) or the summary; exit 2 with an error line."""
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f]", err), "no control characters but line ends"
    lines = err.split("\n")
    assert lines.pop() == "", "stderr ends with a line end"
    for line in lines:
        assert line.startswith("fivecard: ") or SUMMARY.match(line), line
    if code == 2:
        assert any(line.startswith("fivecard: error: ") for line in lines)


def json_lines(out: str) -> list[int]:
    lines = out.split("\n")
    assert lines.pop() == ""
    numbers = []
    for line in lines:
        obj = json.loads(line)
        assert ("error" in obj) != ("hands" in obj)
        numbers.append(obj["line"])
    return numbers


def skipped(line: str) -> bool:
    """Blank lines and comments: no row (the text format's rule)."""
    return not line.strip() or line.strip().startswith("#")


@fuzz(60)
@given(text_files(), st.sampled_from(RULES))
@pytest.mark.slow
def test_cli_text_rows_out_equal_rows_in(file: TextFile, rules: str) -> None:
    code, out, err = run_cli(["solve", "-", "--json", "--input-format", "text", "--rules", rules], file.data)
    assert code in (0, 1), err
    expected = [i + 1 for i, line in enumerate(file.lines) if not skipped(line)]
    assert json_lines(out) == expected


def output_rows(path: Path, fmt: str) -> int:
    """The data rows of an output file of the format."""
    if fmt == "xlsx":
        import openpyxl

        book = openpyxl.load_workbook(path, read_only=True)
        try:
            return sum(sum(1 for _ in sheet.iter_rows()) - 1 for sheet in book.worksheets)
        finally:
            book.close()
    text = path.read_text(encoding="utf-8")
    if fmt == "csv":
        return len(list(csv.reader(io.StringIO(text, newline="")))) - 1
    lines = text.split("\n")
    assert lines.pop() == ""
    return len(lines) - (1 if fmt == "text" else 0)  # the text table's header


def every_format(data: bytes, suffix: str, extra: Sequence[str] = ()) -> dict[str, int]:
    """Rows written in each output format, for an input file."""
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / ("input" + suffix)
        source.write_bytes(data)
        for fmt, ext in (("text", "txt"), ("jsonl", "jsonl"), ("csv", "csv"), ("xlsx", "xlsx")):
            target = Path(folder) / f"out.{ext}"
            code, _, err = run_cli(["solve", str(source), "-o", str(target), *extra])
            assert code in (0, 1), err
            counts[fmt] = output_rows(target, fmt)
    return counts


@fuzz(20)
@given(text_files(max_lines=8))
@pytest.mark.slow
def test_cli_every_output_format_has_the_same_rows_from_text(file: TextFile) -> None:
    rows = sum(not skipped(line) for line in file.lines)
    assert every_format(file.data, ".txt") == dict.fromkeys(("text", "jsonl", "csv", "xlsx"), rows)


@fuzz(20)
@given(csv_tables(max_rows=6))
@pytest.mark.slow
def test_cli_every_output_format_has_the_same_rows_from_csv(table: CsvTable) -> None:
    counts = every_format(table.data, ".csv", ["--hands", "B,C"])
    assert counts == dict.fromkeys(counts, len(csv_data_lines(table)))


@fuzz(10)
@given(xlsx_books(max_rows=5))
@pytest.mark.slow
def test_cli_every_output_format_has_the_same_rows_from_xlsx(book: XlsxBook) -> None:
    counts = every_format(book.data, ".xlsx", ["--hands", "B,C"])
    assert counts == dict.fromkeys(counts, len(xlsx_data_lines(book)))


@fuzz(40)
@given(text_files())
@pytest.mark.slow
def test_cli_csv_to_a_file_is_what_goes_to_a_stream(file: TextFile) -> None:
    """A text input to a CSV file (bytes) and to a text stream without bytes
    beneath: the same CSV, the same summary."""
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "out.csv"
        code, _, err = run_cli(["solve", "-", "--input-format", "text", "-o", str(target)], file.data)
        to_file = target.read_bytes().decode("utf-8")
        err = err.replace(f"wrote {target}: ", "")
    code_2, to_stream, err_2 = run_cli(["solve", "-", "--input-format", "text", "--format", "csv"], file.data)
    assert (code, err) == (code_2, err_2)
    assert to_file == to_stream


def record_lines(records: Sequence[Sequence[str]]) -> list[int]:
    """The line each record starts on (a cell's line breaks count: \\r\\n,
    \\r and \\n as one)."""
    starts = []
    line = 1
    for record in records:
        starts.append(line)
        line += 1 + sum(len(re.findall(r"\r\n|\r|\n", cell)) for cell in record)
    return starts


def csv_data_lines(table: CsvTable) -> list[int]:
    """The lines of the non-blank data rows of a table."""
    starts = record_lines(table.records)
    return [
        starts[i]
        for i in range(table.header + 1, len(table.records))
        if any(cell.strip() for cell in table.records[i])
    ]


def spans_few_lines(table: CsvTable) -> bool:
    """No record spans RECORD_LINES lines (a longer one is an error row by
    design, and its lines are read again as rows)."""
    return all(sum(c.count("\n") + c.count("\r") for c in r) < RECORD_LINES - 1 for r in table.records)


@fuzz(75)
@given(csv_tables().filter(spans_few_lines))
@pytest.mark.slow
def test_cli_csv_with_stated_hands_gives_one_row_per_data_row(table: CsvTable) -> None:
    code, out, err = run_cli(["solve", "-", "--json", "--hands", "B,C", "--input-format", "csv"], table.data)
    assert code in (0, 1), err
    starts = record_lines(table.records)
    assert f"header on line {starts[table.header]}" in err
    assert json_lines(out) == csv_data_lines(table)


def gives_no_row(record: str) -> bool:
    """Whether a record (one line, or lines joined by \\n) is blank or a
    lone comment cell. (A line with an odd number of quotes is never one: it
    starts or ends a record of several lines.)"""
    if record.count('"') % 2:
        return False
    try:
        cells = next(csv.reader([record]), [])
    except csv.Error:
        return False
    return not any(c.strip() for c in cells) or (len(cells) == 1 and skipped(cells[0]))


def blank_record_end(lines: Sequence[str], start: int) -> int:
    """The last line of a blank record of several lines that starts on line
    ``start`` (its quote closes within RECORD_LINES lines), or 0."""
    if lines[start - 1].count('"') % 2 == 0:
        return 0
    for end in range(start + 1, min(start + RECORD_LINES, len(lines) + 1)):
        if lines[end - 1].count('"') % 2:
            return end if gives_no_row("\n".join(lines[start - 1 : end])) else 0
    return 0


@fuzz(75)
@given(raw_csv_texts(delimiters=","), st.sampled_from((["--hands", "B,C"], [])))
@pytest.mark.slow
def test_cli_csv_by_hand_covers_every_line(data: bytes, hands: list[str]) -> None:
    """CSV with stray and open quotes: every line after the header that is
    not blank starts an output row or belongs to the record of the row
    before it (a quoted cell spans at most RECORD_LINES lines); rows above
    the header are errors (titles are skipped). Commas only: ragged rows
    delimited otherwise are misread (test_sniffing_tables_not_delimited_by_commas)."""
    code, out, err = run_cli(["solve", "-", "--json", "--input-format", "csv", *hands], data)
    if code == 2:
        return
    numbers = json_lines(out)
    errors = {obj["line"] for obj in map(json.loads, out.splitlines()) if "error" in obj}
    found = re.search(r"header on line (\d+)", err)
    header = int(found.group(1)) if found else 0
    lines = re.split(r"\r\n|\r|\n", data.decode())
    for n in numbers:
        assert 1 <= n <= len(lines) and not gives_no_row(lines[n - 1])
        assert n > header or n in errors
    previous, covered = header, 0  # (the header's record may span lines too)
    for number, line in enumerate(lines, 1):
        if number in numbers:
            previous = number
        elif number > max(header, covered) and not gives_no_row(line):
            covered = blank_record_end(lines, number)
            assert covered or (previous and number - previous < RECORD_LINES), (number, numbers)


def xlsx_data_lines(book: XlsxBook) -> list[int]:
    """The rows of the first sheet below its header (row 1) that are not
    blank: a cell with text, other than a lone comment cell."""

    def blank(row: Sequence[object]) -> bool:
        texts = [xlsx_cell_text(v) for v in row]
        while texts and not texts[-1]:
            texts.pop()
        return not any(t.strip() for t in texts) or (len(texts) == 1 and skipped(texts[0]))

    rows = book.sheets[0]
    return [i + 1 for i in range(1, len(rows)) if not blank(rows[i])]


@fuzz(30)
@given(xlsx_books())
@pytest.mark.slow
def test_cli_xlsx_rows_out_equal_rows_in(book: XlsxBook) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.xlsx"
        source.write_bytes(book.data)
        code, out, err = run_cli(["solve", str(source), "--json", "--hands", "B,C"])
        assert code in (0, 1), err
        assert json_lines(out) == xlsx_data_lines(book)
        for sheet in range(2, len(book.sheets) + 1):
            run_cli(["solve", str(source), "--json", "--sheet", f"S{sheet}"])


OPTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("--rules"), st.sampled_from((*RULES, "texas", ""))),
        st.tuples(st.just("--hands"), HAND_SPECS.map(lambda s: s or "")),
        st.tuples(st.just("--decks"), st.sampled_from(("0", "1", "2", "-1", "99999999999", "x"))),
        st.tuples(st.just("--input-format"), st.sampled_from(("text", "csv", "xlsx", "pdf"))),
        st.tuples(st.just("--format"), st.sampled_from(("text", "jsonl", "csv", "xlsx"))),
        st.tuples(st.just("--sheet"), st.sampled_from(("S1", "Sheet", ""))),
        st.just(("--strict",)),
        st.just(("--json",)),
    ),
    max_size=4,
).map(lambda pairs: [part for pair in pairs for part in pair])


@fuzz(100)
@given(st.one_of(INPUTS, raw_xlsx()), OPTIONS)
@pytest.mark.slow
def test_cli_solve_exits_0_1_or_2_with_clean_stderr(data: bytes, options: list[str]) -> None:
    run_cli(["solve", "-", *options], data)


HAND_OPTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("--rules"), st.sampled_from((*RULES, "texas"))),
        st.tuples(st.just("--decks"), st.sampled_from(("0", "1", "2", "-1", "99999999999", "x"))),
        st.just(("--json",)),
    ),
    max_size=3,
)


@fuzz(60)
@given(
    st.sampled_from(("classify", "compare")),
    st.lists(st.one_of(any_text, st.just("-")), min_size=1, max_size=4),
    HAND_OPTIONS,
    random_bytes,
)
def test_cli_classify_and_compare_exit_0_or_2_with_one_error_line(
    command: str, hands: list[str], options: list[tuple[str, ...]], data: bytes
) -> None:
    """Hands as arguments, or read from standard input ("-")."""
    argv = [part for pair in options if command == "compare" or pair[0] != "--decks" for part in pair]
    code, out, err = run_cli([command, *argv, "--", *hands], data)
    assert code in (0, 2)
    assert (err == "") == (code == 0)
    if code == 2:
        assert err.count("\n") == 1


# --- linear time ------------------------------------------------------------------------------

SOURCE = str(Path(__file__).resolve().parents[2] / "src" / "fivecard")
GROWTH = 16  # the big input is this many times the small one
STEPS_BOUND = 24  # Python lines run, big / small: linear gives at most ~16, quadratic ~256
TIME_BOUND = 64  # seconds, big / small: linear gives ~16, quadratic ~256; generous for a busy machine


def python_steps(run: Callable[[], object]) -> int:
    """How many lines of fivecard's own code ``run`` executes (a measure of
    work that does not depend on the machine)."""
    count = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename.startswith(SOURCE) else None

    sys.settrace(calls)
    try:
        run()
    except FivecardError:
        pass
    finally:
        sys.settrace(None)
    return count


def seconds(run: Callable[[], object]) -> float:
    """The time of one call: the best of three batches of calls, each batch
    long enough to time well (as timeit's autorange), without garbage
    collection (as timeit: its passes grow with the objects alive). The
    time is this thread's processor time: on a busy machine a longer call
    is more often set aside for other processes, which wall time counts
    and processor time does not."""

    def batch(number: int) -> float:
        started = time.thread_time()
        for _ in range(number):
            try:
                run()
            except FivecardError:
                pass
        return time.thread_time() - started

    collecting = gc.isenabled()
    gc.disable()
    try:
        number = 1
        while batch(number) < 0.005:
            number *= 4
        return min(batch(number) for _ in range(3)) / number
    finally:
        if collecting:
            gc.enable()


def assert_linear(small: Callable[[], object], big: Callable[[], object]) -> None:
    """``big`` runs on an input GROWTH times ``small``'s: its work must not
    grow faster than the input (Python steps within STEPS_BOUND times, time
    within TIME_BOUND times in one of three measures)."""
    steps = python_steps(small), python_steps(big)
    assert steps[1] <= STEPS_BOUND * max(steps[0], 1), f"Python steps {steps[0]:,} -> {steps[1]:,}"
    measured = []
    for _ in range(3):  # a busy machine can slow one measure; slower code is slower every time
        times = seconds(small), seconds(big)
        if times[1] <= TIME_BOUND * times[0]:
            return
        measured.append(f"{times[0]:.6f} -> {times[1]:.6f}")
    raise AssertionError(f"seconds {', '.join(measured)}")


def scaled(make: Callable[[int], Any], n: int) -> tuple[Any, Any]:
    return make(n), make(GROWTH * n)


LINES = {
    "runs of spaces": lambda n: "AS" + " " * n + "KS",
    "spaces around a bar": lambda n: "AS" + " " * n + "|" + " " * n + "KS",
    "vs without spaces": lambda n: "vs" * n,
    "v and s apart": lambda n: "v s " * n,
    "spaces around vs": lambda n: " " * n + "vs" + " " * n + "x",
    "commas": lambda n: "AS," + "," * n,
    "cards": lambda n: "AS " * n,
}


@pytest.mark.parametrize("make", LINES.values(), ids=LINES.keys())
@pytest.mark.slow
def test_split_line_is_linear(make: Callable[[int], str]) -> None:
    small, big = scaled(make, 1_000)
    assert_linear(lambda: split_line(small), lambda: split_line(big))


GARBAGE = {
    "one long token": lambda n: "x" * n,
    "many cards": lambda n: "AS " * n,
    "control characters": lambda n: "\x00" * n,
    "a long rank": lambda n: "1" * n + "S",
    "suits": lambda n: "♠" * n,
    "line breaks": lambda n: "AS\n" * n,
}


@pytest.mark.parametrize("make", GARBAGE.values(), ids=GARBAGE.keys())
@pytest.mark.slow
def test_hand_parse_and_cell_shape_are_linear(make: Callable[[int], str]) -> None:
    small, big = scaled(make, 1_000)
    assert_linear(lambda: Hand.parse(small), lambda: Hand.parse(big))
    assert_linear(lambda: cell_shape(small), lambda: cell_shape(big))
    assert_linear(lambda: batch.encode([small]), lambda: batch.encode([big]))


def read_all(data: bytes, limit: int, size: int) -> Callable[[], object]:
    return lambda: [len(block.data) for block in read_blocks(io.BytesIO(data), limit=limit, size=size)]


BYTES = {
    "one long line": lambda n: b"x" * n + b"\n",
    "one long line of spaces": lambda n: b" " * n,
    "lines just under the limit": lambda n: (b"x" * 1023 + b"\n") * (n // 1024),
    "many short lines": lambda n: b"AS KS QS JS TS\r\n" * (n // 16),
    "lone carriage returns": lambda n: b"\r" * n,
    "long lines ended by \\r": lambda n: (b"x" * 2047 + b"\r") * (n // 2048),
}


@pytest.mark.parametrize("make", BYTES.values(), ids=BYTES.keys())
@pytest.mark.slow
def test_read_blocks_is_linear(make: Callable[[int], bytes]) -> None:
    small, big = scaled(make, 1 << 17)
    assert_linear(read_all(small, 1024, 4096), read_all(big, 1024, 4096))


def csv_rows(data: bytes) -> Callable[[], object]:
    def run() -> object:
        source = open_source("-", input_format="csv", stdin=io.BytesIO(data))
        try:
            return sum(1 for _ in source.rows)
        finally:
            source.close()

    return run


CSV = {
    "an open quote then plain lines": lambda n: b"a,b\n" + (b'x,"AS KS\n' + b"y,z\n" * 40) * (n // 41),
    "open quotes on every line": lambda n: b"a,b\n" + b'x,"AS KS QS\n' * n,
    "quotes closing late": lambda n: b"a,b\n" + (b'x,"AS\n' + b"y\n" * 29 + b'z"\n') * (n // 31),
    "long quoted cells": lambda n: b"a,b\n" + (b'x,"' + b"y" * 1000 + b'"\n') * (n // 100),
}


@pytest.mark.parametrize("make", CSV.values(), ids=CSV.keys())
@pytest.mark.slow
def test_csv_records_are_linear(make: Callable[[int], bytes]) -> None:
    small, big = scaled(make, 200)
    assert_linear(csv_rows(small), csv_rows(big))


def sheet_book(rows: int, shared: bool) -> bytes:
    """A workbook of ``rows`` rows of five cells, written by hand."""
    if shared:
        cell = '<c r="{col}{row}" t="s"><v>0</v></c>'
    else:
        cell = '<c r="{col}{row}" t="inlineStr"><is><t>AS</t></is></c>'
    body = "".join(
        f'<row r="{r}">' + "".join(cell.format(col=col, row=r) for col in "ABCDE") + "</row>"
        for r in range(1, rows + 1)
    )
    return zipped_sheet(sheet_of(body), "<sst><si><t>AS</t></si></sst>")


def workbook_rows(data: bytes) -> Callable[[], object]:
    def run() -> object:
        book = open_workbook(io.BytesIO(data))
        try:
            return sum(len(r.cells) for r in book.rows(None)[1])
        finally:
            book.close()

    return run


@pytest.mark.parametrize("shared", [False, True], ids=["inline strings", "shared strings"])
@pytest.mark.slow
def test_open_workbook_is_linear(shared: bool) -> None:
    small, big = scaled(lambda n: sheet_book(n, shared), 80)
    assert_linear(workbook_rows(small), workbook_rows(big))


def test_cli_solve_is_linear() -> None:
    lines = [b"AS KS QS JS TS | 2c 3c 4c 5c 7d", b"# note", b"", b"1S KD 3C 4H 5D vs x", b"AS AS"]
    small, big = scaled(lambda n: b"\n".join(lines * n), 40)
    assert_linear(
        lambda: run_cli(["solve", "-", "--json", "--input-format", "text"], small),
        lambda: run_cli(["solve", "-", "--json", "--input-format", "text"], big),
    )


# --- tables not delimited by commas (once a bug: csv.Sniffer wanted every line alike) ------------


@pytest.mark.parametrize(
    "text",
    [
        "Showdowns of March\nRound;Player 1;Player 2\n" + "1;AS KS QS JS TS;2c 3c 4c 5c 7d\n" * 10,
        "Showdowns of March\nRound\tPlayer 1\tPlayer 2\n1\tAS KS QS JS TS\t2c 3c 4c 5c 7d\n",
        "Round;Player 1;Player 2\n1;AS KS QS JS TS;2c 3c 4c 5c 7d\n2;AS KS QS JS TS\n"
        "3;AS KS QS JS TS;2c 3c 4c 5c 7d;x\n",
        'Round;Player 1;Player 2\r\n1;AS KS QS JS TS;2c 3c 4c 5c 7d\r\n;;"\n"\r\n',
    ],
    ids=[
        "semicolons and a title row",
        "tabs and a title row",
        "semicolons and ragged rows",
        "semicolons and a cell of a line break",
    ],
)
def test_sniffing_tables_not_delimited_by_commas(text: str) -> None:
    code, out, err = run_cli(["solve", "-", "--json", "--input-format", "csv"], text.encode())
    assert "hands: B (Player 1), C (Player 2); labels: A (Round)" in err
    lines = text.replace("\r\n", "\n").split("\n")
    assert json_lines(out)[0] == lines.index(next(line for line in lines if line.startswith("1"))) + 1


# --- checkpoint folders: the answer of a fresh run, whatever the folder holds --------------------
#
# A folder of a job's real parts, mutated (parts swapped, copied, truncated, extended, bytes
# flipped, replaced by a FIFO, a folder or a link, removed; stray files added), then the job run
# over it. The law: the answer of a fresh run, no exception, no hang, at most one note (exactly
# when a part found there was run again), the stray files and a link's target untouched, and
# nothing of the job's own left but a folder in a part's place.

import threading  # noqa: E402  (this section's own)

from fivecard.vector.jobs import Result, run_parts  # noqa: E402

from jobs_work import toy  # noqa: E402

_PARTS = 4
_STRAYS = ("notes.tmp", ".part-00001.ckpt.4242-0123456789ab-1.tmp", "part-00009.ckpt", "job.json", "part-1.ckpt")

_part = st.integers(0, _PARTS - 1)
checkpoint_damage = st.one_of(
    st.tuples(st.just("swap"), _part, _part),
    st.tuples(st.just("copy"), _part, _part),
    st.tuples(st.just("truncate"), _part, st.integers(0, 400)),
    st.tuples(st.just("append"), _part, st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("flip"), _part, st.integers(0, 400), st.integers(0, 7)),
    st.tuples(st.just("fifo"), _part),
    st.tuples(st.just("folder"), _part),
    st.tuples(st.just("link"), _part, st.sampled_from(["outside", "part", "nowhere"])),
    st.tuples(st.just("remove"), _part),
    st.tuples(st.just("foreign"), _part),
    st.tuples(st.just("stray"), st.sampled_from(_STRAYS), st.binary(max_size=16)),
)


def _damage(folder: Path, other: Path, outside: Path, change: tuple[Any, ...]) -> None:
    """One change to the checkpoint folder ``folder``."""
    kind, *args = change
    if kind == "stray":
        name, data = args
        if not (folder / name).is_symlink() and not (folder / name).is_dir():
            (folder / name).write_bytes(data)
        return
    path = folder / f"part-{args[0]:05d}.ckpt"
    present = path.is_file() and not path.is_symlink()
    if kind in ("swap", "copy"):
        source = folder / f"part-{args[1]:05d}.ckpt"
        if present and source.is_file() and not source.is_symlink():
            mine, theirs = path.read_bytes(), source.read_bytes()
            path.write_bytes(theirs)
            if kind == "swap":
                source.write_bytes(mine)
    elif kind == "truncate" and present:
        path.write_bytes(path.read_bytes()[: args[1]])
    elif kind == "append" and present:
        path.write_bytes(path.read_bytes() + args[1])
    elif kind == "flip" and present:
        data = bytearray(path.read_bytes())
        if data:
            data[args[1] % len(data)] ^= 1 << args[2]
            path.write_bytes(bytes(data))
    elif kind == "foreign" and present:
        path.write_bytes((other / path.name).read_bytes())
    elif kind in ("fifo", "folder", "link", "remove"):
        if path.is_dir() and not path.is_symlink():
            return
        path.unlink(missing_ok=True)
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        elif kind == "link":
            target = {"outside": outside, "part": folder / "part-00000.ckpt", "nowhere": folder / "nowhere"}[args[1]]
            path.symlink_to(target)


def _same_results(got: list[Result], want: list[Result]) -> bool:
    return len(got) == len(want) and all(
        list(a) == list(b) and all(a[n].dtype == b[n].dtype and a[n].shape == b[n].shape
                                   and (a[n] == b[n]).all() for n in a)
        for a, b in zip(got, want)
    )


@fuzz(40)
@given(st.lists(checkpoint_damage, max_size=6))
@pytest.mark.slow
def test_a_checkpoint_folder_gives_the_answer_of_a_fresh_run(changes: list[tuple[Any, ...]]) -> None:
    spec = (3, "", -1)
    fresh = [toy(spec, part) for part in range(_PARTS)]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "checkpoints"
        run_parts(toy, spec, _PARTS, key="job", workers=0, checkpoint=root, keep=True)
        run_parts(toy, (5, "", -1), _PARTS, key="other", workers=0, checkpoint=root, keep=True)
        folder, outside = root / "job", Path(scratch) / "outside"
        outside.write_bytes(b"someone's file")
        for change in changes:
            _damage(folder, root / "other", outside, change)
        names = {f"part-{part:05d}.ckpt" for part in range(_PARTS)}
        strays = {path.name: path.read_bytes() for path in folder.iterdir() if path.name not in names}
        held = {name for name in names if (folder / name).is_dir() and not (folder / name).is_symlink()}
        missing = {part for part in range(_PARTS) if not os.path.lexists(folder / f"part-{part:05d}.ckpt")}
        marks = Path(scratch) / "marks"
        marks.mkdir()
        notes: list[str] = []
        outcome: list[object] = []

        def attempt() -> None:
            try:
                outcome.append(run_parts(toy, (3, str(marks), -1), _PARTS, key="job", workers=0,
                                         checkpoint=root, on_note=notes.append))
            except BaseException as error:  # noqa: BLE001 (handed to the test's thread)
                outcome.append(error)

        thread = threading.Thread(target=attempt, daemon=True)
        thread.start()
        thread.join(60)  # a bound for a hang, not a timing check
        for name in names:  # a run stuck on a FIFO: let its open return
            if thread.is_alive() and (folder / name).is_fifo():
                with open(folder / name, "wb"):
                    pass
        thread.join(60)
        assert not thread.is_alive(), "the run hung"
        assert len(outcome) == 1 and isinstance(outcome[0], list), outcome
        assert _same_results(outcome[0], fresh)
        ran = {int(path.name.split("-")[1]) for path in marks.iterdir()}
        rejected = ran - missing
        assert len(notes) == (1 if rejected else 0), notes
        if rejected:
            assert f": {len(rejected)} of {_PARTS} parts failed their checks and are run again: " in notes[0]
        assert outside.read_bytes() == b"someone's file"
        left = {path.name: path.read_bytes() for path in folder.iterdir() if path.name not in held} if folder.exists() else {}
        assert left == strays
