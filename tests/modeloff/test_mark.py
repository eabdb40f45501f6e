"""fivecard mark: a spreadsheet's answers (each hand's classification and the
winner) marked against fivecard's own settlement, as the ModelOff 2012
marking macro marks them."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivecard.modeloff.mark import (
    DRAW_WORDS,
    AnswerColumnsError,
    MarkJson,
    mark_file,
    modeloff_mark,
    open_marking,
    read_classification,
    read_winner,
    report_marking,
    round_half_away,
)
from fivecard.cli import main
from fivecard.core.cards import full_deck
from fivecard.core.rules import STANDARD
from fivecard.core.errors import FivecardError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("make_answered", ROOT / "scripts" / "make_answered.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _script()


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write_csv(path: Path, rows: list[list[Any]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    return path


def truth(one: str, two: str) -> tuple[str, str, str]:
    """The right answers for a standard showdown, by the reference evaluator
    (tests/oracle.py, not fivecard): both labels and the winner (1, 2 or draw)."""
    standard = oracle.RULES["standard"]
    first, second = oracle.keys(standard, *oracle.hands([one, two])).tolist()
    label = [oracle.LABELS[name] for name in oracle.category_names(standard, np.array([first, second]))]
    winner = "draw" if first == second else "1" if first > second else "2"
    return label[0], label[1], winner


# --- the bundled example -------------------------------------------------------------


def test_the_example_workbook_is_marked_exactly() -> None:
    marking = mark_file(str(EXAMPLES / "answered.xlsx"))
    assert (marking.correct, marking.total, marking.wrong) == (8, 10, [7, 10])
    assert marking.mark == 20.0  # 8 of 10 is 20 of 25
    assert marking.summary() == "Outcomes right: 8/10; ModelOff mark: 20/30"
    by_line = {r.line: r for r in marking.rows}
    assert by_line[7].wrong_cells == (2,) and "said '2', right: player 1" in by_line[7].differences[0]
    assert by_line[10].wrong_cells == (0,) and "right: Two Pair (score 3)" in by_line[10].differences[0]
    # the losing hand's classification is wrong: reported, but the outcome counts
    assert by_line[11].correct and by_line[11].wrong_cells == (1,)
    assert [r.line for r in marking.rows if r.differs] == [7, 10, 11]
    # formulas are read by their stored values
    assert by_line[3].cells[2] == "1" and by_line[12].cells[1] == "Four of a Kind"
    assert by_line[12].correct and by_line[3].correct


def test_the_example_csv_is_marked_exactly() -> None:
    marking = mark_file(str(EXAMPLES / "answered.csv"))
    assert (marking.correct, marking.total, marking.wrong, marking.mark) == (8, 10, [6, 9], 20.0)


def test_the_example_files_come_from_their_script(tmp_path: Path) -> None:
    MAKE.main(str(tmp_path))
    assert (tmp_path / "answered.csv").read_text() == (EXAMPLES / "answered.csv").read_text()
    made = openpyxl.load_workbook(tmp_path / "answered.xlsx")["Answers"]
    kept = openpyxl.load_workbook(EXAMPLES / "answered.xlsx")["Answers"]
    assert list(made.values) == list(kept.values)


# --- a 25-outcome grid with planted wrong answers --------------------------------------


def grid(seed: int = 7, size: int = 25) -> list[list[Any]]:
    """Showdowns of random deals, answered right: names, scores and several
    spellings."""
    deck = [c.code_str for c in full_deck()]
    rng = random.Random(seed)
    rows: list[list[Any]] = []
    for test in range(1, size + 1):
        cards = rng.sample(deck, 10)
        one, two = " ".join(cards[:5]), " ".join(cards[5:])
        c1, c2, winner = truth(one, two)
        if test % 3 == 0:  # scores instead of names
            c1, c2 = str(STANDARD.scores[read_classification(c1, STANDARD).name]), c2.upper()
        if test % 4 == 0:
            winner = {"1": "Player 1", "2": "P2", "draw": "Tie"}[winner]
        rows.append([test, one, two, c1, c2, winner])
    return rows


def test_a_grid_of_25_with_planted_wrong_answers(tmp_path: Path) -> None:
    rows = grid()
    # plant: a wrong winner (row 2), the winner's classification wrong (row 5), an
    # unreadable classification (row 9); the loser's class wrong, outcome kept (row 12)
    planted = {}
    for test in (2, 5, 9, 12):
        one, two = rows[test - 1][1], rows[test - 1][2]
        _, _, winner = truth(one, two)
        planted[test] = winner
    assert planted[2] != "draw"
    rows[1][5] = "1" if planted[2] == "2" else "2"
    strong = 3 if planted[5] in ("1", "draw") else 4
    rows[4][strong] = "Royal Flush"
    rows[8][4 if planted[9] == "2" else 3] = "Flusj"  # the strongest hand's
    assert planted[12] != "draw"
    rows[11][3 if planted[12] == "2" else 4] = "Royal Flush"
    header = ["Test", "Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"]
    path = write_csv(tmp_path / "grid.csv", [header, *rows])
    marking = mark_file(str(path))
    lines = {test: test + 1 for test in range(1, 26)}  # the header is line 1
    assert marking.wrong == [lines[2], lines[5], lines[9]]
    assert (marking.correct, marking.total, marking.mark) == (22, 25, 24.0)
    row12 = next(r for r in marking.rows if r.line == lines[12])
    assert row12.correct and row12.differs
    row9 = next(r for r in marking.rows if r.line == lines[9])
    assert "could not read 'Flusj' as a classification" in row9.differences[0]
    code, out, _ = run(["mark", str(path)])
    assert code == 0
    assert out.rstrip().splitlines()[-1] == "Outcomes right: 22/25; ModelOff mark: 24/30"
    assert f"line {lines[2]}: wrong outcome" in out and f"line {lines[12]}: right outcome, other differences" in out
    assert "why: hand 1 (" in out


def test_the_same_grid_as_a_workbook_with_one_card_per_cell(tmp_path: Path) -> None:
    rows = grid(seed=11)
    rows[3][5] = "draw" if rows[3][5] != "draw" else "1"
    header = [f"P{p} card {c}" for p in (1, 2) for c in range(1, 6)] + ["P1 Class", "P2 Class", "Result"]
    cells = [[*r[1].split(), *r[2].split(), r[3], r[4], r[5]] for r in rows]
    for row in cells[:5]:
        row[10] = int(row[10]) if row[10].isdecimal() else row[10]  # a score as a number cell
    path = tmp_path / "cards.xlsx"
    MAKE.write_workbook(path, "My poker model", header, cells)
    marking = mark_file(str(path))
    assert marking.answer_columns == (10, 11, 12)
    assert (marking.correct, marking.total, marking.wrong) == (24, 25, [6])  # title, header, then data
    assert marking.mark == 28.0


# --- reading answers -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Pair", "One Pair"), ("one pair", "One Pair"), ("ONE_PAIR", "One Pair"), ("2", "One Pair"),
        ("High Card", "High Card"), ("nothing", "High Card"), ("1", "High Card"),
        ("Royal Flush", "Royal Flush"), ("10", "Royal Flush"), ("royal", "Royal Flush"),
        ("Straight Flush", "Straight Flush"), ("9", "Straight Flush"),
        ("Four of a Kind", "Four of a Kind"), ("Quads", "Four of a Kind"), ("4 of a kind", "Four of a Kind"),
        ("full house", "Full House"), ("7", "Full House"), ("7 - Full House", "Full House"),
        ("Flush", "Flush"), (" flush ", "Flush"), ("Straight", "Straight"), ("5", "Straight"),
        ("Three of a Kind", "Three of a Kind"), ("Trips", "Three of a Kind"),
        ("Two Pair", "Two Pair"), ("two pairs", "Two Pair"), ("3", "Two Pair"),
    ],
)
def test_classifications_by_name_alias_or_score(text: str, label: str) -> None:
    assert read_classification(text, STANDARD).label == label


@pytest.mark.parametrize("text", ["Flusj", "11", "0", "6 Full House", "", "Five of a Kind", "1.0", "07", "+7", "-2 pair"])
def test_unreadable_classifications(text: str) -> None:
    with pytest.raises(FivecardError, match="could not read .* as a classification"):
        read_classification(text, STANDARD)


@pytest.mark.parametrize("text", [*DRAW_WORDS, "Draw", "DRAW", "Tie", "Dead Heat", "dead-heat", "1,2", "1 and 2", "Split pot"])
def test_draw_spellings(text: str) -> None:
    assert read_winner(text) is None


@pytest.mark.parametrize(
    ("text", "player"),
    [("1", 0), ("2", 1), ("Player 1", 0), ("player2", 1), ("P2", 1), ("p 1", 0),
     ("Hand 2", 1), ("Player 1 wins", 0), ("Alice", 0), ("BOB", 1), ("bob wins", 1)],
)
def test_winners_by_number_or_name(text: str, player: int) -> None:
    assert read_winner(text, ["Alice", "Bob"]) == player


@pytest.mark.parametrize("text", ["3", "Player 3", "Charlie", "maybe", "1,3"])
def test_unreadable_winners(text: str) -> None:
    with pytest.raises(FivecardError, match="could not read .* as a winner"):
        read_winner(text, ["Alice", "Bob"])


# --- answers read strictly --------------------------------------------------------------

#: How a sheet names player n: these are read as player n.
PLAYER_FORMS = (
    "{n}", "Player {n}", "player{n}", "PLAYER {n}", "P{n}", "p {n}", "Player_{n}", "Player #{n}",
    "Player-{n}", "Hand {n}", "h{n}", "Plyr {n}", "Player {n} wins", "{n} wins", "P{n} won", "  Player   {n}  ",
)  # fmt: skip
#: A number written otherwise than as digits alone: a sign, a decimal point,
#: an exponent, a leading zero, digits of another script (full-width,
#: Arabic-Indic, Devanagari, superscript) or a minus sign.
LOOSE_NUMBERS = (
    "-{d}", "+{d}", "{d}.0", "{d}.", "{d}.00", "0{d}", "00{d}", "{d}e0", "{d}E+0", "{d},0", "\u2212{d}",
)  # fmt: skip
OTHER_DIGITS = {"1": ("１", "١", "१", "¹"), "2": ("２", "٢", "२", "²")}


def _loose_spellings(n: int) -> list[str]:
    """Every player form with the number written loosely: none is a player.
    (A hyphen right after a letter is a separator, ``P-2``, so a sign goes
    only where a number starts a word.)"""
    spellings = []
    for form in PLAYER_FORMS:
        before = form.split("{n}")[0]
        for loose in LOOSE_NUMBERS:
            if loose[0] in "-+" and before[-1:].isalpha():
                continue
            spellings.append(form.format(n=loose.format(d=n)))
        spellings += [form.format(n=other) for other in OTHER_DIGITS[str(n)]]
    return spellings


@pytest.mark.parametrize("n", [1, 2])
def test_every_players_form_is_read_as_that_player(n: int) -> None:
    for form in PLAYER_FORMS:
        assert read_winner(form.format(n=n), ["Alice", "Bob"]) == n - 1, form


@pytest.mark.parametrize("n", [1, 2])
def test_a_number_written_loosely_is_no_player_and_no_draw(n: int) -> None:
    for text in _loose_spellings(n):
        with pytest.raises(FivecardError, match="could not read .* as a winner"):
            read_winner(text, ["Alice", "Bob"])


@pytest.mark.parametrize("text", ["-2", "2.0", "+2", "02", "2e0", "２", "Player -2", "P 2.0", "-0", "0.0", "00"])
def test_loose_numbers_say_how_a_number_is_written(text: str) -> None:
    with pytest.raises(FivecardError, match=r"as digits alone: no sign, decimal point or leading zero"):
        read_winner(text)


def test_names_of_hand_columns_that_are_numbers_are_matched_as_written() -> None:
    assert read_winner("2", ["1", "2"]) == 1
    for text in ("-2", "2.0", "+2", "(2)"):
        with pytest.raises(FivecardError):
            read_winner(text, ["1", "2"])
    assert read_winner("player-2", ["Player 1", "Player 2"]) == 1  # the number form, not a loose name
    assert read_winner("BOB!", ["Alice", "Bob"]) == 1  # a name's letters, punctuation aside


@pytest.mark.parametrize("score", range(1, 11))
def test_a_score_written_loosely_is_no_classification(score: int) -> None:
    assert read_classification(str(score), STANDARD) == STANDARD.ladder[score - 1]
    d = str(score)
    for text in [loose.format(d=d) for loose in LOOSE_NUMBERS] + ["１０" if score == 10 else chr(0xFF10 + score)]:
        with pytest.raises(FivecardError, match="could not read .* as a classification"):
            read_classification(text, STANDARD)


#: Pieces of answers: the words of player forms and draws, digits of several
#: scripts, signs, points, exponents and separators.
_PIECES = st.sampled_from([
    "player", "Player", "p", "P", "hand", "plyr", "wins", "won", "both", "and", "draw", "tie", "none",
    "dead heat", "Alice", "bob", " ", "  ", "_", "#", "-", "+", ".", ",", "&", "e", "E", "0", "1", "2",
    "3", "12", "０", "１", "２", "٢", "²", "\u2212", "\u00a0",
])  # fmt: skip
_ANSWERS = st.one_of(st.lists(_PIECES, max_size=6).map("".join), st.text(max_size=12))


def _digit_runs(text: str) -> list[str]:
    return re.findall(r"\d+", text)  # digits of any script


def _plainly_written(text: str) -> bool:
    """Every number of the text is ASCII digits alone: no leading zero, no
    sign before it (a hyphen after a letter is a separator), no decimal
    point or exponent after it."""
    for match in re.finditer(r"\d+", text):
        run, start, end = match.group(), match.start(), match.end()
        if not run.isascii() or (run.startswith("0") and len(run) > 1):
            return False
        before, after = text[start - 1 : start], text[end : end + 2]
        if before in ("+", "\u2212", ".") or (before == "-" and not text[start - 2 : start - 1].isalpha()):
            return False
        if re.match(r"[.][0-9]|[eE][0-9+\-]", after):
            return False
    return True


@given(_ANSWERS)
@settings(max_examples=400)
def test_whatever_the_spelling_a_credited_answer_is_its_number_as_written(text: str) -> None:
    """A property over answer spellings: an answer is credited as player n
    only if it holds n plainly written and no other number; as a draw only
    if it holds no number but 0, or every player's; anything else is
    unreadable (a FivecardError, never another exception)."""
    try:
        winner = read_winner(text, ["Alice", "Bob"])
    except FivecardError:
        return
    runs = _digit_runs(text)
    assert _plainly_written(text), text
    if winner is None:
        assert runs in ([], ["0"]) or sorted(runs) == ["1", "2"], text
    else:
        assert runs in ([], [str(winner + 1)]), text
        if not runs:
            letters = re.sub(r"[^a-z]", "", text.casefold().replace("wins", "").replace("won", ""))
            assert letters in ("alice", "bob"), text


@given(_ANSWERS)
@settings(max_examples=400)
def test_whatever_the_spelling_a_credited_score_is_its_number_as_written(text: str) -> None:
    try:
        category = read_classification(text, STANDARD)
    except FivecardError:
        return
    runs = _digit_runs(text)
    assert _plainly_written(text), text
    assert len(runs) <= 1, text
    if runs and text.strip() == runs[0]:
        assert STANDARD.score(category) == int(runs[0])


def test_loose_winners_in_a_file_are_wrong_and_say_why(tmp_path: Path) -> None:
    """Hand 2 wins every row; only the plain answers are credited."""
    answers = ["2", "Player 2", "-2", "2.0", "+2", "02", "2e0", "２"]
    rows: list[list[Any]] = [["Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"]]
    rows += [["KS KH 7D 4C 2D", "AS AH 7C 4D 2S", "Pair", "Pair", a] for a in answers]
    marking = mark_file(str(write_csv(tmp_path / "loose.csv", rows)))
    assert marking.wrong == [4, 5, 6, 7, 8, 9]
    assert (marking.correct, marking.total) == (2, 8)
    for row in marking.rows[2:]:
        assert row.given is not None and row.given.winner is None  # not read: never credited as 2
        assert row.differences[0].startswith(f"the winner: could not read {row.cells[2]!r} as a winner")


def test_draw_spelled_several_ways_in_a_file(tmp_path: Path) -> None:
    draw = ["10D 10H 4H 4C 3S", "10S 10C 4S 4D 3H"]
    spellings = ["draw", "Draw", "tie", "Dead heat", "split", "push", "0", "none", "1,2", "Player 1"]
    rows = [["Player 1", "Player 2", "Class 1", "Class 2", "Winner"]]
    rows += [[*draw, "Two Pair", "two pair", s] for s in spellings]
    marking = mark_file(str(write_csv(tmp_path / "draws.csv", rows)))
    assert marking.wrong == [11]  # "Player 1" is not a draw
    assert (marking.correct, marking.total) == (9, 10)
    # a draw needs both hands' classifications right: both are the strongest
    rows = [rows[0], [*draw, "Two Pair", "One Pair", "draw"], [*draw, "One Pair", "Two Pair", "tie"]]
    marking = mark_file(str(write_csv(tmp_path / "draws2.csv", rows)))
    assert marking.wrong == [2, 3]


def test_the_winner_by_a_players_name(tmp_path: Path) -> None:
    rows: list[list[Any]] = [
        ["Round", "Alice", "Bob", "Alice classification", "Bob classification", "Winning player"],
        [1, "AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "Alice"],
        [2, "AS AH 7C 4D 2S", "KS KH KD 4C 2D", "Pair", "Trips", "bob wins"],
        [3, "AS AH 7C 4D 2S", "KS KH KD 4C 2D", "Pair", "Trips", "Alice"],
    ]
    marking = mark_file(str(write_csv(tmp_path / "names.csv", rows)))
    assert marking.answer_columns == (3, 4, 5)
    assert marking.wrong == [4]
    assert "the winner: said 'Alice', right: player 2" in marking.rows[2].differences


def test_unreadable_answers_count_as_wrong_and_never_stop_the_run(tmp_path: Path) -> None:
    rows = [
        ["Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"],
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "Charlie"],
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Flusj", "Pair", "1"],
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pear", "1"],
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "", "Pair", "1"],
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "1"],
    ]
    marking = mark_file(str(write_csv(tmp_path / "bad.csv", rows)))
    assert marking.wrong == [2, 3, 5]
    assert marking.correct == 2  # line 4: only the losing hand's answer is unreadable
    differences = {r.line: r.differences for r in marking.rows}
    assert differences[2] == ("the winner: could not read 'Charlie' as a winner (a player's number from 1 to "
                              "2, a player's name, or a draw: 'draw', 'drawn', 'tie', 'tied' ...)",)
    assert "could not read 'Flusj' as a classification" in differences[3][0]
    assert "could not read 'Pear'" in differences[4][0]
    assert differences[5] == ("hand 1's classification: no answer",)


def test_bad_rows_keep_their_line_numbers_and_cost_no_other_row(tmp_path: Path) -> None:
    rows = [
        ["Marking grid"],
        [],
        ["Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"],
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "1"],
        ["AS AH 7C 4D 2S", "AS KH 7D 4C 2D", "Pair", "High Card", "1"],  # a duplicate card
        ["1S AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "1"],  # a bad rank
        ["AS AH 7C 4D 2S", "", "Pair", "Pair", "1"],  # an empty hand
        ["fold", "fold", "", "", ""],
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "2"],
    ]
    path = write_csv(tmp_path / "rows.csv", rows)
    marking = mark_file(str(path))
    assert [r.line for r in marking.errors] == [5, 6, 7, 8]
    assert "hands 1 and 2" in str(marking.errors[0].error) and "'1S'" in str(marking.errors[1].error)
    assert (marking.correct, marking.total, marking.wrong) == (1, 2, [9])
    code, out, _ = run(["mark", str(path)])
    assert code == 1
    assert "line 5: error: card A♠ is in hands 1 and 2" in out
    assert out.rstrip().splitlines()[-3:] == [
        "Outcomes right: 1/2; ModelOff mark: 12.5/30",
        "(2 outcomes, scaled to 25 for the mark: 1 x 25 / 2 = 12.5 right)",
        "(4 rows with errors, not marked)",
    ]
    data = json.loads(run(["mark", "--json", str(path)])[1])
    assert [e["line"] for e in data["errors"]] == [5, 6, 7, 8] and data["wrong"] == [9]


# --- the answer columns ----------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        ["Player 1 classification", "Player 2 classification", "Winner"],
        ["Classification 1", "Classification 2", "Result"],
        ["P1 Class", "P2 Class", "Winning player"],
        ["Hand 1 score", "Score 2", "Outcome"],
        ["player_1_category", "PLAYER-2 CATEGORY", "winner?"],
        ["Step 2: hand 1 category", "Step 2: hand 2 category", "Step 3: winner"],
    ],
)
def test_answer_columns_found_by_their_headers(header: list[str], tmp_path: Path) -> None:
    rows: list[list[Any]] = [["Round", "Player 1", "Player 2", *header], [1, "AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "2", "2", "1"]]
    marking = mark_file(str(write_csv(tmp_path / "h.csv", rows)))
    assert marking.answer_columns == (3, 4, 5) and marking.correct == 1


def test_answer_columns_named_explicitly(tmp_path: Path) -> None:
    rows: list[list[Any]] = [
        ["Round", "Player 1", "Player 2", "Notes", "A1", "A2", "W"],
        [1, "AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "easy", "Pair", "Pair", "2"],
        [2, "AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "easy", "Pair", "Pair", "1"],
    ]
    path = write_csv(tmp_path / "named.csv", rows)
    unreadable = write_csv(tmp_path / "unreadable.csv", [row[:4] + ["?", "?", "?"] for row in rows])
    code, out, err = run(["mark", str(unreadable)])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no column for player 1's classification and player 2's classification and the winner" in err
    assert "'Player 1 classification'" in err and "'Winner'" in err and "(use --answers E,F,G)" in err
    assert mark_file(str(path)).answer_columns == (4, 5, 6)  # by their cells, without naming them
    for spec in ("E,F,G", "5,6,7", "A1,A2,W", "a1, a2, w"):
        marking = mark_file(str(path), answers=spec)
        assert marking.answer_columns == (4, 5, 6) and marking.wrong == [2], spec
    code, out, _ = run(["mark", "--answers", "E,F,G", str(path)])
    assert code == 0 and "Outcomes right: 1/2" in out
    with pytest.raises(AnswerColumnsError, match="names 2 answer columns; name 3"):
        mark_file(str(path), answers="E,F")
    with pytest.raises(AnswerColumnsError, match="holds hands"):
        mark_file(str(path), answers="B,F,G")
    with pytest.raises(AnswerColumnsError, match="unknown answer column 'Nope'"):
        mark_file(str(path), answers="Nope,F,G")


def write_table(path: Path, header: list[str] | None, rows: list[list[Any]]) -> Path:
    """A table as CSV or as a workbook's one sheet (by the name), with a header row or none."""
    if path.suffix == ".csv":
        return write_csv(path, ([header] if header is not None else []) + rows)
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in ([header] if header is not None else []) + rows:
        sheet.append(row)
    book.save(path)
    return path


