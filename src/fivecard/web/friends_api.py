"""The friends' table API (``/api/tables``): a host opens a table, players
take seats by name, the host starts rounds, each player deals (and draws,
at a table with a draw), the round is settled, points awarded; chat; the
table's share link as a QR code (at the app's address on the local network
when it serves it: ``fivecard serve --lan``); a live event stream (Server-Sent Events,
resumed after the last event a browser saw); an export of the table's
history with the columns of ``fivecard solve``, each hand called by its
seat's name (:func:`_named_export`).

The rules of the table are :mod:`fivecard.play.friends`'; the storage is a
:class:`~fivecard.web.store.TableGameStore` of
:data:`~fivecard.web.store.FRIENDS_TABLES`. Identity is the browser's owner
secret (the HttpOnly cookie of :class:`~fivecard.web.store.Owners`, one the
server issued): the browser that opened a table is its host; a seat belongs
to the browser that took it; a browser without a seat watches. Opening a
table and taking a seat give the browser a fresh secret, which takes over
what its old one held in the same transaction. Actions that change a table
take a ``request_id`` (any text up to 64 characters, chosen by the client):
a request retried with the same id is applied once (also after the browser
gained something, and a seat asked for again with the secret it replaced
is refused as a name taken, never a second seat). How fast a client may
open tables, take seats and act is :class:`RateLimit`'s to say (the app's
one limiter, which the game API uses too).

What a browser is sent is the engine's to decide: every answer about a
table is :meth:`~fivecard.play.friends.FriendsTable.view` for that browser,
and every event (the stream, the export) goes out through
:func:`~fivecard.play.friends.public_event`, read from the store by
:func:`_public_events` alone, so events kept by an earlier version are
served in today's form.

What a read costs follows what it answers: the export reads a table's closed
rounds alone (by their type's index), a page of them at a time, written out
as it goes (:func:`_round_lines`; at most :data:`EXPORTS` exports at once, one a
network, :class:`Exports`), and an event stream that resumes from
far back (``?after=0`` at a long table) is sent what the page needs to draw
the table now, then the latest :data:`REPLAY` events, never the whole history.
Every per-table collection has a bound: seats given
(:data:`~fivecard.play.friends.MAX_JOINS`), rounds
(:data:`~fivecard.play.friends.MAX_ROUNDS`, with or without a number of
rounds), chat lines kept (:data:`~fivecard.play.friends.KEPT_CHAT`, the
latest), request ids kept (:data:`~fivecard.web.store.KEPT_REQUEST_IDS` per
browser).
"""

from __future__ import annotations

import asyncio
import collections
import csv
import functools
import io
import json
import math
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Path, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from ..core.hand import HAND_SIZE
from ..core.lang import ENGLISH, Language
from ..core.rules import RULE_SETS, RuleSet, get_rules
from ..core.errors import RulesError
from ..core.showdown import name_hands, spoken_list
from ..files.solve import solve_lines
from ..files.writers.cells import csv_line
from ..play.friends import MAX_CHAT, MAX_NAME, MAX_ROUNDS, MAX_SEATS, FriendsTable
from ..play.table_game import GameError
from .clients import request_network
from .i18n import request_language
from .errors import AtCapacity, NotFound, TooFast
from .store import MAX_STORED, Claim, Owners, StorageError, TableGameStore, remember_owner, secret_hash

#: Where friends' tables are kept.
FriendsTableStore = TableGameStore[FriendsTable]

__all__ = [
    "add_friends_table_routes",
    "builtin_rules",
    "Broker",
    "Exports",
    "Held",
    "Digits",
    "RateLimit",
    "RequestModel",
    "RuleName",
    "json_number",
]


def builtin_rules(name: str) -> RuleSet:
    """The rule set a request names: the web app's one reader of rule-set
    names. Built-in rule sets and their aliases only: a name such as
    ``standard+wild(AS 7)``, which makes a rule set to order (its tables
    built on first use: CPU seconds, memory, a file in the cache), is an
    unknown rule set here (:func:`~fivecard.core.rules.get_rules` with
    ``custom=False``)."""
    return get_rules(name, custom=False)


def _rule_name(value: str) -> str:
    try:
        return builtin_rules(value).name
    except RulesError as exc:  # the library's sentence, as the field's error (422)
        raise PydanticCustomError("rule_set", "{reason}", {"reason": str(exc)}) from None


#: A request's field that names a rule set: every such field is of this type
#: (checked by :func:`builtin_rules`; its value is then the rule set's own name).
RuleName = Annotated[
    str,
    Field(max_length=40, description="rule set: " + ", ".join(RULE_SETS)),
    AfterValidator(_rule_name),
]


