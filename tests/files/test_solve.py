"""fivecard solve: every input and output format; nothing lost, nothing shifted."""

from __future__ import annotations

import csv
import io
import json
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from fivecard.cli import main
from fivecard.core.errors import FileError
from fivecard.files.sources import open_source, read_blocks
from fivecard.files.rows import TableLayout, cell_shape, split_line
from fivecard.files.solve import LINE_FORMATS, Row, solve_file, solve_lines, solve_row

# Lines 1-12: data rows on lines 2, 3, 5, 6, 8, 9, 10, 12; lines 6, 9 and 12 are bad.
MIXED = (
    "# ModelOff 2012 and Project Euler 54\n"
    "8C TS KC 9H 4S 7D 2S 5D 3S AC\n"
    "A♦ K♦ Q♦ J♦ 10♦ | Q♣ 10♣ 7♣ 6♣ 4♣\n"
    "\n"
    "10♦ 10♥ 4♥ 4♣ 3♠ ; 10♠ 10♣ 4♠ 4♦ 3♥\n"
    "1S KD 3C 4H 5D | 2C 3C 4C 5C 7D\n"
    "   \n"
    "KD, 9C, 4H, KS, 9D\n"
    "AS KS QS JS | 2C 3C 4C 5C 7D\n"
    "Q♠ Q♥ Q♦ 7♠ 4♣ vs J♠ J♣ J♦ A♦ K♣\n"
    "# a comment\n"
    "AS KS QS JS TS AS 2D 3D 4D 5D\n"
)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DATA_LINES = [2, 3, 5, 6, 8, 9, 10, 12]
BAD_LINES = [6, 9, 12]


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, text: str, newline: str = "\n", bom: bool = False) -> str:
    path = tmp_path / name
    data = text.replace("\n", newline)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data.encode("utf-8"))
    return str(path)


# --- splitting -----------------------------------------------------------------------


def test_split_line_forms() -> None:
    assert split_line("8C TS KC 9H 4S 7D 2S 5D 3S AC") == ["8C TS KC 9H 4S", "7D 2S 5D 3S AC"]
    assert split_line("AS KS QS JS TS\t2C 3C 4C 5C 7D") == ["AS KS QS JS TS", "2C 3C 4C 5C 7D"]
    assert split_line("A K Q J 9 VS 2 3 4 5 7") == ["A K Q J 9", "2 3 4 5 7"]
    assert split_line("AS KS QS JS TS") == ["AS KS QS JS TS"]
    assert len(split_line("AS KS QS JS TS 2C 3C 4C 5C 7D 8H 9H TH JH KH")) == 3


def test_table_layout_card_columns_keep_their_places() -> None:
    layout = TableLayout.detect(
        [["id", "c1", "c2", "c3", "c4", "c5", "d1", "d2", "d3", "d4", "d5"],
         ["1", "AS", "KS", "QS", "JS", "TS", "2C", "3C", "4C", "5C", "7D"]]
    )
    assert layout.header == 0 and layout.kinds[0] == "other"
    # A missing card leaves its hand short; it never borrows from the next hand.
    assert layout.hands(["2", "AS", "", "QS", "JS", "TS", "2C", "3C", "4C", "5C", "7D"]) == (
        "AS QS JS TS", "2C 3C 4C 5C 7D"
    )


# --- text input, every output format ----------------------------------------------


def rows_of(fmt: str, out_path: Path | None, stdout: str) -> list[dict[str, str]]:
    """The output rows as dicts with at least 'line' and 'error'."""
    if fmt == "jsonl":
        return [
            {"line": str(d["line"]), "error": d.get("error") or ""}
            for d in map(json.loads, stdout.splitlines())
        ]
    if fmt == "csv":
        return list(csv.DictReader(io.StringIO(stdout)))
    if fmt == "xlsx":
        assert out_path is not None
        book = openpyxl.load_workbook(out_path)
        sheet = book.active
        assert sheet is not None
        values = [[("" if v is None else str(v)) for v in row] for row in sheet.iter_rows(values_only=True)]
        header = [h.removeprefix("Step 3: ") for h in values[0]]
        return [dict(zip(header, row)) for row in values[1:]]
    body = stdout.splitlines()[1:-1]  # header line, rows, summary line
    return [
        {"line": line.split()[0], "error": "x" if line.split()[1] == "error:" else ""}
        for line in body
    ]


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv", "xlsx"])
def test_output_rows_equal_input_rows_with_bad_rows_mixed_in(tmp_path: Path, fmt: str) -> None:
    source = write(tmp_path, "mixed.txt", MIXED, newline="\r\n", bom=True)
    out_path = tmp_path / "result.xlsx" if fmt == "xlsx" else None
    argv = ["solve", source, "--format", fmt] + (["-o", str(out_path)] if out_path else [])
    code, out, err = run(argv)
    assert code == 1  # some rows were errors
    rows = rows_of(fmt, out_path, out)
    assert [int(r["line"]) for r in rows] == DATA_LINES
    assert [int(r["line"]) for r in rows if r["error"]] == BAD_LINES
    summary = out.splitlines()[-1] if fmt == "text" else err.strip()
    if out_path is not None:  # a file: "wrote FILE: " and the summary
        assert summary.startswith(f"wrote {out_path}: ")
        summary = summary.removeprefix(f"wrote {out_path}: ")
    assert summary == "8 rows: 5 solved, 3 errors, 1 classified only (one hand); hand 1 wins 2, hand 2 wins 1, draws 1"


