"""Reading rows from text, CSV and ``.xlsx`` files, and writing results as an
aligned text table, JSON Lines, CSV or ``.xlsx``. Streaming: rows are read,
solved and written one at a time (an ``.xlsx`` input is read by openpyxl in
read-only mode).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Protocol

from .errors import FivecardError, ParseError
from .report import evaluation_json
from .rows import HAND, OTHER, TableLayout, cell_kind, is_skipped, split_line
from .rules import RuleSet
from .solve import CODE_TEXT, HandResult, Row, Solved, class_info

__all__ = [
    "Source",
    "open_source",
    "Sink",
    "make_sink",
    "INPUT_FORMATS",
    "OUTPUT_FORMATS",
    "FileError",
    "result_cells",
    "result_header",
    "hand_json",
    "result_json",
    "output_format",
]

INPUT_FORMATS: Final = ("text", "csv", "xlsx")
OUTPUT_FORMATS: Final = ("text", "jsonl", "csv", "xlsx")
_SAMPLE_ROWS: Final = 50
_XLSX_MAGIC: Final = b"PK\x03\x04"
_PROGRESS_BYTES: Final = 1 << 20
_MOST_HANDS: Final = 10  # header columns for at most this many hands (one deck: 10)
_PER_HAND: Final = 3  # CSV and xlsx cells per hand: sorted cards, category, score  # a progress bar for inputs from 1 MiB


class FileError(FivecardError):
    """A file that cannot be read or written (missing, wrong format)."""


# --- reading -----------------------------------------------------------------------


@dataclass
class Source:
    """Rows from an input, with what the writers need to know: the input's
    column names (tables) and how many hands a row holds at most (as far as
    the first rows tell)."""

    rows: Iterator[Row]
    columns: list[str]
    hands_per_row: int
    progress: Any = None  # a callable giving the fraction read, when known
    closers: list[Any] = field(default_factory=list)

    def close(self) -> None:
        for closer in self.closers:
            closer()


def _format_of(path: str, head: bytes) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".xlsx", ".xlsm") or head.startswith(_XLSX_MAGIC):
        return "xlsx"
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix in (".txt", ".text", ".dat", ".log"):
        return "text"
    return "csv" if _looks_like_csv(head.decode("utf-8", "replace")) else "text"


def _looks_like_csv(text: str) -> bool:
    """Content sniffing: CSV when the first row has commas, none of the text
    format's hand separators, and a cell that is not a single card (a header,
    a label or a whole hand). A line of single cards means the same either
    way, so it reads as text."""
    first = next((line for line in text.splitlines() if not is_skipped(line)), "")
    if "," not in first or any(s in first for s in ("|", ";", "\t", " vs ")):
        return False
    try:
        cells = next(csv.reader([first]))
    except csv.Error:
        return False
    return any(cell_kind(c, suits=False) in (HAND, OTHER) for c in cells)


def open_source(
    path: str,
    *,
    input_format: str | None = None,
    sheet: str | None = None,
    stdin: IO[str] | None = None,
    suits: bool = True,
) -> Source:
    """Open an input (``-`` for standard input) and detect its format by
    extension or content unless ``input_format`` says. ``suits``: whether the
    rule set has suits (a lone rank in a table cell is then a number, not a
    card: see :class:`~fivecard.rows.TableLayout`)."""
    if path == "-":
        if stdin is None:
            raise FileError("no standard input")
        return _stdin_source(stdin, input_format, sheet, suits)
    try:
        with open(path, "rb") as probe:
            head = probe.read(4096)
    except OSError as exc:
        raise FileError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    fmt = input_format or _format_of(path, head)
    if fmt == "xlsx":
        return _xlsx_source(path, sheet, suits)
    raw = open(path, "rb")  # noqa: SIM115 - closed by Source.close
    size = os.path.getsize(path) or 1
    source = _text_or_csv(raw, fmt, head, suits)
    source.closers.append(raw.close)
    if size >= _PROGRESS_BYTES:
        source.progress = lambda: raw.tell() / size
    return source


def _stdin_source(
    stdin: IO[str], input_format: str | None, sheet: str | None, suits: bool
) -> Source:
    raw: Any = getattr(stdin, "buffer", None)
    if raw is None:  # a text stream without bytes beneath (tests, embedding)
        raw = io.BytesIO(stdin.read().encode("utf-8"))
    head = raw.peek(4096)[:4096] if hasattr(raw, "peek") else raw.getvalue()[:4096]
    fmt = input_format or _format_of("", head)
    if fmt == "xlsx":
        return _xlsx_source(io.BytesIO(raw.read()), sheet, suits)
    return _text_or_csv(raw, fmt, head, suits)


def _text_or_csv(raw: IO[bytes], fmt: str, head: bytes, suits: bool) -> Source:
    """Decode UTF-8 (a byte order mark dropped; undecodable bytes become
    U+FFFD, so only their row fails). CSV keeps its line ends for the csv
    module; text lines end at \\n, \\r\\n or \\r."""
    handle = io.TextIOWrapper(
        raw, encoding="utf-8-sig", errors="replace", newline="" if fmt == "csv" else None
    )
    if fmt == "csv":
        return _csv_source(handle, head.decode("utf-8-sig", "replace"), suits)
    return _text_source(handle)


def _text_source(handle: IO[str]) -> Source:
    def rows() -> Iterator[Row]:
        for number, raw in enumerate(handle, 1):
            line = raw.rstrip("\r\n")
            if is_skipped(line):
                continue
            try:
                hands = split_line(line)
            except FivecardError as exc:
                yield Row(number, (line,), error=str(exc))
                continue
            yield Row(number, (line,), tuple(hands))

    # The first rows tell how many hands a row holds, for table headers.
    reader = rows()
    sample = list(itertools.islice(reader, _SAMPLE_ROWS))
    hands = max((len(r.hands) for r in sample), default=1)
    return Source(itertools.chain(sample, reader), ["input"], min(max(hands, 1), _MOST_HANDS))


def _table_rows(
    records: Iterator[tuple[int, list[str]]], suits: bool
) -> tuple[Iterator[Row], list[str], int]:
    """Rows of a table (CSV or sheet): detect the layout on the first rows,
    then read every row with it. Empty rows are skipped like blank lines."""
    sample: list[tuple[int, list[str]]] = []
    for record in records:
        if any(cell.strip() for cell in record[1]):
            sample.append(record)
        if len(sample) >= _SAMPLE_ROWS:
            break
    layout = TableLayout.detect([cells for _, cells in sample], suits=suits)
    width = max((len(cells) for _, cells in sample), default=0)
    if layout.header and sample:
        columns = [c.strip() or f"column {i + 1}" for i, c in enumerate(sample[0][1])]
        sample = sample[1:]
    else:
        columns = [f"column {i + 1}" for i in range(width)]
    columns += [f"column {i + 1}" for i in range(len(columns), width)]

    def rows() -> Iterator[Row]:
        for number, cells in itertools.chain(sample, records):
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) == 1 and is_skipped(cells[0]):
                continue
            yield Row(number, tuple(cells), tuple(layout.hands(cells)))

    return rows(), columns, min(max(len(layout.units), 1), _MOST_HANDS)


def _csv_source(handle: IO[str], sample: str, suits: bool) -> Source:
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(handle, dialect)

    def records() -> Iterator[tuple[int, list[str]]]:
        start = 1
        try:
            for cells in reader:
                yield start, cells
                start = reader.line_num + 1
        except csv.Error as exc:
            raise ParseError(f"line {reader.line_num}: bad CSV: {exc}") from None

    rows, columns, hands = _table_rows(records(), suits)
    return Source(rows, columns, hands)


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _xlsx_source(path: str | IO[bytes], sheet: str | None, suits: bool) -> Source:
    import openpyxl  # deferred: only .xlsx work pays for importing it

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl and zipfile raise many kinds for a bad file
        raise FileError(f"cannot read the workbook: {exc}") from None
    if sheet is not None and sheet not in book.sheetnames:
        names = ", ".join(repr(n) for n in book.sheetnames)
        book.close()
        raise FileError(f"no sheet {sheet!r} in the workbook; its sheets: {names}")
    worksheet = book[sheet] if sheet is not None else book.worksheets[0]

    def records() -> Iterator[tuple[int, list[str]]]:
        for number, values in enumerate(worksheet.iter_rows(values_only=True), 1):
            yield number, [_cell_text(v) for v in values]

    rows, columns, hands = _table_rows(records(), suits)
    return Source(rows, columns, hands, closers=[book.close])


# --- writing -----------------------------------------------------------------------


class Sink(Protocol):
    def write(self, solved: Solved) -> None: ...
    def close(self) -> None: ...


def _winners_text(solved: Solved) -> str:
    if solved.winners is None:
        return ""
    return ",".join(str(i + 1) for i in solved.winners)


class TextSink:
    """An aligned table for people: line, each hand (showdown order and
    category), winner(s), explanation."""

    def __init__(self, out: IO[str], hands: int, painter: Any, rules: RuleSet) -> None:
        self.out = out
        self.painter = painter
        self.hands = hands
        self.rules = rules
        cells = ["line".rjust(6)] + [f"hand {i + 1}".ljust(36) for i in range(hands)]
        out.write("  ".join(cells) + "  winner  explanation\n")

    def write(self, solved: Solved) -> None:
        line = str(solved.line).rjust(6)
        if solved.error is not None:
            self.out.write(f"{line}  error: {solved.error}\n")
            return
        cells = [line]
        evaluations = [h.evaluation(self.rules) for h in solved.hands]
        for e in evaluations:
            cells.append(f"{self.painter.cards(e.showdown)} {e.name:<16}")
        for _ in range(len(evaluations), self.hands):
            cells.append(" " * 36)
        winner = _winners_text(solved) or "-"
        explanation = solved.explanation or evaluations[0].description
        self.out.write("  ".join(cells) + f"  {winner:<6}  {explanation}\n")

    def close(self) -> None:
        self.out.flush()


def hand_json(hand: HandResult, rules: RuleSet) -> dict[str, Any]:
    """:func:`fivecard.report.evaluation_json` of a solved hand, from its
    class (shared by every hand of that strength) and its cards; only joker
    hands need the full evaluation (what the jokers became)."""
    if rules.jokers:
        return evaluation_json(hand.evaluation(rules), hand.text)
    info = class_info(rules, hand.strength)
    return {
        "input": hand.text,
        "cards": [CODE_TEXT[c] for c in hand.codes],
        "sorted": hand.sorted.split(),
        "category": info.category,
        "name": info.name,
        "score": info.score,
        "strength": info.strength,
        "description": info.description,
        "rules": rules.name,
    }


def result_json(solved: Solved, rules: RuleSet) -> dict[str, Any]:
    """The JSON object of one row (``solve --json``)."""
    if solved.error is not None:
        return {"line": solved.line, "error": solved.error}
    data: dict[str, Any] = {"line": solved.line, "hands": [hand_json(h, rules) for h in solved.hands]}
    if solved.winners is None or solved.order is None:
        data.update(winners=None, order=None, explanation=None)
    else:
        data.update(
            winners=[i + 1 for i in solved.winners],
            order=[[i + 1 for i in tier] for tier in solved.order],
            explanation=solved.explanation,
        )
    return data


class JsonlSink:
    def __init__(self, out: IO[str], rules: RuleSet) -> None:
        self.out = out
        self.rules = rules

    def write(self, solved: Solved) -> None:
        self.out.write(json.dumps(result_json(solved, self.rules), ensure_ascii=False) + "\n")

    def close(self) -> None:
        self.out.flush()


def result_header(columns: Sequence[str], hands: int) -> list[str]:
    """The CSV and xlsx header: line, the input's columns, three per hand,
    winner, explanation, error."""
    header = ["line", *columns]
    for i in range(1, hands + 1):
        header += [f"hand {i} sorted", f"hand {i} category", f"hand {i} score"]
    return header + ["winner", "explanation", "error"]


def result_cells(solved: Solved, width: int, hands: int, rules: RuleSet) -> list[Any]:
    """One output row: the input cells (padded to the input's width), three
    cells per hand (sorted cards, category, score), then winner(s),
    explanation and error."""
    cells: list[Any] = [solved.line, *solved.row.cells]
    cells += [""] * (1 + width - len(cells))
    for h in solved.hands:
        info = class_info(rules, h.strength)
        cells += [h.sorted, info.name, info.score]
    cells += [""] * (_PER_HAND * max(0, hands - len(solved.hands)))
    return cells + [_winners_text(solved), solved.explanation or "", solved.error or ""]


class CsvSink:
    def __init__(self, out: IO[str], columns: Sequence[str], hands: int, rules: RuleSet) -> None:
        self.writer = csv.writer(out, lineterminator="\n")
        self.out = out
        self.width = len(columns)
        self.hands = hands
        self.rules = rules
        self.writer.writerow(result_header(columns, hands))

    def write(self, solved: Solved) -> None:
        self.writer.writerow(result_cells(solved, self.width, self.hands, self.rules))

    def close(self) -> None:
        self.out.flush()


class XlsxSink:
    """A workbook ready to hand in: the input columns, then seed 000's steps
    for each hand (1: sorted cards, 2: category and score) and per row
    (3: winner) with the explanation."""

    def __init__(
        self, target: str | IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet
    ) -> None:
        import openpyxl
        from openpyxl.styles import Font

        self.rules = rules
        self.target = target
        self.book = openpyxl.Workbook(write_only=True)
        self.sheet = self.book.create_sheet("fivecard")
        self.width = len(columns)
        self.hands = hands
        header = result_header(columns, hands)
        steps = {"sorted": "Step 1: ", "category": "Step 2: ", "winner": "Step 3: "}
        labelled = [
            next((steps[k] + h for k in steps if h.endswith(k)), h) for h in header
        ]
        bold = Font(bold=True)
        from openpyxl.cell import WriteOnlyCell

        row = []
        for text in labelled:
            cell = WriteOnlyCell(self.sheet, value=text)
            cell.font = bold
            row.append(cell)
        self.sheet.append(row)

    def write(self, solved: Solved) -> None:
        self.sheet.append(result_cells(solved, self.width, self.hands, self.rules))

    def close(self) -> None:
        try:
            self.book.save(self.target)
        except OSError as exc:
            raise FileError(f"cannot write the workbook: {exc.strerror or exc}") from None


def output_format(path: str | None, requested: str | None) -> str:
    """The output format: ``requested``, else by the output file's extension,
    else text (the default on a terminal, and for standard output)."""
    if requested:
        return requested
    if path and path != "-":
        suffix = Path(path).suffix.lower()
        return {".jsonl": "jsonl", ".json": "jsonl", ".csv": "csv", ".xlsx": "xlsx"}.get(
            suffix, "text"
        )
    return "text"


def make_sink(
    fmt: str,
    out: IO[str] | None,
    path: str | None,
    *,
    columns: Sequence[str],
    hands: int,
    painter: Any,
    rules: RuleSet,
) -> tuple[Sink, list[Any]]:
    """A writer for the format, and what to close after it."""
    if fmt == "xlsx":
        target: str | IO[bytes]
        if path and path != "-":
            target = path
        elif out is not None and hasattr(out, "buffer"):
            target = out.buffer
        else:
            raise FileError("xlsx output needs a file: use -o FILE.xlsx")
        return XlsxSink(target, columns, hands, rules), []
    closers: list[Any] = []
    if path and path != "-":
        try:
            handle = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as exc:
            raise FileError(f"cannot write {path!r}: {exc.strerror or exc}") from None
        closers.append(handle.close)
        out = handle
    assert out is not None
    if fmt == "jsonl":
        return JsonlSink(out, rules), closers
    if fmt == "csv":
        return CsvSink(out, columns, hands, rules), closers
    return TextSink(out, hands, painter, rules), closers
