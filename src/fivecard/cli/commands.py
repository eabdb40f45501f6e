"""The ``fivecard`` command: reads the command line, runs the command it
names (declared in ``commands.toml`` and registered in
:mod:`fivecard.cli.registry`; the functions that run them are in
:mod:`fivecard.cli.hands`, :mod:`fivecard.cli.files` and
:mod:`fivecard.cli.games`) and turns every failure into an exit code (as
``commands.toml`` lists them) and one line on stderr. It holds no poker
logic. Stop signals are :func:`fivecard.cli.main`'s: this module loads after
its handler is set.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Sequence

from ..core.errors import FileAccessError, FivecardError
from ..core.lang import ENGLISH, Language, environment_language
from ..core.rules import get_rules, wild_on
from . import files, games, hands  # noqa: F401  (each registers its commands)
from .registry import COMMANDS, EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_OK, Call, UsageError, can_show, check_options
from .registry import parser, use_color

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["main"]


def main(
    argv: Sequence[str] | None, *, stdin: TextIO | None, stdout: TextIO | None, stderr: TextIO | None
) -> int:
    """Run the command; return its exit code (never raises on bad input;
    an interrupt goes on to :func:`fivecard.cli.main`)."""
    if stdin is None and stdout is None and stderr is None:
        _console_streams()
    out: TextIO = stdout or sys.stdout or _Closed()  # type: ignore[assignment]
    err: TextIO = _Quiet(stderr or sys.stderr)  # type: ignore[assignment]
    try:
        try:
            code = _run(argv, stdin or sys.stdin or io.StringIO(), out, err)
            out.flush()  # a full disk shows here, not at exit
            return code
        except OSError as exc:
            # Writing what an interrupt leaves to say (a game's standings to a
            # terminal that hung up) may fail: the run was still interrupted.
            raise _interrupt_behind(exc) or exc
    except BrokenPipeError:
        # The reader went away (`fivecard ... | head`): stop quietly, the way
        # command-line tools do, with the shell's code for SIGPIPE.
        _drop(sys.stdout)
        return EXIT_BROKEN_PIPE
    except OSError as exc:  # standard output failed: a full disk, a closed stream
        _drop(sys.stdout)
        err.write(f"fivecard: error: cannot write standard output: {exc.strerror or exc}\n")
        return EXIT_BAD_INPUT


def _run(argv: Sequence[str] | None, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    """Parse the command line and run its command."""
    program = parser(lazy=True)  # (only the command that runs is given its options)
    argv = _command_line(sys.argv[1:]) if argv is None else list(argv)
    if not argv:  # bare 'fivecard': the help, as pip and docker give it
        out.write(program.format_help())
        return EXIT_OK
    lang = ENGLISH
    try:
        with contextlib.redirect_stdout(out):  # --help and --version print there
            args = program.parse_args(argv)
        lang = args.lang if getattr(args, "lang", None) is not None else environment_language()
        command = COMMANDS[args.command]
        rules = get_rules(getattr(args, "rules", None) or "standard")
        if getattr(args, "wild", None) is not None:
            rules = wild_on(rules, args.wild)
        check_options(args, rules, command)
        if command.check is not None:
            command.check(args, rules)
        from ..core.report import Painter  # (not before: --help and --version need none of the library)

        painter = Painter(color=use_color(getattr(args, "color", None), out), ascii=not can_show(out), lang=lang)
        return command.run(Call(args, rules, painter, stdin, out, err, program, tuple(argv), lang))
    except SystemExit as exc:  # --help or --version
        return int(exc.code or 0)
    except (FivecardError, FileAccessError) as exc:
        stop = _interrupt_behind(exc)
        if stop is not None:  # an output that failed while an interrupt cleaned up
            raise stop from None
        err.write(f"fivecard: error: {_message(exc, lang)}\n")
        return EXIT_BAD_INPUT
    except UsageError as exc:
        err.write(f"fivecard: error: {exc}\n")
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


def _message(exc: Exception, lang: Language = ENGLISH) -> str:
    """The error's line: its message and the notes added on the way out
    (what was written), on one line (line breaks and the spaces around them
    become one space; spaces within a line, as in quoted input, stay); then
    the flag that sets what the library says in words would take the input.
    The message is said in ``lang`` (:func:`~fivecard.core.words.error_text`)."""
    if lang.english:
        said = str(exc)
    else:
        from ..core.words import error_text

        said = error_text(exc, lang)
    lines = "; ".join([said, *getattr(exc, "__notes__", [])]).splitlines()
    text = " ".join(line.strip() for line in lines if line.strip())
    if getattr(exc, "option", None) is None:
        return text
    name, value = exc.option  # type: ignore[attr-defined]
    flag = f"--{name} {value}" if value else f"--{name}"
    if not lang.english:
        if name == "decks":
            return lang.phrase("{error} (allow more with {flag})", "cli", error=text, flag=flag)
        return lang.phrase("{error} (use {flag})", "cli", error=text, flag=flag)
    return f"{text} ({'allow more with' if name == 'decks' else 'use'} {flag})"


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
                stream, self.stream = self.stream, None
                _drop(stream)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False


def _drop(stream: TextIO | None) -> None:
    """Point the stream's descriptor at the null device, so that what is
    still buffered cannot fail again when Python exits."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # (not a real file descriptor: tests)
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())  # type: ignore[union-attr]


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
    :func:`~fivecard.cli.registry.can_show`), JSON to its escapes, and any
    other character to a Python escape (a backslash, ``u`` and its number),
    never a lost ``?``."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    with contextlib.suppress(AttributeError, ValueError, OSError):
        sys.stdin.reconfigure(encoding="utf-8-sig", errors="replace")  # type: ignore[union-attr]
