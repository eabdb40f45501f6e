"""The workbook reader (fivecard.files.workbook): a cell's text is the text a
spreadsheet shows, and every part's XML is read in time linear in its size
and in bounded memory, whatever it holds; what passes a limit is one
FileError that names the part and the limit."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest

from fivecard import FivecardError
from fivecard.files import workbook
from fivecard.files.workbook import MAX_DEPTH, MAX_NAMES, MAX_TOKEN, FileError, open_workbook
from fivecard.cli import main

from strategies import xlsx_of

ROYAL = "AS KS QS JS TS"
LOW = "2C 3C 4C 5C 7D"
SHEET = "xl/worksheets/sheet1.xml"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def sheet(rows: str) -> bytes:
    return f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()


def inline(ref: str, inside: str) -> str:
    """An inline-string cell holding ``inside`` (the elements in its ``<is>``)."""
    return f'<c r="{ref}" t="inlineStr"><is>{inside}</is></c>'


def cells(data: bytes) -> list[list[str]]:
    """The cells of every row of the first sheet."""
    book = open_workbook(io.BytesIO(data))
    try:
        return [record.cells for record in book.rows(None)[1]]
    finally:
        book.close()


def solve(tmp_path: Path, data: bytes) -> tuple[int, list[dict[str, object]], str]:
    path = tmp_path / "book.xlsx"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    code = main(["solve", str(path), "--json"], stdin=io.StringIO(), stdout=out, stderr=err)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


# --- the text a spreadsheet shows ---------------------------------------------------------------


def test_an_inline_strings_phonetic_guide_is_not_its_text(tmp_path: Path) -> None:
    """Excel shows 'AS KS QS JS' (the phonetic guide, <rPh>, is a reading
    aid shown only on request): a hand of four cards, not a royal flush."""
    guided = inline("A1", '<t>AS KS QS JS</t><rPh sb="0" eb="2"><t>TS</t></rPh><phoneticPr fontId="1"/>')
    data = xlsx_of({SHEET: sheet(f'<row r="1">{guided}{inline("B1", f"<t>{LOW}</t>")}</row>')})
    assert cells(data) == [["AS KS QS JS", LOW]]
    code, rows, _ = solve(tmp_path, data)
    assert code == 1 and "winners" not in rows[0] and "hand 1" in str(rows[0]["error"])


def test_text_inside_a_cells_extension_list_is_not_its_text() -> None:
    extended = (
        '<c r="A1" t="inlineStr"><is><t>AS KS QS JS</t></is>'
        '<extLst><ext uri="x"><t>TS</t></ext></extLst></c>'
        '<c r="B1"><f>1+1</f><v>2</v><extLst><ext><v>9</v></ext></extLst></c>'
    )
    assert cells(xlsx_of({SHEET: sheet(f'<row r="1">{extended}</row>')})) == [["AS KS QS JS", "2"]]


def test_rich_text_runs_are_the_text_and_their_properties_are_not() -> None:
    runs = '<r><rPr><b/><t>bold</t></rPr><t xml:space="preserve">AS KS </t></r><r><t>QS JS TS</t></r>'
    strings = (
        f'<sst xmlns="{MAIN}"><si>{runs}</si>'
        '<si><t>AS KS QS JS</t><rPh><t>TS</t></rPh><phoneticPr/></si>'
        '<si><t>AS KS QS JS</t><extLst><ext><t>TS</t></ext></extLst></si></sst>'
    ).encode()
    row = inline("A1", runs) + "".join(f'<c r="{c}1" t="s"><v>{i}</v></c>' for i, c in enumerate("BCD"))
    data = xlsx_of({SHEET: sheet(f'<row r="1">{row}</row>'), "xl/sharedStrings.xml": strings})
    assert cells(data) == [[ROYAL, ROYAL, "AS KS QS JS", "AS KS QS JS"]]


# --- bounded: tokens, depth, names --------------------------------------------------------------

BIG = MAX_TOKEN + 1_000


@pytest.mark.parametrize(
    ("xml", "words"),
    [
        (f'<row r="1" x="{"a" * BIG}"/>', f"a token (a tag with its attributes, a comment ...) of more than {MAX_TOKEN:,} bytes"),
        ("<!--" + "c" * BIG + "-->", f"of more than {MAX_TOKEN:,} bytes"),
        ("<?pi " + "c" * BIG + "?>", f"of more than {MAX_TOKEN:,} bytes"),
        ("<row " + " ".join(f'a{i}="1"' for i in range(BIG // 8)) + "/>", f"of more than {MAX_TOKEN:,} bytes"),
        ("<" + "n" * BIG + "/>", f"of more than {MAX_TOKEN:,} bytes"),
        ("<a>" * (MAX_DEPTH + 1) + "</a>" * (MAX_DEPTH + 1), f"nests elements more than {MAX_DEPTH} deep"),
        ("".join(f"<e{i}/>" for i in range(MAX_NAMES + 1)), f"more than {MAX_NAMES:,} distinct element and attribute names"),
        ("".join(f'<e a{i}="1"/>' for i in range(MAX_NAMES + 1)), f"more than {MAX_NAMES:,} distinct element"),
        ("<" + "n" * 1_001 + "/>", "a name of 1,001 characters (at most 1,000)"),
    ],
    ids=["attribute", "comment", "processing instruction", "many attributes", "element name", "nesting", "element names", "attribute names", "long name"],
)
def test_xml_past_a_limit_is_one_line_naming_the_part(tmp_path: Path, xml: str, words: str) -> None:
    data = xlsx_of({SHEET: sheet(xml)})
    with pytest.raises(FileError, match="the workbook's part xl/worksheets/sheet1.xml ") as caught:
        cells(data)
    assert words in str(caught.value) and str(caught.value).endswith("; refused")
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "hostile.xlsx"
    path.write_bytes(data)
    assert main(["solve", str(path)], stdin=io.StringIO(), stdout=out, stderr=err) == 2
    assert out.getvalue() == "" and err.getvalue().count("\n") == 1 and words in err.getvalue()


@pytest.mark.parametrize("part", ["xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/sharedStrings.xml", "xl/styles.xml"])
def test_every_part_read_has_the_limits(part: str) -> None:
    deep = b"<x>" + b"<a>" * MAX_DEPTH + b"</a>" * MAX_DEPTH + b"</x>"
    with pytest.raises(FileError, match=f"part {part} nests elements more than {MAX_DEPTH} deep"):
        cells(xlsx_of({part: deep}))


def test_xml_within_the_limits_reads() -> None:
    """A token of MAX_TOKEN bytes, nesting MAX_DEPTH deep (with the sheet's
    own four levels), MAX_NAMES names in all: read as any other."""
    tag = '<row r="1" x="' + "a" * (MAX_TOKEN - 100) + '">'
    row = tag + inline("A1", f"<t>{ROYAL}</t>") + "</row>"
    nested = "<a>" * (MAX_DEPTH - 2) + "</a>" * (MAX_DEPTH - 2)
    names = "".join(f"<e{i}/>" for i in range(MAX_NAMES - 20))
    assert cells(xlsx_of({SHEET: sheet(row + nested + names)})) == [[ROYAL]]


def expat_work(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts, from now on, the bytes expat scans: each chunk it is fed and,
    again, the bytes of a token left open by the chunks before (expat before
    2.6 parses an open token again from its start with every chunk)."""
    scanned = [0]
    feed = workbook._Xml.feed

    def counted(self: workbook._Xml, data: bytes, final: bool = False) -> None:
        scanned[0] += self.fed - max(self.parser.CurrentByteIndex, 0) + len(data)
        feed(self, data, final)

    monkeypatch.setattr(workbook._Xml, "feed", counted)
    return scanned