def planted_grid() -> list[list[Any]]:
    """The 25-showdown grid with wrong answers planted: a wrong winner, the
    winner's classification wrong, the loser's classification wrong."""
    rows = grid(seed=5)
    for test, column in ((3, 5), (8, 3), (8, 4), (14, 4)):
        row = rows[test - 1]
        if column == 5:
            row[5] = "2" if truth(row[1], row[2])[2] == "1" else "1"
        else:
            row[column] = "Royal Flush"
    return rows


#: Headers over the grid's columns (test, hand 1, hand 2, then the three
#: answers): the usual ones; ones that name the hand but not the answer;
#: none that mean anything; misleading ones (a winner's header over a
#: classification, a classification's over the winner); a partial one; none.
HEADER_VARIANTS: dict[str, list[str] | None] = {
    "usual": ["Test", "Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"],
    "hand names": ["Test", "Player 1", "Player 2", "Player 1 hand", "Player 2 hand", "Winner"],
    "no answer words": ["Test", "Player 1", "Player 2", "Answer A", "Answer B", "Answer C"],
    "misleading": ["Test", "Player 1", "Player 2", "Winner", "Result", "Score 1"],
    "partial": ["Test", "Hand 1", "Hand 2", "P1 Class", "", "Who"],
    "no header": None,
}


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_answer_columns_found_by_their_cells_whatever_their_headers(suffix: str, tmp_path: Path) -> None:
    rows = planted_grid()
    marked = {}
    for name, header in HEADER_VARIANTS.items():
        path = write_table(tmp_path / f"{name.replace(' ', '-')}{suffix}", header, rows)
        marking = mark_file(str(path))
        first = 2 if header is not None else 1  # the first data row's line
        assert marking.answer_columns == (3, 4, 5), name
        marked[name] = (
            marking.correct, marking.total, marking.mark, [line - first + 1 for line in marking.wrong],
            [(r.line - first, r.verdict()) for r in marking.rows],
        )
        code, out, err = run(["mark", str(path)])
        assert code == 0 and out.endswith("Outcomes right: 23/25; ModelOff mark: 26/30\n"), name
        if name != "usual":
            assert "; found by their cells: " in err, (name, err)
        else:
            assert "cells" not in err
    assert marked["usual"][:4] == (23, 25, 26.0, [3, 8])
    assert all(found == marked["usual"] for found in marked.values())