class RequestModel(BaseModel):
    """Every request body's model (the game API's too): strict, so that a
    number field takes a JSON number without a fraction only (``true``,
    ``"12"``, ``" 12"`` and ``12.0`` are 422, not 1 and 12), a text field
    text only, a yes-or-no field ``true`` or ``false`` only."""

    model_config = ConfigDict(strict=True)


#: Digits beyond which a whole number is over every bound the API has
#: (each is at most :data:`~fivecard.web.store.MAX_STORED`, 19 digits).
_DIGITS_READ = 20
_BEYOND: int = 10**_DIGITS_READ


def json_number(text: str) -> int:
    """A whole number as the API reads it from its text (JSON's, or a
    query's digits): one too long to be within any bound is read as a
    number over every bound (so it is refused as out of range, 422, where
    Python would refuse to read it at all past 4,300 digits)."""
    digits = text.lstrip("-")
    if len(digits) > _DIGITS_READ:
        return -_BEYOND if text.startswith("-") else _BEYOND
    return int(text)


def _digits_only(value: Any) -> Any:
    if isinstance(value, str):
        if re.fullmatch(r"-?[0-9]+", value) is None:
            raise PydanticCustomError(
                "whole_number", "a whole number is written in digits (0-9) only, got {text}", {"text": repr(value)}
            )
        return json_number(value)
    return value


#: A whole number in a query, a path or a header is digits only (``+5``,
#: ``5.0``, ``1_0``, `` 5`` and ``５`` are 422): every such parameter is
#: ``Annotated[int, Query(ge=..., le=...), Digits]`` (its range first, then this).
Digits = BeforeValidator(_digits_only)


class NewTableRequest(RequestModel):
    rules: RuleName = "standard"
    points: int = Field(default=25, ge=0, le=1_000_000, description="points for a round's high hand")
    tie: Literal["none", "split"] = Field(default="none", description="a tie for the high hand: nobody scores, or a split")
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS, description="the table ends after this many")
    seed: int | None = Field(
        default=None, ge=0, le=MAX_STORED, description="for reproducible rounds (every browser is told the host chose it)"
    )
    draw: int = Field(
        default=0, ge=0, le=HAND_SIZE, description="each seat may exchange up to this many cards once a round (0: no draw)"
    )


class Request_(RequestModel):
    request_id: str | None = Field(
        default=None, max_length=64, description="chosen by the client: a retried request is applied once"
    )


class JoinRequest(Request_):
    name: str = Field(min_length=1, max_length=MAX_NAME, description="the name shown at the table")


class DrawRequest(Request_):
    keep: list[Annotated[int, Field(ge=1, le=HAND_SIZE)]] = Field(
        default=[], max_length=HAND_SIZE, description="the 1-based positions kept; the others are exchanged"
    )


class ChatRequest(Request_):
    text: str = Field(min_length=1, max_length=MAX_CHAT, description="a chat line")


#: Events read from the store at a time, and the frames a table's streams share.
_BATCH = 500
_SHARED = 64
#: Closed rounds an export reads from the store at a time (each about 7 KB of
#: JSON at a table at its bounds, several times that once read).
_EXPORT_PAGE = 100
#: A stream that resumes from further back than this many events (``?after=0``
#: at a table with a long history) is sent what a page needs to draw the
#: table now: its :data:`REPLAY_ROUNDS` latest closed rounds (the result on the
#: table, and the one before it), then its last :data:`REPLAY` events (the
#: page's talk shows 300 lines); then, as always, every event as it comes.
REPLAY = 300
REPLAY_ROUNDS = 2


class _Frames:
    """A table's latest event frames in one language, as a stream last read them."""

    __slots__ = ("read_at", "after", "frames")

    def __init__(self) -> None:
        self.read_at = -1  # the channel's ``changes`` when ``frames`` were read (-1: never)
        self.after = 0  # ``frames`` hold every event numbered after this one (as of ``read_at``)
        self.frames: list[tuple[int, bytes]] = []


class _Channel:
    """A table's event streams in this process: their wake-up events, how many
    times the table has changed since the first of them listened, and the
    table's latest event frames in each language its streams speak (at most
    one set for each of :data:`~fivecard.core.lang.LANGUAGES`)."""

    __slots__ = ("waiting", "changes", "said")

    def __init__(self) -> None:
        self.waiting: dict[asyncio.Event, asyncio.AbstractEventLoop] = {}
        self.changes = 0
        self.said: dict[str, _Frames] = {}


