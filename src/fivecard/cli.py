"""The ``fivecard`` command's entry point.

It imports nothing heavy before it can catch a Ctrl-C: the command itself
(:mod:`fivecard.commands`) loads inside :func:`main`, so an interrupt while
the program starts is exit code 130 and one line, like an interrupt later.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # nothing more is imported before main() runs
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO

__all__ = ["main"]


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command; return its exit code (never raises on bad input).
    See :func:`fivecard.commands.main`."""
    try:
        from .commands import main as run
    except KeyboardInterrupt:
        (stderr or sys.stderr).write("\nfivecard: interrupted\n")
        return 130
    return run(argv, stdin=stdin, stdout=stdout, stderr=stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
