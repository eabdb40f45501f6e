"""The ``fivecard`` command: translates arguments to library calls and results
to text or JSON. It holds no poker logic.

Each subcommand registers itself (:func:`_command`, :func:`_register`): its
name, one line for ``fivecard --help``, its description and examples, the
options it takes and the function that runs it. The parser, the dispatch
and the shell completion scripts (:mod:`fivecard.cli.completion`) are all built
from that registry. Registering imports nothing: a command imports what it
needs (numpy, openpyxl) only when it runs.

Exit codes: 0 success; 1 ``solve`` or ``mark`` finished but some rows were errors; 2 bad
input, bad usage or an unwritable output (one line on stderr); 130
interrupted (Ctrl-C), 143 by SIGTERM, 129 by SIGHUP (each cleaned up after
alike: see :mod:`fivecard.cli`); 141 the output pipe closed early.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import math
import os
import secrets
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from ..core.version import __version__
from ..core.errors import FivecardError, in_context
from ..core.cards import format_cards
from ..core.evaluate import evaluate
from ..core.hand import Hand
from ..core.report import Painter, evaluation_json, showdown_json
from ..core.rules import RULE_SETS, RuleSet, get_rules, wild_on
from ..core.showdown import showdown

if TYPE_CHECKING:  # the commands import what they run when they run
    from _typeshed import SupportsWrite

    from ..play.advise import PayTable
    from ..play.holds import HoldLine

__all__ = ["main"]

EXIT_OK = 0
EXIT_SOME_ROWS_BAD = 1
EXIT_BAD_INPUT = 2
EXIT_HUNG_UP = 129  # SIGHUP: the terminal closed
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT)
EXIT_BROKEN_PIPE = 141  # the output pipe closed early
EXIT_TERMINATED = 143  # SIGTERM

#: What each exit code means, as every ``--help`` lists them.
_EXIT_CODES: dict[int, str] = {
    EXIT_OK: "success",
    EXIT_SOME_ROWS_BAD: "solve or mark finished, but some rows were errors (each an error row)",
    EXIT_BAD_INPUT: "bad usage or input, or an unwritable output: one line on stderr",
    EXIT_HUNG_UP: "interrupted by SIGHUP (the terminal closed), as by Ctrl-C",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_BROKEN_PIPE: "the output pipe closed early (| head)",
    EXIT_TERMINATED: "interrupted by SIGTERM (kill, a service manager), as by Ctrl-C",
}
_USUAL_EXITS = (EXIT_OK, EXIT_BAD_INPUT, EXIT_HUNG_UP, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE, EXIT_TERMINATED)


def _exit_codes_help(codes: Sequence[int] = tuple(_EXIT_CODES), meanings: dict[int, str] | None = None) -> str:
    lines = ["exit codes:"]
    for code in codes:
        lines.append(f"  {code:<4} {(meanings or {}).get(code, _EXIT_CODES[code])}")
    return "\n".join(lines)


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
    + _exit_codes_help()
)


_SOLVE_HELP = """\
Solve every showdown of a file: one result per row, in input order.

input (by extension, or by content; '-' reads standard input; read once, so
pipes and FIFOs work; UTF-8):
  text  one showdown per line: hands separated by |, ; a tab or 'vs', or a line
        of ten cards (Project Euler 54: the first five against the last five);
        a line with one hand is classified only; blank lines and lines starting
        with # are skipped but keep their line numbers
  csv   one column per hand, or one column per card (five per hand); other
        columns (labels) are kept but not read; decided by the cells' shape and
        said on stderr (--hands states it); a title row above the header is
        skipped
  xlsx  the same layouts, one row per showdown (as in the ModelOff 2012
        workbook); --sheet