class Broker:
    """Wakes the event streams of a table when its events change (in this
    process; streams also look every second, for other processes), and
    shares the table's latest events among its streams of one language: when
    a change wakes them, the first of each language reads the new events
    from the store and says them once, the others take the same bytes."""

    def __init__(self, max_streams: int = 1000) -> None:
        self._channels: dict[str, _Channel] = {}
        self._lock = threading.Lock()
        self.closing = False
        #: Streams open at once, at most (a stream cannot be timed out: it holds its connection).
        self.max_streams = max_streams
        self.streams = 0

    def listen(self, table_id: str) -> asyncio.Event:
        """An event set when the table changes (on the running loop)."""
        event = asyncio.Event()
        with self._lock:
            self._channels.setdefault(table_id, _Channel()).waiting[event] = asyncio.get_running_loop()
            self.streams += 1
        return event

    def stop(self, table_id: str, event: asyncio.Event) -> None:
        with self._lock:
            channel = self._channels.get(table_id)
            if channel is not None and channel.waiting.pop(event, None) is not None:
                self.streams -= 1
                if not channel.waiting:
                    del self._channels[table_id]

    def close(self) -> None:
        """From any thread: the server is stopping: every stream ends now
        (its browser reconnects to the next server and resumes)."""
        with self._lock:
            self.closing = True
            waiting = [item for channel in self._channels.values() for item in channel.waiting.items()]
        for event, loop in waiting:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # its loop has closed
                pass

    def notify(self, table_id: str) -> None:
        """From any thread: the table has new events."""
        with self._lock:
            channel = self._channels.get(table_id)
            if channel is None:
                return
            channel.changes += 1
            waiting = list(channel.waiting.items())
        loops: dict[asyncio.AbstractEventLoop, list[asyncio.Event]] = {}
        for event, loop in waiting:
            loops.setdefault(loop, []).append(event)
        for loop, events in loops.items():
            try:
                loop.call_soon_threadsafe(_set_all, events)
            except RuntimeError:  # its loop has closed: the streams are gone
                for event in events:
                    self.stop(table_id, event)

    def frames_after(
        self, table_id: str, seen: int, store: FriendsTableStore, fresh: bool = False, lang: Language = ENGLISH
    ) -> list[tuple[int, bytes]]:
        """The table's events numbered after ``seen`` as Server-Sent Events
        (at most :data:`_BATCH`), oldest first, said in ``lang``: those a
        stream of the table in that language read since its last change when
        they include all of them, unless ``fresh``; else read from the store
        (and kept for the others)."""
        with self._lock:
            channel = self._channels.get(table_id)
            changes = channel.changes if channel is not None else 0
            said = channel.said.get(lang.code) if channel is not None else None
            if said is not None and not fresh and said.read_at == changes and said.after <= seen:
                return [f for f in said.frames if f[0] > seen]
        # Every change counted in ``changes`` was committed before it was counted: this read sees it.
        frames = [(seq, _frame(seq, event)) for seq, event in _replay(store, table_id, seen, lang)]
        if channel is not None and len(frames) < _BATCH:
            with self._lock:
                said = channel.said.setdefault(lang.code, _Frames())
                if changes > said.read_at or (changes == said.read_at and seen < said.after):
                    kept = frames[-_SHARED:]
                    said.read_at = changes
                    said.after = seen if len(kept) == len(frames) else frames[-len(kept) - 1][0]
                    said.frames = kept
        return frames


def _public_events(
    store: FriendsTableStore,
    table_id: str,
    seen: int,
    limit: int,
    type: str | None = None,
    *,
    last: bool = False,
    lang: Language = ENGLISH,
) -> list[tuple[int, dict[str, Any]]]:
    """The table's events (of one ``type``, if given) as every browser may
    see them, said in ``lang``, oldest first: the first ``limit`` numbered
    after ``seen``; or, ``last``, the last ``limit`` numbered before
    ``seen``. The one way events leave the store."""
    if last:
        found = store.tail(table_id, limit, type, before=seen)
    else:
        found = store.events_after(table_id, seen, limit, type)
    return [(seq, FriendsTable.public_event(event, lang)) for seq, event in found]


def _replay(
    store: FriendsTableStore, table_id: str, seen: int, lang: Language = ENGLISH
) -> list[tuple[int, dict[str, Any]]]:
    """The events a stream that has seen those up to ``seen`` is sent next,
    said in ``lang``, oldest first: every one after it, when there are at
    most :data:`REPLAY`; else the table's latest :data:`REPLAY_ROUNDS`
    closed rounds (those after ``seen``) and its last :data:`REPLAY` events."""
    found = _public_events(store, table_id, seen, REPLAY + 1, lang=lang)
    if len(found) <= REPLAY:
        return found
    window = _public_events(store, table_id, MAX_STORED, REPLAY, last=True, lang=lang)
    rounds = _public_events(store, table_id, window[0][0], REPLAY_ROUNDS, "round_closed", last=True, lang=lang)
    return [(seq, event) for seq, event in rounds if seq > seen] + window


def _set_all(events: Sequence[asyncio.Event]) -> None:
    for event in events:
        event.set()


