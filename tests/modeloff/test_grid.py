"""``fivecard grid``: a fixed test grid of two-hand showdowns covering every
outcome of the standard rules (and of every other rule set), with answers
that agree with ``solve`` and with the reference evaluator (tests/oracle.py),
which settles every row on its own."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path

import numpy as np
import openpyxl
import oracle
import pytest

from fivecard.modeloff import grid
from fivecard.modeloff.grid import (
    ANSWER_COLUMNS,
    GRID_COLUMNS,
    GridRow,
    grid_answers,
    grid_rows,
    write_grid,
)
from fivecard.cli import main
from fivecard.core.hand import Hand
from fivecard.core.rules import RULE_SETS, STANDARD, RuleSet, get_rules
from fivecard.core.errors import FileError, RulesError

ROWS = grid_rows()
ANSWERS = grid_answers(ROWS)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


# The grid itself ---------------------------------------------------------------


def test_the_grid_is_the_same_on_every_run(tmp_path: Path) -> None:
    assert grid_rows() == ROWS and grid_answers(grid_rows()) == ANSWERS
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    write_grid(str(first), grid_rows())
    write_grid(str(second), grid_rows())
    assert first.read_bytes() == second.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] != [] and not list(tmp_path.glob("*.part"))


def test_every_row_is_two_hands_of_five_cards_from_one_deck() -> None:
    assert len({row.test for row in ROWS}) == len(ROWS)
    for row in ROWS:
        hands = [Hand.parse(text) for text in row.hands]
        cards = [c for hand in hands for c in hand.cards]
        assert [len(h.cards) for h in hands] == [5, 5]
        assert len(set(cards)) == 10, row
        assert row.tests


def test_every_category_wins_and_loses_against_each_neighbour_in_both_orders() -> None:
    labels = [c.label for c in STANDARD.ladder]
    won: set[tuple[str, str, str]] = set()
    for answer in ANSWERS:
        if answer.winner != "draw":
            w = int(answer.winner) - 1
            won.add((answer.classifications[w], answer.classifications[1 - w], answer.winner))
    for low, high in zip(labels, labels[1:]):
        assert (high, low, "1") in won and (high, low, "2") in won, (high, low)
    winners = {a.classifications[int(a.winner) - 1] for a in ANSWERS if a.winner != "draw"}
    losers = {a.classifications[2 - int(a.winner)] for a in ANSWERS if a.winner != "draw"}
    assert winners == set(labels)
    assert losers == set(labels) - {"Royal Flush"}  # nothing beats it: it only draws


def test_a_draw_in_every_category_one_deck_allows_and_none_where_it_cannot() -> None:
    drawn = {a.classifications[0] for a in ANSWERS if a.winner == "draw"}
    assert all(a.classifications[0] == a.classifications[1] for a in ANSWERS if a.winner == "draw")
    assert drawn == {"High Card", "One Pair", "Two Pair", "Straight", "Flush", "Straight Flush", "Royal Flush"}
    assert [line.split(":")[0] for line in grid.IMPOSSIBLE] == ["Three of a Kind", "Full House", "Four of a Kind"]


def whys(category: str) -> list[str]:
    """The explanations of the rows won within a category."""
    return [a.why for a in ANSWERS if a.winner != "draw" and a.classifications == (category, category)]


def test_every_tie_break_down_to_the_last_kicker() -> None:
    for category in ("High Card", "Flush"):
        for ordinal in ("first", "second", "third", "fourth", "fifth"):
            assert any(f"the {ordinal} card decides" in w for w in whys(category)), (category, ordinal)
    pair = whys("One Pair")
    assert any("the pair decides" in w for w in pair)
    assert all(any(f"the {o} card decides" in w for w in pair) for o in ("third", "fourth", "fifth"))
    two = whys("Two Pair")
    assert all(any(step in w for w in two) for step in ("higher pair decides", "lower pair decides", "fifth card decides"))
    for category in ("Three of a Kind", "Full House"):
        assert any("the three of a kind decides" in w for w in whys(category))
    assert any("the four of a kind decides" in w for w in whys("Four of a Kind"))
    for category in ("Straight", "Straight Flush"):
        assert any("the top card decides" in w for w in whys(category))
    # a player-2 win among the tie-breaks of each category that has several
    for category in ("High Card", "One Pair", "Two Pair", "Straight", "Flush", "Straight Flush"):
        assert any(a.winner == "2" and a.classifications == (category, category) for a in ANSWERS), category


def test_the_wheel_the_ace_high_straight_and_q_k_a_2_3() -> None:
    by_test = {a.row.test: a for a in ANSWERS}
    wheel = by_test["ST-wheel"]
    assert "6 beats 5 (the ace plays low in 5-4-3-2-A)" in wheel.why
    assert "6 beats 5 (the ace plays low" in by_test["SF-wheel"].why
    assert by_test["SF-wheel"].classifications == ("Straight Flush", "Straight Flush")
    assert by_test["ST-ace-high"].why.endswith("A beats K")
    wrap = by_test["ST-wrap"]
    assert "QS KD AC 2H 3S" in wrap.row.hands
    assert "High Card" in wrap.classifications and wrap.classifications[int(wrap.winner) - 1] == "One Pair"
    assert by_test["ST-wheel-vs-3K"].classifications[int(by_test["ST-wheel-vs-3K"].winner) - 1] == "Straight"
    assert by_test["RF-draw"].classifications == ("Royal Flush", "Royal Flush")


@pytest.mark.parametrize(
    ("winner", "other", "result"),
    [
        ("QC TC 7C 6C 4C", "QD TD 7D 5D 4D", "1"),
        ("TD TH 4H 4C 3S", "TS TC 4S 4D 3H", "draw"),
        ("AD KD QD JD TD", "QC TC 7C 6C 4C", "1"),
        ("AD KD QD JD TD", "AS KS QS JS TS", "draw"),
        ("7S 7H 7D 4S 4C", "6S 6H 6D AS AC", "1"),
        ("TS TC 8D 8S 4H", "8H 8C 4S 4C TH", "1"),
        ("QS QH QD 7S 4C", "JS JC JD AD KC", "1"),
        ("9C 9S 9D 9H JH", "7S 7H 7D 7C AS", "1"),
    ],
)
def test_the_modeloff_examples_are_rows(winner: str, other: str, result: str) -> None:
    found = [a for a in ANSWERS if a.row.hands == (winner, other)]
    assert [a.winner for a in found] == [result]


def test_rows_with_cards_in_no_order() -> None:
    unsorted = [r for r in ROWS if r.test.startswith("unsorted-")]
    assert len(unsorted) >= 3
    for row in unsorted:
        hand = Hand.parse(row.hands[0])
        assert list(hand.cards) != list(hand.sorted()) and list(hand.cards) != list(reversed(hand.sorted()))


def test_the_builder_refuses_a_row_that_is_not_one_deck_or_not_what_it_says() -> None:
    shared = GridRow("x", ("AS AD 7C 5H 2S", "AS KC 9D 7S 5C"), "x")
    with pytest.raises(AssertionError, match="grid row x is not a one-deck showdown"):
        grid._check([(shared, "other", "")], STANDARD)
    not_a_draw = GridRow("y", ("AS AD 7C 5H 2S", "KC QH 9D 7S 5C"), "y")
    with pytest.raises(AssertionError, match="grid row y does not test what it says"):
        grid._check([(not_a_draw, "draw", "draw")], STANDARD)


def test_only_the_supported_rule_sets() -> None:
    assert grid_rows("Standard") == ROWS
    assert grid.SUPPORTED_RULES == (*RULE_SETS, "standard+wild(...)")
    custom = RuleSet(name="custom", summary="standard by another name", ladder=STANDARD.ladder)
    with pytest.raises(RulesError, match=r"only: standard, ace-king, .*, standard\+wild\(\.\.\.\); not 'custom'"):
        grid_rows(custom)


# Files -------------------------------------------------------------------------------


def test_the_workbook_has_the_grid_and_the_answers(tmp_path: Path) -> None:
    path = tmp_path / "grid.xlsx"
    write_grid(str(path), ROWS)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Grid", "Answers"]
    rows = [tuple(r) for r in book["Grid"].iter_rows(values_only=True)]
    assert rows[0] == GRID_COLUMNS and len(rows) == len(ROWS) + 1
    assert rows[1] == (ROWS[0].test, *ROWS[0].hands, ROWS[0].tests)
    answers = [tuple(r) for r in book["Answers"].iter_rows(values_only=True)]
    assert answers[0] == ANSWER_COLUMNS
    first = ANSWERS[0]
    assert answers[1] == (first.row.test, *first.row.hands, *first.classifications, first.winner, first.why)
    without = tmp_path / "bare.xlsx"
    write_grid(str(without), ROWS, answers=False)
    assert openpyxl.load_workbook(without).sheetnames == ["Grid"]


def test_the_csv_file_has_the_answer_columns_or_the_grid_columns(tmp_path: Path) -> None:
    path = tmp_path / "grid.csv"
    write_grid(str(path), ROWS)
    rows = read_csv(path)
    assert tuple(rows[0]) == ANSWER_COLUMNS and len(rows) == len(ROWS)
    assert Counter(r["Winner"] for r in rows) == Counter(a.winner for a in ANSWERS)
    write_grid(str(path), ROWS, answers=False)
    assert tuple(read_csv(path)[0]) == GRID_COLUMNS


def test_cells_are_inert(tmp_path: Path) -> None:
    row = GridRow("=HYPERLINK(1)", ("AS AD 7C 5H 2S", "KC QH 9D 7S 5C"), "+1 -1 @x")
    write_grid(str(tmp_path / "g.csv"), [row], answers=False)
    assert read_csv(tmp_path / "g.csv")[0] == {
        "Test": "'=HYPERLINK(1)", "Player 1": "AS AD 7C 5H 2S", "Player 2": "KC QH 9D 7S 5C", "What it tests": "'+1 -1 @x"
    }
    write_grid(str(tmp_path / "g.xlsx"), [row])
    sheet = openpyxl.load_workbook(tmp_path / "g.xlsx")["Grid"]
    assert (sheet["A2"].value, sheet["A2"].data_type) == ("=HYPERLINK(1)", "s")
    assert sheet["D2"].value == "+1 -1 @x"


def test_a_bad_extension_is_an_error_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="FILE.xlsx or FILE.csv, not '.*grid.txt'"):
        write_grid(str(tmp_path / "grid.txt"), ROWS)
    assert list(tmp_path.iterdir()) == []


# The answers agree with solve -------------------------------------------------------


def solved(path: Path, tmp_path: Path, *sheet: str) -> list[dict[str, str]]:
    out = tmp_path / "solved.csv"
    code, _, err = run(["solve", str(path), *sheet, "--hands", "Player 1,Player 2", "-o", str(out)])
    assert code == 0, err
    return read_csv(out)


@pytest.mark.parametrize("name", ["grid.csv", "grid.xlsx"])
def test_the_answers_agree_with_solve(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    code, _, err = run(["grid", "-o", str(path)])
    assert (code, err) == (0, f"wrote {path}: {len(ROWS)} showdowns\n")
    rows = solved(path, tmp_path, *(["--sheet", "Answers"] if name.endswith(".xlsx") else []))
    assert len(rows) == len(ROWS)
    for row in rows:
        assert row["Player 1 classification"] == row["hand 1 category"], row
        assert row["Player 2 classification"] == row["hand 2 category"], row
        expected = {"1": "1", "2": "2", "draw": "1,2"}[row["Winner"]]
        assert row["winner"] == expected, row
        assert row["Why"] == row["explanation"], row


# The command -------------------------------------------------------------------------


def test_the_text_table() -> None:
    code, out, err = run(["grid"])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["Test", "Player", "1", "Player", "2", "Winner", "What", "it", "tests"]
    assert lines[1].split()[:6] == ["NB-1P-HC-1", "8S", "8D", "KH", "5C", "2D"]
    assert any(line.startswith("RF-draw ") and " draw " in line for line in lines)
    assert "a deck cannot deal them" in out and grid.IMPOSSIBLE[0] in out
    code, bare, _ = run(["grid", "--no-answers"])
    assert code == 0 and "Winner" not in bare.splitlines()[0]
    assert len(bare.splitlines()) == len(lines)


def test_the_command_writes_without_answers(tmp_path: Path) -> None:
    code, _, _ = run(["grid", "-o", str(tmp_path / "g.xlsx"), "--no-answers"])
    assert code == 0 and openpyxl.load_workbook(tmp_path / "g.xlsx").sheetnames == ["Grid"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["grid", "-o", "grid.txt"], "fivecard: error: the grid is written as FILE.xlsx or FILE.csv, not 'grid.txt'\n"),
        (["grid", "--rules", "texas"],
         "fivecard: error: unknown rule set 'texas'; choose one of: standard, ace-king, semi, joker, one-joker, "
         "short-deck, deuces-wild, one-eyed-jacks, ace-to-five, deuce-to-seven\n"),
        (["grid", "--rules", "joker", "--wild", "2"],
         "fivecard: error: wild cards are named on top of the standard rules, not joker\n"),
    ],
)
def test_errors_are_one_line_and_exit_2(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(argv) == (2, "", message)
    assert list(tmp_path.iterdir()) == []


def test_the_manual_shows_real_output() -> None:
    section = (Path(__file__).resolve().parents[2] / "docs" / "commands" / "grid.md").read_text(encoding="utf-8")
    assert f"fixed grid of\n{len(ROWS)} two-hand showdowns" in section
    shown = section.split("```text\n")[1].split("```")[0].splitlines()
    _, out, _ = run(["grid"])
    assert shown == out.splitlines()[: len(shown)]


@pytest.mark.parametrize(("name", "sheet"), [("grid.xlsx", "Answers"), ("grid.csv", None)])
def test_marking_the_grid_against_its_own_answers_scores_full_marks(tmp_path: Path, name: str, sheet: str | None) -> None:
    from fivecard.modeloff.mark import mark_file

    path = tmp_path / name
    assert main(["grid", "-o", str(path)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    marking = mark_file(str(path), sheet=sheet)
    rows = grid.grid_rows()
    assert marking.total == len(rows) == 66
    assert marking.correct == marking.total and marking.wrong == [] and marking.mark == 30
    out = io.StringIO()
    arguments = ["mark", str(path)] + (["--sheet", sheet] if sheet else [])
    assert main(arguments, stdout=out, stderr=io.StringIO()) == 0
    assert "Outcomes right: 66/66; ModelOff mark: 30/30" in out.getvalue()


# Other rule sets: grids found by search ---------------------------------------------

OTHER = [name for name in RULE_SETS if name != "standard"] + ["standard+wild(2)"]


def rules_args(name: str) -> list[str]:
    return ["--wild", "2"] if name == "standard+wild(2)" else ["--rules", name]


def settled(name: str) -> tuple[RuleSet, list[GridRow], list[grid.GridAnswer]]:
    rules = get_rules(name)
    rows = grid_rows(rules)
    return rules, rows, grid_answers(rows, rules)


@pytest.mark.parametrize("name", OTHER)
@pytest.mark.slow
def test_another_rule_set_s_rows_are_two_hands_of_its_deck(name: str) -> None:
    rules, rows, _ = settled(name)
    assert len({row.test for row in rows}) == len(rows) >= 20
    dealt = Counter(rules.deck())
    for row in rows:
        hands = [Hand.parse(text, rules=rules).cards for text in row.hands]
        assert [len(h) for h in hands] == [5, 5], row
        assert not Counter(c for h in hands for c in h) - dealt, row
        assert row.tests


@pytest.mark.parametrize("name", OTHER)
@pytest.mark.slow
def test_another_rule_set_s_grid_is_the_same_on_every_build(name: str, tmp_path: Path) -> None:
    _, rows, answers = settled(name)
    grid._search.cache_clear()
    assert grid_rows(name) == rows and grid_answers(grid_rows(name), name) == answers
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    write_grid(str(first), rows, rules=name)
    grid._search.cache_clear()
    write_grid(str(second), grid_rows(name), rules=name)
    assert first.read_bytes() == second.read_bytes()


def dealt_categories(rules: RuleSet) -> list[str]:
    """The labels of the categories some hand of the dealt deck has, weakest first."""
    from fivecard.vector import batch

    counts = batch.census_counts(rules)
    present = set(batch.category_table(rules)[counts.nonzero()[0]].tolist())
    return [c.label for i, c in enumerate(rules.ladder) if i in present]


@pytest.mark.parametrize("name", OTHER)
@pytest.mark.slow
def test_every_category_of_another_rule_set_meets_its_neighbours_in_both_orders(name: str) -> None:
    rules, _, answers = settled(name)
    labels = dealt_categories(rules)
    won = {
        (a.classifications[int(a.winner) - 1], a.classifications[2 - int(a.winner)], a.winner)
        for a in answers
        if a.winner != "draw"
    }
    for low, high in zip(labels, labels[1:]):
        assert (high, low, "1") in won and (high, low, "2") in won, (high, low)
    seen = {label for a in answers for label in a.classifications}
    assert seen == set(labels)
    absent = [c.label for c in rules.ladder if c.label not in labels]
    assert [line for line in grid.grid_impossible(rules) if "no such hand" in line] == [
        f"{label}: the dealt deck holds no such hand" for label in absent
    ]
    assert absent == (["Five of a Kind"] if name == "semi" else [])  # semi deals four of a rank at most


@pytest.mark.parametrize("name", OTHER)
@pytest.mark.slow
def test_tie_breaks_and_draws_of_another_rule_set(name: str) -> None:
    rules, rows, answers = settled(name)
    by_test = {a.row.test: a for a in answers}
    notes = grid.grid_impossible(rules)
    for category in rules.ladder:
        if category.label not in dealt_categories(rules):
            continue
        ties = [a for a in answers if a.row.test.startswith(f"{grid._code(category)}-tie-")]
        untied = ("all its hands are of equal value", "no two hands of one deck make one")
        if not any(f"{category.label}: no tie-break ({why})" in notes for why in untied):
            assert ties, category
        for tie in ties:  # decided within the category, as the row says
            assert tie.classifications == (category.label, category.label)
            assert tie.winner in ("1", "2") and tie.row.tests.endswith(f"(player {tie.winner} wins)")
            step = tie.row.tests.split(": ")[1].split(" (player")[0]
            assert step in tie.why
        steps = {tie.row.tests for tie in ties}
        assert len(steps) == len(ties)  # each tie-break row a different deciding step
        draw = by_test.get(f"{grid._code(category)}-draw")
        if draw is None:
            assert f"{category.label}: no draw (no two hands of one deck make one)" in notes
        else:
            assert draw.winner == "draw" and draw.classifications == (category.label, category.label)
    assert {a.winner for a in answers if "-tie-" in a.row.test} == {"1", "2"}


def test_kickers_down_to_the_last_card_where_the_deck_allows() -> None:
    for name, category in [("ace-king", "High Card"), ("short-deck", "Flush"), ("ace-to-five", "No Pair"),
                           ("deuce-to-seven", "No Pair"), ("semi", "High Card")]:
        _, _, answers = settled(name)
        whys = [a.why for a in answers if a.classifications == (category, category) and a.winner != "draw"]
        for ordinal in ("first", "second", "third", "fourth", "fifth"):
            assert any(f"the {ordinal} card decides" in w for w in whys), (name, ordinal)


def test_wild_hands_are_in_the_wild_rule_sets_grids() -> None:
    for name in ("joker", "one-joker", "deuces-wild", "one-eyed-jacks", "standard+wild(2)"):
        rules, rows, answers = settled(name)
        by_test = {a.row.test: a for a in answers}
        five, royal = by_test["NB-5K-RF-1"].row.hands
        assert any(rules.is_wild(c) for c in Hand.parse(five, rules=rules).cards)
        assert not any(rules.is_wild(c) for c in Hand.parse(royal, rules=rules).cards)  # a natural royal
        assert by_test["RF-wild-draw"].winner == "draw"
        assert "a natural hand and a wild hand of equal value draw" in by_test["RF-wild-draw"].why
    assert not any("wild" in row.test for row in grid_rows("ace-king"))


def test_lowball_grids_follow_the_rule_set_s_strength() -> None:
    for name, best, worst in [("ace-to-five", "No Pair", "Four of a Kind"), ("deuce-to-seven", "No Pair", "Royal Flush")]:
        _, _, answers = settled(name)
        winners = {a.classifications[int(a.winner) - 1] for a in answers if a.winner != "draw"}
        losers = {a.classifications[2 - int(a.winner)] for a in answers if a.winner != "draw"}
        assert best in winners and worst in losers
        assert by_winner(answers, "NB-NP-1P-1") == "No Pair"


def by_winner(answers: list[grid.GridAnswer], test: str) -> str:
    answer = next(a for a in answers if a.row.test == test)
    return answer.classifications[int(answer.winner) - 1]


@pytest.mark.parametrize("name", OTHER)
def test_another_rule_set_s_rows_with_cards_in_no_order(name: str) -> None:
    rules, rows, _ = settled(name)
    unsorted = [r for r in rows if r.test.startswith("unsorted-")]
    assert len(unsorted) == 4
    for row in unsorted:
        for text in row.hands:
            hand = Hand.parse(text, rules=rules)
            assert list(hand.cards) != list(hand.sorted()) and list(hand.cards) != list(reversed(hand.sorted()))


@pytest.mark.parametrize("name", OTHER)
def test_another_rule_set_s_answers_agree_with_solve_and_mark_scores_full_marks(name: str, tmp_path: Path) -> None:
    from fivecard.modeloff.mark import mark_file

    _, rows, _ = settled(name)
    path = tmp_path / "grid.csv"
    code, _, err = run(["grid", *rules_args(name), "-o", str(path)])
    assert (code, err) == (0, f"wrote {path}: {len(rows)} showdowns\n")
    out = tmp_path / "solved.csv"
    code, _, err = run(["solve", str(path), *rules_args(name), "--hands", "Player 1,Player 2", "-o", str(out)])
    assert code == 0, err
    solved_rows = read_csv(out)
    assert len(solved_rows) == len(rows)
    for row in solved_rows:
        assert row["Player 1 classification"] == row["hand 1 category"], row
        assert row["Player 2 classification"] == row["hand 2 category"], row
        assert row["winner"] == {"1": "1", "2": "2", "draw": "1,2"}[row["Winner"]], row
        assert row["Why"] == row["explanation"], row
    marking = mark_file(str(path), rules=name)
    assert marking.total == len(rows) and marking.correct == marking.total and marking.mark == 30


@pytest.mark.parametrize("name", ["joker", "ace-to-five"])
def test_the_text_table_of_another_rule_set(name: str) -> None:
    code, out, err = run(["grid", "--rules", name])
    assert (code, err) == (0, "")
    lines = out.split("\n\nNot in the grid")[0].splitlines()
    assert len(lines) == len(grid_rows(name)) + 1
    assert all(f"  {line}" in out for line in grid.grid_impossible(name))


def test_the_manual_gives_each_rule_set_s_row_count() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "commands" / "grid.md").read_text(encoding="utf-8")
    section = " ".join(page.split())
    counts = section.split("Row counts: ")[1].split(".")[0]
    assert counts == ", ".join(f"{name} {len(grid_rows(name))}" for name in OTHER)


# Every grid against the reference evaluator -----------------------------------------


#: The standard grid's tie-break rows (designed by hand; the others' ids say "-tie-").
TIE_BREAKS = {test for test, *_ in grid._TIE_BREAKS}


@pytest.mark.parametrize("name", ["standard", *OTHER])
def test_every_grid_row_is_settled_as_the_reference_evaluator_settles_it(name: str) -> None:
    """The grid's answers come from fivecard's showdown, and so does solve's;
    the reference evaluator (tests/oracle.py, its own rules) settles every
    row independently: the same categories and winner, and each row tests
    what it says (a neighbour row crosses one rung of the ladder, a
    tie-break is decided within one category, a draw draws, the player a
    row names wins)."""
    rules, reference = get_rules(name), oracle.rules_named(name)
    answers = grid_answers(grid_rows(rules), rules)
    keys = oracle.keys(reference, *oracle.hands([h for a in answers for h in a.row.hands])).reshape(-1, 2)
    for answer, (one, two) in zip(answers, keys.tolist()):
        places = oracle.category(reference, np.array([one, two])).tolist()
        winner = "draw" if one == two else "1" if one > two else "2"
        labels = tuple(oracle.LABELS[reference.ladder[p]] for p in places)
        assert (answer.classifications, answer.winner) == (labels, winner), answer
        test, tests = answer.row.test, answer.row.tests
        named = re.search(r"\(player ([12]) wins\)", tests)
        assert winner == (named.group(1) if named else "draw" if test.endswith("draw") else winner), answer
        if test.startswith("NB-"):
            assert abs(places[0] - places[1]) == 1, answer
        if test in TIE_BREAKS or "-tie-" in test or test.endswith("draw"):
            assert places[0] == places[1], answer
