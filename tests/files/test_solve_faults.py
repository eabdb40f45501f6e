"""Nothing lost, nothing silently wrong: each reproduced fault of the bulk
solver, and the class of fault it stands for, through `fivecard solve`."""

from __future__ import annotations

import csv
import errno
import fcntl
import io
import json
import os
import subprocess
import sys
import threading
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from fivecard.files import writers
from fivecard.cli import main
from fivecard.files.rows import TableLayout, split_line

ROYAL = "AS KS QS JS TS"
LOW = "2C 3C 4C 5C 7D"


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def solve_json(path: Path | str, *extra: str) -> tuple[int, list[dict[str, object]], str]:
    code, out, err = run(["solve", str(path), "--json", *extra])
    return code, [json.loads(line) for line in out.splitlines()], err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def proc(*args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "fivecard", *args], capture_output=True, check=False, **kwargs)  # type: ignore[call-overload, no-any-return]


# --- 1. table layout by shape ------------------------------------------------------------


def test_an_empty_hand_cell_is_an_error_of_that_hand(tmp_path: Path) -> None:
    text = 'Round,Player 1,Player 2,Player 3\n1,"KD, 9C, 10H, 4S, 2D",,"QS, QD, 3C, 5H, 8D"\n'
    code, rows, err = solve_json(write(tmp_path, "t.csv", text))
    assert code == 1
    assert rows == [{"line": 2, "error": "hand 2: no cards (an empty hand) in ''"}]
    assert "hands: B (Player 1), C (Player 2), D (Player 3); labels: A (Round)" in err


def test_later_hands_keep_their_numbers_when_one_is_empty(tmp_path: Path) -> None:
    text = f"Round,Player 1,Player 2,Player 3\n1,{ROYAL},{LOW},\n2,{ROYAL},,{LOW}\n3,{LOW},2H 2D 5S 6S 7S,{ROYAL}\n"
    code, rows, _ = solve_json(write(tmp_path, "t.csv", text))
    assert [r.get("error") for r in rows] == ["hand 3: no cards (an empty hand) in ''", "hand 2: no cards (an empty hand) in ''", None]
    assert rows[2]["winners"] == [3]
    code, rows, _ = solve_json(write(tmp_path, "t.txt", f"{ROYAL} | | {LOW}\n"))
    assert rows == [{"line": 1, "error": "hand 2: no cards (an empty hand) in ''"}]


def test_a_mistyped_hand_is_an_error_row_not_a_label(tmp_path: Path) -> None:
    text = 'Round,Player 1,Player 2,Player 3\n1,"KD, 9C, 10H, 4S, 2D","AH, AS, 7C, 7H, 2C","QS, QD, QC, 5H, 8O"\n'
    code, rows, err = solve_json(write(tmp_path, "t.csv", text))
    assert code == 1
    assert rows == [{"line": 2, "error": "hand 3: unknown suit 'O' in card 5 ('8O') of 'QS, QD, QC, 5H, 8O'"}]
    assert "hands: B (Player 1), C (Player 2), D (Player 3)" in err


def test_a_column_of_typos_is_still_a_hand_column() -> None:
    layout = TableLayout.detect([["1", "8O 9X 1S ZZ KS", "AS KS QS JS TS"]] * 3)
    assert layout.kinds == ("other", "hand", "hand")


def test_a_title_row_above_the_header_costs_nothing(tmp_path: Path) -> None:
    text = f"Showdowns of March 2026\n\nRound,Player 1,Player 2\n1,{ROYAL},{LOW}\n2,{LOW},{ROYAL}\n"
    code, rows, err = solve_json(write(tmp_path, "t.csv", text))
    assert code == 0 and [r["winners"] for r in rows] == [[1], [2]]
    assert [r["line"] for r in rows] == [4, 5]
    assert "line 1 above the header skipped as a title; header on line 3; hands: B (Player 1), C (Player 2)" in err
    code, out, _ = run(["solve", str(tmp_path / "t.csv"), "--format", "csv"])
    header = next(csv.reader(io.StringIO(out)))
    assert header[:4] == ["line", "Round", "Player 1", "Player 2"]


def test_a_first_data_row_with_a_typo_is_not_taken_for_a_header(tmp_path: Path) -> None:
    code, rows, _ = solve_json(write(tmp_path, "t.csv", f"1,8O KS QS JS TS,{LOW}\n2,{ROYAL},{LOW}\n"))
    assert [r["line"] for r in rows] == [1, 2]
    assert "unknown suit 'O'" in str(rows[0]["error"])


def test_the_layout_can_be_stated(tmp_path: Path) -> None:
    text = f"id,note,A,B\n1,{LOW},{ROYAL},{LOW}\n"
    path = write(tmp_path, "t.csv", text)
    _, rows, err = solve_json(path)
    assert "hands: B (note), C (A), D (B)" in err  # the note column looks like a hand
    _, rows, err = solve_json(path, "--hands", "C,D")
    assert rows[0]["winners"] == [1] and len(rows[0]["hands"]) == 2  # type: ignore[arg-type]
    assert "hands: C (A), D (B); labels: A (id), B (note)" in err
    _, same, _ = solve_json(path, "--hands", "A, b")  # header names before letters
    _, numbers, _ = solve_json(path, "--hands", "3,4")
    assert rows == same == numbers
    cards = "h,c1,c2,c3,c4,c5,d1,d2,d3,d4,d5\n1,AS,KS,QS,JS,TS,2C,3C,4C,5C,7D\n"
    _, rows, err = solve_json(write(tmp_path, "c.csv", cards), "--hands", "B-F,G-K")
    assert rows[0]["winners"] == [1] and "hands: B-F (a card each), G-K (a card each)" in err


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("Z9", "unknown hand column 'Z9'"),
        ("C,C", "column C is named twice"),
        ("F-B", "runs backwards"),
        (",", "no hand columns"),
    ],
)
def test_a_stated_layout_that_does_not_fit_is_one_line(tmp_path: Path, spec: str, words: str) -> None:
    code, out, err = run(["solve", str(write(tmp_path, "t.csv", f"a,b,c\n1,{ROYAL},{LOW}\n")), "--hands", spec])
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_hands_only_for_tables(tmp_path: Path) -> None:
    code, _, err = run(["solve", str(write(tmp_path, "t.txt", f"{ROYAL} | {LOW}\n")), "--hands", "B"])
    assert code == 2 and "only for a table" in err


