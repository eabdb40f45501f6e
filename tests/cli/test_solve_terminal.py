"""fivecard solve to a terminal: the text table fits the terminal's width;
to a file or a pipe, a row is one line, as ever."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pytest

from fivecard.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("columns", [80, 100, 120])
def test_solve_fits_the_terminals_width(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *_: os.terminal_size((columns, 24)))
    source = str(EXAMPLES / "showdowns.csv")
    out, err = Terminal(), io.StringIO()
    assert main(["solve", source], stdin=io.StringIO(), stdout=out, stderr=err) == 1
    shown = re.sub("\x1b\\[[0-9;]*m", "", out.getvalue())  # (a terminal's cards are in colour)
    assert all(len(line) <= columns for line in shown.splitlines())
    piped = io.StringIO()
    assert main(["solve", source], stdin=io.StringIO(), stdout=piped, stderr=io.StringIO()) == 1
    rows = piped.getvalue().splitlines()
    assert max(map(len, rows)) > 130 and len(rows) == 5  # the header, three rows, the summary
    assert out.getvalue() != piped.getvalue() and out.getvalue().count("error:") == 1