def test_the_winner_by_the_players_names_found_by_its_cells(tmp_path: Path) -> None:
    one, two = "AS AH 7C 4D 2S", "KS KH 7D 4C 2D"
    rows = [[one, two, "Pair", "Pair", "Alice"], [two, one, "Pair", "Pair", "Bob"], ["TD TH 4H 4C 3S", "TS TC 4S 4D 3H", "2 pair", "2 pair", "split"]]
    for suffix in (".csv", ".xlsx"):
        path = write_table(tmp_path / f"names{suffix}", ["Alice", "Bob", "First", "Second", "Third"], rows)
        marking = mark_file(str(path))
        assert marking.answer_columns == (2, 3, 4) and (marking.correct, marking.total) == (3, 3)


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_classifications_by_scores_alone_are_found_by_their_cells(suffix: str, tmp_path: Path) -> None:
    rows = []
    for test, row in enumerate(grid(seed=3, size=10), 1):  # the tests' numbers, 1 to 10, are scores too
        one, two, winner = truth(row[1], row[2])
        scores = [STANDARD.scores[read_classification(label, STANDARD).name] for label in (one, two)]
        rows.append([test, row[1], row[2], *scores, winner])
    rows[4][2] = rows[4][1]  # an error row: the numbers read skip it (4, 6), and still rise
    path = write_table(tmp_path / f"scores{suffix}", None, rows)
    marking = mark_file(str(path))
    assert marking.answer_columns == (3, 4, 5)
    assert (marking.correct, marking.total, len(marking.errors)) == (9, 9, 1)


