"""The README's `$ fivecard ...` sessions are run and their output compared.
(Its `>>>` examples run as doctests: see pyproject's pytest options.)"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from fivecard.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def sessions() -> list[tuple[str, str]]:
    found = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            found.append((command, "\n".join(output)))
    return found


@pytest.mark.parametrize(("command", "expected"), sessions(), ids=lambda v: v[:50])
@pytest.mark.slow
def test_readme_session(command: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(README.parent)  # sessions name files of the checkout
    argv = shlex.split(command)
    assert argv[0] == "fivecard"
    screen = io.StringIO()  # standard output and error, in the order a terminal shows them
    main(argv[1:], stdin=io.StringIO(""), stdout=screen, stderr=screen)
    assert screen.getvalue().rstrip("\n") == expected


def test_readme_has_sessions() -> None:
    assert len(sessions()) >= 5