output (by -o's extension, or --format; default text):
  text  an aligned table    jsonl  one JSON object per row (--json: to stdout)
  csv   the input columns, then per hand its sorted cards, category and
        score, then winner, explanation and error (jsonl has every detail)
  xlsx  the same as a workbook: the ModelOff 2012 steps 1-3, ready to hand in

Nothing lost: every data row gives one output row; a bad row (a typo, an empty
hand, a line over 1 MiB, an unclosed quote, a cell over 131,072 characters)
becomes an error row naming its line and the problem; no row is dropped or
shifted. An output file appears only when the run succeeds (after an error,
--strict, Ctrl-C, SIGTERM or SIGHUP the earlier file stays), never over its
own input. Output
cells are never formulas. A summary follows the rows (on stderr for machine
formats).
"""


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error becomes one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see '{self.prog} --help')")

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
class _Call:
    """One run of a command: its parsed arguments and what it may use."""

    args: argparse.Namespace
    rules: RuleSet
    painter: Painter
    stdin: TextIO
    out: TextIO
    err: TextIO
    parser: argparse.ArgumentParser


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


@dataclass(frozen=True)
class _Command:
    """A subcommand, as registered."""

    name: str
    help: str  # its line in 'fivecard --help'
    description: str
    examples: tuple[str, ...]  # whole command lines, each run by the tests
    run: Callable[[_Call], int]
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    shared: tuple[str, ...] = ()  # options of several commands: "rules", "color", "json"
    check: Callable[[argparse.Namespace, RuleSet], None] | None = None  # before it runs
    exit_codes: tuple[int, ...] = _USUAL_EXITS
    exit_meanings: tuple[tuple[int, str], ...] = ()  # a code's meaning for this command

    def epilog(self) -> str:
        examples = "".join(f"\n  {line}" for line in self.examples)
        return f"examples:{examples}\n\n" + _exit_codes_help(self.exit_codes, dict(self.exit_meanings))


#: The subcommands by name, in the order 'fivecard --help' lists them.
_COMMANDS: dict[str, _Command] = {}


def _register(command: _Command) -> _Command:
    if command.name in _COMMANDS:
        raise ValueError(f"command {command.name!r} is registered twice")
    _COMMANDS[command.name] = command
    return command


def _command(
    name: str,
    *,
    help: str,
    description: str,
    examples: Sequence[str],
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments,
    shared: Sequence[str] = (),
    check: Callable[[argparse.Namespace, RuleSet], None] | None = None,
    exit_codes: Sequence[int] = _USUAL_EXITS,
    exit_meanings: dict[int, str] | None = None,
) -> Callable[[Callable[[_Call], int]], Callable[[_Call], int]]:
    """Register the decorated function as the subcommand ``name``."""

    def register(run: Callable[[_Call], int]) -> Callable[[_Call], int]:
        _register(
            _Command(
                name=name,
                help=help,
                description=description,
                examples=tuple(examples),
                run=run,
                arguments=arguments,
                shared=tuple(shared),
                check=check,
                exit_codes=tuple(exit_codes),
                exit_meanings=tuple((exit_meanings or {}).items()),
            )
        )
        return run

    return register


def _complete(action: argparse.Action, *, words: Sequence[str] = (), files: bool = False) -> None:
    """What shell completion offers for an option's value or an argument
    (besides its ``choices``): these words, and/or file names."""
    action.complete_words = tuple(words)  # type: ignore[attr-defined]
    action.complete_files = files  # type: ignore[attr-defined]


def _rules_help() -> str:
    return "rule set: " + ", ".join(RULE_SETS) + " (default: standard; see 'fivecard rules')"


def _add_rules(parser: argparse.ArgumentParser) -> None:
    action = parser.add_argument("--rules", default="standard", metavar="R", help=_rules_help())
    _complete(action, words=[n for r in RULE_SETS.values() for n in (r.name, *r.aliases)])
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
_SHARED: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "rules": _add_rules,
    "color": _add_color,
    "json": _add_json,
}


_PARSERS: dict[tuple[int, ...], argparse.ArgumentParser] = {}


def _parser() -> argparse.ArgumentParser:
    """The parser of the registered commands, built once (a process that
    calls :func:`main` many times, such as a test run or an embedding, pays
    for argparse once)."""
    key = tuple(id(c) for c in _COMMANDS.values())
    parser = _PARSERS.get(key)
    if parser is None:
        _PARSERS.clear()
        parser = _PARSERS[key] = _build_parser()
    return parser


def _build_parser() -> argparse.ArgumentParser:
    """The parser of every registered command."""
    parser = _Parser(
        prog="fivecard",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"fivecard {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for command in _COMMANDS.values():
        sub = commands.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            epilog=command.epilog(),
            formatter_class=_Formatter,
        )
        for option in command.shared:
            _SHARED[option](sub)
        command.arguments(sub)
    return parser


def _read_hands(arguments: Sequence[str], stdin: TextIO) -> list[str]:
    """The hands of the arguments; ``-`` reads standard input, a hand a line
    (blank lines skipped; a line over 1 MiB is an error naming its hand)."""
    texts: list[str] = []
    for argument in arguments:
        if argument != "-":
            texts.append(argument)
            continue
        from ..core.errors import FileError
        from ..files.sources import binary_stdin, read_lines

        raw = binary_stdin(stdin)
        if raw is None:
            raise FileError("no standard input")
        for _, text, error in read_lines(raw):
            if error is not None:
                raise FileError(f"hand {len(texts) + 1}: {error}")
            if text.strip():
                texts.append(text)
    return texts


def _use_color(choice: str | None, stream: TextIO) -> bool:
    """``--color``: always, never, or (auto) on a terminal that shows colour,
    unless the user said no: ``NO_COLOR`` set to anything but the empty
    string (no-color.org), or ``TERM=dumb``."""
    if choice not in (None, "auto"):
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


def _decks(args: argparse.Namespace) -> int:
    return 1 if args.decks is None else int(args.decks)


def _check_options(args: argparse.Namespace, rules: RuleSet) -> None:
    """Refuse shared options that would do nothing, or contradict each other
    (a command's own options: its ``check``)."""
    color = getattr(args, "color", None)
    if color is not None and getattr(args, "json", False):
        raise _UsageError("--color colours text output; it does nothing with --json")
    decks = getattr(args, "decks", None)
    if decks is not None and decks < 1:
        raise _UsageError(f"--decks must be at least 1, got {decks}")
    if decks not in (None, 1) and not rules.one_deck:
        raise _UsageError(f"--decks does nothing under the {rules.name} rules, whose hands are not dealt from a deck")


def _print_json(data: Any, out: TextIO) -> None:
    json.dump(data, out, ensure_ascii=not _can_show(out), indent=2)
    out.write("\n")


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command; return its exit code (never raises on bad input)."""
    if stdin is None and stdout is None and stderr is None:
        _console_streams()
    out: TextIO = stdout or sys.stdout or _Closed()  # type: ignore[assignment]
    err: TextIO = _Quiet(stderr or sys.stderr)  # type: ignore[assignment]
    try:
        try:
            code = _main(argv, stdin=stdin or sys.stdin or io.StringIO(), stdout=out, stderr=err)
            out.flush()  # a full disk shows here, not at exit
            return code
        except OSError as exc:
            # Writing what an interrupt leaves to say (a game's standings to a
            # terminal that hung up) may fail: the run was still interrupted.
            raise _interrupt_behind(exc) or exc
    except BrokenPipeError:
        # The reader went away (`fivecard ... | head`): stop quietly, the way
        # command-line tools do, with the shell's code for SIGPIPE.
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as exc:
        from . import interrupted

        return interrupted(exc, err)
    except OSError as exc:  # standard output failed: a full disk, a closed stream
        _drop_stdout()
        err.write(f"fivecard: error: cannot write standard output: {exc.strerror or exc}\n")
        return EXIT_BAD_INPUT


def _interrupt_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The interrupt during whose handling ``exc`` was raised, if any."""
    seen: set[int] = set()
    context = exc.__context__
    while context is not None and id(context) not in seen:
        if isinstance(context, KeyboardInterrupt):
            return context
        seen.add(id(context))
        context = context.__context__
    return None


class _Closed(io.TextIOBase):
    """Standard output when the shell closed it (``>&-``): every write fails
    the way a closed descriptor does."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "Bad file descriptor (standard output is closed)")

    def isatty(self) -> bool:
        return False


class _Quiet:
    """Standard error that never fails the run: where messages cannot be
    written (closed, a full disk) they are dropped, and the exit code still
    tells what happened."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.encoding = getattr(stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        if self.stream is not None:
            try:
                self.stream.write(text)
                self.stream.flush()
            except (OSError, ValueError):
                self._drop()
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def _drop(self) -> None:
        stream, self.stream = self.stream, None
        try:  # what is still buffered must not fail again when Python exits
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())  # type: ignore[union-attr]
        except (OSError, ValueError, AttributeError):
            pass


def _drop_stdout() -> None:
    """Point standard output at the null device, so that what is still
    buffered cannot fail again when Python exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file descriptor (tests)
        pass


def _command_line(arguments: Sequence[str]) -> list[str]:
    """The command line's arguments as UTF-8 text, whatever the locale.

    The system hands arguments over as bytes and Python decodes them by the
    locale: under ``LC_ALL=C`` (ASCII) the bytes of ``♠`` arrive as three
    surrogate escapes, under a Latin-1 locale as three wrong letters. An
    argument whose bytes are valid UTF-8 is read as UTF-8 (what a terminal
    or a script types today); any other stays as the locale read it (an
    argument the program is given as a list is used as it is).
    """
    if os.name != "posix":  # Windows hands over text, not bytes
        return list(arguments)
    found = []
    for argument in arguments:
        try:
            found.append(os.fsencode(argument).decode("utf-8"))
        except UnicodeError:  # not bytes of UTF-8 (or not bytes the locale made)
            found.append(argument)
    return found


def _console_streams() -> None:
    """Whatever the locale says: read standard input as UTF-8 (undecodable
    bytes spoil only their own line), and never fail on a character the
    terminal cannot show: cards fall back to letters (``As Td``: see
    _can_show), JSON to its escapes, and any other character to a Python
    escape (a backslash, ``u`` and its number), never a lost ``?``."""
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace")):
        try:
            stream.reconfigure(errors=errors)  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass
    try:
        sys.stdin.reconfigure(encoding="utf-8-sig", errors="replace")  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass


def _can_show(stream: TextIO) -> bool:
    """Whether the stream's encoding has the suit symbols (else cards are
    written As, Td and JSON escapes what it cannot show)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "♠♥♦♣🃏".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _main(
    argv: Sequence[str] | None,
    *,
    stdin: TextIO | None,
    stdout: TextIO | None,
    stderr: TextIO | None,
) -> int:
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = _parser()
    argv = _command_line(sys.argv[1:]) if argv is None else list(argv)
    if not argv:  # bare 'fivecard': the help, as pip and docker give it
        out.write(parser.format_help())
        return EXIT_OK
    try:
        with contextlib.redirect_stdout(out):  # --help and --version print there
            args = parser.parse_args(argv)
    except SystemExit as exc:  # --help or --version
        return int(exc.code or 0)
    except _UsageError as exc:
        err.write(f"fivecard: error: {exc}\n")
        return EXIT_BAD_INPUT
    try:
        command = _COMMANDS[args.command]
        rules = get_rules(getattr(args, "rules", "standard"))
        if getattr(args, "wild", None) is not None:
            rules = wild_on(rules, args.wild)
        _check_options(args, rules)
        if command.check is not None:
            command.check(args, rules)
        painter = Painter(color=_use_color(getattr(args, "color", None), out), ascii=not _can_show(out))
        return command.run(
            _Call(args=args, rules=rules, painter=painter, stdin=stdin, out=out, err=err, parser=parser)
        )
    except FivecardError as exc:
        stop = _interrupt_behind(exc)
        if stop is not None:  # an output that failed while an interrupt cleaned up
            raise stop from None
        err.write(f"fivecard: error: {_one_line(_with_notes(exc))}{_hint(exc)}\n")
        return EXIT_BAD_INPUT
    except _UsageError as exc:
        err.write(f"fivecard: error: {exc}\n")
        return EXIT_BAD_INPUT


def _hands_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hands", nargs="+", metavar="HAND", help="a hand, e.g. 'KD 9C 4H KS 9D'; '-' reads standard input"
    )
    parser.add_argument(
        "--best-five",
        action="store_true",
        help="hands of 5 to 7 cards play their best five (seven-card stud; --board implies it)",
    )


