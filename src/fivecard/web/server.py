"""The HTTP server's own bounds: what uvicorn leaves unbounded, bounded here.

``fivecard serve`` runs the app under uvicorn with httptools' parser. Read
in their source (uvicorn 0.54, httptools 0.9, h11 0.16), that server

* bounds no request header: httptools gathers a header's name and value
  whole (appending each piece to the bytes so far) before it hands them on,
  so a client may send a header of any size and it is held in memory (h11,
  uvicorn's other parser, refuses an event over 16 KiB, as a 400);
* times out only an idle connection *between* requests (``timeout_keep_alive``,
  armed when a response ends and disarmed by any byte): a connection that
  never sends a whole request, one byte at a time or not at all, is held for
  ever, and so is a body that never ends (both parsers alike);
* holds as many connections as the process has file descriptors: at the
  limit the accept loop fails and every new client, however well-behaved,
  waits or is reset (``limit_concurrency`` answers 503 but still holds each
  connection).

:class:`GuardedHttpTools` is uvicorn's httptools protocol with those
bounds (:class:`Bounds`), met by every request on a connection, one sent
before the previous one is answered (pipelined, several in one read or one
across many) as well as one on its own: its line and headers at most
``header_bytes`` (431), within ``header_seconds`` of the connection's
opening or of the previous answer (else 408, or closed if nothing came), a
body within ``body_seconds`` of its headers or of the previous answer,
whichever is later (408; a refusal is sent after the answers before it),
a client that reads no answer for ``write_seconds`` closed, and at most
``connections`` connections:
one more closes the connection idle longest (waiting for a request), or, if
every connection is busy with a request (an event stream cannot be timed
out), is answered 503 and closed. One client address holds at most its
share of them (:attr:`Bounds.address_share`, an eighth; one more from it is
answered 503 and closed), so no one address takes them all (an address is
its network: an IPv6 client's /64, :func:`~fivecard.web.clients.client_network`). The app itself
bounds its event streams (:data:`Bounds.streams`), so some connections
always stay for everything else.
"""

from __future__ import annotations

import asyncio
import collections
import json
import resource
import weakref
from dataclasses import dataclass, field
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .clients import client_network

__all__ = ["Bounds", "GuardedHttpTools", "descriptor_limit", "raise_descriptor_limit"]

#: File descriptors kept for all but connections: the data file (three a
#: worker thread: the file, its WAL and its shared memory), the listening
#: socket, the event loop, logs, the static files being sent.
RESERVED_DESCRIPTORS = 200
#: Connections at most, however many descriptors the process may have.
MAX_CONNECTIONS = 4096


def descriptor_limit() -> int:
    """The process's limit on open files (its soft limit)."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_descriptor_limit() -> int:
    """Raise the process's soft limit on open files to its hard limit (as
    servers do: many systems start processes at 1,024); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return soft
    return descriptor_limit()


def _connections() -> int:
    return max(32, min(MAX_CONNECTIONS, descriptor_limit() - RESERVED_DESCRIPTORS))


