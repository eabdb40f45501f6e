"""Reading inputs (fivecard.files.sources): text in UTF-8, or in UTF-16 or
UTF-32 by its byte order mark, from a file, a pipe or standard input alike;
a text in no encoding read (no byte order mark, NUL bytes all through)
refused in one line that says so; a byte that is not UTF-8 an error row
that says so; a table saved as text between tabs read as a table."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fivecard.cli import main

ROYAL = "AS KS QS JS TS"
LOW = "2C 3C 4C 5C 7D"
TEXT = f"A♠ K♠ Q♠ J♠ 10♠ | {LOW}\r\n# a comment\r\n\r\n2H 3H 4H 5H 7C vs AD KD QD JD TD\r\n{LOW} | {ROYAL}\r\n"
TABLE = f"Round,Player 1,Player 2\r\n1,A♠ K♠ Q♠ J♠ 10♠,{LOW}\r\n2,{LOW},{ROYAL}\r\n"
#: Byte order mark and codec of each encoding read besides UTF-8.
ENCODINGS = {
    "UTF-16 LE": (b"\xff\xfe", "utf-16-le"),
    "UTF-16 BE": (b"\xfe\xff", "utf-16-be"),
    "UTF-32 LE": (b"\xff\xfe\x00\x00", "utf-32-le"),
    "UTF-32 BE": (b"\x00\x00\xfe\xff", "utf-32-be"),
}


def encoded(text: str, encoding: str) -> bytes:
    mark, codec = ENCODINGS[encoding]
    return mark + text.encode(codec)


def solve(argv: list[str], data: bytes = b"") -> tuple[int, str, str]:
    """``fivecard solve`` with these bytes on standard input (as a console gives them)."""
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    code = main(["solve", *argv], stdin=stdin, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def piped(argv: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "fivecard", *argv], input=data, capture_output=True, check=False, timeout=120
    )


def answers(out: str) -> list[tuple[int, list[int] | None, str | None]]:
    """Each JSON row's line and winners, or its error."""
    rows = [json.loads(line) for line in out.splitlines()]
    return [(r["line"], r.get("winners"), r.get("error")) for r in rows]


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize(("name", "content"), [("hands.txt", TEXT), ("hands.csv", TABLE)])
@pytest.mark.slow
def test_utf16_and_utf32_with_a_byte_order_mark_read_as_their_text(
    tmp_path: Path, encoding: str, name: str, content: str
) -> None:
    plain = tmp_path / f"plain-{name}"
    plain.write_bytes(content.encode("utf-8"))
    code, expected, _ = solve([str(plain), "--json"])
    assert code == 0 and len(answers(expected)) == (3 if name.endswith(".txt") else 2)
    path = tmp_path / name
    path.write_bytes(encoded(content, encoding))
    code, out, err = solve([str(path), "--json"])
    assert code == 0 and answers(out) == answers(expected)
    code, out, err = solve(["-", "--json"], path.read_bytes())  # standard input
    assert code == 0 and answers(out) == answers(expected)
    done = piped(["solve", "-", "--json"], path.read_bytes())  # a pipe
    assert done.returncode == 0 and answers(done.stdout.decode()) == answers(expected)
    if name.endswith(".csv"):
        assert f"read as CSV in {encoding.split()[0]}; header on line 1" in err


def test_excels_unicode_text_is_read_as_its_table(tmp_path: Path) -> None:
    """Excel's "Unicode Text" (UTF-16 LE with its mark, cells between tabs,
    CRLF): 7 error rows for 3 lines, with no word about the encoding, when
    it was read as UTF-8. Now: a header and two showdowns."""
    sheet = f"Round\tPlayer 1\tPlayer 2\r\n1\t{ROYAL}\t{LOW}\r\n2\t{LOW}\t{ROYAL}\r\n"
    path = tmp_path / "showdowns.txt"
    path.write_bytes(b"\xff\xfe" + sheet.encode("utf-16-le"))
    code, out, err = solve([str(path), "--json"])
    assert code == 0 and answers(out) == [(2, [1], None), (3, [2], None)]
    assert "read as CSV in UTF-16; header on line 1; hands: B (Player 1), C (Player 2); labels: A (Round)" in err


