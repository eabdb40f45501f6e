"""Pay tables: read bounded, checked in full, every error one clear
FivecardError naming the file and the fault; and advise's other
inputs fail cleanly."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import threading
from pathlib import Path

import numpy as np
import pytest

from fivecard import FivecardError, Hand
from fivecard.core.errors import FileAccessError
from fivecard.files.paytable_file import PAYTABLE_LIMIT, load_paytable
from fivecard.play.advise import advise, unseen_cards
from fivecard.play.paytables import (
    CATEGORY_NAMES,
    DEUCES_WILD_FULL_PAY,
    JACKS_OR_BETTER,
    PAYTABLES,
    PayTable,
    PayTableError,
    builtin_paytable,
    parse_paytable,
)
from fivecard.core.cards import Rank
from fivecard.core.rules import get_rules
from fivecard.vector.batch import strengths_of_indices
from fivecard.cli import main

CATEGORIES = ", ".join(CATEGORY_NAMES) + " (also natural_ or wild_ before one, and four_wild, under wild cards)"
FINITE = "must be a number from 0 to 1,000,000, got"


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # files by short names: messages compared whole
    return tmp_path


BAD_TABLES: list[tuple[str, bytes, str]] = [
    ("nan", b'{"pays": {"one_pair": NaN}}', f'"pays" of "one_pair" {FINITE} NaN'),
    ("infinity", b'{"pays": {"royal_flush": Infinity}}', f'"pays" of "royal_flush" {FINITE} Infinity'),
    ("minus-infinity", b'{"pays": {"flush": -Infinity}}', f'"pays" of "flush" {FINITE} -Infinity'),
    ("overflowing float", b'{"pays": {"flush": 1e999}}', f'"pays" of "flush" {FINITE} Infinity'),
    ("5,000-digit int", b'{"pays": {"flush": ' + b"9" * 5000 + b"}}", f'"pays" of "flush" {FINITE} Infinity'),
    ("negative", b'{"pays": {"straight": -1}}', f'"pays" of "straight" {FINITE} -1'),
    ("negative float", b'{"pays": {"straight": -0.5}}', f'"pays" of "straight" {FINITE} -0.5'),
    ("string", b'{"pays": {"royal_flush": "800"}}', f'"pays" of "royal_flush" {FINITE} "800"'),
    ("true", b'{"pays": {"royal_flush": true}}', f'"pays" of "royal_flush" {FINITE} true'),
    ("false", b'{"pays": {"royal_flush": false}}', f'"pays" of "royal_flush" {FINITE} false'),
    ("null", b'{"pays": {"royal_flush": null}}', f'"pays" of "royal_flush" {FINITE} null'),
    ("array pay", b'{"pays": {"royal_flush": [800]}}', f'"pays" of "royal_flush" {FINITE} [800]'),
    ("unknown category", b'{"pays": {"royal": 800}}', f'unknown category "royal" in "pays"; the categories are {CATEGORIES}'),
    ("category label", b'{"pays": {"Royal Flush": 800}}', f'unknown category "Royal Flush" in "pays"; the categories are {CATEGORIES}'),
    ("unknown key", b'{"pay": {"royal_flush": 800}}', 'unknown key "pay" (did you mean "pays"?); the keys are "name", "rules", "coins", "pays", "min_pair", "return", "published", "source"'),
    ("unknown key, no hint", b'{"pays": {}, "max": 5}', 'unknown key "max"; the keys are "name", "rules", "coins", "pays", "min_pair", "return", "published", "source"'),
    ("no pays", b'{"name": "x"}', 'no "pays": the object needs "pays": {category: payout per coin} or a list of lines'),
    ("pays a list of numbers", b'{"pays": [800, 50]}', 'line 1 of "pays" must be an object {"hand": ..., "pays": ...}, got 800'),
    ("pays a number", b'{"pays": 800}', '"pays" must be an object of category: payout per coin, or a list of lines, got 800'),
    ("top level an array", b'[{"pays": {}}]', 'the top level must be an object {"pays": ...}, got [{"pays": {}}]'),
    ("top level a string", b'"jacks-or-better"', 'the top level must be an object {"pays": ...}, got "jacks-or-better"'),
    ("top level null", b"null", 'the top level must be an object {"pays": ...}, got null'),
    ("min_pair a card", b'{"pays": {}, "min_pair": "JS"}', '"min_pair" must be a rank (2-10, J, Q, K, A), got "JS"'),
    ("min_pair a number", b'{"pays": {}, "min_pair": 11}', '"min_pair" must be a rank (2-10, J, Q, K, A), got 11'),
    ("min_pair a joker", b'{"pays": {}, "min_pair": "JK"}', '"min_pair" must be a rank (2-10, J, Q, K, A), got "JK"'),
    ("min_pair a word", b'{"pays": {}, "min_pair": "jacks"}', '"min_pair" must be a rank (2-10, J, Q, K, A), got "jacks"'),
    ("name a number", b'{"pays": {}, "name": 5}', '"name" must be a string, got 5'),
    ("name two lines", b'{"pays": {}, "name": "a\\nb"}', '"name" must be one line of text (at most 80 characters), got "a\\nb"'),
    ("name empty", b'{"pays": {}, "name": " "}', '"name" must be one line of text (at most 80 characters), got " "'),
    ("duplicate key", b'{"pays": {"one_pair": 1, "one_pair": 2}}', 'key "one_pair" appears twice in one object'),
    ("bad JSON", b'{"pays": {"royal_flush": 800,\n  "flush" 6}}', "not valid JSON: Expecting ':' delimiter at line 2, column 11"),
    ("unterminated", b'{"name": "x', "not valid JSON: Unterminated string starting at line 1, column 10"),
    ("trailing data", b'{"pays": {}} {}', "not valid JSON: Extra data at line 1, column 14"),
    ("empty", b"", "empty"),
    ("not UTF-8", b'{"name": "\xff"}', "not UTF-8 text: byte 0xff at line 1 (byte 11)"),
    ("UTF-16", '{"pays": {}}'.encode("utf-16"), "not UTF-8 text: byte 0xff at line 1 (byte 1)"),
    ("nested 100,000 deep", b"[" * 100_000, "JSON nested deeper than 20 levels at line 1, column 21"),
    ("nested deep in pays", b'{"pays": {"flush": ' + b"[" * 30 + b"]" * 30 + b"}}", "JSON nested deeper than 20 levels at line 1, column 38"),
]


@pytest.mark.parametrize(("content", "problem"), [t[1:] for t in BAD_TABLES], ids=[t[0] for t in BAD_TABLES])
def test_bad_pay_table_files(in_tmp: Path, content: bytes, problem: str) -> None:
    (in_tmp / "table.json").write_bytes(content)
    with pytest.raises(PayTableError) as caught:
        load_paytable("table.json")
    assert str(caught.value) == f"bad pay table file 'table.json': {problem}"
    assert isinstance(caught.value, FivecardError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(("content", "problem"), [t[1:] for t in BAD_TABLES[:3]], ids=[t[0] for t in BAD_TABLES[:3]])
def test_bad_pay_table_from_the_command(in_tmp: Path, content: bytes, problem: str) -> None:
    (in_tmp / "table.json").write_bytes(content)
    code, out, err = run(["advise", "--paytable", "table.json", "AS AH 7C 4D 2S"])
    assert (code, out, err) == (2, "", f"fivecard: error: bad pay table file 'table.json': {problem}\n")


def test_a_2_mib_file_is_refused_at_the_limit(in_tmp: Path) -> None:
    padding = " " * (2 << 20)  # valid JSON, but no pay table is this large
    (in_tmp / "big.json").write_text('{"pays": {"one_pair": 1}}' + padding)
    with pytest.raises(PayTableError) as caught:
        load_paytable("big.json")
    assert str(caught.value) == (
        "bad pay table file 'big.json': larger than the limit of 1,048,576 bytes (1 MiB) for a pay table"
    )
    # Exactly at the limit is still read.
    (in_tmp / "limit.json").write_text('{"pays": {"one_pair": 1}}'.ljust(PAYTABLE_LIMIT))
    assert load_paytable("limit.json").pays == {"one_pair": 1.0}


def test_an_endless_device_is_refused_at_the_limit() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this platform")
    with pytest.raises(PayTableError, match=r"'/dev/zero': larger than the limit of 1,048,576 bytes"):
        load_paytable("/dev/zero")
    code, out, err = run(["advise", "--paytable", "/dev/zero", "AS AH 7C 4D 2S"])
    assert code == 2 and out == "" and err.count("\n") == 1 and "1 MiB" in err


def test_a_directory_is_refused(in_tmp: Path) -> None:
    (in_tmp / "tables").mkdir()
    with pytest.raises(PayTableError) as caught:
        load_paytable("tables")
    assert str(caught.value) == "bad pay table file 'tables': a directory, not a file"


def test_a_missing_file_or_unknown_name(in_tmp: Path) -> None:
    for name, hint in (("bonus-poker", " (did you mean bonus-poker-8-5?)"), ("missing.json", ""), ("", "")):
        with pytest.raises(PayTableError) as caught:
            load_paytable(name)
        assert str(caught.value) == (
            f"unknown pay table {name!r}{hint}: not a built-in name (fivecard strategy --list lists them) nor a file"
        )
    code, _, err = run(["advise", "--paytable", "", "AS AH 7C 4D 2S"])
    assert code == 2 and "unknown pay table ''" in err  # an empty name is not "no table"


def test_an_unreadable_file(in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = in_tmp / "secret.json"
    path.write_text('{"pays": {}}')
    path.chmod(0)
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # root reads any file: refuse it as the system would
        real_open = os.open

        def refused(name: object, *args: object, **kwargs: object) -> int:
            if str(name).endswith("secret.json"):
                raise PermissionError(13, "Permission denied", str(name))
            return real_open(name, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "open", refused)
    with pytest.raises(FileAccessError, match=r"cannot read pay table file 'secret.json': Permission denied") as caught:
        load_paytable("secret.json")
    assert not isinstance(caught.value, ValueError)  # the file system's refusal, not bad input


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")
def test_a_fifo_with_no_writer_is_an_error_not_a_wait(in_tmp: Path) -> None:
    os.mkfifo(in_tmp / "pipe")
    outcome: list[BaseException | PayTable] = []

    def load() -> None:
        try:
            outcome.append(load_paytable("pipe"))
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(timeout=120)  # a guard against hanging for ever, not a speed test
    if worker.is_alive():  # it waits for a writer: give it one, then fail
        with open(in_tmp / "pipe", "w", encoding="utf-8"):
            pass
        worker.join()
        pytest.fail("load_paytable waited for a writer on the FIFO")
    [result] = outcome
    assert isinstance(result, PayTableError)
    assert str(result) == "bad pay table file 'pipe': empty (a pipe with no writer)"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reopening a pipe by name needs Linux")
def test_a_pipe_with_its_writer_is_read() -> None:
    """As ``--paytable <(cat table.json)`` or ``--paytable /dev/stdin``."""
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(write_end, "w", encoding="utf-8") as writer:
            writer.write('{"name": "Piped", "pays": {"one_pair": 1}}')
        assert stat.S_ISFIFO(os.fstat(read_end).st_mode)
        table = load_paytable(f"/proc/self/fd/{read_end}")
    finally:
        os.close(read_end)
    assert (table.title, table.pays) == ("Piped", {"one_pair": 1.0})


def test_a_good_file(in_tmp: Path) -> None:
    (in_tmp / "mine.json").write_bytes(
        b'\xef\xbb\xbf{"name": "Mine", "pays": {"royal_flush": 250, "flush": 5.5, "one_pair": 1, "high_card": -0},'
        b' "min_pair": "10"}'
    )
    table = load_paytable("mine.json")
    assert table.title == "Mine" and table.min_pair is Rank.TEN
    assert table.pays == {"royal_flush": 250.0, "flush": 5.5, "one_pair": 1.0, "high_card": 0.0}
    assert str(table.pays["high_card"]) == "0.0"  # not -0.0
    (in_tmp / "plain.json").write_text(json.dumps({"pays": {"five_of_a_kind": 1000}, "min_pair": None}))
    plain = load_paytable("plain.json")
    assert (plain.title, plain.min_pair) == ("plain", None)  # the name defaults to the file's


def test_a_pay_table_is_named_as_a_rule_set_is() -> None:
    """``name`` is the id (the key of PAYTABLES, a file's name), ``title``
    the label people read (the JSON's "name"), the name where none is given."""
    for key, table in PAYTABLES.items():
        assert table.name == key and builtin_paytable(key.upper()) is table
    assert (JACKS_OR_BETTER.title, DEUCES_WILD_FULL_PAY.title) == ("Jacks or Better 9/6", "Deuces Wild (full pay)")
    assert advise("AS KS QS JS TS", paytable=JACKS_OR_BETTER).to_json()["paytable"] == "Jacks or Better 9/6"
    mine = parse_paytable('{"name": "My table", "pays": {"one_pair": 1}}', name="mine")
    assert (mine.name, mine.title) == ("mine", "My table")
    assert PayTable("plain", {"one_pair": 1}).title == "plain"


@pytest.mark.parametrize("table", list(PAYTABLES.values()), ids=list(PAYTABLES))
def test_a_table_that_names_its_rule_set_implies_it(table: PayTable) -> None:
    """Every built-in table, and one read from JSON: played under the rule
    set it names (else standard) when none is given, under the one given
    when it agrees, and any other given is the one-line error that says
    which to use."""
    own = table.rules or "standard"
    assert table.rules_to_play().name == own and table.rules_to_play(own).name == own
    assert advise("AS KS QS JS 9S", paytable=table).hand.rules.name == own
    standard_hand = Hand.parse("AS KS QS JS 9S")  # a Hand keeps its own rules
    if own == "standard":
        assert advise(standard_hand, paytable=table).hand.rules.name == "standard"
    else:
        with pytest.raises(PayTableError, match="not standard$"):
            advise(standard_hand, paytable=table)
    for other in ("standard", "joker", "short-deck"):
        if table.rules is None or other == own:
            assert table.rules_to_play(other).name == other
        else:
            with pytest.raises(PayTableError, match=f"^{re.escape(table.title)} plays under the {own} rules, not {other}$"):
                table.rules_to_play(other)
    named = parse_paytable('{"pays": {"one_pair": 1}, "rules": "short"}', name="mine")
    assert named.rules_to_play().name == "short-deck"


def test_built_in_names_any_case() -> None:
    for name in ("jacks-or-better", "Jacks-or-Better", " JACKS-OR-BETTER "):
        assert load_paytable(name) is JACKS_OR_BETTER


@pytest.mark.parametrize(
    ("name", "pays", "min_pair", "problem"),
    [
        ("x", {"one_pair": float("nan")}, None, '"pays" of "one_pair" must be a number from 0 to 1,000,000, got NaN'),
        ("x", {"one_pair": -2}, None, '"pays" of "one_pair" must be a number from 0 to 1,000,000, got -2'),
        ("x", {"one_pair": 1e300}, None, '"pays" of "one_pair" must be a number from 0 to 1,000,000, got 1e+300'),
        ("x", {"one_pair": 10**400}, None, '"pays" of "one_pair" must be a number from 0 to 1,000,000, got 100000000000000000000000000000...000000000000000000000000000000 (401 characters)'),
        ("x", {"pair": 1}, None, f'unknown category "pair" in "pays"; the categories are {CATEGORIES}'),
        ("x", [("one_pair", 1)], None, '"pays" must be an object of category: payout per coin, or a list of lines, got [["one_pair", 1]]'),
        ("", {}, None, '"name" must be one line of text (at most 80 characters), got ""'),
        ("x" * 81, {}, None, '"name" must be one line of text (at most 80 characters), got "xxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxxx" (83 characters)'),
        ("x", {}, "J", '"min_pair" must be a rank, got "J"'),
    ],
)
def test_pay_tables_made_in_code_are_checked(name: str, pays: object, min_pair: object, problem: str) -> None:
    with pytest.raises(PayTableError) as caught:
        PayTable(name, pays, min_pair)  # type: ignore[arg-type]
    assert str(caught.value) == problem


# --- advise's other inputs -------------------------------------------------------


def test_jokers_and_semi_hands_are_advised() -> None:
    joker = advise("JK JK 7S 7C 2D", rules="joker", paytable=JACKS_OR_BETTER)
    assert joker.recommended.ev == 25 and len(joker.unseen) == 49
    semi = advise("Q Q 9 5 2", rules="semi")
    assert len(semi.unseen) == 47 and [c.code_str for c in semi.recommended.keep] == ["Q", "Q"]


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["JK AH 7C 4D 2S"], "card 1 is a joker, which the standard rules do not use"),
        (["--rules", "joker", "JK JK JK 2S 3S"], "the joker rules allow at most 2 per hand"),
        (["--rules", "semi", "Q Q Q Q Q"], "the hand 'Q Q Q Q Q' holds 5 cards of rank Q, more than the 4 of the 52-card deck"),
        (["AS AS 7C 4D 2S"], "duplicate card A♠ (cards 1 and 2)"),
        (["AS AH 7C 4D"], "expected 5 cards, got 4"),
    ],
)
def test_bad_hands_fail_cleanly(argv: list[str], problem: str) -> None:
    code, out, err = run(["advise", *argv])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("fivecard: error: ") and problem in err