def test_xlsx_follows_the_same_rules(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Showdowns of March"])
    sheet.append(["Round", "Player 1", "Player 2", "Player 3"])
    sheet.append([1, "KD, 9C, 10H, 4S, 2D", None, "QS, QD, 3C, 5H, 8D"])
    sheet.append([2, "KD, 9C, 10H, 4S, 2D", "AH, AS, 7C, 7H, 2C", "QS, QD, QC, 5H, 8O"])
    sheet.append([3, "KD, 9C, 10H, 4S, 2D", "AH, AS, 7C, 7H, 2C", "QS, QD, QC, 5H, 8D"])
    book.save(tmp_path / "b.xlsx")
    code, rows, err = solve_json(tmp_path / "b.xlsx")
    assert [r["line"] for r in rows] == [3, 4, 5]
    assert rows[0]["error"] == "hand 2: no cards (an empty hand) in ''"
    assert str(rows[1]["error"]).startswith("hand 3: unknown suit 'O'")
    assert rows[2]["winners"] == [3]
    assert "line 1 above the header skipped as a title; header on line 2" in err


def _table_file(tmp_path: Path, rows: Sequence[Sequence[object]], fmt: str) -> Path:
    """A table as CSV or as a workbook (numbers as numbers, "" an empty cell)."""
    path = tmp_path / f"table.{fmt}"
    if fmt == "csv":
        with path.open("w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows(rows)
        return path
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append([None if c == "" else c for c in row])
    book.save(path)
    return path


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_hand_column_empty_in_its_first_rows_is_never_ignored(tmp_path: Path, fmt: str) -> None:
    """A hand column empty in its first ~50 rows was a label: a royal flush
    in it later was ignored, exit 0. Under a header that names a hand it is
    a hand column from the start; under any other, the run stops where it
    first holds a hand, naming it, and nothing is written."""
    rows: list[list[object]] = [[n, LOW, "2D 3H 4S 6C 8S", ""] for n in range(1, 61)] + [[61, LOW, "2D 3H 4S 6C 8S", ROYAL]]
    for header in (["Round", "Alice", "Bob", "Carol"], None):
        path = _table_file(tmp_path, [header, *rows] if header else rows, fmt)
        target = tmp_path / "out.csv"
        code, out, err = run(["solve", str(path), "-o", str(target)])
        line = 62 if header else 61
        name = "D (Carol)" if header else "D"
        assert code == 2 and out == "" and not target.exists()
        assert f"fivecard: error: line {line}: column {name} holds '{ROYAL}', which looks like a hand, " in err
        why = "being empty in the table's first rows" if header or fmt == "csv" else "past the columns of the table's first rows"
        assert f"{why}; state which columns hold hands" in err
        assert "nothing was written" in err and err.endswith(" (use --hands B,C,D)\n") and err.count("error") == 1
        code, found, _ = solve_json(path, "--hands", "B,C,D")
        assert code == 1 and found[-1]["winners"] == [3] and found[0]["error"] == "hand 3: no cards (an empty hand) in ''"
    path = _table_file(tmp_path, [["Round", "Player 1", "Player 2", "Player 3"], *rows], fmt)
    code, found, err = solve_json(path)
    assert "hands: B (Player 1), C (Player 2), D (Player 3); labels: A (Round)" in err
    assert code == 1 and found[0]["error"] == "hand 3: no cards (an empty hand) in ''" and found[-1]["winners"] == [3]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("mark", list("-/._+:~"))
def test_a_hand_written_with_other_punctuation_is_an_error_row(tmp_path: Path, fmt: str, mark: str) -> None:
    """A "Player 3" column typed AH-KH-QH-JH-TH was a label: Player 3's royal
    flush was ignored, exit 0. Now it is a hand column, and each such cell
    an error row quoting it (the notation reads spaces and commas)."""
    typed = mark.join("AH KH QH JH TH".split())
    rows: list[list[object]] = [["Round", "Player 1", "Player 2", "Player 3"], [1, LOW, "2D 3H 4S 6C 8S", typed], [2, LOW, "9D 9H 4S 6C 8S", typed]]
    code, found, err = solve_json(_table_file(tmp_path, rows, fmt))
    assert "hands: B (Player 1), C (Player 2), D (Player 3)" in err
    assert code == 1 and len(found) == 2 and not any("winners" in r for r in found)
    assert found[0]["error"] == (
        f"hand 3: cards are separated by spaces or commas, not {mark!r}: card 2 ({mark + 'K'!r}) of {typed!r} of {typed!r}"
    )


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_column_of_single_cards_is_an_error_row_per_cell(tmp_path: Path, fmt: str) -> None:
    """Single cards under "Player 2" were dropped and the hands renumbered:
    "winner 2" was Player 3. Now the column is hand 2, each cell an error
    row quoting it; hand 3 stays hand 3."""
    rows: list[list[object]] = [["Round", "Player 1", "Player 2", "Player 3"], [1, LOW, "AS", "KD KC KH KS 3C"], [2, LOW, "AD", "KD KC KH KS 3C"], [3, LOW, "", "KD KC KH KS 3C"]]
    code, found, err = solve_json(_table_file(tmp_path, rows, fmt))
    assert "hands: B (Player 1), C (Player 2), D (Player 3); labels: A (Round)" in err
    assert code == 1 and [r.get("error") for r in found] == [
        "hand 2: expected 5 cards, got 1 in 'AS'",
        "hand 2: expected 5 cards, got 1 in 'AD'",
        "hand 2: no cards (an empty hand) in ''",
    ]
    no_header: list[list[object]] = [[*row[:2], "x", *row[2:]] for row in rows[1:]]  # and a column of marks: a label still
    code, found, err = solve_json(_table_file(tmp_path, no_header, fmt))
    assert "no header; hands: B, D, E; labels: A, C" in err and not any("winners" in r for r in found)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_hands_written_together_or_as_unicode_cards_are_hands(tmp_path: Path, fmt: str) -> None:
    """The notation's cards written together (AsKsQsJsTs) and Unicode cards
    (a token too long to be one card) made a label column too."""
    rows: list[list[object]] = [["Round", "A", "B", "C"], [1, LOW, "2D 3H 4S 6C 8S", "AsKsQsJsTs"], [2, LOW, "2D 3H 4S 6C 8S", "\U0001f0a1\U0001f0ae\U0001f0ad\U0001f0ab\U0001f0aa"]]
    code, found, err = solve_json(_table_file(tmp_path, rows, fmt))
    assert "hands: B (A), C (B), D (C); labels: A (Round)" in err
    assert code == 0 and [r["winners"] for r in found] == [[3], [3]]


def test_a_label_column_holding_a_hand_in_the_first_rows_stops_before_any_output(tmp_path: Path) -> None:
    rows: list[list[object]] = [["Round", "Player 1", "Player 2", "Notes"], *([n, ROYAL, LOW, "fine"] for n in range(1, 5)), [5, ROYAL, LOW, "2H 3H 4H 5H 6H"]]
    code, out, err = run(["solve", str(_table_file(tmp_path, rows, "csv")), "--json"])
    assert code == 2 and out == ""
    assert "line 6: column D (Notes) holds '2H 3H 4H 5H 6H', which looks like a hand, but was read as labels, as most of its cells" in err
    later: list[list[object]] = [*rows[:5], *([n, ROYAL, LOW, "fine"] for n in range(5, 60)), [60, LOW, ROYAL, "", "AS KS QS JS TS"]]
    code, out, err = run(["solve", str(_table_file(tmp_path, later, "csv")), "--json"])  # past the table's columns
    assert code == 2 and "line 61: column E holds 'AS KS QS JS TS', which looks like a hand, past the columns" in err


# --- 2. inputs read once; outputs atomic, never over the input -----------------------------


def test_an_output_that_is_the_input_is_refused_before_reading(tmp_path: Path) -> None:
    path = write(tmp_path, "same.txt", f"{ROYAL} | {LOW}\n")
    before = path.read_bytes()
    (tmp_path / "link.txt").symlink_to(path)
    os.link(path, tmp_path / "hard.txt")
    for output in (str(path), str(tmp_path / "." / "same.txt"), str(tmp_path / "link.txt"), str(tmp_path / "hard.txt")):
        code, out, err = run(["solve", str(path), "-o", output])
        assert code == 2 and "is the input" in err and err.count("\n") == 1
    assert path.read_bytes() == before
    with path.open("rb") as stdin:  # solve - -o same.txt < same.txt
        done = subprocess.run(
            [sys.executable, "-m", "fivecard", "solve", "-", "-o", str(path)], stdin=stdin, capture_output=True, check=False
        )
    assert done.returncode == 2 and b"is the input (standard input)" in done.stderr
    assert path.read_bytes() == before
    with path.open("ab") as stdout:  # solve same.txt >> same.txt would read its own output for ever
        done = subprocess.run(
            [sys.executable, "-m", "fivecard", "solve", str(path)], stdout=stdout, stderr=subprocess.PIPE, check=False, timeout=60
        )
    assert done.returncode == 2 and b"the output (standard output) is the input" in done.stderr
    assert path.read_bytes() == before


def _table(rows: int) -> str:
    return "".join(f"{ROYAL} | {LOW}\n" for _ in range(rows))


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "xlsx", "txt"])
@pytest.mark.slow
def test_strict_leaves_the_earlier_file(tmp_path: Path, fmt: str) -> None:
    source = write(tmp_path, "in.txt", _table(5000) + "1S KS QS JS TS | 2C 3C 4C 5C 7D\n")
    target = tmp_path / f"out.{fmt}"
    target.write_bytes(b"earlier result")
    code, _, err = run(["solve", str(source), "-o", str(target), "--strict"])
    assert code == 2
    assert err.startswith("fivecard: error: line 5001: hand 1: unknown rank '1'")
    assert f"nothing was written ('{target}' is unchanged)" in err
    assert target.read_bytes() == b"earlier result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", target.name]
    target.unlink()
    code, _, err = run(["solve", str(source), "-o", str(target), "--strict"])
    assert f"nothing was written ('{target}' was not created)" in err and not target.exists()


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "xlsx"])
def test_ctrl_c_or_a_full_disk_leave_the_earlier_file(tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = write(tmp_path, "in.txt", _table(1_000))  # 40-600 KiB out: past any write buffer
    target = tmp_path / f"out.{fmt}"
    target.write_bytes(b"earlier result")
    def interrupted(self: object, chunk: object) -> None:
        raise KeyboardInterrupt  # after the first chunk was written

    monkeypatch.setattr(writers.Tally, "add", interrupted)
    code, _, err = run(["solve", str(source), "-o", str(target), "--input-format", "text", "--format", fmt, "--strict"])
    assert code == 130 and "interrupted; nothing was written" in err
    assert target.read_bytes() == b"earlier result"
    monkeypatch.undo()

    class Full(io.FileIO):
        def write(self, data: object) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: io.BufferedRandom(Full(fd, "r+")))
    code, _, err = run(["solve", str(source), "-o", str(target), "--format", fmt])
    monkeypatch.undo()
    assert code == 2 and err.count("\n") == 1
    assert "No space left on device" in err and "nothing was written" in err
    assert target.read_bytes() == b"earlier result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", target.name]


