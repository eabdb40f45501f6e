"""The fivecard command, in process and as a real process."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fivecard.cli import main

HAND_KEYS = {
    "input", "cards", "sorted", "category", "name", "score", "strength", "description", "rules"
}


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_compare_project_euler_example_names_hand_2_and_why() -> None:
    code, out, err = run(["compare", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1].startswith("Hand 2:") and lines[1].endswith("<- wins")
    assert lines[-1] == "Hand 2 wins: both High Card; the first card decides, A beats K"


def test_compare_json_contract() -> None:
    code, out, _ = run(["compare", "--json", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"])
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"hands", "winners", "order", "explanation"}
    assert data["winners"] == [2] and data["order"] == [[2], [1]]
    first = data["hands"][0]
    assert set(first) == HAND_KEYS
    assert first["input"] == "8C TS KC 9H 4S"
    assert first["cards"] == ["8c", "Ts", "Kc", "9h", "4s"]
    assert first["sorted"] == ["Kc", "Ts", "9h", "8c", "4s"]
    assert (first["category"], first["name"], first["score"]) == ("high_card", "High Card", 1)
    assert data["explanation"].startswith("Hand 2 wins")


def test_compare_draw_and_split_in_json() -> None:
    code, out, _ = run(
        ["compare", "--json", "10D 10H 4H 4C 3S", "2c 3c 5d 7s 9s", "10S 10C 4S 4D 3H"]
    )
    data = json.loads(out)
    assert data["winners"] == [1, 3] and data["order"] == [[1, 3], [2]]
    assert data["explanation"].startswith("Hands 1 and 3 split: both Two Pair")


def test_classify_json_is_a_list_per_hand() -> None:
    code, out, _ = run(["classify", "--json", "KD, 9C, 4H, KS, 9D", "A♥ 2♥ 3♠ 4♥ 5♣"])
    data = json.loads(out)
    assert code == 0 and len(data) == 2
    assert all(set(d) == HAND_KEYS for d in data)
    assert data[0]["description"] == "Two Pair, Kings and Nines, Four kicker"
    assert data[1]["sorted"] == ["Ah", "5c", "4h", "3s", "2h"]
    assert data[1]["strength"] == 5854 and data[1]["score"] == 5


def test_json_under_each_rule_set() -> None:
    code, out, _ = run(["classify", "--json", "--rules", "joker", "JK 2D 3S 4S 5S", "AS KS QS JS TS"])
    wild, natural = json.loads(out)
    assert set(wild) == HAND_KEYS | {"natural", "jokers"}
    assert (wild["rules"], wild["natural"], wild["jokers"]) == ("joker", False, ["6s"])
    assert (natural["natural"], natural["jokers"]) == (True, [])
    code, out, _ = run(["compare", "--json", "--rules", "semi-poker", "Q Q Q Q 9", "Q Q Q Q 5"])
    data = json.loads(out)
    assert data["winners"] == [1] and data["hands"][0]["rules"] == "semi"
    assert data["hands"][0]["cards"] == ["Q", "Q", "Q", "Q", "9"]
    code, out, _ = run(["classify", "--json", "--rules", "russian", "AS KD 8C 7H 3S"])
    assert json.loads(out)[0]["category"] == "ace_king" and json.loads(out)[0]["score"] == 2


def test_classify_text_has_symbols_and_no_colour_off_a_terminal() -> None:
    code, out, _ = run(["classify", "AS KS QS JS TS"])
    assert "A♠" in out and "Royal Flush" in out and "\033[" not in out
    code, out, _ = run(["classify", "--color", "always", "AH KH QH JH TH"])
    assert "\033[31mA♥" in out


def test_rules_lists_the_rule_sets() -> None:
    code, out, _ = run(["rules"])
    assert code == 0 and out.startswith("standard")
    for name in ("ace-king (also: russian)", "semi (also: semi-poker, no-suits)", "joker"):
        assert name in out
    code, out, _ = run(["rules", "--json"])
    assert json.loads(out)[0]["categories"][0] == "royal_flush"


def test_real_process_help_version_and_errors() -> None:
    def proc(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "fivecard", *args], capture_output=True, text=True, check=False
        )

    helped = proc("--help")
    assert helped.returncode == 0 and "classify" in helped.stdout and "compare" in helped.stdout
    assert proc("compare", "--help").returncode == 0
    assert proc("--version").stdout.startswith("fivecard ")
    bad = proc("classify", "AS KS QS JS 1S")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "fivecard: error: hand 1: unknown rank '1' in card 5 ('1S') of 'AS KS QS JS 1S'\n"
    good = proc("compare", "8C TS KC 9H 4S", "7D 2S 5D 3S AC")
    assert good.returncode == 0 and "Hand 2 wins" in good.stdout


def test_the_package_loads_its_names_on_first_use() -> None:
    """`import fivecard` is nearly free, so a Ctrl-C while the command starts
    lands in main(); every public name still resolves, and loading the
    module `evaluate` or `showdown` does not hide the function of that name."""
    import fivecard

    code = (
        "import sys, fivecard, fivecard.cli\n"
        "heavy = [m for m in ('fivecard.core.lookup', 'fivecard.core.evaluate', 'numpy', 'argparse') if m in sys.modules]\n"
        "print(heavy)\n"
        "import fivecard.core.evaluate, fivecard.core.showdown\n"
        "print(callable(fivecard.evaluate), callable(fivecard.showdown))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "True True"]
    assert set(fivecard.__all__) == set(fivecard._HOME)
    for name in fivecard.__all__:
        assert getattr(fivecard, name) is not None


def test_a_stop_signal_inside_an_import_is_raised_once_the_import_is_done(tmp_path: Path) -> None:
    """A signal that lands while a command imports a module (numpy, pyarrow,
    openpyxl load lazily) is not raised inside importlib's machinery, where
    Python prints it as 'Exception ignored' and loses it, nor delivered again
    at once (which ran the handler inside itself until the recursion limit):
    it stops the command once the import is done, in one line."""
    (tmp_path / "slow_module.py").write_text(
        "import os, signal, time\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "for _ in range(40):\n"
        "    time.sleep(0.005)  # still importing: the signal waits\n"
        "IMPORTED = True\n"
    )
    script = (
        "import sys\n"
        "import fivecard.cli, fivecard.cli.commands as commands\n"
        "def command(argv, **streams):\n"
        "    import slow_module\n"
        "    assert slow_module.IMPORTED\n"
        "    while True:\n"
        "        pass  # the signal ends this\n"
        "commands.main = command\n"
        "sys.exit(fivecard.cli.main([]))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, env=env, timeout=60)
    assert (done.returncode, done.stderr) == (143, b"fivecard: interrupted (SIGTERM)\n")


@pytest.mark.slow
def test_ctrl_c_while_the_command_starts_is_one_line() -> None:
    """A Ctrl-C at any moment after the entry point is loaded, the heavy
    imports included, ends with exit code 130 and one line, never a traceback."""
    import random
    import signal
    import time

    # 'ready' is written once main() has its Ctrl-C handler: a signal before
    # that (in this script's own lines, on a loaded machine) is not the
    # command's to report.
    script = (
        "import os, sys, _signal\n"
        "from fivecard.cli import main\n"
        "real, told = _signal.signal, []\n"
        "def installing(number, handler):\n"
        "    previous = real(number, handler)\n"
        "    if number == _signal.SIGINT and not told:\n"
        "        told.append(os.write(2, b'ready\\n'))\n"
        "    return previous\n"
        "_signal.signal = installing\n"
        "sys.exit(main(['stats', '--rules', 'joker']))\n"
    )
    rng = random.Random(9)
    outcomes = set()
    for _ in range(12):
        child = subprocess.Popen(
            [sys.executable, "-c", script], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        assert child.stderr is not None
        assert child.stderr.readline() == b"ready\n"
        time.sleep(rng.uniform(0.002, 0.25))
        child.send_signal(signal.SIGINT)
        rest = child.stderr.read()
        code = child.wait(timeout=60)
        outcomes.add(code)
        assert b"Traceback" not in rest, rest
        # 0: done before the signal; 130: interrupted; killed by the signal
        # (-SIGINT) only once the command is done, as the process exits.
        assert code in (0, 130, -signal.SIGINT), (code, rest)
        if code == 130:
            assert rest == b"\nfivecard: interrupted\n", rest
        if code == -signal.SIGINT:
            assert rest == b"", rest
    assert 130 in outcomes


def test_ctrl_c_in_the_heavy_imports_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def interrupted(name: str, *args: object, **kwargs: object) -> object:
        if name == "commands":
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delitem(sys.modules, "fivecard.commands", raising=False)
    monkeypatch.setattr(builtins, "__import__", interrupted)
    err = io.StringIO()
    assert main(["rules"], stderr=err, stdout=io.StringIO()) == 130
    assert err.getvalue() == "\nfivecard: interrupted\n"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["stats", "--color", "always"], "unrecognized arguments: --color"),
        (["rules", "--rules", "joker"], "unrecognized arguments: --rules"),
        (["classify", "--json", "--color", "never", "AS KS QS JS TS"], "--color colours text output; it does nothing with --json"),
        (["deal", "--players", "2", "--json", "--color", "always"], "does nothing with --json"),
        (["solve", "-", "--json", "--format", "csv"], "cannot be combined with --format csv"),
        (["solve", "-", "--json", "-o", "x.jsonl"], "--json writes to standard output"),
        (["solve", "-", "--color", "always", "--format", "csv"], "does nothing for csv output"),
        (["advise", "--all", "--json", "AS AH 7C 4D 2S"], "--json lists all 32 choices"),
        (["compare", "--rules", "semi", "--decks", "2", "Q Q Q Q 9", "Q Q Q Q 5"], "--decks does nothing under the semi rules"),
        (["compare", "--decks", "0", "AS KS QS JS TS", "2D 3D 4D 5D 7C"], "at least 1"),
        (["solve", "-", "--decks", "0"], "--decks must be at least 1, got 0"),
    ],
)
def test_options_mean_something(argv: list[str], words: str) -> None:
    code, out, err = run(argv, stdin="AS KS QS JS TS | 2C 3C 4C 5C 7D\n")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert words in err, err


def test_options_that_apply_still_work() -> None:
    assert run(["stats", "--json"])[0] == 0
    assert run(["rules", "--json"])[0] == 0
    code, out, _ = run(["classify", "--color", "always", "AH KH QH JH TH"])
    assert code == 0 and "\033[31m" in out
    code, out, _ = run(["solve", "-", "--color", "always"], stdin="AH KH QH JH TH | 2C 3C 4C 5C 7D\n")
    assert code == 0 and "\033[31m" in out


# --- an output that cannot be written ---------------------------------------------------------

#: What fivecard prints, from its help to a command's output.
PRINTED = [
    ["--help"],
    ["--version"],
    [],
    ["classify", "--help"],
    ["rules"],
    ["completion", "bash"],
    ["classify", "AS KS QS JS TS"],
    ["deal", "--seed", "1"],
    ["grid"],
]


@pytest.mark.parametrize("argv", PRINTED, ids=lambda argv: " ".join(argv) or "(no arguments)")
@pytest.mark.slow
def test_a_full_or_closed_output_is_never_a_silent_success(argv: list[str]) -> None:
    """To a full device or a closed standard output: exit 2 and one line,
    --help and --version too (argparse drops their failed write and exits
    0); to a pipe whose reader is gone: the shell's code for SIGPIPE,
    quietly, as command-line tools stop at '| head'."""
    command = [sys.executable, "-m", "fivecard", *argv]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, check=False)
    assert (done.returncode, done.stderr) == (2, b"fivecard: error: cannot write standard output: No space left on device\n")
    done = subprocess.run(shlex.join(command) + " >&-", shell=True, stderr=subprocess.PIPE, check=False)
    closed = b"fivecard: error: cannot write standard output: Bad file descriptor (standard output is closed)\n"
    assert (done.returncode, done.stderr) == (2, closed)
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before anything is written
    try:
        done = subprocess.run(command, stdout=writer, stderr=subprocess.PIPE, check=False)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (141, b"")


# A pay table's rule set ------------------------------------------------------


def _pay_table_commands() -> list[str]:
    """The commands that take --paytable, as commands.toml declares them."""
    from fivecard.cli import registry

    return [name for name, spec in registry.DECLARED.items()
            if any(option.get("type") == "pay-table" for option in spec.get("option", []))]  # fmt: skip


def _with_pay_table(command: str, table: str, *options: str) -> list[str]:
    """The command run with --json under the pay table: a hand's advice (a
    hand every high rule set's deck holds) or a table solved."""
    from fivecard.cli import registry

    hands = ["AS AH 7C 8S 9S"] if registry.DECLARED[command].get("argument") else []
    return [command, "--json", "--paytable", table, *options, *hands]