def test_a_semi_hand_beyond_the_deck_is_refused_by_the_library() -> None:
    with pytest.raises(FivecardError, match="so which cards are unseen is not defined"):
        unseen_cards(Hand.parse("9 9 9 9 9", rules="semi"))


def test_json_lists_every_choice_and_refuses_all() -> None:
    _, plain, _ = run(["advise", "--json", "AS KS QS JS 2D"])
    assert len(json.loads(plain)["choices"]) == 32
    code, _, err = run(["advise", "--json", "--all", "AS KS QS JS 2D"])
    assert code == 2 and "--json lists all 32 choices" in err


# The long form: lines narrowed by rank, kicker and wild cards ---------------------------

DDB_LINES = [
    {"hand": "four_of_a_kind", "ranks": "A", "kicker": "2-4", "pays": 400},
    {"hand": "four_of_a_kind", "ranks": "2-4", "kicker": "A-4", "pays": 160},
    {"hand": "four_of_a_kind", "ranks": "A", "pays": 160},
    {"hand": "four_of_a_kind", "ranks": "2-4", "pays": 80},
    {"hand": "four_of_a_kind", "pays": 50},
    {"hand": "one_pair", "ranks": "J-A", "pays": 1},
]

BAD_LINES: list[tuple[str, list[object], str]] = [
    (
        "overlap",
        [{"hand": "four_of_a_kind", "ranks": "A-4", "pays": 80}, {"hand": "four_of_a_kind", "ranks": "2-K", "pays": 50}],
        "lines 1 (four_of_a_kind_A-4) and 2 (four_of_a_kind_2-K) overlap: both pay four_of_a_kind_2-4 and "
        "neither is more specific; narrow one of them, or add a line for the hands of both",
    ),
    (
        "overlap of rank and wild cards",
        [{"hand": "five_of_a_kind", "wilds": 4, "pays": 200}, {"hand": "five_of_a_kind", "ranks": "A", "pays": 80}],
        "lines 1 (four_wild) and 2 (five_of_a_kind_A) overlap: both pay four_wild_A and neither is more "
        "specific; narrow one of them, or add a line for the hands of both",
    ),
    (
        "the same hands twice",
        [{"hand": "flush", "pays": 6}, {"hand": "flush", "pays": 5, "label": "Flush again"}],
        "two lines are named flush",
    ),
    (
        "unknown category",
        [{"hand": "quads", "pays": 25}],
        'line 1 of "pays": unknown category "quads"; the categories are ' + ", ".join(CATEGORY_NAMES),
    ),
    ("not finite", [{"hand": "flush", "pays": float("inf")}], f'line 1 of "pays": "pays" of "flush" {FINITE} Infinity'),
    ("negative", [{"hand": "flush", "pays": -6}], f'line 1 of "pays": "pays" of "flush" {FINITE} -6'),
    (
        "a kicker on a category that has none",
        [{"hand": "full_house", "kicker": "A", "pays": 9}],
        'line 1 of "pays": "kicker" on full_house, a category that has none; only four_of_a_kind has a kicker '
        '(four deuces with an ace: five_of_a_kind, "ranks": "A", "wilds": 4)',
    ),
    (
        "ranks on a category without a group",
        [{"hand": "straight", "ranks": "A", "pays": 4}],
        'line 1 of "pays": "ranks" on straight, a category without a group to rank; ranks narrow '
        "five_of_a_kind, four_of_a_kind, full_house, one_pair, three_of_a_kind",
    ),
    (
        "a range that runs down",
        [{"hand": "one_pair", "ranks": "K-J", "pays": 1}],
        'line 1 of "pays": "ranks": the range "K-J" runs down; write the lower rank first ("J-K")',
    ),
    (
        "not a rank",
        [{"hand": "one_pair", "ranks": "jacks", "pays": 1}],
        'line 1 of "pays": "ranks" must be ranks or ranges such as "A", "2-4", "J-A", "A, 2-4", got "jacks"',
    ),
    (
        "natural and wilds",
        [{"hand": "royal_flush", "natural": True, "wilds": 0, "pays": 800}],
        'line 1 of "pays": give "natural" or "wilds", not both',
    ),
    (
        "too many wild cards",
        [{"hand": "five_of_a_kind", "wilds": 6, "pays": 800}],
        'line 1 of "pays": "wilds" must be a count of wild cards from 0 to 5, or a list of them, got 6',
    ),
    (
        "a misspelt key",
        [{"hand": "flush", "pay": 6}],
        'unknown key "pay" (did you mean "pays"?) in line 1 of "pays"; the keys are "hand", "ranks", "kicker", '
        '"natural", "wilds", "pays", "below_max", "label"',
    ),
    ("no pay", [{"hand": "flush"}], 'line 1 of "pays" has no "pays"'),
    ("an empty list", [], '"pays" is an empty list: a table pays at least one hand'),
    (
        "too many lines",
        [{"hand": "flush", "pays": 1, "label": str(n)} for n in range(101)],
        '"pays" has 101 lines; a table has at most 100',
    ),
]