@dataclass(frozen=True)
class Bounds:
    """How much one connection, and all of them, may hold of the server."""

    header_bytes: int = 16 * 1024
    header_seconds: float = 10.0
    body_seconds: float = 30.0
    write_seconds: float = 30.0
    connections: int = field(default_factory=_connections)
    #: Connections one client address may hold (None: :attr:`address_share`'s rule).
    per_address: int | None = None

    @property
    def streams(self) -> int:
        """Event streams at once: three quarters of the connections (the
        rest always stay for pages and actions)."""
        return max(1, self.connections * 3 // 4)

    @property
    def address_share(self) -> int:
        """Connections one client address may hold at once: ``per_address``,
        else an eighth of the connections, and at least 8 (a browser opens
        up to six to a server, and an event stream)."""
        return self.per_address if self.per_address is not None else max(8, self.connections // 8)


def _answer(status: bytes, detail: str) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\ncontent-length: "
        + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
    )


#: The connections each client address holds, by server (its uvicorn state).
_BY_ADDRESS: weakref.WeakKeyDictionary[object, collections.Counter[str]] = weakref.WeakKeyDictionary()


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol within :attr:`bounds` (a subclass may
    set others)."""

    bounds: ClassVar[Bounds] = Bounds()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._address: str | None = None  # the client's address, while counted in _BY_ADDRESS
        # The request being read: a connection may carry one request after
        # another, several in one read (pipelined) or one across many, so
        # this is set afresh at the end of every request (on_message_complete).
        self._reading = False  # a request is being read (its first byte came)
        self._headed = False  # ... and its headers are in
        self._header_bytes = 0  # bytes of its line and headers so far
        self._tail = b""  # its last bytes fed (a blank line may be split between reads)
        self._body_left: int | None = None  # bytes of its body still to come, when its content-length says
        # The connection's clock: one deadline at a time, for what it waits for from the client.
        self._since = 0.0  # when this connection last began to wait for a request
        self._timer: asyncio.TimerHandle | None = None  # the header or the body deadline
        self._timing: str | None = None  # what the timer waits for: "headers" or "body"
        self._refusal: bytes | None = None  # a refusal that waits for the answers before it to be sent
        self._write_timer: asyncio.TimerHandle | None = None

    # -- where a connection is ---------------------------------------------------------------

    def _answering(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete or bool(self.pipeline)

    def _idle(self) -> bool:
        """Waiting for a request (or its headers): a connection that may be closed to make room."""
        return not (self._reading and self._headed) and not self._answering() and not self.transport.is_closing()

    def _waiting_for(self) -> str | None:
        """What the connection waits for from the client, on a deadline:
        ``"headers"`` (a request, or the rest of its line and headers),
        ``"body"`` (the rest of the body of the request being answered), or
        nothing (closing, or an answer is still to be sent before the
        request being read: a pipelined request's clock starts when the
        answers before it are sent, as a request's on its own connection
        starts after the previous answer)."""
        if self.transport.is_closing() or self._refusal is not None:
            return None
        if self._reading and self._headed:
            queued = any(cycle is self.cycle for cycle, _ in self.pipeline)
            return None if queued else "body"
        return None if self._answering() else "headers"

    def _keep_time(self) -> None:
        """Arm the deadline for what the connection now waits for (a
        deadline already running for the same thing runs on)."""
        waiting = self._waiting_for()
        if waiting == self._timing:
            return
        self._disarm()
        if waiting == "headers":
            self._since = self.loop.time()
            self._timer = self.loop.call_later(self.bounds.header_seconds, self._headers_late)
        elif waiting == "body":
            self._timer = self.loop.call_later(self.bounds.body_seconds, self._body_late)
        self._timing = waiting

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timing = None

    def _refuse(self, status: bytes, detail: str) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_answer(status, detail))
            self.transport.close()

    def _refuse_in_turn(self, status: bytes, detail: str) -> None:
        """Refuse the request being read, and end the connection: at once,
        or after the answers to the requests before it (pipelined) are sent;
        what the client sends meanwhile is dropped."""
        if self._answering():
            self._disarm()
            self._refusal = _answer(status, detail)
        else:
            self._refuse(status, detail)

    def _headers_late(self) -> None:
        if self._header_bytes:
            self._refuse(b"408 Request Timeout", f"the request's headers did not come within {self.bounds.header_seconds:g} s")
        elif not self.transport.is_closing():
            self.transport.close()  # idle: nothing to answer

    def _body_late(self) -> None:
        self._refuse(b"408 Request Timeout", f"the request's body did not come within {self.bounds.body_seconds:g} s")

    # -- uvicorn's protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._keep_time()
        held = _BY_ADDRESS.setdefault(self.server_state, collections.Counter())
        self._address = client_network(self.client[0] if self.client else "")
        held[self._address] += 1
        if held[self._address] > self.bounds.address_share:
            self._refuse(
                b"503 Service Unavailable",
                f"this address holds as many connections as one address may ({self.bounds.address_share:,}): "
                "close some, or try again in a moment",
            )
        elif len(self.connections) > self.bounds.connections:
            self._make_room()

    def _make_room(self) -> None:
        """Close the connection idle longest; or refuse this one if every other is busy."""
        idle = [c for c in self.connections if isinstance(c, GuardedHttpTools) and c is not self and c._idle()]
        if idle:
            oldest = min(idle, key=lambda c: c._since)
            oldest._disarm()
            oldest.transport.close()
        else:
            self._refuse(b"503 Service Unavailable", "the server holds as many connections as it can: try again in a moment")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._address is not None:
            held = _BY_ADDRESS.get(self.server_state)
            if held is not None:
                held[self._address] -= 1
                if held[self._address] <= 0:
                    del held[self._address]
            self._address = None
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Feed the parser one request's part at a time: a request line and
        headers up to their blank line, a body up to its length (or, chunked,
        up to a blank line: its last chunk ends in one). The parser takes
        lines ending in CRLF only, so a request ends at a cut: each request's
        line and headers are counted whole, whichever read brings them and
        whatever came before them in it."""
        while data and self._refusal is None and self.parser is not None and not self.transport.is_closing():
            if self._reading and self._headed:  # a body
                cut = self._through_blank_line(data) if self._body_left is None else min(len(data), max(1, self._body_left))
            else:
                cut = self._through_blank_line(data)
                self._header_bytes += cut
                if self._header_bytes > self.bounds.header_bytes:
                    self._refuse_in_turn(
                        b"431 Request Header Fields Too Large",
                        f"the request's line and headers are over {self.bounds.header_bytes:,} bytes",
                    )
                    return
            piece, data = data[:cut], data[cut:]
            self._tail = (self._tail + piece)[-3:]  # before the parser: its callbacks reset it
            super().data_received(piece)

    def _through_blank_line(self, data: bytes) -> int:
        """How much of ``data`` to feed: through the first blank line (CRLF CRLF), else all."""
        end = (self._tail + data).find(b"\r\n\r\n")
        return len(data) if end < 0 else end + 4 - len(self._tail)

    def on_message_begin(self) -> None:
        self._reading, self._headed = True, False
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._headed, self._tail = True, b""
        length = next((value for name, value in self.headers if name == b"content-length"), None)
        try:
            self._body_left = int(length) if length is not None else None  # (the parser has checked it)
        except ValueError:
            self._body_left = None
        super().on_headers_complete()
        self._keep_time()

    def on_body(self, body: bytes) -> None:
        if self._body_left is not None:
            self._body_left -= len(body)
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._reading, self._headed, self._header_bytes, self._tail, self._body_left = False, False, 0, b"", None
        super().on_message_complete()
        self._keep_time()  # the request is in: its answer takes as long as it takes; the next one's clock starts after it

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._refusal is not None and not self._answering() and not self.transport.is_closing():
            self.transport.write(self._refusal)
            self.transport.close()
        else:
            self._keep_time()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_timer is None:  # the client reads no answer: not for ever (and what waits is dropped)
            self._write_timer = self.loop.call_later(self.bounds.write_seconds, self.transport.abort)

    def resume_writing(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None
        super().resume_writing()