def test_the_commands_that_take_a_pay_table() -> None:
    assert _pay_table_commands() == ["advise", "strategy", "play"]


def _played_rules(command: str, table: str, *options: str) -> tuple[int, str | None, str]:
    """The command run under the pay table: its exit code, the rule set it
    played under (``--json``'s ``rules``; the machine's first line says
    it), and its stderr."""
    if command == "play":  # the machine: its first line, then q
        code, out, err = run(["play", "--paytable", table, "--seed", "1", *options], "q\n")
        found = re.match(r".* \((\S+) rules, seed 1\)", out)
        return code, found.group(1) if found else None, err
    code, out, err = run(_with_pay_table(command, table, *options))
    return code, json.loads(out)["rules"] if code == 0 else None, err


@pytest.mark.parametrize("table", ["jacks-or-better", "deuces-wild"])
@pytest.mark.parametrize("command", _pay_table_commands())
@pytest.mark.slow
def test_a_pay_table_plays_under_the_rule_set_it_names(command: str, table: str) -> None:
    """Without --rules, every built-in table plays under the rule set it names
    (else standard), as --rules naming that set does; a --rules or --wild
    that contradicts it is one line and exit code 2, before any work."""
    from fivecard.play.paytables import builtin_paytable

    own = builtin_paytable(table).rules or "standard"
    assert _played_rules(command, table) == (0, own, "")
    if command != "strategy":  # (strategy's solve is seconds: once is enough)
        assert _played_rules(command, table, "--rules", own) == (0, own, "")
    if builtin_paytable(table).rules is None:
        return  # a table that names no rule set plays under others: tests/play/test_paytable.py
    for other in (["--rules", "joker"], ["--rules", "standard"], ["--wild", "2"]):
        code, played, err = _played_rules(command, table, *other)
        named = other[1] if other[0] == "--rules" else "standard+wild(2)"
        assert (code, played) == (2, None) and err == (
            f"fivecard: error: {builtin_paytable(table).title} plays under the {own} rules, not {named} (use --rules {own})\n"
        )


