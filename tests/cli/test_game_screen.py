"""`fivecard play`: quitting, the end of input and Ctrl-C void the round in
play and print the standings; options are checked before any output; the
hand line and the hint name the positions to type; a bad answer says what
is wrong with it; breaking a made hand asks first; keys typed before a
prompt in a terminal are dropped; lines fit the terminal's width."""

from __future__ import annotations

import io
import itertools
import os
import random
import re
import selectors
import sys
from pathlib import Path

import pytest

from fivecard import parse_cards
from fivecard.cli import main
from fivecard.cli.game_screen import HELP, PROMPT, parse_keep, wrap
from fivecard.core.cards import format_cards, full_deck
from fivecard.core.hand import Hand
from fivecard.core.rules import RULE_SETS
from fivecard.play.game import GameError
from helpers import STOPS, CtrlCInput, read_until, stopped_at

START = "After 0 rounds: You 1,000, Computer 1 1,000, Computer 2 1,000."
VOID_1 = "Round 1 is void: every chip of it goes back (You 20, Computer 1 20, Computer 2 20)."


def run(argv: list[str], stdin: str | io.StringIO = "", stdout: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = stdout or io.StringIO(), io.StringIO()
    source = stdin if isinstance(stdin, io.StringIO) else io.StringIO(stdin)
    code = main(argv, stdin=source, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def last_line(text: str) -> str:
    return text.rstrip("\n").splitlines()[-1]


# --- q and the end of input -------------------------------------------------------


@pytest.mark.parametrize("answers", ["q\n", "quit\n", "", "h\n"], ids=["q", "quit", "EOF", "EOF after a hint"])
def test_quitting_at_the_first_prompt_gives_every_chip_back(answers: str) -> None:
    code, out, err = run(["play", "--seed", "1"], answers)
    assert code == 0 and err == ""
    assert VOID_1 in out and "Dealer:" not in out
    assert last_line(out) == START


def test_quit_after_a_fold_keeps_the_settled_round() -> None:
    code, out, _ = run(["play", "--seed", "1"], "f\n\nq\n")
    assert code == 0 and "You fold" in out
    settled = re.findall(r"^Stacks: (.*)\.$", out, re.M)
    assert len(settled) == 1 and settled[0].startswith("You 980, ")
    assert "Round 2 is void: every chip of it goes back (You 20, Computer 1 20, Computer 2 20)." in out
    assert last_line(out) == f"After 1 round: {settled[0]}."


def test_the_last_lines_say_the_players_rounds_and_chips() -> None:
    """Quitting says the rounds settled against the dealer, the pots won
    and the chips from the first round to the last, before the standings;
    no round settled, no such line."""
    _, out, _ = run(["play", "--seed", "1"], "a\n\nf\n\nq\n")
    first, last = re.findall(r"^Stacks: You ([\d,]+),", out, re.M)
    assert "the dealer beats you" in out.lower() and "You fold:" in out  # the seed's two rounds
    assert out.rstrip("\n").splitlines()[-2] == (
        f"2 rounds against the dealer: 0 wins, 1 loss, 0 draws, 1 fold; 0 pots won; "
        f"chips 1,000 → {last} (−{1000 - int(last.replace(',', ''))})."
    )
    _, out, _ = run(["play", "--seed", "1"], "q\n")
    assert "against the dealer:" not in out and last_line(out).startswith("After 0 rounds: ")


def test_quit_keeps_a_carried_pot_unclaimed() -> None:
    code, out, _ = run(["play", "--seed", "1", "--fold-below", "1"], "f\n\nq\n")
    assert "pot 60 (30 carried)" in out and "Round 2 is void" in out
    assert last_line(out) == (
        "After 1 round: You 980, Computer 1 980, Computer 2 980; 30 carried in the pot, unclaimed."
    )


def test_quit_between_rounds_voids_nothing() -> None:
    code, out, _ = run(["play", "--seed", "1"], "a\nq\n")
    assert code == 0 and "is void" not in out
    settled = re.findall(r"^Stacks: (.*)\.$", out, re.M)
    assert last_line(out) == f"After 1 round: {settled[0]}."


# --- Ctrl-C -----------------------------------------------------------------------


class CtrlCOutput(io.StringIO):
    """Ctrl-C while the dealer's second card is being turned up."""

    def write(self, text: str) -> int:
        if "Dealer:" in self.getvalue() and "Dealer has" not in self.getvalue() and text.startswith(" "):
            if self.getvalue().endswith(("♠", "♥", "♦", "♣")):
                raise KeyboardInterrupt
        return super().write(text)


def test_ctrl_c_at_the_first_prompt_voids_and_prints_the_standings() -> None:
    code, out, err = run(["play", "--seed", "1"], CtrlCInput(""))
    assert code == 130
    assert out.endswith(f"{PROMPT}\n{VOID_1}\n{START}\n")  # a new line after the prompt first
    assert err == "\nfivecard: interrupted\n"


def test_ctrl_c_during_the_dealers_cards_voids_the_round_after_folds() -> None:
    code, out, err = run(["play", "--seed", "1", "--fold-below", "1"], "f\n", CtrlCOutput())
    assert code == 130 and "Traceback" not in err
    assert "Computer 2 folds." in out and "Dealer has" not in out
    assert re.search(r"^Dealer: \S+\n" + re.escape(VOID_1) + "\n", out, re.M)
    assert last_line(out) == START


def test_ctrl_c_between_rounds_keeps_the_settled_round() -> None:
    code, out, _ = run(["play", "--seed", "1"], CtrlCInput("a\n"))
    assert code == 130 and "is void" not in out
    settled = re.findall(r"^Stacks: (.*)\.$", out, re.M)
    assert last_line(out) == f"After 1 round: {settled[0]}."


@pytest.mark.parametrize(("stop", "line"), STOPS)
@pytest.mark.slow
def test_a_stop_signal_in_a_real_process(stop: int, line: str) -> None:
    """Ctrl-C, SIGTERM or SIGHUP at the first prompt, stdin a pipe kept
    open: the round in play void, the standings, the signal's exit code and
    one line, no traceback."""
    code, out, err = stopped_at(["play", "--seed", "1"], [], PROMPT.encode(), stop)
    assert code == 128 + stop
    assert err == line
    assert VOID_1 in out and out.rstrip("\n").splitlines()[-1] == START


def test_the_terminal_hanging_up_is_an_interrupt(tmp_path: Path) -> None:
    """The game in a real terminal that closes at the prompt (SIGHUP, then
    every write fails): exit 129 and one line, not a failed write."""
    import pty

    source = Path(__file__).resolve().parents[2] / "src"
    errors = tmp_path / "stderr.txt"
    pid, terminal = pty.fork()
    if pid == 0:  # the child: fivecard in the terminal, stderr to a file (the terminal goes)
        try:
            os.environ.update(PYTHONPATH=str(source), NO_COLOR="1", COLUMNS="200")  # the prompt on one line
            os.dup2(os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
            os.execv(sys.executable, [sys.executable, "-m", "fivecard", "play", "--seed", "1"])
        finally:
            os._exit(127)
    try:
        read_until(terminal, PROMPT.encode())
    finally:
        os.close(terminal)  # the terminal hangs up
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 129
    assert errors.read_text() == "fivecard: interrupted (SIGHUP)\n"


# --- options are checked before any output -----------------------------------------

DECK = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH TH 9H 8H"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--fold-below", "2"], "argument --fold-below: expected a number from 0 to 1, got '2'"),
        (["--fold-below", "nan"], "got 'nan'"),
        (["--fold-below", "inf"], "got 'inf'"),
        (["--fold-below", "-0.1"], "got '-0.1'"),
        (["--fold-below", "x"], "got 'x'"),
        (["--deck", "AH " + DECK[3:]], "--deck: the stacked deck holds A♥ twice (cards 1 and 14)"),
        (["--deck", "AS KS QS"], "--deck: the stacked deck has 3 cards; 3 seats and the dealer need at least 20"),
        (["--deck", DECK.replace("QH", "QX")], "--deck: unknown suit 'X' in card 16 ('QX')"),
        (["--deck", ""], "--deck: the stacked deck has 0 cards"),
        (["--deck", DECK[:-3] + " JK"], "card 20 of the stacked deck is a joker, which the standard rules do not use"),
        (["--rules", "joker", "--deck", "JK JK JK " + DECK], "the stacked deck holds 3 jokers; the joker rules have 2"),
        (["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ],
    ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else "",
)
def test_bad_options_are_one_line_on_stderr_and_nothing_on_stdout(options: list[str], message: str) -> None:
    code, out, err = run(["play", *options], "a\n")
    assert code == 2 and out == ""
    assert err.startswith("fivecard: error: ") and err.endswith("\n") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize("seed", ["-5", "0", str(10**40)])
@pytest.mark.slow
def test_any_integer_seed_plays(seed: str) -> None:
    code, out, err = run(["play", "--seed", seed], "a\nq\n")
    assert code == 0 and err == "" and f"seed {seed})" in out and "Dealer has" in out
    assert run(["play", "--seed", seed], "a\nq\n")[1] == out


def test_a_stacked_deck_that_just_fits() -> None:
    code, out, _ = run(["play", "--seed", "1", "--deck", DECK], "n\na\nq\n")
    assert code == 0
    assert "Sorry: cannot draw 5: 0 cards left in the deck besides the dealer's five." in out
    assert "Dealer: Q♥ J♥ 10♥ 9♥ 8♥" in out and "You take the pot of 30" in out


# --- positions ----------------------------------------------------------------------


def hand_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("Your hand: "))


def test_semi_hand_line_shows_positions_that_cannot_be_read_as_ranks() -> None:
    code, out, _ = run(["play", "--seed", "1", "--rules", "semi"], "q\n")
    assert hand_line(out) == "Your hand: [1] 2  [2] Q  [3] 5  [4] 9  [5] A   (High Card, A-Q-9-5-2)"
    assert f"{PROMPT}q\n" in out and "Type their positions [1]-[5]" in PROMPT


def test_hand_line_with_colour() -> None:
    _, out, _ = run(["play", "--seed", "1", "--color", "always"], "q\n")
    assert hand_line(out).startswith("Your hand: [1] \x1b[31m2♥\x1b[0m  [2] \x1b[31mQ♥\x1b[0m  [3] ")


@pytest.mark.parametrize("rules", ["standard", "semi", "joker"])
def test_the_hint_names_the_positions_to_type(rules: str) -> None:
    code, out, _ = run(["play", "--seed", "1", "--rules", rules], "h\nq\n")
    cards = re.findall(r"\[\d\] (\S+)", hand_line(out))
    holds = re.findall(r"^  keep (.+?) \(type: ([1-5 ]+|a|n)\) +win ", out, re.M)
    assert len(holds) == 3
    for kept, typed in holds:
        if typed == "n":
            assert kept == "nothing"
        elif typed == "a":
            assert kept.split() == cards
        else:
            assert kept.split() == [cards[int(p) - 1] for p in typed.split()]


def test_hint_format_for_a_pair() -> None:
    deck = "AS AH 7C 4D 2S  KD QD JD TD 9D  8D 7D 6D 5D 3D  KC QC JC TC 9C  8C 6C 5C 3C 2C"
    code, out, _ = run(["play", "--seed", "1", "--deck", deck], "h\nq\n")
    assert hand_line(out).startswith("Your hand: [1] A♠  [2] A♥  [3] 7♣  [4] 4♦  [5] 2♠")
    assert "\n  keep A♠ A♥ (type: 1 2)   " in out


# --- bad answers ---------------------------------------------------------------------

LONG = "9" * 5000


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("", "nothing was typed"),
        ("   ", "nothing was typed"),
        ("x", "'x' is not a card position or a command"),
        ("-1", "'-1' is not a card position or a command"),
        ("１", "'１' is not a card position or a command"),  # a full-width digit
        ("1.5", "'1.5' is not a card position or a command"),
        ("1 x", "'x' is not a card position"),
        ("h 1", "'h' is not a card position"),
        ("6", "there is no card 6 (the card positions are 1-5)"),
        ("1 0", "there is no card 0 (the card positions are 1-5)"),
        ("1 3 1", "a card position is given twice (position 1)"),
        ("2,2", "a card position is given twice (position 2)"),
        ("15", "there is no card 15: to keep cards 1 and 5, type them apart: 1 5"),
        ("1 34", "there is no card 34: to keep cards 3 and 4, type them apart: 3 4"),
        ("134", "there is no card 134: to keep cards 1, 3 and 4, type them apart: 1 3 4"),
        ("52134", "there is no card 52134: to keep all five, type a (or 5 2 1 3 4)"),
        ("16", "there is no card 16: type one position for each card, apart (e.g. 1 3 4)"),
        ("11", "there is no card 11: type one position for each card, apart (e.g. 1 3 4)"),
        ("007", "there is no card 007: type one position for each card, apart (e.g. 1 3 4)"),
        (LONG, f"'{LONG[:40]}...' is not a card position or a command"),  # the line cut short
    ],
    ids=lambda v: repr(v[:12]) if isinstance(v, str) else "",
)
def test_every_kind_of_bad_answer_says_what_is_wrong(answer: str, message: str) -> None:
    code, out, _ = run(["play", "--seed", "1"], f"{answer}\nq\n")
    sorry = re.findall(r"^Sorry: (.*)\. " + re.escape(HELP) + "$", out, re.M)
    assert code == 0 and sorry == [message]
    assert out.count(PROMPT) == 2 and "You draw" not in out and VOID_1 in out  # asked again; nothing done


