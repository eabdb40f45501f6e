"""The language of each request, and the words the pages say in it.

A page speaks the language the browser asks for (``Accept-Language``) until
the person picks another with the switch, which the app remembers in the
``fivecard_lang`` cookie; ``?lang=ja`` on any page picks and remembers too.
The API's JSON keys are never translated; its sentences (an explanation, a
game's messages) are said in the request's language.

Every page and every JSON answer may say words in the request's language,
so each says ``Vary: Accept-Language, Cookie`` and its ``Content-Language``
(:class:`Languages`, a middleware around the whole app: the compare fast
path's answers too); a page asked with ``?lang=`` sets the cookie. The
switch every page shows (``templates/base.html``) is three links to the
page itself with ``?lang=``: it works without a script, by keyboard and with
a screen reader, and another site linking to it can do no more than pick a
language (the cookie holds a language code and nothing else; ``SameSite=Lax``).

Templates say their words with ``t``, ``tn`` and ``tp`` (as
:meth:`fivecard.core.lang.Language.phrase`, ``phrase_n``, ``phrase_p``, in
the ``web`` domain); a page's script says them with the same functions of
``static/common.js``, from the catalog :func:`page_messages` puts in the page.
"""

from __future__ import annotations

from contextvars import ContextVar
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlencode

from jinja2 import pass_context
from markupsafe import Markup, escape
from jinja2.runtime import Context
from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import Phrase
from ..core.lang import ENGLISH, LANGUAGES, Language, accept_language, language

__all__ = ["phrase_n", "COOKIE", "VARY", "Languages", "request_language", "remember_language", "install", "page_messages", "switch_url"]

#: The cookie that remembers the language picked with the switch.
COOKIE = "fivecard_lang"
_YEAR = 365 * 24 * 3600
#: What a response's words depend on: said in ``Vary`` by every page and JSON answer.
VARY = "Accept-Language, Cookie"
#: Where a request's language is kept once found (in the ASGI scope).
_SCOPE_KEY = "fivecard.lang"
#: The request being answered (set by :class:`Languages`): for a macro of a
#: template imported without its page's context (``{% import "_rules.html" %}``).
_ANSWERING: ContextVar[Request | None] = ContextVar("fivecard_answering", default=None)


def phrase_n(singular: str, plural: str, n: int, /, **fields: object) -> Phrase:
    """A :class:`~fivecard.core.errors.Phrase` of a count in the ``web``
    catalog: an error the web app makes (its English is the message;
    :func:`~fivecard.core.words.error_text` says it in a language)."""
    return Phrase(singular, {"n": n, **fields}, plural, n, domain="web")


def _named(code: str | None) -> Language | None:
    if code and code in LANGUAGES:
        return language(code)
    return None


def request_language(request: Request) -> Language:
    """The request's language: ``?lang=``, else the remembered switch, else
    the browser's ``Accept-Language``, else English (found once a request)."""
    found = request.scope.get(_SCOPE_KEY)
    if isinstance(found, Language):
        return found
    lang = (
        _named(request.query_params.get("lang"))
        or _named(request.cookies.get(COOKIE))
        or accept_language(request.headers.get("accept-language"))
    )
    request.scope[_SCOPE_KEY] = lang
    return lang


def remember_language(request: Request, response: Response) -> None:
    """Remember a language picked with ``?lang=`` (a cookie for a year; it
    holds nothing but the code)."""
    picked = _named(request.query_params.get("lang"))
    if picked is not None and request.cookies.get(COOKIE) != picked.code:
        response.set_cookie(COOKIE, picked.code, max_age=_YEAR, path="/", samesite="lax", httponly=True)


def switch_url(request: Request, code: str) -> str:
    """The page itself in the language ``code``: its path and query, with
    ``lang=code`` in place of any ``lang`` it had (the switch's links; a
    field left empty says nothing, and is left out)."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "lang" and v.strip()]
    return request.url.path + "?" + urlencode([*query, ("lang", code)])


class Languages:
    """ASGI middleware: each HTML page and JSON answer says what its words
    depend on (``Vary``, :data:`VARY`) and its language
    (``Content-Language``: the service worker keeps a page's copy with it);
    a page (a GET answered with HTML) asked with ``?lang=`` remembers the
    language (:func:`remember_language`). Costs a header or two: the
    language is found once a request, from its own headers."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        answering = _ANSWERING.set(request)

        async def send_with_language(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                kind = next((bytes(v) for k, v in headers if k == b"content-type"), b"").split(b";")[0].strip()
                if kind in (b"text/html", b"application/json"):
                    headers = [(k, v) for k, v in headers if k != b"vary"] + [
                        (b"vary", _vary(headers)),
                        (b"content-language", request_language(request).code.encode()),
                    ]
                    if kind == b"text/html" and scope["method"] == "GET":
                        said = Response()
                        remember_language(request, said)
                        headers += [(k, v) for k, v in said.raw_headers if k == b"set-cookie"]
                    message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_language)
        finally:
            _ANSWERING.reset(answering)


def _vary(headers: list[tuple[bytes, bytes]]) -> bytes:
    """A ``Vary`` of what a response's own ``Vary`` names and :data:`VARY`."""
    names: list[str] = []
    for key, value in headers:
        if key == b"vary":
            names += [n.strip() for n in value.decode("latin-1").split(",") if n.strip()]
    for name in VARY.split(", "):
        if name.lower() not in (n.lower() for n in names):
            names.append(name)
    return ", ".join(names).encode("latin-1")


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


def _marked(fields: dict[str, object]) -> bool:
    return any(isinstance(value, Markup) for value in fields.values())


def _said(template: str, fields: dict[str, object]) -> Markup:
    """A sentence with markup in its fields (``<code>AS</code>``, made by the
    template): the sentence's own text escaped, each field escaped unless it
    is markup."""
    return Markup(escape(template)).format_map(fields)


def install(templates: Any) -> None:
    """Give the templates ``t``, ``tn``, ``tp`` and ``page_language()`` (the
    request's language), ``languages`` (the switch's choices) and
    ``language_url(code)`` (the page in another language). A field given as
    markup (a macro's or a ``{% set %}`` block's output) goes into the
    sentence as it is: ``t("a joker is {joker}", joker=code("JK"))``."""

    @pass_context
    def lang_of(context: Context) -> Language:
        request = context.get("request") or _ANSWERING.get()
        return ENGLISH if request is None else request_language(request)

    @pass_context
    def t(context: Context, message: str, **fields: object) -> str:
        lang = lang_of(context)
        return _said(lang.gettext(message, "web"), fields) if _marked(fields) else lang.phrase(message, "web", **fields)

    @pass_context
    def tn(context: Context, singular: str, plural: str, n: int, **fields: object) -> str:
        lang = lang_of(context)
        if _marked(fields):
            return _said(lang.ngettext(singular, plural, n, "web"), {"n": n, **fields})
        return lang.phrase_n(singular, plural, n, "web", **fields)

    @pass_context
    def tp(context: Context, context_: str, message: str, **fields: object) -> str:
        lang = lang_of(context)
        if _marked(fields):
            return _said(lang.pgettext(context_, message, "web"), fields)
        return lang.phrase_p(context_, message, "web", **fields)

    @pass_context
    def language_url(context: Context, code: str) -> str:
        return switch_url(context["request"], code)

    env = templates.env
    env.globals.update(
        t=t, tn=tn, tp=tp, page_language=lang_of, languages=dict(LANGUAGES), page_messages=page_messages,
        language_url=language_url,
    )
