"""The web app (``fivecard serve``): Poker vs Dealer, a hand checker and
tables for friends in the browser, and the JSON API the pages use. It only translates HTTP to
library calls and back: the rules, the showdowns, the advisor and the game
are the library's.

API (all JSON; the OpenAPI document is at ``/openapi.json``):

* ``POST /api/evaluate`` ``{"hand", "rules"}``: one hand, as ``classify --json``.
* ``POST /api/compare`` ``{"hands", "rules", "decks"}``: a showdown, as ``compare --json``.
* ``POST /api/advise`` ``{"hand", "rules", "paytable", "top"}``: the hold advisor, as ``advise --json``
  (``paytable``: a built-in pay table's name; the web app names things, it never opens a path).
* ``POST /api/games`` ``{"rules", "seed"}``: a new game (201); the browser is
  given a fresh owner secret in an HttpOnly cookie, which takes over what
  its old one held (:class:`~fivecard.web.store.Owners`).
* ``GET /api/games/{id}``: the table as the player sees it.
* ``POST /api/games/{id}/actions`` ``{"action", "keep"}``: ``start`` (a round),
  ``exchange`` (keep the 1-based positions in ``keep``, draw the rest),
  ``keep`` (all five), ``fold``, ``reveal`` (the dealer's next card),
  ``settle``. The computer players act after you. An action the game does
  not allow now is a 409 with the engine's reason.
* ``GET /api/games/{id}/hint``: the advisor's best choices for your hand.
* ``/api/tables...``: a table for friends (:mod:`fivecard.web.friends_api`).
* ``/api/machines...``: a video-poker machine with a trainer (:mod:`fivecard.web.machine_pages`;
  the pages ``/video-poker`` and ``/video-poker/{id}``).
* ``GET /api/strategy``, ``GET /api/strategy/{id}``: the video-poker games and
  each one's strategy card, shipped with fivecard (:mod:`fivecard.web.strategy_pages`;
  the pages ``/strategy`` and ``/strategy/{id}``).
* ``/manifest.webmanifest``, ``/sw.js``, ``/offline``: the app as a web app a
  browser installs, its service worker and the page shown while the app is
  stopped (:mod:`fivecard.web.install`).

The sentences an answer says to a person (an explanation, a hand's
description, an error's message) are in the request's language
(:func:`~fivecard.web.i18n.request_language`: ``?lang=``, the
``fivecard_lang`` cookie the pages' switch sets, ``Accept-Language``); the
keys and every machine value (codes, categories, rule names, numbers) are
the same in every language, and each answer says ``Vary`` and
``Content-Language`` (:class:`~fivecard.web.i18n.Languages`).

A field that names a rule set (``rules``, here and in a friends' table: a
:data:`~fivecard.web.friends_api.RuleName`; the check page's ``?rules=``) is
read by :func:`~fivecard.web.friends_api.builtin_rules`: a built-in rule set
or an alias of one, never one made to order (``standard+wild(...)``: 422,
or the page's error). The tables of every built-in rule set are
built when the app starts (:func:`build_tables`), never by a request.

A number is a whole number, strictly: every request body's model is a
:class:`~fivecard.web.friends_api.RequestModel` (JSON ``true``, ``"12"``,
``" 12"`` and ``12.0`` are 422), every number in a query, a path or a header
is :data:`~fivecard.web.friends_api.Digits` (``+5``, ``5.0``, ``1_0``: 422),
and a number too long to read is out of range (:func:`read_json`: 422, not
400). Each has a range (422 past it, with a sentence naming the field).

Bounds on what a request may cost: a body of at most :data:`MAX_BODY` bytes,
at most :data:`MAX_HANDS` hands of :data:`MAX_HAND_TEXT` characters; the
rate limits of :class:`~fivecard.web.friends_api.RateLimit` (new things per
address; changes, and the advisor's answers, per browser, and the advisor's
per address too); the exact advisor's turns (:class:`AdvisorGate`:
:data:`ADVISOR_SLOTS` at work, :data:`ADVISOR_QUEUE` waiting, none longer
than :data:`ADVISOR_WAIT` s, holding no thread while it waits, shared fairly
among addresses; only what asks the advisor takes a turn: ``/api/advise``,
a hint, an action after which the computer players act); the games and
tables one address may keep (:meth:`~fivecard.web.store.Capacity.per_address`);
what the server holds of connections, headers and time
(:mod:`fivecard.web.server`). An address is its network wherever it is a
key (:func:`~fivecard.web.clients.client_network`: an IPv6 client's end site, its /48).

Errors are ``{"detail": message}``: the library's message for bad input
(422, a :class:`~fivecard.core.errors.FivecardError`), the engine's for an
illegal action (409, a :class:`~fivecard.play.table_game.GameError`; 403
for :class:`~fivecard.play.table_game.RoleRequired`: only a friends'
table's host, or a seated player, may), and the web's own refusals
(:mod:`fivecard.web.errors`, each with its status): 404 for no such game, 403
for another browser's game,
400 for a request with two owner cookies (one may be planted),
413 for a body over :data:`MAX_BODY` bytes, 429 past the rate limits
(:class:`~fivecard.web.friends_api.RateLimit`), 503 when the server holds as
many games, tables or event streams as it may, or an address keeps as many
games or tables as one may (:class:`~fivecard.web.store.Capacity`),
or the advisor is busy (:class:`~fivecard.web.errors.AdvisorBusy`, with ``Retry-After``),
507 when the data folder's disk is full and 503 when it cannot be written
(one sentence each, and one line in the log: :mod:`fivecard.web.store`).

A request that may change something (any method but GET, HEAD, OPTIONS)
sends ``content-type: application/json`` (415 otherwise) and, when the
browser names where it comes from, comes from the app's own pages (403
otherwise): :class:`_SameOrigin`.

Every request (any method: pages, the API, event streams, static files)
names in its ``Host`` header a host this server answers to, else it is 421
Misdirected Request: :class:`_KnownHost`. A page whose name is made to point
at this computer (DNS rebinding) is, to its browser, the same origin as the
app; the name it must send is what gives it away. The server answers to IP
literals, ``localhost`` and ``*.localhost``, this computer's names, and the
names given to :func:`create_app` (``fivecard serve`` gives the address it
listens on and each ``--allow-host``).
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import logging
import os
import re
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, MutableMapping, Sequence
from contextlib import asynccontextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import Body, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from fastapi.routing import APIRoute
from pydantic import Field

from ..core.version import __version__
from .i18n import Languages, install as install_language, phrase_n, request_language
from ..core.lang import Language, language
from ..core.words import error_text, rules_summary, rules_title
from ..vector import batch
from ..core.evaluate import class_descriptions, evaluate, strength_function
from ..core.report import evaluation_json, showdown_json
from ..core.lang import NP_, Language
from ..core.rules import RULE_SETS
from ..core.words import rules_title
from ..core.showdown import showdown
from ..core.lookup import tables_for
from ..core.errors import FivecardError, HandError
from ..play.advise import advise
from ..play.paytables import builtin_paytable
from ..play.game import Game, GameError
from ..play.view import cards_json, deck_json, event_json, game_view, hint_json, history_entry
from ..play.table_game import RoleRequired
from .sessions import Sessions
from .store import (
    MAX_STORED,
    Capacity,
    OWNER_COOKIE,
    DEALER_GAMES,
    FRIENDS_TABLES,
    MACHINES,
    Database,
    TableGameStore,
    Owners,
    StorageError,
    remember_owner,
)
from .server import Bounds
from .clients import request_network
from .errors import AdvisorBusy, NotYours, WebError
from .strategy_pages import add_strategy_routes
from .machine_pages import add_machine_routes
from .install import add_install_routes
from .friends_api import (
    Broker,
    Digits,
    Exports,
    RateLimit,
    RequestModel,
    RuleName,
    add_friends_table_routes,
    builtin_rules,
    json_number,
)

__all__ = ["AdvisorGate", "build_tables", "create_app", "default_data_dir", "MAX_BODY", "OWNER_COOKIE", "read_json"]

#: The largest request body accepted, in bytes.
MAX_BODY = 64 * 1024
#: The most hands the checker and the compare endpoint take at once.
MAX_HANDS = 10
#: A hand's text, at most (the library reads far shorter hands).
MAX_HAND_TEXT = 200
#: The exact advisor's turns (:class:`AdvisorGate`): so many at work at once,
#: so many more waiting for a turn, each at most so many seconds.
ADVISOR_SLOTS, ADVISOR_QUEUE, ADVISOR_WAIT = 2, 8, 3.0

_HERE = Path(__file__).parent
_LOG = logging.getLogger("fivecard.web")

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
)
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


def default_data_dir() -> str:
    """Where games are kept unless ``--data`` says: ``$XDG_DATA_HOME/fivecard``,
    else ``~/.local/share/fivecard``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        base = os.path.expanduser(os.path.join("~", ".local", "share"))
    return os.path.join(base, "fivecard")


