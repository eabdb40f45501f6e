"""The HTTP server's own bounds: what uvicorn leaves unbounded, bounded here.

``fivecard serve`` runs the app under uvicorn with httptools' parser. Read
in their source (uvicorn 0.54, httptools 0.9, h11 0.16), that server

* bounds no request header: httptools gathers a header's name and value
  whole (appending each piece to the bytes so far) before it hands them on,
  so a client may send a header of any size and it is held in memory (h11,
  uvicorn's other parser, refuses an event over 16 KiB, as a 400), and so
  are a chunked body's trailer fields, header fields after its last chunk;
* parses every request a read brings (up to 256 KiB), each made a request
  cycle queued behind the answer being worked out (pipelined), however many;
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
across many) as well as one on its own: its line and headers, with its
trailer fields, at most ``header_bytes`` (431), within ``header_seconds``
of the connection's opening or of the previous answer (else 408, or closed
if nothing came; trailer fields within ``header_seconds`` of the last
chunk), a body within ``body_seconds`` of its headers or of the previous
answer, whichever is later (408; a refusal is sent after the answers before
it), ``read_ahead`` requests parsed ahead of their answers (the rest of what
the client sent waits unread, one read of it held, until the answers catch
up), a client that reads no answer for ``write_seconds`` closed, and at most
``connections`` connections:
one more closes the connection idle longest (waiting for a request), or, if
every connection is busy with a request (an event stream cannot be timed
out), is answered 503 and closed. One client address holds at most its
share of them (:attr:`Bounds.address_share`, an eighth; one more from it is
answered 503 and closed), so no one address takes them all (an address is
its network: an IPv6 client's /48, :func:`~fivecard.web.clients.client_network`). The app itself
bounds its event streams (:data:`Bounds.streams`), so some connections
always stay for everything else. A refused connection ends after its
answer: its side is closed, and what the client still sends is read and
dropped until the client closes, for :data:`LINGER_SECONDS` at most (closed
at once, with bytes unread, a connection is reset, and the reset could take
the answer away).
"""

from __future__ import annotations

import asyncio
import collections
import json
import resource
import weakref
from dataclasses import dataclass, field
from typing import Any, ClassVar

from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .clients import client_network

__all__ = ["Bounds", "GuardedHttpTools", "descriptor_limit", "raise_descriptor_limit"]

#: File descriptors kept for all but connections: the data file (three a
#: worker thread: the file, its WAL and its shared memory), the listening
#: socket, the event loop, logs, the static files being sent.
RESERVED_DESCRIPTORS = 200
#: Connections at most, however many descriptors the process may have.
MAX_CONNECTIONS = 4096
#: Seconds a refused connection reads (and drops) what its client still
#: sends, its answer sent and its side closed, before it is closed: a
#: connection closed with bytes unread is reset, and a reset can take the
#: answer away before the client has read it.
LINGER_SECONDS = 1.0


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
    #: Requests a connection holds parsed ahead of their answers (pipelined;
    #: at least one): the rest of what its client sent waits unread.
    read_ahead: int = 1
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