@pytest.mark.parametrize(("lines", "problem"), [t[1:] for t in BAD_LINES], ids=[t[0] for t in BAD_LINES])
def test_bad_lines_say_what_is_wrong(lines: list[object], problem: str) -> None:
    with pytest.raises(PayTableError) as caught:
        parse_paytable(json.dumps({"pays": lines}), name="x")
    assert str(caught.value) == problem


def test_the_most_specific_line_pays() -> None:
    """Double Double Bonus: four aces pay 400 with a 2, 3 or 4 beside them,
    else 160; four 2s-4s 160 with an A-4 kicker, else 80; other fours 50."""
    table = parse_paytable(json.dumps({"pays": DDB_LINES}), name="ddb")
    paid = {
        "AS AH AD AC 3S": 400,
        "AS AH AD AC KS": 160,
        "2S 2H 2D 2C AS": 160,
        "4S 4H 4D 4C 3S": 160,
        "3S 3H 3D 3C 9S": 80,
        "KS KH KD KC 2S": 50,
        "JS JH 9D 4C 3S": 1,
        "TS TH 9D 4C 3S": 0,
    }
    for cards, pay in paid.items():
        hand = Hand.parse(cards)
        indices = np.array([[c.index for c in hand.cards]], dtype=np.int32)
        strengths = strengths_of_indices(indices, rules=hand.rules)
        assert table.hand_pays(hand.rules, indices, strengths).tolist() == [pay], cards