@pytest.mark.parametrize("digits", [2, 3, 4, 5])
def test_run_together_digits_are_never_read_as_positions(digits: int) -> None:
    """Every number of distinct positions typed together is refused, and
    the hint's answer keeps those cards."""
    for number in map("".join, itertools.permutations("12345", digits)):
        with pytest.raises(GameError) as refused:
            parse_keep(number)
        hint = re.search(r"(?:apart: |\(or )([1-5](?: [1-5])*)\)?$", str(refused.value))
        assert hint is not None and hint.group(1).replace(" ", "") == number
        assert parse_keep(hint.group(1)) == [int(d) - 1 for d in number]


def test_positions_and_commands_are_read() -> None:
    assert parse_keep(" 5,1 ") == [4, 0] and parse_keep("1, 3 ,4") == [0, 2, 3]
    assert parse_keep("A") == parse_keep("all") == [0, 1, 2, 3, 4]
    assert parse_keep("n") == parse_keep("none") == parse_keep("0") == parse_keep("-") == []
    assert [parse_keep(w) for w in ("h", "Hint", "f", "FOLD", "q", "quit")] == ["h", "h", "f", "f", "q", "q"]


# --- breaking a made hand ------------------------------------------------------------


def stacked(hand: str) -> str:
    """A whole deck, ``hand`` dealt to you first."""
    first = parse_cards(hand)
    return format_cards([*first, *(c for c in full_deck() if c not in first)], ascii=True)


