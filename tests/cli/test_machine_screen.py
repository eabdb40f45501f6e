"""`fivecard play --paytable`: the video-poker machine in the terminal,
tested through its input. The trainer's verdict is the library's for the
same seed and holds; quitting, the end of input and Ctrl-C void the hand in
play and print the session's log, the machine's own; options of the other
game are refused before any output; a stop signal at the prompt is an
interrupt, as in the dealer game."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from fivecard.cli import main
from fivecard.cli.game_screen import typed
from fivecard.cli.machine_screen import DEAL, HELP, PROMPT
from fivecard.core.report import Painter
from fivecard.play.machine import Machine, drawn_lines
from helpers import STOPS, CtrlCInput, read_until, stopped_at

SEED = "1"
TABLE = "jacks-or-better"


def run(argv: list[str], stdin: str | io.StringIO = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    source = stdin if isinstance(stdin, io.StringIO) else io.StringIO(stdin)
    code = main(argv, stdin=source, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def play(answers: str, *options: str) -> tuple[int, str, str]:
    return run(["play", "--paytable", TABLE, "--seed", SEED, *options], answers)


def machine(**settings: object) -> Machine:
    return Machine(TABLE, seed=int(SEED), **settings)  # type: ignore[arg-type]


def best_positions(m: Machine) -> list[int]:
    best = m.deal_values().best
    return [p for p in range(5) if best >> p & 1]


def worst_positions(m: Machine) -> list[int]:
    values = m.deal_values()
    worst = values.order[-1]
    return [p for p in range(5) if worst >> p & 1]


def as_typed(positions: list[int]) -> str:
    return typed(positions)


# --- the trainer ---------------------------------------------------------------------


def test_a_mistake_shows_the_cost_the_library_computes() -> None:
    """The worst hold of each of three hands, typed: each verdict line is
    the library's, word for word, for the same seed and holds, and so is
    each draw and the session at the end."""
    m = machine()
    answers, verdicts, draws = [], [], []
    for _ in range(3):
        m.deal()
        held = worst_positions(m)
        answers += ["", as_typed(held)]
        drawn = m.draw(held)
        assert not drawn.verdict.is_best
        verdicts.append(drawn.verdict.text())
        draws += drawn_lines(drawn, Painter(color=False))
    code, out, err = play("\n".join(answers) + "\n", "--trainer")
    assert code == 0 and err == ""
    shown = re.findall(r"^Mistake: .*$", out, re.M)
    assert shown == verdicts
    assert all(re.search(r"Cost: \d+\.\d{4} coins \(\d+\.\d\d% of the bet\)\.$", v) for v in verdicts)
    assert [line for line in out.splitlines() if line.startswith(("You draw", "You hold all five"))] == draws
    assert out.endswith("\n" + m.log().text())


def test_a_best_hold_says_so() -> None:
    m = machine()
    m.deal()
    held = best_positions(m)
    verdict = m.draw(held).verdict
    code, out, _ = play(f"\n{as_typed(held)}\nq\n", "--trainer")
    assert code == 0 and verdict.is_best
    assert verdict.text().startswith("Best hold: ") and f"\n{verdict.text()}\n" in out


def test_without_the_trainer_no_verdict_is_shown_but_the_log_keeps_it() -> None:
    m = machine()
    m.deal()
    held = worst_positions(m)
    m.draw(held)
    _, out, _ = play(f"\n{as_typed(held)}\nq\n")
    assert "Mistake:" not in out.split("Session:")[0] and "Best hold:" not in out
    assert out.endswith("\n" + m.log().text()) and "Mistakes: 1," in out


def test_the_hint_names_the_best_hold_and_what_to_type() -> None:
    m = machine()
    m.deal()
    held = best_positions(m)
    _, out, _ = play("\nh\nq\n")
    hint = re.search(r"^Hint: the best hold is (.*), returning (\d\.\d{4}) per coin\. Type: (.*)$", out, re.M)
    assert hint is not None and hint.group(3) == as_typed(held)
    assert float(hint.group(2)) == pytest.approx(float(m.deal_values().best_value), abs=5e-5)


def test_the_pay_table_and_the_bet_are_shown_first() -> None:
    m = machine(coins=3)
    code, out, _ = play("q\n", "--coins", "3")
    assert code == 0
    assert out.startswith(
        f"Jacks or Better 9/6 (standard rules, seed {SEED}): 1,000 credits, a bet of 3 coins; the trainer is off.\n"
        + m.paytable.coin_table(m.rules)
    )
    assert f"{HELP} " in out and DEAL.format(coins=3) + "q\n" in out


def test_fewer_coins_are_paid_at_that_bet() -> None:
    """At one coin the hand bets 1 and the credits move by one coin's pays."""
    m = machine(coins=1)
    m.deal()
    drawn = m.draw([0, 1, 2, 3, 4])
    _, out, _ = play("\na\nq\n", "--coins", "1")
    assert "(bet 1, credits 999)" in out and drawn_lines(drawn, Painter(color=False))[0] in out