def test_the_short_form_and_the_lines_are_one_table() -> None:
    """A table written as category: pay with min_pair pays as the same
    table written line by line: the short form becomes lines."""
    short = parse_paytable(
        json.dumps({"pays": {"royal_flush": 800, "flush": 6, "one_pair": 1}, "min_pair": "J"}), name="short"
    )
    lines = parse_paytable(
        json.dumps({"pays": [{"hand": "royal_flush", "pays": 800}, {"hand": "flush", "pays": 6},
                             {"hand": "one_pair", "ranks": "J-A", "pays": 1}]}),
        name="lines",
    )  # fmt: skip
    rules = get_rules("standard")
    assert (short.entry_table(rules) == lines.entry_table(rules)).all()
    assert short.lowest_pair == lines.lowest_pair == Rank.JACK


def test_every_catalogue_file_reads_and_names_its_parts() -> None:
    """Every shipped table reads, names a rule set that exists, pays every
    line a whole number, and its labels are as machines print them."""
    for table in PAYTABLES.values():
        ruleset = table.rules_to_play()
        assert all(entry.pays == int(entry.pays) for entry in table.entries)
        assert all(entry.label for entry in table.entries), table.name
        assert table.entry_table(ruleset).shape[0] > 1


HOSTILE_TEXT = "x\u202ey\u009b31m\u2028z\u200b\x7f\u00a0\u0085"
_TOP_KEYS = ("name", "rules", "coins", "min_pair", "return", "published", "source", "pays")
_LINE_KEYS = ("hand", "ranks", "kicker", "natural", "wilds", "pays", "below_max", "label")
HOSTILE_FIELDS: list[tuple[str, dict[str, object]]] = [
    *[(key, dict[str, object]({"pays": {"flush": 1}, key: HOSTILE_TEXT})) for key in _TOP_KEYS],
    ("a key", {"pays": {"flush": 1}, HOSTILE_TEXT: 1}),
    ("a category", {"pays": {HOSTILE_TEXT: 1}}),
    *[(f"line {key}", dict[str, object]({"pays": [{"hand": "four_of_a_kind", "pays": 1, key: HOSTILE_TEXT}]}))
      for key in _LINE_KEYS],
    ("a line's key", {"pays": [{"hand": "flush", "pays": 1, HOSTILE_TEXT: 1}]}),
]


