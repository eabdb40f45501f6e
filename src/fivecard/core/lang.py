"""The languages fivecard speaks: English, Japanese and Russian.

Every sentence fivecard says is an English message template in the code,
marked for extraction; Japanese and Russian render the same templates from
message catalogs (gettext ``.po`` files, compiled to ``.mo``, under
``fivecard/locale/<language>/LC_MESSAGES/<domain>.mo``, one domain per
layer). English is the template itself, so English output is exactly what
the code writes, and English loads no catalog at all.

A :class:`Language` is chosen by :func:`language` (a code, a locale name
such as ``ja_JP.UTF-8`` or a tag such as ``ru-RU``), from the environment as
command-line tools do (:func:`environment_language`: ``LC_ALL``,
``LC_MESSAGES``, ``LANG``), or from a browser's ``Accept-Language``
(:func:`accept_language`).

>>> language('ja_JP.UTF-8').code, language('ru-RU').name, language(None).code
('ja', 'Русский', 'en')

Templates are :meth:`str.format` strings with named fields. A field's
*format spec* is grammar the language needs and the value knows how to say
(a Russian genitive: ``{high:gen}``), so every language uses the same field
names while each declines them its own way.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping

from .errors import FivecardError, quote

TYPE_CHECKING = False  # typing is not imported at run time: it is slow to import
if TYPE_CHECKING:  # pragma: no cover
    import gettext
    from typing import Any

__all__ = [
    "Language",
    "LANGUAGES",
    "DOMAINS",
    "ENGLISH",
    "LangLike",
    "language",
    "environment_language",
    "accept_language",
    "N_",
    "NP_",
    "LOCALE_FOLDER",
]

#: The catalogs' folder: ``<language>/LC_MESSAGES/<domain>.mo`` (and ``.po``);
#: a path as text (os.path): pathlib is not imported for it, it is slow to import.
LOCALE_FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "locale")
#: One message domain per layer that speaks.
DOMAINS = ("core", "play", "files", "web", "cli")
#: The languages, by code, each named in itself.
LANGUAGES: Mapping[str, str] = {"en": "English", "ja": "日本語", "ru": "Русский"}


def N_(message: str) -> str:
    """Mark a template kept as data (a category's name) for extraction;
    it is translated where it is said."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """Mark a template with its context (``("rank", "Ace")``) kept as data
    for extraction; :meth:`Language.pgettext` says it."""
    return (context, message)


class Language:
    """One language: its code (``en``, ``ja``, ``ru``), its own name, and its
    messages. There is one object per language (compare with ``is``)."""

    __slots__ = ("code", "name", "_catalogs")  # a plain class: a dataclass costs the command's start-up

    def __init__(self, code: str, name: str) -> None:
        self.code = code
        self.name = name
        self._catalogs: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"language({self.code!r})"

    @property
    def english(self) -> bool:
        return self.code == "en"

    def catalog(self, domain: str) -> gettext.NullTranslations:
        """The compiled catalog of one domain (loaded once)."""
        found = self._catalogs.get(domain)
        if found is None:
            import gettext

            if self.english:
                found = gettext.NullTranslations()
            else:
                path = os.path.join(LOCALE_FOLDER, self.code, "LC_MESSAGES", f"{domain}.mo")
                with open(path, "rb") as stream:
                    found = gettext.GNUTranslations(stream)
            self._catalogs[domain] = found
        return found

    def gettext(self, message: str, domain: str = "core") -> str:
        """The message in this language (English: the message itself)."""
        if self.english:
            return message
        return self.catalog(domain).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, domain: str = "core") -> str:
        """The form of a message for a count ``n`` (Russian has three)."""
        if self.english:
            return singular if n == 1 else plural
        return self.catalog(domain).ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str, domain: str = "core") -> str:
        """The message in its context (the same English word may be said
        differently: a rank in a list and a rank after "to")."""
        if self.english:
            return message
        return self.catalog(domain).pgettext(context, message)

    def phrase(self, template: str, domain: str = "core", /, **fields: object) -> str:
        """A template in this language, filled: ``phrase("{hands} wins",
        hands=...)``."""
        return self.gettext(template, domain).format_map(fields)

    def phrase_n(self, singular: str, plural: str, n: int, domain: str = "core", /, **fields: object) -> str:
        """:meth:`phrase` for the form of a count ``n`` (``n`` is a field too)."""
        return self.ngettext(singular, plural, n, domain).format_map({"n": n, **fields})

    def phrase_p(self, context: str, template: str, domain: str = "core", /, **fields: object) -> str:
        """:meth:`phrase` for a template with a context."""
        return self.pgettext(context, template, domain).format_map(fields)

    def __reduce__(self) -> tuple[Callable[[str], Language], tuple[str]]:
        return (language, (self.code,))  # one object per language, in every process


#: A language as callers may give it: a :class:`Language`, a code, a locale
#: name or a tag (``ja``, ``ja_JP.UTF-8``, ``ru-RU``), or None for English.
LangLike = Language | str | None

ENGLISH = Language("en", LANGUAGES["en"])
_ALL = {"en": ENGLISH, **{c: Language(c, n) for c, n in LANGUAGES.items() if c != "en"}}

_TAG = re.compile(r"([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)*(?:\.[^@]*)?(?:@.*)?")


def _code(tag: str) -> str | None:
    """The language code of a locale name or tag (``ja_JP.UTF-8`` -> ``ja``)."""
    match = _TAG.fullmatch(tag.strip())
    return match.group(1).lower() if match else None


def language(lang: Language | str | None = None) -> Language:
    """The :class:`Language` ``lang`` names (None: English). A language
    fivecard does not speak is an error that names those it does.

    >>> language('ru').code, language(language('ja')) is language('ja')
    ('ru', True)
    >>> language('fr')
    Traceback (most recent call last):
    ...
    fivecard.core.errors.FivecardError: unknown language 'fr': fivecard speaks en (English), ja (日本語) and ru (Русский)
    """
    if lang is None:
        return ENGLISH
    if isinstance(lang, Language):
        return lang
    if not isinstance(lang, str):
        raise TypeError(f"lang must be a language code such as 'ja', got {type(lang).__name__}")
    code = _code(lang)
    found = _ALL.get(code or "")
    if found is None:
        spoken = [f"{c} ({n})" for c, n in LANGUAGES.items()]
        raise FivecardError(
            f"unknown language {quote(lang)}: fivecard speaks "
            + ", ".join(spoken[:-1]) + " and " + spoken[-1]
        )
    return found


def _first_spoken(tags: Iterable[str]) -> Language:
    for tag in tags:
        found = _ALL.get(_code(tag) or "")
        if found is not None:
            return found
    return ENGLISH


def environment_language(environ: Mapping[str, str] | None = None) -> Language:
    """The language the environment asks for, as command-line tools read
    it: the first set of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; then
    ``LANGUAGE``'s list (GNU's preference order) when that locale is not
    ``C``. A language fivecard does not speak, ``C`` or ``POSIX`` is English.

    >>> environment_language({'LANG': 'ru_RU.UTF-8'}).code
    'ru'
    >>> environment_language({'LC_ALL': 'C', 'LANG': 'ja_JP.UTF-8'}).code
    'en'
    """
    env = os.environ if environ is None else environ
    locale_name = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    if locale_name.split(".")[0] in ("C", "POSIX"):
        return ENGLISH
    listed = [t for t in env.get("LANGUAGE", "").split(":") if t]
    return _first_spoken([*(listed if locale_name else []), locale_name])


def accept_language(header: str | None) -> Language:
    """The language a browser's ``Accept-Language`` header prefers among
    those fivecard speaks (by weight, then order); English if none.

    >>> accept_language('fr-CH, fr;q=0.9, ru;q=0.8, en;q=0.7').code
    'ru'
    """
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "")[:1000].split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and weight > 0:
            ranked.append((-weight, position, tag))
    return _first_spoken(t for _, _, t in sorted(ranked))
