"""The command's registry and what its commands share: each command
registers itself (:func:`command`) with its name, its line in ``fivecard
--help``, its description and examples, its options and the function that
runs it; the parser (:func:`build_parser`), the dispatch
(:mod:`fivecard.cli.commands`) and the shell completion scripts
(:mod:`fivecard.cli.completion`) are all made from :data:`COMMANDS`. Here
too: the options several commands take, the exit codes, JSON or text on
standard output, and the progress line. Registering imports nothing: a
command imports what it needs (numpy, openpyxl) only when it runs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from ..core.errors import quote
from ..core.report import Painter
from ..core.rules import RULE_SETS, RuleSet
from ..core.version import __version__

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_OK = 0
EXIT_SOME_ROWS_BAD = 1
EXIT_BAD_INPUT = 2
EXIT_HUNG_UP = 129  # SIGHUP: the terminal closed
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT)
EXIT_BROKEN_PIPE = 141  # the output pipe closed early
EXIT_TERMINATED = 143  # SIGTERM

#: What each exit code means, as every ``--help`` lists them.
EXIT_CODES: dict[int, str] = {
    EXIT_OK: "success",
    EXIT_SOME_ROWS_BAD: "solve or mark finished, but some rows were errors (each an error row)",
    EXIT_BAD_INPUT: "bad usage or input, or an unwritable output: one line on stderr",
    EXIT_HUNG_UP: "interrupted by SIGHUP (the terminal closed), as by Ctrl-C",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_BROKEN_PIPE: "the output pipe closed early (| head)",
    EXIT_TERMINATED: "interrupted by SIGTERM (kill, a service manager), as by Ctrl-C",
}
USUAL_EXITS = (EXIT_OK, EXIT_BAD_INPUT, EXIT_HUNG_UP, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE, EXIT_TERMINATED)

#: The order 'fivecard --help' lists the commands in (each module of
#: commands registers its own; a command not named here comes last).
ORDER = (
    "classify", "compare", "solve", "mark", "deal", "stats", "grid",
    "advise", "strategy", "play", "serve", "rules", "completion",
)  # fmt: skip


def exit_codes_help(codes: Sequence[int] = tuple(EXIT_CODES), meanings: dict[int, str] | None = None) -> str:
    return "\n".join(["exit codes:", *(f"  {c:<4} {(meanings or {}).get(c, EXIT_CODES[c])}" for c in codes)])


_DESCRIPTION = """\
Read, classify and settle five-card poker hands, and say why.

Cards are written rank then suit: 2-9, 10 or T, J, Q, K, A and C D H S or
♣ ♦ ♥ ♠, in any case, separated by spaces and/or commas: "KD, 9C, 4H, KS, 9D",
"8C TS KC 9H 4S", "10♦ A♥ ...". Quote each hand.
"""

_EXAMPLES = (
    'fivecard classify "AS KS QS JS TS" "KD, 9C, 4H, KS, 9D"',
    'fivecard compare "8C TS KC 9H 4S" "7D 2S 5D 3S AC"',
    'fivecard compare --json "10D 10H 4H 4C 3S" "10S 10C 4S 4D 3H"',
    'echo "A♥ 2♥ 3♠ 4♥ 5♣" | fivecard classify -',
    'fivecard classify --rules ace-king "AS KD 8C 7H 3S"',
    'fivecard compare --rules semi "Q, Q, Q, Q, 9" "Q, Q, Q, Q, 5"',
    'fivecard compare --rules joker "JK 7H 7D 7S 7C" "AS KS QS JS TS"',
    "fivecard solve examples/showdowns.csv -o answers.xlsx",
    "fivecard deal --players 4 --rounds 3",
    'fivecard advise "AS AH 7C 4D 2S"',
    "fivecard play",
)

_EPILOG = (
    "examples:\n"
    + "".join(f"  {line}\n" for line in _EXAMPLES)
    + "\n'fivecard COMMAND --help' tells more, with examples; 'fivecard completion\n"
    "bash|zsh|fish' prints a shell completion script (see its --help).\n\n"
    + exit_codes_help()
)


class UsageError(Exception):
    """Bad usage: one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error becomes one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops a failed write of --help or --version and exits 0:
        # a full disk or a closed output must be the command's error instead.
        if message:
            (file or sys.stderr).write(message)


