"""Every request names a host the server answers to (``_KnownHost``), or is
421 with a sentence: a page whose own name was pointed at this computer
(DNS rebinding) is the app's origin to its browser, and only the name it
sends gives it away. The routes are walked from the app (every path,
every method, the static files and the event stream), and the hosts from a
list of those answered and those refused."""

from __future__ import annotations

import asyncio
import io
import socket
import warnings
from collections.abc import Iterator, MutableMapping
from typing import Any
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from starlette.routing import Mount, Route
    from starlette.websockets import WebSocketDisconnect

from fivecard.cli import main
from fivecard.web.app import BadHostName, allowed_hosts, create_app, host_name

#: Hosts answered by default: IP literals (with or without a port), localhost and its subdomains.
ANSWERED = [
    "127.0.0.1",
    "127.0.0.1:8000",
    "192.168.1.20:8000",
    "0.0.0.0",
    "[::1]",
    "[::1]:8000",
    "[fe80::1]:80",
    "[::ffff:127.0.0.1]",
    "localhost",
    "localhost:8000",
    "LocalHost:8000",
    "localhost.",
    "fivecard.localhost",
    "a.b.localhost:9",
]
#: Hosts refused by default: names (a rebinding page's), and what is no host at all.
REFUSED = [
    "evil.example",
    "evil.example:8000",
    "127.0.0.1.evil.example",
    "localhost.evil.example",
    "evillocalhost",
    "localhost:8000.evil.example",
    "testserver",
    "poker.lan",
    "x",
    "",
    " ",
    "a b",
    "127.0.0.1:http",
    "127.0.0.1:123456",
    "[::1",
    "[::1]x",
    "[127.0.0.1]",
    "::1]",
    "evil.example/path",
    "user@127.0.0.1",
]


def _app(tmp_path: Path, **kwargs: object) -> FastAPI:
    return create_app(tmp_path / "data", **kwargs)  # type: ignore[arg-type]


#: Methods asked of every path besides its route's own (none of them is a route's).
OTHER_METHODS = ("HEAD", "OPTIONS", "PATCH", "PUT")


def every_request(app: FastAPI) -> Iterator[tuple[str, str]]:
    """Every (method, path) of the app, its path parameters filled in: each
    route's methods and :data:`OTHER_METHODS`, the static files (one there,
    one not) and the OpenAPI document."""
    for route in app.routes:
        if isinstance(route, Route) and route.methods:
            path = route.path_format.format(**{name: "1" for name in route.param_convertors})
            for method in sorted(route.methods | set(OTHER_METHODS)):
                yield method, path
        elif isinstance(route, Mount):
            for method in ("GET", *OTHER_METHODS):
                yield method, route.path + "/app.css"
            yield "GET", route.path + "/no-such-file"


def test_the_walk_finds_every_kind_of_request(tmp_path: Path) -> None:
    found = set(every_request(_app(tmp_path)))
    assert {("GET", "/"), ("GET", "/static/app.css"), ("GET", "/openapi.json"), ("GET", "/api/tables/1/events")} <= found
    assert {("POST", "/api/games"), ("DELETE", "/api/tables/1/seats/1"), ("HEAD", "/check")} <= found


@pytest.mark.parametrize("host", REFUSED)
@pytest.mark.slow
def test_a_host_the_server_does_not_answer_to_is_421_on_every_route(tmp_path: Path, host: str) -> None:
    app = _app(tmp_path)
    client = TestClient(app)
    detail = _refusal(host)
    for method, path in every_request(app):
        answer = client.request(method, path, headers={"host": host, "content-type": "application/json"}, content=b"{}")
        assert answer.status_code == 421, (method, path, host)
        assert answer.headers["x-frame-options"] == "DENY"  # the security headers are on a refusal too
        assert "set-cookie" not in answer.headers
        if method != "HEAD":
            assert answer.json() == {"detail": detail}, (method, path)


def _refusal(host: str) -> str:
    """What the app says of a request naming ``host`` (a name it does not
    answer to: how to allow it; anything else: that it is no host)."""
    name = host.lower().removesuffix(":8000")
    if name.replace(".", "").replace("-", "").isalnum() and name.isascii():
        return (
            f"this server does not answer to the host {name!r} (a page under that name may have been pointed "
            f"at this computer); to allow it, start fivecard serve with --allow-host {name}"
        )
    return f"this request's Host header {host!r} is not a host name or an IP address"


