"""The HTTP server's bounds (:mod:`fivecard.web.server`), with real sockets
against the app under uvicorn with :class:`GuardedHttpTools` (small bounds,
so that each limit is met at once): request headers, with a chunked
body's trailer fields, are bounded in size (431) and in time (408, or
closed when nothing came), and so is a body (408), for every request on a
connection, pipelined ones too (sent before the previous answer, several
in a read or one across reads), few of them parsed ahead of their answers
(the rest waits unread); an event stream, which cannot be timed out, is
not; past the connection limit the idlest connection makes room, or the
new one is told 503 when every other is busy; one address holds no more
than its share of the connections (503); event streams are bounded apart
(503); a client that reads no answer is let go."""

from __future__ import annotations

import json
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import uvicorn

import fivecard.play.advise
import fivecard.web.app
import fivecard.web.server
from fivecard.web.app import create_app
from helpers import held_advisor  # noqa: F401  (a fixture)
from fivecard.web.server import Bounds, GuardedHttpTools, descriptor_limit
from fivecard.web.friends_api import RateLimit

#: The longest a test waits for the server to do what its bounds say (it does it well before).
PATIENCE = 10.0


class Running:
    """The app under uvicorn in a thread, on 127.0.0.1, within ``bounds``."""

    def __init__(self, data: Path, bounds: Bounds, send_buffer: int | None = None) -> None:
        self.app = create_app(data, bounds=bounds, limit=RateLimit(burst=10_000, rate=1000.0), allow_hosts=["testserver"])

        class Protocol(GuardedHttpTools):
            pass

        Protocol.bounds = bounds
        listening = socket.socket()
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if send_buffer:  # accepted connections inherit it: a slow reader fills it soon
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        listening.bind(("127.0.0.1", 0))
        listening.listen(256)
        self.port = listening.getsockname()[1]
        config = uvicorn.Config(
            self.app, http=Protocol, ws="none", lifespan="off", log_level="critical", timeout_keep_alive=5
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listening]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + PATIENCE
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        """A connection from ``source`` (any address of the loopback network)."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=PATIENCE, source_address=(source, 0))

    def until(self, holds: Any) -> None:
        """Wait until ``holds(connections)`` is true of the server's connections."""
        deadline = time.monotonic() + PATIENCE
        while not holds(list(self.server.server_state.connections)):
            assert time.monotonic() < deadline, "the server never got there"
            time.sleep(0.01)

    def stop(self) -> None:
        self.app.state.broker.close()
        self.server.should_exit = True
        self.thread.join(PATIENCE)


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[Any]:
    running: list[Running] = []

    def start(bounds: Bounds, send_buffer: int | None = None) -> Running:
        running.append(Running(tmp_path / f"data{len(running)}", bounds, send_buffer))
        return running[-1]

    yield start
    for server in running:
        server.stop()