@_command(
    "classify",
    help="sort and classify hands",
    description="Sort and classify each hand: category, score (the category's "
    "place in the ladder), strength (1 = weakest class; equal strengths draw) "
    "and a description. HAND '-' reads hands from standard input, one per line.",
    examples=(
        'fivecard classify "AS KS QS JS TS" "KD, 9C, 4H, KS, 9D"',
        'fivecard classify --rules ace-king "AS KD 8C 7H 3S"',
        'echo "8C TS KC 9H 4S" | fivecard classify -',
        'fivecard classify --best-five "AS KS QS JS TS 9S 2D"',
    ),
    shared=("rules", "color", "json"),
    arguments=_hands_arguments,
)
def _classify(call: _Call) -> int:
    args, rules, painter, out = call.args, call.rules, call.painter, call.out
    if "-" in args.hands:  # many hands: the bulk pipeline, a chunk at a time
        from ..files.solve import classify_stream

        classify_stream(
            _hand_sources(args.hands, call.stdin),
            out,
            rules=rules,
            painter=painter,
            as_json=args.json,
            ascii=not _can_show(out),
            best_five=args.best_five,
        )
        return EXIT_OK
    texts = args.hands  # a few hands: the single-hand library, no numpy to load
    hands = []
    for number, text in enumerate(texts, 1):
        try:
            hands.append(evaluate(text, rules=rules, best_five=args.best_five))
        except FivecardError as exc:
            raise in_context(exc, f"hand {number}: ") from None
    if args.json:
        _print_json([evaluation_json(e, t) for e, t in zip(hands, texts)], out)
    else:
        for evaluation in hands:
            out.write(painter.evaluation(evaluation) + "\n")
    return EXIT_OK


def _hand_sources(arguments: Sequence[str], stdin: TextIO) -> Iterator[Any]:
    """The hands of the arguments, and for ``-`` the bytes of standard input
    (a hand a line)."""
    from ..core.errors import FileError
    from ..files.sources import binary_stdin

    for argument in arguments:
        if argument != "-":
            yield argument
            continue
        raw = binary_stdin(stdin)
        if raw is None:
            raise FileError("no standard input")
        yield raw


def _compare_arguments(parser: argparse.ArgumentParser) -> None:
    _hands_arguments(parser)
    parser.add_argument(
        "--decks",
        type=int,
        metavar="N",
        help="the hands come from N decks: up to N copies of a card (default 1)",
    )
    parser.add_argument(
        "--board",
        metavar="CARDS",
        help="cards every hand shares (hold'em: up to five); each hand plays the best five "
        "of its own cards and the board's",
    )


@_command(
    "compare",
    help="settle a showdown of two or more hands and say why",
    description="Settle a showdown: every winner (several on a split), the full "
    "order, and why. Hands of one showdown come from one deck, so they may not "
    "share a card unless --decks allows it. HAND '-' reads hands from standard "
    "input, one per line.",
    examples=(
        'fivecard compare "8C TS KC 9H 4S" "7D 2S 5D 3S AC"',
        'fivecard compare --json "10D 10H 4H 4C 3S" "2c 3c 5d 7s 9s" "10S 10C 4S 4D 3H"',
        'fivecard compare --rules semi "Q, Q, Q, Q, 9" "Q, Q, Q, Q, 5"',
        'fivecard compare --board "AS KS 7D 2C 9H" "QS JS" "7C 7H"',
    ),
    shared=("rules", "color", "json"),
    arguments=_compare_arguments,
)
def _compare(call: _Call) -> int:
    args, rules, painter, out = call.args, call.rules, call.painter, call.out
    texts = _read_hands(args.hands, call.stdin)
    result = showdown(texts, rules=rules, decks=_decks(args), best_five=args.best_five, board=args.board)
    if args.json:  # one write: json.dump writes each token on its own
        out.write(json.dumps(showdown_json(result, texts), ensure_ascii=not _can_show(out), indent=2) + "\n")
    else:
        out.write("\n".join(painter.showdown(result)) + "\n")
    return EXIT_OK


def _solve(
    args: argparse.Namespace,
    rules: RuleSet,
    painter: Painter,
    stdin: TextIO,
    out: TextIO,
    err: TextIO,
) -> int:
    from ..files.solve import solve_file
    from ..files.formats import output_format

    if args.json and args.format not in (None, "jsonl"):
        raise _UsageError(f"--json writes JSON Lines; it cannot be combined with --format {args.format}")
    if args.json and args.output not in (None, "-"):
        raise _UsageError("--json writes to standard output; for a file use -o FILE.jsonl")
    fmt = "jsonl" if args.json else output_format(args.output, args.format)
    progress = _Progress(err)
    try:
        solution = solve_file(
            args.input,
            args.output,
            format=fmt,
            input_format=args.input_format,
            sheet=args.sheet,
            hands=args.hands,
            rules=rules,
            decks=_decks(args),
            strict=args.strict,
            bom=getattr(args, "bom", False),
            painter=painter,
            stdin=stdin,
            stdout=out,
            on_layout=lambda note: None if err.write(f"fivecard: {note}\n") else None,
            progress=progress,
            workers=args.workers,
            best_five=args.best_five,
        )
    finally:
        progress.clear()
    for note in solution.notes:
        err.write(f"fivecard: note: {note}\n")
    tally = solution.tally
    to_stdout = args.output in (None, "-")
    if to_stdout:
        (out if fmt == "text" else err).write(tally.summary() + "\n")
    else:
        err.write(f"wrote {args.output}: {tally.summary()}\n")
    return EXIT_SOME_ROWS_BAD if tally.errors else EXIT_OK