class _Flow(FlowControl):
    """uvicorn's flow control (reading paused while a request waits its
    turn, or while its body is more than its reader has taken), and one more
    reason to read nothing: the connection holds as many requests parsed
    ahead of their answers as it may, and what came after them
    (``holding``). uvicorn resumes reading when its reasons end (each time
    the app takes a body's part, or an answer is sent): not while holding."""

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__(transport)
        self.holding = False

    def resume_reading(self) -> None:
        if self.read_paused:
            self.read_paused = False
            if not self.holding:
                self._transport.resume_reading()

    def hold(self, holding: bool) -> None:
        """Hold what the client sends unread (or no longer)."""
        if holding != self.holding:
            self.holding = holding
            if holding:
                self._transport.pause_reading()
            elif not self.read_paused:
                self._transport.resume_reading()


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
        # A chunked body's framing, read as it is fed: where its next size line
        # is, and whether its last chunk has come (then come its trailer
        # fields, header fields the parser gathers whole: counted as headers).
        self._chunk_left = 0  # bytes of the current chunk, and its CRLF, still to come
        self._size_line = b""  # the start of a chunk's size line read so far
        self._trailing = False  # the trailer fields are being read
        # What the client sent past the requests read ahead of their answers:
        # held unparsed (one read at most: reading waits meanwhile).
        self._unread = b""
        # The connection's clock: one deadline at a time, for what it waits for from the client.
        self._since = 0.0  # when this connection last began to wait for a request
        self._timer: asyncio.TimerHandle | None = None  # the header or the body deadline
        self._timing: str | None = None  # what the timer waits for: "headers", "body" or "trailer"
        self._refusal: bytes | None = None  # a refusal that waits for the answers before it to be sent
        self._ending = False  # refused: its answer sent, what the client sends is dropped until it closes
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
            return None if self._queued() else "trailer" if self._trailing else "body"
        return None if self._answering() else "headers"

    def _queued(self) -> bool:
        """The request being read waits for the answers before it."""
        return any(cycle is self.cycle for cycle, _ in self.pipeline)

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
        elif waiting == "trailer":  # header fields: on the headers' clock, from the body's last chunk
            self._timer = self.loop.call_later(self.bounds.header_seconds, self._trailer_late)
        self._timing = waiting

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timing = None

    def _refuse(self, status: bytes, detail: str) -> None:
        self._disarm()
        if not self.transport.is_closing() and not self._ending:
            self.transport.write(_answer(status, detail))
            self._end()

    def _end(self) -> None:
        """End the connection after what is written to it: the client is
        told the end (its side closed, once the answer is sent) and nothing
        more is answered; what it still sends is read and dropped until it
        closes, for :data:`LINGER_SECONDS` at most (a connection closed with
        bytes unread is reset, and a reset may take the answer with it)."""
        self._disarm()
        self._ending, self._unread = True, b""
        self.pipeline.clear()
        if self.cycle is not None:  # its app is told the client has gone: what it still sends is dropped
            self.cycle.disconnected, self.cycle.waiting_for_100_continue = True, False
            self.cycle.message_event.set()
        if not self.transport.can_write_eof():  # (TLS: closed at once)
            self.transport.close()
            return
        self.transport.write_eof()
        self.transport.resume_reading()
        self._timer = self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def _refuse_in_turn(self, status: bytes, detail: str) -> None:
        """Refuse the request being read, and end the connection: at once,
        or after the answers to the requests before it (pipelined) are sent;
        what the client sends meanwhile is dropped. A request whose headers
        are in (its body or trailer fields refused) is answered no more: it
        waits no longer, if it waits its turn; if it is being answered and
        its answer has begun, the connection ends without a refusal (an
        answer cannot be taken back)."""
        self._disarm()
        if self._headed and not self._queued():  # it is being answered
            if self.cycle.response_started:
                self.transport.close()
            else:
                self._refuse(status, detail)
            return
        if self._headed:
            self.cycle.response_complete = True  # (never run: its refusal is sent in its turn)
        if self._answering():
            self._refusal = _answer(status, detail)
        else:
            self._refuse(status, detail)

    def _headers_late(self) -> None:
        if self._header_bytes:
            self._refuse(b"408 Request Timeout", f"the request's headers did not come within {self.bounds.header_seconds:g} s")
        elif not self.transport.is_closing():
            self.transport.close()  # idle: nothing to answer

    def _body_late(self) -> None:
        self._refuse_in_turn(b"408 Request Timeout", f"the request's body did not come within {self.bounds.body_seconds:g} s")

    def _trailer_late(self) -> None:
        self._refuse_in_turn(
            b"408 Request Timeout", f"the request's trailer fields did not come within {self.bounds.header_seconds:g} s"
        )

    # -- uvicorn's protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.flow = self._flow = _Flow(transport)
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
        self._unread = b""
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
        headers up to their blank line, a body up to its length (chunked: a
        chunk at a time, by its size line, and its trailer fields, after its
        last chunk, up to their blank line). The parser takes lines ending
        in CRLF only, so a request ends at a cut: each request's line,
        headers and trailer fields are counted whole, whichever read brings
        them and whatever came before them in it. At most
        :attr:`Bounds.read_ahead` requests are parsed ahead of their
        answers: past them, what the client sent is held unparsed, and
        reading waits, until the answers catch up."""
        if self._ending:  # refused: dropped
            return
        if self._unread:  # (reading waits while bytes are held: none should come)
            self._unread += data
            return
        while data and self._refusal is None and self.parser is not None and not self.transport.is_closing():
            if not self._reading and len(self.pipeline) >= self.bounds.read_ahead:
                self._unread = data
                self._flow.hold(True)
                return
            trailing = self._trailing
            if not (self._reading and self._headed) or trailing:  # the line and headers, or the trailer fields
                cut = self._through_blank_line(data)
                self._header_bytes += cut
                if self._header_bytes > self.bounds.header_bytes:
                    fields = "line, headers and trailer fields" if trailing else "line and headers"
                    self._refuse_in_turn(
                        b"431 Request Header Fields Too Large",
                        f"the request's {fields} are over {self.bounds.header_bytes:,} bytes",
                    )
                    return
            elif self._body_left is not None:
                cut = min(len(data), max(1, self._body_left))
            else:
                cut = self._through_chunk(data)
            piece, data = data[:cut], data[cut:]
            self._tail = (self._tail + piece)[-3:]  # before the parser: its callbacks reset it
            super().data_received(piece)
            if self._trailing and not trailing:
                self._tail = b"\r\n"  # the last chunk's line ended: a blank line now ends the trailer
                self._keep_time()

    def _through_blank_line(self, data: bytes) -> int:
        """How much of ``data`` to feed: through the first blank line (CRLF CRLF), else all."""
        end = (self._tail + data).find(b"\r\n\r\n")
        return len(data) if end < 0 else end + 4 - len(self._tail)

    def _through_chunk(self, data: bytes) -> int:
        """How much of ``data`` (of a chunked body) to feed: the rest of a
        chunk, or of a size line (then the chunk's size is known); the last
        chunk's size line ends the body (its trailer fields follow)."""
        if self._chunk_left:
            cut = min(len(data), self._chunk_left)
            self._chunk_left -= cut
            return cut
        end = data.find(b"\n")
        # Its size comes first, in hex (the parser takes any number of
        # leading zeros, and refuses more than 16 digits after them, or none).
        self._size_line = (self._size_line + (data if end < 0 else data[:end])).lstrip(b"0")[:32]
        if end < 0:
            return len(data)
        line, self._size_line = self._size_line, b""
        size = int(line[: len(line) - len(line.lstrip(b"0123456789abcdefABCDEF"))] or b"0", 16)
        if size:
            self._chunk_left = size + 2  # its data, then CRLF
        else:
            self._trailing = True
        return end + 1

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
        self._chunk_left, self._size_line, self._trailing = 0, b"", False
        super().on_message_complete()
        self._keep_time()  # the request is in: its answer takes as long as it takes; the next one's clock starts after it

    def on_response_complete(self) -> None:
        # A refusal waits for every answer before it: the requests still
        # queued are all answered (or one is the refused one, never run).
        if self._refusal is not None and all(cycle.response_complete for cycle, _ in self.pipeline):
            if not self.transport.is_closing() and not self._ending:
                self.transport.write(self._refusal)
                self._end()
        if self._ending:
            return
        super().on_response_complete()  # (the next request queued, if any, is answered; not once closing)
        if not self.transport.is_closing():
            self._keep_time()
            if self._unread:
                self.loop.call_soon(self._read_held)

    def _read_held(self) -> None:
        """An answer is sent: parse what was held, as far as the requests
        read ahead may go, and read on once nothing is held."""
        if self._unread and not self.transport.is_closing():
            data, self._unread = self._unread, b""
            self.data_received(data)
            if not self._unread:
                self._flow.hold(False)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_timer is None:  # the client reads no answer: not for ever (and what waits is dropped)
            self._write_timer = self.loop.call_later(self.bounds.write_seconds, self.transport.abort)

    def resume_writing(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None
        super().resume_writing()
