"""Rows of output as byte matrices: numbers written as ASCII digits a
column at a time, rows of a matrix as bytes, a grid of pieces joined, and
columns of pieces joined row after row (by the compiled kernel
:mod:`fivecard.files._rows` where it is built, without a Python object per
piece; else by numpy and ``bytes.join``: the same bytes).

Guarantees: a whole number is written as ``str`` writes it (``0`` as
``0``), right-aligned where a width is asked for; a row is one bytes object
made from a matrix row, never a cell at a time.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from ...core import kernel
from ...vector import batch
from ..pipeline import Chunk

__all__ = ["numbers", "numbered_rows", "rows_of", "join_rows", "join_columns", "all_tokens"]

Objects = npt.NDArray[np.object_]
I64 = npt.NDArray[np.int64]
_POWERS: Final = 10 ** np.arange(1, 19, dtype=np.int64)


def numbers(values: I64, before: bytes = b"", after: bytes = b"", *, pad: int = 0) -> Objects:
    """Whole numbers as ASCII bytes (between ``before`` and ``after``,
    right-aligned in ``pad`` columns): :func:`numbered_rows` with nothing
    after the number but ``after``.

    >>> numbers(np.array([7, 0, 1234]), b"Round ", b"\\n").tolist()
    [b'Round 7\\n', b'Round 0\\n', b'Round 1234\\n']
    """
    return numbered_rows(values, before, [after] if after else [], pad=pad)


def numbered_rows(
    values: I64, before: bytes, pieces: Sequence[bytes | npt.NDArray[np.uint8]], *, pad: int = 0
) -> Objects:
    """Per row: ``before``, its number (right-aligned in ``pad`` columns),
    then ``pieces`` (constant bytes, or a byte matrix with a row per row)
    end to end, as one bytes object: a byte matrix for each width of the
    numbers."""
    out = np.empty(len(values), dtype=object)
    digits = np.maximum(np.searchsorted(_POWERS, values, side="right") + 1, pad)
    widths = [len(p) if isinstance(p, bytes) else p.shape[1] for p in pieces]
    for width in batch.distinct(digits).tolist():
        at = np.flatnonzero(digits == width)
        size = len(before) + width + sum(widths)
        matrix = np.empty((len(at), size), dtype=np.uint8)
        matrix[:, : len(before)] = np.frombuffer(before, np.uint8)
        number = values[at]
        for column in range(len(before) + width - 1, len(before) - 1, -1):
            matrix[:, column] = np.where(number > 0, ord("0") + number % 10, ord(" "))
            number = number // 10
        last = len(before) + width - 1
        matrix[:, last] = np.where(values[at] == 0, ord("0"), matrix[:, last])  # zero is "0"
        column = len(before) + width
        for piece, piece_width in zip(pieces, widths):
            if isinstance(piece, bytes):
                matrix[:, column : column + piece_width] = np.frombuffer(piece, np.uint8)
            else:
                matrix[:, column : column + piece_width] = piece[at]
            column += piece_width
        out[at] = matrix.view(f"S{size}").ravel().tolist()
    return out


def rows_of(matrix: npt.NDArray[np.uint8]) -> Objects:
    """Each row of a byte matrix as bytes, every byte kept (a zero byte at
    a row's end too)."""
    out = np.empty(len(matrix), dtype=object)
    if len(matrix) and matrix.shape[1]:
        out[:] = np.ascontiguousarray(matrix).view(f"V{matrix.shape[1]}").ravel().tolist()
    elif len(matrix):
        out[:] = [b""] * len(matrix)
    return out


def join_rows(grid: Objects) -> bytes:
    """A grid of pieces (bytes) joined, row after row."""
    return b"".join(grid.ravel().tolist())


#: A column of :func:`join_columns`: the same piece in every row, a piece
#: per row (bytes objects), or a byte matrix with a row per row.
Column = bytes | Objects | npt.NDArray[np.uint8]


def join_columns(columns: Sequence[Column], rows: int) -> bytes:
    """Each row's pieces in column order, row after row: what
    :func:`join_rows` gives of the grid whose columns these are, without
    the grid where the kernel is built.

    >>> join_columns([b"<", np.array([b"a", b"bc"], dtype=object), np.frombuffer(b"1234", np.uint8).reshape(2, 2), b">"], 2)
    b'<a12><bc34>'
    """
    compiled = kernel.load("fivecard.files._rows")
    if compiled is not None:
        joined: bytes = compiled.join(columns, rows)
        return joined
    rows = operator.index(rows)
    if rows < 0:
        raise ValueError(f"rows: 0 or more, not {rows}")
    given = list(columns)  # any iterable, as the kernel takes it
    constants = [column for column in given if isinstance(column, bytes)]
    if len(constants) == len(given):  # the same row in every row, however many
        return b"".join(constants) * rows
    grid = np.empty((rows, len(given)), dtype=object)
    for k, column in enumerate(given):
        grid[:, k] = column if isinstance(column, bytes) else _pieces(column, k, rows)
    return join_rows(grid)


#: The buffer formats of one-byte items the kernel takes as a matrix's
#: bytes (uint8, int8, char and numpy's S1), each read as the byte it is.
_BYTE_FORMATS: Final = ("B", "b", "c", "1s")


def _pieces(column: Objects | npt.NDArray[np.uint8], k: int, rows: int) -> Objects:
    """Column ``k`` (not a constant) as a piece per row: taken and refused
    as the kernel takes and refuses it, from any object that exports a
    buffer."""
    refused = f"column {k}: bytes, an array of bytes objects or a matrix of bytes"
    try:
        view = memoryview(column)  # type: ignore[arg-type]  # numpy types no buffer of objects
    except (TypeError, ValueError, BufferError):
        raise TypeError(refused) from None
    if view.ndim == 1 and view.format == "O":
        pieces: Objects = np.asarray(view)
        if len(pieces) != rows:
            raise ValueError(f"column {k}: {len(pieces)} pieces for {rows} rows")
        return pieces
    if view.ndim != 2 or view.itemsize != 1 or view.format not in _BYTE_FORMATS:
        raise TypeError(refused)
    matrix = np.asarray(view).view(np.uint8)
    if len(matrix) != rows:
        raise ValueError(f"column {k}: {len(matrix)} rows of bytes for {rows} rows")
    if matrix.shape[1] > 1 and matrix.strides[1] != 1:
        raise ValueError(f"column {k}: each row's bytes one after another")
    return rows_of(matrix)


def all_tokens(chunk: Chunk, hands: int) -> bool:
    """Whether every row of the chunk is a text line of exactly ``hands``
    hands read as arrays (two-character cards at single spaces, nothing
    else on the line): the common shape, whose rows are laid out as byte
    matrices."""
    return (
        chunk.lines is not None
        and chunk.tokens is not None
        and not chunk.error
        and bool((chunk.count == hands).all())
        and bool((chunk.tokens[:, 0] != 0).all())
    )