def test_jsonl_objects(tmp_path: Path) -> None:
    code, out, _ = run(["solve", write(tmp_path, "m.txt", MIXED), "--json"])
    objects = [json.loads(line) for line in out.splitlines()]
    first = objects[0]
    assert first["line"] == 2 and first["winners"] == [2] and first["order"] == [[2], [1]]
    assert first["hands"][0]["input"] == "8C TS KC 9H 4S"
    assert first["hands"][0]["category"] == "high_card"
    assert first["explanation"] == "Hand 2 wins: both High Card; the first card decides, A beats K"
    assert objects[3] == {
        "line": 6,
        "error": "hand 1: unknown rank '1' in card 1 ('1S') of '1S KD 3C 4H 5D'",
    }
    single = objects[4]
    assert single["line"] == 8 and single["winners"] is None and len(single["hands"]) == 1
    assert objects[5]["error"].startswith("hand 1: expected 5 cards, got 4")
    assert objects[7]["error"].startswith("card A♠ is in hands 1 and 2")


def test_strict_stops_at_the_first_bad_row(tmp_path: Path) -> None:
    code, out, err = run(["solve", write(tmp_path, "m.txt", MIXED), "--strict", "--json"])
    assert code == 2
    assert err.startswith("fivecard: error: line 6: hand 1: unknown rank '1'")
    assert len(out.splitlines()) == 3  # the rows before it were written


def test_all_good_rows_exit_0_and_decks(tmp_path: Path) -> None:
    path = write(tmp_path, "g.txt", "AS KS QS JS TS AS 2D 3D 4D 5D\n")
    assert run(["solve", path])[0] == 1
    code, out, _ = run(["solve", path, "--decks", "2", "--json"])
    assert code == 0 and json.loads(out)["winners"] == [1]


def test_stdin_text_and_rules(tmp_path: Path) -> None:
    code, out, err = run(["solve", "-", "--rules", "semi", "--json"], stdin="Q, Q, Q, Q, 9 vs Q, Q, Q, Q, 5\n")
    assert code == 0 and json.loads(out)["winners"] == [1]
    assert "\r" not in err  # no progress bar on pipes


def test_undecodable_bytes_fail_only_their_row(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"AS KS QS JS TS | 2C 3C 4C 5C 7D\nA\xa7 KS QS JS TS | 2C 3C 4C 5C 7D\n2H 3H 4H 5H 7C | AD KD QD JD TD\n")
    code, out, _ = run(["solve", str(path), "--json"])
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and [x["line"] for x in lines] == [1, 2, 3]
    assert "error" in lines[1] and "winners" in lines[2]


def test_numbers_in_other_digits_are_errors_not_tracebacks(tmp_path: Path) -> None:
    """Found by fuzzing: '¹' passes str.isdigit() but not int(), so --hands ¹,
    and a sheet whose row number, style or shared-string index was '¹',
    raised ValueError (a traceback from solve)."""
    code, out, err = run(["solve", "-", "--hands", "¹", "--json"], stdin="a,b\n1,AS KS QS JS TS\n")
    assert code == 2 and out == "" and err.count("\n") == 1 and "unknown hand column '¹'" in err

    def solve_sheet(row: str) -> tuple[int, str, str]:
        path = tmp_path / "odd.xlsx"
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("xl/workbook.xml", '<workbook><sheets><sheet name="S" r:id="r1"/></sheets></workbook>')
            archive.writestr("xl/worksheets/sheet1.xml", f"<worksheet><sheetData>{row}</sheetData></worksheet>")
        return run(["solve", str(path), "--json"])

    hand = '<c r="B1" t="str"><v>AS KS QS JS TS</v></c>'
    code, out, _ = solve_sheet(f'<row r="¹"><c r="A1"><v>7</v></c>{hand}</row>')  # no row number: the next
    assert code == 0 and json.loads(out)["line"] == 1
    code, out, _ = solve_sheet(f'<row r="1"><c r="A1" s="¹"><v>7</v></c>{hand}</row>')  # no style
    assert code == 0 and json.loads(out)["line"] == 1
    code, out, err = solve_sheet(f'<row r="1"><c r="A1" t="s"><v>¹</v></c>{hand}</row>')
    assert code == 2 and out == "" and "no shared string '¹'" in err and err.count("\n") == 1