@pytest.mark.parametrize("size", [MAX_TOKEN // 4, MAX_TOKEN - 100])
def test_a_long_token_is_parsed_again_only_a_few_times(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Fed 64 KiB at a time, a 1 MiB attribute was scanned some 8 MiB over
    (a token of n bytes, n²/128 KiB): the reading was quadratic in it. Now
    the chunks grow while a token is open, so it is scanned two or three
    times whatever its length."""
    part = sheet(f'<row r="1" x="{"a" * size}"/>' + f'<row r="2">{inline("A2", f"<t>{ROYAL}</t>")}</row>')
    data = xlsx_of({SHEET: part})
    scanned = expat_work(monkeypatch)
    assert cells(data) == [[], [ROYAL]]
    others = sum(len(p) for name, p in xlsx_parts(data) if name != SHEET)
    assert scanned[0] - others <= 4 * len(part)


def xlsx_parts(data: bytes) -> Iterator[tuple[str, bytes]]:
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            yield name, archive.read(name)


def test_a_document_type_and_entities_are_refused() -> None:
    laughs = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><x>&b;</x>'
    external = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'
    for xml in (laughs, external):
        with pytest.raises(FileError, match="declares a document type; refused"):
            cells(xlsx_of({SHEET: xml.encode()}))
    with pytest.raises(FileError, match="is damaged: undefined entity"):
        cells(xlsx_of({SHEET: sheet("<row>&e;</row>")}))


def test_check_parts_reads_the_parts_solve_never_reads() -> None:
    """A workbook whose theme nests too deep reads (solve never opens the
    theme); check_parts, for a program about to give the file to openpyxl,
    refuses it naming the part."""
    deep = b"<a>" * (MAX_DEPTH + 1) + b"</a>" * (MAX_DEPTH + 1)
    data = xlsx_of({"xl/theme/theme1.xml": deep, "docProps/core.xml": b"<core/>"})
    assert cells(data) == [[ROYAL, "2c 3c 4c 5c 7d"]]
    book = open_workbook(io.BytesIO(data))
    try:
        with pytest.raises(FileError, match=f"part xl/theme/theme1.xml nests elements more than {MAX_DEPTH} deep"):
            book.check_parts()
    finally:
        book.close()
    book = open_workbook(io.BytesIO(xlsx_of({})))
    try:
        book.check_parts()
    finally:
        book.close()
    assert issubclass(FileError, FivecardError)


# --- formulas with no saved value ------------------------------------------------------------------

UNSAVED = "with no saved value (open and save the workbook in Excel or LibreOffice, which store formulas' values)"


def test_a_hand_cell_holding_a_formula_with_no_saved_value_says_so(tmp_path: Path) -> None:
    """A workbook written by openpyxl and never opened in a spreadsheet holds
    its formulas without values: a hand so held is an error row that names
    the cell, the formula and what to do (as ``mark`` says of an answer cell),
    not an empty hand; a formula in a label column, or a cell with a value,
    changes nothing."""
    import openpyxl

    book = openpyxl.Workbook()
    rows: Any = book.active
    rows.append(["Round", "Player 1", "Player 2", "Note"])
    rows.append([1, '="' + ROYAL + '"', LOW, "=A2*2"])  # hand 1 a formula
    rows.append([2, ROYAL, "=B3"])  # hand 2 a formula
    rows.append(["=A3+1", ROYAL, LOW])  # a label's formula: the row reads
    long = "=" + "B5&" * 30 + "B5"
    rows.append([4, None, long])  # a long formula is named by its first 40 characters
    path = tmp_path / "formulas.xlsx"
    book.save(path)
    out, err = io.StringIO(), io.StringIO()
    code = main(["solve", str(path), "--json"], stdin=io.StringIO(), stdout=out, stderr=err)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 1 and [r["line"] for r in results] == [2, 3, 4, 5]
    assert results[0]["error"] == f"hand 1: cell B2 holds the formula '=\"{ROYAL}\"' {UNSAVED}"
    assert results[1]["error"] == f"hand 2: cell C3 holds the formula '=B3' {UNSAVED}"
    assert "error" not in results[2] and results[2]["winners"] == [1]
    assert results[3]["error"] == f"hand 2: cell C5 holds the formula '{long[:40]}...' {UNSAVED}"


def test_a_shared_formula_with_no_saved_value_is_named_as_a_formula(tmp_path: Path) -> None:
    rows = (
        f'<row r="1">{inline("A1", "<t>Player 1</t>")}{inline("B1", "<t>Player 2</t>")}</row>'
        f'<row r="2">{inline("A2", f"<t>{ROYAL}</t>")}<c r="B2"><f t="shared" si="0"/></c></row>'
    )
    code, results, _ = solve(tmp_path, xlsx_of({SHEET: sheet(rows)}))
    assert code == 1 and results[0]["error"] == f"hand 2: cell B2 holds a formula {UNSAVED}"