def answer(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := conn.recv(65536):
        received += chunk
    return received


def first_answer(conn: socket.socket) -> tuple[int, bytes]:
    """The status and body of the next answer on a kept-alive connection."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += conn.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += conn.recv(65536)
    return int(head.split()[1]), body


def closed(conn: socket.socket) -> bool:
    """Whether the server has closed the connection (waiting for it, at most PATIENCE)."""
    try:
        return conn.recv(65536) == b""
    except ConnectionResetError:
        return True


def status(received: bytes) -> int:
    return int(received.split(b" ", 2)[1])


GET = b"GET /static/app.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def test_headers_over_the_limit_are_431_and_never_gathered(serving: Any) -> None:
    server = serving(Bounds(header_bytes=2048))
    conn = server.connect()
    conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 4096)
    received = answer(conn)
    assert status(received) == 431
    assert json.loads(received.split(b"\r\n\r\n", 1)[1]) == {"detail": "the request's line and headers are over 2,048 bytes"}
    # a request line alone over the limit too
    conn = server.connect()
    conn.sendall(b"GET /" + b"x" * 4096)
    assert status(answer(conn)) == 431


@pytest.mark.slow
def test_a_body_in_the_same_packet_as_its_headers_is_not_counted_as_headers(serving: Any) -> None:
    server = serving(Bounds(header_bytes=1024))
    body = json.dumps({"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"], "pad": "x" * 40_000}).encode()
    head = f"POST /api/compare HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
    conn = server.connect()
    for _ in range(3):  # kept alive: each request's headers counted afresh
        conn.sendall(head.encode() + body)
        code, data = first_answer(conn)
        assert code == 200 and json.loads(data)["winners"] == [1]


@pytest.mark.slow
def test_headers_that_never_end_are_408(serving: Any) -> None:
    server = serving(Bounds(header_seconds=0.3))
    conn = server.connect()
    conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
    received = answer(conn)
    assert status(received) == 408 and b"did not come within 0.3 s" in received


@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_closed(serving: Any) -> None:
    server = serving(Bounds(header_seconds=0.3))
    conn = server.connect()
    assert answer(conn) == b""  # closed, nothing to answer
    kept = server.connect()
    kept.sendall(GET)
    assert first_answer(kept)[0] == 200
    assert closed(kept)  # idle after its answer: closed too, in time


@pytest.mark.slow
def test_a_body_that_never_ends_is_408(serving: Any) -> None:
    server = serving(Bounds(body_seconds=0.3))
    conn = server.connect()
    conn.sendall(b"POST /api/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{")
    received = answer(conn)
    assert status(received) == 408 and b"body did not come within 0.3 s" in received


# --- pipelined requests: each one meets the bounds, whatever came before it in its read ------


def answers(conn: socket.socket, most: int) -> list[int]:
    """The statuses of the answers on ``conn``, in order: ``most`` of them,
    or as many as came before the server closed the connection."""
    received, found = b"", list[int]()
    while len(found) < most:
        end = received.find(b"\r\n\r\n")
        if end >= 0:
            head = received[:end]
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
            if len(received) >= end + 4 + length:
                found.append(status(head))
                received = received[end + 4 + length :]
                continue
        try:
            chunk = conn.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return found


def _get(port: int, path: str = "/static/favicon.svg") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


@pytest.mark.slow
def test_a_pipelined_requests_headers_meet_the_deadline(serving: Any) -> None:
    """A request sent before the previous one is answered: its headers never
    end, and a byte now and then (each disarms uvicorn's keep-alive timer)
    would hold the connection past the deadline (measured on ``fivecard
    serve`` before the deadline was per request: alive after 32 s, the
    bound is 10 s)."""
    server = serving(Bounds(header_seconds=0.3))
    conn = server.connect()
    conn.sendall(_get(server.port) + f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-A: ".encode())
    assert first_answer(conn)[0] == 200
    conn.settimeout(0.25)
    ended = b""
    deadline = time.monotonic() + 3.0  # ten times the deadline
    while time.monotonic() < deadline:
        try:
            chunk = conn.recv(65536)
        except TimeoutError:
            chunk = None
        if chunk == b"":
            break
        if chunk:
            ended += chunk
            break
        try:
            conn.sendall(b"a")
        except OSError:
            break
    else:
        pytest.fail("the pipelined request's headers were still coming 3 s on (the deadline is 0.3 s)")
    assert not ended or status(ended) == 408


def test_a_pipelined_requests_headers_are_counted(serving: Any) -> None:
    """A second request in the same packet as the first has its headers
    counted as the first has (measured before they were: 100 KB answered
    200 where the bound is 16 KiB); the first is answered before the
    second is refused."""
    server = serving(Bounds(header_bytes=2048))
    conn = server.connect()
    big = f"GET /static/favicon.svg HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Big: ".encode() + b"a" * 8192 + b"\r\n\r\n"
    conn.sendall(_get(server.port) + big)
    assert answers(conn, 3) == [200, 431]


@pytest.mark.slow
def test_every_one_of_three_pipelined_requests_meets_the_header_bounds(serving: Any) -> None:
    server = serving(Bounds(header_bytes=2048, header_seconds=0.3))
    big = f"GET /static/favicon.svg HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Big: ".encode() + b"a" * 4096 + b"\r\n\r\n"
    conn = server.connect()
    conn.sendall(_get(server.port) * 2 + big)
    assert answers(conn, 4) == [200, 200, 431]
    conn = server.connect()
    conn.sendall(_get(server.port) + big + _get(server.port))
    assert answers(conn, 4) == [200, 431]  # and nothing after the refusal
    conn = server.connect()
    started = time.monotonic()
    conn.sendall(_get(server.port) * 2 + f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-A: ".encode())
    assert answers(conn, 4) == [200, 200, 408]
    assert time.monotonic() - started < 3.0


@pytest.mark.slow
def test_a_pipelined_requests_body_meets_the_deadline(serving: Any) -> None:
    server = serving(Bounds(body_seconds=0.3))
    conn = server.connect()
    conn.sendall(
        _get(server.port)
        + b"POST /api/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"
    )
    assert answers(conn, 3) == [200, 408]


@pytest.mark.slow
def test_a_pipelined_request_is_not_timed_while_the_answers_before_it_are_worked_out(
    serving: Any, held_advisor: threading.Event
) -> None:
    """A pipelined request cannot be answered before its turn (uvicorn
    means to read no more of the connection meanwhile): its clock starts
    when the answers before it are sent, as a request's on a connection of
    its own starts after the previous answer. Here its body comes after
    its deadline would have passed, counted from its headers, and before
    the answer ahead of it is sent."""
    server = serving(Bounds(header_seconds=0.3, body_seconds=0.3))
    advise = json.dumps({"hand": "AS KS QS JS TS", "top": 1}).encode()
    compare = json.dumps({"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"]}).encode()
    conn = server.connect()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn.sendall(
        b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        + f"content-length: {len(advise)}\r\n\r\n".encode() + advise
        + b"POST /api/compare HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        + f"content-length: {len(compare)}\r\n\r\n".encode()
    )
    time.sleep(0.5)
    conn.sendall(compare)  # its headers came 0.5 s ago; the answer ahead of it is not sent
    time.sleep(0.5)
    held_advisor.set()
    assert answers(conn, 2) == [200, 200]


HEADER_BYTES = 1024


def _head(port: int, size: int) -> bytes:
    """A GET whose line and headers are ``size`` bytes, blank line included."""
    bare = _get(port)
    pad = size - len(bare) - len(b"X-Pad: \r\n")
    return bare[:-2] + b"X-Pad: " + b"p" * pad + b"\r\n\r\n"


def _behind(kind: str) -> bytes:
    """A request that comes first: a GET, or a POST whose body (longer than
    the header bound) has blank lines in it."""
    if kind == "get":
        return _get(0, "/static/app.css")
    body = b'{"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"],\r\n\r\n"pad": "' + b"x" * 2 * HEADER_BYTES + b'"\r\n\r\n}'
    head = b"POST /api/compare HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    if kind == "length":
        return head + f"content-length: {len(body)}\r\n\r\n".encode() + body
    chunks = [body[:20], body[20:60], body[60:]]  # the first chunk's data ends in the body's blank line
    return head + b"transfer-encoding: chunked\r\n\r\n" + b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"


def _cuts(stream: bytes, offsets: tuple[int, ...]) -> list[bytes]:
    """``stream`` in pieces, cut ``offsets`` from every blank line's end."""
    ends, at = [], stream.find(b"\r\n\r\n")
    while at >= 0:
        ends.append(at + 4)
        at = stream.find(b"\r\n\r\n", at + 1)
    cuts = sorted({e + d for e in ends for d in offsets if 0 < e + d < len(stream)})
    return [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]


@pytest.mark.parametrize("offsets", [(), (0,), (-1,), (-2, 1), (-3, -1, 2)], ids=["whole", "at", "-1", "-2+1", "-3-1+2"])
@pytest.mark.parametrize("first", ["get", "length", "chunked"])
@pytest.mark.slow
def test_each_pipelined_requests_headers_are_counted_exactly_wherever_the_reads_split_them(
    serving: Any, first: str, offsets: tuple[int, ...]
) -> None:
    """A request of exactly the bound's bytes of line and headers is
    answered, one of a byte more is 431, behind any request (a body is not
    counted, blank lines in it or not), the stream cut into reads at and
    around every blank line."""
    server = serving(Bounds(header_bytes=HEADER_BYTES))
    assert len(_head(server.port, HEADER_BYTES)) == HEADER_BYTES
    for last, expected in ((HEADER_BYTES, [200, 200, 200]), (HEADER_BYTES + 1, [200, 200, 431])):
        conn = server.connect()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for piece in _cuts(_behind(first) + _head(server.port, HEADER_BYTES) + _head(server.port, last), offsets):
            conn.sendall(piece)
            time.sleep(0.005)  # (each piece a read of its own, mostly)
        assert answers(conn, 3) == expected, (first, last)
        if last > HEADER_BYTES:
            assert closed(conn)


# --- a chunked body's trailer fields: headers, bounded as headers are ----------------------------


def _chunked(body: bytes, trailer: bytes = b"", ended: bool = True, head: bytes = b"") -> bytes:
    """A POST to /api/compare of ``body`` in two chunks, then ``trailer``
    (its fields, each ending in CRLF) and, ``ended``, the blank line."""
    chunks = [body[:10], body[10:]]
    return (
        b"POST /api/compare HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        + head + b"transfer-encoding: chunked\r\n\r\n"
        + b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n" + trailer + (b"\r\n" if ended else b"")
    )  # fmt: skip


COMPARE = json.dumps({"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"]}).encode()


@pytest.mark.parametrize("ended", [True, False], ids=["a-trailer-that-ends", "a-trailer-that-never-ends"])
def test_a_chunked_requests_trailer_fields_are_bounded_as_its_headers_are(serving: Any, ended: bool) -> None:
    """Trailer fields (after a chunked body's last chunk) are header fields,
    gathered whole by httptools, appending each piece to the bytes so far,
    on the event loop. They were counted as body, so they had no bound: one
    connection sent 136 MiB of one trailer in 20 s (the server's memory
    grew by 250 MB) while every other request waited up to 6 s for the
    event loop. They are bounded as the request's line and headers are:
    431 past ``header_bytes`` (4 KiB here), at once."""
    server = serving(Bounds(header_bytes=4096, header_seconds=PATIENCE, body_seconds=60.0))
    body = json.dumps({"hand": "AS KS QS JS TS"}).encode()
    with server.connect() as conn:
        conn.sendall(
            b"POST /api/evaluate HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b"transfer-encoding: chunked\r\n\r\n"
            + f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\nx-pad: " + b"a" * 64 * 1024
            + (b"\r\n\r\n" if ended else b"")
        )
        started = time.monotonic()
        received = answer(conn)
        assert status(received) == 431 and time.monotonic() - started < PATIENCE / 2
        assert b"the request's line, headers and trailer fields are over 4,096 bytes" in received


def _trailer_of(size: int) -> bytes:
    """A trailer field that is ``size`` bytes with the blank line that ends
    the trailer (which :func:`_chunked` adds)."""
    return b"X-Pad: " + b"t" * (size - len(b"X-Pad: \r\n\r\n")) + b"\r\n"


@pytest.mark.parametrize("offsets", [(), (0,), (-1,), (-2, 1), (-3, -1, 2)], ids=["whole", "at", "-1", "-2+1", "-3-1+2"])
@pytest.mark.parametrize("first", ["none", "get", "chunked"])
@pytest.mark.slow
def test_a_requests_headers_and_trailer_fields_are_counted_together_exactly_wherever_the_reads_split_them(
    serving: Any, first: str, offsets: tuple[int, ...]
) -> None:
    """A chunked request whose line, headers and trailer fields (the blank
    line that ends them included) are exactly the bound's bytes is answered;
    a byte more is 431, on its own or behind another request, the stream cut
    into reads at and around every blank line (chunks' data with blank lines
    in it, and chunks' lines, are not counted)."""
    server = serving(Bounds(header_bytes=HEADER_BYTES))
    head = _chunked(COMPARE).split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n"
    before = b"" if first == "none" else _behind("get" if first == "get" else "chunked")
    for size, last in ((HEADER_BYTES - len(head), 200), (HEADER_BYTES - len(head) + 1, 431)):
        request = _chunked(COMPARE, _trailer_of(size))
        assert len(request) - len(_chunked(COMPARE)) + len(b"\r\n") == size  # (the blank line: counted either way)
        conn = server.connect()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for piece in _cuts(before + request + _get(server.port), offsets):
            try:
                conn.sendall(piece)
            except OSError:  # refused, and closed: the rest is not sent
                break
            time.sleep(0.005)
        expected = ([200] if before else []) + ([200, 200] if last == 200 else [431])
        assert answers(conn, len(expected) + (last == 431)) == expected, (first, size)


@pytest.mark.parametrize(
    "size_line", ["{:x}", "{:X}", "0" * 40 + "{:x}", "{:x};note=1"], ids=["hex", "upper", "leading-zeros", "extension"]
)
@pytest.mark.slow
def test_a_chunks_size_line_is_read_as_the_parser_reads_it(serving: Any, size_line: str) -> None:
    """Every form of a chunk's size line the parser takes (upper or lower
    case, any number of leading zeros, an extension) is read for the size
    it gives: the chunk's data, longer than the header bound, is body, and
    the trailer field after the last chunk (its size line of many zeros)
    counted with the headers."""
    server = serving(Bounds(header_bytes=HEADER_BYTES))
    body = json.dumps({"hands": ["AS KS QS JS TS", "2C 3C 4C 5C 7D"], "pad": "x" * 2 * HEADER_BYTES}).encode()
    head = _chunked(COMPARE).split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n"
    for trailer, expected in ((b"t" * 100, 200), (b"t" * HEADER_BYTES, 431)):
        conn = server.connect()
        conn.sendall(
            head + size_line.format(len(body)).encode() + b"\r\n" + body + b"\r\n" + b"0" * 40 + b"\r\nX-T: " + trailer + b"\r\n\r\n"
        )
        assert answers(conn, 1) == [expected], (size_line, len(trailer))
        conn.close()


@pytest.mark.slow
def test_trailer_fields_that_never_end_meet_the_header_deadline(serving: Any) -> None:
    """Trailer fields are on the headers' clock, from the body's last chunk:
    a few bytes of them that never end are 408 within ``header_seconds``,
    however long the body may take."""
    server = serving(Bounds(header_seconds=0.3, body_seconds=60.0))
    conn = server.connect()
    started = time.monotonic()
    conn.sendall(_chunked(COMPARE, b"X-Slow: a", ended=False))
    received = answer(conn)
    assert status(received) == 408 and b"the request's trailer fields did not come within 0.3 s" in received
    assert time.monotonic() - started < 3.0


@pytest.mark.parametrize("read_ahead", [1, 3])
@pytest.mark.slow
def test_a_pipelined_requests_trailer_fields_are_refused_after_the_answers_before_it(
    serving: Any, held_advisor: threading.Event, read_ahead: int
) -> None:
    """A request waiting for the answers before it (its headers in, its
    trailer over the bound; read ahead, or held unread until its turn) is
    never answered: the answers before it are sent, then its refusal, and
    the connection ends."""
    server = serving(Bounds(header_bytes=2048, read_ahead=read_ahead))
    advise = json.dumps({"hand": "AS KS QS JS TS", "top": 1}).encode()
    conn = server.connect()
    conn.sendall(
        b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        + f"content-length: {len(advise)}\r\n\r\n".encode() + advise
        + _get(server.port)
        + _chunked(COMPARE, b"X-Pad: " + b"a" * 4096 + b"\r\n")
    )  # fmt: skip
    server.until(lambda connections: any(c._refusal or c._unread for c in connections))
    held_advisor.set()
    assert answers(conn, 4) == [200, 200, 431] and closed(conn)


@pytest.mark.parametrize("sending", ["headers", "body", "trailer"])
@pytest.mark.slow
def test_a_refused_client_reads_its_answer_to_the_end_while_it_still_sends(serving: Any, sending: str) -> None:
    """A client refused while it still sends (headers over the bound, a
    body whose time is up, a trailer over the bound): the connection was
    closed with what the client sent unread, or sent later, and a closed
    connection answers bytes with a reset, which can take the refusal away
    before the client reads it (measured: 6 refusals of a 64 KiB trailer in
    300 lost so, the machine busy). The refused connection's side is closed
    after its answer (the client reads it to the end), and what the client
    still sends is read and dropped, until it closes or a moment passes."""
    server = serving(Bounds(header_bytes=2048, body_seconds=0.2))
    head = b"POST /api/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    first = {
        "headers": head + b"X-Big: " + b"a" * 4096,
        "body": head + b"content-length: 1000\r\n\r\n{",
        "trailer": _chunked(COMPARE, b"X-Pad: " + b"a" * 4096),
    }[sending]
    conn = server.connect()
    conn.sendall(first)
    received = answer(conn)  # to the end: the server's side is closed
    assert status(received) == {"headers": 431, "body": 408, "trailer": 431}[sending]
    assert json.loads(received.split(b"\r\n\r\n", 1)[1])["detail"]
    for _ in range(4):  # and what it still sends is taken (read and dropped), not reset
        conn.sendall(b"a" * 65536)
        time.sleep(0.05)
    conn.close()