def test_a_workbook_part_whose_zip_header_is_damaged_is_a_file_error(tmp_path: Path) -> None:
    """Found by fuzzing: a part whose local zip header does not match the
    zip's directory raised zipfile.BadZipFile when a sheet was read (the
    shared strings and the sheet are opened then, not when the workbook is
    opened): a traceback from solve."""
    sheet = '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>'
    for part in ("xl/sharedStrings.xml", "xl/worksheets/sheet1.xml"):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("xl/workbook.xml", '<workbook><sheets><sheet name="S" r:id="r1"/></sheets></workbook>')
            archive.writestr("xl/sharedStrings.xml", "<sst><si><t>AS KS QS JS TS</t></si></sst>")
            archive.writestr("xl/worksheets/sheet1.xml", sheet)
        path = tmp_path / "damaged.xlsx"  # the first copy of the name is the part's own header
        path.write_bytes(out.getvalue().replace(part.encode(), part.encode()[:-1] + b"X", 1))
        code, stdout, err = run(["solve", str(path), "--json"])
        assert code == 2 and stdout == "" and err.count("\n") == 1
        assert f"the workbook's part {part} is damaged: File name in directory" in err


def test_a_zip_of_a_version_zipfile_cannot_read_is_a_file_error(tmp_path: Path) -> None:
    """Found by fuzzing: a zip whose directory asks for a newer zip version
    made zipfile raise NotImplementedError, which open_workbook let out: a
    traceback from solve."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("xl/workbook.xml", '<workbook><sheets><sheet name="S" r:id="r1"/></sheets></workbook>')
    data = bytearray(out.getvalue())
    data[data.index(b"PK\x01\x02") + 6] = 84  # the version needed to extract: 8.4
    path = tmp_path / "v84.xlsx"
    path.write_bytes(bytes(data))
    code, stdout, err = run(["solve", str(path), "--json"])
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert "cannot read the workbook: not an .xlsx file (zip file version 8.4)" in err


def test_the_layout_note_is_one_line_of_plain_text() -> None:
    """Found by fuzzing: header cells went into the note on stderr as they
    were, so a quoted header with a line break split the note's line, and
    control characters (a terminal's escape sequences) reached the terminal."""
    layout = TableLayout.detect([["a"], ["AS KS QS JS TS", "note"]])
    assert layout.describe(["Player\n1", "Round\x1b[31m\t2"]) == "hands: A (Player 1); labels: B (Round [31m 2)"
    code, _, err = run(["solve", "-", "--json", "--input-format", "csv"], stdin='"Round\n(of March)",Player\x1b[2J 1\n1,AS KS QS JS TS\n')
    assert code == 0 and err.count("\n") == 2 and "\x1b" not in err
    assert "hands: B (Player [2J 1); labels: A (Round (of March))" in err


def test_a_cell_of_a_lone_emoji_variation_selector_is_other_text() -> None:
    """Found by fuzzing: a token of U+FE0F alone (the emoji form's second
    character) made cell_shape raise IndexError, and solve print a traceback."""
    assert cell_shape("\ufe0f") == "other"
    assert cell_shape("AS \ufe0f") == "other"  # one card-like token of two
    assert cell_shape("A♠\ufe0f K♠ Q♠ J♠ 10♠") == "hand"
    code, out, err = run(["solve", "-", "--json"], stdin="a,b\n1,AS KS QS JS TS\n2,\ufe0f\n")
    assert code == 1 and "Traceback" not in err
    assert [json.loads(line)["line"] for line in out.splitlines()] == [2, 3]


def test_a_long_line_ended_by_a_lone_cr_at_a_read_boundary_keeps_the_next_line() -> None:
    """Found by fuzzing: a line over the limit whose \\r line end was the
    last byte of a read swallowed the next line, or lost its own error row."""
    blocks = [(b.first, b.data, b.long) for b in read_blocks(io.BytesIO(b"x" * 15 + b"\rAS\n"), limit=10, size=8)]
    assert [(first, data) for first, data, _ in blocks] == [(1, b"\n"), (2, b"AS\n")]
    assert blocks[0][2][0][0] == 15
    blocks = [(b.first, b.data, b.long) for b in read_blocks(io.BytesIO(b"x" * 23 + b"\rAS\rB\r"), limit=10, size=8)]
    assert [(first, data) for first, data, _ in blocks] == [(1, b"\n"), (2, b"AS\nB\n")]
    assert blocks[0][2][0][0] == 23
    # The same with the real limits: 4,096 bytes of sniffing, then reads of 512 KiB.
    text = b"x" * (4096 + 3 * (1 << 19) - 1) + b"\rAS KS QS JS TS\r2c 3c 4c 5c 7d\r"
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(text))
    code = main(["solve", "-", "--json"], stdin=stdin, stdout=out, stderr=err)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 3] and code == 1
    assert "a line of 1,576,959 bytes" in rows[0]["error"]


# --- CSV -----------------------------------------------------------------------------