class _Progress:
    """A progress line on stderr while a big input (1 MiB or more) is
    solved, on a terminal only: the share read, the rows, the rate and the
    time left."""

    def __init__(self, err: TextIO) -> None:
        import time

        self.err = err
        self.clock = time.monotonic
        self.started = self.clock()
        self.shown = False
        self.on = err.isatty()

    def __call__(self, tally: Any, fraction: float | None) -> None:
        if not self.on or fraction is None:
            return
        elapsed = self.clock() - self.started
        rate = tally.rows / elapsed if elapsed > 0 else 0.0
        left = elapsed * (1 - fraction) / fraction if fraction > 0 else 0.0
        self.err.write(
            f"\rsolving: {fraction:4.0%} ({tally.rows:,} rows, {rate:,.0f} rows/s, {left:,.0f} s left)"
        )
        self.err.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.err.write("\r\033[K")
            self.shown = False


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    _complete(
        parser.add_argument("input", metavar="INPUT", help="a text, CSV or .xlsx file; '-' reads standard input"),
        files=True,
    )
    _complete(
        parser.add_argument("-o", "--output", metavar="FILE", help="write here (format from its extension)"),
        files=True,
    )
    parser.add_argument(
        "--format",
        choices=("text", "jsonl", "csv", "xlsx", "parquet"),
        help="output format (default: by -o's extension, else text); parquet needs the "
        "optional pyarrow (pip install 'fivecard[parquet]')",
    )
    parser.add_argument(
        "--bom",
        action="store_true",
        help="start CSV output with a UTF-8 byte order mark, so that Excel reads suit "
        "symbols and other non-ASCII text right",
    )
    parser.add_argument(
        "--input-format",
        choices=("text", "csv", "xlsx"),
        help="input format (default: by extension or content)",
    )
    parser.add_argument("--sheet", metavar="NAME", help="the workbook's sheet (default: the first)")
    parser.add_argument(
        "--hands",
        metavar="COLUMNS",
        help="a table's hand columns, in hand order: letters or numbers (B,C,D), ranges of "
        "one-card columns (B-F,G-K) or header names ('Player 1,Player 2'); default: "
        "decided by the cells' shape, and said on stderr",
    )
    parser.add_argument("--decks", type=int, metavar="N", help="hands of a row come from N decks (default 1)")
    parser.add_argument("--strict", action="store_true", help="stop at the first bad row (exit 2)")
    parser.add_argument(
        "--best-five",
        action="store_true",
        help="hands of 5 to 7 cards play their best five (seven-card stud); a text line then "
        "marks where hands end (|, ;, a tab or 'vs'), or writes each hand's cards together",
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes for a big text file written as text, CSV or JSON Lines (default: one "
        "per core, each given at least 4 MiB; 1: one process); the output is the same",
    )


def _check_solve(args: argparse.Namespace, rules: RuleSet) -> None:
    from ..files.formats import output_format

    fmt = "jsonl" if args.json else output_format(args.output, args.format)
    if args.color is not None and fmt != "text":
        raise _UsageError(f"--color colours the text table; it does nothing for {fmt} output")
    if args.bom and fmt != "csv":
        raise _UsageError(f"--bom starts a CSV file for Excel; it does nothing for {fmt} output")
    if args.workers is not None and args.workers < 1:
        raise _UsageError(f"--workers must be 1 or more, not {args.workers}")


def _run_solve(call: _Call) -> int:
    return _solve(call.args, call.rules, call.painter, call.stdin, call.out, call.err)


_register(
    _Command(
        name="solve",
        help="solve a file or workbook of showdowns",
        description=_SOLVE_HELP,
        examples=(
            "fivecard solve examples/showdowns.csv",
            "fivecard solve examples/rulebook-showdowns.txt -o answers.xlsx",
            "fivecard solve examples/showdowns.csv --hands B,C -o answers.csv",
            "fivecard solve --json --rules joker examples/rulebook-showdowns.txt",
        ),
        run=_run_solve,
        arguments=_solve_arguments,
        shared=("rules", "color", "json"),
        check=_check_solve,
        exit_codes=tuple(_EXIT_CODES),
        exit_meanings=(
            (EXIT_OK, "every row was solved"),
            (EXIT_SOME_ROWS_BAD, "the run finished, but some rows were errors (each an error row)"),
            (EXIT_BAD_INPUT, "bad usage, an unreadable input or unwritable output, or a bad\n"
             "       row under --strict: one line on stderr; an earlier output file stays"),
        ),
    )
)


def _mark_arguments(parser: argparse.ArgumentParser) -> None:
    _complete(
        parser.add_argument(
            "input", metavar="FILE", help="a CSV file or .xlsx workbook of showdowns and answers; '-' reads standard input"
        ),
        files=True,
    )
    parser.add_argument("--sheet", metavar="NAME", help="the workbook's sheet (default: the first)")
    parser.add_argument(
        "--answers",
        metavar="COLS",
        help="the answer columns, in the order hand 1's classification, hand 2's "
        "classification, winner: letters, numbers or header names ('D,E,F'); default: "
        "found by their headers (e.g. 'Player 1 classification', 'Winner')",
    )
    parser.add_argument(
        "--hands",
        metavar="COLUMNS",
        help="the two hand columns, as for solve (default: decided by the cells' shape)",
    )
    _complete(
        parser.add_argument(
            "-o",
            "--output",
            metavar="FILE",
            help="also write the marked file: the workbook back with wrong answers "
            "highlighted (.xlsx; .xlsm keeps its macros; up to 32 MiB of XML), or the rows "
            "with columns expected and verdict (.csv, from CSV or a workbook of any size)",
        ),
        files=True,
    )


_MARK_HELP = """Mark a spreadsheet's answers to showdowns of two hands, as the ModelOff 2012
marking macro does: settle each row, and report every row whose answers
differ (what was said, the right answer, and why), then the totals.

The file (CSV or .xlsx; --sheet) holds the two hands as solve reads them and
three answer columns, found by their headers (case, spaces and punctuation
aside) or named with --answers:
  classification  a header with 'classification', 'class', 'category', 'score'
                  or 'type' and the hand's number or name ('Player 1
                  classification', 'Classification 2', 'P1 Class', 'Hand 1
                  score'); an answer is a category ('Flush', 'one pair',
                  'Pair', 'Quads', 'Trips', 'Nothing') or its score, 1 to 10
  winner          a header with 'winner', 'winning', 'result' or 'outcome'; an
                  answer is a player's number (1, 'Player 2', 'P1'), the name
                  over that player's hand column, or a draw: draw, tie, dead
                  heat, split, chop, push, 0, none, no winner, '1,2'

An outcome is right when the winner and the strongest hand's classification
(both hands' for a draw) are right; other differences are reported but the
outcome counts. ModelOff mark: 1 per right outcome up to 20, 2 per right
outcome above 20, out of 25 outcomes (30 at most); another number of
outcomes is scaled to 25 first (right x 25 / total), then rounded to one
decimal. A bad row is reported with its line and not marked; an answer that
cannot be read counts as wrong. Numbers are read as written, digits alone:
-2, +2, 2.0, 02 or a full-width digit is no player's number and no score.
Rows are marked as they are read, in bounded memory.
"""


@_command(
    "mark",
    help="mark a spreadsheet's answers (ModelOff 2012)",
    description=_MARK_HELP,
    examples=(
        "fivecard mark examples/answered.xlsx",
        "fivecard mark examples/answered.csv --json",
        "fivecard mark examples/answered.xlsx -o answers.xlsx",
        "fivecard mark examples/answered.csv --answers D,E,F -o answers.csv",
    ),
    arguments=_mark_arguments,
    shared=("rules", "json"),
    exit_codes=tuple(_EXIT_CODES),
    exit_meanings={
        EXIT_OK: "every row was marked (wrong answers are a result, not an error)",
        EXIT_SOME_ROWS_BAD: "the run finished, but some rows were errors (not marked)",
    },
)
def _mark(call: _Call) -> int:
    from ..modeloff.mark import MarkJson, open_marked, open_marking
    from ..files.sources import binary_stdin

    args, out, err = call.args, call.out, call.err
    stdin = binary_stdin(call.stdin) if args.input == "-" else None
    with open_marking(
        args.input, sheet=args.sheet, answers=args.answers, hands=args.hands, rules=call.rules, stdin=stdin
    ) as marking:
        # the output is checked (and a workbook to copy loaded) before any row is marked
        marked = open_marked(marking, args.output, stdout=out) if args.output is not None else None
        with marked if marked is not None else contextlib.nullcontext():
            if marking.note is not None:
                err.write(f"fivecard: {marking.note}\n")
            report = MarkJson(out, ascii=not _can_show(out)) if args.json else None
            try:
                for row in marking.stream():  # a chunk of rows at a time: memory stays bounded
                    if marked is not None:
                        marked.add(row)
                    if report is not None:
                        report.add(row)
                    elif row.error is not None:
                        out.write(f"line {row.line}: error: {row.error}\n")
                    elif row.differences:
                        lead = "right outcome, other differences" if row.correct else "wrong outcome"
                        out.write(f"line {row.line}: {lead}\n")
                        for difference in row.differences:
                            out.write(f"  {difference}\n")
                        out.write(f"  why: {row.explanation}\n")
                if marked is not None:
                    marked.commit()
            except BaseException:
                if report is not None:
                    report.close()
                raise
    totals = marking.totals
    if report is not None:
        report.finish(marking)
    else:
        out.write(totals.summary() + "\n")
        scaling = totals.scaling()
        if scaling is not None:
            out.write(f"({scaling})\n")
        if totals.errors:
            out.write(f"({totals.errors} row{'s' if totals.errors != 1 else ''} with errors, not marked)\n")
    if marked is not None:
        for note in marked.notes:
            err.write(f"fivecard: note: {note}\n")
        wrong = totals.wrong_answers
        err.write(f"wrote {args.output}: {wrong} wrong answer{'s' if wrong != 1 else ''} marked\n")
    return EXIT_SOME_ROWS_BAD if totals.errors else EXIT_OK


def _deal_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, default=2, metavar="N", help="players, 1 to 10 (five cards each; default 2)"
    )
    parser.add_argument("--seed", type=int, metavar="S", help="a seed: the same seed, the same deal")
    parser.add_argument("--rounds", type=int, default=1, metavar="K", help="rounds to play, 1 or more (default 1)")


