"""Robustness numbers of `fivecard solve`, measured on whole
processes: hostile lines, zip-bomb workbooks, hostile XML in workbooks, and
stop signals (Ctrl-C, SIGTERM, SIGHUP) at random moments.

    .venv/bin/python benchmarks/bench_robustness.py [--tries 10] [--lines 3000000] [--signals INT,TERM,HUP]

Each case runs `fivecard solve` under /usr/bin/time and prints its wall time,
peak memory (RSS) and exit code; the interrupt part stops a big solve at
random moments, with each signal in turn, and checks what is left: the
earlier output untouched (or no output), no temporary file (and how many
bytes those left hold), exit code 128 plus the signal, one line on stderr.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

FIVECARD = [sys.executable, "-m", "fivecard"]
SHEET_HEAD = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
SHEET_TAIL = b"</sheetData></worksheet>"


def timed(argv: list[str]) -> tuple[float, int, int, str]:
    """Wall seconds, peak RSS in MB, exit code and stderr's last line."""
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%e %M", *argv], capture_output=True, text=True, check=False
    )
    lines = done.stderr.strip().splitlines()
    seconds, kilobytes = lines[-1].split()
    message = next((x for x in reversed(lines[:-1]) if x.startswith("fivecard")), "")
    return float(seconds), int(kilobytes) // 1024, done.returncode, message[:150]