class _Formatter(argparse.HelpFormatter):
    """Help text: a plain paragraph is wrapped to the terminal's width; a
    paragraph with indented lines (a list, the examples, the exit codes) is
    kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.strip("\n").split("\n\n"):
            lines = paragraph.splitlines()
            if any(line.startswith(" ") for line in lines):
                paragraphs.append("\n".join(indent + line for line in lines))
            else:
                paragraphs.append(super()._fill_text(paragraph, width, indent))
        return "\n\n".join(paragraphs)

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        # argparse measures the command names without their indent, so that
        # a long one ('completion') would push its help to the next line.
        if isinstance(action, argparse._SubParsersAction) and action.help is not argparse.SUPPRESS:
            for name in action.choices:
                longest = len(name) + self._current_indent + self._indent_increment
                self._action_max_length = max(self._action_max_length, longest)


@dataclass(frozen=True)
class Call:
    """One run of a command: its parsed arguments and what it may use."""

    args: argparse.Namespace
    rules: RuleSet
    painter: Painter
    stdin: TextIO
    out: TextIO
    err: TextIO
    parser: argparse.ArgumentParser

    def print(self, report: str | object) -> int:
        """A report on standard output: text as it is, anything else as
        JSON (one write); returns exit code 0."""
        if not isinstance(report, str):
            report = json.dumps(report, ensure_ascii=not can_show(self.out), indent=2) + "\n"
        self.out.write(report)
        return EXIT_OK

    def say(self, line: str) -> None:
        """One line on stderr: ``fivecard: line``."""
        self.err.write(f"fivecard: {line}\n")


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


@dataclass(frozen=True)
class Command:
    """A subcommand, as registered."""

    name: str
    help: str  # its line in 'fivecard --help'
    description: str
    examples: tuple[str, ...]  # whole command lines, each run by the tests
    run: Callable[[Call], int]
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    shared: tuple[str, ...] = ()  # options of several commands: "rules", "color", "json"
    check: Callable[[argparse.Namespace, RuleSet], None] | None = None  # before it runs
    exit_codes: tuple[int, ...] = USUAL_EXITS
    exit_meanings: tuple[tuple[int, str], ...] = ()  # a code's meaning for this command

    def epilog(self) -> str:
        examples = "".join(f"\n  {line}" for line in self.examples)
        return f"examples:{examples}\n\n" + exit_codes_help(self.exit_codes, dict(self.exit_meanings))


#: The subcommands by name, in the order 'fivecard --help' lists them.
COMMANDS: dict[str, Command] = {}


def register(command: Command) -> Command:
    if command.name in COMMANDS:
        raise ValueError(f"command {command.name!r} is registered twice")
    COMMANDS[command.name] = command
    ordered = sorted(COMMANDS.values(), key=lambda c: ORDER.index(c.name) if c.name in ORDER else len(ORDER))
    COMMANDS.clear()
    COMMANDS.update((c.name, c) for c in ordered)
    return command


def command(
    name: str,
    *,
    help: str,
    description: str,
    examples: Sequence[str],
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments,
    shared: Sequence[str] = (),
    check: Callable[[argparse.Namespace, RuleSet], None] | None = None,
    exit_codes: Sequence[int] = USUAL_EXITS,
    exit_meanings: dict[int, str] | None = None,
) -> Callable[[Callable[[Call], int]], Callable[[Call], int]]:
    """Register the decorated function as the subcommand ``name``."""

    def registered(run: Callable[[Call], int]) -> Callable[[Call], int]:
        meanings = tuple((exit_meanings or {}).items())
        register(Command(name, help, description, tuple(examples), run, arguments, tuple(shared), check,
                         tuple(exit_codes), meanings))  # fmt: skip
        return run

    return registered


def option(
    parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup,
    *flags: str,
    words: Sequence[str] = (),
    files: bool = False,
    **settings: Any,
) -> argparse.Action:
    """Add an option (or an argument); shell completion offers for its value
    (besides its ``choices``) these ``words`` and/or file names."""
    action = parser.add_argument(*flags, **settings)
    action.complete_words = tuple(words)  # type: ignore[attr-defined]
    action.complete_files = files  # type: ignore[attr-defined]
    return action


def _add_rules(parser: argparse.ArgumentParser) -> None:
    rules_help = "rule set: " + ", ".join(RULE_SETS) + " (default: standard; see 'fivecard rules')"
    names = [n for r in RULE_SETS.values() for n in (r.name, *r.aliases)]
    option(parser, "--rules", default="standard", metavar="R", help=rules_help, words=names)
    parser.add_argument(
        "--wild",
        metavar="CARDS",
        help="cards that are wild, on top of the standard rules: '2' (every 2), "
        "'JS JH' (those cards); the rule set is named e.g. standard+wild(Js Jh)",
    )


def _add_color(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        help="colour red suits in text output: auto (the default: on a terminal, unless "
        "NO_COLOR is set or TERM is dumb), always, never",
    )


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


#: The options several commands share; each command is offered only the
#: options that do something for it.
SHARED: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "rules": _add_rules,
    "color": _add_color,
    "json": _add_json,
}


def check_options(args: argparse.Namespace, rules: RuleSet) -> None:
    """Refuse shared options that would do nothing, or contradict each other
    (a command's own options: its ``check``)."""
    if getattr(args, "color", None) is not None and getattr(args, "json", False):
        raise UsageError("--color colours text output; it does nothing with --json")
    decks = getattr(args, "decks", None)
    if decks is not None and decks < 1:
        raise UsageError(f"--decks must be at least 1, got {decks}")
    if decks not in (None, 1) and not rules.one_deck:
        raise UsageError(f"--decks does nothing under the {rules.name} rules, whose hands are not dealt from a deck")


def count(text: str, expected: str = "expected a whole number, 0 or more") -> int:
    """An option's value that is a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{expected}, got {quote(text)}")
    return value


def probability(text: str) -> float:
    """An option's value that is a finite number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {quote(text)}")
    return value


_PARSERS: dict[tuple[int, ...], argparse.ArgumentParser] = {}


def parser() -> argparse.ArgumentParser:
    """The parser of the registered commands, built once (a process that
    calls :func:`fivecard.cli.main` many times, such as a test run or an
    embedding, pays for argparse once)."""
    key = tuple(id(c) for c in COMMANDS.values())
    made = _PARSERS.get(key)
    if made is None:
        _PARSERS.clear()
        made = _PARSERS[key] = build_parser()
    return made


def build_parser() -> argparse.ArgumentParser:
    """The parser of every registered command."""
    program = _Parser(prog="fivecard", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=_Formatter)
    program.add_argument("--version", action="version", version=f"fivecard {__version__}")
    commands = program.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for registered in COMMANDS.values():
        sub = commands.add_parser(
            registered.name,
            help=registered.help,
            description=registered.description,
            epilog=registered.epilog(),
            formatter_class=_Formatter,
        )
        for shared in registered.shared:
            SHARED[shared](sub)
        registered.arguments(sub)
    return program


def use_color(choice: str | None, stream: TextIO) -> bool:
    """``--color``: always, never, or (auto) on a terminal that shows colour,
    unless the user said no: ``NO_COLOR`` set to anything but the empty
    string (no-color.org), or ``TERM=dumb``."""
    if choice not in (None, "auto"):
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


def can_show(stream: TextIO) -> bool:
    """Whether the stream's encoding has the suit symbols (else cards are
    written As, Td and JSON escapes what it cannot show)."""
    try:
        "♠♥♦♣🃏".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Progress:
    """Progress on stderr while a long job runs: the share done, the rate
    and the time left, of rows (:meth:`rows`, for a file being solved) or
    of parts (calling it, for a job's parts). On a terminal one line
    redrawn; elsewhere, when asked (``on``), a line at most every few
    seconds, and the last. ``opening``: a line to show at once."""

    def __init__(self, err: TextIO, on: bool | None = None, opening: str | None = None) -> None:
        self.err = err
        self.terminal = err.isatty()
        self.on = self.terminal if on is None else on
        self.started = time.monotonic()
        self.written = -math.inf
        self.resumed: int | None = None
        self.parts = 0
        self.shown = False
        if self.on and opening:
            self._write(opening)

    def __call__(self, done: int, parts: int) -> None:
        """The parts done so far, of ``parts`` (the first call: what the
        checkpoints held)."""
        self.parts = parts
        if self.resumed is None:
            self.started, self.resumed = time.monotonic(), done
        elapsed = time.monotonic() - self.started
        rate = (done - self.resumed) / elapsed if elapsed > 0 else 0.0
        left = (parts - done) / rate if rate > 0 else None
        share = done / parts if parts else 1
        self._show(share, f"{done:,}/{parts:,} parts, {rate:,.2f} parts/s", left, last=done >= parts)

    def rows(self, tally: Any, fraction: float | None) -> None:
        """The rows solved so far (``tally.rows``), ``fraction`` of the
        input read (None: unknown, nothing is shown)."""
        if fraction is None:
            return
        elapsed = time.monotonic() - self.started
        rate = tally.rows / elapsed if elapsed > 0 else 0.0
        left = elapsed * (1 - fraction) / fraction if fraction > 0 else None
        self._show(fraction, f"{tally.rows:,} rows, {rate:,.0f} rows/s", left, last=False)

    def _show(self, share: float, counts: str, left: float | None, *, last: bool) -> None:
        now = time.monotonic()
        if not self.on or (not self.terminal and not last and now - self.written < 5):
            return
        self.written = now
        self._write(f"solving: {share:4.0%} ({counts}, {'time left unknown' if left is None else f'{left:,.0f} s left'})")

    def _write(self, line: str) -> None:
        self.err.write(f"\r{line}\033[K" if self.terminal else f"{line}\n")
        self.err.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown and self.terminal:
            self.err.write("\r\033[K")
        self.shown = False

    def note(self, text: str) -> None:
        """A note of the run (checkpointed parts that failed their checks),
        on a line of its own; the progress line is drawn again after it."""
        self.clear()
        self.err.write(f"fivecard: note: {text}\n")
        self.err.flush()

    def say_resumed(self) -> None:
        """After a run that read finished parts from its checkpoints: how
        many."""
        if self.resumed:
            self.err.write(f"fivecard: resumed: {self.resumed} of {self.parts} parts were done before\n")