TWO_PAIR = stacked("KH 4D KS 4C AS")
ASKED = "You hold Two Pair; exchange 3 cards anyway? [y/N] "


@pytest.mark.parametrize(
    ("answers", "asked", "then"),
    [
        ("1 3\ny\nq\n", 1, "You draw"),
        ("1 3\nYES\nq\n", 1, "You draw"),
        ("1 3\n\nq\n", 1, VOID_1),  # no: asked for the cards again, then q
        ("1 3\nn\n1 2 3 4\nq\n", 1, "You draw"),  # then drawing to the kicker: not asked
        ("1 3\nq\n", 1, VOID_1),  # q quits at the question too
        ("1 3\n", 1, VOID_1),  # the end of input
        ("1 2 3 4\nq\n", 0, "You draw"),
        ("a\nq\n", 0, "You keep all five cards."),
        ("f\nq\n", 0, "You fold"),
    ],
)
def test_breaking_a_made_hand_asks_once(answers: str, asked: int, then: str) -> None:
    code, out, _ = run(["play", "--seed", "1", "--deck", TWO_PAIR], answers)
    declined = answers.startswith(("1 3\n\n", "1 3\nn\n"))
    assert code == 0 and out.count(ASKED) == asked and out.count(PROMPT) == 1 + declined
    assert then in out and ("You draw" in out) == (then == "You draw")
    if then == VOID_1:
        assert last_line(out) == START