@cache
def build_tables() -> None:
    """Build every table a request may use, for every built-in rule set, once
    a process (loaded from the user's cache when it holds them, else built
    and kept there: :mod:`fivecard.core.lookup_cache`): the lookup tables, the
    class descriptions (a table's export), the advisor's arrays.
    :func:`create_app` calls it, so no request builds a table or writes the
    cache (a request names built-in rule sets only:
    :data:`~fivecard.web.friends_api.RuleName`)."""
    for rules in RULE_SETS.values():
        strength_function(rules)  # and the lookup tables it reads
        class_descriptions(rules)
        batch.category_table(rules)
        batch.strengths_of_indices([[card.index for card in rules.deck()[:5]]], rules=rules)


# --- requests -----------------------------------------------------------------------------

BestFive = Field(default=False, description="hands of 5 to 7 cards play their best five (a board implies it)")


class EvaluateRequest(RequestModel):
    hand: str = Field(max_length=MAX_HAND_TEXT, description="five cards in any notation fivecard reads")
    rules: RuleName = "standard"
    best_five: bool = BestFive
    board: str | None = Field(default=None, max_length=MAX_HAND_TEXT, description="cards shared with the board")


class CompareRequest(RequestModel):
    hands: list[str] = Field(min_length=1, max_length=MAX_HANDS, description="the hands of one showdown")
    rules: RuleName = "standard"
    decks: int = Field(default=1, ge=1, le=8, description="the hands come from this many decks")
    best_five: bool = BestFive
    board: str | None = Field(
        default=None, max_length=MAX_HAND_TEXT, description="cards every hand shares (hold'em)"
    )


class AdviseRequest(RequestModel):
    hand: str = Field(max_length=MAX_HAND_TEXT)
    rules: RuleName | None = None  # standard, or the rule set the pay table names
    paytable: str | None = Field(default=None, max_length=40, description="a built-in pay table's name")
    top: int = Field(default=32, ge=1, le=32, description="how many of the best choices to return")


class NewGameRequest(RequestModel):
    rules: RuleName = "standard"
    seed: int | None = Field(default=None, ge=0, le=MAX_STORED, description="for a reproducible game")
    stack: int = Field(default=1000, ge=20, le=1_000_000, description="each seat's chips at the start")
    trainer: bool = Field(default=True, description="judge each of your exchanges against the advisor's choice")


class SettingsRequest(RequestModel):
    trainer: bool | None = Field(default=None, description="judge your exchanges (absent: as it is)")