def test_a_pay_table_file_that_names_its_rule_set(tmp_path: Path) -> None:
    table = tmp_path / "short.json"
    table.write_text(json.dumps({"pays": {"royal_flush": 800, "one_pair": 1}, "min_pair": "J", "rules": "short-deck"}))
    for command in _pay_table_commands():
        assert _played_rules(command, str(table)) == (0, "short-deck", "")
    code, _, err = run(_with_pay_table("advise", str(table), "--rules", "deuces-wild"))
    assert code == 2 and err == "fivecard: error: short plays under the short-deck rules, not deuces-wild (use --rules short-deck)\n"


# Hands typed without quotes --------------------------------------------------

UNQUOTED = [
    (["AS", "KS", "QS", "JS", "TS"], []),
    (["KD,", "9C,", "4H,", "KS,", "9D"], []),
    (["A♥", "2♥", "3♠", "4♥", "5♣"], []),
    (["Q", "Q", "Q", "Q", "9"], ["--rules", "semi"]),
    (["AS", "KS", "QS", "JS", "TS", "9S"], ["--best-five"]),
    (["AS", "KS", "QS", "JS", "TS", "9S", "2D"], ["--best-five"]),
    (["JK", "7H", "7D", "7S", "7C"], ["--rules", "joker", "--json"]),
]