def test_csv_one_column_per_hand_with_header(tmp_path: Path) -> None:
    text = 'Round,Player 1,Player 2\n1,8C TS KC 9H 4S,7D 2S 5D 3S AC\n2,"KD, 9C, 4H, KS, 9D",1S 2C 3C 4C 5C\n\n3,AS KS QS JS TS,\n'
    code, out, err = run(["solve", write(tmp_path, "hands.csv", text, newline="\r\n"), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 1
    assert [r["line"] for r in rows] == ["2", "3", "5"]
    assert rows[0]["Round"] == "1" and rows[0]["winner"] == "2"
    assert rows[0]["hand 1 sorted"] == "KC TS 9H 8C 4S"  # spelled as written and rows[0]["hand 2 category"] == "High Card"
    assert rows[1]["error"].startswith("hand 2: unknown rank '1'")
    assert rows[2]["error"] == "hand 2: no cards (an empty hand) in ''"  # an empty hand cell is an error of its hand


def test_ranks_and_commas_in_fourteen_characters_stay_in_their_cell(tmp_path: Path) -> None:
    # "4, 6, 6, J, 10" is 14 characters with spaces where five two-character
    # cards have them: its sorted cards were once "J, 10 6, 6, 4," (a comma
    # too many, shifting the CSV row's columns).
    source = write(tmp_path, "semi.txt", "4, 6, 6, J, 10 | A Q 9 3 2\n")
    code, out, _ = run(["solve", "--rules", "semi", source, "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and rows[0]["hand 1 sorted"] == "J 10 6 6 4" and rows[0]["hand 1 category"] == "One Pair"
    assert rows[0]["explanation"] == "Hand 1 wins: One Pair beats High Card"


def test_csv_five_columns_per_hand(tmp_path: Path) -> None:
    header = ",".join([f"p1c{i}" for i in range(1, 6)] + [f"p2c{i}" for i in range(1, 6)])
    text = header + "\nKD,9C,4H,KS,9D,2C,3C,4C,5C,7D\n10♦,10♥,4♥,4♣,3♠,10♠,10♣,4♠,4♦,3♥\n"
    code, out, _ = run(["solve", write(tmp_path, "cards.csv", text, bom=True), "--json"])
    objects = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert objects[0]["winners"] == [1] and objects[1]["winners"] == [1, 2]


def test_csv_from_stdin_is_detected_by_content() -> None:
    code, out, _ = run(["solve", "-", "--json"], stdin="a,b\nAS KS QS JS TS,2c 3c 4c 5c 7d\n")
    assert code == 0 and json.loads(out)["line"] == 2


# --- lines as they come ------------------------------------------------------------------

#: Inputs read from standard input: text (with bad rows, comments and blank
#: lines), a table between commas (read as CSV by its content), nothing.
STDIN_INPUTS = {"text": MIXED, "csv": "a,b\nAS KS QS JS TS,2c 3c 4c 5c 7d\nKD 9C 4H KS 9D,1S KD 3C 4H 5D\n", "nothing": ""}


@pytest.mark.parametrize("cut", ["whole", "lines", "bytes"])
@pytest.mark.parametrize("fmt", LINE_FORMATS)
@pytest.mark.parametrize("name", STDIN_INPUTS)
def test_solve_lines_gives_what_solve_file_writes_of_the_same_standard_input(name: str, fmt: str, cut: str) -> None:
    """The output of lines given as they come is what ``solve_file`` writes
    of the same text on standard input, byte for byte, however the text is
    cut into pieces (whole, a line a piece, a byte a piece)."""
    text = STDIN_INPUTS[name]
    data = text.encode()
    pieces = {
        "whole": [data],
        "lines": data.splitlines(keepends=True),
        "bytes": [data[i : i + 1] for i in range(len(data))],
    }[cut]
    expected = io.StringIO()
    solve_file("-", format=fmt, stdin=io.StringIO(text), stdout=expected)
    assert b"".join(solve_lines(pieces, format=fmt)) == expected.getvalue().encode()


def test_solve_lines_takes_its_input_as_its_output_is_taken() -> None:
    """Lines are taken as the output is: the first block's output comes
    before the second piece of 600 KB is taken (what is held at once does
    not grow with the input); every row comes, in order."""
    taken: list[int] = []

    def pieces() -> Iterator[bytes]:
        for i in range(4):
            taken.append(i)
            yield b"8C TS KC 9H 4S 7D 2S 5D 3S AC\n" * 20_000

    out = solve_lines(pieces(), format="csv", rules="standard")
    first = next(out)
    assert taken == [0] and first.startswith(b"line,input,hand 1 sorted")
    rows = (first + b"".join(out)).splitlines()[1:]
    assert taken == [0, 1, 2, 3] and [int(row.split(b",")[0]) for row in rows] == list(range(1, 80_001))


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_solve_lines_told_the_most_hands_solves_a_wide_line_past_the_first_rows(fmt: str) -> None:
    """Its header is made from the first 50 lines, and a wider line later
    is an error row; a caller that knows how many hands a line may hold
    (a table's export) says so, and every line is solved."""
    lines = [b"AS KS QS JS TS | 2C 3C 4C 5C 7D\n"] * 60 + [b"AH KH QH JH TH | 2D 3D 4D 5D 7S | 8C 8D 9H TS JS\n"]
    alone = b"".join(solve_lines(lines, format=fmt)).decode()
    told = b"".join(solve_lines(lines, format=fmt, hands=3)).decode()
    assert "3 hands, and the output has columns for 2" in alone.splitlines()[-1]
    assert "error" not in told.splitlines()[-1].split(",")[-1] and "Hand 1 wins" in told.splitlines()[-1]
    if fmt == "csv":
        assert {len(row) for row in csv.reader(io.StringIO(told))} == {2 + 3 * 3 + 3}


def test_solve_lines_gives_the_formats_of_a_stream_only() -> None:
    with pytest.raises(FileError, match="unknown format 'xlsx' for a stream of lines; choose from text, csv, jsonl"):
        next(solve_lines([b"AS KS QS JS TS\n"], format="xlsx"))


# --- xlsx ----------------------------------------------------------------------------


def make_workbook(path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Hands"
    sheet.append(["Scenario"] + [f"P1 card {i}" for i in range(1, 6)] + [f"P2 card {i}" for i in range(1, 6)])
    sheet.append([1, "A♦", "K♦", "Q♦", "J♦", "10♦", "Q♣", "10♣", "7♣", "6♣", "4♣"])
    sheet.append([2, "KD", "9C", "4H", "KS", "9D", "2C", "3C", None, "5C", "7D"])  # an empty cell
    sheet.append([None] * 11)  # an empty row
    sheet.append([4, "10", "10", "4", "4", "3", "J", "J", "9", "9", "2"])  # numbers as cells
    sheet.append(["merged", None, None, None, None, None, None, None, None, None, None])
    sheet.merge_cells("A6:K6")  # a merged label row
    sheet.append([6, "AS", "AH", "KC", "QD", "JS", "AC", "AD", "KH", "QS", "JD"])
    other = book.create_sheet("Second")
    other.append(["AS KS QS JS TS", "2C 3C 4C 5C 7D"])
    book.save(path)


def test_xlsx_in_and_out(tmp_path: Path) -> None:
    source = tmp_path / "modeloff.xlsx"
    make_workbook(source)
    target = tmp_path / "answers.xlsx"
    code, out, err = run(["solve", str(source), "-o", str(target)])
    assert code == 1 and out == ""
    note, summary = err.splitlines()
    assert note.endswith("header on line 1; hands: B-F (a card each), G-K (a card each); labels: A (Scenario)")
    assert summary.startswith(f"wrote {target}: 5 rows: 2 solved, 3 errors")
    book = openpyxl.load_workbook(target)
    sheet = book.active
    assert sheet is not None
    values = [
        [v if isinstance(v, int) or v is None else str(v) for v in row]
        for row in sheet.iter_rows(values_only=True)
    ]
    header = [str(h) for h in values[0]]
    assert header[:3] == ["line", "Scenario", "P1 card 1"]
    assert "Step 1: hand 1 sorted" in header and "Step 2: hand 2 category" in header
    assert "Step 3: winner" in header and "explanation" in header
    col = {name: i for i, name in enumerate(header)}
    rows = values[1:]
    assert [r[0] for r in rows] == [2, 3, 5, 6, 7]
    first = rows[0]
    assert first[col["Step 1: hand 1 sorted"]] == "A♦ K♦ Q♦ J♦ 10♦"  # spelled as written
    assert first[col["Scenario"]] == 1  # a number stays a number
    assert first[col["Step 2: hand 1 category"]] == "Royal Flush"
    assert first[col["hand 1 score"]] == 10
    assert first[col["Step 3: winner"]] == 1
    assert sheet.freeze_panes == "A2"
    assert first[col["explanation"]] == "Hand 1 wins: Royal Flush beats Flush"
    assert str(rows[1][col["error"]]).startswith("hand 2: expected 5 cards, got 4")
    assert str(rows[2][col["error"]]).startswith("hand 1: card 1 ('10') has no suit")
    assert rows[3][col["error"]] == "no hands in this row"  # the merged label row
    assert str(rows[4][col["explanation"]]).startswith("Draw: both One Pair")
    # The same workbook under semi: the number cells are ranks.
    code, out, _ = run(["solve", str(source), "--rules", "semi", "--json"])
    assert json.loads(out.splitlines()[2])["winners"] == [2]  # J-J-9-9 beats 10-10-4-4


def test_xlsx_sheet_choice_and_errors(tmp_path: Path) -> None:
    source = tmp_path / "book.xlsx"
    make_workbook(source)
    code, out, _ = run(["solve", str(source), "--sheet", "Second", "--json"])
    assert code == 0 and json.loads(out)["line"] == 1
    code, _, err = run(["solve", str(source), "--sheet", "Nope"])
    assert code == 2 and "no sheet 'Nope' in the workbook; its sheets: 'Hands', 'Second'" in err
    code, _, err = run(["solve", str(tmp_path / "missing.txt")])
    assert code == 2 and err.count("\n") == 1 and "cannot read" in err
    bad = write(tmp_path, "fake.xlsx", "not a workbook")
    code, _, err = run(["solve", bad])
    assert code == 2 and "cannot read the workbook" in err
    code, _, err = run(["solve", str(source), "--format", "xlsx"])
    assert code == 2 and "-o FILE.xlsx" in err


def test_solve_row_library() -> None:
    solved = solve_row(Row(7, ("x",), ("AS KS QS JS TS", "2C 3C 4C 5C 7D")))
    assert solved.winners == (0,) and solved.explanation == "Hand 1 wins: Royal Flush beats High Card"
    source = open_source("-", stdin=io.BytesIO(b"AS KS QS JS TS | 2C 3C 4C 5C 7D\n"))
    assert [r.hands for r in source.rows] == [("AS KS QS JS TS", "2C 3C 4C 5C 7D")]


def test_fast_json_equals_the_rich_evaluation(tmp_path: Path) -> None:
    """The JSON Lines writer builds each hand's object from its class and
    card spellings; it must equal the rich evaluation's, for every rule set
    (jokers, 10s, suit symbols, commas in the input)."""
    import random

    from fivecard.core.hand import Hand
    from fivecard.core.report import evaluation_json
    from fivecard.core.evaluate import evaluate

    rng = random.Random(3)
    deck = ["AS", "KD", "QH", "JC", "TS", "9D", "8H", "7C", "6S", "5D", "4H", "3C", "2S", "AH", "KC", "10D", "JK", "A♦"]
    lines = []
    for _ in range(300):
        first = rng.sample(deck, 5)
        lines.append(", ".join(first) + " | A♥ 2♥ 3♠ 4♥ 5♣")
    source = tmp_path / "hands.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name in ("standard", "ace-king", "semi", "joker", "one-joker", "deuces-wild", "one-eyed-jacks"):
        code, out, err = run(["solve", str(source), "--json", "--rules", name, "--decks", "2" if name != "semi" else "1"])
        rows = [json.loads(line) for line in out.splitlines()]
        assert len(rows) == 300
        checked = 0
        for row in rows:
            if "error" in row:
                continue
            for hand in row["hands"]:
                expected = evaluation_json(evaluate(Hand.parse(hand["input"], rules=name)), hand["input"])
                assert hand == expected
                checked += 1
        assert checked > 100, (name, err)

def test_parquet_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parquet (pyarrow): typed columns, every row, as JSON Lines says;
    without pyarrow, one line saying what to install."""
    import pyarrow.parquet as pq

    source = write(tmp_path, "mixed.txt", MIXED)
    target = tmp_path / "out.parquet"
    code, out, err = run(["solve", source, "-o", str(target)])
    assert code == 1 and out == "" and err.startswith(f"wrote {target}: 8 rows")
    table = pq.read_table(target)
    assert str(table.schema.field("line").type) == "int64"
    assert str(table.schema.field("hand 1 score").type) == "int16"
    rows = table.to_pylist()
    _, jsonl, _ = run(["solve", source, "--json"])
    expected = [json.loads(line) for line in jsonl.splitlines()]
    assert [r["line"] for r in rows] == [e["line"] for e in expected] == DATA_LINES
    for row, want in zip(rows, expected):
        assert row["error"] == want.get("error")
        if "error" not in want:
            assert row["hand 1 strength"] == want["hands"][0]["strength"]
            assert row["explanation"] == want["explanation"]
            winners = want["winners"]
            assert row["winner"] == (None if winners is None else ",".join(map(str, winners)))
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if it were not installed
    code, _, err = run(["solve", source, "-o", str(tmp_path / "again.parquet")])
    assert code == 2 and err.count("\n") == 1 and "pip install 'fivecard[parquet]'" in err
    assert not (tmp_path / "again.parquet").exists()


def test_parquet_cells_are_the_csv_cells(tmp_path: Path) -> None:
    """Every Parquet cell holds what the CSV cell holds: lines read as
    arrays (all alike, or mixed with others), hands written otherwise, a row
    of one hand, bytes that are not UTF-8, errors."""
    import csv

    import pyarrow.parquet as pq

    euler = ["8C TS KC 9H 4S 7D 2S 5D 3S AC", "5C AD 5D AC 9C 7C 5H 8D TD KS", "2H 2D 4C 4D 4S 3C 3D 3S 9S 9D"]
    for lines in (euler * 40, euler * 40 + MIXED.splitlines() + ["2H 2D 4C 4D 4S", "AS KS @ QS JS | 2C 3C 4C 5C 7D"]):
        path = tmp_path / "in.txt"
        path.write_bytes("\n".join(lines).encode().replace(b"@", b"\xff") + b"\n")
        assert run(["solve", str(path), "-o", str(tmp_path / "out.csv")])[0] in (0, 1)
        assert run(["solve", str(path), "-o", str(tmp_path / "out.parquet")])[0] in (0, 1)
        with open(tmp_path / "out.csv", newline="", encoding="utf-8") as f:
            expected = list(csv.DictReader(f))
        rows = pq.read_table(tmp_path / "out.parquet").to_pylist()
        assert len(rows) == len(expected) > 100
        for row, want in zip(rows, expected):
            for key, value in want.items():
                got = row[key]
                assert ("" if got is None else str(got)) == value, (key, row, want)


def test_csv_bom_for_excel(tmp_path: Path) -> None:
    source = write(tmp_path, "suits.txt", "A♠ K♠ Q♠ J♠ 10♠ | 2♣ 3♣ 4♣ 5♣ 7♦\n")
    target = tmp_path / "out.csv"
    assert run(["solve", source, "-o", str(target), "--bom"])[0] == 0
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfline,input,")
    assert "A♠ K♠ Q♠ J♠ 10♠" in data.decode("utf-8-sig")  # sorted cards spelled as written
    assert run(["solve", source, "-o", str(tmp_path / "plain.csv")])[0] == 0
    assert (tmp_path / "plain.csv").read_bytes().startswith(b"line,")


def test_solve_rows_takes_rows_lines_and_plain_lists_of_hands() -> None:
    from fivecard.files.solve import solve_rows

    given: list[object] = [
        ["AS KS QS JS TS", "2C 3C 4C 5C 7D"],
        ("2C 3C 4C 5C 7D", "AS KS QS JS TS"),
        "QS QH 2C 3D 4H | 8C 8D 9H TS JS",
        Row(9, ("x",), ("AS KS QS JS TS", "2C 3C 4C 5C 7D")),
        ["AS KS QS JS TS", None, "2C 3C 4C 5C 7D"],
        [],
        "",
    ]
    solved = list(solve_rows(given))  # type: ignore[arg-type]  # the forms a caller may have at hand
    assert len(solved) == len(given)
    assert [s.line for s in solved] == [1, 2, 3, 9, 5, 6, 7]
    assert [s.winners for s in solved[:4]] == [(0,), (1,), (0,), (0,)]
    assert solved[0].row.cells == ("AS KS QS JS TS", "2C 3C 4C 5C 7D")
    assert solved[4].error is not None and solved[4].error.startswith("hand 2: no cards")
    assert solved[5].error == solved[6].error == "no hands in this row"
    assert solve_row(["AS KS QS JS TS"]).hands[0].strength == solve_row("AS KS QS JS TS").hands[0].strength


@pytest.mark.parametrize(
    ("rows", "named"),
    [
        (42, "not int"),
        ("AS KS QS JS TS", "not str 'AS KS QS JS TS'"),
        (None, "not NoneType"),
        ([42], "row 1 must be a Row, a line of text or a list of hands (strings or None), not int"),
        ([["AS KS QS JS TS", 7]], "row 1: a cell must be a string or None, not int"),
        ([b"AS KS QS JS TS"], "not bytes"),
        ({"AS KS QS JS TS": "2C 3C 4C 5C 7D"}, "not dict"),  # (its keys were read as lines)
        ({"AS KS QS JS TS"}, "not set"),  # (no order: the rows' numbers would be chance's)
    ],
)
def test_solve_rows_names_what_is_not_rows(rows: object, named: str) -> None:
    from fivecard.files.solve import solve_rows

    with pytest.raises(TypeError, match=named.replace("(", r"\(").replace(")", r"\)")):
        list(solve_rows(rows))  # type: ignore[arg-type]


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_csv_output_keeps_the_input_csvs_delimiter(tmp_path: Path, delimiter: str) -> None:
    """A CSV from Excel in a locale that writes ``;`` (or a table between
    tabs) comes back with the same delimiter, its cells those of the same
    table written with commas; a cell is quoted when it holds the
    delimiter, a quote or a line end (a comma alone needs no quotes)."""
    rows = [
        ["Round", "Player 1", "Player 2", "Note"],
        ["1", "AS, KS, QS, JS, TS", "2C 3C 4C 5C 7D", f"a{delimiter}b"],
        ["2", "KD 9C 4H KS 9D", "1S KD 3C 4H 5D", 'say "hi"'],
        ["3", "QS QH 2C 3D 4H", "8C 8D 9H TS JS", "=1+1"],
    ]
    outputs: dict[str, str] = {}
    for used in (",", delimiter):
        source = tmp_path / ("commas.csv" if used == "," else "other.csv")
        with source.open("w", newline="", encoding="utf-8") as f:
            csv.writer(f, delimiter=used, lineterminator="\n").writerows(rows)
        code, _, _ = run(["solve", str(source), "-o", str(tmp_path / f"out{len(outputs)}.csv")])
        assert code == 1  # row 2 is bad
        outputs[used] = (tmp_path / f"out{len(outputs)}.csv").read_text(encoding="utf-8")
    text = outputs[delimiter]
    assert text.splitlines()[0].count(delimiter) == 13 and "," not in text.splitlines()[0]
    assert "AS, KS, QS, JS, TS" in text and f'"a{delimiter}b"' in text  # quoted where the csv module would
    got = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    assert got == list(csv.reader(io.StringIO(outputs[","])))
    assert all(len(row) == len(got[0]) for row in got)


def _text_table(source: str, width: int | None) -> str:
    out = io.StringIO()
    solve_file(source, stdout=out, width=width)
    return out.getvalue()


@pytest.mark.parametrize("name", ["showdowns.csv", "rulebook-showdowns.txt"])
def test_the_text_table_fits_the_width_it_is_given(name: str) -> None:
    """Given a terminal's width, every line fits it and every explanation
    is there whole (wrapped); without one (a file, a pipe), a row is a line."""
    source = str(EXAMPLES / name)
    wide = _text_table(source, None)
    rows = wide.splitlines()[1:-1]
    assert max(map(len, rows)) > 120  # three hands: wider than a terminal
    explanations = [" ".join(line.split("  ")[-1].split()) for line in rows if "error:" not in line]
    for width in (80, 100, 132, 200, 400):  # (three hands' cards alone take 71 columns)
        fitted = _text_table(source, width)
        assert all(len(line) <= width for line in fitted.splitlines()[:-1]), width
        flat = " ".join(fitted.split())
        assert all(e in flat for e in explanations), width
        assert fitted.count("error:") == wide.count("error:")
    assert _text_table(source, 400) == wide


def test_the_text_table_shows_the_label_columns_of_a_table(tmp_path: Path) -> None:
    """Every column of a table that holds no hand (an id, a name, a note) is
    shown after the line, as wide as its name and the first rows' cells (at
    most 24, cut with …); error rows show them too."""
    long = "a note that runs on and on past any column"
    text = (
        "Round,Player 1,Player 2,Dealer\n"
        f"1,AS KS QS JS TS,2C 3C 4C 5C 7D,Ann\n"
        f"22,1S KD 3C 4H 5D,2C 3C 4C 5C 7D,{long}\n"
    )
    source = write(tmp_path, "t.csv", text)
    for width in (None, 90):
        lines = _text_table(source, width).splitlines()
        header = lines[0]
        assert header.split()[:3] == ["line", "Round", "Dealer"]
        dealer = header.index("Dealer")
        assert lines[1][header.index("Round") :].startswith("1 ") and lines[1][dealer:].startswith("Ann ")
        row = next(line for line in lines if line.split()[:2] == ["3", "22"])
        assert row[dealer:].startswith(long[:23] + "…  error: hand 1:")
    plain = _text_table(str(EXAMPLES / "rulebook-showdowns.txt"), None).splitlines()[0]
    assert plain.split()[:3] == ["line", "hand", "1"]  # text input: no labels


def test_the_text_table_names_its_order_and_the_other_formats_sort_by_rank(tmp_path: Path) -> None:
    """One hand, two orders, each named: the text table's cards are in
    showdown order (its header says so), every other format's ``sorted``
    cells in rank order (ModelOff's step 1)."""
    import pyarrow.parquet as pq

    source = write(tmp_path, "t.txt", "9C 9S 9D 9H JH | 5S 4C 3H 2D AS\n")
    text = _text_table(source, None)
    assert "hand 1 (showdown order)" in text and "9♠  9♥  9♦  9♣  J♥" in text and "5♠  4♣  3♥  2♦  A♠" in text
    for fmt in ("csv", "xlsx", "parquet", "jsonl"):
        target = tmp_path / f"out.{fmt}"
        solve_file(source, str(target))
        if fmt == "csv":
            row = dict(zip(*csv.reader(io.StringIO(target.read_text(encoding="utf-8")))))
        elif fmt == "xlsx":
            row = dict(zip(*openpyxl.load_workbook(target).active.iter_rows(values_only=True)))  # type: ignore[union-attr]
            row = {str(k).removeprefix("Step 1: "): v for k, v in row.items()}
        elif fmt == "parquet":
            row = pq.read_table(target).to_pylist()[0]
        else:
            hands = json.loads(target.read_text(encoding="utf-8"))["hands"]
            row = {f"hand {i} sorted": " ".join(h["sorted"]) for i, h in enumerate(hands, 1)}
        assert (row["hand 1 sorted"], row["hand 2 sorted"]) in [
            ("JH 9S 9H 9D 9C", "AS 5S 4C 3H 2D"),
            ("Jh 9s 9h 9d 9c", "As 5s 4c 3h 2d"),
        ], fmt