# --- quitting, the end of input, Ctrl-C, running out of credits -------------------------------

QUITS = {  # the answers, the hands drawn, whether a hand is in play at the end
    "q before the first deal": ("q\n", 0, False),
    "EOF before the first deal": ("", 0, False),
    "q mid-hand": ("\nq\n", 0, True),
    "EOF mid-hand": ("\n", 0, True),
    "EOF after a hint": ("\nh\n", 0, True),
    "q after a hand": ("\nn\nq\n", 1, False),
    "q mid-hand after a hand": ("\nn\n\nq\n", 1, True),
    "EOF after a hand": ("\nn\n", 1, False),
}


@pytest.mark.parametrize(("answers", "hands", "mid_hand"), QUITS.values(), ids=QUITS.keys())
def test_the_session_printed_at_the_end_is_the_machine_s_log(answers: str, hands: int, mid_hand: bool) -> None:
    """Whenever the player stops, the hand in play is void (its bet comes
    back) and the output ends with the log of the same play."""
    m = machine(trainer=False)
    for _ in range(hands):
        m.deal()
        m.draw([])
    code, out, err = play(answers)
    assert code == 0 and err == ""
    assert out.endswith("\n" + m.log().text())
    void = re.findall(r"^Hand (\d+) is void: its bet of 5 comes back\. Credits ([\d,]+)\.$", out, re.M)
    assert void == ([(str(hands + 1), f"{m.credits:,}")] if mid_hand else [])


@pytest.mark.parametrize(
    ("answers", "hands", "mid_hand"),
    [("", 0, False), ("\n", 0, True), ("\n1\n", 1, False), ("\n1\n\n", 1, True)],
    ids=["at the deal", "at the hold", "after a hand", "at the next hold"],
)
def test_ctrl_c_voids_the_hand_and_prints_the_session(answers: str, hands: int, mid_hand: bool) -> None:
    m = machine()
    for _ in range(hands):
        m.deal()
        m.draw([0])
    code, out, err = play(CtrlCInput(answers))  # type: ignore[arg-type]
    assert code == 130 and err == "\nfivecard: interrupted\n"
    prompt = PROMPT if mid_hand else DEAL.format(coins=5)
    void = f"Hand {hands + 1} is void: its bet of 5 comes back. Credits {m.credits:,}.\n" if mid_hand else ""
    assert out.endswith(f"{prompt}\n{void}\n{m.log().text()}")  # a new line after the prompt first


def test_out_of_credits_ends_the_session(tmp_path: Path) -> None:
    """A table that pays a royal flush only, every card thrown away: the
    1,000 credits make 200 hands of 5 coins, then the machine says so and
    prints the log."""
    table = tmp_path / "royal-only.json"
    table.write_text('{"name": "Royal only", "pays": {"royal_flush": 800}}')
    code, out, _ = run(["play", "--paytable", str(table), "--seed", "1", "--coins", "5"], "\nn\n" * 300)
    assert code == 0
    hands = int(re.findall(r"^Hands played: (\d+);", out, re.M)[0])
    assert hands == 200 and "Out of credits: 0 left, and the bet is 5.\n\nSession: Royal only\n" in out


