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
bounds (:class:`Bounds`): the request line and headers at most
``header_bytes`` (431), within ``header_seconds`` of the connection's
first byte or of the previous answer (else 408, or closed if nothing came),
a body within ``body_seconds`` of its headers (408), a client that reads no
answer for ``write_seconds`` closed, and at most ``connections`` connections:
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
        self._reading = False  # a request is being read (its first byte came)
        self._headed = False  # ... and its headers are in
        self._header_bytes = 0  # bytes of the next request's line and headers so far
        self._tail = b""  # the last bytes of them (a header end split between reads)
        self._since = 0.0  # when this connection last began to wait for a request
        self._timer: asyncio.TimerHandle | None = None  # the header or the body deadline
        self._write_timer: asyncio.TimerHandle | None = None

    # -- where a connection is ---------------------------------------------------------------

    def _answering(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete or bool(self.pipeline)

    def _idle(self) -> bool:
        """Waiting for a request (or its headers): a connection that may be closed to make room."""
        return not (self._reading and self._headed) and not self._answering() and not self.transport.is_closing()

    def _wait_for_a_request(self) -> None:
        self._since = self.loop.time()
        self._arm(self.bounds.header_seconds, self._headers_late)

    def _arm(self, seconds: float, then: Any) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, then)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _refuse(self, status: bytes, detail: str) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_answer(status, detail))
            self.transport.close()

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
        self._wait_for_a_request()
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
        if not (self._reading and self._headed):  # a request line and headers are coming
            seen = self._tail + data
            end = seen.find(b"\r\n\r\n")
            self._header_bytes += len(data) if end < 0 else max(0, end + 4 - len(self._tail))
            self._tail = seen[-3:]
            if self._header_bytes > self.bounds.header_bytes:
                self._refuse(
                    b"431 Request Header Fields Too Large",
                    f"the request's line and headers are over {self.bounds.header_bytes:,} bytes",
                )
                return
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._reading, self._headed = True, False
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._headed, self._header_bytes, self._tail = True, 0, b""
        self._arm(self.bounds.body_seconds, self._body_late)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._reading = False
        self._disarm()  # the request is in: its answer takes as long as it takes
        super().on_message_complete()
        if not self._answering():  # answered before its body was all in
            self._wait_for_a_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self._reading and not self._answering() and not self.transport.is_closing():
            self._wait_for_a_request()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_timer is None:  # the client reads no answer: not for ever (and what waits is dropped)
            self._write_timer = self.loop.call_later(self.bounds.write_seconds, self.transport.abort)

    def resume_writing(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None
        super().resume_writing()