@_command(
    "deal",
    help="deal hands and settle the showdown",
    description="Shuffle the rule set's deck (54 cards under joker, 36 under "
    "short-deck; semi deals from 52 and hides suits), deal five cards to each player (two players "
    "unless --players says otherwise), classify each hand and settle the "
    "showdown. --rounds plays several rounds and keeps a tally of wins per "
    "player, as Semi-Poker's host does. Without --seed the seed comes from the "
    "operating system's randomness and is printed, so a deal can be replayed.",
    examples=(
        "fivecard deal",
        "fivecard deal --players 4 --rounds 3",
        "fivecard deal --rules joker --seed 7",
        "fivecard deal --json --players 3 --seed 1",
    ),
    shared=("rules", "color", "json"),
    arguments=_deal_arguments,
)
def _deal(call: _Call) -> int:

    from ..files.writers import DealWriter
    from ..files.writers.base import TextBytes
    from ..core.report import RawJson, deal_tally_json, write_json_object
    from ..files.pipeline import dealt_chunks
    from ..play.deal import DealTally, check_players, check_rounds, new_seed

    args, rules, painter, out = call.args, call.rules, call.painter, call.out
    # The counts first, before anything is allocated, dealt or written.
    for flag, check in (
        ("--players", lambda: check_players(args.players, rules)),
        ("--rounds", lambda: check_rounds(args.rounds)),
    ):
        try:
            check()
        except FivecardError as exc:
            raise type(exc)(f"argument {flag}: {exc}") from None
    seed = args.seed if args.seed is not None else new_seed()
    tally = DealTally(args.players, rules)
    writer = DealWriter(TextBytes(out), painter, rules, several=args.rounds > 1)
    chunks = dealt_chunks(args.players, rules=rules, seed=seed, rounds=args.rounds)
    if args.json:
        # Streamed: each round is written as it is dealt, the tally last.
        def counted() -> Iterator[RawJson]:
            for chunk in chunks:
                tally.add_chunk(chunk)
                yield from (RawJson(item) for item in writer.json_items(chunk))

        def fields() -> Iterator[tuple[str, Any]]:
            yield "rules", rules.name
            yield "seed", seed
            yield "players", args.players
            yield "rounds", counted()
            yield "tally", deal_tally_json(tally)

        write_json_object(out, fields())
        return EXIT_OK
    for chunk in chunks:
        tally.add_chunk(chunk)
        writer.write(chunk)
    if args.rounds > 1:
        out.write(f"Tally after {args.rounds} rounds:\n")
        for i in range(args.players):
            wins, splits = tally.wins[i], tally.splits[i]
            out.write(
                f"  Hand {i + 1}: {wins} win{'' if wins == 1 else 's'}, "
                f"{splits} split{'' if splits == 1 else 's'}\n"
            )
    out.write(f"(seed {seed}: --seed {seed} deals the same again)\n")
    return EXIT_OK


def _stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cards",
        type=int,
        choices=(5, 6, 7),
        default=5,
        metavar="N",
        help="hands of N cards: 5 (default), or 6 or 7, each playing its best five "
        "(seven-card stud; 133,784,560 hands of 52 cards, a few seconds)",
    )


_CARD_WORDS = {5: "five", 6: "six", 7: "seven"}


@_command(
    "stats",
    help="count every hand of the rule set's deck",
    description="Enumerate every five-card hand of the rule set's deck (or of six or "
    "seven cards, each playing its best five) and print, per category, the distinct "
    "classes, the hands, the probability and the odds.",
    examples=(
        "fivecard stats",
        "fivecard stats --rules joker",
        "fivecard stats --json --rules semi",
        "fivecard stats --cards 7 --rules short-deck",
    ),
    shared=("rules", "json"),
    arguments=_stats_arguments,
)
def _stats(call: _Call) -> int:
    from ..vector.census import census  # numpy: imported only by the commands that count

    rules, out = call.rules, call.out
    counted = census(rules, cards=call.args.cards)
    if call.args.json:
        _print_json(
            {
                "rules": rules.name,
                "cards": counted.cards,
                "hands": counted.hands,
                "classes": counted.classes,
                "categories": [
                    {
                        "category": c.category.name,
                        "name": c.category.label,
                        "classes": c.classes,
                        "hands": c.hands,
                        "probability": c.probability,
                    }
                    for c in counted.categories
                ],
            },
            out,
        )
        return EXIT_OK
    best = "" if counted.cards == 5 else ", each playing its best five"
    out.write(f"{rules.name}: every {_CARD_WORDS[counted.cards]}-card hand of {len(rules.deck())} cards"
              f"{' (suits hidden)' if not rules.suits else ''}{best}\n")
    out.write(f"{'category':<17} {'classes':>7} {'hands':>11} {'probability':>12}  odds\n")
    for c in counted.categories:
        out.write(
            f"{c.category.label:<17} {c.classes:>7,} {c.hands:>11,} {c.probability:>12.6%}  {c.odds}\n"
        )
    out.write(f"{'total':<17} {counted.classes:>7,} {counted.hands:>11,} {1:>12.6%}\n")
    return EXIT_OK


def _grid_arguments(parser: argparse.ArgumentParser) -> None:
    _complete(
        parser.add_argument(
            "-o", "--output", metavar="FILE", help="write FILE.xlsx (sheets Grid and Answers) or FILE.csv"
        ),
        files=True,
    )
    parser.add_argument(
        "--no-answers",
        action="store_true",
        help="leave out the expected answers (the Answers sheet, or the answer columns of a CSV file)",
    )


@_command(
    "grid",
    help="write a test grid of showdowns covering every outcome",
    description="Write a fixed grid of two-hand showdowns that tests every outcome a "
    "spreadsheet solution (ModelOff 2012) must get right: every category against its "
    "neighbours in both orders, every tie-break down to the last kicker, the draws one "
    "deck allows, the wheel, ace-high straights and royal flushes, Q-K-A-2-3, cards in "
    "no order and ModelOff 2012's own examples (the standard grid, designed by hand; "
    "another rule set's grid, --rules or --wild, is found by searching every hand of "
    "its deck). The expected answers (each hand's "
    "classification, the winner 1, 2 or draw, and why) come from fivecard. Without -o, "
    "a text table; -o grid.xlsx writes the sheets Grid and Answers, -o grid.csv one table.",
    examples=(
        "fivecard grid",
        "fivecard grid -o grid.xlsx",
        "fivecard grid -o grid.csv --no-answers",
        "fivecard grid --rules deuces-wild",
    ),
    shared=("rules",),
    arguments=_grid_arguments,
)
def _grid(call: _Call) -> int:
    from ..modeloff.grid import grid_answers, grid_impossible, grid_rows, grid_table, write_grid

    args, rules, out = call.args, call.rules, call.out
    rows = grid_rows(rules)
    if args.output is not None:
        write_grid(args.output, rows, rules=rules, answers=not args.no_answers)
        call.err.write(f"wrote {args.output}: {len(rows)} showdowns\n")
        return EXIT_OK
    answers = None if args.no_answers else grid_answers(rows, rules)
    out.write("\n".join(grid_table(rows, answers)) + "\n")
    out.write("\nNot in the grid (a deck cannot deal them, or there is nothing to test):\n")
    out.write("".join(f"  {line}\n" for line in grid_impossible(rules)))
    return EXIT_OK


def _advise_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", metavar="HAND", help="the five cards dealt, e.g. 'AS AH 7C 4D 2S'")
    _complete(
        parser.add_argument(
            "--paytable",
            metavar="NAME|FILE",
            help="a video-poker pay table: 'jacks-or-better' (9/6), 'deuces-wild' (full pay, with "
            "--rules deuces-wild) or a JSON file of at most 1 MiB: "
            '{"name": ..., "pays": {"royal_flush": 800, ...}, "min_pair": "J", "rules": ...} '
            "(not under the lowball rule sets)",
        ),
        words=("jacks-or-better", "deuces-wild"),
        files=True,
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="show all 32 choices (default: the best 10; --json always has all 32, so it takes no --all)",
    )


def _check_advise(args: argparse.Namespace, rules: RuleSet) -> None:
    if args.all and args.json:
        raise _UsageError("--json lists all 32 choices; --all is for the text table")