# --- pipelined requests: a few parsed ahead of their answers, the rest unread ---------------------


def _most_read_ahead(server: Running, seconds: float) -> tuple[int, int]:
    """The most requests any connection held parsed ahead of their answers,
    and the most bytes it held unread, watched for ``seconds``."""
    most = held = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for c in list(server.server.server_state.connections):
            if isinstance(c, GuardedHttpTools):
                most, held = max(most, len(c.pipeline)), max(held, len(c._unread))
        time.sleep(0.02)
    return most, held


@pytest.mark.parametrize("read_ahead", [1, 3])
@pytest.mark.slow
def test_a_connection_holds_few_requests_read_ahead_of_their_answers(serving: Any, read_ahead: int) -> None:
    """Each pipelined request's headers are bounded, but not how many were
    read ahead of their answers: a read (up to 256 KiB) was parsed whole,
    each request in it made into a request cycle queued on the connection
    (about 2.5 KB each, made on the event loop). Measured with ``fivecard
    serve``: 16 connections that sent 256 KiB of small GETs each (4 MiB in
    all) and read nothing stalled every other client for 5.7 s and took
    190 MB; 128 such connections (of the 512 one address may hold) took
    1.5 GB and kept a fresh client waiting over 30 s. Behind an event
    stream, which is never timed out, they were held for as long as the
    client liked. A connection holds :attr:`Bounds.read_ahead` requests read
    ahead at most (one unless told); the rest of what the client sent waits
    unread (one read at most: reading waits)."""
    bounds = Bounds(header_bytes=4096, header_seconds=PATIENCE, body_seconds=60.0, read_ahead=read_ahead)
    server = serving(bounds)
    table_id = TestClient(server.app).post("/api/tables", json={}).json()["id"]
    small = b"GET /static/favicon.svg HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n"
    with server.connect() as conn:
        conn.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n".encode() + small * 2000)
        most, held = _most_read_ahead(server, 2.0)
    assert most == read_ahead, f"{most:,} requests were read ahead of their answers on one connection"
    assert 0 < held <= 256 * 1024