def test_a_table_between_tabs_is_a_table_and_hands_between_tabs_are_text(tmp_path: Path) -> None:
    table = tmp_path / "table.txt"
    table.write_text(f"Showdowns\t\t\n1\t{ROYAL}\t{LOW}\n2\t{LOW}\t{ROYAL}\n", encoding="utf-8")
    code, out, err = solve([str(table), "--json"])
    assert code == 0 and answers(out) == [(2, [1], None), (3, [2], None)]
    assert "read as CSV; line 1 skipped as a title; no header" in err
    hands = tmp_path / "hands.txt"
    hands.write_text(f"{ROYAL}\t{LOW}\n{LOW}\t{ROYAL}\n", encoding="utf-8")
    code, out, err = solve([str(hands), "--json"])
    assert code == 0 and answers(out) == [(1, [1], None), (2, [2], None)] and "read as" not in err


def test_a_text_file_read_as_a_table_between_tabs_keeps_its_comment_lines(tmp_path: Path) -> None:
    """Read as a table, a text file's comment lines (``#`` first, after any
    spaces or tabs) are still comments, as they were as text: no row; a
    file named .csv, or read with --input-format csv, is CSV, where a lone
    ``#`` in a hand's cell is that row's error."""
    text = f"Round\tPlayer 1\tPlayer 2\n1\t{ROYAL}\t{LOW}\n\t# a note between the rounds\n2\t{LOW}\t{ROYAL}\n"
    path = tmp_path / "table.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = solve([str(path), "--json"])
    assert code == 0 and answers(out) == [(2, [1], None), (4, [2], None)]
    named = tmp_path / "table.csv"
    named.write_text(text, encoding="utf-8")
    code, out, _ = solve([str(named), "--json"])
    assert code == 1 and [line for line, _, error in answers(out) if error] == [3]


def test_a_line_of_punctuation_between_tabs_is_no_evidence_of_a_table(tmp_path: Path) -> None:
    """Only a label or a number with a letter or a digit in it makes text a
    table: punctuation, or a byte that is not UTF-8, says nothing."""
    path = tmp_path / "odd.txt"
    path.write_bytes(b"\x80\t# \n\t# \n")
    code, out, err = solve([str(path), "--json"])
    assert code == 1 and "read as" not in err
    assert [line for line, _, error in answers(out) if error] == [1]


@pytest.mark.parametrize(
    ("codec", "words"),
    [
        ("utf-16-le", "looks like UTF-16 (little-endian) without a byte order mark (NUL bytes every other byte)"),
        ("utf-16-be", "looks like UTF-16 (big-endian) without a byte order mark"),
        ("utf-32-le", "looks like UTF-32 (little-endian) without a byte order mark (NUL bytes three bytes in four)"),
        ("utf-32-be", "looks like UTF-32 (big-endian) without a byte order mark"),
    ],
)
@pytest.mark.slow
def test_utf16_or_utf32_without_a_byte_order_mark_is_refused_in_one_line(
    tmp_path: Path, codec: str, words: str
) -> None:
    data = TEXT.encode(codec)
    for name in ("hands.txt", "hands.csv", "hands"):
        path = tmp_path / name
        path.write_bytes(data)
        code, out, err = solve([str(path)])
        assert code == 2 and out == "" and err.count("\n") == 1
        assert f"'{path}' is not UTF-8 text: it {words}" in err and "save it as UTF-8" in err
    code, out, err = solve(["-"], data)
    assert code == 2 and "'standard input' is not UTF-8 text" in err and err.count("\n") == 1
    done = piped(["classify", "-"], data)
    assert done.returncode == 2 and b"is not UTF-8 text: it looks like UTF-" in done.stderr
    assert done.stderr.count(b"\n") == 1