def _frame(seq: int, event: dict[str, Any]) -> bytes:
    """An event as a Server-Sent Event."""
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return f"id: {seq}\nevent: {event['type']}\ndata: {data}\n\n".encode()


#: Changes a browser may make: this many a second, in bursts of so many.
ACT_RATE, ACT_BURST = 10.0, 30
#: New games, tables and seats an address may make: so many at once, then this many a second.
CREATE_RATE, CREATE_BURST = 0.5, 300
#: The advisor's answers (``/api/advise``, hints) a browser may ask for: this many a second, in bursts of so many.
ADVISE_RATE, ADVISE_BURST = 2.0, 10
#: An address may ask the advisor as much as this many browsers (a household or an office behind one address).
ADVISE_BROWSERS = 4


class RateLimit:
    """The app's one limit on how fast a client changes things: token
    buckets (a burst, then a steady rate), three kinds of them. More is
    :class:`~fivecard.web.errors.TooFast` (429), with the seconds to wait (``Retry-After``).

    * ``create``: what mints an owner cookie or a stored row (a game, a
      table, a seat), per client address (its network: an IPv6 client's /48,
      :func:`~fivecard.web.clients.client_network`): a client without a
      cookie, or with a new one each time, is still one address. ``create_burst`` at once,
      then ``create_rate`` a second.
    * ``act``: every other change, per browser (its owner secret, of the app's
      :class:`~fivecard.web.store.Owners`; its address when it has none, or
      one the server did not issue): ``rate`` a second in bursts of ``burst``.
    * ``advise``: the advisor's answers (``/api/advise``, a game's hint),
      tens of milliseconds of CPU each, per browser as ``act``:
      ``advise_rate`` a second in bursts of ``advise_burst``; and per
      address as well, :data:`ADVISE_BROWSERS` browsers' worth (cookies
      cost nothing to mint: ``POST /api/games`` gives one; an address is
      its network, :func:`~fivecard.web.clients.client_network`). How many
      answers are worked out at once, and each address's share of them, is
      the app's advisor gate's to bound.
    """

    def __init__(
        self,
        rate: float = ACT_RATE,
        burst: float = ACT_BURST,
        create_rate: float = CREATE_RATE,
        create_burst: float = CREATE_BURST,
        clock: Callable[[], float] = time.monotonic,
        advise_rate: float = ADVISE_RATE,
        advise_burst: float = ADVISE_BURST,
    ) -> None:
        self._clock = clock
        self._kinds = {
            "act": (rate, burst),
            "create": (create_rate, create_burst),
            "advise": (advise_rate, advise_burst),
            "advise address": (advise_rate * ADVISE_BROWSERS, advise_burst * ADVISE_BROWSERS),
        }
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, request: Request, kind: Literal["create", "act", "advise"]) -> None:
        """Count one request of ``kind``; :class:`~fivecard.web.errors.TooFast` if over the limit
        (then nothing is counted)."""
        address = f"address {request_network(request)}"
        owners: Owners = request.app.state.owners
        secret = owners.secret(request) if kind != "create" else None
        keys: list[tuple[str, str]] = [(kind, secret_hash(secret) if secret is not None else address)]
        if kind == "advise":
            keys.append(("advise address", address))
        now = self._clock()
        with self._lock:
            counted = []
            for key in keys:
                rate, burst = self._kinds[key[0]]
                tokens, then = self._buckets.get(key, (burst, now))
                tokens = min(burst, tokens + (now - then) * rate)
                if tokens < 1:
                    wait = math.ceil((1 - tokens) / rate)
                    what = {
                        "create": "new games, tables and seats from this address",
                        "act": "changes from this browser",
                        "advise": "the advisor's answers for this browser",
                        "advise address": "the advisor's answers for this address",
                    }[key[0]]
                    raise TooFast(f"too many requests: {what} are limited; wait {wait} s", wait)
                counted.append((key, tokens - 1))
            for key, tokens in counted:
                self._buckets[key] = (tokens, now)
            if len(self._buckets) > 100_000:  # forget the buckets that are full again by now
                self._buckets = {
                    k: (t, at) for k, (t, at) in self._buckets.items() if t + (now - at) * self._kinds[k[0]][0] < self._kinds[k[0]][1]
                }

    def moved(self, claim: Claim) -> None:
        """A browser given a fresh secret (:class:`~fivecard.web.store.Claim`)
        keeps its ``act`` bucket: a gain does not start it afresh."""
        with self._lock:
            bucket = self._buckets.get(("act", claim.old))
            if bucket is not None:
                self._buckets[("act", claim.new)] = bucket