@pytest.mark.parametrize("kind", ["get", "length", "chunked"])
@pytest.mark.slow
def test_what_waits_unread_is_answered_in_turn_once_the_answers_catch_up(
    serving: Any, held_advisor: threading.Event, kind: str
) -> None:
    """Behind an answer being worked out, requests of every kind (bodiless,
    with a length, chunked) wait unread but for one: what came in the read
    is held, and what comes after it is not read at all (reading waits);
    once the answer is sent, each is answered in turn, all of them."""
    server = serving(Bounds(header_bytes=HEADER_BYTES))
    advise = json.dumps({"hand": "AS KS QS JS TS", "top": 1}).encode()
    request, count = _behind(kind), 100
    conn = server.connect()
    conn.sendall(
        b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        + f"content-length: {len(advise)}\r\n\r\n".encode() + advise + request * count
    )  # fmt: skip
    server.until(lambda connections: any(c._unread for c in connections))
    (guarded,) = [c for c in server.server.server_state.connections if c._unread]
    held = len(guarded._unread)
    conn.sendall(request * count)  # more, while reading waits
    most, _ = _most_read_ahead(server, 0.3)
    assert most == 1 and 0 < held == len(guarded._unread) <= 256 * 1024  # (what the read brought past the request read ahead)
    held_advisor.set()
    assert answers(conn, 2 * count + 1) == [200] * (2 * count + 1)
    conn.close()


