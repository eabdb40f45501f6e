"""The one exception family of fivecard.

Every error the library raises on bad input is a :class:`FivecardError`, which
subclasses :class:`ValueError`, so callers may catch either. Messages quote the
bad input and say where it is, e.g. ``unknown rank '1' in card 3 ('1S')``.
"""

from __future__ import annotations

__all__ = [
    "FivecardError",
    "ParseError",
    "HandError",
    "RulesError",
    "FileError",
    "quote",
    "PATH_QUOTE",
]

_QUOTE_LIMIT = 60
#: File names are quoted whole (up to a path's length).
PATH_QUOTE = 4096


class FivecardError(ValueError):
    """Base class of every fivecard error (a :class:`ValueError`)."""


class ParseError(FivecardError):
    """Text that is not a card or a list of cards (spelling)."""


class HandError(FivecardError):
    """Cards that are spelled right but do not make a valid hand or showdown
    under the rule set (count, duplicates, jokers, shared cards)."""


class RulesError(FivecardError):
    """An unknown rule set name or an option the rule set does not allow."""


class FileError(FivecardError):
    """A file that cannot be read or written: missing, the wrong format,
    damaged, too big, a zip bomb, or a full disk."""


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