def test_a_new_file_gets_ordinary_permissions(tmp_path: Path) -> None:
    source = write(tmp_path, "in.txt", _table(3))
    assert run(["solve", str(source), "-o", str(tmp_path / "out.csv")])[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "out.csv").stat().st_mode & 0o777 == 0o666 & ~umask
    (tmp_path / "kept.csv").write_text("x")
    (tmp_path / "kept.csv").chmod(0o640)
    assert run(["solve", str(source), "-o", str(tmp_path / "kept.csv")])[0] == 0
    assert (tmp_path / "kept.csv").stat().st_mode & 0o777 == 0o640


@pytest.mark.slow
def test_devices_and_full_disks_are_one_line() -> None:
    lines = _table(2000).encode()
    few = _table(300)  # 45 KiB of text, 17 KiB of xlsx: more than a write buffer
    for args in (["-o", "/dev/full"], ["--format", "xlsx", "-o", "/dev/full"]):
        code, _, err = run(["solve", "-", *args], stdin=few)
        assert code == 2 and err.count("\n") == 1, err
        assert "No space left on device" in err
    assert run(["solve", "-", "-o", "/dev/null"], stdin=few)[0] == 0
    # Standard output on a full disk: the process's own stream.
    with open("/dev/full", "wb") as full:
        for argv in (["solve", "-"], ["classify", ROYAL], ["solve", "-", "--json"]):
            done = subprocess.run([sys.executable, "-m", "fivecard", *argv], input=lines, stdout=full, stderr=subprocess.PIPE, check=False)
            assert done.returncode == 2, argv
            assert done.stderr == b"fivecard: error: cannot write standard output: No space left on device\n"