#: Exports made at once: in all, and for one network (its clients share one).
EXPORTS, EXPORTS_PER_NETWORK = 4, 1
#: Seconds an export keeps its place whatever others want: past them, an
#: export that finds every place taken takes the place of the one that has
#: held its place longest (a table at its bounds exports in some 3 s here;
#: 60 s lets its 5 MB reach a client at 85 KB/s).
EXPORT_SECONDS = 60.0
#: What an export sends at a time: an export whose place went to another
#: ends before its next piece.
_EXPORT_PIECE = 16 * 1024


class _Place:
    """An export's place: its client's network, when it was taken, and
    whether it went to another export (``taken``)."""

    __slots__ = ("network", "since", "taken")

    def __init__(self, network: str) -> None:
        self.network, self.since, self.taken = network, time.monotonic(), False


class _PlaceTaken(Exception):
    """An export whose place went to another: it ends where it is (its
    client sees the answer cut off, never a short file that looks whole)."""


class Exports:
    """The exports being made: at most ``most`` at once (one more is
    :class:`~fivecard.web.errors.AtCapacity`, 503) and ``per_network`` for
    one client network (:func:`~fivecard.web.clients.client_network`; one
    more is :class:`~fivecard.web.errors.TooFast`, 429). An export holds a
    page of rounds and a worker thread while it reads and solves it, and its
    place until its client has taken the whole answer (or gone): so that
    slow readers cannot keep every place, an export that finds them all
    taken takes the place of the one that has held its place longest, once
    that one has held it ``seconds``; that export ends before its next piece."""

    def __init__(self, most: int = EXPORTS, per_network: int = EXPORTS_PER_NETWORK, seconds: float = EXPORT_SECONDS) -> None:
        self.most, self.per_network, self.seconds = most, per_network, seconds
        self._places: list[_Place] = []
        self._lock = threading.Lock()

    def held(self, network: str | None = None) -> int:
        """The exports being made (for one ``network``, if given)."""
        with self._lock:
            return sum(1 for p in self._places if not p.taken and network in (None, p.network))

    def take(self, network: str) -> _Place:
        """A place for an export for ``network``, or its refusal."""
        with self._lock:
            held = [p for p in self._places if not p.taken]
            if sum(1 for p in held if p.network == network) >= self.per_network:
                raise TooFast(
                    f"too many requests: exports for this address at once are limited ({self.per_network:,}); "
                    "wait until the one being made is done"
                )
            if len(held) >= self.most:
                oldest = min(held, key=lambda p: p.since)
                if time.monotonic() - oldest.since < self.seconds:
                    raise AtCapacity(
                        f"the server makes as many exports at once as it can ({self.most:,}): try again in a moment", 1
                    )
                oldest.taken = True
            place = _Place(network)
            self._places.append(place)
            return place

    def give(self, place: _Place) -> None:
        """The place an export held: free."""
        with self._lock:
            self._places.remove(place)

    @staticmethod
    def pieces(content: Iterator[bytes], place: _Place) -> Iterator[bytes]:
        """What an export sends, a piece at a time, until its place goes to another."""
        for block in content:
            for start in range(0, len(block), _EXPORT_PIECE):
                if place.taken:
                    raise _PlaceTaken
                yield block[start : start + _EXPORT_PIECE]