def test_a_header_stands_where_the_cells_say_nothing_else(tmp_path: Path) -> None:
    one, two = "AS AH 7C 4D 2S", "KS KH 7D 4C 2D"
    # swapped classifications: the headers decide, and the cells (both categories) agree on their kind
    swapped = ["Test", "Player 1", "Player 2", "Classification 2", "Classification 1", "Winner"]
    path = write_csv(tmp_path / "swapped.csv", [swapped, [1, one, "2H 2D 5S 5C 9H", "Two Pair", "One Pair", "2"]])
    marking = mark_file(str(path))
    assert marking.answer_columns == (4, 3, 5) and marking.correct == 1
    # a winner column answered with categories: the cells cannot say which column is the winner's
    categories = ["Test", "Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"]
    path = write_csv(tmp_path / "categories.csv", [categories, [1, one, two, "Pair", "Pair", "One Pair"]])
    marking = mark_file(str(path))
    assert marking.answer_columns == (3, 4, 5) and marking.wrong == [2]
    assert "could not read 'One Pair' as a winner" in marking.rows[0].differences[0]
    # unreadable answers under the usual headers are still the answers
    path = write_csv(tmp_path / "typos.csv", [categories, [1, one, two, "Pairr", "Pairr", "who?"]])
    assert mark_file(str(path)).answer_columns == (3, 4, 5)


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_column_of_hands_is_never_an_answer_column(suffix: str, tmp_path: Path) -> None:
    one, two, third = "AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "QS QH 7H 4H 2H"
    rows = [[one, two, third, "Pair", "Pair", "1"], [two, one, third, "Pair", "Pair", "2"]]
    for header in (None, ["Player 1", "Player 2", "Winner", "Answer 1", "Answer 2", "Answer 3"]):
        path = write_table(tmp_path / f"three{suffix}", header, rows)
        marking = mark_file(str(path), hands="A,B")
        assert marking.answer_columns == (3, 4, 5) and marking.correct == 2, header
    # with no answer cells, a column of hands under an answer's header is still not taken
    path = write_table(tmp_path / f"none{suffix}", ["Player 1", "Player 2", "Winner"], [row[:3] for row in rows])
    with pytest.raises(AnswerColumnsError, match="no column for player 1's classification"):
        mark_file(str(path), hands="A,B")