@_command(
    "advise",
    help="which cards to keep: exact odds of every choice",
    description="For each of the 32 ways to keep some of the five cards, enumerate "
    "every draw exactly (all C(47, k) completions from the 47 unseen cards, 54-card "
    "deck under joker) and give the chance to beat, draw with and lose to the dealer, "
    "and of each final category. The dealer's hand is modelled as a random five of "
    "the cards the player has not seen. With --paytable, each choice's expected "
    "return per coin under a video-poker pay table instead.",
    examples=(
        'fivecard advise "AS AH 7C 4D 2S"',
        'fivecard advise --paytable jacks-or-better "JH JD 7C 4S 2S"',
        'fivecard advise --all --rules joker "JK 9S TS 4D 2C"',
    ),
    shared=("rules", "color", "json"),
    arguments=_advise_arguments,
    check=_check_advise,
)
def _advise(call: _Call) -> int:
    from ..files.paytable_file import load_paytable
    from ..play.advise import advice_json, advise

    args, rules, painter, out = call.args, call.rules, call.painter, call.out
    hand = Hand.parse(args.hand, rules=rules)
    table = load_paytable(args.paytable) if args.paytable is not None else None
    advice = advise(hand, paytable=table)
    if args.json:
        _print_json(advice_json(advice), out)
        return EXIT_OK
    against = (
        f"expected return per coin under {table.name}"
        if table
        else f"against the dealer: a random five of the {len(advice.unseen)} cards you have not seen"
    )
    out.write(f"Hand: {painter.cards(hand.cards).rstrip()} ({rules.name}); {against}.\n")
    top = "category of the final hand (most likely)"
    out.write(f"    {'keep':<20} " + ("return " if table else "  win   draw   lose ") + f"  {top}\n")
    shown = advice.choices if args.all else advice.choices[:10]
    ladder = {c.name: c.label for c in rules.ladder}
    for i, choice in enumerate(shown):
        # Painter.cards pads every card to three columns: 4 per card, less one.
        keep = painter.cards(choice.keep) if choice.keep else "(nothing)"
        pad = " " * (20 - (4 * len(choice.keep) - 1 if choice.keep else len(keep)))
        if choice.ev is not None:
            numbers = f"{choice.ev:7.4f}"
        else:
            numbers = f"{choice.win:6.1%} {choice.draw:6.1%} {choice.lose:6.1%}"
        likely = max(choice.categories, key=lambda k: choice.categories[k])
        mark = " *" if i == 0 else "  "
        out.write(f"{mark}  {keep}{pad} {numbers}   {ladder[likely]} {choice.categories[likely]:.1%}\n")
    out.write(f"Recommended (*): {advice.reason}.\n")
    dealer = f" and {advice.dealer_hands:,} dealer hands" if advice.dealer_hands else ""
    out.write(f"(exact: {advice.completions:,} draws{dealer} enumerated)\n")
    return EXIT_OK