class Held(StreamingResponse):
    """A streamed answer that gives back what it holds (``done``) once it
    ends, however it ends: sent whole, its client gone, an error. An answer
    whose export's place went to another ends unfinished: the server closes
    the connection, so its client sees it cut off."""

    def __init__(self, content: Iterator[bytes], done: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.done = done

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except _PlaceTaken:
            pass  # (the answer is left unfinished: the server closes the connection)
        finally:
            self.done()


def _json(data: Any, status: int = 200) -> Response:
    return Response(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(),
        status_code=status,
        media_type="application/json",
    )


def add_friends_table_routes(
    app: FastAPI, store: FriendsTableStore, broker: Broker, limit: RateLimit, owners: Owners, exports: Exports
) -> None:
    """Register the friends' table API on ``app``."""

    def owner_of(request: Request) -> str:
        return owners.owner(request)  # "": a browser that only watches

    def view(table_id: str, table: FriendsTable, owner: str) -> dict[str, Any]:
        data = table.view(owner)
        data["id"] = table_id
        data["last_event"] = store.last_seq(table_id)
        return data

    def act(
        request: Request,
        table_id: str,
        request_id: str | None,
        action: Callable[[FriendsTable, str], Sequence[dict[str, Any]]],
        status: int = 200,
    ) -> Response:
        limit.check(request, "act")
        owner = owner_of(request)
        table, _, _ = store.act(table_id, owner, lambda t: (None, action(t, owner)), request_id=request_id)
        broker.notify(table_id)
        return _json(view(table_id, table, owner), status)

    @app.post("/api/tables", tags=["tables"], summary="Open a table (you are its host)", status_code=201)
    def api_new_table(request: Request, body: NewTableRequest) -> Response:
        limit.check(request, "create")
        claim = owners.claim(request)
        table = FriendsTable(
            rules=body.rules,
            points=body.points,
            tie=body.tie,
            rounds=body.rounds,
            seed=body.seed,
            host=claim.new,
            draw=body.draw,
        )
        table_id = store.create(table, claim.new, table.opened(), moved_from=claim.old, network=request_network(request))
        response = _json(view(table_id, table, claim.new), 201)
        response.headers["location"] = f"/api/tables/{table_id}"
        limit.moved(claim)
        remember_owner(response, claim)
        return response

    @app.get("/api/tables/{table_id}", tags=["tables"], summary="The table as this browser sees it")
    def api_table(table_id: str, request: Request) -> Response:
        owner = owner_of(request)
        return _json(view(table_id, store.load(table_id), owner))

    @app.post("/api/tables/{table_id}/seats", tags=["tables"], summary="Take a seat by name", status_code=201)
    def api_join(table_id: str, body: JoinRequest, request: Request) -> Response:
        limit.check(request, "create")
        claim = owners.claim(request)
        table, _, done = store.act(
            table_id,
            claim.new,
            lambda t: (None, t.join(claim.new, body.name)[1]),
            request_id=body.request_id,
            moved_from=claim.old,
        )
        if done:  # a retry of a seat this browser's secret took already: it keeps that secret
            return _json(view(table_id, table, claim.old), 201)
        broker.notify(table_id)
        response = _json(view(table_id, table, claim.new), 201)
        limit.moved(claim)
        remember_owner(response, claim)
        return response

    @app.delete("/api/tables/{table_id}/seats/{seat}", tags=["tables"], summary="The host removes a seat")
    def api_remove(
        table_id: str,
        request: Request,
        seat: Annotated[int, Path(ge=1, le=MAX_STORED, description="the seat's number"), Digits],
        request_id: str | None = Query(default=None, max_length=64, description="a retried request is applied once"),
    ) -> Response:
        return act(request, table_id, request_id, lambda t, owner: t.remove(owner, seat))

    @app.post("/api/tables/{table_id}/rounds", tags=["tables"], summary="The host starts the next round")
    def api_start(table_id: str, request: Request, body: Request_ | None = None) -> Response:
        return act(request, table_id, body.request_id if body else None, lambda t, owner: t.start_round(owner))

    @app.post("/api/tables/{table_id}/deal", tags=["tables"], summary="Deal your hand in the open round")
    def api_deal(table_id: str, request: Request, body: Request_ | None = None) -> Response:
        return act(request, table_id, body.request_id if body else None, lambda t, owner: t.deal(owner)[1])

    @app.get(
        "/api/tables/{table_id}/qr.svg",
        tags=["tables"],
        summary="The table's share link as a QR code (SVG), at the LAN address (serve --lan; else 404)",
        response_class=Response,
    )
    def api_qr(table_id: str, request: Request) -> Response:
        base: str | None = request.app.state.lan_url
        if base is None:  # (no code of a link a request's Host would choose: one drawn per name asked)
            raise NotFound("this server does not serve the local network: start it with fivecard serve --lan")
        store.load(table_id)  # 404 for no such table: no code drawn for any text
        return Response(
            share_qr(f"{base}tables/{table_id}"),
            media_type="image/svg+xml",
            headers={"cache-control": "no-cache"},
        )

    @app.post("/api/tables/{table_id}/draw", tags=["tables"], summary="Keep some of your cards, exchange the others (once)")
    def api_draw(table_id: str, body: DrawRequest, request: Request) -> Response:
        keep = [p - 1 for p in body.keep]
        return act(request, table_id, body.request_id, lambda t, owner: t.draw(owner, keep)[1])

    @app.post("/api/tables/{table_id}/close", tags=["tables"], summary="The host closes the open round")
    def api_close(table_id: str, request: Request, body: Request_ | None = None) -> Response:
        return act(request, table_id, body.request_id if body else None, lambda t, owner: t.close(owner))

    @app.post("/api/tables/{table_id}/end", tags=["tables"], summary="The host ends the table")
    def api_end(table_id: str, request: Request, body: Request_ | None = None) -> Response:
        return act(request, table_id, body.request_id if body else None, lambda t, owner: t.end(owner))

    @app.post("/api/tables/{table_id}/chat", tags=["tables"], summary="Say something at the table")
    def api_chat(table_id: str, body: ChatRequest, request: Request) -> Response:
        return act(request, table_id, body.request_id, lambda t, owner: t.chat(owner, body.text))

    @app.get(
        "/api/tables/{table_id}/events",
        tags=["tables"],
        summary="The table's events as Server-Sent Events, after Last-Event-ID (or ?after=N)",
        response_class=StreamingResponse,
    )
    async def api_events(
        table_id: str,
        request: Request,
        after: Annotated[int, Query(ge=0, le=MAX_STORED, description="the last event seen"), Digits] = 0,
        last_event_id: Annotated[
            int | None,
            Header(ge=0, le=MAX_STORED, description="the last event seen (a browser's EventSource sends it)"),
            Digits,
        ] = None,
    ) -> StreamingResponse:
        store.load(table_id)  # 404 for no such table, before the stream starts
        if broker.streams >= broker.max_streams:  # the page asks again in a moment
            raise AtCapacity(
                f"the server holds as many event streams as it can ({broker.max_streams:,}): try again in a moment"
            )
        seen = after if last_event_id is None else last_event_id
        return StreamingResponse(
            _stream(request, table_id, seen, store, broker, request_language(request)),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    @app.get(
        "/api/tables/{table_id}/export",
        tags=["tables"],
        summary="The table's rounds as CSV or JSON Lines",
        response_class=StreamingResponse,
    )
    def api_export(table_id: str, request: Request, format: str = "csv") -> StreamingResponse:
        if format not in ("csv", "jsonl"):
            raise GameError(f"export format is csv or jsonl, got {format!r}")
        table = store.load(table_id)  # 404 for no such table, before the answer starts
        network = request_network(request)
        place = exports.take(network)
        try:
            return Held(
                exports.pieces(_named_export(store, table_id, format, table.rules.name, _most_hands(table)), place),
                lambda: exports.give(place),
                media_type="text/csv; charset=utf-8" if format == "csv" else "application/x-ndjson",
                headers={"content-disposition": f'attachment; filename="fivecard-table-{table_id[:8]}.{format}"'},
            )
        except BaseException:
            exports.give(place)
            raise


@functools.lru_cache(maxsize=128)
def share_qr(link: str) -> bytes:
    """A link as a QR code in SVG (segno, imported only here; some 15 ms
    each to draw, so the latest are kept)."""
    import segno

    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=4, border=4, title="QR code of the table's link")
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class _Played:
    """What an export adds to ``fivecard solve``'s row of a round: per hand,
    in the order dealt, its seat and the seat's name; the hands (1-based)
    that won the round as it was settled, and its explanation as kept."""

    seats: tuple[int, ...]
    names: tuple[str, ...]
    winners: tuple[int, ...]
    explanation: str


def _round_lines(store: FriendsTableStore, table_id: str, played: dict[int, _Played] | None = None) -> Iterator[bytes]:
    """The table's closed rounds as the lines ``fivecard solve`` reads: a
    line per round (its number is the line number; a round nobody dealt is
    an empty line), its hands in seat order of dealing. Read by their type's
    index (no other event is read), :data:`_EXPORT_PAGE` at a time: each page's
    lines are given when the page before them has been taken, and the page
    is not held meanwhile. ``played``: each dealt round's seats and result
    are put there by its number as its line is given (the reader takes
    them out as it writes the round: it holds a page's at most)."""
    seq, following = 0, 1  # the last event read, the number of the next line
    while page := _public_events(store, table_id, seq, _EXPORT_PAGE, "round_closed"):
        seq, lines = page[-1][0], []
        for _, event in page:
            number = int(event["round"])
            if number >= following:  # (rounds close in order: each is read once)
                hands = event["hands"]
                lines.append("\n" * (number - following) + " | ".join(" ".join(h["cards"]) for h in hands) + "\n")
                following = number + 1
                if played is not None and hands:
                    seats = tuple(int(h["seat"]) for h in hands)
                    played[number] = _Played(
                        seats,
                        tuple(str(h["player"]) for h in hands),
                        tuple(seats.index(int(w)) + 1 for w in event.get("winners") or () if int(w) in seats),
                        str(event.get("explanation") or ""),
                    )
        text = "".join(lines).encode()
        del page, event, lines
        yield text


def _named_export(store: FriendsTableStore, table_id: str, format: str, rules: str, hands: int) -> Iterator[bytes]:
    """The table's export: ``fivecard solve``'s answer for its rounds
    (:func:`_round_lines`), with each hand called by its seat's name and
    room for ``hands`` hands a round (the most a round can hold: solve's
    first lines may hold fewer, and a round of a seat that joined later
    must not be an error row). CSV:
    a ``hand N player`` column before each hand's columns, the ``winner``
    the winners' names and the explanation naming them; JSON Lines: each
    hand's object opens with its ``seat`` and ``player``, the explanation
    names them. A round settled with one hand (solve classifies a line of
    one hand only) is won by it, as the table awarded it: its winner and
    explanation are the round's. Names are user input: every CSV cell is
    made inert (:func:`~fivecard.files.writers.cells.csv_line`: no
    formulas), as solve's are."""
    played: dict[int, _Played] = {}
    answer = solve_lines(_round_lines(store, table_id, played), format=format, rules=rules, hands=hands)
    name_line = _named_csv_line if format == "csv" else _named_json_line
    header: list[int] = []  # for CSV: the hands the header names
    rest = ""
    for piece in answer:
        *lines, rest = (rest + piece.decode()).split("\n")
        yield "".join(name_line(line, played, header) for line in lines).encode()
    if rest:
        yield name_line(rest, played, header).encode()


def _most_hands(table: FriendsTable) -> int:
    """The most hands a round of the table can hold: a hand a seat, as many
    seats as the table gave (removed ones too), at most :data:`MAX_SEATS`
    seated at once."""
    return max(1, min(len(table.seats), MAX_SEATS))


def _named_csv_line(line: str, played: dict[int, _Played], header: list[int]) -> str:
    """A line of solve's CSV answer named (see :func:`_named_export`); the
    first is the header, whose count of hands goes in ``header``. A hand
    past the header's sits after the ``error`` column, as solve puts it."""
    cells = next(csv.reader([line]), None)
    if cells is None:  # (an empty line: solve writes none)
        return ""
    if not header:  # line,input, per hand: sorted, category, score; winner, explanation, error
        hands = (len(cells) - 5) // 3
        header.append(hands)
        head = [f"hand {k + 1} player" for k in range(hands)]
        columns = (c for k in range(hands) for c in (head[k], *cells[2 + 3 * k : 5 + 3 * k]))
        return csv_line([*cells[:2], *columns, *cells[-3:]])
    hands = header[0]
    round_ = played.pop(int(cells[0]), None)
    if round_ is None:  # (no round: not a line solve made of a round's hands)
        return csv_line(cells)
    names = round_.names
    end = 2 + 3 * hands  # the winner column
    winner, explanation, error = cells[end : end + 3]
    if winner:
        winner = spoken_list([names[int(n) - 1] for n in winner.split(",")])
        explanation = name_hands(explanation, names)
    elif round_.winners and not error:  # one hand: solve classifies it only; the table awarded it
        winner = spoken_list([names[n - 1] for n in round_.winners])
        explanation = round_.explanation
    within, beyond = list(cells[:2]), list[str]()
    for k in range(max(len(names), hands)):
        at = 2 + 3 * k if k < hands else end + 3 + 3 * (k - hands)
        (within if k < hands else beyond).extend([names[k] if k < len(names) else "", *cells[at : at + 3]])
    return csv_line([*within, winner, explanation, error, *beyond])


def _named_json_line(line: str, played: dict[int, _Played], header: list[int]) -> str:
    """A line of solve's JSON Lines answer named (see :func:`_named_export`)."""
    if not line:  # (an empty line: solve writes none)
        return ""
    row = json.loads(line)
    round_ = played.pop(int(row["line"]), None)
    if round_ is None:
        return line + "\n"
    hands = row.get("hands") or []
    row["hands"] = [{"seat": seat, "player": name, **hand} for seat, name, hand in zip(round_.seats, round_.names, hands)]
    if row.get("winners"):
        row["explanation"] = name_hands(str(row["explanation"]), round_.names)
    elif round_.winners and "error" not in row:  # one hand: solve classifies it only; the table awarded it
        row.update(winners=list(round_.winners), order=[list(round_.winners)], explanation=round_.explanation)
    return json.dumps(row, ensure_ascii=False) + "\n"


async def _stream(
    request: Request, table_id: str, seen: int, store: FriendsTableStore, broker: Broker, lang: Language = ENGLISH
) -> AsyncIterator[bytes]:
    """A table's event stream, said in the language its browser asked for
    when it connected (:func:`~fivecard.web.i18n.request_language`: one of
    :data:`~fivecard.core.lang.LANGUAGES`, never the client's text)."""
    wake = broker.listen(table_id)
    try:
        yield b"retry: 1000\n\n"
        quiet = 0.0
        fresh = False
        while not broker.closing:
            wake.clear()
            try:
                frames = broker.frames_after(table_id, seen, store, fresh, lang)
            except StorageError:  # the stream ends; the browser asks again and is told why
                return
            fresh = False
            if frames:
                seen = frames[-1][0]
                quiet = 0.0
                yield b"".join(frame for _, frame in frames)
                continue
            try:
                async with asyncio.timeout(1.0):
                    await wake.wait()
            except TimeoutError:
                if await request.is_disconnected():
                    return
                fresh = True  # every second from the store itself: events another process wrote
                quiet += 1.0
                if quiet >= 15.0:  # a comment now and then keeps proxies from closing the stream
                    quiet = 0.0
                    yield b": keep-alive\n\n"
    finally:
        broker.stop(table_id, wake)
