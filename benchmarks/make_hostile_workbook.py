"""Write a workbook whose sheet is hostile XML that a careless streaming reader
pays for in time or memory, of about MB megabytes on disk:

    python benchmarks/make_hostile_workbook.py attribute MB OUTPUT.xlsx
    python benchmarks/make_hostile_workbook.py nested MB OUTPUT.xlsx

``attribute``: one row of two hands, after a row with a single attribute
filling the rest of the sheet. ``nested``: the same row of hands, then
elements nested as deep as the sheet holds. Either part unpacks to some 95
times its packed size, under the 100 times at which a reader refuses a part
as a zip bomb, so that only the XML itself is in the way. The sheet is
written in chunks: memory stays small whatever MB is.
"""

from __future__ import annotations

import argparse
import random
import zipfile
from collections.abc import Iterator

WORKBOOK = (
    '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
RELS = (
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)
HEAD = b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
HANDS = (
    b'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>AS KS QS JS TS</t></is></c>'
    b'<c r="B{r}" t="inlineStr"><is><t>2C 3C 4C 5C 7D</t></is></c></row>'
)
TAIL = b"</sheetData></worksheet>"
LETTERS = b"bcdefghijklmnopqrstuvwxyz"
RATIO = 95  # unpacked / packed, as the runs below deflate
CHUNK = 1 << 20


def _names(count: int) -> list[bytes]:
    """``count`` element names: 'a' mostly, every 70th another letter (drawn
    with a fixed seed)."""
    rng = random.Random(7)
    return [bytes([rng.choice(LETTERS)]) if i % 70 == 0 else b"a" for i in range(count)]


def attribute(size: int) -> Iterator[bytes]:
    """A sheet of ``size`` bytes or so: one attribute, then a row of hands.
    The value repeats 'a' with another letter every 231 bytes, so that it
    deflates some 95 times."""
    yield HEAD + b'<row r="1" x="'
    block = b"".join(b"a" * 230 + name for name in _names(70 * (CHUNK // 231))[::70])
    for _ in range(max(1, size // len(block))):
        yield block
    yield b'"/>' + HANDS.replace(b"{r}", b"2") + TAIL


def nested(size: int) -> Iterator[bytes]:
    """A sheet of ``size`` bytes or so: a row of hands, then elements nested
    about size / 7 deep, closed in turn: a unit of names (see :func:`_names`)
    over and over, then the unit's closing tags in reverse over and over."""
    names = _names(CHUNK // 3)
    opening = b"".join(b"<" + name + b">" for name in names)
    closing = b"".join(b"</" + name + b">" for name in reversed(names))
    units = max(1, size // (len(opening) + len(closing)))
    yield HEAD + HANDS.replace(b"{r}", b"1")
    for _ in range(units):
        yield opening
    for _ in range(units):
        yield closing
    yield TAIL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("attribute", "nested"))
    parser.add_argument("mb", type=float, help="the workbook's size on disk, in megabytes (10^6 bytes)")
    parser.add_argument("output")
    args = parser.parse_args()
    size = int(args.mb * 1e6 * RATIO)
    chunks = attribute(size) if args.kind == "attribute" else nested(size)
    with zipfile.ZipFile(args.output, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", RELS)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            for chunk in chunks:
                part.write(chunk)
    with zipfile.ZipFile(args.output) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    print(
        f"{args.output}: sheet {info.compress_size / 1e6:.1f} MB packed, {info.file_size / 1e6:,.0f} MB "
        f"unpacked ({info.file_size / info.compress_size:.0f} times)"
    )


if __name__ == "__main__":
    main()
