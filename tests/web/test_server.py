"""The HTTP server's bounds (:mod:`fivecard.web.server`), with real sockets
against the app under uvicorn with :class:`GuardedHttpTools` (small bounds,
so that each limit is met at once): request headers are bounded in size
(431) and in time (408, or closed when nothing came), and so is a body
(408), for every request on a connection, pipelined ones too (sent before
the previous answer, several in a read or one across reads); an event
stream, which cannot be timed out, is not; past the connection limit the
idlest connection makes room, or the new one is told 503 when every other
is busy; one address holds no more than its share of the connections
(503); event streams are bounded apart (503); a client that reads no
answer is let go."""

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


@pytest.fixture
def held_advisor(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """``/api/advise`` held at work until the test sets the event."""
    go, real = threading.Event(), fivecard.play.advise.advise

    def advise(*args: Any, **kwargs: Any) -> Any:
        assert go.wait(PATIENCE)
        return real(*args, **kwargs)

    monkeypatch.setattr(fivecard.web.app, "advise", advise)
    yield go
    go.set()


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
    an IPv6 client's /64): the connections of every address in it count
    together. The loopback has no IPv6 network of many addresses, so here
    127.0.0.1 and 127.0.0.2 stand for two addresses of one /64."""
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