@pytest.mark.slow
def test_pipes_and_dev_stdin_lose_nothing(tmp_path: Path) -> None:
    text = "".join(f"{ROYAL} | {LOW}\n" if i % 7 else "# comment\n" for i in range(1600))
    expected = [i + 1 for i in range(1600) if i % 7]
    assert len(text) > 4096 * 10
    for argv in (["solve", "/dev/stdin", "--json"], ["solve", "-", "--json"]):
        done = proc(*argv, input=text.encode())
        assert [json.loads(x)["line"] for x in done.stdout.splitlines()] == expected
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with fifo.open("w") as handle:
            handle.write(text)

    writer = threading.Thread(target=feed)
    writer.start()
    done = proc("solve", str(fifo), "--json", timeout=60)
    writer.join()
    assert [json.loads(x)["line"] for x in done.stdout.splitlines()] == expected
    workbook = tmp_path / "w.xlsx"
    run(["solve", str(write(tmp_path, "x.txt", text)), "-o", str(workbook)])
    done = proc("solve", "-", "--json", input=workbook.read_bytes())  # a workbook through a pipe
    assert len(done.stdout.splitlines()) == len(expected)


def test_an_unclosed_quote_or_a_huge_cell_fails_its_row_only(tmp_path: Path) -> None:
    text = f'Round,P1,P2\n1,"{ROYAL},{LOW}\n2,{ROYAL},{LOW}\n3,"x{"y" * 200_000}",{ROYAL}\n4,{LOW},{ROYAL}\n'
    text += f'5,"{ROYAL}\n",{LOW}\n6,{ROYAL},{LOW}\n'  # a quoted cell may hold a line break
    target = tmp_path / "out.csv"
    target.write_text("earlier")
    code, _, err = run(["solve", str(write(tmp_path, "t.csv", text)), "-o", str(target)])
    assert code == 1
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert [r["line"] for r in rows] == ["2", "3", "4", "5", "6", "8"]
    assert rows[0]["error"].startswith("unclosed quote")
    assert rows[2]["error"] == "bad CSV: a cell holds more than 131,072 characters"
    assert [r["winner"] for r in rows] == ["", "1", "", "2", "1", "1"]


WIDE = "3 hands, and the output has columns for 2 (the most a row holds among the input's first 50 rows)"


def test_every_output_row_fits_the_header_a_wider_line_is_an_error_row(tmp_path: Path) -> None:
    """The header is written before later rows are read (sized by the
    widest of the first 50): a later line with more hands is an error row
    that says so, in every format, and the rows around it keep their
    places; no row writes a cell the header does not name."""
    import pyarrow.parquet as pq

    text = _table(60) + f"{ROYAL} | {LOW} | 2H 2D 5S 6S 7S\n" + _table(1)
    source = write(tmp_path, "t.txt", text)
    code, out, err = run(["solve", str(source), "--format", "csv"])
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 1 and len(rows) == 63 and "follow" not in err
    assert all(len(row) == len(rows[0]) for row in rows)
    named = dict(zip(rows[0], rows[61]))
    assert named["line"] == "61" and named["error"].startswith(WIDE) and named["winner"] == ""
    assert dict(zip(rows[0], rows[62]))["winner"] == "1"
    code, out, _ = run(["solve", str(source)])  # the text table
    lines = out.splitlines()
    header, body = lines[0], lines[1:-1]
    assert len(body) == 62 and "| hand" not in out
    winner = header.index("winner")
    for line in body:
        if "error:" in line:
            assert line.split(maxsplit=1)[1].startswith(f"error: {WIDE}")
        else:
            assert line[winner - 2 : winner] == "  " and line[winner].isdigit()
    target = tmp_path / "t.xlsx"
    assert run(["solve", str(source), "-o", str(target)])[0] == 1
    sheet = openpyxl.load_workbook(target).active
    assert sheet is not None
    values = list(sheet.iter_rows(values_only=True))
    assert all(len(row) == len(values[0]) for row in values) and str(values[61][-1]).startswith(WIDE)
    assert run(["solve", str(source), "-o", str(tmp_path / "t.parquet")])[0] == 1
    table = pq.read_table(tmp_path / "t.parquet").to_pylist()
    assert table[60]["error"].startswith(WIDE) and table[60]["more"] is None and table[61]["winner"] == "1"
    code, out, _ = run(["solve", str(source), "--json"])
    results = [json.loads(line) for line in out.splitlines()]
    assert results[60]["error"].startswith(WIDE) and "hands" not in results[60] and len(results) == 62