class ActionRequest(RequestModel):
    action: Literal["start", "exchange", "keep", "fold", "reveal", "settle"]
    keep: list[Annotated[int, Field(ge=1, le=5)]] = Field(
        default=[], max_length=5, description="exchange: the 1-based positions kept"
    )


# --- the pieces ---------------------------------------------------------------------------


def read_json(body: bytes) -> Any:
    """A request's JSON body as the API reads it: whole numbers by
    :func:`~fivecard.web.friends_api.json_number` (one too long to read is
    out of range, 422, not a body that cannot be parsed, 400)."""
    return json.loads(body, parse_int=json_number)


class _JsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = read_json(await self.body())
        return self._json


class _JsonRoute(APIRoute):
    """Every route's request body read by :func:`read_json`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def read(request: Request) -> Response:
            return await handler(_JsonRequest(request.scope, request.receive))

        return read


def _json_bytes(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        _json_bytes(data),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


def _check_hands(texts: Sequence[str]) -> None:
    for i, text in enumerate(texts, 1):
        if len(text) > MAX_HAND_TEXT:
            raise HandError(
                phrase_n(
                    "hand {number} is {n:,} character long; a hand is at most {most}",
                    "hand {number} is {n:,} characters long; a hand is at most {most}",
                    len(text),
                    number=i,
                    most=MAX_HAND_TEXT,
                )
            )


class _Limits:
    """ASGI middleware: security headers on every response, and bodies over
    :data:`MAX_BODY` refused (413) whether or not they say their length."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                length = value
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _too_large(send)
            return
        if length is None and scope["method"] not in ("GET", "HEAD"):
            # A body without a stated length (chunked) is read here, up to the limit.
            body = bytearray()
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                body += message.get("body", b"")
                if len(body) > MAX_BODY:
                    await _too_large(send)
                    return
                if not message.get("more_body", False):
                    break
            receive = _replay(bytes(body))

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _replay(body: bytes) -> Callable[[], Awaitable[dict[str, Any]]]:
    """A receive function that gives a body already read, then waits for
    the client to go away."""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        import asyncio

        await asyncio.Event().wait()  # as a server's receive: nothing more until disconnect
        return {"type": "http.disconnect"}

    return receive


def _compare_body(request: CompareRequest, lang: Language) -> bytes:
    """The answer to ``POST /api/compare``: the showdown's JSON, as
    ``compare --json``, its sentences (the explanation, the descriptions) in
    ``lang`` (both the route and :class:`_FastCompare` send it)."""
    _check_hands(request.hands)
    result = showdown(
        request.hands,
        rules=builtin_rules(request.rules),
        decks=request.decks,
        best_five=request.best_five,
        board=request.board,
        lang=lang,
    )
    return _json_bytes(showdown_json(result, request.hands, lang))


class _FastCompare:
    """ASGI middleware: ``POST /api/compare`` with a JSON body that is valid and
    settles is answered here, without FastAPI's routing, dependency solving and
    thread pool (most of a compare request's time; the showdown of at most
    :data:`MAX_HANDS` hands takes well under a millisecond, so it runs on the
    event loop). The answer is the one the route gives: the same model
    validates the body, the same functions settle it, the same bytes and
    headers go out. Anything else (another content type, bad JSON, a body
    the model or the library refuses, any error) goes on to the app, with
    the body read so far, so errors keep their exact messages."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if not (
            scope["type"] == "http"
            and scope["path"] == "/api/compare"
            and scope["method"] == "POST"
            and not scope.get("root_path")
            and _content_type(scope) == b"application/json"
        ):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            try:
                message = await receive()
            except Exception as exc:  # the app meets the failure where it always does
                await self.app(scope, _resume(chunks, exc, receive), send)
                return
            if message["type"] != "http.request":  # the client went away: the app sees it too
                await self.app(scope, _resume(chunks, message, receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        try:
            lang = request_language(Request(scope))
            body = _compare_body(CompareRequest.model_validate(read_json(b"".join(chunks))), lang)
        except Exception:  # the app says what is wrong, as it always does
            await self.app(scope, _resume(chunks, None, receive), send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_type(scope: MutableMapping[str, Any]) -> bytes | None:
    for name, value in scope["headers"]:
        if name == b"content-type":
            return bytes(value)
    return None


def _resume(chunks: list[bytes], last: MutableMapping[str, Any] | Exception | None, receive: Any) -> Any:
    """A ``receive`` that gives the body read already (the whole body if
    ``last`` is None), then ``last`` (a message, or an exception raised),
    then what ``receive`` gives."""
    pending: list[MutableMapping[str, Any] | Exception] = [
        {"type": "http.request", "body": chunk, "more_body": True} for chunk in chunks
    ]
    if last is not None:
        pending.append(last)
    elif chunks:
        pending[-1] = {"type": "http.request", "body": chunks[-1], "more_body": False}
    else:
        pending.append({"type": "http.request", "body": b"", "more_body": False})

    async def replayed() -> Any:
        if pending:
            item = pending.pop(0)
            if isinstance(item, Exception):
                raise item
            return item
        return await receive()

    return replayed


async def _too_large(send: Any) -> None:
    await _answer(send, 413, f"the request body is over {MAX_BODY:,} bytes", _HEADERS)


async def _answer(send: Any, status: int, detail: str, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """Send ``{"detail": detail}`` with ``status``, from a middleware."""
    body = _json_bytes({"detail": detail})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            + list(headers),
        }
    )
    await send({"type": "http.response.body", "body": body})


#: The methods that change nothing: the only ones a page elsewhere may use.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class _SameOrigin:
    """ASGI middleware: a request that may change something (any method but
    those of :data:`SAFE_METHODS`) proves it comes from the app's own pages.

    * Its content type is ``application/json``, with or without a body (415
      otherwise). A page elsewhere can send that type only after a CORS
      preflight, which this app never grants; a form (urlencoded, multipart,
      text/plain) or a ``no-cors`` fetch cannot send it at all.
    * When the browser says where the request comes from, it is here (403
      otherwise): ``Origin`` is the app's own (scheme, host and port, as the
      request's ``Host``) and ``Sec-Fetch-Site`` is ``same-origin`` or ``none``.
      SameSite cookies do not tell ports apart: a page on another port of
      the same host is "same-site", and is refused here.

    A request with neither header (curl, a script, ``fivecard serve
    --check``) comes from no page and is not refused for it. Every route
    and the compare fast path are behind this one check."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refused = _cross_site(scope)
            if refused is not None:
                await _answer(send, 403, refused)
                return
            kind = _content_type(scope)
            media = kind.split(b";")[0].strip().lower() if kind is not None else None
            if media != b"application/json":
                got = "no content type" if kind is None else repr(kind.decode("latin-1"))
                await _answer(
                    send, 415, f"a request that changes something sends JSON (content-type: application/json); got {got}"
                )
                return
        await self.app(scope, receive, send)


