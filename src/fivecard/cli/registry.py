"""The command's registry and what its commands share. The commands are
declared in ``commands.toml`` (:data:`SPEC`); each module of commands
registers the function that runs one (:func:`command`), and the parser
(:func:`build_parser`), the checks of the options (:func:`check_options`),
the dispatch (:mod:`fivecard.cli.commands`) and the shell completion scripts
(:mod:`fivecard.cli.completion`) are all made from :data:`COMMANDS`. Here
too: JSON or text on standard output, and the progress line. Registering
imports nothing: a command imports what it needs only when it runs.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..core import lookup_cache
from ..core.errors import FivecardError, quote
from ..core.lang import LANGUAGES, Language, language
from ..core.rules import RULE_SETS, RuleSet
from ..core.version import __version__

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import Any, NoReturn, TextIO

    from _typeshed import SupportsWrite

    from ..core.report import Painter


def _declared() -> dict[str, Any]:
    """``commands.toml``, read. Importing a TOML parser and parsing the file
    take about 10 ms, a good part of a quick command's start: the user's
    cache (:mod:`fivecard.core.lookup_cache`) keeps the file read, keyed by
    a checksum of it, so a changed file is parsed again (and with the cache
    off, every time)."""
    with open(os.path.join(os.path.dirname(__file__), "commands.toml"), "rb") as file:
        data = file.read()
    key = ("commands.toml", zlib.crc32(data))
    stored = lookup_cache.load("commands", key)
    if isinstance(stored, dict):
        return stored
    import tomllib

    spec = tomllib.loads(data.decode("utf-8"))
    lookup_cache.store("commands", key, spec)
    return spec


#: The commands as declared (see the file's opening comment).
SPEC: dict[str, Any] = _declared()

EXIT_OK = 0
EXIT_SOME_ROWS_BAD = 1
EXIT_BAD_INPUT = 2
EXIT_WRONG_ANSWERS = 3  # mark --fail-on-wrong: some outcome is wrong
EXIT_BROKEN_PIPE = 141  # the output pipe closed early

#: What each exit code means, as every ``--help`` lists them.
EXIT_CODES: dict[int, str] = {int(code): meaning for code, meaning in SPEC["exit-codes"].items()}
USUAL_EXITS = tuple(code for code in EXIT_CODES if code not in (EXIT_SOME_ROWS_BAD, EXIT_WRONG_ANSWERS))
DECLARED: dict[str, dict[str, Any]] = {declared["name"]: declared for declared in SPEC["command"]}
ORDER = tuple(DECLARED)  # as 'fivecard --help' lists them


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

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:  # fmt: skip
        # argparse asks shutil for the width, and every parser and option
        # makes a formatter: importing shutil (and the compression modules
        # it imports) would cost each run more than the parser it makes.
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)

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


def _columns() -> int:
    """The terminal's width, as :func:`shutil.get_terminal_size` tells it:
    ``COLUMNS`` when set to a number above 0, else standard output's
    terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Call:
    """One run of a command: its parsed arguments and what it may use. (A
    plain class, as :class:`Command` is: making a dataclass takes about half
    a millisecond of every command's start.)"""

    __slots__ = ("args", "rules", "painter", "stdin", "out", "err", "parser", "argv", "lang")

    def __init__(self, args: argparse.Namespace, rules: RuleSet, painter: Painter, stdin: TextIO, out: TextIO,
                 err: TextIO, parser: argparse.ArgumentParser, argv: tuple[str, ...] = (),
                 lang: Language | None = None) -> None:  # fmt: skip
        self.args = args
        self.rules = rules
        self.painter = painter
        self.stdin = stdin
        self.out = out
        self.err = err
        self.parser = parser  # the one that read the command line (see parser(lazy=True))
        self.argv = argv  # the command line's arguments, as given
        self.lang = language(None) if lang is None else lang  # --lang, else the environment's

    @property
    def command_line(self) -> str:
        """The command line as a shell would take it again: ``fivecard ...``."""
        import shlex

        return shlex.join(["fivecard", *self.argv])

    def print(self, report: str | object) -> int:
        """A report on standard output: text as it is, anything else as
        JSON (one write); returns exit code 0."""
        if not isinstance(report, str):
            import json

            report = json.dumps(report, ensure_ascii=not can_show(self.out), indent=2) + "\n"
        self.out.write(report)
        return EXIT_OK

    @property
    def chosen_rules(self) -> RuleSet | None:
        """The rule set the user chose with --rules or --wild; None when
        neither was given, so that the library's default applies (standard,
        or the rule set a pay table names)."""
        given = getattr(self.args, "rules", None) is not None or getattr(self.args, "wild", None) is not None
        return self.rules if given else None

    def say(self, line: str) -> None:
        """One line on stderr: ``fivecard: line``."""
        self.err.write(f"fivecard: {line}\n")