def test_workbooks_past_a_sheets_rows_go_on_in_more_sheets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writers.xlsx, "MAX_ROWS", 4)  # a header and three rows a sheet
    source = write(tmp_path, "t.txt", _table(8))
    code, _, err = run(["solve", str(source), "-o", str(tmp_path / "t.xlsx")])
    book = openpyxl.load_workbook(tmp_path / "t.xlsx")
    assert book.sheetnames == ["fivecard", "fivecard (2)", "fivecard (3)"]
    lines = [row[0] for sheet in book.worksheets for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert lines == list(range(1, 9))
    assert all(sheet["A1"].value == "line" for sheet in book.worksheets)
    assert "3 sheets" in err


def test_binary_output_is_never_written_to_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out, err = Terminal(), io.StringIO()
    code = main(["solve", "-", "--format", "xlsx"], stdin=io.StringIO(f"{ROYAL} | {LOW}\n"), stdout=out, stderr=err)
    assert code == 2 and "not written to a terminal" in err.getvalue() and out.getvalue() == ""


@pytest.mark.slow
def test_a_closed_pipe_is_141_for_every_format() -> None:
    """As `fivecard solve - --format F | head -c 100`: the reader takes 100
    bytes and closes the pipe. The pipe holds one page (4 KiB), so every
    format's output (84 KiB of xlsx, copied in 64 KiB pieces; more of the
    others, written as it goes) meets the closed end."""
    lines = _table(2000).encode()
    starts = {"text": b"  line", "jsonl": b'{"line": 1', "csv": b"line,", "xlsx": b"PK\x03\x04"}
    for fmt, start in starts.items():
        reader, writer = os.pipe()
        fcntl.fcntl(writer, fcntl.F_SETPIPE_SZ, 4096)
        child = subprocess.Popen(
            [sys.executable, "-m", "fivecard", "solve", "-", "--format", fmt],
            stdin=subprocess.PIPE, stdout=writer, stderr=subprocess.PIPE,
        )
        os.close(writer)
        assert child.stdin is not None and child.stderr is not None
        child.stdin.write(lines)  # 62 KiB: the input pipe holds it all
        child.stdin.close()
        with os.fdopen(reader, "rb") as head:
            first = head.read(100)
        assert len(first) == 100 and first.startswith(start), (fmt, first)
        err = child.stderr.read()
        child.stderr.close()
        assert child.wait(timeout=120) == 141, (fmt, err)
        assert err == b"", (fmt, err)


# --- 3. linear time, bounded memory, inert output --------------------------------------------


def test_splitting_is_linear_in_runs_of_spaces(monkeypatch: pytest.MonkeyPatch) -> None:
    import fivecard.files.rows as rows_module

    calls = 0
    real = rows_module._HAND_BREAKS

    class Counting:
        def finditer(self, text: str) -> object:
            nonlocal calls
            calls += 1
            return real.finditer(text)

        def split(self, text: str) -> list[str]:
            return real.split(text)

    for spaces in (800, 10_000, 2_000_000):
        line = f"{ROYAL}{' ' * spaces}{LOW}"
        assert split_line(line) == [ROYAL, LOW]  # ten cards: two hands
        assert split_line(f"{ROYAL}{' ' * spaces}|{' ' * spaces}{LOW}") == [ROYAL, LOW]
        assert split_line(f"{ROYAL}{' ' * spaces}vs{' ' * spaces}{LOW}") == [ROYAL, LOW]
    monkeypatch.setattr(rows_module, "_HAND_BREAKS", Counting())
    split_line(" " * 1_000_000)
    assert calls == 1


def test_many_separators_are_an_error_row_not_a_blow_up(tmp_path: Path) -> None:
    code, rows, _ = solve_json(write(tmp_path, "t.txt", "|" * 1_000_000 + "\n" + f"{ROYAL} | {LOW}\n"))
    assert rows[0] == {"line": 1, "error": "more than 1,000 hands in one line"}
    assert rows[1]["winners"] == [1]


def test_a_line_past_the_limit_is_an_error_row_and_reading_goes_on(tmp_path: Path) -> None:
    big = "AS " * 400_000  # 1.2 MB
    spaces = " " * 2_000_000
    text = f"{ROYAL} | {LOW}\n{big}\n{spaces}\n{LOW} | {ROYAL}\n"
    code, rows, _ = solve_json(write(tmp_path, "t.txt", text))
    assert [r["line"] for r in rows] == [1, 2, 4]  # line 3 is blank, however long
    assert rows[1]["error"] == "a line of 1,200,000 bytes; a line holds at most 1,048,576 bytes"
    assert rows[2]["winners"] == [2]
    code, out, _ = run(["solve", str(tmp_path / "t.txt"), "--format", "csv"])
    assert [r["line"] for r in csv.DictReader(io.StringIO(out))] == ["1", "2", "4"]  # CSV too


#: Starts of a cell that a spreadsheet may run as a formula: a formula
#: character, alone or after spaces, a tab or line ends (some programs trim
#: them, or read what follows a line end as a cell of its own), and a tab or
#: a line end before anything.
BLANKS = ["", " ", "   ", "\u00a0", "\u3000", "\t", " \t ", "\n", "\r\n", " \n", "\x85", "\u2028", "\u2029"]
UNSAFE_STARTS = [blank + char for char in "=+-@" for blank in BLANKS] + ["\t", "\n", "\x85", "\u2028", "\u2029"]


def test_output_cells_are_never_formulas(tmp_path: Path) -> None:
    unsafe = [start + "SUM(A1)" for start in UNSAFE_STARTS]
    labels = ["=cmd|' /C calc'!A0", *unsafe, "bell\x07here", "nul\x00", "Ann - Bob", "a\n=1"]
    shown = [label.replace("\r\n", "\n") for label in labels]  # as the CSV reader reads a line end
    text = "label,P1,P2\n" + "".join(f'"{label}",{ROYAL},{LOW}\n' for label in labels)
    source = write(tmp_path, "t.csv", text)
    code, out, _ = run(["solve", str(source), "--format", "csv"])
    cells = [row[1] for row in csv.reader(io.StringIO(out))][1:]
    assert cells == [
        "'=cmd|' /C calc'!A0", *("'" + label for label in shown[1 : 1 + len(unsafe)]), "bell␇here", "nul␀", "Ann - Bob", "a\n=1"
    ]
    assert run(["solve", str(source), "-o", str(tmp_path / "t.xlsx")])[0] == 0
    with zipfile.ZipFile(tmp_path / "t.xlsx") as archive:
        xml = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in xml and "<f " not in xml
    sheet = openpyxl.load_workbook(tmp_path / "t.xlsx").active
    assert sheet is not None
    assert [row[1] for row in sheet.iter_rows(min_row=2, values_only=True)] == [
        *shown[: 1 + len(unsafe)], "bell␇here", "nul␀", "Ann - Bob", "a\n=1"
    ]


@pytest.mark.parametrize("start", [*UNSAFE_STARTS, "\r", "\r=", "\t\r@"])
def test_every_unsafe_start_gets_a_quote(start: str) -> None:
    """The one function that makes a cell safe, for every writer (solve's CSV,
    mark's and grid's outputs): a text a spreadsheet could run is quoted, and
    the same text after a harmless first character is not."""
    assert writers.inert(start + "1+1") == "'" + start + "1+1"
    assert writers.inert("x" + start + "1+1") == "x" + start + "1+1"


def test_a_control_character_does_not_spoil_a_workbook(tmp_path: Path) -> None:
    source = write(tmp_path, "t.txt", f"{ROYAL} | {LOW}\nA\x07 KS QS JS TS | {LOW}\n")
    code, _, _ = run(["solve", str(source), "-o", str(tmp_path / "t.xlsx")])
    assert code == 1
    rows = list(openpyxl.load_workbook(tmp_path / "t.xlsx").worksheets[0].iter_rows(values_only=True))
    assert len(rows) == 3 and "U+0007" in str(rows[2][-1]) and "␇" in str(rows[2][1])


# --- workbooks nobody vouches for ----------------------------------------------------------


def _xlsx(tmp_path: Path, sheet_xml: str | bytes, strings: str | None = None, *, name: str = "w.xlsx") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
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
        archive.writestr("xl/worksheets/sheet1.xml", sheet_xml)
        if strings is not None:
            archive.writestr("xl/sharedStrings.xml", strings)
    return path


def _sheet(rows: str) -> str:
    return f'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{rows}</sheetData></worksheet>'


def _row(number: int, *cells: str) -> str:
    return f'<row r="{number}">' + "".join(
        f'<c r="{chr(65 + i)}{number}" t="inlineStr"><is><t>{c}</t></is></c>' for i, c in enumerate(cells)
    ) + "</row>"


def test_a_hand_written_workbook_reads(tmp_path: Path) -> None:
    path = _xlsx(tmp_path, _sheet(_row(1, "a", "b") + _row(3, ROYAL, LOW)))
    code, rows, _ = solve_json(path)
    assert code == 0 and [r["line"] for r in rows] == [3]


@pytest.mark.slow
def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path: Path) -> None:
    path = _xlsx(tmp_path, _sheet(_row(1, ROYAL, LOW)).replace("<sheetData>", "<sheetData>" + " " * 60_000_000))
    assert path.stat().st_size < 200_000
    code, out, err = run(["solve", str(path)])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "refused as a likely zip bomb" in err


