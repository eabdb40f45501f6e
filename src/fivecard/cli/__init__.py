"""The ``fivecard`` command's entry point.

It imports nothing heavy before it can catch a Ctrl-C: the command itself
(:mod:`fivecard.cli.commands`) loads inside :func:`main`, so an interrupt while
the program starts is exit code 130 and one line, like an interrupt later.
A Ctrl-C can also break an import from inside (numpy turns it into an
``ImportError``), so any failure after a Ctrl-C counts as the interrupt.
"""

from __future__ import annotations

import sys

import _signal  # type: ignore[import-not-found]  # signal's built-in half: no enum to import first

TYPE_CHECKING = False  # nothing more is imported before main() runs
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import FrameType
    from typing import TextIO

__all__ = ["main", "run"]

_INTERRUPTED = 130
_program: list[bool] = []  # set by run(): this process is the command


def run() -> None:
    """The ``fivecard`` program: :func:`main`, then exit with its code. Once
    the command is done, a Ctrl-C changes nothing: it is ignored while the
    process ends (an output is complete and in place, and the exit code
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
    """Run the command; return its exit code (never raises on bad input).
    See :func:`fivecard.cli.commands.main`."""
    pressed: list[int] = []
    raising: list[bool] = []  # empty while the command's modules load

    def on_ctrl_c(number: int, frame: FrameType | None) -> None:
        pressed.append(number)
        if not raising:  # while the command's modules load it is only noted
            return
        if _importing(frame):
            # An exception raised inside importlib's machinery (a module
            # lock's weakref callback) is printed as "Exception ignored",
            # a traceback, and lost: deliver the signal again, to be raised
            # once the import is done.
            import _thread

            _thread.interrupt_main()
            return
        raise KeyboardInterrupt

    try:
        previous = _signal.signal(_signal.SIGINT, on_ctrl_c)
    except ValueError:  # not the main thread: leave signals alone
        previous = None
    try:
        from .commands import main as run

        if pressed:
            raise KeyboardInterrupt
        raising.append(True)
        return run(argv, stdin=stdin, stdout=stdout, stderr=stderr)
    except BaseException as exc:
        if not (pressed or isinstance(exc, KeyboardInterrupt)):
            raise
        notes = "".join(f"; {note}" for note in getattr(exc, "__notes__", []))
        try:
            (stderr or sys.stderr).write(f"\nfivecard: interrupted{notes}\n")
        except (OSError, ValueError, AttributeError):
            pass
        return _INTERRUPTED
    finally:
        if previous is not None:
            _signal.signal(_signal.SIGINT, _signal.SIG_IGN if _program else previous)


def _importing(frame: FrameType | None) -> bool:
    """Whether the interrupted code is inside importlib's machinery."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