def _strategy_arguments(parser: argparse.ArgumentParser) -> None:
    game = parser.add_mutually_exclusive_group(required=True)
    _complete(
        game.add_argument(
            "--paytable",
            metavar="NAME|FILE",
            help="the video-poker pay table to solve: 'jacks-or-better' (9/6), 'deuces-wild' (full pay, "
            "with --rules deuces-wild) or a JSON file, as advise takes (whole-number pays)",
        ),
        words=("jacks-or-better", "deuces-wild"),
        files=True,
    )
    game.add_argument(
        "--dealer",
        action="store_true",
        help="solve the game against the dealer (Poker vs Dealer's house bet, 1:1, a draw returns it; "
        "the advisor's model: the dealer's five come from the cards the player has not seen): the "
        "player's chances to win, draw and lose and the house edge under the best holds",
    )
    _complete(
        parser.add_argument(
            "-o",
            "--output",
            metavar="FILE",
            help="also write the strategy, FILE.csv or FILE.parquet (the optional pyarrow): every class of "
            "starting hands (suits renamed alike), its deals, the best hold and its value (return per coin, "
            "or with --dealer win - lose and the chances), and the runner-up's, best first",
        ),
        files=True,
    )
    parser.add_argument(
        "--workers",
        type=_count,
        metavar="N",
        help="--dealer: a local Dask cluster of N processes (default: one per core, as many as half "
        "the memory holds at some 600 MB each; 0: this process, without Dask). Without the optional Dask (pip install 'fivecard[cluster]') it runs in this "
        "process. The answer is the same whatever N",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="--dealer: run on an existing Dask cluster, e.g. tcp://host:8786 (its workers need fivecard "
        "installed)",
    )
    _complete(
        parser.add_argument(
            "--checkpoint",
            metavar="DIR",
            help="keep each finished part of the work here, so that a run interrupted (Ctrl-C, a lost "
            "machine) resumes where it stopped when run again (default: 'checkpoints' in fivecard's cache "
            "folder, $FIVECARD_CACHE, $XDG_CACHE_HOME/fivecard or ~/.cache/fivecard; the files go once "
            "the run is done)",
        ),
        files=True,
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress line on stderr with the rate and the time left (default: when stderr is a "
        "terminal)",
    )
    parser.add_argument(
        "--holds",
        type=_holds_count,
        default=0,
        metavar="N|all",
        help="also print the ranked hold list, the strategy as players learn it: the best holds of all "
        "deals grouped by what they keep ('4 to a Royal Flush', 'High pair (J or better)', 'Discard "
        "everything'), best mean value first, with each one's share of the deals and its range of "
        "values; its first N lines (all: every line). With --json: the key \"holds\"",
    )


def _holds_count(text: str) -> int:
    """``--holds``: a whole number of lines, 0 or more, or ``all`` (-1)."""
    if text.strip().lower() == "all":
        return -1
    return _count(text, "expected a whole number, 0 or more, or 'all'")


def _count(text: str, expected: str = "expected a whole number, 0 or more") -> int:
    """A whole number, 0 or more (``--workers``)."""
    from ..core.errors import quote

    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{expected}, got {quote(text)}")
    return value


@_command(
    "strategy",
    help="solve a game: a pay table's exact return, or the house edge against the dealer",
    description="Find the best hold of every deal of the deck exactly and print what the game "
    "returns under perfect play. --paytable: a video-poker pay table (2,598,960 deals of 52 "
    "cards, counted once and valued by inclusion-exclusion): the exact return per coin (as a "
    "fraction and a percentage) and how often each final hand comes; rule sets of suited "
    "cards without jokers, about 6 s. --dealer: Poker vs Dealer's house bet, every class of "
    "starting hands (134,459 for 52 cards) against every dealer hand of the unseen cards, "
    "for any rule set: the player's exact chances to win, draw and lose, and the house edge; "
    "about a minute on one core for 52 cards, spread over a Dask cluster (--workers, "
    "--scheduler), resumable from checkpoints.",
    examples=(
        "fivecard strategy --paytable jacks-or-better --rules short-deck",
        "fivecard strategy --json --paytable jacks-or-better --rules short-deck",
        "fivecard strategy --paytable jacks-or-better --rules short-deck --holds 10",
        "fivecard strategy --dealer --rules short-deck --workers 2 -o dealer.csv",
    ),
    shared=("rules", "json"),
    arguments=_strategy_arguments,
)
def _strategy(call: _Call) -> int:
    args = call.args
    output = args.output
    if output is not None:
        from ..files.writers.strategy import check_strategy_path

        if not output.lower().endswith((".csv", ".parquet")):
            raise _UsageError(f"-o writes FILE.csv or FILE.parquet, not {output!r}")
        check_strategy_path(output)  # before the work, not after it
    if args.dealer:
        if args.workers is not None and args.scheduler is not None:
            raise _UsageError("--workers starts a local cluster; with --scheduler the cluster's own workers run")
        return _strategy_dealer(call)
    for name in ("workers", "scheduler"):
        if getattr(args, name) is not None:
            raise _UsageError(f"--{name} is for --dealer: a pay table is solved in this process, in seconds")
    from ..files.paytable_file import load_paytable
    from ..files.writers.strategy import write_strategy
    from ..play.strategy import solve_paytable, starting_hands

    rules, out = call.rules, call.out
    table = load_paytable(args.paytable)
    progress = _PartsProgress(call.err, args.progress)
    try:
        solved = solve_paytable(
            table,
            rules=rules,
            checkpoint=_checkpoints(args),
            progress=progress,
            on_note=progress.note,
        )
    finally:
        progress.clear()
    progress.say_resumed()
    deals = int(solved.classes.deals.sum())
    hands = starting_hands(solved) if output is not None or args.holds else []
    if output is not None:
        write_strategy(output, hands)
        call.err.write(f"wrote {output}: {len(hands):,} classes of starting hands\n")
    holds = _hold_lines(hands, rules, table, args.holds)
    ret = solved.expected_return
    labels = {c.name: c.label for c in rules.ladder} | {"nothing": "Nothing (pays 0)", "four_wild": "Four wild cards"}
    labels |= {f"{kind}_{c.name}": f"{c.label} ({kind})" for c in rules.ladder for kind in ("natural", "wild")}
    if args.json:
        _print_json(
            {
                "paytable": table.name,
                "rules": rules.name,
                "deals": deals,
                "classes": len(solved.classes),
                "return": f"{ret.numerator}/{ret.denominator}",
                "percent": solved.percent,
                "final": {name: float(p) for name, p in solved.final.items()},
                **_holds_json(holds),
            },
            out,
        )
        return EXIT_OK
    out.write(
        f"{table.name} under {rules.name}, perfect play over all {deals:,} deals "
        f"({len(solved.classes):,} classes):\n"
    )
    out.write(f"return {solved.percent:.4f}% ({ret.numerator}/{ret.denominator} per coin)\n")
    width = max(len(labels[name]) for name in solved.final)
    out.write(f"{'final hand':<{width}} {'probability':>12}  pays\n")
    for name, p in solved.final.items():
        out.write(f"{labels[name]:<{width}} {float(p):>12.6%}  {table.pays.get(name, 0.0):g}\n")
    _print_holds(holds, "the return per coin", out)
    return EXIT_OK


def _strategy_dealer(call: _Call) -> int:
    import time

    from ..play.dealer import dealer_hands, default_workers, kept_shares, solve_dealer
    from ..vector.jobs import dask_available, plan
    from ..files.writers.strategy import write_strategy

    args, rules, out, err = call.args, call.rules, call.out, call.err
    workers = default_workers(len(rules.dealt()), args.workers, args.scheduler)
    where = plan(workers, args.scheduler)
    if args.workers and args.scheduler is None and not dask_available():
        err.write(
            f"fivecard: note: --workers {args.workers}: Dask is not installed (pip install "
            "'fivecard[cluster]'), so this runs in this process\n"
        )
    progress = _PartsProgress(err, args.progress)
    started = time.monotonic()
    try:
        solved = solve_dealer(
            rules,
            workers=workers,
            scheduler=args.scheduler,
            checkpoint=_checkpoints(args),
            progress=progress,
            on_note=progress.note,
        )
    finally:
        progress.clear()
    seconds = time.monotonic() - started
    progress.say_resumed()
    hands = dealer_hands(solved) if args.output is not None or args.holds else []
    if output := args.output:
        write_strategy(output, hands)
        err.write(f"wrote {output}: {len(hands):,} classes of starting hands\n")
    holds = _hold_lines(hands, rules, None, args.holds)
    labels = {c.name: c.label for c in rules.ladder}
    deals = int(solved.classes.deals.sum())
    chances = {"win": solved.win, "draw": solved.draw, "lose": solved.lose}
    if args.json:
        _print_json(
            {
                "game": "dealer",
                "rules": rules.name,
                "deals": deals,
                "classes": len(solved.classes),
                **{name: f"{p.numerator}/{p.denominator}" for name, p in chances.items()},
                "percent": {name: float(p * 100) for name, p in chances.items()},
                "house_edge": float(solved.house_edge * 100),
                "final": {name: float(p) for name, p in solved.final.items()},
                "kept": {str(k): float(p) for k, p in kept_shares(solved).items()},
                "seconds": round(seconds, 3),
                "ran": where,
                **_holds_json(holds),
            },
            out,
        )
        return EXIT_OK
    edge = float(solved.house_edge * 100)
    out.write(
        f"Poker vs Dealer's house bet under {rules.name}, the best hold of each of {deals:,} deals "
        f"({len(solved.classes):,} classes) against every dealer hand of the unseen cards:\n"
    )
    for name, p in chances.items():
        out.write(f"{name:<5} {float(p):>10.6%}  ({p.numerator}/{p.denominator})\n")
    side = "the player has the edge" if edge < 0 else "the house has the edge"
    out.write(f"house edge {edge:+.4f}% per unit bet ({side}; the player's expectation {-edge:+.4f}%)\n")
    width = max(len(labels[name]) for name in solved.final)
    out.write(f"{'final hand':<{width}} {'probability':>12}\n")
    for name, p in solved.final.items():
        out.write(f"{labels[name]:<{width}} {float(p):>12.6%}\n")
    kept = ", ".join(f"{k}: {float(p):.1%}" for k, p in kept_shares(solved).items())
    out.write(f"cards kept under the best holds (share of deals): {kept}\n")
    out.write(f"(solved in {seconds:.1f} s, {where})\n")
    _print_holds(holds, "win - lose", out)
    return EXIT_OK


@dataclass(frozen=True, slots=True)
class _Holds:
    """The lines of the ranked hold list that ``--holds`` asked for, of
    how many in all (``asked``: whether it was asked for)."""

    lines: list[HoldLine]
    of: int
    asked: bool


def _hold_lines(hands: Sequence[Any], rules: RuleSet, paytable: PayTable | None, count: int) -> _Holds:
    """``--holds N``: the first N lines of the ranked hold list (-1: all)."""
    from ..play.holds import hold_list

    if not count:
        return _Holds([], 0, False)
    lines = hold_list(hands, rules, paytable)
    return _Holds(lines if count < 0 else lines[:count], len(lines), True)


def _holds_json(holds: _Holds) -> dict[str, list[dict[str, object]]]:
    """The key ``"holds"`` of ``strategy --json --holds N`` (none without
    ``--holds``)."""
    if not holds.asked:
        return {}
    return {
        "holds": [
            {
                "hold": line.description,
                "deals": line.deals,
                "share": line.share,
                "mean": line.value_mean,
                "low": line.value_low,
                "high": line.value_high,
            }
            for line in holds.lines
        ]
    }


def _print_holds(holds: _Holds, value: str, out: TextIO) -> None:
    """The ranked hold list as a table: rank, hold, share of deals, mean
    value (range), an example deal and its hold."""
    if not holds.asked:
        return
    shown = f"{len(holds.lines)} of {holds.of}" if len(holds.lines) < holds.of else f"all {holds.of}"
    out.write(f"\nranked hold list ({shown} kinds of hold, best mean value first; the value is {value}):\n")
    rows = [
        (
            str(place),
            line.description,
            f"{line.share:.4%}",
            f"{line.value_mean:.4f} ({line.value_low:.4f} to {line.value_high:.4f})",
            f"{format_cards(line.example[0], ascii=True)}: keep {format_cards(line.example[1], ascii=True) or 'none'}",
        )
        for place, line in enumerate(holds.lines, 1)
    ]
    head = ("rank", "hold", "share of deals", "mean value (range)", "example")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(4)]
    for row in [head, *rows]:
        out.write(
            f"{row[0]:>{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:>{widths[2]}}  {row[3]:<{widths[3]}}  {row[4]}".rstrip()
            + "\n"
        )


class _PartsProgress:
    """Progress on stderr while a job's parts run: the share done, the rate
    and the time left. On a terminal one line redrawn; elsewhere (when
    asked with --progress) a line at most every few seconds, and the last."""

    def __init__(self, err: TextIO, on: bool | None) -> None:
        import time

        self.err = err
        self.clock = time.monotonic
        self.terminal = err.isatty()
        self.on = self.terminal if on is None else on
        self.started: float | None = None
        self.written = -math.inf
        self.resumed = 0
        self.parts = 0
        self.shown = False
        if self.on:  # the tables come first: say so at once
            self.err.write("\rsolving: making the tables" if self.terminal else "solving: making the tables\n")
            self.err.flush()
            self.shown = True

    def __call__(self, done: int, parts: int) -> None:
        self.parts = parts
        now = self.clock()
        if self.started is None:  # the first call: what the checkpoints held
            self.started = now
            self.resumed = done
        if not self.on or (not self.terminal and done < parts and now - self.written < 5):
            return
        self.written = now
        elapsed = now - self.started
        rate = (done - self.resumed) / elapsed if elapsed > 0 else 0.0
        left = f"{(parts - done) / rate:,.0f} s left" if rate > 0 else "time left unknown"
        line = f"solving: {done / parts if parts else 1:4.0%} ({done:,}/{parts:,} parts, {rate:,.2f} parts/s, {left})"
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


