"""The one exception family of fivecard.

Every error the library raises on bad input is a :class:`FivecardError`, which
subclasses :class:`ValueError`, so callers may catch either. Messages quote the
bad input and say where it is, e.g. ``unknown rank '1' in card 3 ('1S')``.
Input of the wrong *type* (a number where a hand belongs) is a
:class:`TypeError` that says what it got. A file the file system will not
give or take (missing, not allowed, a full disk) is no fault of the input:
that is a :class:`FileAccessError`, an :class:`OSError`.

A message never names a command-line flag: when a setting would accept the
input, the message says so in words and the error carries the setting as
:attr:`FivecardError.option`, which the command line spells as its flag.
"""

from __future__ import annotations

import reprlib
from typing import TypeVar

__all__ = [
    "FivecardError",
    "ParseError",
    "HandError",
    "RulesError",
    "FileError",
    "FileAccessError",
    "Option",
    "in_context",
    "kind_of",
    "quote",
    "PATH_QUOTE",
]

_QUOTE_LIMIT = 60
#: File names are quoted whole (up to a path's length).
PATH_QUOTE = 4096

#: A suggested setting: its name and value, e.g. ``("rules", "joker")``.
Option = tuple[str, str]


class FivecardError(ValueError):
    """Base class of every fivecard error (a :class:`ValueError`).

    ``option`` (keyword only) is a setting under which the input would be
    accepted, as ``(name, value)``; the message already says it in words.

    >>> error = HandError("card 1 is a joker (jokers are wild under the joker rules)",
    ...                   option=("rules", "joker"))
    >>> error.option
    ('rules', 'joker')
    >>> again = in_context(error, "hand 2: ")
    >>> print(again, again.option, type(again).__name__, sep=' | ')
    hand 2: card 1 is a joker (jokers are wild under the joker rules) | ('rules', 'joker') | HandError
    """

    option: Option | None

    def __init__(self, message: str = "", *, option: Option | None = None) -> None:
        super().__init__(message)
        self.option = option


class ParseError(FivecardError):
    """Text that is not a card or a list of cards (spelling)."""


class HandError(FivecardError):
    """Cards that are spelled right but do not make a valid hand or showdown
    under the rule set (count, duplicates, jokers, shared cards)."""


class RulesError(FivecardError):
    """An unknown rule set name or an option the rule set does not allow."""


class FileError(FivecardError):
    """A file whose content or use is wrong: the wrong format, damaged, too
    big, a zip bomb, an output that is its own input."""


class FileAccessError(OSError):
    """The file system will not give or take a file: missing, not allowed,
    a folder that takes no files, a full disk. An :class:`OSError`, not a
    :class:`FivecardError` (the input was not at fault); its message quotes
    the file and says why, in one line.

    >>> str(FileAccessError("cannot read 'in.csv': No such file or directory"))
    "cannot read 'in.csv': No such file or directory"
    """


E = TypeVar("E", bound=BaseException)


def in_context(error: E, before: str = "", after: str = "") -> E:
    """The same error, of the same class and with the same attributes (a
    :class:`FivecardError`'s ``option``), with words around its message: for
    re-raising with the place it happened,
    ``raise in_context(exc, f"hand {n}: ") from None``."""
    message = f"{before}{error}{after}"
    cls = type(error)
    again = cls.__new__(cls, message)  # no __init__: any subclass's signature
    again.__dict__.update(error.__dict__)
    again.args = (message,)
    return again


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 5


def kind_of(value: object) -> str:
    """What a value is, for a message about a wrong type: its type and a
    short ``repr``.

    >>> kind_of(5), kind_of(None), kind_of(b'AS KD 7C 7H 2S')
    ('int 5', 'None', "bytes b'AS KD 7C 7H 2S'")
    >>> kind_of({'AS': 1})
    "dict {'AS': 1}"
    """
    if value is None:
        return "None"
    return f"{type(value).__name__} {_SHORT.repr(value)}"


def quote(text: str, limit: int = _QUOTE_LIMIT) -> str:
    """``repr``-style quote of user input, shortened in the middle when long.

    >>> quote('1S')
    "'1S'"
    >>> quote('x' * 1_000_000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' (1,000,000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    half = limit // 2
    return f"{text[:half] + '...' + text[-half:]!r} ({len(text):,} characters)"
