"""The command as a shell user meets it: bare ``fivecard``, defaults, the
examples and exit codes of every ``--help`` (each example is run), the
traditions named in words, colour off where the user says so, shell
completion, and subcommands that register themselves."""

from __future__ import annotations

import argparse
import io
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fivecard.cli import commands  # noqa: F401  (the commands register themselves)
from fivecard.cli import registry
from fivecard.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SUBCOMMANDS = ["classify", "compare", "solve", "mark", "deal", "stats", "grid", "advise", "strategy", "play", "serve", "rules", "completion"]


class Terminal(io.StringIO):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(argv: list[str], stdin: str = "", out: io.StringIO | None = None) -> tuple[int, str, str]:
    out = out if out is not None else io.StringIO()
    err = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def help_of(*command: str) -> str:
    code, out, err = run([*command, "--help"])
    assert (code, err) == (0, "")
    return out


def section(text: str, title: str) -> list[str]:
    """The indented lines under ``title:`` in a help text."""
    lines = text.splitlines()
    start = lines.index(f"{title}:") + 1
    found = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        found.append(line.strip())
    return found


# Bare `fivecard` -----------------------------------------------------------


def test_bare_fivecard_prints_the_help_and_succeeds() -> None:
    code, out, err = run([])
    assert (code, err) == (0, "")
    assert out == help_of()
    assert out.startswith("usage: fivecard")
    for name in SUBCOMMANDS:
        assert f"    {name}" in out