def test_more_columns_of_answers_than_answers_is_an_error_that_names_them(tmp_path: Path) -> None:
    one, two = "AS AH 7C 4D 2S", "KS KH 7D 4C 2D"
    path = write_csv(tmp_path / "four.csv", [[one, two, "Pair", "Pair", "Flush", "1"], [two, one, "Pair", "Pair", "Flush", "2"]])
    code, out, err = run(["mark", str(path)])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "the cells of C, D, E, F could each be answers, for 3 answer columns that no header names" in err
    assert "(use --answers D,E,F)" in err
    assert mark_file(str(path), answers="C,D,F").correct == 2


def test_a_grid_answer_sheet_is_found_without_naming_its_columns(tmp_path: Path) -> None:
    """The shape of `fivecard grid -o grid.xlsx`'s sheet "Answers"."""
    header = ["Test", "Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner", "Why"]
    rows = []
    for test, (one, two) in enumerate(
        [("AD KD QD JD TD", "AS KS QS JS TS"), ("AH 2H 3S 4H 5C", "2C 3D 4S 5S 6H"), ("9C 9S 9D 9H JH", "7S 7H 7D 7C AS")], 1
    ):
        c1, c2, winner = truth(one, two)
        rows.append([test, one, two, c1, c2, int(winner) if winner != "draw" else winner, "why it is here"])
    path = tmp_path / "grid.xlsx"
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "Grid"
    first.append(["Test", "Player 1", "Player 2"])
    answers = book.create_sheet("Answers")
    for row in [header, *rows]:
        answers.append(row)
    book.save(path)
    marking = mark_file(str(path), sheet="Answers")
    assert marking.answer_columns == (3, 4, 5)
    assert (marking.correct, marking.total, marking.wrong) == (3, 3, [])
    assert marking.mark == 30.0


def unsaved_formula(tmp_path: Path) -> Path:
    """A workbook whose winner cell is a formula with no saved value
    (openpyxl stores none)."""
    path = tmp_path / "unsaved.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"])
    sheet.append(["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", '=IF(C2="Pair",1,2)'])
    book.save(path)
    return path


