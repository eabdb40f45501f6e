"""Time and peak memory of `fivecard mark` on big answered tables, measured
on whole processes (/usr/bin/time):

    .venv/bin/python benchmarks/bench_mark.py [--rows 1000000] [--copy-rows 200000]
        [--fivecard /path/to/another/fivecard] [--folder DIR]

It makes the tables once (in --folder, default a temporary one): ``rows``
showdowns of random deals with each hand's classification and the winner
answered, right on most rows (every seventh winner wrong), as CSV and as a
workbook (inline strings, as a raw sheet, written in seconds); and a
workbook of ``copy-rows`` rows for the marked copy. Then it marks them:
CSV, CSV with --json, the workbook, the copy's workbook to -o CSV and to
-o .xlsx (refused past the copy's limit), printing per case the wall time,
the peak RSS and the exit code. ``--fivecard`` runs another installation's
command (e.g. an earlier version's) on the same tables.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

from fivecard.vector.batch import encode, strengths
from fivecard.files.rows import column_letter
from fivecard.core.columns import class_columns
from fivecard.core.cards import full_deck
from fivecard.core.rules import STANDARD

HEADER = ["Test", "Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"]
_BATCH = 50_000
_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
_ROOT_RELS = (
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
_BOOK = (
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Answers" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_BOOK_RELS = (
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)


def answered(count: int, seed: int = 1) -> Iterator[list[str]]:
    """Rows of answered showdowns: test, two hands, their classes, winner."""
    deck = [c.code_str for c in full_deck()]
    rng = random.Random(seed)
    test = 0
    while test < count:
        pairs = []
        for _ in range(min(_BATCH, count - test)):
            cards = rng.sample(deck, 10)
            pairs.append((" ".join(cards[:5]), " ".join(cards[5:])))
        found = strengths(encode([hand for pair in pairs for hand in pair])).tolist()
        for i, (one, two) in enumerate(pairs):
            test += 1
            a, b = found[2 * i], found[2 * i + 1]
            winner = "1" if a > b else "2" if b > a else "draw"
            if test % 7 == 0 and winner != "draw":
                winner = "2" if winner == "1" else "1"
            labels = [class_columns(STANDARD).category(s).label for s in (a, b)]
            yield [str(test), one, two, *labels, winner]


def write_csv(path: Path, count: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(",".join(HEADER) + "\n")
        for row in answered(count):
            out.write(",".join(row) + "\n")


def _sheet_row(number: int, cells: list[str]) -> bytes:
    parts = [f'<row r="{number}">']
    for j, text in enumerate(cells):
        ref = f"{column_letter(j)}{number}"
        if text.isdigit():
            parts.append(f'<c r="{ref}"><v>{text}</v></c>')
        else:
            parts.append(f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>')
    parts.append("</row>")
    return "".join(parts).encode()


def write_xlsx(path: Path, count: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", _TYPES)
        archive.writestr("_rels/.rels", _ROOT_RELS)
        archive.writestr("xl/workbook.xml", _BOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", _BOOK_RELS)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
            sheet.write(_sheet_row(1, HEADER))
            pending: list[bytes] = []
            for number, row in enumerate(answered(count), 2):
                pending.append(_sheet_row(number, row))
                if len(pending) >= 10_000:
                    sheet.write(b"".join(pending))
                    pending = []
            sheet.write(b"".join(pending) + b"</sheetData></worksheet>")


def timed(argv: list[str]) -> tuple[float, int, int, str]:
    """Wall seconds, peak RSS in MB, exit code and stderr's last fivecard line."""
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%e %M", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        check=False,
    )
    lines = done.stderr.strip().splitlines()
    seconds, kilobytes = lines[-1].split()
    message = next((x for x in reversed(lines[:-1]) if x.startswith(("fivecard: error", "wrote"))), "")
    return float(seconds), int(kilobytes) // 1024, done.returncode, message[:120]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the big tables (default 1,000,000)")
    parser.add_argument("--copy-rows", type=int, default=200_000, help="rows of the workbook copied (default 200,000)")
    parser.add_argument("--fivecard", help="the fivecard command to run (default: this Python's)")
    parser.add_argument("--folder", help="where the tables are made (kept; default: a temporary folder)")
    args = parser.parse_args()
    folder = Path(args.folder or tempfile.mkdtemp(prefix="fivecard-bench-mark-"))
    folder.mkdir(parents=True, exist_ok=True)
    tables = {
        "csv": (folder / f"answers-{args.rows}.csv", args.rows, write_csv),
        "xlsx": (folder / f"answers-{args.rows}.xlsx", args.rows, write_xlsx),
        "copy": (folder / f"answers-{args.copy_rows}.xlsx", args.copy_rows, write_xlsx),
    }
    for path, count, write in tables.values():
        if not path.exists():
            write(path, count)
    command = [args.fivecard] if args.fivecard else [sys.executable, "-m", "fivecard"]
    csv_in, xlsx_in, copy_in = (str(tables[k][0]) for k in ("csv", "xlsx", "copy"))
    cases = [
        (f"mark, CSV, {args.rows:,} rows", ["mark", csv_in]),
        (f"mark --json, CSV, {args.rows:,} rows", ["mark", csv_in, "--json"]),
        (f"mark, xlsx, {args.rows:,} rows", ["mark", xlsx_in]),
        (f"mark -o .csv, xlsx, {args.copy_rows:,} rows", ["mark", copy_in, "-o", str(folder / "marked.csv")]),
        (f"mark -o .xlsx, xlsx, {args.copy_rows:,} rows", ["mark", copy_in, "-o", str(folder / "marked.xlsx")]),
    ]
    print(f"tables in {folder}; command: {' '.join(command)}")
    for name, argv in cases:
        seconds, megabytes, code, message = timed([*command, *argv])
        print(f"{name:<40} {seconds:8.1f} s {megabytes:7,} MB  exit {code}  {message}", flush=True)


if __name__ == "__main__":
    main()
