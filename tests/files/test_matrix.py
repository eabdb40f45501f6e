"""Rows joined from columns of pieces (fivecard.files.writers.matrix.join_columns):
by the compiled kernel (fivecard.files._rows) and by numpy and bytes.join,
the same bytes as the grid of those pieces joined row after row; what the
kernel refuses; and JSON Lines, which is written so, byte for byte alike
by both executions."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard.cli import main
from fivecard.core import kernel
from fivecard.files.writers.matrix import Column, join_columns, join_rows, rows_of


from helpers import executed_by


@st.composite
def columns(draw: st.DrawFn) -> tuple[list[Column], int]:
    """Columns of every kind for some rows: constants, pieces per row (of
    any length, empty too, views at a stride), byte matrices (of any width,
    rows at a stride)."""
    rows = draw(st.integers(0, 12))
    made: list[Column] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["constant", "pieces", "matrix"]))
        if kind == "constant":
            made.append(draw(st.binary(max_size=5)))
        elif kind == "pieces":
            step = draw(st.integers(1, 3))
            pieces = np.empty(rows * step, dtype=object)
            pieces[:] = [draw(st.binary(max_size=7)) for _ in range(rows * step)]
            made.append(pieces[::step])
        else:
            width, step = draw(st.integers(0, 6)), draw(st.integers(1, 3))
            data = draw(st.binary(min_size=rows * step * width, max_size=rows * step * width))
            made.append(np.frombuffer(data, np.uint8).reshape(rows * step, width)[::step])
    return made, rows


def grid_of(given: list[Column], rows: int) -> bytes:
    """The reference: the grid of the pieces, joined row after row."""
    grid = np.empty((rows, len(given)), dtype=object)
    for k, column in enumerate(given):
        if isinstance(column, bytes):
            for row in range(rows):
                grid[row, k] = column
        elif column.dtype == object:
            grid[:, k] = column
        else:
            for row in range(rows):
                grid[row, k] = bytes(column[row])
    return join_rows(grid)


@settings(max_examples=300, deadline=None)
@given(columns())
def test_joined_columns_are_the_grid_joined_by_both_executions(drawn: tuple[list[Column], int]) -> None:
    given_columns, rows = drawn
    want = grid_of(given_columns, rows)
    for execution in ("kernel", "numpy"):
        with executed_by(execution):
            assert join_columns(given_columns, rows) == want, execution


def test_rows_of_a_matrix_keep_every_byte() -> None:
    matrix = np.frombuffer(b"ab\x00\x00cd", np.uint8).reshape(2, 3)
    assert rows_of(matrix).tolist() == [b"ab\x00", b"\x00cd"]
    assert rows_of(np.zeros((2, 0), np.uint8)).tolist() == [b"", b""]


def test_the_kernel_is_built_where_the_others_are() -> None:
    assert (kernel.load("fivecard.files._rows") is not None) == (kernel.load("fivecard.core._kernel") is not None)


@pytest.mark.parametrize(
    ("given", "rows", "error", "message"),
    [
        ([np.array([b"a", "b"], dtype=object)], 2, TypeError, r"column 0, row 1: a piece is bytes"),
        ([np.array([b"a", None], dtype=object)], 2, TypeError, r"column 0, row 1: a piece is bytes"),
        ([b"x", np.array([b"a"], dtype=object)], 2, ValueError, r"column 1: 1 pieces for 2 rows"),
        ([np.zeros((3, 2), np.uint8)], 2, ValueError, r"column 0: 3 rows of bytes for 2 rows"),
        ([np.zeros((2, 4), np.uint8)[:, ::2]], 2, ValueError, r"column 0: each row's bytes one after another"),
        ([np.zeros((2, 2), np.int32)], 2, TypeError, r"column 0: bytes, an array"),
        ([np.zeros(2, np.float64)], 2, TypeError, r"column 0: bytes, an array"),
        (["text"], 1, TypeError, r"column 0: bytes, an array"),
        ([b"x"], -1, ValueError, r"rows: 0 or more, not -1"),
    ],
)
def test_the_kernel_refuses_what_is_not_pieces_of_rows(
    given: list[Any], rows: int, error: type[Exception], message: str
) -> None:
    compiled = kernel.load("fivecard.files._rows")
    if compiled is None:
        pytest.fail("the kernel fivecard.files._rows is not built")
    with pytest.raises(error, match=message):
        compiled.join(given, rows)


def test_the_kernel_refuses_rows_too_long_to_join() -> None:
    compiled = kernel.load("fivecard.files._rows")
    assert compiled is not None
    wide = np.zeros((1, 1 << 20), np.uint8)
    huge = np.lib.stride_tricks.as_strided(wide, shape=(1 << 42, 1 << 20), strides=(0, 1))  # 2**62 bytes, one row read
    with pytest.raises(OverflowError, match="too long to join"):
        compiled.join([huge, huge], 1 << 42)


@pytest.mark.parametrize("execution", ["kernel", "numpy"])
def test_rows_of_nothing_are_nothing_however_many(execution: str) -> None:
    # no pass over the rows where no row has a byte: 2**62 rows are at once
    with executed_by(execution):
        assert join_columns([], 1 << 62) == b""
        assert join_columns([b"", b""], 1 << 62) == b""
        with pytest.raises(ValueError, match="rows: 0 or more"):
            join_columns([b"x"], -1)


@pytest.mark.parametrize("execution", ["kernel", "numpy"])
def test_pieces_at_an_odd_byte_are_joined(execution: str) -> None:
    # a field of a packed record array: its pieces at byte 1, 10, 19 (a stride of 9)
    records = np.zeros(3, dtype=[("flag", np.uint8), ("piece", object)])
    records["piece"] = [b"a", b"bc", b""]
    pieces = records["piece"]
    assert not pieces.flags.aligned
    with executed_by(execution):
        assert join_columns([b"<", pieces, b">"], 3) == b"<a><bc><>"
        assert join_columns([pieces[::-1]], 3) == b"bca"


@pytest.mark.parametrize(
    ("given", "want"),
    [
        ([memoryview(b"abcd").cast("B", (2, 2)), b";"], b"ab;cd;"),
        ([memoryview(b"abcd").cast("c", (2, 2))], b"abcd"),
        ([np.frombuffer(b"a1b2", "S1").reshape(2, 2)], b"a1b2"),  # bytes, not numbers read from them
        ([np.frombuffer(b"\xff\x01\x80\x00", np.int8).reshape(2, 2)], b"\xff\x01\x80\x00"),
        ([np.array([b"x", b"yz"], dtype=object).data, b";"], b"x;yz;"),  # a memoryview
        ((b"<", np.array([b"x", b"yz"], dtype=object)), b"<x<yz"),
    ],
)
def test_buffers_of_pieces_are_joined_alike_by_both_executions(given: Any, want: bytes) -> None:
    for execution in ("kernel", "numpy"):
        with executed_by(execution):
            assert join_columns(given, 2) == want, execution


@pytest.mark.parametrize(
    ("given", "rows"),
    [
        ([np.array([b"a"], dtype=object)], 2),  # not the one piece in every row
        ([np.zeros((1, 2), np.uint8)], 2),
        ([np.zeros((2, 2), np.int32)], 2),  # not each number cut to a byte
        ([np.ones((2, 2), bool)], 2),
        ([np.zeros(2, np.uint8)], 2),
        ([np.zeros((2, 2, 1), np.uint8)], 2),
        ([np.array([[b"a"], [b"b"]], dtype=object)], 2),
        ([np.array(b"a", dtype=object)], 1),
        ([np.zeros((2, 2), "datetime64[s]")], 2),  # no buffer
        ([np.zeros((2, 4), np.uint8)[:, ::2]], 2),
        ([[b"a", b"b"]], 2),
        ([None], 1),
        ([bytearray(b"ab")], 2),
    ],
)
def test_both_executions_refuse_the_same_columns(given: list[Any], rows: int) -> None:
    refusals = []
    for execution in ("kernel", "numpy"):
        with executed_by(execution), pytest.raises((TypeError, ValueError)) as refused:
            join_columns(given, rows)
        refusals.append((refused.type, str(refused.value)))
    assert refusals[0] == refusals[1]


LINES = """\
# a title line, skipped
AS KS QS JS TS 2C 3C 4C 5C 7D
8C TS KC 9H 4S | 7D 2S 5D 3S AC | 2H 2D 2C KH KD

XX KS QS JS TS 2C 3C 4C 5C 7D
10h jh qh kh ah
AS KS QS JS TS vs AH KH QH JH TH
"""


@pytest.mark.parametrize("rules", ["standard", "deuces-wild", "joker"])
def test_json_lines_are_alike_by_both_executions(rules: str, tmp_path: Path) -> None:
    # plain rows (the byte matrices), rows of other shapes, errors, wild cards
    source = tmp_path / "in.txt"
    source.write_text(LINES * 200 + "AS KS QS JS TS 2C 3C 4C 5C 7D\n" * 5000, encoding="utf-8")
    outputs = {}
    for execution in ("kernel", "numpy"):
        with executed_by(execution):
            target = tmp_path / f"{execution}.jsonl"
            # exit 1: the run has error rows
            assert main(["solve", str(source), "--rules", rules, "-o", str(target)], stderr=io.StringIO()) == 1
            outputs[execution] = target.read_bytes()
    assert outputs["kernel"] == outputs["numpy"]
    assert outputs["kernel"].count(b"\n") == 200 * 5 + 5000  # the title and the blank line are no rows