class Command:
    """A subcommand, as registered: mostly its entry in :data:`SPEC`."""

    __slots__ = ("name", "help", "description", "examples", "run", "arguments", "shared", "check", "spec")

    def __init__(
        self,
        name: str,
        help: str,  # its line in 'fivecard --help'
        description: str,
        examples: tuple[str, ...],  # whole command lines, each run by the tests
        run: Callable[[Call], int],
        arguments: Callable[[argparse.ArgumentParser], None] = lambda parser: None,  # options added by code
        shared: tuple[str, ...] = (),  # the sets of options of several commands it takes
        check: Callable[[argparse.Namespace, RuleSet], object] | None = None,  # before it runs
        spec: Mapping[str, Any] | None = None,  # its options, exit codes, refusals
    ) -> None:
        self.name = name
        self.help = help
        self.description = description
        self.examples = examples
        self.run = run
        self.arguments = arguments
        self.shared = shared
        self.check = check
        self.spec: Mapping[str, Any] = {} if spec is None else spec

    def __repr__(self) -> str:
        return f"<command {self.name!r}>"

    def epilog(self) -> str:
        meanings = {int(code): meaning for code, meaning in self.spec.get("exit-codes", {}).items()}
        return _epilog(self.examples, sorted({*USUAL_EXITS, *meanings}), meanings)


def _epilog(examples: Sequence[str], codes: Iterable[int], meanings: Mapping[int, str], *notes: str) -> str:
    exits = "".join(f"\n  {code:<4} {meanings.get(code, EXIT_CODES[code])}" for code in codes)
    return "\n\n".join(["examples:" + "".join(f"\n  {line}" for line in examples), *notes, "exit codes:" + exits])


#: The subcommands by name, in the order 'fivecard --help' lists them.
COMMANDS: dict[str, Command] = {}


def register(command: Command) -> Command:
    if command.name in COMMANDS:
        raise ValueError(f"command {command.name!r} is registered twice")
    place = {name: number for number, name in enumerate(ORDER)}  # (a command not declared comes last)
    ordered = sorted([*COMMANDS.values(), command], key=lambda c: place.get(c.name, len(place)))
    COMMANDS.clear()
    COMMANDS.update((c.name, c) for c in ordered)
    return command


def command(
    name: str, check: Callable[[argparse.Namespace, RuleSet], object] | None = None
) -> Callable[[Callable[[Call], int]], Callable[[Call], int]]:
    """Register the decorated function as the one that runs the command
    ``name`` as :data:`SPEC` declares it; ``check``: its options' checks
    that are more than a :func:`refusal <check_options>`."""

    def registered(run: Callable[[Call], int]) -> Callable[[Call], int]:
        spec = DECLARED[name]
        register(Command(name, spec["help"], spec["description"], tuple(spec["examples"]), run,
                         shared=tuple(spec.get("shared", ())), check=check, spec=spec))  # fmt: skip
        return run

    return registered


def _number(read: Callable[[str], float], fits: Callable[[float], bool], expected: str) -> Callable[[str], Any]:
    """A type of option value: a number ``read`` from the text that ``fits``."""

    def number(text: str) -> Any:
        try:
            value = read(text)
        except ValueError:
            value = math.nan
        if not fits(value):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {quote(text)}")
        return value

    return number