@pytest.mark.parametrize(
    ("sheet", "strings", "words"),
    [
        (_sheet('<row r="1"><c r="A1" t="s"><v>7</v></c></row>'), "<sst><si><t>x</t></si></sst>", "no shared string '7'"),
        (_sheet('<row r="1"><c r="A1"><v>AS</v></c></row>'), None, "'AS' is not a number"),
        (_sheet('<row r="1"><c r="ZZZZ1"><v>1</v></c></row>'), None, "bad cell reference 'ZZZZ1'"),
        (_sheet('<row r="99999999"><c r="A1"><v>1</v></c></row>'), None, "bad row number '99999999'"),
        (_sheet("<row><c><v>1</v></c></row>").replace("</sheetData>", ""), None, "is damaged"),
        ('<!DOCTYPE x [<!ENTITY a "aaaa">]>' + _sheet("<row><c><v>1</v></c></row>"), None, "declares a document type"),
    ],
)
def test_a_broken_workbook_is_one_line(tmp_path: Path, sheet: str, strings: str | None, words: str) -> None:
    target = tmp_path / "out.csv"
    target.write_text("earlier")
    code, _, err = run(["solve", str(_xlsx(tmp_path, sheet, strings)), "-o", str(target)])
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert words in err
    assert target.read_text() == "earlier"


