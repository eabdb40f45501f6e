"""The express lane (text to CSV, vectorised) writes exactly what the general
path writes, row for row, byte for byte."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard import full_deck
from fivecard.cli import main
from fivecard.express import csv_field

CARDS = [c.code_str.upper() for c in full_deck()]


def general_csv(path: Path, rules: str, decks: int) -> str:
    """The general path: the same file through standard input, which the
    express lane never takes."""
    out, err = io.StringIO(), io.StringIO()
    main(
        ["solve", "-", "--format", "csv", "--input-format", "text", "--rules", rules, "--decks", str(decks)],
        stdin=io.StringIO(path.read_bytes().decode("utf-8-sig", "replace")),
        stdout=out,
        stderr=err,
    )
    return out.getvalue() + err.getvalue()


def express_csv_text(path: Path, tmp_path: Path, rules: str, decks: int) -> str:
    target = tmp_path / "express.csv"
    err = io.StringIO()
    main(
        ["solve", str(path), "-o", str(target), "--rules", rules, "--decks", str(decks)],
        stdin=io.StringIO(""),
        stdout=io.StringIO(),
        stderr=err,
    )
    return target.read_text(encoding="utf-8") + err.getvalue()


def mixed_file(tmp_path: Path, seed: int, rows: int = 3_000, newline: str = "\n") -> Path:
    rng = random.Random(seed)
    lines = []
    for _ in range(rows):
        cards = rng.sample(CARDS, 10)
        kind = rng.random()
        if kind < 0.80:
            line = " ".join(cards)
        elif kind < 0.85:
            line = " ".join(cards[:5]) + " | " + " ".join(cards[5:])
        elif kind < 0.88:
            line = " ".join(rng.sample(CARDS, 5))  # one hand: classified only
        elif kind < 0.91:
            shared = cards[:9] + [cards[0]]  # a card twice
            line = " ".join(shared)
        elif kind < 0.93:
            line = " ".join(cards).replace(cards[3], "1S", 1)
        elif kind < 0.95:
            line = "# a comment" if rng.random() < 0.5 else ""
        elif kind < 0.97:
            line = " ".join(c.lower() for c in cards)
        elif kind < 0.98:
            line = " ".join(cards).replace(cards[2][0], "10" if cards[2][0] == "T" else cards[2][0], 1)
        else:
            line = " ".join(cards[:9]) + " JK"
        lines.append(line)
    path = tmp_path / f"mixed{seed}.txt"
    body = newline.join(lines) + newline
    path.write_bytes((b"\xef\xbb\xbf" if seed % 2 else b"") + body.encode("utf-8"))
    return path


@pytest.mark.parametrize(
    ("seed", "rules", "decks", "newline"),
    [
        (1, "standard", 1, "\n"),
        (2, "standard", 2, "\r\n"),
        (3, "joker", 1, "\n"),
        (4, "semi", 1, "\n"),
        (5, "ace-king", 1, "\r\n"),
    ],
)
def test_express_equals_general(tmp_path: Path, seed: int, rules: str, decks: int, newline: str) -> None:
    path = mixed_file(tmp_path, seed, newline=newline)
    assert express_csv_text(path, tmp_path, rules, decks) == general_csv(path, rules, decks)


def test_express_on_a_large_clean_file(tmp_path: Path) -> None:
    """Several read chunks (1 MiB each) of Project Euler lines, no CRLF."""
    rng = random.Random(54)
    path = tmp_path / "euler.txt"
    path.write_text("".join(" ".join(rng.sample(CARDS, 10)) + "\n" for _ in range(80_000)))
    assert express_csv_text(path, tmp_path, "standard", 1) == general_csv(path, "standard", 1)


def test_a_file_without_a_final_newline(tmp_path: Path) -> None:
    path = tmp_path / "last.txt"
    path.write_text("AS KS QS JS TS 2C 3C 4C 5C 7D\n8C TS KC 9H 4S 7D 2S 5D 3S AC")
    assert express_csv_text(path, tmp_path, "standard", 1) == general_csv(path, "standard", 1)


def test_csv_field() -> None:
    assert csv_field('say "hi", x') == '"say ""hi"", x"'
    assert csv_field("1,2") == '"1,2"'


@pytest.mark.parametrize(
    "head",
    [
        "AS KS QS JS TS\n",  # the first rows hold one hand: the header has one hand a row
        "AS KS QS JS TS | 2C 3C 4C 5C 7D | 8H 8D 9S 9C KH\n",  # three hands
        "AS " * 100_000 + "\n",  # one absurd row: 20,000 hands (the header stops at 10)
    ],
)
def test_lines_after_other_layouts_are_never_lost(tmp_path: Path, head: str) -> None:
    path = tmp_path / "layouts.txt"
    path.write_text(head + "8C TS KC 9H 4S 7D 2S 5D 3S AC\n" * 3)
    express = express_csv_text(path, tmp_path, "standard", 1)
    assert express == general_csv(path, "standard", 1)
    assert express.count("\n4,") == 1 and "4 rows:" in express


LINE_PARTS = [
    "8C TS KC 9H 4S 7D 2S 5D 3S AC",  # a clean Project Euler line
    "8c ts kc 9h 4s 7d 2s 5d 3s ac",
    "8C TS KC 9H 4S 7D 2S 5D 3S 8C",  # a card twice
    "8C TS KC 9H 4S 7D 2S 5D 3S A♣",
    "8C TS KC 9H 4S 7D 2S 5D 3S AX",  # 29 characters, a bad suit
    "8C TS KC 9H 4S 7D 2S 5D 3S  A",
    "8C TS KC 9H 4S|7D 2S 5D 3S AC",  # 29 characters, a separator
    "JK TS KC 9H 4S 7D 2S 5D 3S AC",
    "AS KS QS JS TS",
    "# comment",
    "",
    "   ",
    "8C TS KC 9H 4S 7D 2S 5D 3S AC ",
    "x" * 29,
    "é" * 29,
]


@settings(max_examples=40)
@given(
    st.lists(st.sampled_from(LINE_PARTS), min_size=1, max_size=30),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from(["standard", "joker", "semi"]),
    st.booleans(),
)
def test_express_equals_general_on_random_files(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], newline: str, rules: str, final: bool
) -> None:
    tmp_path = tmp_path_factory.mktemp("fuzz")
    path = tmp_path / "fuzz.txt"
    path.write_bytes((newline.join(lines) + (newline if final else "")).encode("utf-8"))
    assert express_csv_text(path, tmp_path, rules, 1) == general_csv(path, rules, 1)