def _cross_site(scope: MutableMapping[str, Any]) -> str | None:
    """Why a request comes from a page elsewhere, by its ``Sec-Fetch-Site``
    and ``Origin`` headers; None when it does not say so."""
    headers = {name: bytes(value) for name, value in scope["headers"] if name in (b"origin", b"sec-fetch-site", b"host")}
    site = headers.get(b"sec-fetch-site")
    if site is not None and site.lower() not in (b"same-origin", b"none"):
        return (
            f"the browser says this request comes from another site (Sec-Fetch-Site: {site.decode('latin-1')!r}): "
            "only this app's own pages may change things here"
        )
    origin = headers.get(b"origin")
    if origin is None:
        return None
    text, host = origin.decode("latin-1"), headers.get(b"host", b"").decode("latin-1")
    scheme, sep, rest = text.partition("://")
    own = _origin(scope.get("scheme", "http"), host)
    if not (sep and host and _origin(scheme, rest) == own):
        return (
            f"this request comes from a page at {text!r}, not from this app ({own!r}): "
            "only this app's own pages may change things here"
        )
    return None


_DEFAULT_PORTS = {"http": ":80", "https": ":443"}


class _KnownHost:
    """ASGI middleware: every request (any method, any path: pages, the API,
    event streams, static files) names in its one ``Host`` header a host
    this server answers to, else 421 Misdirected Request with a sentence.

    A page at a name its owner controls can make that name point at this
    computer after the page has loaded (DNS rebinding); to the browser it is
    then the same origin as the app, so :class:`_SameOrigin` lets it in. Its
    requests still name the page's host, which is refused here unless it is
    an IP literal (v4, or v6 in brackets; any port), ``localhost`` or a name
    under ``.localhost`` (browsers resolve those to this computer
    themselves), or one of ``names`` (:func:`allowed_hosts`)."""

    def __init__(self, app: Callable[..., Awaitable[None]], names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            hosts = [bytes(value) for name, value in scope["headers"] if name == b"host"]
            refused = _misdirected(hosts, self.names)
            if refused is not None:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": refused[:120]})
                else:
                    await _answer(send, 421, refused, _HEADERS)
                return
        await self.app(scope, receive, send)


#: A host name: dot-separated labels of letters, digits, hyphens (and the
#: underscores some local names have), none starting or ending with a hyphen.
_HOST_NAME = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)(\.(?!-)[a-z0-9_-]{1,63}(?<!-))*")
#: A port after a host: nothing, or a colon and at most five digits.
_PORT = re.compile(r"(:[0-9]{0,5})?")


def _is_name(text: str) -> bool:
    return len(text) <= 253 and _HOST_NAME.fullmatch(text) is not None