@pytest.mark.parametrize(("cards", "options"), UNQUOTED, ids=lambda v: " ".join(v))
def test_classify_reads_cards_typed_without_quotes_as_one_hand(cards: list[str], options: list[str]) -> None:
    """Two to seven arguments of one card each are one hand: the same
    output as the hand quoted, exit code and all."""
    quoted = run(["classify", *options, " ".join(cards)])
    assert quoted[0] == 0
    assert run(["classify", *options, *cards]) == quoted
    assert run(["classify", *cards, *options]) == quoted


@pytest.mark.parametrize("count", [2, 4, 6, 7])
def test_unquoted_cards_that_are_no_hand_get_the_hands_own_error(count: int) -> None:
    """As one hand they are checked as a quoted one is: too few cards, or
    six or seven without --best-five, which the error suggests."""
    cards = "AS KS QS JS TS 9S 2D".split()[:count]
    assert run(["classify", *cards]) == run(["classify", " ".join(cards)])
    code, out, err = run(["classify", *cards])
    assert (code, out) == (2, "") and f"got {count}" in err and f"in '{' '.join(cards)}'" in err
    assert ("(use --best-five)" in err) is (count > 5)


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        ("classify AS KS QS JS TS 9H 9D 9S 9C 2D", '10 arguments of one card each are more cards than one hand holds: '
         'quote each hand, as in fivecard classify "AS KS QS JS TS" "9H 9D 9S 9C 2D"'),
        ("classify --best-five AS KS QS JS TS 9H 9D 9S", '8 arguments of one card each are more cards than one hand '
         'holds: quote each hand, as in fivecard classify "8C TS KC 9H 4S" "7D 2S 5D 3S AC"'),
        ("compare AS KS QS JS TS 9H 9D 9S 9C 2D", 'compare reads each argument as a hand, and these 10 are one card '
         'each: quote each hand, as in fivecard compare "AS KS QS JS TS" "9H 9D 9S 9C 2D"'),
        ("compare --json 8C TS", 'compare reads each argument as a hand, and these 2 are one card each: quote each '
         'hand, as in fivecard compare "8C TS KC 9H 4S" "7D 2S 5D 3S AC"'),
    ],
)
def test_unquoted_cards_that_cannot_be_told_apart_say_quote_each_hand(argv: str, error: str) -> None:
    assert run(argv.split()) == (2, "", f"fivecard: error: {error}\n")