count = _number(int, lambda n: n >= 0, "a whole number, 0 or more")
probability = _number(float, lambda p: math.isfinite(p) and 0 <= p <= 1, "a number from 0 to 1")
_count = _number(int, lambda n: n >= 0, "a whole number, 0 or more, or 'all'")
#: What each type of commands.toml reads its value with (count-or-all: 'all' is -1), or the
#: argparse action of an option that takes no value.
def _language(text: str) -> Language:
    """``--lang``'s value: a language fivecard speaks (an error names them)."""
    try:
        return language(text)
    except FivecardError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


TYPES: dict[str, Any] = {"integer": int, "count": count, "probability": probability, "language": _language,
                         "count-or-all": lambda text: -1 if text.strip().lower() == "all" else _count(text)}
ACTIONS: dict[str, Any] = {"flag": "store_true", "switch": argparse.BooleanOptionalAction}


def _pay_tables() -> str:
    """The built-in pay tables as a help text names them: the two best
    known by their short names, and how to list the rest."""
    from ..play.paytables import ALIASES, PAYTABLES  # (only where a pay table is an option's value)

    named = ", ".join(f"'{alias}' ({PAYTABLES[name].title})" for alias, name in ALIASES.items())
    return f"{named}, any of the {len(PAYTABLES)} tables 'fivecard strategy --list' lists"


def add_option(parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup, spec: Mapping[str, Any]) -> None:
    """Add an argument or option as commands.toml declares it, with what
    shell completion offers for its value besides its ``choices``:
    ``complete_words`` and (where a path goes) ``complete_files``."""
    kind = spec.get("type", "text")
    settings = {key: spec.get(key) for key in ("metavar", "choices", "default")}
    settings.update(type=TYPES.get(kind), action=ACTIONS.get(kind), nargs="+" if spec.get("many") else None)
    text = " ".join(spec["help"].split()).replace("{rule-sets}", ", ".join(RULE_SETS))
    settings["help"] = text.replace("{pay-tables}", _pay_tables()) if "{pay-tables}" in text else text
    if spec.get("repeat"):
        settings.update(action="append", default=[])
    flags = spec.get("flags", [spec.get("name")])
    action = parser.add_argument(*flags, **{key: value for key, value in settings.items() if value is not None})
    action.complete_words = (*spec.get("words", ()), *_words(kind))  # type: ignore[attr-defined]
    # A pay table is a built-in one's name or a file.
    action.complete_files = kind in ("file", "pay-table")  # type: ignore[attr-defined]


def _words(kind: str) -> list[str]:
    """What the shell offers for a value of that type of commands.toml."""
    if kind == "rule-set":
        return [name for rules in RULE_SETS.values() for name in (rules.name, *rules.aliases)]
    if kind == "pay-table":
        from ..play.paytables import ALIASES, PAYTABLES

        return [*PAYTABLES, *ALIASES]
    return [*LANGUAGES] if kind == "language" else []


