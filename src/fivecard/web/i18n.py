"""The language of each request, and the words the pages say in it.

A page speaks the language the browser asks for (``Accept-Language``) until
the person picks another with the switch, which the app remembers in the
``fivecard_lang`` cookie; ``?lang=ja`` on any page picks and remembers too.
The API's JSON keys are never translated; its sentences (an explanation, a
game's messages) are said in the request's language.

Templates say their words with ``t``, ``tn`` and ``tp`` (as
:meth:`fivecard.core.lang.Language.phrase`, ``phrase_n``, ``phrase_p``, in
the ``web`` domain); a page's script says them with the same functions of
``static/common.js``, from the catalog :func:`page_messages` puts in the page.
"""

from __future__ import annotations

from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from starlette.requests import Request
from starlette.responses import Response

from ..core.lang import ENGLISH, LANGUAGES, Language, accept_language, language

__all__ = ["COOKIE", "request_language", "remember_language", "install", "page_messages"]

#: The cookie that remembers the language picked with the switch.
COOKIE = "fivecard_lang"
_YEAR = 365 * 24 * 3600


def _named(code: str | None) -> Language | None:
    if code and code in LANGUAGES:
        return language(code)
    return None


def request_language(request: Request) -> Language:
    """The request's language: ``?lang=``, else the remembered switch, else
    the browser's ``Accept-Language``, else English."""
    return (
        _named(request.query_params.get("lang"))
        or _named(request.cookies.get(COOKIE))
        or accept_language(request.headers.get("accept-language"))
    )


def remember_language(request: Request, response: Response) -> None:
    """Remember a language picked with ``?lang=`` (a cookie for a year; it
    holds nothing but the code)."""
    picked = _named(request.query_params.get("lang"))
    if picked is not None and request.cookies.get(COOKIE) != picked.code:
        response.set_cookie(COOKIE, picked.code, max_age=_YEAR, path="/", samesite="lax")


def page_messages(lang: Language) -> dict[str, Any]:
    """The ``web`` catalog as the page's script reads it: ``lang``, the
    ``messages`` by English (``context\\x04message`` with a context; a list
    of forms for a plural), nothing for English."""
    messages: dict[str, Any] = {}
    if lang is not ENGLISH:
        catalog = lang.catalog("web")
        for key, text in getattr(catalog, "_catalog", {}).items():
            if isinstance(key, tuple):  # (message, form) of a plural
                messages.setdefault(key[0], []).append(text)
            elif key:
                messages[key] = text
    return {"lang": lang.code, "messages": messages}


def install(templates: Any) -> None:
    """Give the templates ``t``, ``tn``, ``tp`` and ``lang`` (the request's
    language), and ``languages`` (the switch's choices)."""

    @pass_context
    def lang_of(context: Context) -> Language:
        return request_language(context["request"])

    @pass_context
    def t(context: Context, message: str, **fields: object) -> str:
        return lang_of(context).phrase(message, "web", **fields)

    @pass_context
    def tn(context: Context, singular: str, plural: str, n: int, **fields: object) -> str:
        return lang_of(context).phrase_n(singular, plural, n, "web", **fields)

    @pass_context
    def tp(context: Context, context_: str, message: str, **fields: object) -> str:
        return lang_of(context).phrase_p(context_, message, "web", **fields)

    env = templates.env
    env.globals.update(t=t, tn=tn, tp=tp, page_language=lang_of, languages=dict(LANGUAGES), page_messages=page_messages)