@pytest.mark.slow
def test_an_event_stream_is_not_timed_out(serving: Any) -> None:
    server = serving(Bounds(header_seconds=0.2, body_seconds=0.2))
    table_id = TestClient(server.app).post("/api/tables", json={}).json()["id"]
    conn = server.connect()
    conn.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    received = b""
    while b"event: table_opened" not in received:
        received += conn.recv(65536)
    time.sleep(1.0)  # five times every timeout: the stream stays
    TestClient(server.app).post(f"/api/tables/{table_id}/seats", json={"name": "Ann"})
    while b"event: seat_joined" not in received:
        chunk = conn.recv(65536)
        assert chunk, "the stream was closed"
        received += chunk


@pytest.mark.slow
def test_past_the_connection_limit_the_idlest_makes_room(serving: Any) -> None:
    server = serving(Bounds(connections=8, per_address=16))  # (one address: its share is not the subject)
    idle = []
    for _ in range(12):
        idle.append(server.connect())
        time.sleep(0.01)  # in order: the oldest is idlest
    conn = server.connect()
    conn.sendall(GET)
    assert first_answer(conn)[0] == 200  # a normal request is answered
    assert [closed(c) for c in idle[:5]] == [True] * 5  # the five oldest made room
    for c in idle[5:]:
        c.settimeout(0.2)
        with pytest.raises(TimeoutError):
            c.recv(1)  # the others are still held