@pytest.mark.parametrize("typo", ["XJ", "1S", "AZ", "K"])
def test_a_typo_among_unquoted_cards_is_named_as_in_the_hand_quoted(typo: str) -> None:
    """``classify AS KS QS JS XJ`` said "hand 1: expected 5 cards, got 1 in
    'AS'": one word that is no card made every argument a hand of its own.
    A word with no space that is no card is a typo among the cards, and the
    error is the quoted hand's, naming it; compare's says to quote each
    hand."""
    cards = ["AS", "KS", "QS", "JS", typo]
    quoted = run(["classify", " ".join(cards)])
    assert quoted[0] == 2 and typo in quoted[2] and run(["classify", *cards]) == quoted
    code, out, err = run(["compare", *cards, "2C", "3C", "4C", "5C", "7D"])
    assert (code, out) == (2, "") and f'quote each hand, as in fivecard compare "AS KS QS JS {typo}" "2C' in err


def test_one_card_hands_with_a_board_are_hands() -> None:
    code, out, err = run(["compare", "--board", "AS KS 7D 2C", "QS", "7C"])
    assert (code, err) == (0, "") and out.splitlines()[-1] == "Hand 2 wins: One Pair beats High Card"


def test_hands_quoted_or_mixed_are_read_as_given() -> None:
    """Only arguments that are all one card each are read together: a
    quoted hand beside single cards is each argument a hand, as ever."""
    code, _, err = run(["classify", "AS KS QS JS TS", "9H"])
    assert code == 2 and err == "fivecard: error: hand 2: expected 5 cards, got 1 in '9H'\n"
    code, _, err = run(["classify", "AS"])
    assert code == 2 and err == "fivecard: error: hand 1: expected 5 cards, got 1 in 'AS'\n"