def _ip_literal(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _host_and_port(value: str) -> tuple[str, str] | None:
    """A ``Host`` header's host (lowercase, an IPv6 literal's brackets and
    a name's final dot taken off) and port (digits, or ""); None if it is
    neither a name nor an IP literal, or its port is not a number."""
    if value.startswith("["):  # an IPv6 literal: [v6] or [v6]:port
        literal, sep, port = value[1:].partition("]")
        if not sep or ":" not in literal or not _ip_literal(literal) or not _PORT.fullmatch(port):
            return None
        return literal.lower(), port[1:]
    host, port = value, ""
    if value.count(":") == 1:
        host, port = value.split(":")
        if not _PORT.fullmatch(":" + port):
            return None
    host = host.lower()
    if host.endswith("."):
        host = host[:-1]
    if not (_ip_literal(host) or _is_name(host)):
        return None
    return host, port


def _answers_to(host: str, names: frozenset[str]) -> bool:
    return _ip_literal(host) or host == "localhost" or host.endswith(".localhost") or host in names


def _misdirected(hosts: Sequence[bytes], names: frozenset[str]) -> str | None:
    """Why a request's ``Host`` headers are not this server's; None when
    they are."""
    if len(hosts) != 1:
        return (
            "this request names no host (no Host header): this server answers only to requests that name it"
            if not hosts
            else "this request names more than one host (Host headers): it is refused"
        )
    return _misdirected_to(hosts[0], names)


@lru_cache(maxsize=256)
def _misdirected_to(host: bytes, names: frozenset[str]) -> str | None:
    """:func:`_misdirected` for one ``Host`` header (remembered: a server is
    asked by the same few names over and over)."""
    text = host.decode("latin-1")
    found = _host_and_port(text)
    if found is None:
        return f"this request's Host header {text!r} is not a host name or an IP address"
    if _answers_to(found[0], names):
        return None
    return (
        f"this server does not answer to the host {found[0]!r} (a page under that name may have been pointed at "
        f"this computer); to allow it, start fivecard serve with --allow-host {found[0]}"
    )


class BadHostName(FivecardError):
    """A host name to allow that is not one."""


def host_name(text: str) -> str:
    """A host name (or IP literal) the server is to answer to, as requests
    name it: lowercase, one final dot and an IPv6 literal's brackets taken
    off (:class:`BadHostName` if it is neither)."""
    value = text.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    value = value.lower()
    if value.endswith("."):
        value = value[:-1]
    if not (_ip_literal(value) or _is_name(value)):
        raise BadHostName(
            f"{text!r} is not a host name (letters, digits and hyphens, in labels between dots) or an IP address"
        )
    return value


@cache
def own_host_names() -> frozenset[str]:
    """This computer's names, as the system gives them (its host name and
    its fully qualified name): requests that name them are answered."""
    names = set()
    for name in (socket.gethostname(), socket.getfqdn()):
        try:
            names.add(host_name(name))
        except BadHostName:  # a name no request can carry
            pass
    return frozenset(names)


def allowed_hosts(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names the server answers to besides IP literals and
    ``localhost``: this computer's (:func:`own_host_names`) and ``extra``
    (:func:`host_name` checks each)."""
    return own_host_names() | {host_name(name) for name in extra}


def _origin(scheme: str, host: str) -> str:
    """An origin as ``scheme://host[:port]``: lowercase, without the
    scheme's default port (browsers leave it out of ``Origin``)."""
    scheme, host = scheme.lower(), host.lower()
    default = _DEFAULT_PORTS.get(scheme, "")
    if default and host.endswith(default):
        host = host[: -len(default)]
    return f"{scheme}://{host}"


T = TypeVar("T")


class AdvisorGate:
    """Turns at the exact advisor (``/api/advise``, a game's hint, the
    computer players' turns): tens of milliseconds of CPU each, partly
    outside the GIL, so two at once use the machine best; more only share
    the GIL and delay everyone's cheap requests.

    At most ``slots`` requests are at work at once, each in a worker thread
    (taken only once it has its turn); at most ``queue`` more wait for a
    turn on the event loop (holding no thread), each at most ``wait``
    seconds. One whose time is up is :class:`~fivecard.web.errors.AdvisorBusy`
    (503, try again in a second). Its state is shared by every thread and
    event loop that uses it.

    The turns are shared fairly among clients (a request's ``client``: its
    address's network, :func:`~fivecard.web.clients.client_network`;
    cookies cost nothing, an address does). A freed turn goes to the
    waiting request whose client has the fewest at work (the earliest of
    those). When the queue is full, a request from a client that holds at
    least two turns fewer (at work or waiting) than the client holding the
    most takes the place of that client's latest waiting request, which is
    refused (AdvisorBusy); any other is refused. So one client may use every
    turn while nobody else asks, and never keeps another from a turn: each
    newcomer finds a place, and is next but for the clients with fewer
    turns at work than its own.
    """

    def __init__(self, slots: int = ADVISOR_SLOTS, queue: int = ADVISOR_QUEUE, wait: float = ADVISOR_WAIT) -> None:
        self.slots, self.queue, self.wait = slots, queue, wait
        self.running = 0  # requests at work (or handed a turn)
        self._waiting: list[_Turn] = []
        self._held: collections.Counter[str] = collections.Counter()  # turns at work or waiting, by client
        self._at_work: collections.Counter[str] = collections.Counter()  # turns at work, by client
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        """Requests waiting for a turn."""
        return len(self._waiting)

    def held(self, client: str) -> int:
        """The turns a client holds, at work or waiting."""
        return self._held[client]

    async def run(self, work: Callable[[], T], client: str = "") -> T:
        """``work()`` in a worker thread, when the turn of ``client`` (its network) comes."""
        await self._take(client)
        try:
            return await run_in_threadpool(work)
        finally:
            self._give(client)

    async def _take(self, client: str) -> None:
        loop = asyncio.get_running_loop()
        turn = _Turn(loop, loop.create_future(), client)
        with self._lock:
            if self.running < self.slots and not self._waiting:
                self.running += 1
                self._held[client] += 1
                self._at_work[client] += 1
                return
            if len(self._waiting) >= self.queue and not self._bump_for(client):
                raise AdvisorBusy(
                    f"the advisor is busy ({self.running} answers being worked out, {len(self._waiting)} waiting): "
                    "ask again in a moment"
                )
            self._waiting.append(turn)
            self._held[client] += 1
        try:
            async with asyncio.timeout(self.wait):
                await turn.future
        except BaseException as exc:  # out of time, or the request is gone
            with self._lock:
                state = turn.state
                if state == "waiting":
                    self._waiting.remove(turn)
                    self._drop(self._held, client)
                    turn.state = "gone"
            if state == "given":  # a turn came meanwhile: it is this request's
                if isinstance(exc, TimeoutError):
                    return
                self._give(client)
            elif state == "bumped":
                raise AdvisorBusy(_BUMPED) from None
            elif isinstance(exc, TimeoutError):
                raise AdvisorBusy(
                    f"the advisor is busy: this request waited {self.wait:g} s for its turn; ask again in a moment"
                ) from None
            raise
        with self._lock:
            state = turn.state
        if state == "bumped":
            raise AdvisorBusy(_BUMPED)

    def _bump_for(self, client: str) -> bool:
        """With the lock held and the queue full: make room for ``client``
        by refusing the latest waiting request of the client that holds the
        most turns, if that is at least two more than ``client`` holds."""
        waiting = {t.client for t in self._waiting}
        if not waiting:
            return False
        most = max(waiting, key=lambda c: self._held[c])
        if self._held[most] < self._held[client] + 2:
            return False
        turn = next(t for t in reversed(self._waiting) if t.client == most)
        self._waiting.remove(turn)
        self._drop(self._held, most)
        turn.state = "bumped"
        self._wake(turn)
        return True

    def _give(self, client: str) -> None:
        """The turn of a request of ``client`` done: to the waiting request
        whose client has the fewest turns at work (the earliest of those), if any."""
        with self._lock:
            self._drop(self._held, client)
            self._drop(self._at_work, client)
            while self._waiting:
                turn = min(enumerate(self._waiting), key=lambda it: (self._at_work[it[1].client], it[0]))[1]
                self._waiting.remove(turn)
                turn.state = "given"  # the turn passes on: as many at work
                self._at_work[turn.client] += 1
                if self._wake(turn):
                    return
                turn.state = "gone"  # its loop has closed: the request is gone
                self._drop(self._held, turn.client)
                self._drop(self._at_work, turn.client)
            self.running -= 1

    @staticmethod
    def _drop(counter: collections.Counter[str], client: str) -> None:
        counter[client] -= 1
        if counter[client] <= 0:
            del counter[client]

    @staticmethod
    def _wake(turn: _Turn) -> bool:
        """Wake a waiting request (from any thread); False if its loop has closed."""
        try:
            turn.loop.call_soon_threadsafe(_hand_over, turn.future)
        except RuntimeError:
            return False
        return True


#: Why a waiting request was refused to make room for another client's.
_BUMPED = (
    "the advisor is busy: this request's place went to another address's (this address holds more of the "
    "advisor's turns than any other); ask again in a moment"
)


class _Turn:
    """A request's turn at the :class:`AdvisorGate`: ``waiting``, then
    ``given`` (it may work), ``bumped`` (refused to make room) or ``gone``."""

    __slots__ = ("loop", "future", "client", "state")

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[None], client: str) -> None:
        self.loop, self.future, self.client = loop, future, client
        self.state = "waiting"


class _NeedsTheAdvisor(Exception):
    """An action taken without a turn at the advisor after which the
    computer players act (they ask the advisor): nothing is kept, and it is
    taken again with a turn."""


def _hand_over(turn: asyncio.Future[None]) -> None:
    if not turn.done():
        turn.set_result(None)


# --- the app ------------------------------------------------------------------------------


def create_app(
    data: str | os.PathLike[str] | None = None,
    capacity: Capacity = Capacity(),
    limit: RateLimit | None = None,
    bounds: Bounds | None = None,
    advisor: AdvisorGate | None = None,
    allow_hosts: Iterable[str] = (),
    exports: Exports | None = None,
    lan_url: str | None = None,
) -> FastAPI:
    """The app, keeping games in ``data``/games.sqlite3 (default:
    :func:`default_data_dir`), as many as ``capacity`` says, as fast as
    ``limit`` lets each client (default: :class:`RateLimit`'s numbers),
    with as many event streams as the server's ``bounds`` leave room for,
    the advisor's turns given by ``advisor`` (default: :class:`AdvisorGate`'s numbers),
    as many exports at once as ``exports`` has places for (default: :class:`~fivecard.web.friends_api.Exports`' numbers),
    answering requests that name an IP literal, ``localhost``, this
    computer or one of ``allow_hosts`` (:class:`_KnownHost`; a test client
    names its own host here); ``lan_url``: the app's address on the local
    network (``fivecard serve --lan``), where the friends' tables share their
    links (``app.state.lan_url``; None: at the address the page was opened)."""
    hosts = allowed_hosts(allow_hosts)  # a bad name is refused before anything is opened
    build_tables()  # the built-in rule sets' tables, now rather than in a request
    folder = Path(data) if data is not None else Path(default_data_dir())
    database = Database(str(folder / "games.sqlite3"))  # games and tables: one file, one writer at a time
    store = TableGameStore(database, DEALER_GAMES, capacity)
    sessions = Sessions(store)  # each game's figures for its page, kept up to date from its history
    friends_tables = TableGameStore(database, FRIENDS_TABLES, capacity)
    machines = TableGameStore(database, MACHINES, capacity)
    database.check()  # a folder that cannot keep a game is refused now, not at the first change
    owners = Owners(database.key("owner secrets"))
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        database.close_all()  # stopped: every thread's connection to the file closed

    app = FastAPI(
        title="fivecard",
        version=__version__,
        description="Five-card poker hands settled, explained and played: the API the fivecard pages use.",
        docs_url=None,  # the interactive docs load scripts from a CDN: the app works offline
        redoc_url=None,
        lifespan=lifespan,
    )
    app.router.route_class = _JsonRoute  # (before any route: each reads its body so)
    app.state.store = store
    gate = app.state.advisor = advisor or AdvisorGate()  # the advisor's turns
    app.state.owners = owners  # the one reader of owner cookies (the rate limit's too)
    app.state.broker = Broker((bounds or Bounds()).streams)  # fivecard serve closes its event streams when it stops
    limit = app.state.limit = limit or RateLimit()  # creations per address, changes per browser: one limiter
    app.state.exports = exports or Exports()  # exports at once, in all and per network
    app.state.lan_url = lan_url  # fivecard serve --lan sets it once it knows its port
    add_friends_table_routes(app, friends_tables, app.state.broker, limit, owners, app.state.exports)
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    install_language(templates)
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")

    # -- errors ----------------------------------------------------------------------------

    # The web's own refusals carry their status (:mod:`fivecard.web.errors`);
    # an action a game does not allow is 409, or 403 when it is another role's.
    @app.exception_handler(WebError)
    async def _refused(request: Request, exc: WebError) -> Response:
        headers = {"retry-after": str(exc.wait)} if exc.wait is not None else None
        return _json({"detail": str(exc)}, exc.status, headers=headers)

    @app.exception_handler(GameError)
    async def _not_now(request: Request, exc: GameError) -> Response:
        return _json({"detail": str(exc)}, 403 if isinstance(exc, RoleRequired) else 409)

    # A data folder that cannot keep a change: one sentence to the browser, one
    # line in the log (at most one a minute for each kind of trouble).
    said: dict[str, float] = {}

    @app.exception_handler(StorageError)
    async def _storage(request: Request, exc: StorageError) -> Response:
        now = time.monotonic()
        if now - said.get(exc.reason, -60.0) >= 60.0:
            said[exc.reason] = now
            _LOG.error("%s: %s (%s %s; said at most once a minute)", database.path, exc.reason, request.method, request.url.path)
        return _json({"detail": str(exc)}, exc.status, headers={"retry-after": "60"})

    @app.exception_handler(FivecardError)
    async def _bad_input(request: Request, exc: FivecardError) -> Response:
        return _json({"detail": error_text(exc, request_language(request))}, 422)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> Response:
        problems = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            problems.append(f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg")))
        return _json({"detail": "; ".join(problems) or "invalid request"}, 422)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:
        _LOG.exception("error in %s %s", request.method, request.url.path)
        return _json({"detail": "internal error (the server's log says more)"}, 500)

    # -- hands -------------------------------------------------------------------------------

    @app.post("/api/evaluate", tags=["hands"], summary="Classify one hand")
    def api_evaluate(request: EvaluateRequest, http: Request) -> Response:
        evaluation = evaluate(
            request.hand, rules=builtin_rules(request.rules), best_five=request.best_five, board=request.board
        )
        return _json(evaluation_json(evaluation, request.hand, lang=request_language(http)))

    @app.post("/api/compare", tags=["hands"], summary="Settle a showdown and explain it")
    def api_compare(request: CompareRequest, http: Request) -> Response:
        # (answered by _FastCompare when the body is good: see _compare_body)
        return Response(_compare_body(request, request_language(http)), media_type="application/json")

    @app.post("/api/advise", tags=["hands"], summary="Which cards to keep: every choice's exact odds")
    async def api_advise(request: AdviseRequest, http: Request) -> Response:
        limit.check(http, "advise")
        # a name, never a path: the server opens no file a request names
        paytable = builtin_paytable(request.paytable) if request.paytable else None
        rules = builtin_rules(request.rules) if request.rules is not None else None  # a pay table may name its own
        advice = await gate.run(lambda: advise(request.hand, rules=rules, paytable=paytable), request_network(http))
        data = advice.to_json()
        data["choices"] = data["choices"][: request.top]
        return _json(data)

    # -- games -------------------------------------------------------------------------------

    def owner_of(request: Request) -> str:
        owner = owners.owner(request)
        if not owner:
            raise NotYours("this browser has no games (its cookie is missing, or is not one this server gave)")
        return owner

    def view(game_id: str, game: Game, request: Request) -> dict[str, Any]:
        # kept in English; said in the language of whoever views the game
        lang = request_language(request)
        events = store.round_events(game_id, game.rounds)
        history = [history_entry(e, game=game, lang=lang) for e in store.latest(game_id, "round_settled")]
        session = sessions.figures(game_id, game.stacks_before[0], lang)
        data = game_view(game, events=events, history=history, session=session, lang=lang)
        data["id"] = game_id
        return data

    @app.post("/api/games", tags=["games"], summary="Start a new game", status_code=201)
    def api_new_game(request: Request, body: NewGameRequest = Body(default_factory=NewGameRequest)) -> Response:
        limit.check(request, "create")
        claim = owners.claim(request)
        game = Game(rules=builtin_rules(body.rules), seed=body.seed, stack=body.stack, trainer=body.trainer)
        game_id = store.create(game, claim.new, moved_from=claim.old, network=request_network(request))
        response = _json(view(game_id, game, request), 201, headers={"location": f"/api/games/{game_id}"})
        limit.moved(claim)
        remember_owner(response, claim)
        return response

    @app.get("/api/games/{game_id}", tags=["games"], summary="The table as you see it")
    def api_game(game_id: str, request: Request) -> Response:
        game = store.load(game_id, owner_of(request))
        return _json(view(game_id, game, request))

    @app.post("/api/games/{game_id}/actions", tags=["games"], summary="Act: start, exchange, keep, fold, reveal, settle")
    async def api_act(game_id: str, body: ActionRequest, request: Request) -> Response:
        limit.check(request, "act")
        owner = owner_of(request)

        def act(game: Game, gated: bool) -> tuple[None, list[dict[str, Any]]]:
            events: list[Any] = []
            if body.action == "start":
                events.append(game.start_round())
            elif body.action in ("exchange", "keep"):
                keep = [0, 1, 2, 3, 4] if body.action == "keep" else [p - 1 for p in body.keep]
                events.append(game.exchange(0, keep))
            elif body.action == "fold":
                events.append(game.fold(0))
            elif body.action == "reveal":
                events.append(game.reveal_dealer_card())
            else:
                events.append(game.settle())
            if game.can_computer_act() and not gated:
                raise _NeedsTheAdvisor  # (nothing is kept: the action is taken again with a turn)
            while game.can_computer_act():  # the computer players act after you
                events.append(game.computer_acts())
            return None, [event_json(game, e) for e in events]

        def act_and_view(gated: bool) -> dict[str, Any]:
            game, _, _ = store.act(game_id, owner, lambda g: act(g, gated))
            return view(game_id, game, request)

        # Only an action after which the computer players act asks the
        # advisor (and your exchange, with the trainer on: its verdict): it
        # takes a turn at the gate; any other never waits there.
        gated = body.action in ("exchange", "keep", "fold")
        while True:
            try:
                if gated:
                    return _json(await gate.run(lambda: act_and_view(True), request_network(request)))
                return _json(await run_in_threadpool(act_and_view, False))
            except _NeedsTheAdvisor:
                gated = True

    @app.post("/api/games/{game_id}/settings", tags=["games"], summary="Change the game's settings: the trainer")
    async def api_settings(game_id: str, body: SettingsRequest, request: Request) -> Response:
        limit.check(request, "act")
        owner = owner_of(request)

        def change(game: Game) -> tuple[None, list[dict[str, Any]]]:
            if body.trainer is not None:
                game.trainer = body.trainer
            return None, []

        def change_and_view() -> dict[str, Any]:
            game, _, _ = store.act(game_id, owner, change)
            return view(game_id, game, request)

        return _json(await run_in_threadpool(change_and_view))

    @app.get("/api/games/{game_id}/hint", tags=["games"], summary="The advisor's best choices for your hand")
    async def api_hint(
        game_id: str, request: Request, top: Annotated[int, Query(ge=1, le=32, description="how many choices"), Digits] = 5
    ) -> Response:
        limit.check(request, "advise")
        game = await run_in_threadpool(store.load, game_id, owner_of(request))
        if game.turn != 0:
            raise GameError("a hint is for your turn to exchange")
        advice = await gate.run(lambda: game.hint(0), request_network(request))
        return _json(hint_json(advice, top=top, lang=request_language(request)))

    # -- pages ---------------------------------------------------------------------------------

    def page(template: str, key: str) -> Callable[[Request], Response]:
        """A page: its template, given the rule sets (their titles and
        summaries in the request's language) and the id its path names
        (None: a new one)."""

        def render(request: Request) -> Response:
            context = {
                "rule_sets": page_rule_sets(request_language(request)),
                key: request.path_params.get(key),
                "lan_url": app.state.lan_url,
            }
            return templates.TemplateResponse(request, template, context)

        return render

    for path, template, key in (
        ("/", "table.html", "game_id"),  # the dealer game: a new one,
        ("/play/{game_id}", "table.html", "game_id"),  # or one under way
        ("/tables", "friends.html", "table_id"),  # a friends' table: a new one,
        ("/tables/{table_id}", "friends.html", "table_id"),  # or one open
    ):
        app.add_api_route(path, page(template, key), response_class=HTMLResponse, include_in_schema=False)
    add_strategy_routes(app, templates, _json)  # video-poker strategy cards: /strategy, /api/strategy
    add_machine_routes(app, templates, machines, owners, limit, gate.run, _json, app.state.exports)  # video poker: /video-poker, /api/machines
    add_install_routes(app, templates, _HERE / "static", _HERE / "templates")  # /manifest.webmanifest, /sw.js, /offline

    @app.get("/check", response_class=HTMLResponse, include_in_schema=False)
    def page_check(request: Request) -> Response:
        params = request.query_params
        rules_name = params.get("rules", "standard")
        lang = request_language(request)
        page = check_page(params.getlist("hand"), rules_name, lang)
        return templates.TemplateResponse(request, "check.html", {"rule_sets": page_rule_sets(lang), **page})

    return _wrap(app, hosts)


def _wrap(app: FastAPI, hosts: frozenset[str]) -> FastAPI:
    app.add_middleware(_FastCompare)  # inside _SameOrigin and _Limits: their checks apply
    app.add_middleware(Languages)  # around _FastCompare: its answers say their language as the app's do
    app.add_middleware(_SameOrigin)  # inside _Limits: its headers apply to a refusal
    app.add_middleware(_Limits)
    app.add_middleware(_KnownHost, names=hosts)  # first of all: a misdirected request is read no further
    return app


@cache
def page_rule_sets(lang: Language) -> list[dict[str, Any]]:
    """What the pages need of each rule set, in ``lang``: its name (``id``),
    other names, title and summary, and its deck for the card grid (its
    cards as card objects, named in ``lang``: view.deck_json). Made once a language."""
    return [
        {
            "id": r.name,
            "aliases": r.aliases,
            "title": rules_title(r.name, r.title or r.name, lang),
            "summary": rules_summary(r.name, r.summary, lang),
            "deck": deck_json(r, lang),
        }
        for r in RULE_SETS.values()
    ]


def check_page(texts: Sequence[str], rules_name: str, lang: Language | None = None) -> dict[str, Any]:
    """What the checker page shows for the hands in its URL: ``texts``, the
    hands typed (a blank one is no hand: the form sends its empty boxes, a
    URL need not, and both mean the same), each classified (or the
    library's message about it), with its sorted cards as card objects
    (``cards``, for the card faces), then the showdown of the good hands
    when there are two or more (of the first :data:`MAX_HANDS`); every
    sentence in ``lang`` (default English)."""
    lang = language(lang)
    texts = [text for text in texts if text.strip()][:MAX_HANDS]
    result: dict[str, Any] = {"rules": rules_name, "texts": texts, "hands": [], "showdown": None, "error": None}
    try:
        rules = builtin_rules(rules_name)
    except FivecardError as exc:
        result["error"] = error_text(exc, lang)
        return result
    result["rules"] = rules.name
    good: list[str] = []
    for number, text in enumerate(texts, 1):
        entry: dict[str, Any] = {"number": number, "text": text, "hand": None, "cards": None, "error": None}
        if len(text) > MAX_HAND_TEXT:
            entry["error"] = lang.phrase_n(
                "{n:,} character; a hand is at most {most}",
                "{n:,} characters; a hand is at most {most}",
                len(text),
                "web",
                most=MAX_HAND_TEXT,
            )
        else:
            try:
                evaluation = evaluate(text, rules=rules)
                entry["hand"] = evaluation_json(evaluation, text, lang=lang)
                entry["cards"] = cards_json(evaluation.hand.sorted(), lang)
                good.append(text)
            except FivecardError as exc:
                entry["error"] = error_text(exc, lang)
        result["hands"].append(entry)
    if len(good) >= 2 and len(good) == len(texts):
        try:
            result["showdown"] = showdown_json(showdown(good, rules=rules, lang=lang), good, lang)
        except FivecardError as exc:
            result["error"] = error_text(exc, lang)
    return result