def test_when_every_connection_is_busy_a_new_one_is_503(serving: Any) -> None:
    server = serving(Bounds(connections=4, body_seconds=PATIENCE * 10))  # three event streams at most
    table_id = TestClient(server.app).post("/api/tables", json={}).json()["id"]
    streams = []
    for _ in range(3):
        conn = server.connect()
        conn.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        received = b""
        while b"retry: 1000" not in received:
            received += conn.recv(65536)
        streams.append(conn)
    fourth = server.connect()
    fourth.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    code, body = first_answer(fourth)
    assert code == 503 and "as many event streams as it can (3)" in json.loads(body)["detail"]
    # a body on its way: busy as well
    fourth.sendall(b"POST /api/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{")
    server.until(lambda connections: not any(c._idle() for c in connections))
    fifth = server.connect()
    received = answer(fifth)
    assert status(received) == 503 and b"as many connections as it can" in received
    for conn in streams:
        conn.close()


@pytest.mark.slow
def test_one_address_holds_at_most_its_share_of_the_connections(serving: Any) -> None:
    server = serving(Bounds(connections=64, body_seconds=PATIENCE * 10))
    assert Bounds(connections=64).address_share == 8
    held = [server.connect() for _ in range(4)]  # idle
    for _ in range(4):  # bodies on their way
        conn = server.connect()
        conn.sendall(b"POST /api/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{")
        held.append(conn)
    server.until(lambda connections: len(connections) == 8)
    ninth = server.connect()
    received = answer(ninth)
    assert status(received) == 503
    assert json.loads(received.split(b"\r\n\r\n", 1)[1]) == {
        "detail": "this address holds as many connections as one address may (8): close some, or try again in a moment"
    }
    other = server.connect("127.0.0.2")  # another address is answered
    other.sendall(GET)
    assert first_answer(other)[0] == 200
    for conn in held:
        conn.settimeout(0.2)
        with pytest.raises(TimeoutError):
            conn.recv(1)  # the address's eight are all still held
    held.pop(0).close()  # one goes: there is room for one more
    server.until(lambda connections: sum(c.client[0] == "127.0.0.1" for c in connections) == 7)
    again = server.connect()
    again.sendall(GET)
    assert first_answer(again)[0] == 200
    assert status(answer(server.connect())) == 503  # and no more