def workbook(path: Path, sheet: list[bytes] | bytes, strings: list[bytes] | None = None) -> None:
    """A workbook whose parts are written from chunks (compressed as they come)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(
            "xl/workbook.xml",
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
        )
        for name, chunks in (("xl/worksheets/sheet1.xml", sheet), ("xl/sharedStrings.xml", strings)):
            if chunks is None:
                continue
            with archive.open(name, "w", force_zip64=True) as part:
                for chunk in [chunks] if isinstance(chunks, bytes) else chunks:
                    part.write(chunk)


def repeat(piece: bytes, total: int) -> list[bytes]:
    block = piece * max(1, (1 << 24) // len(piece))
    return [block] * max(1, total // len(block))


def hostile_inputs(folder: Path) -> None:
    print("== hostile inputs: fivecard solve FILE -o out.csv")
    good = b"AS KS QS JS TS | 2C 3C 4C 5C 7D\n"
    cases: dict[str, Path] = {}
    cases["a 2 MB line of spaces (+1 good line)"] = folder / "spaces.txt"
    cases["a 2 MB line of spaces (+1 good line)"].write_bytes(b" " * 2_000_000 + b"\n" + good)
    cases["a 1,000,000-space gap inside a hand line"] = folder / "gap.txt"
    cases["a 1,000,000-space gap inside a hand line"].write_bytes(b"AS KS QS JS TS" + b" " * 1_000_000 + b"| 2C 3C 4C 5C 7D\n")
    cases["a 1 MB line of | (+1 good line)"] = folder / "bars.txt"
    cases["a 1 MB line of | (+1 good line)"].write_bytes(b"|" * 1_000_000 + b"\n" + good)
    cases["a 100 MB line without a line end"] = folder / "long.txt"
    cases["a 100 MB line without a line end"].write_bytes(b"AS " * 33_333_333)
    cases["an unclosed quote in every CSV line (100k)"] = folder / "quotes.csv"
    cases["an unclosed quote in every CSV line (100k)"].write_bytes(b'a,b\n' + b'1,"AS KS QS JS TS,2C 3C 4C 5C 7D\n' * 100_000)
    for name, path in cases.items():
        seconds, megabytes, code, message = timed([*FIVECARD, "solve", str(path), "-o", str(folder / "out.csv")])
        print(f"{name:<45} {seconds:6.2f} s {megabytes:6,} MB  exit {code}  {message}")


def bombs(folder: Path) -> None:
    print("== hostile workbooks: fivecard solve FILE.xlsx")
    row = b'<row><c t="inlineStr"><is><t>AS KS QS JS TS</t></is></c></row>'
    cells_in_a_row = [b"<row>"] + repeat(b'<c t="inlineStr"><is><t>x</t></is></c>', 5_000_000 * 38) + [b"</row>"]
    cases: dict[str, tuple[list[bytes] | bytes, list[bytes] | None]] = {
        "4 GB of whitespace in a sheet": ([SHEET_HEAD, *repeat(b" ", 4_000_000_000), SHEET_TAIL], None),
        "a 1 GB shared string": (
            [SHEET_HEAD, b'<row><c t="s"><v>0</v></c></row>', SHEET_TAIL],
            [b"<sst><si><t>", *repeat(b"A", 1_000_000_000), b"</t></si></sst>"],
        ),
        "30 M shared strings": (
            [SHEET_HEAD, row, SHEET_TAIL],
            [b"<sst>", *repeat(b"<si><t>x</t></si>", 30_000_000 * 17), b"</sst>"],
        ),
        "5 M cells in a row": ([SHEET_HEAD, *cells_in_a_row, SHEET_TAIL], None),
        "a cell at XFD1048576, then 1 row": (
            SHEET_HEAD + b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>' + SHEET_TAIL, None
        ),
    }
    for name, (sheet, strings) in cases.items():
        path = folder / "bomb.xlsx"
        workbook(path, sheet, strings)
        seconds, megabytes, code, message = timed([*FIVECARD, "solve", str(path), "-o", str(folder / "out.csv")])
        size = path.stat().st_size
        print(f"{name:<35} file {size / 1e6:7.2f} MB  {seconds:6.2f} s {megabytes:6,} MB  exit {code}  {message}")


def hostile_xml(folder: Path, attribute_mb: float, nested_mb: float) -> None:
    """Workbooks whose XML a careless streaming reader pays for: one huge
    attribute (quadratic in expat before 2.6, fed in fixed chunks), elements
    nested without end (memory). Written by make_hostile_workbook.py."""
    print("== hostile XML in workbooks: fivecard solve FILE.xlsx -o out.csv")
    maker = str(Path(__file__).with_name("make_hostile_workbook.py"))
    for kind, mb in (("attribute", attribute_mb), ("nested", nested_mb)):
        path = folder / f"{kind}.xlsx"
        subprocess.run([sys.executable, maker, kind, str(mb), str(path)], check=True, capture_output=True)
        seconds, megabytes, code, message = timed([*FIVECARD, "solve", str(path), "-o", str(folder / "out.csv")])
        size = path.stat().st_size
        print(f"{kind:<10} file {size / 1e6:7.2f} MB  {seconds:6.2f} s {megabytes:6,} MB  exit {code}  {message}")


def interrupts(folder: Path, lines: int, tries: int, formats: list[str], stops: list[signal.Signals]) -> None:
    """(xlsx gets a tenth of the lines: openpyxl writes some 50,000 rows a second.)"""
    names = "/".join(s.name for s in stops)
    print(f"== {names} at a random moment of `fivecard solve` of {lines:,} lines (seed 1)")
    source = folder / "euler.txt"
    subprocess.run(
        [sys.executable, str(Path(__file__).with_name("make_euler_file.py")), str(lines), str(source)],
        check=True, capture_output=True,
    )
    small = folder / "euler-small.txt"
    with source.open("rb") as whole, small.open("wb") as part:
        for _ in range(max(1, lines // 10)):
            part.write(whole.readline())
    rng = random.Random(1)
    totals: dict[signal.Signals, list[int]] = {stop: [0, 0, 0, 0] for stop in stops}  # runs, stopped, leaving files, bytes
    for fmt in formats:
        if fmt == "xlsx":
            source = small
        target = folder / f"out.{fmt}"
        started = time.perf_counter()
        subprocess.run([*FIVECARD, "solve", str(source), "-o", str(target)], check=False, capture_output=True)
        full = time.perf_counter() - started
        print(f"-o out.{fmt}: an uninterrupted run takes {full:.2f} s")
        for attempt in range(1, tries + 1):
            stop = stops[(attempt - 1) % len(stops)]
            earlier = attempt % 2 == 0
            if earlier:
                target.write_bytes(b"the earlier result\n")
            elif target.exists():
                target.unlink()
            before = hashlib.sha256(target.read_bytes()).hexdigest() if earlier else None
            child = subprocess.Popen(
                [*FIVECARD, "solve", str(source), "-o", str(target)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            delay = rng.uniform(0.05, full * 1.1)
            time.sleep(delay)
            child.send_signal(stop)
            _, err = child.communicate(timeout=300)
            left = [p for p in folder.iterdir() if p.name.endswith(".part")]
            stopped = child.returncode in (128 + stop, -stop)
            if stopped and b"written in full" in err:
                verdict = f"the output was complete and in place when the signal came: {target.stat().st_size > 1000}"
            elif stopped:
                kept = (hashlib.sha256(target.read_bytes()).hexdigest() == before) if earlier else not target.exists()
                state = "earlier file unchanged" if earlier else "no file created"
                verdict = f"{state}: {kept}"
            else:
                verdict = f"finished before the signal; output complete: {target.stat().st_size > 1000}"
            message = err.decode().strip().splitlines()
            size = sum(p.stat().st_size for p in left)
            counts = totals[stop]
            counts[0] += 1
            counts[1] += stopped
            counts[2] += bool(left)
            counts[3] += size
            print(
                f"  try {attempt:2}: {stop.name} after {delay:5.2f} s -> exit {child.returncode}; {verdict}; "
                f"temporary files left: {len(left)} ({size / 1e6:.1f} MB); "
                f"stderr: {message[-1] if message else ''!r} ({len(message)} line{'s' if len(message) != 1 else ''})"
            )
            for path in left:  # each try starts clean
                path.unlink()
    for stop, (runs, mid_run, leaving, size) in totals.items():
        print(
            f"{stop.name}: {runs} runs, {mid_run} stopped mid-run, {leaving} left temporary files "
            f"({size / 1e6:.1f} MB in all)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tries", type=int, default=10)
    parser.add_argument("--lines", type=int, default=3_000_000)
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: hostile, bombs, xml, interrupts")
    parser.add_argument("--attribute-mb", type=float, default=11.8, help="size of the one-attribute workbook")
    parser.add_argument("--nested-mb", type=float, default=19.0, help="size of the nested-elements workbook")
    parser.add_argument("--formats", default="csv,jsonl,xlsx", help="output formats to interrupt (csv,jsonl,xlsx)")
    parser.add_argument("--signals", default="INT,TERM,HUP", help="the stop signals sent in turn (INT,TERM,HUP)")
    args = parser.parse_args()
    stops = [signal.Signals[f"SIG{name.strip().upper().removeprefix('SIG')}"] for name in args.signals.split(",")]
    skip = set(filter(None, re.split(r"[, ]+", args.skip)))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if "hostile" not in skip:
            hostile_inputs(folder)
        if "bombs" not in skip:
            bombs(folder)
        if "xml" not in skip:
            hostile_xml(folder, args.attribute_mb, args.nested_mb)
        if "interrupts" not in skip:
            interrupts(folder, args.lines, args.tries, args.formats.split(","), stops)


if __name__ == "__main__":
    main()