def check_options(args: argparse.Namespace, rules: RuleSet, command: Command) -> None:
    """Refuse options that would do nothing, or contradict each other: the
    refusals of commands.toml, and ``--decks`` (a command's own checks:
    its ``check``)."""

    def given(flag: str | None) -> bool:
        value = getattr(args, (flag or "").lstrip("-").replace("-", "_"), None)
        return value is not None and value is not False

    for refusal in [*SPEC["refuse"], *command.spec.get("refuse", ())]:
        if all(map(given, refusal["given"])) and not given(refusal.get("unless")):
            raise UsageError(refusal["error"])
    decks = getattr(args, "decks", None)
    if decks is not None and decks < 1:
        raise UsageError(f"--decks must be at least 1, got {decks}")
    if decks not in (None, 1) and not rules.one_deck:
        raise UsageError(f"--decks does nothing under the {rules.name} rules, whose hands are not dealt from a deck")


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """The subcommands' action, whose parsers may be made later: a command
    is named at once (:meth:`add_later`: the program's ``--help`` lists it,
    and a command line may name it), and its parser made the first time a
    command line names it, so that a run makes the one parser it uses."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._later: dict[str, Callable[[str], argparse.ArgumentParser]] = {}

    def add_later(self, name: str, help: str, make: Callable[[str], argparse.ArgumentParser]) -> None:
        """Name the command ``name`` (``help``: its line in the program's
        ``--help``), whose parser ``make`` makes (given its ``prog``) when
        a command line names it, or :meth:`make_all`."""
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))
        self._name_parser_map[name] = None  # type: ignore[assignment]  # (made in make())
        self._later[name] = make

    def make(self, name: str) -> None:
        """Make the parser of the command ``name``, unless it is made."""
        make = self._later.pop(name, None)
        if make is not None:
            self._name_parser_map[name] = make(f"{self._prog_prefix} {name}")  # as add_parser names it

    def make_all(self) -> None:
        for name in list(self._later):
            self.make(name)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:  # fmt: skip
        if values:  # the command's name, as the command line gives it, then its arguments
            self.make(values[0])
        super().__call__(parser, namespace, values, option_string)


_PARSERS: dict[bool, tuple[tuple[int, ...], argparse.ArgumentParser]] = {}


def parser(*, lazy: bool = False) -> argparse.ArgumentParser:
    """The parser of the registered commands, built once (a process that
    calls :func:`fivecard.cli.main` many times, such as a test run or an
    embedding, pays for argparse once). ``lazy``: each command's parser is
    made when a command line names it (see :func:`build_parser`)."""
    key = tuple(id(c) for c in COMMANDS.values())
    made = _PARSERS.get(lazy)
    if made is None or made[0] != key:
        made = _PARSERS[lazy] = (key, build_parser(lazy=lazy))
    return made[1]


def build_parser(*, lazy: bool = False) -> argparse.ArgumentParser:
    """The parser of every registered command. ``lazy``: a command's parser
    is made the first time a command line names it, so that a run makes
    only the parser of the command it runs (the program's ``--help`` lists
    the commands by their names and help lines alone; a command's
    ``--help`` and errors are its parser's, the same either way; but a lazy
    parser's ``choices`` hold None for a command not yet named)."""
    program = SPEC["program"]
    epilog = _epilog(program["examples"], EXIT_CODES, {}, program["note"])
    made = _Parser(prog="fivecard", description=program["description"], epilog=epilog, formatter_class=_Formatter)
    made.add_argument("--version", action="version", version=f"fivecard {__version__}")
    commands = made.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, required=True,
                                   action=_Commands)  # fmt: skip
    assert isinstance(commands, _Commands)
    for registered in COMMANDS.values():
        commands.add_later(registered.name, registered.help, functools.partial(_command_parser, registered))
    if not lazy:
        commands.make_all()
    return made


def _command_parser(registered: Command, prog: str) -> argparse.ArgumentParser:
    """A command's parser, with its arguments and options."""
    sub = _Parser(prog=prog, description=registered.description, epilog=registered.epilog(),
                  formatter_class=_Formatter)  # fmt: skip
    groups: dict[str, Any] = {}
    for one_of in registered.spec.get("one-of", ()):
        group = sub.add_mutually_exclusive_group(required=one_of.get("required", False))
        groups.update(dict.fromkeys(one_of["options"], group))
    names = (*registered.shared, *SPEC["program"]["shared"])
    shared = [spec for name in names for spec in SPEC["shared"][name]]
    for spec in shared + registered.spec.get("argument", []) + registered.spec.get("option", []):
        add_option(groups.get(spec.get("flags", [""])[0], sub), spec)
    registered.arguments(sub)
    return sub


def use_color(choice: str | None, stream: TextIO) -> bool:
    """``--color``: always, never, or (auto) on a terminal that shows colour,
    unless the user said no: ``NO_COLOR`` set to anything but the empty
    string (no-color.org), or ``TERM=dumb``."""
    if choice not in (None, "auto"):
        return choice == "always"
    return not (os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb") and stream.isatty()


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
        time_left = "time left unknown" if left is None else f"{left:,.0f} s left"
        self._write(f"solving: {share:4.0%} ({counts}, {time_left})")

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
