"""Bad input: a clear error from the library, exit 2 and one stderr line from
the command."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from fivecard import FivecardError, Hand, HandError, ParseError
from fivecard import showdown
from fivecard.cli import main

BAD_HANDS = [
    # (text, error class, words the message must contain)
    ("AS KS QS JS AS", HandError, ["duplicate card A♠ (cards 1 and 5)"]),
    ("AS KS QS JS", HandError, ["expected 5 cards, got 4", "'AS KS QS JS'"]),
    ("AS KS QS JS TS 9S", HandError, ["expected 5 cards, got 6"]),
    ("", HandError, ["no cards"]),
    ("   ", HandError, ["no cards"]),
    ("1S KD 3C 4H 5D", ParseError, ["unknown rank '1' in card 1 ('1S')"]),
    ("KD 3C 1S 4H 5D", ParseError, ["unknown rank '1' in card 3 ('1S')"]),
    ("11H KD 3C 4H 5D", ParseError, ["unknown rank '11' in card 1 ('11H')"]),
    ("ZZ KD 3C 4H 5D", ParseError, ["unknown card 'ZZ' (card 1)"]),
    ("AX KD 3C 4H 5D", ParseError, ["unknown suit 'X' in card 1 ('AX')"]),
    ("10 KD 3C 4H 5D", HandError, ["card 1 ('10') has no suit", "semi rules"]),
    ("JK KD 3C 4H 5D", HandError, ["card 1 is a joker", "jokers are wild under the joker rules"]),
    ("AS KS\nQS JS TS", ParseError, ["line break"]),
    ("AS KS\r\nQS JS TS", ParseError, ["line break"]),
    ("AS KS \ufeffQS JS TS", ParseError, ["U+FEFF", "card 3"]),
    ("\ufeff", HandError, ["no cards"]),
    ("AS KS Q\tS JS TS", ParseError, ["suit without a rank in card 4 ('S')"]),
    ("AS KS \x07QS JS TS", ParseError, ["U+0007", "card 3"]),
    ("♠ KS QS JS TS", ParseError, ["suit without a rank in card 1"]),
    ("x" * 1_000_000, ParseError, ["unknown card", "(1,000,000 characters)"]),
    ("AS " * 300_000, HandError, ["expected 5 cards, got 300,000"]),
]


@pytest.mark.parametrize(("text", "error", "words"), BAD_HANDS, ids=lambda v: repr(v)[:30])
def test_library_gives_a_clear_error(text: str, error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as caught:
        Hand.parse(text)
    assert isinstance(caught.value, FivecardError)
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    for w in words:
        assert w in message
    assert len(message) < 400


def test_good_whitespace_and_bom_are_accepted() -> None:
    assert Hand.parse("\ufeffAS KS QS JS TS") == Hand.parse("AS\tKS  QS,JS ,TS")


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("text", "error", "words"), BAD_HANDS, ids=lambda v: repr(v)[:30])
def test_command_exits_2_with_one_line(text: str, error: type[Exception], words: list[str]) -> None:
    code, out, err = run(["classify", text])
    assert code == 2
    assert out == ""
    assert err.startswith("fivecard: error: hand 1: ")
    assert err.endswith("\n") and err.count("\n") == 1
    assert "Traceback" not in err


def test_command_reads_hands_from_stdin() -> None:
    code, out, err = run(["classify", "-"], stdin="AS KS QS JS TS\n\n2c 3d 4h 5s 7c\n")
    assert code == 0 and err == ""
    assert out.count("\n") == 2
    code, out, err = run(["classify", "-"], stdin="x" * 1_000_000 + "\n")
    assert code == 2 and err.count("\n") == 1 and "1,000,000 characters" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["compare", "AS KS QS JS TS", "AS 2D 3D 4D 5D"], "card A♠ is in hands 1 and 2"),
        (["compare", "-"], "at least one hand, got none"),
        (["compare", "AS KS QS JS TS", "2D 3D 4D 5D"], "hand 2: expected 5 cards"),
        (["compare", "--decks", "0", "AS KS QS JS TS", "2D 3D 4D 5D 7C"], "at least 1"),
        (["classify", "--rules", "texas", "AS KS QS JS TS"], "unknown rule set 'texas'"),
        (["classify"], "arguments are required"),
        (["frobnicate"], "invalid choice"),
        (["compare", "--decks", "two", "AS KS QS JS TS", "2D 3D 4D 5D 7C"], "invalid int"),
    ],
)
def test_command_usage_and_showdown_errors(argv: list[str], words: str) -> None:
    code, out, err = run(argv)
    assert code == 2, (out, err)
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_shared_card_allowed_with_more_decks() -> None:
    result = showdown(["AS KS QS JS TS", "AS 2D 3D 4D 5D"], decks=2)
    assert result.winners == (0,)
    with pytest.raises(HandError, match="card A♠ is in hands 1, 2 and 3"):
        showdown(["AS KS QS JS TS", "AS 2D 3D 4D 5D", "AS 2C 3C 4C 5C"], decks=2)


# --- an empty or short hand: one check, one message, on every path ----------------------------

#: Hands too short to be one, and the one message of each (the library's,
#: from the one check every path goes through).
SHORT_HANDS = [
    ("", "no cards (an empty hand) in ''"),
    ("   ", "no cards (an empty hand) in '   '"),
    (",", "no cards (an empty hand) in ','"),
    ("QS", "expected 5 cards, got 1 in 'QS'"),
    ("QS JS QH 3C", "expected 5 cards, got 4 in 'QS JS QH 3C'"),
]
OTHER = "2C 3D 4H 5S 7C"
BOARD = "AS KS 7D 2C 9H"


def _message(call: Callable[[], object]) -> str:
    with pytest.raises(HandError) as caught:
        call()
    return str(caught.value)


def _paths(text: str) -> dict[str, str]:
    """Each way a hand comes in, and the message it gives for ``text``."""
    from fivecard import evaluate, strength
    from fivecard.vector import batch
    from fivecard.core.evaluate import strength_function
    from fivecard.core.hand import as_hand

    found = {
        "Hand.parse": _message(lambda: Hand.parse(text)),
        "as_hand": _message(lambda: as_hand(text)),
        "evaluate": _message(lambda: evaluate(text)),
        "strength": _message(lambda: strength(text)),
        "text_strength_function": _message(lambda: strength_function(text=True)(text)),
        "showdown": _message(lambda: showdown([text, OTHER])).removeprefix("hand 1: "),
        "batch.encode": batch.encode([text]).errors[0],
    }
    for argv in (["classify", text], ["compare", text, OTHER], ["advise", text]):
        code, out, err = run(argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
        found[argv[0]] = err.removeprefix("fivecard: error: ").removeprefix("hand 1: ").removesuffix("\n")
    # a text file's row (read without the spaces around each hand)
    code, out, _ = run(["solve", "-", "--json"], stdin=f"{text} | {OTHER}\n")
    assert code == 1
    found["solve"] = json.loads(out)["error"].removeprefix("hand 1: ").replace("''", repr(text), 1)
    return found


@pytest.mark.parametrize(("text", "message"), SHORT_HANDS, ids=repr)
def test_every_path_refuses_a_short_hand_with_one_message(text: str, message: str) -> None:
    assert _paths(text) == dict.fromkeys(_paths(text), message)


@pytest.mark.parametrize("text", [t for t, m in SHORT_HANDS if m.startswith("no cards")], ids=repr)
def test_a_board_never_makes_an_empty_hand_a_hand(text: str) -> None:
    """With a board every hand plays the board's cards too: an empty hand
    would play the board alone, and is refused as it is without one."""
    from fivecard import evaluate, strength

    message = f"no cards (an empty hand) in {text!r} with the board {BOARD!r}"
    assert _message(lambda: evaluate(text, board=BOARD)) == message
    assert _message(lambda: strength(text, board=BOARD)) == message
    assert _message(lambda: showdown([text, "8C 8D"], board=BOARD)) == f"hand 1: {message}"
    assert _message(lambda: showdown(["8C 8D", text], board=BOARD)) == f"hand 2: {message}"
    code, out, err = run(["compare", "--board", BOARD, text, text])
    assert (code, out, err) == (2, "", f"fivecard: error: hand 1: {message}\n")
    # the board's own cards and a hand's make a hand: hold'em's two and five
    assert evaluate("QS JS", board=BOARD).description == "High Card, A-K-Q-J-9"


# --- the file system's refusals -------------------------------------------------------------

# A file the file system will not give or take: every way a command reads or
# writes one. (args, with {missing} a path in a folder that does not exist.)
REFUSED = [
    ["solve", "{missing}/in.csv"],
    ["solve", "{examples}/showdowns.csv", "-o", "{missing}/out.csv"],
    ["solve", "{examples}/showdowns.csv", "-o", "{missing}/out.xlsx"],
    ["mark", "{missing}/answered.csv"],
    ["advise", "AS KS QS JS 2D", "--paytable", "{missing}/table.json"],
    ["strategy", "--paytable", "jacks-or-better", "--rules", "short-deck", "-o", "{missing}/out.csv"],
    ["grid", "-o", "{missing}/grid.csv"],
]


@pytest.mark.parametrize("args", REFUSED, ids=lambda a: " ".join(a[:2]))
def test_a_file_the_file_system_refuses_is_one_line_and_exit_2(args: list[str], tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    argv = [a.format(missing=tmp_path / "no-such-folder", examples=examples) for a in args]
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdin=io.StringIO(), stdout=out, stderr=err) == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fivecard: error: "), lines
    assert "no-such-folder" in lines[0] and "Traceback" not in err.getvalue()


def test_the_file_systems_refusal_is_an_os_error_not_bad_input(tmp_path: Path) -> None:
    from fivecard.core.errors import FileAccessError
    from fivecard.files.paytable_file import load_paytable
    from fivecard.files.solve import solve_file
    from fivecard.files.target import write_error

    for refused in (
        lambda: solve_file(str(tmp_path / "missing.csv"), str(tmp_path / "out.csv")),
        lambda: load_paytable(str(tmp_path / "folder-that-is-a-file" / "table.json")),
    ):
        (tmp_path / "folder-that-is-a-file").write_text("")
        with pytest.raises(FileAccessError) as caught:
            refused()
        assert isinstance(caught.value, OSError) and not isinstance(caught.value, ValueError)
    said = write_error(OSError(28, "No space left on device"), "'out.csv'")
    assert str(said) == "cannot write 'out.csv': No space left on device"
    assert write_error(said, "'other.csv'") is said  # said once, never twice
