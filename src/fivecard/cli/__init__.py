"""The ``fivecard`` command's entry point.

Every way a process is asked to stop is an interrupt: Ctrl-C (SIGINT),
SIGTERM (``kill``, a service manager, ``timeout``) and SIGHUP (the terminal
closed) each raise a :class:`KeyboardInterrupt` in the command, so every
output's temporary file is removed, an earlier output file stays as it was,
checkpoints are kept and a game's round in play is voided alike. The command
then writes one line (``fivecard: interrupted``, naming the signal unless it
was Ctrl-C, with what became of the output) and exits with the shell's code
for the signal: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.

It imports nothing heavy before it can catch a signal: the command itself
(:mod:`fivecard.cli.commands`) loads inside :func:`main`, so a signal while
the program starts is the same exit code and one line, like a signal later.
A Ctrl-C can also break an import from inside (numpy turns it into an
``ImportError``), so any failure after a signal counts as the interrupt.
:func:`main`'s handler is the only one: whatever the command was doing, its
interrupt ends here, with the one line and the exit code.
"""

from __future__ import annotations

import os
import sys

import _signal  # type: ignore[import-not-found]  # signal's built-in half: no enum to import first

TYPE_CHECKING = False  # nothing more is imported before main() runs
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import FrameType
    from typing import TextIO

__all__ = ["main", "run", "STOP_SIGNALS", "Stopped", "interrupted"]

#: The signals that stop the command as an interrupt, and the name each is
#: said with (Ctrl-C needs none: the user pressed it).
STOP_SIGNALS: dict[int, str] = {
    getattr(_signal, name): "" if name == "SIGINT" else name
    for name in ("SIGINT", "SIGTERM", "SIGHUP")
    if hasattr(_signal, name)  # no SIGHUP on Windows
}
_program: list[bool] = []  # set by run(): this process is the command


class Stopped(KeyboardInterrupt):
    """The interrupt a stop signal raises in the command: a
    :class:`KeyboardInterrupt` (so everything that cleans up after Ctrl-C
    cleans up after it), carrying the signal's number."""

    def __init__(self, number: int) -> None:
        super().__init__(number)  # its args: it pickles (to and from a helper process) as itself
        self.signal = number


def interrupted(exc: BaseException | None, err: TextIO | None, number: int | None = None) -> int:
    """Say that the command was interrupted, in one line on ``err`` with
    the notes ``exc`` carries (what became of the output), and return the
    exit code: 128 plus the signal's number (130 for Ctrl-C). The signal is
    ``number``, else the one ``exc`` carries, else SIGINT."""
    if number is None:
        number = getattr(exc, "signal", _signal.SIGINT)
    assert number is not None
    name = STOP_SIGNALS.get(number, "")
    notes = "".join(f"; {note}" for note in getattr(exc, "__notes__", []))
    # After Ctrl-C the terminal shows ^C: the line starts on a line of its own.
    line = f"fivecard: interrupted ({name}){notes}\n" if name else f"\nfivecard: interrupted{notes}\n"
    stream = err or sys.stderr
    try:
        stream.write(line)
        stream.flush()
    except (OSError, ValueError, AttributeError):  # stderr is gone (a closed terminal): the code says it
        try:  # and what is still buffered must not fail again when Python exits
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass
    return 128 + number


def run() -> None:
    """The ``fivecard`` program: :func:`main`, then exit with its code. Once
    the command is done, a stop signal changes nothing: it is ignored while
    the process ends (an output is complete and in place, and the exit code
    says so)."""
    _program.append(True)
    sys.exit(main())


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command; return its exit code (never raises on bad input or
    an interrupt). See :func:`fivecard.cli.commands.main`."""
    pressed: list[int] = []
    raising: list[bool] = []  # empty while the command's modules load

    def on_stop(number: int, frame: FrameType | None) -> None:
        pressed.append(number)
        if not raising:  # while the command's modules load it is only noted
            return
        if _importing(frame):
            # An exception raised inside importlib's machinery (a module
            # lock's weakref callback) is printed as "Exception ignored",
            # a traceback, and lost: deliver the signal again a moment later,
            # to be raised once the import is done. (Not at once: this
            # handler would run again inside itself, still in importlib,
            # until the recursion limit.)
            import _thread

            _thread.start_new_thread(_deliver_again, (number,))
            return
        raise Stopped(number)

    previous: dict[int, object] = {}
    try:
        for number in STOP_SIGNALS:
            previous[number] = _signal.signal(number, on_stop)
    except ValueError:  # not the main thread: leave signals alone
        pass
    try:
        from .commands import main as run

        if pressed:
            raise Stopped(pressed[0])
        raising.append(True)
        return run(argv, stdin=stdin, stdout=stdout, stderr=stderr)
    except BaseException as exc:
        raising.clear()  # a signal while the interrupt is said is only noted
        if not (pressed or isinstance(exc, KeyboardInterrupt)):
            raise
        return interrupted(exc, stderr, getattr(exc, "signal", pressed[0] if pressed else None))
    finally:
        for number, handler in previous.items():
            # (None: a handler not set from Python, which cannot be set again)
            _signal.signal(number, _signal.SIG_IGN if _program else _signal.SIG_DFL if handler is None else handler)


def _deliver_again(number: int) -> None:
    """(In a thread of its own.) Signal ``number`` to the main thread again,
    after a pause in which it can leave the import it was in."""
    import _thread

    _thread.allocate_lock().acquire(timeout=0.005)  # a new lock: this waits out the timeout
    _thread.interrupt_main(number)  # type: ignore[arg-type]  # any signal's number


def _importing(frame: FrameType | None) -> bool:
    """Whether the interrupted code is inside importlib's machinery."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False