def test_the_question_names_the_made_hand_and_the_count() -> None:
    _, out, _ = run(["play", "--seed", "1", "--deck", stacked("9H 8D 7S 6C 5S")], "1 2 3 4\ny\nq\n")
    assert "You hold Straight; exchange 1 card anyway? [y/N] y\n" in out
    _, out, _ = run(["play", "--seed", "1", "--deck", stacked("QH QD QS 5C 5S")], "n\ny\nq\n")
    assert "You hold Full House; exchange 5 cards anyway? [y/N] y\n" in out
    low = ["play", "--seed", "1", "--rules", "ace-to-five", "--deck", stacked("2H QH 5H 9D AD")]
    _, out, _ = run(low, "1 3 4 5\ny\nq\n")
    assert "You hold Queen-Nine low, Q-9-5-2-A; exchange 1 card anyway? [y/N] y\n" in out


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_the_play_the_hint_recommends_is_never_questioned(rules: str) -> None:
    """Under ace-to-five a King-high hand is on the ladder's best rung, a
    made hand, and the advisor draws to it: typing the hint's positions
    asked "You hold King-Queen low ...; exchange 1 card anyway?" of a
    third of the hands the advisor played. Every rule set: a made hand
    played as the hint says is not questioned; one broken against the
    advice still is."""
    from fivecard.core.rules import get_rules
    from fivecard.play.advise import advise
    from fivecard.play.game import breaks_made_hand, keep_positions

    ruleset = get_rules(rules)
    deck, shuffled = list(ruleset.deck()), random.Random(7)
    checked = broken = 0
    for _ in range(400):
        if checked >= 3 and (broken or not ruleset.low):
            break
        shuffled.shuffle(deck)
        hand = Hand(tuple(deck[:5]), rules=ruleset)
        if breaks_made_hand(hand, []) is None:  # not a made hand
            continue
        checked += 1
        keep = keep_positions(hand.cards, advise(hand).recommended.keep)
        typed = " ".join(str(p + 1) for p in keep) or "n"
        stack = format_cards(deck, ascii=True)
        _, out, _ = run(["play", "--seed", "1", "--rules", rules, "--deck", stack], f"{typed}\nq\n")
        assert "anyway?" not in out
        kept = breaks_made_hand(hand, keep) is None
        broken += not kept
        if kept:  # breaking it against the advice is questioned
            _, out, _ = run(["play", "--seed", "1", "--rules", rules, "--deck", stack], "n\nq\n")
            assert out.count("anyway? [y/N] ") == 1
    assert checked >= 3 and (broken or not ruleset.low)  # (the advisor draws to some made lowball hands)


