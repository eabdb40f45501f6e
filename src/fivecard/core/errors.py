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

A message may be made as data, a :class:`Phrase` (made by :func:`phrase` and
:func:`phrase_n`: an English template of the ``core`` catalog and its
fields), which the error keeps as :attr:`FivecardError.said`. Its English is
the message (``str(error)``), and
:func:`fivecard.core.words.error_text` says it in another language; an error
made from plain text is said in English. :func:`in_context` keeps the words
it puts around a message the same way when they are phrases too.

>>> error = ParseError(phrase("unknown rank {rank} in {where}", rank=quote('1'),
...                           where=phrase("card {position} ({token})", position=3, token=quote('1S'))))
>>> str(error)
"unknown rank '1' in card 3 ('1S')"
>>> str(in_context(error, phrase("hand {number}: ", number=2)))
"hand 2: unknown rank '1' in card 3 ('1S')"
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence

from .frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:
    from typing import TypeVar

    E = TypeVar("E", bound=BaseException)

__all__ = [
    "FivecardError",
    "ParseError",
    "HandError",
    "RulesError",
    "FileError",
    "FileAccessError",
    "Option",
    "Phrase",
    "Listed",
    "phrase",
    "phrase_n",
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


class Phrase(Frozen):
    """A sentence kept as data: an English template (:meth:`str.format`
    with named fields) of a catalog's domain and its fields; for a count,
    ``plural`` is the English template when ``n`` is not 1 (``n`` is a
    field too). ``str()`` is the English; a field that is a Phrase, a
    :class:`Listed`, a card or a rank's name (:class:`~fivecard.core.words.RankName`)
    is said in the language too
    (:func:`fivecard.core.words.error_text`); any other field (a quote of the
    input, a number) as it is."""

    __slots__ = ("template", "fields", "plural", "n", "domain")
    template: str
    fields: Mapping[str, object]
    plural: str | None
    n: int
    domain: str

    def __init__(
        self, template: str, fields: Mapping[str, object], plural: str | None = None, n: int = 1, domain: str = "core"
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "template", template)
        set_field(self, "fields", fields)
        set_field(self, "plural", plural)
        set_field(self, "n", n)
        set_field(self, "domain", domain)

    def __str__(self) -> str:
        template = self.template if self.plural is None or self.n == 1 else self.plural
        return template.format_map(self.fields)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def phrase(template: str, /, **fields: object) -> Phrase:
    """A :class:`Phrase` of the ``core`` catalog (marked for extraction as
    :meth:`fivecard.core.lang.Language.phrase` is)."""
    return Phrase(template, fields)


def phrase_n(singular: str, plural: str, n: int, /, **fields: object) -> Phrase:
    """A :class:`Phrase` of a count ``n``: its form is chosen by the count
    (Russian has three forms)."""
    return Phrase(singular, {"n": n, **fields}, plural, n)


class Listed(Frozen):
    """Items said as a list in a sentence: ``1, 2 and 3``; with ``more``,
    the first items and how many more (``1, 2, 3 and 4 more``)."""

    __slots__ = ("items", "more")
    items: Sequence[object]
    more: int

    def __init__(self, items: Sequence[object], more: int = 0) -> None:
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "more", more)

    def __str__(self) -> str:
        words = [str(i) for i in self.items]
        if self.more:
            return ", ".join(words) + f" and {self.more:,} more"
        if len(words) <= 1:
            return "".join(words)
        return ", ".join(words[:-1]) + " and " + words[-1]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


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
    #: The message as data, when it was made from a :class:`Phrase`.
    said: Phrase | None

    def __init__(self, message: str | Phrase = "", *, option: Option | None = None) -> None:
        super().__init__(str(message))
        self.option = option
        self.said = message if isinstance(message, Phrase) else None


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


#: The template that puts words around a message (not itself translated:
#: each part is said in the language).
_AROUND = "{before}{error}{after}"


def in_context(error: E, before: str | Phrase = "", after: str | Phrase = "") -> E:
    """The same error, of the same class and with the same attributes (a
    :class:`FivecardError`'s ``option``), with words around its message: for
    re-raising with the place it happened,
    ``raise in_context(exc, phrase("hand {number}: ", number=n)) from None``.
    When the words are phrases (or empty) and the message is one, the new
    message is a phrase too (said in a language as a whole); plain text
    around it leaves a message said in English only."""
    message = f"{before}{error}{after}"
    cls = type(error)
    again = cls.__new__(cls, message)  # no __init__: any subclass's signature
    again.__dict__.update(error.__dict__)
    again.args = (message,)
    if isinstance(again, FivecardError):
        said = getattr(error, "said", None)
        parts = (before, after)
        if said is not None and all(isinstance(p, Phrase) or p == "" for p in parts):
            again.said = Phrase(_AROUND, {"before": before, "error": said, "after": after})
        else:
            again.said = None
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
    return Quoted(repr(text[:half] + "..." + text[-half:]), len(text))


class Quoted(str):
    """A long input's quote, shortened in the middle (:func:`quote`): the
    English text, and its parts (``shown``, the input's ``length``) for
    :func:`~fivecard.core.words.error_text` to say the count in a language."""

    shown: str
    length: int

    def __new__(cls, shown: str, length: int) -> Quoted:
        made = super().__new__(cls, f"{shown} ({length:,} characters)")
        made.shown, made.length = shown, length
        return made

    def __getnewargs__(self) -> tuple[str, int]:  # type: ignore[override]
        return (self.shown, self.length)