def test_the_addresses_of_one_network_share_an_addresss_connections(serving: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """An address is its network (:func:`~fivecard.web.clients.client_network`:
    an IPv6 client's /48): the connections of every address in it count
    together. The loopback has no IPv6 network of many addresses, so here
    127.0.0.1 and 127.0.0.2 stand for two addresses of one /48."""
    monkeypatch.setattr(
        fivecard.web.server, "client_network", lambda address: "one network" if address in ("127.0.0.1", "127.0.0.2") else address
    )
    server = serving(Bounds(connections=64, per_address=2))
    held = [server.connect("127.0.0.1"), server.connect("127.0.0.2")]
    server.until(lambda connections: len(connections) == 2)
    received = answer(server.connect("127.0.0.2"))
    assert status(received) == 503 and b"this address holds as many connections as one address may (2)" in received
    other = server.connect("127.0.0.3")  # another network is answered
    other.sendall(GET)
    assert first_answer(other)[0] == 200
    for conn in held:
        conn.close()


def test_an_address_share_is_an_eighth_of_the_connections_and_at_least_eight() -> None:
    assert [Bounds(connections=n).address_share for n in (32, 64, 65, 800, 4096)] == [8, 8, 8, 100, 512]
    assert Bounds(connections=4096, per_address=3).address_share == 3


@pytest.mark.slow
def test_a_client_that_reads_no_answer_is_let_go(serving: Any) -> None:
    server = serving(Bounds(write_seconds=0.3), send_buffer=4096)
    client = TestClient(server.app)
    table_id = client.post("/api/tables", json={}).json()["id"]
    for i in range(400):
        client.post(f"/api/tables/{table_id}/chat", json={"text": f"{i} " + "x" * 490})
    conn = socket.socket()
    conn.settimeout(PATIENCE)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.connect(("127.0.0.1", server.port))
    conn.sendall(f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    # the events (200 KB) fill every buffer; the server stops waiting for this client
    server.until(lambda connections: any(not c._idle() for c in connections))  # the stream is answering
    server.until(lambda connections: not connections)  # and let go
    received = answer(conn)  # what the buffers held, then the end
    assert 0 < len(received) < 150_000


def test_the_default_bounds_leave_room_for_the_processes_files() -> None:
    bounds = Bounds()
    assert 32 <= bounds.connections <= max(32, descriptor_limit() - 200)
    assert bounds.streams < bounds.connections