# --- bad answers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("f", "'f' is not a card position or a command"),  # no fold on a machine
        ("6", "there is no card 6 (the card positions are 1-5)"),
        ("1 1", "a card position is given twice (position 1)"),
        ("134", "there is no card 134: to keep cards 1, 3 and 4, type them apart: 1 3 4"),
        ("", "nothing was typed"),
    ],
)
def test_a_bad_hold_says_what_is_wrong_and_asks_again(answer: str, message: str) -> None:
    code, out, _ = play(f"\n{answer}\nq\n")
    sorry = re.findall(r"^Sorry: (.*)\. " + re.escape(HELP) + "$", out, re.M)
    assert code == 0 and sorry == [message] and out.count(PROMPT) == 2 and "You draw" not in out


def test_anything_but_enter_or_q_does_not_deal() -> None:
    _, out, _ = play("x\nq\n")
    assert "Sorry: press Enter to deal the next hand, or type q to quit.\n" in out and "Hand 1:" not in out


# --- options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--paytable", "jacks-or-bett"], "unknown pay table 'jacks-or-bett' (did you mean jacks-or-better?)"),
        (["--paytable", TABLE, "--coins", "6"], "Jacks or Better 9/6 takes a bet of 1 to 5 coins, not 6"),
        (["--paytable", TABLE, "--coins", "0"], "Jacks or Better 9/6 takes a bet of 1 to 5 coins, not 0"),
        (["--paytable", TABLE, "--fold-below", "0.3"], "--fold-below is for the computer players of the dealer game"),
        (["--paytable", TABLE, "--deck", "AS KS QS JS TS"], "--deck stacks the dealer game's first round"),
        (["--coins", "3"], "--coins is the bet of a --paytable machine"),
        (["--paytable", "deuces-wild", "--rules", "joker"], "Deuces Wild (full pay) plays under the deuces-wild rules, not joker"),
        (["--paytable", TABLE, "--rules", "ace-to-five"], "ace-to-five"),
        (["--paytable", TABLE, "--rules", "semi"], "semi"),
        (["--paytable", TABLE, "--coins", "x"], "argument --coins: invalid int value: 'x'"),
    ],
    ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else "",
)
def test_bad_options_are_one_line_on_stderr_and_nothing_on_stdout(options: list[str], message: str) -> None:
    code, out, err = run(["play", *options], "\nn\nq\n")
    assert code == 2 and out == ""
    assert err.startswith("fivecard: error: ") and err.endswith("\n") and err.count("\n") == 1
    assert message in err


def test_a_table_that_names_its_rules_plays_under_them() -> None:
    code, out, _ = run(["play", "--paytable", "deuces-wild", "--seed", "1"], "q\n")
    assert code == 0 and out.startswith("Deuces Wild (full pay) (deuces-wild rules, seed 1)")


def test_the_same_seed_deals_the_same_hands() -> None:
    first = play("\nn\n\nn\nq\n")[1]
    assert play("\nn\n\nn\nq\n")[1] == first and "Hand 2:" in first


# --- stop signals at the prompt -------------------------------------------------------------------


@pytest.mark.parametrize(("stop", "line"), STOPS)
@pytest.mark.slow
def test_a_stop_signal_in_a_real_process(stop: int, line: str) -> None:
    """Ctrl-C, SIGTERM or SIGHUP at the hold prompt, stdin a pipe kept
    open: the hand void, the session's log, the signal's exit code and one
    line, no traceback."""
    argv = ["play", "--paytable", TABLE, "--seed", SEED]
    code, out, err = stopped_at(argv, [(DEAL.format(coins=5).encode(), b"\n")], PROMPT.encode(), stop)
    assert code == 128 + stop
    assert err == line
    assert "Hand 1 is void: its bet of 5 comes back. Credits 1,000." in out
    assert out.endswith("\n" + machine().log().text())


# --- the terminal's width ---------------------------------------------------------------------


class Screen(io.StringIO):
    """Output to a terminal (its width: COLUMNS)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("columns", [30, 60, 200])
def test_lines_fit_the_terminal_and_words_are_never_broken(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["play", "--paytable", TABLE, "--seed", SEED, "--trainer", "--color", "never"]
    answers = "\nh\nx\n1\nq\n"
    _, piped, _ = run(argv, answers)
    monkeypatch.setenv("COLUMNS", str(columns))
    shown = Screen()
    main(argv, stdin=io.StringIO(answers), stdout=shown, stderr=io.StringIO())
    for line in shown.getvalue().split("\n"):
        assert len(line) <= columns or " " not in line.strip(), line
    assert shown.getvalue().split() == piped.split()