# --- keys typed before the prompt ----------------------------------------------------


def quiet_for(fd: int, seconds: float) -> bytes:
    """What comes on ``fd`` within ``seconds`` (until it is quiet)."""
    seen = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while selector.select(timeout=seconds):
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            seen += chunk
    return seen


@pytest.mark.slow
def test_keys_typed_while_the_dealers_cards_turn_up_are_dropped() -> None:
    """In a terminal, a q typed while the dealer's cards turn up is no
    answer to the next prompt: the game waits for one typed after it."""
    import pty

    source = Path(__file__).resolve().parents[2] / "src"
    pid, terminal = pty.fork()
    if pid == 0:
        try:
            os.environ.update(PYTHONPATH=str(source), NO_COLOR="1", COLUMNS="200")
            os.execv(sys.executable, [sys.executable, "-m", "fivecard", "play", "--seed", "1"])
        finally:
            os._exit(127)
    status = None
    try:
        read_until(terminal, PROMPT.encode())
        os.write(terminal, b"a\n")
        read_until(terminal, b"Dealer:")
        os.write(terminal, b"q\n")  # typed ahead, while the cards turn up one by one
        seen = read_until(terminal, b"Enter for the next round, q to quit: ")
        assert b"Dealer has" in seen
        assert b"After 1 round" not in quiet_for(terminal, 1.0)  # the q typed ahead is dropped
        os.write(terminal, b"q\n")
        rest = read_until(terminal, b"After 1 round")
        _, status = os.waitpid(pid, 0)  # the game ends by itself
    finally:
        os.close(terminal)
        if status is None:  # a failed test: the terminal hung up ends the game
            os.waitpid(pid, 0)
    assert b"is void" not in rest and os.waitstatus_to_exitcode(status) == 0