def test_bare_fivecard_as_a_process() -> None:
    done = subprocess.run([sys.executable, "-m", "fivecard"], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: fivecard") and "examples:" in done.stdout


def test_a_missing_command_after_an_option_is_still_a_usage_error() -> None:
    code, out, err = run(["--bogus"])
    assert code == 2 and out == "" and err.startswith("fivecard: error: ")


def test_help_goes_to_the_given_standard_output() -> None:
    code, out, err = run(["deal", "--help"])
    assert code == 0 and out.startswith("usage: fivecard deal") and err == ""
    code, out, err = run(["--version"])
    assert code == 0 and out.startswith("fivecard ") and err == ""


# deal's default -------------------------------------------------------------


def test_deal_deals_to_two_players_by_default() -> None:
    code, out, err = run(["deal", "--seed", "1"])
    assert (code, err) == (0, "")
    assert out == run(["deal", "--players", "2", "--seed", "1"])[1]
    lines = out.splitlines()
    assert [line[:7] for line in lines[:2]] == ["Hand 1:", "Hand 2:"]
    assert re.match(r"Hands? \d.* (wins|split)", lines[2])  # the showdown, settled
    assert lines[3].startswith("(seed 1:") and len(lines) == 4
    code, out, _ = run(["deal", "--json", "--seed", "1", "--rounds", "3"])
    data = json.loads(out)
    assert data["players"] == 2 and len(data["rounds"]) == 3
    assert all(len(r["hands"]) == 2 and r["winners"] for r in data["rounds"])
    assert "--players N" in help_of("deal") and "default 2" in help_of("deal")


# Examples and exit codes in every --help -----------------------------------


def all_examples() -> list[tuple[str, str]]:
    found = []
    for command in ["", *SUBCOMMANDS]:
        for line in section(help_of(*command.split()), "examples"):
            found.append((command or "fivecard", line))
    return found


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_help_has_examples_and_exit_codes(command: str) -> None:
    text = help_of(command)
    examples = section(text, "examples")
    assert 2 <= len(examples) <= 4
    assert all(f"fivecard {command}" in line for line in examples)
    codes = [int(line.split()[0]) for line in section(text, "exit codes") if line.split()[0].isdigit()]
    expected = {"solve": [0, 1, 2, 129, 130, 141, 143], "mark": [0, 1, 2, 3, 129, 130, 141, 143]}
    assert codes == expected.get(command, [0, 2, 129, 130, 141, 143])


def test_strategy_help_leads_with_jacks_or_better_on_the_full_deck() -> None:
    """The game most players know comes first: Jacks or Better on 52 cards
    (not a short deck), as the first example and the first table named;
    each short name has an example, and the help says how to list the
    catalogue (which has an example too)."""
    from fivecard.play.paytables import ALIASES, PAYTABLES

    text = help_of("strategy")
    examples = section(text, "examples")
    assert examples[0] == "fivecard strategy --paytable jacks-or-better"
    assert {name for name in ALIASES if any(f"--paytable {name}" in line for line in examples)} == set(ALIASES)
    flat = " ".join(text.split())
    assert list(ALIASES)[0] == "jacks-or-better" and flat.count("'jacks-or-better' (Jacks or Better 9/6)") == 1
    assert f"any of the {len(PAYTABLES)} tables 'fivecard strategy --list' lists" in flat


def test_the_program_help_lists_every_exit_code_the_manual_lists() -> None:
    codes = [int(line.split()[0]) for line in section(help_of(), "exit codes")]
    assert codes == [0, 1, 2, 3, 129, 130, 141, 143]
    assert codes == sorted(registry.EXIT_CODES)
    page = (ROOT / "docs" / "commands" / "index.md").read_text(encoding="utf-8")
    listed = re.search(r"\*\*Exit codes:\*\*(.*?)\n\n", page, re.S)
    assert listed is not None
    assert sorted({int(n) for n in re.findall(r"\b(\d+) ", listed.group(1))}) == codes


#: An example's note that it ends with another exit code than 0, and why.
EXIT_NOTE = re.compile(r"\s#\s*exit code (\d+): \S")


def example_argv(line: str) -> tuple[list[str], str, int]:
    """An example line as arguments, standard input and the exit code it
    documents: 'fivecard ARGS', 'echo TEXT | fivecard ARGS', 'mkdir -p
    FOLDER && fivecard ARGS' and '... > FILE' (its output is not kept); it
    exits 0 unless it ends with a comment '# exit code N: why'."""
    note = EXIT_NOTE.search(line)
    words = shlex.split(line, comments=True)
    stdin = ""
    if words[0] == "echo":
        bar = words.index("|")
        stdin = " ".join(words[1:bar]) + "\n"
        words = words[bar + 1 :]
    if words[0] == "mkdir":
        assert words[1:2] == ["-p"] and words[3] == "&&", line
        words = words[4:]
    if ">" in words:
        words = words[: words.index(">")]
    assert words[0] == "fivecard", line
    assert not {"|", "<", ">", ";", "&&"} & set(words), f"an example the test cannot run: {line}"
    return words[1:], stdin, int(note.group(1)) if note else 0


def test_an_example_documents_the_exit_code_it_ends_with() -> None:
    assert example_argv("fivecard deal") == (["deal"], "", 0)
    assert example_argv("fivecard solve x.csv  # exit code 1: a row has a typo") == (["solve", "x.csv"], "", 1)
    assert example_argv("mkdir -p ~/d && fivecard completion zsh > ~/d/_f") == (["completion", "zsh"], "", 0)


@pytest.mark.parametrize(("command", "line"), all_examples(), ids=lambda v: v[:60])
@pytest.mark.slow
def test_every_help_example_runs(
    command: str, line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each example ends with exit code 0, or the one its line documents
    (a code from its --help's list), with something printed or written."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)  # examples name files of examples/ and may write answers.*
    argv, stdin, documented = example_argv(line)
    listed = section(help_of(*([] if command == "fivecard" else [command])), "exit codes")
    codes = [int(entry.split()[0]) for entry in listed if entry.split()[0].isdigit()]
    assert documented in codes, line
    if argv[0] == "serve":  # it would serve until stopped: checked once instead, on a free port
        argv += ["--check", "--port", "0", "--data", str(tmp_path / "data")]
    code, out, err = run(argv, stdin)
    assert code == documented, (line, err)
    assert out or any(tmp_path.glob("answers.*")) or any(tmp_path.glob("grid.*")), line
    assert "Traceback" not in err


# The traditions by name -----------------------------------------------------

SEED_NUMBER = re.compile(r"\bseeds? \d{3}\b|\bseed-", re.I)


def test_help_and_messages_name_the_traditions_not_seed_files() -> None:
    texts = [help_of(), *(help_of(c) for c in SUBCOMMANDS), run(["rules"])[1], run(["rules", "--json"])[1]]
    for text in texts:
        assert not SEED_NUMBER.search(text), SEED_NUMBER.search(text)
    everything = "\n".join(texts)
    for name in ("ModelOff 2012", "Semi-Poker", "Joker Poker", "Poker vs Dealer", "Project Euler 54"):
        assert name in everything


def test_the_manual_and_examples_name_the_traditions() -> None:
    pages = [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for path in [*pages, *sorted((ROOT / "examples").iterdir()), ROOT / "scripts" / "demo.sh"]:
        if path.suffix == ".xlsx":  # a workbook: the text of its cells
            import openpyxl

            book = openpyxl.load_workbook(path)
            text = "\n".join(str(v) for sheet in book for row in sheet.iter_rows(values_only=True) for v in row)
        else:
            text = path.read_text(encoding="utf-8")
        assert not SEED_NUMBER.search(text), (path, SEED_NUMBER.search(text))


# Colour ----------------------------------------------------------------------

RED_ACE = "\033[31mA♥"


@pytest.mark.parametrize(
    ("environ", "option", "coloured"),
    [
        ({}, [], True),
        ({"TERM": "dumb"}, [], False),
        ({"NO_COLOR": "1"}, [], False),
        ({"NO_COLOR": ""}, [], True),  # no-color.org: set and not empty
        ({"TERM": "dumb"}, ["--color", "always"], True),
        ({"NO_COLOR": "1"}, ["--color", "always"], True),
        ({"TERM": "xterm-256color"}, ["--color", "never"], False),
        ({"TERM": "dumb"}, ["--color", "auto"], False),
    ],
)
def test_colour_on_a_terminal_follows_the_user(
    environ: dict[str, str], option: list[str], coloured: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    code, out, _ = run(["classify", *option, "AH KH QH JH TH"], out=Terminal())
    assert code == 0 and "A♥" in out
    assert (RED_ACE in out) is coloured
    assert ("\033[" in out) is coloured


def test_no_colour_off_a_terminal_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    code, out, _ = run(["deal", "--seed", "3"])
    assert code == 0 and "\033[" not in out


# Shell completion ---------------------------------------------------------------


def script(shell: str) -> str:
    code, out, err = run(["completion", shell])
    assert (code, err) == (0, "")
    return out


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_script_offers_every_command_and_option(shell: str) -> None:
    text = script(shell)
    parser = registry.build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(subparsers.choices) == SUBCOMMANDS
    for name, sub in subparsers.choices.items():
        assert re.search(rf"\b{name}\b", text), name
        for action in sub._actions:
            for flag in action.option_strings:
                spelled = {"fish": f"-{'l' if flag.startswith('--') else 's'} {flag.lstrip('-')}"}.get(shell, flag)
                assert spelled in text, (name, flag)
    for word in ("joker-poker", "jacks-or-better", "jsonl", "xlsx", "always"):
        assert word in text


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_install_line_makes_its_folder_on_a_fresh_home(shell: str, tmp_path: Path) -> None:
    """The install line of completion's --help, the same as the script's own
    'Install:' comment, run by sh in a new home where no folder exists yet:
    its 'mkdir -p' makes the folder the script goes to, which then completes."""
    (line,) = [e for e in section(help_of("completion"), "examples") if f"completion {shell} " in e]
    assert f"# Install: {line}" in script(shell)
    home = tmp_path / "home"
    home.mkdir()
    make, _, install = line.partition(" && ")
    assert make.startswith("mkdir -p ~/"), line
    done = subprocess.run(["sh", "-c", make], env={"HOME": str(home), "PATH": "/usr/bin:/bin"}, check=False)
    assert done.returncode == 0
    argv, _, code = example_argv(line)
    target = Path(shlex.split(install)[-1].replace("~", str(home), 1))
    assert target.parent.is_dir() and list(home.iterdir()) != []
    target.write_text(script(shell), encoding="utf-8")  # what '>' does, once its folder exists
    assert (argv, code) == (["completion", shell], 0) and "fivecard" in target.read_text(encoding="utf-8")


def test_unknown_shell_is_a_usage_error() -> None:
    code, out, err = run(["completion", "tcsh"])
    assert code == 2 and out == "" and "invalid choice: 'tcsh'" in err


def bash(script_path: Path, body: str) -> str:
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", f"source {shlex.quote(str(script_path))}\n{body}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return done.stdout


def test_bash_script_is_valid_registers_and_completes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "fivecard.bash"
    path.write_text(script("bash"), encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(path)], check=False).returncode == 0
    assert bash(path, "complete -p fivecard") == "complete -F _fivecard fivecard\n"
    (tmp_path / "hands.csv").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    body = (
        't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _fivecard; '
        'echo "${COMPREPLY[*]}"; }\n'
        't fivecard ""\n'
        "t fivecard co\n"
        "t fivecard deal --rules j\n"
        "t fivecard deal --rules = se\n"
        't fivecard solve --format ""\n'
        "t fivecard solve han\n"
        "t fivecard solve -o han\n"
        't fivecard completion ""\n'
        "t fivecard stats --\n"
        "t fivecard classify AS\n"
        "t fivecard advise --paytable ja\n"
    )
    assert bash(path, body).splitlines() == [
        " ".join(SUBCOMMANDS),
        "compare completion",
        "joker joker-poker",
        "semi semi-poker",
        "text jsonl csv xlsx parquet",
        "hands.csv",
        "hands.csv",
        "bash zsh fish",
        "--help --rules --wild --json --lang --cards",
        "",
        "jacks-or-better-6-5 jacks-or-better-7-5 jacks-or-better-8-5 jacks-or-better-8-6 jacks-or-better-9-5 "
        "jacks-or-better-9-6 jacks-or-better",
    ]


def test_zsh_script(tmp_path: Path) -> None:
    text = script("zsh")
    assert text.startswith("#compdef fivecard\n")
    assert "compdef _fivecard fivecard" in text and "_describe -t commands" in text
    assert "'--rules=[rule set]:R:(standard ace-king russian semi semi-poker no-suits joker joker-poker one-joker short-deck six-plus short deuces-wild deuces one-eyed-jacks one-eyed ace-to-five a5 a-5 ace-five deuce-to-seven 2-7 kansas-city deuce-seven)'" in text
    assert "'(-o --output)-o+[write here]:FILE:_files'" in text
    assert text.count("'") % 2 == 0
    if shutil.which("zsh") is None:
        return  # the structure above is what can be checked without zsh
    path = tmp_path / "_fivecard"
    path.write_text(text, encoding="utf-8")
    assert subprocess.run(["zsh", "-n", str(path)], check=False).returncode == 0
    registered = subprocess.run(
        ["zsh", "-f", "-c", f"autoload -Uz compinit && compinit -u -D; source {path}; print -r -- $_comps[fivecard]"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert registered.stdout == "_fivecard\n", registered.stderr


def test_fish_script(tmp_path: Path) -> None:
    text = script("fish")
    assert "complete -c fivecard -f\n" in text
    assert "complete -c fivecard -n __fish_use_subcommand -a deal -d 'deal hands and settle the showdown'" in text
    assert "-n '__fish_seen_subcommand_from solve' -s o -l output -r -F" in text
    if shutil.which("fish") is None:
        return  # the structure above is what can be checked without fish
    path = tmp_path / "fivecard.fish"
    path.write_text(text, encoding="utf-8")
    assert subprocess.run(["fish", "--no-config", "-n", str(path)], check=False).returncode == 0

    def complete(line: str) -> list[str]:
        done = subprocess.run(
            ["fish", "--no-config", "-c", f"source {path}; complete -C {shlex.quote(line)}"],
            capture_output=True,
            text=True,
            check=False,
            cwd=tmp_path,
        )
        return [row.split("\t")[0] for row in done.stdout.splitlines()]

    assert complete("fivecard co") == ["compare", "completion"]
    assert complete("fivecard deal --rules j") == ["joker", "joker-poker"]
    assert complete("fivecard solve --format j") == ["jsonl"]
    assert complete("fivecard completion ") == ["bash", "fish", "zsh"]


def test_every_built_in_pay_table_is_offered_by_help_and_completion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The library's list of pay tables is the command's: the --paytable
    help of advise and strategy names the short names with their titles and
    says how many tables 'strategy --list' lists, and every name (the
    short ones too) completes, as a file name does."""
    from fivecard.play.paytables import ALIASES, PAYTABLES

    for command in ("advise", "strategy"):
        text = " ".join(help_of(command).split())
        for alias, name in ALIASES.items():
            assert f"'{alias}' ({PAYTABLES[name].title})" in text, (command, alias)
        assert f"any of the {len(PAYTABLES)} tables 'fivecard strategy --list' lists" in text
    path = tmp_path / "fivecard.bash"
    path.write_text(script("bash"), encoding="utf-8")
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "mine.json").write_text("{}", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "tables")
    body = 't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _fivecard; echo "${COMPREPLY[*]}"; }\n'
    body += "".join(f't fivecard {command} --paytable ""\n' for command in ("advise", "strategy"))
    for offered in bash(path, body).splitlines():
        assert sorted(offered.split()) == sorted([*PAYTABLES, *ALIASES, "mine.json"])


# Subcommands register themselves ---------------------------------------------


def test_the_parser_and_the_dispatch_come_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    assert list(registry.COMMANDS) == SUBCOMMANDS
    seen: list[str] = []

    def arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("word", metavar="WORD")

    def echo(call: registry.Call) -> int:
        seen.append(call.args.word)
        call.out.write(f"{call.rules.name} {call.args.word}\n")
        return 0

    monkeypatch.setitem(
        registry.COMMANDS,
        "echo",
        registry.Command(
            name="echo",
            help="say a word",
            description="Say a word.",
            examples=("fivecard echo hello", "fivecard echo --rules joker hi"),
            run=echo,
            arguments=arguments,
            shared=("rules",),
        ),
    )
    assert run(["echo", "--rules", "semi", "hi"]) == (0, "semi hi\n", "")
    assert seen == ["hi"]
    assert "echo" in run([])[1] and "fivecard echo hello" in help_of("echo")
    assert "echo" in script("bash")
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(registry.COMMANDS["deal"])


@pytest.mark.parametrize("command", ["advise", "strategy"])
def test_help_naming_the_pay_tables_imports_no_numpy(command: str) -> None:
    code = (
        "import sys\n"
        "from fivecard.cli import main\n"
        f"main([{command!r}, '--help'])\n"
        "print([m for m in ('numpy', 'fivecard.play.advise') if m in sys.modules], file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "jacks-or-better" in done.stdout
    assert done.stderr == "[]\n"
