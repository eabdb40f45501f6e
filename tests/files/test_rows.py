"""No table gives a wrong winner: whatever a table's layout (titles, a header
naming players or none, label columns anywhere, cells empty anywhere, a
hand's column empty in its first 60-odd rows, single cards where a hand
belongs, hands written with any separator), as CSV or as a workbook, every
row ``fivecard solve`` settles is settled right, by the hands the table
really holds (checked with the independent reference evaluator of
tests/oracle.py); every other row is an error row, or the run stops with an
error. A table written plainly is solved in full."""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivecard.cli import main

import oracle
from strategies import DECK_CODES, ShowdownTable, showdown_tables, table_bytes

#: Rank and suit of each card of DECK_CODES, as the reference evaluator reads it.
RANKS, SUITS = oracle.cards(DECK_CODES)


def solve(table: ShowdownTable, fmt: str) -> tuple[int, list[dict[str, object]], str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"table.{fmt}"
        path.write_bytes(table_bytes(table, fmt))
        out, err = io.StringIO(), io.StringIO()
        code = main(["solve", str(path), "--json"], stdin=io.StringIO(), stdout=out, stderr=err)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def winners(hands: tuple[tuple[int, ...], ...]) -> list[int]:
    """The winning hands' numbers (1-based), by the reference evaluator."""
    indices = np.array(hands, dtype=np.intp)
    keys = oracle.keys(oracle.RULES["standard"], RANKS[indices], SUITS[indices])
    return [i + 1 for i in np.flatnonzero(keys == keys.max()).tolist()]


def check(table: ShowdownTable, code: int, rows: list[dict[str, object]], err: str) -> None:
    assert code in (0, 1, 2) and "Traceback" not in err
    if code == 2:  # the run stopped with an error: one line that says why
        assert [line for line in err.splitlines() if line.startswith("fivecard: error: ")]
    truth = dict(zip(table.lines, table.truth))
    for row in rows:
        if "error" in row:
            continue
        line = row["line"]
        assert isinstance(line, int) and line in truth, f"line {line} is no data row: {row}"
        hands = truth[line]
        assert hands is not None, f"line {line} has no right answer, yet it was settled: {row}"
        read = row["hands"]
        assert isinstance(read, list)
        found = [sorted(h["cards"]) for h in read]
        assert found == [sorted(DECK_CODES[c] for c in hand) for hand in hands], f"line {line}: other hands read"
        assert row["winners"] == (winners(hands) if len(hands) > 1 else None), f"line {line}: a wrong winner"


SETTINGS = settings(
    max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


@SETTINGS
@given(showdown_tables(), st.sampled_from(("csv", "xlsx")))
@pytest.mark.slow
def test_no_table_layout_gives_a_wrong_winner(table: ShowdownTable, fmt: str) -> None:
    code, rows, err = solve(table, fmt)
    check(table, code, rows, err)
    if table.clean:  # hands written plainly under named headers: every row solved
        assert code == 0, err
        assert [row["line"] for row in rows] == list(table.lines)