# --- the terminal's width ------------------------------------------------------------


class Screen(io.StringIO):
    """Output to a terminal (its width: COLUMNS)."""

    def isatty(self) -> bool:
        return True


ESCAPE = re.compile("\x1b\\[[0-9;]*m")
ANSWERS = "h\nx\n15\n1 2\n\nq\n"


@pytest.mark.parametrize("columns", [20, 40, 60, 80, 100, 300])
@pytest.mark.parametrize("color", ["never", "always"])
def test_lines_fit_the_terminal_and_words_are_never_broken(
    columns: int, color: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--seed", "1", "--color", color]
    _, piped, _ = run(argv, ANSWERS)
    monkeypatch.setenv("COLUMNS", str(columns))
    _, shown, _ = run(argv, ANSWERS, Screen())
    lines = ESCAPE.sub("", shown).split("\n")
    for line in lines:  # a line wider than the screen is one word
        assert len(line) <= columns or " " not in line.strip(), line
    assert ESCAPE.sub("", shown).split() == ESCAPE.sub("", piped).split()  # the same words, whole
    widest = max(len(line) for line in ESCAPE.sub("", piped).split("\n"))
    assert (shown == piped) == (widest <= columns)  # broken only where a line is too wide


def test_piped_output_keeps_its_lines_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "20")
    _, out, _ = run(["play", "--seed", "1"], "h\nq\n")
    assert f"{HELP} " in out and f"{PROMPT}h\n" in out


def test_wrap_breaks_at_spaces_and_keeps_a_long_word_whole() -> None:
    assert wrap("Dealer: A♠ K♠", 9) == "Dealer:\n  A♠ K♠"
    assert wrap(" 10♥", 30, start=28) == "\n   10♥"  # the next card of a line written bit by bit
    assert wrap("  house bet +10: You beat the dealer", 16) == "  house bet +10:\n    You beat the\n    dealer"
    assert wrap("a " + "x" * 30 + " b", 10) == "a\n  " + "x" * 30 + "\n  b"
    assert wrap("[1] A♠  [2] K♠", 40) == "[1] A♠  [2] K♠"


# --- the trainer ------------------------------------------------------------------------


def test_the_trainer_judges_each_of_your_exchanges_and_only_yours() -> None:
    from fivecard.play.advise import advise
    from fivecard.play.game import ExchangeVerdict

    answers = "1\n\na\n\nf\nq\n"  # keep one card, keep all five, then fold (no exchange)
    code, out, _ = run(["play", "--trainer", "--seed", "1"], answers)
    assert code == 0
    hands = [parse_cards(" ".join(re.findall(r"\[\d\] (\S+)", line))) for line in out.splitlines() if line.startswith("Your hand: ")]
    verdicts = re.findall(r"^Trainer: (.*)$", out, re.M)
    assert len(hands) == 3 and len(verdicts) == 2  # a fold is no exchange
    for hand, keep, said in zip(hands, ([0], [0, 1, 2, 3, 4]), verdicts):
        assert said == ExchangeVerdict.of(advise(format_cards(hand)), keep).text()
    # the verdict follows the exchange's own line
    lines = out.splitlines()
    assert all(lines[i - 1].startswith(("You draw ", "You keep all five")) for i, line in enumerate(lines) if line.startswith("Trainer: "))
    assert "Trainer:" not in run(["play", "--seed", "1"], answers)[1]