@pytest.mark.parametrize("host", ANSWERED)
@pytest.mark.slow
def test_ip_literals_and_localhost_are_answered_on_every_route(tmp_path: Path, host: str) -> None:
    app = _app(tmp_path)
    client = TestClient(app, raise_server_exceptions=False)
    for method, path in every_request(app):
        if path.endswith("/events"):
            continue  # a stream that stays open: below
        answer = client.request(method, path, headers={"host": host, "content-type": "application/json"}, content=b"{}")
        assert answer.status_code != 421, (method, path, host, answer.text)


@pytest.mark.slow
def test_the_event_stream_checks_its_host_before_it_opens(tmp_path: Path) -> None:
    app = _app(tmp_path, allow_hosts=["testserver"])
    client = TestClient(app)
    table_id = client.post("/api/tables", json={}).json()["id"]
    refused = client.get(f"/api/tables/{table_id}/events", headers={"host": "evil.example"})
    assert refused.status_code == 421
    with client.stream("GET", f"/api/tables/{table_id}/events", headers={"host": "127.0.0.1:8000"}) as answer:
        assert answer.status_code == 200
        assert next(answer.iter_bytes()).startswith(b"retry:")


def _ask(app: FastAPI, headers: list[tuple[bytes, bytes]]) -> tuple[int, bytes]:
    """A GET of ``/`` with exactly these headers, straight to the app (a
    test client adds its own Host)."""
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": "/", "raw_path": b"/", "root_path": "", "query_string": b"", "headers": headers,
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    return int(sent[0]["status"]), b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_two_host_headers_none_or_one_not_in_ascii_are_421(tmp_path: Path) -> None:
    app = _app(tmp_path)
    assert _ask(app, [(b"host", b"127.0.0.1")])[0] == 200
    status, body = _ask(app, [])
    assert status == 421 and b"names no host" in body
    status, body = _ask(app, [(b"host", b"127.0.0.1"), (b"host", b"evil.example")])
    assert status == 421 and b"more than one host" in body
    status, body = _ask(app, [(b"host", "évil.example".encode())])
    assert status == 421 and b"is not a host name" in body


def test_a_websocket_naming_another_host_is_closed(tmp_path: Path) -> None:
    client = TestClient(_app(tmp_path))
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/", headers={"host": "evil.example"}):
            pass
    assert closed.value.code == 1008 and "evil.example" in closed.value.reason


def test_names_given_to_the_app_and_this_computers_names_are_answered(tmp_path: Path) -> None:
    app = _app(tmp_path, allow_hosts=["Poker.LAN.", "proxy.example.org"])
    client = TestClient(app)
    names = [socket.gethostname(), socket.getfqdn(), "poker.lan", "POKER.lan:8000", "proxy.example.org"]
    for name in names:
        assert client.get("/", headers={"host": name}).status_code == 200, name
    assert client.get("/", headers={"host": "other.example.org"}).status_code == 421
    assert client.get("/", headers={"host": "lan"}).status_code == 421  # a name, not its suffix


@pytest.mark.parametrize("name", ["a b", "poker.lan:8000", "-poker.lan", "poker..lan", "http://poker.lan", "", "é.example"])
def test_a_name_to_allow_that_is_no_host_name_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(BadHostName, match="is not a host name"):
        host_name(name)
    with pytest.raises(BadHostName):
        _app(tmp_path, allow_hosts=[name])
    assert not (tmp_path / "data").exists()  # refused before the data folder is made


def test_host_names_are_kept_as_requests_name_them() -> None:
    assert host_name(" Poker.LAN. ") == "poker.lan"
    assert host_name("[::1]") == "::1"
    assert "poker.lan" in allowed_hosts(["POKER.lan"])


def _serve(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["serve", "--check", "--port", "0", *args], stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_serve_answers_its_own_address_and_refuses_a_bad_allow_host(tmp_path: Path) -> None:
    code, out, err = _serve("--data", str(tmp_path / "data"), "--host", "localhost", "--allow-host", "poker.lan")
    assert code == 0, err
    assert "ok: the app works" in out
    code, out, err = _serve("--data", str(tmp_path / "data"), "--allow-host", "poker.lan:8000")
    assert code == 2
    assert err.strip().splitlines() == [
        "fivecard: error: --allow-host: 'poker.lan:8000' is not a host name (letters, digits and hyphens, "
        "in labels between dots) or an IP address"
    ]