def test_a_workbook_without_sheets_or_not_a_workbook(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook><sheets/></workbook>")
    code, _, err = run(["solve", str(path)])
    assert code == 2 and "the workbook has no sheets" in err
    code, _, err = run(["solve", str(write(tmp_path, "fake.xlsx", "PK\x03\x04 no zip"))])
    assert code == 2 and "cannot read the workbook" in err


def test_cells_past_the_widest_table_fail_their_row(tmp_path: Path) -> None:
    far = '<row r="2"><c r="A2" t="inlineStr"><is><t>' + ROYAL + '</t></is></c><c r="XFD2"><v>1</v></c></row>'
    path = _xlsx(tmp_path, _sheet(_row(1, ROYAL, LOW) + far + _row(3, LOW, ROYAL)))
    code, rows, _ = solve_json(path)
    assert [r["line"] for r in rows] == [1, 2, 3]
    assert "cell XFD2 is past column 1,024" in str(rows[1]["error"])


def test_big_workbooks_stream(tmp_path: Path) -> None:
    """Rows far apart and a long sheet read in one pass, without padding."""
    rows = "".join(_row(n, ROYAL, LOW) for n in range(1, 20_000, 97)) + _row(1_048_576, LOW, ROYAL)
    code, found, _ = solve_json(_xlsx(tmp_path, _sheet(rows)))
    assert code == 0 and found[-1]["line"] == 1_048_576 and len(found) == len(range(1, 20_000, 97)) + 1


# --- 5. no traceback whatever the encodings -------------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "utf-8"])
@pytest.mark.slow
def test_any_stdout_encoding(encoding: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = proc("classify", "A♠ K♠ Q♠ J♠ 10♠", env=env)
    assert done.returncode == 0 and done.stderr == b""
    if encoding == "utf-8":
        assert "A♠".encode() in done.stdout
    else:
        assert b"As  Ks  Qs  Js  Ts" in done.stdout
    done = proc("classify", "--json", "A♠ K♠ Q♠ J♠ 10♠", env=env)
    assert json.loads(done.stdout)[0]["input"] == "A♠ K♠ Q♠ J♠ 10♠"
    done = proc("solve", "-", "--json", input="A♠ K♠ Q♠ J♠ 10♠ | 2C 3C 4C 5C 7D\n".encode(), env=env)
    assert json.loads(done.stdout.decode("utf-8"))["hands"][0]["input"] == "A♠ K♠ Q♠ J♠ 10♠"
    done = proc("classify", "AS KS QS JS 1♠", env=env)
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1 and b"Traceback" not in done.stderr


@pytest.mark.slow
def test_any_stdin_encoding() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = proc("classify", "-", input="A♠ K♠ Q♠ J♠ 10♠\n".encode(), env=env)
    assert done.returncode == 0 and b"Royal Flush" in done.stdout
    done = proc("classify", "-", input=b"A\xa7 KS QS JS TS\n")
    assert done.returncode == 2 and b"Traceback" not in done.stderr and done.stderr.count(b"\n") == 1


def test_every_reader_of_standard_input_is_bounded() -> None:
    code, out, err = run(["classify", "-"], stdin=f"{ROYAL}\n\n" + "A" * 2_000_000 + "\n")
    assert code == 2 and out == ""
    assert err == "fivecard: error: hand 2: a line of 2,000,000 bytes; a line holds at most 1,048,576 bytes\n"
    code, out, _ = run(["compare", "-"], stdin=f"{ROYAL}\r\n{LOW}\r")  # any line ends
    assert code == 0 and out.splitlines()[-1].startswith("Hand 1 wins")
    code, out, _ = run(["play", "--seed", "1"], stdin="x" * 100_000 + "\nq\n")
    assert code == 0
    assert "Sorry: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is not a card position or a command." in out
    assert out.rstrip().endswith("After 0 rounds: You 1,000, Computer 1 1,000, Computer 2 1,000.")


def _reading(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has an open file at ``path`` that it has
    begun to read (Linux's /proc)."""
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                with open(f"/proc/{pid}/fdinfo/{fd}") as info:
                    if int(info.readline().split()[1]) > 0:
                        return True
    except (OSError, ValueError, IndexError):  # it ended, or closed the file meanwhile
        pass
    return False


@pytest.mark.slow
def test_ctrl_c_at_random_moments_of_a_real_run(tmp_path: Path) -> None:
    """A whole process interrupted while it reads, solves or writes (a
    workbook's zip included): exit 130, one line, no traceback, and the
    earlier file untouched, with no temporary file left."""
    import random
    import signal
    import time

    source = write(tmp_path, "in.txt", _table(30_000))
    rng = random.Random(4)
    interrupted = 0
    for attempt, fmt in enumerate(["xlsx", "csv", "xlsx", "jsonl", "xlsx", "txt"]):
        target = tmp_path / f"out.{fmt}"
        target.write_bytes(b"earlier")
        child = subprocess.Popen(
            [sys.executable, "-m", "fivecard", "solve", str(source), "-o", str(target)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        # After start-up (slow on a busy machine): once the run has begun to
        # read its input, it is reading, solving or writing.
        started = time.monotonic()
        while child.poll() is None and time.monotonic() - started < 60 and not _reading(child.pid, source):
            time.sleep(0.002)
        time.sleep(rng.uniform(0.0, 0.3))
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=120)
        assert b"Traceback" not in err and b"Exception" not in err, err
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
        if child.returncode == 130:
            interrupted += 1
            assert err.endswith(f"nothing was written ('{target}' is unchanged)\n".encode()), err
            assert target.read_bytes() == b"earlier"
        else:
            assert child.returncode == 0 and target.read_bytes() != b"earlier", (attempt, err)
    assert interrupted >= 2


def test_an_output_through_a_link_writes_the_linked_file(tmp_path: Path) -> None:
    source = write(tmp_path, "in.txt", _table(2))
    real = tmp_path / "real.csv"
    real.write_text("earlier")
    (tmp_path / "link.csv").symlink_to(real)
    assert run(["solve", str(source), "-o", str(tmp_path / "link.csv")])[0] == 0
    assert (tmp_path / "link.csv").is_symlink() and real.read_text().startswith("line,input")


def test_a_ctrl_c_during_the_rename_is_raised_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rename that puts an output in place is done or not done: a Ctrl-C
    while it happens is raised after it, and the message says what is true."""
    import signal

    from fivecard.files.target import Target

    out = tmp_path / "o.csv"
    out.write_text("earlier")
    target = Target(str(out), None, binary=False)
    target.text.write("new")
    real_replace = os.replace

    def replace_then_ctrl_c(source: str, destination: str) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # arrives while the rename is held
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        target.commit()
    assert out.read_text() == "new"
    assert target.abort() == f"'{out}' was written in full before that"
    assert [p.name for p in tmp_path.iterdir()] == ["o.csv"]


# --- found in review --------------------------------------------------------------------------


@pytest.mark.parametrize("empty", ["", "fold", "n/a"])
def test_a_first_data_row_without_cards_is_a_row_not_the_header(tmp_path: Path, empty: str) -> None:
    text = f"Round,Player 1,Player 2\n1,{empty},{empty}\n2,{ROYAL},{LOW}\n"
    code, rows, err = solve_json(write(tmp_path, "t.csv", text))
    assert [r["line"] for r in rows] == [2, 3]
    assert "error" in rows[0] and rows[1]["winners"] == [1]
    assert "header on line 1; hands: B (Player 1), C (Player 2); labels: A (Round)" in err


def test_a_title_without_a_header_is_skipped_but_a_number_row_is_data(tmp_path: Path) -> None:
    _, rows, err = solve_json(write(tmp_path, "a.csv", f"Showdowns\n1,{ROYAL},{LOW}\n"))
    assert [r["line"] for r in rows] == [2] and "line 1 skipped as a title; no header" in err
    _, rows, _ = solve_json(write(tmp_path, "b.csv", f"1,,\n2,{ROYAL},{LOW}\n"))
    assert rows[0] == {"line": 1, "error": "no hands in this row"}


def test_a_semicolon_table_with_commas_in_its_hands(tmp_path: Path) -> None:
    text = "1;KD, 9C, 4H, 3S, 9D;AS, KS, QS, JS, TS\n2;2C, 3C, 4C, 5C, 7D;AH, KH, QH, JH, TH\n"
    code, rows, err = solve_json(write(tmp_path, "t.csv", text))
    assert code == 0 and [r["winners"] for r in rows] == [[2], [2]]
    assert "hands: B, C; labels: A" in err


@pytest.mark.parametrize("fmt", ["csv", "text"])
def test_cells_past_a_tables_columns_make_an_error_row_that_names_them(tmp_path: Path, fmt: str) -> None:
    """The output's columns are the table's (set by its first rows): a later
    row with a cell past them is an error row quoting it; every output row
    has the header's fields, and the rows after it keep their places."""
    rows = "".join(f"{i},{ROYAL},{LOW}\n" for i in range(1, 61))
    text = f"Round,P1,P2\n{rows}61,{LOW},{ROYAL},note: re-dealt,,\n62,{LOW},{ROYAL}\n"
    code, out, err = run(["solve", str(write(tmp_path, "t.csv", text)), "--format", fmt])
    message = (
        "a cell past the table's 3 columns (set by its first rows), where the output has no column: "
        "'note: re-dealt'; give the column a header"
    )
    assert code == 1 and "follow" not in err
    if fmt == "csv":
        lines = list(csv.reader(io.StringIO(out)))
        assert all(len(line) == len(lines[0]) for line in lines) and len(lines) == 63
        assert lines[-2][-1] == message and lines[-1][len(lines[0]) - 3] == "2"
    else:
        assert f"    61  Round 61  error: {message}" in out or f"error: {message}" in out.splitlines()[-3]


def test_a_workbook_part_in_an_unknown_encoding_is_one_line(tmp_path: Path) -> None:
    for encoding in ("x-foo", "shift_jis"):
        sheet = f'<?xml version="1.0" encoding="{encoding}"?>' + _sheet(_row(1, ROYAL, LOW))
        code, _, err = run(["solve", str(_xlsx(tmp_path, sheet, name=f"{encoding}.xlsx"))])
        assert code == 2 and err.count("\n") == 1 and "is damaged" in err


def test_a_workbook_row_of_too_many_characters_fails_its_row(tmp_path: Path) -> None:
    import random
    import string

    rng = random.Random(1)  # text that does not pack well, so no zip-bomb check refuses it first
    texts = ["".join(rng.choices(string.ascii_letters, k=100_000)) for _ in range(12)]
    big = "".join(f'<c r="{chr(66 + i)}2" t="inlineStr"><is><t>{t}</t></is></c>' for i, t in enumerate(texts))
    rows = _row(1, ROYAL, LOW) + f'<row r="2">{big}</row>' + _row(3, LOW, ROYAL)
    code, found, _ = solve_json(_xlsx(tmp_path, _sheet(rows)))
    assert [r["line"] for r in found] == [1, 2, 3]
    assert found[1] == {"line": 2, "error": "a row of more than 1,048,576 characters; a row holds at most that"}


def test_a_quote_inside_a_cell_is_a_plain_character(tmp_path: Path) -> None:
    text = f'label,P1,P2\nO"Brien,{ROYAL},{LOW}\n1,"{ROYAL},{LOW}\n2,{ROYAL},{LOW}\n'
    code, rows, _ = solve_json(write(tmp_path, "t.csv", text))
    assert [r["line"] for r in rows] == [2, 3, 4]
    assert rows[0]["winners"] == [1] and str(rows[1]["error"]).startswith("unclosed quote")


def test_text_lines_take_what_classify_takes() -> None:
    code, out, err = run(["solve", "-", "--json"], stdin="KD 9C, 4H KS 9D 2C 3C 4C 5C 7D\nJ ♦ 2C 3C 4C 5C\n")
    found = [json.loads(line) for line in out.splitlines()]
    assert found[0]["winners"] == [1]  # commas between cards: a text line, not CSV
    assert found[1]["hands"][0]["sorted"] == ["Jd", "5c", "4c", "3c", "2c"]  # a lone suit joins its rank


@pytest.mark.slow
def test_standard_streams_closed_or_full() -> None:
    done = subprocess.run(
        f"{sys.executable} -m fivecard classify '{ROYAL}' >&-", shell=True, capture_output=True, check=False
    )
    assert done.returncode == 2 and b"standard output is closed" in done.stderr and b"Traceback" not in done.stderr
    done = subprocess.run(
        f"{sys.executable} -m fivecard classify AS 2>/dev/full", shell=True, capture_output=True, check=False
    )
    assert done.returncode == 2
    done = subprocess.run(
        f"{sys.executable} -m fivecard solve - -o /dev/null 2>&-", shell=True, input=_table(3).encode(),
        capture_output=True, check=False,
    )
    assert done.returncode == 0


@pytest.mark.parametrize(("spec", "words"), [("B,ZZZZ", "unknown hand column 'ZZZZ'"), ("B,1025", "within the first 1,024 columns")])
def test_hand_columns_past_the_widest_table(tmp_path: Path, spec: str, words: str) -> None:
    code, out, err = run(["solve", str(write(tmp_path, "t.csv", f"a,b,c\n1,{ROYAL},{LOW}\n")), "--hands", spec])
    assert code == 2 and words in err and len(err) < 400


def test_the_semi_game_shows_ranks_only() -> None:
    code, out, _ = run(["play", "--rules", "semi", "--seed", "3", "--color", "never"], stdin="n\nq\n")
    drawn = next(line for line in out.splitlines() if line.startswith("You draw"))
    assert not any(symbol in drawn for symbol in "♠♥♦♣")


def test_writes_behind_keep_order_and_raise_where_the_caller_is() -> None:
    """The writing thread writes in order; a failed write is raised by the
    caller's next call, and nothing is written after it; giving up never
    waits."""
    from fivecard.files.target import WriteBehind

    out = io.BytesIO()
    behind = WriteBehind(out)
    for i in range(200):
        behind.write(b"%d," % i)
    behind.close()
    assert out.getvalue() == b"".join(b"%d," % i for i in range(200))

    class Full(io.BytesIO):
        def write(self, data: Any) -> int:
            if len(self.getvalue()) >= 6:
                raise OSError(28, "No space left on device")
            return super().write(data)

    full = Full()
    behind = WriteBehind(full)
    with pytest.raises(OSError, match="No space"):
        for _ in range(100):
            behind.write(b"abc")
        behind.flush()
    assert full.getvalue() == b"abcabc"
    behind.drop()
