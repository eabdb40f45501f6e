"""Writing solved rows: an aligned text table, JSON Lines, CSV or ``.xlsx``.

Every writer takes rows one at a time (streaming). The cells a CSV file or a
workbook receives are inert: no cell is ever a formula (a text starting with
``=``, ``+``, ``-`` or ``@`` gets a leading ``'`` in CSV and is a text cell in
a workbook), and control characters, which a workbook cannot hold, are shown
as their Unicode pictures (U+0007 as ``␇``). A row with more hands than the
header names keeps every named column in place: the extra hands' cells follow
the last named column, and :meth:`Sink.notes` says so.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Sequence
from typing import IO, Any, Final, Protocol

from .report import Painter, evaluation_json
from .rules import RuleSet
from .solve import CODE_TEXT, HandResult, Solved, class_info
from .workbook import MAX_ROWS

__all__ = [
    "Sink",
    "make_sink",
    "OUTPUT_FORMATS",
    "BINARY_FORMATS",
    "inert",
    "csv_cells",
    "result_cells",
    "result_header",
    "hand_json",
    "result_json",
    "output_format",
    "overflow_note",
]

OUTPUT_FORMATS: Final = ("text", "jsonl", "csv", "xlsx")
BINARY_FORMATS: Final = ("xlsx",)
_PER_HAND: Final = 3  # CSV and xlsx cells per hand: sorted cards, category, score
_CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")
_XLSX_CELL: Final = 32_767  # characters a workbook cell holds


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return "\u2421" if code == 0x7F else chr(0x2400 + code)


def inert(text: str) -> str:
    """A cell's text made safe for a spreadsheet: control characters as their
    pictures, and a leading ``'`` before what a spreadsheet would run as a
    formula.

    >>> inert('=cmd|" /C calc"!A0'), inert('AS KS'), inert('bell\\x07')
    ('\\'=cmd|" /C calc"!A0', 'AS KS', 'bell␇')
    """
    if _CONTROL.search(text):
        text = _CONTROL.sub(_picture, text)
    if text.startswith(_FORMULA_START):
        return "'" + text
    return text


class Sink(Protocol):
    def write(self, solved: Solved) -> None: ...
    def close(self) -> None: ...
    def discard(self) -> None:
        """Give up the output (after an error): release what it holds."""
    def notes(self) -> list[str]: ...


def _winners_text(solved: Solved) -> str:
    if solved.winners is None:
        return ""
    return ",".join(str(i + 1) for i in solved.winners)


def overflow_note(widest: int, hands: int, where: str) -> list[str]:
    """What to tell when rows held more hands than the header names."""
    if widest <= hands:
        return []
    extra = f"hand {hands + 1}" if widest == hands + 1 else f"hands {hands + 1}-{widest}"
    return [
        f"some rows hold up to {widest} hands, more than the {hands} the first rows held: "
        f"the cells of {extra} follow {where}"
    ]


def past_note(past: int, width: int) -> list[str]:
    """What to tell when rows of a table had cells past its columns."""
    if past <= 0:
        return []
    cells = "a cell" if past == 1 else f"up to {past} cells"
    return [f"some rows have {cells} past the table's {width} columns: they follow the error column"]


class TextSink:
    """An aligned table for people: line, each hand (showdown order and
    category), winner(s), explanation."""

    def __init__(self, out: IO[str], hands: int, painter: Painter, rules: RuleSet) -> None:
        self.out = out
        self.painter = painter
        self.hands = hands
        self.rules = rules
        self.widest = 0
        cells = ["line".rjust(6)] + [f"hand {i + 1}".ljust(36) for i in range(hands)]
        out.write("  ".join(cells) + "  winner  explanation\n")

    def write(self, solved: Solved) -> None:
        line = str(solved.line).rjust(6)
        if solved.error is not None:
            self.out.write(f"{line}  error: {solved.error}\n")
            return
        cells = [line]
        evaluations = [h.evaluation(self.rules) for h in solved.hands]
        self.widest = max(self.widest, len(evaluations))
        shown = [f"{self.painter.cards(e.showdown)} {e.label:<16}" for e in evaluations]
        cells += shown[: self.hands] + [" " * 36] * (self.hands - len(shown))
        winner = _winners_text(solved) or "-"
        explanation = solved.explanation or evaluations[0].description
        more = "".join(f"  | hand {i + 1}: {text.rstrip()}" for i, text in enumerate(shown) if i >= self.hands)
        self.out.write("  ".join(cells) + f"  {winner:<6}  {explanation}{more}\n")

    def close(self) -> None:
        self.out.flush()

    def discard(self) -> None:
        pass

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "the explanation")


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

    def discard(self) -> None:
        pass

    def notes(self) -> list[str]:
        return []


def result_header(columns: Sequence[str], hands: int) -> list[str]:
    """The CSV and xlsx header: line, the input's columns, three per hand,
    winner, explanation, error."""
    header = ["line", *columns]
    for i in range(1, hands + 1):
        header += [f"hand {i} sorted", f"hand {i} category", f"hand {i} score"]
    return header + ["winner", "explanation", "error"]


def csv_cells(cells: Sequence[Any]) -> list[Any]:
    """A row's cells for CSV: every text :func:`inert`."""
    return [inert(c) if isinstance(c, str) else c for c in cells]


def result_cells(solved: Solved, width: int, hands: int, rules: RuleSet) -> list[Any]:
    """One output row: the input cells (padded to the input's width), three
    cells per hand (sorted cards, category, score) for the header's
    ``hands``, then winner(s), explanation and error, then three cells for
    each further hand of the row (text input) or the row's cells past the
    table's columns (a table). (CSV writes them :func:`inert`; a workbook
    writes texts as text cells.)"""
    cells: list[Any] = [solved.line, *solved.row.cells[:width]]
    cells += [""] * (1 + width - len(cells))
    per_hand: list[Any] = []
    for h in solved.hands:
        info = class_info(rules, h.strength)
        per_hand += [h.sorted, info.name, info.score]
    split = _PER_HAND * hands
    cells += per_hand[:split] + [""] * (split - len(per_hand[:split]))
    tail = [_winners_text(solved), solved.explanation or "", solved.error or ""]
    return cells + tail + per_hand[split:] + list(solved.row.cells[width:])


class CsvSink:
    def __init__(self, out: IO[str], columns: Sequence[str], hands: int, rules: RuleSet) -> None:
        self.writer = csv.writer(out, lineterminator="\n")
        self.out = out
        self.width = len(columns)
        self.hands = hands
        self.rules = rules
        self.widest = 0
        self.past = 0  # the most cells of a row past the table's columns
        self.writer.writerow(csv_cells(result_header(columns, hands)))

    def write(self, solved: Solved) -> None:
        self.widest = max(self.widest, len(solved.hands))
        self.past = max(self.past, len(solved.row.cells) - self.width)
        self.writer.writerow(csv_cells(result_cells(solved, self.width, self.hands, self.rules)))

    def close(self) -> None:
        self.out.flush()

    def discard(self) -> None:
        pass

    def notes(self) -> list[str]:
        return overflow_note(self.widest, self.hands, "the error column, three cells a hand") + past_note(
            self.past, self.width
        )


class XlsxSink:
    """A workbook ready to hand in: the input columns, then seed 000's steps
    for each hand (1: sorted cards, 2: category and score) and per row
    (3: winner) with the explanation. Every text is a text cell (never a
    formula). Past a sheet's 1,048,576 rows the rows go on in another sheet
    (``fivecard (2)`` ...), each with the header."""

    def __init__(self, target: IO[bytes], columns: Sequence[str], hands: int, rules: RuleSet) -> None:
        import openpyxl  # deferred: only .xlsx work pays for importing it

        self.rules = rules
        self.target = target
        self.book = openpyxl.Workbook(write_only=True)
        self.width = len(columns)
        self.hands = hands
        self.widest = 0
        header = result_header(columns, hands)
        steps = {"sorted": "Step 1: ", "category": "Step 2: ", "winner": "Step 3: "}
        self.header = [next((steps[k] + h for k in steps if h.endswith(k)), h) for h in header]
        self.sheets = 0
        self.rows = MAX_ROWS  # a sheet is started before the first row
        self.past = 0

    def _new_sheet(self) -> None:
        from openpyxl.styles import Font

        self.sheets += 1
        self.sheet = self.book.create_sheet("fivecard" if self.sheets == 1 else f"fivecard ({self.sheets})")
        bold = Font(bold=True)
        self.sheet.append([self._cell(text, font=bold) for text in self.header])
        self.rows = 1

    def _cell(self, value: Any, font: Any = None) -> Any:
        from openpyxl.cell import WriteOnlyCell

        cell = WriteOnlyCell(self.sheet)
        if isinstance(value, str):
            text = _CONTROL.sub(_picture, value) if _CONTROL.search(value) else value
            if len(text) > _XLSX_CELL:  # Excel's limit; openpyxl would cut it without a word
                text = text[: _XLSX_CELL - 1] + "…"
            cell.value = text
            cell.data_type = "s"  # a text cell, even when it starts with "="
        else:
            cell.value = value
        if font is not None:
            cell.font = font
        return cell

    def write(self, solved: Solved) -> None:
        if self.rows >= MAX_ROWS:
            self._new_sheet()
        self.widest = max(self.widest, len(solved.hands))
        self.past = max(self.past, len(solved.row.cells) - self.width)
        cells = result_cells(solved, self.width, self.hands, self.rules)
        self.sheet.append([self._cell(v) for v in cells])
        self.rows += 1

    def close(self) -> None:
        import zipfile

        from openpyxl.writer.excel import ExcelWriter

        if self.sheets == 0:
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
        if self.sheets > 1:
            notes.append(
                f"{self.sheets} sheets: a sheet holds {MAX_ROWS:,} rows, so the rows go on "
                f"in 'fivecard (2)' and after"
            )
        return notes


def output_format(path: str | None, requested: str | None) -> str:
    """The output format: ``requested``, else by the output file's extension,
    else text (the default on a terminal, and for standard output)."""
    if requested:
        return requested
    if path and path != "-":
        suffix = path.rpartition(".")[2].lower() if "." in path else ""
        return {"jsonl": "jsonl", "json": "jsonl", "csv": "csv", "xlsx": "xlsx"}.get(suffix, "text")
    return "text"


def make_sink(
    fmt: str,
    *,
    text: IO[str] | None,
    binary: IO[bytes] | None,
    columns: Sequence[str],
    hands: int,
    painter: Painter,
    rules: RuleSet,
) -> Sink:
    """A writer for the format: xlsx writes ``binary``, the others ``text``."""
    if fmt == "xlsx":
        assert binary is not None
        return XlsxSink(binary, columns, hands, rules)
    assert text is not None
    if fmt == "jsonl":
        return JsonlSink(text, rules)
    if fmt == "csv":
        return CsvSink(text, columns, hands, rules)
    return TextSink(text, hands, painter, rules)
