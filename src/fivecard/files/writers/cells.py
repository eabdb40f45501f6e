"""Cells made safe: the one place where a text becomes a cell of a CSV file,
a workbook or a JSON string.

Guarantees: no cell fivecard writes is ever run as a formula (a text
starting with ``=``, ``+``, ``-`` or ``@``, also after spaces, or with a
tab or a line end, gets a leading ``'`` in CSV, by :func:`inert`, and is a
text cell in a workbook, :func:`~fivecard.files.writers.excel.text_cell`);
control characters, which a workbook cannot hold, are shown as their
Unicode pictures (U+0007 as ``␇``); a text longer than a workbook cell holds
(:data:`XLSX_CELL`) is refused (:func:`check_text`) or cut, ending in ``…``
(:func:`cut_text`); CSV fields are quoted as the csv module quotes them
(:func:`csv_field`). Whole columns are escaped at once (:func:`escaped`):
one scan of their bytes finds the few cells that need it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from ...core.errors import PATH_QUOTE, FileError, quote

__all__ = [
    "XLSX_CELL",
    "inert",
    "sheet_text",
    "csv_field",
    "csv_cell",
    "csv_special",
    "csv_line",
    "check_text",
    "cut_text",
    "escaped",
]

#: The characters a workbook cell holds (Excel's limit).
XLSX_CELL: Final = 32_767
CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: What a spreadsheet may run as a formula: a text that starts with one of
#: these, after any leading spaces (some programs trim them first) ...
_FORMULA_START: Final = ("=", "+", "-", "@")
#: ... or a text that starts with a tab or a line end (some programs drop
#: them, or read the rest of the cell as a line of its own).
_BREAK_START: Final = ("\t", "\n", "\r", "\x85", "\u2028", "\u2029")
Objects = npt.NDArray[np.object_]


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return "\u2421" if code == 0x7F else chr(0x2400 + code)


def inert(text: str) -> str:
    """A cell's text made safe for a spreadsheet: control characters as their
    pictures, and a leading ``'`` before what a spreadsheet could run as a
    formula: a text starting with ``=``, ``+``, ``-`` or ``@``, after any
    spaces, or with a tab or a line end (``\\n``, ``\\r``, ...).

    >>> inert('=cmd|" /C calc"!A0'), inert('AS KS'), inert('bell\\x07')
    ('\\'=cmd|" /C calc"!A0', 'AS KS', 'bell␇')
    >>> inert(' =1+1'), inert('\\n=1+1'), inert('\\t@SUM(A1)'), inert('Ann - Bob')
    ("' =1+1", "'\\n=1+1", "'\\t@SUM(A1)", 'Ann - Bob')
    """
    if CONTROL.search(text):
        text = CONTROL.sub(_picture, text)
    if text.startswith(_BREAK_START) or text.lstrip().startswith(_FORMULA_START):
        return "'" + text
    return text


def sheet_text(text: str) -> str:
    """A text for a workbook's text cell: control characters as their
    pictures, as :func:`inert` shows them (a text cell is never run as a
    formula, so it needs no leading ``'``).

    >>> sheet_text('=1+1'), sheet_text('bell\\x07')
    ('=1+1', 'bell␇')
    """
    return CONTROL.sub(_picture, text) if CONTROL.search(text) else text


def cut_text(text: str) -> str:
    """A text cut to what a workbook cell holds (:data:`XLSX_CELL`
    characters), ending in ``…`` where it was cut.

    >>> len(cut_text('x' * 40_000)), cut_text('x' * 40_000)[-1], cut_text('AS KS')
    (32767, '…', 'AS KS')
    """
    return text[: XLSX_CELL - 1] + "…" if len(text) > XLSX_CELL else text


def csv_field(text: str, delimiter: str = ",") -> str:
    """A field as the csv module writes it (minimal quoting: a field that
    holds the ``delimiter``, a quote or a line end is quoted).

    >>> csv_field('High Card, K-10-9-8-4'), csv_field('Royal Flush'), csv_field('High Card, K', ';')
    ('"High Card, K-10-9-8-4"', 'Royal Flush', 'High Card, K')
    """
    if delimiter in text or any(ch in text for ch in '"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_cell(text: str, delimiter: str = ",") -> bytes:
    """A CSV cell: the text made :func:`inert`, then quoted (UTF-8)."""
    return csv_field(inert(text), delimiter).encode()


def csv_line(cells: Sequence[str]) -> str:
    """A line of a CSV file whose every cell is :func:`inert`.

    >>> csv_line(['=1+1', 'One Pair, Kings'])
    '\\'=1+1,"One Pair, Kings"\\n'
    """
    return ",".join(csv_field(inert(c)) for c in cells) + "\n"


def check_text(text: str, name: str, where: str) -> None:
    """Raise :class:`~fivecard.core.errors.FileError` for a text longer than a
    workbook cell holds, to be written at ``where`` (``cell D5 of sheet
    'Grid'``) of the workbook ``name`` (openpyxl cuts such a text without a
    word as it is put in a cell)."""
    if len(text) > XLSX_CELL:
        raise FileError(
            f"{quote(name, PATH_QUOTE)} would not open in Excel: {where} holds {len(text):,} characters, "
            f"and a cell holds at most {XLSX_CELL:,}"
        )


def json_text(text: str) -> bytes:
    """A JSON string's inside (no quotes)."""
    return json.dumps(text, ensure_ascii=False)[1:-1].encode()


def json_ascii(text: str) -> bytes:
    """A JSON string's inside, non-ASCII escaped (no quotes)."""
    return json.dumps(text)[1:-1].encode()


def _byte_set(characters: bytes) -> npt.NDArray[np.bool_]:
    table = np.zeros(256, dtype=bool)
    table[list(characters)] = True
    table[0x80:] = True  # not ASCII: checked (and undecodable bytes replaced) one by one
    return table


CSV_SPECIAL: Final = _byte_set(b',"\r\n' + bytes(range(0x20)) + b"\x7f")


def csv_special(delimiter: str) -> npt.NDArray[np.bool_]:
    """The bytes that make a CSV cell with this delimiter need a look (see
    :func:`escaped`): :data:`CSV_SPECIAL` with the delimiter for the comma."""
    if delimiter == ",":
        return CSV_SPECIAL
    return _byte_set(delimiter.encode() + b'"\r\n' + bytes(range(0x20)) + b"\x7f")
CSV_LEADING: Final = _byte_set(b"=+-@\t\n\r ")  # a space: a formula may follow
JSON_SPECIAL: Final = _byte_set(b'"\\' + bytes(range(0x20)))
NO_LEADING: Final = np.zeros(256, dtype=bool)


def escaped(
    values: Sequence[bytes],
    special: npt.NDArray[np.bool_],
    leading: npt.NDArray[np.bool_],
    fix: Callable[[str], bytes],
    wrap: bytes = b"",
) -> Objects:
    """Each value as a cell: ``wrap + value + wrap`` when none of its bytes
    is ``special`` and its first is not ``leading`` (found by one scan of all
    the values' bytes); else ``fix`` of its text."""
    n = len(values)
    out = np.empty(n, dtype=object)
    if not n:
        return out
    joined = b"\n".join(values)
    data = np.frombuffer(joined, dtype=np.uint8)
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=n)
    starts = np.cumsum(lengths + 1) - lengths - 1
    flagged = np.zeros(n, dtype=bool)
    if leading.any():
        nonempty = lengths > 0
        flagged[nonempty] = leading[data[starts[nonempty]]]
    hits = np.flatnonzero(special[data])
    if len(hits):
        rows = np.searchsorted(starts, hits, side="right") - 1
        flagged[rows[hits < starts[rows] + lengths[rows]]] = True  # not the "\n" between values
    plain = np.array(values, dtype=object)
    out[:] = wrap + plain + wrap if wrap else plain
    for i in np.flatnonzero(flagged).tolist():
        out[i] = fix(values[i].decode("utf-8", "replace"))
    return out