@pytest.mark.parametrize(("data"), [t[1] for t in HOSTILE_FIELDS], ids=[t[0] for t in HOSTILE_FIELDS])
def test_errors_quote_unprintable_characters_escaped(in_tmp: Path, data: dict[str, object]) -> None:
    """A bidi override, a C1 control or a line separator in any field of a
    file is quoted escaped: the error is one printable line on a terminal."""
    Path("t.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    for argv in (["advise", "--paytable", "t.json", "AS KS QS JS 9H"], ["strategy", "--paytable", "t.json"]):
        code, out, err = run(argv)
        assert (code, out) == (2, ""), err
        line = err.removesuffix("\n")
        assert line.startswith("fivecard: error: ") and line.isprintable(), ascii(line)


FILE_NAMES: list[tuple[str, str, str]] = [
    ("plain", "mine.json", "mine"),
    ("a tab", "my\ttable.json", "my table"),
    ("a line break", "my\ntable.json", "my table"),
    ("a bidi override", "my\u202etable.json", "my table"),
    ("spaces only", " .json", "paytable"),
    ("long", "t" * 200 + ".json", "t" * 77 + "..."),
    ("no suffix", "table", "table"),
]


@pytest.mark.parametrize(("file", "ident"), [t[1:] for t in FILE_NAMES], ids=[t[0] for t in FILE_NAMES])
def test_any_file_name_gives_a_table_id(in_tmp: Path, file: str, ident: str) -> None:
    """A good table is read whatever its file is called: the id made from
    the file's name is one line of at most 80 characters, and the table's
    own "name" is its title."""
    (in_tmp / file).write_text(json.dumps({"pays": {"flush": 1}}))
    assert load_paytable(file).title == ident
    (in_tmp / file).write_text(json.dumps({"name": "Mine", "pays": {"flush": 1}}))
    table = load_paytable(file)
    assert (table.name, table.title) == (ident, "Mine")
    code, out, err = run(["advise", "--paytable", file, "AS KS QS JS 9H"])
    assert (code, err) == (0, "") and "under Mine" in out
