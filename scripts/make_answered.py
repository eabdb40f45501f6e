"""Make examples/answered.xlsx and examples/answered.csv: a modeller's answers
to ten ModelOff 2012 showdowns (each hand's classification and the winner),
two of them wrong on purpose, for ``fivecard mark``.

Run from the checkout: ``python scripts/make_answered.py``. The workbook has a
title row, a bold header, widths and fills, and two formulas whose last
computed values are stored (as Excel stores them; openpyxl writes formulas
without values, so they are added to the sheet's XML here).
"""

from __future__ import annotations

import csv
import html
import re
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

TITLE = "ModelOff 2012: two hands, classified and settled"
HEADER = ["Test", "Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"]
#: Test, hand 1, hand 2, classification 1, classification 2, winner. A value
#: starting with "=" is a formula: (formula, its stored value).
ROWS: list[list[object]] = [
    [1, "AD KD QD JD TD", "QC TC 7C 6C 4C", "Royal Flush", "Flush", ("=IF(D3=\"Royal Flush\",1,2)", 1)],
    [2, "QC TC 7C 6C 4C", "QD TD 7D 5D 4D", "Flush", "Flush", 1],
    [3, "TD TH 4H 4C 3S", "TS TC 4S 4D 3H", "Two Pair", "Two Pair", "Draw"],
    [4, "9C 9S 9D 9H JH", "7S 7H 7D 7C AS", 8, 8, 1],
    [5, "7S 7H 7D 4S 4C", "6S 6H 6D AS AC", "Full House", "Full House", 2],  # wrong winner
    [6, "AH 2H 3S 4H 5C", "2C 3D 4S 5S 6H", "Straight", "Straight", 2],
    [7, "QS QH QD 7S 4C", "JS JC JD AD KC", "Trips", "Three of a Kind", 1],
    [8, "JH JC 4C 4S 9H", "KH KD 8C 7D 2S", "One Pair", "One Pair", 1],  # hand 1 is Two Pair
    [9, "4H 4S KS TD 5S", "KH JH 8C 7D 3S", "Pair", "Flush", "Player 1"],  # the loser's class wrong
    [10, "QC JC TC 9C 8C", "AS AH AD AC KS", "Straight Flush", ("=\"Four of a \"&\"Kind\"", "Four of a Kind"), 1],
]


def cache_formulas(path: Path, sheet_part: str, values: dict[str, object]) -> None:
    """Store each formula cell's value (by reference, e.g. ``F3``) in a
    workbook openpyxl wrote, as Excel would have stored it."""
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info.filename) for info in archive.infolist()}
    xml = parts[sheet_part].decode("utf-8")
    for ref, value in values.items():
        kind = ' t="str"' if isinstance(value, str) else ""
        text = html.escape(str(value), quote=False)
        pattern = re.compile(rf'(<c r="{ref}"[^>]*?)>(<f>.*?</f>)<v\s*/>')
        xml, count = pattern.subn(lambda m: f"{m.group(1)}{kind}>{m.group(2)}<v>{text}</v>", xml)
        if count != 1:
            raise ValueError(f"no formula cell {ref} in {sheet_part}")
    parts[sheet_part] = xml.encode("utf-8")
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".part", delete=False) as handle:
        temporary = Path(handle.name)
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    shutil.move(temporary, path)


def write_workbook(path: Path, title: str | None, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A workbook of one sheet, "Answers": a title row (if any), a bold
    header, the rows; formula cells given as (formula, value) keep their
    value."""
    import openpyxl
    from openpyxl.utils import get_column_letter
    from openpyxl.styles import Font, PatternFill

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Answers"
    if title is not None:
        sheet.append([title])
        sheet["A1"].font = Font(bold=True, size=14)
    sheet.append(list(header))
    header_row = sheet.max_row
    for cell in sheet[header_row]:
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", start_color="DDEBF7", end_color="DDEBF7")
    values: dict[str, object] = {}
    for row in rows:
        sheet.append([value[0] if isinstance(value, tuple) else value for value in row])
        for column, value in enumerate(row, 1):
            if isinstance(value, tuple):
                values[f"{get_column_letter(column)}{sheet.max_row}"] = value[1]
    for letter, width in zip("ABCDEF", (6, 18, 18, 24, 24, 10)):
        sheet.column_dimensions[letter].width = width
    book.save(path)
    if values:
        cache_formulas(path, "xl/worksheets/sheet1.xml", values)


def write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(header)
        for row in rows:
            out.writerow([value[1] if isinstance(value, tuple) else value for value in row])


def main(folder: str = "examples") -> None:
    root = Path(folder)
    write_workbook(root / "answered.xlsx", TITLE, HEADER, ROWS)
    write_csv(root / "answered.csv", HEADER, ROWS)


if __name__ == "__main__":
    main(*sys.argv[1:])
