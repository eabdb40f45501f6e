"""Pay tables read from files: the command line's ``--paytable`` takes a
built-in name or a small JSON file. A file is read once, at most
:data:`PAYTABLE_LIMIT` bytes of it, and checked in full. (The web app takes
built-in names only and opens nothing:
:func:`~fivecard.play.paytables.builtin_paytable`.)
"""

from __future__ import annotations

import difflib
import os
import stat
from pathlib import Path
from typing import Final

from ..core.errors import FileAccessError, quote
from ..play.paytables import ALIASES, PAYTABLES, PayTable, PayTableError, builtin_paytable, parse_paytable

__all__ = ["PAYTABLE_LIMIT", "load_paytable"]

#: The most bytes of a pay table file read (a table is a few hundred).
PAYTABLE_LIMIT: Final = 1 << 20
_PATH_QUOTE: Final = 300  # file names are quoted whole unless absurdly long
_ID_LIMIT: Final = 80  # a table's name is at most 80 characters


def load_paytable(name_or_path: str) -> PayTable:
    """A built-in pay table by name, or one from a JSON file
    (:func:`~fivecard.play.paytables.parse_paytable` says what it holds; its
    name defaults to the file's, made one line of at most 80 characters).

    The file is opened once and at most :data:`PAYTABLE_LIMIT` bytes are
    read: a larger file, or an endless device, is an error. A directory is
    an error. A named pipe (FIFO) is opened without waiting for a writer and
    then read to its end: one whose writer is already there works (``<(cmd)``,
    ``/dev/stdin``); one with no writer yet is an error ("empty"), not a
    wait. Every error is a :class:`PayTableError` that quotes the file and
    says what is wrong and where.

    >>> load_paytable("jacks-or-better").pays["royal_flush"]
    800.0
    """
    if name_or_path.strip().lower() in (*PAYTABLES, *ALIASES):
        return builtin_paytable(name_or_path)
    data = _read_paytable(name_or_path)
    where = f"bad pay table file {quote(name_or_path, _PATH_QUOTE)}"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PayTableError(
            f"{where}: not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line} "
            f"(byte {exc.start + 1:,})"
        ) from None
    try:
        return parse_paytable(text, name=_file_id(name_or_path))
    except PayTableError as exc:
        raise PayTableError(f"{where}: {exc}") from None


def _file_id(path: str) -> str:
    """A table's id from its file's name: the name without folder or
    ``.json``, as one line of plain text (tabs, line breaks, control and
    bidi characters as spaces) of at most :data:`_ID_LIMIT` characters;
    ``paytable`` when nothing is left. Whatever the file is called, the id
    is one a table may have."""
    stem = Path(path).stem or path
    text = " ".join("".join(c if c.isprintable() else " " for c in stem).split())
    if len(text) > _ID_LIMIT:
        text = text[: _ID_LIMIT - 3].rstrip() + "..."
    return text or "paytable"


def _read_paytable(path: str) -> bytes:
    """At most ``PAYTABLE_LIMIT`` bytes of the file: opened once, and
    without blocking on a FIFO that has no writer."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (FileNotFoundError, ValueError):  # ValueError: a NUL in the name
        close = difflib.get_close_matches(path.strip().lower(), [*PAYTABLES, *ALIASES], n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise PayTableError(
            f"unknown pay table {quote(path, _PATH_QUOTE)}{hint}: not a built-in name "
            "(fivecard strategy --list lists them) nor a file"
        ) from None
    except OSError as exc:
        raise FileAccessError(
            f"cannot read pay table file {quote(path, _PATH_QUOTE)}: {exc.strerror or exc}"
        ) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise PayTableError(f"bad pay table file {quote(path, _PATH_QUOTE)}: a directory, not a file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a FIFO's writer may be slow: wait for its data
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(PAYTABLE_LIMIT + 1)
    except OSError as exc:
        raise FileAccessError(
            f"cannot read pay table file {quote(path, _PATH_QUOTE)}: {exc.strerror or exc}"
        ) from None
    finally:
        os.close(fd)
    if len(data) > PAYTABLE_LIMIT:
        raise PayTableError(
            f"bad pay table file {quote(path, _PATH_QUOTE)}: larger than the limit of "
            f"{PAYTABLE_LIMIT:,} bytes (1 MiB) for a pay table"
        )
    if not data:
        pipe = " (a pipe with no writer)" if stat.S_ISFIFO(mode) else ""
        raise PayTableError(f"bad pay table file {quote(path, _PATH_QUOTE)}: empty{pipe}")
    return data