def test_a_formula_without_a_stored_value_is_reported(tmp_path: Path) -> None:
    marking = mark_file(str(unsaved_formula(tmp_path)))
    assert marking.wrong == [2]
    assert marking.rows[0].differences == (
        "the winner: cell E2 holds the formula '=IF(C2=\"Pair\",1,2)' with no saved value (open and "
        "save the workbook in Excel or LibreOffice, which store formulas' values)",
    )


# --- output ---------------------------------------------------------------------------


def test_a_marked_copy_refuses_xml_that_fivecard_would_refuse_before_openpyxl_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """openpyxl parses every part of a workbook (the theme, which marking
    never reads, included): hostile XML there is refused by fivecard's own
    reader's limits first, in one line naming the file and the part."""
    import zipfile

    from fivecard.files.workbook import MAX_DEPTH

    source = tmp_path / "answered.xlsx"
    deep = b"<a>" * (MAX_DEPTH + 1) + b"</a>" * (MAX_DEPTH + 1)
    with zipfile.ZipFile(EXAMPLES / "answered.xlsx") as original, zipfile.ZipFile(source, "w") as copy:
        for item in original.infolist():
            copy.writestr(item, deep if item.filename == "xl/theme/theme1.xml" else original.read(item))
    assert main(["mark", str(source)]) == 0  # marking alone never opens the theme
    capsys.readouterr()
    assert main(["mark", str(source), "-o", str(tmp_path / "marked.xlsx")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"nests elements more than {MAX_DEPTH} deep" in err
    assert str(source) in err and "xl/theme/theme1.xml" in err
    assert not (tmp_path / "marked.xlsx").exists()


def test_marked_xlsx_keeps_formulas_and_formatting_and_highlights_wrong_cells(tmp_path: Path) -> None:
    source = tmp_path / "answered.xlsx"
    shutil.copy(EXAMPLES / "answered.xlsx", source)
    before = source.read_bytes()
    code, out, err = run(["mark", str(source), "-o", str(tmp_path / "marked.xlsx")])
    assert code == 0 and "Outcomes right: 8/10" in out
    assert "wrote " in err and "3 wrong answers marked" in err
    assert source.read_bytes() == before
    sheet = openpyxl.load_workbook(tmp_path / "marked.xlsx")["Answers"]
    assert sheet["F3"].value == '=IF(D3="Royal Flush",1,2)'  # the user's formulas, as they were
    assert sheet["E12"].value == '="Four of a "&"Kind"'
    assert sheet["A1"].font.b and sheet["A1"].font.sz == 14 and sheet["D2"].font.b
    assert sheet["D2"].fill.start_color.rgb.endswith("DDEBF7") and sheet.column_dimensions["D"].width == 24
    highlighted = {
        c.coordinate for row in sheet.iter_rows() for c in row if c.fill.fill_type and c.fill.start_color.rgb.endswith("FFC7CE")
    }
    assert highlighted == {"F7", "D10", "E11"}
    comments = {c.coordinate: c.comment.text for row in sheet.iter_rows() for c in row if c.comment}
    assert comments == {
        "F7": "fivecard: winner: 1",
        "D10": "fivecard: Two Pair (score 3)",
        "E11": "fivecard: High Card (score 1)",
    }
    assert sheet["G2"].value == "fivecard" and sheet["G2"].font.b
    assert sheet["G3"].value == "right"
    assert sheet["G7"].value == "wrong: the winner: said '2', right: player 1"
    assert sheet["G11"].value.startswith("right outcome; hand 2's classification")
    assert list(tmp_path.glob(".*.part")) == []


def test_marked_csv_adds_expected_and_verdict_and_stays_inert(tmp_path: Path) -> None:
    rows = [
        ["Round", "Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"],
        ["=1+1", "AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "1"],
        ["@SUM(A1)", "AS AH 7C 4D 2S", "KS KH KD 4C 2D", "Pair", "Pair", "1"],
        ["3", "AS AH 7C 4D 2S", "AS KH KD 4C 2D", "Pair", "Pair", "1"],
    ]
    path = write_csv(tmp_path / "in.csv", rows)
    code, _, _ = run(["mark", str(path), "-o", str(tmp_path / "marked.csv")])
    assert code == 1  # line 4 is an error row
    written = list(csv.reader((tmp_path / "marked.csv").read_text(encoding="utf-8").splitlines()))
    assert written[0] == [*rows[0], "expected", "verdict"]
    assert written[1] == ["'=1+1", *rows[1][1:], "One Pair, One Pair; winner 1", "right"]
    assert written[2][0] == "'@SUM(A1)" and written[2][6] == "One Pair, Three of a Kind; winner 2"
    assert written[2][7].startswith("wrong: hand 2's classification: said 'Pair', right: Three of a Kind (score 4)")
    assert written[3][0] == "3" and written[3][6] == "" and written[3][7].startswith("error: card A♠ is in hands 1 and 2")
    assert len(written) == 4


def test_json_shape() -> None:
    code, out, _ = run(["mark", "--json", str(EXAMPLES / "answered.xlsx")])
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"rows", "correct", "total", "mark", "wrong"}
    assert (data["correct"], data["total"], data["mark"], data["wrong"]) == (8, 10, 20.0, [7, 10])
    assert data["errors"] == [] and data["out_of"] == 30
    row = next(r for r in data["rows"] if r["line"] == 7)
    assert set(row) >= {"line", "correct", "expected", "given", "explanation"}
    assert row["correct"] is False
    assert row["expected"] == {"classifications": ["Full House", "Full House"], "winner": 1, "scores": [7, 7]}
    assert row["given"]["classifications"] == ["Full House", "Full House"] and row["given"]["winner"] == 2
    assert "Sevens beat Sixes" in row["explanation"]
    draw = next(r for r in data["rows"] if r["line"] == 5)
    assert draw["expected"]["winner"] == "draw" and draw["given"]["winner"] == "draw"


# --- marking as the rows are read ----------------------------------------------------------


class _Counted(io.BytesIO):
    """Standard input that counts what was read of it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data


def _showdowns(count: int) -> list[list[Any]]:
    header = ["Player 1", "Player 2", "Player 1 classification", "Player 2 classification", "Winner"]
    row = ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "1"]
    return [header] + [row] * count


@pytest.mark.slow
def test_rows_are_marked_as_they_are_read_and_not_kept(tmp_path: Path) -> None:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(_showdowns(120_000))
    data = text.getvalue().encode()
    stdin = _Counted(data)
    with open_marking("-", stdin=stdin) as marking:
        rows = marking.stream()
        first = next(rows)
        assert first.line == 2 and first.correct
        assert stdin.taken < len(data) // 2  # the first chunk is marked before the rest is read
        assert sum(1 for _ in rows) == 120_000 - 1
    assert marking.rows == [] and (marking.correct, marking.total) == (120_000, 120_000)
    assert marking.summary() == "Outcomes right: 120000/120000; ModelOff mark: 30/30"
    with pytest.raises(FivecardError, match="marked already"):
        next(marking.stream())


@pytest.mark.parametrize("ascii", [False, True])
def test_the_streamed_json_is_the_kept_markings_json(ascii: bool, tmp_path: Path) -> None:
    rows = _showdowns(3) + [
        ["AS AH 7C 4D 2S", "AS KH 7D 4C 2D", "Pair", "Pair", "1"],  # an error row
        ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Paire", "Pair", "Alice ♠"],
        ["AS AH 7C 4D 2S", "KS KH KD 4C 2D", "Pair", "Pair", "1"],
        ["10D 10H 4H 4C 3S", "10S 10C 4S 4D 3H", "Two Pair", "", "tie"],  # a draw, an answer missing
        ["10D 10H 4H 4C 3S", "10S 10C 4S 4D 3H", "2 pair", "3", "\x07=1"],
    ]
    path = write_csv(tmp_path / "answers.csv", rows)
    kept = mark_file(str(path)).to_json()
    assert kept["wrong"] == [6, 7, 8, 9] and [e["line"] for e in kept["errors"]] == [5]
    out = io.StringIO()
    with open_marking(str(path)) as marking:
        report = MarkJson(out, ascii=ascii)
        for row in marking.stream():
            report.add(row)
        report.finish(marking)
    assert out.getvalue() == json.dumps(kept, ensure_ascii=ascii, indent=2) + "\n"
    only_errors = write_csv(tmp_path / "errors.csv", _showdowns(0) + rows[4:5])  # no row marked
    out = io.StringIO()
    with open_marking(str(only_errors)) as marking:
        report = MarkJson(out)
        for row in marking.stream():
            report.add(row)
        report.finish(marking)
    assert '"rows": [],' in out.getvalue() and '"wrong": [],' in out.getvalue()
    assert out.getvalue() == json.dumps(mark_file(str(only_errors)).to_json(), ensure_ascii=False, indent=2) + "\n"


@pytest.mark.parametrize("as_json", [False, True])
def test_a_marking_reported_by_the_library_is_what_the_command_prints(as_json: bool, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "answers.csv", _showdowns(4) + [["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "2"]])
    said: list[str] = []
    out = io.StringIO()
    with open_marking(str(path)) as marking:
        notes = report_marking(marking, out, output=str(tmp_path / "marked.csv"), as_json=as_json, say=said.append)
    code, printed, err = run(["mark", *(["--json"] if as_json else []), str(path)])
    assert out.getvalue() == printed and code == 0 and notes == []
    assert said == [marking.note] and f"fivecard: {marking.note}" in err
    with open(tmp_path / "marked.csv", encoding="utf-8") as written:
        verdicts = [row[-1] for row in csv.reader(written)][1:]
    assert verdicts == ["right"] * 4 + ["wrong: the winner: said '2', right: player 1"]


def test_a_workbook_is_marked_to_csv_at_any_size(tmp_path: Path) -> None:
    code, _, err = run(["mark", str(EXAMPLES / "answered.xlsx"), "-o", str(tmp_path / "marked.csv")])
    assert code == 0 and "3 wrong answers marked" in err
    written = list(csv.reader((tmp_path / "marked.csv").read_text(encoding="utf-8").splitlines()))
    assert written[0][-2:] == ["expected", "verdict"] and written[0][1] == "Player 1"
    assert written[5][-1] == "wrong: the winner: said '2', right: player 1"  # line 7 of the sheet
    assert len(written) == 11  # the header and ten rows (the title above it is not a row)


def test_a_workbook_too_big_to_copy_is_refused_before_any_row(tmp_path: Path, monkeypatch: Any) -> None:
    import fivecard.modeloff.mark as mark

    monkeypatch.setattr(mark, "MAX_COPY_XML", 4096)
    code, out, err = run(["mark", str(EXAMPLES / "answered.xlsx"), "-o", str(tmp_path / "marked.xlsx")])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert re.search(r"'.*answered\.xlsx' unpacks to [0-9.]+ MiB of XML; .* openpyxl, which holds the whole "
                     r"workbook in memory, for at most 0 MiB of XML .*write the marks as CSV \(-o marked.csv\)", err)
    assert list(tmp_path.iterdir()) == []
    code, _, _ = run(["mark", str(EXAMPLES / "answered.xlsx"), "-o", str(tmp_path / "marked.csv")])
    assert code == 0 and (tmp_path / "marked.csv").exists()


def test_an_interrupted_mark_leaves_no_file(tmp_path: Path, monkeypatch: Any) -> None:
    import fivecard.modeloff.mark as mark

    def interrupted(self: Any, chunk: Any, rows: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(mark._Run, "mark", interrupted)
    for name in ("marked.csv", "marked.xlsx"):
        code, _, err = run(["mark", str(EXAMPLES / "answered.xlsx"), "-o", str(tmp_path / name)])
        assert code == 130 and f"nothing was written ('{tmp_path / name}' was not created)" in err
    assert list(tmp_path.iterdir()) == []


def test_a_formula_without_a_value_is_reported_in_the_marked_workbook(tmp_path: Path) -> None:
    code, _, _ = run(["mark", str(unsaved_formula(tmp_path)), "-o", str(tmp_path / "marked.xlsx")])
    assert code == 0
    marked = openpyxl.load_workbook(tmp_path / "marked.xlsx").active
    assert marked is not None
    assert marked["E2"].value == '=IF(C2="Pair",1,2)'  # the formula kept
    assert str(marked["F2"].value).startswith("wrong: the winner: cell E2 holds the formula")


@pytest.mark.parametrize(
    ("correct", "total", "mark"),
    [(20, 25, 20), (22, 25, 24), (25, 25, 30), (0, 25, 0), (19, 25, 19), (21, 25, 22),
     (8, 10, 20), (9, 10, 25), (10, 10, 30), (45, 50, 25), (7, 8, 23.8), (0, 0, 0),
     (1, 4, 6.3), (3, 4, 18.8), (1, 8, 3.1), (841, 1000, 22.1), (1, 3, 8.3), (2, 3, 16.7)],
)
def test_the_modeloff_mark(correct: int, total: int, mark: float) -> None:
    assert modeloff_mark(correct, total) == mark


#: Excel's ROUND(number, places): the examples of Microsoft's page for the
#: function, then halves that Python's round() takes to even or to the
#: binary number below (round(6.25, 1) is 6.2, round(2.675, 2) is 2.67).
EXCEL_ROUND = [
    (2.15, 1, 2.2), (2.149, 1, 2.1), (-1.475, 2, -1.48), (21.5, -1, 20), (626.3, -3, 1000),
    (1.98, -1, 0), (-50.55, -2, -100),
    (0.05, 1, 0.1), (0.15, 1, 0.2), (0.25, 1, 0.3), (0.35, 1, 0.4), (6.25, 1, 6.3), (6.35, 1, 6.4),
    (12.45, 1, 12.5), (23.75, 1, 23.8), (2.675, 2, 2.68), (1.005, 2, 1.01), (8.345, 2, 8.35),
    (0.125, 2, 0.13), (0.5, 0, 1), (1.5, 0, 2), (2.5, 0, 3), (-0.5, 0, -1), (-2.5, 0, -3),
    (-0.05, 1, -0.1), (-6.25, 1, -6.3), (6.24, 1, 6.2), (6.2499, 1, 6.2), (0.0, 1, 0),
]


@pytest.mark.parametrize(("number", "places", "excel"), EXCEL_ROUND)
def test_rounding_is_excels_round(number: float, places: int, excel: float) -> None:
    assert round_half_away(number, places) == excel
    assert str(round_half_away(number, places)) == str(float(excel))  # shown as Excel shows it


def test_a_mark_of_a_half_is_shown_rounded_up_in_text_and_json(tmp_path: Path) -> None:
    wrong = ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "2"]
    path = write_csv(tmp_path / "quarter.csv", _showdowns(1) + [wrong] * 3)  # 1 of 4: 6.25 of 25
    code, out, _ = run(["mark", str(path)])
    assert code == 0
    assert out.splitlines()[-2:] == [
        "Outcomes right: 1/4; ModelOff mark: 6.3/30",
        "(4 outcomes, scaled to 25 for the mark: 1 x 25 / 4 = 6.25 right)",
    ]
    assert json.loads(run(["mark", "--json", str(path)])[1])["mark"] == 6.3


# --- --fail-on-wrong: an exit code for CI -------------------------------------------------

RIGHT = ["AS AH 7C 4D 2S", "KS KH 7D 4C 2D", "Pair", "Pair", "1"]
#: Each kind of second row (after a right one): the outcomes wrong, and the
#: exit code without and with --fail-on-wrong.
ERROR_ROW = ["AS AH 7C 4D 2S", "AS KH 7D 4C 2D", "Pair", "Pair", "1"]  # the ace of spades twice
ROW_KINDS = {
    "all right": ([RIGHT, RIGHT], 0, 0, 0),
    "a wrong winner": ([RIGHT, [*RIGHT[:4], "2"]], 1, 0, 3),
    "the winner's classification wrong": ([RIGHT, [RIGHT[0], RIGHT[1], "Flush", "Pair", "1"]], 1, 0, 3),
    "an unreadable answer": ([RIGHT, [*RIGHT[:4], "Player 1?"]], 1, 0, 3),
    "a missing answer": ([RIGHT, [*RIGHT[:4], ""]], 1, 0, 3),
    "only the loser's classification wrong": ([RIGHT, [*RIGHT[:3], "Flush", "1"]], 0, 0, 0),
    "an error row": ([RIGHT, ERROR_ROW], 0, 1, 1),
    "an error row and a wrong outcome": ([[*RIGHT[:4], "2"], ERROR_ROW], 1, 1, 1),
}


@pytest.mark.parametrize("kind", ROW_KINDS)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_fail_on_wrong_exits_3_when_an_outcome_is_wrong(kind: str, fmt: str, tmp_path: Path) -> None:
    rows, wrong, plain, failing = ROW_KINDS[kind]
    header = _showdowns(0)
    path = tmp_path / f"answers.{fmt}"
    if fmt == "csv":
        write_csv(path, header + rows)
    else:
        MAKE.write_workbook(path, None, header[0], rows)
    code, out, _ = run(["mark", str(path)])
    assert code == plain
    assert len(json.loads(run(["mark", "--json", str(path)])[1])["wrong"]) == wrong
    for extra in ([], ["--json"], ["-o", str(tmp_path / f"marked.{fmt}")]):
        code, printed, _ = run(["mark", "--fail-on-wrong", *extra, str(path)])
        assert code == failing, (kind, extra)
        if not extra:
            assert printed == out  # the report is the same


# --- errors: one line, exit 2 -------------------------------------------------------------


def test_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    text = tmp_path / "hands.txt"
    text.write_text("AS KS QS JS TS | 2C 3C 4C 5C 7D\n")
    cases = [
        (["mark", str(tmp_path / "missing.csv")], "cannot read"),
        (["mark", str(text)], "marking needs a table"),
        (["mark", str(EXAMPLES / "answered.csv"), "--sheet", "Answers"], "a sheet is named"),
        (["mark", str(EXAMPLES / "answered.xlsx"), "--sheet", "Nope"], "no sheet 'Nope'"),
        (["mark", str(EXAMPLES / "answered.csv"), "-o", str(tmp_path / "m.xlsx")], "output ends in .csv"),
        (["mark", str(EXAMPLES / "answered.csv"), "-o", str(tmp_path / "m.txt")], "name it .xlsx or .csv"),
        (["mark", str(EXAMPLES / "answered.csv"), "-o", str(EXAMPLES / "answered.csv")], "is the input"),
    ]
    for argv, message in cases:
        code, out, err = run(argv)
        assert code == 2 and out == "", argv
        assert err.startswith("fivecard: error: ") and err.count("\n") == 1 and message in err, (argv, err)