def test_a_byte_that_is_not_utf8_is_an_error_row_that_says_so(tmp_path: Path) -> None:
    """Latin-1 (Windows-1252): each row with such a byte fails, saying why;
    the others are solved; a header or a comment in it is a header or a
    comment still."""
    latin = tmp_path / "latin.csv"
    latin.write_bytes(f"Round,M\xfcller,Bob\n1,{ROYAL},{LOW}\n# caf\xe9\n2,Caf\xe9,{LOW}\n3,{LOW},{ROYAL}\n".encode("latin-1"))
    code, out, err = solve([str(latin), "--json"])
    message = "not UTF-8 text: byte 0xe9 at byte 6 of the line; save the file as UTF-8 (or as UTF-16 with its byte order mark)"
    assert code == 1 and answers(out) == [(2, [1], None), (4, None, message), (5, [2], None)]
    assert "header on line 1; hands: B (M\ufffdller), C (Bob)" in err
    text = tmp_path / "latin.txt"
    text.write_bytes(f"{ROYAL} | {LOW}\n# caf\xe9\nA\xa7 KS QS JS TS | {LOW}\n".encode("latin-1"))
    code, out, _ = solve([str(text), "--json"])
    assert code == 1 and answers(out) == [(1, [1], None), (3, None, message.replace("0xe9", "0xa7").replace("byte 6", "byte 2"))]
    done = piped(["compare", "-"], f"{ROYAL}\nA\xa7 KS QS JS TS\n".encode("latin-1"))
    assert done.returncode == 2 and b"hand 2: not UTF-8 text: byte 0xa7 at byte 2" in done.stderr


def test_an_xls_workbook_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "old.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4000))
    code, out, err = solve([str(path)])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "is not text but an Excel 97-2003 workbook (.xls) or another binary file; save it as .xlsx or CSV" in err


def test_classify_and_compare_read_utf16_from_standard_input() -> None:
    data = encoded(f"{ROYAL}\r\n{LOW}\r\n", "UTF-16 LE")
    done = piped(["classify", "-", "--json"], data)
    assert done.returncode == 0 and [h["category"] for h in json.loads(done.stdout)] == ["royal_flush", "high_card"]
    done = piped(["compare", "-", "--json"], data)
    assert done.returncode == 0 and json.loads(done.stdout)["winners"] == [1]


def test_a_recoded_text_is_solved_in_one_process(tmp_path: Path) -> None:
    """Parts for other processes are cut at byte offsets of the file: a text
    recoded from UTF-16 is read in one process, and gives what its UTF-8
    twin gives in several."""
    lines = "".join(f"{ROYAL} | {LOW}\n{LOW} | 2H 3H 4H 5H 7C\n" for _ in range(2_000))
    plain, wide = tmp_path / "plain.txt", tmp_path / "wide.txt"
    plain.write_bytes(lines.encode())
    wide.write_bytes(encoded(lines, "UTF-16 LE"))
    for path in (plain, wide):
        assert solve([str(path), "--workers", "2", "-o", str(path.with_suffix(".csv"))])[0] == 0
    assert plain.with_suffix(".csv").read_bytes() == wide.with_suffix(".csv").read_bytes()


def test_hand_arguments_read_standard_input_a_hand_a_line_where_a_dash_stands() -> None:
    from fivecard.core.errors import FileError
    from fivecard.files.sources import MAX_LINE, hand_texts

    stdin = io.StringIO("AS KS QS JS TS\n\n  \n2C 3D 4H 5S 7C\r\n")
    assert hand_texts(["AH AD AC AS 2D", "-"], stdin) == ["AH AD AC AS 2D", "AS KS QS JS TS", "2C 3D 4H 5S 7C"]
    assert hand_texts(["-", "-"], io.StringIO("AS KS QS JS TS\n")) == ["AS KS QS JS TS"]  # read to its end once
    with pytest.raises(FileError, match="^hand 2: "):
        hand_texts(["-"], io.StringIO("AS KS QS JS TS\n" + "x" * (MAX_LINE + 1) + "\n"))
    with pytest.raises(FileError, match="no standard input"):
        hand_texts(["-"], None)