def _checkpoints(args: argparse.Namespace) -> str | None:
    """``--checkpoint``, else the default folder in fivecard's cache."""
    from ..vector.jobs import default_checkpoints

    return args.checkpoint if args.checkpoint is not None else default_checkpoints()


def _probability(text: str) -> float:
    """``--fold-below``: a finite number from 0 to 1."""
    import math

    from ..core.errors import quote

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {quote(text)}")
    return value


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, metavar="S", help="a seed: the same seed, the same game")
    parser.add_argument(
        "--fold-below",
        type=_probability,
        default=0.30,
        metavar="P",
        help="computer players fold when their best chance to beat the dealer is below P, "
        "a number from 0 to 1 (default 0.30)",
    )
    parser.add_argument(
        "--deck",
        metavar="CARDS",
        help="deal the first round from these cards in this order instead of shuffling "
        "(demonstrations and tests)",
    )


@_command(
    "play",
    help="five-card draw against the dealer and two computer players",
    description="Five-card draw against the dealer with two computer players, as in "
    "Poker vs Dealer. "
    "Each round everyone antes 10 into the pot and bets 10 against the house; keep "
    "any cards and exchange the rest once, or fold; the dealer's five cards are "
    "turned up one at a time; each hand still in plays the dealer for the house bet "
    "(1:1; a draw returns it) and the best of them takes the pot (ties split it, odd "
    "chips to the earliest seat; if all fold it carries over). Answer with the "
    "positions of the cards to keep, shown as [1]-[5] (type 1 3 4), a (all), n "
    "(none), h (the advisor's hint), f (fold) or q (quit). Quitting, the end of "
    "input or Ctrl-C in the middle of a round voids it: every chip of it goes "
    "back, and the standings are printed. Reads piped input too.",
    examples=(
        "fivecard play",
        "fivecard play --rules semi --seed 1",
        "fivecard play --fold-below 0.5 --rules joker",
    ),
    shared=("rules", "color"),
    arguments=_play_arguments,
    exit_meanings={
        EXIT_OK: "the game ended: you quit, the input ended or you ran out of chips",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C): the round in play is void, the standings printed",
    },
)
def _play(call: _Call) -> int:
    from ..core.cards import parse_cards
    from ..play.game import Game
    from .game_screen import play

    args, stdin, out = call.args, call.stdin, call.out
    # Everything is checked before the first line is printed (--fold-below by
    # the parser, --deck when the Game is made).
    try:
        stacked = [parse_cards(args.deck)] if args.deck is not None else []
        # a seed is always chosen here, so the one the game prints replays it (--seed)
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        game = Game(rules=call.rules, seed=seed, fold_below=args.fold_below, stacked=stacked)
    except FivecardError as exc:
        if args.deck is None:
            raise
        raise type(exc)(f"--deck: {exc}") from None
    delay = 0.35 if out.isatty() and stdin.isatty() else 0.0
    return play(game, stdin=stdin, out=out, painter=call.painter, delay=delay)


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this computer only; "
        "0.0.0.0 lets others on your network play)",
    )
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    parser.add_argument("--open", action="store_true", help="open the app in the web browser once it is up")
    action = parser.add_argument(
        "--data",
        metavar="DIR",
        help="where games are kept (a SQLite file; default $XDG_DATA_HOME/fivecard or ~/.local/share/fivecard)",
    )
    _complete(action, files=True)
    parser.add_argument(
        "--check",
        action="store_true",
        help="start, ask the app for its pages and API once, print what answered and stop "
        "(checks an installation)",
    )
    parser.add_argument("--access-log", action="store_true", help="print a line per request")


@_command(
    "serve",
    help="Poker vs Dealer, a hand checker and tables for friends in your web browser",
    description="Start the web app: Poker vs Dealer (five-card draw against the dealer "
    "and two computer players, with hints), a hand checker, and tables for friends "
    "(/tables: a host's rounds, everyone dealing in their own browser, the high hand "
    "winning points), in any browser, fully offline: every page, script and card is "
    "served by the app itself. Games and tables are kept in a SQLite file under --data "
    "and survive a restart. It prints its address; Ctrl-C stops it. Needs the web "
    "extra: pip install 'fivecard[web]'.",
    examples=(
        "fivecard serve",
        "fivecard serve --port 8080 --open",
        "fivecard serve --check",
    ),
    arguments=_serve_arguments,
    exit_meanings={
        EXIT_OK: "--check found the app working",
        EXIT_BAD_INPUT: "bad usage, the port is taken, or the web extra is not installed: one line on stderr",
        EXIT_INTERRUPTED: "stopped with Ctrl-C (the usual way to stop it)",
    },
)
def _serve(call: _Call) -> int:
    from .serve import serve

    args = call.args
    return serve(
        host=args.host,
        port=args.port,
        data=args.data,
        open_browser=args.open,
        check=args.check,
        access_log=args.access_log,
        out=call.out,
    )


@_command(
    "rules",
    help="list the rule sets",
    description="List the rule sets (with their aliases) and their categories, "
    "strongest first, each with its score.",
    examples=("fivecard rules", "fivecard rules --json"),
    shared=("json",),
)
def _rules(call: _Call) -> int:
    out = call.out
    if call.args.json:
        _print_json(
            [
                {
                    "name": r.name,
                    "aliases": list(r.aliases),
                    "summary": r.summary,
                    "categories": [c.name for c in reversed(r.ladder)],
                }
                for r in RULE_SETS.values()
            ],
            out,
        )
        return EXIT_OK
    for ruleset in RULE_SETS.values():
        aliases = f" (also: {', '.join(ruleset.aliases)})" if ruleset.aliases else ""
        out.write(f"{ruleset.name}{aliases}: {ruleset.summary}\n")
        ladder = ", ".join(
            f"{ruleset.score(c)} {c.label}" for c in reversed(ruleset.ladder)
        )
        out.write(f"  {ladder}\n")
    return EXIT_OK


def _completion_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=("bash", "zsh", "fish"), metavar="SHELL", help="bash, zsh or fish")


@_command(
    "completion",
    help="print a shell completion script (bash, zsh, fish)",
    description="Print a script that completes fivecard's commands, options, "
    "rule sets, formats and file names in the shell, made from the command's "
    "own options. Install it once (a new shell then completes; 'source "
    "<(fivecard completion bash)' in ~/.bashrc works too). For zsh, the "
    "directory must be on fpath before compinit runs: 'fpath=(~/.zfunc $fpath)' "
    "in ~/.zshrc.",
    examples=(
        "fivecard completion bash > ~/.local/share/bash-completion/completions/fivecard",
        "fivecard completion zsh > ~/.zfunc/_fivecard",
        "fivecard completion fish > ~/.config/fish/completions/fivecard.fish",
    ),
    arguments=_completion_arguments,
)
def _completion(call: _Call) -> int:
    from .completion import completion_script

    call.out.write(completion_script(call.args.shell, call.parser))
    return EXIT_OK


def _hint(exc: FivecardError) -> str:
    """The library says in words which setting would take the input; the
    command adds the flag that sets it."""
    if exc.option is None:
        return ""
    name, value = exc.option
    flag = f"--{name} {value}" if value else f"--{name}"
    return f" ({'allow more with' if name == 'decks' else 'use'} {flag})"


def _with_notes(exc: BaseException) -> str:
    """The message and the notes added on the way out (what was written)."""
    return "; ".join([str(exc), *getattr(exc, "__notes__", [])])


def _one_line(message: str) -> str:
    """The message on one line: its line breaks (and the spaces around
    them) become one space; spaces within a line, as in quoted input
    (``in '   '``), stay as they are."""
    return " ".join(line.strip() for line in message.splitlines() if line.strip())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
